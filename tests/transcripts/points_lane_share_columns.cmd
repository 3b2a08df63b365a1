# args: @FIXTURES@/cross_core_bidirect_leftright_910b
# A lane's share along columns (LEFT_RIGHT split, docs/program-points.md,
# "Lanes"). In pass 21 each vector lane loads its 32 columns of a and adds
# 1.0 to them; pass 20 does that to all 64 columns on the host. AIV1's
# a_add__tile is columns 32:64 of pass 20's: matched by provenance as that
# share, compared on it, equal. aic_gather then puts both lanes' columns
# together (on AIV0 here): that is pass 20's a_add__tile, all of it,
# matched by provenance too, equal.
pass 21
break 15
run
continue
next
diff a_add__tile pass 20
delete
break 17
continue
continue
diff a_add__tile_Left_mat pass 20

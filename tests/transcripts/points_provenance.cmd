# args: @FIXTURES@/mixed_kernel_updown_910b
# Intermediates matched by provenance (docs/program-points.md): in pass 22
# ExpandMixedKernel has split mixed_up_down into an AIC and an AIV kernel.
# t__tile (AIV1's add of the popped matmul share and its bias rows) is no
# load, store or pop, yet it is the same data computed by the same ops as
# pass 21's t__tile on AIV1 (aiv_shard there, a queue split here): matched
# exactly, equal. The AIC's K-split accumulator is pass 21's too; pass 15,
# before AutoTileMatmulL0, computes no value from the same data by the same
# ops (one matmul, no extract): no counterpart, said plainly. Stopped on
# AIV1 before the add, `pass 21` goes to where pass 21 is about to compute
# the same value (on AIV1, in mixed_up_down), and `pass 22` back.
pass 22
break 34
run
continue
diff t__tile pass 21
delete
break 21
run
next
diff acc__tile_l0_c_acc pass 21
diff acc__tile_l0_c_acc pass 15
delete
break 33
run
continue
pass 21
pass 22

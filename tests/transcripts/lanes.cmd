# args: @SRCDIR@/examples/mlp-broken
# After ExpandMixedKernel each AIV lane holds half of what the host computed
# in pass 18: lane 0 rows 0:8, lane 1 rows 8:16. Both halves equal pass 18's.
pass 22
break 62
run
diff t__tile_9 pass 18
continue
diff t__tile_9 pass 18
diff t__tile_9[0:2, 0:4] pass 18

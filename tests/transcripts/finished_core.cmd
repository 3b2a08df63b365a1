# args: @SRCDIR@/examples/mlp-broken
pass 22
break 22_after_ExpandMixedKernel.py:73
run
core list
queue show
core aic
print i0__ssa_v0
print t__tile_10
next
core

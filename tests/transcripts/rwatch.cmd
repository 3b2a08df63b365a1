# args: @SRCDIR@/examples/mlp-broken
# gdb's rwatch and awatch on tensors: the machine reports each op's
# operands; the stop names the lane, function and line that read it. Both
# AIV lanes load their half of x; awatch on rows 8:16 of out stops only for
# lane 1's store (lane 0's store leaves those rows as they were, and a
# store's destination is written, not read).
pass 22
rwatch
awatch x__ssa_v0[0:2,
watch x[0]]
rwatch x__ssa_v0
awatch out__ssa_v0[8:16, :]
info breakpoints
run
continue
continue
continue
info breakpoints
# a subscript that selects nothing of the tensor bound now is refused
start
rwatch x__ssa_v0[99:100, :]
rwatch x__ssa_v0[0, 0, 0]

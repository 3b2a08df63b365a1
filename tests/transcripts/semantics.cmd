# args: @SRCDIR@/examples/spmd
show semantics
pass 22
break 14
run
print block_idx__ssa_v0
print offset__ssa_v0
continue
print block_idx__ssa_v0
print offset__ssa_v0
delete
continue
set semantics ref
run
set semantics bogus
show semantics
set semantics device
info semantics

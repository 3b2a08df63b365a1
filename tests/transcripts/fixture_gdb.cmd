# args: @FIXTURES@/mixed_kernel_updown_910b
# Issue 15's wrong answers on a real case: inside the AIV kernel, `p bias`
# names the tensor it took (the parameter bias__ssa_v0, [128,128]) and the
# other one in scope (bias__tile, [64,128]); `rwatch bias` stops on each
# AIV lane's load of it; `watch out` stops at the AIV lane and line that
# wrote it (not the host waiting for its group call), with old and new value.
pass 22
break 33
run
print bias[0, 0:2]
whatis bias
delete
rwatch bias
watch out
continue
continue
continue
continue
info breakpoints

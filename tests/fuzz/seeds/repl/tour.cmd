pass 22
list
info passes
break mlp_fused_aiv if max > 1
tbreak 22_after_ExpandMixedKernel.py:40
watch out__ssa_v0 if mismatch > 1%
run
backtrace
info locals
print x__ssa_v0[0:2, 0:3]
print golden.out
display norm_w__ssa_v0
step
next
core aic
queue
finish
until 60
continue
diff
info breakpoints
delete 1
define twice
$arg0
$arg0
end
document twice
Runs a command two times.
end
twice next
set print elements 4
show print elements
pass prev
bisect
kill
echo done\n

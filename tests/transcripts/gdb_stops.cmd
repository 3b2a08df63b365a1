# args: @SRCDIR@/examples/mlp-broken
# gdb's stop reports: a watchpoint names the lane and line that wrote the
# value and shows old and new values; a watchpoint on a slice fires only
# when that part changes; `silent` breakpoint commands; "Note: breakpoint
# also set"; `break N` in the pass selected with `pass N`.
pass 22
watch out
watch out[8:16, 0:2]
run
continue
continue
continue
info breakpoints
delete
kill
break 72
break 72
tbreak 72
delete
break 57
commands
silent
echo [silent stop] ib=
output ib
echo \n
end
run
continue
delete
pass 18
break 20
info breakpoints
# until without an argument runs a loop to its end (ib goes from 0 to its
# last value, 1) and stops at the first line after the loop
delete
kill
pass 11
tbreak 39
run
print ib
until
print ib
# until LINE stops at the line, or when the frame returns (line 20 is
# before the stop: the frame returns first)
until 20
info frame
# gdb's expression conditions: tested where the line is reached, in the
# frame of the core that reached it (ib is 1 only in the second iteration)
delete
kill
break 29 if ib == 1
run
print ib
info breakpoints
delete
break 29 if max(abs(up__tile)) > 1000
run
delete
break 29 if nosuch > 1
run
delete
break mlp_fused
condition $bpnum 2 > 3
run
break pass 11 if ib == 1

# args: @SRCDIR@/examples/mlp-broken
pass 22
break 22_after_ExpandMixedKernel.py:67
run
when
continue
when
reverse-continue
when
reverse-step
step
when
reverse-next
next
checkpoint
seek @40
info position
restart 1
reverse-finish
core list
seek 22:AIV0:1:67:2
set exec-direction reverse
continue
step
set exec-direction forward
step
delete
watch t__tile_Vec
continue
continue
reverse-continue
continue
rc
rc
rs
info checkpoints
seek bogus
seek 22:XPU:1:1:1
seek 21:AIV0:1:67:1
seek 22:AIV0:1:67:99
restart 9
set exec-direction sideways
kill
reverse-step

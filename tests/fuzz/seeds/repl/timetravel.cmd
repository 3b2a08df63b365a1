pass 22
break 22_after_ExpandMixedKernel.py:67
run
when
reverse-step
step
reverse-next 2
checkpoint
seek @40
seek 22:AIV0:1:67:1
seek 22:AIC:0:1:1
seek @99999999999999999999
info position
info checkpoints
restart 1
reverse-finish
watch t__tile_Vec
continue
reverse-continue
rc
set exec-direction reverse
step
next
finish
continue
set exec-direction forward
set checkpoint-interval 0
rs 3
set print position on
step
set var t__tile_Vec[0, 0] = 1
rs
kill

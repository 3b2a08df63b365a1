#multirank
pass 2
set schedule random:3
set comm-order ready
set comm-order program
break 27
watch signal rank 0
run
continue
continue
reverse-continue
reverse-step
reverse-next
when
seek 2:r1:host:1:22:1
seek 2:r9:host:1:22:1
seek 2:host:1:15:1
seek @3
reverse-finish
step
continue
continue
continue
seek @1
checkpoint
info checkpoints
set exec-direction reverse
step
set exec-direction forward
pass 0
run
continue

#multirank
pass 2
start
info ranks
next
next
print u - t
break 27
break 22 rank 1
continue
watch signal rank 0
info breakpoints
continue
info ranks
queue show
next
queue show
info cores
rank 0
print signal
continue
info ranks
rank 2
break 22 rank 2
pass 0
run
rank 1
break 23 rank 1
watch signal
run
continue
queue show
info cores
pass 1
run
info ranks

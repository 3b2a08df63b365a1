# args: @SRCDIR@/examples/mlp-broken
# gdb's rule: a breakpoint's commands that end in `continue` resume after
# this stop is over; the next stop still runs hook-stop and its own
# commands, and what follows the continue in the list is not run.
pass 11
define hook-stop
echo [hook-stop]\n
end
break 29
commands
echo first stop\n
continue
echo never printed\n
end
break 30
commands
e# args: @SRCDIR@/examples/mlp-broken
# After ExpandMixedKernel each AIV lane holds half of what after_ExpandMixedKernel.py:67
ruhwn
en
reverse-step
step
reverse-next 2
checkpoint
seek @40
seek 22:AIV0:1:67:1
seek 22:AIC:0:1:e_9 pass 18
continue
diff t__tile_9 pass 18
diff t__tile_9[0:2, 0:4] pass 18
cho second stop\n
end
run
info breakpoints

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
echo second stop\n
end
run
info breakpoints

# args: @SRCDIR@/examples/mlp-broken
# gdb's bpstat: every breakpoint that hits at a stop is in its chain, in
# table order; hook-stop runs once (before the stop is printed, as gdb's),
# then each hit's commands after the report; a continue
# ends its own list only, and resumes after the stop's other commands.
# A watchpoint written by the statement before a breakpoint's line is
# reported in the same stop (it used to be lost).
pass 11
define hook-stop
echo [hook-stop]\n
end
break 29
commands
echo bp1 first\n
continue
echo never printed\n
end
break 29
commands
echo bp2 runs too\n
end
watch t__tile_7
commands
echo watch hit\n
end
break 31
commands
echo bp4 at 31\n
end
run
info breakpoints

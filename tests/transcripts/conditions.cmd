# args: @SRCDIR@/examples/mlp-broken
# A condition that cannot be tested (no golden for a tile) stops, as gdb
# does, with gdb's error line, and never claims it held; one that can be
# tested is reported as holding.
pass 11
break 30 if max_abs_diff > 1e-3
run
delete
break 30 if max > 0
run
delete
break pass 11 if max_abs_diff > 1e-3
run
# a pass breakpoint that fires at the end of its pass is a stop like any
# other: its commands run (no location: the run is over)
commands
echo [pass 11 failed its condition]\n
end
run

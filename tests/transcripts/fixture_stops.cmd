# args: @FIXTURES@/qwen3_scope3_910b
# Issue 15's wrong answers on a real case (pass 32, lines past 230): a
# breakpoint whose commands end in continue leaves the next stop its
# hook-stop and commands; `list` centres on the stop; `up` and `info frame`
# show the caller; `finish` prints "Value returned is $1"; a condition that
# cannot be tested stops with gdb's error line and never claims it held.
pass 32
define hook-stop
echo [hook-stop]\n
end
break 231
commands
echo first stop\n
continue
echo never printed\n
end
break 232
commands
echo second stop\n
end
run
list
up
info frame
delete
down
finish
whatis $1
break 233 if max_abs_diff > 1e-3
run

# args: @SRCDIR@/examples/mlp-broken
# gdb's frame commands after a stop: `list` is centred on the stop line and
# a second `list` continues; `up`, `frame 1` and `down` print the frame's
# source line; `info frame` gives function, call site, caller, loops and
# args; `finish` finishes the selected frame (refused in the outermost)
# and prints "Value returned is $N" (a history value); `list`
# after it centres on the new stop.
pass 11
break 29
run
delete
list
list
up
frame 1
down
info frame
# finish acts on the selected frame: frame 1 is the pass's entry
up
finish
down
finish
whatis $
print $1[0, 0:2]
list

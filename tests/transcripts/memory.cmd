# args: @SRCDIR@/examples/memory
pass 36
catch memory
info breakpoints
info memory
run
info memory
continue
pass 41
run
info memory
delete 1
run
set memcheck off
pass 36
run
quit

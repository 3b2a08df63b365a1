# args: @SRCDIR@/examples/mlp
# break on a function no pass defines, as gdb: said so, then the question,
# answered no on input that is not a terminal (transcripts); `set breakpoint
# pending` on makes it pending, off an error with no question
break nosuchfunc
info breakpoints
show breakpoint pending
set breakpoint pending off
break nosuchfunc
set breakpoint pending on
break nosuchfunc
tbreak other_func if ib__idx_v0 == 1
break mlp_fused
info breakpoints
set breakpoint pending maybe
set breakpoint pending auto
break mlp_fused_aiv
define setbp
break $arg0
end
setbp still_nosuch
info breakpoints

# args: @SRCDIR@/examples/mlp
pass 22
break mlp_fused_aiv
run
next
reverse-step
step
reverse-step
reverse-step
reverse-step
step
core list
when
seek @3
core host
when
seek 22:host:1:77:1+2
reverse-step
step
delete
break 82
seek @174
core host
reverse-next
next
reverse-step
step
reverse-continue
reverse-continue
core aiv0
seek 22:AIV0:1:73:1
step
core aiv0
reverse-step
step
seek 22:AIV0:1:73:1+99

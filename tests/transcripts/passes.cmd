# args: @SRCDIR@/examples/mlp-broken
pass
pass list
pass next
pass 11
pass diff 9 11
pass ConvertToSSA
pass prev
pass prev
pass 22
pass next
pass 99
pass NoSuchPass
pass diff 4 4
list mlp_block
list
list -
list 2,4
list 9999
list nosuchfunc
list 5,2
info
info nothing
open /nonexistent/case
pass

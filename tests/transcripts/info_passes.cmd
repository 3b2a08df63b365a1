# args: @SRCDIR@/examples/mlp-broken
info passes
bisect
info passes
pass 4
run
pass list

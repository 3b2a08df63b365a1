# args: @SRCDIR@/examples/mlp
compare @SRCDIR@/examples/mlp-broken
compare @SRCDIR@/examples/mlp
compare
compare @TMP@/no-such-build

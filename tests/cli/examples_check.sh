#!/bin/sh
# ptodb --check accepts every bundled example case (examples/README.md):
# exit 0 and nothing on stderr, for each examples/*/passes_dump.
set -e
. "$top_srcdir/tests/cli/lib.sh"

run_ptodb --help
case "$out" in
*--check*) ;;
*) skip "this ptodb has no --check option" ;;
esac

n=0
for dir in "$top_srcdir"/examples/*/passes_dump; do
    [ -d "$dir" ] || continue
    run_ptodb --check "$dir"
    expect_eq "ptodb --check $dir: exit status" 0 "$rc"
    expect_eq "ptodb --check $dir: stderr" "" "$err"
    n=$((n + 1))
done
[ "$n" -ge 3 ] || fail "expected the mlp, mlp-broken and deadlock examples under $top_srcdir/examples, found $n"

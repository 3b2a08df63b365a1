#!/bin/sh
# docs/ops.md carries the op table exactly as `ptodb --list-ops` prints it,
# and the REPL's `info ops` prints the same table.
set -e
. "$top_srcdir/tests/cli/lib.sh"

doc="$top_srcdir/docs/ops.md"
[ -f "$doc" ] || fail "missing $doc"
run_ptodb --list-ops
expect_eq "--list-ops exit" 0 "$rc"
listed=$out
documented=$(sed -n '/^<!-- ops table begin -->$/,/^<!-- ops table end -->$/p' "$doc" | sed '1,2d;$d' | sed '$d')
[ "$listed" = "$documented" ] ||
    fail "docs/ops.md's table differs from ptodb --list-ops (regenerate it: scripts/update-ops-doc)"
expect_contains "summary" "312 ops: " "$listed"
expect_contains "dist.* are not run" "dist.make_tensor                   no " "$listed"

run_ptodb --nw --nx -ex 'info ops' -ex quit
expect_contains "info ops" "$(printf '%s\n' "$listed" | grep '^tile.sin ')" "$out"
expect_contains "info ops summary" "$(printf '%s\n' "$listed" | tail -1)" "$out"
exit 0

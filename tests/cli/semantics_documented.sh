#!/bin/sh
# docs/ops.md carries the table of device/ref differences exactly as
# `ptodb --list-semantics` prints it, and the REPL's `info semantics` prints
# the same table after the semantics it runs under.
set -e
. "$top_srcdir/tests/cli/lib.sh"

doc="$top_srcdir/docs/ops.md"
[ -f "$doc" ] || fail "missing $doc"
run_ptodb --list-semantics
expect_eq "--list-semantics exit" 0 "$rc"
listed=$out
documented=$(sed -n '/^<!-- semantics table begin -->$/,/^<!-- semantics table end -->$/p' "$doc" | sed '1,2d;$d' | sed '$d')
[ "$listed" = "$documented" ] ||
    fail "docs/ops.md's semantics table differs from ptodb --list-semantics (regenerate it: scripts/update-ops-doc)"
expect_contains "count" "places where --semantics=device (the default) and --semantics=ref differ:" "$listed"
# every row names its device behaviour, REF's and a source
rows=$(printf '%s\n' "$listed" | grep -c '^[a-z-]* (')
[ "$rows" -eq "$(printf '%s\n' "$listed" | grep -c '^  source: ')" ] || fail "a row without a source"
[ "$rows" -ge 5 ] || fail "only $rows rows"

run_ptodb --nw --nx -ex 'info semantics' -ex 'set semantics ref' -ex 'info semantics' -ex quit
expect_contains "info semantics" "This session runs passes under --semantics=device (set semantics device|ref)." "$out"
expect_contains "info semantics after set" "This session runs passes under --semantics=ref (set semantics device|ref)." "$out"
expect_contains "info semantics table" "$(printf '%s\n' "$listed" | sed -n 3p)" "$out"
run_ptodb --nw --nx --semantics=ref -ex 'show semantics' -ex quit
expect_contains "--semantics reaches the session" "semantics            ref          (--semantics)" "$out"
exit 0

#!/bin/sh
# The man page's COMMANDS and SETTINGS sections are exactly what the command
# and settings tables generate (run `make man-commands` after changing them),
# and every command of `help` appears in it.
set -e
. "$top_srcdir/tests/cli/lib.sh"

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$top_srcdir/scripts/gen-man-commands" "$top_builddir" "$tmp"
if ! cmp -s "$tmp" "$top_srcdir/man/ptodb.1"; then
    diff -u "$top_srcdir/man/ptodb.1" "$tmp" >&2 || true
    fail "man/ptodb.1 is out of date with the command table: run 'make man-commands'"
fi
run_ptodb --nw --nx -ex help
for c in $(printf '%s\n' "$out" | sed -n 's/^\([a-z][a-z-]*\) *-- .*/\1/p'); do
    grep -q "^\.B $(printf '%s' "$c" | sed 's/-/\\\\-/g')" "$top_srcdir/man/ptodb.1" ||
        fail "command $c is missing from man/ptodb.1"
done

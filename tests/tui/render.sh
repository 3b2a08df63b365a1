#!/bin/sh
# The pane renderers on synthetic view data (heatmaps, cores and queues,
# watch, passes with verdicts, status line): tests/tui/render_test's text
# must equal tests/tui/expected/render.txt.
set -e
. "$top_srcdir/tests/cli/lib.sh"
prog="$top_builddir/tests/tui/render_test"
[ -x "$prog" ] || fail "missing $prog"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$prog" >"$tmp/actual" || fail "render_test exited with $?"
if [ "${PTODB_TUI_UPDATE:-}" = 1 ]; then
    cp "$tmp/actual" "$top_srcdir/tests/tui/expected/render.txt"
    exit 0
fi
if ! cmp -s "$top_srcdir/tests/tui/expected/render.txt" "$tmp/actual"; then
    diff -u "$top_srcdir/tests/tui/expected/render.txt" "$tmp/actual" >&2 || true
    fail "render output differs"
fi

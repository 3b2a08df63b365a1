#!/bin/sh
# The cmd_*.c files are leaves reached from the command table only: each
# defines its commands' handlers (cmd_ID) and static helpers, nothing another
# file calls, so no cmd_*.c reaches into another; shared pieces live with
# their owners (expr.c, breakpoint.c, frame.c, ...).
set -e
. "$top_srcdir/tests/cli/lib.sh"

bad=$(for f in "$top_srcdir"/src/debug/cmd_*.c; do
    # a function definition at file scope: a line "TYPE name(ARGS)" with no
    # ';', not static, not a handler
    grep -nE '^[A-Za-z_][A-Za-z_0-9 *]*[ *][a-z_][A-Za-z_0-9]*\([^;]*$' "$f" |
        grep -vE '^[0-9]+:static ' | grep -vE '[ *]cmd_[A-Z][A-Z_0-9]*\(' |
        sed "s|^|$(basename "$f"):|"
done)
[ -z "$bad" ] || fail "cmd_*.c define functions other files call (move them to their owner):
$bad"
# ... nor declare another file's function themselves (a header says who owns it)
decl=$(for f in "$top_srcdir"/src/debug/cmd_*.c; do
    grep -nE '^[A-Za-z_][A-Za-z_0-9 *]*[ *][a-z_][A-Za-z_0-9]*\(.*\);[[:space:]]*$' "$f" |
        sed "s|^|$(basename "$f"):|"
done)
[ -z "$decl" ] || fail "cmd_*.c declare functions of other files (include their owner's header):
$decl"
echo "cmd_leaves: every cmd_*.c defines handlers and static helpers only"

#!/bin/sh
# Every key name bound in ui/tui/keys.def (the table the TUI dispatches on
# and builds its `?` help from) is in the Keys section of man/ptodb.1.
set -e
. "$top_srcdir/tests/cli/lib.sh"
command -v groff >/dev/null 2>&1 || skip "groff not found"
keys="$top_srcdir/ui/tui/keys.def"
[ -f "$keys" ] || fail "missing $keys"
section=$(groff -man -Tascii -P-cbou "$top_srcdir/man/ptodb.1" 2>/dev/null |
    sed -n '/^ *Keys$/,/^COMMANDS/p')
[ -n "$section" ] || fail "no Keys section in man/ptodb.1"
names=$(sed -n 's/^KEY([^"]*"\([^"]*\)".*/\1/p' "$keys")
[ -n "$names" ] || fail "no key names parsed from $keys"
missing=
for name in $names; do
    case "$section" in
    *"$name"*) ;;
    *) missing="$missing $name" ;;
    esac
done
[ -z "$missing" ] || fail "keys not documented in man/ptodb.1 (Keys):$missing"

#!/bin/sh
# The engine (src/libptodb.a) must not depend on curses or readline: no object
# in it may reference their symbols, and a program linked against it alone,
# without -lncursesw or -lreadline, must link.
set -e
. "$top_srcdir/tests/cli/lib.sh"

lib="$top_builddir/src/libptodb.a"
[ -f "$lib" ] || fail "missing $lib"
undefined=$(nm -u "$lib" 2>/dev/null | awk '{print $NF}' | sort -u)
bad=$(printf '%s\n' "$undefined" | grep -E '^(initscr|newwin|wrefresh|endwin|stdscr|curs_set|wgetch|keypad|start_color|rl_|readline$|add_history|history_|using_history)' || true)
[ -z "$bad" ] || fail "libptodb.a references UI symbols: $bad"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/probe.c" <<'C'
#include "base/status.h"
#include <stdio.h>
int main(void) { puts(ptodb_status_message(PTODB_OK)); return 0; }
C
${CC:-cc} -I"$top_srcdir/src" "$tmp/probe.c" -o "$tmp/probe" -Wl,--whole-archive "$lib" -Wl,--no-whole-archive \
    $(pkg-config --libs yaml-0.1 2>/dev/null || echo -lyaml) -lm -lpthread \
    ${PTODB_SAN_LDFLAGS:-} 2>"$tmp/link.err" || fail "engine does not link alone: $(cat "$tmp/link.err")"

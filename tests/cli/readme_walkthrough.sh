#!/bin/sh
# README's walk-through is a transcript: the block between the
# `<!-- walkthrough -->` markers starts with the shell command that opens the
# session; "(ptodb) " lines are the commands typed; every other line is what
# ptodb prints. Timings ("in 0.004 s", "estimated at 6.94 s") are the only
# thing not compared.
# With walkthrough_after_demo=1 (readme_after_demo.sh) scripts/demo runs
# twice first and the walk-through runs as the README shows it (no --nx),
# all three with one $XDG_STATE_HOME: nothing of the demos may leak into it.
set -e
. "$top_srcdir/tests/cli/lib.sh"

readme="$top_srcdir/README.md"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^<!-- walkthrough -->/ { on = 1; next } /^<!-- \/walkthrough -->/ { on = 0 } on' "$readme" |
    sed '/^```/d' >"$tmp/block"
[ -s "$tmp/block" ] || fail "no walk-through block in README.md"
cmdline=$(sed -n '1s/^\$ //p' "$tmp/block")
case "$cmdline" in
ptodb\ *) ;;
*) fail "the walk-through must start with '\$ ptodb ...', got: $(head -n1 "$tmp/block")" ;;
esac
sed -n '2,$s/^(ptodb) //p' "$tmp/block" >"$tmp/commands"
# Under make check-valgrind `bisect` skips its confirming scan (its estimated
# cost passes 3 s there); `bisect scan` always runs it and prints what
# `bisect` prints at native speed.
if [ -n "${PTODB_VALGRIND:-}" ]; then
    sed -i 's/^bisect$/bisect scan/' "$tmp/commands"
fi
sed '1d' "$tmp/block" | grep -v '^(ptodb) ' >"$tmp/expected" || true
[ "$(wc -l <"$tmp/commands")" -ge 3 ] || fail "the walk-through has fewer than 3 commands"
nx=--nx
if [ "${walkthrough_after_demo:-0}" = 1 ]; then
    for i in 1 2; do
        (cd "$top_srcdir" && HOME="$tmp" XDG_CONFIG_HOME= XDG_STATE_HOME="$tmp/state" PTODB="$PTODB" \
            scripts/demo </dev/null >"$tmp/demo$i" 2>&1) || fail "scripts/demo failed: $(tail -n 5 "$tmp/demo$i")"
    done
    grep -q '^Breakpoint 1, ' "$tmp/demo1" || fail "scripts/demo printed no planted-bug transcript: $(head -n 20 "$tmp/demo1")"
    for i in 1 2; do sed -E 's/(in|estimated at) [0-9]+\.[0-9]+ s/\1 T s/g' "$tmp/demo$i" >"$tmp/demo$i.n"; done
    cmp -s "$tmp/demo1.n" "$tmp/demo2.n" ||
        { diff -u "$tmp/demo1.n" "$tmp/demo2.n" >&2; fail "the second scripts/demo printed something else"; }
    nx=
fi
# shellcheck disable=SC2086
(cd "$top_srcdir" && HOME="$tmp" XDG_CONFIG_HOME= XDG_STATE_HOME="$tmp/state" \
    "$PTODB" $nx ${cmdline#ptodb } <"$tmp/commands" >"$tmp/actual" 2>&1) || true
norm() { sed -E 's/(in|estimated at) [0-9]+\.[0-9]+ s/\1 T s/g' "$1"; }
norm "$tmp/actual" >"$tmp/actual.n"
norm "$tmp/expected" >"$tmp/expected.n"
if ! cmp -s "$tmp/expected.n" "$tmp/actual.n"; then
    diff -u "$tmp/expected.n" "$tmp/actual.n" >&2 || true
    fail "README's walk-through does not match what ptodb prints"
fi
echo "walk-through: $(wc -l <"$tmp/commands") commands, output as the README shows"

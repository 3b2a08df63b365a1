#!/bin/sh
# README's walk-through is a transcript: the block between the
# `<!-- walkthrough -->` markers starts with the shell command that opens the
# session; "(ptodb) " lines are the commands typed; every other line is what
# ptodb prints. Timings ("in 0.004 s") are the only thing not compared.
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
sed '1d' "$tmp/block" | grep -v '^(ptodb) ' >"$tmp/expected" || true
[ "$(wc -l <"$tmp/commands")" -ge 3 ] || fail "the walk-through has fewer than 3 commands"
# shellcheck disable=SC2086
(cd "$top_srcdir" && HOME="$tmp" XDG_CONFIG_HOME= XDG_STATE_HOME="$tmp/state" \
    "$PTODB" --nx ${cmdline#ptodb } <"$tmp/commands" >"$tmp/actual" 2>&1) || true
norm() { sed -E 's/in [0-9]+\.[0-9]+ s/in T s/g' "$1"; }
norm "$tmp/actual" >"$tmp/actual.n"
norm "$tmp/expected" >"$tmp/expected.n"
if ! cmp -s "$tmp/expected.n" "$tmp/actual.n"; then
    diff -u "$tmp/expected.n" "$tmp/actual.n" >&2 || true
    fail "README's walk-through does not match what ptodb prints"
fi
echo "walk-through: $(wc -l <"$tmp/commands") commands, output as the README shows"

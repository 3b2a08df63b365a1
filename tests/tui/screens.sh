#!/bin/sh
# Headless screen tests: each tests/tui/scripts/NAME.keys is fed to ptodb
# through PTODB_TUI_SCRIPT (curses on a null terminal, see ptodb(1)); the
# screens it dumps must equal tests/tui/expected/NAME.screens exactly.
# Header lines of a script: "# args: ..." (command-line arguments),
# "# env: VAR=value ..." (extra environment), "# cwd: fixtures" (run in
# $PTODB_FIXTURES instead of the source tree; skipped when absent).
# PTODB_TUI_UPDATE=1 rewrites the expected screens instead of comparing.
set -e
. "$top_srcdir/tests/tui/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0 ran=0 skipped=0
for keys in "$top_srcdir"/tests/tui/scripts/*.keys; do
    name=$(basename "$keys" .keys)
    expected="$top_srcdir/tests/tui/expected/$name.screens"
    args=$(sed -n 's/^# args: //p' "$keys")
    envs=$(sed -n 's/^# env: //p' "$keys")
    dir=$top_srcdir
    if grep -q '^# cwd: fixtures' "$keys"; then
        if [ ! -d "$PTODB_FIXTURES" ]; then
            echo "SKIP: $name: fixtures not found at $PTODB_FIXTURES"
            skipped=$((skipped + 1))
            continue
        fi
        dir=$PTODB_FIXTURES
    fi
    work="$tmp/$name"
    mkdir -p "$work"
    # shellcheck disable=SC2086
    (tui_env "$work" && cd "$dir" && env $envs PTODB_TUI_SCRIPT="$keys" "$PTODB" --nx $args \
        >"$work/actual" 2>"$work/stderr") || { echo "FAIL: $name: exit status $?" >&2; cat "$work/stderr" >&2; failed=$((failed + 1)); continue; }
    ran=$((ran + 1))
    if [ "${PTODB_TUI_UPDATE:-}" = 1 ]; then
        cp "$work/actual" "$expected"
        continue
    fi
    [ -f "$expected" ] || { echo "FAIL: $name: missing $expected" >&2; failed=$((failed + 1)); continue; }
    if ! cmp -s "$expected" "$work/actual"; then
        echo "FAIL: screens $name" >&2
        diff -u "$expected" "$work/actual" >&2 || true
        failed=$((failed + 1))
    fi
done
echo "screens: $ran ran, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]

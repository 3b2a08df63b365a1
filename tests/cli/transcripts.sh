#!/bin/sh
# Transcript tests: each tests/transcripts/NAME.cmd is fed to `ptodb --nw --nx`
# on stdin; stdout and stderr together must equal NAME.out exactly.
# A first line "# args: ..." gives extra command-line arguments; the strings
# @FIXTURES@, @SRCDIR@ and @TMP@ in it and in the .cmd are replaced. A
# transcript whose args mention @FIXTURES@ is skipped when fixtures are absent.
# Wall times ("in 0.012 s", as bisect prints them) read @SECONDS@.
# PTODB_TRANSCRIPT_UPDATE=1 writes each differing output back to its .out
# (the paths substituted back): review the diff before committing it.
set -e
. "$top_srcdir/tests/cli/lib.sh"

dir="$top_srcdir/tests/transcripts"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0 ran=0 skipped=0
for cmd in "$dir"/*.cmd; do
    name=$(basename "$cmd" .cmd)
    expected="$dir/$name.out"
    [ -f "$expected" ] || fail "$name: missing $expected"
    args=$(sed -n '1s/^# args: //p' "$cmd")
    case "$args$(cat "$cmd")" in
    *@FIXTURES@*) [ -d "$PTODB_FIXTURES" ] || { skipped=$((skipped + 1)); continue; } ;;
    esac
    work="$tmp/$name"
    mkdir -p "$work"
    subst() { sed -e "s|@FIXTURES@|$PTODB_FIXTURES|g" -e "s|@SRCDIR@|$top_srcdir|g" -e "s|@TMP@|$work|g"; }
    args=$(printf '%s' "$args" | subst)
    subst <"$cmd" >"$work/in"
    # shellcheck disable=SC2086
    (cd "$work" && HOME="$work" XDG_CONFIG_HOME= XDG_STATE_HOME="$work/state" \
        "$PTODB" --nw --nx $args <"$work/in" >"$work/raw" 2>&1) || true
    sed -E 's/ in [0-9]+\.[0-9]{3} s([ :]|$)/ in @SECONDS@ s\1/g' "$work/raw" >"$work/actual"
    subst <"$expected" >"$work/expected"
    ran=$((ran + 1))
    if ! cmp -s "$work/expected" "$work/actual" && [ -n "${PTODB_TRANSCRIPT_UPDATE:-}" ]; then
        # the longest path first, so that @TMP@ (inside the build) wins
        sed -e "s|$work|@TMP@|g" -e "s|$PTODB_FIXTURES|@FIXTURES@|g" -e "s|$top_srcdir|@SRCDIR@|g" \
            "$work/actual" >"$expected"
        echo "updated: transcript $name" >&2
    elif ! cmp -s "$work/expected" "$work/actual"; then
        echo "FAIL: transcript $name" >&2
        diff -u "$work/expected" "$work/actual" >&2 || true
        failed=$((failed + 1))
    fi
done
echo "transcripts: $ran ran, $failed failed, $skipped skipped (no fixtures)"
[ "$failed" -eq 0 ]

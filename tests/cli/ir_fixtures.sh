#!/bin/sh
# Every real PyPTO dump: `ptodb --check` finds nothing to report, `--print`
# reprints each raw dump (passes_dump/) byte for byte, and prints each
# ruff-formatted dump (passes_dump_ruff/) as its raw twin.
set -e
. "$top_srcdir/tests/cli/lib.sh"
fixtures_or_skip

work=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$work"' EXIT

set -- "$PTODB_FIXTURES"/*/passes_dump
[ -d "$1" ] || skip "no */passes_dump folders under $PTODB_FIXTURES"

# --check: one run over every folder, no diagnostics at all.
set +e
"$PTODB" --check "$@" >"$work/out" 2>"$work/err"
code=$?
set -e
if [ "$code" -ne 0 ] || [ -s "$work/err" ]; then
    head -40 "$work/err" >&2
    fail "--check reported problems (exit $code)"
fi
checked=$(sed -n 's/^checked \([0-9]*\) files\{0,1\}: 0 with errors, 0 errors$/\1/p' "$work/out")
[ -n "$checked" ] || fail "unexpected --check summary: $(cat "$work/out")"

raw_ok=0 raw_n=0 ruff_ok=0 ruff_n=0 bad=0
for dir in "$@"; do
    for f in "$dir"/*.py; do
        raw_n=$((raw_n + 1))
        if "$PTODB" --print "$f" >"$work/p" 2>"$work/e" && cmp -s "$work/p" "$f"; then
            raw_ok=$((raw_ok + 1))
        else
            bad=$((bad + 1))
            echo "not byte-identical: $f" >&2
            diff "$work/p" "$f" | head -5 >&2 || true
        fi
        g="${dir}_ruff/$(basename "$f")"
        [ -f "$g" ] || continue
        ruff_n=$((ruff_n + 1))
        if "$PTODB" --print "$g" >"$work/p" 2>"$work/e" && cmp -s "$work/p" "$f"; then
            ruff_ok=$((ruff_ok + 1))
        else
            bad=$((bad + 1))
            echo "ruff form does not print as its raw twin: $g" >&2
            diff "$work/p" "$f" | head -5 >&2 || true
        fi
    done
done
echo "--check: $checked files, 0 diagnostics"
echo "--print raw: $raw_ok/$raw_n byte-identical"
echo "--print ruff -> raw: $ruff_ok/$ruff_n identical"
[ "$bad" -eq 0 ] || fail "$bad files did not round-trip"
[ "$raw_n" -gt 0 ] || fail "no dumps found"

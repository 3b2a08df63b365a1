#!/bin/sh
# Every real PyPTO dump under $PTODB_FIXTURES:
#  - `ptodb --check` reports nothing on the files the reference could parse,
#    and reports the files its parser rejected (broken IR, per the case's
#    reference_per_file.txt / reference.txt), each error at a file:line:col
#    that points at the name it quotes;
#  - `--print` reprints each raw dump (passes_dump/) byte for byte, broken
#    ones included, and prints each ruff-formatted dump (passes_dump_ruff/)
#    as its raw twin. A file whose text after its header line is the file
#    before's (437 of the 600: passes that change nothing) is that file's
#    print again but for the header, which every other file's print checks:
#    it is counted, not printed again (one ptodb start fewer each, the most
#    of this test's time under the sanitizers).
set -e
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/fixture_lib.sh"
fixtures_or_skip

work=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$work"' EXIT

cases=$(fixture_case_dirs)
[ -n "$cases" ] || skip "no */passes_dump folders under $PTODB_FIXTURES"

checked=0 broken=0 points=0
for c in $cases; do
    dir="$c/passes_dump"
    fixture_expect "$c" >"$work/expect"
    awk '$2 == "broken" { print $1 }' "$work/expect" | LC_ALL=C sort >"$work/want_bad"
    set +e
    "$PTODB" --check "$dir" >"$work/out" 2>"$work/err"
    code=$?
    set -e
    sed -n 's|^.*/\([^/]*\)\.py:[0-9]*:[0-9]*: error: .*|\1|p' "$work/err" | LC_ALL=C sort -u >"$work/got_bad"
    if ! cmp -s "$work/want_bad" "$work/got_bad"; then
        echo "$(basename "$c"): files with errors differ from the files the reference could not parse:" >&2
        diff "$work/want_bad" "$work/got_bad" | head -10 >&2
        head -20 "$work/err" >&2
        fail "--check on $dir"
    fi
    n=$(sed -n 's/^checked \([0-9]*\) files\{0,1\}: .*/\1/p' "$work/out")
    [ -n "$n" ] || fail "unexpected --check summary: $(cat "$work/out")"
    checked=$((checked + n))
    if [ -s "$work/want_bad" ]; then
        [ "$code" -eq 2 ] || fail "$(basename "$c"): --check exit $code with broken files"
        p=$(fixture_error_points "$(cat "$work/err")") || exit 1
        points=$((points + p))
        broken=$((broken + $(wc -l <"$work/want_bad")))
        grep -q '^ *\^' "$work/err" || fail "$(basename "$c"): no caret under the errors"
    else
        [ "$code" -eq 0 ] && [ ! -s "$work/err" ] || { head -20 "$work/err" >&2; fail "$(basename "$c"): --check reported problems (exit $code)"; }
    fi
done

raw_ok=0 raw_n=0 ruff_ok=0 ruff_n=0 bad=0 same=0
for c in $cases; do
    dir="$c/passes_dump"
    : >"$work/body.prev"
    : >"$work/ruff.prev"
    for f in "$dir"/*.py; do
        raw_n=$((raw_n + 1))
        g="${dir}_ruff/$(basename "$f")"
        # the same text as the file before after the header (its ruff twin too)
        tail -n +2 "$f" >"$work/body"
        : >"$work/ruff"
        [ ! -f "$g" ] || tail -n +2 "$g" >"$work/ruff"
        if cmp -s "$work/body" "$work/body.prev" && cmp -s "$work/ruff" "$work/ruff.prev"; then
            same=$((same + 1)) raw_ok=$((raw_ok + 1))
            [ ! -f "$g" ] || ruff_n=$((ruff_n + 1)) ruff_ok=$((ruff_ok + 1))
            continue
        fi
        mv "$work/body" "$work/body.prev"
        mv "$work/ruff" "$work/ruff.prev"
        if "$PTODB" --print "$f" >"$work/p" 2>"$work/e" && cmp -s "$work/p" "$f"; then
            raw_ok=$((raw_ok + 1))
        else
            bad=$((bad + 1))
            echo "not byte-identical: $f" >&2
            diff "$work/p" "$f" | head -5 >&2 || true
        fi
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
echo "--check: $checked files; $broken broken as the reference found them, $points errors each at the name it quotes; no diagnostic on the others"
echo "--print raw: $raw_ok/$raw_n byte-identical ($same the file before's text but for the header, not printed again)"
echo "--print ruff -> raw: $ruff_ok/$ruff_n identical"
[ "$bad" -eq 0 ] || fail "$bad files did not round-trip"
[ "$raw_n" -gt 0 ] || fail "no dumps found"

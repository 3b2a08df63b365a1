#!/bin/sh
# Every malformed data file under tests/data/bad/ (listed with the error it
# must produce in tests/data/bad/EXPECTED, written by gen.py) makes
# `ptodb --info` print exactly one error with that text and exit 2: no crash,
# no cascade of errors, no sanitizer report.
set -e
. "$top_srcdir/tests/cli/lib.sh"
bad="$top_srcdir/tests/data/bad"
[ -f "$bad/EXPECTED" ] || fail "missing $bad/EXPECTED"
n=0 failed=0
tab=$(printf '\t')
while IFS="$tab" read -r file want; do
    case "$file" in '#'* | '') continue ;; esac
    n=$((n + 1))
    run_ptodb --info "$bad/$file"
    errors=$(printf '%s\n' "$err" | grep -c ': error: ' || true)
    problem=
    if [ "$rc" -ne 2 ]; then
        problem="exit status $rc, expected 2"
    elif [ "$errors" -ne 1 ]; then
        problem="$errors error lines, expected 1"
    else
        case "$err" in
        *"$want"*) ;;
        *) problem="error text does not contain: $want" ;;
        esac
        case "$err" in
        *Sanitizer* | *"runtime error"*) problem="sanitizer report" ;;
        esac
    fi
    if [ -n "$problem" ]; then
        printf 'FAIL %s: %s\n--- stderr\n%s\n' "$file" "$problem" "$err" >&2
        failed=$((failed + 1))
    fi
done <"$bad/EXPECTED"
echo "$n malformed inputs checked, $failed failed"
[ "$n" -ge 30 ] || fail "only $n malformed inputs listed"
[ "$failed" -eq 0 ] || fail "$failed malformed inputs misbehaved"

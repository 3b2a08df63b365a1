#!/bin/sh
# Every .pt under $PTODB_FIXTURES loads, and its dtype, shape, element count,
# CRC-32 of the elements and sum match tests/data/pt_expected.txt, which was
# computed independently of ptodb (scripts/gen_pt_expected.py: zipfile +
# pickle + numpy). Also checks that the expected list covers every file.
set -e
. "$top_srcdir/tests/cli/lib.sh"
fixtures_or_skip
tool="$top_builddir/tests/unit/check_data_tool"
expected="$top_srcdir/tests/data/pt_expected.txt"
[ -x "$tool" ] || fail "missing $tool"

n=0 bad=0
list=$(cd "$PTODB_FIXTURES" && find . -name '*.pt' | sed 's|^\./||' | LC_ALL=C sort)
[ -n "$list" ] || skip "no .pt files under $PTODB_FIXTURES"
for f in $list; do
    want=$(grep "^$f " "$expected" || true)
    [ -n "$want" ] || { echo "not in pt_expected.txt: $f" >&2; bad=$((bad + 1)); continue; }
    got=$("$tool" stats "$PTODB_FIXTURES/$f" 2>&1) || { echo "load failed: $f: $got" >&2; bad=$((bad + 1)); continue; }
    # fields: dtype shape numel crc exactly; the sum within 1e-9 relative
    if ! printf '%s\n%s\n' "$want" "$got" | awk '
        NR == 1 { d = $2; s = $3; n = $4; c = $5; sum = $6 }
        NR == 2 { if ($2 != d || $3 != s || $4 != n || $5 != c) exit 1
                  diff = $6 - sum; if (diff < 0) diff = -diff
                  a = sum < 0 ? -sum : sum
                  if (diff > 1e-6 + 1e-9 * a) exit 1 }'; then
        printf 'mismatch: %s\n  expected %s\n  got      %s\n' "$f" "$want" "$got" >&2
        bad=$((bad + 1))
    fi
    n=$((n + 1))
done
echo "$n .pt files checked, $bad bad"
[ "$bad" -eq 0 ] || fail "$bad .pt files did not match"

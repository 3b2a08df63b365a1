#!/bin/sh
# Every .pt under $PTODB_FIXTURES loads, and its dtype, shape, element count,
# CRC-32 of the elements and sum match what an independent reader says
# (scripts/gen_pt_expected.py: zipfile + pickle + numpy, nothing of ptodb's).
# The reader runs here, over the whole folder, so a .pt added with a new case
# is checked with no edit; tests/data/pt_expected.txt is its committed output,
# used where numpy is missing and checked against the live run where it is
# not (a stale line fails).
set -e
. "$top_srcdir/tests/cli/lib.sh"
fixtures_or_skip
tool="$top_builddir/tests/unit/check_data_tool"
committed="$top_srcdir/tests/data/pt_expected.txt"
[ -x "$tool" ] || fail "missing $tool"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM

list=$(cd "$PTODB_FIXTURES" && find -L . -name '*.pt' | sed 's|^\./||' | LC_ALL=C sort)
[ -n "$list" ] || skip "no .pt files under $PTODB_FIXTURES"

# same_figures EXPECTED-LINE GOT-LINE: dtype, shape, numel and CRC exactly;
# the sum within 1e-9 relative (numpy sums pairwise, ptodb in order)
same_figures() {
    printf '%s\n%s\n' "$1" "$2" | awk '
        NR == 1 { d = $2; s = $3; n = $4; c = $5; sum = $6 }
        NR == 2 { if ($2 != d || $3 != s || $4 != n || $5 != c) exit 1
                  diff = $6 - sum; if (diff < 0) diff = -diff
                  a = sum < 0 ? -sum : sum
                  if (diff > 1e-6 + 1e-9 * a) exit 1 }'
}

bad=0
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    /usr/bin/python3 "$top_srcdir/scripts/gen_pt_expected.py" "$PTODB_FIXTURES" >"$tmp/live" ||
        fail "scripts/gen_pt_expected.py failed"
    expected="$tmp/live"
    # the committed figures must still be the reader's
    while read -r f rest; do
        live=$(grep "^$f " "$tmp/live" || true)
        [ -n "$live" ] || continue
        same_figures "$f $rest" "$live" || {
            printf 'stale line in tests/data/pt_expected.txt: %s\n  committed %s\n  reader    %s\n' "$f" "$rest" "$live" >&2
            bad=$((bad + 1))
        }
    done <"$committed"
    new=$(awk 'NR == FNR { have[$1] = 1; next } !($1 in have) { n++ } END { print n + 0 }' "$committed" "$tmp/live")
    [ "$new" -eq 0 ] || echo "note: $new .pt files are not in tests/data/pt_expected.txt yet (checked against the live reader;" \
        "scripts/gen_pt_expected.py $PTODB_FIXTURES > tests/data/pt_expected.txt adds them)"
    source_of="the reader (scripts/gen_pt_expected.py)"
else
    echo "note: /usr/bin/python3 with numpy not found: checking against the committed tests/data/pt_expected.txt"
    expected="$committed"
    source_of="tests/data/pt_expected.txt"
fi

n=0
for f in $list; do
    want=$(grep "^$f " "$expected" || true)
    [ -n "$want" ] || { echo "no figures from $source_of for $f" >&2; bad=$((bad + 1)); continue; }
    got=$("$tool" stats "$PTODB_FIXTURES/$f" 2>&1) || { echo "load failed: $f: $got" >&2; bad=$((bad + 1)); continue; }
    if ! same_figures "$want" "$got"; then
        printf 'mismatch: %s\n  expected %s\n  got      %s\n' "$f" "$want" "$got" >&2
        bad=$((bad + 1))
    fi
    n=$((n + 1))
done
echo "$n .pt files checked against $source_of, $bad bad"
[ "$bad" -eq 0 ] || fail "$bad .pt files did not match"

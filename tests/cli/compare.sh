#!/bin/sh
# --compare A B on a fixture against copies of itself made here:
#  - the fixture against itself: no difference anywhere, exit 0;
#  - against a copy with one op changed (row_expand_div -> row_expand_mul)
#    in one pass only: that pass, and only it, differs; the first differing
#    statement is the edited line and its tensor (exit 1), in the text and
#    in the JSON report; the HTML report shows both source lines;
#  - against a copy with one pass removed and one renamed: both listed as in
#    one build only, the rest aligned by name.
# The oracle of "differs" is the edit itself: softmax's divide by the row sum
# turned into a multiply changes almost every element.
. "$top_srcdir/tests/cli/lib.sh"
set -e
fixtures_or_skip
case_name=softmax_910b
src="$PTODB_FIXTURES/$case_name"
[ -d "$src/passes_dump" ] || skip "fixture $case_name not found"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM

run_ptodb --compare "$src" "$src"
expect_eq "itself: exit" 0 "$rc"
expect_contains "itself: no difference" "compare: no difference: every aligned pass gives the same outputs in A and B" "$out"
expect_contains "itself: aligned" ": 50 aligned by name, 0 in A only, 0 in B only" "$out"
printf '%s\n' "$out" | grep -q 'DIFFER' && fail "itself: a pass differs"

cp -RL "$src" "$tmp/b"
bad_pass=32_after_InitMemRef
file="$tmp/b/passes_dump/$bad_pass.py"
line=$(grep -n 'pl\.tile\.row_expand_div(' "$file" | head -1 | cut -d: -f1)
[ -n "$line" ] || fail "no row_expand_div in $file"
sed -i "${line}s/pl\.tile\.row_expand_div(/pl.tile.row_expand_mul(/" "$file"
cmp -s "$file" "$src/passes_dump/$bad_pass.py" && fail "the edit changed nothing"
run_ptodb --compare "$src" "$tmp/b" --json "$tmp/c.json" --html "$tmp/c.html"
expect_eq "edited: exit" 1 "$rc"
expect_contains "edited: first pass" "compare: first pass whose outputs differ: InitMemRef (A: $bad_pass, B: $bad_pass)" "$out"
expect_contains "edited: statement" "first divergence: $file:$line: tensor 'result__ssa_v0'" "$out"
expect_contains "edited: op" "its op changed: row_expand_mul where the passing pass has row_expand_div" "$out"
ndiff=$(printf '%s\n' "$out" | grep -c 'DIFFER' || true)
expect_eq "edited: one pass differs" 1 "$ndiff"
if [ -x /usr/bin/python3 ]; then
    got=$(/usr/bin/python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "ptodb-compare/1"
print(d["first_difference"], d["statement"]["line"], d["statement"]["tensor"], sum(p["differs"] for p in d["pairs"]), d["same"])' "$tmp/c.json")
    expect_eq "edited: json" "InitMemRef $line result__ssa_v0 1 False" "$got"
fi
grep -q 'class="hl"' "$tmp/c.html" || fail "html: no highlighted source line"
grep -q 'row_expand_mul' "$tmp/c.html" || fail "html: B's line is not shown"

# a pass missing in B, another renamed: listed, the rest still aligned
rm -rf "$tmp/c"
cp -RL "$src" "$tmp/c"
rm "$tmp/c/passes_dump/12_after_OptimizeOrchTensors.py"
mv "$tmp/c/passes_dump/13_after_LowerCompositeOps.py" "$tmp/c/passes_dump/13_after_LowerCompositeOpsV2.py"
run_ptodb --compare "$src" "$tmp/c"
expect_eq "missing: exit" 1 "$rc"
expect_contains "missing: counts" ": 48 aligned by name, 2 in A only, 1 in B only" "$out"
expect_contains "missing: A only" "compare: 12_after_OptimizeOrchTensors is in A only" "$out"
expect_contains "missing: B only" "compare: 13_after_LowerCompositeOpsV2 is in B only" "$out"
expect_contains "missing: no output difference" "compare: no difference: every aligned pass" "$out"

# usage
run_ptodb --compare "$src"
expect_eq "one path: exit" 2 "$rc"

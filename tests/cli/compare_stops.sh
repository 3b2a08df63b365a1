#!/bin/sh
# --compare never says "no difference" about outputs it did not compute
# (issue #40): where a side stops (an error, a deadlock) it says what
# stopped it. The oracle is the edit: examples/deadlock's pass 22 deadlocks
# (its AIV pops what no one pushed), so against itself both sides stop
# there; a copy of examples/mlp with one push dropped (`pass`) deadlocks
# in B only, while A computes its outputs.
. "$top_srcdir/tests/cli/lib.sh"
set -e
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
export HOME="$tmp/home" XDG_STATE_HOME=
mkdir -p "$HOME"

# both sides stop in pass 22: nothing compared there, and said so
run_ptodb --nx --compare "$top_srcdir/examples/deadlock" "$top_srcdir/examples/deadlock"
[ "$rc" -ne 0 ] || fail "both stop: exit 0 (passes fail on both sides)"
printf '%s\n' "$out" | grep -q 'no difference: every aligned pass' && fail "both stop: 'no difference' said:
$out"
expect_contains "both stop: counted" "compare: no difference in the 1 aligned passes where both builds computed their outputs" "$out"
expect_contains "both stop: nothing compared" "in 1 both stop, nothing compared" "$out"
expect_contains "both stop: the pass" "compare: first pass with no outputs on either side: ExpandMixedKernel" "$out"
expect_contains "both stop: the pair's cell" "same file, no outputs: both stop" "$out"
expect_contains "both stop: what stops A" "  A stops: Mixed-kernel execution failed in scaled_mm_aiv" "$out"
expect_contains "both stop: what stops B" "  B stops: Mixed-kernel execution failed in scaled_mm_aiv" "$out"
expect_contains "both stop: where it waits" "core AIV0 lane 0: blocked in scaled_mm_aiv at" "$out"
run_ptodb --nx --compare "$top_srcdir/examples/deadlock" "$top_srcdir/examples/deadlock" --json -
printf '%s\n' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["no_outputs"] == 1 and d["first_difference"] is None and d["same"] is False, d
p = [p for p in d["pairs"] if p["name"] == "ExpandMixedKernel"][0]
assert p["no_outputs"] is True and p["differs"] is False, p
' || fail "both stop: JSON"

# B stops, A computes: the pair differs and what stopped B is said
cp -RL "$top_srcdir/examples/mlp" "$tmp/b"
f="$tmp/b/passes_dump/22_after_ExpandMixedKernel.py"
sed -i 's/^\( *\)pl\.tile\.tpush_to_aiv(gate__tile, split=1)$/\1pass/' "$f"
grep -q '^ *pass$' "$f" || fail "the push was not dropped"
run_ptodb --nx --compare "$top_srcdir/examples/mlp" "$tmp/b"
expect_eq "B stops: exit" 1 "$rc"
expect_contains "B stops: the cell" "DIFFER: B stops, A computes its outputs" "$out"
expect_contains "B stops: the pass" "compare: first pass whose outputs differ: ExpandMixedKernel" "$out"
expect_contains "B stops: what stops it" "  B stops: " "$out"
expect_contains "B stops: where it waits" ": blocked in mlp_fused_aiv at" "$out"
printf '%s\n' "$out" | grep -q '  A stops: ' && fail "B stops: A said to stop"
echo "compare_stops: ok"

#!/bin/sh
# --batch --bisect where the failing pass has an `if` the passing pass does
# not (a pass that peels a loop's first iteration, as AutoTileMatmulL0's K
# split does) and its condition is wrong. The if has no decision to compare
# and the values its branches compute no exact counterpart, so the first
# value that differs is a statement after it; bisect runs the failing pass
# again with the if's condition inverted, and as the outputs then pass, names
# the if (docs/program-points.md, "bisect's statement comparison").
#
# Hand-made on a copy of examples/mlp: pass 12 replaces the down-projection
# accumulation `down_acc = down_acc + t` by
#     if ib == 0: down_acc = move(t)      (the first block: nothing to add)
#     else:       down_acc = down_acc + t
# which is right (the accumulator starts at zero), and the planted bug turns
# `==` into `!=`: the second block then overwrites the first.
. "$top_srcdir/tests/cli/lib.sh"
set -e

divergence() {
    printf '%s\n' "$1" | sed -n "s/^first divergence: \(.*\):\([0-9][0-9]*\): tensor '\([^']*\)'.*/\1 \2 \3/p"
}

tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
cp -RL "$top_srcdir/examples/mlp" "$tmp/"
d="$tmp/mlp/passes_dump"
# the case ends at the hand-made pass: 00 to 11 pass, 12 is the one tested
rm -f "$d"/18_*.py "$d"/22_*.py
T='pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec]'
awk -v T="$T" '
/^ +down_acc__tile_1: .* = pl\.tile\.add\(down_acc__iter_v1, t__tile_10\)$/ {
    print "            if ib__idx_v0 == 0:"
    print "                down_acc__first: " T " = pl.tile.move(t__tile_10, target_memory=pl.Mem.Vec)"
    print "                down_acc__phi: " T " = pl.yield_(down_acc__first)"
    print "            else:"
    print "                down_acc__tile_1: " T " = pl.tile.add(down_acc__iter_v1, t__tile_10)"
    print "                down_acc__phi: " T " = pl.yield_(down_acc__tile_1)"
    seen = 1
    next
}
/^ +down_acc__rv_v2: .* = pl\.yield_\(down_acc__tile_1\)$/ { sub(/down_acc__tile_1/, "down_acc__phi") }
{ print }
END { if (!seen) exit 1 }' "$d/11_after_ConvertTensorToTileOps.py" >"$d/12_after_PeelFirstBlock.py" ||
    fail "examples/mlp's pass 11 no longer has the down_acc accumulation"
f="$d/12_after_PeelFirstBlock.py"
line=$(grep -n '^ *if ib__idx_v0 == 0:$' "$f" | cut -d: -f1)

# the peeled pass as written is right: every pass passes
run_ptodb --batch "$tmp/mlp"
expect_eq "peeled, right condition: exit" 0 "$rc"

sed -i "${line}s/ == / != /" "$f"
run_ptodb --batch "$tmp/mlp" --bisect --bisect-scan
expect_eq "flipped new if: exit" 1 "$rc"
expect_contains "flipped new if: first bad pass" \
    "bisect: first failing pass: 12_after_PeelFirstBlock (last passing pass before it: 11_" "$out"
set -- $(divergence "$out")
expect_eq "flipped new if: file" "$f" "$1"
expect_eq "flipped new if: line" "$line" "$2"
expect_contains "flipped new if: how it was found" \
    "no counterpart in 11_after_ConvertTensorToTileOps: the if is new in this pass; found by a test, not a match: run again with its condition inverted (the other branch at each of its 2 runs, 1 of which took the then branch), 12_after_PeelFirstBlock passes" \
    "$out"
# the value that differs first is still reported, after the if
add=$(grep -n '^ *t__tile_11: .* = pl\.tile\.add(x__tile, down_acc__rv_v2)$' "$f" | cut -d: -f1)
expect_contains "flipped new if: the values after it" "then differing in this pass: line $add 't__tile_11'" "$out"

# the JSON report says the same
run_ptodb --batch "$tmp/mlp" --bisect --bisect-scan --json=- -j 1
got=$(printf '%s\n' "$out" | /usr/bin/python3 -c '
import json, sys
s = json.load(sys.stdin)["bisect"]["statement"]
print(s["line"], s["new_if"]["runs"], s["new_if"]["then"], s["good_file"], s["later"][0]["tensor"])')
expect_eq "flipped new if: json" "$line 2 1 None t__tile_11" "$got"

# A new if that is right, with the bug elsewhere (the residual add after
# the loop flipped to a sub): inverting the if cannot make the pass pass,
# so the changed statement is named, not the if.
sed -i "${line}s/ != / == /" "$f"
sed -i "${add}s/pl\.tile\.add(x__tile/pl.tile.sub(x__tile/" "$f"
run_ptodb --batch "$tmp/mlp" --bisect --bisect-scan
expect_eq "right new if, flipped op: exit" 1 "$rc"
set -- $(divergence "$out")
expect_eq "right new if, flipped op: line" "$add" "$2"
expect_eq "right new if, flipped op: tensor" "t__tile_11" "$3"
echo "bisect names the new if at 12_after_PeelFirstBlock.py:$line"
exit 0

#!/bin/sh
# --strict-ref: a pass file the reference cannot run (here tile.sin, which
# torch_codegen has no handler for) fails under --run and --batch, with the
# reason on the pass's verdict line, exit 1, the JSON report's
# strict_ref_fail and a JUnit failure of type ref_cannot_run. Without the
# option the same case passes (ptodb's verdict). The case is a copy of
# examples/mlp made here with one line added.
set -e
. "$top_srcdir/tests/cli/lib.sh"

work=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$work"' EXIT
cp -R "$top_srcdir/examples/mlp" "$work/mlp"
f="$work/mlp/passes_dump/18_after_InferTileMemorySpace.py"
grep -q 'pl.tile.rsqrt(t__tile_3)' "$f" || fail "examples/mlp changed: no rsqrt line in $f"
sed '/pl\.tile\.rsqrt(t__tile_3)/a\
        unused__tile: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.sin(t__tile_3)' "$f" >"$work/p.py"
mv "$work/p.py" "$f"
why="FAIL (--strict-ref): REF cannot run this file ($f:18:63: ValueError: Unsupported op 'tile.sin' in torch_codegen."

run_ptodb --run "$f"
expect_eq "--run exit" 0 "$rc"
run_ptodb --run "$f" --strict-ref
expect_eq "--run --strict-ref exit" 1 "$rc"
expect_contains "--run --strict-ref verdict" "$why" "$out"

run_ptodb --batch "$work/mlp" --jobs 1 --json "$work/plain.json"
expect_eq "--batch exit" 0 "$rc"
grep -q '"strict_ref": false' "$work/plain.json" || fail "plain JSON: no strict_ref false"
grep -q '"strict_ref_fail": true' "$work/plain.json" && fail "plain JSON: a strict_ref_fail without the option"

run_ptodb --batch "$work/mlp" --jobs 1 --strict-ref --json "$work/s.json" --junit "$work/s.xml"
expect_eq "--batch --strict-ref exit" 1 "$rc"
expect_contains "--batch --strict-ref verdict" "$why" "$out"
expect_contains "--batch --strict-ref summary" "first failing pass: 18_after_InferTileMemorySpace" "$out"
grep -q '"strict_ref": true' "$work/s.json" || fail "JSON: no strict_ref true"
# the BF16 matmul's FP32 accumulation is a place where REF computes
# otherwise, not one it cannot run: a note, also under --strict-ref
expect_contains "--batch --strict-ref: the cube's note stays a note" \
    "note: REF differs here: $f:30:66: the cube accumulates a BF16/FP16 matmul in FP32" "$out"
# (the cube's note among the pass's notes: TRSQRT's single rounding is one too)
jstr='"([^"\\]|\\.)*"'
grep -Eq '"verdict": "fail", "same_as": null, "message": null, "ref_note": "[^"]*tile\.sin[^"]*", "ref_differs": \[('"$jstr"', )*"[^"]*18_after_InferTileMemorySpace\.py:30:66: the cube accumulates a BF16/FP16 matmul in FP32 [^"]*"(, '"$jstr"')*\], "strict_ref_fail": true' \
    "$work/s.json" || fail "JSON: pass 18 is not a strict_ref_fail with verdict fail"
grep -q 'type="ref_cannot_run"' "$work/s.xml" || fail "JUnit: no ref_cannot_run failure"
if [ -x /usr/bin/python3 ]; then
    /usr/bin/python3 "$top_srcdir/tests/data/batch/check_json.py" "$work/s.json" ||
        fail "schema check (--strict-ref)"
fi
exit 0

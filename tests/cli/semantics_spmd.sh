#!/bin/sh
# SPMD launches under --semantics=device (examples/spmd, ours):
#  - every block runs: each pass passes; under --semantics=ref (block 0 only,
#    as PyPTO's reference) each fails, rows 16..63 staying zero;
#  - a block-dependent bug planted in a copy (pass 22's offset clamps the
#    block index at 2, so block 3 redoes block 2's rows) is named by bisect
#    at its line and its block: "line 11 ... block 3 of 4" (text and JSON);
#  - a race-free launch gives the same bits under random block orders, and a
#    launch whose blocks all store to rows 0..15 is a race the GM race check
#    names under the default schedule (exec/gmrace.h: block 1's store over
#    block 0's, nothing between); --race-check then has no output to compare.
. "$top_srcdir/tests/cli/lib.sh"
ex="$top_srcdir/examples/spmd"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM

run_ptodb --batch "$ex"
[ "$rc" -eq 0 ] || fail "examples/spmd: --batch exit $rc: $out $err"
expect_contains "output" "3 passes: 3 pass, 0 fail" "$out$err"
expect_contains "output" "note: REF differs here: $ex/passes_dump/00_frontend.py:19:22: a launch of 4 blocks runs every block (REF would compute block 0's part only: its get_block_idx is 0); ptodb ran it as the device does" "$out$err"
run_ptodb --batch --semantics=ref "$ex"
[ "$rc" -eq 1 ] || fail "examples/spmd --semantics=ref: exit $rc, expected 1"
expect_contains "output" "3 passes: 0 pass, 3 fail" "$out$err"
run_ptodb --batch --semantics=bogus "$ex"
[ "$rc" -eq 2 ] || fail "--semantics=bogus: exit $rc"
expect_contains "output" "ptodb: --semantics: expected device or ref, got 'bogus'" "$out$err"

# the planted one-block bug
cp -r "$ex" "$tmp/broken"
sed -i 's/= block_idx__ssa_v0 \* rows__ssa_v0/= pl.min(block_idx__ssa_v0, 2) * rows__ssa_v0/' \
    "$tmp/broken/passes_dump/22_after_ExpandMixedKernel.py"
grep -q 'pl.min(block_idx__ssa_v0, 2)' "$tmp/broken/passes_dump/22_after_ExpandMixedKernel.py" || fail "the edit did not apply"
run_ptodb --batch --bisect --json "$tmp/b.json" "$tmp/broken"
[ "$rc" -eq 1 ] || fail "broken: exit $rc"
expect_contains "output" "bisect: first failing pass: 22_after_ExpandMixedKernel (last passing pass before it: 10_after_OutlineClusterScopes)" "$out$err"
# pass 22's scale_add is an AIV kernel: the device runs it on vector lane 0
# (pass 10's InCore one runs in line on the host)
expect_contains "output" "first divergence: $tmp/broken/passes_dump/22_after_ExpandMixedKernel.py:11: tensor 'offset__ssa_v0' (function scale_add, core AIV0, block 3 of 4)" "$out$err"
# block 3's offset: 48 in the passing pass, min(3, 2) * 16 = 32 in the failing one
expect_contains "output" "first at flat index 0 (32 vs 48)" "$out$err"
grep -q '"line": 11, "function": "scale_add", "core": "AIV0", "block": 3, "blocks": 4' "$tmp/b.json" ||
    fail "JSON: the statement does not name block 3 of 4"

# random block orders: a race-free launch keeps its bits; a racy one is caught
run_ptodb --run "$ex" --race-check 4
expect_contains "output" "race check: 4 random schedules, outputs unchanged" "$out$err"
cp -r "$ex" "$tmp/race"
sed -i 's/pl.tile.store(tile_c__ssa_v0, \[offset__ssa_v0, 0\], out__ssa_v0)/pl.tile.store(tile_c__ssa_v0, [0, 0], out__ssa_v0)/' \
    "$tmp/race/passes_dump/22_after_ExpandMixedKernel.py"
run_ptodb --run "$tmp/race" --race-check 6
[ "$rc" -eq 1 ] || fail "the racy launch: exit $rc"
expect_contains "output" "22_after_ExpandMixedKernel.py:16:53: in scale_add: race: AIV0 of block 1 writes out_ssa_v0[0:16, 0:32] at 22:16:9 that AIV0 of block 0 wrote at 22:16:9 (in scale_add) with no barrier between" "$out$err"
expect_contains "output" "race check: not run, the pass stops under the default schedule" "$out$err"
exit 0

#!/bin/sh
# initcheck for the cube (docs/memory.md): TMATMUL sums k over the lhs's
# valid columns (pto-isa TMATMUL.md), so rows of the rhs past its own valid
# rows are read. Planted on a copy of the fixture matmul64_950, pass 44:
# line 14 loads b with valid_shape [48, 64] into tile_b_l1 (Mat), line 16
# moves it to tile_b_l0b (Right), line 17 multiplies tile_a_l0a [64, 64]
# (K = 64) by it: rows [48, 64) of tile_b_l0b were never written in this
# run: uninit at the matmul (17:122), MEMFAULT, exit 1. Metamorphic: the
# same plant with a's valid columns cut to 48 as well (line 13) gives K =
# 48 = b's valid rows: no memory fault at all.
. "$top_srcdir/tests/cli/lib.sh"
C=${PTODB_FIXTURES:-}/matmul64_950
[ -d "$C" ] || skip "$C not found"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
f=passes_dump/44_after_MaterializeDistTensorCtx.py
for v in b ab; do
    cp -r "$C" "$tmp/$v" || fail "copy"
    sed -i '14s/pl.Mem.Mat\] = pl.tile.load(b__ssa_v0, \[0, 0\], \[64, 64\], \[64, 64\]/pl.Mem.Mat, pl.TileView(valid_shape=[48, 64])] = pl.tile.load(b__ssa_v0, [0, 0], [64, 64], [48, 64]/' "$tmp/$v/$f"
    grep -q "valid_shape=\[48, 64\])] = pl.tile.load(b__ssa_v0" "$tmp/$v/$f" || fail "fixture changed: line 14 is not b's load"
done
sed -i '13s/pl.Mem.Mat\] = pl.tile.load(a__ssa_v0, \[0, 0\], \[64, 64\], \[64, 64\]/pl.Mem.Mat, pl.TileView(valid_shape=[64, 48])] = pl.tile.load(a__ssa_v0, [0, 0], [64, 64], [64, 48]/' "$tmp/ab/$f"
grep -q "valid_shape=\[64, 48\])] = pl.tile.load(a__ssa_v0" "$tmp/ab/$f" || fail "fixture changed: line 13 is not a's load"

"$PTODB" --batch "$tmp/b" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "exit $rc: $(cat "$tmp/out")"
grep -q "^memory fault: uninit at .*/44_after_MaterializeDistTensorCtx.py:17:122 in matmul_64_incore_0$" "$tmp/out" ||
    fail "no uninit at 17:122: $(cat "$tmp/out")"
grep -q "^  tile:   tile_b_l0b__ssa_v0 (MemRef mem_right_6, Right \[0, 16384)), defined at 16:9$" "$tmp/out" || fail "tile line"
grep -q "^  why:    row 48 of tile_b_l0b__ssa_v0, outside its valid shape \[48, 64\], was never written in this run, and tile.matmul reads rows \[48, 64) of it: K = 64, the valid columns of its lhs (TMATMUL); the op reads poison (NaN) there$" "$tmp/out" ||
    fail "why line: $(cat "$tmp/out")"
grep -q "^44_after_MaterializeDistTensorCtx  *MEMFAULT " "$tmp/out" || fail "verdict"

"$PTODB" --batch "$tmp/ab" >"$tmp/out2" 2>&1
! grep -q "memory fault" "$tmp/out2" || fail "K = 48: a fault: $(cat "$tmp/out2")"
! grep -q "MEMFAULT" "$tmp/out2" || fail "K = 48: MEMFAULT"
echo ok

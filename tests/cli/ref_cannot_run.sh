#!/bin/sh
# A pass using an op torch_codegen has no handler for but ptodb implements
# (tile.sin, before LowerCompositeOps) runs by the op's definition: --run and
# --batch say "REF cannot run this file (...); ptodb ran it" and the verdict
# is ptodb's. The case is a copy of examples/mlp made here with one line added.
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

note="note: REF cannot run this file ($f:18:63: ValueError: Unsupported op 'tile.sin' in torch_codegen. Register a handler in _OP_MAP or use a GlobalVar for cross-function calls.); ptodb ran it and compares with golden"
run_ptodb --run "$f"
expect_eq "--run exit" 0 "$rc"
expect_contains "--run note" "$note" "$out"
expect_contains "--run verdict" "validate tensor: 'out', max_abs_diff: 0.000000e+00, pass: True" "$out"
run_ptodb --batch "$work/mlp"
expect_eq "--batch exit" 0 "$rc"
expect_contains "--batch note" "$note" "$out"

# tile.maximums with a literal float: REF's torch.maximum raises TypeError
# (a Python number is not a Tensor); ptodb runs it by definition.
g="$work/mlp/passes_dump/11_after_ConvertTensorToTileOps.py"
grep -q 'pl.tile.rsqrt(t__tile_3)' "$g" || fail "examples/mlp changed: no rsqrt line in $g"
sed '/pl\.tile\.rsqrt(t__tile_3)/a\
        clamped__tile: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.maximums(t__tile_3, 0.0)' "$g" >"$work/p.py"
mv "$work/p.py" "$g"
run_ptodb --run "$g"
expect_eq "maximums --run exit" 0 "$rc"
expect_contains "maximums note" "note: REF cannot run this file ($g:18:64: TypeError: maximum(): argument 'other' (position 2) must be Tensor, not float); ptodb ran it and compares with golden" "$out"
expect_contains "maximums verdict" "validate tensor: 'out', max_abs_diff: 0.000000e+00, pass: True" "$out"
# The ops added by definition run inside a real pass: tile.random (a
# UINT32 tile, valid region [2, 260]), the tuple-returning
# tile.gather_compare and the array.* ops; the REPL shows values the unit
# tests computed (TRandom.hpp's row 1, column 259) and the array element.
cp -R "$top_srcdir/examples/mlp" "$work/mlp2"
h="$work/mlp2/passes_dump/18_after_InferTileMemorySpace.py"
grep -q 'pl.tile.rsqrt(t__tile_3)' "$h" || fail "examples/mlp changed: no rsqrt line in $h"
sed '/pl\.tile\.rsqrt(t__tile_3)/a\
        r__tile: pl.Tile[[4, 300], pl.UINT32, pl.Mem.Vec] = pl.tile.random(4660, 22136, 1, 2, 3, 4, [4, 300], [2, 260], dtype=pl.UINT32)\
        gc__tuple: pl.Tuple([pl.Tile[[16, 64], pl.INT32, pl.Mem.Vec], pl.Tile[[1, 16], pl.INT32, pl.Mem.Vec]]) = pl.tile.gather_compare(t__tile, 0.0, r__tile, cmp_mode=4, out_cols=64)\
        gc_count: pl.Tile[[1, 16], pl.INT32, pl.Mem.Vec] = gc__tuple[1]\
        arr: pl.Array[4, pl.INT32] = pl.array.create(4, dtype=pl.INT32)\
        arr_1: pl.Array[4, pl.INT32] = pl.array.update_element(arr, 1, 7)\
        e1: pl.Scalar[pl.INT32] = pl.array.get_element(arr_1, 1)\
        ev__tile: pl.Tile[[16, 32], pl.FP32, pl.Mem.Vec] = pl.tile.gather_mask(t__tile, mask_pattern=1)\
        sm0__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 64], dtype=pl.FP32, value=-1.0)\
        sm__tile: pl.Tile[[16, 64], pl.FP32, pl.Mem.Vec] = pl.tile.scatter_mask(sm0__tile, ev__tile, mask_pattern=1)' "$h" >"$work/p.py"
mv "$work/p.py" "$h"
line=$(grep -n 'sm__tile: pl.Tile' "$h" | cut -d: -f1)
run_ptodb --run "$h"
expect_eq "random --run exit" 0 "$rc"
expect_contains "random note" "Unsupported op 'tile.random'" "$out"
expect_contains "random verdict" "validate tensor: 'out', max_abs_diff: 0.000000e+00, pass: True" "$out"
run_ptodb --nw --nx -ex "break $((line + 1))" -ex run -ex 'print r__tile[1, 259]' -ex 'print e1' \
    -ex 'print gc_count[0, 0:3]' -ex 'print t__tile[0, 0:4]' -ex 'print sm__tile[0, 0:4]' -ex quit "$h"
expect_contains "random value" "3586392992" "$out"
expect_contains "array element" '= 7' "$out"
expect_contains "gather_compare count" "[64, 64, 64]" "$out"
# gather_mask then scatter_mask with the same pattern puts the even columns
# back and leaves the odd ones at the fill value
expect_contains "the even columns" "[  1.06835, 0.0643559, 0.0215093,   2.40548]" "$out"
expect_contains "scatter_mask" "[  1.06835,        -1, 0.0215093,        -1]" "$out"
# tile.maximums with a Scalar variable holding a Python number: REF raises
# the same TypeError at run time; ptodb runs it by definition, notes it at
# the call, and --strict-ref counts it as failing.
v="$work/mlp2/passes_dump/11_after_ConvertTensorToTileOps.py"
grep -q 'pl.tile.rsqrt(t__tile_3)' "$v" || fail "examples/mlp changed: no rsqrt line in $v"
sed '/pl\.tile\.rsqrt(t__tile_3)/a\
        lo__ssa: pl.Scalar[pl.FP32] = 0.0\
        clamped__tile: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.tile.maximums(t__tile_3, lo__ssa)' "$v" >"$work/p.py"
mv "$work/p.py" "$v"
run_ptodb --run "$v"
expect_eq "maximums variable --run exit" 0 "$rc"
expect_contains "maximums variable note" "note: REF cannot run this file ($v:19:64: TypeError: maximum(): argument 'other' (position 2) must be Tensor, not float); ptodb ran it and compares with golden" "$out"
expect_contains "maximums variable verdict" "validate tensor: 'out', max_abs_diff: 0.000000e+00, pass: True" "$out"
run_ptodb --run "$v" --strict-ref
expect_eq "maximums variable --strict-ref exit" 1 "$rc"
expect_contains "maximums variable strict" "FAIL (--strict-ref): REF cannot run this file ($v:19:64: TypeError" "$out"
# The TaskId ops (system.task_invalid / task_dummy / task_is_valid) run by
# PyPTO's definition inside a real pass: the sentinel is None and invalid,
# a dummy task's id is valid; REF has no handler, so the file gets the note.
w="$work/mlp2/passes_dump/00_frontend.py"
grep -q 'sq_sum: pl.Tensor' "$w" || fail "examples/mlp changed: no sq_sum line in $w"
sed '/sq_sum: pl\.Tensor/i\
            tid: pl.Scalar[pl.TASK_ID] = pl.system.task_invalid()\
            tid_ok: pl.Scalar[pl.BOOL] = pl.system.task_is_valid(tid)\
            bar: pl.Scalar[pl.TASK_ID] = pl.system.task_dummy(deps=[tid])\
            bar_ok: pl.Scalar[pl.BOOL] = pl.system.task_is_valid(bar)' "$w" >"$work/p.py"
mv "$work/p.py" "$w"
run_ptodb --run "$w"
expect_eq "task ops --run exit" 0 "$rc"
expect_contains "task ops note" "note: REF cannot run this file ($w:11:42: ValueError: Unsupported op 'system.task_invalid'" "$out"
expect_contains "task ops verdict" "validate tensor: 'out', max_abs_diff: 0.000000e+00, pass: True" "$out"
run_ptodb --nw --nx -ex "break 15" -ex run -ex 'print tid' -ex 'print tid_ok' -ex 'print bar' \
    -ex 'print bar_ok' -ex quit "$w"
expect_contains "the sentinel" "tid = None" "$out"
expect_contains "the sentinel is not valid" '$1 = False' "$out"
expect_contains "the dummy id" '$2 = 0' "$out"
expect_contains "the dummy id is valid" '$3 = True' "$out"
# The ops ptodb does not run say why, at the call: PyPTO's test-only
# registrations define no value; the dist.* runtime intrinsics have no
# semantics to run by (and no pass or DSL line makes one).
cp -R "$top_srcdir/examples/mlp" "$work/mlp3"
u="$work/mlp3/passes_dump/18_after_InferTileMemorySpace.py"
grep -q 'pl.tile.rsqrt(t__tile_3)' "$u" || fail "examples/mlp changed: no rsqrt line in $u"
line=$(grep -n 'pl.tile.rsqrt(t__tile_3)' "$u" | cut -d: -f1)
sed '/pl\.tile\.rsqrt(t__tile_3)/a\
        odd__tile: pl.Tile[[1, 16], pl.FP32, pl.Mem.Vec] = pl.test.op(t__tile_3, t__tile_3)' "$u" >"$work/p.py"
mv "$work/p.py" "$u"
run_ptodb --run "$u"
[ "$rc" -ne 0 ] || fail "test.op --run exit: 0"
expect_contains "test.op says why" "note: ptodb cannot run it either: op test.op is one of PyPTO's test-only registrations (src/ir/op/testing.cpp): it defines no value to compute" "$out"
sed -i 's/pl\.test\.op(t__tile_3, t__tile_3)/pl.dist.tree_reduce(t__tile_3, t__tile_3)/' "$u"
run_ptodb --run "$u"
[ "$rc" -ne 0 ] || fail "dist --run exit: 0"
expect_contains "dist says why" "op dist.tree_reduce is one of PyPTO's runtime-orchestration intrinsics (src/ir/op/distributed/intrinsics.cpp): an opaque call on a runtime handle, which no pass creates and the DSL cannot write, with no semantics to run it by (docs/ops.md)" "$out"
run_ptodb --nw --nx -ex 'pass 18' -ex run -ex quit "$work/mlp3"
expect_contains "the debugger says why" "REF would fail here: ValueError: Unsupported op 'dist.tree_reduce' in torch_codegen (ptodb cannot run it either: op dist.tree_reduce is one of PyPTO's runtime-orchestration intrinsics" "$err"
# and on a multi-rank case (where they would belong), at the call's line:col
cp -R "$top_srcdir/tests/data/multirank/fence_contract" "$work/ranks"
r="$work/ranks/passes_dump/01_after_InsertCommFence.py"
grep -q '^        pl.system.fence()$' "$r" || fail "fence_contract changed: no fence line in $r"
sed -i '0,/^        pl.system.fence()$/s//        r: pl.UnknownType = pl.dist.tree_reduce(data, ones)\n        pl.system.fence()/' "$r"
line=$(grep -n 'pl.dist.tree_reduce' "$r" | cut -d: -f1)
run_ptodb --batch "$work/ranks"
[ "$rc" -ne 0 ] || fail "multi-rank dist --batch exit: 0"
expect_contains "multi-rank dist says why, at the call" "$r:$line:29: op dist.tree_reduce is one of PyPTO's runtime-orchestration intrinsics" "$out$err"
# a host tensor beyond --max-tensor-bytes is refused with the limit's
# message (a declared [1, 1, 2^31] fp32 output: 2^33 bytes), not allocated
h="$work/ranks/passes_dump/02_after_DropFence.py"
sed -i 's/out: pl.Out\[pl.Tensor\[\[2, 1, 8\], pl.FP32\]\]/out: pl.Out[pl.Tensor[[1, 1, 2147483648], pl.FP32]]/' "$h"
grep -q '2147483648' "$h" || fail "fence_contract changed: no host output [2, 1, 8] in $h"
run_ptodb --batch --max-tensor-bytes 268435456 "$work/ranks"
expect_contains "a huge host tensor" "host parameter 'out': shape [1, 1, 2147483648] of fp32 is 8589934592 bytes, beyond the limit of 268435456 bytes" "$out$err"
exit 0

#!/bin/sh
# tile.matmul_mx, matmul_mx_acc and tget_scale_addr inside a pass: two
# hand-written Ascend950 kernels (load FP8 data and MX_A_ZZ / MX_B_NN E8M0
# scales, move to Left/LeftScale/Right/RightScale, bind, matmul_mx, then
# matmul_mx_acc) over raw float8 data files, and PyPTO's FP4 x FP8 form over
# a float4 .pt, bit-exact against goldens that tests/data/matmul_mx/gen_case.py
# computes from the definition on its own.
set -e
. "$top_srcdir/tests/cli/lib.sh"

command -v python3 >/dev/null || skip "python3 not found (it writes the case's data)"
work=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$work"' EXIT
cp -R "$top_srcdir/tests/data/matmul_mx" "$work/mx"
cp -R "$top_srcdir/tests/data/matmul_mx_fp4" "$work/mx4"
chmod -R u+w "$work/mx" "$work/mx4"
python3 "$top_srcdir/tests/data/matmul_mx/gen_case.py" "$work/mx" "$work/mx4" || fail "gen_case.py failed"
f="$work/mx/passes_dump/18_after_InsertMxScaleAddr.py"

run_ptodb --run "$f"
expect_eq "--run exit" 0 "$rc"
expect_contains "REF cannot run it" "Unsupported op 'tile.tget_scale_addr' in torch_codegen" "$out"
expect_contains "bit-exact" "validate tensor: 'out', max_abs_diff: 0.000000e+00, pass: True" "$out"

# PyPTO's FP4 x FP8 form: a torch float4_e2m1fn_x2 .pt (loaded as float32 of
# the logical shape), cast to FP8E4M3FN in the kernel
run_ptodb --run "$work/mx4/passes_dump/18_after_InsertMxScaleAddr.py"
expect_eq "fp4 --run exit" 0 "$rc"
expect_contains "fp4 bit-exact" "validate tensor: 'out', max_abs_diff: 0.000000e+00, pass: True" "$out"

# one wrong golden element (the first float's low bit) is caught
python3 - "$work/mx/data/out/out.bin" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
b[0] ^= 1
open(p, 'wb').write(bytes(b))
PY
run_ptodb --run "$f"
expect_eq "--run exit on a wrong golden" 1 "$rc"
expect_contains "mismatch" "pass: False" "$out"
exit 0

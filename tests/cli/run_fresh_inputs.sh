#!/bin/sh
# Every pass starts from a fresh copy of the case's inputs (REF clones them):
# a pass that writes into an input (in place, through assemble) must not
# change what the next pass sees, whether the copy is a private mapping of
# the file (inputs of 1 MiB and more) or a plain copy, in --run and in
# --batch (one process runs both passes); and the input file stays as it was.
set -e
. "$top_srcdir/tests/cli/lib.sh"
tool="$top_builddir/tests/unit/check_data_tool"
tmp=$(mktemp -d) || fail mktemp
trap 'rm -rf "$tmp"' EXIT
c="$tmp/case"
mkdir -p "$c/passes_dump" "$c/data/in" "$c/data/out"
for f in 00_frontend 01_after_InlineFunctions; do
    cat >"$c/passes_dump/$f.py" <<PY
# pypto.program: P ($f)
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, big: pl.Tensor[[512, 1024], pl.FP32], small: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:
        big: pl.Tensor[[512, 1024], pl.FP32] = pl.tensor.assemble(big, pl.tensor.adds(pl.tensor.slice(big, [4, 2], [0, 0]), 1.0), [0, 0])
        small: pl.Tensor[[4, 8], pl.FP32] = pl.tensor.assemble(small, pl.tensor.adds(pl.tensor.slice(small, [4, 2], [0, 0]), 1.0), [0, 0])
        out: pl.Tensor[[4, 4], pl.FP32] = pl.tensor.assemble(out, pl.tensor.slice(big, [4, 2], [0, 0]), [0, 0])
        out: pl.Tensor[[4, 4], pl.FP32] = pl.tensor.assemble(out, pl.tensor.slice(small, [4, 2], [0, 0]), [0, 2])
        return out
PY
done
"$tool" gen pt "$c/data/in/big.pt" fp32 512 1024
"$tool" gen pt "$c/data/in/small.pt" fp32 4 8
"$tool" gen pt "$c/data/out/out.pt" fp32 4 4
before=$(cd "$c" && find . -type f -exec cksum {} + | sort)

mkdir "$tmp/run"
run_ptodb --run "$c" --save-outputs="$tmp/run"
[ -s "$tmp/run/00_frontend.out.raw" ] || fail "--run saved no output: $err"
cmp -s "$tmp/run/00_frontend.out.raw" "$tmp/run/01_after_InlineFunctions.out.raw" ||
    fail "--run: pass 01 saw pass 00's writes into its inputs"
# --batch: both passes in one process; their max_abs_diff against the
# golden must agree (it moves by 1 when an input was not fresh)
run_ptodb --batch "$c" --jobs=1
d0=$(printf '%s\n' "$out" | awk '$1 == "00_frontend" { print $3 }')
d1=$(printf '%s\n' "$out" | awk '$1 == "01_after_InlineFunctions" { print $3 }')
[ -n "$d0" ] || fail "--batch printed no summary: $out $err"
expect_eq "--batch: pass 01 against pass 00" "$d0" "$d1"
after=$(cd "$c" && find . -type f -exec cksum {} + | sort)
expect_eq "case files untouched" "$before" "$after"
echo ok

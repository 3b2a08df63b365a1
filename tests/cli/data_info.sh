#!/bin/sh
# ptodb --info on a case built in a temp dir: passes with a gap, data from
# .pt and .npy, tolerance precedence (option > manifest > golden.py >
# default) with the source of each, pure outputs, one data file; and the
# user's files are left untouched.
set -e
. "$top_srcdir/tests/cli/lib.sh"
tool="$top_builddir/tests/unit/check_data_tool"
tmp=$(mktemp -d) || fail mktemp
trap 'rm -rf "$tmp"' EXIT
c="$tmp/build"
mkdir -p "$c/passes_dump" "$c/data/in" "$c/data/out"
for f in 00_frontend 01_after_InlineFunctions 03_after_Simplify; do
    cat >"$c/passes_dump/$f.py" <<'PY'
# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a__ssa_v0: pl.Tensor[[4, 8], pl.FP32], w: pl.Tensor[[8, 2], pl.BF16], out: pl.Out[pl.Tensor[[4, 2], pl.FP32]], extra: pl.Out[pl.Tensor[[3], pl.INT32]]) -> pl.Tensor[[4, 2], pl.FP32]:
        return out
PY
done
echo 'warnings' >"$c/passes_dump/01_after_InlineFunctions.log"
"$tool" gen pt "$c/data/in/a.pt" fp32 4 8
"$tool" gen npy "$c/data/in/w.npy" bf16 8 2
"$tool" gen pt "$c/data/out/out.pt" fp32 4 2
cat >"$c/golden.py" <<'PY'
import os
__outputs__ = ['out']
RTOL = 1e-3
ATOL = 2e-3  # device tolerance
os.system("touch SHOULD_NOT_EXIST")
PY
before=$(cd "$c" && find . -type f -exec cksum {} + | sort)

run_ptodb --info "$c"
expect_eq "exit status" 0 "$rc"
expect_contains "passes" "passes: 3 in $c/passes_dump" "$out"
expect_contains "pass names" "  01 InlineFunctions
  03 Simplify" "$out"
expect_contains "gap warning" "passes_dump: warning: gaps in pass numbering: 02 missing" "$err"
expect_contains "input a" "  a                fp32   [4, 8]" "$out"
expect_contains "input w" "  w                bf16   [8, 2]" "$out"
expect_contains "stats" "nan 0 inf 0" "$out"
expect_contains "pure output" "out is a pure output: it starts as zeros" "$out"
expect_contains "entry" "entry: main in 00_frontend.py" "$out"
expect_contains "bindings" "parameters: 4
  a__ssa_v0              In    pl.FP32  <- input 'a'
  w                      In    pl.BF16  <- input 'w'
  out                    Out   pl.FP32  <- zeros shaped like golden 'out'
  extra                  Out   pl.INT32 <- zeros shaped like the parameter" "$out"
expect_contains "golden rtol" "rtol 0.001      from golden.py ($c/golden.py:3)" "$out"
expect_contains "golden atol" "atol 0.002      from golden.py ($c/golden.py:4)" "$out"
[ ! -e "$c/SHOULD_NOT_EXIST" ] && [ ! -e SHOULD_NOT_EXIST ] || fail "golden.py was executed"

cat >"$c/ptodb.yaml" <<'YAML'
entry: kernel
tolerance: {atol: 0.25}
outputs:
  out: {file: data/out/out.pt, rtol: 0.125}
YAML
run_ptodb --info "$c/passes_dump" --rtol 0.5
expect_eq "exit status" 0 "$rc"
expect_contains "manifest entry not in dump" "entry: not determined ($c/passes_dump/00_frontend.py: error: entry function 'kernel' (from the manifest) is not in this dump)" "$out"
expect_contains "option rtol" "rtol 0.5        from option" "$out"
expect_contains "manifest atol" "atol 0.25       from manifest ($c/ptodb.yaml:2)" "$out"
case "$out" in *"rtol 0.125"*) fail "per-output rtol must not beat --rtol" ;; esac

run_ptodb --info "$c/passes_dump/01_after_InlineFunctions.py"
expect_eq "exit status" 0 "$rc"
expect_contains "single file" "passes: 1 in $c/passes_dump" "$out"
expect_contains "per-output rtol" "out:
    rtol 0.125      from manifest ($c/ptodb.yaml:4)" "$out"

# an input the entry cannot do without: REF's KeyError text
mv "$c/data/in/w.npy" "$tmp/w.npy"
rm "$c/ptodb.yaml"
run_ptodb --info "$c"
expect_eq "unbound parameter" 2 "$rc"
expect_contains "unbound message" "error: Cannot resolve tensor for parameter 'w'. Available keys: ['a']" "$err"
mv "$tmp/w.npy" "$c/data/in/w.npy"

run_ptodb --info "$c/data/in/a.pt"
expect_eq "exit status" 0 "$rc"
expect_contains "pt file" "a.pt: torch .pt, a tensor of 1 tensor" "$out"
run_ptodb --info "$c" --rtol abc
expect_eq "bad --rtol" 2 "$rc"
expect_contains "bad --rtol message" "--rtol needs a non-negative number, got 'abc'" "$err"
run_ptodb --info "$tmp/nothere"
expect_eq "missing path" 2 "$rc"
expect_contains "missing path message" "nothere: error: no such file or folder" "$err"

after=$(cd "$c" && find . -type f -exec cksum {} + | sort)
expect_eq "user files unchanged" "$before" "$after"

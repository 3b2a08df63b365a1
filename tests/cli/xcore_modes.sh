#!/bin/sh
# Cross-core split modes end to end, in both directions, on programs of ours:
# an odd row split (mode 3: a 6-row tile with 5 valid rows, lanes of 3 and 2
# valid rows) from AIC to the lanes,
# and a column merge (mode 2) from the lanes to AIC, under every schedule and
# with one-slot queues; the odd modes from the lanes to AIC are REF's
# ValueError. Outputs are compared with golden files made by numpy. The
# kernels are in per-lane form, as SplitVectorKernel leaves them (each lane
# places its half by get_subblock_idx): their AIV functions carry
# dual_aiv_dispatch, which SplitVectorKernel stamps on a halved kernel (a
# split kernel without it is one not halved yet: docs/ops.md).
. "$top_srcdir/tests/cli/lib.sh"
set -e
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
src="$top_srcdir/tests/data/xcore/modes"

mkcase() { # mkcase NAME PROGRAM INPUT GOLDEN
    d="$tmp/$1"
    mkdir -p "$d/passes_dump" "$d/data/in" "$d/data/out"
    cp "$src/$2" "$d/passes_dump/22_after_ExpandMixedKernel.py"
    cp "$src/$3" "$d/data/in/a.npy"
    cp "$src/$4" "$d/data/out/out.npy"
}
mkcase odd odd_c2v.py a5x4.npy a5x4.npy
mkcase lr v2c_left_right.py a4x4.npy a4x4_x2.npy

for c in odd lr; do
    for s in fixed aic-first aiv-first random:1 random:2 random:3; do
        run_ptodb --run "$tmp/$c" --schedule=$s --slot-depth=1
        expect_eq "$c under $s: exit ($out)" 0 "$rc"
        expect_contains "$c under $s: exact" "validate tensor: 'out', max_abs_diff: 0.000000e+00, pass: True" "$out"
    done
done

# From the lanes to AIC the odd modes do not exist (REF: ValueError).
sed 's/split=2/split=4/g' "$src/v2c_left_right.py" >"$tmp/lr/passes_dump/22_after_ExpandMixedKernel.py"
run_ptodb --run "$tmp/lr"
expect_eq "odd V->C: exit" 1 "$rc"
expect_contains "odd V->C: REF's error" "ValueError" "$out"

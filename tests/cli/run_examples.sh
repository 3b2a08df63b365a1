#!/bin/sh
# ptodb --run on our own examples: REF-style lines, exit codes, the deadlock
# report (deterministic, with file:line of every blocked core), option errors.
. "$top_srcdir/tests/cli/lib.sh"
set -e
ex="$top_srcdir/examples"

run_ptodb --run "$ex/mlp"
expect_eq "mlp exit" 0 "$rc"
expect_eq "mlp passes" 7 "$(printf '%s\n' "$out" | grep -c "^validate tensor: 'out', max_abs_diff: .*, pass: True$")"
expect_contains "mlp header" "==================== 22_after_ExpandMixedKernel ====================" "$out"

run_ptodb --run "$ex/mlp-broken"
expect_eq "mlp-broken exit" 1 "$rc"
expect_contains "mlp-broken verdict" "pass: False" "$out"
expect_contains "mlp-broken continues" "==================== 22_after_ExpandMixedKernel" "$out"

run_ptodb --run "$ex/deadlock"
expect_eq "deadlock exit" 1 "$rc"
first="$out"
expect_contains "deadlock REF line" "Mixed-kernel execution failed in scaled_mm_aiv (lane=0) for scaled_mm" "$out"
expect_contains "deadlock REF error" "RuntimeError: tpop_from_aic timeout (split=1, lane=0); pipe_state={" "$out"
expect_contains "deadlock AIC" "core AIC  lane 0: blocked in scaled_mm_aic at $ex/deadlock/passes_dump/22_after_ExpandMixedKernel.py:15:9 on tpop_from_aiv (split=1, lane=0)" "$out"
expect_contains "deadlock AIV1" "core AIV1 lane 1: blocked in scaled_mm_aiv" "$out"
expect_contains "deadlock queues" "queue to_aic_split        AIV->AIC  depth=0  split=1  lane=1" "$out"
run_ptodb --run "$ex/deadlock"
expect_eq "deadlock report is deterministic" "$first" "$out"
for s in aic-first aiv-first random:1 random:99; do
    run_ptodb --run "$ex/deadlock" --schedule="$s"
    expect_eq "deadlock exit ($s)" 1 "$rc"
    expect_contains "deadlock found ($s)" "ptodb: deadlock in group scaled_mm" "$out"
done

run_ptodb --run "$ex/mlp" --schedule=random:5 --slot-depth=1
expect_eq "mlp random schedule, depth 1" 0 "$rc"

run_ptodb --run "$ex/deadlock" --jobs=2
expect_eq "deadlock, two jobs: same output" "$first" "$out"
run_ptodb --run "$ex/mlp-broken" -j 3
expect_eq "mlp-broken, three jobs: exit" 1 "$rc"

run_ptodb --run "$ex/does-not-exist"
expect_eq "missing case exit" 2 "$rc"
run_ptodb --run "$ex/mlp" --schedule=sideways
expect_eq "bad schedule exit" 2 "$rc"
expect_contains "bad schedule message" "--schedule" "$err"
run_ptodb --run "$ex/mlp" --ref=torch3
expect_eq "bad profile exit" 2 "$rc"
run_ptodb --run "$ex/mlp" --jobs=0
expect_eq "bad jobs exit" 2 "$rc"
run_ptodb --run "$ex/mlp" --slot-depth=0
expect_eq "bad depth exit" 2 "$rc"
exit 0

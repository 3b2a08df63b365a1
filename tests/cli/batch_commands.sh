#!/bin/sh
# `--batch` with -ex/-x runs debugger commands on the case without a prompt
# (gdb's --batch) and exits 0, 1 when a pass the commands ran failed
# validation, 2 when a command failed; PATH may come before or after the
# other options of --batch, --run and --info.
set -e
. "$top_srcdir/tests/cli/lib.sh"
ex="$top_srcdir/examples"
export HOME=$(mktemp -d) XDG_STATE_HOME=
trap 'rm -rf "$HOME"' EXIT

run_ptodb --batch "$ex/mlp" --nx -ex 'pass 22' -ex run
expect_eq "commands, pass validates: exit" 0 "$rc"
expect_contains "commands ran" "validate tensor: 'out', max_abs_diff: 0.000000e+00, pass: True" "$out"
case "$out" in *"(ptodb)"*) fail "a prompt was printed in batch mode" ;; esac

run_ptodb --batch "$ex/mlp-broken" --nx -ex 'pass 11' -ex run
expect_eq "commands, pass fails validation: exit" 1 "$rc"

run_ptodb --batch "$ex/mlp" --nx -ex 'pass 11' -ex 'nosuchcommand'
expect_eq "commands, a command fails: exit" 2 "$rc"
expect_contains "error shown" "Undefined command: \"nosuchcommand\"." "$err"

# break on a function no pass defines: no one to ask, so no (gdb's
# "[answered N; input not from terminal]"), and the command failed; with
# `set breakpoint pending on` a pending breakpoint, and no failure
run_ptodb --batch "$ex/mlp" --nx -ex 'break nosuchfunc' -ex 'info breakpoints'
expect_eq "break on no pass's function: exit" 2 "$rc"
expect_contains "break on no pass's function: said so" 'Function "nosuchfunc" not defined in any of the 7 passes.' "$err"
expect_contains "break on no pass's function: answered no" \
    "Make breakpoint pending on future pass load? (y or [n]) [answered N; input not from terminal]" "$out"
expect_contains "break on no pass's function: none set" "No breakpoints or watchpoints." "$out"
run_ptodb --batch "$ex/mlp" --nx -ex 'set breakpoint pending on' -ex 'break nosuchfunc' -ex 'info breakpoints'
expect_eq "pending on: exit" 0 "$rc"
expect_contains "pending on: pending" "Breakpoint 1 (nosuchfunc) pending." "$out"
expect_contains "pending on: listed" "<PENDING> in nosuchfunc" "$out"

printf 'pass 22\nbreak 57\nrun\nprint up__tile_Vec[0, 0:2]\n' >"$HOME/cmds"
run_ptodb --batch --nx -x "$HOME/cmds" "$ex/mlp"
expect_eq "-x file: exit" 0 "$rc"
expect_contains "-x file: stopped at the breakpoint" "Breakpoint 1, [AIV0] mlp_fused_aiv at 22_after_ExpandMixedKernel.py:57" "$out"

# option order: the case first or last
run_ptodb --batch --bisect "$ex/mlp-broken"
expect_eq "--batch --bisect PATH: exit" 1 "$rc"
expect_contains "--batch --bisect PATH: bisect ran" "bisect: first failing pass: 11_after_ConvertTensorToTileOps" "$out"
run_ptodb --run "$ex/mlp" --jobs 1
expect_eq "--run PATH --jobs 1: exit" 0 "$rc"
run_ptodb --batch
expect_eq "--batch without PATH: exit" 2 "$rc"
expect_contains "--batch without PATH: message" "ptodb: --batch needs a PATH" "$err"
run_ptodb --run "$ex/mlp" "$ex/mlp-broken"
expect_eq "--run with two PATHs: exit" 2 "$rc"

# a bare dump file name from inside passes_dump/ finds the case's data
out=$(cd "$ex/mlp/passes_dump" && "$PTODB" --run 04_after_ConvertToSSA.py 2>&1) || fail "--run from inside passes_dump: $out"
expect_contains "bare file name inside passes_dump" "validate tensor: 'out', max_abs_diff: 0.000000e+00, pass: True" "$out"

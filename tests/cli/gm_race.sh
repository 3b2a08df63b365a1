#!/bin/sh
# The GM race check of a launch's cores (exec/gmrace.h, docs/schedule.md
# "Races on global memory"), under the default (fixed) schedule and others.
#
# Oracles: PyPTO #1433's ExpandMixedKernel output (tests/data/hist/gm_race_*,
# scripts/gen_hist_cases.py): the buggy copy has no pipe between the cube's
# store of kv (line 14) and the vector lanes' load of it (line 20), the
# fixed copy has the tpush/tpop fence 63614e60f emits. Programs of ours
# (tests/data/device, scripts/gen_device_cases.py): gm_fence_cube_vector
# (a cube->vector GM exchange with the fence), syncall_barrier_kernel
# (blocks exchange rows through GM across pl.system.syncall), and
# spmd_gm_write_race (two blocks store into the same rows, nothing between).
# A planted fault: syncall_barrier_kernel with its syncall deleted is a race.
# The verdict must not depend on the schedule: a race is one under every
# schedule, a fenced program passes under every one.
. "$top_srcdir/tests/cli/lib.sh"
set -e
d="$top_srcdir/tests/data"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM

# the buggy copy fails at the load, naming both statements, cores and regions
run_ptodb --nx --batch "$d/hist/gm_race_buggy"
[ "$rc" -eq 1 ] || fail "gm_race_buggy: exit $rc, expected 1: $out"
expect_contains "the race line" "22_after_ExpandMixedKernel.py:20:57: in fused_aiv: race: AIV0 reads kv[0:1, 0:8] at 22:20:13 that AIC wrote at 22:14:9 (in fused_aic) with no pipe or barrier between (PyPTO emits a tpush/tpop fence" "$out"
expect_contains "the verdict" "22_after_ExpandMixedKernel         ERROR" "$out"

# every schedule: the fenced programs pass, the racy ones fail with a race
for sched in fixed aiv-first random:1 random:2 random:3 random:4; do
    for ok in hist/gm_race_fixed device/gm_fence_cube_vector device/syncall_barrier_kernel; do
        run_ptodb --schedule "$sched" --nx --batch "$d/$ok"
        [ "$rc" -eq 0 ] || fail "$ok under $sched: exit $rc (a false race?): $out"
    done
    for bad in hist/gm_race_buggy device/spmd_gm_write_race; do
        run_ptodb --schedule "$sched" --nx --batch "$d/$bad"
        [ "$rc" -eq 1 ] || fail "$bad under $sched: exit $rc, expected 1"
        expect_contains "$bad under $sched" ": race: A" "$out"
    done
done

# the planted fault: without the syncall, block 1's store overwrites rows
# block 0 read (its neighbour's) with nothing between
cp -R "$d/device/syncall_barrier_kernel" "$tmp/nosync"
sed '/pl.system.syncall/d' "$d/device/syncall_barrier_kernel/passes_dump/24_after_SplitVectorKernel.py" \
    >"$tmp/nosync/passes_dump/24_after_SplitVectorKernel.py"
run_ptodb --nx --batch "$tmp/nosync"
[ "$rc" -eq 1 ] || fail "the syncall deleted: exit $rc, expected a race: $out"
expect_contains "the syncall deleted" "race: AIV0 of block 1 writes scratch[16:32, 0:16] at 24:10:9 that AIV0 of block 0 read at 24:12:9 (in two_phase) with no barrier between" "$out"

# what the check does not see: a kernel the host runs in line (an InCore
# function a core_num launch calls before ExpandMixedKernel outlines it runs
# on the host core, not on a launch's cores); --race-check's random block
# orders show that race by its changing output
cp -R "$d/device/syncall_barrier_call" "$tmp/nosync_call"
sed '/pl.system.syncall/d' "$d/device/syncall_barrier_call/passes_dump/11_after_ConvertTensorToTileOps.py" \
    >"$tmp/nosync_call/passes_dump/11_after_ConvertTensorToTileOps.py"
run_ptodb --nx --batch "$tmp/nosync_call"
[ "$rc" -eq 1 ] || fail "the in-line kernel without its syncall: exit $rc, expected a wrong output"
case "$out" in *": race: A"*) fail "the in-line kernel: a race line from the cores' check: $out" ;; esac
run_ptodb --run "$tmp/nosync_call" --race-check 4
expect_contains "--race-check" "race: output 'out' changes under --schedule=random:1" "$out$err"

# the debugger's run stops at the race too (the same machine)
out=$(printf 'pass 22\nrun\n' | "$PTODB" --nw --nx "$d/hist/gm_race_buggy" 2>&1)
expect_contains "the debugger's run" "race: AIV0 reads kv[0:1, 0:8] at 22:20:13" "$out"

# time travel: going back to any moment of the launch and forward again
# meets the race where the straight run did (a checkpoint holds the check's
# shadows, exec/snapshot_parts.c): with a checkpoint at every statement, from
# each step of the straight run before the race, `seek @N` then `continue`,
# and `reverse-step` then `step` over the racing store, stop at step 12 with
# the race line, as the straight run (block 1's store at 24:10)
straight=$(printf 'set checkpoint-interval 1\npass 24\nrun\nwhen\n' | "$PTODB" --nw --nx "$d/device/spmd_gm_write_race" 2>&1)
expect_contains "the straight run" "Step 12 (" "$straight"
n=0
while [ "$n" -lt 12 ]; do
    out=$(printf 'set checkpoint-interval 1\npass 24\nrun\nseek @%d\ncontinue\nwhen\n' "$n" |
        "$PTODB" --nw --nx "$d/device/spmd_gm_write_race" 2>&1)
    [ "$(printf '%s\n' "$out" | grep -c ': race: AIV0 of block 1 writes out')" -eq 2 ] ||
        fail "seek @$n then continue: the race is not met again: $out"
    expect_contains "seek @$n then continue" "Step 12 (" "$out"
    n=$((n + 1))
done
out=$(printf 'set checkpoint-interval 1\npass 24\nrun\nseek @11\nstep\nwhen\n' | "$PTODB" --nw --nx "$d/device/spmd_gm_write_race" 2>&1)
[ "$(printf '%s\n' "$out" | grep -c ': race: AIV0 of block 1 writes out')" -eq 2 ] ||
    fail "seek @11 then step over the store: no race: $out"
expect_contains "seek @11 then step" "Step 12 (" "$out"
echo "ok"

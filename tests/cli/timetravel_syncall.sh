#!/bin/sh
# Time travel across a system.syncall barrier (docs/ops.md, "SPMD blocks"):
# a block that reaches the syncall parks, the next block starts, and the
# parked ones resume once every block reached it. The reverse-execution
# oracle (tests/timetravel/seek_oracle.c) on every moment of the device
# cases with a syncall: the barrier on the launch's own core in line
# (syncall_barrier) and in a callee (syncall_barrier_call), in a kernel
# whose group run parks with the block (syncall_barrier_kernel), and with
# the memory model (syncall_barrier_memory). At each moment, boundaries and
# all (the park, the resume, each block's first and last statement): seek
# @N and seek of every position printed there give the straight run's state
# hash; reverse-step + step, reverse-next + next, reverse-finish and
# reverse-continue + continue land where the straight run's log says.
# Then the transcript of the defect this fixed: a resumed block's moments
# printed the position of its park, and on the launch's own core its first
# statement after the barrier ran without a stop (`break` there hit no
# block).
. "$top_srcdir/tests/cli/lib.sh"
driver="$top_builddir/tests/timetravel/seek_oracle"
[ -x "$driver" ] || fail "missing $driver"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config" HOME="$tmp/home"
dev="$top_srcdir/tests/data/device"
for c in syncall_barrier syncall_barrier_call syncall_barrier_kernel syncall_barrier_memory; do
    seek_oracle_all "$c" "$dev/$c" --all 1
done

# the kernel case: block 0's AIV0 parks at line 12 (step 7) and resumes
# there (step 26), two moments with two positions; each seek lands on its own
run_ptodb --nw --nx "$dev/syncall_barrier_kernel" <<'EOF'
start 24
seek @7
core aiv0
seek @26
seek 24:AIV0:1:12:1
seek 24:AIV0:1:12:2
EOF
expect_eq "syncall kernel: exit" 0 "$rc"
expect_contains "the park" "[AIV0, block 0 of 4] two_phase at 24_after_SplitVectorKernel.py:12, blocked on syncall
12	        nxt: pl.Scalar[pl.INDEX] = (blk + 1) % 4
Position 24:AIV0:1:12:1 (step 7)" "$out"
expect_contains "the resume" "[AIV0, block 0 of 4] two_phase at 24_after_SplitVectorKernel.py:12
12	        nxt: pl.Scalar[pl.INDEX] = (blk + 1) % 4
Position 24:AIV0:1:12:2 (step 26)" "$out"
expect_eq "seek to each position" "Position 24:AIV0:1:12:1 (step 7)
Position 24:AIV0:1:12:2 (step 26)
Position 24:AIV0:1:12:1 (step 7)
Position 24:AIV0:1:12:2 (step 26)" "$(printf '%s\n' "$out" | grep '^Position 24:AIV0:1:12')"

# the call case: every block stops at the statement after its syncall when
# it resumes, before that statement runs (nxt is not yet bound)
run_ptodb --nw --nx "$dev/syncall_barrier_call" <<'EOF'
break 12
run 11
print nxt
continue
continue
continue
continue
EOF
expect_eq "syncall call: exit" 0 "$rc"
expect_eq "break after the syncall: every block" "Breakpoint 1, [host, block 0 of 4] two_phase at 11_after_ConvertTensorToTileOps.py:12
Breakpoint 1, [host, block 1 of 4] two_phase at 11_after_ConvertTensorToTileOps.py:12
Breakpoint 1, [host, block 2 of 4] two_phase at 11_after_ConvertTensorToTileOps.py:12
Breakpoint 1, [host, block 3 of 4] two_phase at 11_after_ConvertTensorToTileOps.py:12" \
    "$(printf '%s\n' "$out" | grep '^Breakpoint 1,')"
expect_contains "the resumed block before its statement" "nxt = <not assigned yet>" "$out"

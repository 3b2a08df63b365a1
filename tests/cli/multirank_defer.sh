#!/bin/sh
# pld.system.defer_wait frees its core (PyPTO distributed_ops.md,
# "pld.system.defer_wait"; docs/multirank.md): our tests/data/multirank/
# defer_wait. Rank 0 runs waiter (defer_wait on its cell) then bump
# (y[0] += 1); rank 1's send reads y[0] (it depends on bump) and notifies
# rank 0. With defer_wait waiter retires, bump runs, send runs and its
# notify completes waiter: every rank finishes, y[0] = 0 + 1 = 1, y[1]
# stays 0 (a pure output). With pld.system.wait (01_after_Wait) waiter parks
# rank 0's one worker, bump waits behind it and send behind bump: a
# deadlock at the wait. A notify that adds 0 never satisfies the deferred
# condition: a deadlock naming the retired task and its condition.
set -e
. "$top_srcdir/tests/cli/lib.sh"
tool="$top_builddir/tests/unit/check_data_tool"
tmp=$(mktemp -d) || fail mktemp
trap 'rm -rf "$tmp"' EXIT
c="$tmp/defer_wait"
cp -R "$top_srcdir/tests/data/multirank/defer_wait" "$c"
chmod -R u+w "$c"
mkdir -p "$c/data/out/rank0" "$c/data/out/rank1"
"$tool" fill pt "$c/data/out/rank0/y.pt" fp32 1 1 8
"$tool" fill pt "$c/data/out/rank1/y.pt" fp32 0 1 8
f0="$c/passes_dump/00_frontend.py"
f1="$c/passes_dump/01_after_Wait.py"
wait_line=$(grep -n '    pld.system.wait(' "$f1" | cut -d: -f1)
for sched in fixed random:3 random:11; do
    run_ptodb --batch --schedule "$sched" "$c"
    expect_eq "$sched: exit status" 1 "$rc"
    expect_contains "$sched: defer_wait: rank 0" "validate tensor: 'rank0.y', max_abs_diff: 0.000000e+00, pass: True" "$out"
    expect_contains "$sched: defer_wait: rank 1" "validate tensor: 'rank1.y', max_abs_diff: 0.000000e+00, pass: True" "$out"
    expect_contains "$sched: wait: deadlock" "$f1:$wait_line:9: in waiter: deadlock" "$out"
    expect_contains "$sched: wait: bump behind it" "not yet run on rank 0: bump" "$out"
    expect_contains "$sched: verdicts" "2 passes: 1 pass, 1 fail; first failing pass: 01_after_Wait" "$out"
done

# send's notify adds 0: the deferred condition never holds
sed -i 's/pld.system.notify(signal, peer, \[0, 0\], pl.const(1, pl.INT32), op=0)/pld.system.notify(signal, peer, [0, 0], pl.const(0, pl.INT32), op=0)/' "$f0"
defer_line=$(grep -n '    pld.system.defer_wait(' "$f0" | cut -d: -f1)
waiter_line=$(grep -n 'self.waiter(' "$f0" | cut -d: -f1)
run_ptodb --batch "$c"
expect_eq "never notified: exit status" 1 "$rc"
expect_contains "never notified: the deferred condition" \
    "rank 0: its task dispatched at $f0:$waiter_line:9 retired, and its completion waits on the pld.system.defer_wait at $f0:$defer_line:9: signal_buf element 0 of rank 0 expects >= 1 (unsigned), holds 0" "$out"

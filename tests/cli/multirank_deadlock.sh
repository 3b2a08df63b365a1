#!/bin/sh
# Our #2397 reproducer (tests/data/multirank/order_2397, made by us): 2 ranks,
# compute / send / compute / wait / compute. With the per-rank ordering of
# comm dispatches (PyPTO #2398, the default) every rank finishes and the
# outputs match goldens computed by hand (y = 0 + 1, z = 0 + 1, w = z + 1);
# with --comm-order=ready (tensor dependencies only) each rank's wait is
# routed ahead of its own send and ptodb reports the deadlock at the wait,
# with each rank's cell, expected and current value, and the send queued
# behind it. Also: a collective called with different shapes on two ranks
# is reported at the call.
set -e
. "$top_srcdir/tests/cli/lib.sh"
tool="$top_builddir/tests/unit/check_data_tool"
tmp=$(mktemp -d) || fail mktemp
trap 'rm -rf "$tmp"' EXIT
c="$tmp/order_2397"
cp -R "$top_srcdir/tests/data/multirank/order_2397" "$c"
chmod -R u+w "$c"
for r in 0 1; do
    mkdir -p "$c/data/out/rank$r"
    "$tool" fill pt "$c/data/out/rank$r/y.pt" fp32 1 1 8
    "$tool" fill pt "$c/data/out/rank$r/z.pt" fp32 1 1 8
    "$tool" fill pt "$c/data/out/rank$r/w.pt" fp32 2 1 8
done
f="$c/passes_dump/00_frontend.py"

run_ptodb --batch "$c"
expect_eq "program order: exit status ($out)" 0 "$rc"
for k in rank0.y rank0.z rank0.w rank1.y rank1.z rank1.w; do
    expect_contains "program order: $k" "validate tensor: '$k', max_abs_diff: 0.000000e+00, pass: True" "$out"
done

wait_line=$(grep -n 'pld.system.wait' "$f" | cut -d: -f1)
send_line=$(grep -n 'self.send(' "$f" | cut -d: -f1)
for sched in fixed random:1 random:2; do
    run_ptodb --batch --comm-order=ready --schedule "$sched" "$c"
    expect_eq "ready order ($sched): exit status" 1 "$rc"
    expect_contains "ready order ($sched): deadlock at the wait" \
        "$f:$wait_line:9: in wait_step: deadlock: every rank that has work left is parked" "$out"
    for r in 0 1; do
        expect_contains "ready order ($sched): rank $r's cell" \
            "rank $r (device $r): parked at $f:$wait_line:9 in wait_step on core host: waits on signal_buf element 0 of rank $r: expects >= 1, holds 0; no rank notified it" "$out"
        expect_contains "ready order ($sched): rank $r's send" "not yet run on rank $r: send (dispatched at $f:$send_line:13)" "$out"
    done
done

# Both ranks send to rank 0: rank 0 finishes, rank 1 waits for ever on a
# cell nobody notifies, and the report says both.
f2="$tmp/finished"
cp -R "$c" "$f2"
sed -i 's/signal, 1 - r, device=r)/signal, 0, device=r)/' "$f2/passes_dump/00_frontend.py"
run_ptodb --batch "$f2"
expect_eq "finished peer: exit status" 1 "$rc"
expect_contains "finished peer: rank 0" "rank 0 (device 0): finished all its tasks" "$out"
expect_contains "finished peer: rank 1" "rank 1 (device 1): parked at $f2/passes_dump/00_frontend.py:$wait_line:9 in wait_step on core host: waits on signal_buf element 0 of rank 1: expects >= 1, holds 0; no rank notified it" "$out"

run_ptodb --batch --comm-order=sideways "$c"
expect_eq "bad --comm-order" 2 "$rc"
expect_contains "bad --comm-order message" "--comm-order: expected program or ready, got 'sideways'" "$err"

# A collective with different shapes on the two ranks: one allreduce per
# rank whose window views differ ([1, 8] on rank 0, [1, 4] on rank 1).
m="$tmp/mismatch"
mkdir -p "$m/passes_dump" "$m/data/out/rank0" "$m/data/out/rank1"
cp "$c/ranks.txt" "$m/ranks.txt"
sed -i 's/signal_buf (4 B)/data_buf (32 B), signal_buf (4 B)/' "$m/ranks.txt"
cat >"$m/passes_dump/00_frontend.py" <<'PY'
# pypto.program: Mismatch
import pypto.language as pl


@pl.program
class Mismatch:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, y: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]]) -> pl.Tensor[[2, 1, 8], pl.FP32]:
        data_buf: pl.Ptr = pld.tensor.alloc_window_buffer(32)
        signal_buf: pl.Ptr = pld.tensor.alloc_window_buffer(4)
        signal: pld.DistributedTensor[[1, 1], pl.INT32] = pld.tensor.window(signal_buf, [1, 1], dtype=pl.INT32)
        a: pld.DistributedTensor[[1, 8], pl.FP32] = pld.tensor.window(data_buf, [1, 8], dtype=pl.FP32)
        b: pld.DistributedTensor[[1, 4], pl.FP32] = pld.tensor.window(data_buf, [1, 4], dtype=pl.FP32)
        pl.builtin.tensor.allreduce(a, signal, op=0, attrs={"device": 0})
        pl.builtin.tensor.allreduce(b, signal, op=0, attrs={"device": 1})
        return y
PY
"$tool" fill pt "$m/data/out/rank0/y.pt" fp32 0 1 8
"$tool" fill pt "$m/data/out/rank1/y.pt" fp32 0 1 8
run_ptodb --batch "$m"
expect_eq "mismatch: exit status" 1 "$rc"
expect_contains "mismatch: at the calls" "mismatched collective #1 in comm domain comm_d0 (target shape or dtype differs): rank 0 (device 0) calls builtin.tensor.allreduce (allreduce) at 14:9 on fp32 [1, 8], rank 1 (device 1) calls builtin.tensor.allreduce (allreduce) at 15:9 on fp32 [1, 4]" "$out"

# A remote store racing with a read on another rank (tests/data/multirank/
# race_remote_store, ours): reported at the access with both ranks and
# places, whatever the schedule; the same program with a notify/wait
# handshake (its second pass) has no race and rank 0 reads the ones.
rc_case="$tmp/race"
cp -R "$top_srcdir/tests/data/multirank/race_remote_store" "$rc_case"
chmod -R u+w "$rc_case"
mkdir -p "$rc_case/data/out/rank0"
"$tool" fill pt "$rc_case/data/out/rank0/out.pt" fp32 1 1 8
rf="$rc_case/passes_dump/00_frontend.py"
store_line=$(grep -n 'pld.tile.remote_store' "$rf" | cut -d: -f1)
read_line=$(grep -n 'def reader' -A1 "$rf" | tail -1 | cut -d- -f1)
for sched in fixed random:1 random:2 random:3; do
    run_ptodb --batch --schedule "$sched" "$rc_case"
    expect_eq "race ($sched): exit status" 1 "$rc"
    expect_contains "race ($sched): named" "race on window data_buf of rank 0 (bytes 0 to 31):" "$out"
    case "$out" in
    *"a write (pld.tile.remote_store) by rank 1 here and a read (a local read) by rank 0 at $rf:$read_line:9"* |\
    *"a read (a local read) by rank 0 here and a write (pld.tile.remote_store) by rank 1 at $rf:$store_line:9"*) ;;
    *) fail "race ($sched): both accesses with their places: $out" ;;
    esac
    expect_contains "race ($sched): the handshake has none" "validate tensor: 'rank0.out', max_abs_diff: 0.000000e+00, pass: True" "$out"
done

#!/bin/sh
# Signals left non-zero (docs/multirank.md, "Signals left non-zero"), on our
# examples/multirank_signals (2 ranks, each computes out = x + 1):
#  00_frontend: rank 1 notifies rank 0's cell [1, 0] (AtomicAdd 1) and rank
#    0 never waits: at the end rank 0's signal element 1 (row 1 of [2, 1])
#    holds 1, a lost notify reported at the notify (line 23:9), by rank 1;
#  01_after_Barrier: each rank notifies its peer's cell [me, 0] and both call
#    pld.tensor.barrier on that signal: at the rendezvous rank 0's element 1
#    holds 1 (rank 1 notified it at 24:9): reported at the barrier;
#  02_after_Handshake: rank 0 waits for the notify: the cell is left at 1, a
#    handshake's residue, not reported; both ranks pass (golden x + 1).
# Under every schedule tried. The 8 real programs (multirank_cases.sh) pass
# on every pass, so none of them is reported.
set -e
. "$top_srcdir/tests/cli/lib.sh"
c="$top_srcdir/examples/multirank_signals"
f0="$c/passes_dump/00_frontend.py"
f1="$c/passes_dump/01_after_Barrier.py"
notify_line=$(grep -n '    pld.system.notify(' "$f0" | cut -d: -f1)
barrier_line=$(grep -n '= pld.tensor.barrier(' "$f1" | cut -d: -f1)
ping_line=$(grep -n '    pld.system.notify(' "$f1" | cut -d: -f1)
for sched in fixed random:1 random:5; do
    run_ptodb --batch --schedule "$sched" "$c"
    expect_eq "$sched: exit status" 1 "$rc"
    expect_contains "$sched: lost notify" \
        "$f0:$notify_line:9: lost notify: rank 0's signal cell signal_buf element 1 holds 1 at the end of the run, last notified here by rank 1 (AtomicAdd 1), and no wait of the run ever checked it" "$out"
    expect_contains "$sched: barrier's signal" \
        "$f1:$barrier_line:62: in sync: pld.tensor.barrier: signal not zero at collective #1 in comm domain comm_d0: rank 0's signal signal_buf element 1 holds 1 when its pld.tensor.barrier (at $barrier_line:9) starts, last notified by rank 1 at $ping_line:9 (AtomicAdd 1)" "$out"
    expect_contains "$sched: the handshake passes" "validate tensor: 'rank0.out', max_abs_diff: 0.000000e+00, pass: True" "$out"
    expect_contains "$sched: verdicts" "3 passes: 1 pass, 2 fail; first failing pass: 00_frontend" "$out"
done

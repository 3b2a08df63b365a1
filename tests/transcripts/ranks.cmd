# args: @SRCDIR@/examples/multirank_signals
# Issue 34: the debugger on a multi-rank case (2 ranks; docs/multirank.md).
# 02_after_Handshake: each rank runs bump_into (out = x + 1); rank 1 runs
# ping (notify rank 0's signal cell [1, 0], AtomicAdd 1), rank 0 runs
# wait_for (wait until cell [1, 0] >= 1). Under the fixed schedule rank 0
# runs until it parks at its wait, then rank 1 runs; rank 1's notify moves
# rank 0's cell from 0 to 1 (element 1 of the [2, 1] int32 window: row 1),
# which the watchpoint on rank 0's `signal` sees although rank 1 wrote it.
# Rank 0 then resumes; out = x + 1 on both ranks matches the golden
# (max_abs_diff 0: one fp32 add, as scripts/gen_examples.py computes it).
pass 2
start
info ranks
next
next
print u - t
break 27
break 22 rank 1
continue
watch signal rank 0
info breakpoints
continue
info ranks
queue show
next
queue show
info cores
rank 0
print signal
continue
info ranks
rank 2
break 22 rank 2

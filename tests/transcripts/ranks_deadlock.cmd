# args: @SRCDIR@/tests/data/multirank/defer_wait
# Issue 34: a deadlock in the debugger (tests/data/multirank/defer_wait,
# 01_after_Wait: rank 0's waiter parks at pld.system.wait on its cell, bump
# is queued behind it, rank 1's send depends on bump): run ends with the
# report --batch gives; info ranks shows rank 0 parked on element 0 of its
# signal_buf, expecting >= 1 and holding 0, nobody having notified it, and
# rank 1 idle with its task not ready; queue show lists that cell (value 0,
# never notified, rank 0 waits on it). Pass 0 (defer_wait) then finishes:
# waiter retires, bump and send run, the notify completes waiter.
pass 1
run
info ranks
queue show
step
pass 0
break 19
run
info ranks
continue
info ranks

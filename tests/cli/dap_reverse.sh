#!/bin/sh
# DAP's stepBack, reverseContinue and restartFrame at every moment of the
# example passes with cores, lanes, SPMD blocks, ranks and host calls
# (tests/dap/reverse_oracle.py): each lands where the REPL's reverse-next
# and reverse-continue land, on the thread of that position, showing the
# straight run's function and line there; restartFrame lands at the first
# step of the frame's call in a straight run. Every disagreement is listed.
. "$top_srcdir/tests/cli/lib.sh"
PTODB="$PTODB" top_srcdir="$top_srcdir" WAIT_SCALE="$wait_scale" timeout $((300 * wait_scale)) /usr/bin/python3 \
    "$top_srcdir/tests/dap/reverse_oracle.py" || fail "DAP reverse requests differ from the REPL or the straight run"

#!/bin/sh
# ptodb --dap at the byte level (tests/dap/protocol.py): bad bodies answered
# and the server stays up; a bad length closes with a diagnostic on stderr;
# requests split at any byte and UTF-8 lengths in bytes; hitCondition "2"
# stops on the second hit, logpoints print and go on; inspection before a
# stop is notStopped; goto restarts in another pass; pause and cancel stop
# a run; setVariable, viz, stepIn/stepOut, lazy statistics; --dap-port on
# 127.0.0.1. Every byte on stdout must be a framed DAP message.
. "$top_srcdir/tests/cli/lib.sh"
PTODB="$PTODB" top_srcdir="$top_srcdir" WAIT_SCALE="$wait_scale" timeout $((120 * wait_scale)) /usr/bin/python3 \
    "$top_srcdir/tests/dap/protocol.py" || fail "DAP protocol checks"

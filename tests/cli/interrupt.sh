#!/bin/sh
# Ctrl-C (SIGINT) stops a running pass at the next statement boundary and
# returns to the prompt with the location; the session stays usable.
set -e
. "$top_srcdir/tests/cli/lib.sh"

tmp=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
mkfifo "$tmp/in"
"$PTODB" --nw --nx "$top_srcdir/tests/data/endless" <"$tmp/in" >"$tmp/out" 2>&1 &
pid=$!
exec 3>"$tmp/in"
echo run >&3
# Once the run has started (ptodb printed it from inside the command, where
# its handler is installed; the pass never ends), interrupt it.
i=0
until grep -q "Starting pass" "$tmp/out" 2>/dev/null; do
    i=$((i + 1)); [ $i -lt $((100 * wait_scale)) ] || fail "the run did not start: $(cat "$tmp/out")"; sleep 0.1
done
kill -INT "$pid"
# the input x, readable wherever the interrupt stopped: on a loaded machine
# it can land before the first statement ran (step 0), where the loop's acc
# is not assigned yet (a flake of this test once, never of ptodb)
printf 'print x[0, 0:2]\necho still-alive\nquit\n' >&3
exec 3>&-
i=0
while kill -0 "$pid" 2>/dev/null; do
    i=$((i + 1)); [ $i -lt $((100 * wait_scale)) ] || fail "ptodb did not quit after the interrupt: $(cat "$tmp/out")"; sleep 0.1
done
wait "$pid" || fail "ptodb exited with an error: $(cat "$tmp/out")"
out=$(cat "$tmp/out")
expect_contains "interrupt reported" "Interrupted." "$out"
expect_contains "location after the interrupt" "[host] endless at 00_frontend.py:" "$out"
expect_contains "session still usable" "still-alive" "$out"
expect_contains "values readable after the interrupt" '$1 = fp32 [2]' "$out"

# Ctrl-C during `bisect`, which runs pass files outside the run loop: the
# pass it is running stops, bisect reports no result, the prompt is back.
# SIGINT is sent until it lands inside the command (one at the prompt is
# dropped on purpose), at most 20 times.
rm -f "$tmp/in" "$tmp/out"
mkfifo "$tmp/in"
"$PTODB" --nw --nx "$top_srcdir/tests/data/endless" <"$tmp/in" >"$tmp/out" 2>&1 &
pid=$!
exec 3>"$tmp/in"
echo bisect >&3
i=0
until grep -q "Interrupted." "$tmp/out" 2>/dev/null; do
    i=$((i + 1)); [ $i -le $((20 * wait_scale)) ] || fail "bisect was not interrupted: $(cat "$tmp/out")"
    sleep 0.5
    kill -INT "$pid"
done
printf 'echo still-alive\nquit\n' >&3
exec 3>&-
i=0
while kill -0 "$pid" 2>/dev/null; do
    i=$((i + 1)); [ $i -lt $((100 * wait_scale)) ] || fail "ptodb did not quit after the interrupted bisect: $(cat "$tmp/out")"; sleep 0.1
done
wait "$pid" || fail "ptodb exited with an error: $(cat "$tmp/out")"
out=$(cat "$tmp/out")
expect_contains "bisect interrupted" "bisect: interrupted after 1 pass files" "$out"
expect_contains "no result" "no result" "$out"
expect_contains "session usable after the bisect" "still-alive" "$out"

# Ctrl-C during a backward search (rr #1491): with no checkpoint but the
# run's start, reverse-continue replays the whole run; it stops at the next
# statement, says so, and the session stays usable. The run goes a fixed
# 500,000 iterations (a conditional breakpoint, 1.5 million statements), so
# the replay's length does not depend on how long anything waited. SIGINT
# is sent until it lands inside reverse-continue (one at the prompt is
# dropped, as above); a replay that reached the start first (a machine so
# loaded that no signal got through in its whole length) is run forward to
# the same breakpoint and tried again, at most 20 times: the verdict never
# depends on timing.
rm -f "$tmp/in" "$tmp/out"
mkfifo "$tmp/in"
"$PTODB" --nw --nx "$top_srcdir/tests/data/endless" <"$tmp/in" >"$tmp/out" 2>&1 &
pid=$!
exec 3>"$tmp/in"
printf 'set checkpoint-interval 0\nbreak 00_frontend.py:9 if i == 500000\nrun\ndisable\necho ready-1\\n\n' >&3
attempt=1
while :; do
    i=0
    until grep -q "^ready-$attempt\$" "$tmp/out" 2>/dev/null; do
        i=$((i + 1)); [ $i -lt $((600 * wait_scale)) ] || fail "the run did not reach the breakpoint: $(cat "$tmp/out")"; sleep 0.1
    done
    echo reverse-continue >&3
    i=0
    until grep -q "Interrupted\." "$tmp/out" ||
        [ "$(grep -c "No more reverse-execution history" "$tmp/out")" -ge "$attempt" ]; do
        i=$((i + 1)); [ $i -le $((2000 * wait_scale)) ] || fail "reverse-continue neither ended nor was interrupted: $(cat "$tmp/out")"
        kill -INT "$pid"
        sleep 0.05
    done
    grep -q "Interrupted\." "$tmp/out" && break
    attempt=$((attempt + 1))
    [ "$attempt" -le 20 ] || fail "no SIGINT landed inside 20 replays of 1.5 million statements: $(cat "$tmp/out")"
    # forward to the same moment; the next marker says it is there
    printf 'enable\ncontinue\ndisable\necho ready-%d\\n\n' "$attempt" >&3
done
printf 'when\necho still-alive\nquit\n' >&3
exec 3>&-
i=0
while kill -0 "$pid" 2>/dev/null; do
    i=$((i + 1)); [ $i -lt $((100 * wait_scale)) ] || fail "ptodb did not quit after the interrupted reverse-continue: $(cat "$tmp/out")"; sleep 0.1
done
wait "$pid" || fail "ptodb exited with an error: $(cat "$tmp/out")"
out=$(cat "$tmp/out")
expect_contains "position after the interrupted search" "Position 0:host:1:" "$out"
expect_contains "session usable after the reverse-continue" "still-alive" "$out"
[ "$attempt" -eq 1 ] || echo "reverse-continue interrupted on attempt $attempt"

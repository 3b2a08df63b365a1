#!/bin/sh
# catch race and catch fence (docs/multirank.md, "Debugging"): the run stops
# right after the statement at which the check finds the fault, as catch
# memory does, with the report --batch prints at the end of the pass. The
# oracle is --batch's own report line (the same words, the same
# file:line:col), and time travel: reverse-step from the stop lands on the
# statement the report names (its line is the report's), on the rank the
# report names. Programs of ours: tests/data/multirank/fence_contract
# (pass 2: a notify before the fence; pass 3: a load before the
# cacheinvalid()) and race_remote_store (pass 0: the remote store races
# with the read).
set -e
. "$top_srcdir/tests/cli/lib.sh"
data=$top_srcdir/tests/data/multirank

# check NAME CASE PASS EVENT: catch EVENT on pass PASS of CASE
check() {
    name=$1 case=$2 pass=$3 event=$4
    run_ptodb --batch "$case"
    report=$(printf '%s\n' "$out$err" | grep -F "$(basename "$case")/passes_dump/$(printf '%02d' "$pass")_" |
        grep -E "fence contract|race on window" | sed 's/^error: //' | head -n 1)
    [ -n "$report" ] || fail "$name: --batch reports nothing for pass $pass"
    # file:line:col at its head, and the rank after "rank "
    line=$(printf '%s\n' "$report" | sed 's/^[^:]*:\([0-9]*\):.*/\1/')
    rank=$(printf '%s\n' "$report" | sed -n 's/.*: fence contract: rank \([0-9]*\) .*/\1/p;s/.*): a [a-z ]* ([^)]*) by rank \([0-9]*\) here.*/\1/p')
    [ -n "$rank" ] || fail "$name: no rank in: $report"
    run_ptodb --nw --nx -ex "catch $event" -ex "pass $pass" -ex run -ex "reverse-step" -ex "info breakpoints" \
        -ex quit "$case"
    expect_contains "$name: the catchpoint" "Catchpoint 1 (" "$out"
    expect_contains "$name: its report is --batch's" "$report" "$out"
    # the stop, then reverse-step: the statement the report names, on its rank
    after=$(printf '%s\n' "$out" | sed -n "/$(printf '%s' "$report" | cut -c1-40 | sed 's/[\/.]/\\&/g')/,\$p")
    expect_contains "$name: reverse-step lands on the statement" "[rank $rank, host] " "$after"
    back=$(printf '%s\n' "$after" | grep -E "^[0-9]+	" | sed -n 2p | cut -f1)
    expect_eq "$name: reverse-step's line is the report's" "$line" "$back"
    expect_contains "$name: info breakpoints counts the hit" "already hit 1 time" "$out"
}

check fence_publish "$data/fence_contract" 2 fence
check fence_consume "$data/fence_contract" 3 fence
check race "$data/race_remote_store" 0 race

# a catchpoint of one kind does not stop on the other's fault
run_ptodb --nw --nx -ex "catch race" -ex "pass 2" -ex run -ex quit "$data/fence_contract"
case $out in *"Catchpoint 1 (race on a window)
"*"Catchpoint 1"*) fail "catch race stopped on a fence breach: $out" ;; esac
expect_contains "no stop: the pass ends with the report" "finished with failures" "$out"

# a single-rank case says it never stops there
run_ptodb --nw --nx -ex "catch fence" -ex quit "$top_srcdir/examples/mlp"
expect_contains "single rank" "a single-rank case has no windows: it never stops here" "$out"
run_ptodb --nw --nx -ex "catch fork" -ex quit "$top_srcdir/examples/mlp"
expect_contains "usage" "Usage: catch memory | catch race | catch fence." "$out$err"

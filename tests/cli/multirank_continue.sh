#!/bin/sh
# `continue` from the end of a multi-rank pass runs the following passes as
# a single-rank run does (run.c, run_go): "Pass N: name", then the pass to
# its end, on until a pass fails, a breakpoint stops, or "The last pass has
# finished."
#  examples/multirank_signals (tests/cli/multirank_signals.sh derives its
#    reports): `run` ends pass 00 with its lost notify; `continue` starts
#    pass 01, whose barrier finds the signal non-zero: an error, the run
#    stops there with the report (pass 02 never starts); a further
#    continue refuses as a single-rank run does.
#  every real multi-rank program (../shared/multirank, skipped when absent):
#    each passes on all its passes (multirank_cases.sh), so `run` then one
#    `continue` runs every pass and ends at the last; with `break pass` on
#    its pass 10 the continue stops at that pass's start instead.
set -e
. "$top_srcdir/tests/cli/lib.sh"
tmp=$(mktemp -d) || fail mktemp
trap 'rm -rf "$tmp"' EXIT
c="$top_srcdir/examples/multirank_signals"
printf 'run\ncontinue\ncontinue\n' >"$tmp/cmds"
run_ptodb --nw --nx -x "$tmp/cmds" "$c"
all="$out$err"
expect_contains "signals: pass 00 ends with its report" "Pass 0 frontend finished with failures after" "$all"
expect_contains "signals: continue starts pass 01" "Pass 1: Barrier" "$all"
expect_contains "signals: pass 01's barrier" "01_after_Barrier.py:29:62: in sync: pld.tensor.barrier: signal not zero" "$all"
expect_contains "signals: the run stops there" "Pass 1 Barrier stopped with an error." "$all"
expect_contains "signals: no continue after the error" 'The pass stopped with an error.  Use "run" to start it again.' "$all"
case "$all" in *"Pass 2: Handshake"*) fail "signals: pass 02 started after pass 01 failed: $all" ;; esac

root=${PTODB_MULTIRANK:-$(dirname "$PTODB_FIXTURES")/multirank}
[ -d "$root" ] || skip "multi-rank cases not found at $root (set PTODB_MULTIRANK); the example's checks passed"
printf 'run\ncontinue\n' >"$tmp/cmds"
n=0
for case in "$root"/*/; do
    case=${case%/}
    [ -f "$case/ranks.txt" ] || continue
    n=$((n + 1))
    name=$(basename "$case")
    npasses=$(ls "$case/passes_dump"/*.py | wc -l)
    run_ptodb --nw --nx -x "$tmp/cmds" "$case"
    expect_eq "$name: exit status ($err)" 0 "$rc"
    expect_contains "$name: the last pass" "The last pass has finished." "$out"
    expect_eq "$name: every pass ran" "$npasses" "$(printf '%s\n' "$out" | grep -c '^Pass [0-9]* .* finished after')"
    expect_eq "$name: every pass passed" 0 "$(printf '%s\n' "$out" | grep -c 'finished with failures')"
    # "Pass N: name" for pass 0 when the case opens, then for each pass continue starts
    expect_eq "$name: each pass announced" "$npasses" "$(printf '%s\n' "$out" | grep -c '^Pass [0-9]*: ')"
    # a pass breakpoint stops the continue at that pass's start (rank 0 has no task running yet)
    tenth=$(ls "$case/passes_dump" | sed -n 11p)
    printf 'run\nbreak pass /^%s/\ncontinue\n' "${tenth%%_*}_" >"$tmp/bp"
    run_ptodb --nw --nx -x "$tmp/bp" "$case"
    expect_contains "$name: the pass breakpoint" "Breakpoint 1, pass ${tenth%%_*} " "$out"
    case "$out" in *"Pass 11: "*) fail "$name: pass 11 started past the breakpoint: $out" ;; esac
done
[ "$n" -gt 0 ] || skip "no folder with a ranks.txt in $root"

#!/bin/sh
# Time travel on a multi-rank case (docs/time-travel.md, "Multi-rank
# runs"): the global schedule is deterministic, so a jump to move N makes
# the schedule again and moves it N times. Metamorphic checks, each on our
# multi-rank programs (examples/multirank_signals, tests/data/multirank)
# and on the first and last pass of every real program (../shared/multirank,
# skipped when absent). A "state" is what the user sees at a stop: `when`
# (position and step), `info ranks` (every rank's state, tasks left, line,
# parked wait), `info locals` and `bt` of the selected rank's core.
#  (a) reverse-step then step returns to the same state, and reverse-step
#      from step j's stop is step j-1's stop when both steps stayed on the
#      same core;
#  (b) seek @N from the end of the pass (or from where it failed) gives the
#      state of a run that stepped to N; seek POSITION gives it too;
#  (c) with a breakpoint, reverse-continue from the end lands at the last
#      stop a forward run made, and again at the one before;
#  (d) the oracle (tests/timetravel/seek_oracle.c) at every move: each
#      rank's core that moved there (a task's start, a kernel's first and
#      last statement, a group call's wait included): seek @N, seek
#      POSITION, reverse-step + step and reverse-next + next land where
#      the forward run's log says, with its state hash; on every pass of
#      our programs and on the passes (a)-(c) check of the real ones.
set -e
. "$top_srcdir/tests/cli/lib.sh"
tmp=$(mktemp -d) || fail mktemp
trap 'rm -rf "$tmp"' EXIT

state='echo @@S@@\nwhen\ninfo ranks\ninfo locals\nbt\necho @@E@@\n'
# states OUT: the states in a session's stdout, one block each, separated by
# --- (without the horizon `when` adds: the furthest step a session reached)
states() { printf '%s\n' "$1" | awk '/@@S@@/{on=1; sub(/.*@@S@@/, ""); if ($0 == "") next} /@@E@@/{on=0; print "---"; next} on' |
    sed 's/ (the history is recorded to step [0-9]*)$//'; }
# session CASE CMDS: runs the commands (printf escapes) on CASE; stdout in $out
session() { printf "$2" >"$tmp/cmds"; run_ptodb --nw --nx -x "$tmp/cmds" "$1"; }
nth() { printf '%s\n' "$1" | awk -v n="$2" 'BEGIN{RS="---\n"} NR==n{printf "%s", $0}'; }

oracle="$top_builddir/tests/timetravel/seek_oracle"
[ -x "$oracle" ] || fail "missing $oracle"
moves=0
# oracle CASE [PASS]: (d)
oracle() {
    o=$("$oracle" "$1" --positions all --twins all ${2:+--pass "$2"} 2>"$tmp/oracle.err") ||
        { head -20 "$tmp/oracle.err" >&2; fail "$(basename "$1")${2:+ pass $2}: reverse execution differs from the forward log: $o"; }
    echo "  $(basename "$1")${2:+ pass $2}: $o"
    n=$(printf '%s\n' "$o" | sed -n 's/.* \([0-9]*\) moments.*/\1/p')
    [ "${n:-0}" -gt 0 ] || fail "$(basename "$1"): the oracle checked no move: $o"
    moves=$((moves + n))
}
oracle "$top_srcdir/examples/multirank_signals"
for c in defer_wait fence_contract order_2397 race_remote_store; do # (exact_regions has no data: multirank_exact.sh makes it)
    oracle "$top_srcdir/tests/data/multirank/$c"
done

checked=0
check_program() { # CASE PASS
    c=$1 pass=$2 name="$(basename "$1") pass $2"
    session "$c" "pass $pass\nstart\ncontinue\nwhen\n"
    total=$(printf '%s\n' "$out" | sed -n 's/^Step \([0-9]*\) .*/\1/p' | tail -1)
    [ -n "$total" ] && [ "$total" -gt 1 ] || fail "$name: no step count at the end: $out"
    # (b) seek @N from the end against forward seeks and against steps
    for n in 1 $((total / 3)) $((total / 2)) $((total - 1)); do
        session "$c" "pass $pass\nstart\nseek @$n\n$state"
        fwd=$(states "$out")
        session "$c" "pass $pass\nstart\ncontinue\nseek @$n\n$state"
        back=$(states "$out")
        expect_eq "$name: seek @$n from the end equals a forward run to $n" "$fwd" "$back"
        expect_contains "$name: seek @$n's step" "Step $n" "$back"
    done
    cmds="pass $pass\nstart\n$state"
    for j in $(seq 1 16); do cmds="${cmds}step\n$state"; done
    session "$c" "$cmds"
    stepped=$(states "$out")
    for j in 2 4 6 16; do # 16: into a loop's second iteration on the real programs (ITER 2)
        st=$(nth "$stepped" $((j + 1)))
        n=$(printf '%s\n' "$st" | sed -n 's/^Step \([0-9]*\) .*/\1/p')
        [ -n "$n" ] || continue # the pass ended before j steps
        pos=$(printf '%s\n' "$st" | sed -n 's/^Position \([^ ]*\)$/\1/p')
        session "$c" "pass $pass\nstart\ncontinue\nseek @$n\n$state"
        expect_eq "$name: seek @$n from the end equals $j steps" "$(printf '%s' "$st" | grep -v '^Step ')" \
            "$(states "$out" | grep -v '^Step \|^---$')"
        if [ -n "$pos" ]; then
            session "$c" "pass $pass\nstart\ncontinue\nseek $pos\n$state"
            expect_eq "$name: seek $pos equals $j steps" "$(printf '%s' "$st" | grep -v '^Step ')" \
                "$(states "$out" | grep -v '^Step \|^---$')"
        fi
        # (a) reverse-step then step: the same state; reverse-step alone: step j-1's when on one core
        cmds="pass $pass\nstart\n"
        for i in $(seq 1 $j); do cmds="${cmds}step\n"; done
        session "$c" "${cmds}${state}reverse-step\n${state}step\n$state"
        three=$(states "$out")
        expect_eq "$name: reverse-step then step after $j steps" "$(nth "$three" 1)" "$(nth "$three" 3)"
        case "$out" in
        *Switching*) ;;
        *) expect_eq "$name: reverse-step from step $j is step $((j - 1))" \
               "$(nth "$stepped" $j | grep -v '^Step ')" "$(nth "$three" 2 | grep -v '^Step ')" ;;
        esac
    done
    # (c) a breakpoint on the line of the second stop (rank 0's task, hit by every rank running it)
    line=$(nth "$stepped" 2 | sed -n 's/^Position [^:]*:r[0-9]*:[^:]*:[0-9]*:\([0-9]*\):.*/\1/p')
    if [ -n "$line" ]; then
        cmds="pass $pass\nbreak $line\nrun\n$state"
        for i in 1 2 3 4 5 6 7 8; do cmds="${cmds}continue\n$state"; done
        session "$c" "$cmds"
        fwd=$(states "$out")
        hits=$(printf '%s\n' "$out" | grep -c '^Breakpoint 1, ') || true
        [ "$hits" -ge 1 ] || fail "$name: the breakpoint at $line never stopped: $out"
        [ "$hits" -le 8 ] || return 0 # more hits than continues: the end is not reached
        # forward: hit 1 is state 1, hit i state i; then reverse from the end
        cmds="pass $pass\nbreak $line\nrun\n"
        for i in $(seq 1 "$hits"); do cmds="${cmds}continue\n"; done
        session "$c" "${cmds}reverse-continue\n${state}reverse-continue\n$state"
        back=$(states "$out")
        expect_eq "$name: reverse-continue from the end is the last hit" \
            "$(nth "$fwd" "$hits" | grep -v '^Step ')" "$(nth "$back" 1 | grep -v '^Step ')"
        if [ "$hits" -ge 2 ]; then
            expect_eq "$name: a second reverse-continue is the hit before" \
                "$(nth "$fwd" $((hits - 1)) | grep -v '^Step ')" "$(nth "$back" 2 | grep -v '^Step ')"
        fi
    fi
    checked=$((checked + 1))
}

check_program "$top_srcdir/examples/multirank_signals" 2
check_program "$top_srcdir/examples/multirank_signals" 0
check_program "$top_srcdir/tests/data/multirank/order_2397" 0
check_program "$top_srcdir/tests/data/multirank/defer_wait" 0
check_program "$top_srcdir/tests/data/multirank/race_remote_store" 1

# (c) with a watchpoint on rank 0's signal window set before the run: the
# forward run stops where rank 0's wait_for brings `signal` into scope (no
# statement wrote it: the reverse stop is that moment too) and where rank 1's
# notify changes it (the reverse stop is before the notify, rank 1 selected)
c="$top_srcdir/examples/multirank_signals"
session "$c" "pass 2\nwatch signal rank 0\nrun\n${state}continue\n${state}continue\n"
fwd=$(states "$out")
notify=$(grep -n 'pld.system.notify(' "$c/passes_dump/02_after_Handshake.py" | cut -d: -f1)
session "$c" "pass 2\nwatch signal rank 0\nrun\ncontinue\ncontinue\nreverse-continue\n${state}reverse-continue\n$state"
back=$(states "$out")
expect_contains "watch: the reverse stop is before the notify" "Position 2:r1:host:1:$notify:1" "$(nth "$back" 1)"
expect_eq "watch: reverse-continue again is the forward run's first stop" \
    "$(nth "$fwd" 1 | grep -v '^Step ')" "$(nth "$back" 2 | grep -v '^Step ')"

# a run that failed (pass 01's barrier): seek goes back from the error
session "$c" "pass 1\nrun\nseek @2\n$state"
a=$(states "$out")
session "$c" "pass 1\nstart\nseek @2\n$state"
expect_eq "signals pass 1: seek @2 after the error" "$(states "$out")" "$a"
# checkpoints are single-rank; positions name a rank
session "$c" "pass 2\nstart\ncheckpoint\nseek 2:r7:host:1:15:1\nseek 2:host:1:15:1\nwhen\n"
expect_contains "no checkpoints on a multi-rank run" "A multi-rank run has no checkpoints" "$err"
expect_contains "no rank 7" 'No rank "r7" in position "2:r7:host:1:15:1" (r0 to r1).' "$err"
expect_contains "a position without a rank is the selected rank's" "Position 2:r0:host:1:15:1" "$out"

root=${PTODB_MULTIRANK:-$(dirname "$PTODB_FIXTURES")/multirank}
[ -d "$root" ] || skip "multi-rank cases not found at $root (set PTODB_MULTIRANK); our $checked programs passed"
for case in "$root"/*/; do
    case=${case%/}
    [ -f "$case/ranks.txt" ] || continue
    last=$(ls "$case/passes_dump" | tail -1)
    check_program "$case" 0
    check_program "$case" "$(expr "${last%%_*}" + 0)"
    oracle "$case" 0
    oracle "$case" "$(expr "${last%%_*}" + 0)"
done
echo "oracle: $moves moves checked"


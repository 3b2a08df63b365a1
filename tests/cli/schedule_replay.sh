#!/bin/sh
# A run's schedule recorded and replayed (docs/schedule.md).
#  1. The oracle (tests/timetravel/schedule_oracle.c) on the examples (the
#     hash at every step) and the fixtures' cover (at 200 moments of each
#     pass, 50 in the sanitizer build: hashing a large case's tensors at
#     each step would take minutes): random schedules recorded, replayed under the
#     fixed and another random schedule: the same state hash at every step,
#     the same end and outputs; the debugger replaying the file: seek and
#     reverse-step + step give the replay's hashes.
#  2. --record-schedule / --replay-schedule with --run: the same lines and
#     the same output bytes (--save-outputs, cmp).
#  3. Files that do not fit are refused at their line: each edit below
#     names the line it must be refused at, worked out from the file.
#  4. record schedule / replay schedule in the debugger.
. "$top_srcdir/tests/cli/lib.sh"
driver="$top_builddir/tests/timetravel/schedule_oracle"
[ -x "$driver" ] || fail "missing $driver"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_STATE_HOME="$tmp/state" HOME="$tmp/home"
ex="$top_srcdir/examples"

# ---- 1. the oracle
for c in mlp mlp-broken spmd deadlock; do
    out=$("$driver" "$ex/$c" "$tmp/oracle.sched" --seeds 4 --moments 100 2>"$tmp/err") ||
        { head -20 "$tmp/err" >&2; fail "$c: a replay differs from its recording: $out"; }
    echo "  $c: $out"
    case "$out" in
    "0 recorded runs"*) fail "$c: no pass with a choice to make was checked" ;;
    *"(0 decisions"* | *"; 0 of them run otherwise"*) fail "$c: the random schedules made no choice: the test has no teeth" ;;
    esac
done
if [ -d "${PTODB_FIXTURES:-}" ]; then
    . "$top_srcdir/tests/cli/fixture_lib.sh"
    # one seed, 10 moments and the program state hashed at 50 steps of each
    # pass where only the cover runs (the sanitizer build: qwen3_scope3 takes
    # most of the time, its tensors hashed under ASan; 200 there took 31 s of
    # CPU, 50 take 11; the outputs are compared bit for bit all the same);
    # two seeds, 20 moments and 200 steps in the normal build
    depth="--seeds 2 --moments 20 --hashes 200"
    [ "${PTODB_FIXTURE_SUBSET:-}" = cover ] && depth="--seeds 1 --moments 10 --hashes 50"
    for c in $(PTODB_FIXTURE_SUBSET=cover fixture_case_dirs 2>/dev/null); do
        # shellcheck disable=SC2086
        out=$("$driver" "$c" "$tmp/oracle.sched" $depth 2>"$tmp/err") ||
            { head -20 "$tmp/err" >&2; fail "$(basename "$c"): a replay differs from its recording: $out"; }
        echo "  $(basename "$c"): $out"
    done
else
    echo "  (fixtures not found at ${PTODB_FIXTURES:-}: the examples only)"
fi

# ---- 2. --run: record, replay, the same lines and bytes
mkdir "$tmp/rec" "$tmp/play"
run_ptodb --run "$ex/mlp" --schedule random:7 --record-schedule "$tmp/mlp.sched" --save-outputs "$tmp/rec"
expect_eq "record: exit status" 0 "$rc"
rec_out=$out
head -1 "$tmp/mlp.sched" | grep -qx 'ptodb-schedule 1' || fail "the file's first line: $(head -1 "$tmp/mlp.sched")"
grep -q '^@[0-9]* core AIV[01] [0-9]*$' "$tmp/mlp.sched" || fail "no core decision recorded under random:7"
run_ptodb --run "$ex/mlp" --replay-schedule "$tmp/mlp.sched" --save-outputs "$tmp/play"
expect_eq "replay: exit status" 0 "$rc"
expect_eq "replay: the same lines" "$rec_out" "$out"
for f in "$tmp/rec"/*; do
    cmp -s "$f" "$tmp/play/$(basename "$f")" || fail "replay: $(basename "$f") differs from the recorded run's bytes"
done
# the same file twice: recording a replay writes the same schedule
run_ptodb --run "$ex/mlp" --replay-schedule "$tmp/mlp.sched" --record-schedule "$tmp/again.sched"
cmp -s "$tmp/mlp.sched" "$tmp/again.sched" || fail "recording a replay gives another file"
# a failing run: the deadlock replays to the same failure
run_ptodb --run "$ex/deadlock" --schedule random:3 --record-schedule "$tmp/dl.sched"
dl_out=$out
grep -q '^end [0-9]* failed$' "$tmp/dl.sched" || fail "the deadlock's section does not end failed"
run_ptodb --run "$ex/deadlock" --replay-schedule "$tmp/dl.sched"
expect_eq "deadlock replay: exit status" 1 "$rc"
expect_eq "deadlock replay: the same lines" "$dl_out" "$out"
# usage errors
run_ptodb --run "$ex/mlp" --replay-schedule "$tmp/mlp.sched" --schedule random:1
expect_eq "--replay-schedule with --schedule" 2 "$rc"
expect_contains "--replay-schedule with --schedule" "cannot go with it" "$err"
run_ptodb --batch "$ex/mlp" --record-schedule "$tmp/b.sched"
expect_eq "--batch --record-schedule" 2 "$rc"
expect_contains "--batch --record-schedule" "ptodb: --record-schedule does not apply to --batch; it applies to --run" "$err"
run_ptodb --batch "$ex/mlp" --replay-schedule "$tmp/mlp.sched"
expect_eq "--batch --replay-schedule" 2 "$rc"
run_ptodb --batch "$ex/mlp" --replay-schedule "$tmp/mlp.sched" -ex "run 22" -ex "info position"
expect_eq "--batch -ex with --replay-schedule" 0 "$rc"
expect_contains "--batch -ex with --replay-schedule" "Schedule $tmp/mlp.sched read" "$out"
run_ptodb --run "$ex/mlp" --replay-schedule "$tmp/none.sched"
expect_eq "a missing file" 2 "$rc"
expect_contains "a missing file" "$tmp/none.sched: cannot open" "$err"

# ---- 3. files that do not fit, refused at their line
f="$tmp/mlp.sched"
# the line of pass 22's section and of its first decision
pl=$(grep -n '^pass 22 ' "$f" | cut -d: -f1)
dl=$(awk -v p="$pl" 'NR > p && /^@/ { print NR; exit }' "$f")
el=$(awk -v p="$pl" 'NR > p && /^end / { print NR; exit }' "$f")
[ -n "$pl" ] && [ -n "$dl" ] && [ -n "$el" ] || fail "pass 22's section not found in $f"
refused() { # WHAT EXPECTED-STATUS NEEDLE SED-SCRIPT
    sed "$4" "$f" >"$tmp/bad.sched"
    run_ptodb --run "$ex/mlp" --replay-schedule "$tmp/bad.sched"
    expect_eq "$1: exit status" "$2" "$rc"
    expect_contains "$1" "$3" "$out$err"
}
# the decision's statement moved: refused at the decision
refused "a decision's line" 1 "$tmp/bad.sched:$dl: schedule replay: the recording runs" \
    "${dl}s/ \\([0-9]*\\)\$/ 9999/"
# the same core at step 0, where the host runs alone: refused at the decision
refused "a decision at a step with no choice" 1 "$tmp/bad.sched:$dl: schedule replay:" \
    "${dl}s/^@[0-9]*/@0/"
# the run's end moved: refused at the end line
steps=$(sed -n "${el}p" "$f" | cut -d' ' -f2)
refused "the end's step" 1 "$tmp/bad.sched:$el: schedule replay: the recorded run finished at step $((steps + 5)); this one finished at step $steps" \
    "${el}s/^end [0-9]*/end $((steps + 5))/"
# the text's fingerprint: a changed program, refused at the pass line
refused "the fingerprint" 1 "$tmp/bad.sched:$pl: pass 22 ExpandMixedKernel has changed since the schedule was recorded" \
    "${pl}s/^pass 22 [0-9a-f]*/pass 22 0123456789abcdef/"
# another pass's section: refused at its pass line, and pass 22 has none
refused "another pass" 1 "the schedule is of pass 18 ExpandMixedKernel; this case's pass 18 is InferTileMemorySpace" \
    "/^pass 18 /,/^end /d;${pl}s/^pass 22 /pass 18 /"
expect_contains "another pass: its line" "$tmp/bad.sched:$(grep -n '^pass 18 ' "$tmp/bad.sched" | cut -d: -f1): the schedule is of pass 18" "$out"
expect_contains "another pass" "$tmp/bad.sched: no schedule of pass 22 in the file" "$out"
# the format: the version, a word, a cut file
refused "the version" 2 "$tmp/bad.sched:1:16: schedule format version 2: this ptodb reads version 1" \
    "1s/ 1\$/ 2/"
refused "a word" 2 "$tmp/bad.sched:$dl:" "${dl}s/ core / kore /"
expect_contains "a word" "expected 'core' or 'blocks' after the step, found 'kore'" "$err"
refused "a cut file" 2 "has no 'end' line: the file is cut short" "\$d"
refused "steps out of order" 2 "$tmp/bad.sched:$((dl + 1)):2: step" "$((dl + 1))s/^@[0-9]*/@1/"
# a changed program: the pass file edited (a copy of the case)
cp -R "$ex/mlp" "$tmp/mlp-copy"
printf '# an edit\n' >>"$tmp/mlp-copy/passes_dump/22_after_ExpandMixedKernel.py"
run_ptodb --run "$tmp/mlp-copy" --replay-schedule "$f"
expect_eq "a changed program: exit status" 1 "$rc"
expect_contains "a changed program" "$f:$pl: pass 22 ExpandMixedKernel has changed since the schedule was recorded" "$out"

# ---- 4. the debugger
dbg() { run_ptodb --nw --nx "$@" </dev/null; }
dbg "$ex/mlp" --schedule random:7 -ex "start 22" -ex "record schedule $tmp/d1.sched" -ex "continue" \
    -ex "record schedule $tmp/d2.sched" -ex quit
expect_contains "record schedule at the start" "Schedule of pass 22 written to $tmp/d1.sched: 0 decisions, steps 0 to 0 (as far as the run got: a replay stops there)." "$out"
expect_contains "record schedule at the end" "Schedule of pass 22 written to $tmp/d2.sched:" "$out"
expect_contains "record schedule at the end" "(the run finished)." "$out"
# the debugger's recording is --run's section of the same pass
awk '/^pass 22 /,/^end /' "$tmp/mlp.sched" >"$tmp/run22"
awk '/^pass 22 /,/^end /' "$tmp/d2.sched" >"$tmp/dbg22"
cmp -s "$tmp/run22" "$tmp/dbg22" || fail "the debugger records another schedule than --run: $(diff "$tmp/run22" "$tmp/dbg22" | head -5)"
# replaying a file that stops at step 0: the run stops there, at the file's end line
dbg "$ex/mlp" -ex "replay schedule $tmp/d1.sched" -ex "start 22" -ex "next" -ex quit
expect_contains "replay schedule" "Schedule $tmp/d1.sched read (pass 22): the next run follows it." "$out"
expect_contains "replay past the file's end" "$tmp/d1.sched:6: schedule replay: the recording stops at step 0 (it was saved there)" "$out$err"
# a refusal is of its step: after going back, the run goes forward again (and is refused there again)
awk '/^ptodb-schedule/ {print} /^pass 22 /,/^end / {print}' "$tmp/mlp.sched" |
    sed 's/^end [0-9]* finished$/end 50 stopped/' | awk '!/^@/ || substr($1, 2) + 0 < 50' >"$tmp/stop50.sched"
sl=$(grep -n '^end 50 stopped$' "$tmp/stop50.sched" | cut -d: -f1)
dbg "$ex/mlp" --replay-schedule "$tmp/stop50.sched" -ex "start 22" -ex continue -ex "reverse-step" -ex "step" \
    -ex when -ex continue -ex quit
expect_contains "a stopped recording" "$tmp/stop50.sched:$sl: schedule replay: the recording stops at step 50" "$out$err"
# (the host waits for its group call at step 50, since its call at step 0:
# reverse-step goes back to its call line, step 0, and step makes the call)
expect_contains "going back from a refusal" "Step 1 (the history is recorded to step 50)" "$out"
[ "$(printf '%s\n' "$out$err" | grep -c 'the recording stops at step 50')" -eq 2 ] ||
    fail "the refusal at step 50 is not met again after going back: $out$err"
dbg "$ex/mlp" -ex "record schedule $tmp/x.sched" -ex "record" -ex "replay schedule $tmp/bad.sched" \
    -ex "replay schedule off" -ex "start 22" -ex "record schedule $ex/mlp/x.sched" \
    -ex "set var out__ssa_v0[0, 0] = 1" -ex "record schedule $tmp/x.sched" -ex quit
expect_contains "record without a run" "The program is not being run." "$err"
expect_contains "record without its word" "Usage: record schedule FILE" "$err"
expect_contains "replay of a file out of order" "bad.sched:$((dl + 1)):2: step 1 is not after the previous decision's" "$err"
expect_contains "record inside the case folder" "ptodb never writes inside a case folder" "$err"
expect_contains "replay schedule off" "The next run follows the schedule setting (fixed)." "$out"
expect_contains "record after set var" "set var changed this run at step 0" "$err"
[ ! -e "$ex/mlp/x.sched" ] || { rm -f "$ex/mlp/x.sched"; fail "record schedule wrote inside the case folder"; }
dbg "$ex/mlp" -ex "set schedule random:x" -ex "show schedule" -ex quit
expect_contains "set schedule" "schedule: the seed in 'random:x' must be an integer" "$err"
echo "  the CLI, the refusals and the debugger: as expected"

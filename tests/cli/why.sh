#!/bin/sh
# `why` on our own examples (docs/why.md):
#  - examples/mlp-broken (BUG.txt: line 29 of pass 11 negates the wrong
#    operand): the chain of the output's worst element, aligned with the last
#    passing pass, marks line 29 as its first differing hop, and says why
#    (it reads up where pass 09 reads gate);
#  - the chain is self-consistent and its arithmetic is right
#    (tests/data/why/check_chain.py recomputes each hop from the inputs it
#    lists), in text and in JSON Lines, at the end of a run and at a stop
#    (through the queues and the lanes' merge of pass 22);
#  - bad requests are one clear line and a failing exit in batch mode.
set -e
. "$top_srcdir/tests/cli/lib.sh"
ex="$top_srcdir/examples"
check="$top_srcdir/tests/data/why/check_chain.py"
export HOME=$(mktemp -d) XDG_STATE_HOME=
trap 'rm -rf "$HOME"' EXIT

run_ptodb --batch "$ex/mlp-broken" --nx -ex 'pass 11' -ex 'why out'
expect_eq "mlp-broken: exit" 0 "$rc"
expect_contains "the worst element is said" "the element of out farthest from golden: out[" "$out"
expect_contains "aligned with the last passing pass" "against 09_after_OutlineIncoreScopes:" "$out"
expect_contains "the planted line is the first differing hop" "first differing hop: #11, line 29: t__tile_6:" "$out"
expect_contains "and why" "it reads up here where 09_after_OutlineIncoreScopes reads gate at the same point" "$out"

# the same as JSON Lines: the summary names line 29, every hop checks out
run_ptodb --batch "$ex/mlp-broken" --nx -ex 'pass 11' -ex 'why --json out'
expect_eq "json: exit" 0 "$rc"
printf '%s\n' "$out" | grep '^{' >"$HOME/chain.jsonl"
expect_contains "json: summary" '"blame_line":29' "$(tail -1 "$HOME/chain.jsonl")"
python3 "$check" "$HOME/chain.jsonl" >"$HOME/check.out" || fail "mlp-broken chain: $(cat "$HOME/check.out")"

# a given element, bounded depth; the ulp comparison (bit for bit)
run_ptodb --batch "$ex/mlp-broken" --nx -ex 'pass 11' -ex 'why out[3, 5] depth 4' -ex 'set ulp on' -ex 'why out[3, 5] depth 2'
expect_eq "depth: exit" 0 "$rc"
expect_contains "depth: bounded" "depth 4 reached (why ... depth N)" "$out"
expect_contains "ulp: bounded" "depth 2 reached" "$out"

# pass 22 (AIC and two AIV lanes, queues both ways, a split merge): chains
# of several elements check out, the chain crosses cores
for e in 'out[0, 0]' 'out[9, 33]' 'out[15, 63]'; do
    run_ptodb --batch "$ex/mlp" --nx -ex 'pass 22' -ex "why --json $e depth 40"
    expect_eq "mlp 22 $e: exit" 0 "$rc"
    printf '%s\n' "$out" | grep '^{' >"$HOME/chain.jsonl"
    python3 "$check" "$HOME/chain.jsonl" >"$HOME/check.out" || fail "mlp 22 $e: $(cat "$HOME/check.out")"
done

# every hop's @STEP is the moment before its statement runs, at its position:
# `seek @STEP` there reports that position, and `seek POSITION` goes to that
# step (through pops that blocked, on both lanes and AIC; a pop that blocked
# stands at its statement from its arrival on, and its position is the
# arrival's +D, the steps to the run)
for e in 'out[9, 33]' 'out[2, 60]'; do
    run_ptodb --batch "$ex/mlp" --nx -ex 'pass 22' -ex "why --json $e depth 40"
    printf '%s\n' "$out" | grep '"type":"hop"' >"$HOME/hops.jsonl"
    python3 -c '
import json, sys
for l in open(sys.argv[1]):
    h = json.loads(l)
    print("-ex\nseek @%d\n-ex\ncore %s\n-ex\nwhen" % (h["step"], h["core"].lower()))
' "$HOME/hops.jsonl" >"$HOME/seek.args"
    expected=$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    h = json.loads(l)
    print("Position %s / Step %d" % (h["position"], h["step"]))
' "$HOME/hops.jsonl")
    [ -n "$expected" ] || fail "no hops for $e"
    set --
    while IFS= read -r a; do set -- "$@" "$a"; done <"$HOME/seek.args"
    run_ptodb --batch "$ex/mlp" --nx -ex 'pass 22' -ex start "$@"
    actual=$(printf '%s\n' "$out" | awk '/^Position /{p=$2} /^Step /{print "Position " p " / Step " $2}')
    expect_eq "positions of $e's hops" "$expected" "$actual"
    python3 -c '
import json, sys
for l in open(sys.argv[1]):
    print("-ex\nseek %s\n-ex\nwhen" % json.loads(l)["position"])
' "$HOME/hops.jsonl" >"$HOME/seek.args"
    set --
    while IFS= read -r a; do set -- "$@" "$a"; done <"$HOME/seek.args"
    run_ptodb --batch "$ex/mlp" --nx -ex 'pass 22' -ex start "$@"
    actual=$(printf '%s\n' "$out" | awk '/^Position /{p=$2} /^Step /{print "Position " p " / Step " $2}')
    expect_eq "seek to the positions of $e's hops" "$expected" "$actual"
done

# at a stop: a local tile of the selected core, at that moment; through the
# pop, the push on AIC, the matmul and the lanes' merged parts to a load
run_ptodb --batch "$ex/mlp" --nx -ex 'pass 22' -ex 'break 57' -ex run -ex 'why up__tile_Vec[0, 0] depth 40' \
    -ex 'why --json up__tile_Vec[0, 0] depth 40'
expect_eq "stop: exit" 0 "$rc"
expect_contains "stop: not aligned" "(at a stop: the chain of this moment, not aligned with another pass" "$out"
expect_contains "stop: the pop" "tpop_from_aic -> up__tile_Vec[0, 0]" "$out"
expect_contains "stop: the push on AIC" "AIC:24 no lane, call 1 of mlp_fused_aic" "$out"
expect_contains "stop: through the merge" "lane 0's part[" "$out"
expect_contains "stop: down to the case's input" "(the case's input)" "$out"
printf '%s\n' "$out" | grep '^{' >"$HOME/chain.jsonl"
python3 "$check" "$HOME/chain.jsonl" >"$HOME/check.out" || fail "stop chain: $(cat "$HOME/check.out")"

# an output not yet written at the stop: why not
run_ptodb --batch "$ex/mlp" --nx -ex 'pass 22' -ex 'break 57' -ex run -ex 'why out[1, 2]'
expect_contains "why not at a stop" "why not: no statement wrote out[1, 2]: nothing wrote out in this run" "$out"

# bad requests
for bad in 'why' 'why out[1' 'why out[a, 2]' 'why out[1, 2] depth 0' 'why out[1, 2] extra'; do
    run_ptodb --batch "$ex/mlp" --nx -ex 'pass 11' -ex "$bad"
    expect_eq "'$bad': exit" 2 "$rc"
    expect_contains "'$bad': usage" "why" "$err"
done
run_ptodb --batch "$ex/mlp" --nx -ex 'pass 11' -ex 'why nosuch[0, 0]'
expect_eq "unknown tensor: exit" 2 "$rc"
expect_contains "unknown tensor" "nosuch is no tensor of the case" "$out$err"
run_ptodb --batch "$ex/mlp" --nx -ex 'pass 11' -ex 'why out[16, 0]'
expect_contains "out of range" "index 16 is out of range for dimension 0 of out (size 16)" "$out$err"
run_ptodb --batch "$ex/mlp" --nx -ex 'pass 11' -ex 'why out[1]'
expect_contains "rank" "out has 2 dimensions, the index 1" "$out$err"
run_ptodb --batch "$ex/mlp" --nx -ex 'pass 11' -ex 'why x'
expect_contains "no golden" "x is no output of the case with a golden of its shape" "$out$err"
exit 0

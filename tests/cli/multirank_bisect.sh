#!/bin/sh
# bisect on a multi-rank case (docs/multirank.md, "Bisect"): a miscompile
# planted in pass K and every later one of a real program of
# ../shared/multirank (copied to a temp dir: ptodb never writes in a case
# folder) is named at pass K, at the planted statement's line, with the rank
# where it first diverges under the fixed schedule, in the text report, the
# JSON report and the debugger's `bisect`; the unplanted program has no
# failing pass.
#
# The rank, by hand, from dist_allreduce_p2_910b's reduce_step (the same
# holds for dist_allreduce_intrinsic_s17_p2_910b's expansion, whose ready
# barrier precedes its accumulate loop likewise) and the fixed schedule
# (sched.h: the lowest rank that can run, until it parks):
#   rank 0 stages its input into its data window, notifies rank 1
#   (signal[0] of rank 1), then waits on its own signal[1] >= 1: nobody has
#   notified it yet, so rank 0 parks before its accumulate loop.
#   rank 1 then stages, notifies rank 0, its wait on signal[0] holds (rank 0
#   notified it), and it runs its accumulate loop to the end: the loop's
#   only peer is 0 (peer 1 is itself): recv = remote_load(data, 0),
#   acc = add(acc, recv).
#   rank 0 resumes: its loop's only peer is 1.
# So in execution order:
#   add -> sub: rank 1's acc is the first differing value: rank 1;
#   remote_load's peer -> 1: rank 0 loads peer 1 as before (same value);
#     rank 1 loads itself (its own data, not rank 0's): rank 1 only;
#   remote_load's peer -> 0: rank 1 loads peer 0 as before, rank 0 loads
#     itself: rank 0 only, although rank 1's remote_load ran first (rank
#     by rank matching: rank 1's record is compared with rank 1's);
#   remote_load's peer -> 2 (out of range for 2 ranks): rank 1 reaches it
#     first (rank 0 is parked): the statement fails on rank 1.
. "$top_srcdir/tests/cli/lib.sh"
set -e
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT

# First, without ../shared: our #2397 program (tests/data/multirank/order_2397,
# one dump file) made a case of four passes, 00..03, the same program in each,
# with goldens by hand (y = 1, z = 1, w = z + 1 = 2 on each rank; see
# multirank_deadlock.sh); bump_into's adds(t, 1.0) planted as adds(t, 2.0)
# from 02 on. By hand: a task enters its rank's FIFO once what it depends
# on has finished (ranks/world.h): bump(y) and bump(z) at once, send after
# bump(y) (it reads y), bump_into after bump(z) (it reads z), wait_step after
# send (the per-rank order of comm dispatches, #2398). So rank 0's FIFO runs
# bump(y), bump(z), send, bump_into, wait_step, and the fixed schedule runs
# rank 0 until it parks: its bump_into's adds, before its wait_step, is the
# first differing value of the run: rank 0. (`break 36` then `run` in the
# debugger stops there on rank 0 first, with wait_step still queued.)
tool="$top_builddir/tests/unit/check_data_tool"
own=$tmp/own
mkdir -p "$own/passes_dump"
cp "$top_srcdir/tests/data/multirank/order_2397/ranks.txt" "$own/"
f0=$top_srcdir/tests/data/multirank/order_2397/passes_dump/00_frontend.py
cp "$f0" "$own/passes_dump/00_frontend.py"
cp "$f0" "$own/passes_dump/01_after_Copy.py"
for n in 02_after_Plant 03_after_Copy; do
    awk '/def bump_into/ { b = 1 } b && /pl.tile.adds\(t, 1.0\)/ { sub(/adds\(t, 1.0\)/, "adds(t, 2.0)"); b = 0 } { print }' \
        "$f0" >"$own/passes_dump/$n.py"
done
for r in 0 1; do
    mkdir -p "$own/data/out/rank$r"
    "$tool" fill pt "$own/data/out/rank$r/y.pt" fp32 1 1 8
    "$tool" fill pt "$own/data/out/rank$r/z.pt" fp32 1 1 8
    "$tool" fill pt "$own/data/out/rank$r/w.pt" fp32 2 1 8
done
own_line=$(grep -n 'adds(t, 2.0)' "$own/passes_dump/02_after_Plant.py" | cut -d: -f1)
[ -n "$own_line" ] || fail "our program: nothing planted"
run_ptodb --batch "$own" --bisect
expect_eq "our program: exit ($err)" 1 "$rc"
expect_contains "our program: pass" "bisect: first failing pass: 02_after_Plant (last passing pass before it: 01_after_Copy)" "$out"
expect_contains "our program: statement and rank" \
    "first divergence: $own/passes_dump/02_after_Plant.py:$own_line: tensor 'u' (function bump_into, rank 0, " "$out"
expect_contains "our program: the counterpart" "differs from 'u' at $own/passes_dump/01_after_Copy.py:$own_line" "$out"
# unplanted (the plant's files replaced by copies): no failing pass
cp "$f0" "$own/passes_dump/02_after_Plant.py"
cp "$f0" "$own/passes_dump/03_after_Copy.py"
run_ptodb --batch "$own" --bisect
expect_eq "our program, unplanted: exit ($err)" 0 "$rc"
expect_contains "our program, unplanted" "bisect: no failing pass" "$out"

root=${PTODB_MULTIRANK:-$(dirname "$PTODB_FIXTURES")/multirank}
src=$root/dist_allreduce_p2_910b
[ -f "$src/ranks.txt" ] || skip "multi-rank case dist_allreduce_p2_910b not found under $root (set PTODB_MULTIRANK); our program's checks passed"

# copy CASE NAME: the case's ranks.txt, data/ and passes_dump/ into $tmp/NAME
copy() {
    mkdir -p "$tmp/$2"
    cp -r "$1/ranks.txt" "$1/data" "$1/passes_dump" "$tmp/$2/"
}

# plant NAME SEDEXPR GREP: applies SEDEXPR to the pass files from the middle
# one of those matching GREP on (pass K: printed as "K_STEM LINE", the line
# of the planted statement in pass K, found by the changed text SEDEXPR
# writes, given as the 4th argument)
plant() {
    files=$(grep -l -- "$3" "$tmp/$1/passes_dump"/*.py)
    n=$(printf '%s\n' "$files" | wc -l)
    [ "$n" -ge 3 ] || fail "$1: the pattern $3 is in $n pass files"
    first=$(printf '%s\n' "$files" | sed -n "$((n / 2 + 1))p")
    planted=0
    for f in "$tmp/$1/passes_dump"/*.py; do
        [ "$f" = "$first" ] && planted=1
        [ "$planted" = 1 ] && sed -i "$2" "$f"
    done
    line=$(grep -n -- "$4" "$first" | head -1 | cut -d: -f1)
    [ -n "$line" ] || fail "$1: nothing planted in $first"
    echo "$(basename "$first" .py) $line"
}

# fields of "first divergence: FILE:LINE: ... (function F, rank R, CORE)"
divergence() {
    printf '%s\n' "$1" | sed -n "s/^first divergence: .*\/\([^/]*\)\.py:\([0-9][0-9]*\): .*(function [^,]*, rank \([0-9]*\), .*/\1 \2 \3/p"
}

# check NAME WANT_RANK [EXTRA...]: --batch --bisect names pass K, the line and the rank
check() {
    name=$1 want_rank=$2
    shift 2
    run_ptodb --batch "$tmp/$name" --bisect "$@"
    expect_eq "$name: exit ($err)" 1 "$rc"
    expect_contains "$name: first failing pass" "bisect: first failing pass: $want_pass (" "$out"
    got=$(divergence "$out")
    expect_eq "$name: pass, line and rank of the first divergence in:
$out
" "$want_pass $want_line $want_rank" "$got"
}

# unplanted: no failing pass, as on a single-rank case
run_ptodb --batch "$src" --bisect
expect_eq "unplanted: exit ($err)" 0 "$rc"
expect_contains "unplanted" "bisect: no failing pass" "$out"

# add -> sub in the accumulate loop: rank 1 (derivation above)
copy "$src" sub
set -- $(plant sub 's/pl\.tile\.add(acc__iter/pl.tile.sub(acc__iter/' 'pl\.tile\.add(acc__iter' 'pl\.tile\.sub(acc__iter')
want_pass=$1 want_line=$2
check sub 1
expect_contains "sub: the op change" "its op changed: sub where the passing pass has add" "$out"
# the same through the JSON report
run_ptodb --batch "$tmp/sub" --bisect --json=- -j 1
got=$(printf '%s\n' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)["bisect"]
s = d["statement"]
print(d["first_bad"], s["line"], s["rank"], s["op"], s["good_op"])')
expect_eq "sub: json" "$want_pass $want_line 1 sub add" "$got"
# a seeded random schedule may run either rank first: the pass and the
# statement are the same (metamorphic), the rank one of the two
run_ptodb --batch "$tmp/sub" --bisect --schedule random:7
expect_contains "sub, random schedule: pass" "bisect: first failing pass: $want_pass (" "$out"
set -- $(divergence "$out")
expect_eq "sub, random schedule: pass and line ($out)" "$want_pass $want_line" "$1 $2"
case "$3" in 0 | 1) ;; *) fail "sub, random schedule: rank '$3' in: $out" ;; esac

# --compare of the two builds: the same statement and rank; the unplanted
# build against itself: no difference (both were run rank by rank, not as
# one machine on the validator's entry, which fails every pass alike)
run_ptodb --compare "$src" "$tmp/sub"
expect_eq "compare: exit ($err)" 1 "$rc"
expect_contains "compare: validation" "validation: 0 failing in A" "$out"
expect_eq "compare: divergence in:
$out
" "$want_pass $want_line 1" "$(divergence "$out")"
run_ptodb --compare "$src" "$src"
expect_eq "compare, unplanted: exit ($err)" 0 "$rc"
expect_contains "compare, unplanted: validation" "validation: 0 failing in A, 0 failing in B" "$out"

# the debugger's bisect: the same answer, a breakpoint on that rank stops there
XDG_STATE_HOME=$tmp/state && export XDG_STATE_HOME
run_ptodb --nw --nx -ex "open $tmp/sub" -ex bisect -ex "break $want_line rank 1" -ex run </dev/null
expect_eq "debugger bisect: exit ($err)" 0 "$rc"
expect_eq "debugger bisect: divergence" "$want_pass $want_line 1" "$(divergence "$out")"
expect_contains "debugger bisect: the hint" "\`break $want_line rank 1\` then \`run\`" "$out"
expect_contains "debugger bisect: the stop" "Breakpoint 1, [rank 1, " "$out"

# the remote_load's peer made a constant: only that rank's data path changes
for peer in 0 1; do
    copy "$src" peer$peer
    set -- $(plant peer$peer "s/remote_load(data__ssa_v1, peer__idx_v0_1,/remote_load(data__ssa_v1, $peer,/" \
        'remote_load(data__ssa_v1, peer__idx_v0_1,' "remote_load(data__ssa_v1, $peer,")
    want_pass=$1 want_line=$2
    check peer$peer $peer
    expect_contains "peer $peer: the loaded tile" "tensor 'recv__ssa_v0'" "$out"
done

# an out-of-range peer: the statement fails on rank 1
copy "$src" peer2
set -- $(plant peer2 's/remote_load(data__ssa_v1, peer__idx_v0_1,/remote_load(data__ssa_v1, 2,/' \
    'remote_load(data__ssa_v1, peer__idx_v0_1,' 'remote_load(data__ssa_v1, 2,')
want_pass=$1 want_line=$2
run_ptodb --batch "$tmp/peer2" --bisect
expect_contains "peer 2: pass" "bisect: first failing pass: $want_pass (" "$out"
expect_contains "peer 2: fails on rank 1" "$want_pass.py:$want_line: the statement fails (function reduce_step, rank 1, " "$out"
expect_contains "peer 2: the error" "peer 2 is out of range" "$out"

# a dropped synchronisation: the ready wait made Ge 0 (always holds). By
# hand: rank 0 no longer parks, so it runs its whole task first; its acc
# load reads its own staged data (as in the passing pass); its remote_load
# reads rank 1's window before rank 1 staged it: zeros where the passing pass
# read 100..355: rank 0, at the remote_load. The ranks now run in another
# order than in the passing pass (there rank 1's accumulate loop ran first),
# so this checks the rank-by-rank matching: a matching across ranks pairs
# rank 0's acc load with the passing pass's first one, rank 1's, and names
# the acc load's line instead.
copy "$src" nowait
set -- $(plant nowait 's/\[src__idx_v0, 0\], pl\.const(1, pl\.INT32), cmp=1)/[src__idx_v0, 0], pl.const(0, pl.INT32), cmp=1)/' \
    '\[src__idx_v0, 0\], pl\.const(1, pl\.INT32), cmp=1)' 'remote_load(data__ssa_v1, peer__idx_v0_1,')
want_pass=$1 want_line=$2
check nowait 0
expect_contains "nowait: the loaded tile" "tensor 'recv__ssa_v0'" "$out"

# the ready wait expects 2 notifies where each peer sends 1: a deadlock,
# named at the wait on rank 0 (the first rank to park there, and the first
# rank the deadlock report heads: both are parked)
copy "$src" deadlock
set -- $(plant deadlock 's/\[src__idx_v0, 0\], pl\.const(1, pl\.INT32), cmp=1)/[src__idx_v0, 0], pl.const(2, pl.INT32), cmp=1)/' \
    '\[src__idx_v0, 0\], pl\.const(1, pl\.INT32), cmp=1)' '\[src__idx_v0, 0\], pl\.const(2, pl\.INT32), cmp=1)')
want_pass=$1 want_line=$2
run_ptodb --batch "$tmp/deadlock" --bisect
expect_contains "deadlock: pass" "bisect: first failing pass: $want_pass (" "$out"
expect_contains "deadlock: at the wait on rank 0" "$want_pass.py:$want_line: the statement fails (function reduce_step, rank 0, " "$out"
expect_contains "deadlock: the report" "deadlock: every rank that has work left is parked" "$out"

# why's chain follows one machine: a clear refusal, not a wrong chain
run_ptodb --nw --nx -ex "open $tmp/sub" -ex "pass $want_pass" -ex "why outputs" </dev/null
expect_contains "why on a multi-rank case" "why: the dataflow chain does not follow several ranks yet" "$out$err"

# the composite allreduce's expansion (LowerCompositeOps), add -> sub: rank 1
src2=$root/dist_allreduce_intrinsic_s17_p2_910b
if [ -f "$src2/ranks.txt" ]; then
    copy "$src2" intrinsic
    set -- $(plant intrinsic 's/pl\.tile\.add(data__peer_acc/pl.tile.sub(data__peer_acc/' 'pl\.tile\.add(data__peer_acc' \
        'pl\.tile\.sub(data__peer_acc')
    want_pass=$1 want_line=$2
    check intrinsic 1
else
    echo "dist_allreduce_intrinsic_s17_p2_910b not found: its plant not checked"
fi

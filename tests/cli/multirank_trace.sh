#!/bin/sh
# `trace save FILE.json` on a multi-rank case (batch/perfetto.c): the
# Chrome trace-event JSON of a single-rank trace with one process per rank
# (pid rank + 1, named "rank R") and a thread per core. Parsed with
# python3's json; checked against the run's own facts:
#  examples/multirank_signals pass 2 (its handshake, tests/transcripts/ranks):
#    2 processes; rank 1's host runs ping (the notify at line 22), rank 0's
#    host runs wait_for (line 27) and parks there once; the statement slices
#    number the statements the pass runs except the host orchestrator's
#    (the summary's count minus the host's, which are not traced);
#  every real program (../shared/multirank, skipped when absent), its last
#    pass: one process per rank of ranks.txt, each with statements.
set -e
. "$top_srcdir/tests/cli/lib.sh"
[ -x /usr/bin/python3 ] || skip "python3 not found"
tmp=$(mktemp -d) || fail mktemp
trap 'rm -rf "$tmp"' EXIT
# summary FILE NRANKS: checks the structure, prints "pid:tid:line" of each statement slice
summary() {
    /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
n = int(sys.argv[2])
names = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
assert names == {k + 1: "rank %d" % k for k in range(n)}, names
for pid in names:
    threads = sorted(e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name" and e["pid"] == pid)
    assert threads == ["AIC", "AIV0", "AIV1", "host"], threads
last = {}
for e in ev:
    assert e["pid"] in names, e
    if e["ph"] in "XBEi":
        key = (e["pid"], e["tid"])
        assert e["ts"] >= last.get(key, 0), e  # time runs forward on every track
        last[key] = e["ts"]
    if e["ph"] == "X":
        print("%d:%d:%d" % (e["pid"], e["tid"], e["args"]["line"]))
    if e["ph"] == "i" and e["cat"] == "rank":
        print("parked:%d:%s" % (e["pid"], e["name"]))
PY
}
c="$top_srcdir/examples/multirank_signals"
f="$c/passes_dump/02_after_Handshake.py"
run_ptodb --nw --nx -ex "pass 2" -ex "trace save $tmp/t.json" "$c" </dev/null
expect_eq "trace save: exit status ($err)" 0 "$rc"
expect_contains "trace save: summary" "Trace of pass 2 Handshake: 24 statements on 2 cores of 2 ranks" "$out"
s=$(summary "$tmp/t.json" 2) || fail "structure of the multi-rank trace: $s"
expect_contains "rank 1 runs the notify" "2:0:$(grep -n 'pld.system.notify(' "$f" | cut -d: -f1)" "$s"
expect_contains "rank 0 runs the wait" "1:0:$(grep -n 'pld.system.wait(' "$f" | cut -d: -f1)" "$s"
expect_eq "rank 0 parks once, at its wait" "parked:1:parked (line $(grep -n 'pld.system.wait(' "$f" | cut -d: -f1))" \
    "$(printf '%s\n' "$s" | grep '^parked:')"
# the ranks' statements: the debugger's count of the pass's statements less the host orchestrator's
printf 'pass 2\nrun\n' >"$tmp/cmds"
run_ptodb --nw --nx -x "$tmp/cmds" "$c"
total=$(printf '%s\n' "$out" | sed -n 's/^Pass 2 Handshake finished after \([0-9]*\) statements\./\1/p')
slices=$(printf '%s\n' "$s" | grep -vc '^parked:')
[ "$slices" -gt 0 ] && [ "$slices" -lt "$total" ] || fail "statement slices $slices of $total statements"

root=${PTODB_MULTIRANK:-$(dirname "$PTODB_FIXTURES")/multirank}
[ -d "$root" ] || skip "multi-rank cases not found at $root (set PTODB_MULTIRANK); the example's checks passed"
for case in "$root"/*/; do
    case=${case%/}
    [ -f "$case/ranks.txt" ] || continue
    name=$(basename "$case")
    n=$(sed -n 's/^ranks: *\([0-9]*\).*/\1/p' "$case/ranks.txt")
    last=$(ls "$case/passes_dump" | tail -1)
    run_ptodb --nw --nx -ex "pass $(expr "${last%%_*}" + 0)" -ex "trace save $tmp/r.json" "$case" </dev/null
    expect_eq "$name: exit status ($err)" 0 "$rc"
    expect_contains "$name: summary" "of $n ranks" "$out"
    s=$(summary "$tmp/r.json" "$n") || fail "$name: structure: $s"
    k=0
    while [ "$k" -lt "$n" ]; do
        printf '%s\n' "$s" | grep -q "^$((k + 1)):" || fail "$name: rank $k ran no statement in the trace"
        k=$((k + 1))
    done
done

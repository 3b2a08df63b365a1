#!/bin/sh
# --trace FILE.json and `trace save FILE.json`: the Perfetto / chrome://tracing
# export of a run of one pass. On examples/mlp-broken's pass 22 (cross-core,
# split mode) and, where present, a cross-core fixture pass: one track per
# core, statements on AIC and both AIV lanes, the queue transfers as flows.
# Checked with Perfetto's trace processor where its Python package or
# trace_processor_shell is installed (both traces), and always with a
# structure check (tests/data/trace/check_trace.py).
. "$top_srcdir/tests/cli/lib.sh"
set -e
[ -x /usr/bin/python3 ] || skip "python3 not found"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
check="/usr/bin/python3 $top_srcdir/tests/data/trace/check_trace.py"

run_ptodb --nw --nx -ex "pass 22" --trace "$tmp/t22.json" "$top_srcdir/examples/mlp-broken" </dev/null
expect_eq "--trace exit" 0 "$rc"
expect_contains "--trace summary" "Trace of pass 22 ExpandMixedKernel: " "$out"
$check "$tmp/t22.json" 3 1 || fail "structure of the pass 22 trace"

# the command, and its errors
run_ptodb --nw --nx -ex "pass 22" -ex "trace save $tmp/cmd.json" "$top_srcdir/examples/mlp-broken" </dev/null
cmp -s "$tmp/t22.json" "$tmp/cmd.json" || fail "trace save and --trace differ"
run_ptodb --batch --nx -ex "trace" "$top_srcdir/examples/mlp-broken"
expect_contains "usage" "Usage: trace save FILE.json" "$out$err"
run_ptodb --nw --nx -ex "trace save $tmp/no/such/dir/t.json" "$top_srcdir/examples/mlp-broken" </dev/null
expect_contains "unwritable" "Cannot write $tmp/no/such/dir/t.json" "$out$err"

# Perfetto's trace processor, where installed (the Python package, or the
# trace_processor_shell binary on PATH): the trace loads and has a thread
# track for each of AIC, AIV0 and AIV1. Returns 2 when neither is there.
trace_processor_tracks() {
    if /usr/bin/python3 -c 'import perfetto.trace_processor' 2>/dev/null; then
        /usr/bin/python3 - "$1" <<'PY'
import sys
from perfetto.trace_processor import TraceProcessor
tp = TraceProcessor(trace=sys.argv[1])
rows = list(tp.query("select distinct thread.name as n from thread join thread_track using(utid)"))
names = sorted(r.n for r in rows if r.n)
assert {"AIC", "AIV0", "AIV1"} <= set(names), names
print("trace processor: tracks", names)
PY
        return
    fi
    if command -v trace_processor_shell >/dev/null 2>&1; then
        echo "select distinct thread.name as n from thread join thread_track using(utid);" >"$tmp/tracks.sql"
        trace_processor_shell --query-file "$tmp/tracks.sql" "$1" >"$tmp/tracks.out" 2>&1 || { cat "$tmp/tracks.out"; return 1; }
        for core in AIC AIV0 AIV1; do
            grep -q "\"$core\"" "$tmp/tracks.out" || { echo "no $core track:"; cat "$tmp/tracks.out"; return 1; }
        done
        echo "trace_processor_shell: tracks AIC AIV0 AIV1"
        return
    fi
    return 2
}

if trace_processor_tracks "$tmp/t22.json"; then :; else
    [ $? -eq 2 ] || fail "trace processor on the pass 22 trace"
    echo "neither the perfetto Python package nor trace_processor_shell: structure check only"
fi

fixtures_or_skip
case_dir="$PTODB_FIXTURES/cross_core_c2v_updown_910b"
[ -d "$case_dir/passes_dump" ] || skip "fixture cross_core_c2v_updown_910b not found"
last=$(ls "$case_dir/passes_dump" | sed -n 's/^\([0-9][0-9]\)_after_.*/\1/p' | tail -1)
run_ptodb --nw --nx -ex "pass $last" --trace "$tmp/fixture.json" "$case_dir" </dev/null
expect_eq "fixture --trace exit" 0 "$rc"
$check "$tmp/fixture.json" 2 1 || fail "structure of the fixture trace"
if trace_processor_tracks "$tmp/fixture.json"; then :; else
    [ $? -eq 2 ] || fail "trace processor on the fixture trace"
fi

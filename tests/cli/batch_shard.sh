#!/bin/sh
# --batch over a folder of cases, --shard K/N and --merge-reports: three
# shards merged say what one unsharded run says (the same totals, the same
# verdict and max_abs_diff for every pass, and the same JUnit and HTML
# reports, timings aside), on a folder of our own examples (always) and on
# the fixtures folder (when present). Also: the per-case lines and exit
# codes of a folder run, --shard's strict K/N, and merges that are refused.
. "$top_srcdir/tests/cli/lib.sh"
set -e
[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 not found (JSON checks)"
facts="/usr/bin/python3 $top_srcdir/tests/data/batch/report_facts.py"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
# what differs between two runs of the same cases: timings
untimed() { sed -E 's/ time="[0-9.]*"//g; s|<td class="t">[^<]*</td>||g; s/in [0-9]+\.[0-9]+ s/in N s/g' "$1"; }

# shard_and_merge DIR NAME: one run, three shards, a merge; compares them
shard_and_merge() {
    _d=$1 _n=$2
    run_ptodb --batch "$_d" -j 2 --json "$tmp/$_n.all.json" --junit "$tmp/$_n.all.xml" --html "$tmp/$_n.all.html"
    _all_rc=$rc
    [ "$_all_rc" -le 1 ] || { printf '%s\n' "$err" >&2; fail "$_n: --batch exit $_all_rc"; }
    for k in 1 2 3; do
        run_ptodb --batch "$_d" --shard "$k/3" -j 2 --json "$tmp/$_n.s$k.json"
        [ "$rc" -le 1 ] || { printf '%s\n' "$err" >&2; fail "$_n: --shard $k/3 exit $rc"; }
    done
    run_ptodb --merge-reports "$tmp/$_n.s1.json" "$tmp/$_n.s3.json" "$tmp/$_n.s2.json" \
        --json "$tmp/$_n.m.json" --junit "$tmp/$_n.m.xml" --html "$tmp/$_n.m.html"
    expect_eq "$_n: merge exit as one run" "$_all_rc" "$rc"
    expect_eq "$_n: totals and verdicts of the merge" "$($facts "$tmp/$_n.all.json")" "$($facts "$tmp/$_n.m.json")"
    expect_eq "$_n: JUnit of the merge" "$(untimed "$tmp/$_n.all.xml")" "$(untimed "$tmp/$_n.m.xml")"
    expect_eq "$_n: HTML of the merge" "$(untimed "$tmp/$_n.all.html")" "$(untimed "$tmp/$_n.m.html")"
    # each case is in exactly one shard
    _sum=0
    for k in 1 2 3; do
        _c=$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cases"]))' "$tmp/$_n.s$k.json")
        _sum=$((_sum + _c))
    done
    expect_eq "$_n: shards hold every case once" \
        "$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cases"]))' "$tmp/$_n.all.json")" "$_sum"
}

# a folder of our own examples: one passes, two fail
ex="$tmp/cases"
mkdir "$ex"
for c in mlp mlp-broken deadlock; do cp -R "$top_srcdir/examples/$c" "$ex/$c"; done
run_ptodb --batch "$ex" -j 2
expect_eq "folder exit: a case fails" 1 "$rc"
expect_contains "per-case line" "$ex/mlp-broken FAIL, 7 passes: 4 pass, 3 fail; first failing pass: 11_after_ConvertTensorToTileOps" "$out"
expect_contains "per-case line (pass)" "$ex/mlp        PASS, 7 passes: 7 pass, 0 fail" "$out"
expect_contains "total line" "3 cases: 1 pass, 2 fail, 0 error" "$out"
expect_contains "each case's own report" "==================== 11_after_ConvertTensorToTileOps" "$out"
shard_and_merge "$ex" examples
expect_eq "multi-case schema" "ptodb-batch-cases/1 None 3" "$(/usr/bin/python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); print(d["schema"], d["shard"], len(d["cases"]))' "$tmp/examples.all.json")"
expect_eq "shard named in its report" "2 3" "$(/usr/bin/python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); print(d["shard"]["index"], d["shard"]["count"])' "$tmp/examples.s2.json")"
# a single case keeps the single-case report; a shard of it is of the several-cases form
run_ptodb --batch "$ex/mlp" --json "$tmp/one.json"
expect_eq "single case: exit" 0 "$rc"
expect_eq "single case: schema unchanged" "ptodb-batch/1" "$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["schema"])' "$tmp/one.json")"
run_ptodb --batch "$ex/mlp" --shard 2/2 --json "$tmp/empty-shard.json"
expect_eq "empty shard: exit" 0 "$rc"
expect_contains "empty shard: says so" "--shard 2/2: 0 of 1 case" "$out"

# a folder where every case passes, and one with a case that cannot be opened
mkdir "$tmp/good" "$tmp/bad" "$tmp/bad/broken" "$tmp/bad/broken/passes_dump"
cp -R "$top_srcdir/examples/mlp" "$tmp/good/mlp"
cp -R "$top_srcdir/examples/mlp" "$tmp/bad/mlp"
run_ptodb --batch "$tmp/good"
expect_eq "folder exit: all pass" 0 "$rc"
run_ptodb --batch "$tmp/bad" --json "$tmp/bad.json" --junit "$tmp/bad.xml"
expect_eq "folder exit: a case cannot be opened" 2 "$rc"
expect_contains "the broken case's line" "$tmp/bad/broken ERROR" "$out"
expect_contains "its diagnostics" "no .py pass dump files found" "$err"
expect_eq "its report entry" "1 2" "$(/usr/bin/python3 -c '
import json,sys; d=json.load(open(sys.argv[1])); print(d["summary"]["cases_error"], d["summary"]["exit_code"])' "$tmp/bad.json")"
grep -q '<error message="the case could not be opened' "$tmp/bad.xml" || fail "JUnit: no <error> for the broken case"

# --shard K/N: strictly 1 <= K <= N
for s in 0/3 4/3; do
    run_ptodb --batch "$ex" --shard "$s"
    expect_eq "--shard $s exit" 2 "$rc"
    expect_contains "--shard $s message" "K must be from 1 to 3" "$err"
done
for s in 1/0 a/3 1/3x /3 1/ 1 -1/3 " 1/3"; do
    run_ptodb --batch "$ex" --shard "$s"
    expect_eq "--shard '$s' exit" 2 "$rc"
    expect_contains "--shard '$s' message" "expected K/N with 1 <= K <= N" "$err"
done

# merges that are refused
run_ptodb --merge-reports "$tmp/examples.s1.json" "$tmp/examples.s2.json"
expect_eq "missing shard: exit" 2 "$rc"
expect_contains "missing shard: message" "shard 3/3 is missing" "$err"
run_ptodb --merge-reports "$tmp/examples.s1.json" "$tmp/examples.s1.json" "$tmp/examples.s2.json" "$tmp/examples.s3.json"
expect_eq "repeated shard: exit" 2 "$rc"
expect_contains "repeated shard: message" "shard 1/3 is given twice" "$err"
run_ptodb --merge-reports "$tmp/examples.all.json" "$tmp/one.json"
expect_eq "case twice: exit" 2 "$rc"
run_ptodb --merge-reports "$tmp/examples.all.json" "$tmp/examples.s1.json"
expect_eq "whole and shard mixed: exit" 2 "$rc"
printf '{"schema": "ptodb-batch/1",\n "case": [1, 2,\n' >"$tmp/broken.json"
run_ptodb --merge-reports "$tmp/broken.json"
expect_eq "broken JSON: exit" 2 "$rc"
expect_contains "broken JSON: file:line:col" "$tmp/broken.json:3:1: " "$err"
printf '{"schema": "something-else/1"}\n' >"$tmp/other.json"
run_ptodb --merge-reports "$tmp/other.json"
expect_eq "other schema: exit" 2 "$rc"
expect_contains "other schema: message" "not a ptodb --batch report" "$err"
run_ptodb --merge-reports
expect_eq "nothing to merge: exit" 2 "$rc"
run_ptodb --merge-reports "$tmp/examples.s1.json" --shard 1/3
expect_eq "--shard with a merge: exit" 2 "$rc"
# whole reports of separate runs merge too
run_ptodb --merge-reports "$tmp/one.json" "$tmp/bad.json" --json "$tmp/sep.json"
expect_eq "separate runs: exit (a case has an error)" 2 "$rc"
expect_eq "separate runs: cases" 3 "$(/usr/bin/python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["cases"]))' "$tmp/sep.json")"

# the fixtures folder: 12 real cases, one of them production-size
# (with PTODB_FIXTURE_SUBSET=cover, a folder of links to the cover's cases)
if [ -d "$PTODB_FIXTURES" ] && ls "$PTODB_FIXTURES"/*/passes_dump >/dev/null 2>&1; then
    . "$top_srcdir/tests/cli/fixture_lib.sh"
    fx=$(fixture_folder "$tmp")
    t0=$(date +%s.%N)
    shard_and_merge "$fx" fixtures
    t1=$(date +%s.%N)
    echo "fixtures: one run, 3 shards and a merge in $(echo "$t1 $t0" | awk '{ printf "%.1f", $1 - $2 }') s"
    $facts "$tmp/fixtures.m.json" >"$tmp/fixtures.facts"
    head -n 1 "$tmp/fixtures.facts"
else
    echo "SKIP (part): fixtures not found at $PTODB_FIXTURES; the examples folder was sharded"
fi
exit 0

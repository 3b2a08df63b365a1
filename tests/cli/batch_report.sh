#!/bin/sh
# --batch on our own examples: the per-pass lines are exactly --run's, the
# summary table, exit codes (0 all pass, 1 a pass fails, 2 input/usage
# errors), --stop-at-first (REF's behaviour), --metrics, --heatmap, and the
# JSON report's structure (tests/data/batch/check_json.py, the schema of
# docs/batch-json.md), to a file and to stdout.
. "$top_srcdir/tests/cli/lib.sh"
set -e
ex="$top_srcdir/examples"
check_json="/usr/bin/python3 $top_srcdir/tests/data/batch/check_json.py"
[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 not found (JSON checks)"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
# REF's lines only: headers, validate lines and what --run prints under them
ref_lines() { sed -n '/^====================/,$p' | sed '/^$/,$d' | grep -v '^  metrics\|^heatmap\|^[+|]\|^cell =\|^worst cell\|^valid region\|^stopped at\|^(bisect'; }

for c in mlp mlp-broken deadlock; do
    run_ptodb --run "$ex/$c"
    run_out=$out run_rc=$rc
    for j in 1 3; do
        run_ptodb --batch "$ex/$c" -j $j
        expect_eq "$c -j $j: exit as --run" "$run_rc" "$rc"
        expect_eq "$c -j $j: lines as --run" "$run_out" "$(printf '%s\n' "$out" | ref_lines)"
    done
done

run_ptodb --batch "$ex/mlp"
expect_eq "mlp exit" 0 "$rc"
expect_contains "tolerances and their source" "tolerances: rtol=0.05 (manifest, " "$out"
expect_contains "summary header" "summary (max_abs_diff per output" "$out"
expect_contains "summary row" "22_after_ExpandMixedKernel        PASS     0.000000e+00" "$out"
expect_contains "totals" "7 passes: 7 pass, 0 fail" "$out"
run_ptodb --batch "$ex/mlp" --rtol=1e-3 --atol 0
expect_contains "option tolerances" "tolerances: rtol=0.001 (option, --rtol), atol=0 (option, --atol)" "$out"

run_ptodb --batch "$ex/mlp-broken"
expect_eq "mlp-broken exit" 1 "$rc"
expect_contains "continues past the failure" "==================== 22_after_ExpandMixedKernel" "$out"
expect_contains "first failing" "first failing pass: 11_after_ConvertTensorToTileOps" "$out"
run_ptodb --batch "$ex/mlp-broken" --stop-at-first -j 2
expect_eq "stop-at-first exit" 1 "$rc"
expect_eq "stop-at-first: passes shown" 5 "$(printf '%s\n' "$out" | grep -c '^====================')"
expect_contains "stop-at-first: the failing pass is the last" "==================== 11_after_ConvertTensorToTileOps" "$out"
expect_contains "stop-at-first: says so" "stopped at the first failing pass (--stop-at-first): 2 passes not validated" "$out"
run_ptodb --batch "$ex/mlp" --stop-at-first
expect_eq "stop-at-first, all pass: exit" 0 "$rc"
expect_eq "stop-at-first, all pass: every pass" 7 "$(printf '%s\n' "$out" | grep -c '^====================')"

run_ptodb --batch "$ex/mlp-broken" --metrics --heatmap -j 1
expect_contains "metrics" "  metrics 'out': outside tolerance 81.15% (831 of 1024), first bad index 0 [0, 0]" "$out"
expect_contains "metrics ulp" "max ULP " "$out"
expect_contains "heatmap" "heatmap 'out' (the worst |actual - golden| per block against its tolerance, 16x64 view):" "$out"
# pass 22 stores [8, 64] tiles (one per vector lane) into out: one cell per tile
expect_contains "heatmap per tile" "heatmap 'out' (the worst |actual - golden| per tile against its tolerance, 16x64 view):" "$out"
expect_contains "heatmap tile cells" "cell = 8x64 elements" "$out"
expect_contains "heatmap scale" "each its worst element's |diff| against that element's tolerance: ' ' 0, '.' <1%, ':' <10%, '-' <50%, '+' <=100% of the tolerance (atol + rtol*|golden|); outside it, '1'..'9': up to 2, 5, 10, 20, 50, 100, 1e3, 1e4 times it, more" "$out"
expect_contains "heatmap worst" "worst cell at 23.3x its tolerance (max |diff| 2.142e+00)" "$out"
# One mismatch rule: the validate line, --metrics and every heat map count
# the same elements, in every failing pass
validate=$(printf '%s\n' "$out" | sed -n 's/^  mismatch: \([0-9]*\) of \([0-9]*\) elements.*/\1 \2/p' | sort -u)
metrics=$(printf '%s\n' "$out" | sed -n "s/^  metrics 'out': outside tolerance [0-9.]*% (\([1-9][0-9]*\) of \([0-9]*\)).*/\1 \2/p" | sort -u)
heat=$(printf '%s\n' "$out" | sed -n 's/.*; \([1-9][0-9]*\) of \([0-9]*\) elements outside the tolerance, in .*/\1 \2/p' | sort -u)
expect_eq "one mismatch count: validate line" "831 1024" "$validate"
expect_eq "one mismatch count: metrics" "$validate" "$metrics"
expect_eq "one mismatch count: heat maps" "$validate" "$heat"

# JSON: to a file (text still on stdout) and to stdout (text on stderr)
run_ptodb --batch "$ex/mlp-broken" --metrics --json "$tmp/r.json"
expect_eq "json file: exit" 1 "$rc"
expect_contains "json file: text still printed" "validate tensor: 'out'" "$out"
/usr/bin/python3 -m json.tool "$tmp/r.json" >/dev/null || fail "json.tool rejects the report"
$check_json "$tmp/r.json" --metrics || fail "schema check (metrics)"
run_ptodb --batch "$ex/mlp" --json -
expect_eq "json stdout: exit" 0 "$rc"
printf '%s\n' "$out" | $check_json - || fail "schema check (stdout)"
expect_contains "json stdout: text on stderr" "7 passes: 7 pass, 0 fail" "$err"
run_ptodb --batch "$ex/deadlock" --json "$tmp/d.json" --bisect
expect_eq "deadlock exit" 1 "$rc"
$check_json "$tmp/d.json" --bisect || fail "schema check (deadlock, bisect)"
got=$(/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["passes"][1]; print(p["status"], p["verdict"], d["summary"]["exit_code"], d["bisect"]["first_bad"])' "$tmp/d.json")
expect_eq "deadlock json" "ref_fail 22_after_ExpandMixedKernel" "$(echo "$got" | cut -d' ' -f1,4)"
expect_eq "deadlock json verdict" "fail 1" "$(echo "$got" | cut -d' ' -f2,3)"
run_ptodb --batch "$ex/mlp-broken" --stop-at-first --json "$tmp/s.json"
$check_json "$tmp/s.json" || fail "schema check (stop-at-first)"
expect_eq "stop-at-first json" "True 2" "$(/usr/bin/python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print(s["stopped_early"], s["not_run"])' "$tmp/s.json")"

# --metrics recomputed independently (numpy) from the outputs --run saves
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    mkdir "$tmp/raw"
    "$PTODB" --run "$ex/mlp-broken" --save-outputs "$tmp/raw" >/dev/null || true
    for stem in 09_after_OutlineIncoreScopes 11_after_ConvertTensorToTileOps 22_after_ExpandMixedKernel; do
        /usr/bin/python3 "$top_srcdir/tests/data/batch/check_metrics.py" "$tmp/r.json" "$stem" \
            "$tmp/raw/$stem.out.raw" "$ex/mlp-broken/data/out/out.npy" out || fail "metrics of $stem"
    done
else
    echo "numpy not found: --metrics not recomputed"
fi

# exit 2: input and usage errors
run_ptodb --batch "$ex/does-not-exist"
expect_eq "missing case" 2 "$rc"
mkdir "$tmp/empty"
run_ptodb --batch "$tmp/empty"
expect_eq "no pass files" 2 "$rc"
run_ptodb --batch "$ex/mlp" --jobs=0
expect_eq "bad jobs" 2 "$rc"
run_ptodb --batch "$ex/mlp" --rtol=-1
expect_eq "bad rtol" 2 "$rc"
run_ptodb --batch "$ex/mlp" --ref=torch3
expect_eq "bad profile" 2 "$rc"
run_ptodb --batch "$ex/mlp" --json "$tmp/no/such/dir/r.json"
expect_eq "unwritable json" 2 "$rc"
expect_contains "unwritable json message" "--json: cannot write" "$err"
run_ptodb --batch "$ex/mlp" --stop-at-first --bisect
expect_eq "stop-at-first with bisect" 2 "$rc"
run_ptodb --batch "$ex/mlp" extra-path
expect_eq "extra path" 2 "$rc"
exit 0

#!/bin/sh
# A pass file that does not parse, planted in a copy of examples/mlp (the
# example is never touched): pass 11 loses the ')' closing line 11, so the
# parser first trips on line 12 and only at the end of the file finds the
# '(' never closed. Its errors come in the file's order, the root cause
# first (--check, --batch); --batch counts the file as an error, not a
# failing pass, in its summary line, the per-case line of a folder run, the
# JSON (verdict "error", summary "errors"), JUnit (an <error>, no failure),
# HTML and a merge of the JSON reports; the case still does not validate
# (exit 1).
set -e
. "$top_srcdir/tests/cli/lib.sh"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
export HOME="$tmp/home" XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config"

mkdir "$tmp/cases"
cp -RL "$top_srcdir/examples/mlp" "$tmp/cases/mlp"
f="$tmp/cases/mlp/passes_dump/11_after_ConvertTensorToTileOps.py"
sed -i '11s/= pl\.tile\.mul(x__tile, x__tile)$/= pl.tile.mul(x__tile, x__tile/' "$f"
grep -q 'pl\.tile\.mul(x__tile, x__tile$' "$f" || fail "sed did not drop the ')' of line 11"
case_dir="$tmp/cases/mlp"
root="$f:11:70: error: '(' was never closed"
later="$f:12:9: error: expected ')' or ',', found 'tmp_tile'"

# --check: the root cause first, though the parser met the later error first
run_ptodb --check "$f"
expect_eq "--check exit" 2 "$rc"
expect_eq "--check: the root cause first" "$root" "$(printf '%s\n' "$err" | grep ': error: ' | head -1)"
expect_eq "--check: then the error it caused" "$later" "$(printf '%s\n' "$err" | grep ': error: ' | sed -n 2p)"

# --batch: the pass's block, the table, the summary line, the exit status
run_ptodb --batch "$case_dir" -j 1 --json "$tmp/r.json" --junit "$tmp/r.xml" --html "$tmp/r.html"
expect_eq "--batch exit (the case does not validate)" 1 "$rc"
block=$(printf '%s\n' "$out" | awk '/^==================== / { on = ($2 == "11_after_ConvertTensorToTileOps"); next } on')
expect_eq "--batch: the pass's lines, the root cause first" "error: $f does not check (2 errors), not run:
$root
$later" "$block"
expect_contains "--batch: ERROR in the table" "11_after_ConvertTensorToTileOps   ERROR " "$out"
expect_contains "--batch: an error, not a fail" \
    "7 passes: 6 pass, 0 fail, 1 error (does not check); first pass in error: 11_after_ConvertTensorToTileOps" "$out"
case $out in *"first failing pass"*) fail "--batch calls the pass that does not check a failing pass: $out" ;; esac

# the reports
py() { /usr/bin/python3 -c "$@"; }
expect_eq "JSON: the pass's verdict and status" "error error" \
    "$(py 'import json,sys; p=[p for p in json.load(open(sys.argv[1]))["passes"] if p["index"] == 11][0]; print(p["verdict"], p["status"])' "$tmp/r.json")"
/usr/bin/python3 "$top_srcdir/tests/data/batch/check_json.py" "$tmp/r.json" || fail "JSON: the schema (docs/batch-json.md)"
expect_eq "JSON: the summary" "6 0 1 11_after_ConvertTensorToTileOps 1" \
    "$(py 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print(s["passed"], s["failed"], s["errors"], s["first_failing"], s["exit_code"])' "$tmp/r.json")"
expect_contains "JUnit: an error, no failure" '<testsuite name="mlp" tests="7" failures="0" errors="1"' "$(cat "$tmp/r.xml")"
expect_contains "JUnit: the root cause in the error" "$root" "$(cat "$tmp/r.xml" | sed "s/&#39;/'/g")"
case $(cat "$tmp/r.xml") in *"<failure"*) fail "JUnit: a <failure> for a pass that never ran" ;; esac
expect_contains "HTML: ERROR" '<td class="v">ERROR</td>' "$(cat "$tmp/r.html")"

# a folder of cases: the case's line and the totals; a merge of its report
cp -RL "$top_srcdir/examples/spmd" "$tmp/cases/spmd"
run_ptodb --batch "$tmp/cases" -j 1 --json "$tmp/all.json"
expect_eq "folder: exit" 1 "$rc"
expect_contains "folder: the case's line" \
    "FAIL, 7 passes: 6 pass, 0 fail, 1 error (does not check); first pass in error: 11_after_ConvertTensorToTileOps" "$out"
expect_eq "folder JSON: the totals" "0 1" \
    "$(py 'import json,sys; s=json.load(open(sys.argv[1]))["summary"]; print(s["failed"], s["errors"])' "$tmp/all.json")"
run_ptodb --merge-reports "$tmp/r.json"
expect_eq "merge: exit" 1 "$rc"
expect_contains "merge: the case's line" \
    "FAIL, 7 passes: 6 pass, 0 fail, 1 error (does not check); first pass in error: 11_after_ConvertTensorToTileOps" "$out"
expect_contains "merge: the totals" "7 passes: 6 pass, 0 fail, 1 error (does not check), 0 not validated" "$out"
echo "a pass file that does not parse: its root cause first, an error (not a fail) in --batch and its reports"

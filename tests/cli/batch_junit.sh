#!/bin/sh
# --junit: the report validates against the JUnit schema of Jenkins' xunit
# plugin (tests/data/junit/junit-10.xsd, which GitLab's reader also accepts)
# with xmllint, on a passing example, failing ones (a miscompile, a
# deadlock), a case whose dump holds hostile bytes, and the fixtures folder
# when present; and it says what the text report says: one testcase per
# pass and output, REF's lines in each failure, an error for a pass that does
# not check or raises, the bisect report as the suite's system-out.
. "$top_srcdir/tests/cli/lib.sh"
set -e
command -v xmllint >/dev/null 2>&1 || skip "xmllint not found (Debian libxml2-utils; scripts/bootstrap installs it)"
xsd="$top_srcdir/tests/data/junit/junit-10.xsd"
ex="$top_srcdir/examples"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
valid() { xmllint --noout --schema "$xsd" "$1" 2>"$tmp/xmllint.err" || { cat "$tmp/xmllint.err" >&2; fail "$2: not valid JUnit"; }; }
count() { grep -c "$1" "$2" || true; }

# the schema check has teeth: a testcase without its name is refused
printf '<testsuites><testsuite name="s" tests="1" failures="0" errors="0"><testcase classname="c"/></testsuite></testsuites>\n' >"$tmp/bad.xml"
if xmllint --noout --schema "$xsd" "$tmp/bad.xml" 2>/dev/null; then fail "xmllint accepts a testcase without a name"; fi

run_ptodb --batch "$ex/mlp" --junit "$tmp/mlp.xml"
expect_eq "mlp exit" 0 "$rc"
valid "$tmp/mlp.xml" mlp
expect_eq "mlp: one testcase per pass and output" 7 "$(count '<testcase ' "$tmp/mlp.xml")"
grep -q '<testsuites name="ptodb --batch" tests="7" failures="0" errors="0"' "$tmp/mlp.xml" || fail "mlp: totals"
# a passing testcase holds no failure; the notes that the device computes
# otherwise than REF there (the BF16 matmul's FP32 accumulation, TRSQRT's
# single rounding) are its system-out, one element each
tr '\n' '~' <"$tmp/mlp.xml" >"$tmp/mlp.flat"
grep -q '<testcase classname="mlp" name="04_after_ConvertToSSA/out" time="[0-9.]*">~      <system-out>note: REF differs here: [^<~]*/04_after_ConvertToSSA\.py:21:62: the cube accumulates a BF16/FP16 matmul in FP32 [^<~]*</system-out>~      <system-out>note: REF differs here: [^<~]*/04_after_ConvertToSSA\.py:12:60: TRSQRT rounds 1/sqrt(x) once [^<~]*</system-out>~    </testcase>' "$tmp/mlp.flat" ||
    fail "mlp: testcase names"
expect_eq "mlp: no failure" 0 "$(count '<failure' "$tmp/mlp.xml")"
expect_eq "mlp: two notes per testcase" 14 "$(count '<system-out>note: REF differs here: ' "$tmp/mlp.xml")"
expect_eq "mlp: the cube's note in each testcase" 7 "$(count '<system-out>note: REF differs here: [^<]*the cube accumulates a BF16/FP16 matmul in FP32 ' "$tmp/mlp.xml")"
expect_eq "mlp: TRSQRT's note in each testcase" 7 "$(count '<system-out>note: REF differs here: [^<]*TRSQRT rounds 1/sqrt(x) once ' "$tmp/mlp.xml")"

# --bisect-scan: every pass validated (a testcase each) however slow the machine
run_ptodb --batch "$ex/mlp-broken" --bisect --bisect-scan --junit "$tmp/broken.xml"
expect_eq "mlp-broken exit" 1 "$rc"
valid "$tmp/broken.xml" mlp-broken
grep -q '<testsuite name="mlp-broken" tests="7" failures="3" errors="0" skipped="0"' "$tmp/broken.xml" || fail "mlp-broken: suite counts"
# the failure carries REF's validate line (as its message) and the mismatch summary
tr '\n' '~' <"$tmp/broken.xml" >"$tmp/broken.flat"
grep -q "<testcase classname=\"mlp-broken\" name=\"11_after_ConvertTensorToTileOps/out\" time=\"[0-9.]*\">~      <failure message=\"validate tensor: &#39;out&#39;, max_abs_diff: 2.141543e+00, pass: False\" type=\"mismatch\">validate tensor: &#39;out&#39;, max_abs_diff: 2.141543e+00, pass: False~  mismatch: 831 of 1024 elements outside rtol=5.000e-02 atol=5.000e-02 (first at flat index 0)~</failure>~      <system-out>note: REF differs here: [^<~]*/11_after_ConvertTensorToTileOps\.py:27:66: the cube accumulates a BF16/FP16 matmul in FP32 " "$tmp/broken.flat" ||
    fail "mlp-broken: the failure of 11_after_ConvertTensorToTileOps/out"
grep -q '<system-out>bisect: first failing pass: 11_after_ConvertTensorToTileOps' "$tmp/broken.xml" || fail "mlp-broken: bisect as system-out"
grep -q "first divergence: .*11_after_ConvertTensorToTileOps.py:29: tensor &#39;t__tile_6&#39;" "$tmp/broken.xml" || fail "mlp-broken: the statement in system-out"

# a pass that raises: an error, not a failure
run_ptodb --batch "$ex/deadlock" --junit - -j 1
expect_eq "deadlock exit" 1 "$rc"
printf '%s\n' "$out" >"$tmp/deadlock.xml"
valid "$tmp/deadlock.xml" "deadlock (stdout)"
expect_contains "deadlock: text on stderr" "2 passes: 1 pass, 1 fail" "$err"
grep -q '<error message="Mixed-kernel execution failed in scaled_mm_aiv (lane=0) for scaled_mm" type="ref_fail">' "$tmp/deadlock.xml" ||
    fail "deadlock: error message"
grep -q 'ptodb: deadlock in group scaled_mm: every live core is blocked' "$tmp/deadlock.xml" || fail "deadlock: error text"
grep -q 'type="ref_fail"' "$tmp/deadlock.xml" || fail "deadlock: error type"
grep -q 'tests="2" failures="0" errors="1"' "$tmp/deadlock.xml" || fail "deadlock: counts"

# --stop-at-first: the passes not validated are skipped
run_ptodb --batch "$ex/mlp-broken" --stop-at-first --junit "$tmp/stop.xml"
valid "$tmp/stop.xml" stop-at-first
grep -q 'tests="7" failures="1" errors="0" skipped="2"' "$tmp/stop.xml" || fail "stop-at-first: counts"

# hostile bytes in a dump (a control character, a byte that is not UTF-8,
# markup): the parse errors and the IR diff quote them; the XML stays valid
cp -R "$ex/mlp" "$tmp/hostile"
printf 'x = pl.foo(\001\377 <&> "q" ]]> \n' >>"$tmp/hostile/passes_dump/04_after_ConvertToSSA.py"
run_ptodb --batch "$tmp/hostile" --junit "$tmp/hostile.xml" --html "$tmp/hostile.html" --json "$tmp/hostile.json"
expect_eq "hostile exit" 1 "$rc"
valid "$tmp/hostile.xml" hostile
grep -q 'name="04_after_ConvertToSSA/out" time="[0-9.]*">' "$tmp/hostile.xml" || fail "hostile: the pass's testcase"
/usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$tmp/hostile.json" ||
    fail "hostile: the JSON report is not UTF-8 JSON"

# the fixtures folder: every case in one report
if [ -d "$PTODB_FIXTURES" ] && ls "$PTODB_FIXTURES"/*/passes_dump >/dev/null 2>&1; then
    . "$top_srcdir/tests/cli/fixture_lib.sh"
    fx=$(fixture_folder "$tmp")
    run_ptodb --batch "$fx" -j 2 --junit "$tmp/fixtures.xml"
    [ "$rc" -le 1 ] || { printf '%s\n' "$err" >&2; fail "fixtures: exit $rc"; }
    valid "$tmp/fixtures.xml" fixtures
    n=$(ls -d "$fx"/*/passes_dump | wc -l)
    expect_eq "fixtures: one suite per case" "$n" "$(count '<testsuite ' "$tmp/fixtures.xml")"
    echo "fixtures: $(grep -o '<testsuites [^>]*>' "$tmp/fixtures.xml")"
else
    echo "SKIP (part): fixtures not found at $PTODB_FIXTURES"
fi
exit 0

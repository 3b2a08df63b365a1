#!/bin/sh
# --timeout: a pass that never ends (tests/data/endless: a billion-step
# loop) is stopped at the statement it reached, reported as that pass's
# error with file:line:col, and --batch/--run exit 1 instead of hanging.
# coreutils' timeout guards the test itself: without the option working it
# would hang.
set -e
. "$top_srcdir/tests/cli/lib.sh"
endless="$top_srcdir/tests/data/endless"
run_wrapper="timeout $((60 * wait_scale))"

run_ptodb_guarded() {
    run_ptodb "$@"
    [ "$rc" -ne 124 ] || fail "ptodb $* did not stop within $((60 * wait_scale)) s"
}

for mode in --batch --run; do
    for jobs in 1 2; do
        run_ptodb_guarded $mode "$endless" --timeout=0.3 --jobs=$jobs
        expect_eq "$mode -j$jobs exit status" 1 "$rc"
        expect_contains "$mode -j$jobs message" \
            "in endless: timeout: the pass ran longer than the time limit of 0.3 s (--timeout); stopped here after" "$out"
        echo "$out" | grep -Eq "endless/passes_dump/00_frontend\.py:(8:9|9:13|10:13): in endless" ||
            fail "$mode -j$jobs: no statement location in: $out"
    done
done
run_ptodb_guarded --batch "$endless" --timeout 0.3
expect_contains "batch summary verdict" "00_frontend   ERROR" "$out"

run_ptodb_guarded --batch "$endless" --timeout=0.3 --json -
expect_eq "json exit status" 1 "$rc"
expect_contains "json status" '"status": "error"' "$out"
expect_contains "json message" 'timeout: the pass ran longer than the time limit of 0.3 s' "$out"

# --batch --bisect traces the failing pass: the limit holds there too
run_ptodb_guarded --batch "$endless" --timeout=0.3 --bisect
expect_eq "bisect exit status" 1 "$rc"

for bad in 0 -1 abc nan inf 1e10 ''; do
    run_ptodb_guarded --batch "$endless" --timeout="$bad"
    expect_eq "--timeout='$bad' exit status" 2 "$rc"
    expect_contains "--timeout='$bad' message" \
        "ptodb: --timeout: expected a number of seconds above 0 and at most 1e9, got '$bad'" "$err"
done

# a case that finishes well within the limit is unaffected
run_ptodb_guarded --batch "$top_srcdir/examples/mlp" --timeout=60
expect_eq "examples/mlp within the limit" 0 "$rc"
echo "ok"

#!/bin/sh
# Issue #16, finding 2: integers typed by the user are checked, not
# overflowed. A slice step larger than the dimension keeps one element (as
# Python's); REPL settings and options out of range are refused with the
# accepted range, exit 2 for options.
set -e
. "$top_srcdir/tests/cli/lib.sh"
case_dir="$top_srcdir/examples/mlp"

run_ptodb --nw --nx "$case_dir" -ex 'print x[::9223372036854775807]' -ex 'print x[0:3, ::9223372036854775807]' \
    -ex 'print x[9223372036854775807:, -9223372036854775807::4611686018427387904]' </dev/null
expect_contains "huge step keeps one row" '$1 = fp32 [1, 64]' "$out"
expect_contains "huge step keeps one column" '$2 = fp32 [3, 1]' "$out"
expect_contains "huge start clips" "= fp32 [0, 1]" "$out"
case "$err" in *"runtime error"* | *Sanitizer*) fail "sanitizer report: $err" ;; esac

run_ptodb --nw --nx "$case_dir" -ex 'set listsize 2000000000' -ex 'list 5' -ex 'list -' \
    -ex 'list 1,99999999999' -ex 'delete 4294967297' -ex 'set print elements 99999999999999' \
    -ex 'break 99999999999999999999' </dev/null
expect_contains "listsize refused with its range" 'an integer from 0 to 100000 expected for listsize, got "2000000000"' "$err"
expect_contains "a long list range is clipped to the file" "24" "$out"
expect_contains "breakpoint number beyond int" 'Bad breakpoint number "4294967297"' "$err"
expect_contains "print elements range" 'an integer from 0 to 1000000000 expected for print elements' "$err"
expect_contains "a line number beyond int" 'Bad line number in "99999999999999999999"' "$err"
case "$err" in *"runtime error"* | *Sanitizer*) fail "sanitizer report: $err" ;; esac

# option VALUE EXPECTED-TEXT: refused with exit 2 and the text
refused() {
    run_ptodb "$1" "$2" --run "$case_dir"
    [ "$rc" -eq 2 ] || fail "$1 $2: exit $rc, expected 2 (stderr: $err)"
    expect_contains "$1 $2" "$3" "$err"
}
refused --schedule random:99999999999999999999999 "must be an integer from 0 to 18446744073709551615"
refused --schedule random:-1 "must be an integer from 0 to"
refused --slot-depth 99999999999999999999 "expected a number from 1 to 1000000000"
refused --jobs 99999999999999999999 "expected a number from 1 to 256"
refused --jobs ' 3' "expected a number from 1 to 256"
refused --race-check 0 "expected a number of schedules from 1 to 100000"
refused --timeout 1e400 "expected a number of seconds above 0"
refused --timeout nan "expected a number of seconds above 0"
echo "user numbers checked"

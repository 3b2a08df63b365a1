#!/bin/sh
# The device's semantics on small programs of ours (tests/data/device/*/,
# written by scripts/gen_device_cases.py with the device's value derived by
# hand and its source in each ptodb.yaml): every case passes under the
# default semantics with the note its `expect` file names, and the reference
# (--semantics=ref) gives what `expect` says it gives.
. "$top_srcdir/tests/cli/lib.sh"
n=0
for case_dir in "$top_srcdir"/tests/data/device/*/; do
    [ -f "$case_dir/expect" ] || continue
    name=$(basename "$case_dir")
    n=$((n + 1))
    run_ptodb --nx --batch "$case_dir"
    want=$(sed -n 's/^device: //p' "$case_dir/expect")
    case "$want" in
    PASS) [ "$rc" -eq 0 ] || fail "$name: device exit $rc, expected a pass: $out" ;;
    ERROR) [ "$rc" -eq 1 ] || fail "$name: device exit $rc, expected 1 (a pass that stops with an error): $out" ;;
    *) fail "$name: expect file: device: $want" ;;
    esac
    stem=$(basename "$(ls "$case_dir"/passes_dump/*.py | head -n 1)" .py)
    expect_contains "$name verdict" "$stem   $want" "$out"
    sed -n 's/^note: //p' "$case_dir/expect" | while IFS= read -r note; do
        printf '%s\n' "$out" | grep -qF "note: REF differs here: " || fail "$name: no REF-differs note"
        printf '%s\n' "$out" | grep -qF "$note" || fail "$name: the note '$note' is missing: $out"
    done || exit 1
    sed -n 's/^line: //p' "$case_dir/expect" | while IFS= read -r line; do
        printf '%s\n' "$out" | grep -qF "$line" || fail "$name: the line '$line' is missing: $out"
    done || exit 1
    run_ptodb --nx --batch --semantics=ref "$case_dir"
    want=$(sed -n 's/^ref: //p' "$case_dir/expect")
    expect_contains "$name under ref" "$stem   $want" "$out"
done
[ "$n" -ge 2 ] || fail "only $n cases under tests/data/device"
exit 0

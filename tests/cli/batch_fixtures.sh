#!/bin/sh
# ptodb --batch on every case under $PTODB_FIXTURES, pass by pass against
# what the case's own files say, by the rule of run_fixtures.sh
# (tests/cli/fixture_lib.sh): the reference's verdicts and max_abs_diff
# within one ulp where it validated a file, "does not check" where its
# parser rejected one, a pass against golden where it could not run one or
# never got there (--batch does not stop at a failure). Also: --jobs=1
# prints the same lines, and the exit status follows the verdicts.
# The profile is torch 1.13, as the reference's; a case whose timing.txt says
# the reference ran with the fp16-matmul shim gets torch2, which models it.
# The reference's figures are checked under --semantics=ref; the default
# (--semantics=device) must give every pass the same verdicts, and the same
# max_abs_diff where the device computes as the reference does, except on a
# case whose golden is the reference's where the device differs
# (tests/data/device/fixture_goldens.txt).
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/fixture_lib.sh"
fixtures_or_skip

tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM

total_fail=0
summary="$tmp/summary"
printf '%-36s %6s %6s %6s %7s %7s %5s %8s\n' case passes ref ulp broken golden fail seconds >"$summary"
cases=$(fixture_case_dirs)
[ -n "$cases" ] || skip "no cases under $PTODB_FIXTURES"
for case_dir in $cases; do
    name=$(basename "$case_dir")
    profile=torch1.13
    grep -q 'fp16-matmul shim' "$case_dir/timing.txt" 2>/dev/null && profile=torch2
    t0=$(date +%s.%N)
    "$PTODB" --batch "$case_dir" --ref=$profile --semantics=ref >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    t1=$(date +%s.%N)
    [ "$rc" -le 1 ] || { cat "$tmp/$name.err" >&2; fail "$name: --batch exit $rc"; }
    fixture_expect "$case_dir" >"$tmp/$name.expect"
    fixture_gold "$case_dir" >"$tmp/$name.gold"
    fixture_results "$tmp/$name.out" >"$tmp/$name.got"
    fixture_compare "$name" "$tmp/$name.expect" "$tmp/$name.got" "$tmp/$name.gold" >"$tmp/$name.cmp" || total_fail=1
    grep -v '^counts ' "$tmp/$name.cmp" || true
    set -- $(sed -n 's/^counts //p' "$tmp/$name.cmp")
    printf '%-36s %6d %6d %6d %7d %7d %5d %8.2f\n' "$name" "$1" "$2" "$3" "$4" "$5" "$6" \
        "$(echo "$t1 $t0" | awk '{ print $1 - $2 }')" >>"$summary"
    # the device's semantics gives the same verdicts, and the same figures
    # where the run notes no place where the device computes otherwise
    # (a BF16 matmul's FP32 accumulation changes the last bits); a case whose
    # golden follows the reference where the device differs is checked as
    # tests/data/device/fixture_goldens.txt states
    "$PTODB" --batch "$case_dir" --ref=$profile >"$tmp/$name.dev" 2>/dev/null || true
    fixture_results "$tmp/$name.dev" >"$tmp/$name.dev.got"
    golden_note=$(awk -v c="$name" '$1 == c { print }' "$top_srcdir/tests/data/device/fixture_goldens.txt")
    if [ -n "$golden_note" ]; then
        want_verdict=$(echo "$golden_note" | awk '{ print $2 }')
        want_note=$(echo "$golden_note" | sed 's/^[^ ]* [^ ]* //; s/ -- .*//')
        grep -q "REF differs here: .*$want_note" "$tmp/$name.dev" ||
            { echo "  FAIL $name: --semantics=device does not note: $want_note"; total_fail=1; }
        if [ "$want_verdict" = fail ]; then
            grep -q '=True$' "$tmp/$name.dev.got" &&
                { echo "  FAIL $name: --semantics=device passes an output its golden cannot meet"; total_fail=1; }
        fi
    elif grep -q '^note: REF differs here' "$tmp/$name.dev"; then
        sed 's/=[^=]*=/=/' "$tmp/$name.got" >"$tmp/$name.v"
        sed 's/=[^=]*=/=/' "$tmp/$name.dev.got" >"$tmp/$name.dev.v"
        cmp -s "$tmp/$name.v" "$tmp/$name.dev.v" ||
            { echo "  FAIL $name: --semantics=device gives other verdicts than ref"; diff "$tmp/$name.v" "$tmp/$name.dev.v" | head -5; total_fail=1; }
    else
        cmp -s "$tmp/$name.got" "$tmp/$name.dev.got" ||
            { echo "  FAIL $name: --semantics=device differs from ref"; diff "$tmp/$name.got" "$tmp/$name.dev.got" | head -5; total_fail=1; }
    fi
    # one job gives the same lines, in the same order
    "$PTODB" --batch "$case_dir" --ref=$profile --semantics=ref --jobs=1 >"$tmp/$name.j1" 2>/dev/null || true
    sed -n '/^====================/,/^$/p' "$tmp/$name.out" >"$tmp/$name.a"
    sed -n '/^====================/,/^$/p' "$tmp/$name.j1" >"$tmp/$name.b"
    cmp -s "$tmp/$name.a" "$tmp/$name.b" || { echo "  FAIL $name: --jobs=1 prints other lines"; diff "$tmp/$name.a" "$tmp/$name.b" | head -5; total_fail=1; }
    # the exit status follows the verdicts
    if grep -q 'pass: False\|^REF would fail here\|^error: ' "$tmp/$name.out"; then want=1; else want=0; fi
    [ "$rc" -eq "$want" ] || { echo "  FAIL $name: exit $rc, expected $want"; total_fail=1; }
done
echo
cat "$summary"
echo "(ref = passes the reference validated; ulp = of those, max_abs_diff within 1 ulp of its value;"
echo " broken = files its parser rejected, reported as not checking; golden = files beyond it, passing against golden)"
[ "$total_fail" -eq 0 ] || fail "some passes do not match what the case expects (see above)"
exit 0

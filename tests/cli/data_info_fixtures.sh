#!/bin/sh
# ptodb --info on every real case under $PTODB_FIXTURES: exit 0, all pass
# files found, the entry function the case README names, and every entry
# parameter bound (to an input, or to zeros shaped like its golden output).
set -e
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/fixture_lib.sh"
fixtures_or_skip
n=0
for case in $(fixture_case_dirs); do
    [ -f "$case/README.txt" ] || continue
    n=$((n + 1))
    name=$(basename "$case")
    run_ptodb --info "$case"
    [ "$rc" -eq 0 ] || fail "$name: exit status $rc: $err"
    files=$(ls "$case/passes_dump" | grep -c '\.py$')
    expect_contains "$name passes" "passes: $files in $case/passes_dump" "$out"
    # README: "entry: NAME(args__ssa_v0, ...); frontend entry: NAME(args)"
    entry=$(sed -n 's/^entry: \([A-Za-z_0-9]*\)(.*/\1/p' "$case/README.txt")
    fe_args=$(sed -n 's/.*frontend entry: [A-Za-z_0-9]*(\(.*\))$/\1/p' "$case/README.txt" | tr -d ' ')
    expect_contains "$name entry" "entry: $entry in 00_frontend.py" "$out"
    nargs=$(printf '%s\n' "$fe_args" | tr ',' '\n' | grep -c .)
    expect_contains "$name parameter count" "parameters: $nargs" "$out"
    for a in $(printf '%s\n' "$fe_args" | tr ',' ' '); do
        line=$(printf '%s\n' "$out" | grep "^  $a " || true)
        case "$line" in
        *"<- input '$a'"* | *"<- zeros shaped like golden '$a'"*) ;;
        *) fail "$name: parameter $a not bound: '$line'" ;;
        esac
    done
    case "$out" in *unbound*) fail "$name: unbound parameter" ;; esac
    zeros=$(sed -n 's/.*start as zeros: \(.*\)$/\1/p' "$case/README.txt" | tr -d ' ' | tr ',' ' ')
    for z in $zeros; do
        printf '%s\n' "$out" | grep -q "^  $z .*<- zeros shaped like golden '$z'" ||
            fail "$name: pure output $z does not start as zeros"
    done
done
[ "$n" -gt 0 ] || skip "no cases under $PTODB_FIXTURES"
echo "$n fixture cases described"

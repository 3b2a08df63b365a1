#!/bin/sh
# Pass files the reference's parser rejected (broken IR: the case's
# reference_per_file.txt / reference.txt say so, e.g. ctrl_while_950 from its
# pass 05 on, where PyPTO's Simplify leaves a use of i__iter_v1_1__FREE_VAR
# that nothing defines). Every front end must name the use with no
# definition at its file:line:col, for every such file: --check, --info,
# --batch and the debugger's `run`; and the case's other passes must still
# validate as the reference did, in --batch and in the debugger.
set -e
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/fixture_lib.sh"
fixtures_or_skip
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config" HOME="$tmp/home"

ncases=0 nbroken=0 npoints=0 nvalid=0
for c in $(fixture_case_dirs); do
    name=$(basename "$c")
    fixture_expect "$c" >"$tmp/expect"
    grep -q '^[^ ]* broken ' "$tmp/expect" || continue
    ncases=$((ncases + 1))
    fixture_gold "$c" >"$tmp/gold"

    # --info: each broken pass's row names its first error; no other row does
    run_ptodb --info "$c"
    expect_eq "$name --info exit" 0 "$rc"
    while read -r stem kind rest; do
        row=$(printf '%s\n' "$out" | grep "^  ${stem%%_*} " || true)
        case "$kind:$row" in
        broken:*"does not check: $c/passes_dump/$stem.py:"*) ;;
        broken:*) fail "$name --info: $stem not marked as not checking: '$row'" ;;
        *"does not check"*) fail "$name --info: $stem marked as not checking: '$row'" ;;
        esac
    done <"$tmp/expect"
    p=$(fixture_error_points "$(printf '%s\n' "$out" | sed -n 's/^  [0-9?]* [A-Za-z0-9_]*  does not check: //p' | sed 's/ (+[0-9]* more)$//')") || exit 1

    # --batch: every broken pass says it does not check and where; the rest
    # as the reference (fixture_compare); exit 1
    run_ptodb --batch "$c" --ref=torch1.13
    expect_eq "$name --batch exit" 1 "$rc"
    printf '%s\n' "$out" >"$tmp/batch.out"
    fixture_results "$tmp/batch.out" >"$tmp/batch.got"
    fixture_compare "$name --batch" "$tmp/expect" "$tmp/batch.got" "$tmp/gold" >"$tmp/cmp" || { cat "$tmp/cmp" >&2; fail "$name --batch"; }
    while read -r stem kind rest; do
        [ "$kind" = broken ] || continue
        block=$(awk -v s="$stem" '/^==================== / { on = ($2 == s); next } on' "$tmp/batch.out")
        p=$(fixture_error_points "$block") || exit 1
        npoints=$((npoints + p))
        nbroken=$((nbroken + 1))
    done <"$tmp/expect"

    # --check on each broken file: exit 2, the errors point at their names
    while read -r stem kind rest; do
        [ "$kind" = broken ] || continue
        run_ptodb --check "$c/passes_dump/$stem.py"
        expect_eq "$name $stem --check exit" 2 "$rc"
        p=$(fixture_error_points "$err") || exit 1
    done <"$tmp/expect"

    # the debugger: `pass N` then `run` on every pass file
    awk '{ n = $1; sub(/_.*/, "", n); print "pass " n + 0; print "run" }' "$tmp/expect" >"$tmp/cmds"
    "$PTODB" --nw --nx "$c" <"$tmp/cmds" >"$tmp/repl.out" 2>"$tmp/repl.err" || true
    cat "$tmp/repl.out" "$tmp/repl.err" >"$tmp/repl.all"
    while read -r stem kind rest; do
        case "$kind" in
        broken)
            grep -q "^Cannot run $stem: it does not check ([0-9]* errors\{0,1\}, the first: $c/passes_dump/$stem.py:[0-9]*:[0-9]*: error: " "$tmp/repl.all" ||
                fail "$name: the debugger's run of $stem does not say where it does not check"
            p=$(fixture_error_points "$(grep "^$c/passes_dump/$stem.py:" "$tmp/repl.all")") || exit 1
            ;;
        ref) nvalid=$((nvalid + 1)) ;;
        esac
    done <"$tmp/expect"
    fixture_results "$tmp/repl.out" | awk '$2 != "NONE"' >"$tmp/repl.got"
    awk '$2 == "ref"' "$tmp/expect" >"$tmp/expect.ref"
    fixture_compare "$name debugger" "$tmp/expect.ref" "$tmp/repl.got" "$tmp/gold" >"$tmp/cmp" || { cat "$tmp/cmp" >&2; fail "$name: the debugger's runs"; }
done
[ "$ncases" -gt 0 ] || skip "no case under $PTODB_FIXTURES has a file the reference could not parse"
echo "$ncases case(s): $nbroken broken pass files named at $npoints uses (file:line:col pointing at the name) by --check, --info, --batch and the debugger; $nvalid passes validated as the reference did"

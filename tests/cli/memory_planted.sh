#!/bin/sh
# The memory sanitizer on planted faults (docs/memory.md): scripts/
# plant_memory_faults copies each fixture case into a temporary folder with
# one fault (a MemRef id given away by MemoryReuse, two live ranges
# overlapped by AllocateMemoryAddr, a buffer past its space, a scratch read
# before written) carried into every later pass. For each planted case whose
# unedited pass passes, --batch must say MEMFAULT at that pass and in every
# later one, with one report naming the check, the pass file and line of the
# statement, the tile and the other tile (planted.txt says which). The
# unedited fixtures give no memory fault: batch_fixtures.sh checks their
# verdicts pass by pass, and this test checks that --memcheck=off changes no
# verdict of theirs.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/fixture_lib.sh"
fixtures_or_skip
[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3 for scripts/plant_memory_faults"

tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM

cases=$(fixture_case_dirs)
[ -n "$cases" ] || skip "no cases under $PTODB_FIXTURES"
# shellcheck disable=SC2086
/usr/bin/python3 "$top_srcdir/scripts/plant_memory_faults" -o "$tmp/planted" $cases >"$tmp/plant.log" ||
    fail "plant_memory_faults: $(cat "$tmp/plant.log")"

verdicts() { # the summary table's pass and verdict words
    sed -n 's/^\([0-9][0-9]*_[A-Za-z0-9_]*\) *=\{0,1\} *\([A-Z-]*\) .*/\1 \2/p' "$1"
}

checked=0
for c in "$tmp"/planted/*/; do
    c=${c%/}
    name=$(basename "$c")
    orig=$PTODB_FIXTURES/${name%__*}
    p=$(sed -n 's/^pass //p' "$c/planted.txt")
    kind=$(sed -n 's/^fault //p' "$c/planted.txt")
    line=$(sed -n 's/^read //p' "$c/planted.txt")
    tile=$(sed -n 's/^tile //p' "$c/planted.txt")
    other=$(sed -n 's/^other //p' "$c/planted.txt")
    case $kind in
    reuse | overlap) check=clobber ;;
    capacity) check=bounds ;;
    scratch) check=uninit ;;
    *) fail "$name: unknown fault $kind" ;;
    esac
    [ -f "$tmp/${name%__*}.base" ] || "$PTODB" --batch "$orig" >"$tmp/${name%__*}.base" 2>&1
    base=$(verdicts "$tmp/${name%__*}.base" | sed -n "s/^$p //p")
    if [ "$base" != PASS ]; then
        echo "# $name: $p is $base unedited: nothing to compare"
        continue
    fi
    "$PTODB" --batch "$c" >"$tmp/$name.out" 2>&1
    rc=$?
    [ $rc -eq 1 ] || fail "$name: --batch exit $rc, expected 1"
    got=$(verdicts "$tmp/$name.out" | sed -n "s/^$p //p")
    expect_eq "$name: verdict of $p" MEMFAULT "$got"
    # every later pass carries the fault
    verdicts "$tmp/$name.out" | awk -v p="$p" '$1 == p { on = 1 } on && $2 != "MEMFAULT" { print; bad = 1 } END { exit bad }' ||
        fail "$name: a pass after $p lost the fault"
    # the first report of the pass: one block
    awk -v h="==================== $p ====================" '$0 == h { on = 1; next } /^====================/ { on = 0 }
        on && /^memory fault/ { n++ } on && n == 1' "$tmp/$name.out" | sed -n '/^memory fault/,/^  stmt:/p' >"$tmp/$name.block"
    grep -q "^memory fault: $check at .*/$p\.py:$line:[0-9]* in " "$tmp/$name.block" ||
        fail "$name: expected a $check fault at $p.py:$line, got: $(cat "$tmp/$name.block")"
    grep -q "^  core:   \(AIC\|AIV[01]\) lane [01].*, call [0-9]* of .*, iteration " "$tmp/$name.block" ||
        fail "$name: no core, call and iteration in: $(cat "$tmp/$name.block")"
    grep -q "^  tile:   $tile (MemRef [a-z_0-9]*, " "$tmp/$name.block" ||
        fail "$name: tile $tile not named in: $(cat "$tmp/$name.block")"
    if [ "$other" != - ]; then
        grep -q "^  wrote:  $other (MemRef [a-z_0-9]*, " "$tmp/$name.block" ||
            fail "$name: other tile $other not named in: $(cat "$tmp/$name.block")"
    fi
    grep -q "^  stmt:   tile\.[a-z_]* at $line:[0-9]* \(reads\|writes\) it" "$tmp/$name.block" ||
        fail "$name: no statement in: $(cat "$tmp/$name.block")"
    checked=$((checked + 1))
done
[ $checked -gt 0 ] || skip "no planted case whose pass passes unedited"
# a kind of fault that no case could take is a gap in the script
for kind in reuse overlap capacity scratch; do
    ls -d "$tmp"/planted/*__$kind >/dev/null 2>&1 || fail "no case took a $kind fault"
done

# --memcheck=off: the reference's blind semantics, no memory verdict
for c in $cases; do
    name=$(basename "$c")
    [ -f "$tmp/$name.base" ] || continue
    "$PTODB" --batch --memcheck=off "$c" >"$tmp/$name.off" 2>&1
    verdicts "$tmp/$name.base" >"$tmp/$name.v1"
    verdicts "$tmp/$name.off" >"$tmp/$name.v2"
    cmp -s "$tmp/$name.v1" "$tmp/$name.v2" || fail "$name: --memcheck=off changes verdicts: $(diff "$tmp/$name.v1" "$tmp/$name.v2")"
    ! grep -q MEMFAULT "$tmp/$name.base" || fail "$name: a memory fault on an unedited fixture: $(grep -m1 -A6 '^memory fault' "$tmp/$name.base")"
done
for c in "$tmp"/planted/*__reuse; do
    [ -d "$c" ] || continue
    "$PTODB" --batch --memcheck=off "$c" >"$tmp/off.out" 2>&1
    ! grep -q MEMFAULT "$tmp/off.out" || fail "$(basename "$c"): --memcheck=off still reports memory faults"
    break
done
echo "ok: $checked planted faults named at their pass, statement and tiles"

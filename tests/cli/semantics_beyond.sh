#!/bin/sh
# The programs the reference gets wrong (../shared/beyond, or $PTODB_BEYOND):
# real PyPTO output of tests that pass on the device, laid out as the
# fixtures are. What a case expects comes from its own files (fixture_lib.sh),
# no names here:
#  - under the default --semantics=device every pass passes against golden,
#    exit 0, and each file says where REF differs ("note: REF differs here:
#    FILE:LINE:COL: ..." pointing at a line of that file);
#  - under --semantics=ref ptodb fails as the reference does: where the
#    reference validated a file, the same verdicts and max_abs_diff within one
#    ulp; where it raised, ptodb says REF would fail, or (an op ptodb runs by
#    definition) --strict-ref counts it failing.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/fixture_lib.sh"
beyond=${PTODB_BEYOND:-$(dirname "$PTODB_FIXTURES")/beyond}
[ -d "$beyond" ] || skip "the programs the reference gets wrong are not at $beyond"

tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0
for case_dir in "$beyond"/*/; do
    case_dir=${case_dir%/}
    [ -d "$case_dir/passes_dump" ] || continue
    name=$(basename "$case_dir")
    n=$((n + 1))
    # device: every pass passes
    "$PTODB" --batch "$case_dir" >"$tmp/$name.dev" 2>"$tmp/$name.dev.err"
    rc=$?
    [ "$rc" -eq 0 ] || { tail -5 "$tmp/$name.dev" >&2; cat "$tmp/$name.dev.err" >&2; fail "$name: --batch (device) exit $rc"; }
    fixture_results "$tmp/$name.dev" >"$tmp/$name.dev.got"
    bad=$(grep -v '=True\( \|$\)' "$tmp/$name.dev.got" || true)
    [ -z "$bad" ] || fail "$name: under --semantics=device these passes do not pass against golden: $bad"
    bad=$(grep '=False' "$tmp/$name.dev.got" || true)
    [ -z "$bad" ] || fail "$name: under --semantics=device: $bad"
    npass=$(wc -l <"$tmp/$name.dev.got")
    grep -q "^$npass passes: $npass pass, 0 fail" "$tmp/$name.dev" || fail "$name: summary is not all-pass"
    # every note points at a line of its file
    grep '^note: REF differs here: ' "$tmp/$name.dev" | sed 's/^note: REF differs here: //' >"$tmp/$name.notes"
    [ -s "$tmp/$name.notes" ] || fail "$name: no 'REF differs here' note under --semantics=device"
    while IFS= read -r l; do
        f=${l%%:*}; r=${l#*:}; line=${r%%:*}
        [ -f "$f" ] || fail "$name: note names no file: $l"
        [ "$line" -ge 1 ] && [ "$line" -le "$(wc -l <"$f")" ] || fail "$name: note points past its file: $l"
        case "$l" in *"(REF would "*"); ptodb ran it as the device does") ;; *) fail "$name: note wording: $l" ;; esac
    done <"$tmp/$name.notes"
    # ref: as the reference
    "$PTODB" --batch --semantics=ref --strict-ref "$case_dir" --ref=torch1.13 >"$tmp/$name.ref" 2>/dev/null
    rc=$?
    [ "$rc" -eq 1 ] || fail "$name: --semantics=ref exit $rc, expected 1 (the reference fails on it)"
    fixture_expect "$case_dir" >"$tmp/$name.expect"
    fixture_gold "$case_dir" >"$tmp/$name.gold"
    fixture_results "$tmp/$name.ref" >"$tmp/$name.ref.got"
    grep ' ref ' "$tmp/$name.expect" >"$tmp/$name.expect.ref" || true
    if [ -s "$tmp/$name.expect.ref" ]; then
        fixture_compare "$name" "$tmp/$name.expect.ref" "$tmp/$name.ref.got" "$tmp/$name.gold" >"$tmp/$name.cmp" ||
            { cat "$tmp/$name.cmp"; fail "$name: --semantics=ref differs from the reference's verdicts"; }
    fi
    for stem in $(awk '$2 == "raised" { print $1 }' "$tmp/$name.expect"); do
        got=$(awk -v s="$stem" '$1 == s' "$tmp/$name.ref.got")
        sed -n "/^==================== $stem ====================/,/^====/p" "$tmp/$name.ref" >"$tmp/block"
        case "$got" in
        *" RAISED") ;;
        *) grep -q 'REF would fail here: \|^FAIL (--strict-ref)' "$tmp/block" ||
               fail "$name $stem: the reference raised; ptodb --semantics=ref: $got" ;;
        esac
    done
    nref=$(wc -l <"$tmp/$name.expect.ref")
    echo "$name: device $npass of $npass pass ($(wc -l <"$tmp/$name.notes") REF-differs notes); ref: $nref validated files matched, $(grep -c ' raised ' "$tmp/$name.expect") raised"
done
[ "$n" -gt 0 ] || skip "no case under $beyond"
exit 0

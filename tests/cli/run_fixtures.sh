#!/bin/sh
# ptodb --run on every case under $PTODB_FIXTURES, each pass file checked
# against what the case's own files say (tests/cli/fixture_lib.sh):
#  - a file the reference validated: the same verdicts and a max_abs_diff
#    within one unit in the last place of the output dtype at the golden's
#    magnitude;
#  - a file the reference's parser rejected (broken IR): ptodb says it does
#    not check;
#  - a file the reference could not run otherwise, or never reached: ptodb
#    runs it and it passes against golden.
# It runs under --semantics=ref, the reference's (batch_fixtures.sh checks that the
# default gives the same). Where reference_out/ exists, the outputs are also compared bit for bit with
# the reference's own output tensors (sha1 of the raw bytes, INDEX.txt) and
# the bit-identical passes counted (reported, not required: the reference's
# fp32 sums and matmuls depend on BLAS order, semantics.md §1.7).
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/fixture_lib.sh"
fixtures_or_skip
command -v sha1sum >/dev/null 2>&1 || skip "sha1sum not found"

tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM

total_fail=0
summary="$tmp/summary"
printf '%-36s %6s %6s %6s %10s %7s %7s %5s\n' case passes ref ulp bit-ident broken golden fail >"$summary"
cases=$(fixture_case_dirs)
[ -n "$cases" ] || skip "no cases under $PTODB_FIXTURES"
for case_dir in $cases; do
    name=$(basename "$case_dir")
    mkdir -p "$tmp/$name"
    "$PTODB" --run "$case_dir" --ref=torch1.13 --semantics=ref --save-outputs="$tmp/$name" >"$tmp/$name.out" 2>"$tmp/$name.err"
    fixture_expect "$case_dir" >"$tmp/$name.expect"
    fixture_gold "$case_dir" >"$tmp/$name.gold"
    fixture_results "$tmp/$name.out" >"$tmp/$name.got"
    fixture_compare "$name" "$tmp/$name.expect" "$tmp/$name.got" "$tmp/$name.gold" >"$tmp/$name.cmp" || total_fail=1
    grep -v '^counts ' "$tmp/$name.cmp" || true
    # bit for bit against the reference's own outputs
    ident=0 withref=0
    if [ -f "$case_dir/reference_out/INDEX.txt" ]; then
        while read -r stem key file sha; do
            [ -f "$case_dir/reference_out/$file" ] || continue # SKIPPED, ERROR: nothing to compare
            withref=$((withref + 1))
            f="$tmp/$name/$stem.$key.raw"
            [ -f "$f" ] && [ "$(sha1sum "$f" | cut -d' ' -f1)" = "$sha" ] && ident=$((ident + 1))
        done <"$case_dir/reference_out/INDEX.txt"
    fi
    set -- $(sed -n 's/^counts //p' "$tmp/$name.cmp")
    printf '%-36s %6d %6d %6d %5d/%-4d %7d %7d %5d\n' "$name" "$1" "$2" "$3" "$ident" "$withref" "$4" "$5" "$6" >>"$summary"
    # a pass the reference could not run: are ptodb's outputs the same bits
    # as the pass before it (which it ran, and which was checked above)?
    prev=
    while read -r stem kind rest; do
        if [ "$kind" = raised ] && [ -n "$prev" ]; then
            for f in "$tmp/$name/$stem".*.raw; do
                [ -f "$f" ] || continue
                key=${f#"$tmp/$name/$stem."}
                if cmp -s "$f" "$tmp/$name/$prev.$key"; then
                    echo "  $name $stem: the reference cannot run it; output ${key%.raw} is bit-identical to $prev's"
                else
                    echo "  $name $stem: the reference cannot run it; output ${key%.raw} differs from $prev's"
                fi
            done
        fi
        prev=$stem
    done <"$tmp/$name.expect"
done

# A case whose reference ran with the fp16-matmul shim (timing.txt says so)
# must also match it line for line under the torch2 profile, which models
# fp16 matmul as every torch 2.x runs it: the files it ran, the same lines.
for case_dir in $cases; do
    grep -q 'fp16-matmul shim' "$case_dir/timing.txt" 2>/dev/null || continue
    name=$(basename "$case_dir")
    "$PTODB" --run "$case_dir" --ref=torch2 --semantics=ref >"$tmp/$name.t2" 2>/dev/null
    fixture_results "$tmp/$name.t2" >"$tmp/$name.t2got"
    awk 'NR == FNR { if ($2 == "ref") { r = $0; sub(/^[^ ]* [^ ]* /, "", r); want[$1] = r } next }
         ($1 in want) { g = $0; sub(/^[^ ]* /, "", g); n++
                        if (g != want[$1]) { print "  FAIL " $1 " under --ref=torch2: [" g "] vs the reference [" want[$1] "]"; bad = 1 } }
         END { if (!n) { print "  FAIL: no pass compared"; bad = 1 } exit bad }' \
        "$tmp/$name.expect" "$tmp/$name.t2got" || { echo "  FAIL $name under --ref=torch2"; total_fail=1; continue; }
    echo "  $name (fp16-matmul shim) under --ref=torch2: every line the reference printed, exactly"
done

echo
cat "$summary"
echo "(ref = passes the reference validated; ulp = of those, max_abs_diff within 1 ulp of its value;"
echo " bit-ident = outputs equal to its own output tensors bit for bit / outputs it saved;"
echo " broken = files its parser rejected, reported by ptodb as not checking; golden = files beyond it, passing against golden)"
[ "$total_fail" -eq 0 ] || fail "some passes do not match what the case expects (see above)"
exit 0

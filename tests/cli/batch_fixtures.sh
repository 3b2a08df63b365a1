#!/bin/sh
# ptodb --batch on every fixture case in $PTODB_FIXTURES, pass by pass against
# PyPTO's reference run, with the comparison rule of tests/cli/run_fixtures.sh
# (same verdict; max_abs_diff within one ulp of the output dtype at the
# golden's magnitude; its EXPECTED_FAIL list, read from that file, says where
# only the ulp part may miss and why):
#  - passes reference.txt validated must agree with it;
#  - passes beyond its reach (its directory run stopped at an exception) must
#    still be reported by --batch (it does not stop), and agree with
#    reference_per_file.txt where the case has one, else pass against golden.
# The profile is torch 1.13, as the fixtures' reference; a case whose
# timing.txt says the reference ran with the fp16-matmul shim gets torch2
# numerics for fp16 matmul, which is what --ref=torch2 models.
. "$top_srcdir/tests/cli/lib.sh"
fixtures_or_skip

eval "$(sed -n "/^EXPECTED_FAIL='/,/'\$/p" "$top_srcdir/tests/cli/run_fixtures.sh")"
: "${EXPECTED_FAIL:=}"

tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM

ulp_awk='function ulp(dt, m,   e, bits) {
    bits = (dt == "bf16") ? 7 : (dt == "fp16") ? 10 : (dt == "fp32") ? 23 : 52
    if (dt ~ /int|bool/) return 1
    if (m <= 0) return 0
    e = int(log(m * 1.0005) / log(2)); if (2 ^ e > m * 1.0005) e--
    return 2 ^ (e - bits)
}'
# one record per pass: stem key=diff=verdict... | stem RAISED | stem ERROR | stem NONE
parse='
    /^==================== / { stem = $2; order[++n] = stem; next }
    /^validate tensor: / { key = $3; gsub(/[^A-Za-z0-9_]/, "", key); d = $5; sub(/,$/, "", d);
                           v = $7; rec[stem] = rec[stem] " " key "=" d "=" v; next }
    /^RAISED:|REF would fail here:/ { if (!(stem in rec)) rec[stem] = " RAISED"; next }
    /^error: / { rec[stem] = " ERROR"; next }
    END { for (i = 1; i <= n; i++) print order[i] (order[i] in rec ? rec[order[i]] : " NONE") }'

total_fail=0
summary="$tmp/summary"
printf '%-36s %6s %9s %9s %9s %6s %6s %8s\n' case passes reference per-file golden xfail fail seconds >"$summary"
for case_dir in "$PTODB_FIXTURES"/*/; do
    case_dir=${case_dir%/}
    name=$(basename "$case_dir")
    [ -d "$case_dir/passes_dump" ] || continue
    profile=torch1.13
    grep -q 'fp16-matmul shim' "$case_dir/timing.txt" 2>/dev/null && profile=torch2
    t0=$(date +%s.%N)
    "$PTODB" --batch "$case_dir" --ref=$profile >"$tmp/$name.out" 2>"$tmp/$name.err"
    rc=$?
    t1=$(date +%s.%N)
    [ "$rc" -le 1 ] || { cat "$tmp/$name.err" >&2; fail "$name: --batch exit $rc"; }
    "$PTODB" --info "$case_dir" 2>/dev/null | awk '
        /^outputs \(golden\)/ { on = 1; next }
        /^[a-z]/ { on = 0 }
        on { for (i = 3; i < NF; i++) if ($i == "min" && $(i + 2) == "max") {
                 m = $(i + 1); M = $(i + 3); if (m < 0) m = -m; if (M < 0) M = -M; if (M > m) m = M
                 print $1, $2, m; break } }' >"$tmp/$name.gold"
    awk "$parse" "$case_dir/reference.txt" >"$tmp/$name.ref"
    : >"$tmp/$name.pf"
    [ -f "$case_dir/reference_per_file.txt" ] && awk "$parse" "$case_dir/reference_per_file.txt" >"$tmp/$name.pf"
    awk "$parse" "$tmp/$name.out" >"$tmp/$name.got"
    npass=$(ls "$case_dir/passes_dump"/*.py | wc -l)
    awk -v name="$name" -v expected="$EXPECTED_FAIL" -v gold="$tmp/$name.gold" -v ref="$tmp/$name.ref" \
        -v pf="$tmp/$name.pf" -v npass="$npass" -v summary="$summary" -v secs="$(echo "$t1 $t0" | awk '{printf "%.2f", $1 - $2}')" \
        "$ulp_awk"'
        function cmp(r, g,   nr, ng, rv, gv, i, x, y, u, dd) {
            kind = "any"
            nr = split(r, rv, " "); ng = split(g, gv, " ")
            if (nr != ng) return "expected [" r "] got [" g "]"
            for (i = 1; i <= nr; i++) {
                split(rv[i], x, "="); split(gv[i], y, "=")
                if (x[1] != y[1] || x[3] != y[3]) return "verdict: REF [" r "] ptodb [" g "]"
                u = ulp(gdt[x[1]], gmag[x[1]])
                dd = x[2] - y[2]; if (dd < 0) dd = -dd
                if (x[2] == "nan" || y[2] == "nan") { if (x[2] != y[2]) return "max_abs_diff REF " x[2] " ptodb " y[2] }
                else if (dd > u * 1.0000001) { kind = "ulp"; return sprintf("max_abs_diff REF %s ptodb %s (1 ulp of %s at %g = %g)", x[2], y[2], gdt[x[1]], gmag[x[1]], u) }
            }
            return ""
        }
        BEGIN {
            while ((getline l < gold) > 0) { split(l, a, " "); gdt[a[1]] = a[2]; gmag[a[1]] = a[3] }
            while ((getline l < ref) > 0) { split(l, a, " "); s = a[1]; sub(/^[^ ]* /, "", l); R[s] = l }
            while ((getline l < pf) > 0) { split(l, a, " "); s = a[1]; sub(/^[^ ]* /, "", l); P[s] = l }
            n = split(expected, ex, "\n"); for (i = 1; i <= n; i++) { split(ex[i], e2, " "); if (e2[1] != "") xf[e2[1]] = e2[2] }
        }
        {
            stem = $1; passes++; g = $0; sub(/^[^ ]* /, "", g); bad = ""; kind = "any"
            if ((stem in R) && R[stem] != "RAISED") { bad = cmp(R[stem], g); against = "reference.txt"; nref++ }
            else if ((stem in P) && P[stem] != "RAISED") { bad = cmp(P[stem], g); against = "reference_per_file.txt"; npf++ }
            else {
                ngold++
                if (g == "" || g == "NONE" || g == "ERROR" || g == "RAISED" || g ~ /=False/) bad = "beyond REF, ptodb vs golden: " g
                else printf "  %s %s: beyond reference.txt; ptodb vs golden:%s\n", name, stem, " " g
                against = "golden"
            }
            if (bad != "") {
                key = name ":" stem
                xk = (key in xf) ? xf[key] : ((name ":*") in xf) ? xf[name ":*"] : ""
                if (xk == "any" || (xk == "ulp" && kind == "ulp")) { printf "  XFAIL %s %s (vs %s): %s\n", name, stem, against, bad; xfail++ }
                else { printf "  FAIL %s %s (vs %s): %s\n", name, stem, against, bad; fails++ }
            }
        }
        END {
            if (passes != npass) { printf "  FAIL %s: --batch reported %d passes of %d\n", name, passes, npass; fails++ }
            printf "%-36s %6d %9d %9d %9d %6d %6d %8s\n", name, passes, nref, npf, ngold, xfail, fails, secs >> summary
            exit fails > 0
        }' "$tmp/$name.got" || total_fail=1
    # one job gives the same lines, in the same order
    "$PTODB" --batch "$case_dir" --ref=$profile --jobs=1 >"$tmp/$name.j1" 2>/dev/null || true
    sed -n '/^====================/,/^$/p' "$tmp/$name.out" >"$tmp/$name.a"
    sed -n '/^====================/,/^$/p' "$tmp/$name.j1" >"$tmp/$name.b"
    cmp -s "$tmp/$name.a" "$tmp/$name.b" || { echo "  FAIL $name: --jobs=1 prints other lines"; diff "$tmp/$name.a" "$tmp/$name.b" | head -5; total_fail=1; }
    # the exit status follows the verdicts
    if grep -q 'pass: False\|^REF would fail here\|^error: ' "$tmp/$name.out"; then want=1; else want=0; fi
    [ "$rc" -eq "$want" ] || { echo "  FAIL $name: exit $rc, expected $want"; total_fail=1; }
done
echo
cat "$summary"
echo "(reference / per-file / golden = passes checked against reference.txt, reference_per_file.txt, golden only)"
[ "$total_fail" -eq 0 ] || fail "some passes do not match the reference (see above)"
exit 0

# Helpers for the tests that run on the real PyPTO cases under $PTODB_FIXTURES
# (sourced after lib.sh). What a test expects of a case comes from the case's
# own files, never from a list of case names, so a case added to the folder is
# tested with no edit here:
#   reference.txt           the validator's directory run (stops at its first exception)
#   reference_per_file.txt  each file validated alone (where the case has it), in
#                           either of its two layouts ("==== STEM ====" blocks, or
#                           "STEM PASS|FAIL|ERROR text" rows)
#   reference_out/INDEX.txt the reference's own output tensors per file
#   README.txt              entry, parameters, pure outputs

# fixture_case_dirs: every case folder (one with passes_dump/), smallest data
# first. With PTODB_FIXTURE_SUBSET=cover (the sanitizer build and distcheck),
# only a cover: cases taken smallest first, each kept when it brings an op, a
# cross-core split mode, a function type or a dtype that no smaller kept case
# has. The large cases repeat the small ones' programs at scale, so the cover
# runs every op family and cross-core mode at least once in a fraction of the
# time. Cases left out are reported on stderr with their size.
fixture_case_dirs() {
    _fl_all=$(for _c in "$PTODB_FIXTURES"/*/; do
        _c=${_c%/}
        [ -d "$_c/passes_dump" ] || continue
        _k=$(du -sk "$_c/data" 2>/dev/null | cut -f1)
        printf '%s %s\n' "${_k:-0}" "$_c"
    done | LC_ALL=C sort -n -k1,1 -k2,2)
    if [ "${PTODB_FIXTURE_SUBSET:-all}" != cover ]; then
        printf '%s\n' "$_fl_all" | sed -n 's/^[0-9]* //p'
        return
    fi
    _fl_seen=$(mktemp) || fail "mktemp"
    printf '%s\n' "$_fl_all" | while read -r _k _c; do
        [ -n "$_c" ] || continue
        grep -ohE 'pl\.[A-Za-z_.]*[a-z_0-9]+\(|split=[0-9]+|pl\.FunctionType\.[A-Za-z]+|pl\.[A-Z][A-Z0-9]+\b' \
            "$_c"/passes_dump/*.py | LC_ALL=C sort -u >"$_fl_seen.case"
        if [ -n "$(LC_ALL=C comm -23 "$_fl_seen.case" "$_fl_seen")" ]; then
            printf '%s\n' "$_c"
            LC_ALL=C sort -u "$_fl_seen" "$_fl_seen.case" -o "$_fl_seen"
        else
            echo "note: $(basename "$_c") ($_k KiB of data) left out of the cover: smaller cases use all its ops and modes" >&2
        fi
    done
    rm -f "$_fl_seen" "$_fl_seen.case"
}

# fixture_expect CASE: one line per pass file of CASE, in order:
#   STEM ref KEY=DIFF=VERDICT...  the reference validated it (reference.txt,
#                                 else reference_per_file.txt)
#   STEM broken MESSAGE           the reference's parser rejected the file: the
#                                 IR is broken, and ptodb must say where
#                                 (file:line:col) instead of validating it
#   STEM raised MESSAGE           the reference could not run it for another
#                                 reason (an op it has no handler for): ptodb
#                                 runs it and it must pass against golden
#   STEM none                     beyond the reference's reach (its directory
#                                 run stopped earlier, no per-file record):
#                                 ptodb runs it against golden
fixture_expect() {
    _pf="$1/reference_per_file.txt"
    [ -f "$_pf" ] || _pf=/dev/null
    for _f in "$1"/passes_dump/*.py; do basename "$_f" .py; done | awk '
        function add(f, s, line,   m, w, k, d) {
            if (line ~ /validate tensor: /) {
                while (match(line, /validate tensor: [^,]*, max_abs_diff: [^,]*, pass: (True|False)/)) {
                    m = substr(line, RSTART, RLENGTH); line = substr(line, RSTART + RLENGTH)
                    split(m, w, " "); k = w[3]; gsub(/[^A-Za-z0-9_]/, "", k)
                    d = w[5]; sub(/,$/, "", d)
                    val[f, s] = val[f, s] " " k "=" d "=" w[7]
                }
            } else if (line ~ /[A-Za-z]+(Error|Exception)|RAISED:/ && !((f, s) in exc)) {
                sub(/^RAISED: */, "", line); exc[f, s] = line
            }
        }
        FILENAME == "-" { order[++n] = $0; known[$0] = 1; next }
        FNR == 1 { f++; stem = "" }
        # the directory run names the file it stopped in on the line before the exception
        f == 1 && /RAISED while processing / {
            stem = $0; sub(/:$/, "", stem); sub(/.*\//, "", stem); sub(/\.py$/, "", stem); next }
        /^==================== / { stem = $2; next }
        f == 2 && ($1 in known) && $2 ~ /^(PASS|FAIL|ERROR)$/ {
            s = $1; sub(/^[^ ]+ +[A-Z]+ +/, ""); add(2, s, $0); next }
        stem != "" { add(f, stem, $0) }
        END {
            for (i = 1; i <= n; i++) {
                s = order[i]
                if (((1, s) in val) && !((1, s) in exc)) { print s " ref" val[1, s]; continue }
                if (((2, s) in val) && !((2, s) in exc)) { print s " ref" val[2, s]; continue }
                m = ((2, s) in exc) ? exc[2, s] : ((1, s) in exc) ? exc[1, s] : ""
                if (m == "") print s " none"
                else if (m ~ /SyntaxError|ParserError|ParseError/) print s " broken " m
                else print s " raised " m
            }
        }' - "$1/reference.txt" "$_pf"
}

# fixture_gold CASE: "KEY DTYPE MAGNITUDE" for each golden output (ptodb
# --info's figures; the magnitude sets the size of one ulp)
fixture_gold() {
    "$PTODB" --info "$1" 2>/dev/null | awk '
        /^outputs \(golden\)/ { on = 1; next }
        /^[a-z]/ { on = 0 }
        on { for (i = 3; i < NF; i++) if ($i == "min" && $(i + 2) == "max") {
                 m = $(i + 1); M = $(i + 3); if (m < 0) m = -m; if (M < 0) M = -M; if (M > m) m = M
                 print $1, $2, m; break } }'
}

# fixture_results OUTPUT: ptodb's --run or --batch output as one line per
# pass: "STEM KEY=DIFF=VERDICT...", "STEM BROKEN" (does not check), "STEM
# ERROR" (another error), "STEM RAISED" (ptodb says REF would fail) or
# "STEM NONE"
fixture_results() {
    awk '
        /^==================== / { stem = $2; order[++n] = stem; next }
        /^validate tensor: / { key = $3; gsub(/[^A-Za-z0-9_]/, "", key); d = $5; sub(/,$/, "", d)
                               rec[stem] = rec[stem] " " key "=" d "=" $7; next }
        /^REF would fail here:/ { if (!(stem in rec)) rec[stem] = " RAISED"; next }
        /^error: .* does not check \([0-9]+ errors?\), not run:$/ { rec[stem] = " BROKEN"; next }
        /^error: / { rec[stem] = " ERROR"; next }
        END { for (i = 1; i <= n; i++) print order[i] (order[i] in rec ? rec[order[i]] : " NONE") }' "$1"
}

# fixture_compare NAME EXPECT RESULTS GOLD: checks ptodb's results (from
# fixture_results) against what the case expects (fixture_expect):
#   ref     the same outputs and verdicts, each max_abs_diff within one ulp
#           of the output dtype at the golden's magnitude of the reference's
#   broken  ptodb says the file does not check (where, is
#           broken_ir_fixtures.sh's business)
#   raised, none  ptodb runs it and every output passes against golden
# Prints a line per disagreement, then "counts PASSES REF ULP BROKEN GOLDEN
# FAILS"; exits 1 on a disagreement.
fixture_compare() {
    awk -v name="$1" -v results="$3" -v gold="$4" '
        function ulp(dt, m,   e, bits) {
            bits = (dt == "bf16") ? 7 : (dt == "fp16") ? 10 : (dt == "fp32") ? 23 : 52
            if (dt ~ /int|bool/) return 1
            if (m <= 0) return 0
            e = int(log(m * 1.0005) / log(2)); if (2 ^ e > m * 1.0005) e--
            return 2 ^ (e - bits)
        }
        function cmp(r, g,   nr, ng, rv, gv, i, x, y, u, dd) {
            nr = split(r, rv, " "); ng = split(g, gv, " ")
            if (nr != ng) return "REF [" r "] ptodb [" g "]"
            for (i = 1; i <= nr; i++) {
                split(rv[i], x, "="); split(gv[i], y, "=")
                if (x[1] != y[1] || x[3] != y[3]) return "verdict: REF [" r "] ptodb [" g "]"
                if (x[2] == "nan" || y[2] == "nan") { if (x[2] != y[2]) return "max_abs_diff REF " x[2] " ptodb " y[2]; continue }
                u = ulp(gdt[x[1]], gmag[x[1]])
                dd = x[2] - y[2]; if (dd < 0) dd = -dd
                if (dd > u * 1.0000001)
                    return sprintf("max_abs_diff REF %s ptodb %s (1 ulp of %s at %g = %g)", x[2], y[2], gdt[x[1]], gmag[x[1]], u)
            }
            return ""
        }
        BEGIN {
            while ((getline l < gold) > 0) { split(l, a, " "); gdt[a[1]] = a[2]; gmag[a[1]] = a[3] }
            while ((getline l < results) > 0) { split(l, a, " "); s = a[1]; sub(/^[^ ]* ?/, "", l); G[s] = l; have[s] = 1 }
        }
        {
            stem = $1; kind = $2; r = $0; sub(/^[^ ]* [^ ]* ?/, "", r); passes++
            g = (stem in have) ? G[stem] : "(no such pass in ptodb output)"; bad = ""
            if (kind == "ref") { nref++; bad = cmp(r, g); if (bad == "") ulps++ }
            else if (kind == "broken") { nbroken++; if (g != "BROKEN") bad = "the reference could not parse it (" r "); ptodb: [" g "], not \"does not check\"" }
            else {
                ngold++
                if (g == "" || g ~ /^(NONE|ERROR|BROKEN|RAISED)$/ || g ~ /=False/) bad = "beyond the reference (" kind (r != "" ? ": " r : "") "); ptodb vs golden: " g
            }
            if (bad != "") { printf "  FAIL %s %s: %s\n", name, stem, bad; fails++ }
        }
        END {
            printf "counts %d %d %d %d %d %d\n", passes, nref, ulps, nbroken, ngold, fails
            exit fails > 0
        }' "$2"
}

# fixture_error_points TEXT: every "FILE:LINE:COL: error: 'NAME' ..." line of
# TEXT must point at NAME in FILE; prints how many did, fails on one that
# does not or when there is none
fixture_error_points() {
    _fe_n=0
    _fe_lines=$(printf '%s\n' "$1" | grep -E "^[^ ]+\.py:[0-9]+:[0-9]+: error: '[^']+'" | sort -u) || true
    [ -n "$_fe_lines" ] || { printf 'FAIL: no "file:line:col: error: '"'"'NAME'"'"'" line in:\n%s\n' "$1" | head -20 >&2; exit 1; }
    while IFS= read -r _fe_l; do
        _fe_file=${_fe_l%%:*}; _fe_rest=${_fe_l#*:}
        _fe_line=${_fe_rest%%:*}; _fe_rest=${_fe_rest#*:}
        _fe_col=${_fe_rest%%:*}
        _fe_name=$(printf '%s\n' "$_fe_l" | sed -n "s/^[^ ]*: error: '\([^']*\)'.*/\1/p")
        _fe_at=$(sed -n "${_fe_line}p" "$_fe_file" | cut -c"$_fe_col"- | cut -c1-${#_fe_name})
        [ "$_fe_at" = "$_fe_name" ] || fail "$_fe_file:$_fe_line:$_fe_col does not point at '$_fe_name' (it points at '$_fe_at')"
        _fe_n=$((_fe_n + 1))
    done <<EOL
$_fe_lines
EOL
    echo "$_fe_n"
}

# fixture_folder TMPDIR: a folder holding the cases of fixture_case_dirs, for
# `--batch DIR`: $PTODB_FIXTURES itself, or with a subset, TMPDIR/fixtures
# with a symbolic link to each case of it (nothing is written beside the cases).
fixture_folder() {
    if [ "${PTODB_FIXTURE_SUBSET:-all}" != cover ]; then
        printf '%s\n' "$PTODB_FIXTURES"
        return
    fi
    mkdir -p "$1/fixtures"
    for _c in $(fixture_case_dirs); do ln -s "$_c" "$1/fixtures/$(basename "$_c")"; done
    printf '%s\n' "$1/fixtures"
}

#!/bin/sh
# --batch --heatmap on the one heat scale (issue #41): a cell is its worst
# element's |diff| as a share of that element's tolerance, atol +
# rtol*|golden|, never scaled to the worst cell. A failing pass (mlp-broken
# pass 11 and 22 at the manifest's tolerances) has digits in exactly the
# cells holding elements outside the tolerance, as many as the validate
# line counts; the same passes under --atol 3 --rtol 0 pass and are drawn
# light (punctuation only, the worst cell at 71%); the summary's margin
# column says the same; on the qwen3 fixture (when present) a pass that
# passes with max_abs_diff 9.8e-4 is '.' and ':' only, worst 1.7%.
. "$top_srcdir/tests/cli/lib.sh"
ex="$top_srcdir/examples"

# cells PASS_STEM: the cells of the first heat grid under PASS_STEM's
# header, row after row on one line.
cells() { grid "$1" | tr -d '\n'; }
# grid PASS_STEM: the rows of the first heat grid under PASS_STEM's header,
# without the frame.
grid() {
    printf '%s\n' "$out" | sed -n "/^==================== $1 /,/^====================/p" |
        sed -n '/^+-/,/^+-/p' | sed '1d;$d' | sed 's/^|//; s/|$//'
}
# legend PASS_STEM: the "worst cell" line under its grid.
legend() {
    printf '%s\n' "$out" | sed -n "/^==================== $1 /,/^====================/p" | grep '^worst cell'
}

# 1. failing: the manifest's tolerances (rtol 0.05, atol 0.05)
run_ptodb --batch "$ex/mlp-broken" --heatmap -j 1
expect_eq "failing: exit" 1 "$rc"
g=$(grid 11_after_ConvertTensorToTileOps)
[ "$(printf '%s\n' "$g" | wc -l)" -eq 16 ] || fail "failing: 16 rows of 1x1 cells: $g"
g=$(cells 11_after_ConvertTensorToTileOps)
case "$g" in *[!\ .:+1-9-]*) fail "failing: a character off the scale: $g" ;; esac
digits=$(printf '%s' "$g" | tr -cd '1-9' | wc -c | tr -d ' ')
expect_eq "failing: a digit per element outside (1x1 cells)" 831 "$digits"
expect_contains "failing: the validate line's count" "  mismatch: 831 of 1024 elements outside" "$out"
expect_eq "failing: legend" \
    "worst cell at 23.3x its tolerance (max |diff| 2.142e+00); 831 of 1024 elements outside the tolerance, in 831 of 1024 cells (as the validate line counts)" \
    "$(legend 11_after_ConvertTensorToTileOps)"
# pass 22 stores [8, 64] tiles: one cell per tile, both 20 to 50 times over
expected=$(
    cat <<'EOF'
heatmap 'out' (the worst |actual - golden| per tile against its tolerance, 16x64 view):
+-+
|5|
|5|
+-+
cell = 8x64 elements, each its worst element's |diff| against that element's tolerance: ' ' 0, '.' <1%, ':' <10%, '-' <50%, '+' <=100% of the tolerance (atol + rtol*|golden|); outside it, '1'..'9': up to 2, 5, 10, 20, 50, 100, 1e3, 1e4 times it, more; '?' NaN/Inf
worst cell at 23.3x its tolerance (max |diff| 2.142e+00); 831 of 1024 elements outside the tolerance, in 2 of 2 cells (as the validate line counts)
EOF
)
expect_eq "failing: the per-tile grid of pass 22" "$expected" \
    "$(printf '%s\n' "$out" | sed -n '/^==================== 22_after_ExpandMixedKernel /,$p' | sed -n '/^heatmap /,/^worst cell/p')"
# a pass equal to golden: blank cells, 0%
g=$(cells 09_after_OutlineIncoreScopes)
case "$g" in *[!\ ]*) fail "exact pass: only blank cells: $g" ;; esac
expect_contains "exact pass: legend" "worst cell at 0% of its tolerance (max |diff| 0.000e+00); 0 of 1024 elements outside" \
    "$(legend 09_after_OutlineIncoreScopes)"
expect_contains "failing: summary margin" "11_after_ConvertTensorToTileOps   FAIL     2.141543e+00   23.3x" "$out"
expect_contains "exact: summary margin" "09_after_OutlineIncoreScopes      PASS     0.000000e+00   0%" "$out"

# 2. passing: the same outputs against atol 3 (2.14 off at most: 71%)
run_ptodb --batch "$ex/mlp-broken" --heatmap --atol 3 --rtol 0 -j 1
expect_eq "passing: exit" 0 "$rc"
g=$(grid 11_after_ConvertTensorToTileOps)
[ "$(printf '%s\n' "$g" | wc -l)" -eq 16 ] || fail "passing: 16 rows: $g"
g=$(cells 11_after_ConvertTensorToTileOps)
case "$g" in *[!\ .:+-]*) fail "passing: a cell outside the tolerance or off the scale: $g" ;; esac
case "$g" in *[-:]*) ;; *) fail "passing: the differences show ('-', ':'): $g" ;; esac
expect_eq "passing: legend" \
    "worst cell at 71% of its tolerance (max |diff| 2.142e+00); 0 of 1024 elements outside the tolerance, in 0 of 1024 cells (as the validate line counts)" \
    "$(legend 11_after_ConvertTensorToTileOps)"
expect_contains "passing: summary margin" "11_after_ConvertTensorToTileOps   PASS     2.141543e+00   71%" "$out"
expect_contains "passing: per tile" "|+|" "$(printf '%s\n' "$out" | sed -n '/^==================== 22_after_ExpandMixedKernel /,$p')"

# 3. a real passing case: light
if [ -d "$PTODB_FIXTURES/qwen3_scope3_910b/passes_dump" ]; then
    run_ptodb --batch "$PTODB_FIXTURES/qwen3_scope3_910b" --heatmap -j 1
    expect_eq "qwen3: exit" 0 "$rc"
    g=$(cells 00_frontend)
    case "$g" in *[!\ .:]*) fail "qwen3 pass 0: only ' ', '.' and ':' (below 10% of the tolerance): $g" ;; esac
    expect_contains "qwen3: legend" "worst cell at 1.7% of its tolerance (max |diff| 9.766e-04); 0 of 8192 elements outside" \
        "$(legend 00_frontend)"
    expect_contains "qwen3: summary margin" "00_frontend                             PASS     9.765625e-04   1.7%" "$out"
else
    echo "note: $PTODB_FIXTURES/qwen3_scope3_910b absent: the light grid of a real passing case not checked" >&2
fi
echo "heat maps: digits outside the tolerance, light within it"

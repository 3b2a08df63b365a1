#!/bin/sh
# --html: one self-contained page. Without a browser: no reference to
# anything outside the file (no http(s):// URL, no src=, no url() but the
# page's own gradients, no script, link or frame) and a Content-Security-
# Policy that forbids every fetch; the failing pass's row, its heat map, the
# IR diff and the highlighted statement are there. With Debian's headless
# Chromium (skipped, with a message, when it is not installed): the page loads
# with no console message and no network request (its net log), the DOM holds
# the failing pass's row and the heat map's SVG, and a screenshot goes to
# tests/cli/batch_html.out/ in the build folder. Planted pages (an external
# image with and without the CSP) show that both checks catch a fetch.
. "$top_srcdir/tests/cli/lib.sh"
set -e
[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 not found (page checks)"
ex="$top_srcdir/examples"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
outdir="${top_builddir:-.}/tests/cli/batch_html.out"
rm -rf "$outdir" && mkdir -p "$outdir"

# self_contained FILE: what can be checked without a browser
self_contained() {
    if grep -n -i -E 'https?://|ftp://|//[a-z0-9.-]+\.[a-z]{2,}/|src=|@import|<script|<link|<iframe|<object|<embed|<base ' "$1" >"$tmp/refs"; then
        head -n 5 "$tmp/refs" >&2
        fail "$1: refers to something outside the file"
    fi
    if grep -o 'url([^)]*)' "$1" | grep -v '^url(#' >"$tmp/urls"; then
        head -n 5 "$tmp/urls" >&2
        fail "$1: url() to something outside the file"
    fi
    grep -q "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; " "$1" ||
        fail "$1: no Content-Security-Policy forbidding fetches"
}

run_ptodb --batch "$ex/mlp-broken" --html "$outdir/mlp-broken.html"
expect_eq "mlp-broken exit" 1 "$rc"
page="$outdir/mlp-broken.html"
self_contained "$page"
grep -q '<tr class="fail" id="c0-p4"><td>11_after_ConvertTensorToTileOps</td><td class="v">FAIL</td><td class="n bad">2.141543e+00</td>' "$page" ||
    fail "the failing pass's row"
grep -q '<tr class="pass" id="c0-p3"><td>09_after_OutlineIncoreScopes</td><td class="v">PASS</td><td class="n">0.000000e+00</td>' "$page" ||
    fail "a passing pass's row"
expect_eq "a heat map per failing pass (with its legend)" 3 "$(grep -c '<svg class="heatmap"' "$page")"
expect_eq "legends" 3 "$(grep -c '<g class="legend">' "$page")"
grep -q '<h3>IR diff: 09_after_OutlineIncoreScopes (last passing) &#8594; 11_after_ConvertTensorToTileOps (first failing)</h3>' "$page" ||
    fail "the IR diff's title"
grep -q '<span class="add">+        x__tile: pl.Tile\[\[16, 64\], pl.FP32, pl.Mem.Vec\] = pl.tile.load(' "$page" ||
    fail "the IR diff's added lines"
# --html locates the first differing statement without --bisect; its line is highlighted
grep -q '<tr class="hl"><td class="ln">29</td><td>' "$page" || fail "the statement's highlighted source line"
grep -q '11_after_ConvertTensorToTileOps.py:29</code>' "$page" || fail "the statement's file:line"

# a passing case and a folder of cases: self-contained too
run_ptodb --batch "$ex/mlp" --html "$tmp/mlp.html"
expect_eq "mlp exit" 0 "$rc"
self_contained "$tmp/mlp.html"
mkdir "$tmp/cases"
for c in mlp mlp-broken deadlock; do cp -R "$ex/$c" "$tmp/cases/$c"; done
run_ptodb --batch "$tmp/cases" -j 2 --html "$outdir/examples.html"
expect_eq "folder exit" 1 "$rc"
self_contained "$outdir/examples.html"
grep -q '<p id="totals">3 cases: 1 pass, 2 fail, 0 error; 16 passes: 12 pass, 4 fail, 0 not validated</p>' "$outdir/examples.html" ||
    fail "folder: totals"

# the browser
chromium=
for c in /usr/bin/chromium chromium chromium-browser; do
    if command -v "$c" >/dev/null 2>&1; then chromium=$(command -v "$c"); break; fi
done
[ -n "$chromium" ] || skip "chromium not found (Debian package chromium; scripts/bootstrap installs it): the page was checked without a browser only"
# browse PAGE NAME: loads the page headless; leaves NAME.dom, NAME.err, NAME.net
browse() {
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-sync \
        --disable-background-networking --disable-component-update --disable-default-apps \
        --user-data-dir="$tmp/profile-$2" --enable-logging=stderr --v=0 --log-net-log="$tmp/$2.net" \
        --dump-dom "file://$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" >"$tmp/$2.dom" 2>"$tmp/$2.err" ||
        { tail -n 20 "$tmp/$2.err" >&2; fail "chromium could not load $1"; }
}
check_load="/usr/bin/python3 $top_srcdir/tests/data/batch/check_page_load.py"

# the checks catch a fetch: blocked by the CSP (a console message), and made (the net log)
sed 's|</h1>|</h1><img alt="" src="http://ptodb.invalid/x.png">|' "$page" >"$tmp/planted-csp.html"
browse "$tmp/planted-csp.html" planted-csp
$check_load "$tmp/planted-csp.net" "$tmp/planted-csp.err" >"$tmp/planted-csp.problems" && fail "a fetch blocked by the CSP went unnoticed"
grep -q '^console: ' "$tmp/planted-csp.problems" || fail "the CSP violation is not seen on the console"
sed 's|<meta http-equiv="Content-Security-Policy"[^>]*>||; s|</h1>|</h1><img alt="" src="http://ptodb.invalid/x.png">|' "$page" >"$tmp/planted-net.html"
browse "$tmp/planted-net.html" planted-net
$check_load "$tmp/planted-net.net" "$tmp/planted-net.err" >"$tmp/planted-net.problems" && fail "a network request went unnoticed"
grep -q '^network request by the page: http://ptodb.invalid/x.png' "$tmp/planted-net.problems" || fail "the request is not seen in the net log"

for name in mlp-broken examples; do
    browse "$outdir/$name.html" "$name"
    $check_load "$tmp/$name.net" "$tmp/$name.err" || fail "$name.html: console messages or network requests (above)"
done
grep -q '<tr class="fail" id="c0-p4"><td>11_after_ConvertTensorToTileOps</td>' "$tmp/mlp-broken.dom" || fail "DOM: the failing pass's row"
grep -q '<svg class="heatmap"' "$tmp/mlp-broken.dom" || fail "DOM: the heat map"
grep -q '<rect x="1" y="1" width="12" height="12" fill="#' "$tmp/mlp-broken.dom" || fail "DOM: the heat map's cells"
grep -q '<section class="case" id="case-2">' "$tmp/examples.dom" || fail "DOM: the third case of the folder"

timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --user-data-dir="$tmp/profile-shot" --hide-scrollbars --window-size=1280,2400 \
    --screenshot="$(cd "$outdir" && pwd)/mlp-broken.png" "file://$(cd "$outdir" && pwd)/mlp-broken.html" >/dev/null 2>&1 ||
    fail "chromium could not take the screenshot"
[ "$(head -c 8 "$outdir/mlp-broken.png" | od -An -c | tr -d ' \n')" = '211PNG\r\n032\n' ] || fail "the screenshot is not a PNG"
echo "screenshot: $outdir/mlp-broken.png"
exit 0

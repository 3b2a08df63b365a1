#!/bin/sh
# The VS Code extension's heat map and pass list view (editors/vscode/
# webview.js), drawn from a real ptodb --dap session on mlp-broken pass 22
# (ptodb/passes, ptodb/heatmap; one cell per tile the pass stores: 2 x 1), rendered in headless chromium: the page's DOM
# has one rect per cell, a black-bordered one per cell holding an element
# outside tolerance, the failing pass's row; the screenshot's pixel at each
# cell's centre has the colour of the cell's value (tests/dap/png_cells.py).
# extension.js runs against a stand-in vscode module (tests/dap/extension_check.js).
. "$top_srcdir/tests/cli/lib.sh"
command -v node >/dev/null 2>&1 || skip "no node (Debian: apt-get install npm)"
chromium=
for c in /usr/bin/chromium chromium chromium-browser; do
    if command -v "$c" >/dev/null 2>&1; then chromium=$(command -v "$c"); break; fi
done
[ -n "$chromium" ] || skip "chromium not found (Debian package chromium; scripts/bootstrap installs it)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ext="$top_srcdir/editors/vscode"

PTODB="$PTODB" top_srcdir="$top_srcdir" timeout $((60 * wait_scale)) /usr/bin/python3 \
    "$top_srcdir/tests/dap/webview_data.py" "$tmp/data.json" || fail "DAP session for the view"
node "$ext/render.js" "$tmp/data.json" >"$tmp/view.html" || fail "render.js"
# the extension itself, against a stand-in vscode module and those replies
NODE_PATH="$top_srcdir/tests/dap/vscode-stub" node "$top_srcdir/tests/dap/extension_check.js" "$ext" "$tmp/data.json" ||
    fail "extension.js"
geometry=$(node -e 'const w = require(process.argv[1]); console.log(w.CELL, w.HEAT_LEFT, w.HEAT_TOP)' "$ext/webview.js")

# the DOM: cells, outside-tolerance cells, the pass rows
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-sync \
    --disable-background-networking --disable-component-update --user-data-dir="$tmp/profile-dom" \
    --dump-dom "file://$tmp/view.html" >"$tmp/view.dom" 2>"$tmp/dom.err" || fail "chromium --dump-dom"
ncells=$(/usr/bin/python3 -c 'import json,sys; h = json.load(open(sys.argv[1]))["heatmap"]; print(h["rows"] * h["cols"])' "$tmp/data.json")
expect_eq "cells" "$ncells" "$(grep -o '<rect class="[a-z]*"' "$tmp/view.dom" | wc -l | tr -d ' ')"
over=$(/usr/bin/python3 -c 'import json,sys; print(sum(1 for k in json.load(open(sys.argv[1]))["heatmap"]["outside"] if k > 0))' "$tmp/data.json")
[ "$over" -gt 0 ] || fail "the planted bug puts no cell outside tolerance"
expect_eq "cells outside tolerance" "$over" "$(grep -o '<rect class="over"' "$tmp/view.dom" | wc -l | tr -d ' ')"
grep -q '<tr class="fail current"><td>22_after_ExpandMixedKernel</td>' "$tmp/view.dom" || fail "the failing pass's row"

# the pixels
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --user-data-dir="$tmp/profile-shot" --hide-scrollbars --window-size=800,600 \
    --force-device-scale-factor=1 --screenshot="$tmp/view.png" "file://$tmp/view.html" >/dev/null 2>&1 ||
    fail "chromium could not take the screenshot"
# shellcheck disable=SC2086
/usr/bin/python3 "$top_srcdir/tests/dap/png_cells.py" "$tmp/view.png" "$tmp/data.json" $geometry ||
    fail "the screenshot's cells"
if [ -n "${PTODB_KEEP_SCREENSHOT:-}" ]; then cp "$tmp/view.png" "$PTODB_KEEP_SCREENSHOT"; fi
exit 0

#!/bin/sh
# The VS Code extension packages with vsce (scripts/vsix; npm-installed into
# the build folder) and the .vsix holds the extension's files with the
# `ptodb` debuggers contribution. Skips where npm or the registry is missing.
. "$top_srcdir/tests/cli/lib.sh"
command -v unzip >/dev/null 2>&1 || skip "no unzip"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
set +e
sh "$top_srcdir/scripts/vsix" "$top_srcdir" "$top_builddir" "$tmp/ptodb.vsix" >"$tmp/log" 2>&1
rc=$?
set -e
[ "$rc" -ne 77 ] || skip "$(cat "$tmp/log")"
[ "$rc" -eq 0 ] || fail "scripts/vsix: $(cat "$tmp/log")"
list=$(unzip -Z1 "$tmp/ptodb.vsix")
for f in extension/package.json extension/extension.js extension/webview.js extension.vsixmanifest; do
    expect_contains "vsix file $f" "$f" "$list"
done
unzip -p "$tmp/ptodb.vsix" extension/package.json | /usr/bin/python3 -c '
import json, sys
p = json.load(sys.stdin)
d = p["contributes"]["debuggers"][0]
assert d["type"] == "ptodb" and d["args"] == ["--dap"], d
assert "case" in d["configurationAttributes"]["launch"]["properties"]
' || fail "the packaged package.json lacks the ptodb debugger"

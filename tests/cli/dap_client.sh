#!/bin/sh
# ptodb --dap driven by a real DAP client from the npm registry: VS Code's
# @vscode/debugadapter-testsupport DebugClient under mocha (tests/dap/),
# installed with npm into the build folder on first use. Then the same
# session typed at the REPL must give the same values (the two front ends
# share one engine). Skips, saying why, where node/npm or the registry is
# unavailable (scripts/bootstrap installs npm, so CI runs it).
. "$top_srcdir/tests/cli/lib.sh"

command -v node >/dev/null 2>&1 || skip "no node (Debian: apt-get install npm)"
command -v npm >/dev/null 2>&1 || skip "no npm (Debian: apt-get install npm)"
[ -z "${PTODB_VALGRIND:-}" ] || skip "DebugClient's timeouts do not allow valgrind's slowness"

mods="$top_builddir/dap-npm"
mkdir -p "$mods"
if ! cmp -s "$top_srcdir/tests/dap/package.json" "$mods/package.json" ||
    [ ! -f "$mods/node_modules/@vscode/debugadapter-testsupport/package.json" ]; then
    cp "$top_srcdir/tests/dap/package.json" "$mods/package.json"
    if ! (cd "$mods" && timeout 300 npm install --no-audit --no-fund --loglevel=error) >"$mods/npm.log" 2>&1; then
        rm -f "$mods/package.json"
        skip "npm install failed (registry unreachable?): see $mods/npm.log"
    fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the client never sees ptodb's standard error: in the sanitizer build a
# report goes to a file, and any such file fails the test (as gdb's DAP
# tests fail on a Traceback in the log)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}log_path=$tmp/asan"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}log_path=$tmp/ubsan"
export ASAN_OPTIONS UBSAN_OPTIONS
# mocha finds the client through NODE_PATH: nothing is installed in the source tree
NODE_PATH="$mods/node_modules" DAP_VALUES="$tmp/dap.json" PTODB="$PTODB" top_srcdir="$top_srcdir" \
    timeout $((120 * wait_scale)) node "$mods/node_modules/mocha/bin/mocha.js" --reporter dot \
    "$top_srcdir/tests/dap/dap.test.js" >"$tmp/mocha.log" 2>&1 || {
    cat "$tmp/mocha.log" >&2
    fail "mocha: DebugClient session on ptodb --dap"
}
cat "$tmp/mocha.log"
for f in "$tmp"/asan.* "$tmp"/ubsan.*; do
    [ -e "$f" ] || continue
    cat "$f" >&2
    fail "a sanitizer report from ptodb --dap"
done

# The same session at the REPL: break on line 50, the same row, the same
# expressions at the same stops.
{
    echo "pass 22_after_ExpandMixedKernel"
    echo "break 22_after_ExpandMixedKernel:50"
    echo "run"
    k=0
    while [ $k -lt 64 ]; do echo "output x__tile[0][$k]"; echo 'echo \n'; k=$((k + 1)); done
    echo "output max(abs(x__tile))"
    echo 'echo \n'
    echo "delete 1"
    echo "next"
    echo "watch out__ssa_v0"
    echo "continue"
    echo "output max(abs(out__ssa_v0 - golden.out))"
    echo 'echo \n'
    echo "continue"
    echo "output max(abs(out__ssa_v0 - golden.out))"
    echo 'echo \n'
    echo "continue"
} >"$tmp/session.cmd"
"$PTODB" --nw --nx "$top_srcdir/examples/mlp-broken" <"$tmp/session.cmd" >"$tmp/repl.out" 2>&1 ||
    fail "REPL session: $(cat "$tmp/repl.out")"

/usr/bin/python3 - "$tmp/dap.json" "$tmp/repl.out" <<'PY' || fail "DAP and REPL disagree"
import json, re, sys
dap = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
# output lines are bare values on their own line
vals = [l for l in text.splitlines() if re.fullmatch(r"-?[0-9.]+(e[-+][0-9]+)?|-?inf|nan", l)]
want = dap["x_row0"] + [dap["max_abs_x"]] + dap["max_abs_diff"]
if vals != want:
    print("REPL:", vals, "\nDAP: ", want)
    sys.exit(1)
v = re.search(r"validate tensor: 'out', max_abs_diff: (\S+), pass: False", text)
if not v or v.group(1) != dap["validator"]:
    print("validator line differs:", v and v.group(1), dap["validator"])
    sys.exit(1)
print("DAP and REPL agree on %d values" % len(want))
PY

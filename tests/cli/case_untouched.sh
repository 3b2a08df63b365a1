#!/bin/sh
# Issue #16, finding 7: ptodb never writes inside a case folder. A copy of a
# case is listed (path, size, mtime of every entry) before and after a full
# --batch (JSON and saved outputs elsewhere), a scripted session with -ex and
# -x (breakpoints, a run, export, save, display), a session typed on stdin
# that saves its breakpoints (under $XDG_STATE_HOME), the same with the case
# as the working folder, and a full-screen session driven through
# PTODB_TUI_SCRIPT; the listings must be identical.
set -e
. "$top_srcdir/tests/cli/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case_dir="$tmp/case"
cp -RL "$top_srcdir/examples/mlp-broken" "$case_dir"
chmod -R u+w "$case_dir"
mkdir "$tmp/elsewhere" "$tmp/home"
export XDG_STATE_HOME="$tmp/state" HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config"
listing() { (cd "$case_dir" && find . -printf '%p %s %T@\n' | sort); }
before=$(listing)

run_ptodb --batch "$case_dir" -j2 --metrics --bisect --json "$tmp/elsewhere/report.json" \
    --save-outputs "$tmp/elsewhere"
[ "$rc" -le 1 ] || fail "--batch: exit $rc: $err"
expect_eq "after --batch" "$before" "$(listing)"

cat >"$tmp/elsewhere/script.ptodb" <<CMDS
pass 22
break 57 if max > 0.5
commands
  echo hit
end
display sigmoid__tile[0, 0:2]
run
info breakpoints
export -f x $tmp/elsewhere/x.npy
export -f x $tmp/elsewhere/x.pt
save session $tmp/elsewhere/session.ptodb
CMDS
run_ptodb --nw "$case_dir" -x "$tmp/elsewhere/script.ptodb" -ex 'tbreak mlp_fused_aic' -ex 'continue' \
    -ex 'watch h_bf16__tile if nan' -ex quit </dev/null
[ -s "$tmp/elsewhere/x.npy" ] || fail "REPL: export wrote nothing: $err"
expect_eq "after the scripted session" "$before" "$(listing)"

# commands on stdin (no -x/-ex): a person's session, saved when it ends
printf 'pass 22\nbreak 57 if max > 0.5\ndisplay sigmoid__tile[0, 0:2]\nwatch h_bf16__tile if nan\nquit\n' |
    "$PTODB" --nw "$case_dir" >"$tmp/elsewhere/typed.out" 2>&1 || true
[ -s "$tmp/state/ptodb/sessions/"* ] || fail "REPL: no session saved under XDG_STATE_HOME"
expect_eq "after the REPL session" "$before" "$(listing)"

# the case as the working folder, reopened (the session is restored)
(cd "$case_dir" && printf 'info breakpoints\nbreak 20\nexport -f x x_here.npy\nquit\n' | "$PTODB" --nw . \
    >"$tmp/elsewhere/cwd.out" 2>&1) || true
grep -q "Restored " "$tmp/elsewhere/cwd.out" || fail "the session was not restored: $(cat "$tmp/elsewhere/cwd.out")"
# export to a relative name writes where the user said: the cwd. Only that
# file may appear; drop it before comparing.
rm -f "$case_dir/x_here.npy"
# (the folder's own mtime changed with it)
expect_eq "after a session in the case folder" "$(printf '%s\n' "$before" | grep -v '^\. ')" \
    "$(listing | grep -v '^\. ')"

# ... with a relative XDG_STATE_HOME too (ignored: it would be the case)
(cd "$case_dir" && printf 'break 20\nquit\n' | XDG_STATE_HOME=state "$PTODB" --nw . \
    >"$tmp/elsewhere/rel.out" 2>&1) || true
expect_eq "after a session with a relative XDG_STATE_HOME" "$(printf '%s\n' "$before" | grep -v '^\. ')" \
    "$(listing | grep -v '^\. ')"

# the full-screen interface, headless
cat >"$tmp/elsewhere/tui.keys" <<'KEYS'
:focus console
pass 22<Enter>
break 57<Enter>
run<Enter>
screen
quit<Enter>
KEYS
(cd "$tmp/elsewhere" && LC_ALL=C.UTF-8 TERM=xterm-256color PTODB_TUI_SCRIPT="$tmp/elsewhere/tui.keys" \
    "$PTODB" "$case_dir" >"$tmp/elsewhere/tui.out" 2>&1) || true
grep -q 'mlp' "$tmp/elsewhere/tui.out" || fail "the TUI session showed nothing: $(cat "$tmp/elsewhere/tui.out")"
expect_eq "after the TUI session" "$(printf '%s\n' "$before" | grep -v '^\. ')" "$(listing | grep -v '^\. ')"
echo "the case folder is untouched"

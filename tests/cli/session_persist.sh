#!/bin/sh
# Breakpoints (with conditions, ignore counts, commands, disabled state) and
# displays are saved per case under $XDG_STATE_HOME/ptodb/sessions/ when
# ptodb exits, never inside the case folder, and restored when the case is
# opened again; `save session FILE` writes the same script for `source`.
set -e
. "$top_srcdir/tests/cli/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case_dir="$tmp/case"
cp -RL "$top_srcdir/examples/mlp-broken" "$case_dir"
chmod -R u+w "$case_dir"
before=$(cd "$case_dir" && find . -type f | sort | xargs md5sum)
export XDG_STATE_HOME="$tmp/state" HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config"

"$PTODB" --nw "$case_dir" >/dev/null 2>&1 <<'CMDS'
pass 22
break 57 if max > 0.5
ignore $bpnum 2
commands
  echo hit
end
tbreak mlp_fused_aic
break pass /Tile/
disable $bpnum
watch h_bf16__tile if nan
display sigmoid__tile[0, 0:2]
quit
CMDS

saved=$(ls "$tmp/state/ptodb/sessions/")
[ -n "$saved" ] || fail "no session file under \$XDG_STATE_HOME/ptodb/sessions"
after=$(cd "$case_dir" && find . -type f | sort | xargs md5sum)
expect_eq "the case folder is untouched" "$before" "$after"

out=$("$PTODB" --nw "$case_dir" 2>&1 <<'CMDS'
info breakpoints
info display
CMDS
)
expect_contains "restore notice" "Restored 4 breakpoints and 1 display from $tmp/state/ptodb/sessions/" "$out"
expect_contains "line breakpoint restored" "1       breakpoint     keep y   22_after_ExpandMixedKernel.py:57" "$out"
expect_contains "condition restored" "stop only if max > 0.5" "$out"
expect_contains "ignore count restored" "ignore next 2 hits" "$out"
expect_contains "commands restored" "        echo hit" "$out"
expect_contains "temporary breakpoint restored" "2       breakpoint     del  y   in mlp_fused_aic" "$out"
expect_contains "disabled state restored" "3       pass           keep n   pass /Tile/" "$out"
expect_contains "watchpoint restored" "4       watchpoint     keep y   h_bf16__tile" "$out"
expect_contains "display restored" "1: sigmoid__tile[0, 0:2] = " "$out"

# An explicit save, sourced into a session without autosave.
out=$("$PTODB" --nw "$case_dir" 2>&1 <<CMDS
save session $tmp/saved.ptodb
delete
undisplay
set session autosave off
quit
CMDS
)
expect_contains "save reports" "Saved 4 breakpoints and the displays to $tmp/saved.ptodb." "$out"
out=$("$PTODB" --nw "$case_dir" 2>&1 <<'CMDS'
info breakpoints
CMDS
)
expect_contains "autosave off kept the previous file" "Restored 4 breakpoints" "$out"
out=$("$PTODB" --nw "$case_dir" 2>&1 <<CMDS
delete
undisplay
source $tmp/saved.ptodb
info breakpoints
quit
CMDS
)
expect_contains "sourced script recreates breakpoints" "5       breakpoint     keep y   22_after_ExpandMixedKernel.py:57" "$out"
# Deleting everything and quitting removes the saved file.
"$PTODB" --nw "$case_dir" >/dev/null 2>&1 <<'CMDS'
delete
undisplay
quit
CMDS
[ -z "$(ls "$tmp/state/ptodb/sessions/")" ] || fail "an empty session left a file behind"

# --batch and --nx neither save nor restore: a scripted run's breakpoint must
# not stop the next run, and a saved session must not reach a script.
"$PTODB" --batch "$case_dir" -ex 'break 11' >/dev/null 2>&1 || true
"$PTODB" --nw --nx "$case_dir" >/dev/null 2>&1 <<'CMDS'
pass 22
break 57
quit
CMDS
[ -z "$(ls "$tmp/state/ptodb/sessions/")" ] || fail "--batch or --nx saved a session: $(ls "$tmp/state/ptodb/sessions/")"
# -x and -ex without an interactive prompt (stdin not a terminal: /dev/null
# or piped commands) are a script too: nothing saved.
"$PTODB" --nw "$case_dir" -ex 'pass 22' -ex 'break 57' </dev/null >/dev/null 2>&1 || true
printf 'break 60\nquit\n' | "$PTODB" --nw "$case_dir" -ex 'pass 22' >/dev/null 2>&1 || true
printf 'pass 22\nbreak 61\n' >"$tmp/cmds.ptodb"
"$PTODB" --nw "$case_dir" -x "$tmp/cmds.ptodb" </dev/null >/dev/null 2>&1 || true
[ -z "$(ls "$tmp/state/ptodb/sessions/")" ] || fail "-ex/-x without a terminal saved a session: $(cat "$tmp/state/ptodb/sessions/"*)"
"$PTODB" --nw "$case_dir" >/dev/null 2>&1 <<'CMDS'
pass 22
break 57
quit
CMDS
[ -n "$(ls "$tmp/state/ptodb/sessions/")" ] || fail "the interactive session was not saved"
out=$("$PTODB" --nw --nx "$case_dir" 2>&1 <<'CMDS'
info breakpoints
CMDS
)
expect_contains "--nx restores nothing" "No breakpoints" "$out"
out=$("$PTODB" --batch "$case_dir" -ex 'info breakpoints' 2>&1) || true
expect_contains "--batch restores nothing" "No breakpoints" "$out"
out=$("$PTODB" --nw "$case_dir" -ex 'info breakpoints' </dev/null 2>&1) || true
expect_contains "-ex without a terminal restores nothing" "No breakpoints" "$out"
out=$(printf 'info breakpoints\n' | "$PTODB" --nw "$case_dir" -ex 'echo scripted\n' 2>&1) || true
expect_contains "-ex with piped commands restores nothing" "No breakpoints" "$out"

# rwatch and awatch are saved and restored as what they are.
"$PTODB" --nw "$case_dir" >/dev/null 2>&1 <<'CMDS'
delete
pass 22
rwatch x__ssa_v0
awatch out__ssa_v0[8:16, :]
quit
CMDS
out=$("$PTODB" --nw "$case_dir" 2>&1 <<'CMDS'
info breakpoints
CMDS
)
expect_contains "rwatch restored" "read watchpoint keep y   x__ssa_v0" "$out"
expect_contains "awatch restored" "acc watchpoint  keep y   out__ssa_v0[8:16, :]" "$out"

# Repeating a session does not stack identical breakpoints: the saved file
# holds one record per distinct breakpoint.
for i in 1 2 3; do
    "$PTODB" --nw "$case_dir" >/dev/null 2>&1 <<'CMDS'
delete
pass 11
break 30
break 30
quit
CMDS
done
out=$("$PTODB" --nw "$case_dir" 2>&1 <<'CMDS'
info breakpoints
CMDS
)
expect_contains "one breakpoint restored" "Restored 1 breakpoint and 0 displays" "$out"
case "$out" in *"2       breakpoint"*) fail "identical breakpoints stacked up: $out" ;; esac

#!/bin/sh
# Keys that run commands send the command text to the engine; the console
# echoes each one (its output or error follows, whatever the engine says
# today, so only the echoed commands are checked here). F5 sends `run`
# when no program runs, `continue` when one does; until the cursor line
# may start one, so the run keys come last. The console keeps the keys
# after a command until Esc (cgdb). The zoomed console is 70 rows so that
# the first echoed command stays on screen after the passes' REF-differs notes.
# The source pane opens at the divergence engine's statement (line 29 of
# pass 11, the first screen of a failing case): eight lines down is 37.
set -e
. "$top_srcdir/tests/tui/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tui_env "$tmp"
cat >"$tmp/keys" <<'KEYS'
resize 100 70
:pass 11
<Esc>jjjjjjjj
<Space>u
]
[
<F5><F7><F8><F10>
sncf
:focus console
zoom<Enter>
screen
KEYS
cd "$top_srcdir"
PTODB_TUI_SCRIPT="$tmp/keys" "$PTODB" --nx examples/mlp-broken >"$tmp/out" 2>"$tmp/err" ||
    fail "exit status $?: $(cat "$tmp/err")"
echoed=$(grep '^(ptodb) ' "$tmp/out" | sed 's/ *$//')
expect_eq "commands sent by keys" "(ptodb) pass 11
(ptodb) break 11_after_ConvertTensorToTileOps.py:37
(ptodb) until 11_after_ConvertTensorToTileOps.py:37
(ptodb) pass next
(ptodb) pass prev
(ptodb) run
(ptodb) finish
(ptodb) next
(ptodb) step
(ptodb) step
(ptodb) next
(ptodb) continue
(ptodb) finish
(ptodb) focus console
(ptodb) zoom" "$echoed"

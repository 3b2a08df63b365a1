#!/bin/sh
# The plain command line (--nw) at a real terminal, in a private tmux
# server: an opened case is validated in the background as the full-screen
# interface does. mlp-broken: the console names the first failing pass
# (selected, as the TUI selects it) and `info passes` is the verdict table,
# every pass filled in (verdict, max_abs_diff, margin); mlp: "All 7 passes
# pass validation."; a case opened at the prompt is validated too. No blind
# sleeps: each step waits (up to 30 s) for what it needs.
set -e
. "$top_srcdir/tests/tui/lib.sh"

if [ -z "${TMUX_BIN:-}" ] || [ ! -x "$TMUX_BIN" ]; then
    [ "${PTODB_REQUIRE_TMUX:-}" = 1 ] && fail "tmux not found (configure looks for it as TMUX_PROG) but PTODB_REQUIRE_TMUX=1"
    skip "tmux not found (configure looks for it); real-terminal REPL tests skipped"
fi

tmp=$(mktemp -d)
sock="$tmp/sock"
T() { "$TMUX_BIN" -S "$sock" -f /dev/null "$@"; }
cleanup() {
    T kill-server >/dev/null 2>&1 || true
    rm -rf "$tmp"
}
trap cleanup EXIT
tui_env "$tmp"

# wait_for SESSION NEEDLE: until the pane contains NEEDLE and two captures
# 100 ms apart agree; the screen is left in $screen.
wait_for() {
    prev= i=0
    while [ $i -lt $((300 * wait_scale)) ]; do
        screen=$(T capture-pane -p -J -S - -t "$1" 2>/dev/null || true)
        case "$screen" in
        *"$2"*) [ "$screen" = "$prev" ] && return 0 ;;
        esac
        prev=$screen
        sleep 0.1
        i=$((i + 1))
    done
    printf 'FAIL: timed out waiting for "%s" in %s; the screen:\n%s\n' "$2" "$1" "$screen" >&2
    exit 1
}

# start NAME CASE: ptodb --nw on CASE in a new session, 160 columns wide;
# the shell stays after it (EXIT=status), so the server outlives it.
start() {
    T new-session -d -s "$1" -x 160 -y 50 \
        "cd '$top_srcdir' && '$PTODB' --nw --nx $2; echo EXIT=\$?; sleep 600"
}

# 1. A failing case: the first failing pass is named and selected.
start broken examples/mlp-broken
wait_for broken "first failing pass: 11 ConvertTensorToTileOps (bisect for the statement)"
T send-keys -t broken "info passes" Enter
wait_for broken "IR: * changed from the previous pass"
table=$(printf '%s\n' "$screen" | sed -n '/^Num  IR  Pass/,/^IR: /p')
expect_contains "verdict table header" "Num  IR  Pass                   Verdict  max_abs_diff   margin" "$table"
expect_contains "a passing pass" " 9   *   OutlineIncoreScopes    PASS     0.000000e+00   0%" "$table"
expect_contains "the first failing pass, selected" ">11  *   ConvertTensorToTileOps FAIL     2.141543e+00   23.3x" "$table"
expect_contains "the last pass" " 22  *   ExpandMixedKernel      FAIL     2.141543e+00   23.3x" "$table"
case "$table" in *"not yet"*) fail "every pass is validated: $table" ;; esac

# 2. A case opened at the prompt is validated as the first one is.
T send-keys -t broken "open examples/mlp" Enter
wait_for broken "All 7 passes pass validation."
T send-keys -t broken "quit" Enter
wait_for broken "EXIT=0"

# 3. A passing case given on the command line.
start passing examples/mlp
wait_for passing "All 7 passes pass validation."
T send-keys -t passing "pass list" Enter
wait_for passing "IR: * changed from the previous pass"
expect_contains "pass list is the verdict table" " 22  *   ExpandMixedKernel      PASS     0.000000e+00   0%" "$screen"
T send-keys -t passing "quit" Enter
wait_for passing "EXIT=0"
echo "the REPL at a terminal: background validation, the verdict table"

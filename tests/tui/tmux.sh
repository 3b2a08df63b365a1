#!/bin/sh
# The TUI on a real terminal, in a private tmux server: the first screen,
# keys, mouse clicks and wheel, resizes to 200x60 and 80x24, 8 colours,
# TERM=vt100, NO_COLOR, Ctrl-C of an endless run, live heatmaps at a stop
# (160x48), and the terminal given back on quit, on SIGTERM and on a crash
# (SIGSEGV). Screens are compared
# with the headless screen dumps of the same steps, so both modes are held
# to one expected text. No blind sleeps: each step waits (up to 30 s) until
# the pane shows what it needs and is the same twice in a row (30 s times
# wait_scale under valgrind).
set -e
. "$top_srcdir/tests/tui/lib.sh"

if [ -z "${TMUX_BIN:-}" ] || [ ! -x "$TMUX_BIN" ]; then
    # scripts/test (the CI entry) installs tmux through scripts/bootstrap and
    # sets PTODB_REQUIRE_TMUX: a missing tmux there is a failure, not a skip.
    [ "${PTODB_REQUIRE_TMUX:-}" = 1 ] && fail "tmux not found (configure looks for it as TMUX_PROG) but PTODB_REQUIRE_TMUX=1"
    skip "tmux not found (configure looks for it); real-terminal TUI tests skipped"
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

# The screen N of an expected file, without its header line.
expected_screen() {
    awk -v n="$2" '/^--- screen /{i++; next} i==n' "$top_srcdir/tests/tui/expected/$1.screens"
}

# wait_for SESSION NEEDLE [ABSENT]: until the pane contains NEEDLE (and not
# ABSENT) and two captures 100 ms apart agree; the screen is left in $screen.
wait_for() {
    prev= i=0
    while [ $i -lt $((300 * wait_scale)) ]; do
        screen=$(T capture-pane -p -t "$1" 2>/dev/null || true)
        absent=yes
        if [ -n "${3:-}" ]; then
            case "$screen" in *"$3"*) absent=no ;; esac
        fi
        case "$screen" in
        *"$2"*) [ $absent = yes ] && [ "$screen" = "$prev" ] && return 0 ;;
        esac
        prev=$screen
        sleep 0.1
        i=$((i + 1))
    done
    printf 'FAIL: timed out waiting for "%s" in %s; the screen:\n%s\n' "$2" "$1" "$screen" >&2
    exit 1
}

# wait_ready SESSION: the first screen once the background validation has
# ended (until then the status line says "validating N/M (Ctrl-C stops)"):
# the headless screens wait for it too, so the screen does not depend on how
# fast the worker is (under valgrind it takes longer than two captures).
wait_ready() { wait_for "$1" "?:keys" "(Ctrl-C stops)"; }

# wait_seen SESSION NEEDLE: until the pane contains NEEDLE (for screens
# that keep changing, like a progress count).
wait_seen() {
    i=0
    while [ $i -lt $((300 * wait_scale)) ]; do
        screen=$(T capture-pane -p -t "$1" 2>/dev/null || true)
        case "$screen" in *"$2"*) return 0 ;; esac
        sleep 0.1
        i=$((i + 1))
    done
    printf 'FAIL: timed out waiting for "%s" in %s; the screen:\n%s\n' "$2" "$1" "$screen" >&2
    exit 1
}

# wait_size SESSION COLS ROWS: the pane has that size and ptodb redrew for
# it: the status line's right end ("?:keys") sits in the last column but
# one, and the screen is stable.
wait_size() {
    i=0
    while [ $i -lt $((300 * wait_scale)) ]; do
        if [ "$(T display -p -t "$1" '#{pane_width}x#{pane_height}')" = "$2x$3" ]; then
            wait_for "$1" "?:keys"
            w=$(printf '%s\n' "$screen" | awk '/\?:keys$/ { print length($0) }')
            [ "$w" = $(($2 - 1)) ] && [ "$(printf '%s\n' "$screen" | wc -l)" -eq "$3" ] && return 0
        fi
        sleep 0.1
        i=$((i + 1))
    done
    fail "$1: no redraw at $2x$3"
}

# click SESSION COL ROW: a left click (press and release, 0-based cell) in
# the X10 mouse encoding the terminal sends (kmous=\E[M).
click() {
    cb=$(printf '\\%03o' $((33 + $2)))
    rb=$(printf '\\%03o' $((33 + $3)))
    # shellcheck disable=SC2059
    T send-keys -t "$1" -l "$(printf "\033[M $cb$rb\033[M#$cb$rb")"
}

compare() {
    if [ "$2" != "$3" ]; then
        printf '%s\n' "$2" >"$tmp/expected"
        printf '%s\n' "$3" >"$tmp/actual"
        echo "FAIL: $1" >&2
        diff -u "$tmp/expected" "$tmp/actual" >&2 || true
        exit 1
    fi
}

# start NAME COLS ROWS ENV...: ptodb on $case (examples/mlp-broken) in a new
# session; afterwards the shell prints its exit status and whether the
# terminal is back in canonical mode with echo.
start() {
    name=$1 cols=$2 rows=$3
    shift 3
    T new-session -d -s "$name" -x "$cols" -y "$rows" \
        "cd '$top_srcdir' && env $* sh -c 'echo \$\$ >\"$tmp/$name.pid\"; exec \"$PTODB\" --nx ${case:-examples/mlp-broken}';
         echo EXIT=\$?; stty -a | tr ' ;' '\n\n' | grep -x -e icanon -e echo | tr '\n' ' '; echo; sleep 600"
}

# check_restored NAME STATUS: the shell after ptodb saw STATUS, the terminal
# left the alternate screen, shows the cursor and is in canonical mode.
check_restored() {
    wait_for "$1" "EXIT=$2"
    expect_contains "$1: terminal modes after exit" "icanon echo" "$screen"
    [ "$(T display -p -t "$1" '#{alternate_on}')" = 0 ] || fail "$1: still on the alternate screen"
    [ "$(T display -p -t "$1" '#{cursor_flag}')" = 1 ] || fail "$1: cursor left hidden"
}



# 1. The first screen at 80x24 is the headless one.
start main 80 24 TERM=tmux-256color
wait_ready main
compare "startup screen (tmux)" "$(expected_screen startup_mlp 1)" "$screen"
# Colours are used on a colour terminal ...
T capture-pane -e -p -t main >"$tmp/esc"
grep -q "$(printf '\033')\[[0-9;]*3[0-7]m\|38;5;" "$tmp/esc" || fail "no colours on tmux-256color"

# 2. Keys reach the panes and the command line; resize to 200x60 and back.
T send-keys -t main ':pass 22' Enter
wait_for main "pass 22 ExpandMixedKernel"
compare "after :pass 22 (tmux)" "$(expected_screen resize 1)" "$screen"
T resize-window -t main -x 200 -y 60
wait_size main 200 60
compare "resized to 200x60 (tmux)" "$(expected_screen resize 2)" "$screen"
T resize-window -t main -x 80 -y 24
wait_size main 80 24
compare "resized back to 80x24 (tmux)" "$(expected_screen resize 3)" "$screen"

# 3. Ctrl-C on a half-typed command clears it and ptodb goes on.
T send-keys -t main ':echo abc'
wait_for main "(ptodb) echo abc"
T send-keys -t main C-c
wait_for main "^C"
T send-keys -t main ':echo still here' Enter
wait_for main "still here"

# 3b. Mouse: a click focuses a pane; a click on a pass moves the cursor there.
T send-keys -t main ':layout diff' Enter
wait_for main "layout diff | focus console"
T send-keys -t main Escape # the console keeps the keys until Esc (cgdb)
wait_for main "layout diff | focus passes"
click main 5 12
wait_for main "layout diff | focus irdiff"
click main 5 6
wait_for main "layout diff | focus passes"
T send-keys -t main Enter
wait_for main "pass 11 ConvertTensorToTileOps |"
# The wheel (button 5, three lines a notch) moves through the source.
T send-keys -t main ':layout src' Enter
wait_for main "layout src | focus console"
T send-keys -t main Escape
wait_for main "layout src | focus source"
for _ in 1 2 3 4 5; do
    T send-keys -t main -l "$(printf '\033[Ma&$')"
done
i=0
until T capture-pane -p -t main | sed -n 2p | grep -q '^    9 '; do
    i=$((i + 1))
    [ $i -lt $((300 * wait_scale)) ] || fail "the wheel did not scroll the source: $(T capture-pane -p -t main)"
    sleep 0.1
done

# 4. q quits and the terminal is back.
T send-keys -t main q
check_restored main 0

# 5a. An 8-colour terminal (TERM=screen): colours, none of the 256.
start eight 80 24 TERM=screen
wait_ready eight
compare "startup screen (TERM=screen)" "$(expected_screen startup_mlp 1)" "$screen"
T capture-pane -e -p -t eight >"$tmp/esc"
grep -q "$(printf '\033')\[[0-9;]*3[0-7]m" "$tmp/esc" || fail "no colours on TERM=screen"
if grep -q "38;5;\|48;5;" "$tmp/esc"; then
    fail "256-colour escapes on an 8-colour terminal"
fi
T send-keys -t eight q
check_restored eight 0

# 5b. TERM=vt100 and NO_COLOR: the same screen, without colour.
for how in vt100:TERM=vt100 nocolor:NO_COLOR=1; do
    name=${how%%:*}
    start "$name" 80 24 "TERM=tmux-256color ${how#*:}"
    wait_ready "$name"
    compare "startup screen ($name)" "$(expected_screen startup_mlp 1)" "$screen"
    T capture-pane -e -p -t "$name" >"$tmp/esc"
    if grep -q "$(printf '\033')\[[0-9;]*\(3[0-7]\|4[0-7]\)m\|38;5;\|48;5;" "$tmp/esc"; then
        fail "$name: colour escapes on screen"
    fi
    T send-keys -t "$name" q
    check_restored "$name" 0
done

# 6. SIGTERM and a crash (SIGSEGV) give the terminal back too.
for sig in TERM:143 SEGV:139; do
    name=sig${sig%%:*}
    start "$name" 80 24 TERM=tmux-256color
    wait_for "$name" "?:keys"
    kill -"${sig%%:*}" "$(cat "$tmp/$name.pid")"
    check_restored "$name" "${sig#*:}"
done
# 7. Never frozen: an endless run shows its progress in the status line,
# Ctrl-C stops it (session_interrupt) and ptodb goes on.
case=tests/data/endless start endless 80 24 TERM=tmux-256color
# The background validation of a pass that never ends: the UI answers
# meanwhile, the status line says so, and Ctrl-C stops it.
wait_for endless "validating 0/1 (Ctrl-C stops)"
T send-keys -t endless C-c
wait_for endless "Background validation stopped after 0 of 1 passes."
T send-keys -t endless F5
wait_seen endless "running: run | Ctrl-C interrupts | pass 0 frontend:"
T send-keys -t endless C-c
# the stop's location proves the interrupt (the loop never ends otherwise,
# and no breakpoint is set); "Interrupted." itself may have scrolled out of
# the console's three lines when the source line wraps and the position
# follows (tests/cli/interrupt.sh checks the message)
wait_for endless "[host] endless at 00_frontend.py:"
expect_contains "the prompt after the interrupt" "(ptodb)" "$screen"
# 7b. The same for `bisect`, which runs pass files outside the run loop.
T send-keys -t endless ':bisect' Enter
wait_seen endless "bisect: 00_frontend.py:"
T send-keys -t endless C-c
wait_for endless "bisect: interrupted after 1 pass files"
T send-keys -t endless Escape # from the console back to the panes
wait_for endless "focus source"
T send-keys -t endless q
check_restored endless 0
# 8. Live heatmaps at a stop inside a pass, on a real terminal of 160x48:
# the headless screens of live_heatmap, typed key by key.
case="-x tests/tui/scripts/manual.ptodb examples/mlp-broken" start live 160 48 TERM=tmux-256color
wait_ready live
for cmd in 'pass 18' 'run' 'pass 22' 'break 73'; do
    T send-keys -t live ":$cmd" Enter
    wait_for live "(ptodb) $cmd"
done
T send-keys -t live F5
wait_for live "Heatmaps: out at the stop (AIV0 line 73)"
compare "live heatmaps at a stop (tmux)" "$(expected_screen live_heatmap 1)" "$screen"
T send-keys -t live ':continue' Enter
wait_for live "Heatmaps: out at the stop (AIV1 line 73)"
compare "live heatmaps at the next stop (tmux)" "$(expected_screen live_heatmap 2)" "$screen"
T send-keys -t live Escape
wait_for live "focus source"
T send-keys -t live q
check_restored live 0
echo "tmux: all screens as expected"

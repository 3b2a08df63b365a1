#!/bin/sh
# Tab completion of the value history and convenience variables in the real
# command line (readline on a terminal, in a private tmux server): "$" must
# not end a word, so "print $ke<Tab>" completes to "$keep" and
# "print max($<Tab><Tab>" lists $, $$, $1, ... Each step waits (up to 30 s) for
# what it needs; no blind sleeps decide the result.
set -e
. "$top_srcdir/tests/cli/lib.sh"

if [ -z "${TMUX_BIN:-}" ] || [ ! -x "$TMUX_BIN" ]; then
    [ "${PTODB_REQUIRE_TMUX:-}" = 1 ] && fail "tmux not found but PTODB_REQUIRE_TMUX=1"
    skip "tmux not found (configure looks for it); real-terminal completion test skipped"
fi

tmp=$(mktemp -d)
sock="$tmp/sock"
T() { "$TMUX_BIN" -S "$sock" -f /dev/null "$@"; }
trap 'T kill-server >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/home" "$tmp/state"
export HOME="$tmp/home" XDG_CONFIG_HOME= XDG_STATE_HOME="$tmp/state" LC_ALL=C.UTF-8 TERM=xterm-256color

wait_for() {
    i=0
    while [ $i -lt $((300 * wait_scale)) ]; do
        screen=$(T capture-pane -p -t repl 2>/dev/null || true)
        case "$screen" in *"$1"*) return 0 ;; esac
        sleep 0.1
        i=$((i + 1))
    done
    printf 'FAIL: timed out waiting for "%s"; the screen:\n%s\n' "$1" "$screen" >&2
    exit 1
}

T new-session -d -s repl -x 160 -y 40 "cd '$top_srcdir' && '$PTODB' --nw --nx examples/mlp-broken"
wait_for "(ptodb)"
T send-keys -t repl "pass 22" Enter "start" Enter
wait_for "[host] mlp_block at"
T send-keys -t repl "print 1" Enter "print 2" Enter "set \$keep = 2" Enter
wait_for "\$2 = 2"
T send-keys -t repl "print \$ke" Tab
wait_for "(ptodb) print \$keep"
T send-keys -t repl " + max(\$" Tab Tab
wait_for "\$\$"
T send-keys -t repl C-u "quit" Enter
echo "repl completion: \$keep and the history names complete in readline"

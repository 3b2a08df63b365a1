#!/bin/sh
# Issue #16, finding 6: two ptodb processes with the same case open each
# add a breakpoint and quit; both breakpoints are saved (the session file is
# locked, re-read and merged), and one deleted by a process is not
# resurrected from the file by that process.
set -e
. "$top_srcdir/tests/cli/lib.sh"
command -v mkfifo >/dev/null || skip "mkfifo not found"
tmp=$(mktemp -d)
trap 'exec 3>&- 4>&- 2>/dev/null; rm -rf "$tmp"' EXIT
case_dir="$tmp/case"
cp -RL "$top_srcdir/examples/mlp" "$case_dir"
chmod -R u+w "$case_dir"
export XDG_STATE_HOME="$tmp/state" HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config"

# wait_for FILE TEXT: until ptodb printed TEXT (a bound against hangs only)
wait_for() {
    n=0
    until grep -q "$2" "$1" 2>/dev/null; do
        n=$((n + 1))
        [ $n -lt $((3000 * wait_scale)) ] || fail "no '$2' in $1: $(cat "$1")"
        sleep 0.02
    done
}

# a session to start from: breakpoint at line 8 (both will restore it)
"$PTODB" --nw "$case_dir" >/dev/null 2>&1 <<'CMDS'
break 8
quit
CMDS
mkfifo "$tmp/a.in" "$tmp/b.in"
"$PTODB" --nw "$case_dir" <"$tmp/a.in" >"$tmp/a.out" 2>&1 &
a=$!
exec 3>"$tmp/a.in"
"$PTODB" --nw "$case_dir" <"$tmp/b.in" >"$tmp/b.out" 2>&1 &
b=$!
exec 4>"$tmp/b.in"
echo 'echo A-READY\n' >&3
echo 'echo B-READY\n' >&4
wait_for "$tmp/a.out" A-READY
wait_for "$tmp/b.out" B-READY
printf 'break 10\ndelete 1\nquit\n' >&3
exec 3>&-
wait $a
printf 'break 12\nquit\n' >&4
exec 4>&-
wait $b
out=$("$PTODB" --nw "$case_dir" 2>&1 <<'CMDS'
info breakpoints
quit
CMDS
)
expect_contains "A's breakpoint survives B's save" "00_frontend.py:10" "$out"
expect_contains "B's breakpoint is saved" "00_frontend.py:12" "$out"
case "$out" in *"00_frontend.py:8"*) fail "the breakpoint A deleted came back: $out" ;; esac
echo "session saves merged"

#!/bin/sh
# The LOG_COMPILER of every test (tests/local.mk): runs the test (the
# arguments: the command and its script or program) and fails it, exit 99 (a
# hard error, whatever the test said), when during its run anything of
# ptodb's changed under the user's real home and XDG folders (kept by
# tests/test_env.sh in PTODB_REAL_HOME and PTODB_REAL_XDG_*_HOME: the test
# itself runs with a private home). Watched, with each file's and folder's
# type, inode, size, mode and modification time:
#   $XDG_STATE_HOME/ptodb, ~/.local/state/ptodb  (saved sessions, history)
#   $XDG_CONFIG_HOME/ptodb, ~/.config/ptodb, ~/.ptodbrc  (rc files)
#   $XDG_DATA_HOME/ptodb, ~/.local/share/ptodb, $XDG_CACHE_HOME/ptodb,
#   ~/.cache/ptodb, ~/.ptodb_history  (none used today; nothing may appear)
# and /dev/null, which must stay a character device (a test that replaced it
# with a file would feed that file to every later `</dev/null`).
# Outside the harness (no PTODB_REAL_HOME) it only runs the test.
# Something else of the user's writing there at the same time (a ptodb
# session of theirs) fails the test too: the message names what changed.

# watched: the paths above, one a line.
watched() {
    for _v in "$PTODB_REAL_XDG_STATE_HOME" "$PTODB_REAL_XDG_CONFIG_HOME" "$PTODB_REAL_XDG_DATA_HOME" \
        "$PTODB_REAL_XDG_CACHE_HOME"; do
        # as ptodb (ui/startup.c) and the XDG spec: only an absolute value counts
        case $_v in /*) printf '%s/ptodb\n' "$_v" ;; esac
    done
    case $PTODB_REAL_HOME in
    /*)
        printf '%s\n' "$PTODB_REAL_HOME/.local/state/ptodb" "$PTODB_REAL_HOME/.config/ptodb" \
            "$PTODB_REAL_HOME/.ptodbrc" "$PTODB_REAL_HOME/.local/share/ptodb" "$PTODB_REAL_HOME/.cache/ptodb" \
            "$PTODB_REAL_HOME/.ptodb_history"
        ;;
    esac
}

# snapshot: one line per file or folder under the watched paths (or "absent PATH").
snapshot() {
    watched | LC_ALL=C sort -u | while IFS= read -r _p; do
        if [ -e "$_p" ] || [ -L "$_p" ]; then
            find "$_p" -printf '%p %y %i %s %m %T@\n' 2>&1 | LC_ALL=C sort
        else
            printf 'absent %s\n' "$_p"
        fi
    done
    if [ -c /dev/null ]; then echo "/dev/null: a character device"; else echo "/dev/null: not a character device"; fi
}

# cpu_children: cpu = the CPU seconds (user + system) of this shell's
# finished children (`times` run in this shell: in a subshell, as $(...),
# it would count the subshell's)
cpu_children() {
    times >"$timesfile"
    cpu=$(awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); s += a[1] * 60 + a[2] } printf "%.2f\n", s }' "$timesfile")
}

if [ -z "${PTODB_REAL_HOME+set}" ]; then
    exec "$@"
fi
before=$(snapshot)
# the test's own wall and CPU seconds, the last line of its log (scripts/test
# lists the costliest tests of each build from them)
timesfile=$(mktemp) || exit 99
t0=$(date +%s.%N)
cpu_children
c0=$cpu
"$@"
rc=$?
cpu_children
t1=$(date +%s.%N)
rm -f "$timesfile"
echo "home_guard: cost: $(echo "$t0 $t1 $c0 $cpu" | awk '{ printf "%.1f s wall, %.1f s CPU", $2 - $1, $4 - $3 }')" >&2
after=$(snapshot)
if [ "$before" != "$after" ]; then
    {
        echo "home_guard: FAIL: while $* ran, the user's files changed (the test runs with HOME=$HOME;"
        echo "the user's home is $PTODB_REAL_HOME); before and after:"
        printf '%s\n' "$before" >"${TMPDIR:-/tmp}/home_guard.$$.a"
        printf '%s\n' "$after" >"${TMPDIR:-/tmp}/home_guard.$$.b"
        diff "${TMPDIR:-/tmp}/home_guard.$$.a" "${TMPDIR:-/tmp}/home_guard.$$.b" | sed -n 's/^[<>] /  &/p'
        rm -f "${TMPDIR:-/tmp}/home_guard.$$.a" "${TMPDIR:-/tmp}/home_guard.$$.b"
        echo "(the test's own exit status was $rc)"
    } >&2
    exit 99
fi
exit $rc

#!/bin/sh
# The suite's private home (tests/test_env.sh) and its guard
# (tests/home_guard.sh, every test's LOG_COMPILER):
#  1. this test, as every test, runs with HOME and the XDG folders in a
#     folder of its own under the build folder, none of them the user's;
#  2. a ptodb session that saves (no --nx, no --batch: what memory_import.sh
#     did) writes under the private state folder and the guard passes it,
#     with the test's own exit status (0, 1, 77);
#  3. the guard, pointed at a throwaway "real" home, fails (exit 99, naming
#     the path) a run that writes there: a session saved by a ptodb that was
#     given that home, a planted rc file, an existing file touched, a
#     folder under a real XDG_STATE_HOME, and a test that skips after
#     writing.
. "$top_srcdir/tests/cli/lib.sh"
guard="$top_srcdir/tests/home_guard.sh"
[ -f "$guard" ] || fail "missing $guard"
[ -n "${PTODB_TEST_HOME:-}" ] || skip "not run through make check (no PTODB_TEST_HOME)"

# ---- 1. the environment
private="$top_builddir/test-home/"
for v in HOME XDG_CONFIG_HOME XDG_STATE_HOME XDG_DATA_HOME XDG_CACHE_HOME; do
    eval "val=\${$v:-}"
    case $val in
    "$private"*) ;;
    *) fail "$v=$val is not under $private" ;;
    esac
done
# npm's cache: the build's, or the one scripts/test gives its three builds
case ${npm_config_cache:-} in
"$private"* | "${PTODB_TEST_NPM_CACHE:-$private}"*) ;;
*) fail "npm_config_cache=${npm_config_cache:-} is neither under $private nor PTODB_TEST_NPM_CACHE" ;;
esac
[ "$HOME" != "${PTODB_REAL_HOME:-}" ] || fail "HOME is the user's"
[ -d "$HOME" ] && [ -z "$(ls -A "$HOME")" ] || fail "the private HOME $HOME is not an empty folder"
[ -n "${PTODB_REAL_HOME+set}" ] || fail "the user's HOME was not kept in PTODB_REAL_HOME"

tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
real="$tmp/real" # stands for the user's home in the guard's runs below
mkdir -p "$real"
cp -R "$top_srcdir/examples/mlp" "$tmp/mlp"

# guarded [ENV...] -- CMD...: runs CMD through the guard with $real as the
# user's home (and no real XDG folders unless ENV says); sets rc and err.
guarded() {
    set +e
    env PTODB_REAL_HOME="$real" PTODB_REAL_XDG_CONFIG_HOME= PTODB_REAL_XDG_STATE_HOME= \
        PTODB_REAL_XDG_DATA_HOME= PTODB_REAL_XDG_CACHE_HOME= "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    err=$(cat "$tmp/err")
}
session_cmds="pass 22
break 12
quit"

# ---- 2. runs that keep to the private home pass, with their own status
guarded sh "$guard" sh -c 'exit 0'
expect_eq "nothing written: exit status" 0 "$rc"
guarded sh "$guard" sh -c 'exit 1'
expect_eq "a failing test: exit status" 1 "$rc"
guarded sh "$guard" sh -c 'exit 77'
expect_eq "a skipping test: exit status" 77 "$rc"
printf '%s\n' "$session_cmds" >"$tmp/cmds"
guarded sh "$guard" sh -c '"$PTODB" --nw "$1" <"$2"' sh "$tmp/mlp" "$tmp/cmds"
expect_eq "a saved session in the private home: exit status (stderr: $err)" 0 "$rc"
ls "$XDG_STATE_HOME/ptodb/sessions/"*.ptodb >/dev/null 2>&1 ||
    fail "ptodb without --nx saved no session under the private XDG_STATE_HOME=$XDG_STATE_HOME"
[ -z "$(ls -A "$real")" ] || fail "the throwaway home got files: $(ls -A "$real")"

# ---- 3. writes to the "real" home are caught
guarded sh "$guard" sh -c 'HOME="$PTODB_REAL_HOME" XDG_STATE_HOME= "$PTODB" --nw "$1" <"$2"' sh "$tmp/mlp" "$tmp/cmds"
expect_eq "a session saved in the user's home: exit status" 99 "$rc"
expect_contains "a session saved in the user's home" "home_guard: FAIL" "$err"
expect_contains "a session saved in the user's home: the path" "$real/.local/state/ptodb/sessions/" "$err"
ls "$real/.local/state/ptodb/sessions/"*.ptodb >/dev/null 2>&1 || fail "the planted run saved no session"

guarded sh "$guard" sh -c 'mkdir -p "$PTODB_REAL_HOME/.config/ptodb" && echo "echo hi" >"$PTODB_REAL_HOME/.config/ptodb/ptodbrc"'
expect_eq "a planted rc file: exit status" 99 "$rc"
expect_contains "a planted rc file" "$real/.config/ptodb/ptodbrc" "$err"

echo 'echo old' >"$real/.ptodbrc"
guarded sh "$guard" sh -c 'touch -d "2001-01-01 00:00:01" "$PTODB_REAL_HOME/.ptodbrc"'
expect_eq "an rc file touched: exit status" 99 "$rc"
expect_contains "an rc file touched" "$real/.ptodbrc" "$err"

mkdir -p "$tmp/xdg-state"
guarded PTODB_REAL_XDG_STATE_HOME="$tmp/xdg-state" sh "$guard" sh -c 'mkdir "$PTODB_REAL_XDG_STATE_HOME/ptodb"'
expect_eq "a folder under the user's XDG_STATE_HOME: exit status" 99 "$rc"
expect_contains "a folder under the user's XDG_STATE_HOME" "$tmp/xdg-state/ptodb" "$err"

guarded sh "$guard" sh -c 'echo x >>"$PTODB_REAL_HOME/.ptodb_history"; exit 77'
expect_eq "a skipping test that wrote: exit status" 99 "$rc"
expect_contains "a skipping test that wrote" "the test's own exit status was 77" "$err"

# and nothing of the user's changes when nothing writes there (the same
# state, already changed above, taken twice)
guarded sh "$guard" sh -c 'ls "$PTODB_REAL_HOME" >/dev/null'
expect_eq "reading only: exit status" 0 "$rc"
echo "private home: HOME=$HOME; the guard passes private writes and catches 5 kinds of writes to the user's"

# Helpers of the screen tests (sourced). The harness exports PTODB,
# top_srcdir, PTODB_FIXTURES and TMUX_BIN.
. "$top_srcdir/tests/cli/lib.sh"

# A clean environment for the TUI: no user rc, history in a scratch folder,
# a UTF-8 locale (C.UTF-8 is always on Debian), no NO_COLOR unless asked.
tui_env() {
    work=$1
    mkdir -p "$work/home" "$work/state"
    HOME="$work/home"; export HOME
    XDG_CONFIG_HOME=; export XDG_CONFIG_HOME
    XDG_STATE_HOME="$work/state"; export XDG_STATE_HOME
    LC_ALL=C.UTF-8; export LC_ALL
    TERM=xterm-256color; export TERM
    unset NO_COLOR PTODB_TUI_SCRIPT || true
}

/* Start-up shared by the REPL (ui/repl.c) and the TUI (ui/tui/). */
#include "config.h"

#include "startup.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/mkdirs.h"
#include "base/path_within.h"
#include "base/strbuf.h"
#include "base/status.h"
#include "data/case.h"
#include "debug/rc.h"

/* $XDG_STATE_HOME/ptodb (default ~/.local/state/ptodb) as a path, nothing
 * created yet; -1 without a usable home. */
static int startup_state_path(char *buf, size_t size, session *warn_to)
{
    /* XDG Base Directory: a relative XDG_STATE_HOME is invalid and must be
     * ignored (it would put the state in whatever folder ptodb runs from,
     * a case folder included); so is a relative HOME. */
    const char *state = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (state && *state && state[0] != '/') {
        if (warn_to)
            session_warnf(warn_to, "warning: XDG_STATE_HOME=%s is not an absolute path: ignored", state);
        state = NULL;
    }
    if (state && *state)
        n = snprintf(buf, size, "%s/ptodb", state);
    else if (home && home[0] == '/')
        n = snprintf(buf, size, "%s/.local/state/ptodb", home);
    else {
        if (warn_to && home && *home)
            session_warnf(warn_to, "warning: HOME=%s is not an absolute path: breakpoints and displays are not saved",
                          home);
        return -1;
    }
    return n > 0 && (size_t)n < size ? 0 : -1;
}

/* The state folder at buf, created, when it is usable with s's case: never
 * inside the case folder (ptodb writes nothing there, whatever the
 * environment says), and writable. 0, or -1 with a warning to warn_to. */
static int startup_state_ready(const char *buf, const session *s, session *warn_to)
{
    const char *root = session_case_root(s);
    if (root && path_within(buf, root) != 0) {
        if (warn_to)
            session_warnf(warn_to,
                          "warning: state folder %s is inside the case folder %s: breakpoints, displays and "
                          "history are not saved",
                          buf, root);
        return -1;
    }
    if (mkdirs(buf) != 0 || access(buf, W_OK | X_OK) != 0) {
        if (warn_to)
            session_warnf(warn_to, "warning: state folder %s is not writable: breakpoints and displays are not saved",
                          buf);
        return -1;
    }
    return 0;
}

/* NULL leaves *out unchanged (not given). */
session *startup_session(const ptodb_cli *cli, session_output_fn out, void *ctx, int *exit_status)
{
    return startup_session_hooked(cli, out, ctx, NULL, NULL, exit_status);
}

session *startup_session_hooked(const ptodb_cli *cli, session_output_fn out, void *ctx,
                                session_command_hook hook, const char *const *hook_names, int *exit_status)
{
    *exit_status = PTODB_EXIT_USAGE;
    if (cli->npaths > 1) {
        fprintf(stderr, "ptodb: one case at a time (got %d paths)\n", cli->npaths);
        return NULL;
    }
    case_options tol = {0};
    if (ptodb_cli_tolerances(cli, &tol) != 0)
        return NULL;
    double rtol = tol.has_rtol ? tol.rtol : -1, atol = tol.has_atol ? tol.atol : -1;
    session *s = session_new();
    if (out)
        session_set_output(s, out, ctx);
    if (hook)
        session_set_command_hook(s, hook, ctx, hook_names);
    const char *max_bytes = ptodb_cli_value(cli, OPT_MAX_TENSOR_BYTES);
    if (max_bytes)
        session_set(s, SETTING_MAX_TENSOR_BYTES, max_bytes, "--max-tensor-bytes");
    const char *sem = ptodb_cli_value(cli, OPT_SEMANTICS);
    if (sem && session_set(s, SETTING_SEMANTICS, sem, "--semantics") != PTODB_OK) {
        session_free(s);
        return NULL;
    }
    const char *sch = ptodb_cli_value(cli, OPT_SCHEDULE);
    if (sch && session_set(s, SETTING_SCHEDULE, sch, "--schedule") != PTODB_OK) {
        session_free(s);
        return NULL;
    }
    const char *order = ptodb_cli_value(cli, OPT_COMM_ORDER);
    if (order && session_set(s, SETTING_COMM_ORDER, order, "--comm-order") != PTODB_OK) {
        session_free(s);
        return NULL;
    }
    const char *play = ptodb_cli_value(cli, OPT_REPLAY_SCHEDULE);
    if (play) {
        if (sch) {
            fprintf(stderr, "ptodb: --replay-schedule: the file decides the schedule; --schedule cannot go with it\n");
            session_free(s);
            return NULL;
        }
        strbuf cmd = STRBUF_INIT;
        strbuf_printf(&cmd, "replay schedule %s", play);
        ptodb_status pst = session_execute(s, strbuf_str(&cmd));
        strbuf_free(&cmd);
        if (pst != PTODB_OK) {
            session_free(s);
            return NULL;
        }
    }
    char cwd[PATH_MAX];
    rc_options rc = {
        .no_init = cli->given[OPT_NX] > 0,
        .trust_local = cli->given[OPT_TRUST] > 0,
        .home = getenv("HOME"),
        .config_home = getenv("XDG_CONFIG_HOME"),
        .cwd = getcwd(cwd, sizeof cwd) ? cwd : ".",
    };
    rc_load(s, &rc);
    /* Breakpoints and displays persist per case only for a person's
     * session: --batch, --nx, and -x/-ex without an interactive prompt
     * (stdin not a terminal: scripts, tests, CI) neither restore nor save
     * one, so one run's breakpoints never stop another. */
    char state[PATH_MAX];
    int scripted = (cli->given[OPT_EX] || cli->given[OPT_COMMAND_FILE]) && !isatty(STDIN_FILENO);
    int persist = !cli->given[OPT_NX] && !cli->given[OPT_BATCH] && !scripted;
    persist = persist && startup_state_path(state, sizeof state, s) == 0;
    if (cli->npaths == 1 && session_open(s, cli->paths[0], rtol, atol) != PTODB_OK) {
        session_free(s);
        return NULL;
    }
    /* once the case is known: its folder may hold the state folder */
    if (persist && startup_state_ready(state, s, s) == 0)
        session_set_state_dir(s, state); /* restores the case's session */
    /* gdb's order: -x files and -ex commands in the order given, after the rc files. */
    for (int i = 0; i < cli->norder && !session_quit_requested(s); i++) {
        if (cli->order[i].id == OPT_COMMAND_FILE)
            session_source(s, cli->order[i].value);
        else if (cli->order[i].id == OPT_EX)
            session_execute(s, cli->order[i].value);
    }
    if (cli->given[OPT_TRACE] && !session_quit_requested(s)) {
        /* --trace FILE: `trace save FILE` once the -ex commands chose the pass */
        char cmd[PATH_MAX + 16];
        snprintf(cmd, sizeof cmd, "trace save %s", ptodb_cli_value(cli, OPT_TRACE));
        session_execute(s, cmd);
    }
    *exit_status = PTODB_EXIT_OK;
    return s;
}

int startup_history_path(char *buf, size_t size, const session *s)
{
    char dir[PATH_MAX];
    if (startup_state_path(dir, sizeof dir, NULL) != 0 || startup_state_ready(dir, s, NULL) != 0)
        return -1; /* quietly: history is a convenience (the session warned) */
    int n = snprintf(buf, size, "%s/history", dir);
    if (n <= 0 || (size_t)n >= size)
        return -1;
    /* readline opens it itself: a FIFO there would block the start */
    struct stat sb;
    return stat(buf, &sb) == 0 && !S_ISREG(sb.st_mode) ? -1 : 0;
}

/* Start-up shared by the REPL (ui/repl.c) and the TUI (ui/tui/). */
#include "config.h"

#include "startup.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/status.h"
#include "debug/rc.h"

/* $XDG_STATE_HOME/ptodb (default ~/.local/state/ptodb); -1 without a home. */
static int startup_state_dir(char *buf, size_t size)
{
    const char *state = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    int n;
    if (state && *state)
        n = snprintf(buf, size, "%s/ptodb", state);
    else if (home && *home)
        n = snprintf(buf, size, "%s/.local/state/ptodb", home);
    else
        return -1;
    return n > 0 && (size_t)n < size ? 0 : -1;
}

/* NULL leaves *out unchanged (not given). */
static int parse_tolerance(const char *text, const char *option, double *out)
{
    if (!text)
        return 0;
    char *end;
    double v = strtod(text, &end);
    if (!*text || *end || !(v >= 0)) {
        fprintf(stderr, "ptodb: %s needs a non-negative number, got '%s'\n", option, text);
        return -1;
    }
    *out = v;
    return 0;
}

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
    double rtol = -1, atol = -1;
    if (parse_tolerance(ptodb_cli_value(cli, OPT_RTOL), "--rtol", &rtol) != 0 ||
        parse_tolerance(ptodb_cli_value(cli, OPT_ATOL), "--atol", &atol) != 0)
        return NULL;
    session *s = session_new();
    if (out)
        session_set_output(s, out, ctx);
    if (hook)
        session_set_command_hook(s, hook, ctx, hook_names);
    char cwd[PATH_MAX];
    rc_options rc = {
        .no_init = cli->given[OPT_NX] > 0,
        .trust_local = cli->given[OPT_TRUST] > 0,
        .home = getenv("HOME"),
        .config_home = getenv("XDG_CONFIG_HOME"),
        .cwd = getcwd(cwd, sizeof cwd) ? cwd : ".",
    };
    rc_load(s, &rc);
    char state[PATH_MAX];
    if (startup_state_dir(state, sizeof state) == 0)
        session_set_state_dir(s, state);
    if (cli->npaths == 1 && session_open(s, cli->paths[0], rtol, atol) != PTODB_OK) {
        session_free(s);
        return NULL;
    }
    /* gdb's order: -x files and -ex commands as given, after the rc files. */
    for (int i = 0; i < cli->given[OPT_COMMAND_FILE] && !session_quit_requested(s); i++)
        session_source(s, cli->values[OPT_COMMAND_FILE][i]);
    for (int i = 0; i < cli->given[OPT_EX] && !session_quit_requested(s); i++)
        session_execute(s, cli->values[OPT_EX][i]);
    *exit_status = PTODB_EXIT_OK;
    return s;
}

int startup_history_path(char *buf, size_t size)
{
    const char *state = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    char dir[PATH_MAX];
    if (state && *state)
        snprintf(dir, sizeof dir, "%s/ptodb", state);
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.local/state/ptodb", home);
    else
        return -1;
    /* mkdir -p, quietly: history is a convenience. */
    for (char *p = dir + 1; *p; p++) {
        if (*p == '/') {
            *p = '\0';
            mkdir(dir, 0700);
            *p = '/';
        }
    }
    mkdir(dir, 0700);
    int n = snprintf(buf, size, "%s/history", dir);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

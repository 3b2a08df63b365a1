/* The plain command line: readline with history and completion when stdin
 * and stdout are terminals, plain line reading otherwise (scripts, pipes,
 * transcript tests). The session does all the work. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "base/status.h"
#include "debug/rc.h"
#include "debug/session.h"
#include "options.h"

int mode_repl(const ptodb_cli *cli);

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

/* readline's completion callbacks carry no user pointer. */
static session *completion_session;

static char *complete_generator(const char *text, int state)
{
    static int index;
    if (state == 0)
        index = 0;
    const char *c = session_complete_word(completion_session, rl_line_buffer, rl_point - (int)strlen(text),
                                          text, index++);
    return c ? strdup(c) : NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)end;
    switch (session_completion_kind(completion_session, rl_line_buffer, start)) {
    case COMPLETE_FILES:
        return NULL; /* readline's file-name completion */
    case COMPLETE_NOTHING:
        rl_attempted_completion_over = 1;
        return NULL;
    default:
        rl_attempted_completion_over = 1;
        return rl_completion_matches(text, complete_generator);
    }
}

/* $XDG_STATE_HOME/ptodb/history, default ~/.local/state/ptodb/history; the
 * folders are created. Returns 0 and fills buf, -1 without a home. */
static int history_path(char *buf, size_t size)
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

static void run_interactive(session *s)
{
    char hist[PATH_MAX];
    int have_hist = history_path(hist, sizeof hist) == 0;
    rl_readline_name = "ptodb";
    rl_attempted_completion_function = complete;
    completion_session = s;
    using_history();
    if (have_hist)
        read_history(hist);
    stifle_history((int)session_get_int(s, SETTING_HISTORY_SIZE));
    char *last = NULL;
    while (!session_quit_requested(s)) {
        char *line = readline(session_collecting(s) ? ">" : "(ptodb) ");
        if (!line) {
            fputs("quit\n", stdout);
            break;
        }
        if (*line && (!last || strcmp(last, line) != 0)) {
            add_history(line);
            free(last);
            last = strdup(line);
        }
        session_execute(s, line);
        free(line);
        fflush(stdout);
    }
    free(last);
    if (have_hist) {
        stifle_history((int)session_get_int(s, SETTING_HISTORY_SIZE));
        write_history(hist);
    }
    completion_session = NULL;
}

static void run_plain(session *s)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while (!session_quit_requested(s) && (n = getline(&line, &cap, stdin)) >= 0) {
        if (n > 0 && line[n - 1] == '\n')
            line[n - 1] = '\0';
        session_execute(s, line);
        fflush(stdout);
    }
    free(line);
}

int mode_repl(const ptodb_cli *cli)
{
    if (cli->npaths > 1) {
        fprintf(stderr, "ptodb: one case at a time (got %d paths)\n", cli->npaths);
        return PTODB_EXIT_USAGE;
    }
    double rtol = -1, atol = -1;
    if (parse_tolerance(ptodb_cli_value(cli, OPT_RTOL), "--rtol", &rtol) != 0 ||
        parse_tolerance(ptodb_cli_value(cli, OPT_ATOL), "--atol", &atol) != 0)
        return PTODB_EXIT_USAGE;
    session *s = session_new();
    char cwd[PATH_MAX];
    rc_options rc = {
        .no_init = cli->given[OPT_NX] > 0,
        .trust_local = cli->given[OPT_TRUST] > 0,
        .home = getenv("HOME"),
        .config_home = getenv("XDG_CONFIG_HOME"),
        .cwd = getcwd(cwd, sizeof cwd) ? cwd : ".",
    };
    rc_load(s, &rc);
    if (cli->npaths == 1 && session_open(s, cli->paths[0], rtol, atol) != PTODB_OK) {
        session_free(s);
        return PTODB_EXIT_USAGE;
    }
    /* gdb's order: -x files and -ex commands as given, after the rc files. */
    for (int i = 0; i < cli->given[OPT_COMMAND_FILE] && !session_quit_requested(s); i++)
        session_source(s, cli->values[OPT_COMMAND_FILE][i]);
    for (int i = 0; i < cli->given[OPT_EX] && !session_quit_requested(s); i++)
        session_execute(s, cli->values[OPT_EX][i]);
    if (!session_quit_requested(s)) {
        if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
            run_interactive(s);
        else
            run_plain(s);
    }
    session_free(s);
    return PTODB_EXIT_OK;
}

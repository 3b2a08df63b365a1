/* The plain command line: readline with history and completion when stdin
 * and stdout are terminals, plain line reading otherwise (scripts, pipes,
 * transcript tests). The session does all the work.
 *
 * At a terminal, an opened case is validated in the background as the
 * full-screen interface does (session_validate_start, `set auto-validate
 * off` skips it): what it says (the first failing pass, "All N passes pass
 * validation.") is printed above the prompt as it arrives, and `info
 * passes` fills in. Scripts and pipes are not validated in the background,
 * so what they print never depends on timing. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "base/status.h"
#include "debug/state/observers.h"
#include "debug/state/session.h"
#include "options.h"
#include "startup.h"

int mode_repl(const ptodb_cli *cli);

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

/* The SIGINT handler's only way to reach the session running a command. */
static session *interrupt_target;

static void on_sigint(int sig)
{
    (void)sig;
    if (interrupt_target)
        session_interrupt(interrupt_target);
}

/* Runs one command with Ctrl-C stopping it at the next statement boundary
 * (readline keeps its own handling while a line is being typed). */
static void execute_interruptibly(session *s, const char *line)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    interrupt_target = s;
    sigaction(SIGINT, &sa, &old);
    session_execute(s, line);
    sigaction(SIGINT, &old, NULL);
    interrupt_target = NULL;
}

/* ---- the background validation, at a terminal ---- */

static session *bg_session;
static int bg_at_prompt;      /* polling from readline's event hook */
static int bg_prompt_cleared; /* ... and the prompt line was cleared for output */

/* The session's output at a terminal: as the default, but output arriving
 * while readline shows the prompt first clears the prompt's line (it is
 * drawn again, with what was typed, after). */
static void repl_output(void *ctx, session_stream stream, const char *text, size_t len)
{
    (void)ctx;
    if (bg_at_prompt && !bg_prompt_cleared) {
#if defined(RL_READLINE_VERSION) && RL_READLINE_VERSION >= 0x0700
        rl_clear_visible_line();
#else
        fputs("\r\033[K", stdout);
#endif
        bg_prompt_cleared = 1;
    }
    FILE *f = stream == SESSION_ERR ? stderr : stdout;
    if (stream == SESSION_ERR)
        fflush(stdout);
    fwrite(text, 1, len, f);
    fflush(f);
}

/* Takes what the background validation has sent, if anything; at_prompt:
 * called while readline waits for a line. */
static void poll_validation(session *s, int at_prompt)
{
    int fd = session_validate_fd(s);
    if (fd < 0)
        return;
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, 0) <= 0)
        return;
    bg_at_prompt = at_prompt;
    bg_prompt_cleared = 0;
    session_validate_poll(s);
    bg_at_prompt = 0;
    if (bg_prompt_cleared) {
        rl_on_new_line();
        rl_redisplay();
    }
}

/* readline calls it about ten times a second while it waits for input. */
static int validation_event(void)
{
    /* not while a command asks its question (y or n) */
    if (bg_session && !session_query_prompt(bg_session))
        poll_validation(bg_session, 1);
    return 0;
}

static void validate_opened_case(session *s, void *ctx)
{
    (void)ctx;
    session_validate_start(s);
}

static void run_interactive(session *s)
{
    char hist[PATH_MAX];
    int have_hist = startup_history_path(hist, sizeof hist, s) == 0;
    rl_readline_name = "ptodb";
    rl_attempted_completion_function = complete;
    rl_completer_word_break_characters = (char *)SESSION_WORD_BREAKS;
    completion_session = s;
    using_history();
    if (have_hist)
        read_history(hist);
    stifle_history((int)session_get_int(s, SETTING_HISTORY_SIZE));
    /* the case given on the command line, validated in the background */
    session_set_output(s, repl_output, NULL);
    bg_session = s;
    rl_event_hook = validation_event;
    session_validate_start(s);
    /* a case opened at the prompt is validated as the first one is */
    session_observe(s, &(session_observer){.case_opened = validate_opened_case});
    char *last = NULL;
    /* lines typed at this prompt are a person's: a command may ask (gdb's query) */
    session_set_interactive(s, 1);
    while (!session_quit_requested(s)) {
        const char *query = session_query_prompt(s);
        if (!query)
            poll_validation(s, 0); /* what arrived while the last command ran */
        char *line = readline(query ? query : session_collecting(s) ? ">" : "(ptodb) ");
        if (!line) {
            fputs("quit\n", stdout);
            break;
        }
        /* an answer to a question is no command to recall */
        if (*line && !query && (!last || strcmp(last, line) != 0)) {
            add_history(line);
            free(last);
            last = strdup(line);
        }
        execute_interruptibly(s, line);
        free(line);
        fflush(stdout);
    }
    rl_event_hook = NULL;
    bg_session = NULL;
    session_validate_cancel(s);
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
        execute_interruptibly(s, line);
        fflush(stdout);
    }
    free(line);
}

int mode_repl(const ptodb_cli *cli)
{
    int status;
    session *s = startup_session(cli, NULL, NULL, &status);
    if (!s)
        return status;
    if (!session_quit_requested(s)) {
        if (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO))
            run_interactive(s);
        else
            run_plain(s);
    }
    session_free(s);
    return PTODB_EXIT_OK;
}

/* The one file of the TUI with globals. Each is forced by an API that
 * gives its callbacks no user pointer:
 *   the_tui        readline's callback interface (line handler, redisplay,
 *                  getc, completion) calls plain functions;
 *   feed           the bytes rl_getc_function hands readline: keys come from
 *                  curses (or a test script), not from readline's stream;
 *   sig_pipe, saved_tio, have_tio, reset_seq
 *                  signal handlers: the self-pipe that turns SIGWINCH and
 *                  SIGINT into events for the main loop, and what fatal
 *                  signals need to give the terminal back.
 * Nothing else in ui/tui/ is global. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "base/mem.h"
#include "tui.h"
#include "../startup.h"

static tui *the_tui;
static struct {
    unsigned char buf[256];
    int head, len;
} feed;
static int sig_pipe[2] = {-1, -1};
static struct termios saved_tio;
static int have_tio;
static char reset_seq[256];

/* ---- readline ---- */

static int feed_getc(FILE *stream)
{
    (void)stream;
    if (feed.len == 0)
        return 0; /* not asked for (the caller feeds first); NUL only sets the mark */
    int c = feed.buf[feed.head];
    feed.head = (feed.head + 1) % (int)sizeof feed.buf;
    feed.len--;
    return c;
}

static int feed_available(void)
{
    return feed.len > 0;
}

static void feed_push(int c)
{
    if (feed.len == (int)sizeof feed.buf)
        return;
    feed.buf[(feed.head + feed.len) % (int)sizeof feed.buf] = (unsigned char)c;
    feed.len++;
}

static void redisplay(void)
{
    tui *t = the_tui;
    if (!t)
        return;
    free(t->con.prompt);
    free(t->con.line);
    t->con.prompt = xstrdup(rl_display_prompt ? rl_display_prompt : "");
    t->con.line = xstrdup(rl_line_buffer ? rl_line_buffer : "");
    t->con.point = rl_point;
    t->dirty |= 1u << PANE_CONSOLE;
}

static void term_noop(int meta)
{
    (void)meta;
}

static void deprep_noop(void)
{
}

static const char *normal_prompt(tui *t)
{
    /* a question waits for its answer: the question is the prompt (gdb's query) */
    const char *q = session_query_prompt(t->s);
    return q ? q : session_collecting(t->s) ? ">" : "(ptodb) ";
}

static void line_handler(char *line)
{
    tui *t = the_tui;
    if (t->search_prompt) {
        t->search_prompt = 0;
        rl_set_prompt(normal_prompt(t));
        t->con.active = t->focus == PANE_CONSOLE;
        if (line)
            pane_source_search(t, line);
        free(line);
        redisplay();
        return;
    }
    if (!line) {
        tui_execute(t, "quit");
        return;
    }
    /* an answer to a question is no command to recall */
    if (*line && !session_query_prompt(t->s) && (!t->history_last || strcmp(t->history_last, line) != 0)) {
        add_history(line);
        free(t->history_last);
        t->history_last = xstrdup(line);
    }
    tui_execute(t, line);
    free(line);
    rl_set_prompt(normal_prompt(t));
    /* The console keeps the keyboard until Esc (cgdb); only a command
     * typed under a zoomed pane goes back to it. */
    if (t->focus != PANE_CONSOLE && !session_collecting(t->s))
        t->con.active = 0;
    redisplay();
}

/* The engine's candidates, then the TUI's own commands (layout, zoom,
 * focus), which the engine does not know. */
static char *complete_generator(const char *text, int state)
{
    /* rl_completion_matches calls with state 0 first, then 1, 2, ... */
    tui *t = the_tui;
    int start = rl_point - (int)strlen(text), only;
    if (state == 0)
        t->complete_engine = -1;
    tui_complete_word(rl_line_buffer, start, text, 0, &only);
    const char *c = NULL;
    if (!only && t->complete_engine < 0) {
        c = session_complete_word(t->s, rl_line_buffer, start, text, state);
        if (!c)
            t->complete_engine = state;
    }
    if (!c)
        c = tui_complete_word(rl_line_buffer, start, text, state - (only ? 0 : t->complete_engine), &only);
    return c ? strdup(c) : NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)end;
    int only;
    tui_complete_word(rl_line_buffer, start, text, 0, &only);
    if (only) {
        rl_attempted_completion_over = 1;
        return rl_completion_matches(text, complete_generator);
    }
    switch (session_completion_kind(the_tui->s, rl_line_buffer, start)) {
    case COMPLETE_FILES:
        return NULL;
    case COMPLETE_NOTHING:
        rl_attempted_completion_over = 1;
        return NULL;
    default:
        rl_attempted_completion_over = 1;
        return rl_completion_matches(text, complete_generator);
    }
}

/* Lists completions in the console (readline would write them to its
 * output stream, which here goes nowhere). */
static void show_matches(char **matches, int n, int maxlen)
{
    (void)maxlen;
    tui *t = the_tui;
    char buf[1024];
    size_t len = 0;
    for (int i = 1; i <= n; i++) {
        size_t m = strlen(matches[i]);
        if (len + m + 2 >= sizeof buf || (len && len + m + 2 > (size_t)t->cols)) {
            buf[len++] = '\n';
            tui_console_write(t, SESSION_OUT, buf, len);
            len = 0;
        }
        if (len) {
            buf[len++] = ' ';
            buf[len++] = ' ';
        }
        if (m >= sizeof buf - 3)
            m = sizeof buf - 3;
        memcpy(buf + len, matches[i], m);
        len += m;
    }
    buf[len++] = '\n';
    tui_console_write(t, SESSION_OUT, buf, len);
    redisplay();
}

static void readline_start(tui *t, int search, int key);
static void readline_cancel(tui *t);
static void readline_key(tui *t, int key);
static const tui_cmdline_ops readline_cmdline = {readline_start, readline_cancel, readline_key};

void tui_cmdline_init(tui *t)
{
    the_tui = t;
    t->cmdline = &readline_cmdline;
    /* readline must not touch the terminal or the signals: curses owns both. */
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    rl_change_environment = 0;
    rl_prep_term_function = term_noop;
    rl_deprep_term_function = deprep_noop;
    rl_redisplay_function = redisplay;
    rl_getc_function = feed_getc;
    rl_input_available_hook = feed_available;
    rl_outstream = fopen("/dev/null", "w");
    rl_readline_name = "ptodb";
    rl_attempted_completion_function = complete;
    rl_completer_word_break_characters = (char *)SESSION_WORD_BREAKS; /* $1, $name whole */
    rl_completion_display_matches_hook = show_matches;
    using_history();
    char hist[PATH_MAX];
    if (!t->headless && startup_history_path(hist, sizeof hist, t->s) == 0)
        read_history(hist);
    stifle_history((int)session_get_int(t->s, SETTING_HISTORY_SIZE));
    rl_callback_handler_install(normal_prompt(t), line_handler);
}

void tui_cmdline_save(tui *t)
{
    char hist[PATH_MAX];
    if (!t->headless && startup_history_path(hist, sizeof hist, t->s) == 0) {
        stifle_history((int)session_get_int(t->s, SETTING_HISTORY_SIZE));
        write_history(hist);
    }
}

void tui_cmdline_done(tui *t)
{
    rl_callback_handler_remove();
    if (rl_outstream && rl_outstream != stdout) {
        fclose(rl_outstream);
        rl_outstream = NULL;
    }
    free(t->history_last);
    t->history_last = NULL;
    clear_history();
    the_tui = NULL;
}

static void run_feed(void)
{
    while (feed.len > 0 && the_tui && !the_tui->quit)
        rl_callback_read_char();
}

static void readline_key(tui *t, int key)
{
    /* Editing keys call readline's commands directly: no escape sequences
     * to decode twice. */
    switch (key) {
    case TK_UP: rl_get_previous_history(1, 0); break;
    case TK_DOWN: rl_get_next_history(1, 0); break;
    case TK_LEFT: rl_backward_char(1, 0); break;
    case TK_RIGHT: rl_forward_char(1, 0); break;
    case TK_HOME: rl_beg_of_line(1, 0); break;
    case TK_END: rl_end_of_line(1, 0); break;
    case TK_DELETE: rl_delete(1, 0); break;
    case '\r': case '\n': feed_push('\n'); break;
    default:
        if (key >= TK_BASE)
            return;
        char buf[4];
        int n = canvas_utf8((uint32_t)key, buf);
        for (int i = 0; i < n; i++)
            feed_push((unsigned char)buf[i]);
    }
    if (feed.len)
        run_feed();
    else
        redisplay();
    t->dirty |= 1u << PANE_CONSOLE;
}

static void readline_start(tui *t, int search, int key)
{
    t->search_prompt = search;
    rl_set_prompt(search ? "/" : normal_prompt(t));
    rl_replace_line("", 0);
    rl_point = 0;
    t->con.active = 1;
    redisplay();
    if (key)
        readline_key(t, key);
}

static void readline_cancel(tui *t)
{
    rl_callback_sigcleanup(); /* ends an incremental search in progress */
    rl_replace_line("", 0);
    rl_point = 0;
    t->search_prompt = 0;
    rl_set_prompt(normal_prompt(t));
    t->con.active = t->focus == PANE_CONSOLE;
    redisplay();
}

void tui_interrupt(tui *t)
{
    if (t->busy) {
        /* Stops the command at the next statement boundary. */
        session_interrupt(t->s);
        t->interrupted = 1;
        t->dirty |= TUI_DIRTY_STATUS;
        return;
    }
    if (session_validate_fd(t->s) >= 0) {
        session_validate_cancel(t->s); /* Ctrl-C stops the background validation */
        tui_take_redraw(t);
        return;
    }
    if (t->con.active) {
        tui_cmdline_cancel(t);
        tui_console_write(t, SESSION_OUT, "^C\n", 3);
    }
}

/* ---- signals ---- */

static void on_event_signal(int sig)
{
    int saved = errno;
    char c = sig == SIGWINCH ? 'W' : 'I';
    if (sig_pipe[1] >= 0 && write(sig_pipe[1], &c, 1) < 0) {
        /* A full pipe already holds an event of this kind: nothing lost. */
    }
    errno = saved;
}

static void on_fatal_signal(int sig)
{
    /* Only async-signal-safe calls: write(2) and tcsetattr(3). */
    size_t n = strlen(reset_seq);
    if (n && write(STDOUT_FILENO, reset_seq, n) < 0) {
        /* nothing more can be done */
    }
    if (have_tio)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tio);
    /* SA_RESETHAND restored the default action: deliver it again. */
    raise(sig);
}

static const int fatal_signals[] = {SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

int tui_signals_install(tui *t, int restore_tty)
{
    (void)t;
    if (pipe2(sig_pipe, O_NONBLOCK | O_CLOEXEC) != 0)
        return -1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_event_signal;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGWINCH, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    if (restore_tty) {
        have_tio = tcgetattr(STDIN_FILENO, &saved_tio) == 0;
        sa.sa_handler = on_fatal_signal;
        sa.sa_flags = (int)SA_RESETHAND;
        for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
            sigaction(fatal_signals[i], &sa, NULL);
    }
    return sig_pipe[0];
}

void tui_signals_set_reset(const char *seq)
{
    snprintf(reset_seq, sizeof reset_seq, "%s", seq);
}

void tui_signals_remove(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = SIG_DFL;
    sigaction(SIGWINCH, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        sigaction(fatal_signals[i], &sa, NULL);
    for (int i = 0; i < 2; i++) {
        if (sig_pipe[i] >= 0)
            close(sig_pipe[i]);
        sig_pipe[i] = -1;
    }
    reset_seq[0] = '\0';
    have_tio = 0;
}

int tui_signals_next(void)
{
    char c;
    if (sig_pipe[0] >= 0 && read(sig_pipe[0], &c, 1) == 1)
        return c;
    return 0;
}

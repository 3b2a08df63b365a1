/* ptodb's full-screen mode: start-up (shared with the REPL), then an event
 * loop on the terminal's input and the signal self-pipe; or, with
 * PTODB_TUI_SCRIPT set, keys read from a file and the virtual screen
 * written to standard output at each `screen` line (the screen tests). */
#include "base/input_file.h"
#include "config.h"

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../modes.h"
#include "../options.h"
#include "../startup.h"
#include "base/status.h"
#include "base/strbuf.h"
#include "debug/state/observers.h"
#include "tui.h"

int mode_tui(const ptodb_cli *cli);
int mode_repl(const ptodb_cli *cli); /* ui/repl.c */

static void console_out(void *ctx, session_stream stream, const char *text, size_t len)
{
    tui *t = ctx;
    tui_console_write(t, stream, text, len);
    if (t->busy && t->flush)
        t->flush(t);
}

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Keeps the screen alive during a long command: output and the "running"
 * status line show at most 25 times a second; Ctrl-C and resizes are
 * noted (the engine is synchronous; they take effect between commands). */
static void flush_now(tui *t)
{
    int ev;
    while ((ev = tui_signals_next()) != 0) {
        if (ev == 'I')
            tui_interrupt(t);
        else if (ev == 'W')
            t->resize_pending = 1;
    }
    long long now = now_ns();
    if (t->last_flush_ns && now - t->last_flush_ns < 40000000LL && t->busy)
        return;
    t->last_flush_ns = now;
    tui_draw(t);
    screen_show(t);
}

static void validate_opened_case(session *s, void *ctx)
{
    (void)ctx;
    session_validate_start(s);
}

/* The engine calls this every few thousand statements of a long command:
 * the progress goes to the status line, Ctrl-C to session_interrupt. */
static void poll_progress(void *ctx, const char *progress)
{
    tui *t = ctx;
    snprintf(t->progress, sizeof t->progress, "%s", progress ? progress : "");
    t->dirty |= TUI_DIRTY_STATUS;
    flush_now(t);
}

static void handle_key(tui *t, int key)
{
    if (key == TK_MOUSE)
        screen_mouse(t);
    else if (key == TK_RESIZE)
        screen_resize(t, 0, 0);
    else if (key >= 0)
        tui_key(t, key);
    tui_draw(t);
}

static void run_terminal(tui *t, int sigfd)
{
    tui_draw(t);
    screen_show(t);
    while (!t->quit) {
        /* The background validation's pipe, while it runs (-1: poll skips it). */
        int bgfd = session_validate_fd(t->s);
        struct pollfd fds[3] = {{STDIN_FILENO, POLLIN, 0}, {sigfd, POLLIN, 0}, {bgfd, POLLIN, 0}};
        if (poll(fds, 3, -1) < 0 && errno != EINTR)
            break;
        if (bgfd >= 0 && fds[2].revents) {
            session_validate_poll(t->s);
            tui_take_redraw(t);
        }
        if (fds[0].revents & (POLLHUP | POLLERR) && !(fds[0].revents & POLLIN))
            break; /* the terminal went away */
        /* Keys first: what was typed before a Ctrl-C is what it clears. */
        int key;
        while (!t->quit && (key = screen_getkey(t)) != -1)
            handle_key(t, key);
        int ev;
        while ((ev = tui_signals_next()) != 0) {
            if (ev == 'W')
                t->resize_pending = 1;
            else if (ev == 'I')
                tui_interrupt(t);
        }
        if (t->resize_pending) {
            t->resize_pending = 0;
            screen_resize(t, 0, 0);
        }
        tui_draw(t);
        screen_show(t);
    }
}

/* ---- the screen-dump mode ---- */

static const struct {
    const char *name;
    int key;
} key_names[] = {
    {"Up", TK_UP},       {"Down", TK_DOWN},   {"Left", TK_LEFT}, {"Right", TK_RIGHT},
    {"PgUp", TK_PGUP},   {"PgDn", TK_PGDN},   {"Home", TK_HOME}, {"End", TK_END},
    {"Del", TK_DELETE},  {"BS", 0x7f},        {"Enter", '\r'},   {"Tab", '\t'},
    {"BTab", TK_BTAB},   {"Esc", 27},         {"Space", ' '},    {"lt", '<'},
};

/* Parses "<Name>" at s; returns its length and sets *key, 0 when not one. */
static int parse_key_name(const char *s, int *key)
{
    const char *end = strchr(s, '>');
    if (s[0] != '<' || !end)
        return 0;
    int n = (int)(end - s - 1);
    const char *name = s + 1;
    for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++) {
        if ((int)strlen(key_names[i].name) == n && !strncmp(name, key_names[i].name, (size_t)n)) {
            *key = key_names[i].key;
            return n + 2;
        }
    }
    if (n >= 2 && n <= 3 && name[0] == 'F' && name[1] >= '1' && name[1] <= '9') {
        int f = atoi(name + 1);
        if (f >= 1 && f <= 12) {
            *key = TK_F(f);
            return n + 2;
        }
    }
    if (n == 3 && name[0] == 'C' && name[1] == '-') {
        *key = TK_CTRL(name[2]);
        return n + 2;
    }
    return 0;
}

static void script_keys(tui *t, const char *line)
{
    size_t len = strlen(line);
    for (size_t i = 0; i < len && !t->quit;) {
        int key;
        int n = parse_key_name(line + i, &key);
        if (n == 0) {
            uint32_t cp;
            n = canvas_utf8_decode(line + i, len - i, &cp);
            key = (int)cp;
        }
        i += (size_t)n;
        if (key == TK_CTRL('c'))
            tui_interrupt(t); /* as the SIGINT the terminal would send */
        else
            handle_key(t, key);
    }
}

/* Waits for the background validation to end, so that scripted screens do
 * not depend on how fast the worker is. */
static void wait_validation(tui *t)
{
    int fd;
    while ((fd = session_validate_fd(t->s)) >= 0) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, -1) < 0 && errno != EINTR)
            break;
        session_validate_poll(t->s);
    }
    tui_take_redraw(t);
}

static int run_script(tui *t, FILE *script)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int screens = 0;
    tui_draw(t);
    while (!t->quit && (n = getline(&line, &cap, script)) >= 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        int rows, cols;
        if (n == 0 || line[0] == '#')
            continue;
        /* "screen now": the screen as it is, verdicts or not (the benchmark's
         * first frame); every other line first waits for the background
         * validation, so that screens do not depend on the worker's speed. */
        int now = !strcmp(line, "screen now");
        if (!now && strncmp(line, "resize ", 7) != 0)
            wait_validation(t);
        if (now || !strcmp(line, "screen")) {
            tui_draw(t);
            screen_show(t);
            printf("--- screen %d (%dx%d)\n", ++screens, t->cols, t->rows);
            screen_dump(t, stdout);
        } else if (sscanf(line, "resize %d %d", &cols, &rows) == 2) {
            screen_resize(t, rows, cols);
            tui_draw(t);
        } else {
            script_keys(t, line);
            /* ":CMD" and "/PATTERN" lines are whole commands: Enter them. */
            if (line[0] == ':' || line[0] == '/')
                handle_key(t, '\r');
        }
    }
    free(line);
    fflush(stdout);
    return 0;
}

static void print_console(tui *t, FILE *out)
{
    for (int i = 0; i < t->con.nlines; i++)
        fprintf(out, "%s\n", t->con.text[i] + 1);
    if (t->con.partial_len)
        fprintf(out, "%s\n", t->con.partial);
}

static void tui_free(tui *t)
{
    canvas_free(&t->cv);
    tui_lines_free(&t->src.file);
    tui_lines_free(&t->irdiff.diff_lines);
    free(t->irdiff.text);
    for (int k = 0; k < 2; k++) {
        tui_lines_free(&t->cmp.file[k]);
        free(t->cmp.text[k]);
    }
    free(t->chain.text);
    pane_console_free(&t->con);
    if (t->s)
        session_free(t->s);
}

int mode_tui(const ptodb_cli *cli)
{
    const char *script_path = getenv("PTODB_TUI_SCRIPT");
    int headless = script_path && *script_path;
    if (!headless && !screen_term_usable()) {
        fprintf(stderr, "ptodb: the terminal (TERM=%s) cannot show the full-screen interface; "
                        "using the plain command line\n",
                getenv("TERM") ? getenv("TERM") : "");
        return mode_repl(cli);
    }
    /* Only the character type: numbers keep their C form (1.5, not 1,5). */
    setlocale(LC_CTYPE, "");
    FILE *script = NULL;
    char why[300];
    if (headless && !(script = input_file_fopen(script_path, why, sizeof why))) {
        fprintf(stderr, "ptodb: PTODB_TUI_SCRIPT %s: %s\n", script_path, why);
        return PTODB_EXIT_USAGE;
    }
    tui t;
    memset(&t, 0, sizeof t);
    t.headless = headless;
    t.src.pass = t.irdiff.pass = t.passes.seen = t.cmp.shown = -1;
    t.tl.col = -1;
    t.tl.core = 1; /* AIC: the timeline cursor starts on the first cross-core row */
    t.focus = t.return_focus = PANE_SOURCE;
    t.layout = LAYOUT_SRC;
    t.cursor_y = -1;
    t.utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
    int status;
    /* --compare A B: A is the case, B is what `compare` runs against */
    ptodb_cli one = *cli;
    const char *compare_b = NULL;
    if (cli->given[OPT_COMPARE] && cli->npaths == 2) {
        compare_b = cli->paths[1];
        one.npaths = 1;
    }
    t.s = startup_session_hooked(&one, console_out, &t, tui_command_hook, tui_command_names, &status);
    if (!t.s || session_quit_requested(t.s)) {
        /* Nothing to show full-screen: say what happened, plainly. */
        print_console(&t, t.s ? stdout : stderr);
        tui_free(&t);
        if (script)
            fclose(script);
        return t.s ? PTODB_EXIT_OK : status;
    }
    canvas_init(&t.cv, 24, 80);
    int sigfd = tui_signals_install(&t, !headless);
    if (sigfd < 0 || screen_open(&t, headless ? 24 : 0, headless ? 80 : 0) != 0) {
        tui_signals_remove();
        print_console(&t, stderr);
        tui_free(&t);
        if (script)
            fclose(script);
        return PTODB_EXIT_USAGE;
    }
    tui_cmdline_init(&t);
    if (compare_b && session_has_case(t.s)) {
        strbuf cmd = STRBUF_INIT;
        strbuf_printf(&cmd, "compare %s", compare_b);
        tui_execute(&t, strbuf_str(&cmd));
        strbuf_free(&cmd);
    }
    /* the command line is a person's (a screen test's keys stand for one) */
    session_set_interactive(t.s, 1);
    session_validate_start(t.s);
    /* a case opened from the command line is validated in the background
     * as the one given at start is */
    session_observe(t.s, &(session_observer){.case_opened = validate_opened_case});
    if (headless) {
        run_script(&t, script);
        fclose(script);
    } else {
        t.flush = flush_now;
        session_set_poll(t.s, poll_progress, &t);
        run_terminal(&t, sigfd);
        session_set_poll(t.s, NULL, NULL);
    }
    session_validate_cancel(t.s);
    tui_cmdline_save(&t);
    tui_cmdline_done(&t);
    screen_close(&t);
    tui_signals_remove();
    tui_free(&t);
    return PTODB_EXIT_OK;
}

/* The command loop (the commands floor's bottom, docs/notes-debug.md): a line
 * to its command (built-in, user-defined or the front end's), `source`d
 * files and user commands (define, document), gdb's questions, and what the
 * commands floor does when run control reports a stop: hook-stop and a
 * breakpoint's commands. The handlers are reached through the table
 * session_new gives script_attach (debugger.c), never named here, so a
 * handler may run a line in turn. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/input_file.h"
#include "base/mem.h"
#include "debug/cmdtable.h"
#include "debug/state/observers.h"
#include "debug/script.h"
#include "debug/state/session_impl.h"
#include "debug/run/stop.h"

static int hook_knows(const session *s, const char *word, size_t len)
{
    for (size_t i = 0; s->hook_names && s->hook_names[i]; i++)
        if (strlen(s->hook_names[i]) == len && memcmp(s->hook_names[i], word, len) == 0)
            return 1;
    return 0;
}

/* ---- questions (gdb's query) ------------------------------------------------------ */

void session_set_interactive(session *s, int on)
{
    s->interactive = on != 0;
}

const char *session_query_prompt(const session *s)
{
    return s->query;
}

int session_ask(session *s, const char *question, const char *yes_command)
{
    /* a person answers a line typed at the prompt, never one of a script,
     * a user command or a breakpoint's commands */
    if (!s->interactive || s->depth > 0 || s->in_hook || s->draining || s->quiet) {
        session_printf(s, "%s(y or [n]) [answered N; input not from terminal]\n", question);
        return 0;
    }
    free(s->query);
    free(s->query_yes);
    strbuf q = STRBUF_INIT;
    strbuf_printf(&q, "%s(y or [n]) ", question);
    s->query = strbuf_detach(&q);
    s->query_yes = xstrdup(yes_command);
    return 1;
}

/* The line typed at a question: y or yes, n, no or nothing; anything else
 * asks again, as gdb does. */
static void answer_query(session *s, const char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    size_t n = strlen(line);
    while (n && isspace((unsigned char)line[n - 1]))
        n--;
    int yes = (n == 1 && tolower((unsigned char)line[0]) == 'y') || (n == 3 && strncasecmp(line, "yes", 3) == 0);
    int no = n == 0 || (n == 1 && tolower((unsigned char)line[0]) == 'n') || (n == 2 && strncasecmp(line, "no", 2) == 0);
    if (!yes && !no) {
        session_printf(s, "Please answer y or [n].\n");
        return;
    }
    char *command = s->query_yes;
    free(s->query);
    s->query = NULL;
    s->query_yes = NULL;
    if (yes) {
        s->confirmed = 1;
        session_execute(s, command);
        s->confirmed = 0;
    }
    free(command);
}

const char *session_complete_command(const session *s, const char *prefix, int state)
{
    size_t n = strlen(prefix);
    int seen = 0;
    for (int i = 0; i < CMD_COUNT; i++)
        if (strncmp(cmd_table[i].name, prefix, n) == 0 && seen++ == state)
            return cmd_table[i].name;
    for (size_t i = 0; i < s->nuser_cmds; i++)
        if (strncmp(s->user_cmds[i].name, prefix, n) == 0 && seen++ == state)
            return s->user_cmds[i].name;
    for (size_t i = 0; s->hook_names && s->hook_names[i]; i++)
        if (strncmp(s->hook_names[i], prefix, n) == 0 && seen++ == state)
            return s->hook_names[i];
    return NULL;
}

/* ---- user commands ------------------------------------------------------------ */

user_cmd *session_find_user_cmd(const session *s, const char *name, size_t len)
{
    for (size_t i = 0; i < s->nuser_cmds; i++)
        if (strlen(s->user_cmds[i].name) == len && memcmp(s->user_cmds[i].name, name, len) == 0)
            return &s->user_cmds[i];
    return NULL;
}

static void substitute_args(const char *line, char **words, int nwords, strbuf *out)
{
    for (const char *p = line; *p;) {
        if (strncmp(p, "$argc", 5) == 0) {
            strbuf_printf(out, "%d", nwords);
            p += 5;
        } else if (strncmp(p, "$arg", 4) == 0 && isdigit((unsigned char)p[4])) {
            int k = p[4] - '0';
            if (k < nwords)
                strbuf_puts(out, words[k]);
            p += 5;
        } else {
            strbuf_putc(out, *p++);
        }
    }
}

ptodb_status session_run_user_cmd(session *s, user_cmd *u, const char *args)
{
    char *words[SESSION_MAX_USER_ARGS];
    char buf[4096];
    int nwords = session_split_words(args, words, SESSION_MAX_USER_ARGS, buf, sizeof buf);
    if (nwords < 0) {
        session_errorf(s, "%s: at most %d arguments", u->name, SESSION_MAX_USER_ARGS);
        return PTODB_ERR_USAGE;
    }
    if (s->depth >= SESSION_MAX_SOURCE_DEPTH) {
        session_errorf(s, "%s: max user-command depth (%d) exceeded", u->name,
                       SESSION_MAX_SOURCE_DEPTH);
        return PTODB_ERR_USAGE;
    }
    /* The body may redefine u while it runs: work on a copy of the lines. */
    size_t nlines = u->nlines;
    char **lines = xcalloc(nlines ? nlines : 1, sizeof *lines);
    for (size_t i = 0; i < nlines; i++)
        lines[i] = xstrdup(u->lines[i]);
    s->frames[s->depth++] = (script_frame){NULL, 0};
    ptodb_status st = PTODB_OK;
    for (size_t i = 0; i < nlines && !s->quit; i++) {
        strbuf line = STRBUF_INIT;
        substitute_args(lines[i], words, nwords, &line);
        st = session_execute(s, strbuf_str(&line));
        strbuf_free(&line);
        if (st != PTODB_OK)
            break; /* gdb stops a user command at its first error */
    }
    s->depth--;
    for (size_t i = 0; i < nlines; i++)
        free(lines[i]);
    free(lines);
    return st;
}

/* ---- collection of define/document bodies ------------------------------------- */

static void finish_collect(session *s)
{
    char *body = strbuf_detach(&s->collect_body);
    user_cmd *u = session_find_user_cmd(s, s->collect_name, strlen(s->collect_name));
    if (s->collecting == COLLECT_DEFINE) {
        if (!u) {
            s->user_cmds = xreallocarray(s->user_cmds, s->nuser_cmds + 1, sizeof *s->user_cmds);
            u = &s->user_cmds[s->nuser_cmds++];
            memset(u, 0, sizeof *u);
            u->name = xstrdup(s->collect_name);
        } else {
            for (size_t i = 0; i < u->nlines; i++)
                free(u->lines[i]);
            free(u->lines);
            u->lines = NULL;
            u->nlines = 0;
        }
        for (char *line = body, *nl; *line; line = nl + 1) {
            nl = strchr(line, '\n');
            if (!nl)
                break;
            u->lines = xreallocarray(u->lines, u->nlines + 1, sizeof *u->lines);
            u->lines[u->nlines++] = xstrndup(line, (size_t)(nl - line));
        }
    } else if (s->collecting == COLLECT_COMMANDS) {
        breakpoint *b = bp_find(s, s->collect_bp);
        if (b) {
            for (size_t i = 0; i < b->ncommands; i++)
                free(b->commands[i]);
            free(b->commands);
            b->commands = NULL;
            b->ncommands = 0;
            for (char *line = body, *nl; *line; line = nl + 1) {
                nl = strchr(line, '\n');
                if (!nl)
                    break;
                b->commands = xreallocarray(b->commands, b->ncommands + 1, sizeof *b->commands);
                b->commands[b->ncommands++] = xstrndup(line, (size_t)(nl - line));
            }
        }
    } else if (u) {
        free(u->doc);
        u->doc = xstrdup(body);
    }
    free(body);
    free(s->collect_name);
    s->collect_name = NULL;
    s->collecting = COLLECT_NONE;
}

void session_begin_collect(session *s, collect_kind kind, const char *name)
{
    s->collecting = kind;
    free(s->collect_name);
    s->collect_name = xstrdup(name);
    strbuf_clear(&s->collect_body);
    s->collect_depth = 0;
}

static int is_end_line(const char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    if (strncmp(line, "end", 3) != 0)
        return 0;
    line += 3;
    while (isspace((unsigned char)*line))
        line++;
    return *line == '\0';
}

/* ---- dispatch -------------------------------------------------------------------- */

/* 1 when line is `run` or `start` (by any name cmd_lookup accepts). */
static int is_restart(const char *line)
{
    int id = cmd_lookup_line(line);
    return id == CMD_RUN || id == CMD_START;
}

ptodb_status session_execute(session *s, const char *line)
{
    if (s->query && s->depth == 0 && !s->in_hook) {
        answer_query(s, line); /* the line answers the question asked */
        return PTODB_OK;
    }
    if (s->depth == 0 && !s->in_hook)
        s->interrupted = 0; /* a Ctrl-C at the prompt must not stop the next run */
    if (s->collecting != COLLECT_NONE) {
        if (is_end_line(line)) {
            finish_collect(s);
            return PTODB_OK;
        }
        const char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        strbuf_puts(&s->collect_body, s->collecting != COLLECT_DOCUMENT ? p : line);
        strbuf_putc(&s->collect_body, '\n');
        return PTODB_OK;
    }
    const char *p = line;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '\0' || *p == '#')
        return PTODB_OK;
    const char *w = p;
    /* "p/x t": a command's format letters follow its name directly */
    while (*p && !isspace((unsigned char)*p) && !(*p == '/' && p > w))
        p++;
    size_t wlen = (size_t)(p - w);
    while (isspace((unsigned char)*p))
        p++;
    /* Trailing blanks are not part of the arguments. */
    size_t alen = strlen(p);
    while (alen && isspace((unsigned char)p[alen - 1]))
        alen--;
    char *args = xstrndup(p, alen);

    ptodb_status st;
    user_cmd *u = session_find_user_cmd(s, w, wlen);
    if (u) {
        st = session_run_user_cmd(s, u, args);
    } else {
        int id = cmd_lookup(w, wlen);
        if (id == -2) {
            char names[512];
            cmd_ambiguous_names(w, wlen, names, sizeof names);
            session_errorf(s, "Ambiguous command \"%.*s\": %s.", (int)wlen, w, names);
            st = PTODB_ERR_USAGE;
        } else if (id < 0 && s->hook && hook_knows(s, w, wlen) && s->hook(s->hook_ctx, w)) {
            st = PTODB_OK;
        } else if (id < 0) {
            session_errorf(s, "Undefined command: \"%.*s\".  Try \"help\".", (int)wlen, w);
            st = PTODB_ERR_USAGE;
        } else {
            st = s->handlers[id](s, args);
        }
    }
    free(args);
    /* A breakpoint's commands ended in continue (or another resume): run it
     * now that the stop is over, one after the other, not nested. */
    if (!s->in_hook && !s->draining) {
        s->draining = 1;
        int restarts = 0;
        while (s->pending_resume && !s->quit && !s->interrupted) {
            char *cmd = s->pending_resume;
            s->pending_resume = NULL;
            /* `run` in the commands of a breakpoint the run reaches would
             * start over for ever (a hang in --batch): stop after a few */
            if (is_restart(cmd) && ++restarts > SESSION_MAX_RESTARTS) {
                session_errorf(s, "Breakpoint commands restarted the run %d times in a row; not running \"%s\" again.",
                               SESSION_MAX_RESTARTS, cmd);
                free(cmd);
                st = PTODB_ERR_USAGE;
                break;
            }
            session_execute(s, cmd);
            free(cmd);
        }
        free(s->pending_resume);
        s->pending_resume = NULL;
        s->draining = 0;
    }
    return st;
}

ptodb_status session_source(session *s, const char *path)
{
    if (s->depth >= SESSION_MAX_SOURCE_DEPTH) {
        session_errorf(s, "%s: max source depth (%d) exceeded", path, SESSION_MAX_SOURCE_DEPTH);
        return PTODB_ERR_USAGE;
    }
    char why[300];
    FILE *f = input_file_fopen(path, why, sizeof why);
    if (!f) {
        session_errorf(s, "%s: %s", path, why);
        return PTODB_ERR_IO;
    }
    char *file = xstrdup(path);
    s->frames[s->depth++] = (script_frame){file, 0};
    ptodb_status first = PTODB_OK;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while (!s->quit && (n = getline(&line, &cap, f)) >= 0) {
        s->frames[s->depth - 1].line++;
        if (n > 0 && line[n - 1] == '\n')
            line[--n] = '\0';
        if (memchr(line, '\0', (size_t)n)) {
            session_errorf(s, "NUL byte in line");
            if (first == PTODB_OK)
                first = PTODB_ERR_USAGE;
            continue;
        }
        ptodb_status st = session_execute(s, line);
        if (st != PTODB_OK && first == PTODB_OK)
            first = st;
    }
    free(line);
    fclose(f);
    if (s->collecting != COLLECT_NONE) {
        session_errorf(s, "missing \"end\" for \"%s\"", s->collect_name);
        strbuf_clear(&s->collect_body);
        free(s->collect_name);
        s->collect_name = NULL;
        s->collecting = COLLECT_NONE;
        if (first == PTODB_OK)
            first = PTODB_ERR_USAGE;
    }
    s->depth--;
    free(file);
    return first;
}

ptodb_status session_run_command(session *s, int id, const char *args)
{
    return s->handlers[id](s, args);
}

/* ---- what the commands floor does at a stop ------------------------------------------------- */

/* A command that resumes the run, forward or backward (continue, next,
 * step, finish, until, run, start, the reverse-* commands, seek, restart):
 * gdb ends a breakpoint's command list at any command that resumes
 * execution, reverse execution included. Without the reverse ones a list
 * `reverse-step` `step` on a breakpoint's line stopped there again and ran
 * itself forever (a fuzz input of tests/fuzz/regress/repl). */
static int resumes(const char *line)
{
    int id = cmd_lookup_line(line);
    return id == CMD_CONTINUE || id == CMD_NEXT || id == CMD_STEP || id == CMD_FINISH || id == CMD_UNTIL ||
           id == CMD_RUN || id == CMD_START || id == CMD_REVERSE_STEP || id == CMD_REVERSE_NEXT ||
           id == CMD_REVERSE_FINISH || id == CMD_REVERSE_CONTINUE || id == CMD_SEEK || id == CMD_RESTART;
}

/* One hit's commands. As in gdb, a command that resumes the run ends the
 * list (what follows it is not run) and takes effect after this stop is
 * over: session_execute runs it once every hit's commands ran. */
static void run_commands(session *s, const stop_hit *h)
{
    for (size_t i = 0; i < h->ncommands; i++) {
        if (resumes(h->commands[i])) {
            if (!s->pending_resume)
                s->pending_resume = xstrdup(h->commands[i]);
            break;
        }
        session_execute(s, h->commands[i]);
        if (!s->run.active || s->quit)
            break;
    }
}

static void run_hook_stop(session *s)
{
    user_cmd *u = session_find_user_cmd(s, "hook-stop", 9);
    if (!u)
        return;
    session_run_user_cmd(s, u, "");
}

static void on_before_stop(session *s, void *ctx)
{
    (void)ctx;
    run_hook_stop(s);
}

static void on_breakpoint_hit(session *s, const stop_hit *hit, void *ctx)
{
    (void)ctx;
    run_commands(s, hit);
}

/* A built-in command by name, as the table dispatches it, outside the loop
 * (persist.c's restore of a saved record). */
static ptodb_status run_builtin(session *s, const char *word, size_t len, const char *args)
{
    int id = cmd_lookup(word, len);
    if (id < 0)
        return PTODB_ERR_NOT_FOUND;
    return s->handlers[id](s, args);
}

void script_attach(session *s, const cmd_handler *handlers)
{
    s->handlers = handlers;
    session_set_runner(s, session_execute, run_builtin);
    session_observe(s, &(session_observer){.before_stop = on_before_stop, .breakpoint_hit = on_breakpoint_hit});
}

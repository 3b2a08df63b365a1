#include "debug/expr.h"
#include "base/input_file.h"
#include "debug/persist.h"
#include "debug/session_impl.h"
#include "exec/schedule.h"

#include <ctype.h>
#include <strings.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/number.h"
#include "debug/cmdtable.h"
#include "tensor/tensor.h"

typedef enum { SK_BOOL, SK_INT, SK_DOUBLE, SK_STRING, SK_PATHLIST } setting_kind;

static const struct {
    const char *name;
    setting_kind kind;
    const char *def;
    const char *help;
} setting_info[SETTING_COUNT] = {
#define SETTING(id, name, kind, def, help) {name, SK_##kind, def, help},
#include "debug/settings.def"
#undef SETTING
};

static void default_output(void *ctx, session_stream stream, const char *text, size_t len)
{
    (void)ctx;
    FILE *f = stream == SESSION_ERR ? stderr : stdout;
    if (stream == SESSION_ERR)
        fflush(stdout); /* keep the two streams in order when both go to one file */
    fwrite(text, 1, len, f);
    /* Line by line, so a long run's output shows up while it runs. */
    if (stream == SESSION_ERR || (len && text[len - 1] == '\n'))
        fflush(f);
}

session *session_new(void)
{
    session *s = xcalloc(1, sizeof *s);
    s->out = default_output;
    for (int i = 0; i < SETTING_COUNT; i++) {
        if (session_set(s, (session_setting)i, setting_info[i].def, "default") != PTODB_OK)
            ptodb_fatal("bad default for setting %s", setting_info[i].name);
    }
    return s;
}

static void free_user_cmd(user_cmd *u)
{
    free(u->name);
    for (size_t i = 0; i < u->nlines; i++)
        free(u->lines[i]);
    free(u->lines);
    free(u->doc);
}

void session_close_case(session *s);

void session_free(session *s)
{
    if (!s)
        return;
    session_close_case(s);
    session_persist_free(s);
    bp_free_all(s);
    display_free_all(s);
    expr_free_all(s);
    free(s->ops);
    exec_schedule_free(s->replay);
    free(s->pending_resume);
    free(s->query);
    free(s->query_yes);
    free(s->bisect_head);
    free(s->bisect_why);
    for (int i = 0; i < SETTING_COUNT; i++) {
        free(s->settings[i].text);
        free(s->settings[i].origin);
    }
    for (size_t i = 0; i < s->nuser_cmds; i++)
        free_user_cmd(&s->user_cmds[i]);
    free(s->user_cmds);
    free(s->collect_name);
    strbuf_free(&s->collect_body);
    free(s->status_line);
    free(s->heat_cells);
    free(s->heat_outside);
    free(s->complete_buf);
    free(s->state_dir);
    free(s);
}

void session_set_output(session *s, session_output_fn fn, void *ctx)
{
    s->out = fn ? fn : default_output;
    s->out_ctx = fn ? ctx : NULL;
}

int session_failed_validations(const session *s)
{
    int n = 0;
    for (size_t i = 0; s->have_case && s->results && i < s->kase.npasses; i++) {
        const pass_result *r = &s->results[i];
        int bad = r->ran && r->failed;
        for (int k = 0; r->ran && !r->failed && k < r->nout; k++)
            bad |= !r->ok[k];
        n += bad;
    }
    return n;
}

void session_set_command_hook(session *s, session_command_hook fn, void *ctx, const char *const *names)
{
    s->hook = fn;
    s->hook_ctx = ctx;
    s->hook_names = names;
}

static int hook_knows(const session *s, const char *word, size_t len)
{
    for (size_t i = 0; s->hook_names && s->hook_names[i]; i++)
        if (strlen(s->hook_names[i]) == len && memcmp(s->hook_names[i], word, len) == 0)
            return 1;
    return 0;
}

void session_interrupt(session *s)
{
    s->interrupted = 1;
}

void session_set_poll(session *s, session_poll_fn fn, void *ctx)
{
    s->poll = fn;
    s->poll_ctx = ctx;
}

int session_collecting(const session *s)
{
    return s->collecting != COLLECT_NONE;
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

int session_quit_requested(const session *s)
{
    return s->quit;
}

/* ---- settings -------------------------------------------------------------- */

const char *session_setting_name(session_setting id)
{
    return (unsigned)id < SETTING_COUNT ? setting_info[id].name : "?";
}

static int parse_bool(const char *v, long *out)
{
    static const char *const on[] = {"on", "1", "yes", "true", "enable"};
    static const char *const off[] = {"off", "0", "no", "false", "disable"};
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++) {
        if (strcasecmp(v, on[i]) == 0) { *out = 1; return 0; }
        if (strcasecmp(v, off[i]) == 0) { *out = 0; return 0; }
    }
    return -1;
}

/* What `set` accepts for each integer setting: sizes that later arithmetic
 * (list ranges, history lengths, element counts) cannot overflow. */
static void int_setting_range(session_setting id, long long *lo, long long *hi)
{
    *lo = 0;
    switch (id) {
    case SETTING_LISTSIZE: *hi = 100000; break;
    case SETTING_HISTORY_SIZE: *hi = 1000000; break;
    default: *hi = 1000000000; break;
    }
}

ptodb_status session_set(session *s, session_setting id, const char *text, const char *origin)
{
    setting_value nv = {0};
    const char *name = setting_info[id].name;
    char *end = NULL;
    errno = 0;
    switch (setting_info[id].kind) {
    case SK_BOOL:
        if (parse_bool(text, &nv.i) != 0) {
            session_errorf(s, "\"on\" or \"off\" expected for %s, got \"%s\"", name, text);
            return PTODB_ERR_USAGE;
        }
        break;
    case SK_INT:
        if (id == SETTING_MAX_TENSOR_BYTES) {
            uint64_t b;
            if (parse_byte_size(text, 0, (uint64_t)1 << 62, &b) != 0) {
                session_errorf(s, "a number of bytes from 0 to 4611686018427387904 (suffix K, M, G or T) "
                                  "expected for %s, got \"%s\"", name, text);
                return PTODB_ERR_USAGE;
            }
            nv.i = (long)b;
        } else {
            long long lo, hi, v;
            int_setting_range(id, &lo, &hi);
            if (parse_int_range(text, lo, hi, &v) != 0) {
                session_errorf(s, "an integer from %lld to %lld expected for %s, got \"%s\"", lo, hi, name, text);
                return PTODB_ERR_USAGE;
            }
            nv.i = (long)v;
        }
        break;
    case SK_DOUBLE:
        nv.d = strtod(text, &end);
        if (!*text || *end || errno || !(nv.d >= 0) || nv.d > 1e300) {
            session_errorf(s, "a non-negative number expected for %s, got \"%s\"", name, text);
            return PTODB_ERR_USAGE;
        }
        break;
    case SK_STRING:
        if (id == SETTING_REF && strcmp(text, "torch2") != 0 && strcmp(text, "torch1.13") != 0) {
            session_errorf(s, "ref must be torch2 or torch1.13, got \"%s\"", text);
            return PTODB_ERR_USAGE;
        }
        if (id == SETTING_SEMANTICS && exec_semantics_parse(text) < 0) {
            session_errorf(s, "semantics must be device or ref, got \"%s\"", text);
            return PTODB_ERR_USAGE;
        }
        if (id == SETTING_SCHEDULE) {
            int kind;
            uint64_t seed;
            char why[256];
            if (exec_schedule_parse_name(text, &kind, &seed, why, sizeof why) != 0) {
                session_errorf(s, "schedule: %s", why);
                return PTODB_ERR_USAGE;
            }
        }
        if (id == SETTING_COMM_ORDER && strcmp(text, "program") != 0 && strcmp(text, "ready") != 0) {
            session_errorf(s, "comm-order must be program or ready, got \"%s\"", text);
            return PTODB_ERR_USAGE;
        }
        if (id == SETTING_EXEC_DIRECTION && strcmp(text, "forward") != 0 && strcmp(text, "reverse") != 0) {
            session_errorf(s, "exec-direction must be forward or reverse, got \"%s\"", text);
            return PTODB_ERR_USAGE;
        }
        if (id == SETTING_BREAKPOINT_PENDING && strcmp(text, "on") != 0 && strcmp(text, "off") != 0 &&
            strcmp(text, "auto") != 0) {
            session_errorf(s, "breakpoint pending must be on, off or auto, got \"%s\"", text);
            return PTODB_ERR_USAGE;
        }
        break;
    case SK_PATHLIST:
        break;
    }
    free(s->settings[id].text);
    free(s->settings[id].origin);
    nv.text = xstrdup(text);
    nv.origin = xstrdup(origin);
    s->settings[id] = nv;
    /* the limit is process-wide: a new session's default must not undo
     * --max-tensor-bytes, which startup then records here */
    if (id == SETTING_MAX_TENSOR_BYTES && strcmp(origin, "default") != 0)
        tensor_set_max_bytes((uint64_t)nv.i);
    s->redraw |= SESSION_REDRAW_STATUS;
    return PTODB_OK;
}

int session_match_setting(const char *text, const char **rest)
{
    int best = -1;
    size_t best_len = 0;
    for (int i = 0; i < SETTING_COUNT; i++) {
        size_t n = strlen(setting_info[i].name);
        if (strncmp(text, setting_info[i].name, n) == 0 &&
            (text[n] == '\0' || isspace((unsigned char)text[n])) && n > best_len) {
            best = i;
            best_len = n;
        }
    }
    if (best >= 0 && rest) {
        const char *r = text + best_len;
        while (isspace((unsigned char)*r))
            r++;
        *rest = r;
    }
    return best;
}

const char *session_setting_help(session_setting id)
{
    return setting_info[id].help;
}

const char *session_complete_setting(const session *s, const char *prefix, int state)
{
    (void)s;
    size_t n = strlen(prefix);
    int seen = 0;
    for (int i = 0; i < SETTING_COUNT; i++)
        if (strncmp(setting_info[i].name, prefix, n) == 0 && seen++ == state)
            return setting_info[i].name;
    return NULL;
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

/* ---- words ------------------------------------------------------------------ */

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
            st = cmd_table[id].handler(s, args);
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

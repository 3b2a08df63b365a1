/* The session object (the state floor's top, docs/notes-debug.md): its life,
 * the case it has open (opening announces it and restores its saved
 * breakpoints and displays, closing saves them and tells the floors above,
 * session_notify_case_closing) and the settings' values. */
#include "debug/state/expr.h"
#include "base/input_file.h"
#include "debug/state/persist.h"
#include "debug/state/session_impl.h"
#include "exec/schedule.h"

#include <ctype.h>
#include <strings.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/number.h"
#include "ir/parse.h"
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

session *session_state_new(void)
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

/* ---- the case ------------------------------------------------------------------ */

static void free_passes(session *s)
{
    if (!s->passes)
        return;
    for (size_t i = 0; i < s->kase.npasses; i++) {
        free(s->passes[i].source);
        free(s->passes[i].canonical);
        free(s->passes[i].first_error);
        if (s->passes[i].module)
            ir_module_free(s->passes[i].module);
    }
    free(s->passes);
    s->passes = NULL;
}

static void session_close_case(session *s)
{
    if (!s->have_case)
        return;
    session_autosave(s);
    /* the run, its results, the displays, a compare go with the case */
    session_notify_case_closing(s);
    /* Breakpoints and displays belong to the case: saved above, restored
     * with the next case's own. */
    bp_free_all(s);
    free_passes(s);
    case_free(&s->kase);
    s->have_case = 0;
}

/* The shortest %g form that reads back as v ("0.05", not 0.050000000000000003). */
static void shortest_double(double v, char *buf, size_t size)
{
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

ptodb_status session_open(session *s, const char *path, double rtol, double atol)
{
    case_options opt = {0};
    if (rtol >= 0) {
        opt.has_rtol = 1;
        opt.rtol = rtol;
    }
    if (atol >= 0) {
        opt.has_atol = 1;
        opt.atol = atol;
    }
    diag_sink sink;
    diag_sink_init(&sink, 20);
    case_info c;
    memset(&c, 0, sizeof c);
    ptodb_status st = case_open(path, &opt, &c, &sink);
    session_print_diags(s, &sink);
    diag_sink_free(&sink);
    if (st == PTODB_OK && c.npasses == 0) {
        session_errorf(s, "%s: no pass files found", path);
        st = PTODB_ERR_NOT_FOUND;
    }
    if (st != PTODB_OK) {
        case_free(&c); /* the case open before, if any, stays open */
        return st;
    }
    session_close_case(s);
    s->kase = c;
    s->have_case = 1;
    s->passes = xcalloc(s->kase.npasses, sizeof *s->passes);
    for (size_t i = 0; i < s->kase.npasses; i++)
        s->passes[i].changed = -1;
    s->cur_pass = 0;
    s->list_line = 0;
    char buf[64];
    shortest_double(s->kase.rtol.value, buf, sizeof buf);
    session_set(s, SETTING_RTOL, buf, s->kase.rtol.where ? s->kase.rtol.where : "case");
    shortest_double(s->kase.atol.value, buf, sizeof buf);
    session_set(s, SETTING_ATOL, buf, s->kase.atol.where ? s->kase.atol.where : "case");
    session_mark_redraw(s, SESSION_REDRAW_ALL);
    session_printf(s, "Opened %s: %zu passes, %zu inputs, %zu golden outputs.\n", s->kase.root,
                   s->kase.npasses, s->kase.ninputs, s->kase.noutputs);
    const case_pass *p = &s->kase.passes[0];
    session_printf(s, "Pass %d: %s (%s)\n", p->index, p->name, p->path);
    session_autorestore(s);
    session_notify_case_opened(s);
    return PTODB_OK;
}

/* ---- the session ---------------------------------------------------------------- */

const op_fn *session_ops(session *s)
{
    if (!s->ops) {
        s->ops = xcalloc(IR_OP_COUNT, sizeof *s->ops);
        exec_ops_init(s->ops);
    }
    return s->ops;
}

void session_free(session *s)
{
    if (!s)
        return;
    session_close_case(s);
    session_persist_free(s);
    bp_free_all(s);
    session_notify_session_freeing(s);
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
    session_observers_free(s);
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


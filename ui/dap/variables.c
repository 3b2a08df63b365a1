/* The DAP server's read requests: threads (the cores), stack frames,
 * scopes, variables with tensors paged along dim 0, setVariable, evaluate
 * and dataBreakpointInfo. Values come from the session's views and from
 * expr_eval; elements are formatted by tensor_fmt. */
#include "config.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/mem.h"
#include "dap_impl.h"
#include "debug/state/expr.h"
#include "tensor/tensor_fmt.h"
#include "debug/run/timetravel.h"
#include "debug/present/view.h"

static const char *const core_names[] = {"host", "aic", "aiv0", "aiv1"};

/* Statistics are computed inline up to this many elements; beyond, a lazy
 * "statistics" child computes them when the user opens it, so listing the
 * frame of a 10^8-element tensor costs nothing. */
#define INLINE_STATS_MAX ((int64_t)1 << 16)
/* Children of one variables response at most (the client pages the rest). */
#define PAGE_MAX 1000

static int stopped(dap_server *d, json_t *req)
{
    if (!d->s || dap_select_live(d) < 0) {
        dap_fail(d, req, "notStopped: the program is not stopped");
        return 0;
    }
    return 1;
}

/* ---- threads, frames, scopes ------------------------------------------------------------------ */

enum { DAP_MAX_CORES = 4 * 64 }; /* CASE_MAX_RANKS ranks of 4 cores */

void dap_req_threads(dap_server *d, json_t *req, json_t *args)
{
    (void)args;
    /* the four cores, always, with stable ids (core + 1); a multi-rank
     * case's four per rank (rank * 4 + core + 1) */
    json_t *threads = json_array();
    int sel, P = d->s ? view_nranks(d->s, &sel) : 0;
    view_core cores[DAP_MAX_CORES];
    int n = d->s ? view_cores(d->s, cores, DAP_MAX_CORES) : 0;
    if (n > DAP_MAX_CORES)
        n = DAP_MAX_CORES;
    for (int k = 0; k < (P ? P : 1); k++)
        for (int c = 0; c < 4; c++) {
            const char *func = NULL;
            for (int i = 0; i < n; i++)
                if (P ? cores[i].rank == k && strcasecmp(cores[i].name, core_names[c]) == 0 : i == c)
                    func = cores[i].func;
            char name[128], who[32];
            if (P)
                snprintf(who, sizeof who, "rank %d %s", k, core_names[c]);
            else
                snprintf(who, sizeof who, "%s", core_names[c]);
            if (func)
                snprintf(name, sizeof name, "%s (%s)", who, func);
            else
                snprintf(name, sizeof name, "%s", who);
            json_array_append_new(threads, json_pack("{s:i, s:o}", "id", k * 4 + c + 1, "name", dap_str(name)));
        }
    dap_respond(d, req, json_pack("{s:o}", "threads", threads));
}

void dap_req_stack_trace(dap_server *d, json_t *req, json_t *args)
{
    json_t *tid = json_object_get(args, "threadId");
    int thread = json_is_integer(tid) ? (int)json_integer_value(tid) - 1 : -1, sel;
    int nthreads = 4 * (d->s && view_nranks(d->s, &sel) ? view_nranks(d->s, &sel) : 1);
    if (thread < 0 || thread >= nthreads) {
        dap_fail(d, req, "stackTrace: unknown threadId");
        return;
    }
    if (!stopped(d, req))
        return;
    int core;
    if (dap_use_thread(d, thread, &core) != 0) {
        dap_fail(d, req, "stackTrace: unknown threadId");
        return;
    }
    long start = (long)json_integer_value(json_object_get(args, "startFrame"));
    long levels = (long)json_integer_value(json_object_get(args, "levels"));
    enum { MAXF = 256 };
    view_frame frames[MAXF];
    int n = view_frames(d->s, core, frames, MAXF);
    if (n > MAXF)
        n = MAXF;
    json_t *out = json_array();
    for (long i = start < 0 ? 0 : start; i < n && (levels <= 0 || i < start + levels); i++) {
        char abs[PATH_MAX];
        const char *path = dap_abs_path(frames[i].file, abs, sizeof abs);
        const char *base = strrchr(path, '/');
        char pos[128];
        json_array_append_new(out, json_pack("{s:i, s:o, s:{s:o, s:o}, s:i, s:i, s:b}", "id",
                                             dap_frame_id(thread, (int)i), "name",
                                             dap_str(frames[i].func ? frames[i].func : "?"), "source", "name",
                                             dap_str(base ? base + 1 : path), "path", dap_str(path), "line",
                                             frames[i].line - 1 + d->line_base, "column",
                                             (frames[i].col > 0 ? frames[i].col : 1) - 1 + d->column_base,
                                             "canRestart", tt_frame_start(d->s, core, (int)i, pos, sizeof pos)));
    }
    dap_respond(d, req, json_pack("{s:o, s:i}", "stackFrames", out, "totalFrames", n));
}

void dap_req_scopes(dap_server *d, json_t *req, json_t *args)
{
    int core, level;
    json_t *fid = json_object_get(args, "frameId");
    if (!json_is_integer(fid) || dap_frame_unpack((long)json_integer_value(fid), &core, &level) != 0) {
        dap_fail(d, req, "scopes: unknown frameId");
        return;
    }
    if (!stopped(d, req))
        return;
    int c;
    if (dap_use_thread(d, core, &c) != 0) {
        dap_fail(d, req, "scopes: unknown frameId");
        return;
    }
    view_var vars[1];
    int n = view_frame_vars(d->s, c, level, vars, 0);
    int ref = dap_ref_new(d, REF_LOCALS, core, level, NULL);
    dap_respond(d, req, json_pack("{s:[{s:s, s:s, s:i, s:i, s:b}]}", "scopes", "name", "Locals",
                                  "presentationHint", "locals", "variablesReference", ref, "namedVariables", n,
                                  "expensive", 0));
}

/* ---- values ------------------------------------------------------------------------------------ */

/* "bf16 [16, 64]" plus, when cheap, "min .. max .. mean .. nan 0 inf 0". */
static void tensor_summary(const tensor *t, int with_stats, strbuf *sb)
{
    if (t->ndim == 0) {
        char buf[64];
        tensor_fmt_element(t, NULL, 0, buf, sizeof buf);
        strbuf_puts(sb, buf);
        return;
    }
    tensor_fmt_header(t, sb);
    if (with_stats && tensor_numel(t) <= INLINE_STATS_MAX) {
        strbuf_puts(sb, "  ");
        tensor_fmt_stats(t, sb);
    }
}

/* A variable object for tensor t named name, evaluated as expr in (core, level). */
static json_t *tensor_variable(dap_server *d, const char *name, const char *expr, int core, int level,
                               const tensor *t)
{
    strbuf v = STRBUF_INIT, type = STRBUF_INIT;
    tensor_summary(t, 1, &v);
    if (t->ndim > 0)
        tensor_fmt_header(t, &type);
    else
        strbuf_puts(&type, dtype_name(t->dtype));
    json_t *o = json_pack("{s:o, s:o, s:o, s:o}", "name", dap_str(name), "value", dap_str(strbuf_str(&v)),
                          "type", dap_str(strbuf_str(&type)), "evaluateName", dap_str(expr));
    strbuf_free(&v);
    strbuf_free(&type);
    if (t->ndim > 0) {
        int ref = dap_ref_new(d, REF_TENSOR, core, level, expr);
        json_object_set_new(o, "variablesReference", json_integer(ref));
        json_t *mem = dap_memory_reference(d, t, ref);
        if (mem)
            json_object_set_new(o, "memoryReference", mem);
        json_object_set_new(o, "indexedVariables", json_integer(t->shape[0]));
        json_object_set_new(o, "namedVariables", json_integer(tensor_numel(t) > INLINE_STATS_MAX ? 1 : 0));
        json_object_set_new(o, "presentationHint", json_pack("{s:s}", "kind", "data"));
    } else {
        json_object_set_new(o, "variablesReference", json_integer(0));
    }
    return o;
}

/* Evaluates expr in (core, level): a new reference, or NULL with err set. */
/* The frame the REPL's commands act on is put back afterwards: looking
 * at a variable or hovering over a name changes nothing the user did. */
static tensor *eval_in(dap_server *d, int core, int level, const char *expr, strbuf *err)
{
    int was_core, was_level;
    int had = d->s && view_selection(d->s, &was_core, &was_level);
    if (core >= 0 && dap_select_frame(d, core, level) != 0) {
        strbuf_puts(err, "that frame is gone");
        return NULL;
    }
    tensor *t = NULL;
    strbuf note = STRBUF_INIT;
    ptodb_status st = expr_eval(d->s, expr, &t, &note, err);
    strbuf_free(&note);
    if (had && core >= 0 && (core != was_core || level != was_level))
        dap_select_frame(d, was_core, was_level);
    return st == PTODB_OK ? t : NULL;
}

/* An upper bound of a variable object's JSON size: its strings escaped at
 * worst (\uXXXX: 6 bytes a byte, ENSURE_ASCII) plus the keys, numbers and
 * punctuation of the largest object tensor_variable makes (under 200). */
static size_t variable_bytes(json_t *o)
{
    size_t n = 200;
    static const char *const keys[] = {"name", "value", "type", "evaluateName"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *v = json_string_value(json_object_get(o, keys[i]));
        if (v)
            for (const unsigned char *p = (const unsigned char *)v; *p; p++)
                n += *p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\' ? 6 : 1;
    }
    return n;
}

static void locals(dap_server *d, json_t *req, const dap_ref *r)
{
    int c = 0;
    if (dap_use_thread(d, r->core, &c) != 0)
        c = -1; /* the thread is gone: no variables */
    int n = view_frame_vars(d->s, c, r->level, NULL, 0);
    view_var *vars = xcalloc((size_t)(n > 0 ? n : 1), sizeof *vars);
    n = view_frame_vars(d->s, c, r->level, vars, n);
    json_t *out = json_array();
    int core = r->core, level = r->level; /* r moves when refs grow */
    size_t bytes = 0;
    for (int i = 0; i < n && bytes < DAP_RESPONSE_CAP; i++) {
        json_t *o;
        if (vars[i].t)
            o = tensor_variable(d, vars[i].name, vars[i].name, core, level, vars[i].t);
        else
            o = json_pack("{s:o, s:o, s:o, s:i}", "name", dap_str(vars[i].name), "value", dap_str(vars[i].text),
                          "evaluateName", dap_str(vars[i].name), "variablesReference", 0);
        bytes += variable_bytes(o);
        json_array_append_new(out, o);
    }
    free(vars);
    dap_respond(d, req, json_pack("{s:o}", "variables", out));
}

static void tensor_children(dap_server *d, json_t *req, json_t *args, const dap_ref *r)
{
    int core = r->core, level = r->level;
    char *expr = xstrdup(r->expr);
    strbuf err = STRBUF_INIT;
    tensor *t = eval_in(d, core, level, expr, &err);
    if (!t) {
        dap_fail(d, req, "%s", strbuf_str(&err));
        goto out;
    }
    const char *filter = json_string_value(json_object_get(args, "filter"));
    json_int_t start = json_integer_value(json_object_get(args, "start"));
    json_int_t count = json_integer_value(json_object_get(args, "count"));
    json_t *out = json_array();
    size_t bytes = 0;
    if ((!filter || strcmp(filter, "named") == 0) && tensor_numel(t) > INLINE_STATS_MAX && t->ndim > 0) {
        int ref = dap_ref_new(d, REF_STATS, core, level, expr);
        json_array_append_new(out, json_pack("{s:s, s:s, s:i, s:{s:b}}", "name", "statistics", "value",
                                             "(computed when opened)", "variablesReference", ref,
                                             "presentationHint", "lazy", 1));
    }
    if ((!filter || strcmp(filter, "indexed") == 0) && t->ndim > 0) {
        int64_t n0 = t->shape[0];
        if (start < 0)
            start = 0;
        if (count <= 0 || count > PAGE_MAX)
            count = PAGE_MAX;
        for (int64_t i = start; i < n0 && i < start + count && bytes < DAP_RESPONSE_CAP; i++) {
            char name[32], sub[32];
            snprintf(name, sizeof name, "[%lld]", (long long)i);
            snprintf(sub, sizeof sub, "[%lld]", (long long)i);
            strbuf child_expr = STRBUF_INIT;
            strbuf_printf(&child_expr, "%s%s", expr, sub);
            json_t *o;
            if (t->ndim == 1) {
                char buf[64];
                tensor_fmt_element(t, &i, 0, buf, sizeof buf);
                o = json_pack("{s:s, s:s, s:o, s:i}", "name", name, "value", buf, "evaluateName",
                              dap_str(strbuf_str(&child_expr)), "variablesReference", 0);
            } else {
                tensor *row = NULL;
                strbuf e2 = STRBUF_INIT;
                if (tensor_apply_subscript(t, sub, &row, &e2) != PTODB_OK) {
                    o = json_pack("{s:s, s:o, s:i}", "name", name, "value", dap_str(strbuf_str(&e2)),
                                  "variablesReference", 0);
                } else {
                    o = tensor_variable(d, name, strbuf_str(&child_expr), core, level, row);
                    tensor_unref(row);
                }
                strbuf_free(&e2);
            }
            strbuf_free(&child_expr);
            bytes += variable_bytes(o);
            json_array_append_new(out, o);
        }
    }
    tensor_unref(t);
    dap_respond(d, req, json_pack("{s:o}", "variables", out));
out:
    strbuf_free(&err);
    free(expr);
}

static void stats_child(dap_server *d, json_t *req, const dap_ref *r)
{
    int core = r->core, level = r->level;
    char *expr = xstrdup(r->expr);
    strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
    tensor *t = eval_in(d, core, level, expr, &err);
    if (!t) {
        dap_fail(d, req, "%s", strbuf_str(&err));
    } else {
        tensor_fmt_stats(t, &sb);
        tensor_unref(t);
        dap_respond(d, req, json_pack("{s:[{s:s, s:s, s:i}]}", "variables", "name", "statistics", "value",
                                      strbuf_str(&sb), "variablesReference", 0));
    }
    strbuf_free(&err);
    strbuf_free(&sb);
    free(expr);
}

void dap_req_variables(dap_server *d, json_t *req, json_t *args)
{
    if (!stopped(d, req))
        return;
    const dap_ref *r = dap_ref_get(d, (long)json_integer_value(json_object_get(args, "variablesReference")));
    if (!r) {
        dap_fail(d, req, "variables: unknown variablesReference (the program ran since)");
        return;
    }
    switch (r->kind) {
    case REF_LOCALS: locals(d, req, r); break;
    case REF_TENSOR: tensor_children(d, req, args, r); break;
    case REF_STATS: stats_child(d, req, r); break;
    }
}

char *dap_var_expr(dap_server *d, long ref, const char *name, int *core, int *level)
{
    const dap_ref *r = dap_ref_get(d, ref);
    if (!r || !name)
        return NULL;
    *core = r->core;
    *level = r->level;
    strbuf sb = STRBUF_INIT;
    if (r->kind == REF_LOCALS)
        strbuf_puts(&sb, name);
    else if (r->kind == REF_TENSOR && name[0] == '[')
        strbuf_printf(&sb, "%s%s", r->expr, name);
    else {
        strbuf_free(&sb);
        return NULL;
    }
    return strbuf_detach(&sb);
}

void dap_req_set_variable(dap_server *d, json_t *req, json_t *args)
{
    if (!stopped(d, req))
        return;
    const char *name = json_string_value(json_object_get(args, "name"));
    const char *new_value = json_string_value(json_object_get(args, "value"));
    int core, level;
    char *lhs = dap_var_expr(d, (long)json_integer_value(json_object_get(args, "variablesReference")), name,
                             &core, &level);
    if (!lhs || !new_value || strchr(new_value, '\n')) {
        dap_fail(d, req, "setVariable: unknown variable");
        free(lhs);
        return;
    }
    char line[512];
    if (dap_select_frame(d, core, level) != 0 || dap_execute(d, "set var %s = %s", lhs, new_value) != 0) {
        dap_fail(d, req, "%s", dap_last_line(d, line, sizeof line));
        free(lhs);
        return;
    }
    strbuf err = STRBUF_INIT, sb = STRBUF_INIT;
    tensor *t = eval_in(d, core, level, lhs, &err);
    if (t) {
        tensor_summary(t, 1, &sb);
        tensor_unref(t);
    }
    dap_respond(d, req, json_pack("{s:o}", "value", dap_str(t ? strbuf_str(&sb) : new_value)));
    strbuf_free(&err);
    strbuf_free(&sb);
    free(lhs);
    dap_refs_clear(d);
    if (d->client_invalidated)
        dap_event(d, "invalidated", json_pack("{s:[s]}", "areas", "variables"));
}

/* ---- evaluate --------------------------------------------------------------------------------- */

static uint64_t run_steps(dap_server *d)
{
    const view_tl_event *ev;
    size_t n = view_timeline(d->s, &ev);
    return n ? ev[n - 1].step + n : 0;
}

static int frame_arg(json_t *args, int *core, int *level)
{
    json_t *fid = json_object_get(args, "frameId");
    if (json_is_integer(fid) && dap_frame_unpack((long)json_integer_value(fid), core, level) == 0)
        return 1;
    *core = *level = -1;
    return 0;
}

void dap_req_evaluate(dap_server *d, json_t *req, json_t *args)
{
    const char *expr = json_string_value(json_object_get(args, "expression"));
    const char *context = json_string_value(json_object_get(args, "context"));
    if (!expr || !d->s) {
        dap_fail(d, req, d->s ? "evaluate: no expression" : "evaluate before launch");
        return;
    }
    if (!context)
        context = "hover";
    int core, level;
    frame_arg(args, &core, &level);
    size_t n = strlen(expr);
    if (strncmp(expr, "viz(", 4) == 0 && n > 5 && expr[n - 1] == ')') {
        char *inner = xstrdup(expr + 4);
        inner[strlen(inner) - 1] = '\0';
        if (core >= 0)
            dap_select_frame(d, core, level);
        dap_eval_viz(d, req, inner);
        free(inner);
        return;
    }
    if (strcmp(context, "repl") == 0) {
        /* a ptodb command, exactly as typed at (ptodb) */
        if (strchr(expr, '\n')) {
            dap_fail(d, req, "one command per evaluate");
            return;
        }
        /* whether the command ran the program: the machine's statement
         * count (the timeline's last step) or the run's state moved */
        uint64_t steps_before = run_steps(d);
        int pass_before = view_run_pass(d->s), fin_before = view_run_finished(d->s);
        int bad = dap_execute(d, "%s", expr);
        const char *text = strbuf_str(&d->cap);
        int ran = run_steps(d) != steps_before || view_run_pass(d->s) != pass_before ||
                  view_run_finished(d->s) != fin_before;
        if (bad && !ran) {
            char line[512];
            dap_fail(d, req, "%s", dap_last_line(d, line, sizeof line));
            return;
        }
        dap_respond(d, req, json_pack("{s:o, s:i}", "result", dap_text_capped(text), "variablesReference", 0));
        if (session_quit_requested(d->s)) {
            /* `quit` typed in the debug console ends the session */
            if (!d->exited) {
                d->exited = 1;
                dap_event(d, "terminated", NULL);
            }
            d->done = 1;
            return;
        }
        if (ran) {
            /* the command ran the program: the client must learn where it is */
            strbuf_clear(&d->cap);
            dap_refs_clear(d);
            d->exited = 0;
            dap_after_run(d, "step");
        }
        return;
    }
    /* hover, watch, variables, clipboard: an expression, which has no side
     * effect (expr.h's grammar has no assignment and no calls of commands) */
    strbuf err = STRBUF_INIT;
    tensor *t = eval_in(d, core, level, expr, &err);
    if (!t) {
        dap_fail(d, req, "%s", strbuf_str(&err));
        strbuf_free(&err);
        return;
    }
    strbuf_free(&err);
    json_t *body;
    if (strcmp(context, "clipboard") == 0) {
        strbuf sb = STRBUF_INIT;
        /* the full value, up to what a response may carry */
        long max = tensor_numel(t) > 4096 ? 4096 : 0;
        tensor_fmt_grid(t, max, 3, &sb);
        body = json_pack("{s:o, s:i}", "result", dap_text_capped(strbuf_str(&sb)), "variablesReference", 0);
        strbuf_free(&sb);
    } else {
        json_t *v = tensor_variable(d, expr, expr, core, level, t);
        body = json_pack("{s:O, s:O}", "result", json_object_get(v, "value"), "variablesReference",
                         json_object_get(v, "variablesReference"));
        if (json_object_get(v, "type"))
            json_object_set(body, "type", json_object_get(v, "type"));
        if (json_object_get(v, "indexedVariables"))
            json_object_set(body, "indexedVariables", json_object_get(v, "indexedVariables"));
        if (json_object_get(v, "memoryReference"))
            json_object_set(body, "memoryReference", json_object_get(v, "memoryReference"));
        json_decref(v);
    }
    tensor_unref(t);
    dap_respond(d, req, body);
}

void dap_req_data_breakpoint_info(dap_server *d, json_t *req, json_t *args)
{
    const char *name = json_string_value(json_object_get(args, "name"));
    json_t *ref = json_object_get(args, "variablesReference");
    if (!d->s || !name) {
        dap_fail(d, req, "dataBreakpointInfo: no name");
        return;
    }
    int core = -1, level = -1;
    char *expr = json_is_integer(ref) && json_integer_value(ref) > 0
                     ? dap_var_expr(d, (long)json_integer_value(ref), name, &core, &level)
                     : xstrdup(name);
    strbuf err = STRBUF_INIT;
    tensor *t = expr ? eval_in(d, core, level, expr, &err) : NULL;
    json_t *body;
    if (!t || t->ndim == 0) {
        body = json_pack("{s:n, s:o}", "dataId", "description",
                         dap_str(t      ? "a scalar: watch a tensor"
                                 : expr ? strbuf_str(&err)
                                        : "unknown variablesReference (the program ran since)"));
    } else {
        char id[1024], desc[1100];
        snprintf(id, sizeof id, "tensor:%s", expr);
        snprintf(desc, sizeof desc, "%s (any element)", expr);
        body = json_pack("{s:o, s:o, s:[s,s,s], s:b}", "dataId", dap_str(id), "description", dap_str(desc),
                         "accessTypes", "write",
                         "read", "readWrite", "canPersist", 0);
    }
    if (t)
        tensor_unref(t);
    strbuf_free(&err);
    free(expr);
    dap_respond(d, req, body);
}

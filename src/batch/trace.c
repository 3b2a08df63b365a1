/* Recording a statement trace of one pass (trace.h). The setup mirrors
 * runpass_file (parse, resolve, lower, bind fresh inputs) but drives the
 * machine one step at a time so each statement's bindings can be read. */
#include "batch/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "exec/inspect.h"
#include "exec/machine.h"
#include "exec/program.h"
#include "ir/parse.h"
#include "ir/resolve.h"

struct trace_count {
    char *key;
    uint32_t n;
};

static uint64_t hash_str(const char *s, uint32_t salt)
{
    uint64_t h = 1469598103934665603ull ^ salt;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* The count of earlier records with this key, then one more. */
static uint32_t bump(trace *t, const char *key)
{
    if ((t->ncounts + 1) * 2 > t->capcounts) {
        size_t oldcap = t->capcounts;
        struct trace_count *old = t->counts;
        t->capcounts = oldcap ? oldcap * 2 : 256;
        t->counts = xcalloc(t->capcounts, sizeof *t->counts);
        for (size_t i = 0; i < oldcap; i++) {
            if (!old[i].key)
                continue;
            size_t j = hash_str(old[i].key, 0) & (t->capcounts - 1);
            while (t->counts[j].key)
                j = (j + 1) & (t->capcounts - 1);
            t->counts[j] = old[i];
        }
        free(old);
    }
    size_t j = hash_str(key, 0) & (t->capcounts - 1);
    while (t->counts[j].key && strcmp(t->counts[j].key, key) != 0)
        j = (j + 1) & (t->capcounts - 1);
    if (!t->counts[j].key) {
        t->counts[j].key = xstrdup(key);
        t->ncounts++;
    }
    return t->counts[j].n++;
}

/* "gate_acc__tile_1" -> "gate_acc" (as src/debug/point.c). */
static void base_name(const char *name, strbuf *out)
{
    const char *cut = strstr(name, "__");
    strbuf_append(out, name, cut ? (size_t)(cut - name) : strlen(name));
}

static void op_short_name(const ir_expr *e, strbuf *out)
{
    if (!e || e->kind != IR_EXPR_CALL)
        return;
    if (e->res.kind == IR_REF_OP) {
        const ir_op_info *info = ir_op_info_get(e->res.id);
        const char *dot = info ? strrchr(info->name, '.') : NULL;
        strbuf_puts(out, dot ? dot + 1 : info ? info->name : "?");
    } else if (e->u.call.callee->kind == IR_EXPR_ATTR) {
        strbuf_puts(out, e->u.call.callee->u.attr.name->text);
    }
}

typedef struct rec_ctx {
    trace *t;
    size_t max_bytes;
    trace_fn fn;
    void *ud;
    int stop;
    const tensor **written;
    size_t nwritten, capwritten;
} rec_ctx;

static void on_write(void *ud, int core, const tensor *t)
{
    (void)core;
    rec_ctx *rc = ud;
    if (rc->nwritten == rc->capwritten) {
        rc->capwritten = rc->capwritten ? rc->capwritten * 2 : 8;
        rc->written = xreallocarray(rc->written, rc->capwritten, sizeof *rc->written);
    }
    rc->written[rc->nwritten++] = t;
}

static tensor *copy_value(const value *v)
{
    if (v->kind == VAL_TENSOR && v->u.t)
        return tensor_clone(v->u.t);
    double d;
    if ((v->kind == VAL_INT || v->kind == VAL_FLOAT || v->kind == VAL_BOOL) && value_as_double(v, &d) == 0)
        return tensor_scalar(DTYPE_FP64, d);
    return NULL;
}

static void add_rec(rec_ctx *rc, const char *key, const char *base, const char *name, const inspect_frame *f,
                    int core, const value *v)
{
    trace *t = rc->t;
    if (rc->stop || t->truncated)
        return;
    tensor *copy = copy_value(v);
    if (!copy)
        return;
    trace_rec r;
    memset(&r, 0, sizeof r);
    strbuf kb = STRBUF_INIT;
    strbuf_printf(&kb, "k:%s", key);
    r.nth_key = bump(t, strbuf_str(&kb));
    strbuf_clear(&kb);
    strbuf_printf(&kb, "b:%s", base);
    r.nth_base = bump(t, strbuf_str(&kb));
    strbuf_free(&kb);
    r.key = xstrdup(key);
    r.base = xstrdup(base);
    r.name = xstrdup(name);
    r.func = xstrdup(f->func ? f->func : "?");
    r.line = f->line;
    r.core = core;
    r.t = copy;
    if (rc->fn) {
        if (rc->fn(rc->ud, &r))
            rc->stop = 1;
        free(r.key);
        free(r.base);
        free(r.name);
        free(r.func);
        tensor_unref(r.t);
        return;
    }
    size_t bytes = (size_t)tensor_numel(copy) * dtype_size(copy->dtype);
    if (t->bytes + bytes > rc->max_bytes) {
        t->truncated = 1;
        free(r.key);
        free(r.base);
        free(r.name);
        free(r.func);
        tensor_unref(r.t);
        return;
    }
    t->bytes += bytes;
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 256;
        t->recs = xreallocarray(t->recs, t->cap, sizeof *t->recs);
    }
    t->recs[t->n++] = r;
}

/* What statement st (just run on core, frame f) bound: its targets, or for
 * an expression statement the named arguments it wrote in place. */
static void record_stmt(rec_ctx *rc, const machine *m, int core, const ir_stmt *st, const inspect_frame *f)
{
    strbuf key = STRBUF_INIT, base = STRBUF_INIT;
    if (st->kind == IR_STMT_ASSIGN) {
        for (uint32_t i = 0; i < st->u.assign.ntargets; i++) {
            if (i)
                strbuf_putc(&base, ',');
            base_name(st->u.assign.targets[i].name->text, &base);
        }
        strbuf_printf(&key, "%s|", strbuf_str(&base));
        op_short_name(st->u.assign.value, &key);
        for (uint32_t i = 0; i < st->u.assign.ntargets; i++) {
            const char *name = st->u.assign.targets[i].name->text;
            int slot = inspect_find_slot(m, core, 0, name);
            const char *sn;
            const value *v;
            if (slot < 0 || !inspect_slot(m, core, 0, slot, &sn, &v) || strcmp(sn, name) != 0)
                continue;
            add_rec(rc, strbuf_str(&key), strbuf_str(&base), name, f, core, v);
        }
    } else if (st->kind == IR_STMT_EXPR && rc->nwritten) {
        const ir_expr *c = st->u.expr.value;
        if (c && c->kind == IR_EXPR_CALL) {
            op_short_name(c, &key);
            strbuf_putc(&key, '(');
            strbuf_puts(&base, "(");
            for (uint32_t i = 0; i < c->u.call.nargs; i++)
                if (c->u.call.args[i]->kind == IR_EXPR_NAME) {
                    base_name(c->u.call.args[i]->u.name->text, &key);
                    base_name(c->u.call.args[i]->u.name->text, &base);
                    strbuf_putc(&key, ',');
                    strbuf_putc(&base, ',');
                }
            strbuf_putc(&key, ')');
            strbuf_putc(&base, ')');
            for (uint32_t i = 0; i < c->u.call.nargs; i++) {
                if (c->u.call.args[i]->kind != IR_EXPR_NAME)
                    continue;
                const char *name = c->u.call.args[i]->u.name->text;
                int slot = inspect_find_slot(m, core, 0, name);
                const char *sn;
                const value *v;
                if (slot < 0 || !inspect_slot(m, core, 0, slot, &sn, &v) || v->kind != VAL_TENSOR || !v->u.t)
                    continue;
                int hit = 0;
                for (size_t k = 0; k < rc->nwritten && !hit; k++)
                    hit = rc->written[k] == v->u.t || rc->written[k]->storage == v->u.t->storage;
                if (hit)
                    add_rec(rc, strbuf_str(&key), strbuf_str(&base), name, f, core, v);
            }
        }
    }
    strbuf_free(&key);
    strbuf_free(&base);
}

static char *sink_text(const diag_sink *s)
{
    strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < s->count; i++) {
        if (s->items[i].severity != DIAG_ERROR)
            continue;
        char *line = diag_format(&s->items[i]);
        if (sb.len)
            strbuf_putc(&sb, '\n');
        strbuf_puts(&sb, line);
        free(line);
    }
    if (!sb.len)
        strbuf_puts(&sb, "error");
    return strbuf_detach(&sb);
}

void trace_pass(const char *path, const case_info *c, const runpass_options *o, size_t max_bytes, trace_fn fn,
                void *ud, trace *out)
{
    memset(out, 0, sizeof *out);
    rec_ctx rc;
    memset(&rc, 0, sizeof rc);
    rc.t = out;
    rc.max_bytes = max_bytes ? max_bytes : (size_t)1 << 30;
    rc.fn = fn;
    rc.ud = ud;
    diag_sink sink;
    diag_sink_init(&sink, 20);
    ptodb_status st;
    ir_module *m = ir_parse_file(path, &sink, &st);
    xprogram *p = NULL;
    machine *mach = NULL;
    case_binding *b = NULL;
    case_param *params = NULL;
    value *args = NULL;
    size_t np = 0;
    if (st != PTODB_OK || ir_resolve(m, &sink) != PTODB_OK || exec_program_build(m, o->ops, &p, &sink) != PTODB_OK) {
        out->error = sink_text(&sink);
        goto done;
    }
    if (p->codegen_error && p->uses_ptodb_only_ops != 1) {
        strbuf sb = STRBUF_INIT;
        strbuf_printf(&sb, "%s: %s", path, p->codegen_error);
        out->error = strbuf_detach(&sb);
        goto done;
    }
    if (p->entry < 0) {
        strbuf sb = STRBUF_INIT;
        strbuf_printf(&sb, "%s: %s", path, p->entry_error ? p->entry_error : "no entry function");
        out->error = strbuf_detach(&sb);
        goto done;
    }
    const xfunc *entry = &p->funcs[p->entry];
    np = entry->nparams;
    params = xcalloc(np ? np : 1, sizeof *params);
    for (size_t i = 0; i < np; i++) {
        const ir_param *ip = &entry->src->params[i];
        const exec_type *ty = &entry->param_types[i];
        params[i].name = ip->name->text;
        params[i].is_tensor = ty->kind == EXEC_TYPE_TENSOR || ty->kind == EXEC_TYPE_TILE;
        params[i].dtype = ty->dtype;
        params[i].ndim = ty->ndim;
        for (int d = 0; d < ty->ndim && d < TENSOR_MAX_DIMS; d++)
            params[i].shape[d] = ty->dims[d];
        params[i].dir = ip->dir == IR_DIR_OUT     ? CASE_PARAM_OUT
                        : ip->dir == IR_DIR_INOUT ? CASE_PARAM_INOUT
                                                  : CASE_PARAM_IN;
    }
    b = xcalloc(np ? np : 1, sizeof *b);
    if (case_bind(c, params, np, b, &sink) != PTODB_OK) {
        out->error = sink_text(&sink);
        goto done;
    }
    args = xcalloc(np ? np : 1, sizeof *args);
    for (size_t i = 0; i < np; i++)
        args[i] = value_tensor(tensor_ref(b[i].t));
    mach = machine_new(p, &o->mopt);
    machine_set_write_hook(mach, on_write, &rc);
    st = machine_start(mach, p->entry, args, (uint32_t)np);
    if (st != PTODB_OK) {
        out->error = xstrdup(machine_error(mach));
        goto done;
    }
    while (!rc.stop) {
        const ir_stmt *pre[EXEC_NCORES];
        int depth[EXEC_NCORES];
        for (int k = 0; k < EXEC_NCORES; k++) {
            inspect_frame f;
            pre[k] = inspect_frame_get(mach, k, 0, &f) ? f.stmt : NULL;
            depth[k] = inspect_depth(mach, k);
        }
        rc.nwritten = 0;
        exec_event ev;
        st = machine_step(mach, &ev);
        if (st != PTODB_OK || ev.kind == EXEC_EV_ERROR) {
            out->error = xstrdup(machine_error(mach));
            break;
        }
        if (ev.kind == EXEC_EV_DONE)
            break;
        int k = ev.core;
        if (ev.kind != EXEC_EV_STMT || k < 0 || k >= EXEC_NCORES || !pre[k] || inspect_depth(mach, k) != depth[k])
            continue;
        inspect_frame f;
        if (!inspect_frame_get(mach, k, 0, &f))
            continue;
        f.line = (int)pre[k]->span.line;
        record_stmt(&rc, mach, k, pre[k], &f);
        if (machine_finished(mach))
            break;
    }
    out->steps = machine_steps(mach);
done:
    if (args) {
        for (size_t i = 0; i < np; i++)
            value_clear(&args[i]);
        free(args);
    }
    machine_free(mach);
    if (b) {
        case_bindings_free(b, np);
        free(b);
    }
    free(params);
    exec_program_free(p);
    if (m)
        ir_module_free(m);
    diag_sink_free(&sink);
    free(rc.written);
}

void trace_free(trace *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->recs[i].key);
        free(t->recs[i].base);
        free(t->recs[i].name);
        free(t->recs[i].func);
        tensor_unref(t->recs[i].t);
    }
    free(t->recs);
    for (size_t i = 0; i < t->capcounts; i++)
        free(t->counts[i].key);
    free(t->counts);
    free(t->by_key);
    free(t->by_base);
    free(t->error);
    memset(t, 0, sizeof *t);
}

static uint64_t rec_hash(const char *s, uint32_t nth)
{
    return hash_str(s, 0) * 31u + nth;
}

void trace_index(trace *t)
{
    free(t->by_key);
    free(t->by_base);
    size_t cap = 16;
    while (cap < t->n * 2 + 2)
        cap *= 2;
    t->capindex = cap;
    t->by_key = xcalloc(cap, sizeof *t->by_key);
    t->by_base = xcalloc(cap, sizeof *t->by_base);
    for (size_t i = 0; i < t->n; i++) {
        const trace_rec *r = &t->recs[i];
        size_t j = rec_hash(r->key, r->nth_key) & (cap - 1);
        while (t->by_key[j])
            j = (j + 1) & (cap - 1);
        t->by_key[j] = i + 1;
        j = rec_hash(r->base, r->nth_base) & (cap - 1);
        while (t->by_base[j])
            j = (j + 1) & (cap - 1);
        t->by_base[j] = i + 1;
    }
}

const trace_rec *trace_match(const trace *a, const trace_rec *r)
{
    if (!a->capindex)
        return NULL;
    size_t cap = a->capindex;
    size_t j = rec_hash(r->key, r->nth_key) & (cap - 1);
    /* several records of one statement (tuple targets) share key and nth:
     * take the one with the same base name */
    for (; a->by_key[j]; j = (j + 1) & (cap - 1)) {
        const trace_rec *c = &a->recs[a->by_key[j] - 1];
        if (c->nth_key == r->nth_key && strcmp(c->key, r->key) == 0) {
            char b1[256], b2[256];
            snprintf(b1, sizeof b1, "%s", c->name);
            snprintf(b2, sizeof b2, "%s", r->name);
            char *x = strstr(b1, "__"), *y = strstr(b2, "__");
            if (x)
                *x = 0;
            if (y)
                *y = 0;
            if (strcmp(b1, b2) == 0)
                return c;
        }
    }
    j = rec_hash(r->base, r->nth_base) & (cap - 1);
    for (; a->by_base[j]; j = (j + 1) & (cap - 1)) {
        const trace_rec *c = &a->recs[a->by_base[j] - 1];
        if (c->nth_base == r->nth_base && strcmp(c->base, r->base) == 0)
            return c;
    }
    return NULL;
}

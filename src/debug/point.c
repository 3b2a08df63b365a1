/* Program points across passes: the statement of another pass that
 * corresponds to where a run stopped, and running that pass up to it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "debug/session_impl.h"
#include "exec/inspect.h"
#include "ir/resolve.h"

/* ---- arrival counts --------------------------------------------------------------- */

static size_t visit_slot(const run_state *r, const void *stmt, int core)
{
    size_t h = ((uintptr_t)stmt >> 4) * 31u + (size_t)core;
    return h & (r->capvisits - 1);
}

void run_count_visit(run_state *r, const void *stmt, int core);
void run_count_visit(run_state *r, const void *stmt, int core)
{
    if (!stmt)
        return;
    if ((r->nvisits + 1) * 2 > r->capvisits) {
        size_t old_cap = r->capvisits;
        struct visit *old = r->visits;
        r->capvisits = old_cap ? old_cap * 2 : 256;
        r->visits = xcalloc(r->capvisits, sizeof *r->visits);
        r->nvisits = 0;
        for (size_t i = 0; i < old_cap; i++) {
            if (!old[i].stmt)
                continue;
            size_t j = visit_slot(r, old[i].stmt, old[i].core);
            while (r->visits[j].stmt)
                j = (j + 1) & (r->capvisits - 1);
            r->visits[j] = old[i];
            r->nvisits++;
        }
        free(old);
    }
    size_t j = visit_slot(r, stmt, core);
    while (r->visits[j].stmt && (r->visits[j].stmt != stmt || r->visits[j].core != core))
        j = (j + 1) & (r->capvisits - 1);
    if (!r->visits[j].stmt) {
        r->visits[j].stmt = stmt;
        r->visits[j].core = core;
        r->nvisits++;
    }
    r->visits[j].count++;
}

static uint32_t visit_count(const run_state *r, const void *stmt, int core)
{
    if (!r->capvisits)
        return 0;
    size_t j = visit_slot(r, stmt, core);
    while (r->visits[j].stmt) {
        if (r->visits[j].stmt == stmt && r->visits[j].core == core)
            return r->visits[j].count;
        j = (j + 1) & (r->capvisits - 1);
    }
    return 0;
}

/* ---- statement keys ------------------------------------------------------------------ */

/* "gate_acc__tile_1" -> "gate_acc": names keep their user part across passes. */
static void base_name(const char *name, strbuf *out)
{
    const char *cut = strstr(name, "__");
    strbuf_append(out, name, cut ? (size_t)(cut - name) : strlen(name));
}

/* The op's last name part ("tile.add" and "tensor.add" both give "add"). */
static void call_name(const ir_expr *e, strbuf *out)
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

static void stmt_key(const ir_stmt *st, strbuf *out)
{
    strbuf_printf(out, "%d:", st->kind);
    if (st->kind == IR_STMT_ASSIGN || st->kind == IR_STMT_YIELD) {
        for (uint32_t i = 0; i < st->u.assign.ntargets; i++) {
            base_name(st->u.assign.targets[i].name->text, out);
            strbuf_putc(out, ',');
        }
        call_name(st->u.assign.value, out);
    } else if (st->kind == IR_STMT_EXPR) {
        const ir_expr *c = st->u.expr.value;
        call_name(c, out);
        if (c && c->kind == IR_EXPR_CALL)
            for (uint32_t i = 0; i < c->u.call.nargs; i++)
                if (c->u.call.args[i]->kind == IR_EXPR_NAME) {
                    strbuf_putc(out, ',');
                    base_name(c->u.call.args[i]->u.name->text, out);
                }
    } else if (st->kind == IR_STMT_FOR) {
        if (st->u.for_.var)
            base_name(st->u.for_.var->name->text, out);
    }
}

typedef struct stmt_list {
    const ir_stmt **items;
    size_t n, cap;
} stmt_list;

static void collect(const ir_block *b, stmt_list *l)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const ir_stmt *st = b->items[i];
        if (l->n == l->cap) {
            l->cap = l->cap ? l->cap * 2 : 64;
            l->items = xreallocarray(l->items, l->cap, sizeof *l->items);
        }
        l->items[l->n++] = st;
        switch (st->kind) {
        case IR_STMT_IF:
            collect(&st->u.if_.body, l);
            collect(&st->u.if_.orelse, l);
            break;
        case IR_STMT_FOR: collect(&st->u.for_.body, l); break;
        case IR_STMT_WHILE: collect(&st->u.while_.body, l); break;
        case IR_STMT_WITH: collect(&st->u.with.body, l); break;
        default: break;
        }
    }
}

static const ir_func *find_func(const ir_module *m, const char *name)
{
    if (!m->program)
        return NULL;
    for (uint32_t i = 0; i < m->program->nfuncs; i++)
        if (strcmp(m->program->funcs[i]->name->text, name) == 0)
            return m->program->funcs[i];
    return NULL;
}

/* The function containing st in module m. */
static const ir_func *func_of(const ir_module *m, const ir_stmt *st)
{
    for (uint32_t i = 0; m->program && i < m->program->nfuncs; i++) {
        const ir_func *f = m->program->funcs[i];
        if (st->span.start >= f->span.start && st->span.end <= f->span.end)
            return f;
    }
    return NULL;
}

/* Index of st among f's statements with the same key; -1 when absent. */
static int occurrence(const ir_func *f, const ir_stmt *st, const char *key)
{
    stmt_list l = {0};
    collect(&f->body, &l);
    int k = 0, found = -1;
    for (size_t i = 0; i < l.n; i++) {
        strbuf sb = STRBUF_INIT;
        stmt_key(l.items[i], &sb);
        if (strcmp(strbuf_str(&sb), key) == 0) {
            if (l.items[i] == st)
                found = k;
            k++;
        }
        strbuf_free(&sb);
    }
    free(l.items);
    return found;
}

static const ir_stmt *nth_with_key(const ir_func *f, const char *key, int nth)
{
    stmt_list l = {0};
    collect(&f->body, &l);
    const ir_stmt *r = NULL;
    int k = 0;
    for (size_t i = 0; i < l.n && !r; i++) {
        strbuf sb = STRBUF_INIT;
        stmt_key(l.items[i], &sb);
        if (strcmp(strbuf_str(&sb), key) == 0 && k++ == nth)
            r = l.items[i];
        strbuf_free(&sb);
    }
    free(l.items);
    return r;
}

/* Candidate functions in the new module for old function `name`: the same
 * name, then outlined/split relatives (x -> x_aic/x_aiv, x_aiv -> x), then
 * every function. */
static const ir_stmt *find_corresponding(const ir_module *m, const char *name, const char *key, int nth,
                                         const ir_func **fout)
{
    const ir_func *f = find_func(m, name);
    const ir_stmt *st = f ? nth_with_key(f, key, nth) : NULL;
    if (st) {
        *fout = f;
        return st;
    }
    size_t n = strlen(name);
    for (int pass = 0; pass < 2 && m->program; pass++) {
        for (uint32_t i = 0; i < m->program->nfuncs; i++) {
            const ir_func *g = m->program->funcs[i];
            const char *gn = g->name->text;
            size_t gl = strlen(gn);
            int related = (gl > n && strncmp(gn, name, n) == 0 && gn[n] == '_') ||
                          (n > gl && strncmp(name, gn, gl) == 0 && name[gl] == '_');
            if (pass == 0 && !related)
                continue;
            if ((st = nth_with_key(g, key, nth))) {
                *fout = g;
                return st;
            }
        }
    }
    return NULL;
}

void run_count_visit(run_state *r, const void *stmt, int core);

ptodb_status run_seek_point(session *s, int pass)
{
    run_state *r = &s->run;
    inspect_frame f;
    if (!inspect_frame_get(r->m, r->core, 0, &f) || !f.stmt)
        return run_start(s, pass);
    pass_state *old = session_load_pass(s, r->pass);
    const ir_func *of = func_of(old->module, f.stmt);
    strbuf key = STRBUF_INIT;
    stmt_key(f.stmt, &key);
    int nth = of ? occurrence(of, f.stmt, strbuf_str(&key)) : -1;
    uint32_t arrivals = visit_count(r, f.stmt, r->core);
    if (arrivals == 0)
        arrivals = 1;
    int core = r->core;
    char func[256];
    snprintf(func, sizeof func, "%s", f.func);
    int line = f.line;

    pass_state *np = session_load_pass(s, pass);
    const ir_func *nf = NULL;
    const ir_stmt *target = np->module && nth >= 0
                                ? find_corresponding(np->module, func, strbuf_str(&key), nth, &nf)
                                : NULL;
    strbuf_free(&key);
    ptodb_status st = run_start(s, pass);
    if (st != PTODB_OK)
        return st;
    if (!target) {
        session_printf(s, "Pass %d has no statement corresponding to %s line %d; the run is at its start.\n",
                       s->kase.passes[pass].index, func, line);
        run_print_location(s);
        return PTODB_OK;
    }
    /* Run (ignoring breakpoints) until a core arrives at target the same
     * number of times; prefer the same core, else any. */
    for (;;) {
        int hit_core = -1;
        for (int c = 0; c < EXEC_NCORES; c++) {
            inspect_frame g;
            if (inspect_frame_get(r->m, c, 0, &g) && g.stmt == target &&
                inspect_core(r->m, c) != INSPECT_CORE_DONE) {
                uint32_t n = visit_count(r, target, c);
                if (n + 1 >= arrivals && (c == core || hit_core < 0))
                    hit_core = c;
            }
        }
        if (hit_core >= 0) {
            r->core = hit_core;
            r->level = 0;
            session_printf(s, "Corresponding point in pass %d (%s, %s line %u):\n", s->kase.passes[pass].index,
                           nf->name->text, s->kase.passes[pass].stem, target->span.line);
            run_print_location(s);
            display_show_all(s, 0);
            return PTODB_OK;
        }
        if (s->interrupted) {
            s->interrupted = 0;
            session_printf(s, "\nInterrupted.\n");
            run_print_location(s);
            return PTODB_OK;
        }
        exec_event ev;
        st = machine_step(r->m, &ev);
        if (st != PTODB_OK || ev.kind == EXEC_EV_ERROR) {
            session_errorf(s, "%s", machine_error(r->m));
            r->failed = 1;
            return st != PTODB_OK ? st : PTODB_ERR_RUNTIME;
        }
        if (ev.kind == EXEC_EV_DONE || machine_finished(r->m)) {
            session_printf(s, "Pass %d ended before reaching %s line %u (arrival %u).\n",
                           s->kase.passes[pass].index, s->kase.passes[pass].stem, target->span.line, arrivals);
            r->finished = 1;
            return PTODB_OK;
        }
        inspect_frame g;
        if (inspect_frame_get(r->m, ev.core, 0, &g))
            run_count_visit(r, g.stmt, ev.core);
    }
}

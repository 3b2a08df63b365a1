/* Program points across passes: the statement of another pass that
 * corresponds to where a run stopped, and running that pass up to it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "debug/state/lookup.h"
#include "debug/run/point.h"
#include "debug/run/record_impl.h"
#include "debug/state/session_impl.h"
#include "exec/inspect.h"
#include "exec/prov.h"
#include "exec/region.h"
#include "ir/lex.h"
#include "ir/resolve.h"
#include "ir/walk.h"


/* ---- statement keys ------------------------------------------------------------------ */

static void stmt_key(const ir_stmt *st, strbuf *out)
{
    strbuf_printf(out, "%d:", st->kind);
    if (st->kind == IR_STMT_ASSIGN || st->kind == IR_STMT_YIELD) {
        for (uint32_t i = 0; i < st->u.assign.ntargets; i++) {
            ir_ssa_base_name(st->u.assign.targets[i].name->text, out);
            strbuf_putc(out, ',');
        }
        ir_call_short_name(st->u.assign.value, out);
    } else if (st->kind == IR_STMT_EXPR) {
        const ir_expr *c = st->u.expr.value;
        ir_call_short_name(c, out);
        if (c && c->kind == IR_EXPR_CALL)
            for (uint32_t i = 0; i < c->u.call.nargs; i++)
                if (c->u.call.args[i]->kind == IR_EXPR_NAME) {
                    strbuf_putc(out, ',');
                    ir_ssa_base_name(c->u.call.args[i]->u.name->text, out);
                }
    } else if (st->kind == IR_STMT_FOR) {
        if (st->u.for_.var)
            ir_ssa_base_name(st->u.for_.var->name->text, out);
    }
}

typedef struct stmt_list {
    const ir_stmt **items;
    size_t n, cap;
} stmt_list;

static void append_stmt(void *ctx, const ir_stmt *st)
{
    stmt_list *l = ctx;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->items = xreallocarray(l->items, l->cap, sizeof *l->items);
    }
    l->items[l->n++] = st;
}

/* Every statement of block b, nested ones included, in source order. */
static void collect(const ir_block *b, stmt_list *l)
{
    ir_walk_stmts(b, append_stmt, l);
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
    for (int pass = 0; pass < 2 && m->program; pass++) {
        for (uint32_t i = 0; i < m->program->nfuncs; i++) {
            const ir_func *g = m->program->funcs[i];
            const char *gn = g->name->text;
            int related = strcmp(gn, name) != 0 && ir_funcs_related(gn, name);
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

/* ---- functions unchanged between passes ------------------------------------------------ */

/* A function's source with every variable (a name with "__": the printer's
 * SSA names) replaced by the number of its first use, and those names in
 * that order. Two functions with the same text are the same function but for
 * SSA renumbering, and their i-th variables are the same variable. */
typedef struct alpha_text {
    strbuf text;
    char **vars;
    size_t nvars, cap;
} alpha_text;

static void alpha_free(alpha_text *a)
{
    strbuf_free(&a->text);
    for (size_t i = 0; i < a->nvars; i++)
        free(a->vars[i]);
    free(a->vars);
    memset(a, 0, sizeof *a);
}

static void alpha_build(const char *src, size_t len, const ir_func *f, alpha_text *a)
{
    memset(a, 0, sizeof *a);
    a->text = (strbuf)STRBUF_INIT;
    size_t i = f->span.start, end = f->span.end < len ? f->span.end : len;
    while (i < end) {
        if (!lex_is_name_start((unsigned char)src[i]) || (i > 0 && lex_is_name_char((unsigned char)src[i - 1]))) {
            strbuf_putc(&a->text, src[i++]);
            continue;
        }
        size_t j = i;
        while (j < end && lex_is_name_char((unsigned char)src[j]))
            j++;
        size_t n = j - i;
        const char *id = src + i;
        if (!memmem(id, n, "__", 2)) {
            strbuf_append(&a->text, id, n);
        } else {
            size_t k = 0;
            while (k < a->nvars && (strlen(a->vars[k]) != n || memcmp(a->vars[k], id, n) != 0))
                k++;
            if (k == a->nvars) {
                if (a->nvars == a->cap) {
                    a->cap = a->cap ? a->cap * 2 : 32;
                    a->vars = xreallocarray(a->vars, a->cap, sizeof *a->vars);
                }
                a->vars[a->nvars++] = xstrndup(id, n);
            }
            strbuf_printf(&a->text, "\001%zu", k);
        }
        i = j;
    }
}

/* The alpha texts already built, by pass and function (a `diff pass N` at
 * every stop asks for the same few again and again). */
enum { ALPHA_CACHE = 16 };
struct point_alpha {
    int pass[ALPHA_CACHE];
    const ir_func *func[ALPHA_CACHE];
    alpha_text text[ALPHA_CACHE];
    unsigned next;
};

static void alpha_cache_free(session *s)
{
    if (!s->alpha_cache)
        return;
    for (int i = 0; i < ALPHA_CACHE; i++)
        if (s->alpha_cache->func[i])
            alpha_free(&s->alpha_cache->text[i]);
    free(s->alpha_cache);
    s->alpha_cache = NULL;
}

/* Function `name` of pass `pass` and its alpha text (owned by the cache);
 * 0 when the pass has no such function (or does not check). */
static int pass_func(session *s, int pass, const char *name, const ir_func **f, const alpha_text **a)
{
    pass_state *ps = session_load_pass(s, pass);
    *f = ps->module ? find_func(ps->module, name) : NULL;
    if (!*f)
        return 0;
    if (!s->alpha_cache)
        s->alpha_cache = xcalloc(1, sizeof *s->alpha_cache);
    struct point_alpha *c = s->alpha_cache;
    for (int i = 0; i < ALPHA_CACHE; i++)
        if (c->func[i] == *f && c->pass[i] == pass) {
            *a = &c->text[i];
            return 1;
        }
    unsigned k = c->next++ % ALPHA_CACHE;
    if (c->func[k])
        alpha_free(&c->text[k]);
    c->func[k] = *f;
    c->pass[k] = pass;
    alpha_build(ps->source, ps->source_len, *f, &c->text[k]);
    *a = &c->text[k];
    return 1;
}

/* ---- where a run is ------------------------------------------------------------------------ */

typedef struct prog_point {
    int pass, core, level;
    char func[256];       /* the innermost frame's function */
    uint32_t activation;  /* its call index on the core */
    uint64_t local_steps; /* statements it has completed */
    int line;
    int at_start;         /* a run at its entry: any pass has that point */
} prog_point;

static int point_here(session *s, prog_point *pt)
{
    run_state *r = &s->run;
    memset(pt, 0, sizeof *pt);
    inspect_frame f;
    if (!r->m || !inspect_frame_get(r->m, r->core, 0, &f))
        return -1;
    pt->pass = r->pass;
    pt->core = r->core;
    pt->level = r->level;
    snprintf(pt->func, sizeof pt->func, "%s", f.func);
    pt->activation = f.activation;
    pt->local_steps = f.local_steps;
    pt->line = f.line;
    return 0;
}

/* "AIV1, call 3 of final_resid_block with o0=256, iteration kb=2" for frame
 * `level` of core `core` in the current run. */
static void describe_frame(session *s, int core, int level, strbuf *out)
{
    run_state *r = &s->run;
    inspect_frame f;
    if (!r->m || !inspect_frame_get(r->m, core, level, &f))
        return;
    strbuf_printf(out, "%s, call %u of %s", machine_core_name(core), f.activation + 1, f.func);
    int nargs = 0;
    for (int i = 0; i < f.nparams; i++) {
        const char *name;
        const value *v;
        if (!inspect_slot(r->m, core, level, i, &name, &v) || (v->kind != VAL_INT && v->kind != VAL_BOOL))
            continue;
        strbuf_puts(out, nargs++ ? ", " : " with ");
        ir_ssa_base_name(name, out);
        strbuf_printf(out, "=%lld", (long long)v->u.i);
    }
    /* the loop variables of the loops around the statement */
    pass_state *ps = session_load_pass(s, r->pass);
    const ir_func *fn = ps->module && f.stmt ? func_of(ps->module, f.stmt) : NULL;
    if (!fn)
        return;
    stmt_list l = {0};
    collect(&fn->body, &l);
    int nit = 0;
    for (size_t i = 0; i < l.n; i++) {
        const ir_stmt *st = l.items[i];
        if (st->kind != IR_STMT_FOR || !st->u.for_.var || st == f.stmt || f.stmt->span.start < st->span.start ||
            f.stmt->span.end > st->span.end)
            continue;
        int slot = inspect_find_slot(r->m, core, level, st->u.for_.var->name->text);
        const char *name;
        const value *v;
        if (slot < 0 || !inspect_slot(r->m, core, level, slot, &name, &v) || v->kind != VAL_INT)
            continue;
        strbuf_puts(out, nit++ ? ", " : ", iteration ");
        ir_ssa_base_name(name, out);
        strbuf_printf(out, "=%lld", (long long)v->u.i);
    }
    free(l.items);
}

/* 1 when the innermost frame of core pt->core is pt's moment. */
static int at_point(const run_state *r, const prog_point *pt)
{
    inspect_frame g;
    return inspect_frame_get(r->m, pt->core, 0, &g) && strcmp(g.func, pt->func) == 0 &&
           g.activation == pt->activation && g.local_steps == pt->local_steps &&
           inspect_core(r->m, pt->core) != INSPECT_CORE_DONE;
}

/* One scheduler step of a seek (breakpoints ignored), arrivals counted:
 * 1 on, 0 the pass failed or ended (*why says which), -1 interrupted. */
static int seek_step(session *s, const char **why)
{
    run_state *r = &s->run;
    /* A seek can run most of a large pass (the TUI's live heat maps, a
     * diff at a late stop): the front end's poll keeps Ctrl-C working. */
    if (s->poll && (machine_steps(r->m) & 4095) == 0) {
        char progress[160];
        snprintf(progress, sizeof progress, "pass %d %s: %" PRIu64 " statements (finding the point)",
                 s->kase.passes[r->pass].index, s->kase.passes[r->pass].name, machine_steps(r->m));
        s->poll(s->poll_ctx, progress);
    }
    if (s->interrupted)
        return -1;
    exec_event ev;
    ptodb_status st = machine_step(r->m, &ev);
    if (st != PTODB_OK || ev.kind == EXEC_EV_ERROR) {
        r->failed = 1;
        *why = "it failed before getting there";
        return 0;
    }
    if (ev.kind == EXEC_EV_DONE || machine_finished(r->m)) {
        r->finished = 1;
        *why = "it ended before getting there";
        return 0;
    }
    run_note_arrivals(r, ev.core);
    return 1;
}

/* Steps the run in s->run until core pt->core is at pt's moment: 1
 * reached, 0 the pass ended or failed first, -1 interrupted. */
static int seek_exact(session *s, const prog_point *pt)
{
    const char *why;
    for (;;) {
        if (at_point(&s->run, pt))
            return 1;
        int go = seek_step(s, &why);
        if (go <= 0)
            return go;
    }
}

/* ---- the fallback: statement keys ------------------------------------------------------- */

/* Where a stopped run is, in terms that survive a pass that changed its
 * function: the statement's key, and the keys of the statements before it in
 * its function (a statement a pass introduced, like tfree, has no twin in
 * earlier passes; the nearest earlier one that does stands in for it). */
enum { POINT_FALLBACKS = 24 };

typedef struct point_key {
    char func[256];
    int n;                          /* candidates, the stop's own first */
    char *key[POINT_FALLBACKS];
    int nth[POINT_FALLBACKS];
    uint32_t arrivals[POINT_FALLBACKS];
    int core;
    int line;
} point_key;

static void point_free(point_key *pk)
{
    for (int i = 0; i < pk->n; i++)
        free(pk->key[i]);
    pk->n = 0;
}

static int point_capture(session *s, point_key *pk)
{
    run_state *r = &s->run;
    memset(pk, 0, sizeof *pk);
    inspect_frame f;
    if (!r->m || !inspect_frame_get(r->m, r->core, 0, &f) || !f.stmt)
        return -1;
    pass_state *old = session_load_pass(s, r->pass);
    const ir_func *of = func_of(old->module, f.stmt);
    if (!of)
        return -1;
    stmt_list l = {0};
    collect(&of->body, &l);
    size_t at = 0;
    while (at < l.n && l.items[at] != f.stmt)
        at++;
    for (size_t i = at + 1; i-- > 0 && pk->n < POINT_FALLBACKS;) {
        if (i >= l.n)
            continue;
        const ir_stmt *st = l.items[i];
        /* An enclosing loop or if is not a stand-in: the statement is inside it. */
        if (i != at && (st->kind == IR_STMT_FOR || st->kind == IR_STMT_WHILE || st->kind == IR_STMT_IF ||
                        st->kind == IR_STMT_WITH))
            break;
        strbuf key = STRBUF_INIT;
        stmt_key(st, &key);
        int k = pk->n++;
        pk->nth[k] = occurrence(of, st, strbuf_str(&key));
        pk->key[k] = strbuf_detach(&key);
        /* arrivals as counted after each step (run_note_arrivals): the other
         * pass's run counts the same way, so equal counts are the same visit */
        pk->arrivals[k] = record_visit_count(r, st, r->core);
    }
    free(l.items);
    pk->core = r->core;
    snprintf(pk->func, sizeof pk->func, "%s", f.func);
    pk->line = f.line;
    return pk->n ? 0 : -1;
}

/* Runs the started run in s->run (ignoring breakpoints) to the statement
 * pk names in pass `pass`. Returns 1 reached (*fout: the function it is
 * in, *standin: an earlier statement stood in), 0 not reached (*why says
 * why), -1 interrupted. */
static int seek_by_key(session *s, int pass, const point_key *pk, const ir_func **fout, int *standin,
                       const char **why)
{
    run_state *r = &s->run;
    pass_state *np = session_load_pass(s, pass);
    const ir_func *nf = NULL;
    const ir_stmt *target = NULL;
    int which = 0;
    for (; np->module && which < pk->n && !target; which++)
        if (pk->nth[which] >= 0)
            target = find_corresponding(np->module, pk->func, pk->key[which], pk->nth[which], &nf);
    which--;
    *fout = nf;
    *standin = which > 0;
    if (!target) {
        *why = "it has no statement with the same SSA names and op";
        return 0;
    }
    /* Standing in for the stop with an earlier statement: stop just after it. */
    int after = which > 0;
    uint32_t arrivals = pk->arrivals[which];
    /* The same function: the same core (another lane's statement is another
     * point). A relative (x_aiv for x): the stop's core, or a core of another
     * kind (the host before a split); never the other lane. */
    int same_func = strcmp(nf->name->text, pk->func) == 0;
    for (;;) {
        inspect_frame g;
        int hit = -1;
        for (int c = 0; c < EXEC_NCORES && hit != pk->core; c++) {
            int other_lane = exec_region_core_rank(pk->core, c) == 2;
            if ((same_func && c != pk->core) || other_lane || !inspect_frame_get(r->m, c, 0, &g) || g.stmt != target ||
                inspect_core(r->m, c) == INSPECT_CORE_DONE || record_visit_count(r, target, c) != arrivals)
                continue;
            if (hit < 0 || c == pk->core)
                hit = c;
        }
        if (hit >= 0) {
            if (after) {
                exec_event ev;
                ptodb_status st = machine_step_core(r->m, hit, &ev);
                if (st != PTODB_OK || ev.kind == EXEC_EV_ERROR) {
                    r->failed = 1;
                    *why = "it failed running the statement that stands in";
                    return 0;
                }
                run_note_arrivals(r, hit);
            }
            r->core = hit;
            r->level = 0;
            return 1;
        }
        int go = seek_step(s, why);
        if (go <= 0) {
            if (go == 0 && r->finished)
                *why = "it ended before the statement was reached as often on that core";
            return go;
        }
    }
}

/* ---- mapping a point to another pass ------------------------------------------------------ */

/* ---- the fallback before keys: what the data is ----------------------------------------- */

/* A moment named by data: core's k-th load (store) of exactly that region. */
typedef struct region_anchor {
    exec_region reg;
    uint32_t k;
    int core;
    char func[256];  /* the function of the load/store */
    int whole;  /* the variable is the GM tensor itself, not a tile */
    /* the position of the access, for diff's fallback when no statement of
     * the other pass touches that region so often: the load/store, the
     * call of its function (activation) and the arrival at it in that call */
    const ir_stmt *stmt;
    uint32_t activation, iter;
} region_anchor;

/* The statement core is about to run, when it is a load or store. */
static int anchor_here(const run_state *r, int core, region_anchor *ra)
{
    inspect_frame f;
    if (!r->m || !inspect_frame_get(r->m, core, 0, &f) || !f.stmt)
        return 0;
    const region_seen *rs = record_find_seen(r, f.stmt, core);
    if (!rs || !rs->have)
        return 0;
    ra->reg = rs->last;
    ra->k = rs->last_k;
    ra->core = core;
    ra->whole = 0;
    snprintf(ra->func, sizeof ra->func, "%s", rs->func);
    return 1;
}

static const ir_stmt *defining_stmt(const ir_func *f, const char *name);

/* The first store statement of f whose tile is variable `name`, or NULL. */
static const ir_stmt *storing_stmt(const ir_func *f, const char *name)
{
    stmt_list l = {0};
    collect(&f->body, &l);
    const ir_stmt *found = NULL;
    for (size_t i = 0; i < l.n && !found; i++) {
        const ir_stmt *st = l.items[i];
        const ir_expr *data, *offs, *dest;
        if (exec_region_store_operands(st, &data, &offs, &dest) && data->kind == IR_EXPR_NAME &&
            strcmp(data->u.name->text, name) == 0)
            found = st;
    }
    free(l.items);
    return found;
}

/* The store of f into GM tensor `name` (its destination operand) that
 * core ran last, or NULL. */
static const ir_stmt *store_into(const run_state *r, const ir_func *f, const char *name)
{
    stmt_list l = {0};
    collect(&f->body, &l);
    const ir_stmt *found = NULL;
    uint32_t best = 0;
    for (size_t i = 0; i < l.n; i++) {
        const ir_stmt *st = l.items[i];
        const ir_expr *data, *offs, *dest;
        if (!exec_region_store_operands(st, &data, &offs, &dest) || dest->kind != IR_EXPR_NAME ||
            strcmp(dest->u.name->text, name) != 0)
            continue;
        uint32_t n = record_visit_count(r, st, r->core);
        if (n && n >= best) {
            best = n;
            found = st;
        }
    }
    free(l.items);
    return found;
}

/* What the data of variable `full` (frame `level` of the stop's core) is:
 * the region the load that assigned it read, else the region a store wrote
 * it to (one that ran after its definition). */
static int anchor_of_var(const run_state *r, int level, const char *full, region_anchor *ra)
{
    inspect_frame f;
    if (!r->m || !inspect_frame_get(r->m, r->core, level, &f) || !f.ir)
        return 0;
    const ir_stmt *def = defining_stmt(f.ir, full);
    ra->core = r->core;
    ra->whole = 0;
    ra->stmt = NULL;
    snprintf(ra->func, sizeof ra->func, "%s", f.func);
    exec_region_kind dk = def ? exec_region_stmt_kind(def) : 0;
    if (!dk) {
        /* a GM tensor this function stores to (a parameter): its region */
        const ir_stmt *store = store_into(r, f.ir, full);
        const region_seen *rs = store ? record_find_seen(r, store, r->core) : NULL;
        if (!rs || (f.stmt == store && rs->have < 2))
            goto tile;
        ra->reg = f.stmt == store ? rs->prev : rs->last;
        ra->k = f.stmt == store ? rs->prev_k : rs->last_k;
        ra->whole = 1;
        return 1;
    }
    if (dk == EXEC_REGION_STORE) { /* the tensor a store returned */
        const region_seen *rs = record_find_seen(r, def, r->core);
        if (!rs || (f.stmt == def && rs->have < 2))
            return 0;
        ra->reg = f.stmt == def ? rs->prev : rs->last;
        ra->k = f.stmt == def ? rs->prev_k : rs->last_k;
        ra->whole = 1;
        return 1;
    }
    if (dk == EXEC_REGION_LOAD || dk == EXEC_REGION_POP) { /* a tile loaded, or popped off a queue */
        const region_seen *rs = record_find_seen(r, def, r->core);
        if (!rs)
            return 0;
        ra->stmt = def;
        ra->activation = f.activation;
        ra->iter = run_visit_iteration(r, def, r->core, f.activation);
        if (f.stmt == def) { /* about to load again: the variable holds the last load */
            if (rs->have < 2)
                return 0;
            ra->reg = rs->prev;
            ra->k = rs->prev_k;
            ra->iter--;
        } else {
            ra->reg = rs->last;
            ra->k = rs->last_k;
        }
        return 1;
    }
tile:
    if (!def)
        return 0;
    const ir_stmt *store = storing_stmt(f.ir, full);
    const region_seen *rs = store ? record_find_seen(r, store, r->core) : NULL;
    if (!rs)
        return 0;
    uint32_t nd = record_visit_count(r, def, r->core), ns = record_visit_count(r, store, r->core);
    if (!(ns == nd || (f.stmt == def && ns + 1 == nd)))
        return 0; /* the store has not run for this value yet */
    ra->reg = rs->last;
    ra->k = rs->last_k;
    return 1;
}

/* Steps the run in s->run until a core arrives at a load (store) of a
 * region holding the anchor's, for the anchor's k-th time: 1 there
 * (*core_out, *twin, *found), 0 the pass ended or failed first, -1
 * interrupted. */
static int seek_region(session *s, const region_anchor *ra, int any_lane, int *core_out, const ir_stmt **twin,
                       exec_region *found, const char **why)
{
    run_state *r = &s->run;
    for (;;) {
        for (int c = 0; c < EXEC_NCORES && r->regions; c++) {
            int a = r->regions->arrived[c];
            if (!a)
                continue;
            const region_seen *rs = &r->regions->seen[a - 1];
            if (rs->last_k != ra->k || exec_region_empty(&rs->last) || !exec_region_within(&ra->reg, &rs->last) ||
                !ir_funcs_related(rs->func, ra->func) ||
                (exec_region_core_rank(ra->core, c) == 2 && !any_lane) ||
                inspect_core(r->m, c) == INSPECT_CORE_DONE)
                continue;
            *core_out = c;
            *twin = rs->stmt;
            *found = rs->last;
            return 1;
        }
        int go = seek_step(s, why);
        if (go <= 0)
            return go;
    }
}

typedef enum { MATCH_NONE, MATCH_SAME, MATCH_REGION, MATCH_PROV, MATCH_KEY } match_kind;

/* A value named by what it is (exec/prov.h): the k-th value of that
 * provenance computed on core `on` (for a popped tile, the core that
 * pushed it). */
typedef struct prov_anchor {
    uint64_t h;
    uint32_t k;
    int on;
    /* a reshape keeps the provenance (the same elements in the same
     * order): of the values with it, the one of the same shape */
    int ndim;                 /* -1: any shape */
    int64_t shape[TENSOR_MAX_DIMS];
    /* the value the stop's statement is about to compute (pass N while
     * stopped): the other pass's point is where it is about to be computed */
    int pending;
    char desc[640]; /* "the value computed from x[0:16, 0:64] ... by tile.matmul then tile.add" */
    /* a lane's share: its lifted forms along rows and columns (prov.h,
     * machine_prov_lift), to find the value it is a share of */
    int has_lift[PROV_LIFT_DIMS];
    uint64_t lift_l[PROV_LIFT_DIMS];
    int64_t lift_s[PROV_LIFT_DIMS];
} prov_anchor;

static void prov_anchor_describe(const run_state *r, prov_anchor *pa)
{
    strbuf sb = STRBUF_INIT;
    machine_prov_describe(r->m, pa->h, &sb);
    snprintf(pa->desc, sizeof pa->desc, "%s", strbuf_str(&sb));
    strbuf_free(&sb);
}

/* The provenance of variable `full` of frame `level` of the stop's core:
 * 1 when it is a tensor with one. */
static int prov_anchor_of_var(const run_state *r, int level, const char *full, prov_anchor *pa)
{
    int slot = r->m ? inspect_find_slot(r->m, r->core, level, full) : -1;
    const char *sn;
    const value *v;
    if (slot < 0 || !inspect_slot(r->m, r->core, level, slot, &sn, &v) || strcmp(sn, full) != 0 ||
        v->kind != VAL_TENSOR || !v->u.t || !v->u.t->prov || machine_prov_is_param(r->m, v->u.t->prov))
        return 0; /* a parameter is no statement's value: the keys name it */
    pa->h = v->u.t->prov;
    pa->k = v->u.t->prov_k;
    pa->on = v->u.t->prov_core;
    pa->ndim = v->u.t->ndim;
    memcpy(pa->shape, v->u.t->shape, sizeof pa->shape);
    pa->pending = 0;
    for (int d = 0; d < PROV_LIFT_DIMS; d++)
        pa->has_lift[d] = machine_prov_lift(r->m, v->u.t, d, 0, &pa->lift_l[d], &pa->lift_s[d]);
    prov_anchor_describe(r, pa);
    return 1;
}

/* The value the statement core is about to run will compute, by its
 * provenance: 1 when it has one (an op over variables and constants). */
static int prov_anchor_pending(const run_state *r, int core, prov_anchor *pa)
{
    if (!r->m || !machine_prov_pending(r->m, core, &pa->h, &pa->k))
        return 0;
    pa->on = core;
    pa->ndim = -1;
    pa->pending = 1;
    memset(pa->has_lift, 0, sizeof pa->has_lift);
    prov_anchor_describe(r, pa);
    return 1;
}

/* A value computed on core `on` in another pass stands for one computed on
 * the anchor's core: the same core, or a core of another kind (the host
 * before ExpandMixedKernel, AIC or AIV after it); never the other lane. */
static int prov_core_ok(int on, int anchor_on)
{
    return exec_region_core_rank(anchor_on, on) != 2;
}

/* The target of statement st (just run on core) holding a tensor with
 * the anchor's provenance and shape, or NULL. */
static const char *prov_target(const run_state *r, int core, const ir_stmt *st, const prov_anchor *pa)
{
    if (!st || (st->kind != IR_STMT_ASSIGN && st->kind != IR_STMT_YIELD))
        return NULL;
    for (uint32_t i = 0; i < st->u.assign.ntargets; i++) {
        const char *name = st->u.assign.targets[i].name->text;
        int slot = inspect_find_slot(r->m, core, 0, name);
        const char *sn;
        const value *v;
        if (slot >= 0 && inspect_slot(r->m, core, 0, slot, &sn, &v) && v->kind == VAL_TENSOR && v->u.t &&
            v->u.t->prov == pa->h &&
            (pa->ndim < 0 || (v->u.t->ndim == pa->ndim &&
                              memcmp(v->u.t->shape, pa->shape, (size_t)pa->ndim * sizeof *pa->shape) == 0)))
            return sn;
    }
    return NULL;
}

/* Steps the run in s->run until a core assigns the k-th value of the
 * anchor's provenance: 1 there (*core_out, *st: the assigning statement,
 * just run), 0 the pass ended or failed first (or was past it: the caller
 * starts over), -1 interrupted. */
static int seek_prov(session *s, const prov_anchor *pa, int *core_out, const ir_stmt **st, const char **why)
{
    run_state *r = &s->run;
    for (int c = 0; c < EXEC_NCORES; c++)
        if (prov_core_ok(c, pa->on) && machine_prov_count(r->m, pa->h, c) >= pa->k) {
            *why = "it was past that value";
            return 0;
        }
    for (int first = 1;; first = 0) {
        if (pa->pending) {
            /* a core about to compute it */
            for (int c = 0; c < EXEC_NCORES; c++) {
                uint64_t h;
                uint32_t k;
                inspect_frame g;
                if (prov_core_ok(c, pa->on) && machine_prov_pending(r->m, c, &h, &k) && h == pa->h && k == pa->k &&
                    inspect_frame_get(r->m, c, 0, &g)) {
                    *core_out = c;
                    *st = g.stmt;
                    return 1;
                }
            }
        }
        (void)first;
        int go = seek_step(s, why);
        if (go <= 0)
            return go;
        for (int c = 0; c < EXEC_NCORES && !pa->pending; c++) {
            uint64_t h;
            uint32_t k;
            int on;
            const ir_stmt *made;
            if (machine_prov_just_made(r->m, c, &h, &k, &on, &made) && h == pa->h && k == pa->k &&
                prov_core_ok(on, pa->on) && prov_target(r, c, made, pa)) {
                *core_out = c;
                *st = made;
                return 1;
            }
        }
    }
}

/* A lane's share of a value of the other pass (prov.h, machine_prov_lift):
 * where it was found and which part of it the anchor is. */
typedef struct share_found {
    int dim;
    int64_t lo, len;
    int whole;       /* all of it (the lanes' halves merged): the same data */
    char name[256];  /* the counterpart's variable */
    char desc[640];  /* what the counterpart is */
} share_found;

/* The target of st (just run on core) that the anchor is a share of: the
 * k-th value of its hash on its core, with the anchor's lifted form along a
 * dim, holding the anchor's range there, its other dims the anchor's. */
static int share_target(const run_state *r, int core, const ir_stmt *st, const prov_anchor *pa, share_found *sf)
{
    if (!st || (st->kind != IR_STMT_ASSIGN && st->kind != IR_STMT_YIELD))
        return 0;
    for (uint32_t i = 0; i < st->u.assign.ntargets; i++) {
        int slot = inspect_find_slot(r->m, core, 0, st->u.assign.targets[i].name->text);
        const char *sn;
        const value *v;
        if (slot < 0 || !inspect_slot(r->m, core, 0, slot, &sn, &v) || v->kind != VAL_TENSOR || !v->u.t ||
            v->u.t->prov_k != pa->k || v->u.t->ndim != pa->ndim)
            continue;
        const tensor *w = v->u.t;
        for (int d = 0; d < PROV_LIFT_DIMS; d++) {
            uint64_t l;
            int64_t sw;
            int other_dims_equal = 1;
            for (int e = 0; e < w->ndim; e++)
                other_dims_equal &= e == d || w->shape[e] == pa->shape[e];
            if (!pa->has_lift[d] || !other_dims_equal || !machine_prov_lift(r->m, w, d, 1, &l, &sw) ||
                l != pa->lift_l[d] || sw > pa->lift_s[d] || pa->lift_s[d] + pa->shape[d] > sw + w->shape[d])
                continue;
            sf->dim = d;
            sf->lo = pa->lift_s[d] - sw;
            sf->len = pa->shape[d];
            sf->whole = sf->lo == 0 && sf->len == w->shape[d];
            snprintf(sf->name, sizeof sf->name, "%s", sn);
            strbuf sb = STRBUF_INIT;
            machine_prov_describe(r->m, w->prov, &sb);
            snprintf(sf->desc, sizeof sf->desc, "%s", strbuf_str(&sb));
            strbuf_free(&sb);
            return 1;
        }
    }
    return 0;
}

/* Steps the run in s->run (from its start) until a core assigns a value
 * the anchor is a lane's share of (on the anchor's core or one of another
 * kind, as for provenance: never the other lane): 1 there (*core_out, *st, *sf), 0 the
 * pass ended or failed first, -1 interrupted. */
static int seek_share(session *s, const prov_anchor *pa, int *core_out, const ir_stmt **st, share_found *sf,
                      const char **why)
{
    run_state *r = &s->run;
    for (;;) {
        int go = seek_step(s, why);
        if (go <= 0)
            return go;
        for (int c = 0; c < EXEC_NCORES; c++) {
            uint64_t h;
            uint32_t k;
            int on;
            const ir_stmt *made;
            if (machine_prov_just_made(r->m, c, &h, &k, &on, &made) && k == pa->k && prov_core_ok(on, pa->on) &&
                share_target(r, c, made, pa, sf)) {
                *core_out = c;
                *st = made;
                return 1;
            }
        }
    }
}

typedef struct point_match {
    match_kind kind;
    /* MATCH_REGION: the other pass's load/store (about to run on core) and
     * the region it touches, which holds the anchor's */
    const ir_stmt *twin;
    exec_region found;
    int no_region;        /* MATCH_NONE: no statement there touches the region */
    region_anchor anchor; /* MATCH_REGION / no_region: what was looked for */
    int other_lane;       /* MATCH_REGION: on the other lane (the stop's holds nothing there) */
    int standin;          /* MATCH_KEY: an earlier statement stood in */
    prov_anchor prov;     /* MATCH_PROV, prov_missed: what was looked for */
    int prov_missed;      /* no value there has that provenance (then keys: a guess) */
    int share;            /* MATCH_PROV: the anchor is a lane's share of the value found */
    share_found sf;
    int core;             /* where the match landed */
    char func[256];       /* the function in the other pass */
    const char *why;      /* MATCH_NONE: why */
    /* MATCH_SAME: the two functions' variables, in the same order (owned by
     * the alpha cache; valid until the next pass_func) */
    char *const *vars_a, *const *vars_b;
    size_t nvars;
} point_match;

static void match_free(point_match *mt)
{
    memset(mt, 0, sizeof *mt);
}

/* 1 when pt's function is in `pass` the same but for SSA names; *a and *b
 * are then the two functions' alpha texts (owned by the cache). */
static int func_unchanged(session *s, const prog_point *pt, int pass, const alpha_text **a, const alpha_text **b)
{
    const ir_func *fa, *fb;
    return pass_func(s, pt->pass, pt->func, &fa, a) && pass_func(s, pass, pt->func, &fb, b) &&
           (*a)->text.len == (*b)->text.len && strcmp(strbuf_str(&(*a)->text), strbuf_str(&(*b)->text)) == 0;
}

static int func_changed(session *s, const prog_point *pt, int pass)
{
    const alpha_text *a, *b;
    return !func_unchanged(s, pt, pass, &a, &b);
}

/* The statement keys of the stop (pk), captured only when pt's function
 * changed in `pass` (the exact match needs none): 1 when captured. */
static int keys_if_changed(session *s, const prog_point *pt, int pass, point_key *pk)
{
    const alpha_text *a, *b;
    return !func_unchanged(s, pt, pass, &a, &b) && point_capture(s, pk) == 0;
}

/* The run in s->run started over, quietly: its status. */
static ptodb_status restart_quiet(session *s, int pass)
{
    run_kill(s);
    s->quiet++;
    ptodb_status st = run_start(s, pass);
    s->quiet--;
    return st;
}

/* The match of kind landed on core (the run's selected core now). */
static void match_landed(session *s, point_match *mt, match_kind kind, int core)
{
    s->run.core = core;
    s->run.level = 0;
    mt->kind = kind;
    mt->core = core;
    inspect_frame g;
    if (inspect_frame_get(s->run.m, core, 0, &g))
        snprintf(mt->func, sizeof mt->func, "%s", g.func);
}

/* Moves the run in s->run, a fresh start of `pass`, to the moment of that
 * pass that corresponds to pt (captured in another pass, whose statement
 * keys are pk). The exact way first: where pt's function is unchanged in
 * `pass`, the same core, call and statement count. Otherwise by statement
 * keys, said to be a guess. Returns -1 when interrupted. */
static int point_map(session *s, int pass, const prog_point *pt, const point_key *pk, int have_pk,
                     const region_anchor *ra, const prov_anchor *pa, point_match *mt)
{
    memset(mt, 0, sizeof *mt);
    const alpha_text *a = NULL, *b = NULL;
    if (func_unchanged(s, pt, pass, &a, &b)) {
        mt->vars_a = a->vars;
        mt->vars_b = b->vars;
        mt->nvars = a->nvars;
        int got = seek_exact(s, pt);
        if (got < 0)
            return -1;
        if (got) {
            s->run.core = pt->core;
            s->run.level = 0;
            mt->kind = MATCH_SAME;
            mt->core = pt->core;
            snprintf(mt->func, sizeof mt->func, "%s", pt->func);
            return 0;
        }
        mt->kind = MATCH_NONE;
        mt->why = "it ended before that call of the function reached that statement";
        return 0;
    }
    if (ra) {
        int core = -1;
        int got = seek_region(s, ra, 0, &core, &mt->twin, &mt->found, &mt->why);
        /* not found: from the start (a kept run may have been past it), then
         * on a vector lane the other lane's (the stop's lane holds nothing
         * there: a dummy lane of a split) */
        for (int any = 0; any < 2 && got == 0 && !s->run.failed && record_touched(&s->run, &ra->reg); any++) {
            if (any && exec_region_core_kind(ra->core) != 2)
                break;
            got = restart_quiet(s, pass) == PTODB_OK ? seek_region(s, ra, any, &core, &mt->twin, &mt->found, &mt->why)
                                                      : 0;
        }
        mt->other_lane = got > 0 && exec_region_core_rank(ra->core, core) == 2;
        if (got < 0)
            return -1;
        mt->anchor = *ra;
        if (got) {
            match_landed(s, mt, MATCH_REGION, core);
            return 0;
        }
        if (record_touched(&s->run, &ra->reg) || s->run.failed) {
            /* the pass reads (writes) that tensor, never that region so often */
            mt->kind = MATCH_NONE;
            mt->no_region = 1;
            mt->why = s->run.failed ? "it failed before reaching that region" : NULL;
            return 0;
        }
        /* that tensor is no load's (store's) there: the provenance or the
         * statement keys, from the start */
        if (restart_quiet(s, pass) != PTODB_OK) {
            mt->kind = MATCH_NONE;
            mt->why = "it failed to start";
            return 0;
        }
    }
    if (pa) {
        /* what the value is: the same data by the same ops */
        int core = -1;
        const ir_stmt *made = NULL;
        int got = seek_prov(s, pa, &core, &made, &mt->why);
        if (got == 0 && !s->run.failed) /* the kept run was past it, or ended: once more from the start */
            got = restart_quiet(s, pass) == PTODB_OK ? seek_prov(s, pa, &core, &made, &mt->why) : 0;
        if (got < 0)
            return -1;
        mt->prov = *pa;
        if (got) {
            match_landed(s, mt, MATCH_PROV, core);
            mt->twin = made;
            return 0;
        }
        mt->prov_missed = 1;
        mt->why = NULL;
        if (restart_quiet(s, pass) != PTODB_OK) {
            mt->kind = MATCH_NONE;
            mt->why = "it failed to start";
            return 0;
        }
        if (pa->has_lift[0] || pa->has_lift[1]) {
            /* a lane's value: its share of one the other pass computes whole */
            got = seek_share(s, pa, &core, &made, &mt->sf, &mt->why);
            if (got < 0)
                return -1;
            if (got) {
                match_landed(s, mt, MATCH_PROV, core);
                mt->twin = made;
                mt->share = 1;
                mt->prov_missed = 0;
                return 0;
            }
            mt->why = NULL;
            if (restart_quiet(s, pass) != PTODB_OK) {
                mt->kind = MATCH_NONE;
                mt->why = "it failed to start";
                return 0;
            }
        }
    }
    if (!have_pk) {
        mt->kind = MATCH_NONE;
        mt->why = "the function changed and the stop is not at a statement that can be matched";
        return 0;
    }
    const ir_func *nf = NULL;
    int got = seek_by_key(s, pass, pk, &nf, &mt->standin, &mt->why);
    if (got < 0)
        return -1;
    mt->kind = got ? MATCH_KEY : MATCH_NONE;
    mt->core = s->run.core;
    if (nf)
        snprintf(mt->func, sizeof mt->func, "%s", nf->name->text);
    return 0;
}

static const char *ordinal_suffix(uint32_t n)
{
    return n % 100 >= 11 && n % 100 <= 13 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}

/* Why the function is not the same there: "oproj_block_aiv is gone in
 * pass 21, split by ExpandMixedKernel" (the pass between them named when
 * they are neighbours). */
static void describe_change(session *s, const prog_point *pt, int pass, strbuf *out)
{
    int gone = !find_func(session_load_pass(s, pass)->module, pt->func);
    int lo = pass < pt->pass ? pass : pt->pass, hi = pass < pt->pass ? pt->pass : pass;
    strbuf_printf(out, "%s %s in pass %d", pt->func, gone ? "is gone" : "changed", s->kase.passes[pass].index);
    if (hi == lo + 1)
        strbuf_printf(out, ", function %s by %s", gone ? "restructured" : "rewritten", s->kase.passes[hi].name);
}

/* "matched by region resid1_gm[0:16, 128:192]: the tile stored there by
 * oproj_block on host; oproj_block_aiv is gone in pass 21, ..." */
static void describe_region_match(session *s, const prog_point *pt, int pass, const point_match *mt, strbuf *out)
{
    if (mt->anchor.reg.kind == EXEC_REGION_POP) {
        strbuf_printf(out, "matched by queue slot: the %u%s tile %s popped from the %s queue, by %s on %s",
                      mt->anchor.k, ordinal_suffix(mt->anchor.k), machine_core_name(mt->anchor.core),
                      mt->anchor.reg.tensor, mt->func, machine_core_name(mt->core));
        if (mt->other_lane)
            strbuf_printf(out, ", as %s pops nothing there in pass %d", machine_core_name(mt->anchor.core),
                          s->kase.passes[pass].index);
        strbuf_puts(out, "; ");
        describe_change(s, pt, pass, out);
        return;
    }
    const char *verb = mt->anchor.reg.kind == EXEC_REGION_LOAD ? "loaded from" : "stored to";
    strbuf_puts(out, "matched by region ");
    exec_region_format(&mt->anchor.reg, out);
    if (mt->anchor.whole) {
        /* a whole GM tensor: other cores write the rest of it at other moments */
        strbuf_printf(out, " (the part of %s %s stored; compared there only): %s once %s on %s stored ",
                      mt->anchor.reg.tensor, machine_core_name(mt->anchor.core), mt->anchor.reg.tensor, mt->func,
                      machine_core_name(mt->core));
        exec_region_format(&mt->found, out);
    } else if (!exec_region_equal(&mt->anchor.reg, &mt->found)) {
        /* a lane's share (its subblock_idx offsets) of what one core did */
        strbuf_printf(out, ": %s's share of the tile %s ", machine_core_name(mt->anchor.core), verb);
        exec_region_format(&mt->found, out);
        strbuf_printf(out, " by %s on %s, compared on that share", mt->func, machine_core_name(mt->core));
    } else {
        strbuf_printf(out, ": the tile %s it by %s on %s", verb, mt->func, machine_core_name(mt->core));
    }
    if (mt->anchor.k > 1)
        strbuf_printf(out, " (the %u%s time)", mt->anchor.k, ordinal_suffix(mt->anchor.k));
    if (mt->other_lane)
        strbuf_printf(out, ", as %s stores nothing there in pass %d (a dummy lane)", machine_core_name(mt->anchor.core),
                      s->kase.passes[pass].index);
    strbuf_puts(out, "; ");
    describe_change(s, pt, pass, out);
}

/* The parts of region g the run in s->run touched instead (a lane split
 * cut it in halves): "; it stores out[0:64, 0:128] on AIV0, ...". */
static void describe_parts(session *s, const exec_region *g, strbuf *out)
{
    const struct point_regions *pr = s->run.regions;
    int n = 0;
    for (size_t i = 0; pr && i < pr->nseen && n < 4; i++) {
        const exec_region *o = &pr->seen[i].last;
        if (o->kind != g->kind || o->ndim != g->ndim || strcmp(o->tensor, g->tensor) != 0 || exec_region_empty(o))
            continue;
        int overlap = 1;
        for (int d = 0; d < g->ndim && overlap; d++)
            overlap = o->lo[d] < g->lo[d] + g->len[d] && g->lo[d] < o->lo[d] + o->len[d];
        if (!overlap)
            continue;
        strbuf_puts(out, n++ ? ", " : g->kind == EXEC_REGION_LOAD ? "; it loads parts: " : "; it stores parts: ");
        exec_region_format(o, out);
        strbuf_printf(out, " on %s", machine_core_name(pr->seen[i].core));
    }
}

/* "(same point: ... unchanged)" or the guess it is. */
static void describe_match(session *s, const prog_point *pt, int pass, const point_match *mt, strbuf *out)
{
    const case_pass *cp = &s->kase.passes[pass];
    switch (mt->kind) {
    case MATCH_SAME:
        strbuf_printf(out, "same point: %s is unchanged in pass %d but for SSA names", pt->func, cp->index);
        break;
    case MATCH_KEY:
        strbuf_puts(out, "a guess: ");
        if (mt->prov_missed)
            strbuf_printf(out, "pass %d computes no value from the same data by the same ops; ", cp->index);
        strbuf_printf(out, "%s %s in pass %d; matched by SSA base names, op and occurrence in %s on %s%s",
                      pt->func, find_func(session_load_pass(s, pass)->module, pt->func) ? "changed" : "is gone",
                      cp->index, mt->func, machine_core_name(mt->core),
                      mt->standin ? ", after the nearest earlier statement both have" : "");
        break;
    case MATCH_PROV:
        if (mt->share && mt->sf.whole) {
            /* all of it: one of the two is the lanes' parts put together
             * (a merge), the other computed whole */
            strbuf_printf(out,
                          "matched by provenance: %s, computed by %s on %s: the same ops on the same %s as %s, one of "
                          "the two computed as two lanes' parts and merged",
                          mt->sf.desc, mt->func, machine_core_name(mt->core), mt->sf.dim == 0 ? "rows" : "columns",
                          mt->prov.desc);
            if (mt->prov.k > 1)
                strbuf_printf(out, " (the %u%s such value)", mt->prov.k, ordinal_suffix(mt->prov.k));
            strbuf_puts(out, "; ");
            describe_change(s, pt, pass, out);
            break;
        }
        if (mt->share) {
            strbuf_printf(out,
                          "matched by provenance: %s's share (%s %" PRId64 ":%" PRId64 " of dim %d) of %s, computed "
                          "by %s on %s: the same ops on those %s (%s)",
                          machine_core_name(pt->core), mt->sf.dim == 0 ? "rows" : "columns", mt->sf.lo,
                          mt->sf.lo + mt->sf.len, mt->sf.dim, mt->sf.desc, mt->func, machine_core_name(mt->core),
                          mt->sf.dim == 0 ? "rows" : "columns", mt->prov.desc);
            if (mt->prov.k > 1)
                strbuf_printf(out, " (the %u%s such value)", mt->prov.k, ordinal_suffix(mt->prov.k));
            strbuf_puts(out, ", compared on that share; ");
            describe_change(s, pt, pass, out);
            break;
        }
        strbuf_printf(out, "matched by provenance: %s, %s by %s on %s", mt->prov.desc,
                      mt->prov.pending ? "about to be computed" : "computed", mt->func, machine_core_name(mt->core));
        if (mt->prov.k > 1)
            strbuf_printf(out, " (the %u%s such value)", mt->prov.k, ordinal_suffix(mt->prov.k));
        strbuf_puts(out, "; ");
        describe_change(s, pt, pass, out);
        break;
    case MATCH_REGION:
        describe_region_match(s, pt, pass, mt, out);
        break;
    case MATCH_NONE:
        if (mt->no_region && !mt->why && mt->anchor.reg.kind == EXEC_REGION_POP) {
            strbuf_printf(out,
                          "no counterpart in pass %d: no %u%s pop from the %s queue in %s or a function split from it",
                          cp->index, mt->anchor.k, ordinal_suffix(mt->anchor.k), mt->anchor.reg.tensor,
                          mt->anchor.func);
        } else if (mt->no_region && !mt->why) {
            strbuf_printf(out, "no counterpart in pass %d: it has no statement %s ", cp->index,
                          mt->anchor.reg.kind == EXEC_REGION_LOAD ? "reading" : "writing");
            exec_region_format(&mt->anchor.reg, out);
            if (mt->anchor.k > 1)
                strbuf_printf(out, " a %u%s time", mt->anchor.k, ordinal_suffix(mt->anchor.k));
            describe_parts(s, &mt->anchor.reg, out);
        } else if (mt->prov_missed) {
            strbuf_printf(out, "no counterpart in pass %d: it computes no value from the same data by the same ops (%s)%s%s",
                          cp->index, mt->prov.desc, mt->why ? ", and " : "", mt->why ? mt->why : "");
        } else {
            strbuf_printf(out, "no counterpart in pass %d: %s", cp->index, mt->why ? mt->why : "none found");
        }
        break;
    }
}

ptodb_status run_seek_point(session *s, int pass)
{
    prog_point pt;
    point_key pk;
    if (point_here(s, &pt) != 0)
        return run_start(s, pass);
    int have_pk = keys_if_changed(s, &pt, pass, &pk);
    region_anchor ra;
    int have_ra = func_changed(s, &pt, pass) && anchor_here(&s->run, pt.core, &ra) && !exec_region_empty(&ra.reg);
    /* else the value the statement is about to compute, by its provenance */
    prov_anchor pa;
    int have_pa = !have_ra && func_changed(s, &pt, pass) && prov_anchor_pending(&s->run, pt.core, &pa);
    strbuf where = STRBUF_INIT;
    describe_frame(s, pt.core, 0, &where);
    ptodb_status st = run_start(s, pass);
    if (st != PTODB_OK) {
        strbuf_free(&where);
        if (have_pk)
            point_free(&pk);
        return st;
    }
    point_match mt;
    int got = point_map(s, pass, &pt, &pk, have_pk, have_ra ? &ra : NULL, have_pa ? &pa : NULL, &mt);
    if (got < 0) {
        s->interrupted = 0;
        session_notify_run_interrupted(s);
        session_notify_stop_location(s);
    } else {
        strbuf how = STRBUF_INIT;
        describe_match(s, &pt, pass, &mt, &how);
        session_notify_point_sought(s, pass, mt.kind != MATCH_NONE, strbuf_str(&where), strbuf_str(&how));
        if (mt.kind == MATCH_NONE) {
            /* the seek ran on (to the end, maybe): back to the start */
            restart_quiet(s, pass);
            session_notify_run_restarted(s, pass);
        }
        strbuf_free(&how);
        session_notify_stop_location(s);
        if (mt.kind != MATCH_NONE)
            session_notify_normal_stop(s, 0);
    }
    match_free(&mt);
    strbuf_free(&where);
    if (have_pk)
        point_free(&pk);
    return PTODB_OK;
}

/* ---- a tensor at the corresponding point ---------------------------------------------------- */

/* The statement of f that assigns `name` last (exact target name), or NULL. */
static const ir_stmt *defining_stmt(const ir_func *f, const char *name)
{
    stmt_list l = {0};
    collect(&f->body, &l);
    const ir_stmt *found = NULL;
    for (size_t i = 0; i < l.n; i++) {
        const ir_stmt *st = l.items[i];
        if (st->kind != IR_STMT_ASSIGN && st->kind != IR_STMT_YIELD)
            continue;
        for (uint32_t t = 0; t < st->u.assign.ntargets; t++)
            if (strcmp(st->u.assign.targets[t].name->text, name) == 0)
                found = st;
    }
    free(l.items);
    return found;
}

/* The name pass `pass` gives the variable `name` (a full slot name) of
 * function `func` of pass `from`, by the statement that assigns it
 * (t__tile_6 in one pass is t__tmp_v6 in another); 0 when there is none. */
static int name_by_key(session *s, int from, const char *func, int pass, const char *name, char *buf, size_t size)
{
    pass_state *cur = session_load_pass(s, from), *other = session_load_pass(s, pass);
    const ir_func *cf = cur->module ? find_func(cur->module, func) : NULL;
    const ir_stmt *def = cf ? defining_stmt(cf, name) : NULL;
    if (!def || !other->module)
        return 0;
    strbuf key = STRBUF_INIT;
    stmt_key(def, &key);
    int nth = occurrence(cf, def, strbuf_str(&key));
    const ir_func *of = NULL;
    const ir_stmt *twin = nth >= 0 ? find_corresponding(other->module, cf->name->text, strbuf_str(&key), nth, &of)
                                   : NULL;
    strbuf_free(&key);
    if (!twin || (twin->kind != IR_STMT_ASSIGN && twin->kind != IR_STMT_YIELD) || !twin->u.assign.ntargets)
        return 0;
    for (uint32_t t = 0; t < def->u.assign.ntargets && t < twin->u.assign.ntargets; t++)
        if (strcmp(def->u.assign.targets[t].name->text, name) == 0) {
            snprintf(buf, size, "%s", twin->u.assign.targets[t].name->text);
            return 1;
        }
    return 0;
}

/* One statement of core in the side run, its arrival counted: 1, or 0
 * when it failed (the run is marked failed). */
static int step_core_noted(session *s, int core, exec_event *ev)
{
    ptodb_status rc = machine_step_core(s->run.m, core, ev);
    if (rc != PTODB_OK || ev->kind == EXEC_EV_ERROR) {
        s->run.failed = 1;
        return 0;
    }
    run_note_arrivals(&s->run, core);
    return 1;
}

/* The variable of the other pass's load/store that holds the anchor's
 * data: a load's target once the load has run (the core steps it), a
 * store's tile before it is stored. */
static void region_counterpart(session *s, point_match *mt, char *buf, size_t size)
{
    const ir_stmt *st = mt->twin;
    const ir_expr *data = NULL, *offs = NULL, *dest = NULL;
    exec_region_store_operands(st, &data, &offs, &dest);
    if (mt->anchor.whole) {
        /* the GM tensor once the store has run: its result, or its destination */
        exec_event ev;
        if (!step_core_noted(s, mt->core, &ev))
            return;
        if (st->kind == IR_STMT_ASSIGN && st->u.assign.ntargets)
            snprintf(buf, size, "%s", st->u.assign.targets[0].name->text);
        else if (dest && dest->kind == IR_EXPR_NAME)
            snprintf(buf, size, "%s", dest->u.name->text);
        return;
    }
    if (mt->found.kind == EXEC_REGION_POP) {
        if (st->kind != IR_STMT_ASSIGN || !st->u.assign.ntargets)
            return;
        /* the pop may wait for its producer: the scheduler runs until the
         * core has taken the tile */
        inspect_frame g;
        if (!inspect_frame_get(s->run.m, mt->core, 0, &g))
            return;
        uint64_t steps = g.local_steps;
        uint32_t act = g.activation;
        const char *why;
        while (inspect_frame_get(s->run.m, mt->core, 0, &g) && g.activation == act && g.local_steps == steps &&
               inspect_core(s->run.m, mt->core) != INSPECT_CORE_DONE) {
            if (inspect_core(s->run.m, mt->core) == INSPECT_CORE_READY) {
                exec_event ev;
                if (!step_core_noted(s, mt->core, &ev))
                    return;
                if (ev.kind != EXEC_EV_BLOCKED)
                    continue;
            }
            if (seek_step(s, &why) <= 0)
                return;
        }
        s->run.core = mt->core;
        s->run.level = 0;
        snprintf(buf, size, "%s", st->u.assign.targets[0].name->text);
        return;
    }
    if (mt->found.kind == EXEC_REGION_LOAD) {
        if (st->kind != IR_STMT_ASSIGN || !st->u.assign.ntargets)
            return;
        exec_event ev;
        if (!step_core_noted(s, mt->core, &ev))
            return;
        snprintf(buf, size, "%s", st->u.assign.targets[0].name->text);
        return;
    }
    if (data && data->kind == IR_EXPR_NAME)
        snprintf(buf, size, "%s", data->u.name->text);
}

/* The target of the other pass's statement that has just assigned the
 * value with the anchor's provenance (and shape). */
static void prov_counterpart(session *s, const point_match *mt, char *buf, size_t size)
{
    if (mt->share) {
        snprintf(buf, size, "%s", mt->sf.name);
        return;
    }
    const char *name = prov_target(&s->run, mt->core, mt->twin, &mt->prov);
    if (name)
        snprintf(buf, size, "%s", name);
}

/* A tile holding a larger region than the anchor's (the whole tensor one
 * core computed before a lane split): the anchor's share of it. */
static tensor *region_share(tensor *t, const point_match *mt)
{
    const exec_region *a = &mt->anchor.reg, *f = &mt->found;
    if ((!mt->anchor.whole && exec_region_equal(a, f)) || t->ndim != a->ndim)
        return t;
    tensor *cur = t;
    for (int d = 0; d < a->ndim && cur; d++) {
        int64_t lo = mt->anchor.whole ? a->lo[d] : a->lo[d] - f->lo[d];
        if (lo == 0 && a->len[d] == cur->shape[d])
            continue;
        ptodb_status st;
        tensor *next = tensor_slice(cur, d, lo, lo + a->len[d], 1, &st);
        tensor_unref(cur);
        cur = next;
    }
    return cur;
}

/* The side run for `diff ... pass N`: kept between calls, so that diffs at
 * successive stops of one run continue it instead of starting over. */
static void side_swap(session *s)
{
    run_state t = s->run;
    s->run = s->side;
    s->side = t;
}

void point_side_kill(session *s)
{
    side_swap(s);
    run_kill(s);
    side_swap(s);
    alpha_cache_free(s);
}

tensor *point_share_of(tensor *t, const point_share *own)
{
    if (!own || !own->ndim || t->ndim != own->ndim)
        return tensor_ref(t);
    tensor *cur = tensor_ref(t);
    for (int d = 0; d < own->ndim && cur; d++) {
        ptodb_status st;
        tensor *next = tensor_slice(cur, d, own->lo[d], own->lo[d] + own->len[d], 1, &st);
        tensor_unref(cur);
        cur = next;
    }
    return cur;
}

/* ---- diff's fallback: the same position ------------------------------------------------------ */

/* The SSA base of the GM tensor a load (store) statement reads (writes),
 * from its text: the name every pass gives it. */
static void access_tensor(const ir_stmt *st, strbuf *out)
{
    exec_region_kind k = exec_region_stmt_kind(st);
    const ir_expr *e = NULL;
    if (k == EXEC_REGION_STORE) {
        const ir_expr *data, *off;
        if (!exec_region_store_operands(st, &data, &off, &e))
            e = NULL;
    } else if (k == EXEC_REGION_LOAD) {
        const ir_expr *c = st->kind == IR_STMT_ASSIGN ? st->u.assign.value : st->kind == IR_STMT_EXPR ? st->u.expr.value : NULL;
        if (c && c->kind == IR_EXPR_CALL && c->u.call.nargs > 0)
            e = c->u.call.args[0];
    }
    if (e && e->kind == IR_EXPR_NAME)
        ir_ssa_base_name(e->u.name->text, out);
}

typedef struct access_find {
    exec_region_kind kind;
    const char *tensor;
    const ir_stmt *target; /* count up to it */
    int nth;               /* the target's index, or the index to find */
    int n;
    const ir_stmt *found;
} access_find;

static void find_access(void *ctx, const ir_stmt *st)
{
    access_find *a = ctx;
    if (exec_region_stmt_kind(st) != a->kind)
        return;
    strbuf t = STRBUF_INIT;
    access_tensor(st, &t);
    int same = strcmp(strbuf_str(&t), a->tensor) == 0;
    strbuf_free(&t);
    if (!same)
        return;
    if (a->target && st == a->target)
        a->nth = a->n;
    if (!a->target && a->n == a->nth && !a->found)
        a->found = st;
    a->n++;
}

/* The same position as the anchor's access in pass `pass`: the statement of
 * the same function (or one split or outlined from it) that is the same
 * how-manieth access of the same GM tensor in its source, reached by the
 * same core kind in the same call of the function for the same how-manieth
 * time. Steps the run (s->run, already at the start) there: 1 arrived (*core
 * and *twin set), 0 not (*why says what differs), -1 interrupted. */
static int seek_same_position(session *s, int stop_pass, int pass, const region_anchor *ra, int *core_out,
                              const ir_stmt **twin, char *why, size_t whysize)
{
    const ir_module *ma = session_load_pass(s, stop_pass)->module, *mb = session_load_pass(s, pass)->module;
    const ir_func *fa = ma ? func_of(ma, ra->stmt) : NULL;
    if (!fa || !mb || !ra->stmt)
        return 0;
    strbuf tn = STRBUF_INIT;
    access_tensor(ra->stmt, &tn);
    access_find af = {exec_region_stmt_kind(ra->stmt), strbuf_str(&tn), ra->stmt, -1, 0, NULL};
    ir_walk_stmts(&fa->body, find_access, &af);
    const ir_func *fb = find_func(mb, ra->func);
    for (uint32_t i = 0; !fb && i < mb->program->nfuncs; i++)
        if (ir_funcs_related(mb->program->funcs[i]->name->text, ra->func))
            fb = mb->program->funcs[i];
    if (fb && af.nth >= 0) {
        access_find bf = {af.kind, strbuf_str(&tn), NULL, af.nth, 0, NULL};
        ir_walk_stmts(&fb->body, find_access, &bf);
        *twin = bf.found;
    }
    if (!fb || !*twin) {
        snprintf(why, whysize, "%s has no %s access of %s by %s", s->kase.passes[pass].stem,
                 af.nth >= 0 ? "such" : "matching", strbuf_str(&tn), ra->func);
        strbuf_free(&tn);
        return 0;
    }
    const char *fbn = fb->name->text;
    run_state *r = &s->run;
    uint32_t most = 0;
    for (;;) {
        for (int c = 0; c < EXEC_NCORES; c++) {
            inspect_frame g;
            if (exec_region_core_rank(ra->core, c) == 2 || !inspect_frame_get(r->m, c, 0, &g) || g.stmt != *twin ||
                g.activation != ra->activation || inspect_core(r->m, c) == INSPECT_CORE_DONE)
                continue;
            uint32_t it = run_visit_iteration(r, *twin, c, g.activation);
            if (it > most)
                most = it;
            if (it == ra->iter) {
                *core_out = c;
                strbuf_free(&tn);
                return 1;
            }
        }
        const char *w;
        int go = seek_step(s, &w);
        if (go < 0) {
            strbuf_free(&tn);
            return -1;
        }
        if (go == 0)
            break;
    }
    snprintf(why, whysize,
             "the same point is not reached in %s: call %u of %s arrives at its access of %s (line %u) %u time%s, "
             "here %u",
             s->kase.passes[pass].stem, ra->activation + 1, fbn, strbuf_str(&tn), (*twin)->span.line, most,
             most == 1 ? "" : "s", ra->iter);
    strbuf_free(&tn);
    return 0;
}

tensor *session_tensor_in_pass(session *s, int pass, const char *name, int flags, point_share *own)
{
    run_state *r = &s->run;
    s->point_last = POINT_MATCH_NONE;
    s->point_last_how[0] = 0;
    if (own)
        own->ndim = 0;
    if (!r->active || r->finished || r->failed) {
        session_errorf(s, "diff ... pass N needs a run stopped inside a pass (the point to compare at).");
        return NULL;
    }
    prog_point pt;
    if (point_here(s, &pt) != 0) {
        session_errorf(s, "No current point to compare at.");
        return NULL;
    }
    /* the variable: its full slot name in the selected frame */
    const char *slot_name;
    const value *v;
    char full[256];
    inspect_frame sel;
    if (!session_frame_value(s, name, &slot_name, &v) || !inspect_frame_get(r->m, r->core, r->level, &sel)) {
        session_errorf(s, "No variable \"%s\" in the current frame.", name);
        return NULL;
    }
    snprintf(full, sizeof full, "%s", slot_name);
    /* the statement keys only matter when the function changed */
    point_key pk;
    int have_pk = keys_if_changed(s, &pt, pass, &pk);
    /* what the variable's data is, where a pass restructured the function */
    region_anchor ra;
    int have_ra = func_changed(s, &pt, pass) && anchor_of_var(r, r->level, full, &ra) && !exec_region_empty(&ra.reg);
    /* else what the value is: its provenance */
    prov_anchor pa;
    int have_pa = func_changed(s, &pt, pass) && prov_anchor_of_var(r, r->level, full, &pa);
    strbuf where = STRBUF_INIT;
    if (flags & POINT_SAY_MATCH)
        describe_frame(s, pt.core, 0, &where);
    else
        strbuf_printf(&where, "%s", machine_core_name(pt.core));
    char sel_func[256];
    snprintf(sel_func, sizeof sel_func, "%s", sel.func);
    int level = r->level;
    int saved_pass = s->cur_pass, saved_list = s->list_line;
    exec_profile_id prof = session_profile(s);

    /* the side run: continued when it is this pass's, not past the point */
    side_swap(s);
    int fresh = 0;
    point_match mt;
    memset(&mt, 0, sizeof mt);
    tensor *t = NULL;
    strbuf how = STRBUF_INIT;
    if (!s->run.active || s->run.pass != pass || s->side_profile != prof || s->run.finished || s->run.failed) {
        s->quiet++;
        ptodb_status st = run_start(s, pass);
        s->quiet--;
        fresh = 1;
        if (st != PTODB_OK) {
            run_kill(s);
            goto out;
        }
        s->side_profile = prof;
    }
    int got = point_map(s, pass, &pt, &pk, have_pk, have_ra ? &ra : NULL, have_pa ? &pa : NULL, &mt);
    if (got == 0 && mt.kind == MATCH_NONE && !fresh) {
        /* the kept run was past the point: once more from the start */
        match_free(&mt);
        s->quiet++;
        ptodb_status st = run_start(s, pass);
        s->quiet--;
        got = st == PTODB_OK ? point_map(s, pass, &pt, &pk, have_pk, have_ra ? &ra : NULL, have_pa ? &pa : NULL, &mt)
                             : 0;
    }
    if (got < 0) {
        s->interrupted = 0;
        session_errorf(s, "Interrupted.");
    } else {
        describe_match(s, &pt, pass, &mt, &how);
        /* a region match is by the data itself: as exact as an unchanged
         * function (the sentence in how says which) */
        s->point_last = mt.kind == MATCH_SAME || mt.kind == MATCH_REGION || mt.kind == MATCH_PROV ? POINT_MATCH_EXACT
                        : mt.kind == MATCH_KEY                           ? POINT_MATCH_GUESS
                                                                         : POINT_MATCH_NONE;
        snprintf(s->point_last_how, sizeof s->point_last_how, "%s", strbuf_str(&how));
        char other[256];
        snprintf(other, sizeof other, "%s", full);
        if (mt.kind == MATCH_SAME && strcmp(sel_func, pt.func) == 0) {
            /* the same variable of the unchanged function */
            for (size_t i = 0; i < mt.nvars; i++)
                if (strcmp(mt.vars_a[i], full) == 0)
                    snprintf(other, sizeof other, "%s", mt.vars_b[i]);
        } else if (mt.kind == MATCH_REGION) {
            region_counterpart(s, &mt, other, sizeof other);
        } else if (mt.kind == MATCH_PROV) {
            prov_counterpart(s, &mt, other, sizeof other);
        } else if (mt.kind != MATCH_NONE) {
            name_by_key(s, pt.pass, sel_func, pass, full, other, sizeof other);
        }
        int position = 0;
        if (mt.kind == MATCH_NONE && mt.no_region && have_ra && ra.stmt &&
            exec_region_stmt_kind(ra.stmt) == EXEC_REGION_LOAD && restart_quiet(s, pass) == PTODB_OK) {
            /* no counterpart by data: the same position instead, and what
             * differs there (the region read, or how often it is reached) */
            int core = -1;
            const ir_stmt *twin = NULL;
            char why[512];
            int got2 = seek_same_position(s, pt.pass, pass, &ra, &core, &twin, why, sizeof why);
            strbuf pos = STRBUF_INIT;
            if (got2 > 0) {
                exec_region g;
                strbuf here = STRBUF_INIT;
                describe_frame(s, core, 0, &here);
                int have_g = exec_region_of(s->run.m, core, twin, &g);
                strbuf_printf(&pos, "%s; at the same position instead (%s, arrival %u at line %u): this execution reads ",
                              strbuf_str(&how), strbuf_str(&here), ra.iter, twin->span.line);
                exec_region_format(&ra.reg, &pos);
                strbuf_printf(&pos, "; the same point of pass %d reads ", s->kase.passes[pass].index);
                if (have_g)
                    exec_region_format(&g, &pos);
                else
                    strbuf_puts(&pos, "(a region that cannot be evaluated)");
                strbuf_free(&here);
                /* the load runs: its tile is the counterpart, compared as a
                 * position, not as the same data */
                exec_event ev;
                s->run.core = core;
                if (twin->kind == IR_STMT_ASSIGN && twin->u.assign.ntargets == 1 && step_core_noted(s, core, &ev)) {
                    snprintf(other, sizeof other, "%s", twin->u.assign.targets[0].name->text);
                    s->run.level = 0;
                    t = session_lookup_tensor(s, other, NULL, 1);
                }
                position = 1;
            } else if (got2 == 0) {
                strbuf_printf(&pos, "%s; at the same position instead: %s", strbuf_str(&how), why);
            } else {
                s->interrupted = 0;
                strbuf_printf(&pos, "%s", strbuf_str(&how));
            }
            strbuf_clear(&how);
            strbuf_puts(&how, strbuf_str(&pos));
            strbuf_free(&pos);
            s->point_last = t ? POINT_MATCH_GUESS : POINT_MATCH_NONE;
            snprintf(s->point_last_how, sizeof s->point_last_how, "%s", strbuf_str(&how));
        }
        if (position && t) {
            if (flags & POINT_SAY_MATCH)
                session_notify_counterpart_found(s, full, pt.pass, strbuf_str(&where), other, pass, strbuf_str(&how));
            s->run.level = 0;
        } else if (mt.kind == MATCH_NONE) {
            session_errorf(s, "%s (%s, %s line %d) has no counterpart: %s.", full, strbuf_str(&where), pt.func,
                           pt.line, strbuf_str(&how));
        } else {
            s->run.level = mt.kind == MATCH_REGION || mt.kind == MATCH_PROV ? 0
                           : level < inspect_depth(s->run.m, s->run.core) ? level
                                                                          : 0;
            t = session_lookup_tensor(s, other, NULL, 1);
            if (t && mt.kind == MATCH_REGION && !(mt.anchor.whole && !own))
                t = region_share(t, &mt);
            if (t && mt.kind == MATCH_PROV && mt.share) {
                /* the lane's rows (columns) of the whole value */
                ptodb_status st;
                tensor *part = tensor_slice(t, mt.sf.dim, mt.sf.lo, mt.sf.lo + mt.sf.len, 1, &st);
                tensor_unref(t);
                t = part;
            }
            if (t && mt.kind == MATCH_REGION && mt.anchor.whole && own) {
                own->ndim = mt.anchor.reg.ndim;
                memcpy(own->lo, mt.anchor.reg.lo, sizeof own->lo);
                memcpy(own->len, mt.anchor.reg.len, sizeof own->len);
            }
            if (!t && mt.kind == MATCH_KEY && mt.prov_missed) {
                /* no value with its provenance, and the guess names none:
                 * said plainly */
                mt.kind = MATCH_NONE;
                mt.why = NULL;
                strbuf_clear(&how);
                describe_match(s, &pt, pass, &mt, &how);
                s->point_last = POINT_MATCH_NONE;
                snprintf(s->point_last_how, sizeof s->point_last_how, "%s", strbuf_str(&how));
                if (!(flags & POINT_QUIET_MISSING))
                    session_errorf(s, "%s (%s, %s line %d) has no counterpart: %s.", full, strbuf_str(&where),
                                   pt.func, pt.line, strbuf_str(&how));
            } else if (!t && !(flags & POINT_QUIET_MISSING))
                session_errorf(s, "No tensor \"%s\" at the corresponding point of pass %d (%s).", other,
                               s->kase.passes[pass].index, strbuf_str(&how));
            else if (t && (flags & POINT_SAY_MATCH))
                session_notify_counterpart_found(s, full, pt.pass, strbuf_str(&where), other, pass, strbuf_str(&how));
            s->run.level = 0;
        }
    }
out:
    strbuf_free(&how);
    match_free(&mt);
    side_swap(s);
    s->cur_pass = saved_pass;
    s->list_line = saved_list;
    strbuf_free(&where);
    if (have_pk)
        point_free(&pk);
    return t;
}

point_match_quality point_last_match(const session *s, const char **how)
{
    if (how)
        *how = s->point_last_how;
    return (point_match_quality)s->point_last;
}

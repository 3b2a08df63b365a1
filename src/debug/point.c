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
#include "ir/walk.h"

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

/* Where a stopped run is, in terms that survive a pass change: the
 * statement's key, and the keys of the statements before it in its function
 * (a statement a pass introduced, like tfree, has no twin in earlier passes;
 * the nearest earlier one that does stands in for it). */
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
        /* Loops and ifs are not stopping points of their own. */
        if (st->kind == IR_STMT_FOR || st->kind == IR_STMT_WHILE || st->kind == IR_STMT_IF ||
            st->kind == IR_STMT_WITH)
            break;
        strbuf key = STRBUF_INIT;
        stmt_key(st, &key);
        int k = pk->n++;
        pk->nth[k] = occurrence(of, st, strbuf_str(&key));
        pk->key[k] = strbuf_detach(&key);
        pk->arrivals[k] = visit_count(r, st, r->core);
        /* The stop's own statement has been reached (not yet run) once more
         * than counted; earlier ones were reached as often as they ran. */
        if (k == 0 || pk->arrivals[k] == 0)
            pk->arrivals[k] = pk->arrivals[k] ? pk->arrivals[k] : 1;
    }
    free(l.items);
    pk->core = r->core;
    snprintf(pk->func, sizeof pk->func, "%s", f.func);
    pk->line = f.line;
    return pk->n ? 0 : -1;
}

/* Starts `pass` and runs it (ignoring breakpoints) to the point pk names.
 * *reached is 1 when it got there. Prints only when !quiet (errors always). */
static ptodb_status point_seek(session *s, int pass, const point_key *pk, int quiet, int *reached)
{
    run_state *r = &s->run;
    *reached = 0;
    pass_state *np = session_load_pass(s, pass);
    const ir_func *nf = NULL;
    const ir_stmt *target = NULL;
    int which = 0;
    for (; np->module && which < pk->n && !target; which++)
        if (pk->nth[which] >= 0)
            target = find_corresponding(np->module, pk->func, pk->key[which], pk->nth[which], &nf);
    which--;
    /* Standing in for the stop with an earlier statement: stop just after it. */
    int after = target && which > 0;
    uint32_t arrivals = target ? pk->arrivals[which] : 1;
    s->quiet += quiet;
    ptodb_status st = run_start(s, pass);
    s->quiet -= quiet;
    if (st != PTODB_OK)
        return st;
    if (!target) {
        if (!quiet) {
            session_printf(s, "Pass %d has no statement corresponding to %s line %d; the run is at its start.\n",
                           s->kase.passes[pass].index, pk->func, pk->line);
            run_print_location(s);
        }
        return PTODB_OK;
    }
    /* Run until a core arrives at target the same number of times; prefer
     * the same core, else any. */
    for (;;) {
        int hit_core = -1;
        for (int c = 0; c < EXEC_NCORES; c++) {
            inspect_frame g;
            if (inspect_frame_get(r->m, c, 0, &g) && g.stmt == target &&
                inspect_core(r->m, c) != INSPECT_CORE_DONE) {
                uint32_t n = visit_count(r, target, c);
                if (n + 1 >= arrivals && (c == pk->core || hit_core < 0))
                    hit_core = c;
            }
        }
        if (hit_core >= 0 && after) {
            /* Run the stand-in statement on that core, then stop. */
            exec_event ev;
            st = machine_step_core(r->m, hit_core, &ev);
            if (st != PTODB_OK || ev.kind == EXEC_EV_ERROR) {
                session_errorf(s, "%s", machine_error(r->m));
                r->failed = 1;
                return st != PTODB_OK ? st : PTODB_ERR_RUNTIME;
            }
            after = 0;
            target = NULL; /* reached */
        }
        if (hit_core >= 0 || (!target && !after)) {
            if (hit_core < 0)
                hit_core = r->core;
            r->core = hit_core;
            r->level = 0;
            *reached = 1;
            if (!quiet) {
                session_printf(s, "Corresponding point in pass %d (%s%s):\n", s->kase.passes[pass].index,
                               nf->name->text, which > 0 ? ", after the nearest statement both passes have" : "");
                run_print_location(s);
                display_show_all(s, 0);
            }
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
            if (!quiet)
                session_printf(s, "Pass %d ended before reaching the corresponding statement (arrival %u).\n",
                               s->kase.passes[pass].index, arrivals);
            r->finished = 1;
            return PTODB_OK;
        }
        inspect_frame g;
        if (inspect_frame_get(r->m, ev.core, 0, &g))
            run_count_visit(r, g.stmt, ev.core);
    }
}

ptodb_status run_seek_point(session *s, int pass)
{
    point_key pk;
    if (point_capture(s, &pk) != 0)
        return run_start(s, pass);
    int reached;
    ptodb_status st = point_seek(s, pass, &pk, 0, &reached);
    point_free(&pk);
    return st;
}

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

/* The name the other pass gives the tensor `name` of the current frame: the
 * target of the statement corresponding to the one that assigns it
 * (t__tile_6 in one pass is t__tmp_v6 in another). Writes it to buf;
 * returns 0, or -1 when there is no such statement. */
static int corresponding_name(session *s, int pass, const char *name, char *buf, size_t size)
{
    run_state *r = &s->run;
    inspect_frame f;
    if (!inspect_frame_get(r->m, r->core, r->level, &f) || !f.stmt)
        return -1;
    pass_state *cur = session_load_pass(s, r->pass), *other = session_load_pass(s, pass);
    const ir_func *cf = func_of(cur->module, f.stmt);
    const ir_stmt *def = cf ? defining_stmt(cf, name) : NULL;
    if (!def || !other->module)
        return -1;
    strbuf key = STRBUF_INIT;
    stmt_key(def, &key);
    int nth = occurrence(cf, def, strbuf_str(&key));
    const ir_func *of = NULL;
    const ir_stmt *twin = nth >= 0 ? find_corresponding(other->module, cf->name->text, strbuf_str(&key), nth, &of)
                                   : NULL;
    strbuf_free(&key);
    if (!twin || (twin->kind != IR_STMT_ASSIGN && twin->kind != IR_STMT_YIELD) || !twin->u.assign.ntargets)
        return -1;
    snprintf(buf, size, "%s", twin->u.assign.targets[0].name->text);
    return 0;
}

tensor *session_tensor_in_pass(session *s, int pass, const char *name)
{
    if (!s->run.active || s->run.finished || s->run.failed) {
        session_errorf(s, "diff ... pass N needs a run stopped inside a pass (the point to compare at).");
        return NULL;
    }
    point_key pk;
    if (point_capture(s, &pk) != 0) {
        session_errorf(s, "No current statement to compare at.");
        return NULL;
    }
    char other_name[256];
    if (corresponding_name(s, pass, name, other_name, sizeof other_name) != 0)
        snprintf(other_name, sizeof other_name, "%s", name);
    /* A second run on the side: the user's run stays as it is. */
    run_state saved = s->run;
    int saved_pass = s->cur_pass, saved_list = s->list_line;
    memset(&s->run, 0, sizeof s->run);
    int reached = 0;
    tensor *t = NULL;
    if (point_seek(s, pass, &pk, 1, &reached) == PTODB_OK) {
        if (reached)
            t = session_lookup_tensor(s, other_name, NULL, 1);
        if (!reached)
            session_errorf(s, "Pass %d has no point corresponding to %s line %d.", s->kase.passes[pass].index,
                           pk.func, pk.line);
        else if (!t)
            session_errorf(s, "No tensor \"%s\" at the corresponding point of pass %d.", other_name,
                           s->kase.passes[pass].index);
        else if (strcmp(other_name, name) != 0)
            session_printf(s, "(%s is %s in pass %d)\n", name, other_name, s->kase.passes[pass].index);
    }
    run_kill(s);
    s->run = saved;
    s->cur_pass = saved_pass;
    s->list_line = saved_list;
    point_free(&pk);
    return t;
}

#include "batch/reduce_edit.h"

#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/mem.h"
#include "base/strbuf.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/walk.h"

const char *reduce_kind_name(reduce_kind k)
{
    static const char *const names[] = {"drop-function", "cut-loop", "collapse-if", "delete", "bypass", "record",
                                         "record-call",   "const-tile",   "drop-pipe",
                                         "shrink-shape",  "drop-param",   "retarget",
                                         "ungroup",       "forward-out"};
    return k < REDUCE_KIND_COUNT ? names[k] : "?";
}

/* ---- a view of a file: its functions' statements, flattened --------------------------------- */

typedef struct symlist {
    const ir_sym **v;
    size_t n, cap;
} symlist;

static void sym_add(symlist *l, const ir_sym *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i] == s)
            return;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 8;
        l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
    }
    l->v[l->n++] = s;
}

static int sym_has(const symlist *l, const ir_sym *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i] == s)
            return 1;
    return 0;
}

typedef struct flat {
    const ir_stmt *st;
    int parent;            /* index of the enclosing compound statement, -1 at the top */
    uint32_t first, last;  /* lines, leading comments included */
    char *key;
    symlist defs, uses;
} flat;

typedef struct funcview {
    const ir_func *f;
    flat *s;
    size_t n, cap;
    uint32_t first, last;
} funcview;

typedef struct fileview {
    const ir_module *m;
    funcview *fn;
    size_t nfn;
    uint32_t *line_start;  /* byte offset of each line (1-based; [nlines + 1] = src_len) */
    uint32_t nlines;
} fileview;

static uint32_t line_of(const fileview *v, uint32_t off)
{
    uint32_t lo = 1, hi = v->nlines;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (v->line_start[mid] <= off)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

static void expr_uses(const ir_expr *e, symlist *out)
{
    if (!e)
        return;
    switch (e->kind) {
    case IR_EXPR_NAME: sym_add(out, e->u.name); break;
    case IR_EXPR_ATTR:
        if (e->u.attr.value->kind == IR_EXPR_NAME && strcmp(e->u.attr.value->u.name->text, "self") == 0)
            sym_add(out, e->u.attr.name); /* self.f: a use of function f */
        else
            expr_uses(e->u.attr.value, out);
        break;
    case IR_EXPR_CALL:
        expr_uses(e->u.call.callee, out);
        for (uint32_t i = 0; i < e->u.call.nargs; i++)
            expr_uses(e->u.call.args[i], out);
        for (uint32_t i = 0; i < e->u.call.nkwargs; i++)
            expr_uses(e->u.call.kwargs[i].value, out);
        break;
    case IR_EXPR_SUBSCRIPT:
        expr_uses(e->u.sub.value, out);
        for (uint32_t i = 0; i < e->u.sub.n; i++)
            expr_uses(e->u.sub.items[i], out);
        break;
    case IR_EXPR_SLICE:
        expr_uses(e->u.slice.lo, out);
        expr_uses(e->u.slice.hi, out);
        expr_uses(e->u.slice.step, out);
        break;
    case IR_EXPR_LIST:
    case IR_EXPR_TUPLE:
        for (uint32_t i = 0; i < e->u.seq.n; i++)
            expr_uses(e->u.seq.items[i], out);
        break;
    case IR_EXPR_DICT:
        for (uint32_t i = 0; i < e->u.dict.n; i++) {
            expr_uses(e->u.dict.keys[i], out);
            expr_uses(e->u.dict.values[i], out);
        }
        break;
    case IR_EXPR_UNARY: expr_uses(e->u.unary.operand, out); break;
    case IR_EXPR_BINARY:
        expr_uses(e->u.binary.lhs, out);
        expr_uses(e->u.binary.rhs, out);
        break;
    default: break;
    }
}

/* Calls fn on every NAME node of e naming s. */
static void expr_names(const ir_expr *e, const ir_sym *s, void (*fn)(void *, const ir_expr *), void *ctx)
{
    if (!e)
        return;
    switch (e->kind) {
    case IR_EXPR_NAME:
        if (e->u.name == s)
            fn(ctx, e);
        break;
    case IR_EXPR_ATTR: expr_names(e->u.attr.value, s, fn, ctx); break;
    case IR_EXPR_CALL:
        expr_names(e->u.call.callee, s, fn, ctx);
        for (uint32_t i = 0; i < e->u.call.nargs; i++)
            expr_names(e->u.call.args[i], s, fn, ctx);
        for (uint32_t i = 0; i < e->u.call.nkwargs; i++)
            expr_names(e->u.call.kwargs[i].value, s, fn, ctx);
        break;
    case IR_EXPR_SUBSCRIPT:
        expr_names(e->u.sub.value, s, fn, ctx);
        for (uint32_t i = 0; i < e->u.sub.n; i++)
            expr_names(e->u.sub.items[i], s, fn, ctx);
        break;
    case IR_EXPR_SLICE:
        expr_names(e->u.slice.lo, s, fn, ctx);
        expr_names(e->u.slice.hi, s, fn, ctx);
        expr_names(e->u.slice.step, s, fn, ctx);
        break;
    case IR_EXPR_LIST:
    case IR_EXPR_TUPLE:
        for (uint32_t i = 0; i < e->u.seq.n; i++)
            expr_names(e->u.seq.items[i], s, fn, ctx);
        break;
    case IR_EXPR_DICT:
        for (uint32_t i = 0; i < e->u.dict.n; i++) {
            expr_names(e->u.dict.keys[i], s, fn, ctx);
            expr_names(e->u.dict.values[i], s, fn, ctx);
        }
        break;
    case IR_EXPR_UNARY: expr_names(e->u.unary.operand, s, fn, ctx); break;
    case IR_EXPR_BINARY:
        expr_names(e->u.binary.lhs, s, fn, ctx);
        expr_names(e->u.binary.rhs, s, fn, ctx);
        break;
    default: break;
    }
}

/* The expressions of a statement's own header (not its bodies'). */
static void stmt_names(const ir_stmt *st, const ir_sym *s, void (*fn)(void *, const ir_expr *), void *ctx)
{
    switch (st->kind) {
    case IR_STMT_ASSIGN:
    case IR_STMT_YIELD:
        expr_names(st->u.assign.annot, s, fn, ctx);
        expr_names(st->u.assign.value, s, fn, ctx);
        break;
    case IR_STMT_EXPR:
    case IR_STMT_COND:
    case IR_STMT_FUNC_ATTR: expr_names(st->u.expr.value, s, fn, ctx); break;
    case IR_STMT_RETURN:
        for (uint32_t i = 0; i < st->u.ret.n; i++)
            expr_names(st->u.ret.values[i], s, fn, ctx);
        break;
    case IR_STMT_IF: expr_names(st->u.if_.cond, s, fn, ctx); break;
    case IR_STMT_FOR: expr_names(st->u.for_.iter, s, fn, ctx); break;
    case IR_STMT_WHILE: expr_names(st->u.while_.cond, s, fn, ctx); break;
    case IR_STMT_WITH: expr_names(st->u.with.ctx, s, fn, ctx); break;
    default: break;
    }
}

static void print_expr(const ir_expr *e, strbuf *out)
{
    if (e)
        ir_print_expr(e, out);
}

/* The unit key of a statement: its targets' names where it has any, else
 * its kind and printed head (the caller adds the occurrence). */
static void stmt_key(const ir_stmt *st, strbuf *out)
{
    switch (st->kind) {
    case IR_STMT_ASSIGN:
    case IR_STMT_YIELD:
        strbuf_puts(out, st->kind == IR_STMT_ASSIGN ? "=" : "yield=");
        for (uint32_t i = 0; i < st->u.assign.ntargets; i++)
            strbuf_printf(out, "%s%s", i ? "," : "", st->u.assign.targets[i].name->text);
        break;
    case IR_STMT_FOR:
        strbuf_printf(out, "for %s", st->u.for_.var ? st->u.for_.var->name->text : "-");
        break;
    case IR_STMT_IF:
        strbuf_puts(out, "if ");
        print_expr(st->u.if_.cond, out);
        break;
    case IR_STMT_WITH:
        strbuf_puts(out, "with ");
        print_expr(st->u.with.ctx, out);
        break;
    case IR_STMT_EXPR:
        strbuf_puts(out, "expr ");
        print_expr(st->u.expr.value, out);
        break;
    default: strbuf_puts(out, ir_stmt_kind_name((ir_stmt_kind)st->kind)); break;
    }
}

static void stmt_symbols(const ir_stmt *st, symlist *defs, symlist *uses)
{
    switch (st->kind) {
    case IR_STMT_ASSIGN:
    case IR_STMT_YIELD:
        for (uint32_t i = 0; i < st->u.assign.ntargets; i++)
            sym_add(defs, st->u.assign.targets[i].name);
        expr_uses(st->u.assign.annot, uses);
        expr_uses(st->u.assign.value, uses);
        break;
    case IR_STMT_EXPR:
    case IR_STMT_COND:
    case IR_STMT_FUNC_ATTR: expr_uses(st->u.expr.value, uses); break;
    case IR_STMT_RETURN:
        for (uint32_t i = 0; i < st->u.ret.n; i++)
            expr_uses(st->u.ret.values[i], uses);
        break;
    case IR_STMT_IF: expr_uses(st->u.if_.cond, uses); break;
    case IR_STMT_FOR:
        if (st->u.for_.var)
            sym_add(defs, st->u.for_.var->name);
        for (uint32_t i = 0; i < st->u.for_.niter_args; i++)
            sym_add(defs, st->u.for_.iter_args[i].name);
        expr_uses(st->u.for_.iter, uses);
        break;
    case IR_STMT_WHILE: expr_uses(st->u.while_.cond, uses); break;
    case IR_STMT_WITH:
        if (st->u.with.as)
            sym_add(defs, st->u.with.as->name);
        expr_uses(st->u.with.ctx, uses);
        break;
    default: break;
    }
}

static uint32_t comments_first(const ir_comments *c, uint32_t line)
{
    for (uint32_t i = 0; i < c->n; i++)
        if (c->items[i].span.line < line)
            line = c->items[i].span.line;
    return line;
}

static void flatten(const fileview *v, funcview *fv, const ir_block *b, int parent)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const ir_stmt *st = b->items[i];
        if (fv->n == fv->cap) {
            fv->cap = fv->cap ? 2 * fv->cap : 32;
            fv->s = xreallocarray(fv->s, fv->cap, sizeof *fv->s);
        }
        int me = (int)fv->n++;
        flat *f = &fv->s[me];
        memset(f, 0, sizeof *f);
        f->st = st;
        f->parent = parent;
        f->first = comments_first(&st->comments, st->span.line);
        f->last = line_of(v, st->span.end ? st->span.end - 1 : 0);
        strbuf k = STRBUF_INIT;
        stmt_key(st, &k);
        /* the occurrence among statements with the same key head */
        size_t seen = 0;
        for (size_t j = 0; j < (size_t)me; j++)
            seen += strncmp(fv->s[j].key, strbuf_str(&k), k.len) == 0 && fv->s[j].key[k.len] == '#';
        strbuf_printf(&k, "#%zu", seen);
        f->key = strbuf_detach(&k);
        stmt_symbols(st, &f->defs, &f->uses);
        switch (st->kind) {
        case IR_STMT_IF:
            flatten(v, fv, &st->u.if_.body, me);
            flatten(v, fv, &st->u.if_.orelse, me);
            break;
        case IR_STMT_FOR: flatten(v, fv, &st->u.for_.body, me); break;
        case IR_STMT_WHILE: flatten(v, fv, &st->u.while_.body, me); break;
        case IR_STMT_WITH: flatten(v, fv, &st->u.with.body, me); break;
        default: break;
        }
    }
}

static void view_init(fileview *v, const ir_module *m)
{
    memset(v, 0, sizeof *v);
    v->m = m;
    uint32_t lines = 1;
    for (uint32_t i = 0; i < m->src_len; i++)
        lines += m->src[i] == '\n' && i + 1 < m->src_len;
    v->nlines = lines;
    v->line_start = xcalloc((size_t)lines + 2, sizeof *v->line_start);
    uint32_t l = 1;
    v->line_start[1] = 0;
    for (uint32_t i = 0; i < m->src_len; i++)
        if (m->src[i] == '\n' && i + 1 < m->src_len)
            v->line_start[++l] = i + 1;
    v->line_start[lines + 1] = m->src_len;
    const ir_program *p = m->program;
    if (!p)
        return;
    v->nfn = p->nfuncs;
    v->fn = xcalloc(p->nfuncs ? p->nfuncs : 1, sizeof *v->fn);
    for (uint32_t i = 0; i < p->nfuncs; i++) {
        funcview *fv = &v->fn[i];
        fv->f = p->funcs[i];
        fv->first = comments_first(&fv->f->comments, fv->f->span.line);
        fv->last = line_of(v, fv->f->span.end ? fv->f->span.end - 1 : 0);
        flatten(v, fv, &fv->f->body, -1);
    }
}

static void view_free(fileview *v)
{
    for (size_t i = 0; i < v->nfn; i++) {
        for (size_t j = 0; j < v->fn[i].n; j++) {
            free(v->fn[i].s[j].key);
            free(v->fn[i].s[j].defs.v);
            free(v->fn[i].s[j].uses.v);
        }
        free(v->fn[i].s);
    }
    free(v->fn);
    free(v->line_start);
}

static funcview *find_func(const fileview *v, const char *name)
{
    for (size_t i = 0; i < v->nfn; i++)
        if (strcmp(v->fn[i].f->name->text, name) == 0)
            return &v->fn[i];
    return NULL;
}

static int find_stmt(const funcview *fv, const char *key)
{
    for (size_t j = 0; fv && j < fv->n; j++)
        if (strcmp(fv->s[j].key, key) == 0)
            return (int)j;
    return -1;
}

/* ---- units ------------------------------------------------------------------------------------ */

typedef struct unitlist {
    reduce_unit *v;
    size_t n, cap;
} unitlist;

static int unit_eq(const reduce_unit *a, const reduce_unit *b)
{
    return a->kind == b->kind && a->arg == b->arg && strcmp(a->func, b->func) == 0 &&
           (a->key == b->key || (a->key && b->key && strcmp(a->key, b->key) == 0)) &&
           (a->to == b->to || (a->to && b->to && strcmp(a->to, b->to) == 0));
}

static void unit_add_to(unitlist *l, reduce_kind k, const char *func, const char *key, long arg, long trips,
                        const char *to)
{
    reduce_unit u = {k, (char *)func, (char *)key, arg, trips, NULL, (char *)to};
    for (size_t i = 0; i < l->n; i++)
        if (unit_eq(&l->v[i], &u))
            return;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
    }
    u.func = xstrdup(func);
    u.key = key ? xstrdup(key) : NULL;
    u.to = to ? xstrdup(to) : NULL;
    l->v[l->n++] = u;
}

static void unit_add(unitlist *l, reduce_kind k, const char *func, const char *key, long arg, long trips)
{
    unit_add_to(l, k, func, key, arg, trips, NULL);
}

/* A pl.range-like loop's call and the bound a cut replaces: its only
 * positional argument (the trip count) when that is not a literal; NULL
 * otherwise. */
static const ir_expr *symbolic_count(const ir_stmt *st)
{
    if (st->kind != IR_STMT_FOR || !st->u.for_.var)
        return NULL;
    const ir_expr *it = st->u.for_.iter;
    if (!it || it->kind != IR_EXPR_CALL || it->u.call.callee->kind != IR_EXPR_ATTR || it->u.call.nargs != 1 ||
        it->u.call.args[0]->kind == IR_EXPR_INT)
        return NULL;
    const char *name = it->u.call.callee->u.attr.name->text;
    if (strcmp(name, "range") && strcmp(name, "parallel") && strcmp(name, "unroll") && strcmp(name, "pipeline"))
        return NULL;
    return it->u.call.args[0];
}

static const ir_expr *init_values(const ir_stmt *st)
{
    const ir_expr *it = st->u.for_.iter;
    for (uint32_t i = 0; it && i < it->u.call.nkwargs; i++)
        if (strcmp(it->u.call.kwargs[i].name->text, "init_values") == 0)
            return it->u.call.kwargs[i].value;
    return NULL;
}

/* pl.range-like loops with 1 to 3 literal integer bounds: start, stop, step. */
static int literal_range(const ir_stmt *st, int64_t *start, int64_t *stop, int64_t *step, const ir_expr **stop_expr)
{
    if (st->kind != IR_STMT_FOR || !st->u.for_.var)
        return 0;
    const ir_expr *it = st->u.for_.iter;
    if (!it || it->kind != IR_EXPR_CALL || it->u.call.callee->kind != IR_EXPR_ATTR)
        return 0;
    const char *name = it->u.call.callee->u.attr.name->text;
    if (strcmp(name, "range") && strcmp(name, "parallel") && strcmp(name, "unroll") && strcmp(name, "pipeline"))
        return 0;
    uint32_t n = it->u.call.nargs;
    if (n < 1 || n > 3)
        return 0;
    for (uint32_t i = 0; i < n; i++)
        if (it->u.call.args[i]->kind != IR_EXPR_INT || (it->u.call.args[i]->flags & IR_EF_BIG))
            return 0;
    *start = n >= 2 ? it->u.call.args[0]->u.num.i : 0;
    *stop = it->u.call.args[n >= 2 ? 1 : 0]->u.num.i;
    *step = n == 3 ? it->u.call.args[2]->u.num.i : 1;
    *stop_expr = it->u.call.args[n >= 2 ? 1 : 0];
    return *step > 0;
}

/* "pl.Tile|shape|dtype" of a Tile/Tensor annotation, "" when it is not one. */
static void shape_dtype(const ir_expr *annot, strbuf *out)
{
    if (!annot || annot->kind != IR_EXPR_SUBSCRIPT || annot->u.sub.n < 2)
        return;
    print_expr(annot->u.sub.value, out);
    strbuf_putc(out, '|');
    print_expr(annot->u.sub.items[0], out);
    strbuf_putc(out, '|');
    print_expr(annot->u.sub.items[1], out);
}

/* The assignment defining s (one target), or NULL. */
static const ir_stmt *def_stmt(const funcview *fv, const ir_sym *s)
{
    for (size_t j = 0; j < fv->n; j++) {
        const ir_stmt *st = fv->s[j].st;
        if (st->kind == IR_STMT_ASSIGN && st->u.assign.ntargets == 1 && st->u.assign.targets[0].name == s)
            return st;
    }
    return NULL;
}

static const ir_expr *def_annot(const funcview *fv, const ir_sym *s)
{
    for (uint32_t i = 0; i < fv->f->nparams; i++)
        if (fv->f->params[i].name == s)
            return fv->f->params[i].type;
    for (size_t j = 0; j < fv->n; j++) {
        const ir_stmt *st = fv->s[j].st;
        if ((st->kind == IR_STMT_ASSIGN || st->kind == IR_STMT_YIELD) && st->u.assign.ntargets == 1 &&
            st->u.assign.targets[0].name == s)
            return st->u.assign.annot;
    }
    return NULL;
}

/* The entry function: the orchestration one, or the only one. */
static const funcview *entry_of(const fileview *v)
{
    for (size_t i = 0; i < v->nfn; i++)
        if (v->fn[i].f->type_name && strcmp(v->fn[i].f->type_name, "Orchestration") == 0)
            return &v->fn[i];
    return v->nfn == 1 ? &v->fn[0] : NULL;
}

static const ir_expr *stmt_call(const ir_stmt *st)
{
    const ir_expr *e = st->kind == IR_STMT_ASSIGN ? st->u.assign.value : st->kind == IR_STMT_EXPR ? st->u.expr.value : NULL;
    if (!e || e->kind != IR_EXPR_CALL || e->u.call.callee->kind != IR_EXPR_ATTR ||
        e->u.call.callee->u.attr.value->kind != IR_EXPR_NAME ||
        strcmp(e->u.call.callee->u.attr.value->u.name->text, "self") != 0)
        return NULL;
    return e;
}

static int is_param(const ir_func *f, const ir_sym *s)
{
    for (uint32_t i = 0; i < f->nparams; i++)
        if (f->params[i].name == s)
            return 1;
    return 0;
}

/* The annotation of a recordable argument: a pl.Tensor variable of the
 * entry that is not one of its parameters; NULL otherwise. */
static const ir_expr *recordable(const funcview *fv, const ir_expr *arg)
{
    if (arg->kind != IR_EXPR_NAME || is_param(fv->f, arg->u.name))
        return NULL;
    const ir_expr *a = def_annot(fv, arg->u.name);
    if (!a || a->kind != IR_EXPR_SUBSCRIPT || a->u.sub.value->kind != IR_EXPR_ATTR ||
        strcmp(a->u.sub.value->u.attr.name->text, "Tensor") != 0)
        return NULL;
    return a;
}

static void record_param_name(const funcview *fv, const ir_expr *arg, strbuf *out)
{
    size_t k = 0;
    for (uint32_t i = 0; i < fv->f->nparams; i++)
        k += strncmp(fv->f->params[i].name->text, "rec", 3) == 0;
    strbuf_printf(out, "rec%zu_", k);
    ir_ssa_base_name(arg->u.name->text, out);
    strbuf_puts(out, "__ssa_v0");
}

/* x: pl.Scalar[...] = <not a literal>: a value a literal can replace. */
static int scalar_stmt(const ir_stmt *st)
{
    if (st->kind != IR_STMT_ASSIGN || st->u.assign.ntargets != 1 || !st->u.assign.annot || !st->u.assign.value)
        return 0;
    const ir_expr *a = st->u.assign.annot, *v = st->u.assign.value;
    if (a->kind != IR_EXPR_SUBSCRIPT || a->u.sub.value->kind != IR_EXPR_ATTR ||
        strcmp(a->u.sub.value->u.attr.name->text, "Scalar") != 0)
        return 0;
    return v->kind != IR_EXPR_INT && v->kind != IR_EXPR_FLOAT && v->kind != IR_EXPR_BOOL;
}

int reduce_record_names(const ir_module *m, const reduce_unit *u, strbuf *param, strbuf *var)
{
    fileview v;
    view_init(&v, m);
    if (u->arg == -1) {
        const funcview *sf = find_func(&v, u->func);
        int sj = sf ? find_stmt(sf, u->key) : -1;
        int ok = sj >= 0 && scalar_stmt(sf->s[sj].st);
        if (ok)
            strbuf_puts(var, sf->s[sj].st->u.assign.targets[0].name->text);
        view_free(&v);
        return ok;
    }
    const funcview *fv = entry_of(&v);
    int ok = 0;
    int j = fv && strcmp(fv->f->name->text, u->func) == 0 ? find_stmt(fv, u->key) : -1;
    const ir_expr *call = j >= 0 ? stmt_call(fv->s[j].st) : NULL;
    if (call && u->arg >= 0 && (uint32_t)u->arg < call->u.call.nargs && recordable(fv, call->u.call.args[u->arg])) {
        record_param_name(fv, call->u.call.args[u->arg], param);
        strbuf_puts(var, call->u.call.args[u->arg]->u.name->text);
        ok = 1;
    }
    view_free(&v);
    return ok;
}

/* x: pl.Tile[[dims], dtype(, pl.Mem.Vec)] = op(...), op not already a
 * constant (full, create): a value a constant tile can replace. */
static int const_tile_stmt(const ir_stmt *st)
{
    if (st->kind != IR_STMT_ASSIGN || st->u.assign.ntargets != 1 || !st->u.assign.annot || !st->u.assign.value)
        return 0;
    const ir_expr *a = st->u.assign.annot, *v = st->u.assign.value;
    if (a->kind != IR_EXPR_SUBSCRIPT || a->u.sub.n < 2 || a->u.sub.value->kind != IR_EXPR_ATTR ||
        strcmp(a->u.sub.value->u.attr.name->text, "Tile") != 0 || a->u.sub.items[0]->kind != IR_EXPR_LIST)
        return 0;
    if (a->u.sub.n >= 3) {
        strbuf mem = STRBUF_INIT;
        print_expr(a->u.sub.items[2], &mem);
        int vec = strcmp(strbuf_str(&mem), "pl.Mem.Vec") == 0;
        strbuf_free(&mem);
        if (!vec)
            return 0; /* full makes Vec tiles only (a matmul operand lives elsewhere) */
    }
    if (v->kind != IR_EXPR_CALL || v->u.call.callee->kind != IR_EXPR_ATTR)
        return 0;
    const char *op = v->u.call.callee->u.attr.name->text;
    return strcmp(op, "full") != 0 && strcmp(op, "create") != 0;
}

int reduce_record_is_call(const ir_module *m, const reduce_unit *u)
{
    fileview v;
    view_init(&v, m);
    const funcview *fv = entry_of(&v);
    int j = fv && u->arg >= 0 && strcmp(fv->f->name->text, u->func) == 0 ? find_stmt(fv, u->key) : -1;
    const ir_expr *call = j >= 0 ? stmt_call(fv->s[j].st) : NULL;
    int is = 0;
    if (call && (uint32_t)u->arg < call->u.call.nargs && call->u.call.args[u->arg]->kind == IR_EXPR_NAME) {
        const ir_stmt *def = def_stmt(fv, call->u.call.args[u->arg]->u.name);
        const ir_expr *dv = def ? def->u.assign.value : NULL;
        /* t = self.k(...)[i] comes as tmp = self.k(...); t = tmp[i] */
        if (dv && dv->kind == IR_EXPR_SUBSCRIPT && dv->u.sub.value->kind == IR_EXPR_NAME)
            def = def_stmt(fv, dv->u.sub.value->u.name);
        is = def && stmt_call(def) != NULL;
    }
    view_free(&v);
    return is;
}

/* The op name of pl.tile.NAME(...) / pl.system.NAME(...) in an expression
 * statement or an assignment, or "". */
static const char *stmt_op(const ir_stmt *st)
{
    const ir_expr *e = st->kind == IR_STMT_ASSIGN ? st->u.assign.value : st->kind == IR_STMT_EXPR ? st->u.expr.value : NULL;
    if (!e || e->kind != IR_EXPR_CALL || e->u.call.callee->kind != IR_EXPR_ATTR)
        return "";
    return e->u.call.callee->u.attr.name->text;
}

/* A function's name without its _aic / _aiv suffix, the part that names
 * its core group (main_incore_0_aic and main_incore_0_aiv). */
static size_t group_prefix(const char *name)
{
    size_t n = strlen(name);
    if (n > 4 && (strcmp(name + n - 4, "_aic") == 0 || strcmp(name + n - 4, "_aiv") == 0))
        return n - 4;
    return n;
}

/* The k-th statement of fv whose op is op, or -1. */
static int nth_op(const funcview *fv, const char *op, size_t k)
{
    for (size_t j = 0; j < fv->n; j++)
        if (strcmp(stmt_op(fv->s[j].st), op) == 0 && k-- == 0)
            return (int)j;
    return -1;
}

static void pipe_units(const fileview *v, unitlist *l)
{
    static const char *const pairs[][2] = {{"tpush_to_aiv", "tpop_from_aic"}, {"tpush_to_aic", "tpop_from_aiv"}};
    for (size_t i = 0; i < v->nfn; i++) {
        const funcview *pf = &v->fn[i];
        const char *pname = pf->f->name->text;
        for (size_t p = 0; p < 2; p++) {
            for (size_t k = 0;; k++) {
                int j = nth_op(pf, pairs[p][0], k);
                if (j < 0)
                    break;
                /* the partner: a function of the same group holding such a pop */
                for (size_t g = 0; g < v->nfn; g++) {
                    const char *gname = v->fn[g].f->name->text;
                    if (g == i || group_prefix(gname) != group_prefix(pname) ||
                        strncmp(gname, pname, group_prefix(pname)) != 0)
                        continue;
                    int q = nth_op(&v->fn[g], pairs[p][1], k);
                    if (q < 0)
                        continue;
                    strbuf to = STRBUF_INIT;
                    strbuf_printf(&to, "%s\t%s", gname, v->fn[g].s[q].key);
                    unit_add_to(l, REDUCE_DROP_PIPE, pname, pf->s[j].key, 0, 0, strbuf_str(&to));
                    strbuf_free(&to);
                    break;
                }
            }
        }
    }
}

/* The dims list of an input parameter's pl.Tensor[[d0, ...], DT] when all
 * are integer literals, else NULL. */
static const ir_expr *input_dims(const ir_param *p)
{
    const ir_expr *a = p->annot;
    if (p->dir != IR_DIR_IN || !a || a != p->type || a->kind != IR_EXPR_SUBSCRIPT || a->u.sub.n < 2 ||
        a->u.sub.value->kind != IR_EXPR_ATTR || strcmp(a->u.sub.value->u.attr.name->text, "Tensor") != 0)
        return NULL;
    const ir_expr *d = a->u.sub.items[0];
    if (d->kind != IR_EXPR_LIST || d->u.seq.n == 0)
        return NULL;
    for (uint32_t i = 0; i < d->u.seq.n; i++)
        if (d->u.seq.items[i]->kind != IR_EXPR_INT || (d->u.seq.items[i]->flags & IR_EF_BIG))
            return NULL;
    return d;
}

/* 1 when s is passed as it is to a function of the program: the callee's
 * parameter annotation then has the shape too, and a shrunk argument would
 * not match its type. */
static int passed_to_call(const funcview *fv, const ir_sym *s)
{
    for (size_t j = 0; j < fv->n; j++) {
        const ir_expr *call = stmt_call(fv->s[j].st);
        for (uint32_t a = 0; call && a < call->u.call.nargs; a++)
            if (call->u.call.args[a]->kind == IR_EXPR_NAME && call->u.call.args[a]->u.name == s)
                return 1;
    }
    return 0;
}

static void shrink_units(const fileview *v, unitlist *l)
{
    const funcview *fv = entry_of(v);
    for (uint32_t i = 0; fv && i < fv->f->nparams; i++) {
        const ir_expr *d = passed_to_call(fv, fv->f->params[i].name) ? NULL : input_dims(&fv->f->params[i]);
        for (uint32_t k = 0; d && k < d->u.seq.n; k++) {
            int64_t n = d->u.seq.items[k]->u.num.i;
            if ((k == 0 || k + 1 == d->u.seq.n) && n >= 2 && n % 2 == 0)
                unit_add(l, REDUCE_SHRINK_SHAPE, fv->f->name->text, fv->f->params[i].name->text, (long)k, (long)(n / 2));
        }
    }
}

static void unused_param_units(const fileview *v, unitlist *l)
{
    const funcview *fv = entry_of(v);
    for (uint32_t i = 0; fv && fv->f->nparams > 1 && i < fv->f->nparams; i++) {
        const ir_param *p = &fv->f->params[i];
        if (p->dir != IR_DIR_IN)
            continue;
        int used = 0;
        for (size_t j = 0; j < fv->n && !used; j++)
            used = sym_has(&fv->s[j].uses, p->name);
        for (uint32_t q = 0; q < fv->f->nparams && !used; q++) {
            symlist in_annot = {NULL, 0, 0};
            expr_uses(fv->f->params[q].annot, &in_annot);
            used = sym_has(&in_annot, p->name);
            free(in_annot.v);
        }
        if (!used)
            unit_add(l, REDUCE_DROP_PARAM, fv->f->name->text, p->name->text, 0, 0);
    }
}

/* The index of the parameter callee returns as it is (return p), or -1. */
static int returned_param(const fileview *v, const ir_expr *call)
{
    const funcview *cf = find_func(v, call->u.call.callee->u.attr.name->text);
    for (size_t j = 0; cf && j < cf->n; j++) {
        const ir_stmt *st = cf->s[j].st;
        if (st->kind != IR_STMT_RETURN || cf->s[j].parent >= 0)
            continue;
        if (st->u.ret.n != 1 || st->u.ret.values[0]->kind != IR_EXPR_NAME)
            return -1;
        for (uint32_t p = 0; p < cf->f->nparams; p++)
            if (cf->f->params[p].name == st->u.ret.values[0]->u.name)
                return (int)p;
        return -1;
    }
    return -1;
}

/* RETARGET's pieces for the call statement st of entry fv: O (arg o), x
 * (arg xi), the producer call and its output buffer argument. 0 when they
 * do not fit. */
static int retarget_parts(const fileview *v, const funcview *fv, const ir_stmt *st, long o, long xi,
                          const ir_expr **out_param, const ir_expr **buf)
{
    const ir_expr *call = stmt_call(st);
    if (!call || o < 0 || xi < 0 || o == xi || (uint32_t)o >= call->u.call.nargs || (uint32_t)xi >= call->u.call.nargs)
        return 0;
    if (st->kind == IR_STMT_ASSIGN && st->u.assign.ntargets != 1)
        return 0;
    const ir_expr *oe = call->u.call.args[o], *xe = call->u.call.args[xi];
    if (oe->kind != IR_EXPR_NAME || xe->kind != IR_EXPR_NAME)
        return 0;
    const ir_param *op = NULL;
    for (uint32_t p = 0; p < fv->f->nparams; p++)
        if (fv->f->params[p].name == oe->u.name)
            op = &fv->f->params[p];
    if (!op || op->dir == IR_DIR_IN)
        return 0;
    const ir_stmt *def = def_stmt(fv, xe->u.name);
    const ir_expr *c1 = def ? stmt_call(def) : NULL;
    int bi = c1 ? returned_param(v, c1) : -1;
    if (bi < 0 || (uint32_t)bi >= c1->u.call.nargs || c1->u.call.args[bi]->kind != IR_EXPR_NAME ||
        c1->u.call.args[bi]->u.name == oe->u.name)
        return 0;
    strbuf want = STRBUF_INIT, have = STRBUF_INIT;
    shape_dtype(op->type, &want);
    shape_dtype(def_annot(fv, c1->u.call.args[bi]->u.name), &have);
    int same = want.len && strcmp(strbuf_str(&want), strbuf_str(&have)) == 0;
    strbuf_free(&want);
    strbuf_free(&have);
    if (!same)
        return 0;
    *out_param = oe;
    *buf = c1->u.call.args[bi];
    return 1;
}

static void retarget_units(const fileview *v, unitlist *l)
{
    const funcview *fv = entry_of(v);
    for (size_t j = 0; fv && j < fv->n; j++) {
        const ir_expr *call = stmt_call(fv->s[j].st);
        for (uint32_t o = 0; call && o < call->u.call.nargs; o++)
            for (uint32_t x = 0; x < call->u.call.nargs; x++) {
                const ir_expr *oe, *be;
                if (retarget_parts(v, fv, fv->s[j].st, o, x, &oe, &be))
                    unit_add(l, REDUCE_RETARGET, fv->f->name->text, fv->s[j].key, (long)o, (long)x);
            }
    }
}

/* The core function `to` that can take a call of Group function g: named
 * g_aiv or g_aic, with as many parameters. */
static int core_of_group(const fileview *v, const ir_expr *call, const char *to)
{
    const char *g = call->u.call.callee->u.attr.name->text;
    const funcview *gf = find_func(v, g), *cf = find_func(v, to);
    if (!gf || !cf || !gf->f->type_name || strcmp(gf->f->type_name, "Group") != 0)
        return 0;
    size_t n = strlen(g);
    return strncmp(to, g, n) == 0 && (strcmp(to + n, "_aiv") == 0 || strcmp(to + n, "_aic") == 0) &&
           cf->f->nparams == gf->f->nparams;
}

static void ungroup_units(const fileview *v, unitlist *l)
{
    static const char *const cores[] = {"_aiv", "_aic"};
    for (size_t i = 0; i < v->nfn; i++)
        for (size_t j = 0; j < v->fn[i].n; j++) {
            const ir_expr *call = stmt_call(v->fn[i].s[j].st);
            if (!call)
                continue;
            for (int k = 0; k < 2; k++) {
                strbuf to = STRBUF_INIT;
                strbuf_printf(&to, "%s%s", call->u.call.callee->u.attr.name->text, cores[k]);
                if (core_of_group(v, call, strbuf_str(&to)))
                    unit_add_to(l, REDUCE_UNGROUP, v->fn[i].f->name->text, v->fn[i].s[j].key, 0, 0,
                                strbuf_str(&to));
                strbuf_free(&to);
            }
        }
}

/* FORWARD_OUT: for t = tmp[i] in fv, the argument of tmp's call that the
 * callee returns as its i-th value, or NULL. */
static const ir_expr *forwarded_arg(const fileview *v, const funcview *fv, const ir_stmt *st)
{
    if (st->kind != IR_STMT_ASSIGN || st->u.assign.ntargets != 1 || !st->u.assign.value)
        return NULL;
    const ir_expr *e = st->u.assign.value;
    if (e->kind != IR_EXPR_SUBSCRIPT || e->u.sub.n != 1 || e->u.sub.value->kind != IR_EXPR_NAME ||
        e->u.sub.items[0]->kind != IR_EXPR_INT || (e->u.sub.items[0]->flags & IR_EF_BIG))
        return NULL;
    int64_t i = e->u.sub.items[0]->u.num.i;
    const ir_stmt *def = def_stmt(fv, e->u.sub.value->u.name);
    const ir_expr *call = def ? stmt_call(def) : NULL;
    const funcview *cf = call ? find_func(v, call->u.call.callee->u.attr.name->text) : NULL;
    for (size_t j = 0; cf && j < cf->n; j++) {
        const ir_stmt *r = cf->s[j].st;
        if (r->kind != IR_STMT_RETURN || cf->s[j].parent >= 0)
            continue;
        if (i < 0 || (uint32_t)i >= r->u.ret.n || r->u.ret.values[i]->kind != IR_EXPR_NAME)
            return NULL;
        for (uint32_t p = 0; p < cf->f->nparams; p++)
            if (cf->f->params[p].name == r->u.ret.values[i]->u.name)
                return p < call->u.call.nargs && call->u.call.args[p]->kind == IR_EXPR_NAME ? call->u.call.args[p]
                                                                                          : NULL;
        return NULL;
    }
    return NULL;
}

static void units_of(const fileview *v, reduce_kind k, unitlist *l)
{
    if (k == REDUCE_FORWARD_OUT) {
        for (size_t i = 0; i < v->nfn; i++)
            for (size_t j = 0; j < v->fn[i].n; j++)
                if (forwarded_arg(v, &v->fn[i], v->fn[i].s[j].st))
                    unit_add(l, k, v->fn[i].f->name->text, v->fn[i].s[j].key, 0, 0);
        return;
    }
    if (k == REDUCE_UNGROUP) {
        ungroup_units(v, l);
        return;
    }
    if (k == REDUCE_RETARGET) {
        retarget_units(v, l);
        return;
    }
    if (k == REDUCE_DROP_PARAM) {
        unused_param_units(v, l);
        return;
    }
    if (k == REDUCE_SHRINK_SHAPE) {
        shrink_units(v, l);
        return;
    }
    if (k == REDUCE_DROP_PIPE) {
        pipe_units(v, l);
        return;
    }
    if (k == REDUCE_CONST_TILE) {
        for (size_t i = 0; i < v->nfn; i++)
            for (size_t j = 0; j < v->fn[i].n; j++)
                if (const_tile_stmt(v->fn[i].s[j].st))
                    unit_add_to(l, k, v->fn[i].f->name->text, v->fn[i].s[j].key, 0, 0,
                                v->fn[i].s[j].st->u.assign.targets[0].name->text);
        return;
    }
    if (k == REDUCE_RECORD_CALL)
        return; /* RECORD's units: counted apart by the caller */
    if (k == REDUCE_RECORD) {
        for (size_t i = 0; i < v->nfn; i++)
            for (size_t j = 0; j < v->fn[i].n; j++)
                if (scalar_stmt(v->fn[i].s[j].st))
                    unit_add(l, k, v->fn[i].f->name->text, v->fn[i].s[j].key, -1, 0);
        const funcview *fv = entry_of(v);
        for (size_t j = 0; fv && j < fv->n; j++) {
            const ir_expr *call = stmt_call(fv->s[j].st);
            for (uint32_t a = 0; call && a < call->u.call.nargs; a++)
                if (recordable(fv, call->u.call.args[a]))
                    unit_add(l, k, fv->f->name->text, fv->s[j].key, (long)a, 0);
        }
        return;
    }
    for (size_t i = 0; i < v->nfn; i++) {
        const funcview *fv = &v->fn[i];
        const char *fname = fv->f->name->text;
        if (k == REDUCE_DROP_FUNC) {
            unit_add(l, k, fname, NULL, 0, 0);
            continue;
        }
        for (size_t j = 0; j < fv->n; j++) {
            const flat *f = &fv->s[j];
            const ir_stmt *st = f->st;
            switch (k) {
            case REDUCE_CUT_LOOP: {
                int64_t a, b, c;
                const ir_expr *se;
                if (literal_range(st, &a, &b, &c, &se)) {
                    long trips = (long)((b - a + c - 1) / c);
                    if (trips > 1)
                        unit_add(l, k, fname, f->key, 1, trips);
                    else if (trips == 1)
                        unit_add(l, k, fname, f->key, 0, 1); /* one iteration: the body in its place */
                } else if (symbolic_count(st)) {
                    unit_add(l, k, fname, f->key, 1, 0); /* its trip count is known at run time only */
                }
                break;
            }
            case REDUCE_COLLAPSE_IF:
                if (st->kind == IR_STMT_IF) {
                    unit_add(l, k, fname, f->key, 0, 0);
                    if (st->u.if_.has_else)
                        unit_add(l, k, fname, f->key, 1, 0);
                }
                break;
            case REDUCE_DELETE:
                if (st->kind != IR_STMT_RETURN && st->kind != IR_STMT_YIELD && st->kind != IR_STMT_COND &&
                    st->kind != IR_STMT_FUNC_ATTR)
                    unit_add(l, k, fname, f->key, 0, 0);
                break;
            case REDUCE_BYPASS:
                if (st->kind == IR_STMT_ASSIGN && st->u.assign.ntargets == 1 && st->u.assign.value &&
                    (st->u.assign.value->kind == IR_EXPR_NAME || st->u.assign.value->kind == IR_EXPR_INT ||
                     st->u.assign.value->kind == IR_EXPR_FLOAT))
                    unit_add(l, k, fname, f->key, -1, 0); /* x = y or x = 3: propagated into its uses */
                if (st->kind == IR_STMT_ASSIGN && st->u.assign.ntargets == 1 && st->u.assign.value &&
                    st->u.assign.value->kind == IR_EXPR_CALL) {
                    strbuf want = STRBUF_INIT;
                    shape_dtype(st->u.assign.annot, &want);
                    const ir_expr *call = st->u.assign.value;
                    for (uint32_t a = 0; want.len && a < call->u.call.nargs; a++) {
                        const ir_expr *arg = call->u.call.args[a];
                        if (arg->kind != IR_EXPR_NAME)
                            continue;
                        strbuf have = STRBUF_INIT;
                        shape_dtype(def_annot(fv, arg->u.name), &have);
                        if (strcmp(strbuf_str(&have), strbuf_str(&want)) == 0)
                            unit_add(l, k, fname, f->key, (long)a, 0);
                        strbuf_free(&have);
                    }
                    /* an operand's operands, three deep (first operands only) */
                    const ir_expr *at = call->u.call.nargs ? call->u.call.args[0] : NULL;
                    for (int depth = 0; want.len && depth < 3 && at && at->kind == IR_EXPR_NAME; depth++) {
                        const ir_stmt *def = def_stmt(fv, at->u.name);
                        const ir_expr *dv = def ? def->u.assign.value : NULL;
                        if (!dv || dv->kind != IR_EXPR_CALL || !dv->u.call.nargs)
                            break;
                        at = dv->u.call.args[0];
                        if (at->kind != IR_EXPR_NAME)
                            break;
                        strbuf have = STRBUF_INIT;
                        shape_dtype(def_annot(fv, at->u.name), &have);
                        if (strcmp(strbuf_str(&have), strbuf_str(&want)) == 0)
                            unit_add_to(l, k, fname, f->key, -2, 0, at->u.name->text);
                        strbuf_free(&have);
                    }
                    strbuf_free(&want);
                }
                break;
            default: break;
            }
        }
    }
}

reduce_unit *reduce_units(const ir_module *good, const ir_module *bad, reduce_kind k, size_t *n)
{
    unitlist l = {NULL, 0, 0};
    const ir_module *ms[2] = {bad, good};
    for (int i = 0; i < 2; i++) {
        if (!ms[i])
            continue;
        fileview v;
        view_init(&v, ms[i]);
        units_of(&v, k, &l);
        view_free(&v);
    }
    *n = l.n;
    return l.v;
}

void reduce_units_free(reduce_unit *u, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(u[i].func);
        free(u[i].key);
        free(u[i].to);
    }
    free(u);
}

/* ---- applying ---------------------------------------------------------------------------------- */

typedef struct edit {
    uint32_t start, end;   /* bytes replaced */
    char *text;            /* NULL: deleted */
} edit;

typedef struct editlist {
    edit *v;
    size_t n, cap;
} editlist;

static void edit_add(editlist *l, uint32_t start, uint32_t end, char *text)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
    }
    l->v[l->n++] = (edit){start, end, text};
}

typedef struct rename_ctx {
    struct editlist *el;
    const char *to;
} rename_ctx;

static void edit_add(struct editlist *l, uint32_t start, uint32_t end, char *text);

static void rename_one(void *ctx, const ir_expr *e)
{
    rename_ctx *r = ctx;
    edit_add(r->el, e->span.start, e->span.end, xstrdup(r->to));
}

static int edit_cmp(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->end > y->end ? -1 : x->end < y->end; /* the wider first */
}

static void lines_range(const fileview *v, uint32_t first, uint32_t last, uint32_t *start, uint32_t *end)
{
    *start = v->line_start[first];
    *end = last + 1 <= v->nlines ? v->line_start[last + 1] : v->m->src_len;
    if (last == v->nlines)
        *end = v->m->src_len;
}

/* Marks, within fv, every statement inside a deleted one or using a name
 * a deleted one defines, until nothing changes. */
static void close_cone(funcview *fv, char *del)
{
    symlist gone = {NULL, 0, 0};
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t j = 0; j < fv->n; j++) {
            if (!del[j]) {
                int hit = fv->s[j].parent >= 0 && del[fv->s[j].parent];
                for (size_t u = 0; !hit && u < fv->s[j].uses.n; u++)
                    hit = sym_has(&gone, fv->s[j].uses.v[u]);
                if (hit) {
                    del[j] = 1;
                    changed = 1;
                }
            }
            if (del[j])
                for (size_t d = 0; d < fv->s[j].defs.n; d++)
                    if (!sym_has(&gone, fv->s[j].defs.v[d])) {
                        sym_add(&gone, fv->s[j].defs.v[d]);
                        changed = 1;
                    }
        }
    }
    free(gone.v);
}

/* A branch's statements as text at the if's indentation; yields become
 * assignments (x: T = v), a bare yield goes. NULL when a yield has several
 * values. */
static char *branch_text(const fileview *v, const ir_block *b)
{
    const char *src = v->m->src;
    strbuf out = STRBUF_INIT;
    for (uint32_t i = 0; i < b->n; i++) {
        const ir_stmt *st = b->items[i];
        uint32_t first = comments_first(&st->comments, st->span.line), last = line_of(v, st->span.end - 1);
        uint32_t s0, e0;
        lines_range(v, first, last, &s0, &e0);
        strbuf one = STRBUF_INIT;
        if (st->kind == IR_STMT_YIELD) {
            if (st->u.assign.ntargets == 0)
                continue;
            if (st->u.assign.nvalues != st->u.assign.ntargets) {
                strbuf_free(&out);
                return NULL;
            }
            const ir_expr *call = st->u.assign.value;
            if (st->u.assign.ntargets == 1) {
                const ir_expr *val = st->u.assign.values[0];
                strbuf_append(&one, src + s0, call->span.start - s0);
                strbuf_append(&one, src + val->span.start, val->span.end - val->span.start);
                strbuf_append(&one, src + call->span.end, e0 - call->span.end);
            } else {
                /* a, b = pl.yield_(x, y): one assignment each */
                uint32_t ind = st->span.col - 1;
                for (uint32_t t = 0; t < st->u.assign.ntargets; t++) {
                    const ir_expr *val = st->u.assign.values[t];
                    strbuf_printf(&one, "%*s%s = ", (int)ind, "", st->u.assign.targets[t].name->text);
                    strbuf_append(&one, src + val->span.start, val->span.end - val->span.start);
                    strbuf_putc(&one, '\n');
                }
            }
        } else {
            strbuf_append(&one, src + s0, e0 - s0);
        }
        /* one level less of indentation */
        const char *p = strbuf_str(&one);
        while (*p) {
            size_t len = strcspn(p, "\n");
            size_t cut = len >= 4 && strncmp(p, "    ", 4) == 0 ? 4 : 0;
            strbuf_append(&out, p + cut, len - cut);
            if (p[len] == '\n') {
                strbuf_putc(&out, '\n');
                len++;
            }
            p += len;
        }
        strbuf_free(&one);
    }
    return strbuf_detach(&out);
}

char *reduce_apply(const ir_module *m, const reduce_unit *u, size_t n, int *changed)
{
    *changed = 0;
    fileview v;
    view_init(&v, m);
    editlist el = {NULL, 0, 0};
    char **del = xcalloc(v.nfn ? v.nfn : 1, sizeof *del);
    for (size_t i = 0; i < v.nfn; i++)
        del[i] = xcalloc(v.fn[i].n + 1, 1);
    char *fdel = xcalloc(v.nfn + 1, 1);
    int fail = 0;
    for (size_t k = 0; k < n && !fail; k++) {
        const reduce_unit *x = &u[k];
        funcview *fv = find_func(&v, x->func);
        if (!fv)
            continue;
        size_t fi = (size_t)(fv - v.fn);
        if (x->kind == REDUCE_DROP_FUNC) {
            fdel[fi] = 1;
            *changed = 1;
            /* its calls, everywhere */
            for (size_t g = 0; g < v.nfn; g++)
                for (size_t j = 0; j < v.fn[g].n; j++)
                    if (sym_has(&v.fn[g].s[j].uses, fv->f->name))
                        del[g][j] = 1;
            continue;
        }
        if (x->kind == REDUCE_DROP_PARAM) {
            const ir_param *ps = fv->f->params;
            uint32_t np = fv->f->nparams, p = 0;
            while (p < np && strcmp(ps[p].name->text, x->key) != 0)
                p++;
            if (p == np)
                continue;
            if (np < 2) {
                fail = 1;
                break;
            }
            /* with the comma before it (after it, for the first) */
            if (p > 0)
                edit_add(&el, ps[p - 1].span.end, ps[p].span.end, xstrdup(""));
            else
                edit_add(&el, ps[0].span.start, ps[1].span.start, xstrdup(""));
            *changed = 1;
            continue;
        }
        if (x->kind == REDUCE_SHRINK_SHAPE) {
            const ir_expr *d = NULL;
            for (uint32_t p = 0; p < fv->f->nparams && !d; p++)
                if (strcmp(fv->f->params[p].name->text, x->key) == 0)
                    d = input_dims(&fv->f->params[p]);
            if (!d)
                continue;
            if (x->arg < 0 || (uint32_t)x->arg >= d->u.seq.n || x->trips < 1) {
                fail = 1;
                break;
            }
            const ir_expr *dim = d->u.seq.items[x->arg];
            strbuf t = STRBUF_INIT;
            strbuf_printf(&t, "%ld", x->trips);
            edit_add(&el, dim->span.start, dim->span.end, strbuf_detach(&t));
            *changed = 1;
            continue;
        }
        int j = find_stmt(fv, x->key);
        if (j < 0)
            continue;
        const flat *f = &fv->s[j];
        const ir_stmt *st = f->st;
        *changed = 1;
        if (x->kind == REDUCE_DELETE) {
            del[fi][j] = 1;
        } else if (x->kind == REDUCE_DROP_PIPE) {
            /* the pop, in its function, goes with the push */
            const char *tab = x->to ? strchr(x->to, '\t') : NULL;
            char *pfn = tab ? xstrndup(x->to, (size_t)(tab - x->to)) : NULL;
            funcview *gv = pfn ? find_func(&v, pfn) : NULL;
            int q = gv ? find_stmt(gv, tab + 1) : -1;
            free(pfn);
            if (q < 0) {
                fail = 1;
                break;
            }
            del[fi][j] = 1;
            del[gv - v.fn][q] = 1;
        } else if (x->kind == REDUCE_CUT_LOOP) {
            int64_t a, b, c;
            const ir_expr *se;
            strbuf t = STRBUF_INIT;
            if (x->arg == 0 && literal_range(st, &a, &b, &c, &se)) {
                /* peel the one iteration: var = start, iter_args = their initial values, then the body */
                const ir_expr *iv = init_values(st);
                uint32_t ind = st->span.col - 1;
                strbuf_printf(&t, "%*s%s = %lld\n", (int)ind, "", st->u.for_.var->name->text, (long long)a);
                if (st->u.for_.niter_args && (!iv || (iv->kind != IR_EXPR_TUPLE && iv->kind != IR_EXPR_LIST) ||
                                              iv->u.seq.n != st->u.for_.niter_args)) {
                    strbuf_free(&t);
                    fail = 1;
                    break;
                }
                for (uint32_t q = 0; q < st->u.for_.niter_args; q++) {
                    const ir_expr *e = iv->u.seq.items[q];
                    strbuf_printf(&t, "%*s%s = %.*s\n", (int)ind, "", st->u.for_.iter_args[q].name->text,
                                  (int)(e->span.end - e->span.start), m->src + e->span.start);
                }
                char *body = branch_text(&v, &st->u.for_.body);
                if (!body) {
                    strbuf_free(&t);
                    fail = 1;
                    break;
                }
                strbuf_puts(&t, body);
                free(body);
                uint32_t s0, e0;
                lines_range(&v, f->first, f->last, &s0, &e0);
                edit_add(&el, s0, e0, strbuf_detach(&t));
                continue;
            }
            if (literal_range(st, &a, &b, &c, &se)) {
                strbuf_printf(&t, "%lld", (long long)(a + c * (int64_t)x->arg));
            } else if ((se = symbolic_count(st)) != NULL) {
                strbuf_printf(&t, "%ld", x->arg);
            } else {
                fail = 1;
                break;
            }
            edit_add(&el, se->span.start, se->span.end, strbuf_detach(&t));
        } else if (x->kind == REDUCE_COLLAPSE_IF) {
            if (st->kind != IR_STMT_IF || (x->arg && !st->u.if_.has_else)) {
                fail = 1;
                break;
            }
            char *t = branch_text(&v, x->arg ? &st->u.if_.orelse : &st->u.if_.body);
            if (!t) {
                fail = 1;
                break;
            }
            uint32_t s0, e0;
            lines_range(&v, f->first, f->last, &s0, &e0);
            edit_add(&el, s0, e0, t);
        } else if (x->kind == REDUCE_FORWARD_OUT) {
            const ir_expr *arg = forwarded_arg(&v, fv, st);
            if (!arg) {
                fail = 1;
                break;
            }
            rename_ctx rn = {&el, arg->u.name->text};
            for (size_t q = (size_t)j + 1; q < fv->n; q++)
                stmt_names(fv->s[q].st, st->u.assign.targets[0].name, rename_one, &rn);
            uint32_t s0, e0;
            lines_range(&v, f->first, f->last, &s0, &e0);
            edit_add(&el, s0, e0, NULL);
        } else if (x->kind == REDUCE_UNGROUP) {
            const ir_expr *call = stmt_call(st);
            if (!call || !x->to || !core_of_group(&v, call, x->to)) {
                fail = 1;
                break;
            }
            const ir_expr *name = call->u.call.callee;
            /* self.g -> self.g_aiv: the attribute's name is the callee's last part */
            uint32_t at = name->span.end - (uint32_t)strlen(name->u.attr.name->text);
            edit_add(&el, at, name->span.end, xstrdup(x->to));
        } else if (x->kind == REDUCE_RETARGET) {
            const ir_expr *oe, *be;
            if (!retarget_parts(&v, fv, st, x->arg, x->trips, &oe, &be)) {
                fail = 1;
                break;
            }
            const ir_expr *xe = stmt_call(st)->u.call.args[x->trips];
            edit_add(&el, be->span.start, be->span.end, xstrdup(oe->u.name->text));
            if (st->kind == IR_STMT_ASSIGN) {
                rename_ctx rn = {&el, xe->u.name->text};
                for (size_t q = (size_t)j + 1; q < fv->n; q++)
                    stmt_names(fv->s[q].st, st->u.assign.targets[0].name, rename_one, &rn);
            }
            uint32_t s0, e0;
            lines_range(&v, f->first, f->last, &s0, &e0);
            edit_add(&el, s0, e0, NULL);
        } else if (x->kind == REDUCE_CONST_TILE) {
            if (!const_tile_stmt(st) || !x->literal || !*x->literal) {
                fail = 1;
                break;
            }
            const ir_expr *a = st->u.assign.annot, *val = st->u.assign.value;
            strbuf t = STRBUF_INIT;
            strbuf_puts(&t, "pl.tile.full(");
            print_expr(a->u.sub.items[0], &t);
            strbuf_puts(&t, ", dtype=");
            print_expr(a->u.sub.items[1], &t);
            strbuf_printf(&t, ", value=%s)", x->literal);
            edit_add(&el, val->span.start, val->span.end, strbuf_detach(&t));
        } else if (x->kind == REDUCE_RECORD && x->arg == -1) {
            if (!scalar_stmt(st) || !x->literal) {
                fail = 1;
                break;
            }
            const ir_expr *val = st->u.assign.value;
            edit_add(&el, val->span.start, val->span.end, xstrdup(x->literal));
        } else if (x->kind == REDUCE_RECORD) {
            const ir_expr *call = stmt_call(st), *arg = NULL, *annot = NULL;
            if (call && x->arg >= 0 && (uint32_t)x->arg < call->u.call.nargs)
                arg = call->u.call.args[x->arg];
            if (arg)
                annot = recordable(fv, arg);
            if (!annot || fv->f->nparams == 0) {
                fail = 1;
                break;
            }
            strbuf name = STRBUF_INIT, decl = STRBUF_INIT;
            record_param_name(fv, arg, &name);
            strbuf_printf(&decl, ", %s: ", strbuf_str(&name));
            if (x->literal && *x->literal && annot->u.sub.n >= 2) {
                /* the recorded value's own dims: the annotation's may name
                 * scalars of the entry that later steps delete */
                print_expr(annot->u.sub.value, &decl);
                strbuf_printf(&decl, "[%s", x->literal);
                for (uint32_t q = 1; q < annot->u.sub.n; q++) {
                    strbuf_puts(&decl, ", ");
                    print_expr(annot->u.sub.items[q], &decl);
                }
                strbuf_putc(&decl, ']');
            } else {
                print_expr(annot, &decl);
            }
            edit_add(&el, arg->span.start, arg->span.end, strbuf_detach(&name));
            uint32_t at = fv->f->params[fv->f->nparams - 1].span.end;
            edit_add(&el, at, at, strbuf_detach(&decl));
        } else if (x->kind == REDUCE_BYPASS) {
            /* x = op(a, ...): the statement goes, its later uses read a
             * (arg -1: x = y or x = literal, propagated as it is) */
            const ir_expr *call = st->kind == IR_STMT_ASSIGN ? st->u.assign.value : NULL;
            const ir_expr *to = NULL;
            if (call && st->u.assign.ntargets == 1 && x->arg == -2 && x->to && call->kind == IR_EXPR_CALL) {
                rename_ctx rn = {&el, x->to};
                for (size_t q = (size_t)j + 1; q < fv->n; q++)
                    stmt_names(fv->s[q].st, st->u.assign.targets[0].name, rename_one, &rn);
                uint32_t s0, e0;
                lines_range(&v, f->first, f->last, &s0, &e0);
                edit_add(&el, s0, e0, NULL);
                continue;
            }
            if (call && st->u.assign.ntargets == 1 && x->arg == -1 && call->kind != IR_EXPR_CALL)
                to = call;
            else if (call && call->kind == IR_EXPR_CALL && x->arg >= 0 && (uint32_t)x->arg < call->u.call.nargs &&
                     call->u.call.args[x->arg]->kind == IR_EXPR_NAME && st->u.assign.ntargets == 1)
                to = call->u.call.args[x->arg];
            if (!to) {
                fail = 1;
                break;
            }
            char *to_text = xstrndup(m->src + to->span.start, to->span.end - to->span.start);
            rename_ctx rn = {&el, to_text};
            for (size_t q = (size_t)j + 1; q < fv->n; q++)
                stmt_names(fv->s[q].st, st->u.assign.targets[0].name, rename_one, &rn);
            free(to_text);
            uint32_t s0, e0;
            lines_range(&v, f->first, f->last, &s0, &e0);
            edit_add(&el, s0, e0, NULL);
        }
    }
    for (size_t i = 0; i < v.nfn; i++) {
        if (fdel[i]) {
            uint32_t s0, e0;
            lines_range(&v, v.fn[i].first, v.fn[i].last, &s0, &e0);
            edit_add(&el, s0, e0, NULL);
            continue;
        }
        close_cone(&v.fn[i], del[i]);
        for (size_t j = 0; j < v.fn[i].n; j++)
            if (del[i][j] && (v.fn[i].s[j].parent < 0 || !del[i][v.fn[i].s[j].parent])) {
                uint32_t s0, e0;
                lines_range(&v, v.fn[i].s[j].first, v.fn[i].s[j].last, &s0, &e0);
                edit_add(&el, s0, e0, NULL);
                *changed = 1;
            }
    }
    char *result = NULL;
    if (!fail && *changed) {
        qsort(el.v, el.n, sizeof *el.v, edit_cmp);
        strbuf out = STRBUF_INIT;
        uint32_t at = 0;
        for (size_t i = 0; i < el.n; i++) {
            if (el.v[i].start < at)
                continue; /* inside an edit already made (a deleted function's statement) */
            strbuf_append(&out, m->src + at, el.v[i].start - at);
            if (el.v[i].text)
                strbuf_puts(&out, el.v[i].text);
            at = el.v[i].end;
        }
        strbuf_append(&out, m->src + at, m->src_len - at);
        diag_sink sink;
        diag_sink_init(&sink, 1);
        ptodb_status st;
        ir_module *nm = ir_parse(m->path, strbuf_str(&out), out.len, &sink, &st);
        if (st == PTODB_OK && nm && nm->program) {
            strbuf pr = STRBUF_INIT;
            ir_print_module(nm, &pr);
            result = strbuf_detach(&pr);
        }
        ir_module_free(nm);
        diag_sink_free(&sink);
        strbuf_free(&out);
    }
    for (size_t i = 0; i < el.n; i++)
        free(el.v[i].text);
    free(el.v);
    for (size_t i = 0; i < v.nfn; i++)
        free(del[i]);
    free(del);
    free(fdel);
    view_free(&v);
    return result;
}

static void count_one(void *ctx, const ir_stmt *st)
{
    (void)st;
    (*(size_t *)ctx)++;
}

size_t reduce_count_statements(const ir_module *m)
{
    size_t n = 0;
    for (uint32_t i = 0; m && m->program && i < m->program->nfuncs; i++)
        ir_walk_stmts(&m->program->funcs[i]->body, count_one, &n);
    return n;
}

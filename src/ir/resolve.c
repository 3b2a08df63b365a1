/* The resolver: slots, op ids, function indices, enum values (resolve.h).
 * Name lookups are array lookups indexed by ir_sym id; the only string work
 * is building dotted callee names ("tile.add") once per call site. */
#include "ir/resolve.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "ir/arena.h"
#include "ir/lex.h"
#include "ir/parse.h"

typedef struct resolver {
    ir_module *m;
    ir_program *prog;
    diag_sink *sink;
    size_t errors;
    int32_t *func_of;  /* sym id -> function index, or -1 */
    int32_t *dyn_of;   /* sym id -> dyn index, or -1 */
    int32_t *slot_of;  /* sym id -> slot in the current function */
    uint32_t *stamp;   /* slot_of is valid where stamp == gen */
    uint32_t gen;
    ir_func *fn;
    ir_sym **slot_names;
    uint32_t nslots, slots_cap;
    ir_dyn *dyns;
    uint32_t ndyns, dyns_cap;
    int in_type;       /* inside a type annotation: free names are dims */
    int type_mode;     /* which names a type may use (TYPE_*, below) */
    int lenient;       /* verbatim Python body (§3.3): unknown names are not errors */
} resolver;

static void rerr(resolver *r, const ir_span *sp, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void rerr(resolver *r, const ir_span *sp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_loc loc = {r->m->path, (int)sp->line, (int)sp->col};
    const char *line = sp->col >= 1 && sp->start + 1 >= sp->col
                           ? r->m->src + sp->start - (sp->col - 1)
                           : NULL;
    diag_vreport(r->sink, DIAG_ERROR, loc, line, fmt, ap);
    va_end(ap);
    r->errors++;
}

static void rwarn(resolver *r, const ir_span *sp, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void rwarn(resolver *r, const ir_span *sp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_loc loc = {r->m->path, (int)sp->line, (int)sp->col};
    const char *line = sp->col >= 1 && sp->start + 1 >= sp->col
                           ? r->m->src + sp->start - (sp->col - 1)
                           : NULL;
    diag_vreport(r->sink, DIAG_WARNING, loc, line, fmt, ap);
    va_end(ap);
}

/* Which names a type annotation may use. PyPTO's text parser execs the dump
 * (python/pypto/language/parser/text_parser.py), so Python itself evaluates a
 * parameter's and the return type when the class body defines the function:
 * only module-level names (pl.dynamic declarations) exist there, and any other
 * name raises NameError (a parameter, a body variable such as a loop variable
 * or a mem_vec_N base, a name a reduction removed). A body statement's
 * annotation is never evaluated by Python; type_resolver.py makes an unknown
 * MemRef base or byte offset or TileView field a DynVar.
 *   TYPE_FREE  an unknown name is a free symbolic dim: a body type, and the
 *              shape list of any type. PyPTO rejects a free shape dim too
 *              (_resolve_shape_dim), but its printer writes them: thousands
 *              of real dumps have a caller's variable as an outlined
 *              function's dim (docs/notes-ir.md), and ptodb runs them;
 *   TYPE_SIG   the rest of a parameter's or the return type (MemRef offsets
 *              and bases, TensorView strides): a module-level pl.dynamic
 *              or an error, as in PyPTO (no real dump has another name). */
enum { TYPE_FREE, TYPE_SIG };

/* Names are shown at most 60 bytes long in messages. */
#define NAME_SHOWN(sym) (int)((sym)->len > 60 ? 60 : (sym)->len), (sym)->text, \
                        (sym)->len > 60 ? "..." : ""

/* ---- slots ---------------------------------------------------------------- */

static int32_t slot_lookup(resolver *r, const ir_sym *s)
{
    return r->stamp[s->id] == r->gen ? r->slot_of[s->id] : -1;
}

static int32_t slot_bind(resolver *r, ir_sym *s)
{
    int32_t k = slot_lookup(r, s);
    if (k >= 0)
        return k;
    if (r->nslots == r->slots_cap) {
        r->slots_cap = r->slots_cap ? r->slots_cap * 2 : 64;
        r->slot_names = xreallocarray(r->slot_names, r->slots_cap, sizeof *r->slot_names);
    }
    k = (int32_t)r->nslots;
    r->slot_names[r->nslots++] = s;
    r->stamp[s->id] = r->gen;
    r->slot_of[s->id] = k;
    return k;
}

static void bind_target(resolver *r, ir_target *t)
{
    if (t)
        t->slot = slot_bind(r, t->name);
}

static void bind_block(resolver *r, const ir_block *b);

static void bind_stmt(resolver *r, ir_stmt *s)
{
    switch (s->kind) {
    case IR_STMT_ASSIGN:
    case IR_STMT_YIELD:
        for (uint32_t i = 0; i < s->u.assign.ntargets; i++)
            bind_target(r, &s->u.assign.targets[i]);
        break;
    case IR_STMT_IF:
        bind_block(r, &s->u.if_.body);
        bind_block(r, &s->u.if_.orelse);
        break;
    case IR_STMT_FOR:
        bind_target(r, s->u.for_.var);
        for (uint32_t i = 0; i < s->u.for_.niter_args; i++)
            bind_target(r, &s->u.for_.iter_args[i]);
        bind_block(r, &s->u.for_.body);
        break;
    case IR_STMT_WHILE: bind_block(r, &s->u.while_.body); break;
    case IR_STMT_WITH:
        bind_target(r, s->u.with.as);
        bind_block(r, &s->u.with.body);
        break;
    default: break;
    }
}

static void bind_block(resolver *r, const ir_block *b)
{
    for (uint32_t i = 0; i < b->n; i++)
        bind_stmt(r, b->items[i]);
}

/* ---- dotted names ---------------------------------------------------------- */

/* Writes the dotted text of an ATTR chain rooted at a NAME into buf;
 * returns the root name, or NULL when the chain has another root or the
 * text does not fit. */
static const ir_sym *dotted(const ir_expr *e, char *buf, size_t cap, size_t *len)
{
    const ir_expr *chain[16];
    int n = 0;
    while (e->kind == IR_EXPR_ATTR) {
        if (n == 16)
            return NULL;
        chain[n++] = e;
        e = e->u.attr.value;
    }
    if (e->kind != IR_EXPR_NAME)
        return NULL;
    size_t l = e->u.name->len;
    if (l + 1 > cap)
        return NULL;
    memcpy(buf, e->u.name->text, l);
    for (int i = n - 1; i >= 0; i--) {
        const ir_sym *s = chain[i]->u.attr.name;
        if (l + 1 + s->len + 1 > cap)
            return NULL;
        buf[l++] = '.';
        memcpy(buf + l, s->text, s->len);
        l += s->len;
    }
    buf[l] = '\0';
    *len = l;
    return e->u.name;
}

static int is_py_keyword(const char *s, size_t n)
{
    static const char *const kw[] = {"and", "or", "not", "in", "is", "if", "else", "for",
                                     "while", "with", "as", "def", "class", "return",
                                     "pass", "break", "continue", "import", "from",
                                     "lambda", "yield", "del", "global", "try", "raise"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (strlen(kw[i]) == n && memcmp(kw[i], s, n) == 0)
            return 1;
    return 0;
}

/* pl.tile.and_ -> "tile.and"; pld.tensor.window -> "pld.tensor.window";
 * the remote-load sentinel maps to pld.tile.remote_load (§6.6). Returns
 * the IR name length, or 0 when the text is not an op-shaped name. */
static size_t op_name(const char *dot, size_t len, int pld, char *out, size_t cap)
{
    const char *s = pld ? dot : dot + 3; /* drop "pl." */
    size_t n = pld ? len : len - 3;
    if (!memchr(s, '.', n) || n + 1 > cap)
        return 0;
    static const char sentinel[] = "pld.tile._remote_load_with_physical_tail_padding";
    if (n == sizeof sentinel - 1 && memcmp(s, sentinel, n) == 0) {
        strcpy(out, "pld.tile.remote_load");
        return strlen(out);
    }
    memcpy(out, s, n);
    out[n] = '\0';
    const char *last = strrchr(out, '.') + 1;
    size_t ll = n - (size_t)(last - out);
    if (ll > 1 && out[n - 1] == '_' && is_py_keyword(last, ll - 1))
        out[--n] = '\0';
    return n;
}

static int is_op_namespace(const char *ir, size_t n)
{
    static const char *const ns[] = {"tensor.", "tile.", "system.", "array.", "prefetch.",
                                     "builtin.", "dist.", "test.", "pld."};
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        size_t k = strlen(ns[i]);
        if (n > k && memcmp(ir, ns[i], k) == 0)
            return 1;
    }
    return 0;
}

/* ---- expressions ------------------------------------------------------------ */

static void resolve_expr(resolver *r, ir_expr *e);

static int32_t add_free_dyn(resolver *r, ir_expr *e)
{
    if (r->ndyns == r->dyns_cap) {
        uint32_t ncap = r->dyns_cap ? r->dyns_cap * 2 : 16;
        ir_dyn *nd = ir_arena_alloc(r->m->arena, ncap * sizeof *nd);
        if (r->ndyns)
            memcpy(nd, r->dyns, r->ndyns * sizeof *nd);
        r->dyns = nd;
        r->dyns_cap = ncap;
    }
    ir_dyn *d = &r->dyns[r->ndyns];
    d->span = e->span;
    d->name = e->u.name;
    d->declared = 0;
    r->dyn_of[e->u.name->id] = (int32_t)r->ndyns;
    return (int32_t)r->ndyns++;
}

/* PyPTO's SSA name of a loop's return variable: ...__rv_v<digits>, maybe
 * with a _<digits> suffix (a clone). */
static int is_loop_return_var(const ir_sym *s)
{
    const char *p = s->text, *end = s->text + s->len;
    for (const char *q = p; q + 6 < end; q++) {
        if (memcmp(q, "__rv_v", 6) != 0)
            continue;
        const char *d = q + 6;
        int digits = 0;
        while (d < end && (*d >= '0' && *d <= '9')) {
            d++;
            digits++;
        }
        if (digits && d < end && *d == '_') {
            d++;
            while (d < end && *d >= '0' && *d <= '9')
                d++;
        }
        if (digits && d == end)
            return 1;
    }
    return 0;
}

static void resolve_name(resolver *r, ir_expr *e)
{
    const ir_sym *s = e->u.name;
    int sig = r->in_type && r->type_mode == TYPE_SIG;
    int32_t k = sig ? -1 : slot_lookup(r, s);
    if (k >= 0) {
        e->res.kind = IR_REF_LOCAL;
        e->res.id = k;
        return;
    }
    /* a free dim met earlier (another function's body type) is no name a
     * signature's MemRef may use: only a declared pl.dynamic is */
    if (r->dyn_of[s->id] >= 0 &&
        (!r->in_type || r->type_mode == TYPE_FREE || r->dyns[r->dyn_of[s->id]].declared)) {
        e->res.kind = IR_REF_DYN;
        e->res.id = r->dyn_of[s->id];
        return;
    }
    if (s->id == LEX_KW_INF || s->id == LEX_KW_NAN) {
        /* Bare inf/nan are float constants (§2.3). */
        e->res.kind = IR_REF_FLOATCONST;
        e->u.num.f = s->id == LEX_KW_INF ? INFINITY : NAN;
        return;
    }
    if (r->in_type && r->type_mode == TYPE_FREE) {
        e->res.kind = IR_REF_DYN;
        e->res.id = add_free_dyn(r, e);
        return;
    }
    if (r->in_type) {
        rerr(r, &e->span, "'%.*s%s' is used here but nothing in scope defines it (a parameter's or the "
             "return type is evaluated by Python when the function is defined: only a module-level "
             "pl.dynamic name exists there; PyPTO's parser raises NameError)", NAME_SHOWN(s));
        return;
    }
    if (r->lenient)
        return;
    static const char free_var[] = "__FREE_VAR";
    size_t fl = sizeof free_var - 1;
    if (s->len > fl && memcmp(s->text + s->len - fl, free_var, fl) == 0)
        /* PyPTO's printer marks a variable no definition in scope reaches
         * (ir-format.md §6.4 says "outside its function"; real dumps also
         * have it inside the function, after a pass renamed a loop's
         * iter-arg: docs/notes-ir.md). */
        rerr(r, &e->span, "'%.*s%s' is used here but nothing in scope defines it "
             "(broken IR: PyPTO marks such a variable __FREE_VAR)", NAME_SHOWN(s));
    else if (is_loop_return_var(s))
        /* a `X__rv_vN` name is a loop's return variable, which PyPTO's printer
         * binds as `X__rv_vN = pl.yield_(...)` at the yield ending the loop's
         * body; it passes the return variables only through a plain body or an
         * auto scope (python_printer.cpp:2341-2418 at e2d0f78), so a final
         * yield inside another scope (a pl.split_aiv region) prints bare and
         * the name is never bound: PyPTO's own parser rejects such a dump */
        rerr(r, &e->span, "undefined name '%.*s%s' (broken IR: a loop's return variable no pl.yield_ binds; "
             "PyPTO's printer drops that binding when the loop body's final yield is inside a scope)",
             NAME_SHOWN(s));
    else
        rerr(r, &e->span, "undefined name '%.*s%s'", NAME_SHOWN(s));
}

/* An ATTR chain in value position: an enum constant or a type head. */
static void resolve_attr(resolver *r, ir_expr *e)
{
    char buf[256];
    size_t len;
    const ir_sym *root = dotted(e, buf, sizeof buf, &len);
    if (!root || (root->id != LEX_KW_PL && root->id != LEX_KW_PLD && root->id != LEX_KW_SELF)) {
        /* x.attr on a variable: resolve the variable. */
        ir_expr *v = e;
        while (v->kind == IR_EXPR_ATTR)
            v = v->u.attr.value;
        resolve_expr(r, v);
        return;
    }
    if (root->id == LEX_KW_SELF) {
        if (e->u.attr.value->kind == IR_EXPR_NAME) {
            int32_t f = r->func_of[e->u.attr.name->id];
            if (f >= 0) {
                e->res.kind = IR_REF_FUNC;
                e->res.id = f;
                return;
            }
        }
        rerr(r, &e->span, "unknown function '%s' (no such method in the program)", buf + 5);
        return;
    }
    int v = ir_enum_lookup(buf, len);
    if (v >= 0) {
        e->res.kind = IR_REF_ENUM;
        e->res.id = v;
        return;
    }
    int b = ir_builtin_lookup(buf, len);
    if (b >= 0) {
        e->res.kind = IR_REF_TYPE;
        e->res.id = b;
        return;
    }
    /* A pl.* name this ptodb does not know (pl.TileLayout.Z, pl.FP4): a dump
     * from a newer PyPTO still opens; a run stops where it is evaluated. */
    rwarn(r, &e->span, "unknown name '%s' (newer PyPTO?): ptodb runs the file until "
          "a statement needs it", buf);
    e->flags |= IR_EF_NEWER;
}

static void check_arity(resolver *r, ir_expr *e, const char *what, int lo, int hi)
{
    int n = (int)e->u.call.nargs;
    if (lo >= 0 && n < lo) {
        if (lo == hi)
            rerr(r, &e->span, "wrong number of arguments for %s: expected %d, got %d", what, lo, n);
        else
            rerr(r, &e->span, "too few arguments for %s: expected at least %d, got %d", what, lo, n);
    } else if (hi >= 0 && n > hi) {
        if (lo == hi)
            rerr(r, &e->span, "wrong number of arguments for %s: expected %d, got %d", what, lo, n);
        else
            rerr(r, &e->span, "too many arguments for %s: expected at most %d, got %d", what, hi, n);
    }
}

static void resolve_args(resolver *r, ir_expr *e, uint32_t from)
{
    for (uint32_t i = from; i < e->u.call.nargs; i++)
        resolve_expr(r, e->u.call.args[i]);
    for (uint32_t i = 0; i < e->u.call.nkwargs; i++)
        resolve_expr(r, e->u.call.kwargs[i].value);
}

static void resolve_self_call(resolver *r, ir_expr *e, ir_expr *callee, uint32_t skip)
{
    const ir_sym *name = callee->u.attr.name;
    int32_t f = r->func_of[name->id];
    if (f < 0) {
        rerr(r, &callee->span, "unknown function '%.*s%s' (no such method in the program)",
             NAME_SHOWN(name));
        return;
    }
    callee->res.kind = IR_REF_FUNC;
    callee->res.id = f;
    const ir_func *g = r->prog->funcs[f];
    uint32_t n = e->u.call.nargs - skip;
    if (n != g->nparams)
        rerr(r, &e->span, "wrong number of arguments for '%.*s%s': expected %u, got %u",
             NAME_SHOWN(name), g->nparams, n);
}

static int is_self_attr(const ir_expr *c)
{
    return c->kind == IR_EXPR_ATTR && c->u.attr.value->kind == IR_EXPR_NAME &&
           c->u.attr.value->u.name->id == LEX_KW_SELF;
}

static void resolve_call(resolver *r, ir_expr *e)
{
    ir_expr *c = e->u.call.callee;
    if (is_self_attr(c)) {
        resolve_self_call(r, e, c, 0);
        if (c->res.kind == IR_REF_FUNC) {
            e->res.kind = IR_REF_CALL;
            e->res.id = c->res.id;
        }
        resolve_args(r, e, 0);
        return;
    }
    if (c->kind == IR_EXPR_NAME && slot_lookup(r, c->u.name) < 0) {
        if (strcmp(c->u.name->text, "abs") == 0) {
            e->res.kind = IR_REF_BUILTIN;
            e->res.id = IR_BUILTIN_ABS;
            check_arity(r, e, "abs", 1, 1);
        } else if (!r->lenient) {
            rerr(r, &c->span, "unknown function '%.*s%s'", NAME_SHOWN(c->u.name));
        }
        resolve_args(r, e, 0);
        return;
    }
    char buf[256], ir[256];
    size_t len;
    const ir_sym *root = c->kind == IR_EXPR_ATTR ? dotted(c, buf, sizeof buf, &len) : NULL;
    if (!root || (root->id != LEX_KW_PL && root->id != LEX_KW_PLD)) {
        resolve_expr(r, c);
        resolve_args(r, e, 0);
        return;
    }
    int pld = root->id == LEX_KW_PLD;
    size_t irn = op_name(buf, len, pld, ir, sizeof ir);
    int op = irn ? ir_op_lookup(ir, irn) : -1;
    if (op >= 0) {
        const ir_op_info *info = ir_op_info_get(op);
        e->res.kind = IR_REF_OP;
        e->res.id = op;
        char what[300];
        snprintf(what, sizeof what, "op '%s'", info->name);
        check_arity(r, e, what, info->min_args, info->max_args);
        resolve_args(r, e, 0);
        return;
    }
    int b = ir_builtin_lookup(buf, len);
    if (b >= 0) {
        e->res.kind = IR_REF_BUILTIN;
        e->res.id = b;
        int lo, hi;
        ir_builtin_arity(b, &lo, &hi);
        char what[300];
        snprintf(what, sizeof what, "'%s'", buf);
        check_arity(r, e, what, lo, hi);
        if ((b == IR_BUILTIN_SUBMIT || b == IR_BUILTIN_SPMD_SUBMIT) && e->u.call.nargs >= 1 &&
            is_self_attr(e->u.call.args[0])) {
            resolve_self_call(r, e, e->u.call.args[0], 1);
            resolve_args(r, e, 1);
            return;
        }
        if (b == IR_BUILTIN_CONST || b == IR_BUILTIN_CAST) {
            /* The dtype argument is an enum constant. */
            resolve_args(r, e, 0);
            return;
        }
        resolve_args(r, e, 0);
        return;
    }
    if (irn && is_op_namespace(ir, irn)) {
        /* an op of a newer PyPTO: the file opens, lists and diffs; a run
         * stops at the first statement that calls it */
        rwarn(r, &c->span, "unknown op '%s' (newer PyPTO?): ptodb runs the file until a "
              "statement calls it", ir);
        e->flags |= IR_EF_NEWER;
    } else
        rerr(r, &c->span, "unknown builtin '%s'", buf);
    resolve_args(r, e, 0);
}

static void resolve_expr(resolver *r, ir_expr *e)
{
    if (!e || diag_sink_full(r->sink))
        return;
    switch (e->kind) {
    case IR_EXPR_NAME: resolve_name(r, e); break;
    case IR_EXPR_ATTR: resolve_attr(r, e); break;
    case IR_EXPR_CALL: resolve_call(r, e); break;
    case IR_EXPR_SUBSCRIPT: {
        ir_expr *v = e->u.sub.value;
        if (v->kind == IR_EXPR_NAME && v->u.name->id == LEX_KW_TUPLE) {
            /* tuple[...]: Python's builtin, defined everywhere */
            v->res.kind = IR_REF_TYPE;
            v->res.id = IR_BUILTIN_TUPLE_RET;
        } else
            resolve_expr(r, v);
        int type_head = v->res.kind == IR_REF_TYPE;
        int saved = r->in_type, saved_mode = r->type_mode;
        if (type_head && !r->in_type)
            r->type_mode = TYPE_FREE; /* a type met in a value (pl.cast's?) */
        if (type_head)
            r->in_type = 1;
        for (uint32_t i = 0; i < e->u.sub.n; i++) {
            /* [shape, dtype, MemRef, Mem, TileView]: the shape list is
             * free; the rest of a signature's type is strict */
            if (type_head) {
                int shape = i == 0 && e->u.sub.items[i]->kind == IR_EXPR_LIST;
                r->type_mode = saved_mode == TYPE_SIG && !shape ? TYPE_SIG : TYPE_FREE;
            }
            resolve_expr(r, e->u.sub.items[i]);
        }
        r->in_type = saved;
        r->type_mode = saved_mode;
        break;
    }
    case IR_EXPR_SLICE:
        resolve_expr(r, e->u.slice.lo);
        resolve_expr(r, e->u.slice.hi);
        resolve_expr(r, e->u.slice.step);
        break;
    case IR_EXPR_LIST:
    case IR_EXPR_TUPLE:
        for (uint32_t i = 0; i < e->u.seq.n; i++)
            resolve_expr(r, e->u.seq.items[i]);
        break;
    case IR_EXPR_DICT:
        for (uint32_t i = 0; i < e->u.dict.n; i++) {
            resolve_expr(r, e->u.dict.keys[i]);
            resolve_expr(r, e->u.dict.values[i]);
        }
        break;
    case IR_EXPR_UNARY: resolve_expr(r, e->u.unary.operand); break;
    case IR_EXPR_BINARY:
        resolve_expr(r, e->u.binary.lhs);
        resolve_expr(r, e->u.binary.rhs);
        break;
    default: break;
    }
}

static void resolve_type(resolver *r, ir_expr *e, int mode)
{
    int saved = r->in_type, saved_mode = r->type_mode;
    r->in_type = 1;
    r->type_mode = mode;
    resolve_expr(r, e);
    r->in_type = saved;
    r->type_mode = saved_mode;
}

/* ---- statements ---------------------------------------------------------------- */

static void resolve_block(resolver *r, const ir_block *b);

static void resolve_stmt(resolver *r, ir_stmt *s)
{
    switch (s->kind) {
    case IR_STMT_ASSIGN:
    case IR_STMT_YIELD:
        if (s->u.assign.annot)
            resolve_type(r, s->u.assign.annot, TYPE_FREE);
        resolve_expr(r, s->u.assign.value);
        break;
    case IR_STMT_EXPR:
    case IR_STMT_COND:
    case IR_STMT_FUNC_ATTR: resolve_expr(r, s->u.expr.value); break;
    case IR_STMT_RETURN:
        for (uint32_t i = 0; i < s->u.ret.n; i++)
            resolve_expr(r, s->u.ret.values[i]);
        break;
    case IR_STMT_IF:
        resolve_expr(r, s->u.if_.cond);
        resolve_block(r, &s->u.if_.body);
        resolve_block(r, &s->u.if_.orelse);
        break;
    case IR_STMT_FOR:
        resolve_expr(r, s->u.for_.iter);
        resolve_block(r, &s->u.for_.body);
        break;
    case IR_STMT_WHILE:
        resolve_expr(r, s->u.while_.cond);
        resolve_block(r, &s->u.while_.body);
        break;
    case IR_STMT_WITH:
        resolve_expr(r, s->u.with.ctx);
        resolve_block(r, &s->u.with.body);
        break;
    default: break;
    }
}

static void resolve_block(resolver *r, const ir_block *b)
{
    for (uint32_t i = 0; i < b->n && !diag_sink_full(r->sink); i++)
        resolve_stmt(r, b->items[i]);
}

/* A SubWorker at HOST level or above may have a body copied verbatim from
 * the user's Python (ir-format.md §3.3): its free names (numpy, print, ...)
 * are not errors. Ops and program functions are still checked. */
static int verbatim_body_allowed(const ir_func *f)
{
    static const char *const levels[] = {"HOST", "CLUSTER_0", "CLUSTER_1", "CLUSTER_2",
                                         "GLOBAL", "NODE", "POD", "CLOS1", "CLOS2"};
    if (!f->role_name || strcmp(f->role_name, "SubWorker") != 0 || !f->level_name)
        return 0;
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (strcmp(f->level_name, levels[i]) == 0)
            return 1;
    return 0;
}

static void resolve_func(resolver *r, ir_func *f)
{
    r->gen++;
    r->lenient = verbatim_body_allowed(f);
    r->fn = f;
    r->nslots = 0;
    for (uint32_t i = 0; i < f->nparams; i++) {
        ir_param *p = &f->params[i];
        if (slot_lookup(r, p->name) >= 0)
            rerr(r, &p->span, "duplicate parameter '%.*s%s' in function '%.*s%s'",
                 NAME_SHOWN(p->name), NAME_SHOWN(f->name));
        p->slot = slot_bind(r, p->name);
    }
    bind_block(r, &f->body);
    if (f->decorator)
        resolve_expr(r, f->decorator);
    /* Signature types name module-level pl.dynamic dims only (TYPE_SIG). In
     * a verbatim body (§3.3) the user's own Python may name anything. */
    int sig = r->lenient ? TYPE_FREE : TYPE_SIG;
    for (uint32_t i = 0; i < f->nparams; i++)
        if (f->params[i].annot)
            resolve_type(r, f->params[i].annot, sig);
    if (f->ret_annot)
        resolve_type(r, f->ret_annot, sig);
    resolve_block(r, &f->body);
    f->nslots = r->nslots;
    f->slot_names = ir_arena_alloc(r->m->arena, (r->nslots ? r->nslots : 1) * sizeof(ir_sym *));
    if (r->nslots)
        memcpy(f->slot_names, r->slot_names, r->nslots * sizeof(ir_sym *));
}

ptodb_status ir_resolve(ir_module *m, diag_sink *sink)
{
    ir_program *prog = m->program;
    if (!prog)
        return PTODB_ERR_RESOLVE;
    resolver r;
    memset(&r, 0, sizeof r);
    r.m = m;
    r.prog = prog;
    r.sink = sink;
    uint32_t n = m->nsyms ? m->nsyms : 1;
    r.func_of = xmalloc(n * sizeof *r.func_of);
    r.dyn_of = xmalloc(n * sizeof *r.dyn_of);
    r.slot_of = xmalloc(n * sizeof *r.slot_of);
    r.stamp = xcalloc(n, sizeof *r.stamp);
    for (uint32_t i = 0; i < n; i++)
        r.func_of[i] = r.dyn_of[i] = -1;

    /* Keep only declared dyns on entry, so that resolving twice is stable. */
    r.dyns = prog->dyns;
    r.ndyns = r.dyns_cap = prog->ndeclared_dyns;
    for (uint32_t i = 0; i < prog->ndeclared_dyns; i++) {
        ir_dyn *d = &prog->dyns[i];
        if (r.dyn_of[d->name->id] >= 0)
            rerr(&r, &d->span, "duplicate pl.dynamic declaration '%.*s%s'", NAME_SHOWN(d->name));
        else
            r.dyn_of[d->name->id] = (int32_t)i;
    }
    for (uint32_t i = 0; i < prog->nfuncs; i++) {
        ir_func *f = prog->funcs[i];
        if (r.func_of[f->name->id] >= 0)
            rerr(&r, &f->name_span, "duplicate function '%.*s%s' (first defined on line %u)",
                 NAME_SHOWN(f->name), prog->funcs[r.func_of[f->name->id]]->name_span.line);
        else
            r.func_of[f->name->id] = (int32_t)i;
    }
    for (uint32_t i = 0; i < prog->nfuncs && !diag_sink_full(sink); i++)
        resolve_func(&r, prog->funcs[i]);
    prog->dyns = r.dyns;
    prog->ndyns = r.ndyns;

    free(r.func_of);
    free(r.dyn_of);
    free(r.slot_of);
    free(r.stamp);
    free(r.slot_names);
    m->resolved = r.errors == 0;
    return r.errors ? PTODB_ERR_RESOLVE : PTODB_OK;
}

ptodb_status ir_check_file(const char *path, diag_sink *sink)
{
    ptodb_status st;
    ir_module *m = ir_parse_file(path, sink, &st);
    if (m && st == PTODB_OK)
        st = ir_resolve(m, sink);
    ir_module_free(m);
    return st;
}

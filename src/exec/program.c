/* Lowering a resolved module into instructions (program.h). */
#include "exec/program.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "ir/arena.h"
#include "ir/parse.h"
#include "memory/soc.h"
#include "ir/resolve.h"

struct xarena;

/* ---- REF's coverage (semantics.md §3.10, §3.11) ---------------------------- */

static const char *const ref_noop_ops[] = {
    "system.sync_src", "system.sync_dst", "system.sync_set", "system.sync_wait",
    "system.set_ffts", "system.bar_v", "system.bar_m", "system.bar_all", "system.fence",
    "system.cacheinvalid", "system.aic_initialize_pipe", "system.aiv_initialize_pipe",
    "system.reserve_buffer", "system.import_peer_buffer", "system.tfree_to_aic",
    "system.tfree_to_aiv", NULL};

static int in_list(const char *const *list, const char *name)
{
    for (size_t i = 0; list[i]; i++)
        if (strcmp(list[i], name) == 0)
            return 1;
    return 0;
}

/* torch_codegen has a handler for op (ops.def's REF column). */
static int ref_handles_op(int op)
{
    const ir_op_info *info = ir_op_info_get(op);
    return info && info->ref;
}

/* The split_aiv shard/gather ops (their implicit split mode, below). */
static int shard_op(int op)
{
    return op == IR_OP_TILE_AIV_SHARD || op == IR_OP_TILE_AIC_GATHER ||
           op == IR_OP_TENSOR_AIV_SHARD || op == IR_OP_TENSOR_AIC_GATHER;
}

int exec_program_runs_op(int op)
{
    const ir_op_info *info = ir_op_info_get(op);
    return info && info->family == IR_OPFAM_SYSTEM && in_list(ref_noop_ops, info->name);
}

/* ---- helpers ------------------------------------------------------------ */

typedef struct lctx {
    int is_loop;
    const int32_t *iter;     /* loop: iter-arg slots (yield targets inside the body) */
    uint32_t niter;
    int32_t head;            /* loop: continue target */
    int32_t *breaks;         /* JUMPs to patch to the loop exit */
    uint32_t nbreaks, capbreaks;
    const ir_stmt *yield;    /* the yield statement met in the body (its targets) */
} lctx;

typedef struct lower {
    xprogram *p;
    xfunc *f;
    const ir_func *irf;
    const op_fn *ops;
    diag_sink *sink;
    ir_arena *a;
    xinst *code;
    uint32_t n, cap;
    lctx stack[IR_MAX_DEPTH + 8];
    int depth;
    uint32_t nslots; /* grows with temps */
    uint32_t nloops;
    int region_split;    /* inside a pl.split_aiv region: its mode (1/2), else 0 */
    int region_shards;   /* shard/gather ops met inside split_aiv regions */
    int region_any;      /* split_aiv regions met */
    int manual_depth;    /* inside pl.scope(mode=pl.ScopeMode.MANUAL) bodies */
    ptodb_status st;
} lower;

static void *aalloc(ir_arena *a, size_t n)
{
    return ir_arena_alloc(a, n ? n : 1);
}

static const char *astr(ir_arena *a, const char *s)
{
    return ir_arena_strndup(a, s, strlen(s));
}

static void lerror(lower *L, const ir_span *sp, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void lerror(lower *L, const ir_span *sp, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_loc loc = {L->p->path, sp ? (int)sp->line : 0, sp ? (int)sp->col : 0};
    const char *line = NULL;
    if (sp && L->p->mod->src) {
        const char *s = L->p->mod->src + sp->start;
        while (s > L->p->mod->src && s[-1] != '\n')
            s--;
        line = s;
    }
    diag_vreport(L->sink, DIAG_ERROR, loc, line, fmt, ap);
    va_end(ap);
    if (L->st == PTODB_OK)
        L->st = PTODB_ERR_UNSUPPORTED;
}

static int32_t emit(lower *L, xinst_kind kind, const ir_stmt *s, int is_stmt)
{
    if (L->n == L->cap) {
        L->cap = L->cap ? 2 * L->cap : 64;
        L->code = xreallocarray(L->code, L->cap, sizeof *L->code);
    }
    xinst *in = &L->code[L->n];
    memset(in, 0, sizeof *in);
    in->kind = (uint8_t)kind;
    in->stmt = s;
    in->is_stmt = (uint8_t)is_stmt;
    in->target = -1;
    in->loop = -1;
    in->callee = -1;
    return (int32_t)L->n++;
}

/* 1 when call is pl.<name>(...): the resolver leaves the calls inside a
 * type annotation unresolved, so the callee is matched by its text. */
static int is_pl_call(const ir_expr *call, int builtin, const char *name)
{
    const ir_expr *c = call->u.call.callee;
    if (c->res.kind == IR_REF_BUILTIN)
        return c->res.id == builtin;
    return c->kind == IR_EXPR_ATTR && strcmp(c->u.attr.name->text, name) == 0 &&
           c->u.attr.value->kind == IR_EXPR_NAME && strcmp(c->u.attr.value->u.name->text, "pl") == 0;
}

/* An int literal, or pl.const(N, dtype): 0 and *out, else -1. */
static int memref_int(const ir_expr *e, int64_t *out)
{
    if (e->kind == IR_EXPR_CALL && is_pl_call(e, IR_BUILTIN_CONST, "const") && e->u.call.nargs >= 1)
        e = e->u.call.args[0];
    if (e->kind != IR_EXPR_INT || (e->flags & IR_EF_BIG))
        return -1;
    *out = e->u.num.i;
    return 0;
}

/* pl.TileView(valid_shape=[...], blayout=, slayout=) into t's mem_valid
 * and mem_blayout/mem_slayout. */
static void lower_tileview(const ir_expr *e, exec_type *t)
{
    for (uint32_t i = 0; i < e->u.call.nkwargs; i++) {
        const ir_kwarg *kw = &e->u.call.kwargs[i];
        const ir_expr *v = kw->value;
        if (strcmp(kw->name->text, "blayout") == 0 || strcmp(kw->name->text, "slayout") == 0) {
            const ir_enum_info *info = v->res.kind == IR_REF_ENUM ? ir_enum_info_get(v->res.id) : NULL;
            int8_t code = info ? (int8_t)mem_layout_from_name(info->name) : 0;
            if (kw->name->text[0] == 'b')
                t->mem_blayout = code;
            else
                t->mem_slayout = code;
            continue;
        }
        if (strcmp(kw->name->text, "valid_shape") != 0 || (v->kind != IR_EXPR_LIST && v->kind != IR_EXPR_TUPLE) ||
            v->u.seq.n > TENSOR_MAX_DIMS)
            continue;
        t->mem_valid_ndim = (int)v->u.seq.n;
        for (uint32_t d = 0; d < v->u.seq.n; d++) {
            const ir_expr *x = v->u.seq.items[d];
            t->mem_valid[d] = x->kind == IR_EXPR_INT && !(x->flags & IR_EF_BIG) ? x->u.num.i : -1;
        }
    }
}

/* The symbolic extents of a tile annotation's TileView(valid_shape=[...])
 * (t lowered from it): one expression per dim, NULL for a literal; NULL
 * when every extent is a literal or there is none. */
static xexpr *lower_expr(lower *L, const ir_expr *e);
static xexpr **lower_valid_exprs(lower *L, const ir_expr *annot, const exec_type *t)
{
    if (t->kind != EXEC_TYPE_TILE || t->mem_valid_ndim <= 0 || !annot || annot->kind != IR_EXPR_SUBSCRIPT)
        return NULL;
    int sym = 0;
    for (int d = 0; d < t->mem_valid_ndim; d++)
        sym |= t->mem_valid[d] < 0;
    if (!sym)
        return NULL;
    for (uint32_t i = 1; i < annot->u.sub.n; i++) {
        const ir_expr *e = annot->u.sub.items[i];
        if (e->kind != IR_EXPR_CALL || !is_pl_call(e, -1, "TileView"))
            continue;
        for (uint32_t k = 0; k < e->u.call.nkwargs; k++) {
            const ir_kwarg *kw = &e->u.call.kwargs[k];
            const ir_expr *v = kw->value;
            if (strcmp(kw->name->text, "valid_shape") != 0 || (v->kind != IR_EXPR_LIST && v->kind != IR_EXPR_TUPLE) ||
                (int)v->u.seq.n != t->mem_valid_ndim)
                continue;
            xexpr **out = aalloc(L->a, v->u.seq.n * sizeof *out);
            for (uint32_t d = 0; d < v->u.seq.n; d++)
                out[d] = t->mem_valid[d] >= 0 ? NULL : lower_expr(L, v->u.seq.items[d]);
            return out;
        }
    }
    return NULL;
}

/* pl.MemRef(base, offset, size) of a tile type into t's mem_* fields. */
static void lower_memref(const ir_expr *e, exec_type *t)
{
    if (e->kind != IR_EXPR_CALL || !is_pl_call(e, IR_BUILTIN_MEMREF, "MemRef") || e->u.call.nargs != 3)
        return;
    const ir_expr *b = e->u.call.args[0];
    if (b->kind == IR_EXPR_NAME)
        t->mem_base = b->u.name->text;
    else if (b->kind == IR_EXPR_STRING)
        t->mem_base = b->u.str.value;
    else
        return;
    if (memref_int(e->u.call.args[1], &t->mem_offset) != 0 || memref_int(e->u.call.args[2], &t->mem_size) != 0)
        t->mem_base = NULL;
}

void exec_type_lower(const ir_expr *annot, exec_type *t)
{
    memset(t, 0, sizeof *t);
    t->mem_space = -1;
    t->kind = EXEC_TYPE_UNKNOWN;
    t->ir_dtype = -1;
    t->dtype = DTYPE_FP32;
    t->ndim = -1;
    t->layout = -1;
    if (!annot)
        return;
    if (annot->kind != IR_EXPR_SUBSCRIPT) {
        if (annot->res.kind == IR_REF_TYPE)
            t->kind = EXEC_TYPE_OTHER;
        return;
    }
    const ir_expr *head = annot->u.sub.value;
    if (head->res.kind != IR_REF_TYPE) {
        t->kind = EXEC_TYPE_OTHER;
        return;
    }
    int b = head->res.id;
    ir_expr *const *items = annot->u.sub.items;
    uint32_t n = annot->u.sub.n;
    if (b == IR_BUILTIN_TENSOR || b == IR_BUILTIN_TILE || b == IR_BUILTIN_DISTRIBUTED_TENSOR) {
        /* a DistributedTensor is a TensorType plus its window (pypto include/pypto/ir/type.h:548) */
        t->kind = b == IR_BUILTIN_TILE ? EXEC_TYPE_TILE : EXEC_TYPE_TENSOR;
        if (n >= 1 && (items[0]->kind == IR_EXPR_LIST || items[0]->kind == IR_EXPR_TUPLE) &&
            items[0]->u.seq.n <= TENSOR_MAX_DIMS) {
            t->ndim = (int)items[0]->u.seq.n;
            for (int d = 0; d < t->ndim; d++) {
                const ir_expr *e = items[0]->u.seq.items[d];
                t->dims[d] = (e->kind == IR_EXPR_INT && !(e->flags & IR_EF_BIG)) ? e->u.num.i : -1;
            }
        }
        int space = -1;
        for (uint32_t i = 1; i < n; i++) {
            const ir_expr *e = items[i];
            if (b == IR_BUILTIN_TILE && e->kind == IR_EXPR_CALL) {
                lower_memref(e, t);
                if (is_pl_call(e, -1, "TileView"))
                    lower_tileview(e, t);
            }
            /* a tensor's TensorView(valid_shape=...): its valid region, as
             * a tile's (the device's loads and stores of it move that region:
             * ConvertTensorToTileOps lowers them to tile ops with it) */
            if (b != IR_BUILTIN_TILE && e->kind == IR_EXPR_CALL && is_pl_call(e, -1, "TensorView"))
                lower_tileview(e, t);
            if (e->res.kind != IR_REF_ENUM)
                continue;
            const ir_enum_info *info = ir_enum_info_get(e->res.id);
            if (!info)
                continue;
            if (info->group == IR_EG_DTYPE && t->ir_dtype < 0) {
                t->ir_dtype = e->res.id;
                value v = value_enum(e->res.id);
                dtype_id dt;
                if (value_as_dtype(&v, &dt) == 0)
                    t->dtype = dt;
            } else if (info->group == IR_EG_TENSOR_LAYOUT) {
                t->layout = e->res.id;
            } else if (info->group == IR_EG_MEM) {
                space = mem_space_from_name(info->name);
            }
        }
        if (b == IR_BUILTIN_TILE && t->mem_base && space >= 0)
            t->mem_space = (int8_t)space;
    } else if (b == IR_BUILTIN_SCALAR) {
        t->kind = EXEC_TYPE_SCALAR;
        if (n >= 1 && items[0]->res.kind == IR_REF_ENUM) {
            t->ir_dtype = items[0]->res.id;
            value v = value_enum(items[0]->res.id);
            dtype_id dt;
            if (value_as_dtype(&v, &dt) == 0)
                t->dtype = dt;
        }
    } else if (b == IR_BUILTIN_TUPLE_TYPE || b == IR_BUILTIN_TUPLE_RET) {
        t->kind = EXEC_TYPE_TUPLE;
    } else {
        t->kind = EXEC_TYPE_OTHER;
    }
}

const char *exec_torch_dtype_name(dtype_id dt)
{
    return dtype_torch_name(dt);
}

/* REF's sanitised Python name (semantics.md §5.6), without the duplicate
 * suffixes. */
/* xf->slot_by_name: each name's first slot (a later slot of the same
 * name is never the one found by name) */
static void index_slot_names(xfunc *xf, const ir_func *f, ir_arena *a)
{
    if (!f->nslots || !f->slot_names)
        return;
    uint32_t cap = 16;
    while (cap < 2 * f->nslots)
        cap *= 2;
    xf->slot_by_name = aalloc(a, cap * sizeof *xf->slot_by_name);
    memset(xf->slot_by_name, 0, cap * sizeof *xf->slot_by_name);
    xf->slot_by_name_cap = cap;
    for (uint32_t j = 0; j < f->nslots; j++) {
        if (!f->slot_names[j])
            continue;
        const char *t = f->slot_names[j]->text;
        uint32_t k = (uint32_t)exec_name_hash(t) & (cap - 1);
        while (xf->slot_by_name[k] && strcmp(f->slot_names[xf->slot_by_name[k] - 1]->text, t) != 0)
            k = (k + 1) & (cap - 1);
        if (!xf->slot_by_name[k])
            xf->slot_by_name[k] = j + 1;
    }
}

static const char *sanitize(ir_arena *a, const char *name)
{
    static const char *const kw[] = {"False", "None", "True", "and", "as", "assert", "async",
                                     "await", "break", "class", "continue", "def", "del",
                                     "elif", "else", "except", "finally", "for", "from",
                                     "global", "if", "import", "in", "is", "lambda",
                                     "nonlocal", "not", "or", "pass", "raise", "return", "try",
                                     "while", "with", "yield", NULL};
    strbuf sb = STRBUF_INIT;
    if (name[0] >= '0' && name[0] <= '9')
        strbuf_puts(&sb, "v_");
    for (const char *s = name; *s; s++) {
        char c = *s;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '_';
        if (!ok)
            c = '_';
        strbuf_putc(&sb, c);
    }
    /* runs of "__" collapse to "_" */
    strbuf out = STRBUF_INIT;
    const char *t = strbuf_str(&sb);
    for (size_t i = 0; t[i]; i++) {
        if (t[i] == '_' && t[i + 1] == '_') {
            while (t[i + 1] == '_')
                i++;
        }
        strbuf_putc(&out, t[i]);
    }
    if (in_list(kw, strbuf_str(&out)))
        strbuf_puts(&out, "_v");
    const char *r = astr(a, strbuf_str(&out));
    strbuf_free(&sb);
    strbuf_free(&out);
    return r;
}

/* ---- expressions -------------------------------------------------------- */

static xexpr *new_expr(lower *L, xexpr_kind k, const ir_expr *src)
{
    xexpr *x = aalloc(L->a, sizeof *x);
    x->kind = (uint8_t)k;
    x->src = src;
    x->cval = value_none();
    return x;
}

static xexpr *fail_expr(lower *L, const ir_expr *src, int ref_fail, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static xexpr *fail_expr(lower *L, const ir_expr *src, int ref_fail, const char *fmt, ...)
{
    xexpr *x = new_expr(L, XE_FAIL, src);
    va_list ap;
    va_start(ap, fmt);
    strbuf sb = STRBUF_INIT;
    strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    x->msg = astr(L->a, strbuf_str(&sb));
    strbuf_free(&sb);
    x->ref_fail = (uint8_t)ref_fail;
    return x;
}

/* Why ptodb does not run op, a catalogue op it has no handler for. */
static void unrunnable_reason(int op, char *buf, size_t size)
{
    const ir_op_info *info = ir_op_info_get(op);
    const char *name = info ? info->name : "?";
    if (info && info->family == IR_OPFAM_TEST)
        snprintf(buf, size,
                 "op %s is one of PyPTO's test-only registrations (src/ir/op/testing.cpp): it defines no value "
                 "to compute",
                 name);
    else if (info && info->family == IR_OPFAM_DIST)
        snprintf(buf, size,
                 "op %s is one of PyPTO's runtime-orchestration intrinsics (src/ir/op/distributed/intrinsics.cpp): "
                 "an opaque call on a runtime handle, which no pass creates and the DSL cannot write, with no "
                 "semantics to run it by (docs/ops.md)",
                 name);
    else
        snprintf(buf, size, "op %s is not implemented in ptodb yet", name);
}

static xexpr *lower_expr(lower *L, const ir_expr *e);
static const ir_expr *attrs_entry(const ir_expr *call, const char *key);
static int split_code(int32_t ev);
static void lower_submit_into(lower *L, const ir_expr *call, int32_t slot);

/* The first name of a newer PyPTO among a type annotation's items
 * (pl.Tile[[16, 64], pl.FP6, ...]), or NULL. */
static const ir_expr *newer_in_type(const ir_expr *annot)
{
    if (!annot || annot->kind != IR_EXPR_SUBSCRIPT)
        return NULL;
    for (uint32_t i = 0; i < annot->u.sub.n; i++)
        if (annot->u.sub.items[i]->flags & IR_EF_NEWER)
            return annot->u.sub.items[i];
    return NULL;
}

/* The dotted name of an ATTR chain as written ("pl.TileLayout.Z"); an op's
 * without the leading "pl." ("tile.rsqrt_fast"), as ops are named. */
static const char *newer_name(lower *L, const ir_expr *e)
{
    char buf[256];
    size_t n = sizeof buf - 1;
    buf[n] = '\0';
    while (e && e->kind == IR_EXPR_ATTR) {
        const ir_sym *s = e->u.attr.name;
        if (s->len + 1 > n)
            break;
        n -= s->len;
        memcpy(buf + n, s->text, s->len);
        buf[--n] = '.';
        e = e->u.attr.value;
    }
    if (e && e->kind == IR_EXPR_NAME && e->u.name->len <= n) {
        n -= e->u.name->len;
        memcpy(buf + n, e->u.name->text, e->u.name->len);
    } else if (n < sizeof buf - 1 && buf[n] == '.') {
        n++; /* drop the leading '.' */
    }
    if (n >= sizeof buf - 1)
        return astr(L->a, "(an unnamed item)"); /* neither an attribute chain nor a name */
    const char *s = buf + n;
    return astr(L->a, strncmp(s, "pl.", 3) == 0 && e && e->kind == IR_EXPR_NAME &&
                              strchr(s + 3, '.') && !isupper((unsigned char)s[3])
                          ? s + 3 : s);
}

/* A program-function call nested in an expression: hoisted into a CALL
 * that writes a temp slot. */
static int32_t lower_call_into(lower *L, const ir_expr *call, const ir_stmt *s, int32_t slot,
                               const exec_type *type, const char *name);

static xexpr *lower_expr(lower *L, const ir_expr *e)
{
    xexpr *x;
    switch (e->kind) {
    case IR_EXPR_INT:
        if (e->flags & IR_EF_BIG)
            return fail_expr(L, e, 0, "integer constant beyond 64 bits is not supported");
        x = new_expr(L, XE_CONST, e);
        x->cval = value_int(e->u.num.i);
        return x;
    case IR_EXPR_FLOAT:
        x = new_expr(L, XE_CONST, e);
        x->cval = value_float(e->u.num.f);
        return x;
    case IR_EXPR_STRING:
        x = new_expr(L, XE_CONST, e);
        x->cval.kind = VAL_STR;
        x->cval.u.s = e->u.str.value;
        return x;
    case IR_EXPR_BOOL:
        x = new_expr(L, XE_CONST, e);
        x->cval = value_bool(e->u.boolean);
        return x;
    case IR_EXPR_NONE:
        return new_expr(L, XE_CONST, e);
    case IR_EXPR_NAME:
        switch (e->res.kind) {
        case IR_REF_LOCAL:
            x = new_expr(L, XE_SLOT, e);
            x->id = e->res.id;
            return x;
        case IR_REF_DYN:
            x = new_expr(L, XE_DYN, e);
            x->id = e->res.id;
            return x;
        case IR_REF_FLOATCONST:
            return fail_expr(L, e, 1, "NameError: name '%s' is not defined", e->u.name->text);
        default:
            return fail_expr(L, e, 0, "name '%s' cannot be used as a value", e->u.name->text);
        }
    case IR_EXPR_ATTR:
        if (e->flags & IR_EF_NEWER)
            return fail_expr(L, e, 0, "%s is not known to this ptodb (newer PyPTO?)",
                             newer_name(L, e));
        if (e->res.kind == IR_REF_ENUM) {
            x = new_expr(L, XE_CONST, e);
            x->cval = value_enum(e->res.id);
            return x;
        }
        return fail_expr(L, e, 0, "attribute '%s' cannot be used as a value", e->u.attr.name->text);
    case IR_EXPR_LIST:
    case IR_EXPR_TUPLE:
        x = new_expr(L, XE_TUPLE, e);
        x->nargs = e->u.seq.n;
        x->args = aalloc(L->a, x->nargs * sizeof *x->args);
        for (uint32_t i = 0; i < x->nargs; i++)
            x->args[i] = lower_expr(L, e->u.seq.items[i]);
        return x;
    case IR_EXPR_DICT:
        return new_expr(L, XE_CONST, e); /* attrs={...}: REF ignores them */
    case IR_EXPR_SUBSCRIPT:
        if (e->u.sub.n == 1 && e->u.sub.items[0]->kind == IR_EXPR_INT &&
            !(e->flags & IR_EF_TUPLE_SUB)) {
            x = new_expr(L, XE_INDEX, e);
            x->id = (int32_t)e->u.sub.items[0]->u.num.i;
            x->nargs = 1;
            x->args = aalloc(L->a, sizeof *x->args);
            x->args[0] = lower_expr(L, e->u.sub.value);
            return x;
        }
        return fail_expr(L, e, 0, "unsupported subscript");
    case IR_EXPR_UNARY:
        x = new_expr(L, XE_UN, e);
        x->op = e->op;
        x->nargs = 1;
        x->args = aalloc(L->a, sizeof *x->args);
        x->args[0] = lower_expr(L, e->u.unary.operand);
        return x;
    case IR_EXPR_BINARY:
        if (e->op == IR_BINOP_AND || e->op == IR_BINOP_OR)
            x = new_expr(L, e->op == IR_BINOP_AND ? XE_AND : XE_OR, e);
        else
            x = new_expr(L, XE_BIN, e);
        x->op = e->op;
        x->nargs = 2;
        x->args = aalloc(L->a, 2 * sizeof *x->args);
        x->args[0] = lower_expr(L, e->u.binary.lhs);
        x->args[1] = lower_expr(L, e->u.binary.rhs);
        return x;
    case IR_EXPR_CALL:
        break;
    default:
        return fail_expr(L, e, 0, "unsupported expression (%s)", ir_expr_kind_name(e->kind));
    }

    /* calls */
    if (e->res.kind == IR_REF_CALL) {
        int32_t slot = (int32_t)L->nslots++;
        lower_call_into(L, e, NULL, slot, NULL, NULL);
        x = new_expr(L, XE_SLOT, e);
        x->id = slot;
        return x;
    }
    if (e->res.kind == IR_REF_BUILTIN) {
        int b = e->res.id;
        uint32_t na = e->u.call.nargs;
        switch (b) {
        case IR_BUILTIN_CONST: /* the IR dtype is ignored (semantics.md §2.1) */
            if (na >= 1)
                return lower_expr(L, e->u.call.args[0]);
            break;
        case IR_BUILTIN_MIN:
        case IR_BUILTIN_MAX:
        case IR_BUILTIN_ABS:
            x = new_expr(L, b == IR_BUILTIN_MIN ? XE_MIN : b == IR_BUILTIN_MAX ? XE_MAX : XE_ABS, e);
            x->nargs = na;
            x->args = aalloc(L->a, na * sizeof *x->args);
            for (uint32_t i = 0; i < na; i++)
                x->args[i] = lower_expr(L, e->u.call.args[i]);
            return x;
        case IR_BUILTIN_CAST:
            if (na == 2 && e->u.call.args[1]->res.kind == IR_REF_ENUM) {
                x = new_expr(L, XE_CAST, e);
                x->id = e->u.call.args[1]->res.id;
                x->nargs = 1;
                x->args = aalloc(L->a, sizeof *x->args);
                x->args[0] = lower_expr(L, e->u.call.args[0]);
                return x;
            }
            break;
        default:
            break;
        }
        if ((b == IR_BUILTIN_SUBMIT || b == IR_BUILTIN_SPMD_SUBMIT) && na >= 1 &&
            e->u.call.args[0]->res.kind == IR_REF_FUNC) {
            int32_t slot = (int32_t)L->nslots++;
            lower_submit_into(L, e, slot);
            x = new_expr(L, XE_SLOT, e);
            x->id = slot;
            return x;
        }
        if (b == IR_BUILTIN_SUBMIT || b == IR_BUILTIN_SPMD_SUBMIT)
            return fail_expr(L, e, 1, "%s: torch_codegen has no visitor for Submit (semantics.md §3.11)",
                             ir_builtin_name(b));
        return fail_expr(L, e, 0, "unsupported builtin %s here", ir_builtin_name(b));
    }
    if (e->flags & IR_EF_NEWER)
        return fail_expr(L, e, 0, "op %s is not known to this ptodb (newer PyPTO?)",
                         newer_name(L, e->u.call.callee));
    if (e->res.kind != IR_REF_OP)
        return fail_expr(L, e, 0, "unsupported call");

    int op = e->res.id;
    const ir_op_info *info = ir_op_info_get(op);
    if (info && info->family == IR_OPFAM_SYSTEM && in_list(ref_noop_ops, info->name)) {
        /* None; operands not evaluated (§3.10). Pipe setup and tfree are
         * recorded as state (constant kwargs only) for reports. */
        if (op == IR_OP_SYSTEM_SYNC_SET || op == IR_OP_SYSTEM_SYNC_WAIT)
            L->f->sync_events = 1;
        if (op == IR_OP_SYSTEM_AIC_INITIALIZE_PIPE || op == IR_OP_SYSTEM_AIV_INITIALIZE_PIPE ||
            op == IR_OP_SYSTEM_TFREE_TO_AIC || op == IR_OP_SYSTEM_TFREE_TO_AIV) {
            x = new_expr(L, XE_SYSREC, e);
            x->id = op;
            int64_t dm = 0, ss = 0, sn = 0;
            for (uint32_t i = 0; i < e->u.call.nkwargs; i++) {
                const ir_expr *v = e->u.call.kwargs[i].value;
                if (v->kind != IR_EXPR_INT)
                    continue;
                const char *k = e->u.call.kwargs[i].name->text;
                if (strcmp(k, "dir_mask") == 0)
                    dm = v->u.num.i & 0xff;
                else if (strcmp(k, "slot_size") == 0)
                    ss = v->u.num.i & 0xffffffll;
                else if (strcmp(k, "slot_num") == 0)
                    sn = v->u.num.i & 0xffff;
            }
            x->cval = value_int(dm | (ss << 8) | (sn << 32));
            return x;
        }
        /* the GM markers of the data-before-signal contract, told to a
         * multi-rank world (ranks/fence.h); a region cacheinvalid keeps its
         * tensor when it is a variable (the only form PyPTO writes:
         * InsertCommFence, insert_comm_fence_pass.cpp) */
        if (op == IR_OP_SYSTEM_FENCE || op == IR_OP_SYSTEM_CACHEINVALID) {
            x = new_expr(L, XE_SYSREC, e);
            x->id = op;
            x->cval = value_int(e->u.call.nargs > 0);
            const ir_expr *t = e->u.call.nargs ? e->u.call.args[0] : NULL;
            if (t && t->kind == IR_EXPR_NAME && t->res.kind == IR_REF_LOCAL) {
                x->nargs = 1;
                x->args = aalloc(L->a, sizeof *x->args);
                x->args[0] = new_expr(L, XE_SLOT, t);
                x->args[0]->id = t->res.id;
            }
            return x;
        }
        return new_expr(L, XE_CONST, e);
    }
    if (!ref_handles_op(op)) {
        if (!L->p->codegen_error) {
            strbuf sb = STRBUF_INIT;
            strbuf_printf(&sb,
                          "ValueError: Unsupported op '%s' in torch_codegen. Register a handler "
                          "in _OP_MAP or use a GlobalVar for cross-function calls.",
                          info ? info->name : "?");
            L->p->codegen_error = strbuf_detach(&sb);
            L->p->codegen_error_at = e;
        }
        /* ptodb runs the file by the op's definition when it implements
         * every op REF lacks; one op neither runs makes it unrunnable. */
        if (!L->ops[op])
            L->p->uses_ptodb_only_ops = -1;
        else if (L->p->uses_ptodb_only_ops == 0)
            L->p->uses_ptodb_only_ops = 1;
    }
    if (!L->ops[op]) {
        char why[256];
        unrunnable_reason(op, why, sizeof why);
        if (!L->p->unrunnable) {
            L->p->unrunnable = xstrdup(why);
            L->p->unrunnable_at = e;
        }
        if (ref_handles_op(op))
            return fail_expr(L, e, 0, "%s", why);
        return fail_expr(L, e, 1, "ValueError: Unsupported op '%s' in torch_codegen (ptodb cannot run it either: %s)",
                         ir_op_info_get(op) ? ir_op_info_get(op)->name : "?", why);
    }
    x = new_expr(L, XE_OP, e);
    x->id = op;
    x->fn = L->ops[op];
    x->nargs = e->u.call.nargs;
    x->args = aalloc(L->a, x->nargs * sizeof *x->args);
    for (uint32_t i = 0; i < x->nargs; i++)
        x->args[i] = lower_expr(L, e->u.call.args[i]);
    uint32_t nk = 0;
    int has_split = 0;
    for (uint32_t i = 0; i < e->u.call.nkwargs; i++) {
        exec_kw k = exec_kw_lookup(e->u.call.kwargs[i].name->text);
        if (k != EXEC_KW_OTHER)
            nk++;
        if (k == EXEC_KW_SPLIT)
            has_split = 1;
    }
    /* inside pl.split_aiv the shard/gather ops omit split= and inherit the
     * region's mode (ir-format.md §5.9) */
    int implicit_split = shard_op(op) && L->region_split && !has_split;
    if (shard_op(op) && L->region_split)
        L->region_shards++;
    x->kw = aalloc(L->a, (nk + 3) * sizeof *x->kw);
    x->kw_ids = aalloc(L->a, nk + 3);
    /* REF's torch.maximum/minimum(tile, number) raises TypeError whenever the
     * scalar is a Python number, so a literal scalar is a file REF cannot
     * run: ptodb runs it by the op's definition (max with the scalar) and
     * says so, as for an op REF lacks (docs/ops.md). */
    /* tensor.maximum/minimum and tile.maximum/minimum with a number as the
     * second operand are the same (PyPTO's type deduction takes a scalar
     * there; pypto-lib's kernels write pl.tensor.maximum(t, 0.0)) */
    int max_min_scalar = op == IR_OP_TILE_MAXIMUMS || op == IR_OP_TILE_MINIMUMS || op == IR_OP_TENSOR_MAXIMUM ||
                         op == IR_OP_TENSOR_MINIMUM || op == IR_OP_TILE_MAXIMUM || op == IR_OP_TILE_MINIMUM;
    int max_op = op == IR_OP_TILE_MAXIMUMS || op == IR_OP_TENSOR_MAXIMUM || op == IR_OP_TILE_MAXIMUM;
    if (max_min_scalar && x->nargs >= 2 &&
        x->args[1]->kind == XE_CONST &&
        (x->args[1]->cval.kind == VAL_FLOAT || x->args[1]->cval.kind == VAL_INT)) {
        if (!L->p->codegen_error) {
            strbuf sb = STRBUF_INIT;
            strbuf_printf(&sb, "TypeError: %s(): argument 'other' (position 2) must be Tensor, not %s",
                          max_op ? "maximum" : "minimum",
                          x->args[1]->cval.kind == VAL_FLOAT ? "float" : "int");
            L->p->codegen_error = strbuf_detach(&sb);
            L->p->codegen_error_at = e;
        }
        if (L->p->uses_ptodb_only_ops == 0)
            L->p->uses_ptodb_only_ops = 1;
        x->kw_ids[x->nkw] = (uint8_t)EXEC_KW_BY_DEFINITION;
        x->kw[x->nkw] = new_expr(L, XE_CONST, e);
        x->kw[x->nkw++]->cval = value_int(1);
    } else if ((op == IR_OP_TILE_MAXIMUMS || op == IR_OP_TILE_MINIMUMS) && x->nargs >= 2 &&
               x->args[1]->kind != XE_CONST) {
        /* a Scalar variable: REF raises only when it holds a Python number
         * at run time (a 0-d tensor from a read works), so the op decides
         * then and tells the machine (exec_note_ref_cannot_run) */
        x->kw_ids[x->nkw] = (uint8_t)EXEC_KW_BY_DEFINITION;
        x->kw[x->nkw] = new_expr(L, XE_CONST, e);
        x->kw[x->nkw++]->cval = value_int(2);
    }
    if (implicit_split) {
        x->kw_ids[x->nkw] = (uint8_t)EXEC_KW_SPLIT;
        x->kw[x->nkw] = new_expr(L, XE_CONST, e);
        x->kw[x->nkw++]->cval = value_int(L->region_split);
    }
    for (uint32_t i = 0; i < e->u.call.nkwargs; i++) {
        exec_kw k = exec_kw_lookup(e->u.call.kwargs[i].name->text);
        if (k == EXEC_KW_OTHER)
            continue;
        x->kw_ids[x->nkw] = (uint8_t)k;
        x->kw[x->nkw++] = lower_expr(L, e->u.call.kwargs[i].value);
    }
    /* LowerHostTensorCollectives's per-device builtin.tensor.* calls carry
     * their device in attrs={"device": r} (lower_host_tensor_collectives_pass.cpp:308) */
    const ir_expr *dev = ir_op_info_get(op) && ir_op_info_get(op)->family == IR_OPFAM_BUILTIN_TENSOR
                             ? attrs_entry(e, "device")
                             : NULL;
    if (dev) {
        x->kw_ids[x->nkw] = (uint8_t)EXEC_KW_DEVICE;
        x->kw[x->nkw++] = lower_expr(L, dev);
    }
    return x;
}

/* ---- statements --------------------------------------------------------- */

static void lower_block(lower *L, const ir_block *b);

static const char *slot_name(lower *L, int32_t slot)
{
    if (slot >= 0 && (uint32_t)slot < L->irf->nslots && L->f->slot_names)
        return L->f->slot_names[slot];
    return "tmp";
}

/* An SPMD launch (semantics.h, EXEC_SEMDIFF_SPMD): the code between
 * spmd_open and spmd_close runs once per block of a launch width-wide under
 * device semantics (the machine sets the frame's block index at each
 * FOR_NEXT, and var_slot, when >= 0, to it), once as block 0 under ref. */
static int32_t spmd_open(lower *L, const ir_stmt *s, const ir_expr *width, int32_t var_slot, int is_stmt)
{
    xexpr *w = lower_expr(L, width);
    int32_t loop = (int32_t)L->nloops++;
    int32_t init = emit(L, XI_FOR_INIT, s, 0);
    xinst *in = &L->code[init];
    in->loop = loop;
    in->spmd = 1;
    in->e = new_expr(L, XE_CONST, width); /* the launch's location */
    in->nvals = 3;
    in->vals = aalloc(L->a, 3 * sizeof *in->vals);
    in->vals[1] = w;
    int32_t head = emit(L, XI_FOR_NEXT, s, is_stmt);
    in = &L->code[head];
    in->loop = loop;
    in->spmd = 1;
    in->slots = aalloc(L->a, sizeof(int32_t));
    in->slots[0] = var_slot;
    in->nslots = 1;
    return head;
}

static void spmd_close(lower *L, int32_t head)
{
    int32_t j = emit(L, XI_JUMP, NULL, 0);
    L->code[j].target = head;
    L->code[head].target = (int32_t)L->n;
}

/* The launch width of a call's attrs={"core_num": N}, or NULL. */
static const ir_expr *call_core_num(const ir_expr *call)
{
    for (uint32_t i = 0; i < call->u.call.nkwargs; i++) {
        const ir_expr *d = call->u.call.kwargs[i].value;
        if (strcmp(call->u.call.kwargs[i].name->text, "attrs") != 0 || d->kind != IR_EXPR_DICT)
            continue;
        for (uint32_t k = 0; k < d->u.dict.n; k++)
            if (d->u.dict.keys[k]->kind == IR_EXPR_STRING &&
                strcmp(d->u.dict.keys[k]->u.str.value, "core_num") == 0)
                return d->u.dict.values[k];
    }
    return NULL;
}

/* attrs={"key": value}'s value in a call, or NULL. */
static const ir_expr *attrs_entry(const ir_expr *call, const char *key)
{
    for (uint32_t i = 0; i < call->u.call.nkwargs; i++) {
        const ir_expr *d = call->u.call.kwargs[i].value;
        if (strcmp(call->u.call.kwargs[i].name->text, "attrs") != 0 || d->kind != IR_EXPR_DICT)
            continue;
        for (uint32_t k = 0; k < d->u.dict.n; k++)
            if (d->u.dict.keys[k]->kind == IR_EXPR_STRING && strcmp(d->u.dict.keys[k]->u.str.value, key) == 0)
                return d->u.dict.values[k];
    }
    return NULL;
}

/* A keyword argument of a call, or NULL. */
static const ir_expr *call_kwarg(const ir_expr *call, const char *name)
{
    for (uint32_t i = 0; i < call->u.call.nkwargs; i++)
        if (strcmp(call->u.call.kwargs[i].name->text, name) == 0)
            return call->u.call.kwargs[i].value;
    return NULL;
}

static int32_t lower_call_into(lower *L, const ir_expr *call, const ir_stmt *s, int32_t slot,
                               const exec_type *type, const char *name)
{
    /* arguments first (they may hoist nested calls) */
    const ir_expr *width = call_core_num(call);
    int32_t head = width ? spmd_open(L, s, width, -1, 0) : -1;
    uint32_t na = call->u.call.nargs;
    xexpr **args = aalloc(L->a, na * sizeof *args);
    for (uint32_t i = 0; i < na; i++)
        args[i] = lower_expr(L, call->u.call.args[i]);
    int32_t pc = emit(L, XI_CALL, s, s != NULL);
    xinst *in = &L->code[pc];
    in->vals = args;
    in->nvals = na;
    in->callee = call->res.id;
    in->e = new_expr(L, XE_CONST, call); /* location of the call */
    const ir_expr *device = call_kwarg(call, "device");
    if (device)
        in->device = lower_expr(L, device);
    if (slot >= 0) {
        in->slots = aalloc(L->a, sizeof(int32_t));
        in->slots[0] = slot;
        in->nslots = 1;
        if (type) {
            exec_type *t = aalloc(L->a, sizeof *t);
            *t = *type;
            in->types = t;
        }
        const char **nm = aalloc(L->a, sizeof *nm);
        nm[0] = name ? name : "tmp";
        in->names = nm;
    }
    if (width)
        spmd_close(L, head);
    return pc;
}

/* pl.submit(self.f, args..., deps=[...]) / pl.spmd_submit(..., core_num=N)
 * into slot: a call of f whose result is (f's outputs..., TaskId) under
 * device semantics (deps= only orders tasks: submission order, which this
 * runs, is one order that honours them); REF fails at it (msg). */
static void lower_submit_into(lower *L, const ir_expr *call, int32_t slot)
{
    const ir_expr *width = call->res.id == IR_BUILTIN_SPMD_SUBMIT ? call_kwarg(call, "core_num") : NULL;
    int32_t head = width ? spmd_open(L, NULL, width, -1, 0) : -1;
    uint32_t na = call->u.call.nargs - 1;
    xexpr **args = aalloc(L->a, (na ? na : 1) * sizeof *args);
    for (uint32_t i = 0; i < na; i++)
        args[i] = lower_expr(L, call->u.call.args[i + 1]);
    int32_t pc = emit(L, XI_CALL, NULL, 0);
    xinst *in = &L->code[pc];
    in->vals = args;
    in->nvals = na;
    in->callee = call->u.call.args[0]->res.id;
    in->call_mode = XCALL_SUBMIT;
    in->ref_fail = 1;
    if (width)
        in->loop = L->code[head].loop; /* the launch's blocks are one task */
    in->manual = L->manual_depth > 0;
    /* predicate=: read at the dispatch point; false retires the task without
     * running it (its dependents still start: PyPTO's tests/st/runtime/
     * scheduling/test_predicated_dispatch.py) */
    const ir_expr *pred = call_kwarg(call, "predicate");
    if (pred) {
        xexpr *px = lower_expr(L, pred);
        in = &L->code[pc];
        in->pred = px;
    }
    const ir_expr *deps = call_kwarg(call, "deps");
    if (deps && (deps->kind == IR_EXPR_LIST || deps->kind == IR_EXPR_TUPLE)) {
        xexpr **dx = aalloc(L->a, (deps->u.seq.n ? deps->u.seq.n : 1) * sizeof *dx);
        for (uint32_t i = 0; i < deps->u.seq.n; i++)
            dx[i] = lower_expr(L, deps->u.seq.items[i]);
        in = &L->code[pc]; /* lowering the entries may have emitted code */
        in->deps = dx;
        in->ndeps = deps->u.seq.n;
    }
    in->msg = astr(L->a, call->res.id == IR_BUILTIN_SPMD_SUBMIT
                             ? "pl.spmd_submit: torch_codegen has no visitor for Submit (semantics.md §3.11)"
                             : "pl.submit: torch_codegen has no visitor for Submit (semantics.md §3.11)");
    in->e = new_expr(L, XE_CONST, call);
    in->slots = aalloc(L->a, sizeof(int32_t));
    in->slots[0] = slot;
    in->nslots = 1;
    const char **nm = aalloc(L->a, sizeof *nm);
    nm[0] = "tmp";
    in->names = nm;
    if (width)
        spmd_close(L, head);
}

static lctx *find_yield_owner(lower *L)
{
    return L->depth > 0 ? &L->stack[L->depth - 1] : NULL;
}

static lctx *find_loop(lower *L)
{
    for (int i = L->depth - 1; i >= 0; i--)
        if (L->stack[i].is_loop)
            return &L->stack[i];
    return NULL;
}

static void push_ctx(lower *L, int is_loop, const int32_t *iter, uint32_t niter, int32_t head)
{
    lctx *c = &L->stack[L->depth++];
    memset(c, 0, sizeof *c);
    c->is_loop = is_loop;
    c->iter = iter;
    c->niter = niter;
    c->head = head;
}

static void pop_ctx(lower *L, int32_t exit_pc)
{
    lctx *c = &L->stack[--L->depth];
    for (uint32_t i = 0; i < c->nbreaks; i++)
        L->code[c->breaks[i]].target = exit_pc;
    free(c->breaks);
}

static void lower_yield(lower *L, const ir_stmt *s)
{
    lctx *c = find_yield_owner(L);
    uint32_t nv = s->u.assign.nvalues;
    xexpr **vals = aalloc(L->a, nv * sizeof *vals);
    for (uint32_t i = 0; i < nv; i++)
        vals[i] = lower_expr(L, s->u.assign.values[i]);
    if (!c) {
        lerror(L, &s->span, "pl.yield_ outside a loop or if");
        return;
    }
    c->yield = s;
    int32_t pc = emit(L, XI_YIELD, s, 1);
    xinst *in = &L->code[pc];
    in->vals = vals;
    in->nvals = nv;
    if (s->u.assign.annot && nv == 1) {
        exec_type *t = aalloc(L->a, sizeof *t);
        exec_type_lower(s->u.assign.annot, t);
        in->yield_type = t;
    }
    if (c->is_loop) {
        if (c->niter != nv && c->niter != 0) {
            lerror(L, &s->span, "pl.yield_ gives %u values for %u iter-args", nv, c->niter);
            return;
        }
        in->nslots = c->niter;
        in->slots = (int32_t *)c->iter;
        /* the loop whose carries these are (a for's FOR_NEXT holds it) */
        in->loop = c->head >= 0 && L->code[c->head].kind == XI_FOR_NEXT ? L->code[c->head].loop : -1;
    } else {
        uint32_t nt = s->u.assign.ntargets;
        if (nt != 0 && nt != nv) {
            lerror(L, &s->span, "pl.yield_ gives %u values for %u targets", nv, nt);
            return;
        }
        in->nslots = nt;
        in->slots = aalloc(L->a, nt * sizeof(int32_t));
        const char **names = aalloc(L->a, nt * sizeof *names);
        for (uint32_t i = 0; i < nt; i++) {
            in->slots[i] = s->u.assign.targets[i].slot;
            names[i] = slot_name(L, in->slots[i]);
        }
        in->names = names;
        /* REF's yields are plain bindings: no check_shapes assertion */
    }
}

/* b holds a pl.split_aiv region outside any CORE_GROUP scope of its own. */
static int block_has_region(const ir_block *b);
static int stmt_has_region(const ir_stmt *s)
{
    switch (s->kind) {
    case IR_STMT_FOR: {
        const ir_expr *it = s->u.for_.iter;
        if (it && it->kind == IR_EXPR_CALL && it->res.kind == IR_REF_BUILTIN && it->res.id == IR_BUILTIN_SPLIT_AIV)
            return 1;
        return block_has_region(&s->u.for_.body);
    }
    case IR_STMT_WHILE:
        return block_has_region(&s->u.while_.body);
    case IR_STMT_IF:
        return block_has_region(&s->u.if_.body) || block_has_region(&s->u.if_.orelse);
    case IR_STMT_WITH:
        return block_has_region(&s->u.with.body);
    default:
        return 0;
    }
}

static int block_has_region(const ir_block *b)
{
    for (uint32_t i = 0; i < b->n; i++)
        if (stmt_has_region(b->items[i]))
            return 1;
    return 0;
}

/* b leaves its scope other than by falling off its end: a return, or a
 * break/continue of a loop around it (loops is the depth of loops inside). */
static int block_escapes(const ir_block *b, int loops)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const ir_stmt *s = b->items[i];
        switch (s->kind) {
        case IR_STMT_RETURN:
            return 1;
        case IR_STMT_BREAK:
        case IR_STMT_CONTINUE:
            if (!loops)
                return 1;
            break;
        case IR_STMT_FOR:
            if (block_escapes(&s->u.for_.body, loops + 1))
                return 1;
            break;
        case IR_STMT_WHILE:
            if (block_escapes(&s->u.while_.body, loops + 1))
                return 1;
            break;
        case IR_STMT_IF:
            if (block_escapes(&s->u.if_.body, loops) || block_escapes(&s->u.if_.orelse, loops))
                return 1;
            break;
        case IR_STMT_WITH:
            if (block_escapes(&s->u.with.body, loops))
                return 1;
            break;
        default:
            break;
        }
    }
    return 0;
}

/* A `with pl.at(level=pl.Level.CORE_GROUP, ...)` scope of a function the
 * host runs whose body holds a pl.split_aiv region: OutlineIncoreScopes
 * makes it an InCore kernel stamped split_aiv, which runs on both AIV lanes
 * (pypto docs/en/dev/passes/99-verifier.md, AivSplitValid (h): a region is
 * authored inside such a scope or at the top of an Opaque function, which the
 * parser wraps into one). The machine forks the scope onto two lanes under
 * device semantics (XI_FORK). */
static int forks_lanes(lower *L, const ir_expr *cx, const ir_block *body)
{
    int t = L->f->type;
    if (t == IR_EV_FUNCTION_TYPE_INCORE || t == IR_EV_FUNCTION_TYPE_AIC || t == IR_EV_FUNCTION_TYPE_AIV ||
        t == IR_EV_FUNCTION_TYPE_GROUP)
        return 0;
    if (!cx || cx->kind != IR_EXPR_CALL || cx->res.kind != IR_REF_BUILTIN ||
        (cx->res.id != IR_BUILTIN_AT && cx->res.id != IR_BUILTIN_SPMD))
        return 0;
    /* a `with pl.spmd(N)` scope is outlined the same way, one InCore kernel
     * per block (its launch: spmd_open) */
    const ir_expr *level = call_kwarg(cx, "level");
    if (cx->res.id == IR_BUILTIN_AT &&
        (!level || level->res.kind != IR_REF_ENUM || level->res.id != IR_EV_LEVEL_CORE_GROUP))
        return 0;
    return block_has_region(body) && !block_escapes(body, 0);
}

/* b holds a pl.split_aiv region outside every pl.at / pl.spmd scope. */
static int block_has_bare_region(const ir_block *b)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const ir_stmt *s = b->items[i];
        if (s->kind == IR_STMT_WITH) {
            const ir_expr *cx = s->u.with.ctx;
            if (cx && cx->kind == IR_EXPR_CALL && cx->res.kind == IR_REF_BUILTIN &&
                (cx->res.id == IR_BUILTIN_AT || cx->res.id == IR_BUILTIN_SPMD))
                continue;
            if (block_has_bare_region(&s->u.with.body))
                return 1;
            continue;
        }
        if (s->kind == IR_STMT_FOR) {
            const ir_expr *it = s->u.for_.iter;
            if (it && it->kind == IR_EXPR_CALL && it->res.kind == IR_REF_BUILTIN && it->res.id == IR_BUILTIN_SPLIT_AIV)
                return 1;
            if (block_has_bare_region(&s->u.for_.body))
                return 1;
            continue;
        }
        if (s->kind == IR_STMT_WHILE && block_has_bare_region(&s->u.while_.body))
            return 1;
        if (s->kind == IR_STMT_IF && (block_has_bare_region(&s->u.if_.body) || block_has_bare_region(&s->u.if_.orelse)))
            return 1;
    }
    return 0;
}

static void lower_for(lower *L, const ir_stmt *s)
{
    const ir_expr *it = s->u.for_.iter;
    int b = it->kind == IR_EXPR_CALL && it->res.kind == IR_REF_BUILTIN ? it->res.id : -1;
    if (b == IR_BUILTIN_SPMD || b == IR_BUILTIN_SPLIT_AIV) {
        /* scopes: pl.spmd runs once per block (spmd_open); split_aiv once,
         * the variable the current lane, its mode applying to the
         * shard/gather ops inside. */
        int saved = L->region_split;
        if (b == IR_BUILTIN_SPLIT_AIV) {
            L->region_any++;
            L->region_split = 0;
            for (uint32_t i = 0; i < it->u.call.nkwargs; i++)
                if (strcmp(it->u.call.kwargs[i].name->text, "mode") == 0 &&
                    it->u.call.kwargs[i].value->res.kind == IR_REF_ENUM)
                    L->region_split = split_code(it->u.call.kwargs[i].value->res.id);
        }
        if (b == IR_BUILTIN_SPMD) {
            int32_t head = it->u.call.nargs >= 1
                               ? spmd_open(L, s, it->u.call.args[0], s->u.for_.var ? s->u.for_.var->slot : -1, 1)
                               : -1;
            lower_block(L, &s->u.for_.body);
            if (head >= 0)
                spmd_close(L, head);
            return;
        }
        if (s->u.for_.var) {
            int32_t pc = emit(L, XI_ASSIGN, s, 1);
            xinst *in = &L->code[pc];
            in->e = new_expr(L, XE_LANE, it);
            in->slots = aalloc(L->a, sizeof(int32_t));
            in->slots[0] = s->u.for_.var->slot;
            in->nslots = 1;
        }
        lower_block(L, &s->u.for_.body);
        L->region_split = saved;
        return;
    }
    if (b != IR_BUILTIN_RANGE && b != IR_BUILTIN_PARALLEL && b != IR_BUILTIN_UNROLL &&
        b != IR_BUILTIN_PIPELINE && b != IR_BUILTIN_WHILE) {
        lerror(L, &it->span, "unsupported for-loop iterable");
        return;
    }
    /* init_values */
    const ir_expr *inits = NULL;
    for (uint32_t i = 0; i < it->u.call.nkwargs; i++)
        if (strcmp(it->u.call.kwargs[i].name->text, "init_values") == 0)
            inits = it->u.call.kwargs[i].value;
    uint32_t ni = s->u.for_.niter_args;
    uint32_t ninit = inits && (inits->kind == IR_EXPR_TUPLE || inits->kind == IR_EXPR_LIST)
                         ? inits->u.seq.n
                         : 0;
    if (ninit != ni) {
        lerror(L, &s->span, "%u iter-args but %u init_values", ni, ninit);
        return;
    }
    int32_t *iter = aalloc(L->a, ni * sizeof(int32_t));
    const char **inames = aalloc(L->a, ni * sizeof *inames);
    for (uint32_t i = 0; i < ni; i++) {
        iter[i] = s->u.for_.iter_args[i].slot;
        inames[i] = slot_name(L, iter[i]);
    }
    xexpr **initx = aalloc(L->a, ni * sizeof *initx);
    for (uint32_t i = 0; i < ni; i++)
        initx[i] = lower_expr(L, inits->u.seq.items[i]);
    int32_t loop = (int32_t)L->nloops++;
    int32_t init_pc = emit(L, XI_FOR_INIT, s, 0);
    {
        xinst *in = &L->code[init_pc];
        in->loop = loop;
        in->slots = iter;
        in->nslots = ni;
        in->names = inames;
        in->e = new_expr(L, XE_CONST, it);
        /* inits go in vals[3..] after the three bounds */
        in->nvals = 3 + ni;
        in->vals = aalloc(L->a, in->nvals * sizeof *in->vals);
        for (uint32_t i = 0; i < ni; i++)
            in->vals[3 + i] = initx[i];
    }
    const ir_block *body = &s->u.for_.body;
    uint32_t first = 0;
    int32_t head;
    if (b == IR_BUILTIN_WHILE) {
        if (body->n == 0 || body->items[0]->kind != IR_STMT_COND) {
            lerror(L, &s->span, "pl.while_ body must start with pl.cond(...)");
            return;
        }
        L->code[init_pc].nvals = 3 + ni; /* no bounds: vals[0..2] NULL */
        xexpr *cond = lower_expr(L, body->items[0]->u.expr.arg);
        head = emit(L, XI_BRANCH, body->items[0], 1);
        L->code[head].e = cond;
        first = 1;
    } else {
        uint32_t na = it->u.call.nargs;
        xexpr *bx[3] = {NULL, NULL, NULL};
        if (na == 1) {
            bx[1] = lower_expr(L, it->u.call.args[0]);
        } else if (na >= 2) {
            bx[0] = lower_expr(L, it->u.call.args[0]);
            bx[1] = lower_expr(L, it->u.call.args[1]);
            if (na >= 3)
                bx[2] = lower_expr(L, it->u.call.args[2]);
        }
        for (int i = 0; i < 3; i++)
            L->code[init_pc].vals[i] = bx[i];
        head = emit(L, XI_FOR_NEXT, s, 1);
        L->code[head].loop = loop;
        L->code[head].slots = aalloc(L->a, sizeof(int32_t));
        L->code[head].slots[0] = s->u.for_.var ? s->u.for_.var->slot : -1;
        L->code[head].nslots = 1;
    }
    push_ctx(L, 1, iter, ni, head);
    for (uint32_t i = first; i < body->n; i++) {
        const ir_block one = {&body->items[i], 1};
        lower_block(L, &one);
    }
    int32_t j = emit(L, XI_JUMP, NULL, 0);
    L->code[j].target = head;
    const ir_stmt *y = L->stack[L->depth - 1].yield;
    int32_t exit_pc = (int32_t)L->n;
    L->code[head].target = exit_pc;
    pop_ctx(L, exit_pc);
    if (y && y->u.assign.ntargets > 0) {
        uint32_t nt = y->u.assign.ntargets;
        if (nt != ni) {
            lerror(L, &y->span, "%u yield targets for %u iter-args", nt, ni);
            return;
        }
        int32_t pc = emit(L, XI_COPY, NULL, 0);
        xinst *in = &L->code[pc];
        in->slots = iter;
        in->nslots = ni;
        in->slots2 = aalloc(L->a, nt * sizeof(int32_t));
        const char **names = aalloc(L->a, nt * sizeof *names);
        for (uint32_t i = 0; i < nt; i++) {
            in->slots2[i] = y->u.assign.targets[i].slot;
            names[i] = slot_name(L, in->slots2[i]);
        }
        in->names = names;
    }
}

static void lower_stmt(lower *L, const ir_stmt *s)
{
    switch (s->kind) {
    case IR_STMT_ASSIGN: {
        const ir_expr *v = s->u.assign.value;
        if (s->u.assign.ntargets != 1) {
            /* a, b = call(...): bind a tuple's items */
            xexpr *x = lower_expr(L, v);
            int32_t tmp = (int32_t)L->nslots++;
            int32_t pc = emit(L, XI_ASSIGN, s, 0);
            L->code[pc].e = x;
            L->code[pc].slots = aalloc(L->a, sizeof(int32_t));
            L->code[pc].slots[0] = tmp;
            L->code[pc].nslots = 1;
            for (uint32_t i = 0; i < s->u.assign.ntargets; i++) {
                int32_t p2 = emit(L, XI_ASSIGN, s, i + 1 == s->u.assign.ntargets);
                xexpr *ix = new_expr(L, XE_INDEX, v);
                ix->id = (int32_t)i;
                ix->nargs = 1;
                ix->args = aalloc(L->a, sizeof *ix->args);
                ix->args[0] = new_expr(L, XE_SLOT, v);
                ix->args[0]->id = tmp;
                L->code[p2].e = ix;
                L->code[p2].slots = aalloc(L->a, sizeof(int32_t));
                L->code[p2].slots[0] = s->u.assign.targets[i].slot;
                L->code[p2].nslots = 1;
            }
            return;
        }
        int32_t slot = s->u.assign.targets[0].slot;
        exec_type *t = NULL;
        if (s->u.assign.annot) {
            t = aalloc(L->a, sizeof *t);
            exec_type_lower(s->u.assign.annot, t);
        }
        if (v->kind == IR_EXPR_CALL && v->res.kind == IR_REF_CALL) {
            lower_call_into(L, v, s, slot, t, slot_name(L, slot));
            return;
        }
        const ir_expr *newer = newer_in_type(s->u.assign.annot);
        /* REF checks the value against the annotation's dtype: one this
         * ptodb does not know stops the run here */
        xexpr *x = newer ? fail_expr(L, newer, 0, "%s is not known to this ptodb (newer PyPTO?)",
                                     newer_name(L, newer))
                         : lower_expr(L, v);
        if (x->kind == XE_OP)
            x->rtype = t;
        xexpr **valid_x = t ? lower_valid_exprs(L, s->u.assign.annot, t) : NULL;
        int32_t pc = emit(L, XI_ASSIGN, s, 1);
        xinst *in = &L->code[pc];
        in->e = x;
        in->slots = aalloc(L->a, sizeof(int32_t));
        in->slots[0] = slot;
        in->nslots = 1;
        in->types = t;
        in->valid_x = valid_x;
        const char **nm = aalloc(L->a, sizeof *nm);
        nm[0] = slot_name(L, slot);
        in->names = nm;
        return;
    }
    case IR_STMT_YIELD:
        lower_yield(L, s);
        return;
    case IR_STMT_EXPR: {
        const ir_expr *v = s->u.expr.value;
        if (v->kind == IR_EXPR_CALL && v->res.kind == IR_REF_CALL) {
            lower_call_into(L, v, s, -1, NULL, NULL);
            return;
        }
        if (v->kind == IR_EXPR_CALL && v->res.kind == IR_REF_BUILTIN &&
            v->res.id == IR_BUILTIN_YIELD) {
            /* a bare pl.yield_(...) parsed as an expression */
            ir_stmt tmp = *s;
            tmp.kind = IR_STMT_YIELD;
            tmp.u.assign.targets = NULL;
            tmp.u.assign.ntargets = 0;
            tmp.u.assign.annot = NULL;
            tmp.u.assign.value = (ir_expr *)v;
            tmp.u.assign.values = v->u.call.args;
            tmp.u.assign.nvalues = v->u.call.nargs;
            ir_stmt *cp = aalloc(L->a, sizeof *cp);
            *cp = tmp;
            lower_yield(L, cp);
            return;
        }
        int32_t pc = emit(L, XI_EXPR, s, 1);
        L->code[pc].e = lower_expr(L, v);
        return;
    }
    case IR_STMT_RETURN: {
        uint32_t n = s->u.ret.n;
        xexpr **vals = aalloc(L->a, n * sizeof *vals);
        for (uint32_t i = 0; i < n; i++) {
            const ir_expr *v = s->u.ret.values[i];
            if (v->kind == IR_EXPR_CALL && v->res.kind == IR_REF_CALL) {
                int32_t tmp = (int32_t)L->nslots++;
                lower_call_into(L, v, NULL, tmp, NULL, NULL);
                vals[i] = new_expr(L, XE_SLOT, v);
                vals[i]->id = tmp;
            } else {
                vals[i] = lower_expr(L, v);
            }
        }
        int32_t pc = emit(L, XI_RETURN, s, 1);
        L->code[pc].vals = vals;
        L->code[pc].nvals = n;
        return;
    }
    case IR_STMT_IF: {
        xexpr *cond = lower_expr(L, s->u.if_.cond);
        int32_t br = emit(L, XI_BRANCH, s, 1);
        L->code[br].e = cond;
        push_ctx(L, 0, NULL, 0, -1);
        lower_block(L, &s->u.if_.body);
        pop_ctx(L, -1);
        if (s->u.if_.has_else) {
            int32_t j = emit(L, XI_JUMP, NULL, 0);
            L->code[br].target = (int32_t)L->n;
            push_ctx(L, 0, NULL, 0, -1);
            lower_block(L, &s->u.if_.orelse);
            pop_ctx(L, -1);
            L->code[j].target = (int32_t)L->n;
        } else {
            L->code[br].target = (int32_t)L->n;
        }
        return;
    }
    case IR_STMT_FOR:
        lower_for(L, s);
        return;
    case IR_STMT_WHILE: {
        xexpr *cond = lower_expr(L, s->u.while_.cond);
        int32_t head = emit(L, XI_BRANCH, s, 1);
        L->code[head].e = cond;
        push_ctx(L, 1, NULL, 0, head);
        lower_block(L, &s->u.while_.body);
        int32_t j = emit(L, XI_JUMP, NULL, 0);
        L->code[j].target = head;
        L->code[head].target = (int32_t)L->n;
        pop_ctx(L, (int32_t)L->n);
        return;
    }
    case IR_STMT_WITH: {
        const ir_expr *cx = s->u.with.ctx;
        if (s->u.with.as && cx && cx->kind == IR_EXPR_CALL && cx->res.kind == IR_REF_BUILTIN &&
            (cx->res.id == IR_BUILTIN_AT || cx->res.id == IR_BUILTIN_SPMD) && !L->p->codegen_error) {
            /* REF's parser binds `as tid` to a system.task_invalid() placeholder
             * (pypto python/pypto/language/parser/ast_parser.py:4757, 5241),
             * which torch_codegen has no handler for; ptodb binds None */
            L->p->codegen_error = xstrdup("ValueError: Unsupported op 'system.task_invalid' in torch_codegen. "
                                          "Register a handler in _OP_MAP or use a GlobalVar for cross-function "
                                          "calls.");
            L->p->codegen_error_at = cx;
            if (L->p->uses_ptodb_only_ops == 0)
                L->p->uses_ptodb_only_ops = 1;
        }
        if (s->u.with.as) {
            int32_t pc = emit(L, XI_ASSIGN, s, 0);
            L->code[pc].e = new_expr(L, XE_CONST, s->u.with.ctx);
            L->code[pc].slots = aalloc(L->a, sizeof(int32_t));
            L->code[pc].slots[0] = s->u.with.as->slot;
            L->code[pc].nslots = 1;
        }
        /* with pl.spmd(..., predicate=c) / pl.at(..., predicate=c): the scope
         * is a task that runs only when c holds at its dispatch (OutlineIncore
         * Scopes makes it a predicated submit: PyPTO's tests/st/runtime/
         * scheduling/test_predicated_dispatch.py) */
        const ir_expr *pred = cx && cx->kind == IR_EXPR_CALL && cx->res.kind == IR_REF_BUILTIN &&
                                      (cx->res.id == IR_BUILTIN_SPMD || cx->res.id == IR_BUILTIN_AT)
                                  ? call_kwarg(cx, "predicate")
                                  : NULL;
        int32_t pred_br = -1;
        if (pred) {
            xexpr *px = lower_expr(L, pred);
            pred_br = emit(L, XI_BRANCH, s, 0);
            L->code[pred_br].e = px;
        }
        int32_t head = cx && cx->kind == IR_EXPR_CALL && cx->res.kind == IR_REF_BUILTIN &&
                               cx->res.id == IR_BUILTIN_SPMD && cx->u.call.nargs >= 1
                           ? spmd_open(L, s, cx->u.call.args[0], -1, 0)
                           : -1;
        const ir_expr *mode = cx && cx->kind == IR_EXPR_CALL && cx->res.kind == IR_REF_BUILTIN &&
                                      cx->res.id == IR_BUILTIN_SCOPE
                                  ? call_kwarg(cx, "mode")
                                  : NULL;
        int manual = mode && mode->res.kind == IR_REF_ENUM && mode->res.id == IR_EV_SCOPE_MODE_MANUAL;
        if (manual) { /* a new instance of the scope for the race check */
            int32_t pc = emit(L, XI_EXPR, s, 0);
            L->code[pc].e = new_expr(L, XE_MANUAL_SCOPE, cx);
            L->manual_depth++;
        }
        int32_t fork = forks_lanes(L, cx, &s->u.with.body) ? emit(L, XI_FORK, s, 0) : -1;
        lower_block(L, &s->u.with.body);
        if (fork >= 0) {
            int32_t join = emit(L, XI_JOIN, NULL, 0);
            L->code[fork].target = join;
        }
        if (manual)
            L->manual_depth--;
        if (head >= 0)
            spmd_close(L, head);
        if (pred_br >= 0) {
            /* the task did not run: a call's result inside it is its output
             * argument as it was (the runtime retires the task; its outputs
             * are the buffers it was given), so SSA names defined there are
             * bound on the skipping path too */
            int32_t over = emit(L, XI_JUMP, NULL, 0);
            L->code[pred_br].target = (int32_t)L->n;
            const ir_block *body = &s->u.with.body;
            for (uint32_t i = 0; i < body->n; i++) {
                const ir_stmt *b = body->items[i];
                if (b->kind != IR_STMT_ASSIGN || b->u.assign.ntargets != 1)
                    continue;
                const ir_expr *v = b->u.assign.value;
                if (v->kind != IR_EXPR_CALL || v->res.kind != IR_REF_CALL || v->res.id < 0 ||
                    (uint32_t)v->res.id >= L->p->mod->program->nfuncs)
                    continue;
                const ir_func *callee = L->p->mod->program->funcs[v->res.id];
                for (uint32_t k = 0; k < callee->nparams && k < v->u.call.nargs; k++)
                    if (callee->params[k].dir != IR_DIR_IN) {
                        int32_t pc = emit(L, XI_ASSIGN, b, 0);
                        L->code[pc].e = lower_expr(L, v->u.call.args[k]);
                        L->code[pc].slots = aalloc(L->a, sizeof(int32_t));
                        L->code[pc].slots[0] = b->u.assign.targets[0].slot;
                        L->code[pc].nslots = 1;
                        break;
                    }
            }
            L->code[over].target = (int32_t)L->n;
        }
        return;
    }
    case IR_STMT_BREAK:
    case IR_STMT_CONTINUE: {
        lctx *c = find_loop(L);
        if (!c) {
            lerror(L, &s->span, "%s outside a loop", s->kind == IR_STMT_BREAK ? "break" : "continue");
            return;
        }
        int32_t j = emit(L, XI_JUMP, s, 1);
        if (s->kind == IR_STMT_CONTINUE) {
            L->code[j].target = c->head;
        } else {
            if (c->nbreaks == c->capbreaks) {
                c->capbreaks = c->capbreaks ? 2 * c->capbreaks : 4;
                c->breaks = xreallocarray(c->breaks, c->capbreaks, sizeof *c->breaks);
            }
            c->breaks[c->nbreaks++] = j;
        }
        return;
    }
    case IR_STMT_COND:
        lerror(L, &s->span, "pl.cond outside a pl.while_ loop");
        return;
    case IR_STMT_FUNC_ATTR:
    case IR_STMT_PASS:
    case IR_STMT_ELLIPSIS:
        return;
    case IR_STMT_OPAQUE:
    default: {
        int32_t pc = emit(L, XI_FAIL, s, 1);
        L->code[pc].msg = "unsupported statement (not modelled by ptodb)";
        return;
    }
    }
}

static void lower_block(lower *L, const ir_block *b)
{
    if (L->depth >= IR_MAX_DEPTH) {
        lerror(L, NULL, "blocks nested too deeply");
        return;
    }
    for (uint32_t i = 0; i < b->n; i++)
        lower_stmt(L, b->items[i]);
}

/* ---- functions and the program ----------------------------------------- */

static int32_t func_type_of(const ir_func *f)
{
    if (!f->type_name)
        return -1;
    strbuf sb = STRBUF_INIT;
    strbuf_printf(&sb, "pl.FunctionType.%s", f->type_name);
    int v = ir_enum_lookup(sb.data, sb.len);
    strbuf_free(&sb);
    return v;
}

static int split_code(int32_t ev)
{
    if (ev == IR_EV_SPLIT_MODE_UP_DOWN)
        return 1;
    if (ev == IR_EV_SPLIT_MODE_LEFT_RIGHT)
        return 2;
    return 0;
}

static void read_func_attrs(xfunc *xf, const ir_func *f)
{
    const ir_expr *d = f->func_attr;
    if (!d || d->kind != IR_EXPR_DICT)
        return;
    for (uint32_t i = 0; i < d->u.dict.n; i++) {
        const ir_expr *k = d->u.dict.keys[i], *v = d->u.dict.values[i];
        if (k->kind != IR_EXPR_STRING)
            continue;
        const char *key = k->u.str.value;
        if (strcmp(key, "split") == 0) {
            if (v->res.kind == IR_REF_ENUM)
                xf->attr_split = split_code(v->res.id);
            else if (v->kind == IR_EXPR_INT)
                xf->attr_split = (int)v->u.num.i;
        } else if (strcmp(key, "split_aiv") == 0) {
            xf->split_aiv = v->kind == IR_EXPR_BOOL && v->u.boolean;
        } else if (strcmp(key, "dual_aiv_dispatch") == 0) {
            xf->attr_dual = v->kind == IR_EXPR_BOOL && v->u.boolean;
        }
    }
}

/* Collects split kwargs of cross-core ops in an expression tree (bitmask of
 * codes 0..31). */
static void collect_split_expr(const ir_expr *e, unsigned *mask, int *slot_num)
{
    if (!e)
        return;
    switch (e->kind) {
    case IR_EXPR_CALL:
        if (e->res.kind == IR_REF_OP && (e->res.id == IR_OP_SYSTEM_AIC_INITIALIZE_PIPE ||
                                         e->res.id == IR_OP_SYSTEM_AIV_INITIALIZE_PIPE))
            for (uint32_t i = 0; i < e->u.call.nkwargs; i++)
                if (strcmp(e->u.call.kwargs[i].name->text, "slot_num") == 0 &&
                    e->u.call.kwargs[i].value->kind == IR_EXPR_INT &&
                    e->u.call.kwargs[i].value->u.num.i > *slot_num)
                    *slot_num = (int)e->u.call.kwargs[i].value->u.num.i;
        if (e->res.kind == IR_REF_OP &&
            (e->res.id == IR_OP_TILE_TPUSH_TO_AIV || e->res.id == IR_OP_TILE_TPUSH_TO_AIC ||
             e->res.id == IR_OP_TILE_TPOP_FROM_AIC || e->res.id == IR_OP_TILE_TPOP_FROM_AIV)) {
            int code = 0;
            for (uint32_t i = 0; i < e->u.call.nkwargs; i++)
                if (strcmp(e->u.call.kwargs[i].name->text, "split") == 0) {
                    const ir_expr *v = e->u.call.kwargs[i].value;
                    if (v->kind == IR_EXPR_INT)
                        code = (int)v->u.num.i;
                    else if (v->res.kind == IR_REF_ENUM)
                        code = split_code(v->res.id);
                }
            if (code >= 0 && code < 32)
                *mask |= 1u << code;
        }
        for (uint32_t i = 0; i < e->u.call.nargs; i++)
            collect_split_expr(e->u.call.args[i], mask, slot_num);
        for (uint32_t i = 0; i < e->u.call.nkwargs; i++)
            collect_split_expr(e->u.call.kwargs[i].value, mask, slot_num);
        break;
    case IR_EXPR_LIST:
    case IR_EXPR_TUPLE:
        for (uint32_t i = 0; i < e->u.seq.n; i++)
            collect_split_expr(e->u.seq.items[i], mask, slot_num);
        break;
    case IR_EXPR_SUBSCRIPT:
        collect_split_expr(e->u.sub.value, mask, slot_num);
        break;
    case IR_EXPR_UNARY:
        collect_split_expr(e->u.unary.operand, mask, slot_num);
        break;
    case IR_EXPR_BINARY:
        collect_split_expr(e->u.binary.lhs, mask, slot_num);
        collect_split_expr(e->u.binary.rhs, mask, slot_num);
        break;
    default:
        break;
    }
}

static void collect_split_block(const ir_block *b, unsigned *mask, int *slot_num)
{
    for (uint32_t i = 0; i < b->n; i++) {
        const ir_stmt *s = b->items[i];
        switch (s->kind) {
        case IR_STMT_ASSIGN:
        case IR_STMT_YIELD:
            collect_split_expr(s->u.assign.value, mask, slot_num);
            break;
        case IR_STMT_EXPR:
        case IR_STMT_COND:
            collect_split_expr(s->u.expr.value, mask, slot_num);
            break;
        case IR_STMT_RETURN:
            for (uint32_t j = 0; j < s->u.ret.n; j++)
                collect_split_expr(s->u.ret.values[j], mask, slot_num);
            break;
        case IR_STMT_IF:
            collect_split_expr(s->u.if_.cond, mask, slot_num);
            collect_split_block(&s->u.if_.body, mask, slot_num);
            collect_split_block(&s->u.if_.orelse, mask, slot_num);
            break;
        case IR_STMT_FOR:
            collect_split_expr(s->u.for_.iter, mask, slot_num);
            collect_split_block(&s->u.for_.body, mask, slot_num);
            break;
        case IR_STMT_WHILE:
            collect_split_expr(s->u.while_.cond, mask, slot_num);
            collect_split_block(&s->u.while_.body, mask, slot_num);
            break;
        case IR_STMT_WITH:
            collect_split_block(&s->u.with.body, mask, slot_num);
            break;
        default:
            break;
        }
    }
}

int exec_program_find(const xprogram *p, const char *name)
{
    for (uint32_t i = 0; i < p->nfuncs; i++)
        if (strcmp(p->funcs[i].name, name) == 0)
            return (int)i;
    return -1;
}

static void build_group(xprogram *p, xfunc *g, ir_arena *a)
{
    strbuf sb = STRBUF_INIT;
    strbuf_printf(&sb, "%s_aic", g->name);
    int aic = exec_program_find(p, sb.data);
    strbuf_clear(&sb);
    strbuf_printf(&sb, "%s_aiv", g->name);
    int aiv = exec_program_find(p, sb.data);
    strbuf_free(&sb);
    if (aic < 0 || aiv < 0)
        return; /* called directly (semantics.md §5.5) */
    g->is_group = 1;
    g->group.aic = aic;
    g->group.aiv = aiv;
    unsigned mask = 0;
    int slot_num = 0;
    collect_split_block(&p->funcs[aic].src->body, &mask, &slot_num);
    collect_split_block(&p->funcs[aiv].src->body, &mask, &slot_num);
    g->group.slot_num = slot_num;
    int n = 0, code = 0;
    for (int i = 0; i < 32; i++)
        if (mask & (1u << i)) {
            n++;
            code = i;
        }
    if (n > 1) {
        strbuf m = STRBUF_INIT;
        strbuf_printf(&m, "ValueError: Conflicting cross-core split kwargs in group %s: [", g->name);
        int first = 1;
        for (int i = 0; i < 32; i++)
            if (mask & (1u << i)) {
                strbuf_printf(&m, "%s%d", first ? "" : ", ", i);
                first = 0;
            }
        strbuf_puts(&m, "]");
        g->group.conflict = astr(a, m.data);
        strbuf_free(&m);
    }
    if (n == 0) {
        code = g->attr_split;
        if (code == 0)
            code = p->funcs[aiv].attr_split;
    }
    g->group.split = code;
    g->group.dual = p->funcs[aiv].attr_dual;
    g->group.lanes = (code >= 1 && code <= 4) || g->group.dual ? 2 : 1;
}

/* A Group function's callees as the device finds them: the first AIC-typed
 * and the first AIV-typed callee in source order, and the first AIC, AIV or
 * InCore call, whose arguments the launch passes to both kernels (pypto
 * src/ir/transforms/utils/wrapper_call_utils.cpp:93-125,
 * src/codegen/orchestration/orchestration_codegen.cpp:3366-3383). */
static void build_group_dev(xprogram *p, xfunc *g)
{
    xgroup_dev *d = &g->dev;
    d->aic = d->aiv = d->aic_pc = d->aiv_pc = d->first_pc = d->resume_pc = -1;
    if (g->type != IR_EV_FUNCTION_TYPE_GROUP)
        return;
    for (uint32_t pc = 0; pc < g->ncode; pc++) {
        const xinst *in = &g->code[pc];
        if (in->kind != XI_CALL || in->call_mode == XCALL_SUBMIT || in->device || in->callee < 0)
            continue;
        const xfunc *c = &p->funcs[in->callee];
        int t = c->type;
        if (t != IR_EV_FUNCTION_TYPE_AIC && t != IR_EV_FUNCTION_TYPE_AIV && t != IR_EV_FUNCTION_TYPE_INCORE)
            continue;
        if (d->first_pc < 0)
            d->first_pc = (int32_t)pc;
        if (t == IR_EV_FUNCTION_TYPE_AIC && d->aic < 0) {
            d->aic = in->callee;
            d->aic_pc = (int32_t)pc;
        } else if (t == IR_EV_FUNCTION_TYPE_AIV && d->aiv < 0) {
            d->aiv = in->callee;
            d->aiv_pc = (int32_t)pc;
        }
        d->resume_pc = (int32_t)pc + 1;
    }
}

/* ---- liveness: which operands die at their statement ------------------- */

/* Per function, a backward data-flow over the flat code (one bit per slot):
 * live_in(i) = uses(i) | (live_out(i) & ~defs(i)), live_out(i) = the union
 * of live_in over i's successors, iterated to a fixed point. The jumps of
 * the lowered loops make a value used inside a loop body but defined
 * outside it live around the back edge, i.e. for the whole loop; yields,
 * returns and call arguments are uses. Uses are every slot leaf anywhere in
 * the instruction; defs only the targets written unconditionally. Both
 * errors are on the safe side (a slot counted live that is not). */

typedef struct liveness {
    uint32_t words; /* 64-bit words per set */
    uint64_t *in;   /* ncode sets */
} liveness;

static void set_bit(uint64_t *set, int32_t slot)
{
    if (slot >= 0)
        set[slot / 64] |= (uint64_t)1 << (slot % 64);
}

static int has_bit(const uint64_t *set, int32_t slot)
{
    return slot >= 0 && (set[slot / 64] >> (slot % 64)) & 1;
}

static void expr_uses(const xexpr *x, uint64_t *set)
{
    if (!x)
        return;
    if (x->kind == XE_SLOT)
        set_bit(set, x->id);
    for (uint32_t i = 0; i < x->nargs; i++)
        expr_uses(x->args[i], set);
    for (uint32_t i = 0; i < x->nkw; i++)
        expr_uses(x->kw[i], set);
}

static void inst_uses(const xinst *in, uint64_t *set)
{
    expr_uses(in->e, set);
    for (uint32_t i = 0; i < in->nvals; i++)
        expr_uses(in->vals[i], set);
    if (in->valid_x && in->types)
        for (int d = 0; d < in->types[0].mem_valid_ndim; d++)
            expr_uses(in->valid_x[d], set);
    if (in->kind == XI_COPY)
        for (uint32_t i = 0; i < in->nslots; i++)
            set_bit(set, in->slots[i]);
}

static void inst_defs(const xinst *in, uint64_t *set)
{
    switch (in->kind) {
    case XI_ASSIGN:
    case XI_CALL:
        if (in->nslots >= 1)
            set_bit(set, in->slots[0]);
        break;
    case XI_YIELD:
        for (uint32_t i = 0; i < in->nslots && i < in->nvals; i++)
            set_bit(set, in->slots[i]);
        break;
    case XI_FOR_INIT:
        for (uint32_t i = 0; i < in->nslots; i++)
            set_bit(set, in->slots[i]);
        break;
    case XI_COPY:
        for (uint32_t i = 0; i < in->nslots; i++)
            set_bit(set, in->slots2[i]);
        break;
    default: /* FOR_NEXT writes its variable only when the loop goes on */
        break;
    }
}

/* live_out(i) into out */
static void live_out(const xfunc *xf, const liveness *lv, uint32_t i, uint64_t *out)
{
    const xinst *in = &xf->code[i];
    memset(out, 0, lv->words * sizeof *out);
    int32_t succ[2] = {-1, -1};
    switch (in->kind) {
    case XI_RETURN:
    case XI_FAIL:
        break;
    case XI_JUMP:
        succ[0] = in->target;
        break;
    case XI_BRANCH:
    case XI_FOR_NEXT:
        succ[0] = (int32_t)i + 1;
        succ[1] = in->target;
        break;
    default:
        succ[0] = (int32_t)i + 1;
        break;
    }
    for (int k = 0; k < 2; k++)
        if (succ[k] >= 0 && (uint32_t)succ[k] < xf->ncode)
            for (uint32_t w = 0; w < lv->words; w++)
                out[w] |= lv->in[(size_t)succ[k] * lv->words + w];
}

static int32_t expr_max_slot(const xexpr *x)
{
    int32_t m = -1;
    if (!x)
        return m;
    if (x->kind == XE_SLOT)
        m = x->id;
    for (uint32_t i = 0; i < x->nargs; i++) {
        int32_t k = expr_max_slot(x->args[i]);
        m = k > m ? k : m;
    }
    for (uint32_t i = 0; i < x->nkw; i++) {
        int32_t k = expr_max_slot(x->kw[i]);
        m = k > m ? k : m;
    }
    return m;
}

/* The largest slot index the code names (the sets cover it even if the
 * lowering's count were short) */
static int32_t code_max_slot(const xfunc *xf)
{
    int32_t m = (int32_t)xf->nslots - 1;
    for (uint32_t i = 0; i < xf->ncode; i++) {
        const xinst *in = &xf->code[i];
        int32_t k = expr_max_slot(in->e);
        m = k > m ? k : m;
        for (uint32_t j = 0; j < in->nvals; j++) {
            k = expr_max_slot(in->vals[j]);
            m = k > m ? k : m;
        }
        for (uint32_t j = 0; j < in->nslots; j++) {
            m = in->slots[j] > m ? in->slots[j] : m;
            if (in->slots2)
                m = in->slots2[j] > m ? in->slots2[j] : m;
        }
    }
    return m;
}

static void liveness_compute(const xfunc *xf, liveness *lv)
{
    lv->words = (uint32_t)(((int64_t)code_max_slot(xf) + 1 + 63) / 64);
    if (lv->words == 0)
        lv->words = 1;
    lv->in = xcalloc((size_t)xf->ncode * lv->words, sizeof *lv->in);
    uint64_t *out = xcalloc(lv->words, sizeof *out), *def = xcalloc(lv->words, sizeof *def);
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = xf->ncode; i-- > 0;) {
            const xinst *in = &xf->code[i];
            live_out(xf, lv, i, out);
            memset(def, 0, lv->words * sizeof *def);
            inst_defs(in, def);
            for (uint32_t w = 0; w < lv->words; w++)
                out[w] &= ~def[w];
            inst_uses(in, out);
            uint64_t *cur = &lv->in[(size_t)i * lv->words];
            if (memcmp(cur, out, lv->words * sizeof *out) != 0) {
                memcpy(cur, out, lv->words * sizeof *out);
                changed = 1;
            }
        }
    }
    free(out);
    free(def);
}

static int count_slot(const xexpr *x, int32_t slot)
{
    if (!x)
        return 0;
    int n = x->kind == XE_SLOT && x->id == slot;
    for (uint32_t i = 0; i < x->nargs; i++)
        n += count_slot(x->args[i], slot);
    for (uint32_t i = 0; i < x->nkw; i++)
        n += count_slot(x->kw[i], slot);
    return n;
}

static int leaf(const xexpr *x)
{
    return x && (x->kind == XE_SLOT || x->kind == XE_CONST);
}

/* Marks dead_after on the slot operands of `slot = op(a, b, ...)` whose
 * value no later instruction reads: the op's only reference once moved.
 * Only for ops that take the offer (exec_op_reuses_dead_operand), and only
 * when every argument is a slot or a constant, so that nothing evaluated
 * after the move can block (a blocked statement is run again from the
 * start) or read the slot; a slot named twice in the statement is left
 * alone. */
static void mark_dead_operands(xfunc *xf, ir_arena *a)
{
    if (xf->ncode == 0)
        return;
    liveness lv;
    liveness_compute(xf, &lv);
    uint64_t *out = xcalloc(lv.words, sizeof *out);
    for (uint32_t i = 0; i < xf->ncode; i++) {
        xinst *in = &xf->code[i];
        xexpr *e = in->e;
        if (in->kind != XI_ASSIGN || in->nslots != 1 || !e || e->kind != XE_OP ||
            !exec_op_reuses_dead_operand(e->id))
            continue;
        int all_leaves = 1;
        for (uint32_t k = 0; k < e->nargs; k++)
            all_leaves &= leaf(e->args[k]);
        for (uint32_t k = 0; k < e->nkw; k++)
            all_leaves &= leaf(e->kw[k]);
        if (!all_leaves)
            continue;
        live_out(xf, &lv, i, out);
        for (uint32_t k = 0; k < e->nargs; k++) {
            xexpr *x = e->args[k];
            if (x->kind != XE_SLOT || count_slot(e, x->id) != 1)
                continue;
            if (has_bit(out, x->id) && x->id != in->slots[0])
                continue; /* read later */
            /* a node of its own (never shared with another statement) */
            xexpr *c = aalloc(a, sizeof *c);
            *c = *x;
            c->dead_after = 1;
            e->args[k] = c;
        }
    }
    free(out);
    free(lv.in);
}

static int cmp_names(const void *x, const void *y)
{
    const xfunc *const *a = x, *const *b = y;
    return strcmp((*a)->name, (*b)->name);
}

static int is_dyn(const ir_expr *e, int32_t d)
{
    return e->kind == IR_EXPR_NAME && e->res.kind == IR_REF_DYN && e->res.id == d;
}

static int int_const(const ir_expr *e, int64_t *c)
{
    if (e->kind != IR_EXPR_INT || (e->flags & IR_EF_BIG))
        return 0;
    *c = e->u.num.i;
    return 1;
}

/* Whether the shape dim e gives dyn symbol d from its extent, and how (in
 * b): the bare symbol, or (affine: the host orchestrator only) one of the
 * single-symbol forms PyPTO's host codegen inverts, InvertShapeDimForVar
 * (distributed_codegen.cpp:385-452): var + c, c + var, var - c, c - var,
 * var * c, c * var (c != 0), var // c (c != 0). */
static int dyn_inverse(const ir_expr *e, int32_t d, int affine, xdyn_bind *b)
{
    if (is_dyn(e, d)) {
        b->how = XDYN_BARE;
        return 1;
    }
    if (!affine || e->kind != IR_EXPR_BINARY)
        return 0;
    const ir_expr *l = e->u.binary.lhs, *r = e->u.binary.rhs;
    int64_t c;
    switch (e->op) {
    case IR_BINOP_ADD:
        if ((is_dyn(l, d) && int_const(r, &c)) || (is_dyn(r, d) && int_const(l, &c))) {
            b->how = XDYN_MINUS_C;
            b->c = c;
            return 1;
        }
        return 0;
    case IR_BINOP_SUB:
        if (is_dyn(l, d) && int_const(r, &c)) {
            b->how = XDYN_PLUS_C;
            b->c = c;
            return 1;
        }
        if (is_dyn(r, d) && int_const(l, &c)) {
            b->how = XDYN_C_MINUS;
            b->c = c;
            return 1;
        }
        return 0;
    case IR_BINOP_MUL:
        if (((is_dyn(l, d) && int_const(r, &c)) || (is_dyn(r, d) && int_const(l, &c))) && c != 0) {
            b->how = XDYN_DIV_C;
            b->c = c;
            return 1;
        }
        return 0;
    case IR_BINOP_FLOORDIV:
        if (is_dyn(l, d) && int_const(r, &c) && c != 0) {
            b->how = XDYN_MUL_C;
            b->c = c;
            return 1;
        }
        return 0;
    default:
        return 0;
    }
}

ptodb_status exec_program_build(const ir_module *m, const op_fn *ops, xprogram **out,
                                diag_sink *sink)
{
    *out = NULL;
    if (!m->program) {
        diag_loc loc = {m->path, 0, 0};
        diag_report(sink, DIAG_ERROR, loc, NULL, "no @pl.program class in the file");
        return PTODB_ERR_UNSUPPORTED;
    }
    ir_arena *a = ir_arena_new();
    xprogram *p = xcalloc(1, sizeof *p);
    p->arena = (struct xarena *)a;
    p->mod = m;
    p->path = m->path;
    const ir_program *pr = m->program;
    p->nfuncs = pr->nfuncs;
    p->ndyns = pr->ndyns;
    p->funcs = aalloc(a, p->nfuncs * sizeof *p->funcs);
    p->entry = -1;
    for (uint32_t i = 0; i < p->nfuncs; i++) {
        xfunc *xf = &p->funcs[i];
        const ir_func *f = pr->funcs[i];
        xf->src = f;
        xf->name = f->name->text;
        xf->index = (int32_t)i;
        xf->type = func_type_of(f);
        xf->nparams = f->nparams;
        read_func_attrs(xf, f);
        collect_split_block(&f->body, &xf->split_mask, &xf->slot_num);
        xf->param_types = aalloc(a, f->nparams * sizeof *xf->param_types);
        for (uint32_t j = 0; j < f->nparams; j++)
            exec_type_lower(f->params[j].type, &xf->param_types[j]);
        xf->slot_names = aalloc(a, f->nslots * sizeof *xf->slot_names);
        for (uint32_t j = 0; j < f->nslots; j++)
            xf->slot_names[j] = f->slot_names && f->slot_names[j]
                                    ? sanitize(a, f->slot_names[j]->text)
                                    : "tmp";
        index_slot_names(xf, f, a);
    }
    ptodb_status st = PTODB_OK;
    for (uint32_t i = 0; i < p->nfuncs && st == PTODB_OK; i++) {
        xfunc *xf = &p->funcs[i];
        const ir_func *f = xf->src;
        build_group(p, xf, a);
        lower L;
        memset(&L, 0, sizeof L);
        L.p = p;
        L.f = xf;
        L.irf = f;
        L.ops = ops;
        L.sink = sink;
        L.a = a;
        L.nslots = f->nslots;
        lower_block(&L, &f->body);
        /* falling off the end returns None */
        int32_t pc = emit(&L, XI_RETURN, NULL, 0);
        L.code[pc].nvals = 0;
        xf->code = aalloc(a, L.n * sizeof *xf->code);
        memcpy(xf->code, L.code, L.n * sizeof *xf->code);
        xf->ncode = L.n;
        free(L.code);
        xf->nslots = L.nslots;
        xf->nloops = L.nloops;
        mark_dead_operands(xf, a);
        /* runs on two lanes like a LowerAutoVectorSplit kernel; an Inline
         * function is inlined into its caller (InlineFunctions), so regions
         * inside its pl.at / pl.spmd scopes fork there (forks_lanes) */
        if (L.region_shards && (xf->type != IR_EV_FUNCTION_TYPE_INLINE || block_has_bare_region(&f->body)))
            xf->split_aiv = 1;
        xf->region_any = L.region_any > 0;
        st = L.st;
        /* dynamic dims bound from parameters (Orchestration, §5.5; and
         * the host orchestrator, whose generated host_orch.py binds each
         * pl.dynamic symbol from a host tensor's shape before its body:
         * PyPTO distributed_codegen.cpp:317-323, 454-513, the first
         * parameter axis that names it, an invertible form preferred) */
        int host = f->level_name && strcmp(f->level_name, "HOST") == 0;
        /* any other function (an InCore kernel) under device semantics: its
         * dynamic dims are trailing index parameters the runtime fills from
         * its tensors' shapes (PyPTO pto_codegen.cpp:331-396, 1060-1065;
         * pto_backend.py's _generate_arg_unpacking); REF defines none there */
        xf->dyn_device_only = !(xf->type == IR_EV_FUNCTION_TYPE_ORCHESTRATION || host);
        if (pr->ndyns) {
            xf->dyn_binds = aalloc(a, pr->ndyns * sizeof *xf->dyn_binds);
            for (uint32_t d = 0; d < pr->ndyns; d++) {
                int found = 0;
                for (uint32_t j = 0; j < f->nparams && !found; j++) {
                    const ir_expr *t = f->params[j].type;
                    if (!t || t->kind != IR_EXPR_SUBSCRIPT || t->u.sub.n < 1 ||
                        t->u.sub.value->res.kind != IR_REF_TYPE ||
                        (t->u.sub.value->res.id != IR_BUILTIN_TENSOR &&
                         t->u.sub.value->res.id != IR_BUILTIN_DISTRIBUTED_TENSOR))
                        continue;
                    const ir_expr *sh = t->u.sub.items[0];
                    if (sh->kind != IR_EXPR_LIST && sh->kind != IR_EXPR_TUPLE)
                        continue;
                    for (uint32_t k = 0; k < sh->u.seq.n; k++) {
                        xdyn_bind b = {(int32_t)d, (int32_t)j, (int32_t)k, XDYN_BARE, 0};
                        if (dyn_inverse(sh->u.seq.items[k], (int32_t)d, host, &b)) {
                            xf->dyn_binds[xf->ndyn_binds++] = b;
                            found = 1;
                            break;
                        }
                    }
                }
            }
        }
    }
    if (st != PTODB_OK) {
        exec_program_free(p);
        return st;
    }
    /* entry (semantics.md §7.2 step 2) */
    if (p->nfuncs == 1) {
        p->entry = 0;
    } else {
        xfunc **sorted = xmalloc(p->nfuncs * sizeof *sorted);
        for (uint32_t i = 0; i < p->nfuncs; i++)
            sorted[i] = &p->funcs[i];
        qsort(sorted, p->nfuncs, sizeof *sorted, cmp_names);
        for (uint32_t i = 0; i < p->nfuncs; i++)
            if (sorted[i]->type == IR_EV_FUNCTION_TYPE_ORCHESTRATION) {
                p->entry = sorted[i]->index;
                break;
            }
        free(sorted);
        if (p->entry < 0) {
            strbuf sb = STRBUF_INIT;
            strbuf_printf(&sb, "ValueError: Program '%s' has %u functions but no Orchestration entry",
                          pr->name ? pr->name->text : "?", p->nfuncs);
            p->entry_error = strbuf_detach(&sb);
        }
    }
    for (uint32_t i = 0; i < p->nfuncs; i++)
        build_group_dev(p, &p->funcs[i]);
    for (uint32_t i = 0; i < p->nfuncs; i++)
        if (p->funcs[i].is_group && p->funcs[i].group.conflict && !p->codegen_error) {
            p->codegen_error = xstrdup(p->funcs[i].group.conflict);
            p->uses_ptodb_only_ops = -1;
            p->codegen_conflict = 1;
        }
    *out = p;
    return PTODB_OK;
}

void exec_program_free(xprogram *p)
{
    if (!p)
        return;
    free(p->entry_error);
    free(p->codegen_error);
    free(p->unrunnable);
    ir_arena_free((ir_arena *)p->arena);
    free(p);
}

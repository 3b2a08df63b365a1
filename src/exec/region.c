/* Global-memory regions of loads and stores (region.h). */
#include "exec/region.h"

#include <stdio.h>
#include <string.h>

#include "exec/inspect.h"
#include "ir/resolve.h"
#include "ir/walk.h"

static const ir_expr *stmt_call(const ir_stmt *st)
{
    const ir_expr *c = NULL;
    if (st && st->kind == IR_STMT_ASSIGN)
        c = st->u.assign.value;
    else if (st && st->kind == IR_STMT_EXPR)
        c = st->u.expr.value;
    return c && c->kind == IR_EXPR_CALL && c->res.kind == IR_REF_OP ? c : NULL;
}

exec_region_kind exec_region_stmt_kind(const ir_stmt *st)
{
    const ir_expr *c = stmt_call(st);
    if (!c)
        return 0;
    if (c->res.id == IR_OP_TILE_LOAD || (c->res.id == IR_OP_TENSOR_SLICE && st->kind == IR_STMT_ASSIGN))
        return EXEC_REGION_LOAD;
    if (c->res.id == IR_OP_TILE_STORE || c->res.id == IR_OP_TENSOR_ASSEMBLE)
        return EXEC_REGION_STORE;
    if ((c->res.id == IR_OP_TILE_TPOP_FROM_AIC || c->res.id == IR_OP_TILE_TPOP_FROM_AIV) && st->kind == IR_STMT_ASSIGN)
        return EXEC_REGION_POP;
    return 0;
}

int exec_region_store_operands(const ir_stmt *st, const ir_expr **data, const ir_expr **offsets,
                               const ir_expr **dest)
{
    const ir_expr *c = stmt_call(st);
    if (exec_region_stmt_kind(st) != EXEC_REGION_STORE || c->u.call.nargs < 3)
        return 0;
    int assemble = c->res.id == IR_OP_TENSOR_ASSEMBLE;
    *data = c->u.call.args[assemble ? 1 : 0];
    *offsets = c->u.call.args[assemble ? 2 : 1];
    *dest = c->u.call.args[assemble ? 0 : 2];
    return 1;
}

/* The value of variable e in frame 0 of core, or NULL. */
static const value *name_value(const machine *m, int core, const ir_expr *e)
{
    if (!e || e->kind != IR_EXPR_NAME)
        return NULL;
    const char *text = e->u.name->text;
    int slot = inspect_find_slot(m, core, 0, text);
    const char *sn;
    const value *v;
    if (slot < 0 || !inspect_slot(m, core, 0, slot, &sn, &v) || strcmp(sn, text) != 0 || v->kind == VAL_UNBOUND)
        return NULL;
    return v;
}

static int floor_div(int64_t a, int64_t b, int64_t *q)
{
    if (b == 0)
        return 0;
    int64_t r = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        r--;
    *q = r;
    return 1;
}

/* An index expression: integer literals, variables, + - * // % and unary
 * minus, the forms the printer writes offsets in. */
static int eval_int(const machine *m, int core, const ir_expr *e, int64_t *out)
{
    if (!e)
        return 0;
    switch (e->kind) {
    case IR_EXPR_INT:
        if (e->flags & IR_EF_BIG)
            return 0;
        *out = e->u.num.i;
        return 1;
    case IR_EXPR_NAME: {
        const value *v = name_value(m, core, e);
        if (!v || (v->kind != VAL_INT && v->kind != VAL_BOOL))
            return 0;
        *out = v->kind == VAL_INT ? v->u.i : v->u.b;
        return 1;
    }
    case IR_EXPR_UNARY: {
        int64_t x;
        if (!eval_int(m, core, e->u.unary.operand, &x))
            return 0;
        if (e->op == IR_UNOP_NEG)
            *out = -x;
        else if (e->op == IR_UNOP_POS)
            *out = x;
        else
            return 0;
        return 1;
    }
    case IR_EXPR_BINARY: {
        int64_t a, b;
        if (!eval_int(m, core, e->u.binary.lhs, &a) || !eval_int(m, core, e->u.binary.rhs, &b))
            return 0;
        switch (e->op) {
        case IR_BINOP_ADD: *out = a + b; return 1;
        case IR_BINOP_SUB: *out = a - b; return 1;
        case IR_BINOP_MUL: *out = a * b; return 1;
        case IR_BINOP_FLOORDIV: return floor_div(a, b, out);
        case IR_BINOP_MOD: {
            int64_t q;
            if (!floor_div(a, b, &q))
                return 0;
            *out = a - q * b;
            return 1;
        }
        default: return 0;
        }
    }
    default:
        return 0;
    }
}

static int eval_list(const machine *m, int core, const ir_expr *e, int64_t *out, int *n)
{
    if (!e || (e->kind != IR_EXPR_LIST && e->kind != IR_EXPR_TUPLE) || e->u.seq.n > TENSOR_MAX_DIMS)
        return 0;
    for (uint32_t i = 0; i < e->u.seq.n; i++)
        if (!eval_int(m, core, e->u.seq.items[i], &out[i]))
            return 0;
    *n = (int)e->u.seq.n;
    return 1;
}

static int same_view(const tensor *a, const tensor *b)
{
    if (a == b)
        return 1;
    if (a->storage != b->storage || a->offset != b->offset || a->ndim != b->ndim)
        return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d] || a->strides[d] != b->strides[d])
            return 0;
    return 1;
}

/* The outermost variable of core's frames holding t whole (only the
 * frames' parameters when params_only): 1 found, its SSA base name in out
 * when out is not NULL. */
static int outer_holder(const machine *m, int core, const tensor *t, int params_only, strbuf *out)
{
    for (int level = inspect_depth(m, core) - 1; level >= 0; level--) {
        inspect_frame f;
        if (!inspect_frame_get(m, core, level, &f))
            continue;
        for (int i = 0; i < (params_only ? f.nparams : f.nslots); i++) {
            const char *name;
            const value *v;
            if (inspect_slot(m, core, level, i, &name, &v) && v->kind == VAL_TENSOR && v->u.t &&
                same_view(v->u.t, t)) {
                if (out)
                    ir_ssa_base_name(name, out);
                return 1;
            }
        }
    }
    return 0;
}

/* Whether t is a tensor some frame of core (or of the host) received as a
 * parameter: a case tensor or one the orchestration made, i.e. global
 * memory. A tensor-level slice or assemble names a region only of those: a
 * tensor the function computed itself is no GM data a later pass loads. */
static int param_held(const machine *m, int core, const tensor *t)
{
    return outer_holder(m, core, t, 1, NULL) || outer_holder(m, EXEC_CORE_HOST, t, 1, NULL);
}

static void name_tensor(const machine *m, int core, const ir_expr *arg, const tensor *t, exec_region *r)
{
    strbuf sb = STRBUF_INIT;
    if (!outer_holder(m, EXEC_CORE_HOST, t, 0, &sb) && !outer_holder(m, core, t, 0, &sb))
        ir_ssa_base_name(arg->u.name->text, &sb);
    snprintf(r->tensor, sizeof r->tensor, "%s", strbuf_str(&sb));
    strbuf_free(&sb);
}

int exec_region_of(const machine *m, int core, const ir_stmt *st, exec_region *out)
{
    exec_region_kind kind = exec_region_stmt_kind(st);
    if (!kind)
        return 0;
    const ir_expr *c = stmt_call(st);
    memset(out, 0, sizeof *out);
    out->kind = kind;
    int64_t off[TENSOR_MAX_DIMS];
    int noff;
    if (kind == EXEC_REGION_POP) {
        const char *queue = c->res.id == IR_OP_TILE_TPOP_FROM_AIC ? "aic->aiv" : "aiv->aic";
        snprintf(out->tensor, sizeof out->tensor, "%s", queue);
        return 1;
    }
    /* tensor.slice(t, shape, offsets[, valid]) reads what tile.load(t,
     * offsets, shape[, valid]) does, and ConvertTensorToTileOps turns the
     * one into the other; tensor.assemble(t, src, offsets) writes what
     * tile.store(src, offsets, t) does */
    int tensor_level = c->res.id == IR_OP_TENSOR_SLICE || c->res.id == IR_OP_TENSOR_ASSEMBLE;
    if (kind == EXEC_REGION_LOAD) {
        if (c->u.call.nargs < 3)
            return 0;
        const value *tv = name_value(m, core, c->u.call.args[0]);
        int64_t shp[TENSOR_MAX_DIMS], vs[TENSOR_MAX_DIMS];
        int nshp, nvs = 0;
        const ir_expr *offs = c->u.call.args[tensor_level ? 2 : 1], *shps = c->u.call.args[tensor_level ? 1 : 2];
        if (!tv || tv->kind != VAL_TENSOR || !tv->u.t || !eval_list(m, core, offs, off, &noff) ||
            !eval_list(m, core, shps, shp, &nshp) || noff != tv->u.t->ndim || nshp != noff)
            return 0;
        if (tensor_level && !param_held(m, core, tv->u.t))
            return 0;
        if (c->u.call.nargs >= 4 && !eval_list(m, core, c->u.call.args[3], vs, &nvs))
            nvs = 0;
        const tensor *t = tv->u.t;
        out->ndim = noff;
        for (int d = 0; d < noff; d++) {
            int64_t n = shp[d];
            if (d < nvs && vs[d] < n)
                n = vs[d];
            if (off[d] + n > t->shape[d])
                n = t->shape[d] - off[d];
            out->lo[d] = off[d];
            out->len[d] = n < 0 ? 0 : n;
        }
        name_tensor(m, core, c->u.call.args[0], t, out);
        return 1;
    }
    const ir_expr *srce, *offe, *dste;
    if (!exec_region_store_operands(st, &srce, &offe, &dste))
        return 0;
    const value *src = name_value(m, core, srce);
    const value *dst = name_value(m, core, dste);
    if (!src || !dst || src->kind != VAL_TENSOR || dst->kind != VAL_TENSOR || !src->u.t || !dst->u.t ||
        !eval_list(m, core, offe, off, &noff) || noff != dst->u.t->ndim)
        return 0;
    if (tensor_level && !param_held(m, core, dst->u.t))
        return 0;
    const tensor *s = src->u.t, *t = dst->u.t;
    int nv = s->valid_ndim >= 0 ? s->valid_ndim : s->ndim;
    const int64_t *v = s->valid_ndim >= 0 ? s->valid : s->shape;
    if (nv != noff)
        return 0;
    out->ndim = noff;
    for (int d = 0; d < noff; d++) {
        int64_t n = v[d];
        if (off[d] + n > t->shape[d])
            n = t->shape[d] - off[d];
        out->lo[d] = off[d];
        out->len[d] = n < 0 ? 0 : n;
    }
    name_tensor(m, core, dste, t, out);
    return 1;
}

void exec_region_format(const exec_region *r, strbuf *out)
{
    if (r->kind == EXEC_REGION_POP) {
        strbuf_printf(out, "the %s queue", r->tensor);
        return;
    }
    /* no printf: a traced run formats every store's and load's region */
    strbuf_puts(out, r->tensor);
    strbuf_putc(out, '[');
    for (int d = 0; d < r->ndim; d++) {
        if (d)
            strbuf_puts(out, ", ");
        strbuf_put_int(out, (long long)r->lo[d]);
        strbuf_putc(out, ':');
        strbuf_put_int(out, (long long)(r->lo[d] + r->len[d]));
    }
    strbuf_putc(out, ']');
}

int exec_region_within(const exec_region *inner, const exec_region *outer)
{
    if (inner->kind != outer->kind || inner->ndim != outer->ndim || strcmp(inner->tensor, outer->tensor) != 0)
        return 0;
    for (int d = 0; d < inner->ndim; d++)
        if (inner->lo[d] < outer->lo[d] || inner->lo[d] + inner->len[d] > outer->lo[d] + outer->len[d])
            return 0;
    return 1;
}

int exec_region_equal(const exec_region *a, const exec_region *b)
{
    return exec_region_within(a, b) && exec_region_within(b, a);
}

int exec_region_empty(const exec_region *r)
{
    for (int d = 0; d < r->ndim; d++)
        if (r->len[d] <= 0)
            return 1;
    return 0;
}

int exec_region_core_kind(int core)
{
    return core == EXEC_CORE_HOST ? 0 : core == EXEC_CORE_AIC ? 1 : 2;
}

int exec_region_core_rank(int a, int b)
{
    return a == b ? 0 : exec_region_core_kind(a) != exec_region_core_kind(b) ? 1 : 2;
}

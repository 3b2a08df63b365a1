/* Cross-core ops (semantics.md §3.9, §6.3) and the split_aiv boundary ops
 * tile.aiv_shard / tile.aic_gather (ir-format.md §8.2), which REF cannot
 * run but ptodb does: aiv_shard gives the current lane its half of the
 * tile exactly as a split push would; aic_gather posts the lane's part to
 * both lanes and returns the merge of the two parts. */
#include <stdio.h>

#include "exec/machine_int.h"
#include "exec/op.h"

static int kw_int(const op_args *a, exec_kw k, int64_t dflt, int64_t *out)
{
    const value *v = op_kw(a, k);
    if (!v || v->kind == VAL_NONE) {
        *out = dflt;
        return 0;
    }
    return value_as_int(v, out);
}

static ptodb_status get_tile(exec_ctx *ctx, const op_args *a, const char *op, tensor **t)
{
    const value *v = op_arg(a, 0);
    if (!v || v->kind != VAL_TENSOR)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: expected a tile argument", op);
    *t = v->u.t;
    return PTODB_OK;
}

static tensor *clone_with_attrs(tensor *t)
{
    tensor *c = tensor_clone(t);
    tensor_copy_attrs(c, t);
    /* a queue keeps the data: the popped tile is what was pushed (prov.h) */
    c->prov = t->prov;
    c->prov_k = t->prov_k;
    c->prov_core = t->prov_core;
    return c;
}

/* A push releases the pusher's clock into its item, the pop that takes the
 * item acquires it: the happens-before edge of the GM race check
 * (exec/gmrace.h), for every item a pipe carries (tiles, fence tokens). */
static void push(exec_ctx *ctx, xqueue *q, value v)
{
    xq_push(q, v);
    if (ctx->core)
        gmrace_clock_release(&ctx->core->race_clock, ctx->core->id, xq_tail_stamp(q));
}

static value pop(exec_ctx *ctx, xqueue *q)
{
    if (ctx->core)
        gmrace_clock_acquire(&ctx->core->race_clock, xq_head_stamp(q));
    return xq_pop(q);
}

static ptodb_status block(exec_ctx *ctx, xqueue *q0, xqueue *q1, const char *what, int s, int lane)
{
    ctx->nwait = 0;
    if (q0 && q0->n == 0)
        ctx->wait[ctx->nwait++] = q0;
    if (q1 && q1->n == 0)
        ctx->wait[ctx->nwait++] = q1;
    for (int i = 0; i < ctx->nwait; i++)
        ctx->wait[i]->touched = 1; /* listed in a deadlock report */
    snprintf(ctx->wait_op, sizeof ctx->wait_op, "%s", what);
    snprintf(ctx->wait_args, sizeof ctx->wait_args, "split=%d, lane=%d", s, lane);
    snprintf(ctx->wait_what, sizeof ctx->wait_what, "%s", what);
    return PTODB_BLOCKED;
}

static int full(const xqueue *q)
{
    return q->limit && q->n >= q->limit;
}

/* A push to a bounded queue that is full waits for room (--slot-depth). */
static ptodb_status block_full(exec_ctx *ctx, xqueue *q0, xqueue *q1, const char *what, int s,
                               int lane)
{
    ctx->nwait = 0;
    ctx->wait_room = 1;
    if (q0 && full(q0))
        ctx->wait[ctx->nwait++] = q0;
    if (q1 && full(q1))
        ctx->wait[ctx->nwait++] = q1;
    snprintf(ctx->wait_op, sizeof ctx->wait_op, "%s", what);
    snprintf(ctx->wait_args, sizeof ctx->wait_args, "split=%d, lane=%d, queue full", s, lane);
    snprintf(ctx->wait_what, sizeof ctx->wait_what, "%s", what);
    return PTODB_BLOCKED;
}

static xrt *rt_of(exec_ctx *ctx)
{
    return ctx->core->rt;
}

/* The pipe of a tpush/tpop: its id= under device semantics (a FIFO of its
 * own per id), pipe 0 under ref, which has one FIFO set and ignores id
 * (pypto python/pypto/debug/torch_codegen.py:769-787). NULL on a bad id. */
static xpipe *pipe_of(exec_ctx *ctx, const op_args *a, const char *op)
{
    xrt *rt = rt_of(ctx);
    if (!exec_device(ctx))
        return &rt->p[0];
    int64_t id;
    if (kw_int(a, EXEC_KW_ID, 0, &id)) {
        exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: id must be an int", op);
        return NULL;
    }
    if (id < 0 || id >= XRT_NPIPES) {
        exec_fail(ctx, PTODB_ERR_UNSUPPORTED, "%s: pipe id=%lld: ptodb models the ids 0..%d", op, (long long)id,
                  XRT_NPIPES - 1);
        return NULL;
    }
    if (id != 0)
        exec_note_ref_differs(ctx, EXEC_SEMDIFF_PIPE_ID,
                              "a pipe with id= is a FIFO of its own (REF would compute: every id shares one FIFO, "
                              "so pops take the pushes of other ids in push order)");
    return &rt->p[id];
}

/* Splits t along split s into the lane queues q0 and q1 (a Cube -> Vector
 * push, or the whole vector side's push of a split kernel not yet halved). */
static ptodb_status split_push(exec_ctx *ctx, tensor *t, int s, int64_t stride, xqueue *q0, xqueue *q1,
                               const char *what)
{
    if (full(q0) || full(q1))
        return block_full(ctx, q0, q1, what, s, exec_lane(ctx));
    tensor *p0, *p1;
    strbuf err = STRBUF_INIT;
    if (xcore_split(t, s, stride, &p0, &p1, &err) != 0) {
        ptodb_status st = exec_fail(ctx, PTODB_ERR_RUNTIME, "%s", strbuf_str(&err));
        strbuf_free(&err);
        return st;
    }
    strbuf_free(&err);
    exec_prov_share(ctx, t, p0, s, stride, 0);
    exec_prov_share(ctx, t, p1, s, stride, 1);
    push(ctx, q0, value_tensor(p0));
    push(ctx, q1, value_tensor(p1));
    return PTODB_OK;
}

/* Pops one part from each lane queue and returns their merge along split s
 * (a Vector -> Cube pop, or the whole vector side's pop of a split kernel
 * not yet halved). */
static ptodb_status merge_pop(exec_ctx *ctx, xqueue *q0, xqueue *q1, int s, const char *what, value *out)
{
    if (q0->n == 0 || q1->n == 0)
        return block(ctx, q0, q1, what, s, exec_lane(ctx));
    value p0 = pop(ctx, q0), p1 = pop(ctx, q1);
    strbuf err = STRBUF_INIT;
    tensor *m = xcore_merge(p0.u.t, p1.u.t, s, &err);
    exec_prov_merge(ctx, p0.u.t, p1.u.t, s, m);
    value_clear(&p0);
    value_clear(&p1);
    if (!m) {
        ptodb_status st = exec_fail(ctx, PTODB_ERR_RUNTIME, "%s", strbuf_str(&err));
        strbuf_free(&err);
        return st;
    }
    strbuf_free(&err);
    *out = value_tensor(m);
    return PTODB_OK;
}

/* The core is the whole vector side of a split kernel SplitVectorKernel
 * has not halved yet (machine.c's group start): its split pushes and pops
 * carry both lanes' halves. */
static int whole(const exec_ctx *ctx)
{
    return ctx->core && ctx->core->whole;
}

static ptodb_status op_tpush_to_aiv(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t = NULL;
    ptodb_status st = get_tile(ctx, a, "tpush_to_aiv", &t);
    if (st != PTODB_OK)
        return st;
    int64_t s, stride;
    if (kw_int(a, EXEC_KW_SPLIT, 0, &s) || kw_int(a, EXEC_KW_LANE_STRIDE, 0, &stride))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "TypeError: split and lane_stride must be ints");
    xrt *rt = rt_of(ctx);
    xpipe *p = pipe_of(ctx, a, "tpush_to_aiv");
    if (!p)
        return PTODB_ERR_RUNTIME;
    *out = value_none();
    if (s == 0) {
        if (rt->dual_nosplit && (full(&p->to_aiv_dual[0]) || full(&p->to_aiv_dual[1])))
            return block_full(ctx, &p->to_aiv_dual[0], &p->to_aiv_dual[1], "tpush_to_aiv", 0, exec_lane(ctx));
        if (!rt->dual_nosplit && full(&p->to_aiv))
            return block_full(ctx, &p->to_aiv, NULL, "tpush_to_aiv", 0, exec_lane(ctx));
        if (rt->dual_nosplit) {
            push(ctx, &p->to_aiv_dual[0], value_tensor(clone_with_attrs(t)));
            push(ctx, &p->to_aiv_dual[1], value_tensor(clone_with_attrs(t)));
        } else {
            push(ctx, &p->to_aiv, value_tensor(clone_with_attrs(t)));
        }
        return PTODB_OK;
    }
    if (s < 1 || s > 4)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "ValueError: Unsupported split mode for push_to_aiv: %lld",
                         (long long)s);
    return split_push(ctx, t, (int)s, stride, &p->to_aiv_split[s][0], &p->to_aiv_split[s][1], "tpush_to_aiv");
}

static ptodb_status op_tpop_from_aic(exec_ctx *ctx, const op_args *a, value *out)
{
    int64_t s;
    if (kw_int(a, EXEC_KW_SPLIT, 0, &s))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "TypeError: split must be an int");
    xrt *rt = rt_of(ctx);
    xpipe *p = pipe_of(ctx, a, "tpop_from_aic");
    if (!p)
        return PTODB_ERR_RUNTIME;
    int lane = exec_lane(ctx);
    xqueue *q;
    if (s == 0)
        q = rt->dual_nosplit ? &p->to_aiv_dual[lane] : &p->to_aiv;
    else if (s >= 1 && s <= 4 && whole(ctx))
        return merge_pop(ctx, &p->to_aiv_split[s][0], &p->to_aiv_split[s][1], (int)s, "tpop_from_aic", out);
    else if (s >= 1 && s <= 4)
        q = &p->to_aiv_split[s][lane];
    else
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "ValueError: Unsupported split mode for pop_from_aic: %lld",
                         (long long)s);
    if (q->n == 0)
        return block(ctx, q, NULL, "tpop_from_aic", (int)s, lane);
    *out = pop(ctx, q);
    return PTODB_OK;
}

static ptodb_status op_tpush_to_aic(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t = NULL;
    ptodb_status st = get_tile(ctx, a, "tpush_to_aic", &t);
    if (st != PTODB_OK)
        return st;
    int64_t s;
    if (kw_int(a, EXEC_KW_SPLIT, 0, &s))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "TypeError: split must be an int");
    xrt *rt = rt_of(ctx);
    xpipe *p = pipe_of(ctx, a, "tpush_to_aic");
    if (!p)
        return PTODB_ERR_RUNTIME;
    int lane = exec_lane(ctx);
    *out = value_none();
    xqueue *q;
    if (s == 0)
        q = rt->dual_nosplit ? &p->to_aic_dual[lane] : &p->to_aic;
    else if ((s == 1 || s == 2) && whole(ctx))
        return split_push(ctx, t, (int)s, 0, &p->to_aic_split[s][0], &p->to_aic_split[s][1], "tpush_to_aic");
    else if (s == 1 || s == 2)
        q = &p->to_aic_split[s][lane];
    else
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "ValueError: Unsupported split mode for push_to_aic: %lld",
                         (long long)s);
    if (full(q))
        return block_full(ctx, q, NULL, "tpush_to_aic", (int)s, lane);
    push(ctx, q, value_tensor(clone_with_attrs(t)));
    return PTODB_OK;
}

static ptodb_status op_tpop_from_aiv(exec_ctx *ctx, const op_args *a, value *out)
{
    int64_t s;
    if (kw_int(a, EXEC_KW_SPLIT, 0, &s))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "TypeError: split must be an int");
    xrt *rt = rt_of(ctx);
    xpipe *p = pipe_of(ctx, a, "tpop_from_aiv");
    if (!p)
        return PTODB_ERR_RUNTIME;
    int lane = exec_lane(ctx);
    if (s == 0 && !rt->dual_nosplit) {
        if (p->to_aic.n == 0)
            return block(ctx, &p->to_aic, NULL, "tpop_from_aiv", 0, lane);
        *out = pop(ctx, &p->to_aic);
        return PTODB_OK;
    }
    if (s == 0) { /* both lanes take part; the cube gets lane 0's tile */
        xqueue *q0 = &p->to_aic_dual[0], *q1 = &p->to_aic_dual[1];
        if (q0->n == 0 || q1->n == 0)
            return block(ctx, q0, q1, "tpop_from_aiv", 0, lane);
        value p1 = pop(ctx, q1);
        value_clear(&p1);
        *out = pop(ctx, q0);
        return PTODB_OK;
    }
    if (s != 1 && s != 2)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "ValueError: Unsupported split mode for pop_from_aiv: %lld",
                         (long long)s);
    return merge_pop(ctx, &p->to_aic_split[s][0], &p->to_aic_split[s][1], (int)s, "tpop_from_aiv", out);
}

static ptodb_status op_get_subblock_idx(exec_ctx *ctx, const op_args *a, value *out)
{
    (void)a;
    *out = value_int(exec_lane(ctx));
    return PTODB_OK;
}

static ptodb_status op_aiv_shard(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t = NULL;
    ptodb_status st = get_tile(ctx, a, "aiv_shard", &t);
    if (st != PTODB_OK)
        return st;
    int64_t s, stride;
    if (kw_int(a, EXEC_KW_SPLIT, 0, &s) || kw_int(a, EXEC_KW_LANE_STRIDE, 0, &stride))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "split and lane_stride must be ints");
    if (s == 0) {
        *out = value_tensor(tensor_ref(t));
        return PTODB_OK;
    }
    if (s < 1 || s > 4)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "unsupported split mode %lld", (long long)s);
    tensor *p0, *p1;
    strbuf err = STRBUF_INIT;
    if (xcore_split(t, (int)s, stride, &p0, &p1, &err) != 0) {
        st = exec_fail(ctx, PTODB_ERR_RUNTIME, "%s", strbuf_str(&err));
        strbuf_free(&err);
        return st;
    }
    strbuf_free(&err);
    if (exec_lane(ctx) == 0) {
        *out = value_tensor(p0);
        tensor_unref(p1);
    } else {
        *out = value_tensor(p1);
        tensor_unref(p0);
    }
    return PTODB_OK;
}

static ptodb_status op_aic_gather(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t = NULL;
    ptodb_status st = get_tile(ctx, a, "aic_gather", &t);
    if (st != PTODB_OK)
        return st;
    int64_t s;
    if (kw_int(a, EXEC_KW_SPLIT, 0, &s))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "split must be an int");
    if (s == 0) {
        *out = value_tensor(tensor_ref(t));
        return PTODB_OK;
    }
    if (s != 1 && s != 2)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "unsupported split mode %lld for aic_gather",
                         (long long)s);
    xrt *rt = rt_of(ctx);
    int lane = exec_lane(ctx);
    /* post this lane's part once per gather (a re-run after BLOCKED does not
     * post again) */
    if (rt->gather_posted[lane] == rt->gather_taken[lane]) {
        push(ctx, &rt->gather[lane][0], value_tensor(clone_with_attrs(t)));
        push(ctx, &rt->gather[lane][1], value_tensor(clone_with_attrs(t)));
        rt->gather_posted[lane]++;
    }
    xqueue *q0 = &rt->gather[0][lane], *q1 = &rt->gather[1][lane];
    if (q0->n == 0 || q1->n == 0)
        return block(ctx, q0, q1, "aic_gather", (int)s, lane);
    value p0 = pop(ctx, q0), p1 = pop(ctx, q1);
    rt->gather_taken[lane]++;
    strbuf err = STRBUF_INIT;
    tensor *m = xcore_merge(p0.u.t, p1.u.t, (int)s, &err);
    exec_prov_merge(ctx, p0.u.t, p1.u.t, (int)s, m);
    value_clear(&p0);
    value_clear(&p1);
    if (!m) {
        st = exec_fail(ctx, PTODB_ERR_RUNTIME, "%s", strbuf_str(&err));
        strbuf_free(&err);
        return st;
    }
    strbuf_free(&err);
    *out = value_tensor(m);
    return PTODB_OK;
}

void exec_ops_register_xcore(op_fn *table)
{
    table[IR_OP_TILE_TPUSH_TO_AIV] = op_tpush_to_aiv;
    table[IR_OP_TILE_TPUSH_TO_AIC] = op_tpush_to_aic;
    table[IR_OP_TILE_TPOP_FROM_AIC] = op_tpop_from_aic;
    table[IR_OP_TILE_TPOP_FROM_AIV] = op_tpop_from_aiv;
    if (!table[IR_OP_TILE_GET_SUBBLOCK_IDX])
        table[IR_OP_TILE_GET_SUBBLOCK_IDX] = op_get_subblock_idx;
    /* REF has no tensor form; it is the tile form's lane (docs/ops.md) */
    table[IR_OP_TENSOR_GET_SUBBLOCK_IDX] = op_get_subblock_idx;
    table[IR_OP_TILE_AIV_SHARD] = op_aiv_shard;
    table[IR_OP_TILE_AIC_GATHER] = op_aic_gather;
    table[IR_OP_TENSOR_AIV_SHARD] = op_aiv_shard; /* the tensor forms (before pass 11) */
    table[IR_OP_TENSOR_AIC_GATHER] = op_aic_gather;
}

/* The multi-rank ops (pld.*, builtin.tensor.*) by PyPTO's definitions
 * (src/ir/op/distributed/, docs/en/dev/distributed_ops.md; docs/ops.md,
 * "Multi-rank ops"). They see other ranks only through the machine's
 * exec_comm (exec/comm.h): a window tensor's view on a peer, the comm
 * domains, the host's dispatch queue and the collectives' rendezvous. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "exec/comm.h"
#include "exec/op_util.h"

/* tile.load and tile.store, which remote_load / remote_store are on a peer's
 * view (captured at registration: the comm ops register last). */
static op_fn tile_load_fn, tile_store_fn;

static ptodb_status need_comm(exec_ctx *ctx, const op_args *a, const exec_comm **out)
{
    *out = exec_comm_of(ctx);
    if (!*out)
        return exec_fail(ctx, PTODB_ERR_UNSUPPORTED,
                         "%s needs several ranks: run the case with its ranks.txt and data/in/rank<R>/ "
                         "(docs/multirank.md)",
                         kernel_op_name(a));
    return PTODB_OK;
}

static ptodb_status need_rank(exec_ctx *ctx, const op_args *a, const exec_comm *w)
{
    if (w->rank < 0)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s runs on a device: the host orchestrator has no rank",
                         kernel_op_name(a));
    return PTODB_OK;
}

static ptodb_status hook_fail(exec_ctx *ctx, const op_args *a, ptodb_status st, const char *err)
{
    return exec_fail(ctx, st, "%s: %s", kernel_op_name(a), err);
}

static ptodb_status peer_of(exec_ctx *ctx, const op_args *a, const exec_comm *w, const tensor *t, uint32_t peer_arg,
                            tensor **out)
{
    const value *pv;
    int64_t peer;
    ptodb_status st = kernel_any_arg(ctx, a, peer_arg, &pv);
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, pv, "peer", &peer);
    if (st != PTODB_OK)
        return st;
    char err[300] = "";
    st = w->peer_view(w->ud, w->rank, t, peer, out, err, sizeof err);
    return st == PTODB_OK ? PTODB_OK : hook_fail(ctx, a, st, err);
}

/* The INT32 cell of signal at offsets (a 0-d view). */
static ptodb_status cell_of(exec_ctx *ctx, const op_args *a, tensor *t, const value *offv, tensor **out)
{
    int64_t off[TENSOR_MAX_DIMS];
    int n;
    ptodb_status st = kernel_int_list(ctx, a, offv, "offsets", off, &n);
    if (st != PTODB_OK)
        return st;
    if (n != t->ndim)
        return exec_fail(ctx, PTODB_ERR_SHAPE, "%s: %d offsets for a signal of %d dims", kernel_op_name(a), n,
                         t->ndim);
    int64_t at = t->offset;
    for (int d = 0; d < n; d++) {
        if (off[d] < 0 || off[d] >= t->shape[d])
            return exec_fail(ctx, PTODB_ERR_BOUNDS,
                             "%s: signal offset %lld is outside dimension %d of size %lld (out of bounds)",
                             kernel_op_name(a), (long long)off[d], d, (long long)t->shape[d]);
        at += off[d] * t->strides[d];
    }
    ptodb_status vs;
    *out = tensor_view(t, 0, NULL, NULL, at, &vs);
    if (!*out)
        return exec_fail(ctx, vs, "%s: the signal cell is outside its window", kernel_op_name(a));
    return PTODB_OK;
}

static void note_access(exec_ctx *ctx, const op_args *a, const exec_comm *w, const tensor *view, int write,
                        int atomic)
{
    if (!w->note_access || !view)
        return;
    int line, col;
    exec_stmt_loc(ctx, &line, &col);
    w->note_access(w->ud, w->rank, view, write, atomic, line, col, kernel_op_name(a));
}

/* The region of t an offsets/shape pair names (for the race check), or NULL. */
static tensor *region_of(exec_ctx *ctx, const tensor *t, const value *offv, const int64_t *shape, int nshape)
{
    int64_t off[TENSOR_MAX_DIMS];
    int n;
    op_args none = {0};
    if (kernel_int_list(ctx, &none, offv, "offsets", off, &n) != PTODB_OK || n > nshape)
        return NULL;
    tensor *v = NULL;
    return kernel_slice_view(ctx, t, n, off, shape, &v) == PTODB_OK ? v : NULL;
}

/* ---- system ---------------------------------------------------------------- */

static ptodb_status op_world_size(exec_ctx *ctx, const op_args *a, value *out)
{
    const exec_comm *w;
    ptodb_status st = need_comm(ctx, a, &w);
    if (st == PTODB_OK)
        *out = value_int(w->world_size);
    return st;
}

static ptodb_status op_get_comm_ctx(exec_ctx *ctx, const op_args *a, value *out)
{
    const exec_comm *w;
    tensor *t;
    ptodb_status st = need_comm(ctx, a, &w);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 0, &t);
    if (st != PTODB_OK)
        return st;
    int d;
    char err[300] = "";
    st = w->domain_of(w->ud, w->rank, t, &d, err, sizeof err);
    if (st != PTODB_OK)
        return hook_fail(ctx, a, st, err);
    *out = value_int(d); /* a CommCtx is its domain; the rank comes from the machine */
    return PTODB_OK;
}

static ptodb_status domain_arg(exec_ctx *ctx, const op_args *a, const exec_comm **w, int *d)
{
    const value *v;
    int64_t i = -1;
    ptodb_status st = need_comm(ctx, a, w);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 0, &v);
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, v, "comm context", &i);
    if (st == PTODB_OK && (i < 0 || (*w)->domain_size((*w)->ud, (int)i) <= 0))
        st = exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: not a comm context", kernel_op_name(a));
    *d = (int)i;
    return st;
}

static ptodb_status op_rank(exec_ctx *ctx, const op_args *a, value *out)
{
    const exec_comm *w;
    int d;
    ptodb_status st = domain_arg(ctx, a, &w, &d);
    if (st == PTODB_OK)
        st = need_rank(ctx, a, w);
    if (st != PTODB_OK)
        return st;
    int r = w->domain_rank(w->ud, d, w->rank);
    if (r < 0)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: this device is not a member of the comm domain",
                         kernel_op_name(a));
    *out = value_tensor(tensor_scalar(DTYPE_INT32, r)); /* Scalar[INT32] (get_comm_ctx.cpp:108) */
    return PTODB_OK;
}

static ptodb_status op_nranks(exec_ctx *ctx, const op_args *a, value *out)
{
    const exec_comm *w;
    int d;
    ptodb_status st = domain_arg(ctx, a, &w, &d);
    if (st == PTODB_OK)
        *out = value_tensor(tensor_scalar(DTYPE_INT32, w->domain_size(w->ud, d))); /* get_comm_ctx.cpp:124 */
    return st;
}

/* The common operands of notify and wait: the world and this rank, the
 * signal tensor (argument 0), the offsets (argument at) and the integer
 * after them (value / expected, named what). */
static ptodb_status signal_args(exec_ctx *ctx, const op_args *a, uint32_t at, const char *what,
                                const exec_comm **w, tensor **t, const value **offv, int64_t *v)
{
    const value *vv;
    ptodb_status st = need_comm(ctx, a, w);
    if (st == PTODB_OK)
        st = need_rank(ctx, a, *w);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 0, t);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, at, offv);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, at + 1, &vv);
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, vv, what, v);
    return st;
}

/* pld.system.notify(target, peer, offsets, value, *, op): the peer's INT32
 * cell += value (AtomicAdd, 0) or = value (Set, 1); system.cpp:210,
 * pto-isa TNotify.hpp:46-57. */
static ptodb_status op_notify(exec_ctx *ctx, const op_args *a, value *out)
{
    const exec_comm *w;
    tensor *t, *remote = NULL, *cell = NULL;
    const value *offv;
    int64_t val;
    ptodb_status st = signal_args(ctx, a, 2, "value", &w, &t, &offv, &val);
    if (st == PTODB_OK)
        st = peer_of(ctx, a, w, t, 1, &remote);
    if (st == PTODB_OK)
        st = cell_of(ctx, a, remote, offv, &cell);
    if (st == PTODB_OK) {
        int op = (int)kernel_int_kw(a, EXEC_KW_OP, EXEC_NOTIFY_ATOMIC_ADD);
        int64_t cur = tensor_get_i64(cell, NULL);
        int64_t next = op == EXEC_NOTIFY_SET ? val : cur + val;
        int line, col;
        exec_stmt_loc(ctx, &line, &col);
        int64_t peer = 0;
        kernel_int(ctx, a, op_arg(a, 1), "peer", &peer);
        /* before the write: the notify releases what this rank did so far */
        if (w->note_notify)
            w->note_notify(w->ud, w->rank, cell, peer, val, op, line, col);
        tensor_set_i64(cell, NULL, (int32_t)(uint32_t)next); /* an INT32 cell wraps */
        exec_note_write(ctx, remote);
        *out = value_none();
    }
    tensor_unref(cell);
    tensor_unref(remote);
    return st;
}

/* pld.system.wait(signal, offsets, expected, *, cmp): the local cell == (Eq,
 * 0) or >= (Ge, 1) expected, else the kernel parks here (TWAIT polls;
 * system.cpp:241). pld.system.defer_wait (system.cpp:255-298,
 * distributed_ops.md:603-642) is Ge with an unsigned compare that does not
 * block: an unsatisfied condition is registered on the rank's running task,
 * whose completion (what its dependents wait for) the world withholds until
 * the cell reaches it; the kernel goes on and retires, freeing its core. */
static ptodb_status wait_common(exec_ctx *ctx, const op_args *a, value *out, int deferred)
{
    const exec_comm *w;
    tensor *t, *cell = NULL;
    const value *offv;
    int64_t expected;
    ptodb_status st = signal_args(ctx, a, 1, "expected", &w, &t, &offv, &expected);
    if (st == PTODB_OK)
        st = cell_of(ctx, a, t, offv, &cell);
    if (st != PTODB_OK)
        return st;
    int cmp = deferred ? EXEC_WAIT_GE : (int)kernel_int_kw(a, EXEC_KW_CMP, EXEC_WAIT_EQ);
    int64_t cur = tensor_get_i64(cell, NULL);
    int ok = cmp == EXEC_WAIT_EQ ? cur == expected
             : deferred          ? (uint32_t)cur >= (uint32_t)expected
                                 : cur >= expected;
    if (!ok && deferred && w->defer_wait) {
        int line, col;
        exec_stmt_loc(ctx, &line, &col);
        char err[300] = "";
        st = w->defer_wait(w->ud, w->rank, cell, expected, line, col, err, sizeof err);
        tensor_unref(cell);
        if (st != PTODB_OK)
            return hook_fail(ctx, a, st, err);
        *out = value_none();
        return PTODB_OK;
    }
    if (!ok) {
        int line, col;
        exec_stmt_loc(ctx, &line, &col);
        if (w->note_wait)
            w->note_wait(w->ud, w->rank, cell, expected, cmp, line, col);
        tensor_unref(cell);
        exec_block_external(ctx, kernel_op_name(a));
        return PTODB_BLOCKED;
    }
    if (w->note_acquire)
        w->note_acquire(w->ud, w->rank, cell);
    tensor_unref(cell);
    *out = value_none();
    return PTODB_OK;
}

static ptodb_status op_wait(exec_ctx *ctx, const op_args *a, value *out)
{
    return wait_common(ctx, a, out, 0);
}

static ptodb_status op_defer_wait(exec_ctx *ctx, const op_args *a, value *out)
{
    return wait_common(ctx, a, out, 1);
}

/* ---- windows ------------------------------------------------------------- */

static ptodb_status op_alloc_window_buffer(exec_ctx *ctx, const op_args *a, value *out)
{
    const exec_comm *w;
    const value *v;
    int64_t bytes, h;
    ptodb_status st = need_comm(ctx, a, &w);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 0, &v);
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, v, "size", &bytes);
    if (st != PTODB_OK)
        return st;
    char err[300] = "";
    st = w->alloc_window(w->ud, bytes, &h, err, sizeof err);
    if (st != PTODB_OK)
        return hook_fail(ctx, a, st, err);
    *out = value_int(h);
    return PTODB_OK;
}

static ptodb_status op_window(exec_ctx *ctx, const op_args *a, value *out)
{
    const exec_comm *w;
    const value *bv, *sv;
    int64_t h, shape[TENSOR_MAX_DIMS];
    int nd;
    dtype_id dt;
    int present;
    ptodb_status st = need_comm(ctx, a, &w);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 0, &bv);
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, bv, "buffer", &h);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &sv);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, sv, "shape", shape, &nd);
    if (st == PTODB_OK)
        st = kernel_dtype_kw(ctx, a, EXEC_KW_DTYPE, DTYPE_FP32, &dt, &present);
    if (st != PTODB_OK)
        return st;
    tensor *t;
    char err[300] = "";
    st = w->window(w->ud, h, dt, nd, shape, &t, err, sizeof err);
    if (st != PTODB_OK)
        return hook_fail(ctx, a, st, err);
    *out = value_tensor(t);
    return PTODB_OK;
}

/* ---- remote access -------------------------------------------------------- */

/* pld.tile.remote_load(target, peer, offsets, shape[, valid_shape]): a
 * tile.load of the peer's view (remote_load.cpp:241). */
static ptodb_status op_remote_load(exec_ctx *ctx, const op_args *a, value *out)
{
    const exec_comm *w;
    tensor *t, *remote;
    ptodb_status st = need_comm(ctx, a, &w);
    if (st == PTODB_OK)
        st = need_rank(ctx, a, w);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 0, &t);
    if (st == PTODB_OK && a->npos < 4)
        st = exec_fail(ctx, PTODB_ERR_USAGE, "%s: needs target, peer, offsets and shape", kernel_op_name(a));
    if (st == PTODB_OK)
        st = peer_of(ctx, a, w, t, 1, &remote);
    if (st != PTODB_OK)
        return st;
    value pos[4] = {value_tensor(remote), a->pos[2], a->pos[3], a->npos > 4 ? a->pos[4] : a->pos[3]};
    op_args la = *a;
    la.pos = pos;
    la.npos = 4;
    exec_gm_hook_pause(ctx, 1);
    st = tile_load_fn(ctx, &la, out);
    exec_gm_hook_pause(ctx, 0);
    if (st == PTODB_OK && w->note_access) {
        int64_t shp[TENSOR_MAX_DIMS];
        int ns;
        if (kernel_int_list(ctx, a, &a->pos[3], "shape", shp, &ns) == PTODB_OK) {
            tensor *r = region_of(ctx, remote, &a->pos[2], shp, ns);
            note_access(ctx, a, w, r, 0, 0);
            tensor_unref(r);
        }
    }
    tensor_unref(remote);
    return st;
}

/* remote_store(src, target, peer, offsets, *, atomic): a tile.store into the
 * peer's view, += under atomic=Add (remote_store.cpp:236/269). */
static ptodb_status op_remote_store(exec_ctx *ctx, const op_args *a, value *out)
{
    const exec_comm *w;
    tensor *t, *remote;
    ptodb_status st = need_comm(ctx, a, &w);
    if (st == PTODB_OK)
        st = need_rank(ctx, a, w);
    if (st == PTODB_OK && a->npos < 4)
        st = exec_fail(ctx, PTODB_ERR_USAGE, "%s: needs src, target, peer and offsets", kernel_op_name(a));
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1, &t);
    if (st == PTODB_OK)
        st = peer_of(ctx, a, w, t, 2, &remote);
    if (st != PTODB_OK)
        return st;
    value pos[3] = {a->pos[0], a->pos[3], value_tensor(remote)};
    op_args sa = *a;
    sa.pos = pos;
    sa.npos = 3;
    value ignored = value_none();
    exec_gm_hook_pause(ctx, 1);
    st = tile_store_fn(ctx, &sa, &ignored);
    exec_gm_hook_pause(ctx, 0);
    value_clear(&ignored);
    if (st == PTODB_OK && w->note_access && a->pos[0].kind == VAL_TENSOR) {
        const tensor *src = a->pos[0].u.t;
        tensor *r = region_of(ctx, remote, &a->pos[3], src->shape, src->ndim);
        note_access(ctx, a, w, r, 1, kernel_int_kw(a, EXEC_KW_ATOMIC, 0) != 0);
        tensor_unref(r);
    }
    tensor_unref(remote);
    if (st == PTODB_OK)
        *out = value_none();
    return st;
}

/* put / get: dst <- src whole, or the region form (dst_offsets,
 * src_offsets, shape); += under atomic=Add (put.cpp:226/271, get.cpp). The
 * remote side is dst for put, src for get. region is the index of
 * dst_offsets among the positional args (3 for tensor.*, after the staging
 * tiles for tile.*). */
static ptodb_status transfer(exec_ctx *ctx, const op_args *a, value *out, int is_put, uint32_t region)
{
    const exec_comm *w;
    tensor *dst, *src, *remote = NULL, *dv = NULL, *sv = NULL;
    ptodb_status st = need_comm(ctx, a, &w);
    if (st == PTODB_OK)
        st = need_rank(ctx, a, w);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 0, &dst);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 2, &src);
    if (st == PTODB_OK)
        st = peer_of(ctx, a, w, is_put ? dst : src, 1, &remote);
    if (st != PTODB_OK)
        return st;
    tensor *to = is_put ? remote : dst, *from = is_put ? src : remote;
    if (a->npos >= region + 3) {
        int64_t doff[TENSOR_MAX_DIMS], soff[TENSOR_MAX_DIMS], shp[TENSOR_MAX_DIMS];
        int nd, ns, nh;
        st = kernel_int_list(ctx, a, &a->pos[region], "dst_offsets", doff, &nd);
        if (st == PTODB_OK)
            st = kernel_int_list(ctx, a, &a->pos[region + 1], "src_offsets", soff, &ns);
        if (st == PTODB_OK)
            st = kernel_int_list(ctx, a, &a->pos[region + 2], "shape", shp, &nh);
        for (int d = 0; st == PTODB_OK && d < nh; d++)
            if ((d < nd && (doff[d] < 0 || d >= to->ndim || doff[d] + shp[d] > to->shape[d])) ||
                (d < ns && (soff[d] < 0 || d >= from->ndim || soff[d] + shp[d] > from->shape[d])))
                st = exec_fail(ctx, PTODB_ERR_BOUNDS,
                               "%s: the transfer's dimension %d (offset + %lld) is out of bounds of its tensors",
                               kernel_op_name(a), d, (long long)shp[d]);
        if (st == PTODB_OK)
            st = kernel_slice_view(ctx, to, nd, doff, shp, &dv);
        if (st == PTODB_OK)
            st = kernel_slice_view(ctx, from, ns, soff, shp, &sv);
    } else {
        dv = tensor_ref(to);
        sv = tensor_ref(from);
        if (tensor_numel(dv) != tensor_numel(sv))
            st = exec_fail(ctx, PTODB_ERR_SHAPE, "%s: dst has %lld elements, src %lld", kernel_op_name(a),
                           (long long)tensor_numel(dv), (long long)tensor_numel(sv));
        else if (dv->ndim != sv->ndim) {
            ptodb_status rs;
            tensor *r = tensor_reshape(sv, dv->ndim, dv->shape, &rs);
            tensor_unref(sv);
            sv = r;
            if (!r)
                st = exec_fail(ctx, rs, "%s: cannot view src as dst's shape", kernel_op_name(a));
        }
    }
    if (st == PTODB_OK)
        st = kernel_assign(ctx, a, dv, sv, kernel_int_kw(a, EXEC_KW_ATOMIC, 0) != 0);
    if (st == PTODB_OK) {
        /* the race check's accesses, each of its exact region: the remote
         * side (a put's destination with its atomic flag, a get's source),
         * and the local side where it is a window (a put's source is a
         * read, a get's destination a write). A peer that is the calling
         * rank is no exception: one access of the region, as TPUT / TGET
         * copy it (pto-isa include/pto/comm/TPut.hpp), not a write of the
         * whole window. A transfer onto the same bytes (the same region of
         * the same window) leaves them as they were: a read. */
        int atomic = kernel_int_kw(a, EXEC_KW_ATOMIC, 0) != 0;
        int same = dv->storage == sv->storage && dv->offset == sv->offset && dv->ndim == sv->ndim &&
                   !memcmp(dv->shape, sv->shape, (size_t)dv->ndim * sizeof *dv->shape) &&
                   !memcmp(dv->strides, sv->strides, (size_t)dv->ndim * sizeof *dv->strides) && !atomic;
        note_access(ctx, a, w, sv, 0, 0);
        if (!same)
            note_access(ctx, a, w, dv, 1, is_put && atomic);
        exec_note_write(ctx, to);
        *out = value_none();
    }
    tensor_unref(dv);
    tensor_unref(sv);
    tensor_unref(remote);
    return st;
}

static ptodb_status op_tensor_put(exec_ctx *ctx, const op_args *a, value *out)
{
    return transfer(ctx, a, out, 1, 3);
}

static ptodb_status op_tensor_get(exec_ctx *ctx, const op_args *a, value *out)
{
    return transfer(ctx, a, out, 0, 3);
}

/* the tile forms: (dst, peer, src, stage[, stage2][, dst_off, src_off, shape]) */
static uint32_t tile_region(const op_args *a)
{
    return a->npos == 5 || a->npos >= 8 ? 5 : 4;
}

static ptodb_status op_tile_put(exec_ctx *ctx, const op_args *a, value *out)
{
    return transfer(ctx, a, out, 1, tile_region(a));
}

static ptodb_status op_tile_get(exec_ctx *ctx, const op_args *a, value *out)
{
    return transfer(ctx, a, out, 0, tile_region(a));
}

/* ---- collectives ------------------------------------------------------------ */

static int reduce_kw(const op_args *a)
{
    return (int)kernel_int_kw(a, EXEC_KW_OP, EXEC_REDUCE_SUM);
}

/* Fills call from the op's arguments: target, input, signal by position. */
static ptodb_status collective_args(exec_ctx *ctx, const op_args *a, exec_collective kind, int target_arg,
                                    int input_arg, int signal_arg, exec_collective_call *call)
{
    memset(call, 0, sizeof *call);
    call->kind = kind;
    call->op_name = kernel_op_name(a);
    call->reduce = reduce_kw(a);
    call->root = kernel_int_kw(a, EXEC_KW_ROOT, 0);
    exec_stmt_loc(ctx, &call->line, &call->col);
    ptodb_status st = PTODB_OK;
    if (target_arg >= 0)
        st = kernel_tensor_arg(ctx, a, (uint32_t)target_arg, &call->target);
    if (st == PTODB_OK && input_arg >= 0)
        st = kernel_tensor_arg(ctx, a, (uint32_t)input_arg, &call->input);
    if (st == PTODB_OK && signal_arg >= 0 && (uint32_t)signal_arg < a->npos)
        st = kernel_tensor_arg(ctx, a, (uint32_t)signal_arg, &call->signal);
    if (st == PTODB_OK && kind == EXEC_COLL_ALL_TO_ALL_V)
        st = kernel_tensor_arg(ctx, a, 3, &call->counts);
    if (st == PTODB_OK && kind == EXEC_COLL_ALL_TO_ALL_V)
        st = kernel_tensor_arg(ctx, a, 4, &call->recv_counts);
    return st;
}

/* A collective: in a rank's kernel a rendezvous (the op parks until every
 * member has arrived); in the host orchestrator one queued task per member
 * device (builtin.tensor.* with their device, an un-lowered pld.tensor.*
 * composite on all). Result: the target window (or None). */
static ptodb_status collective(exec_ctx *ctx, const op_args *a, value *out, exec_collective kind, int target_arg,
                               int input_arg, int signal_arg, int result_arg)
{
    const exec_comm *w;
    exec_collective_call call;
    ptodb_status st = need_comm(ctx, a, &w);
    if (st == PTODB_OK)
        st = collective_args(ctx, a, kind, target_arg, input_arg, signal_arg, &call);
    if (st != PTODB_OK)
        return st;
    char err[400] = "";
    if (w->rank < 0) {
        const value *dv = op_kw(a, EXEC_KW_DEVICE);
        int64_t dev = -1;
        if (dv && (st = kernel_int(ctx, a, dv, "device", &dev)) != PTODB_OK)
            return st;
        st = w->host_collective(w->ud, dev, &call, err, sizeof err);
    } else {
        int done = 0;
        st = w->collective(w->ud, w->rank, &call, &done, err, sizeof err);
        if (st == PTODB_OK && !done) {
            exec_block_external(ctx, kernel_op_name(a));
            return PTODB_BLOCKED;
        }
    }
    if (st != PTODB_OK)
        return hook_fail(ctx, a, st, err);
    *out = result_arg >= 0 ? value_copy(&a->pos[result_arg]) : value_none();
    return PTODB_OK;
}

static ptodb_status op_allreduce(exec_ctx *ctx, const op_args *a, value *out)
{
    return collective(ctx, a, out, EXEC_COLL_ALLREDUCE, 0, -1, 1, 0);
}

static ptodb_status op_barrier(exec_ctx *ctx, const op_args *a, value *out)
{
    return collective(ctx, a, out, EXEC_COLL_BARRIER, -1, -1, 0, 0);
}

static ptodb_status op_broadcast(exec_ctx *ctx, const op_args *a, value *out)
{
    return collective(ctx, a, out, EXEC_COLL_BROADCAST, 0, -1, 1, 0);
}

static ptodb_status op_allgather(exec_ctx *ctx, const op_args *a, value *out)
{
    return collective(ctx, a, out, EXEC_COLL_ALLGATHER, 1, 0, 2, 1);
}

static ptodb_status op_all_to_all(exec_ctx *ctx, const op_args *a, value *out)
{
    return collective(ctx, a, out, EXEC_COLL_ALL_TO_ALL, 1, 0, 2, 1);
}

/* all_to_all_v(input, target, signal, send_counts, recv_counts): the
 * collective with the counts (collective.cpp:565-720) */
static ptodb_status op_all_to_all_v(exec_ctx *ctx, const op_args *a, value *out)
{
    if (a->npos != 5)
        return exec_fail(ctx, PTODB_ERR_USAGE, "%s: needs input, target, signal, send_counts and recv_counts",
                         kernel_op_name(a));
    return collective(ctx, a, out, EXEC_COLL_ALL_TO_ALL_V, 1, 0, 2, 1);
}

static ptodb_status op_reduce_scatter(exec_ctx *ctx, const op_args *a, value *out)
{
    return collective(ctx, a, out, EXEC_COLL_REDUCE_SCATTER, 0, -1, 1, 0);
}

void exec_ops_register_comm(op_fn *table)
{
    tile_load_fn = table[IR_OP_TILE_LOAD];
    tile_store_fn = table[IR_OP_TILE_STORE];
    table[IR_OP_PLD_SYSTEM_WORLD_SIZE] = op_world_size;
    table[IR_OP_PLD_SYSTEM_GET_COMM_CTX] = op_get_comm_ctx;
    table[IR_OP_PLD_SYSTEM_RANK] = op_rank;
    table[IR_OP_PLD_SYSTEM_NRANKS] = op_nranks;
    table[IR_OP_PLD_SYSTEM_NOTIFY] = op_notify;
    table[IR_OP_PLD_SYSTEM_WAIT] = op_wait;
    table[IR_OP_PLD_SYSTEM_DEFER_WAIT] = op_defer_wait;
    table[IR_OP_PLD_TENSOR_ALLOC_WINDOW_BUFFER] = op_alloc_window_buffer;
    table[IR_OP_PLD_TENSOR_WINDOW] = op_window;
    table[IR_OP_PLD_TILE_REMOTE_LOAD] = op_remote_load;
    table[IR_OP_PLD_TILE_REMOTE_STORE] = op_remote_store;
    table[IR_OP_PLD_TENSOR_REMOTE_STORE] = op_remote_store;
    table[IR_OP_PLD_TENSOR_PUT] = op_tensor_put;
    table[IR_OP_PLD_TENSOR_GET] = op_tensor_get;
    table[IR_OP_PLD_TILE_PUT] = op_tile_put;
    table[IR_OP_PLD_TILE_GET] = op_tile_get;
    table[IR_OP_PLD_TENSOR_ALLREDUCE] = op_allreduce;
    table[IR_OP_PLD_TENSOR_BARRIER] = op_barrier;
    table[IR_OP_PLD_TENSOR_BROADCAST] = op_broadcast;
    table[IR_OP_PLD_TENSOR_ALLGATHER] = op_allgather;
    table[IR_OP_PLD_TENSOR_ALL_TO_ALL] = op_all_to_all;
    table[IR_OP_PLD_TENSOR_REDUCE_SCATTER] = op_reduce_scatter;
    table[IR_OP_BUILTIN_TENSOR_ALLREDUCE] = op_allreduce;
    table[IR_OP_BUILTIN_TENSOR_ALLREDUCE_RING] = op_allreduce;
    table[IR_OP_BUILTIN_TENSOR_BARRIER] = op_barrier;
    table[IR_OP_BUILTIN_TENSOR_BROADCAST] = op_broadcast;
    table[IR_OP_BUILTIN_TENSOR_ALLGATHER] = op_allgather;
    table[IR_OP_BUILTIN_TENSOR_ALL_TO_ALL] = op_all_to_all;
    table[IR_OP_PLD_TENSOR_ALL_TO_ALL_V] = op_all_to_all_v;
    table[IR_OP_BUILTIN_TENSOR_ALL_TO_ALL_V] = op_all_to_all_v;
    table[IR_OP_BUILTIN_TENSOR_REDUCE_SCATTER] = op_reduce_scatter;
}

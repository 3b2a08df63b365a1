/* Creation, memory and scalar access (semantics.md §3.7): create/full/alloc,
 * tile.load (zero padding, valid attrs), tile.store (valid region, atomic
 * add), move, read (0-d views), write, tensor.dim, get_block_idx. */
#include "exec/op_util.h"
#include "exec/semantics.h"

#include <string.h>

/* ---- create / full / alloc --------------------------------------------- */

static ptodb_status op_create(exec_ctx *ctx, const op_args *a, value *out)
{
    const value *sv;
    int64_t shape[TENSOR_MAX_DIMS];
    int nd;
    dtype_id dt;
    ptodb_status st = kernel_any_arg(ctx, a, 0, &sv);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, sv, "shape", shape, &nd);
    if (st == PTODB_OK)
        st = kernel_dtype_kw(ctx, a, EXEC_KW_DTYPE, DTYPE_FP32, &dt, NULL);
    if (st != PTODB_OK)
        return st;
    tensor *t;
    st = kernel_zeros(ctx, dt, nd, shape, &t);
    if (st == PTODB_OK)
        *out = value_tensor(t);
    return st;
}

static ptodb_status op_full(exec_ctx *ctx, const op_args *a, value *out)
{
    const value *sv, *vv = op_arg(a, 1);
    int64_t shape[TENSOR_MAX_DIMS];
    int nd;
    dtype_id dt;
    if (!vv)
        vv = op_kw(a, EXEC_KW_VALUE);
    if (!vv)
        return exec_fail(ctx, PTODB_ERR_USAGE, "%s: missing fill value", kernel_op_name(a));
    ptodb_status st = kernel_any_arg(ctx, a, 0, &sv);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, sv, "shape", shape, &nd);
    if (st == PTODB_OK)
        st = kernel_dtype_kw(ctx, a, EXEC_KW_DTYPE, DTYPE_FP32, &dt, NULL);
    if (st != PTODB_OK)
        return st;
    double f;
    int64_t i;
    st = kernel_checked_scalar(ctx, a, vv, dt, &f, &i);
    if (st != PTODB_OK)
        return st;
    tensor *t;
    st = kernel_zeros(ctx, dt, nd, shape, &t);
    if (st != PTODB_OK)
        return st;
    kernel_fill(t, f, i);
    *out = value_tensor(t);
    return PTODB_OK;
}

/* torch.zeros(a0, dtype=float32) with a0 the memory space's integer: a
 * placeholder whose result is an unchecked Ptr. The numbering follows
 * PyPTO's MemorySpace order as far as we know it (DDR 0, Vec 1, Mat 2,
 * Left 3, Right 4, Acc 5, Bias 6); nothing reads the contents.
 * tensor.alloc is the same registration for DDR ("Declare DDR memory
 * allocation, returning a Ptr", tensor_ops/memory.cpp): REF has no handler
 * for it, and ptodb gives it tile.alloc's, i.e. an empty placeholder. */
static ptodb_status op_alloc(exec_ctx *ctx, const op_args *a, value *out)
{
    const value *m;
    ptodb_status st = kernel_any_arg(ctx, a, 0, &m);
    if (st != PTODB_OK)
        return st;
    int64_t n = 0;
    if (m->kind == VAL_ENUM) {
        switch (m->u.e) {
        case IR_EV_MEM_DDR: n = 0; break;
        case IR_EV_MEM_VEC: n = 1; break;
        case IR_EV_MEM_MAT: n = 2; break;
        case IR_EV_MEM_LEFT: n = 3; break;
        case IR_EV_MEM_RIGHT: n = 4; break;
        case IR_EV_MEM_ACC: n = 5; break;
        case IR_EV_MEM_BIAS: n = 6; break;
        default: n = 7; break;
        }
    } else if ((st = kernel_int(ctx, a, m, "memory space", &n)) != PTODB_OK) {
        return st;
    }
    if (n < 0)
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: RuntimeError: Trying to create tensor with negative dimension %lld",
                         kernel_op_name(a), (long long)n);
    tensor *t;
    st = kernel_zeros(ctx, DTYPE_FP32, 1, &n, &t);
    if (st == PTODB_OK)
        *out = value_tensor(t);
    return st;
}

/* ---- load / store -------------------------------------------------------- */

/* REF's _tile_load, step by step (semantics.md §3.7). */
static ptodb_status op_load(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t;
    const value *ov, *sv, *vv;
    int64_t off[TENSOR_MAX_DIMS], shp[TENSOR_MAX_DIMS], vs[TENSOR_MAX_DIMS];
    int noff, nshp, nvs;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &t);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &ov);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 2, &sv);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 3, &vv);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, ov, "offsets", off, &noff);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, sv, "shapes", shp, &nshp);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, vv, "valid_shape", vs, &nvs);
    if (st != PTODB_OK)
        return st;
    for (int d = 0; d < nshp; d++)
        if (shp[d] < 0)
            return exec_fail(ctx, PTODB_ERR_SHAPE,
                             "%s: RuntimeError: Trying to create tensor with negative dimension "
                             "%lld",
                             kernel_op_name(a), (long long)shp[d]);
    /* 1. the in-bounds window (zip of offsets and shapes) */
    int k = noff < nshp ? noff : nshp;
    tensor *w, *buf;
    st = kernel_slice_view(ctx, t, k, off, shp, &w);
    if (st != PTODB_OK)
        return st;
    exec_note_gm_access(ctx, w, 0);
    int na = w->ndim;
    int64_t act[TENSOR_MAX_DIMS];
    memcpy(act, w->shape, sizeof act);
    /* 2. clone, zero-padded to shp when the window is short */
    if (!kernel_same_dims(na, act, nshp, shp)) {
        st = kernel_pad_copy(ctx, a, w, nshp, shp, &buf);
    } else if (tensor_numel(w) > KERNEL_MAX_ELEMS) {
        st = exec_fail(ctx, PTODB_ERR_UNSUPPORTED, "%s: window too large", kernel_op_name(a));
    } else {
        buf = tensor_clone(w);
        st = buf ? PTODB_OK : exec_fail(ctx, PTODB_ERR_NOMEM, "%s: out of memory", kernel_op_name(a));
    }
    tensor_unref(w);
    if (st != PTODB_OK)
        return st;
    /* 3. valid extent */
    int nv = nvs < na ? nvs : na;
    int64_t v[TENSOR_MAX_DIMS];
    for (int d = 0; d < nv; d++)
        v[d] = vs[d] < act[d] ? vs[d] : act[d];
    /* 4. zero everything outside the valid box */
    if (!kernel_same_dims(nv, v, nshp, shp)) {
        tensor *fresh, *dv = NULL, *sv2 = NULL;
        st = kernel_zeros(ctx, buf->dtype, nshp, shp, &fresh);
        if (st == PTODB_OK)
            st = kernel_head_view(ctx, buf, nv, v, &sv2);
        if (st == PTODB_OK)
            st = kernel_head_view(ctx, fresh, nv, v, &dv);
        if (st == PTODB_OK)
            st = kernel_assign(ctx, a, dv, sv2, 0);
        tensor_unref(dv);
        tensor_unref(sv2);
        tensor_unref(buf);
        if (st != PTODB_OK) {
            tensor_unref(fresh);
            return st;
        }
        buf = fresh;
    }
    /* 5. attrs */
    kernel_set_valid_full(buf, nv, v, nshp, shp);
    *out = value_tensor(buf);
    return PTODB_OK;
}

ptodb_status kernel_store_region(exec_ctx *ctx, const op_args *a, tensor *src, tensor *dst,
                                 const value *offv, int atomic)
{
    int64_t off[TENSOR_MAX_DIMS], v[TENSOR_MAX_DIMS];
    int noff, nv;
    ptodb_status st = kernel_int_list(ctx, a, offv, "offsets", off, &noff);
    if (st != PTODB_OK)
        return st;
    if (src->valid_ndim >= 0) {
        nv = src->valid_ndim;
        memcpy(v, src->valid, sizeof v);
    } else {
        nv = src->ndim;
        memcpy(v, src->shape, sizeof v);
    }
    if (src->valid_declared && nv == src->ndim) {
        int partial = 0;
        for (int d = 0; d < nv; d++)
            partial |= v[d] < src->shape[d];
        if (partial)
            exec_note_ref_differs(ctx, EXEC_SEMDIFF_VALID_SHAPE,
                                  "the store writes the valid region its tile's type declares (REF would "
                                  "compute the whole tile stored, padding included: its op result has no "
                                  "valid shape)");
    }
    tensor *sview, *dview;
    st = kernel_head_view(ctx, src, nv, v, &sview);
    if (st != PTODB_OK)
        return st;
    int k = noff < nv ? noff : nv;
    st = kernel_slice_view(ctx, dst, k, off, v, &dview);
    if (st == PTODB_OK) {
        exec_note_gm_access(ctx, dview, 1);
        st = kernel_assign(ctx, a, dview, sview, atomic);
        tensor_unref(dview);
        if (st == PTODB_OK)
            exec_note_write(ctx, dst);
    }
    tensor_unref(sview);
    return st;
}

static ptodb_status op_store(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *tile, *dst;
    const value *offv, *dstv;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &tile);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &offv);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 2, &dst);
    if (st != PTODB_OK)
        return st;
    dstv = op_arg(a, 2);
    st = kernel_store_region(ctx, a, tile, dst, offv, kernel_int_kw(a, EXEC_KW_ATOMIC, 0) != 0);
    if (st == PTODB_OK)
        *out = value_copy(dstv);
    return st;
}

/* ---- move / read / write / dim ------------------------------------------- */

static ptodb_status op_move(exec_ctx *ctx, const op_args *a, value *out)
{
    const value *v;
    ptodb_status st = kernel_any_arg(ctx, a, 0, &v);
    if (st == PTODB_OK)
        *out = value_copy(v);
    return st;
}

/* t[(i, j, ...)]: integer indexing of the leading dims, a view (0-d when
 * every dim is indexed). */
static ptodb_status index_view(exec_ctx *ctx, const op_args *a, tensor *t, const value *iv,
                               tensor **out)
{
    int64_t idx[TENSOR_MAX_DIMS];
    int n;
    ptodb_status st = kernel_int_list(ctx, a, iv, "indices", idx, &n);
    if (st != PTODB_OK)
        return st;
    if (n > t->ndim)
        return exec_fail(ctx, PTODB_ERR_BOUNDS,
                         "%s: IndexError: too many indices for tensor of dimension %d",
                         kernel_op_name(a), t->ndim);
    int64_t offset = t->offset;
    for (int d = 0; d < n; d++) {
        int64_t i = idx[d] < 0 ? idx[d] + t->shape[d] : idx[d];
        if (i < 0 || i >= t->shape[d])
            return exec_fail(ctx, PTODB_ERR_BOUNDS,
                             "%s: IndexError: index %lld is out of bounds for dimension %d with "
                             "size %lld",
                             kernel_op_name(a), (long long)idx[d], d, (long long)t->shape[d]);
        offset += i * t->strides[d];
    }
    ptodb_status vs;
    tensor *v = tensor_view(t, t->ndim - n, t->shape + n, t->strides + n, offset, &vs);
    if (!v)
        return exec_fail(ctx, vs, "%s: internal: index view outside storage", kernel_op_name(a));
    *out = v;
    return PTODB_OK;
}

static ptodb_status op_read(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t, *v;
    const value *iv;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &t);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &iv);
    if (st == PTODB_OK)
        st = index_view(ctx, a, t, iv, &v);
    if (st == PTODB_OK)
        *out = value_tensor(v);
    return st;
}

static ptodb_status op_write(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t, *v;
    const value *iv, *val;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &t);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &iv);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 2, &val);
    if (st == PTODB_OK)
        st = index_view(ctx, a, t, iv, &v);
    if (st != PTODB_OK)
        return st;
    if (val->kind == VAL_TENSOR) {
        /* setitem with a tensor is copy_: an unchecked cast */
        st = kernel_assign(ctx, a, v, val->u.t, 0);
    } else {
        double f;
        int64_t i;
        st = kernel_checked_scalar(ctx, a, val, t->dtype, &f, &i);
        if (st == PTODB_OK)
            kernel_fill(v, f, i);
    }
    tensor_unref(v);
    if (st != PTODB_OK)
        return st;
    exec_note_write(ctx, t);
    *out = value_copy(op_arg(a, 0));
    return PTODB_OK;
}

static ptodb_status op_dim(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t;
    const value *av;
    int64_t ax;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &t);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &av);
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, av, "axis", &ax);
    if (st != PTODB_OK)
        return st;
    int64_t d = ax < 0 ? ax + t->ndim : ax;
    if (d < 0 || d >= t->ndim)
        return exec_fail(ctx, PTODB_ERR_BOUNDS, "%s: IndexError: tuple index out of range",
                         kernel_op_name(a));
    *out = value_int(t->shape[d]);
    return PTODB_OK;
}

/* The running SPMD block (semantics.h, spmd-blocks): under ref always 0,
 * REF collapsing every block onto block 0. */
static ptodb_status op_block_idx(exec_ctx *ctx, const op_args *a, value *out)
{
    (void)a;
    *out = value_int(exec_device(ctx) ? exec_block_idx(ctx) : 0);
    return PTODB_OK;
}

static ptodb_status op_subblock_idx(exec_ctx *ctx, const op_args *a, value *out)
{
    (void)a;
    *out = value_int(exec_lane(ctx));
    return PTODB_OK;
}

void exec_ops_register_memory(op_fn *table)
{
    table[IR_OP_TENSOR_CREATE] = op_create;
    table[IR_OP_TILE_CREATE] = op_create;
    table[IR_OP_TENSOR_FULL] = op_full;
    table[IR_OP_TILE_FULL] = op_full;
    table[IR_OP_TILE_ALLOC] = op_alloc;
    table[IR_OP_TENSOR_ALLOC] = op_alloc;
    table[IR_OP_TILE_LOAD] = op_load;
    table[IR_OP_TILE_STORE] = op_store;
    table[IR_OP_TILE_MOVE] = op_move;
    table[IR_OP_TENSOR_READ] = op_read;
    table[IR_OP_TILE_READ] = op_read;
    table[IR_OP_TENSOR_WRITE] = op_write;
    table[IR_OP_TILE_WRITE] = op_write;
    table[IR_OP_TENSOR_DIM] = op_dim;
    table[IR_OP_TILE_GET_BLOCK_IDX] = op_block_idx;
    /* the machine's xcore_ops.c may register its own (it runs later) */
    table[IR_OP_TILE_GET_SUBBLOCK_IDX] = op_subblock_idx;
}

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

/* ---- N-D partitions (device semantics; semantics.h nd-partition) --------
 *
 * On the device a tile is 2-D and the tensor side of a TLOAD/TSTORE is a
 * GlobalTensor partition of the tensor's own rank: pto.partition_view of
 * the tensor at the offsets, sizes the partition, strides the tensor's
 * (pypto src/backend/common/pto_ops_memory.cpp:129-137 tile.load with the
 * valid_shape as sizes, :195-212 tile.store with FlattenTileNdTo2D's shapes
 * operand). pto-isa moves the tile's valid rows x columns, column c on the
 * partition's last axis and row r on the leading ones in row-major order
 * (include/pto/cpu/TLoad.hpp:152-158, TStore.hpp:62-75, tile_offsets.hpp:
 * 169-186 at cd4a3d3f: i3 = r % P3, i2 = (r / P3) % P2, ...). No axis but
 * the partition's bounds a row: a [6, 8] tile through the partition
 * [1, 6, 8] of a [2, 3, 8] tensor walks axis 1 past 3 into the next index of
 * axis 0, as the strides take it. */

/* The element offset of row r of a tile from the partition's origin, and in
 * *run how many rows from r on step along axis R-2 alone (one 2-D view). */
static int64_t nd_row_offset(int R, const int64_t *P, const int64_t *strides, int64_t r, int64_t *run)
{
    int64_t off = 0, rem = r;
    *run = INT64_MAX;
    for (int d = R - 2; d >= 1; d--) {
        int64_t i = rem % P[d];
        rem /= P[d];
        if (d == R - 2)
            *run = P[d] - i;
        off += i * strides[d];
    }
    return off + rem * strides[0];
}

static void nd_dims(char *buf, size_t n, int nd, const int64_t *d)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < nd && k + 1 < n; i++) {
        int w = snprintf(buf + k, n - k, "%s%lld", i ? ", " : "", (long long)d[i]);
        if (w < 0)
            break;
        k += (size_t)w;
    }
}

/* Moves vr x vc elements between tile2d (rows [0, vr)) and the partition P
 * of t whose origin is element base of t's storage: write 1 stores the tile
 * into t (atomic: adds), 0 loads t into the tile. Every element moved must
 * be one of t's (its address within t's span). */
static ptodb_status nd_transfer(exec_ctx *ctx, const op_args *a, tensor *t, int R, const int64_t *P,
                                int64_t base, tensor *tile2d, int64_t vr, int64_t vc, int write,
                                int atomic)
{
    if (vr <= 0 || vc <= 0)
        return PTODB_OK;
    int64_t hi = t->offset;
    for (int d = 0; d < R; d++)
        hi += (t->shape[d] - 1) * t->strides[d];
    for (int64_t r = 0; r < vr;) {
        int64_t run, o = base + nd_row_offset(R, P, t->strides, r, &run);
        int64_t n = run < vr - r ? run : vr - r;
        int64_t gshape[2] = {n, vc};
        int64_t gstr[2] = {t->strides[R - 2], t->strides[R - 1]};
        int64_t last = o + (n - 1) * gstr[0] + (vc - 1) * gstr[1];
        for (int d = 0; d < R; d++)
            if (t->shape[d] == 0)
                last = hi + 1;
        if (o < t->offset || last > hi) {
            char ps[160], ts[160];
            nd_dims(ps, sizeof ps, R, P);
            nd_dims(ts, sizeof ts, R, t->shape);
            return exec_fail(ctx, PTODB_ERR_BOUNDS,
                             "%s: row %lld of the tile's [%lld, %lld] through the partition [%s] "
                             "falls outside the tensor [%s]",
                             kernel_op_name(a), (long long)r, (long long)vr, (long long)vc, ps, ts);
        }
        ptodb_status vs;
        tensor *gv = tensor_view(t, 2, gshape, gstr, o, &vs);
        if (!gv)
            return exec_fail(ctx, vs, "%s: internal: partition view outside its storage",
                             kernel_op_name(a));
        tensor *tv = tensor_view(tile2d, 2, gshape, tile2d->strides,
                                 tile2d->offset + r * tile2d->strides[0], &vs);
        if (!tv) {
            tensor_unref(gv);
            return exec_fail(ctx, vs, "%s: internal: tile rows outside its storage", kernel_op_name(a));
        }
        exec_note_gm_access(ctx, gv, write ? (atomic ? 2 : 1) : 0);
        ptodb_status st = write ? kernel_assign(ctx, a, gv, tv, atomic) : kernel_assign(ctx, a, tv, gv, 0);
        tensor_unref(gv);
        tensor_unref(tv);
        if (st != PTODB_OK)
            return st;
        r += n;
    }
    return PTODB_OK;
}

/* The element offsets[...] of t, or -1 when an offset is negative. */
static int64_t nd_origin(const tensor *t, const int64_t *off)
{
    int64_t o = t->offset;
    for (int d = 0; d < t->ndim; d++) {
        if (off[d] < 0)
            return -1;
        o += off[d] * t->strides[d];
    }
    return o;
}

/* Under device semantics, FlattenTileNdTo2D's load: a window of rank > 2
 * whose result type is a 2-D tile (pypto src/ir/transforms/
 * flatten_tile_nd_to_2d/rewrite.cpp:666-700 keeps the tensor-rank window
 * and makes the result [prod(shapes[:-1]), shapes[-1]], valid
 * [prod(valid[:-1]), valid[-1]] (rewrite_utils.cpp:74-88, 117-136)). The
 * partition is the valid window, so the tile holds the valid box's rows in
 * row-major order, packed from row 0; the rest is zero. 1 when it applies
 * (*st set), 0 to run REF's _tile_load. */
static int nd_flat_load(exec_ctx *ctx, const op_args *a, tensor *t, int noff, const int64_t *off,
                        int nshp, const int64_t *shp, int nvs, const int64_t *vs, value *out,
                        ptodb_status *st)
{
    const exec_type *rt = a->result_type;
    int R = nshp;
    if (!exec_device(ctx) || !rt || rt->kind != EXEC_TYPE_TILE || rt->ndim != 2 || R <= 2 ||
        noff != R || nvs != R || t->ndim != R)
        return 0;
    int64_t M = tensor_shape_numel(R - 1, shp), N = shp[R - 1];
    if (M < 0 || (rt->dims[0] >= 0 && rt->dims[0] != M) || (rt->dims[1] >= 0 && rt->dims[1] != N))
        return 0;
    int64_t base = nd_origin(t, off);
    if (base < 0)
        return 0;
    int64_t v[TENSOR_MAX_DIMS], vr = 1;
    for (int d = 0; d < R; d++) {
        int64_t act = t->shape[d] - off[d];
        act = act < 0 ? 0 : act > shp[d] ? shp[d] : act;
        v[d] = vs[d] < 0 ? 0 : vs[d] < act ? vs[d] : act;
        if (d < R - 1)
            vr *= v[d];
    }
    int64_t tshape[2] = {M, N}, tvalid[2] = {vr, v[R - 1]};
    tensor *buf;
    *st = kernel_zeros(ctx, t->dtype, 2, tshape, &buf);
    if (*st != PTODB_OK)
        return 1;
    *st = nd_transfer(ctx, a, t, R, v, base, buf, vr, v[R - 1], 0, 0);
    if (*st != PTODB_OK) {
        tensor_unref(buf);
        return 1;
    }
    kernel_set_valid_full(buf, 2, tvalid, 2, tshape);
    exec_note_ref_differs(ctx, EXEC_SEMDIFF_ND_PARTITION,
                          "the 2-D tile holds the N-D window's valid rows in row-major order, as "
                          "TLOAD reads a tensor-rank partition (REF would fail: its tile keeps the "
                          "window's rank)");
    exec_note_ref_cannot_run(ctx, "tile.load: REF's _tile_load keeps the window's rank, and "
                                  "check_shapes raises on the 2-D tile type (AssertionError: Rank "
                                  "mismatch)");
    *out = value_tensor(buf);
    return 1;
}


/* REF's _tile_load, step by step (semantics.md §3.7); under device
 * semantics FlattenTileNdTo2D's N-D window into a 2-D tile is
 * nd_flat_load's. */
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
    if (nd_flat_load(ctx, a, t, noff, off, nshp, shp, nvs, vs, out, &st))
        return st;
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

/* Would REF's _tile_store / _assemble raise? It writes src[0:v] into
 * dst[o:o+v] over zip(offsets, v) (torch_codegen.py:530-539, 601-610):
 * torch's copy needs the source to broadcast to that region. */
static int ref_store_raises(const tensor *src, const tensor *dst, int noff, const int64_t *off)
{
    int nv = src->valid_ndim >= 0 ? src->valid_ndim : src->ndim;
    const int64_t *v = src->valid_ndim >= 0 ? src->valid : src->shape;
    int64_t rs[TENSOR_MAX_DIMS], ss[TENSOR_MAX_DIMS];
    int k = noff < nv ? noff : nv;
    if (nv > src->ndim || k > dst->ndim)
        return 0; /* not a case this check judges */
    for (int d = 0; d < dst->ndim; d++) {
        int64_t first, len = dst->shape[d];
        if (d < k)
            kernel_pyslice(dst->shape[d], off[d], off[d] + v[d], &first, &len);
        rs[d] = len;
    }
    for (int d = 0; d < src->ndim; d++)
        ss[d] = d < nv ? (v[d] < src->shape[d] ? v[d] : src->shape[d]) : src->shape[d];
    for (int i = 0; i < src->ndim; i++) {
        int64_t sd = ss[src->ndim - 1 - i];
        int td = dst->ndim - 1 - i;
        if (td < 0 ? sd != 1 : (sd != 1 && sd != rs[td]))
            return 1;
    }
    return 0;
}

/* Under device semantics, a store through an N-D partition (see
 * nd_transfer): tile.store with FlattenTileNdTo2D's shapes operand into a
 * tensor of rank > 2 (pypto src/backend/common/pto_ops_memory.cpp:195-212),
 * or a source of lower rank than such a tensor, whose partition
 * FlattenTileNdTo2D makes [1, .., 1] + the source's shape
 * (src/ir/transforms/flatten_tile_nd_to_2d/rewrite.cpp:811-828) and
 * FuseCreateAssembleToSlice makes the same of tensor.assemble
 * (docs/en/dev/passes/36-fuse_create_assemble_to_slice.md:45;
 * src/ir/op/tensor_ops/memory.cpp:424-430). The source is seen as its 2-D
 * tile [prod(shape[:-1]), shape[-1]] whose valid rows x columns move
 * (rewrite_utils.cpp:117-136). 1 when it applies (*st set). */
static int nd_store(exec_ctx *ctx, const op_args *a, tensor *src, tensor *dst, int noff,
                    const int64_t *off, int atomic, ptodb_status *st)
{
    int R = dst->ndim, r = src->ndim;
    int64_t P[TENSOR_MAX_DIMS];
    const value *shv = a->op == IR_OP_TILE_STORE ? op_arg(a, 3) : NULL;
    if (!exec_device(ctx) || R <= 2 || noff != R || r < 1)
        return 0;
    if (shv) {
        int np;
        if ((*st = kernel_int_list(ctx, a, shv, "shapes", P, &np)) != PTODB_OK)
            return 1;
        if (np != R) {
            *st = exec_fail(ctx, PTODB_ERR_SHAPE,
                            "%s: the shapes operand has %d dims, the tensor %d (PyPTO requires "
                            "the offsets' rank)",
                            kernel_op_name(a), np, R);
            return 1;
        }
    } else if (r < R && (a->op == IR_OP_TILE_STORE || a->op == IR_OP_TENSOR_ASSEMBLE)) {
        for (int d = 0; d < R; d++)
            P[d] = d < R - r ? 1 : src->shape[d - (R - r)];
    } else {
        return 0;
    }
    int64_t base = nd_origin(dst, off);
    if (base < 0)
        return 0;
    /* the source as its 2-D tile and valid extent */
    int64_t shp2[2], vr = 1, vc, pr = 1;
    const int64_t *v = src->valid_ndim == r ? src->valid : src->shape;
    shp2[0] = tensor_shape_numel(r - 1, src->shape);
    shp2[1] = src->shape[r - 1];
    for (int d = 0; d < r - 1; d++)
        vr *= v[d] < 0 ? 0 : v[d] < src->shape[d] ? v[d] : src->shape[d];
    vc = v[r - 1] < 0 ? 0 : v[r - 1] < shp2[1] ? v[r - 1] : shp2[1];
    for (int d = 0; d < R - 1; d++)
        pr *= P[d] < 0 ? 0 : P[d];
    if (vr > pr || vc > P[R - 1]) {
        char ps[160];
        nd_dims(ps, sizeof ps, R, P);
        *st = exec_fail(ctx, PTODB_ERR_SHAPE, "%s: the tile's valid [%lld, %lld] does not fit the partition [%s]",
                        kernel_op_name(a), (long long)vr, (long long)vc, ps);
        return 1;
    }
    ptodb_status vs = PTODB_OK;
    tensor *s2 = r == 2 ? tensor_ref(src) : tensor_reshape(src, 2, shp2, &vs);
    if (!s2) {
        *st = exec_fail(ctx, vs, "%s: internal: the source as a 2-D tile", kernel_op_name(a));
        return 1;
    }
    exec_note_ref_differs(ctx, EXEC_SEMDIFF_ND_PARTITION,
                          "the tile is written through the tensor-rank partition, its rows on the "
                          "leading axes in row-major order, as TSTORE writes it (REF pairs the "
                          "offsets with the tile's shape over the leading axes)");
    if (ref_store_raises(src, dst, noff, off))
        exec_note_ref_cannot_run(ctx, "tile.store / tensor.assemble: REF pairs the offsets with the "
                                      "source's shape over the tensor's leading axes and raises "
                                      "(RuntimeError: the expanded size of the tensor must match)");
    *st = nd_transfer(ctx, a, dst, R, P, base, s2, vr, vc, 1, atomic);
    tensor_unref(s2);
    if (*st == PTODB_OK)
        exec_note_write(ctx, dst);
    return 1;
}

ptodb_status kernel_store_region(exec_ctx *ctx, const op_args *a, tensor *src, tensor *dst,
                                 const value *offv, int atomic)
{
    int64_t off[TENSOR_MAX_DIMS], v[TENSOR_MAX_DIMS];
    int noff, nv;
    ptodb_status st = kernel_int_list(ctx, a, offv, "offsets", off, &noff);
    if (st != PTODB_OK)
        return st;
    if (nd_store(ctx, a, src, dst, noff, off, atomic, &st))
        return st;
    /* a source of higher rank whose extra leading axes are 1 (a [1, 16, 128]
     * matmul result assembled into a [16, 1024] tensor): the device moves
     * the same elements, the unit axes dropped (PyPTO's tensor.assemble
     * type deduction accepts it: pypto-lib's DeepSeek sparse attention) */
    tensor *squeezed = NULL;
    if (exec_device(ctx) && src->ndim > dst->ndim && dst->ndim >= 1) {
        int extra = src->ndim - dst->ndim, unit = 1;
        for (int d = 0; d < extra; d++)
            unit &= src->shape[d] == 1 && (src->valid_ndim != src->ndim || src->valid[d] == 1);
        ptodb_status vs;
        if (unit && (squeezed = tensor_reshape(src, dst->ndim, src->shape + extra, &vs)) != NULL) {
            if (src->valid_ndim == src->ndim) {
                squeezed->valid_ndim = dst->ndim;
                memcpy(squeezed->valid, src->valid + extra, (size_t)dst->ndim * sizeof *src->valid);
                squeezed->full_ndim = dst->ndim;
                memcpy(squeezed->full, src->shape + extra, (size_t)dst->ndim * sizeof *src->shape);
                squeezed->valid_declared = src->valid_declared;
            }
            src = squeezed;
        }
    }
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
    if (st != PTODB_OK) {
        if (squeezed)
            tensor_unref(squeezed);
        return st;
    }
    int k = noff < nv ? noff : nv;
    st = kernel_slice_view(ctx, dst, k, off, v, &dview);
    if (st == PTODB_OK) {
        exec_note_gm_access(ctx, dview, atomic ? 2 : 1);
        st = kernel_assign(ctx, a, dview, sview, atomic);
        tensor_unref(dview);
        if (st == PTODB_OK)
            exec_note_write(ctx, dst);
    }
    tensor_unref(sview);
    if (squeezed)
        tensor_unref(squeezed);
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

/* tile.move: the same elements in the target's buffer (TMOV). A tile is a
 * new object over the same bytes, so the target's placement (its MemRef,
 * exec_memcheck_assigned) is not written onto the source: a Mat tile moved
 * into Right in a loop stays in Mat for the next iteration's move. */
static ptodb_status op_move(exec_ctx *ctx, const op_args *a, value *out)
{
    const value *v;
    ptodb_status st = kernel_any_arg(ctx, a, 0, &v);
    if (st != PTODB_OK)
        return st;
    if (v->kind != VAL_TENSOR || !v->u.t) {
        *out = value_copy(v);
        return PTODB_OK;
    }
    tensor *t = tensor_alias(v->u.t, &st);
    if (!t)
        return exec_fail(ctx, st, "%s: out of memory", kernel_op_name(a));
    *out = value_tensor(t);
    return PTODB_OK;
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

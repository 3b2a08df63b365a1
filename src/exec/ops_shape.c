/* Shape, layout and region ops (semantics.md §3.8): slice/extract (views or
 * zero-padded copies), reshape, transpose, transpose_view, tensor.view,
 * concat, assemble, fillpad, scatter_update. */
#include "exec/op_util.h"
#include "exec/semantics.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "exec/comm.h"

/* REF's _tensor_slice: the window as a view, or a zero-padded copy of shape
 * when it overhangs. */
static ptodb_status slice_window(exec_ctx *ctx, const op_args *a, tensor *t, int noff,
                                 const int64_t *off, int nshp, const int64_t *shp, tensor **out)
{
    int k = noff < nshp ? noff : nshp;
    tensor *w;
    ptodb_status st = kernel_slice_view(ctx, t, k, off, shp, &w);
    if (st != PTODB_OK)
        return st;
    if (kernel_same_dims(w->ndim, w->shape, nshp, shp)) {
        *out = w;
        return PTODB_OK;
    }
    for (int d = 0; d < nshp; d++)
        if (shp[d] < 0) {
            tensor_unref(w);
            return exec_fail(ctx, PTODB_ERR_SHAPE,
                             "%s: RuntimeError: Trying to create tensor with negative dimension "
                             "%lld",
                             kernel_op_name(a), (long long)shp[d]);
        }
    st = kernel_pad_copy(ctx, a, w, nshp, shp, out);
    tensor_unref(w);
    return st;
}

/* The host orchestrator's tensor.slice is torch indexing of the host
 * tensor in the generated host_orch.py (PyPTO distributed_ops_codegen.cpp:
 * 403-470: offset[i] : offset[i] + shape[i], a drop_dims axis a scalar
 * index), a view the device writes in place: a window that leaves the host
 * tensor is an error (an IndexError, or a view shorter than the chip
 * function's parameter), never REF's zero-padded copy. */
static ptodb_status host_slice_in_range(exec_ctx *ctx, const op_args *a, const tensor *t, int noff,
                                        const int64_t *off, int nshp, const int64_t *shp)
{
    if (nshp != noff || nshp > t->ndim)
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: in the host orchestrator: a slice of %d shape and %d offset entries of a %d-d "
                         "host tensor",
                         kernel_op_name(a), nshp, noff, t->ndim);
    for (int d = 0; d < nshp; d++)
        if (off[d] < 0 || shp[d] < 0 || off[d] + shp[d] > t->shape[d])
            return exec_fail(ctx, PTODB_ERR_BOUNDS,
                             "%s: in the host orchestrator: axis %d of the host tensor has extent %lld, the "
                             "slice takes %lld to %lld (out of range: on the device an IndexError or a shorter "
                             "view, not zeros)",
                             kernel_op_name(a), d, (long long)t->shape[d], (long long)off[d],
                             (long long)(off[d] + shp[d]));
    return PTODB_OK;
}

static ptodb_status op_slice(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t, *r;
    const value *sv, *ov, *vv = op_arg(a, 3);
    int64_t shp[TENSOR_MAX_DIMS], off[TENSOR_MAX_DIMS], vs[TENSOR_MAX_DIMS];
    int nshp, noff, nvs = -1;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &t);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &sv);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 2, &ov);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, sv, "shape", shp, &nshp);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, ov, "offset", off, &noff);
    if (st == PTODB_OK && vv && vv->kind != VAL_NONE)
        st = kernel_int_list(ctx, a, vv, "valid_shape", vs, &nvs);
    const struct exec_comm *comm = exec_comm_of(ctx);
    if (st == PTODB_OK && comm && comm->rank < 0 && a->op == IR_OP_TENSOR_SLICE)
        st = host_slice_in_range(ctx, a, t, noff, off, nshp, shp);
    if (st == PTODB_OK)
        st = slice_window(ctx, a, t, noff, off, nshp, shp, &r);
    if (st != PTODB_OK)
        return st;
    /* drop_dims (5th arg) is ignored by REF */
    if (nvs >= 0)
        kernel_set_valid_full(r, nvs, vs, nshp, shp); /* valid is not clipped, nothing zeroed */
    const value *dv = op_arg(a, 4);
    if (exec_device(ctx) && dv && dv->kind != VAL_NONE) {
        /* the device erases the listed unit axes (memory.cpp:150-214) */
        int64_t drop[TENSOR_MAX_DIMS], shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
        int nd, k = 0;
        st = kernel_int_list(ctx, a, dv, "drop_dims", drop, &nd);
        for (int d = 0; st == PTODB_OK && d < r->ndim; d++) {
            int dropped = 0;
            for (int i = 0; i < nd; i++)
                dropped |= drop[i] == d;
            if (dropped && r->shape[d] != 1)
                st = exec_fail(ctx, PTODB_ERR_SHAPE, "%s: drop_dims erases axis %d of extent %lld (not 1)",
                               kernel_op_name(a), d, (long long)r->shape[d]);
            else if (!dropped) {
                shape[k] = r->shape[d];
                strides[k++] = r->strides[d];
            }
        }
        if (st == PTODB_OK && nd > 0 && k < r->ndim) {
            ptodb_status vs2;
            tensor *v = tensor_view(r, k, shape, strides, r->offset, &vs2);
            if (!v)
                st = exec_fail(ctx, vs2, "%s: internal: drop_dims view", kernel_op_name(a));
            else {
                exec_note_ref_differs(ctx, EXEC_SEMDIFF_SLICE_DROP_DIMS,
                                      "tensor.slice erases its drop_dims axes (REF would keep them: the 5th "
                                      "argument is ignored)");
                tensor_unref(r);
                r = v;
            }
        }
        if (st != PTODB_OK) {
            tensor_unref(r);
            return st;
        }
    }
    *out = value_tensor(r);
    return PTODB_OK;
}

/* tile.extract(src, row, col, shape): the 2-D slice without valid attrs. */
static ptodb_status op_extract(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t, *r;
    const value *rv, *cv, *sv;
    int64_t off[2], shp[TENSOR_MAX_DIMS];
    int nshp;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &t);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &rv);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 2, &cv);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 3, &sv);
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, rv, "index_row", &off[0]);
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, cv, "index_col", &off[1]);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, sv, "shape", shp, &nshp);
    if (st == PTODB_OK)
        st = slice_window(ctx, a, t, 2, off, nshp, shp, &r);
    if (st == PTODB_OK)
        *out = value_tensor(r);
    return st;
}

/* ATen's computeStride: strides that let a view of (oshape, ostride) have
 * nshape, or 0 when the reshape needs a copy. */
static int view_strides(int ond, const int64_t *oshape, const int64_t *ostride, int nnd,
                        const int64_t *nshape, int64_t numel, int64_t *nstride)
{
    if (numel == 0 || ond == 0) {
        int64_t s = 1;
        for (int d = nnd - 1; d >= 0; d--) {
            nstride[d] = s;
            s *= nshape[d] > 0 ? nshape[d] : 1;
        }
        return 1;
    }
    int view_d = nnd - 1;
    int64_t chunk = ostride[ond - 1], tnumel = 1, vnumel = 1;
    for (int td = ond - 1; td >= 0; td--) {
        tnumel *= oshape[td];
        if (td == 0 || (oshape[td - 1] != 1 && ostride[td - 1] != tnumel * chunk)) {
            while (view_d >= 0 && (vnumel < tnumel || nshape[view_d] == 1)) {
                nstride[view_d] = vnumel * chunk;
                vnumel *= nshape[view_d];
                view_d--;
            }
            if (vnumel != tnumel)
                return 0;
            if (td > 0) {
                chunk = ostride[td - 1];
                tnumel = 1;
                vnumel = 1;
            }
        }
    }
    return view_d == -1;
}

static ptodb_status op_reshape(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t;
    const value *sv;
    int64_t shp[TENSOR_MAX_DIMS];
    int nd;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &t);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &sv);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, sv, "shape", shp, &nd);
    if (st != PTODB_OK)
        return st;
    int64_t numel = tensor_numel(t), known = 1;
    int infer = -1;
    char buf[160];
    for (int d = 0; d < nd; d++) {
        if (shp[d] == -1 && infer < 0) {
            infer = d;
        } else if (shp[d] < 0) {
            kernel_fmt_shape(nd, shp, buf, sizeof buf);
            return exec_fail(ctx, PTODB_ERR_SHAPE, "%s: RuntimeError: invalid shape dimension %lld",
                             kernel_op_name(a), (long long)shp[d]);
        } else if (__builtin_mul_overflow(known, shp[d], &known)) {
            known = -1;
            break;
        }
    }
    if (infer >= 0 && known > 0 && numel % known == 0)
        shp[infer] = numel / known;
    if ((infer >= 0 && (known <= 0 || numel % known != 0)) || (infer < 0 && known != numel) ||
        !kernel_shape_ok(nd, shp)) {
        kernel_fmt_shape(nd, shp, buf, sizeof buf);
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: RuntimeError: shape '%s' is invalid for input of size %lld",
                         kernel_op_name(a), buf, (long long)numel);
    }
    int64_t nst[TENSOR_MAX_DIMS];
    ptodb_status vs;
    tensor *r;
    if (view_strides(t->ndim, t->shape, t->strides, nd, shp, numel, nst)) {
        r = tensor_view(t, nd, shp, nst, t->offset, &vs);
    } else {
        tensor *c = numel <= KERNEL_MAX_ELEMS ? tensor_clone(t) : NULL;
        if (!c)
            return exec_fail(ctx, PTODB_ERR_UNSUPPORTED, "%s: tensor too large",
                             kernel_op_name(a));
        r = tensor_view(c, nd, shp, NULL, 0, &vs);
        tensor_unref(c);
    }
    if (!r)
        return exec_fail(ctx, vs, "%s: internal: reshape view outside storage",
                         kernel_op_name(a));
    *out = value_tensor(r);
    return PTODB_OK;
}

static ptodb_status wrap_dim(exec_ctx *ctx, const op_args *a, int64_t d, int nd, int *out)
{
    int w = nd > 0 ? nd : 1;
    if (d < -w || d >= w)
        return exec_fail(ctx, PTODB_ERR_BOUNDS,
                         "%s: IndexError: Dimension out of range (expected to be in range of "
                         "[%d, %d], but got %lld)",
                         kernel_op_name(a), -w, w - 1, (long long)d);
    *out = (int)(d < 0 ? d + w : d);
    return PTODB_OK;
}

static ptodb_status transpose_to(exec_ctx *ctx, const op_args *a, tensor *t, int d0, int d1,
                                 value *out)
{
    if (t->ndim == 0) { /* torch allows transpose(0, 0) / (-1, -1) of a 0-d tensor */
        *out = value_tensor(tensor_view(t, 0, NULL, NULL, t->offset, NULL));
        return PTODB_OK;
    }
    ptodb_status vs;
    tensor *r = tensor_transpose(t, d0, d1, &vs);
    if (!r)
        return exec_fail(ctx, vs, "%s: internal: transpose failed", kernel_op_name(a));
    *out = value_tensor(r);
    return PTODB_OK;
}

static ptodb_status op_transpose(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t;
    const value *v1, *v2;
    int64_t a1, a2;
    int d0, d1;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &t);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &v1);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 2, &v2);
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, v1, "axis1", &a1);
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, v2, "axis2", &a2);
    if (st == PTODB_OK)
        st = wrap_dim(ctx, a, a1, t->ndim, &d0);
    if (st == PTODB_OK)
        st = wrap_dim(ctx, a, a2, t->ndim, &d1);
    if (st != PTODB_OK)
        return st;
    return transpose_to(ctx, a, t, d0, d1, out);
}

/* .mT: swap the last two dims. */
static ptodb_status mT(exec_ctx *ctx, const op_args *a, tensor *t, value *out)
{
    if (t->ndim < 2)
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: RuntimeError: tensor.mT is only supported on matrices or batches of "
                         "matrices. Got %d-D tensor.",
                         kernel_op_name(a), t->ndim);
    return transpose_to(ctx, a, t, t->ndim - 2, t->ndim - 1, out);
}

static ptodb_status op_transpose_view(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &t);
    if (st != PTODB_OK)
        return st;
    return mT(ctx, a, t, out);
}

/* tensor.view: 1 arg flips the layout (.mT) or is the identity; 2-3 args
 * reinterpret the raw storage from a0's offset with canonical strides. */
static ptodb_status op_view(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &t);
    if (st != PTODB_OK)
        return st;
    int32_t layout = a->result_type ? a->result_type->layout : -1;
    const value *lk = op_kw(a, EXEC_KW_LAYOUT);
    if (layout < 0 && lk && lk->kind == VAL_ENUM)
        layout = lk->u.e;
    int dn = layout == IR_EV_TENSOR_LAYOUT_DN;
    if (a->npos < 2) {
        /* The source's layout is not known here: a tensor value carries
         * none, so a DN result is taken as a flip from ND and anything
         * else as the identity. */
        if (dn)
            return mT(ctx, a, t, out);
        *out = value_copy(op_arg(a, 0));
        return PTODB_OK;
    }
    int64_t shp[TENSOR_MAX_DIMS], vs[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    int nd, nvs = 0;
    st = kernel_int_list(ctx, a, op_arg(a, 1), "shape", shp, &nd);
    if (st == PTODB_OK && a->npos > 2 && op_arg(a, 2)->kind != VAL_NONE)
        st = kernel_int_list(ctx, a, op_arg(a, 2), "valid_shape", vs, &nvs);
    if (st != PTODB_OK)
        return st;
    for (int d = 0; d < nd; d++)
        if (shp[d] < 0)
            return exec_fail(ctx, PTODB_ERR_SHAPE,
                             "%s: RuntimeError: as_strided: Negative strides or sizes are not "
                             "supported, got size %lld",
                             kernel_op_name(a), (long long)shp[d]);
    /* ND: row-major; DN: the last two dims column-major, leading dims
     * contiguous over them */
    int64_t s = 1;
    for (int d = nd - 1; d >= 0; d--) {
        strides[d] = s;
        if (__builtin_mul_overflow(s, shp[d] > 0 ? shp[d] : 1, &s))
            return exec_fail(ctx, PTODB_ERR_BOUNDS,
                             "%s: RuntimeError: as_strided: the view of that shape is larger than "
                             "any storage",
                             kernel_op_name(a));
    }
    if (dn && nd >= 2) {
        strides[nd - 2] = 1;
        strides[nd - 1] = shp[nd - 2];
    }
    ptodb_status vst;
    tensor *r = tensor_view(t, nd, shp, strides, t->offset, &vst);
    if (!r) {
        char sb[160], tb[160];
        kernel_fmt_shape(nd, shp, sb, sizeof sb);
        kernel_fmt_shape(nd, strides, tb, sizeof tb);
        return exec_fail(ctx, PTODB_ERR_BOUNDS,
                         "%s: RuntimeError: setStorage: sizes %s, strides %s, storage offset %lld, "
                         "and itemsize %zu are out of bounds for storage of size %zu",
                         kernel_op_name(a), sb, tb, (long long)t->offset, dtype_size(t->dtype),
                         t->storage->nbytes);
    }
    if (nvs > 0)
        kernel_set_valid_full(r, nvs, vs, nd, shp);
    *out = value_tensor(r);
    return PTODB_OK;
}

/* torch.cat([a0, a1], dim=-1) */
static ptodb_status op_concat(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *x[2];
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &x[0]);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1, &x[1]);
    if (st != PTODB_OK)
        return st;
    for (int k = 0; k < 2; k++)
        if (x[k]->ndim == 0)
            return exec_fail(ctx, PTODB_ERR_SHAPE,
                             "%s: RuntimeError: zero-dimensional tensor (at position %d) cannot be "
                             "concatenated",
                             kernel_op_name(a), k);
    if (x[0]->ndim != x[1]->ndim)
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: RuntimeError: Tensors must have same number of dimensions: got %d "
                         "and %d",
                         kernel_op_name(a), x[0]->ndim, x[1]->ndim);
    int nd = x[0]->ndim, cd = nd - 1;
    for (int d = 0; d < cd; d++)
        if (x[0]->shape[d] != x[1]->shape[d])
            return exec_fail(ctx, PTODB_ERR_SHAPE,
                             "%s: RuntimeError: Sizes of tensors must match except in dimension "
                             "%d. Expected size %lld but got size %lld for tensor number 1 in the "
                             "list.",
                             kernel_op_name(a), cd, (long long)x[0]->shape[d],
                             (long long)x[1]->shape[d]);
    int64_t shp[TENSOR_MAX_DIMS];
    memcpy(shp, x[0]->shape, sizeof shp);
    shp[cd] = x[0]->shape[cd] + x[1]->shape[cd];
    tensor *r;
    st = kernel_zeros(ctx, kernel_promote(x[0]->dtype, x[1]->dtype), nd, shp, &r);
    if (st != PTODB_OK)
        return st;
    int64_t start = 0;
    for (int k = 0; k < 2 && st == PTODB_OK; k++) {
        tensor *v;
        ptodb_status vs;
        v = tensor_slice(r, cd, start, start + x[k]->shape[cd], 1, &vs);
        if (!v) {
            st = exec_fail(ctx, vs, "%s: internal: concat slice", kernel_op_name(a));
            break;
        }
        st = kernel_assign(ctx, a, v, x[k], 0);
        tensor_unref(v);
        start += x[k]->shape[cd];
    }
    if (st != PTODB_OK) {
        tensor_unref(r);
        return st;
    }
    *out = value_tensor(r);
    return PTODB_OK;
}

/* target[o:o+v] = source[0:v] (or +=) in place; returns the target. */
static ptodb_status op_assemble(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *target, *src;
    const value *offv;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &target);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1, &src);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 2, &offv);
    if (st == PTODB_OK)
        st = kernel_store_region(ctx, a, src, target, offv,
                                 kernel_int_kw(a, EXEC_KW_ATOMIC, 0) != 0);
    if (st == PTODB_OK)
        *out = value_copy(op_arg(a, 0));
    return st;
}

/* ---- fillpad ------------------------------------------------------------- */

static int contains_ci(const char *s, const char *needle)
{
    size_t n = strlen(needle);
    for (; s && *s; s++) {
        size_t k = 0;
        while (k < n && s[k] && tolower((unsigned char)s[k]) == needle[k])
            k++;
        if (k == n)
            return 1;
    }
    return 0;
}

/* 0 zero, 1 min, 2 max (REF: the pad_value's name contains "min"/"max") */
static int pad_mode(const op_args *a)
{
    const value *v = op_kw(a, EXEC_KW_PAD_VALUE);
    const char *name = NULL;
    if (!v)
        return 0;
    if (v->kind == VAL_ENUM) {
        const ir_enum_info *info = ir_enum_info_get(v->u.e);
        name = info ? info->name : NULL;
    } else if (v->kind == VAL_STR) {
        name = v->u.s;
    }
    if (contains_ci(name, "min"))
        return 1;
    if (contains_ci(name, "max"))
        return 2;
    return 0;
}

/* The pad scalar. Under device semantics pto-isa's PadValueMap: Min/Max of a
 * float type are -inf/+inf (fp32 0xff800000/0x7f800000, fp16 0xfc00/0x7c00,
 * bf16 0xff80/0x7f80), of an integer its extremes (unsigned Min is 0), and a
 * 64-bit integer pads 0 whatever the mode (pto-isa cd4a3d3f
 * include/pto/common/constants.hpp:281-420). REF (torch_codegen) takes the
 * finite extremes, finfo/iinfo, never +-inf. */
static void pad_scalar(exec_ctx *ctx, const op_args *a, dtype_id dt, int mode, double *f, int64_t *i)
{
    *f = 0;
    *i = 0;
    if (mode == 0)
        return;
    int mx = mode == 2;
    int device = exec_device(ctx);
    /* UINT16/UINT32 live in REF's wider signed storage: the device's
     * extremes are the unsigned type's */
    int ubytes = a->result_type ? kernel_unsigned_bytes(a->result_type->ir_dtype) : 0;
    if (device && ubytes) {
        *i = mx ? (ubytes == 2 ? UINT16_MAX : (int64_t)UINT32_MAX) : 0;
        return;
    }
    switch (dt) {
    case DTYPE_FP32: *f = device ? (mx ? INFINITY : -INFINITY) : mx ? 3.4028234663852886e38 : -3.4028234663852886e38; break;
    case DTYPE_BF16: *f = device ? (mx ? INFINITY : -INFINITY) : mx ? 3.3895313892515355e38 : -3.3895313892515355e38; break;
    case DTYPE_FP16: *f = device ? (mx ? INFINITY : -INFINITY) : mx ? 65504.0 : -65504.0; break;
    case DTYPE_FP64: *f = mx ? 1.7976931348623157e308 : -1.7976931348623157e308; break;
    case DTYPE_BOOL: *i = mx; break;
    case DTYPE_INT8: *i = mx ? INT8_MAX : INT8_MIN; break;
    case DTYPE_UINT8: *i = mx ? UINT8_MAX : 0; break;
    case DTYPE_INT16: *i = mx ? INT16_MAX : INT16_MIN; break;
    case DTYPE_INT32: *i = mx ? INT32_MAX : INT32_MIN; break;
    default: *i = device ? 0 : mx ? INT64_MAX : INT64_MIN; break;
    }
    if (device && (dt == DTYPE_FP32 || dt == DTYPE_BF16 || dt == DTYPE_FP16 || dt == DTYPE_INT64))
        exec_note_ref_differs(ctx, EXEC_SEMDIFF_PAD_VALUE,
                              dt == DTYPE_INT64 ? "a 64-bit integer tile pads 0 for PadValue.min/max (REF "
                                                  "would compute: the int64 extremes)"
                                                : "PadValue.min/max pads a float tile with -inf/+inf (REF would "
                                                  "compute: the finite extremes, torch.finfo)");
}

static ptodb_status op_fillpad(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *x;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &x);
    if (st != PTODB_OK)
        return st;
    int nf = x->full_ndim >= 0 ? x->full_ndim : x->ndim;
    const int64_t *full = x->full_ndim >= 0 ? x->full : x->shape;
    tensor *x2;
    int padded = !kernel_same_dims(x->ndim, x->shape, nf, full);
    if (padded) {
        for (int d = 0; d < nf; d++)
            if (full[d] < 0)
                return exec_fail(ctx, PTODB_ERR_SHAPE,
                                 "%s: RuntimeError: Trying to create tensor with negative "
                                 "dimension %lld",
                                 kernel_op_name(a), (long long)full[d]);
        st = kernel_pad_copy(ctx, a, x, nf, full, &x2);
        if (st != PTODB_OK)
            return st;
    } else {
        x2 = tensor_ref(x);
    }
    if (x->valid_ndim < 0 || kernel_same_dims(x->valid_ndim, x->valid, nf, full)) {
        /* nothing to pad: x itself, or the zero-padded copy */
        if (padded)
            *out = value_tensor(x2);
        else {
            tensor_unref(x2);
            *out = value_copy(op_arg(a, 0));
        }
        return PTODB_OK;
    }
    double f;
    int64_t i;
    pad_scalar(ctx, a, x->dtype, pad_mode(a), &f, &i);
    tensor *r = NULL, *dv = NULL, *sv = NULL;
    st = kernel_zeros(ctx, x->dtype, nf, full, &r);
    if (st == PTODB_OK) {
        kernel_fill(r, f, i);
        st = kernel_head_view(ctx, x2, x->valid_ndim, x->valid, &sv);
    }
    if (st == PTODB_OK)
        st = kernel_head_view(ctx, r, x->valid_ndim, x->valid, &dv);
    if (st == PTODB_OK)
        st = kernel_assign(ctx, a, dv, sv, 0);
    tensor_unref(dv);
    tensor_unref(sv);
    tensor_unref(x2);
    if (st != PTODB_OK) {
        tensor_unref(r);
        return st;
    }
    *out = value_tensor(r);
    return PTODB_OK;
}

/* A new tile of nd/shape filled with x's pad scalar (pad_value=), with x's
 * valid region (its whole shape when it has none) copied to the top-left. */
static ptodb_status pad_into_shape(exec_ctx *ctx, const op_args *a, tensor *x, int nd,
                                   const int64_t *shape, tensor **out)
{
    int64_t valid[TENSOR_MAX_DIMS];
    for (int d = 0; d < nd; d++) {
        valid[d] = x->valid_ndim == nd && x->valid[d] >= 0 && x->valid[d] < x->shape[d]
                       ? x->valid[d]
                       : x->shape[d];
        if (valid[d] > shape[d])
            valid[d] = shape[d];
    }
    double f;
    int64_t i;
    pad_scalar(ctx, a, x->dtype, pad_mode(a), &f, &i);
    tensor *r = NULL, *dv = NULL, *sv = NULL;
    ptodb_status st = kernel_zeros(ctx, x->dtype, nd, shape, &r);
    if (st == PTODB_OK) {
        kernel_fill(r, f, i);
        st = kernel_head_view(ctx, x, nd, valid, &sv);
    }
    if (st == PTODB_OK)
        st = kernel_head_view(ctx, r, nd, valid, &dv);
    if (st == PTODB_OK)
        st = kernel_assign(ctx, a, dv, sv, 0);
    tensor_unref(dv);
    tensor_unref(sv);
    if (st != PTODB_OK) {
        tensor_unref(r);
        return st;
    }
    *out = r;
    return PTODB_OK;
}

/* fillpad_expand(tile, shape, pad_value=): REF has no handler; PyPTO's op
 * doc: the source's valid region copied into the top-left of a tile of
 * `shape` (each dim >= the source's), every other element pad_value. */
static ptodb_status op_fillpad_expand(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *x, *r;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &x);
    int64_t shape[TENSOR_MAX_DIMS];
    int nd = 0;
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, op_arg(a, 1), "shape", shape, &nd);
    if (st != PTODB_OK)
        return st;
    if (nd != x->ndim)
        return exec_fail(ctx, PTODB_ERR_SHAPE, "%s: shape has %d dims, the tile %d",
                         kernel_op_name(a), nd, x->ndim);
    for (int d = 0; d < nd; d++)
        if (shape[d] < x->shape[d])
            return exec_fail(ctx, PTODB_ERR_SHAPE,
                             "%s: dim %d of the destination (%lld) is smaller than the source's (%lld)",
                             kernel_op_name(a), d, (long long)shape[d], (long long)x->shape[d]);
    st = pad_into_shape(ctx, a, x, nd, shape, &r);
    if (st == PTODB_OK)
        *out = value_tensor(r);
    return st;
}

/* fillpad_inplace(tile, pad_value=): REF has no handler; PyPTO's op doc:
 * the elements outside the tile's valid region get pad_value, in place;
 * the valid region is unchanged. Returns the tile. */
static ptodb_status op_fillpad_inplace(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *x, *r;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &x);
    if (st != PTODB_OK)
        return st;
    if (x->valid_ndim == x->ndim) {
        st = pad_into_shape(ctx, a, x, x->ndim, x->shape, &r);
        if (st != PTODB_OK)
            return st;
        st = tensor_copy_into(x, r);
        tensor_unref(r);
        if (st != PTODB_OK)
            return exec_fail(ctx, st, "%s: cannot write the tile", kernel_op_name(a));
        exec_note_write(ctx, x);
        /* the result's valid shape is the whole tile (pypto src/ir/op/
         * tile_ops/elementwise.cpp:1335-1339, tile_view.valid_shape =
         * shape): a view of the same bytes without x's narrower region, so a
         * store of it writes the padding too */
        ptodb_status vs;
        tensor *w = tensor_alias(x, &vs);
        if (!w)
            return exec_fail(ctx, vs, "%s: internal: view", kernel_op_name(a));
        w->valid_ndim = -1;
        w->full_ndim = -1;
        w->valid_declared = 0;
        *out = value_tensor(w);
        return PTODB_OK;
    }
    *out = value_copy(op_arg(a, 0));
    return PTODB_OK;
}

/* ---- scatter_update ---------------------------------------------------- */

/* 1 when REF's index.expand_as(src) works: every index dim 1 or src's. */
static int expands_to(const tensor *idx, const tensor *src)
{
    if (idx->ndim > src->ndim)
        return 0;
    for (int j = idx->ndim - 1; j >= 0; j--) {
        int64_t n = src->shape[src->ndim - idx->ndim + j];
        if (idx->shape[j] != 1 && idx->shape[j] != n)
            return 0;
    }
    return 1;
}

/* The device's whole-row scatter (semantics.h, scatter-index; PyPTO
 * python/pypto/ir/op/tensor_ops.py:1964-1980, docs/en/dev/passes/
 * 10-convert_tensor_to_tile_ops.md:156-166): for k over index's elements in
 * row-major order, row index.flat[k] of input (2-D [rows, d], or 4-D
 * [blocks, block_size, 1, d] as blocks*block_size rows) becomes row k of src
 * (2-D [b*s, d] or 4-D [b, s, 1, d]). In place on input. */
static ptodb_status scatter_rows(exec_ctx *ctx, const op_args *a, tensor *in, const tensor *idx,
                                 const tensor *src, value *out)
{
    const char *name = kernel_op_name(a);
    int nd = in->ndim;
    if ((nd != 2 && nd != 4) || src->ndim != nd || (nd == 4 && (in->shape[2] != 1 || src->shape[2] != 1)))
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: input and src must both be 2-D [rows, d] or 4-D [blocks, block_size, 1, d]", name);
    int64_t d = in->shape[nd - 1];
    int64_t in_rows = nd == 2 ? in->shape[0] : in->shape[0] * in->shape[1];
    int64_t src_rows = nd == 2 ? src->shape[0] : src->shape[0] * src->shape[1];
    int64_t n = tensor_numel(idx);
    if (src->shape[nd - 1] != d || src_rows != n)
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: src has %lld rows of %lld, expected one row of %lld per index (%lld)", name,
                         (long long)src_rows, (long long)src->shape[nd - 1], (long long)d, (long long)n);
    if (in->dtype != src->dtype)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: input and src dtypes differ", name);
    tensor *stage = tensor_clone(src); /* src may alias input */
    tensor *flat = tensor_clone(idx);
    if (!stage || !flat) {
        if (stage)
            tensor_unref(stage);
        if (flat)
            tensor_unref(flat);
        return exec_fail(ctx, PTODB_ERR_NOMEM, "%s: out of memory", name);
    }
    ptodb_status st = PTODB_OK;
    int isf = dtype_is_float(src->dtype);
    for (int64_t k = 0; k < n && st == PTODB_OK; k++) {
        int64_t r = (int64_t)tensor_get_flat(flat, k);
        if (r < 0 || r >= in_rows) {
            st = exec_fail(ctx, PTODB_ERR_BOUNDS, "%s: index %lld (element %lld) is outside input's %lld rows",
                           name, (long long)r, (long long)k, (long long)in_rows);
            break;
        }
        int64_t di[4] = {0}, si[4] = {0};
        for (int64_t c = 0; c < d; c++) {
            if (nd == 2) {
                di[0] = r, di[1] = c;
                si[0] = k, si[1] = c;
            } else {
                di[0] = r / in->shape[1], di[1] = r % in->shape[1], di[3] = c;
                si[0] = k / src->shape[1], si[1] = k % src->shape[1], si[3] = c;
            }
            if (isf)
                tensor_set(in, di, tensor_get(stage, si));
            else
                tensor_set_i64(in, di, tensor_get_i64(stage, si));
        }
    }
    tensor_unref(stage);
    tensor_unref(flat);
    if (st != PTODB_OK)
        return st;
    exec_note_write(ctx, in);
    *out = value_copy(op_arg(a, 0));
    return PTODB_OK;
}

/* input.scatter_(-2, index.expand_as(src), src), in place; under device
 * semantics the row scatter the ISA lowering computes (scatter_rows). */
static ptodb_status op_scatter_update(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *in, *idx, *src;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &in);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1, &idx);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 2, &src);
    if (st != PTODB_OK)
        return st;
    int64_t src_rows = src->ndim == 4 ? src->shape[0] * src->shape[1] : src->ndim == 2 ? src->shape[0] : -1;
    if (exec_device(ctx) && idx->ndim == 2 && dtype_is_int(idx->dtype) &&
        (tensor_numel(idx) == src_rows || !expands_to(idx, src))) {
        if (!expands_to(idx, src))
            exec_note_ref_differs(ctx, EXEC_SEMDIFF_SCATTER_INDEX,
                                  "a 2-D index scatters whole rows of src (REF would fail: its "
                                  "index.expand_as(src) rejects the index's shape)");
        return scatter_rows(ctx, a, in, idx, src, out);
    }
    const char *name = kernel_op_name(a);
    char b1[160], b2[160], b3[160];
    /* expand_as */
    if (idx->ndim > src->ndim)
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: RuntimeError: expand: the number of sizes provided (%d) must be "
                         "greater or equal to the number of dimensions in the tensor (%d)",
                         name, src->ndim, idx->ndim);
    for (int j = idx->ndim - 1; j >= 0; j--) {
        int d = src->ndim - idx->ndim + j;
        if (idx->shape[j] != 1 && idx->shape[j] != src->shape[d]) {
            kernel_fmt_shape(src->ndim, src->shape, b1, sizeof b1);
            kernel_fmt_shape(idx->ndim, idx->shape, b2, sizeof b2);
            return exec_fail(ctx, PTODB_ERR_SHAPE,
                             "%s: RuntimeError: The expanded size of the tensor (%lld) must match "
                             "the existing size (%lld) at non-singleton dimension %d.  Target "
                             "sizes: %s.  Tensor sizes: %s",
                             name, (long long)src->shape[d], (long long)idx->shape[j], d, b1, b2);
        }
    }
    int nd = src->ndim;
    int dim = 0;
    st = wrap_dim(ctx, a, -2, in->ndim, &dim);
    if (st != PTODB_OK)
        return st;
    if (idx->dtype != DTYPE_INT64 && idx->dtype != DTYPE_INDEX)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: RuntimeError: scatter(): Expected dtype int64 for index", name);
    if (in->dtype != src->dtype)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: RuntimeError: scatter(): Expected self.dtype to be equal to "
                         "src.dtype",
                         name);
    if (nd != in->ndim)
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: RuntimeError: Index tensor must have the same number of dimensions "
                         "as self tensor",
                         name);
    for (int d = 0; d < nd; d++)
        if (d != dim && src->shape[d] > in->shape[d]) {
            kernel_fmt_shape(nd, src->shape, b1, sizeof b1);
            kernel_fmt_shape(nd, in->shape, b2, sizeof b2);
            kernel_fmt_shape(nd, src->shape, b3, sizeof b3);
            return exec_fail(ctx, PTODB_ERR_SHAPE,
                             "%s: RuntimeError: Size does not match at dimension %d expected "
                             "index %s to be smaller than self %s apart from dimension %d and to "
                             "be smaller size than src %s",
                             name, d, b1, b2, dim, b3);
        }
    int64_t n = tensor_numel(src);
    if (n <= 0) {
        *out = value_copy(op_arg(a, 0));
        return PTODB_OK;
    }
    int64_t *iv = xmalloc((size_t)n * sizeof *iv);
    kernel_gather_i64(idx, nd, src->shape, iv);
    for (int64_t k = 0; k < n; k++)
        if (iv[k] < 0 || iv[k] >= in->shape[dim]) {
            int64_t bad = iv[k];
            free(iv);
            return exec_fail(ctx, PTODB_ERR_BOUNDS,
                             "%s: RuntimeError: index %lld is out of bounds for dimension %d with "
                             "size %lld",
                             name, (long long)bad, dim, (long long)in->shape[dim]);
        }
    /* stage src (it may alias input), then write element by element */
    int isf = dtype_is_float(src->dtype);
    double *fv = isf ? xmalloc((size_t)n * sizeof *fv) : NULL;
    int64_t *sv = isf ? NULL : xmalloc((size_t)n * sizeof *sv);
    if (isf)
        kernel_gather_f64(src, nd, src->shape, fv);
    else
        kernel_gather_i64(src, nd, src->shape, sv);
    int64_t pos[TENSOR_MAX_DIMS] = {0}, p2[TENSOR_MAX_DIMS];
    unsigned char *data = in->storage->data;
    for (int64_t k = 0; k < n; k++) {
        memcpy(p2, pos, sizeof p2);
        p2[dim] = iv[k];
        size_t e = (size_t)tensor_elem_index(in, p2);
        if (isf)
            dtype_store(in->dtype, data, e, fv[k]);
        else
            dtype_store_i64(in->dtype, data, e, sv[k]);
        for (int d = nd - 1; d >= 0; d--) {
            if (++pos[d] < src->shape[d])
                break;
            pos[d] = 0;
        }
    }
    free(iv);
    free(fv);
    free(sv);
    exec_note_write(ctx, in);
    *out = value_copy(op_arg(a, 0));
    return PTODB_OK;
}

void exec_ops_register_shape(op_fn *table)
{
    table[IR_OP_TENSOR_SLICE] = op_slice;
    table[IR_OP_TILE_SLICE] = op_slice;
    table[IR_OP_TILE_EXTRACT] = op_extract;
    table[IR_OP_TENSOR_RESHAPE] = op_reshape;
    table[IR_OP_TILE_RESHAPE] = op_reshape;
    table[IR_OP_TENSOR_TRANSPOSE] = op_transpose;
    table[IR_OP_TILE_TRANSPOSE] = op_transpose;
    table[IR_OP_TILE_TRANSPOSE_VIEW] = op_transpose_view;
    table[IR_OP_TENSOR_VIEW] = op_view;
    table[IR_OP_TENSOR_CONCAT] = op_concat;
    table[IR_OP_TILE_CONCAT] = op_concat;
    table[IR_OP_TENSOR_ASSEMBLE] = op_assemble;
    table[IR_OP_TILE_ASSEMBLE] = op_assemble;
    table[IR_OP_TENSOR_FILLPAD] = op_fillpad;
    table[IR_OP_TENSOR_FILLPAD_EXPAND] = op_fillpad_expand;
    table[IR_OP_TILE_FILLPAD_EXPAND] = op_fillpad_expand;
    table[IR_OP_TILE_FILLPAD_INPLACE] = op_fillpad_inplace;
    table[IR_OP_TILE_FILLPAD] = op_fillpad;
    table[IR_OP_TENSOR_SCATTER_UPDATE] = op_scatter_update;
    table[IR_OP_TILE_SCATTER_UPDATE] = op_scatter_update;
}

/* Shared machinery of the op families: see kernel_util.h. */
#include "exec/kernel_util.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

#define KDT_UNDEF DTYPE_COUNT

/* ---- names -------------------------------------------------------------- */

const char *kernel_torch_type_name(dtype_id dt)
{
    switch (dt) {
    case DTYPE_BOOL: return "Bool";
    case DTYPE_INT8: return "Char";
    case DTYPE_INT16: return "Short";
    case DTYPE_INT32: return "Int";
    case DTYPE_INDEX:
    case DTYPE_INT64: return "Long";
    case DTYPE_UINT8: return "Byte";
    case DTYPE_UINT16: return "UInt16";
    case DTYPE_UINT32: return "UInt32";
    case DTYPE_UINT64: return "UInt64";
    case DTYPE_FP16: return "Half";
    case DTYPE_BF16: return "BFloat16";
    case DTYPE_FP32: return "Float";
    case DTYPE_FP64: return "Double";
    default: return "?";
    }
}

const char *kernel_op_name(const op_args *a)
{
    const ir_op_info *info = ir_op_info_get(a->op);
    return info ? info->name : "op";
}

void kernel_fmt_shape(int nd, const int64_t *shape, char *buf, size_t size)
{
    size_t len = 0;
    if (size == 0)
        return;
    buf[0] = '\0';
    len += (size_t)snprintf(buf + len, size - len, "[");
    for (int d = 0; d < nd && len < size; d++)
        len += (size_t)snprintf(buf + len, size - len, "%s%lld", d ? ", " : "", (long long)shape[d]);
    if (len < size)
        snprintf(buf + len, size - len, "]");
}

/* ---- arguments ---------------------------------------------------------- */

static const char *value_type_name(const value *v)
{
    switch (v->kind) {
    case VAL_BOOL: return "bool";
    case VAL_INT: return "int";
    case VAL_FLOAT: return "float";
    case VAL_TENSOR: return "Tensor";
    case VAL_TUPLE: return "tuple";
    case VAL_NONE: return "NoneType";
    default: return value_kind_name((value_kind)v->kind);
    }
}

ptodb_status kernel_any_arg(exec_ctx *ctx, const op_args *a, uint32_t i, const value **out)
{
    const value *v = op_arg(a, i);
    *out = v; /* set on every path: callers test the status, not the pointer */
    if (!v || v->kind == VAL_UNBOUND)
        return exec_fail(ctx, PTODB_ERR_USAGE, "%s: missing argument %u", kernel_op_name(a), i);
    *out = v;
    return PTODB_OK;
}

ptodb_status kernel_tensor_arg(exec_ctx *ctx, const op_args *a, uint32_t i, tensor **out)
{
    const value *v = NULL;
    *out = NULL;
    ptodb_status st = kernel_any_arg(ctx, a, i, &v);
    if (st != PTODB_OK || !v)
        return st;
    if (v->kind != VAL_TENSOR)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: argument %u must be a Tensor, not %s",
                         kernel_op_name(a), i, value_type_name(v));
    *out = v->u.t;
    return PTODB_OK;
}

ptodb_status kernel_int(exec_ctx *ctx, const op_args *a, const value *v, const char *what,
                        int64_t *out)
{
    *out = 0;
    if (value_as_int(v, out) != 0)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: %s must be an int, not %s",
                         kernel_op_name(a), what, value_type_name(v));
    return PTODB_OK;
}

ptodb_status kernel_int_list(exec_ctx *ctx, const op_args *a, const value *v, const char *what,
                             int64_t *out, int *n)
{
    *n = 0;
    if (v->kind == VAL_TUPLE) {
        int k = value_as_int_list(v, out, TENSOR_MAX_DIMS);
        if (k < 0)
            return exec_fail(ctx, PTODB_ERR_RUNTIME,
                             "%s: %s must be a list of at most %d ints", kernel_op_name(a), what,
                             TENSOR_MAX_DIMS);
        *n = k;
        return PTODB_OK;
    }
    if (value_as_int(v, out) == 0) {
        *n = 1;
        return PTODB_OK;
    }
    return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: %s must be a list of ints, not %s",
                     kernel_op_name(a), what, value_type_name(v));
}

ptodb_status kernel_dtype_kw(exec_ctx *ctx, const op_args *a, exec_kw kw, dtype_id dflt,
                             dtype_id *out, int *present)
{
    const value *v = op_kw(a, kw);
    if (present)
        *present = v != NULL && v->kind != VAL_NONE;
    if (!v || v->kind == VAL_NONE) {
        *out = dflt;
        return PTODB_OK;
    }
    if (value_as_dtype(v, out) != 0)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: %s= must be a dtype", kernel_op_name(a),
                         exec_kw_name(kw));
    return PTODB_OK;
}

int64_t kernel_int_kw(const op_args *a, exec_kw kw, int64_t dflt)
{
    const value *v = op_kw(a, kw);
    int64_t i;
    if (!v)
        return dflt;
    if (v->kind == VAL_ENUM) {
        /* The printer writes atomic=pl.AtomicType.None_ (0) / .Add (1)
         * (ir-format.md); other enums carry no number ops read. */
        if (v->u.e == IR_EV_ATOMIC_TYPE_ADD)
            return 1;
        if (v->u.e == IR_EV_ATOMIC_TYPE_NONE_)
            return 0;
        return dflt;
    }
    if (value_as_int(v, &i) == 0)
        return i;
    return dflt;
}

int kernel_shape_ok(int nd, const int64_t *shape)
{
    /* the contiguous strides (products of max(dim, 1)) must not overflow
     * either, even when a zero dim makes the tensor empty */
    int64_t s = 1;
    if (nd < 0 || nd > TENSOR_MAX_DIMS)
        return 0;
    for (int d = 0; d < nd; d++)
        if (shape[d] < 0 || __builtin_mul_overflow(s, shape[d] > 0 ? shape[d] : 1, &s))
            return 0;
    return 1;
}

ptodb_status kernel_zeros(exec_ctx *ctx, dtype_id dt, int nd, const int64_t *shape, tensor **out)
{
    char buf[160];
    int64_t n = tensor_shape_numel(nd, shape);
    if (n < 0 || !kernel_shape_ok(nd, shape)) {
        kernel_fmt_shape(nd, shape, buf, sizeof buf);
        return exec_fail(ctx, PTODB_ERR_SHAPE, "invalid shape %s", buf);
    }
    if (n > KERNEL_MAX_ELEMS) {
        kernel_fmt_shape(nd, shape, buf, sizeof buf);
        return exec_fail(ctx, PTODB_ERR_UNSUPPORTED, "tensor of shape %s is too large for ptodb",
                         buf);
    }
    ptodb_status st;
    tensor *t = tensor_zeros(dt, nd, shape, &st);
    if (!t) {
        kernel_fmt_shape(nd, shape, buf, sizeof buf);
        return exec_fail(ctx, st, "cannot allocate a tensor of shape %s", buf);
    }
    *out = t;
    return PTODB_OK;
}

/* ---- dtypes ------------------------------------------------------------- */

int kernel_is_floatish(dtype_id dt)
{
    return dt < DTYPE_COUNT && dtype_is_float(dt);
}

/* Normalises the dtypes REF never stores to the ones it would use. */
static dtype_id norm_dt(dtype_id dt)
{
    switch (dt) {
    case DTYPE_INDEX: return DTYPE_INT64;
    case DTYPE_UINT16: return DTYPE_INT32;
    case DTYPE_UINT32:
    case DTYPE_UINT64: return DTYPE_INT64;
    default: return dt;
    }
}

static int float_rank(dtype_id dt)
{
    switch (dt) {
    case DTYPE_FP16:
    case DTYPE_BF16: return 1;
    case DTYPE_FP32: return 2;
    default: return 3;
    }
}

dtype_id kernel_ref_dtype(dtype_id dt)
{
    return norm_dt(dt);
}

dtype_id kernel_promote(dtype_id a, dtype_id b)
{
    if (a == KDT_UNDEF)
        return b;
    if (b == KDT_UNDEF)
        return a;
    a = norm_dt(a);
    b = norm_dt(b);
    if (a == b)
        return a;
    if (a == DTYPE_BOOL)
        return b;
    if (b == DTYPE_BOOL)
        return a;
    int fa = dtype_is_float(a), fb = dtype_is_float(b);
    if (fa && fb) {
        int ra = float_rank(a), rb = float_rank(b);
        if (ra == rb)
            return ra == 1 ? DTYPE_FP32 : a; /* bf16 + fp16 */
        return ra > rb ? a : b;
    }
    if (fa)
        return a;
    if (fb)
        return b;
    if (a == DTYPE_UINT8 || b == DTYPE_UINT8) {
        dtype_id s = a == DTYPE_UINT8 ? b : a;
        return s == DTYPE_INT8 ? DTYPE_INT16 : s;
    }
    return dtype_size(a) >= dtype_size(b) ? a : b;
}

int kernel_can_cast(dtype_id from, dtype_id to)
{
    if (dtype_is_float(from) && !dtype_is_float(to))
        return 0;
    if (from != DTYPE_BOOL && to == DTYPE_BOOL)
        return 0;
    return 1;
}

double kernel_round_to(dtype_id dt, double v)
{
    switch (dt) {
    case DTYPE_FP32: return (double)(float)v;
    case DTYPE_BF16: return (double)dtype_round_bf16((float)v);
    case DTYPE_FP16: return (double)dtype_round_f16((float)v);
    default: return v;
    }
}

int64_t kernel_wrap_int(dtype_id dt, int64_t v)
{
    switch (dt) {
    case DTYPE_BOOL: return v != 0;
    case DTYPE_INT8: return (int8_t)(uint8_t)(uint64_t)v;
    case DTYPE_UINT8: return (uint8_t)(uint64_t)v;
    case DTYPE_INT16: return (int16_t)(uint16_t)(uint64_t)v;
    case DTYPE_UINT16: return (uint16_t)(uint64_t)v;
    case DTYPE_INT32: return (int32_t)(uint32_t)(uint64_t)v;
    case DTYPE_UINT32: return (uint32_t)(uint64_t)v;
    default: return v;
    }
}

ptodb_status kernel_opnd_from_value(exec_ctx *ctx, const op_args *a, const value *v,
                                    kernel_opnd *o)
{
    memset(o, 0, sizeof *o);
    switch (v->kind) {
    case VAL_BOOL:
        o->cls = KOPND_NUMBER;
        o->dt = DTYPE_BOOL;
        o->is_int = 1;
        o->i = v->u.b;
        o->f = v->u.b;
        return PTODB_OK;
    case VAL_INT:
        o->cls = KOPND_NUMBER;
        o->dt = DTYPE_INT64;
        o->is_int = 1;
        o->i = v->u.i;
        o->f = (double)v->u.i;
        return PTODB_OK;
    case VAL_FLOAT:
        o->cls = KOPND_NUMBER;
        o->dt = DTYPE_FP64;
        o->f = v->u.f;
        return PTODB_OK;
    case VAL_TENSOR: {
        const tensor *t = v->u.t;
        o->t = t;
        o->dt = norm_dt(t->dtype);
        if (t->ndim == 0) {
            o->cls = KOPND_ZERO;
            o->is_int = !dtype_is_float(t->dtype);
            o->f = tensor_get(t, NULL);
            o->i = o->is_int ? tensor_get_i64(t, NULL) : 0;
        } else {
            o->cls = KOPND_DIM;
        }
        return PTODB_OK;
    }
    default:
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: expected a Tensor or a number, got %s",
                         kernel_op_name(a), value_type_name(v));
    }
}

/* c10's combine_categories: a lower-priority group only counts when it is of
 * a higher category. */
static dtype_id combine_categories(dtype_id higher, dtype_id lower)
{
    if (higher == KDT_UNDEF)
        return lower;
    if (dtype_is_float(higher))
        return higher;
    if (higher == DTYPE_BOOL || (lower != KDT_UNDEF && dtype_is_float(lower)))
        return kernel_promote(higher, lower);
    return higher;
}

dtype_id kernel_result_type(const kernel_opnd *o, int n)
{
    dtype_id dim = KDT_UNDEF, zero = KDT_UNDEF, wrapped = KDT_UNDEF;
    for (int k = 0; k < n; k++) {
        switch (o[k].cls) {
        case KOPND_DIM: dim = kernel_promote(dim, o[k].dt); break;
        case KOPND_ZERO: zero = kernel_promote(zero, o[k].dt); break;
        case KOPND_NUMBER:
            /* a Python float counts as the default dtype, float32 */
            wrapped = kernel_promote(wrapped, o[k].dt == DTYPE_FP64 ? DTYPE_FP32 : o[k].dt);
            break;
        }
    }
    dtype_id r = combine_categories(dim, combine_categories(zero, wrapped));
    return r == KDT_UNDEF ? DTYPE_FP32 : r;
}

/* ---- shapes ------------------------------------------------------------- */

ptodb_status kernel_broadcast(exec_ctx *ctx, int n, const int *nds, const int64_t *const *shapes,
                              int *ond, int64_t *oshape)
{
    int nd = 0;
    for (int k = 0; k < n; k++)
        if (nds[k] > nd)
            nd = nds[k];
    for (int d = 0; d < nd; d++)
        oshape[d] = 1;
    for (int k = 0; k < n; k++) {
        /* torch's infer_size walks from the last dim */
        for (int j = nds[k] - 1; j >= 0; j--) {
            int d = nd - nds[k] + j;
            int64_t s = shapes[k][j];
            if (s == oshape[d] || s == 1)
                continue;
            if (oshape[d] == 1) {
                oshape[d] = s;
                continue;
            }
            /* torch names the first tensor whose size disagrees */
            return exec_fail(ctx, PTODB_ERR_SHAPE,
                             "The size of tensor a (%lld) must match the size of tensor b (%lld) "
                             "at non-singleton dimension %d",
                             (long long)oshape[d], (long long)s, d);
        }
    }
    *ond = nd;
    return PTODB_OK;
}

void kernel_pyslice(int64_t n, int64_t start, int64_t stop, int64_t *first, int64_t *len)
{
    if (start < 0) {
        start += n;
        if (start < 0)
            start = 0;
    } else if (start > n) {
        start = n;
    }
    if (stop < 0) {
        stop += n;
        if (stop < 0)
            stop = 0;
    } else if (stop > n) {
        stop = n;
    }
    *first = start;
    *len = stop > start ? stop - start : 0;
}

static int64_t sat_add(int64_t x, int64_t y)
{
    int64_t r;
    if (__builtin_add_overflow(x, y, &r))
        return y > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

static ptodb_status window_view(exec_ctx *ctx, const tensor *t, int k, const int64_t *start,
                                const int64_t *stop, tensor **out)
{
    if (k > t->ndim)
        return exec_fail(ctx, PTODB_ERR_BOUNDS, "IndexError: too many indices for tensor of "
                                                "dimension %d",
                         t->ndim);
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    int64_t offset = t->offset;
    int empty = 0;
    for (int d = 0; d < t->ndim; d++) {
        shape[d] = t->shape[d];
        strides[d] = t->strides[d];
    }
    for (int d = 0; d < k; d++) {
        int64_t first, len;
        kernel_pyslice(t->shape[d], start ? start[d] : 0, stop[d], &first, &len);
        shape[d] = len;
        if (len == 0)
            empty = 1;
        else
            offset += first * t->strides[d];
    }
    if (empty)
        offset = t->offset;
    ptodb_status st;
    tensor *v = tensor_view(t, t->ndim, shape, strides, offset, &st);
    if (!v)
        return exec_fail(ctx, st, "internal: slice view outside its storage");
    *out = v;
    return PTODB_OK;
}

ptodb_status kernel_slice_view(exec_ctx *ctx, const tensor *t, int k, const int64_t *start,
                               const int64_t *size, tensor **out)
{
    int64_t stop[TENSOR_MAX_DIMS];
    for (int d = 0; d < k && d < TENSOR_MAX_DIMS; d++)
        stop[d] = sat_add(start[d], size[d]);
    return window_view(ctx, t, k, start, stop, out);
}

ptodb_status kernel_head_view(exec_ctx *ctx, const tensor *t, int k, const int64_t *stop,
                              tensor **out)
{
    return window_view(ctx, t, k, NULL, stop, out);
}

/* ---- data movement ------------------------------------------------------ */

/* Strides of t broadcast (right-aligned) to (nd, shape): 0 on broadcast dims. */
static void bcast_strides(const tensor *t, int nd, const int64_t *shape, int64_t *st)
{
    for (int d = 0; d < nd; d++) {
        int td = d - (nd - t->ndim);
        if (td < 0 || (t->shape[td] == 1 && shape[d] != 1))
            st[d] = 0;
        else
            st[d] = t->strides[td];
    }
}

/* Walks the broadcast iteration of t over (nd, shape) one innermost row at
 * a time: ROW runs with base_ (storage element index of the row's first
 * element), istr_ (its element stride, 0 when broadcast), inner_ (row
 * length) and k_ (row-major index of the row's first element). */
#define KERNEL_ROWS(t, nd, shape, ROW)                                               \
    do {                                                                            \
        int64_t st_[TENSOR_MAX_DIMS], idx_[TENSOR_MAX_DIMS] = {0};                  \
        bcast_strides((t), (nd), (shape), st_);                                     \
        int64_t n_ = tensor_shape_numel((nd), (shape));                             \
        if (n_ <= 0)                                                                \
            break;                                                                  \
        int64_t inner_ = (nd) > 0 ? (shape)[(nd)-1] : 1;                            \
        int64_t istr_ = (nd) > 0 ? st_[(nd)-1] : 0;                                 \
        int64_t k_ = 0;                                                             \
        for (;;) {                                                                  \
            int64_t base_ = (t)->offset;                                            \
            for (int d_ = 0; d_ < (nd)-1; d_++)                                     \
                base_ += idx_[d_] * st_[d_];                                        \
            ROW;                                                                    \
            k_ += inner_;                                                           \
            int d2_ = (nd)-2;                                                       \
            for (; d2_ >= 0; d2_--) {                                               \
                if (++idx_[d2_] < (shape)[d2_])                                     \
                    break;                                                          \
                idx_[d2_] = 0;                                                      \
            }                                                                       \
            if (d2_ < 0)                                                            \
                break;                                                              \
        }                                                                           \
    } while (0)

/* The same with BODY run per element: e_ its storage index, k_ + j_ its
 * row-major index (use KERNEL_AT for the latter). */
#define KERNEL_WALK(t, nd, shape, BODY)                                              \
    KERNEL_ROWS(t, nd, shape, {                                                     \
        for (int64_t j_ = 0; j_ < inner_; j_++) {                                   \
            size_t e_ = (size_t)(base_ + j_ * istr_);                               \
            int64_t kk_ = k_ + j_;                                                  \
            (void)kk_;                                                              \
            BODY;                                                                   \
        }                                                                           \
    })

/* One row of len elements of dtype dt (storage index base, stride) as
 * doubles: typed loops for the common dtypes, so the compiler can keep the
 * dtype switch out of the loop. */
static void row_load_f64(dtype_id dt, const unsigned char *data, int64_t base, int64_t stride,
                         int64_t len, double *out)
{
    switch (dt) {
    case DTYPE_FP32:
        for (int64_t j = 0; j < len; j++) {
            float f;
            memcpy(&f, data + 4 * (size_t)(base + j * stride), 4);
            out[j] = f;
        }
        return;
    case DTYPE_BF16:
        for (int64_t j = 0; j < len; j++) {
            uint16_t h;
            memcpy(&h, data + 2 * (size_t)(base + j * stride), 2);
            out[j] = dtype_bf16_to_f32(h);
        }
        return;
    case DTYPE_FP16:
        for (int64_t j = 0; j < len; j++) {
            uint16_t h;
            memcpy(&h, data + 2 * (size_t)(base + j * stride), 2);
            out[j] = dtype_f16_to_f32(h);
        }
        return;
    case DTYPE_INT32:
        for (int64_t j = 0; j < len; j++) {
            int32_t v;
            memcpy(&v, data + 4 * (size_t)(base + j * stride), 4);
            out[j] = v;
        }
        return;
    default:
        for (int64_t j = 0; j < len; j++)
            out[j] = dtype_load(dt, data, (size_t)(base + j * stride));
        return;
    }
}

void kernel_gather_f64(const tensor *t, int nd, const int64_t *shape, double *buf)
{
    const unsigned char *data = t->storage->data;
    dtype_id dt = t->dtype;
    KERNEL_ROWS(t, nd, shape, row_load_f64(dt, data, base_, istr_, inner_, buf + k_));
}

typedef uint16_t kernel_v16u16 __attribute__((vector_size(32)));
typedef uint32_t kernel_v16u32 __attribute__((vector_size(64)));

void kernel_gather_f32(const tensor *t, int nd, const int64_t *shape, float *buf)
{
    const unsigned char *data = t->storage->data;
    dtype_id dt = t->dtype;
    if (dt == DTYPE_FP32) {
        KERNEL_ROWS(t, nd, shape, {
            if (istr_ == 1)
                memcpy(buf + k_, data + 4 * (size_t)base_, 4 * (size_t)inner_);
            else
                for (int64_t j = 0; j < inner_; j++)
                    memcpy(buf + k_ + j, data + 4 * (size_t)(base_ + j * istr_), 4);
        });
        return;
    }
    if (dt == DTYPE_BF16) {
        KERNEL_ROWS(t, nd, shape, {
            if (istr_ == 1) { /* contiguous rows: 16 at a time as vectors */
                const unsigned char *src = data + 2 * (size_t)base_;
                float *dst = buf + k_;
                int64_t j = 0;
                for (; j + 16 <= inner_; j += 16) {
                    kernel_v16u16 h;
                    memcpy(&h, src + 2 * j, sizeof h);
                    kernel_v16u32 u = __builtin_convertvector(h, kernel_v16u32) << 16;
                    memcpy(dst + j, &u, sizeof u);
                }
                for (; j < inner_; j++) {
                    uint16_t h;
                    memcpy(&h, src + 2 * j, 2);
                    uint32_t u = (uint32_t)h << 16;
                    memcpy(dst + j, &u, 4);
                }
            } else {
                for (int64_t j = 0; j < inner_; j++) {
                    uint16_t h;
                    memcpy(&h, data + 2 * (size_t)(base_ + j * istr_), 2);
                    buf[k_ + j] = dtype_bf16_to_f32(h);
                }
            }
        });
        return;
    }
    KERNEL_WALK(t, nd, shape, buf[kk_] = (float)dtype_load(dt, data, e_));
}

void kernel_gather_i64(const tensor *t, int nd, const int64_t *shape, int64_t *buf)
{
    const unsigned char *data = t->storage->data;
    dtype_id dt = t->dtype;
    KERNEL_WALK(t, nd, shape, buf[kk_] = dtype_load_i64(dt, data, e_));
}

void kernel_store_f64(tensor *t, const double *buf, int64_t n)
{
    unsigned char *data = tensor_data(t);
    if (t->dtype == DTYPE_FP32) {
        for (int64_t k = 0; k < n; k++) {
            float f = (float)buf[k];
            memcpy(data + 4 * (size_t)k, &f, 4);
        }
        return;
    }
    if (t->dtype == DTYPE_BF16) {
        for (int64_t k = 0; k < n; k++) {
            uint16_t h = dtype_f32_to_bf16((float)buf[k]);
            memcpy(data + 2 * (size_t)k, &h, 2);
        }
        return;
    }
    for (int64_t k = 0; k < n; k++)
        dtype_store(t->dtype, data, (size_t)k, buf[k]);
}

void kernel_store_f32(tensor *t, const float *buf, int64_t n)
{
    unsigned char *data = tensor_data(t);
    if (t->dtype == DTYPE_FP32) {
        memcpy(data, buf, (size_t)n * sizeof *buf);
        return;
    }
    if (t->dtype == DTYPE_BF16) { /* inline rounding: a loop the compiler vectorizes */
        for (int64_t k = 0; k < n; k++) {
            uint16_t h = dtype_f32_to_bf16(buf[k]);
            memcpy(data + 2 * (size_t)k, &h, 2);
        }
        return;
    }
    for (int64_t k = 0; k < n; k++)
        dtype_store(t->dtype, data, (size_t)k, (double)buf[k]);
}

void kernel_store_i64(tensor *t, const int64_t *buf, int64_t n)
{
    unsigned char *data = tensor_data(t);
    for (int64_t k = 0; k < n; k++)
        dtype_store_i64(t->dtype, data, (size_t)k, buf[k]);
}

/* Writes buf (row-major over dst's shape) into dst's (strided) elements. */
static void scatter_f64(tensor *dst, const double *buf)
{
    unsigned char *data = dst->storage->data;
    dtype_id dt = dst->dtype;
    KERNEL_WALK(dst, dst->ndim, dst->shape, dtype_store(dt, data, e_, buf[kk_]));
}

static void scatter_i64(tensor *dst, const int64_t *buf)
{
    unsigned char *data = dst->storage->data;
    dtype_id dt = dst->dtype;
    KERNEL_WALK(dst, dst->ndim, dst->shape, dtype_store_i64(dt, data, e_, buf[kk_]));
}

ptodb_status kernel_assign(exec_ctx *ctx, const op_args *a, tensor *dst, const tensor *src,
                           int accumulate)
{
    char tb[160], sb[160];
    /* setitem drops leading unit dims of the value (torch's slicePrefix1sSize) */
    int snd = src->ndim, skip = 0;
    while (snd - skip > dst->ndim && src->shape[skip] == 1)
        skip++;
    const int64_t *sshape = src->shape + skip;
    snd -= skip;
    if (snd > dst->ndim) {
        kernel_fmt_shape(src->ndim, src->shape, sb, sizeof sb);
        kernel_fmt_shape(dst->ndim, dst->shape, tb, sizeof tb);
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: expand(%s, size=%s): the number of sizes provided (%d) must be "
                         "greater or equal to the number of dimensions in the tensor (%d)",
                         kernel_op_name(a), sb, tb, dst->ndim, src->ndim);
    }
    for (int j = snd - 1; j >= 0; j--) { /* expand checks from the last dim */
        int d = dst->ndim - snd + j;
        if (sshape[j] != 1 && sshape[j] != dst->shape[d]) {
            kernel_fmt_shape(dst->ndim, dst->shape, tb, sizeof tb);
            kernel_fmt_shape(src->ndim, src->shape, sb, sizeof sb);
            return exec_fail(ctx, PTODB_ERR_SHAPE,
                             "%s: RuntimeError: The expanded size of the tensor (%lld) must match "
                             "the existing size (%lld) at non-singleton dimension %d.  Target "
                             "sizes: %s.  Tensor sizes: %s",
                             kernel_op_name(a), (long long)dst->shape[d], (long long)sshape[j], d,
                             tb, sb);
        }
    }
    /* src without its skipped unit dims, as a view with the same elements */
    tensor s2 = *src;
    s2.ndim = snd;
    for (int j = 0; j < snd; j++) {
        s2.shape[j] = src->shape[j + skip];
        s2.strides[j] = src->strides[j + skip];
    }
    int64_t n = tensor_numel(dst);
    if (n <= 0)
        return PTODB_OK;
    if (accumulate) {
        kernel_opnd o[2];
        memset(o, 0, sizeof o);
        o[0].cls = dst->ndim ? KOPND_DIM : KOPND_ZERO;
        o[0].dt = dst->dtype;
        o[1].cls = src->ndim ? KOPND_DIM : KOPND_ZERO;
        o[1].dt = src->dtype;
        dtype_id pdt = kernel_result_type(o, 2);
        if (!kernel_can_cast(pdt, dst->dtype))
            return exec_fail(ctx, PTODB_ERR_RUNTIME,
                             "%s: RuntimeError: result type %s can't be cast to the desired "
                             "output type %s",
                             kernel_op_name(a), kernel_torch_type_name(pdt),
                             kernel_torch_type_name(dst->dtype));
        if (dtype_is_float(pdt)) {
            double *sv = xmalloc((size_t)n * sizeof *sv);
            double *dv = xmalloc((size_t)n * sizeof *dv);
            kernel_gather_f64(&s2, dst->ndim, dst->shape, sv);
            kernel_gather_f64(dst, dst->ndim, dst->shape, dv);
            for (int64_t k = 0; k < n; k++)
                dv[k] = kernel_round_to(pdt, kernel_round_to(pdt, dv[k]) + kernel_round_to(pdt, sv[k]));
            scatter_f64(dst, dv);
            free(sv);
            free(dv);
        } else {
            int64_t *sv = xmalloc((size_t)n * sizeof *sv);
            int64_t *dv = xmalloc((size_t)n * sizeof *dv);
            kernel_gather_i64(&s2, dst->ndim, dst->shape, sv);
            kernel_gather_i64(dst, dst->ndim, dst->shape, dv);
            for (int64_t k = 0; k < n; k++)
                dv[k] = pdt == DTYPE_BOOL ? (dv[k] || sv[k])
                                          : (int64_t)((uint64_t)dv[k] + (uint64_t)sv[k]);
            scatter_i64(dst, dv);
            free(sv);
            free(dv);
        }
        return PTODB_OK;
    }
    /* Plain copy: stage the whole source first (overlap-safe). The same
     * dtype copies bytes (torch's copy_ keeps NaN payloads); otherwise as a
     * double when the source is a float and as an int64 otherwise, so that
     * every dtype pair converts by the dtype_store / dtype_store_i64 rules. */
    if (src->dtype == dst->dtype) {
        size_t es = dtype_size(dst->dtype);
        unsigned char *tmp = xmalloc((size_t)n * es);
        const unsigned char *sdata = src->storage->data;
        unsigned char *ddata = dst->storage->data;
        KERNEL_ROWS(&s2, dst->ndim, dst->shape, {
            if (istr_ == 1)
                memcpy(tmp + (size_t)k_ * es, sdata + (size_t)base_ * es, (size_t)inner_ * es);
            else
                for (int64_t j = 0; j < inner_; j++)
                    memcpy(tmp + (size_t)(k_ + j) * es, sdata + (size_t)(base_ + j * istr_) * es, es);
        });
        KERNEL_ROWS(dst, dst->ndim, dst->shape, {
            if (istr_ == 1)
                memcpy(ddata + (size_t)base_ * es, tmp + (size_t)k_ * es, (size_t)inner_ * es);
            else
                for (int64_t j = 0; j < inner_; j++)
                    memcpy(ddata + (size_t)(base_ + j * istr_) * es, tmp + (size_t)(k_ + j) * es, es);
        });
        free(tmp);
    } else if (dtype_is_float(src->dtype)) {
        double *sv = xmalloc((size_t)n * sizeof *sv);
        kernel_gather_f64(&s2, dst->ndim, dst->shape, sv);
        scatter_f64(dst, sv);
        free(sv);
    } else {
        int64_t *sv = xmalloc((size_t)n * sizeof *sv);
        kernel_gather_i64(&s2, dst->ndim, dst->shape, sv);
        scatter_i64(dst, sv);
        free(sv);
    }
    return PTODB_OK;
}

ptodb_status kernel_pad_copy(exec_ctx *ctx, const op_args *a, const tensor *src, int nd,
                             const int64_t *shape, tensor **out)
{
    tensor *buf, *corner;
    ptodb_status st = kernel_zeros(ctx, src->dtype, nd, shape, &buf);
    if (st != PTODB_OK)
        return st;
    st = kernel_head_view(ctx, buf, src->ndim, src->shape, &corner);
    if (st == PTODB_OK) {
        st = kernel_assign(ctx, a, corner, src, 0);
        tensor_unref(corner);
    }
    if (st != PTODB_OK) {
        tensor_unref(buf);
        return st;
    }
    *out = buf;
    return PTODB_OK;
}

/* ---- Python scalar -> element ------------------------------------------- */

static const char *c10_type_name(dtype_id dt)
{
    switch (dt) {
    case DTYPE_BOOL: return "bool";
    case DTYPE_INT8: return "int8_t";
    case DTYPE_INT16: return "int16_t";
    case DTYPE_INT32: return "int";
    case DTYPE_INDEX:
    case DTYPE_INT64: return "int64_t";
    case DTYPE_UINT8: return "uint8_t";
    case DTYPE_FP16: return "c10::Half";
    case DTYPE_BF16: return "c10::BFloat16";
    case DTYPE_FP32: return "float";
    case DTYPE_FP64: return "double";
    default: return dtype_name(dt);
    }
}

static double float_max(dtype_id dt)
{
    switch (dt) {
    case DTYPE_FP16: return 65504.0;
    case DTYPE_BF16: return 3.3895313892515355e38;
    case DTYPE_FP32: return 3.4028234663852886e38;
    default: return INFINITY;
    }
}

static void int_limits(dtype_id dt, int64_t *lo, int64_t *hi)
{
    switch (dt) {
    case DTYPE_INT8: *lo = INT8_MIN; *hi = INT8_MAX; break;
    case DTYPE_UINT8: *lo = 0; *hi = UINT8_MAX; break;
    case DTYPE_INT16: *lo = INT16_MIN; *hi = INT16_MAX; break;
    case DTYPE_UINT16: *lo = 0; *hi = UINT16_MAX; break;
    case DTYPE_INT32: *lo = INT32_MIN; *hi = INT32_MAX; break;
    case DTYPE_UINT32: *lo = 0; *hi = UINT32_MAX; break;
    default: *lo = INT64_MIN; *hi = INT64_MAX; break;
    }
}

ptodb_status kernel_checked_scalar(exec_ctx *ctx, const op_args *a, const value *v, dtype_id dt,
                                   double *f, int64_t *i)
{
    kernel_opnd o;
    ptodb_status st = kernel_opnd_from_value(ctx, a, v, &o);
    if (st != PTODB_OK)
        return st;
    if (o.cls == KOPND_DIM)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: a value must be a number or a 0-d tensor, got a %d-d tensor",
                         kernel_op_name(a), o.t->ndim);
    int overflow = 0;
    *f = 0;
    *i = 0;
    if (dt == DTYPE_BOOL) {
        *i = o.is_int ? o.i != 0 : (o.f != 0 || isnan(o.f));
    } else if (dtype_is_float(dt)) {
        double x = o.is_int ? (double)o.i : o.f;
        if (isfinite(x) && fabs(x) > float_max(dt))
            overflow = 1;
        *f = x;
    } else {
        int64_t lo, hi;
        int_limits(dt, &lo, &hi);
        if (o.is_int) {
            /* c10 accepts a negative value for an unsigned type while its
             * magnitude fits (full(..., -1, uint8) is 255) */
            if (dt == DTYPE_UINT8)
                overflow = o.i > hi || o.i < -hi;
            else
                overflow = o.i < lo || o.i > hi;
            *i = o.i;
        } else {
            double x = o.f;
            if (isnan(x) || x < (double)lo || x >= 9223372036854775808.0 || x > (double)hi)
                overflow = 1; /* NaN and +-inf included: ints have neither */
            else
                *i = (int64_t)x; /* truncation toward zero */
        }
    }
    if (overflow)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: RuntimeError: value cannot be converted to type %s without overflow",
                         kernel_op_name(a), c10_type_name(dt));
    return PTODB_OK;
}

void kernel_fill(tensor *t, double f, int64_t i)
{
    unsigned char *data = t->storage->data;
    dtype_id dt = t->dtype;
    int isf = dtype_is_float(dt);
    KERNEL_WALK(t, t->ndim, t->shape, {
        if (isf)
            dtype_store(dt, data, e_, f);
        else
            dtype_store_i64(dt, data, e_, i);
    });
}

/* ---- elementwise engine ------------------------------------------------- */

static const char *binop_kernel_name(kernel_binop op)
{
    switch (op) {
    case KOP_AND: return "bitwise_and_cpu";
    case KOP_OR: return "bitwise_or_cpu";
    case KOP_XOR: return "bitwise_xor_cpu";
    case KOP_SHL: return "lshift_cpu";
    case KOP_SHR: return "rshift_cpu";
    case KOP_FMOD: return "fmod_cpu";
    case KOP_REM: return "remainder_cpu";
    default: return "binary_op";
    }
}

static int is_cmp(kernel_binop op)
{
    return op >= KOP_EQ;
}

static double f_apply(kernel_binop op, double x, double y)
{
    switch (op) {
    case KOP_ADD: return x + y;
    case KOP_SUB: return x - y;
    case KOP_MUL: return x * y;
    case KOP_DIV: return x / y;
    case KOP_MAX:
        if (isnan(x) || isnan(y))
            return NAN;
        return x > y ? x : y;
    case KOP_MIN:
        if (isnan(x) || isnan(y))
            return NAN;
        return x < y ? x : y;
    case KOP_FMOD: return fmod(x, y);
    case KOP_REM: {
        double r = fmod(x, y);
        if (r != 0 && ((r < 0) != (y < 0)))
            r += y;
        return r;
    }
    case KOP_EQ: return x == y;
    case KOP_NE: return x != y;
    case KOP_LT: return x < y;
    case KOP_LE: return x <= y;
    case KOP_GT: return x > y;
    case KOP_GE: return x >= y;
    default: return NAN;
    }
}

/* Integer op in dtype cdt; returns -1 on integer division by zero. */
static int i_apply(kernel_binop op, int64_t x, int64_t y, dtype_id cdt, int t13, int64_t *r)
{
    int width = cdt == DTYPE_BOOL ? 8 : (int)dtype_size(cdt) * 8;
    switch (op) {
    case KOP_ADD:
        *r = cdt == DTYPE_BOOL ? (x || y) : (int64_t)((uint64_t)x + (uint64_t)y);
        return 0;
    case KOP_SUB: *r = (int64_t)((uint64_t)x - (uint64_t)y); return 0;
    case KOP_MUL:
        *r = cdt == DTYPE_BOOL ? (x && y) : (int64_t)((uint64_t)x * (uint64_t)y);
        return 0;
    case KOP_MAX: *r = x > y ? x : y; return 0;
    case KOP_MIN: *r = x < y ? x : y; return 0;
    case KOP_FMOD:
    case KOP_REM:
        if (y == 0)
            return -1;
        if (y == -1) {
            *r = 0;
            return 0;
        }
        *r = x % y;
        if (op == KOP_REM && *r != 0 && ((*r < 0) != (y < 0)))
            *r += y;
        return 0;
    case KOP_AND: *r = x & y; return 0;
    case KOP_OR: *r = x | y; return 0;
    case KOP_XOR: *r = x ^ y; return 0;
    case KOP_SHL:
        if (t13) {
            /* x86 masks the count: 32-bit arithmetic for types up to int32 */
            if (width <= 32)
                *r = (int64_t)(int32_t)((uint32_t)(uint64_t)x << ((uint64_t)y & 31));
            else
                *r = (int64_t)((uint64_t)x << ((uint64_t)y & 63));
        } else {
            *r = (y < 0 || y >= width) ? 0 : (int64_t)((uint64_t)x << y);
        }
        return 0;
    case KOP_SHR:
        if (t13) /* x86 masks the count here too (torch 1.13: int32 8 >> 33 == 4) */
            *r = width <= 32 ? (int64_t)((int32_t)x >> ((uint64_t)y & 31))
                             : x >> ((uint64_t)y & 63);
        else if (y < 0 || y >= width)
            *r = x < 0 ? -1 : 0;
        else
            *r = x >> y;
        return 0;
    case KOP_EQ: *r = x == y; return 0;
    case KOP_NE: *r = x != y; return 0;
    case KOP_LT: *r = x < y; return 0;
    case KOP_LE: *r = x <= y; return 0;
    case KOP_GT: *r = x > y; return 0;
    case KOP_GE: *r = x >= y; return 0;
    default: *r = 0; return 0;
    }
}

/* One operand's values in compute precision, broadcast to the result shape:
 * either a buffer or a constant. */
typedef struct ew_src {
    double *f;
    int64_t *i;
    double cf;
    int64_t ci;
} ew_src;

static void ew_load(const kernel_opnd *o, int isf, dtype_id cdt, int widen, int nd,
                    const int64_t *shape, int64_t n, ew_src *s)
{
    memset(s, 0, sizeof *s);
    if (o->cls == KOPND_DIM) {
        if (isf) {
            s->f = xmalloc((size_t)(n ? n : 1) * sizeof *s->f);
            kernel_gather_f64(o->t, nd, shape, s->f);
            if (norm_dt(o->t->dtype) != cdt)
                for (int64_t k = 0; k < n; k++)
                    s->f[k] = kernel_round_to(cdt, s->f[k]);
        } else {
            s->i = xmalloc((size_t)(n ? n : 1) * sizeof *s->i);
            kernel_gather_i64(o->t, nd, shape, s->i);
            if (norm_dt(o->t->dtype) != cdt)
                for (int64_t k = 0; k < n; k++)
                    s->i[k] = kernel_wrap_int(cdt, s->i[k]);
        }
        return;
    }
    if (isf) {
        double x = o->is_int ? (double)o->i : o->f;
        /* "widened": the scalar enters opmath as a float; "narrowed": it is
         * first converted to the compute dtype (semantics.md §1.5) */
        if (widen && (cdt == DTYPE_BF16 || cdt == DTYPE_FP16))
            s->cf = (double)(float)x;
        else
            s->cf = kernel_round_to(cdt, x);
    } else {
        s->ci = kernel_wrap_int(cdt, o->is_int ? o->i : dtype_trunc_i64(o->f));
    }
}

static void ew_free(ew_src *s)
{
    free(s->f);
    free(s->i);
}

/* The common float32 case without staging: + - * / on contiguous float32
 * tensors of the result's shape or scalars (converted to float32, which is
 * what both profiles do for a float32 result). A float32 operation is the
 * correctly rounded result, the same bits the general path produces. */
static int fast_f32(kernel_binop op, const kernel_opnd *o, dtype_id rdt, int nd,
                    const int64_t *shape, tensor *r, int64_t n)
{
    if (rdt != DTYPE_FP32 || op > KOP_DIV)
        return 0;
    const float *p[2] = {NULL, NULL};
    float c[2] = {0, 0}, *widened[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        if (o[k].cls == KOPND_DIM) {
            const tensor *t = o[k].t;
            if ((t->dtype != DTYPE_FP32 && t->dtype != DTYPE_BF16) || t->ndim != nd ||
                !tensor_is_contiguous(t) ||
                memcmp(t->shape, shape, (size_t)nd * sizeof *shape) != 0)
                return 0;
            p[k] = (const float *)tensor_data(t);
        } else {
            c[k] = (float)(o[k].is_int ? (double)o[k].i : o[k].f);
        }
    }
    /* a bf16 operand of a float32 result: widened exactly (torch computes
     * in float32 after promotion) */
    for (int k = 0; k < 2; k++)
        if (p[k] && o[k].t->dtype == DTYPE_BF16) {
            widened[k] = xmalloc((size_t)(n ? n : 1) * sizeof *widened[k]);
            const uint16_t *h = (const uint16_t *)tensor_data(o[k].t);
            for (int64_t i = 0; i < n; i++) {
                uint32_t u = (uint32_t)h[i] << 16;
                memcpy(&widened[k][i], &u, sizeof u);
            }
            p[k] = widened[k];
        }
    float *d = (float *)tensor_data(r);
    /* eight lanes at a time (elementwise IEEE operations: the same bits as
     * one at a time); a constant operand is splat */
    typedef float v8f __attribute__((vector_size(32)));
    v8f cv[2];
    for (int k = 0; k < 2; k++)
        for (int l = 0; l < 8; l++)
            cv[k][l] = c[k];
    int64_t i = 0;
#define FAST_F32_LOOP(OPR)                                                         \
    do {                                                                           \
        for (; i + 8 <= n; i += 8) {                                               \
            v8f x = cv[0], y = cv[1], z;                                           \
            if (p[0])                                                              \
                memcpy(&x, p[0] + i, sizeof x);                                    \
            if (p[1])                                                              \
                memcpy(&y, p[1] + i, sizeof y);                                    \
            z = x OPR y;                                                           \
            memcpy(d + i, &z, sizeof z);                                           \
        }                                                                          \
        for (; i < n; i++)                                                         \
            d[i] = (p[0] ? p[0][i] : c[0]) OPR (p[1] ? p[1][i] : c[1]);            \
    } while (0)
    switch (op) {
    case KOP_ADD: FAST_F32_LOOP(+); break;
    case KOP_SUB: FAST_F32_LOOP(-); break;
    case KOP_MUL: FAST_F32_LOOP(*); break;
    default: FAST_F32_LOOP(/); break;
    }
#undef FAST_F32_LOOP
    free(widened[0]);
    free(widened[1]);
    return 1;
}

static ptodb_status binary_core(exec_ctx *ctx, const op_args *a, kernel_binop op,
                                const kernel_opnd *o, tensor **out)
{
    dtype_id rdt = kernel_result_type(o, 2);
    if (op == KOP_DIV && !dtype_is_float(rdt))
        rdt = DTYPE_FP32; /* true division */
    dtype_id cdt = rdt;
    int isf = dtype_is_float(cdt);
    if ((op == KOP_AND || op == KOP_OR || op == KOP_XOR) && isf)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: RuntimeError: \"%s\" not implemented for '%s'",
                         kernel_op_name(a), binop_kernel_name(op), kernel_torch_type_name(cdt));
    if ((op == KOP_SHL || op == KOP_SHR || op == KOP_FMOD || op == KOP_REM) &&
        (cdt == DTYPE_BOOL || ((op == KOP_SHL || op == KOP_SHR) && isf)))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: RuntimeError: \"%s\" not implemented for '%s'",
                         kernel_op_name(a), binop_kernel_name(op), kernel_torch_type_name(cdt));
    /* torch's sub_check: any bool operand (a Python bool too) is refused */
    if (op == KOP_SUB && (o[0].dt == DTYPE_BOOL || o[1].dt == DTYPE_BOOL))
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: RuntimeError: Subtraction, the `-` operator, with %s is not "
                         "supported. If you are trying to invert a mask, use the `~` or "
                         "`logical_not()` operator instead.",
                         kernel_op_name(a),
                         o[0].dt == DTYPE_BOOL && o[1].dt == DTYPE_BOOL ? "two bool tensors"
                                                                       : "a bool tensor");
    int nds[2] = {o[0].cls == KOPND_DIM ? o[0].t->ndim : 0, o[1].cls == KOPND_DIM ? o[1].t->ndim : 0};
    const int64_t *shapes[2] = {o[0].t ? o[0].t->shape : NULL, o[1].t ? o[1].t->shape : NULL};
    int nd;
    int64_t shape[TENSOR_MAX_DIMS];
    ptodb_status st = kernel_broadcast(ctx, 2, nds, shapes, &nd, shape);
    if (st != PTODB_OK)
        return st;
    tensor *r;
    st = kernel_zeros(ctx, is_cmp(op) ? DTYPE_BOOL : rdt, nd, shape, &r);
    if (st != PTODB_OK)
        return st;
    int64_t n = tensor_numel(r);
    int t13 = exec_profile(ctx) == EXEC_PROFILE_T13;
    int widen = is_cmp(op) || ((op == KOP_MUL || op == KOP_DIV) && !t13);
    if (fast_f32(op, o, rdt, nd, shape, r, n)) {
        *out = r;
        return PTODB_OK;
    }
    ew_src s[2];
    ew_load(&o[0], isf, cdt, widen, nd, shape, n, &s[0]);
    ew_load(&o[1], isf, cdt, widen, nd, shape, n, &s[1]);
    if (isf) {
        double *res = xmalloc((size_t)(n ? n : 1) * sizeof *res);
        for (int64_t k = 0; k < n; k++)
            res[k] = f_apply(op, s[0].f ? s[0].f[k] : s[0].cf, s[1].f ? s[1].f[k] : s[1].cf);
        if (is_cmp(op)) {
            unsigned char *b = tensor_data(r);
            for (int64_t k = 0; k < n; k++)
                b[k] = res[k] != 0;
        } else {
            kernel_store_f64(r, res, n);
        }
        free(res);
    } else {
        int64_t *res = xmalloc((size_t)(n ? n : 1) * sizeof *res);
        for (int64_t k = 0; k < n; k++) {
            if (i_apply(op, s[0].i ? s[0].i[k] : s[0].ci, s[1].i ? s[1].i[k] : s[1].ci, cdt, t13,
                        &res[k]) != 0) {
                free(res);
                ew_free(&s[0]);
                ew_free(&s[1]);
                tensor_unref(r);
                return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: RuntimeError: ZeroDivisionError",
                                 kernel_op_name(a));
            }
        }
        kernel_store_i64(r, res, n);
        free(res);
    }
    ew_free(&s[0]);
    ew_free(&s[1]);
    *out = r;
    return PTODB_OK;
}

ptodb_status kernel_binary(exec_ctx *ctx, const op_args *a, kernel_binop op, const value *x,
                           const value *y, tensor **out)
{
    kernel_opnd o[2];
    ptodb_status st = kernel_opnd_from_value(ctx, a, x, &o[0]);
    if (st == PTODB_OK)
        st = kernel_opnd_from_value(ctx, a, y, &o[1]);
    if (st != PTODB_OK)
        return st;
    if ((op == KOP_MAX || op == KOP_MIN) && (o[0].cls == KOPND_NUMBER || o[1].cls == KOPND_NUMBER)) {
        int pos = o[0].cls == KOPND_NUMBER ? 0 : 1;
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: TypeError: %s(): argument '%s' (position %d) must be Tensor, not %s",
                         kernel_op_name(a), op == KOP_MAX ? "maximum" : "minimum",
                         pos ? "other" : "input", pos + 1,
                         value_type_name(pos ? y : x));
    }
    if (o[0].cls != KOPND_DIM && o[0].cls != KOPND_ZERO && o[1].cls == KOPND_NUMBER)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: expected a Tensor operand",
                         kernel_op_name(a));
    return binary_core(ctx, a, op, o, out);
}

static void opnd_of_tensor(const tensor *t, kernel_opnd *o)
{
    memset(o, 0, sizeof *o);
    o->t = t;
    o->dt = norm_dt(t->dtype);
    if (t->ndim == 0) {
        o->cls = KOPND_ZERO;
        o->is_int = !dtype_is_float(t->dtype);
        o->f = tensor_get(t, NULL);
        o->i = o->is_int ? tensor_get_i64(t, NULL) : 0;
    } else {
        o->cls = KOPND_DIM;
    }
}

ptodb_status kernel_binary_t(exec_ctx *ctx, const op_args *a, kernel_binop op, const tensor *x,
                             const tensor *y, tensor **out)
{
    kernel_opnd o[2];
    opnd_of_tensor(x, &o[0]);
    opnd_of_tensor(y, &o[1]);
    return binary_core(ctx, a, op, o, out);
}

ptodb_status kernel_where(exec_ctx *ctx, const op_args *a, const value *mask, const value *x,
                          const value *y, tensor **out)
{
    kernel_opnd o[3];
    ptodb_status st = kernel_opnd_from_value(ctx, a, mask, &o[0]);
    if (st == PTODB_OK)
        st = kernel_opnd_from_value(ctx, a, x, &o[1]);
    if (st == PTODB_OK)
        st = kernel_opnd_from_value(ctx, a, y, &o[2]);
    if (st != PTODB_OK)
        return st;
    if (o[0].cls == KOPND_NUMBER)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: TypeError: where(): argument 'condition' must be Tensor, not %s",
                         kernel_op_name(a), value_type_name(mask));
    int t13 = exec_profile(ctx) == EXEC_PROFILE_T13;
    if (o[0].t->dtype != DTYPE_BOOL && !(t13 && o[0].t->dtype == DTYPE_UINT8))
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: RuntimeError: where expected condition to be a boolean tensor, but "
                         "got a tensor with dtype %s",
                         kernel_op_name(a), kernel_torch_type_name(o[0].t->dtype));
    dtype_id rdt = kernel_result_type(&o[1], 2);
    int nds[3], nd;
    const int64_t *shapes[3];
    int64_t shape[TENSOR_MAX_DIMS];
    for (int k = 0; k < 3; k++) {
        nds[k] = o[k].cls == KOPND_DIM ? o[k].t->ndim : 0;
        shapes[k] = o[k].t ? o[k].t->shape : NULL;
    }
    st = kernel_broadcast(ctx, 3, nds, shapes, &nd, shape);
    if (st != PTODB_OK)
        return st;
    tensor *r;
    st = kernel_zeros(ctx, rdt, nd, shape, &r);
    if (st != PTODB_OK)
        return st;
    int64_t n = tensor_numel(r);
    int isf = dtype_is_float(rdt);
    ew_src m, s[2];
    /* the mask as integers: 0 / non-zero */
    ew_load(&o[0], 0, DTYPE_INT64, 0, nd, shape, n, &m);
    if (o[0].cls == KOPND_ZERO)
        m.ci = o[0].is_int ? o[0].i : (o[0].f != 0);
    ew_load(&o[1], isf, rdt, 0, nd, shape, n, &s[0]);
    ew_load(&o[2], isf, rdt, 0, nd, shape, n, &s[1]);
    if (isf) {
        double *res = xmalloc((size_t)(n ? n : 1) * sizeof *res);
        for (int64_t k = 0; k < n; k++) {
            int64_t c = m.i ? m.i[k] : m.ci;
            res[k] = c ? (s[0].f ? s[0].f[k] : s[0].cf) : (s[1].f ? s[1].f[k] : s[1].cf);
        }
        kernel_store_f64(r, res, n);
        free(res);
    } else {
        int64_t *res = xmalloc((size_t)(n ? n : 1) * sizeof *res);
        for (int64_t k = 0; k < n; k++) {
            int64_t c = m.i ? m.i[k] : m.ci;
            res[k] = c ? (s[0].i ? s[0].i[k] : s[0].ci) : (s[1].i ? s[1].i[k] : s[1].ci);
        }
        kernel_store_i64(r, res, n);
        free(res);
    }
    ew_free(&m);
    ew_free(&s[0]);
    ew_free(&s[1]);
    *out = r;
    return PTODB_OK;
}

/* SLEEF's expf_u10 as torch 1.13's AVX2 kernels run it (Sleef_expf8_u10,
 * its multiply-adds fused): the fixtures' REF computes fp32 exp this way,
 * bit for bit. Used under the t13 profile. */
static float sleef_expf(float d)
{
    if (isnan(d))
        return d;
    if (d < -104.0f)
        return 0.0f;
    if (d > 100.0f)
        return INFINITY;
    const float r_ln2 = 1.442695040888963407359924681001892137426645954152985934135449406931f;
    const float l2u = 0.693145751953125f, l2l = 1.428606765330187045e-06f;
    int q = (int)nearbyintf(d * r_ln2); /* cvtps2dq: to nearest even */
    float qf = (float)q;
    float s = fmaf(qf, -l2u, d);
    s = fmaf(qf, -l2l, s);
    float u = 0.000198527617612853646278381f;
    u = fmaf(u, s, 0.00139304355252534151077271f);
    u = fmaf(u, s, 0.00833336077630519866943359f);
    u = fmaf(u, s, 0.0416664853692054748535156f);
    u = fmaf(u, s, 0.166666671633720397949219f);
    u = fmaf(u, s, 0.5f);
    float ss = s * s;
    u = 1.0f + fmaf(ss, u, s);
    /* vldexp2: two exact power-of-two scalings, as SLEEF splits q */
    int q1 = q >> 1, q2 = q - q1;
    u *= dtype_f32_from_bits((uint32_t)(q1 + 0x7f) << 23);
    u *= dtype_f32_from_bits((uint32_t)(q2 + 0x7f) << 23);
    return u;
}

/* SLEEF's double-float helpers (FMA flavour) for sleef_logf. */
typedef struct { float x, y; } df2;

static df2 df_add2_ff(float x, float y)
{
    float s = x + y, v = s - x;
    df2 r = {s, (x - (s - v)) + (y - v)};
    return r;
}

static df2 df_add_22(df2 x, df2 y) /* |x| >= |y| */
{
    float s = x.x + y.x;
    df2 r = {s, (((x.x - s) + y.x) + x.y) + y.y};
    return r;
}

static df2 df_add_2f(df2 x, float y)
{
    float s = x.x + y;
    df2 r = {s, ((x.x - s) + y) + x.y};
    return r;
}

static df2 df_mul_2f(df2 x, float y)
{
    float s = x.x * y;
    df2 r = {s, fmaf(x.y, y, fmaf(x.x, y, -s))};
    return r;
}

static df2 df_div(df2 n, df2 d)
{
    float t = 1.0f / d.x, s = n.x * t;
    float u = fmaf(t, n.x, -s);
    float v = fmaf(-d.y, t, fmaf(-d.x, t, 1.0f));
    df2 r = {s, fmaf(s, v, fmaf(n.y, t, u))};
    return r;
}

/* SLEEF's logf_u1 (Sleef_logf8_u10) as torch 1.13's AVX2 kernels run it:
 * the fixtures' REF computes fp32 log this way (checked bit for bit against
 * Debian's torch 1.13 on 27k values, subnormals and specials included). */
static float sleef_logf(float d)
{
    if (isnan(d) || d < 0.0f)
        return NAN;
    if (d == 0.0f)
        return -INFINITY;
    if (isinf(d))
        return INFINITY;
    int o = d < 1.17549435e-38f; /* FLT_MIN: scale subnormals up by 2^64 */
    if (o)
        d = d * (18446744073709551616.0f);
    int e = (int)((dtype_f32_bits(d * (1.0f / 0.75f)) >> 23) & 0xff) - 0x7f;
    float m = dtype_f32_from_bits(dtype_f32_bits(d) + (uint32_t)((uint32_t)(-e) << 23));
    if (o)
        e -= 64;
    df2 ln2 = {0.69314718246459960938f, -1.904654323148236017e-09f};
    df2 s = df_mul_2f(ln2, (float)e);
    df2 x = df_div(df_add2_ff(-1.0f, m), df_add2_ff(1.0f, m));
    float x2 = x.x * x.x;
    float t = 0.3027294874e+0f;
    t = fmaf(t, x2, 0.3996108174e+0f);
    t = fmaf(t, x2, 0.6666694880e+0f);
    df2 x2s = {x.x * 2.0f, x.y * 2.0f};
    s = df_add_22(s, x2s);
    s = df_add_2f(s, (x2 * x.x) * t);
    return s.x + s.y;
}

static const char *unop_kernel_name(kernel_unop op)
{
    switch (op) {
    case KUN_EXP: return "exp_vml_cpu";
    case KUN_LOG: return "log_vml_cpu";
    case KUN_SQRT: return "sqrt_vml_cpu";
    case KUN_RSQRT: return "rsqrt_cpu";
    case KUN_RELU: return "clamp_min_cpu";
    case KUN_ABS: return "abs_cpu";
    case KUN_NOT: return "bitwise_not_cpu";
    default: return "unary_op";
    }
}

/* Whether torch 1.13's cpu_kernel_vec computes element k (row-major) of a
 * bf16 unary op in its vector loop (blocks of two 16-lane vectors over the
 * contiguous inner run) or in the scalar tail. Only bf16 rsqrt differs. */
static int rsqrt_vector_lane(const tensor *x, int64_t k)
{
    if (x->ndim == 0)
        return 0;
    if (tensor_is_contiguous(x))
        return k < tensor_numel(x) / 32 * 32;
    int64_t row = x->shape[x->ndim - 1];
    if (x->strides[x->ndim - 1] != 1 || row <= 0)
        return 0;
    return k % row < row / 32 * 32;
}

ptodb_status kernel_unary(exec_ctx *ctx, const op_args *a, kernel_unop op, const tensor *x,
                          tensor **out)
{
    dtype_id dt = norm_dt(x->dtype);
    int t13 = exec_profile(ctx) == EXEC_PROFILE_T13;
    int transcend = op == KUN_EXP || op == KUN_LOG || op == KUN_SQRT || op == KUN_RSQRT ||
                    op == KUN_RECIP || op == KUN_SIN || op == KUN_COS;
    dtype_id rdt = transcend && !dtype_is_float(dt) ? DTYPE_FP32 : dt;
    if (op == KUN_NEG && dt == DTYPE_BOOL)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: RuntimeError: Negation, the `-` operator, on a bool tensor is not "
                         "supported. If you are trying to invert a mask, use the `~` or "
                         "`logical_not()` operator instead.",
                         kernel_op_name(a));
    if (op == KUN_RELU && dt == DTYPE_BOOL)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: RuntimeError: Boolean inputs not supported for relu",
                         kernel_op_name(a));
    if ((op == KUN_NOT && dtype_is_float(dt)) || (op == KUN_ABS && dt == DTYPE_BOOL) ||
        (t13 && dt == DTYPE_FP16 && op != KUN_RECIP && op != KUN_SIN && op != KUN_COS &&
         (transcend || op == KUN_RELU)))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: RuntimeError: \"%s\" not implemented for '%s'",
                         kernel_op_name(a), unop_kernel_name(op), kernel_torch_type_name(dt));
    tensor *r;
    ptodb_status st = kernel_zeros(ctx, rdt, x->ndim, x->shape, &r);
    if (st != PTODB_OK)
        return st;
    int64_t n = tensor_numel(r);
    if (dtype_is_float(rdt)) {
        double *v = xmalloc((size_t)(n ? n : 1) * sizeof *v);
        kernel_gather_f64(x, x->ndim, x->shape, v);
        for (int64_t k = 0; k < n; k++) {
            double t = dt != rdt ? kernel_round_to(rdt, v[k]) : v[k];
            switch (op) {
            case KUN_NEG: t = -t; break;
            /* class A: computed in double, rounded once (semantics.md §1.7) */
            case KUN_EXP:
                /* t13: REF's SLEEF kernel (fp32, and bf16 through fp32) */
                t = t13 && (rdt == DTYPE_FP32 || rdt == DTYPE_BF16) ? (double)sleef_expf((float)t)
                                                                    : exp(t);
                break;
            case KUN_LOG:
                t = t13 && (rdt == DTYPE_FP32 || rdt == DTYPE_BF16) ? (double)sleef_logf((float)t)
                                                                    : log(t);
                break;
            case KUN_SQRT: t = sqrt(t); break;
            /* class A too: torch.sin/cos, computed in double, rounded once */
            case KUN_SIN: t = sin(t); break;
            case KUN_COS: t = cos(t); break;
            case KUN_RSQRT:
                /* 1/sqrt(x) with both roundings of the opmath type */
                if (rdt == DTYPE_FP64)
                    t = 1.0 / sqrt(t);
                else if (t13 && rdt == DTYPE_BF16 && !rsqrt_vector_lane(x, k))
                    /* torch 1.13's scalar tail: 1 / std::sqrt(bf16), the
                     * root rounded to bf16 first */
                    t = 1.0 / (double)dtype_round_bf16((float)sqrt(t));
                else
                    t = 1.0 / (double)(float)sqrt(t);
                break;
            case KUN_RECIP: t = 1.0 / t; break;
            case KUN_ABS: t = fabs(t); break;
            case KUN_RELU: t = isnan(t) ? t : (t > 0 ? t : 0.0); break;
            default: break;
            }
            v[k] = t;
        }
        kernel_store_f64(r, v, n);
        free(v);
    } else {
        int64_t *v = xmalloc((size_t)(n ? n : 1) * sizeof *v);
        kernel_gather_i64(x, x->ndim, x->shape, v);
        for (int64_t k = 0; k < n; k++) {
            int64_t t = v[k];
            switch (op) {
            case KUN_NEG: t = (int64_t)(0 - (uint64_t)t); break;
            case KUN_ABS: t = t < 0 ? (int64_t)(0 - (uint64_t)t) : t; break;
            case KUN_RELU: t = t > 0 ? t : 0; break;
            case KUN_NOT: t = dt == DTYPE_BOOL ? !t : ~t; break;
            default: break;
            }
            v[k] = t;
        }
        kernel_store_i64(r, v, n);
        free(v);
    }
    *out = r;
    return PTODB_OK;
}

/* Argument access and names for messages (kernel_util.h, "names" and
 * "arguments"). */
#include "exec/kernel_util.h"

#include <stdio.h>

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
    case DTYPE_FP8E4M3FN: return "Float8_e4m3fn";
    case DTYPE_FP8E5M2: return "Float8_e5m2";
    case DTYPE_FP8E8M0: return "Float8_e8m0fnu";
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

const char *kernel_value_type_name(const value *v)
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
                         kernel_op_name(a), i, kernel_value_type_name(v));
    *out = v->u.t;
    return PTODB_OK;
}

ptodb_status kernel_int(exec_ctx *ctx, const op_args *a, const value *v, const char *what,
                        int64_t *out)
{
    *out = 0;
    if (value_as_int(v, out) != 0)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: %s must be an int, not %s",
                         kernel_op_name(a), what, kernel_value_type_name(v));
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
                     kernel_op_name(a), what, kernel_value_type_name(v));
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

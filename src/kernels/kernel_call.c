/* The caller's side of a kernel (kernel_call), names and shapes for
 * messages, and fresh zeros (kernel_util.h, "the caller" and "names"). */
#include "kernels/kernel_util.h"

#include <stdarg.h>
#include <stdio.h>

/* ---- the caller ---------------------------------------------------------- */

ptodb_status kernels_fail(kernel_call *kc, ptodb_status st, const char *fmt, ...)
{
    va_list ap;
    if (kc->failed)
        return st;
    va_start(ap, fmt);
    vsnprintf(kc->msg, sizeof kc->msg, fmt, ap);
    va_end(ap);
    kc->failed = 1;
    kc->status = st;
    return st;
}

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

ptodb_status kernels_zeros(kernel_call *kc, dtype_id dt, int nd, const int64_t *shape, tensor **out)
{
    char buf[160];
    int64_t n = tensor_shape_numel(nd, shape);
    if (n < 0 || !kernel_shape_ok(nd, shape)) {
        kernel_fmt_shape(nd, shape, buf, sizeof buf);
        return kernels_fail(kc, PTODB_ERR_SHAPE, "invalid shape %s", buf);
    }
    if (n > KERNEL_MAX_ELEMS) {
        kernel_fmt_shape(nd, shape, buf, sizeof buf);
        return kernels_fail(kc, PTODB_ERR_UNSUPPORTED, "tensor of shape %s is too large for ptodb",
                            buf);
    }
    ptodb_status st;
    tensor *t = tensor_zeros(dt, nd, shape, &st);
    if (!t) {
        kernel_fmt_shape(nd, shape, buf, sizeof buf);
        return kernels_fail(kc, st, "cannot allocate a tensor of shape %s", buf);
    }
    *out = t;
    return PTODB_OK;
}

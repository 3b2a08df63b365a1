/* torch dtype promotion, rounding and wrapping (kernel_util.h, "dtypes"). */
#include "kernels/kernel_util.h"

#include <string.h>

#define KDT_UNDEF DTYPE_COUNT

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

void kernel_opnd_of_tensor(const tensor *t, kernel_opnd *o)
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

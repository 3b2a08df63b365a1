/* Python scalar -> tensor element with torch's checks, and fills
 * (kernel_util.h, "Python scalar -> element"). */
#include "kernels/kernel_walk.h"

#include <math.h>

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

ptodb_status kernels_checked_scalar(kernel_call *kc, const kernel_opnd *op, dtype_id dt, double *f,
                                    int64_t *i)
{
    kernel_opnd o = *op;
    if (o.cls == KOPND_DIM)
        return kernels_fail(kc, PTODB_ERR_RUNTIME,
                            "%s: a value must be a number or a 0-d tensor, got a %d-d tensor",
                            kc->op, o.t->ndim);
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
        return kernels_fail(kc, PTODB_ERR_RUNTIME,
                            "%s: RuntimeError: value cannot be converted to type %s without overflow",
                            kc->op, c10_type_name(dt));
    return PTODB_OK;
}

void kernel_fill(tensor *t, double f, int64_t i)
{
    unsigned char *data = t->storage->data;
    dtype_id dt = t->dtype;
    size_t es = dtype_size(dt);
    /* the element's bytes, made once (a pure function of the value): then
     * copied to every element, rows of the common sizes as words */
    unsigned char pat[8] = {0};
    if (dtype_is_float(dt))
        dtype_store(dt, pat, 0, f);
    else
        dtype_store_i64(dt, pat, 0, i);
    KERNEL_ROWS(t, t->ndim, t->shape, {
        unsigned char *row = data + (size_t)base_ * es;
        if (istr_ == 1 && es == 1) {
            memset(row, pat[0], (size_t)inner_);
        } else if (istr_ == 1 && inner_ > 0) {
            /* the first element, then the filled part copied onto the
             * rest, doubling */
            size_t total = (size_t)inner_ * es;
            size_t done = es;
            memcpy(row, pat, es);
            while (done < total) {
                size_t step = done < total - done ? done : total - done;
                memcpy(row + done, row, step);
                done += step;
            }
        } else
            for (int64_t j = 0; j < inner_; j++)
                memcpy(row + (size_t)(j * istr_) * es, pat, es);
    });
}

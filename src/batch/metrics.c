#include "batch/metrics.h"

#include <math.h>
#include <string.h>

#include "exec/compare.h"
#include "tensor/dtype.h"

/* Sign-magnitude bits mapped onto a line where adjacent values of the dtype
 * are adjacent integers (so -0 and +0 are one apart, as IEEE orders them). */
static int64_t ordered_bits(dtype_id dt, double v)
{
    uint64_t mag, sign;
    switch (dt) {
    case DTYPE_FP32: {
        uint32_t u = dtype_f32_bits((float)v);
        sign = u >> 31;
        mag = u & 0x7FFFFFFFu;
        break;
    }
    case DTYPE_BF16: {
        uint16_t u = dtype_f32_to_bf16((float)v);
        sign = u >> 15;
        mag = u & 0x7FFFu;
        break;
    }
    case DTYPE_FP16: {
        uint16_t u = dtype_f32_to_f16((float)v);
        sign = u >> 15;
        mag = u & 0x7FFFu;
        break;
    }
    case DTYPE_FP64: {
        uint64_t u;
        memcpy(&u, &v, sizeof u);
        sign = u >> 63;
        mag = u & 0x7FFFFFFFFFFFFFFFull;
        /* keep the distance inside int64 */
        mag >>= 1;
        break;
    }
    default: /* integers and bool: the value itself */
        return (int64_t)v;
    }
    return sign ? -(int64_t)mag - 1 : (int64_t)mag;
}

void batch_metrics_compute(const tensor *act, const tensor *gold, double rtol, double atol, int nan_dont_care,
                           exec_profile_id profile, batch_metrics *m)
{
    memset(m, 0, sizeof *m);
    m->first_bad = -1;
    m->max_ulp_index = -1;
    int same = act->ndim == gold->ndim;
    for (int d = 0; same && d < act->ndim; d++)
        same = act->shape[d] == gold->shape[d];
    int64_t na = tensor_numel(act), ng = tensor_numel(gold);
    for (int64_t k = 0; k < na; k++) {
        double a = tensor_get_flat(act, k);
        m->nan_actual += isnan(a) != 0;
        m->inf_actual += isinf(a) != 0;
    }
    for (int64_t k = 0; k < ng; k++) {
        double g = tensor_get_flat(gold, k);
        m->nan_golden += isnan(g) != 0;
        m->inf_golden += isinf(g) != 0;
    }
    if (!same)
        return;
    m->count = na;
    m->ndim = act->ndim;
    dtype_id dt = act->dtype;
    /* the one mismatch rule: the validator's */
    exec_compare_result cr;
    exec_compare(act, gold, rtol, atol, profile, nan_dont_care, &cr);
    if (!cr.error) {
        m->outside = cr.mismatches;
        m->first_bad = cr.first_bad;
        if (cr.first_bad >= 0) {
            m->first_bad_actual = tensor_get_flat(act, cr.first_bad);
            m->first_bad_golden = tensor_get_flat(gold, cr.first_bad);
        }
    }
    for (int64_t k = 0; k < na; k++) {
        double a = tensor_get_flat(act, k), g = tensor_get_flat(gold, k);
        double d = fabs(a - g);
        if (g != 0 && isfinite(g) && isfinite(a)) {
            double r = d / fabs(g);
            if (r > m->max_rel)
                m->max_rel = r;
        }
        if (!isnan(a) && !isnan(g) && a != g) {
            int64_t oa = ordered_bits(dt, a), og = ordered_bits(dt, g);
            uint64_t u = oa > og ? (uint64_t)oa - (uint64_t)og : (uint64_t)og - (uint64_t)oa;
            if (u > m->max_ulp) {
                m->max_ulp = u;
                m->max_ulp_index = k;
            }
        }
    }
    m->outside_share = na ? (double)m->outside / (double)na : 0.0;
    if (m->first_bad >= 0) {
        int64_t rem = m->first_bad;
        for (int d = act->ndim - 1; d >= 0; d--) {
            int64_t n = act->shape[d] ? act->shape[d] : 1;
            m->first_bad_index[d] = rem % n;
            rem /= n;
        }
    }
}

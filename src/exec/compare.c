/* allclose and max_abs_diff as REF computes them (semantics.md §7.3). */
#include "exec/compare.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "kernels/kernel_util.h"

void exec_format_e6(double v, char *buf, size_t size)
{
    if (isnan(v))
        snprintf(buf, size, "nan");
    else if (isinf(v))
        snprintf(buf, size, "%s", v < 0 ? "-inf" : "inf");
    else
        snprintf(buf, size, "%.6e", v);
}

static float round_to(dtype_id dt, float f)
{
    if (dt == DTYPE_BF16)
        return dtype_round_bf16(f);
    if (dt == DTYPE_FP16)
        return dtype_round_f16(f);
    return f;
}

static int64_t wrap_int(dtype_id dt, int64_t v)
{
    switch (dt) {
    case DTYPE_INT8: return (int8_t)v;
    case DTYPE_UINT8: return (uint8_t)v;
    case DTYPE_INT16: return (int16_t)v;
    case DTYPE_INT32: return (int32_t)v;
    default: return v;
    }
}

/* The least fraction an element outside the tolerance gets: above 1 as a
 * float too, so that a fraction > 1 always means "outside". */
#define OVER_MIN (1.0 + FLT_EPSILON)

/* One element's error as a fraction of its tolerance: d the difference as
 * the validator computed it, allowed its tolerance, equal and close the
 * validator's verdicts (an equal element is 0 off; a close one at most 1
 * whatever the rounding of the division, one not close above 1). */
static double tol_frac(double d, double allowed, int equal, int close)
{
    if (equal)
        return 0;
    if (isnan(d))
        return NAN;
    if (isinf(d))
        return INFINITY;
    double f = allowed > 0 ? d / allowed : d > 0 ? INFINITY : 0;
    if (close && f > 1)
        f = 1;
    if (!close && !(f >= OVER_MIN))
        f = OVER_MIN;
    return f;
}

/* Records element k's fraction f (tol_frac) in frac and in the margin. */
static void note_frac(float *frac, int64_t k, double f, double d, double *margin, int *nan_margin)
{
    if (frac)
        frac[k] = isfinite(d) ? (float)f : NAN;
    if (isnan(f))
        *nan_margin = 1;
    else if (f > *margin)
        *margin = f;
}

void exec_compare(const tensor *act, const tensor *exp, double rtol, double atol,
                  exec_profile_id profile, int nan_dont_care, exec_compare_result *r)
{
    exec_compare_mask(act, exp, rtol, atol, profile, nan_dont_care, r, NULL);
}

void exec_compare_mask(const tensor *act, const tensor *exp, double rtol, double atol,
                       exec_profile_id profile, int nan_dont_care, exec_compare_result *r, uint8_t *bad_mask)
{
    exec_compare_frac(act, exp, rtol, atol, profile, nan_dont_care, r, bad_mask, NULL);
}

/* tensor_get_flat(t, k), without its division per dim where t is
 * contiguous (every output and golden tensor): the same value */
static inline double flat_value(const tensor *t, int contiguous, int64_t k)
{
    if (!contiguous)
        return tensor_get_flat(t, k);
    return dtype_load_fp32_first(t->dtype, t->storage->data, (size_t)(t->offset + k));
}

void exec_compare_frac(const tensor *act, const tensor *exp, double rtol, double atol, exec_profile_id profile,
                       int nan_dont_care, exec_compare_result *r, uint8_t *bad_mask, float *frac)
{
    memset(r, 0, sizeof *r);
    r->first_bad = -1;
    r->margin = NAN;
    /* An FP8 golden: ptodb holds the output as float32 (REF's storage for
     * FP8, case_bind); REF's output tensor would be the float8 file's, so
     * its value is the float32 result stored into float8 (c10's rounding). */
    int fp8 = (exp->dtype == DTYPE_FP8E4M3FN || exp->dtype == DTYPE_FP8E5M2 || exp->dtype == DTYPE_FP8E8M0) &&
              act->dtype == DTYPE_FP32;
    if (act->dtype != exp->dtype && !fp8) {
        r->error = 1;
        snprintf(r->msg, sizeof r->msg, "RuntimeError: %s did not match %s",
                 kernel_torch_type_name(act->dtype), kernel_torch_type_name(exp->dtype));
        return;
    }
    if (act->ndim != exp->ndim || memcmp(act->shape, exp->shape, sizeof(int64_t) * (size_t)act->ndim)) {
        r->error = 1;
        char sa[64], se[64];
        tensor_format_shape(act->ndim, act->shape, sa, sizeof sa);
        tensor_format_shape(exp->ndim, exp->shape, se, sizeof se);
        snprintf(r->msg, sizeof r->msg,
                 "RuntimeError: shapes do not match: actual %s, expected %s", sa, se);
        return;
    }
    dtype_id dt = exp->dtype;
    int64_t n = tensor_numel(exp);
    r->count = n;
    int64_t bad = 0;
    double maxd = 0, margin = 0;
    int any_nan = 0, nan_margin = 0;
    if (dtype_is_float(dt) && dt != DTYPE_FP64) {
        int narrow = dt == DTYPE_BF16 || dt == DTYPE_FP16;
        float at = narrow ? round_to(dt, (float)atol) : (float)atol;
        float rt = (float)rtol;
        if (narrow && profile == EXEC_PROFILE_T13)
            rt = round_to(dt, rt);
        int ca = tensor_is_contiguous(act), ce = tensor_is_contiguous(exp);
        for (int64_t k = 0; k < n; k++) {
            float a = (float)flat_value(act, ca, k), e = (float)flat_value(exp, ce, k);
            if (fp8)
                a = dtype_round_fp8(dt, a);
            if (nan_dont_care && isnan(e)) {
                r->dont_care++;
                if (frac)
                    frac[k] = NAN;
                continue;
            }
            float d = fabsf(round_to(dt, a - e));
            if (isnan(d))
                any_nan = 1;
            else if (d > maxd)
                maxd = d;
            int close = a == e;
            float allowed = round_to(dt, at + fabsf(round_to(dt, rt * e)));
            if (!close)
                close = isfinite(d) && d <= allowed;
            note_frac(frac, k, tol_frac(d, allowed, a == e, close), d, &margin, &nan_margin);
            if (!close) {
                if (r->first_bad < 0)
                    r->first_bad = k;
                bad++;
                if (bad_mask)
                    bad_mask[k] = 1;
            }
        }
    } else if (dt == DTYPE_FP64) {
        int ca = tensor_is_contiguous(act), ce = tensor_is_contiguous(exp);
        for (int64_t k = 0; k < n; k++) {
            double a = flat_value(act, ca, k), e = flat_value(exp, ce, k);
            if (nan_dont_care && isnan(e)) {
                r->dont_care++;
                if (frac)
                    frac[k] = NAN;
                continue;
            }
            double d = fabs(a - e);
            if (isnan(d))
                any_nan = 1;
            else if (d > maxd)
                maxd = d;
            double allowed = atol + fabs(rtol * e);
            int close = a == e || (isfinite(d) && d <= allowed);
            note_frac(frac, k, tol_frac(d, allowed, a == e, close), d, &margin, &nan_margin);
            if (!close) {
                if (r->first_bad < 0)
                    r->first_bad = k;
                bad++;
                if (bad_mask)
                    bad_mask[k] = 1;
            }
        }
    } else {
        if (dt == DTYPE_BOOL) {
            r->error = 1;
            snprintf(r->msg, sizeof r->msg,
                     "RuntimeError: Subtraction, the `-` operator, with two bool tensors is not "
                     "supported. Use the `^` or `logical_xor()` operator instead.");
        }
        int64_t idx_a[TENSOR_MAX_DIMS] = {0}, idx_e[TENSOR_MAX_DIMS] = {0};
        for (int64_t k = 0; k < n; k++) {
            int64_t a = tensor_get_i64(act, idx_a), e = tensor_get_i64(exp, idx_e);
            tensor_next_index(act, idx_a);
            tensor_next_index(exp, idx_e);
            int64_t d = wrap_int(dt, (int64_t)((uint64_t)a - (uint64_t)e));
            int64_t ad = wrap_int(dt, d < 0 ? (int64_t)(0 - (uint64_t)d) : d);
            if ((double)ad > maxd || k == 0)
                maxd = (double)ad;
            float allowed = (float)atol + fabsf((float)rtol * (float)e);
            float fd = fabsf((float)a - (float)e);
            int close = a == e || fd <= allowed;
            note_frac(frac, k, tol_frac(fd, allowed, a == e, close), fd, &margin, &nan_margin);
            if (!close) {
                if (r->first_bad < 0)
                    r->first_bad = k;
                bad++;
                if (bad_mask)
                    bad_mask[k] = 1;
            }
        }
    }
    if (n == 0 && !r->error) {
        r->error = 1;
        snprintf(r->msg, sizeof r->msg,
                 "RuntimeError: max(): Expected reduction dim to be specified for input.numel() == 0.");
    }
    r->mismatches = bad;
    r->pass = bad == 0;
    r->max_abs_diff = any_nan ? NAN : maxd;
    r->margin = nan_margin ? NAN : margin;
}

void exec_format_validate_line(const char *key, const exec_compare_result *r, strbuf *out)
{
    char d[64];
    exec_format_e6(r->max_abs_diff, d, sizeof d);
    strbuf_printf(out, "validate tensor: '%s', max_abs_diff: %s, pass: %s\n", key, d, r->pass ? "True" : "False");
}

void exec_format_dont_care_line(const exec_compare_result *r, strbuf *out)
{
    if (r->dont_care > 0)
        strbuf_printf(out, "  don't care: %lld of %lld golden elements are NaN, skipped as PyPTO's device runner "
                      "skips them\n", (long long)r->dont_care, (long long)r->count);
}

void exec_format_mismatch_line(const exec_compare_result *r, double rtol, double atol, strbuf *out)
{
    if (r->pass)
        return;
    strbuf_printf(out, "  mismatch: %lld of %lld elements outside rtol=%.3e atol=%.3e (first at flat index %lld)\n",
                  (long long)r->mismatches, (long long)r->count, rtol, atol, (long long)r->first_bad);
}

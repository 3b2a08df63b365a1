/* The comparison REF's validator does after each pass (semantics.md §7.3):
 * torch.allclose(act, exp, rtol, atol) computed in the tensor dtype (bf16 and
 * fp16 intermediates rounded after every torch op, the scalars entering as
 * the torch profile says), and max_abs_diff = (act - exp).abs().max() in the
 * tensor dtype, printed with Python's {:.6e}. */
#ifndef PTODB_EXEC_COMPARE_H
#define PTODB_EXEC_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "exec/op.h"
#include "tensor/tensor.h"

typedef struct exec_compare_result {
    int error;            /* 1: REF's compare itself raises (msg) */
    char msg[320];
    int pass;             /* allclose */
    double max_abs_diff;  /* in the tensor dtype, widened */
    int64_t mismatches;   /* elements outside the tolerance */
    int64_t first_bad;    /* flat index of the first, or -1 */
    int64_t count;
    int64_t dont_care;    /* golden NaN elements skipped (nan_dont_care) */
    /* The margin: the largest error as a fraction of its element's
     * tolerance, max |act - exp| / (atol + rtol*|exp|) over the compared
     * elements, each computed as the validator does (in the tensor dtype):
     * at most 1 when every element is within the tolerance, above 1 when
     * one is outside it; NaN when a difference is NaN, Inf when one is
     * infinite or an element differs where the tolerance is 0. */
    double margin;        /* heat_format_share prints it */
} exec_compare_result;

/* nan_dont_care: a NaN golden element is "don't care", as PyPTO's device
 * runner compares (pypto python/pypto/runtime/device_runner.py:850-895,
 * validate_golden: care_mask = ~isnan(expected)); 1 under device semantics.
 * 0 is REF's torch.allclose, where a NaN golden element never matches. */
void exec_compare(const tensor *act, const tensor *exp, double rtol, double atol,
                  exec_profile_id profile, int nan_dont_care, exec_compare_result *r);

/* The same, also marking in bad_mask (numel bytes, zeroed by the caller;
 * NULL for none) each element it counts as outside the tolerance, in
 * row-major order: the one mismatch rule that the validate line, metrics,
 * heat grids, diff and conditions all count by. */
void exec_compare_mask(const tensor *act, const tensor *exp, double rtol, double atol,
                       exec_profile_id profile, int nan_dont_care, exec_compare_result *r, uint8_t *bad_mask);

/* The same, also filling frac (numel floats in row-major order, or NULL)
 * with each element's error as a fraction of its tolerance, as margin is
 * computed: 0 for equal elements, in (0, 1] for an element within the
 * tolerance, above 1 exactly for an element outside it (the mask's rule),
 * NaN where the difference is NaN or infinite or the golden element is a
 * don't-care NaN. The heat grids are drawn from it (tensor/heatgrid.h). */
void exec_compare_frac(const tensor *act, const tensor *exp, double rtol, double atol, exec_profile_id profile,
                       int nan_dont_care, exec_compare_result *r, uint8_t *bad_mask, float *frac);

/* REF's line for a compared output: "validate tensor: 'out', max_abs_diff:
 * 9.765625e-04, pass: True\n". */
void exec_format_validate_line(const char *key, const exec_compare_result *r, strbuf *out);
/* For a failing output, ptodb's line under it: how many elements lie outside
 * rtol/atol and the first one. Appends nothing when the output passed. */
void exec_format_mismatch_line(const exec_compare_result *r, double rtol, double atol, strbuf *out);
/* "  don't care: N golden elements are NaN, skipped as PyPTO's device runner
 * skips them\n" when r skipped any; nothing otherwise. */
void exec_format_dont_care_line(const exec_compare_result *r, strbuf *out);

/* Python's "{:.6e}".format(v): "1.234567e-03", "nan", "inf", "-inf". */
void exec_format_e6(double v, char *buf, size_t size);


#endif

/* Richer per-output metrics for batch reports (--metrics): the share of
 * elements outside the tolerance, the first bad element, the largest
 * relative error, NaN/Inf counts on both sides and the distance in units in
 * the last place of the output dtype. What counts as outside the tolerance
 * is exec_compare's rule (REF's allclose in the output dtype), the one the
 * validate line, heat grids, diff and conditions count by; the other
 * figures (relative error, ULPs) are computed in double from the stored
 * values, for people, not for verdicts. */
#ifndef PTODB_BATCH_METRICS_H
#define PTODB_BATCH_METRICS_H

#include <stdint.h>

#include "exec/op.h"
#include "tensor/tensor.h"

typedef struct batch_metrics {
    int64_t count;          /* elements compared */
    int64_t outside;        /* elements outside the tolerance by exec_compare's rule */
    double outside_share;   /* outside / count */
    int64_t first_bad;      /* flat index of the first element outside, -1 none */
    int ndim;
    int64_t first_bad_index[TENSOR_MAX_DIMS]; /* the same, as a multi-index */
    double first_bad_actual, first_bad_golden;
    double max_rel;         /* max |a - g| / |g| over elements with g != 0 (finite) */
    int64_t nan_actual, inf_actual, nan_golden, inf_golden;
    uint64_t max_ulp;       /* largest |ordered bits(a) - ordered bits(g)| in the dtype */
    int64_t max_ulp_index;  /* where, -1 when every element is equal */
} batch_metrics;

/* act and gold must have the same shape (else count is 0 and nothing is
 * filled but the counts of NaN/Inf). */
void batch_metrics_compute(const tensor *act, const tensor *gold, double rtol, double atol, int nan_dont_care,
                           exec_profile_id profile, batch_metrics *m);

#endif

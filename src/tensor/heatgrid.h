/* A heat grid: max |a - b| over blocks of a 2-D view of two same-shaped
 * tensors (leading dims folded into rows), sized to fit a pane or a
 * terminal. Used by the TUI's heatmap pane, `diff`, batch --heatmap and
 * the HTML report; it lives with the tensors so that every layer reaches it. */
#ifndef PTODB_TENSOR_HEATGRID_H
#define PTODB_TENSOR_HEATGRID_H

#include <stdint.h>

#include "base/strbuf.h"
#include "tensor/tensor.h"

typedef struct heatgrid {
    int rows, cols;          /* cells */
    float *cells;            /* rows*cols, row-major; NaN where a NaN/Inf difference occurs */
    double max;              /* largest finite cell */
    int64_t shape[2];        /* the 2-D view */
    int block_rows, block_cols;
    int valid_rows, valid_cols; /* cells covering a's valid region (all when it has none) */
    int nonfinite;           /* cells holding a NaN/Inf difference */
    /* With a mismatch mask (exec_compare_mask: the validator's rule, in the
     * output dtype): per cell, the elements it counts outside the tolerance;
     * NULL without one. */
    uint32_t *outside;
    int outside_cells;       /* cells with at least one such element */
    int64_t outside_elements, elements; /* the validate line's counts */
} heatgrid;

/* Fills g for a vs b (same shape; ERR_SHAPE otherwise, ERR_USAGE for 0-d).
 * bad: numel bytes in row-major order, 1 for an element outside the
 * tolerance (from exec_compare_mask), or NULL. Cells at most max_rows x
 * max_cols. Free with heatgrid_free. */
int heatgrid_compute(const tensor *a, const tensor *b, const uint8_t *bad, int max_rows, int max_cols,
                     heatgrid *g);
void heatgrid_free(heatgrid *g);
/* Text form: one character per cell, inside a frame, with the scale on the
 * last line: the ramp " .:-=+*#%@" scaled to max for cells whose elements
 * are all within the tolerance, the digits 1..9 (scaled to max) for cells
 * holding elements outside it (by the mask), '?' for NaN/Inf. The legend
 * counts those elements as the validate line does. */
void heatgrid_render_text(const heatgrid *g, strbuf *out);

#endif

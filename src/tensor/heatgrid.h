/* A heat grid: two same-shaped tensors compared over blocks of a 2-D view
 * (leading dims folded into rows), sized to fit a pane or a terminal. Used
 * by the TUI's heatmap pane, `diff`, batch --heatmap, the HTML report and
 * the DAP server; it lives with the tensors so that every layer reaches it.
 *
 * The one heat scale (every heat map draws with it): a cell's value is the
 * largest error among its elements as a fraction of that element's own
 * tolerance, |actual - golden| / (atol + rtol*|golden|), computed as the
 * validator computes it (exec_compare_frac). The scale is absolute, anchored
 * at the tolerance, never stretched to the worst cell: a passing output is
 * light (every cell at most 1.0 of its tolerance), a failing one has cells
 * above 1.0, marked with digits.
 *
 *   level  char  the cell's worst element
 *   0      ' '   equal to golden
 *   1      '.'   below 1% of its tolerance
 *   2      ':'   1% to 10%
 *   3      '-'   10% to 50%
 *   4      '+'   50% to 100%: within, but close
 *   5..13  '1'..'9'  outside the tolerance: '1' up to 2 times it, '2' up
 *                to 5, '3' 10, '4' 20, '5' 50, '6' 100, '7' 1000, '8' 10^4,
 *                '9' beyond
 *   14     '?'   NaN or Inf in the difference
 */
#ifndef PTODB_TENSOR_HEATGRID_H
#define PTODB_TENSOR_HEATGRID_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "tensor/tensor.h"

enum {
    HEAT_LEVEL_EXACT = 0,
    HEAT_LEVEL_CLOSE = 4, /* the last level within the tolerance */
    HEAT_LEVEL_OVER = 5,  /* the first level outside it ('1') */
    HEAT_LEVEL_NAN = 14,
    HEAT_NLEVELS = 15
};

/* The level of a fraction of the tolerance (the table above). */
int heat_level(double frac);
/* The character of a level. */
char heat_level_char(int level);
/* 1 when the level is outside the tolerance (the digits and '?'). */
int heat_level_over(int level);
/* The colour of a level where a heat map is drawn in colour (the HTML
 * report, the DAP server's replies): "#rrggbb", white through light blue
 * within the tolerance (the last level within a pale yellow), light red to
 * dark red outside it, darker the further, purple for NaN/Inf. The TUI's terminal
 * colours follow the same steps (ui/tui/screen.c). */
const char *heat_level_colour(int level);
/* A fraction of the tolerance as a share: "85%" for 0.85 ("0%" equal,
 * "<0.01%", "1.6%", "85%", ">100%" just over, "320%", "12x" from 10 times
 * on, "nan", "inf"). The margin figures (exec_compare_result.margin) and
 * the legends print with it. */
void heat_format_share(double frac, char *buf, size_t size);
/* The legend of the scale in words ("' ' 0, '.' <1%, ... of the tolerance
 * ..."), one line, no newline. */
const char *heat_legend(void);

typedef struct heatgrid {
    int rows, cols;          /* cells */
    float *cells;            /* rows*cols, row-major: the largest fraction of
                                the tolerance among the cell's elements
                                (the scale above); NaN where a NaN/Inf
                                difference occurs */
    double max;              /* largest finite cell */
    double max_abs;          /* largest finite |a - b| (for the legend) */
    int64_t shape[2];        /* the 2-D view */
    int block_rows, block_cols;
    int valid_rows, valid_cols; /* cells covering a's valid region (all when it has none) */
    int nonfinite;           /* cells holding a NaN/Inf difference */
    /* With a mismatch mask (exec_compare_frac: the validator's rule, in the
     * output dtype): per cell, the elements it counts outside the tolerance;
     * NULL without one. */
    uint32_t *outside;
    int outside_cells;       /* cells with at least one such element */
    int64_t outside_elements, elements; /* the validate line's counts */
} heatgrid;

/* Fills g for a vs b (same shape; ERR_SHAPE otherwise, ERR_USAGE for 0-d).
 * frac: numel floats in row-major order, each element's fraction of its
 * tolerance (exec_compare_frac); required. bad: numel bytes, 1 for an
 * element outside the tolerance (exec_compare_frac's mask), or NULL. Cells
 * at most max_rows x max_cols. Free with heatgrid_free. */
int heatgrid_compute(const tensor *a, const tensor *b, const float *frac, const uint8_t *bad, int max_rows,
                     int max_cols, heatgrid *g);
void heatgrid_free(heatgrid *g);
/* Text form: one character per cell (heat_level_char of the cell), inside
 * a frame, then the legend: the scale, the worst cell, and the elements
 * outside the tolerance as the validate line counts them. */
void heatgrid_render_text(const heatgrid *g, strbuf *out);

#endif

#include "tensor/heatgrid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/status.h"

int heatgrid_compute(const tensor *a, const tensor *b, const uint8_t *bad, int max_rows, int max_cols,
                     heatgrid *g)
{
    memset(g, 0, sizeof *g);
    if (a->ndim != b->ndim)
        return PTODB_ERR_SHAPE;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return PTODB_ERR_SHAPE;
    if (a->ndim == 0 || max_rows < 1 || max_cols < 1)
        return PTODB_ERR_USAGE;
    int64_t cols = a->shape[a->ndim - 1];
    int64_t rows = cols ? tensor_numel(a) / cols : 0;
    if (rows == 0 || cols == 0)
        return PTODB_ERR_USAGE;
    g->shape[0] = rows;
    g->shape[1] = cols;
    g->rows = rows < max_rows ? (int)rows : max_rows;
    g->cols = cols < max_cols ? (int)cols : max_cols;
    g->block_rows = (int)((rows + g->rows - 1) / g->rows);
    g->block_cols = (int)((cols + g->cols - 1) / g->cols);
    g->rows = (int)((rows + g->block_rows - 1) / g->block_rows);
    g->cols = (int)((cols + g->block_cols - 1) / g->block_cols);
    g->cells = xcalloc((size_t)g->rows * (size_t)g->cols, sizeof *g->cells);
    if (bad)
        g->outside = xcalloc((size_t)g->rows * (size_t)g->cols, sizeof *g->outside);
    g->elements = rows * cols;
    for (int64_t k = 0; k < rows * cols; k++) {
        int64_t r = k / cols, c = k % cols;
        double d = fabs(tensor_get_flat(a, k) - tensor_get_flat(b, k));
        size_t at = (size_t)((r / g->block_rows) * g->cols + c / g->block_cols);
        float *cell = &g->cells[at];
        if (bad && bad[k]) {
            g->outside_cells += g->outside[at]++ == 0;
            g->outside_elements++;
        }
        if (!isfinite(d))
            *cell = NAN;
        else if (!isnan(*cell) && d > *cell)
            *cell = (float)d;
    }
    for (int i = 0; i < g->rows * g->cols; i++) {
        if (isnan(g->cells[i]))
            g->nonfinite++;
        else if (g->cells[i] > g->max)
            g->max = g->cells[i];
    }
    /* The valid region of a 2-D tile (REF's attr): rows x cols cells it covers. */
    g->valid_rows = g->rows;
    g->valid_cols = g->cols;
    if (a->valid_ndim == 2 && a->ndim == 2) {
        int64_t vr = a->valid[0] < rows ? a->valid[0] : rows, vc = a->valid[1] < cols ? a->valid[1] : cols;
        g->valid_rows = (int)((vr + g->block_rows - 1) / g->block_rows);
        g->valid_cols = (int)((vc + g->block_cols - 1) / g->block_cols);
    }
    return PTODB_OK;
}

void heatgrid_free(heatgrid *g)
{
    free(g->cells);
    free(g->outside);
    g->cells = NULL;
    g->outside = NULL;
}

void heatgrid_render_text(const heatgrid *g, strbuf *out)
{
    /* Within tolerance: punctuation by size; above it: the digits 1..9 by
     * size, so both where and how much stay visible when most cells fail. */
    static const char ramp[] = " .:-=+*#%@";
    const int nramp = (int)sizeof ramp - 1;
    strbuf_putc(out, '+');
    for (int c = 0; c < g->cols; c++)
        strbuf_putc(out, '-');
    strbuf_puts(out, "+\n");
    for (int r = 0; r < g->rows; r++) {
        strbuf_putc(out, '|');
        for (int c = 0; c < g->cols; c++) {
            float v = g->cells[r * g->cols + c];
            char ch;
            if (isnan(v)) {
                ch = '?';
            } else if (g->outside && g->outside[r * g->cols + c]) {
                int d = g->max > 0 ? (int)((double)v / g->max * 9 + 0.5) : 9;
                ch = (char)('0' + (d < 1 ? 1 : d > 9 ? 9 : d));
            } else if (g->max <= 0 || v <= 0) {
                ch = ' ';
            } else {
                int i = (int)((double)v / g->max * (nramp - 1) + 0.5);
                if (i < 1)
                    i = 1; /* any nonzero difference shows */
                ch = ramp[i > nramp - 1 ? nramp - 1 : i];
            }
            strbuf_putc(out, ch);
        }
        strbuf_puts(out, "|\n");
    }
    strbuf_putc(out, '+');
    for (int c = 0; c < g->cols; c++)
        strbuf_putc(out, '-');
    strbuf_puts(out, "+\n");
    strbuf_printf(out, "cell = %dx%d elements, max |diff| per cell 0..%.3e; ' .:-=+*#%%@' all within tolerance",
                  g->block_rows, g->block_cols, g->max);
    if (g->outside)
        strbuf_printf(out, "; 1..9 holding elements outside it (%d of %d cells; %lld of %lld elements, as the "
                           "validate line counts)",
                      g->outside_cells, g->rows * g->cols, (long long)g->outside_elements, (long long)g->elements);
    if (g->nonfinite)
        strbuf_puts(out, "; '?' NaN/Inf");
    strbuf_putc(out, '\n');
}

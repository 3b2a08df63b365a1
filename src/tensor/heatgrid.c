#include "tensor/heatgrid.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/status.h"

static const char heat_chars[HEAT_NLEVELS + 1] = " .:-+123456789?";

int heat_level(double frac)
{
    if (isnan(frac))
        return HEAT_LEVEL_NAN;
    if (frac <= 0)
        return HEAT_LEVEL_EXACT;
    if (frac < 0.01)
        return 1;
    if (frac < 0.1)
        return 2;
    if (frac < 0.5)
        return 3;
    if (frac <= 1)
        return HEAT_LEVEL_CLOSE;
    /* '1' up to 2 times the tolerance, '2' up to 5, '3' 10, '4' 20, '5'
     * 50, '6' 100, '7' 1000, '8' 10^4, '9' beyond */
    static const double upto[8] = {2, 5, 10, 20, 50, 100, 1e3, 1e4};
    int d = 0;
    while (d < 8 && !(frac <= upto[d]))
        d++;
    return HEAT_LEVEL_OVER + d;
}

char heat_level_char(int level)
{
    return level >= 0 && level < HEAT_NLEVELS ? heat_chars[level] : '?';
}

int heat_level_over(int level)
{
    return level >= HEAT_LEVEL_OVER;
}

const char *heat_level_colour(int level)
{
    static const char *const colours[HEAT_NLEVELS] = {
        "#ffffff", "#eef5fb", "#c6dbef", "#9ecae1", "#fee391",            /* within: ' ' . : - + */
        "#fc9272", "#fb6a4a", "#ef3b2c", "#cb181d", "#a50f15", "#8b0d12", /* outside: 1 .. 6 */
        "#67000d", "#4d000a", "#33000a",                                  /* 7 8 9 */
        "#7b3294",                                                        /* ? */
    };
    return level >= 0 && level < HEAT_NLEVELS ? colours[level] : colours[HEAT_LEVEL_NAN];
}

const char *heat_legend(void)
{
    return "' ' 0, '.' <1%, ':' <10%, '-' <50%, '+' <=100% of the tolerance (atol + rtol*|golden|); outside it, "
           "'1'..'9': up to 2, 5, 10, 20, 50, 100, 1e3, 1e4 times it, more; '?' NaN/Inf";
}

void heat_format_share(double margin, char *buf, size_t size)
{
    double pct = margin * 100;
    if (isnan(margin))
        snprintf(buf, size, "nan");
    else if (isinf(margin))
        snprintf(buf, size, "inf");
    else if (margin <= 0)
        snprintf(buf, size, "0%%");
    else if (pct < 0.01)
        snprintf(buf, size, "<0.01%%");
    else if (margin > 1 && pct < 100.5)
        snprintf(buf, size, ">100%%");
    else if (pct < 10)
        snprintf(buf, size, "%.2g%%", pct);
    else if (margin < 10)
        snprintf(buf, size, "%.0f%%", pct);
    else
        snprintf(buf, size, "%.3gx", margin);
}

int heatgrid_compute(const tensor *a, const tensor *b, const float *frac, const uint8_t *bad, int max_rows,
                     int max_cols, heatgrid *g)
{
    memset(g, 0, sizeof *g);
    if (a->ndim != b->ndim)
        return PTODB_ERR_SHAPE;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return PTODB_ERR_SHAPE;
    if (a->ndim == 0 || max_rows < 1 || max_cols < 1 || !frac)
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
        size_t at = (size_t)((r / g->block_rows) * g->cols + c / g->block_cols);
        float *cell = &g->cells[at];
        if (bad && bad[k]) {
            g->outside_cells += g->outside[at]++ == 0;
            g->outside_elements++;
        }
        double d = fabs(tensor_get_flat(a, k) - tensor_get_flat(b, k));
        if (isfinite(d) && d > g->max_abs)
            g->max_abs = d;
        float f = frac[k];
        if (isnan(f))
            *cell = NAN;
        else if (!isnan(*cell) && f > *cell)
            *cell = f;
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
    strbuf_putc(out, '+');
    for (int c = 0; c < g->cols; c++)
        strbuf_putc(out, '-');
    strbuf_puts(out, "+\n");
    for (int r = 0; r < g->rows; r++) {
        strbuf_putc(out, '|');
        for (int c = 0; c < g->cols; c++)
            strbuf_putc(out, heat_level_char(heat_level(g->cells[r * g->cols + c])));
        strbuf_puts(out, "|\n");
    }
    strbuf_putc(out, '+');
    for (int c = 0; c < g->cols; c++)
        strbuf_putc(out, '-');
    strbuf_puts(out, "+\n");
    strbuf_printf(out, "cell = %dx%d elements, each its worst element's |diff| against that element's tolerance: %s\n",
                  g->block_rows, g->block_cols, heat_legend());
    char worst[32];
    heat_format_share(g->max, worst, sizeof worst);
    /* "1.7% of its tolerance", "23.3x its tolerance" */
    strbuf_printf(out, "worst cell at %s%s its tolerance (max |diff| %.3e)", worst,
                  worst[strlen(worst) - 1] == 'x' ? "" : " of", g->max_abs);
    if (g->nonfinite)
        strbuf_printf(out, ", %d cell%s with NaN/Inf", g->nonfinite, g->nonfinite == 1 ? "" : "s");
    if (g->outside)
        strbuf_printf(out, "; %lld of %lld elements outside the tolerance, in %d of %d cells (as the validate "
                           "line counts)",
                      (long long)g->outside_elements, (long long)g->elements, g->outside_cells, g->rows * g->cols);
    strbuf_putc(out, '\n');
}

/* The heatmaps pane: grids of one output of the current pass, against
 * the golden output and against the previous pass, side by side. The
 * engine aggregates the grid to the size asked (per cell, the worst
 * element as a fraction of its tolerance); this file draws it on the one
 * heat scale (tensor/heatgrid.h) that --heatmap, diff and the reports use. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "tensor/heatgrid.h"
#include "tui.h"

canvas_style render_heat_style(int level)
{
    if (level < 0 || heat_level_over(level))
        return ST_HEAT_OVER;
    return (canvas_style)(ST_HEAT0 + level);
}

/* A small grid (a few tiles) is drawn with each cell several characters
 * wide and high, so that tiles read as tiles. */
static void heat_cell_scale(const view_heatmap *h, crect r, int *sx, int *sy)
{
    int x = h->tiled && h->cols > 0 ? (r.w - 2) / h->cols : 1;
    int y = h->tiled && h->rows > 0 ? (r.h - 4) / h->rows : 1;
    *sx = x < 1 ? 1 : x > 8 ? 8 : x;
    *sy = y < 1 ? 1 : y > 3 ? 3 : y;
}

/* Where cell (i, j) starts on the grid (rows under the label). */
static void heat_cell_at(const view_heatmap *h, crect r, int i, int j, int *y, int *x)
{
    int sx, sy;
    heat_cell_scale(h, r, &sx, &sy);
    int out_col = h->valid_cols < h->cols ? h->valid_cols : -1;
    int out_row = h->valid_rows < h->rows ? h->valid_rows : -1;
    *y = i * sy + (out_row >= 0 && i >= out_row);
    *x = j * sx + (out_col >= 0 && j >= out_col);
}

static void fmt_shape(char *buf, size_t n, const view_heatmap *h)
{
    snprintf(buf, n, "[%lld,%lld]", (long long)h->shape[0], (long long)h->shape[1]);
}

void render_heatmap(canvas *c, crect r, const char *label, const view_heatmap *h, int have,
                    const char *why)
{
    canvas_fill(c, r, ' ', ST_NORMAL);
    if (!have || !h) {
        canvas_puts(c, r, 0, 0, label, ST_NORMAL);
        canvas_message(c, (crect){r.y + 1, r.x, r.h - 1, r.w}, why);
        return;
    }
    char shape[64];
    fmt_shape(shape, sizeof shape, h);
    int lx0 = canvas_puts(c, r, 0, 0, label, ST_NORMAL);
    canvas_printf(c, r, 0, lx0, ST_DIM, h->tiled ? " %s %s tile %dx%d" : " %s %s %dx%d/cell",
                  h->tensor ? h->tensor : "?", shape, h->block_rows, h->block_cols);

    int sx, sy;
    heat_cell_scale(h, r, &sx, &sy);
    /* The grid, with a column and a row of outline after the valid region
     * when it does not cover the whole grid; the padding beyond it dimmed. */
    int out_col = h->valid_cols < h->cols ? h->valid_cols : -1;
    int out_row = h->valid_rows < h->rows ? h->valid_rows : -1;
    int over = 0;
    crect grid = {r.y + 1, r.x, r.h - 2, r.w}; /* between the label and the legend */
    for (int i = 0; i < h->rows; i++) {
        int y = i * sy + (out_row >= 0 && i >= out_row);
        for (int j = 0; j < h->cols; j++) {
            int x = j * sx + (out_col >= 0 && j >= out_col);
            size_t at = (size_t)i * (size_t)h->cols + (size_t)j;
            int level = heat_level(h->cells[at]);
            /* over: the cell holds elements the validate line counts as
             * outside (the scale says so too: its fraction is above 1) */
            int bad = heat_level_over(level) || (h->outside && h->outside[at] > 0);
            int padding = (out_row >= 0 && i >= out_row) || (out_col >= 0 && j >= out_col);
            over += bad;
            uint32_t ch = padding && level == 0 ? 0xb7 /* · */ : (uint32_t)heat_level_char(level);
            canvas_style st = bad ? ST_HEAT_OVER : padding ? ST_DIM : render_heat_style(level);
            for (int dy = 0; dy < sy; dy++)
                for (int dx = 0; dx < sx; dx++)
                    canvas_put(c, grid, y + dy, x + dx, ch, st);
        }
    }
    /* The outline of the valid region, right of its last column and below
     * its last row; drawn for a fully valid grid too, so a grid of zeros
     * (blank cells) still shows its extent. */
    int vrows = (out_row >= 0 ? out_row : h->rows) * sy;
    int vcols = (out_col >= 0 ? out_col : h->cols) * sx;
    for (int y = 0; y < vrows; y++)
        canvas_put(c, grid, y, vcols, 0x2502 /* │ */, ST_DIM);
    for (int x = 0; x < vcols; x++)
        canvas_put(c, grid, vrows, x, 0x2500 /* ─ */, ST_DIM);
    canvas_put(c, grid, vrows, vcols, 0x2518 /* ┘ */, ST_DIM);
    /* The legend, right under the grid and its outline, where the eye is:
     * the scale (a bar where the tolerance is), the worst cell as a share
     * of its tolerance, the largest |diff|, the elements outside. */
    int ly = 1 + vrows + 1 + (out_row >= 0 ? (h->rows - out_row) * sy : 0);
    if (ly > r.h - 1)
        ly = r.h - 1;
    if (ly < 1)
        return;
    char worst[32], sworst[48], sabs[32], sover[48] = "";
    heat_format_share(h->max, worst, sizeof worst);
    snprintf(sabs, sizeof sabs, "max %.3g", h->max_abs);
    if (h->outside && h->outside_elements)
        snprintf(sover, sizeof sover, "%lld/%lld out", (long long)h->outside_elements, (long long)h->elements);
    else if (over)
        snprintf(sover, sizeof sover, "%d over", over);
    /* " .:-+|1..9 of tol  worst W  max M  N/T out", tightened when the half
     * is narrow: without the max, then without "of tol", then the count
     * shorter, then the count on the next line. */
    static const char scale[] = " .:-+|1..9";
    int tight = 0;
    for (;; tight++) {
        snprintf(sworst, sizeof sworst, "%sworst %s", tight >= 2 ? " " : " of tol  ", worst);
        if (tight >= 3 && over)
            snprintf(sover, sizeof sover, "%lld out", (long long)(h->outside_elements ? h->outside_elements : over));
        int width = (int)strlen(scale) + (int)strlen(sworst) + (tight >= 1 ? 0 : 2 + (int)strlen(sabs)) +
                    (over ? 2 + (int)strlen(sover) : 0);
        if (width <= r.w || tight >= 3)
            break;
    }
    int lx = 0;
    for (int level = 0; level <= HEAT_LEVEL_CLOSE; level++)
        canvas_put(c, r, ly, lx++, (uint32_t)heat_level_char(level), render_heat_style(level));
    canvas_put(c, r, ly, lx++, '|', ST_DIM);
    lx = canvas_puts(c, r, ly, lx, "1..9", ST_HEAT_OVER);
    lx = canvas_puts(c, r, ly, lx, sworst, ST_DIM);
    if (tight < 1)
        lx = canvas_printf(c, r, ly, lx, ST_DIM, "  %s", sabs);
    if (over && lx + 2 + (int)strlen(sover) > r.w && ly + 1 < r.h) {
        /* too narrow even tightened: the count goes under, whole */
        ly++;
        canvas_puts(c, r, ly, 0, sover, ST_HEAT_OVER);
    } else if (over) {
        canvas_printf(c, r, ly, lx, ST_HEAT_OVER, "  %s", sover);
    }
    /* Live against another pass: how the engine found the point there. */
    if (h->live && h->compare_pass >= 0 && ly + 1 < r.h)
        canvas_puts(c, r, ly + 1, 0,
                    h->match != VIEW_MATCH_EXACT        ? "guessed point (by statement keys)"
                    : h->match_how && strstr(h->match_how, "region") ? "exact: matched by the GM region"
                                                                       : "exact point (the function unchanged)",
                    h->match == VIEW_MATCH_EXACT ? ST_DIM : ST_HEAT_OVER);
}

/* ---- the pane ---- */

static void heatmap_draw(tui *t, crect r, int focused)
{
    view_pass p;
    int have_pass = view_pass_info(t->s, session_current_pass(t->s), &p);
    int nout = have_pass ? p.noutputs : 0;
    /* Stopped inside this pass, `o` goes on past the outputs to the tile
     * the stop's statement takes. */
    view_location loc;
    int stopped = view_stop_location(t->s, &loc) && loc.pass == session_current_pass(t->s);
    if (t->heat.output >= nout + (stopped && nout > 0))
        t->heat.output = 0;
    int tile = stopped && nout > 0 && t->heat.output == nout;
    char title[256];
    if (tile)
        snprintf(title, sizeof title, "Heatmaps: the stop's tile");
    else if (nout > 1)
        snprintf(title, sizeof title, "Heatmaps: %s (output %d of %d, o: next)",
                 p.output_names[t->heat.output], t->heat.output + 1, nout);
    else if (nout == 1)
        snprintf(title, sizeof title, "Heatmaps: %s", p.output_names[0]);
    else
        snprintf(title, sizeof title, "Heatmaps");
    canvas_title(&t->cv, r, title, focused);
    crect body = {r.y + 1, r.x, r.h - 1, r.w};
    canvas_fill(&t->cv, body, ' ', ST_NORMAL);
    if (!session_has_case(t->s)) {
        canvas_message(&t->cv, body, "no case open \xe2\x80\x94 type open PATH");
        return;
    }
    if (nout == 0) {
        canvas_message(&t->cv, body, "this case has no golden outputs to compare with");
        return;
    }
    /* Side by side when each half has room for a useful grid, else stacked. */
    int side = body.w >= 48;
    crect a, b;
    if (side) {
        int half = (body.w - 1) / 2;
        a = (crect){body.y, body.x, body.h, half};
        b = (crect){body.y, body.x + half + 1, body.h, body.w - half - 1};
        for (int y = 0; y < body.h; y++)
            canvas_put(&t->cv, body, y, half, 0x2502, ST_DIM);
    } else {
        int half = body.h / 2;
        a = (crect){body.y, body.x, half, body.w};
        b = (crect){body.y + half, body.x, body.h - half, body.w};
    }
    /* The engine returns nothing until the pass (and, for the right
     * half, the pass before it) has run in the debugger; these texts are
     * for halves too small to ask it. */
    static const char *const why[2] = {"no grid yet: F5 runs this pass",
                                       "no grid yet: run this pass\nand the one before it"};
    /* The right half names the pass it compares with. */
    char prev_label[64] = "vs previous pass";
    view_pass prev;
    if (view_pass_info(t->s, session_current_pass(t->s) - 1, &prev))
        snprintf(prev_label, sizeof prev_label, "vs pass %d", prev.index);
    struct {
        crect r;
        view_heat_mode mode;
        const char *label;
    } half[2] = {{a, VIEW_HEAT_VS_GOLDEN, "vs golden"}, {b, VIEW_HEAT_VS_PREVIOUS, prev_label}};
    int live = 0;
    for (int k = 0; k < 2; k++) {
        view_heatmap h = {0};
        /* Room for the label, the legend and an outline row and column. */
        int maxr = half[k].r.h - 3, maxc = half[k].r.w - 1;
        int have = maxr > 0 && maxc > 0 &&
                   (tile ? view_heatmap_tile(t->s, half[k].mode, maxr, maxc, &h)
                         : view_heatmap_get(t->s, t->heat.output, half[k].mode, maxr, maxc, &h));
        if (tile && h.tensor)
            snprintf(title, sizeof title, "Heatmaps: tile %s", h.tensor);
        /* The engine says why there is no grid, and what fills it: the
         * key for that goes under. */
        char say[512];
        if (!have && h.why && h.fill == VIEW_FILL_RUN)
            snprintf(say, sizeof say, "%s.\nPress F5 to run it.", h.why);
        else if (!have && h.why && h.fill == VIEW_FILL_RUN_PREVIOUS && view_pass_info(t->s, h.fill_pass, &prev))
            snprintf(say, sizeof say, "%s.\nSelect pass %d (passes pane, Enter) and press F5 to run it.", h.why,
                     prev.index);
        else
            snprintf(say, sizeof say, "%s", h.why && !have ? h.why : why[k]);
        render_heatmap(&t->cv, half[k].r, half[k].label, have ? &h : NULL, have, say);
        live |= h.live;
        if (k == 0 && have && !tile) {
            /* the cell cursor (Enter: why), on the grid against golden */
            t->heat.rows = h.rows;
            t->heat.cols = h.cols;
            t->heat.block_rows = h.block_rows;
            t->heat.block_cols = h.block_cols;
            if (t->heat.row >= h.rows)
                t->heat.row = h.rows - 1;
            if (t->heat.col >= h.cols)
                t->heat.col = h.cols - 1;
            if (focused && h.rows > 0 && h.cols > 0) {
                int y, x;
                heat_cell_at(&h, half[0].r, t->heat.row, t->heat.col, &y, &x);
                crect grid = {half[0].r.y + 1, half[0].r.x, half[0].r.h - 2, half[0].r.w};
                size_t at = (size_t)t->heat.row * (size_t)h.cols + (size_t)t->heat.col;
                canvas_put(&t->cv, grid, y, x, (uint32_t)heat_level_char(heat_level(h.cells[at])), ST_CURSOR);
            }
        } else if (k == 0) {
            t->heat.rows = t->heat.cols = 0;
        }
    }
    /* The engine drew from the stop: the title says where that is, and
     * what `o` shows next. */
    if (live && stopped) {
        size_t len = strlen(title);
        snprintf(title + len, sizeof title - len, " at the stop (%s line %d)%s", loc.core_name, loc.line,
                 tile ? " \xe2\x80\x94 o: the output" : nout == 1 ? " \xe2\x80\x94 o: its tile" : "");
        canvas_title(&t->cv, r, title, focused);
    }
}

/* Enter: `why` on the cursor's cell, shown in the chain pane. */
static void heat_why(tui *t)
{
    strbuf sb = STRBUF_INIT;
    if (t->heat.rows <= 0 || t->heat.cols <= 0) {
        /* said in the chain pane: the heat map has no grid to pick from */
        strbuf_puts(&sb, "no heat-map cell to ask about: run the pass first\n");
        free(t->chain.text);
        t->chain.text = strbuf_detach(&sb);
        t->chain.top = 0;
        t->chain.shown = 1;
        t->focus = PANE_CHAIN;
        tui_layout_apply(t);
        t->dirty = TUI_DIRTY_ALL;
        return;
    }
    t->busy = "why";
    view_why_cell(t->s, t->heat.output, (int64_t)t->heat.row * t->heat.block_rows,
                  (int64_t)t->heat.col * t->heat.block_cols, t->heat.block_rows, t->heat.block_cols, &sb);
    t->busy = NULL;
    free(t->chain.text);
    t->chain.text = strbuf_detach(&sb);
    t->chain.top = 0;
    t->chain.shown = 1;
    t->focus = PANE_CHAIN;
    t->zoom = 1; /* the chain's lines are long: the whole width */
    tui_layout_apply(t);
    t->dirty = TUI_DIRTY_ALL;
}

static int heatmap_key(tui *t, int action)
{
    switch (action) {
    case ACT_OUTPUT: t->heat.output++; break; /* wraps in draw */
    case ACT_LEFT: t->heat.col -= t->heat.col > 0; break;
    case ACT_RIGHT: t->heat.col += t->heat.col + 1 < t->heat.cols; break;
    case ACT_UP: t->heat.row -= t->heat.row > 0; break;
    case ACT_DOWN: t->heat.row += t->heat.row + 1 < t->heat.rows; break;
    case ACT_SELECT: heat_why(t); return 1;
    default: return 0;
    }
    t->dirty |= 1u << PANE_HEATMAP;
    return 1;
}

const tui_pane_ops pane_heatmap_ops = {
    .draw = heatmap_draw,
    .key = heatmap_key,
    .click = NULL,
    .help = "left: actual against golden; right: against the pass\n"
            "before. A cell is its worst element's |diff| as a share\n"
            "of that element's tolerance (atol + rtol*|golden|):\n"
            "' ' equal, . <1%, : <10%, - <50%, + up to 100%; outside\n"
            "it (| on the scale) digits on red: 1 up to 2 times the\n"
            "tolerance, 2 up to 5, 3 10, 4 20, 5 50, 6 100, 7 1e3,\n"
            "8 1e4, 9 beyond; ? NaN/Inf. The line is\n"
            "the valid region's edge. Stopped in the pass: the output at\n"
            "the stop, against the point of the pass before that the\n"
            "stop maps to (exact, or a guess: the last line says);\n"
            "o goes on to the tile the stop's statement takes. The\n"
            "cursor (reversed) picks a cell of the left grid: Enter runs why\n"
            "on its element farthest from golden (the chain pane)",
};

/* The compare pane: the last `compare B` (view_compare_get), A's passes
 * and B's side by side, one row per pass name as the engine aligned them.
 * A row says whether A's and B's outputs agree ("=" the same file, "~"
 * other files giving the same outputs), differ ("!"), or whether the pass
 * is in one build only ("<" A, ">" B); each side's validation verdict; the
 * first differing pass is marked and highlighted. Moving the cursor picks
 * the pair the compare-source pane shows. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui.h"

static char mark_of(const view_compare_pair *p, canvas_style *st)
{
    *st = ST_NORMAL;
    if (!p->a_stem || !p->b_stem) {
        *st = ST_DIM;
        return p->a_stem ? '<' : '>';
    }
    if (p->differs) {
        *st = ST_BAD;
        return '!';
    }
    return p->same_file ? '=' : '~';
}

/* One side's cell: "NN_after_Name ok" clipped to w columns. */
static void side_cell(canvas *c, crect r, int y, int x, int w, const char *stem, int ok, canvas_style base)
{
    if (!stem) {
        canvas_printf(c, r, y, x, ST_DIM, "%-*.*s", w, w, "(not in this build)");
        return;
    }
    int sw = w - 5 > 1 ? w - 5 : 1;
    canvas_printf(c, r, y, x, base, "%-*.*s ", sw, sw, stem);
    canvas_puts(c, r, y, x + sw + 1, ok ? "ok  " : "FAIL", ok ? ST_GOOD : ST_BAD);
}

void render_compare(canvas *c, crect r, const view_compare *v, int cursor, int top, int focused)
{
    canvas_fill(c, r, ' ', ST_NORMAL);
    if (!v || !v->pairs) {
        canvas_message(c, r, "no compare yet \xe2\x80\x94 type compare B (another build of this program)");
        return;
    }
    int half = (r.w - 5) / 2; /* marker, space, A, space, mark, space, B */
    canvas_printf(c, r, 0, 0, ST_DIM, "  %-*.*s   %-*.*s", half, half, "A (the open case)", half, half, "B");
    crect rows = {r.y + 1, r.x, r.h - 1, r.w};
    for (int i = top, y = 0; i < (int)v->npairs && y < rows.h; i++, y++) {
        const view_compare_pair *p = &v->pairs[i];
        canvas_style mst;
        char m = mark_of(p, &mst);
        int first = i == v->first_diff;
        canvas_style base = first ? ST_STOP : ST_NORMAL;
        canvas_put(c, rows, y, 0, first ? '>' : ' ', base);
        side_cell(c, rows, y, 2, half, p->a_stem, p->a_ok, base);
        canvas_put(c, rows, y, 2 + half + 1, (uint32_t)m, first ? ST_BAD : mst);
        side_cell(c, rows, y, 2 + half + 3, half, p->b_stem, p->b_ok, base);
        if (i == cursor && focused)
            canvas_style_row(c, rows, y, ST_CURSOR);
    }
}

/* A new compare: the cursor goes to its first differing pass. */
void pane_compare_sync(tui *t)
{
    view_compare v;
    if (!view_compare_get(t->s, &v) || v.generation == t->cmp.seen)
        return;
    t->cmp.seen = v.generation;
    t->cmp.sc.top = 0;
    t->cmp.sc.cursor = v.first_diff >= 0 ? v.first_diff : 0;
    t->cmp.shown = -1; /* the source pane reloads */
}

static void compare_draw(tui *t, crect r, int focused)
{
    pane_compare_sync(t);
    view_compare v;
    int have = view_compare_get(t->s, &v);
    char title[512];
    if (!have)
        snprintf(title, sizeof title, "Compare");
    else if (v.first_diff >= 0)
        snprintf(title, sizeof title, "Compare A | B %s: first difference in %s", v.b_root,
                 v.pairs[v.first_diff].name);
    else if (v.first_no_outputs >= 0)
        /* never "no difference" about outputs neither side computed */
        snprintf(title, sizeof title, "Compare A | B %s: both stop in %s, nothing compared there", v.b_root,
                 v.pairs[v.first_no_outputs].name);
    else
        snprintf(title, sizeof title, "Compare A | B %s: no difference", v.b_root);
    canvas_title(&t->cv, r, title, focused);
    crect body = {r.y + 1, r.x, r.h - 1, r.w};
    int n = have ? (int)v.npairs : 0;
    tui_scroll_show(&t->cmp.sc, n, body.h - 1);
    render_compare(&t->cv, body, have ? &v : NULL, t->cmp.sc.cursor, t->cmp.sc.top, focused);
}

static int compare_key(tui *t, int action)
{
    view_compare v;
    int n = view_compare_get(t->s, &v) ? (int)v.npairs : 0;
    int h = t->rect[PANE_COMPARE].h - 2;
    switch (action) {
    case ACT_DOWN: tui_scroll_move(&t->cmp.sc, 1, n, h); break;
    case ACT_UP: tui_scroll_move(&t->cmp.sc, -1, n, h); break;
    case ACT_PGDN: tui_scroll_move(&t->cmp.sc, h, n, h); break;
    case ACT_PGUP: tui_scroll_move(&t->cmp.sc, -h, n, h); break;
    case ACT_TOP: tui_scroll_move(&t->cmp.sc, -n, n, h); break;
    case ACT_BOTTOM: tui_scroll_move(&t->cmp.sc, n, n, h); break;
    default: return 0;
    }
    t->dirty |= (1u << PANE_COMPARE) | (1u << PANE_COMPARE_SRC);
    return 1;
}

static void compare_click(tui *t, int y)
{
    if (y >= 1) {
        t->cmp.sc.cursor = t->cmp.sc.top + y - 1; /* row 0 is the header */
        t->dirty |= 1u << PANE_COMPARE_SRC;
    }
}

const tui_pane_ops pane_compare_ops = {
    .draw = compare_draw,
    .key = compare_key,
    .click = compare_click,
    .help = "the last `compare B`: A's and B's passes aligned by name;\n"
            "= same file, ~ same outputs, ! outputs differ, < A only, > B only;\n"
            "> and the highlight: the first pass whose outputs differ",
};

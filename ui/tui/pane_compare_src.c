/* The compare-source pane: the files of the pair under the compare pane's
 * cursor, A's left and B's right, scrolled together. In the first
 * differing pair the first differing statement is highlighted on both
 * sides (A's line and B's, as the engine matched them) and the two are
 * brought to the same row. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fdio.h"
#include "tui.h"

static void load(tui *t, const view_compare *v)
{
    int i = t->cmp.sc.cursor;
    if (i == t->cmp.shown)
        return;
    t->cmp.shown = i;
    for (int k = 0; k < 2; k++) {
        free(t->cmp.text[k]);
        t->cmp.text[k] = NULL;
        tui_lines_free(&t->cmp.file[k]);
        t->cmp.line[k] = 0;
    }
    t->cmp.top[0] = t->cmp.top[1] = 0;
    if (i < 0 || (size_t)i >= v->npairs)
        return;
    const view_compare_pair *p = &v->pairs[i];
    const char *path[2] = {p->a_path, p->b_path};
    for (int k = 0; k < 2; k++) {
        size_t len;
        t->cmp.text[k] = path[k] ? file_read_all(path[k], &len) : NULL;
        tui_lines_set(&t->cmp.file[k], t->cmp.text[k]);
    }
    if (i == v->first_diff) {
        t->cmp.line[0] = v->a_line;
        t->cmp.line[1] = v->b_line;
        /* each side's differing line a third of the way down, on the same row */
        int h = t->rect[PANE_COMPARE_SRC].h - 2;
        for (int k = 0; k < 2; k++)
            if (t->cmp.line[k] > 0)
                t->cmp.top[k] = t->cmp.line[k] - 1 - h / 3 > 0 ? t->cmp.line[k] - 1 - h / 3 : 0;
        /* a side whose line is nearer the top than the other's cannot reach
         * that row: the other gives way */
        int d0 = t->cmp.line[0] - 1 - t->cmp.top[0], d1 = t->cmp.line[1] - 1 - t->cmp.top[1];
        if (t->cmp.line[0] > 0 && t->cmp.line[1] > 0 && d0 != d1) {
            if (d0 < d1)
                t->cmp.top[1] += d1 - d0;
            else
                t->cmp.top[0] += d0 - d1;
        }
    }
}

static void one_side(canvas *c, crect r, const tui_lines *l, int top, int mark, const char *stem)
{
    if (!l->text) {
        canvas_message(c, r, stem ? "cannot read the file" : "not in this build");
        return;
    }
    int w = 3;
    for (int n = l->nlines; n >= 1000; n /= 10)
        w++;
    for (int y = 0; y < r.h && top + y < l->nlines; y++) {
        size_t len;
        const char *s = tui_lines_get(l, top + y, &len);
        int at = top + y + 1 == mark;
        canvas_style st = at ? ST_STOP : ST_NORMAL;
        int x = canvas_printf(c, r, y, 0, at ? ST_STOP : ST_LINENO, "%*d%c", w, top + y + 1, at ? '>' : ' ');
        canvas_putn(c, r, y, x, s, len, st);
        if (at)
            canvas_style_row(c, r, y, ST_STOP);
    }
}

static void compare_src_draw(tui *t, crect r, int focused)
{
    pane_compare_sync(t);
    view_compare v;
    int have = view_compare_get(t->s, &v);
    const view_compare_pair *p = have && t->cmp.sc.cursor >= 0 && (size_t)t->cmp.sc.cursor < v.npairs
                                     ? &v.pairs[t->cmp.sc.cursor]
                                     : NULL;
    char title[512];
    if (p && t->cmp.sc.cursor == v.first_diff && v.b_line > 0)
        snprintf(title, sizeof title, "%s: A line %d | B line %d, '%s' in %s (%s)", p->name, v.a_line, v.b_line,
                 v.tensor ? v.tensor : "?", v.func ? v.func : "?", v.how ? v.how : "");
    else if (p)
        snprintf(title, sizeof title, "%s: A %s | B %s", p->name, p->a_stem ? p->a_stem : "-",
                 p->b_stem ? p->b_stem : "-");
    else
        snprintf(title, sizeof title, "Compare source");
    canvas_title(&t->cv, r, title, focused);
    crect body = {r.y + 1, r.x, r.h - 1, r.w};
    canvas_fill(&t->cv, body, ' ', ST_NORMAL);
    if (!p) {
        canvas_message(&t->cv, body, "no compare yet \xe2\x80\x94 type compare B");
        return;
    }
    load(t, &v);
    int half = (body.w - 1) / 2;
    crect left = {body.y, body.x, body.h, half}, right = {body.y, body.x + half + 1, body.h, body.w - half - 1};
    for (int y = 0; y < body.h; y++)
        canvas_put(&t->cv, body, y, half, t->utf8 ? 0x2502 : '|', ST_DIM);
    one_side(&t->cv, left, &t->cmp.file[0], t->cmp.top[0], t->cmp.line[0], p->a_stem);
    one_side(&t->cv, right, &t->cmp.file[1], t->cmp.top[1], t->cmp.line[1], p->b_stem);
}

static int compare_src_key(tui *t, int action)
{
    int h = t->rect[PANE_COMPARE_SRC].h - 1, d = 0;
    switch (action) {
    case ACT_DOWN: d = 1; break;
    case ACT_UP: d = -1; break;
    case ACT_PGDN: d = h; break;
    case ACT_PGUP: d = -h; break;
    case ACT_TOP: d = -(t->cmp.top[0] > t->cmp.top[1] ? t->cmp.top[0] : t->cmp.top[1]); break;
    case ACT_BOTTOM: d = t->cmp.file[0].nlines + t->cmp.file[1].nlines; break;
    default: return 0;
    }
    /* both sides together, each within its file */
    for (int k = 0; k < 2; k++) {
        int top = t->cmp.top[k] + d, last = t->cmp.file[k].nlines - 1;
        t->cmp.top[k] = top > last ? (last > 0 ? last : 0) : top < 0 ? 0 : top;
    }
    t->dirty |= 1u << PANE_COMPARE_SRC;
    return 1;
}

const tui_pane_ops pane_compare_src_ops = {
    .draw = compare_src_draw,
    .key = compare_src_key,
    .click = NULL,
    .help = "the compare pane's pair: A's file | B's file, scrolled together;\n"
            "in the first differing pass its first differing statement on both sides",
};

/* The passes pane: every pass with its IR-changed mark, verdict,
 * max_abs_diff per output and margin (view_pass_info). Selecting one runs `pass N`
 * through the session, which stays the one source of truth. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "tensor/heatgrid.h"
#include "tui.h"

static const char *verdict_text(view_verdict v, canvas_style *st)
{
    switch (v) {
    case VIEW_VERDICT_PASS:
        *st = ST_GOOD;
        return "ok";
    case VIEW_VERDICT_FAIL:
        *st = ST_BAD;
        return "FAIL";
    case VIEW_VERDICT_ERROR:
        *st = ST_BAD;
        return "err";
    case VIEW_VERDICT_MEMFAULT: /* a memory fault (docs/memory.md) */
        *st = ST_BAD;
        return "MEM";
    case VIEW_VERDICT_UNKNOWN:
        break;
    }
    *st = ST_DIM;
    return "-";
}

void render_passes(canvas *c, crect r, const view_pass *p, int n, int current, int cursor, int top,
                   int focused)
{
    canvas_fill(c, r, ' ', ST_NORMAL);
    if (n == 0) {
        canvas_message(c, r, "no case open \xe2\x80\x94 type open PATH");
        return;
    }
    int namew = 0;
    for (int i = 0; i < n; i++) {
        int l = (int)strlen(p[i].name ? p[i].name : "");
        if (l > namew)
            namew = l;
    }
    /* Leave room for the marks, one max_abs_diff column and the margin. */
    if (namew > r.w - 34)
        namew = r.w - 34 > 8 ? r.w - 34 : 8;
    /* One max_abs_diff column per output, named when there are several. */
    int hx = canvas_printf(c, r, 0, 0, ST_DIM, "   # %-*s IR verdict", namew, "pass");
    if (p[0].noutputs > 1)
        for (int k = 0; k < p[0].noutputs; k++)
            hx = canvas_printf(c, r, 0, hx, ST_DIM, " %-9.9s", p[0].output_names[k] ? p[0].output_names[k] : "?");
    else
        hx = canvas_puts(c, r, 0, hx, " max_abs_diff", ST_DIM);
    /* the worst element's |diff| as a share of its tolerance */
    canvas_puts(c, r, 0, hx, " margin", ST_DIM);
    int colw = p[0].noutputs > 1 ? 9 : 12; /* under the header's names */
    crect rows = {r.y + 1, r.x, r.h - 1, r.w};
    for (int i = top, y = 0; i < n && y < rows.h; i++, y++) {
        const view_pass *q = &p[i];
        canvas_style base = i == current ? ST_STOP : ST_NORMAL;
        int x = canvas_printf(c, rows, y, 0, base, "%c%3d %-*.*s", i == current ? '>' : ' ', q->index,
                              namew, namew, q->name ? q->name : "?");
        char ir = q->ir_changed < 0 ? ' ' : q->ir_changed ? '*' : '=';
        x = canvas_printf(c, rows, y, x, q->ir_changed > 0 ? ST_CHANGED : ST_NORMAL, "  %c ", ir);
        canvas_style vst;
        const char *v = verdict_text(q->verdict, &vst);
        x = canvas_printf(c, rows, y, x, vst, "%-6s", v);
        for (int k = 0; k < q->noutputs; k++) {
            double d = q->max_abs_diff[k];
            if (isnan(d))
                x = canvas_printf(c, rows, y, x, ST_DIM, " %-*s", colw, "-");
            else
                x = canvas_printf(c, rows, y, x, vst == ST_BAD ? ST_BAD : ST_NORMAL, " %-*.3g", colw, d);
        }
        char m[32];
        heat_format_share(q->margin, m, sizeof m);
        if (isnan(q->margin))
            x = canvas_puts(c, rows, y, x, " -      ", ST_DIM);
        else
            x = canvas_printf(c, rows, y, x, q->margin > 1 ? ST_BAD : ST_NORMAL, " %-7s", m);
        /* The file has the same bytes as an earlier one: its result is that one's. */
        if (q->same_as >= 0)
            canvas_printf(c, rows, y, x, ST_DIM, " =file %d", q->same_as);
        if (i == cursor && focused)
            canvas_style_row(c, rows, y, ST_CURSOR);
    }
}

static void passes_draw(tui *t, crect r, int focused)
{
    int n = session_npasses(t->s);
    int cur = session_current_pass(t->s);
    if (cur != t->passes.seen) {
        t->passes.seen = cur;
        t->passes.sc.cursor = cur;
    }
    char title[64];
    /* the semantics the verdicts were computed under (--semantics, set semantics) */
    snprintf(title, sizeof title, "Passes (%d, %s)", n, session_get_string(t->s, SETTING_SEMANTICS));
    canvas_title(&t->cv, r, title, focused);
    crect body = {r.y + 1, r.x, r.h - 1, r.w};
    tui_scroll_show(&t->passes.sc, n, body.h - 1);
    if (n == 0 || body.h < 2) {
        render_passes(&t->cv, body, NULL, 0, -1, -1, 0, focused);
        return;
    }
    /* Only the rows on screen are asked for: ir_changed may parse files. */
    view_pass *rows = xcalloc((size_t)body.h, sizeof *rows);
    int first = t->passes.sc.top, count = 0;
    for (int i = first; i < n && count < body.h - 1; i++)
        view_pass_info(t->s, i, &rows[count++]);
    /* render_passes indexes from 0: hand it the window, shifted. */
    render_passes(&t->cv, body, rows, count, cur - first, t->passes.sc.cursor - first, 0, focused);
    free(rows);
}

static void select_cursor(tui *t)
{
    view_pass p;
    if (!view_pass_info(t->s, t->passes.sc.cursor, &p))
        return;
    char cmd[64];
    snprintf(cmd, sizeof cmd, "pass %d", p.index);
    tui_execute(t, cmd);
}

static int passes_key(tui *t, int action)
{
    int n = session_npasses(t->s);
    int h = t->rect[PANE_PASSES].h - 2;
    switch (action) {
    case ACT_DOWN: tui_scroll_move(&t->passes.sc, 1, n, h); break;
    case ACT_UP: tui_scroll_move(&t->passes.sc, -1, n, h); break;
    case ACT_PGDN: tui_scroll_move(&t->passes.sc, h, n, h); break;
    case ACT_PGUP: tui_scroll_move(&t->passes.sc, -h, n, h); break;
    case ACT_TOP: tui_scroll_move(&t->passes.sc, -n, n, h); break;
    case ACT_BOTTOM: tui_scroll_move(&t->passes.sc, n, n, h); break;
    case ACT_SELECT: select_cursor(t); break;
    default: return 0;
    }
    t->dirty |= 1u << PANE_PASSES;
    return 1;
}

static void passes_click(tui *t, int y)
{
    if (y >= 1)
        t->passes.sc.cursor = t->passes.sc.top + y - 1; /* row 0 is the header */
}

const tui_pane_ops pane_passes_ops = {
    .draw = passes_draw,
    .key = passes_key,
    .click = passes_click,
    .help = "IR: * changed from the pass before, = the same;\n"
            "verdict and max_abs_diff per output once validated;\n"
            "margin: the worst element's |diff| as a share of its\n"
            "tolerance (atol + rtol*|golden|), above 100% failing",
};

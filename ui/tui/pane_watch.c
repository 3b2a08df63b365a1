/* The watch pane: the expressions shown at every stop (`display`), from
 * view_displays, changed ones marked. */
#include "config.h"

#include <string.h>

#include "tui.h"

void render_displays(canvas *c, crect r, const view_display *d, int n, int top)
{
    canvas_fill(c, r, ' ', ST_NORMAL);
    if (n == 0) {
        canvas_message(c, r, "nothing displayed \xe2\x80\x94 display TENSOR\n(shown at each stop of a run)");
        return;
    }
    for (int i = top, y = 0; i < n && y < r.h; i++, y++) {
        canvas_style st = d[i].changed ? ST_CHANGED : ST_NORMAL;
        const char *sum = d[i].summary ? d[i].summary : "?";
        int x = canvas_printf(c, r, y, 0, st, "%c%d: %s", d[i].changed ? '*' : ' ', d[i].number,
                              d[i].expr ? d[i].expr : "?");
        /* A summary that does not fit beside its expression goes below it. */
        if (x + 3 + (int)strlen(sum) > r.w) {
            y++;
            x = 3;
        }
        canvas_printf(c, r, y, x, ST_NORMAL, " = %s", sum);
    }
}

static void watch_draw(tui *t, crect r, int focused)
{
    canvas_title(&t->cv, r, "Watch", focused);
    view_display d[TUI_MAX_DISPLAYS];
    int n = view_displays(t->s, d, TUI_MAX_DISPLAYS);
    if (n > TUI_MAX_DISPLAYS)
        n = TUI_MAX_DISPLAYS;
    if (t->watch.top >= n)
        t->watch.top = n > 0 ? n - 1 : 0;
    render_displays(&t->cv, (crect){r.y + 1, r.x, r.h - 1, r.w}, d, n, t->watch.top);
}

static int watch_key(tui *t, int action)
{
    int h = t->rect[PANE_WATCH].h - 1;
    switch (action) {
    case ACT_DOWN: t->watch.top++; break;
    case ACT_UP: t->watch.top--; break;
    case ACT_PGDN: t->watch.top += h; break;
    case ACT_PGUP: t->watch.top -= h; break;
    case ACT_TOP: t->watch.top = 0; break;
    case ACT_BOTTOM: t->watch.top = 1 << 20; break; /* clamped when drawn */
    default: return 0;
    }
    if (t->watch.top < 0)
        t->watch.top = 0;
    t->dirty |= 1u << PANE_WATCH;
    return 1;
}

const tui_pane_ops pane_watch_ops = {
    .draw = watch_draw,
    .key = watch_key,
    .click = NULL,
    .help = "display TENSOR adds a line, undisplay N removes one;\n"
            "* marks values changed at the last stop",
};

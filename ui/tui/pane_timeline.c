/* The timeline pane: a row per core (host, AIC, AIV0, AIV1) over statement
 * time, from the engine's record of the run (view_timeline): what each core
 * did in each column's steps, queue pushes and pops marked, the last step
 * (the current point) under a caret. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui.h"

static const char *const core_label[4] = {"host", "AIC", "AIV0", "AIV1"};

void render_timeline(canvas *c, crect r, const view_tl_event *ev, size_t n, int current_core)
{
    canvas_fill(c, r, ' ', ST_NORMAL);
    if (n == 0) {
        canvas_message(c, r, "not running \xe2\x80\x94 run, then step: each core's statements show here");
        return;
    }
    enum { LABEL = 6 };
    int w = r.w - LABEL;
    if (w < 4 || r.h < 3)
        return;
    uint64_t first = ev[0].step, last = ev[n - 1].step;
    uint64_t span = last - first + 1;
    uint64_t per = (span + (uint64_t)w - 1) / (uint64_t)w;
    if (per == 0)
        per = 1;
    canvas_printf(c, r, 0, 0, ST_DIM, "steps %llu..%llu, %llu a column   = ran ~ blocked > push < pop . done",
                  (unsigned long long)first, (unsigned long long)last, (unsigned long long)per);
    int rows = r.h - 2 < 4 ? r.h - 2 : 4;
    for (int core = 0; core < rows; core++) {
        canvas_printf(c, r, 1 + core, 0, core == current_core ? ST_STOP : ST_NORMAL, "%-5s", core_label[core]);
        canvas_put(c, r, 1 + core, LABEL - 1, 0x2502, ST_DIM);
    }
    /* Per core, the state carried from column to column: blocked until it
     * runs again, done after its last return. */
    int state[4] = {0, 0, 0, 0}; /* 0 idle, 1 blocked, 2 done */
    size_t i = 0;
    int lastcol = 0;
    for (int col = 0; col < w && i < n; col++) {
        uint64_t hi = first + (uint64_t)(col + 1) * per;
        char glyph[4] = {0, 0, 0, 0};
        while (i < n && ev[i].step < hi) {
            const view_tl_event *e = &ev[i++];
            if (e->core >= 4)
                continue;
            char g = e->kind == VIEW_TL_BLOCKED ? '~' : e->mark == 'p' ? '>' : e->mark == 'o' ? '<' : '=';
            if (e->kind == VIEW_TL_DONE) {
                state[e->core] = 2;
                g = glyph[e->core] ? glyph[e->core] : '.';
            } else {
                state[e->core] = e->kind == VIEW_TL_BLOCKED;
            }
            /* marks win over plain runs, runs over waits */
            char old = glyph[e->core];
            if (!old || old == '~' || old == '.' || (old == '=' && (g == '>' || g == '<')))
                glyph[e->core] = g;
        }
        for (int core = 0; core < rows; core++) {
            char g = glyph[core] ? glyph[core] : state[core] == 1 ? '~' : state[core] == 2 ? '.' : ' ';
            canvas_style st = g == '~' ? ST_BAD : g == '>' || g == '<' ? ST_CHANGED : g == '.' ? ST_DIM : ST_GOOD;
            canvas_put(c, r, 1 + core, LABEL + col, (uint32_t)g, st);
        }
        lastcol = col;
    }
    /* The current point: the last step recorded. */
    int y = 1 + rows;
    if (y < r.h) {
        canvas_put(c, r, y, LABEL + lastcol, '^', ST_STOP);
        canvas_printf(c, r, y, 0, ST_DIM, "now");
    }
}

void pane_timeline_draw(tui *t, crect r, int focused)
{
    canvas_title(&t->cv, r, "Timeline (statement time across, a row per core)", focused);
    crect body = {r.y + 1, r.x, r.h - 1, r.w};
    const view_tl_event *ev;
    size_t n = view_timeline(t->s, &ev);
    view_location loc;
    int core = view_stop_location(t->s, &loc) ? loc.core : -1;
    render_timeline(&t->cv, body, ev, n, core);
}

int pane_timeline_action(tui *t, int action)
{
    (void)t;
    (void)action;
    return 0;
}

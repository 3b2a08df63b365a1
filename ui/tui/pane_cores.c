/* The cores and queues pane: each core's state and statement, then the
 * cross-core queues with their fill, from view_cores/view_queues. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui.h"

static const char *core_state_name(view_core_state st)
{
    switch (st) {
    case VIEW_CORE_IDLE:
        return "idle";
    case VIEW_CORE_RUNNING:
        return "running";
    case VIEW_CORE_BLOCKED:
        return "blocked";
    case VIEW_CORE_DONE:
        return "done";
    }
    return "?";
}

void render_cores(canvas *c, crect r, const view_core *cores, int ncores, const view_queue *queues,
                  int nqueues, int top)
{
    canvas_fill(c, r, ' ', ST_NORMAL);
    if (ncores == 0 && nqueues == 0) {
        canvas_message(c, r, "not run yet \xe2\x80\x94 type run");
        return;
    }
    /* Rows: cores, a blank, a queue header, queues; scrolled by top. */
    int y = -top;
    for (int i = 0; i < ncores; i++, y++) {
        const view_core *k = &cores[i];
        /* a multi-rank case: a heading per rank, its cores under it */
        if (k->rank >= 0 && (i == 0 || cores[i - 1].rank != k->rank))
            canvas_printf(c, r, y++, 0, ST_DIM, "rank %d", k->rank);
        canvas_style st = k->state == VIEW_CORE_BLOCKED ? ST_BAD : ST_NORMAL;
        int x = canvas_printf(c, r, y, 0, k->current ? ST_STOP : st, "%c %-5s", k->current ? '>' : ' ',
                              k->name ? k->name : "?");
        x = canvas_printf(c, r, y, x, st, " %-8s", core_state_name(k->state));
        if (k->func)
            x = canvas_printf(c, r, y, x, ST_NORMAL, " %s", k->func);
        if (k->line > 0)
            x = canvas_printf(c, r, y, x, ST_LINENO, ":%d", k->line);
        if (k->waiting) {
            /* What a blocked core waits on is the point of a deadlock: on
             * its own line when it does not fit. */
            if (x + 11 + (int)strlen(k->waiting) > r.w) {
                y++;
                x = 4;
            }
            canvas_printf(c, r, y, x, ST_BAD, "  waits on %s", k->waiting);
        }
    }
    y++;
    if (nqueues == 0) {
        canvas_puts(c, r, y, 0, "no queues", ST_DIM);
        return;
    }
    canvas_puts(c, r, y++, 0, "queue          split lane  depth", ST_DIM);
    for (int i = 0; i < nqueues; i++, y++) {
        const view_queue *q = &queues[i];
        int x = canvas_printf(c, r, y, 0, ST_NORMAL, "%-14s %5d %4d  ", q->direction ? q->direction : "?",
                              q->split, q->lane);
        if (q->capacity >= 0)
            x = canvas_printf(c, r, y, x, ST_NORMAL, "%d/%d ", q->depth, q->capacity);
        else
            x = canvas_printf(c, r, y, x, ST_NORMAL, "%d ", q->depth);
        /* A bar of the items waiting, capped to the pane. */
        for (int d = 0; d < q->depth && x < r.w; d++)
            canvas_put(c, r, y, x++, '#', q->capacity >= 0 && q->depth >= q->capacity ? ST_BAD : ST_CHANGED);
    }
}

static void cores_draw(tui *t, crect r, int focused)
{
    canvas_title(&t->cv, r, "Cores and queues", focused);
    view_core cores[TUI_MAX_CORES];
    view_queue queues[TUI_MAX_QUEUES];
    int nc = view_cores(t->s, cores, TUI_MAX_CORES);
    int nq = view_queues(t->s, queues, TUI_MAX_QUEUES);
    if (nc > TUI_MAX_CORES)
        nc = TUI_MAX_CORES;
    if (nq > TUI_MAX_QUEUES)
        nq = TUI_MAX_QUEUES;
    int total = 3 * nc + 2 + nq; /* at most: a core may take two rows, and a rank's heading one */
    crect body = {r.y + 1, r.x, r.h - 1, r.w};
    if (t->cores.top > total - 1)
        t->cores.top = total > 0 ? total - 1 : 0;
    render_cores(&t->cv, body, cores, nc, queues, nq, t->cores.top);
}

static int cores_key(tui *t, int action)
{
    int h = t->rect[PANE_CORES].h - 1;
    switch (action) {
    case ACT_DOWN: t->cores.top++; break;
    case ACT_UP: t->cores.top--; break;
    case ACT_PGDN: t->cores.top += h; break;
    case ACT_PGUP: t->cores.top -= h; break;
    case ACT_TOP: t->cores.top = 0; break;
    case ACT_BOTTOM: t->cores.top = 1 << 20; break; /* clamped when drawn */
    default: return 0;
    }
    if (t->cores.top < 0)
        t->cores.top = 0;
    t->dirty |= 1u << PANE_CORES;
    return 1;
}

const tui_pane_ops pane_cores_ops = {
    .draw = cores_draw,
    .key = cores_key,
    .click = NULL,
    .help = "> marks the core commands act on (core NAME)",
};

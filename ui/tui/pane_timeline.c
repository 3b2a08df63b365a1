/* The timeline pane: a row per core (host, AIC, AIV0, AIV1; in a
 * multi-rank case per rank and core, grouped by rank) over statement time, from the engine's record of the run (view_timeline): what each core
 * did in each column's steps, queue pushes and pops marked, the last step
 * (the current point) under a caret; under it a row per cross-core queue,
 * its occupancy in the same columns (view_queue_history). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui.h"

static const char *const core_label[4] = {"host", "AIC", "AIV0", "AIV1"};

enum { LABEL = 6, TL_MAX_ROWS = 64 };

/* Steps a column for n events in w columns. */
static uint64_t steps_per_column(const view_tl_event *ev, size_t n, int w)
{
    uint64_t span = ev[n - 1].step - ev[0].step + 1;
    uint64_t per = (span + (uint64_t)w - 1) / (uint64_t)w;
    return per ? per : 1;
}

/* The rows: one per core (host, AIC, AIV0, AIV1); in a multi-rank run one
 * per rank and core that has events, grouped by rank. The count (at most
 * max); rank[i] -1 for a single-rank run. */
static int timeline_rows(const view_tl_event *ev, size_t n, int *rank, int *core, int max)
{
    int multi = 0;
    for (size_t i = 0; i < n && !multi; i++)
        multi = ev[i].rank >= 0;
    int k = 0;
    if (!multi) {
        for (; k < 4 && k < max; k++)
            rank[k] = -1, core[k] = k;
        return k;
    }
    /* which (rank, core) pairs occur, in rank then core order */
    unsigned char seen[TL_MAX_ROWS][4];
    memset(seen, 0, sizeof seen);
    for (size_t i = 0; i < n; i++)
        if (ev[i].rank >= 0 && ev[i].rank < TL_MAX_ROWS && ev[i].core < 4)
            seen[ev[i].rank][ev[i].core] = 1;
    for (int r = 0; r < TL_MAX_ROWS; r++)
        for (int c = 0; c < 4; c++)
            if (seen[r][c] && k < max)
                rank[k] = r, core[k] = c, k++;
    return k;
}

static int row_of(const int *rank, const int *core, int rows, const view_tl_event *e)
{
    for (int k = 0; k < rows; k++)
        if (core[k] == e->core && (rank[k] < 0 || rank[k] == e->rank))
            return k;
    return -1;
}

int render_timeline(canvas *c, crect r, const view_tl_event *ev, size_t n, uint64_t now, int current_core,
                    int cursor_col, int cursor_core, uint64_t *per_out)
{
    canvas_fill(c, r, ' ', ST_NORMAL);
    if (n == 0) {
        canvas_message(c, r, "not running \xe2\x80\x94 run, then step: each core's statements show here");
        return 0;
    }
    int w = r.w - LABEL;
    if (w < 4 || r.h < 3)
        return 0;
    uint64_t first = ev[0].step, last = ev[n - 1].step;
    uint64_t per = steps_per_column(ev, n, w);
    if (per_out)
        *per_out = per;
    int rk[TL_MAX_ROWS], co[TL_MAX_ROWS];
    int rows = timeline_rows(ev, n, rk, co, r.h - 2 < TL_MAX_ROWS ? r.h - 2 : TL_MAX_ROWS);
    int multi = rows > 0 && rk[0] >= 0;
    canvas_printf(c, r, 0, 0, ST_DIM,
                  multi ? "steps %llu..%llu, %llu a column, now %llu   = ran ~ blocked * notify N took rank N's "
                          "notify | from its row . done   rows: rR h|c|v0|v1"
                        : "steps %llu..%llu, %llu a column, now %llu   = ran ~ blocked > push < pop . done",
                  (unsigned long long)first, (unsigned long long)last, (unsigned long long)per,
                  (unsigned long long)now);
    /* the current moment's column: after it, the recorded history (dim) */
    int nowcol = now <= first ? 0 : (int)((now - first) / per);
    for (int k = 0; k < rows; k++) {
        int cur = multi ? 0 : co[k] == current_core;
        if (multi) { /* "r1 v0": rank 1's AIV0 */
            static const char *const brief[4] = {"h", "c", "v0", "v1"};
            char lab[16];
            snprintf(lab, sizeof lab, rk[k] < 10 ? "r%d %s" : "r%d%s", rk[k], brief[co[k]]);
            canvas_printf(c, r, 1 + k, 0, ST_NORMAL, "%-5.5s", lab);
        }
        else
            canvas_printf(c, r, 1 + k, 0, cur ? ST_STOP : ST_NORMAL, "%-5s", core_label[co[k]]);
        canvas_put(c, r, 1 + k, LABEL - 1, 0x2502, ST_DIM);
    }
    /* Per row, the state carried from column to column: blocked until it
     * runs again, done after its last return. */
    int state[TL_MAX_ROWS] = {0}; /* 0 idle, 1 blocked, 2 done */
    size_t i = 0;
    int lastcol = 0;
    for (int col = 0; col < w && i < n; col++) {
        uint64_t hi = first + (uint64_t)(col + 1) * per;
        char glyph[TL_MAX_ROWS] = {0};
        while (i < n && ev[i].step < hi) {
            const view_tl_event *e = &ev[i++];
            int k = e->core < 4 ? row_of(rk, co, rows, e) : -1;
            if (k < 0)
                continue;
            char g = e->kind == VIEW_TL_BLOCKED ? '~'
                     : e->mark == 'p'           ? '>'
                     : e->mark == 'o'           ? '<'
                     : e->mark == 'n'           ? '*'
                     : e->mark == 'w' && e->peer >= 0 ? (char)(e->peer < 10 ? '0' + e->peer : '+')
                                                : '=';
            if (e->kind == VIEW_TL_DONE) {
                state[k] = 2;
                g = glyph[k] ? glyph[k] : '.';
            } else {
                state[k] = e->kind == VIEW_TL_BLOCKED;
            }
            /* marks win over plain runs, runs over waits */
            char old = glyph[k];
            if (!old || old == '~' || old == '.' || (old == '=' && g != '=' && g != '~' && g != '.'))
                glyph[k] = g;
        }
        for (int k = 0; k < rows; k++) {
            char g = glyph[k] ? glyph[k] : state[k] == 1 ? '~' : state[k] == 2 ? '.' : ' ';
            canvas_style st = col > nowcol ? ST_DIM
                              : g == '~'   ? ST_BAD
                              : g == '=' ? ST_GOOD
                              : g == '.' ? ST_DIM
                              : g == ' ' ? ST_NORMAL
                                         : ST_CHANGED;
            canvas_put(c, r, 1 + k, LABEL + col, (uint32_t)g, st);
        }
        lastcol = col;
    }
    /* notify -> wait: in the wait's column a line from the notifier's row
     * (its latest notify before the wait) to the waiting row, over blank
     * cells only; the wait's own cell names the notifier's rank */
    for (size_t j = 0; multi && j < n; j++) {
        const view_tl_event *e = &ev[j];
        if (e->mark != 'w' || e->peer < 0)
            continue;
        int to = row_of(rk, co, rows, e), from = -1;
        for (size_t q = j; q-- > 0 && from < 0;)
            if (ev[q].mark == 'n' && ev[q].rank == e->peer)
                from = row_of(rk, co, rows, &ev[q]);
        int col = (int)((e->step - first) / per);
        if (to < 0 || from < 0 || from == to || col >= w)
            continue;
        int lo = from < to ? from : to, hi = from < to ? to : from;
        for (int k = lo + 1; k < hi; k++) {
            int y = r.y + 1 + k, x = r.x + LABEL + col;
            if (y < c->rows && x < c->cols && c->cells[y * c->cols + x].ch == ' ')
                canvas_put(c, r, 1 + k, LABEL + col, 0x2502, ST_CHANGED);
        }
    }
    /* The current moment: the last step after a forward run, earlier
     * after going backward (the steps after it are the history to replay). */
    int y = 1 + rows;
    if (nowcol > lastcol)
        nowcol = lastcol;
    if (y < r.h) {
        canvas_put(c, r, y, LABEL + nowcol, '^', ST_STOP);
        canvas_printf(c, r, y, 0, ST_DIM, "now");
    }
    if (cursor_core >= 0 && cursor_core < rows) {
        int col = cursor_col < 0 || cursor_col > lastcol ? lastcol : cursor_col;
        crect cell = {r.y + 1 + cursor_core, r.x + LABEL + col, 1, 1};
        canvas_style_row(c, cell, 0, ST_CURSOR);
    }
    return lastcol + 1;
}

void render_queue_rows(canvas *c, crect r, uint64_t first, uint64_t per, int ncols, const tui_queue_row *q, int nq)
{
    canvas_fill(c, r, ' ', ST_NORMAL);
    for (int k = 0; k < nq && k < r.h; k++) {
        canvas_printf(c, r, k, 0, ST_DIM, "%-5.5s", q[k].label ? q[k].label : "?");
        canvas_put(c, r, k, LABEL - 1, 0x2502, ST_DIM);
        size_t i = 0;
        int depth = -1; /* not met yet */
        for (int col = 0; col < ncols && LABEL + col < r.w; col++) {
            uint64_t hi = first + (uint64_t)(col + 1) * per;
            int most = depth;
            while (i < q[k].n && q[k].d[i].step < hi) {
                depth = q[k].d[i++].depth;
                if (depth > most)
                    most = depth;
            }
            if (most < 0)
                continue;
            uint32_t ch = most == 0 ? 0xb7 /* · */ : most < 10 ? (uint32_t)('0' + most) : '+';
            canvas_style st = most == 0                             ? ST_DIM
                              : q[k].limit > 0 && most >= q[k].limit ? ST_BAD
                                                                     : ST_CHANGED;
            canvas_put(c, r, k, LABEL + col, ch, st);
        }
    }
}

/* "c2v0": the queue's direction (cube to vector, vector to cube, the lane
 * exchange) and lane. */
static void queue_label(const view_queue *q, char *buf, size_t size)
{
    const char *d = !q->direction                       ? "q"
                    : !strcmp(q->direction, "aic->aiv") ? "c2v"
                    : !strcmp(q->direction, "aiv->aic") ? "v2c"
                                                        : "x";
    if (q->lane >= 0)
        snprintf(buf, size, "%s%d", d, q->lane);
    else
        snprintf(buf, size, "%s", d);
}

/* Where `core` was in column col (per steps a column): the line of its
 * latest event up to the column's end (a core blocked since, where it
 * waits), 0 when it had not run yet. A push or pop drawn in the column
 * wins: Enter on a mark goes to that statement. */
static int line_at(const view_tl_event *ev, size_t n, uint64_t per, int col, int rank, int core)
{
    uint64_t lo = ev[0].step + (uint64_t)col * per, hi = lo + per;
    int line = 0, mark_line = 0;
    for (size_t i = 0; i < n && ev[i].step < hi; i++) {
        if (ev[i].core != core || (rank >= 0 && ev[i].rank != rank) || ev[i].line <= 0)
            continue;
        line = ev[i].line;
        if (ev[i].step >= lo && ev[i].mark && ev[i].kind == VIEW_TL_STMT)
            mark_line = ev[i].line;
    }
    return mark_line ? mark_line : line;
}

static void timeline_draw(tui *t, crect r, int focused)
{
    canvas_title(&t->cv, r, "Timeline (statement time across, a row per core)", focused);
    crect body = {r.y + 1, r.x, r.h - 1, r.w};
    const view_tl_event *ev;
    size_t n = view_timeline(t->s, &ev);
    view_location loc;
    int core = view_stop_location(t->s, &loc) ? loc.core : -1;
    uint64_t per = 1;
    int ncols = render_timeline(&t->cv, body, ev, n, view_timeline_now(t->s), core, t->tl.col,
                                focused ? t->tl.core : -1, &per);
    /* Under the core rows and the caret: the queues' occupancy. */
    int rk[TL_MAX_ROWS], co[TL_MAX_ROWS];
    int nrows = timeline_rows(ev, n, rk, co, body.h - 2 < TL_MAX_ROWS ? body.h - 2 : TL_MAX_ROWS);
    int used = 2 + nrows;
    if (ncols <= 0 || body.h <= used)
        return;
    view_queue vq[TUI_MAX_QUEUES];
    int nq = view_queues(t->s, vq, TUI_MAX_QUEUES);
    if (nq > TUI_MAX_QUEUES)
        nq = TUI_MAX_QUEUES;
    tui_queue_row rows[TUI_MAX_QUEUES];
    char labels[TUI_MAX_QUEUES][16];
    for (int k = 0; k < nq; k++) {
        queue_label(&vq[k], labels[k], sizeof labels[k]);
        rows[k].label = labels[k];
        rows[k].n = view_queue_history(t->s, k, &rows[k].d, &rows[k].limit);
    }
    render_queue_rows(&t->cv, (crect){body.y + used, body.x, body.h - used, body.w}, ev[0].step, per, ncols, rows, nq);
}

/* h l (Left Right) move along time, j k (Down Up) between cores; Enter
 * shows that core's statement there: `list LINE,LINE` in the console and
 * the source pane's cursor on it. */
static int timeline_key(tui *t, int action)
{
    const view_tl_event *ev;
    size_t n = view_timeline(t->s, &ev);
    crect r = t->rect[PANE_TIMELINE];
    int w = r.w - LABEL;
    if (n == 0 || w < 4)
        return 0;
    uint64_t per = steps_per_column(ev, n, w);
    int ncols = (int)((ev[n - 1].step - ev[0].step) / per) + 1;
    int rk[TL_MAX_ROWS], co[TL_MAX_ROWS];
    int nrows = timeline_rows(ev, n, rk, co, r.h - 3 < TL_MAX_ROWS ? (r.h - 3 > 1 ? r.h - 3 : 1) : TL_MAX_ROWS);
    if (t->tl.col < 0 || t->tl.col >= ncols)
        t->tl.col = ncols - 1;
    switch (action) {
    case ACT_LEFT: t->tl.col = t->tl.col > 0 ? t->tl.col - 1 : 0; break;
    case ACT_RIGHT: t->tl.col = t->tl.col + 1 < ncols ? t->tl.col + 1 : ncols - 1; break;
    case ACT_DOWN: t->tl.core = t->tl.core + 1 < nrows ? t->tl.core + 1 : nrows - 1; break;
    case ACT_UP: t->tl.core = t->tl.core > 0 ? t->tl.core - 1 : 0; break;
    case ACT_SELECT: {
        if (t->tl.core < 0 || t->tl.core >= nrows)
            return 1;
        int line = line_at(ev, n, per, t->tl.col, rk[t->tl.core], co[t->tl.core]);
        if (!line)
            return 1;
        view_location loc;
        int pass = view_stop_location(t->s, &loc) ? loc.pass : session_current_pass(t->s);
        char cmd[64];
        snprintf(cmd, sizeof cmd, "list %d,%d", line, line);
        tui_execute(t, cmd);
        if (t->src.pass == pass && t->member[PANE_SOURCE]) {
            t->src.sc.cursor = line - 1;
            t->dirty |= 1u << PANE_SOURCE;
        }
        return 1;
    }
    default: return 0;
    }
    t->dirty |= 1u << PANE_TIMELINE;
    return 1;
}

const tui_pane_ops pane_timeline_ops = {
    .draw = timeline_draw,
    .key = timeline_key,
    .click = NULL,
    .help = "a row per core (a multi-rank case: per rank and core,\n"
            "grouped by rank), statement time across (the whole run);\n"
            "= ran  ~ blocked on a queue  > push  < pop  . done;\n"
            "^ the current moment (after going back, the steps after it\n"
            "are the history forward commands replay, dim); under it a\n"
            "row per queue (c2v: cube to\n"
            "vector, v2c back; the lane): the items in it, red when\n"
            "full; Enter on a > or < lists that push or pop;\n"
            "`queue show` details the queues; multi-rank: * a notify,\n"
            "a digit N a wait that took rank N's notify, a | line from\n"
            "the notifier's row",
};

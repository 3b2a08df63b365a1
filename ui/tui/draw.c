/* Drawing: the dirty panes, the separators, the status line and the keys
 * help, into the canvas (the screen layer copies it to the terminal). */
#include "config.h"

#include <string.h>

#include "tui.h"

void render_status(canvas *c, crect r, const char *status, const char *busy, const char *progress,
                   int interrupted, const char *layout, const char *focus)
{
    canvas_style st = busy ? ST_BUSY : ST_STATUS;
    canvas_fill(c, r, ' ', st);
    if (busy) {
        int x = canvas_printf(c, r, 0, 1, st, "running: %s | %s", busy,
                              interrupted ? "interrupting" : "Ctrl-C interrupts");
        if (progress && *progress)
            canvas_printf(c, r, 0, x, st, " | %s", progress);
        return;
    }
    /* The engine's text matters most: the layout and the focused pane are
     * added on the right only where they fit beside it. */
    char right[96];
    int n = snprintf(right, sizeof right, "%s | %s | ?:keys", layout, focus);
    if (status && (int)strlen(status) + n + 4 > r.w)
        n = snprintf(right, sizeof right, "?:keys");
    int rx = r.w - n - 1;
    if (rx < 20) {
        rx = r.w;
    } else {
        canvas_puts(c, r, 0, rx, right, st);
    }
    crect left = {r.y, r.x, 1, rx - 1};
    canvas_puts(c, left, 0, 1, status ? status : "", st);
}

static void draw_separators(tui *t)
{
    for (int i = 0; i < PANE_COUNT; i++) {
        crect r = t->rect[i];
        if (!t->visible[i] || i == PANE_CONSOLE || r.x + r.w >= t->cols)
            continue;
        crect col = {r.y, r.x + r.w, r.h, 1};
        canvas_fill(&t->cv, col, 0x2502 /* │ */, ST_DIM);
        canvas_put(&t->cv, col, 0, 0, ' ', ST_TITLE);
    }
}

/* One row of the help overlay: a note, or one or two key entries. */
typedef struct help_row {
    const char *a, *b; /* texts (not NUL-terminated) */
    size_t alen, blen;
} help_row;

enum { HELP_MAX_ROWS = 128 };

/* Lays the help text out for a body `w` columns wide: key entries two to a
 * row where both fit half the width, alone otherwise; notes and entries
 * wider than w wrapped, so no character is lost. With gaps == 0 the blank
 * lines between sections are left out. Returns the rows. */
static int help_layout(const char *text, int w, int gaps, help_row *rows)
{
    int n = 0, colw = (w - 2) / 2;
    const char *pend = NULL; /* an entry waiting for its neighbour */
    size_t pendlen = 0;
    for (const char *p = text; *p && n < HELP_MAX_ROWS - 2;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        int key = *p == TUI_HELP_KEY;
        const char *s = p + key;
        size_t slen = len - (size_t)key;
        p += len + (nl ? 1 : 0);
        if (key && canvas_width(s, slen) <= colw) {
            if (pend) {
                rows[n++] = (help_row){pend, s, pendlen, slen};
                pend = NULL;
            } else {
                pend = s;
                pendlen = slen;
            }
            continue;
        }
        if (pend) {
            rows[n++] = (help_row){pend, NULL, pendlen, 0};
            pend = NULL;
        }
        if (slen == 0) {
            if (gaps && n > 0)
                rows[n++] = (help_row){s, NULL, 0, 0};
            continue;
        }
        /* Wrapped to the width, continuation lines indented under the text. */
        size_t at = 0;
        while (at < slen && n < HELP_MAX_ROWS - 1) {
            size_t take = canvas_fit(s + at, slen - at, at ? w - 10 : w);
            if (at + take < slen) {
                size_t sp = take;
                while (sp > 0 && s[at + sp - 1] != ' ')
                    sp--;
                if (sp > 0)
                    take = sp;
            }
            rows[n++] = (help_row){s + at, NULL, take, at ? 10 : 0}; /* blen: the indent */
            at += take;
        }
    }
    if (pend)
        rows[n++] = (help_row){pend, NULL, pendlen, 0};
    while (n > 0 && rows[n - 1].alen == 0)
        n--;
    return n;
}

static void draw_help(tui *t)
{
    char text[4096];
    tui_pane_help(t->focus, text, sizeof text);
    int w = t->cols - 4 < 96 ? t->cols - 4 : 96;
    if (w < 20)
        w = 20;
    help_row rows[HELP_MAX_ROWS];
    int n = help_layout(text, w, 1, rows);
    if (n + 3 > t->rows - 1)
        n = help_layout(text, w, 0, rows); /* a short terminal: no blank lines */
    int h = n + 3, bw = w + 4;
    if (h > t->rows - 1)
        h = t->rows - 1;
    if (bw > t->cols)
        bw = t->cols;
    crect box = {(t->rows - 1 - h) / 2, (t->cols - bw) / 2, h, bw};
    canvas_fill(&t->cv, box, ' ', ST_NORMAL);
    /* A frame, so the help stands apart from the panes under it. */
    for (int y = 1; y < box.h; y++) {
        canvas_put(&t->cv, box, y, 0, 0x2502, ST_DIM);
        canvas_put(&t->cv, box, y, box.w - 1, 0x2502, ST_DIM);
    }
    for (int x = 1; x < box.w - 1; x++)
        canvas_put(&t->cv, box, box.h - 1, x, 0x2500, ST_DIM);
    canvas_put(&t->cv, box, box.h - 1, 0, 0x2514, ST_DIM);
    canvas_put(&t->cv, box, box.h - 1, box.w - 1, 0x2518, ST_DIM);
    char title[64];
    snprintf(title, sizeof title, "Keys: %s (any key closes)", tui_pane_name(t->focus));
    canvas_title(&t->cv, box, title, 1);
    crect body = {box.y + 1, box.x + 2, box.h - 2, box.w - 3};
    int colw = (w - 2) / 2;
    for (int y = 0; y < n && y < body.h; y++) {
        if (rows[y].b) {
            canvas_putn(&t->cv, body, y, 0, rows[y].a, rows[y].alen, ST_NORMAL);
            canvas_putn(&t->cv, body, y, colw + 2, rows[y].b, rows[y].blen, ST_NORMAL);
        } else {
            canvas_putn(&t->cv, body, y, (int)rows[y].blen, rows[y].a, rows[y].alen, ST_NORMAL);
        }
    }
}

void tui_draw(tui *t)
{
    if (!t->dirty)
        return;
    if (t->busy) {
        /* Inside session_execute: only the console and the status line,
         * which read nothing from the session (its view strings may be
         * changing under the running command). */
        if (t->visible[PANE_CONSOLE] && (t->dirty & (1u << PANE_CONSOLE)))
            pane_console_ops.draw(t, t->rect[PANE_CONSOLE], t->focus == PANE_CONSOLE);
        render_status(&t->cv, (crect){t->rows - 1, 0, 1, t->cols}, NULL, t->busy, t->progress, t->interrupted,
                      "", "");
        t->dirty &= ~((1u << PANE_CONSOLE) | TUI_DIRTY_STATUS);
        return;
    }
    if ((t->dirty & TUI_DIRTY_ALL) == TUI_DIRTY_ALL) {
        canvas_fill(&t->cv, (crect){0, 0, t->rows, t->cols}, ' ', ST_NORMAL);
        draw_separators(t);
    }
    /* A pane may run the engine (a live heat map seeks the point in the
     * previous pass, with the session's run swapped for the side run): its
     * polls may flush the screen, and that nested draw must take the busy
     * path, which reads nothing from the session; Ctrl-C then stops the
     * seek. The status line is drawn afresh after the panes. */
    unsigned dirty = t->dirty;
    int interrupted = t->interrupted;
    t->busy = "drawing the panes";
    for (int i = 0; i < PANE_COUNT; i++)
        if (t->visible[i] && (dirty & (1u << i)) && t->rect[i].h > 0)
            tui_pane((tui_pane_id)i)->draw(t, t->rect[i], t->focus == (tui_pane_id)i);
    t->busy = NULL;
    t->interrupted = interrupted;
    t->progress[0] = 0;
    if ((dirty | t->dirty) & TUI_DIRTY_STATUS) {
        const char *status = view_status_line(t->s);
        char line[512];
        int done, total;
        if (view_validation_progress(t->s, &done, &total)) {
            snprintf(line, sizeof line, "validating %d/%d (Ctrl-C stops) | %s", done, total, status ? status : "");
            status = line;
        }
        render_status(&t->cv, (crect){t->rows - 1, 0, 1, t->cols}, status, t->busy,
                      t->progress, t->interrupted, tui_layout_name(t->layout),
                      tui_pane_name(t->focus));
    }
    if (t->help)
        draw_help(t);
    t->dirty = 0;
}

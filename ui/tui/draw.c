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

typedef void (*pane_draw_fn)(tui *t, crect r, int focused);

static const pane_draw_fn pane_draw[PANE_COUNT] = {
    [PANE_SOURCE] = pane_source_draw, [PANE_PASSES] = pane_passes_draw,
    [PANE_HEATMAP] = pane_heatmap_draw, [PANE_CORES] = pane_cores_draw,
    [PANE_WATCH] = pane_watch_draw,   [PANE_IRDIFF] = pane_irdiff_draw,
    [PANE_CONSOLE] = pane_console_draw,
};

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

static void draw_help(tui *t)
{
    char text[2048];
    tui_pane_help(t->focus, text, sizeof text);
    int lines = 1, width = 0, cur = 0;
    for (const char *p = text; *p; p++) {
        if (*p == '\n') {
            lines++;
            cur = 0;
        } else if (((unsigned char)*p & 0xc0) != 0x80 && ++cur > width) {
            width = cur;
        }
    }
    int h = lines + 3, w = width + 4;
    if (h > t->rows - 1)
        h = t->rows - 1;
    if (w > t->cols)
        w = t->cols;
    crect box = {(t->rows - 1 - h) / 2, (t->cols - w) / 2, h, w};
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
    const char *p = text;
    for (int y = 0; *p && y < body.h; y++) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        canvas_putn(&t->cv, body, y, 0, p, n, ST_NORMAL);
        p += n + (nl ? 1 : 0);
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
            pane_console_draw(t, t->rect[PANE_CONSOLE], t->focus == PANE_CONSOLE);
        render_status(&t->cv, (crect){t->rows - 1, 0, 1, t->cols}, NULL, t->busy, t->progress, t->interrupted,
                      "", "");
        t->dirty &= ~((1u << PANE_CONSOLE) | TUI_DIRTY_STATUS);
        return;
    }
    if ((t->dirty & TUI_DIRTY_ALL) == TUI_DIRTY_ALL) {
        canvas_fill(&t->cv, (crect){0, 0, t->rows, t->cols}, ' ', ST_NORMAL);
        draw_separators(t);
    }
    for (int i = 0; i < PANE_COUNT; i++)
        if (t->visible[i] && (t->dirty & (1u << i)) && t->rect[i].h > 0)
            pane_draw[i](t, t->rect[i], t->focus == (tui_pane_id)i);
    if (t->dirty & TUI_DIRTY_STATUS) {
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

/* The IR diff pane: what the current pass changed in the IR, as the
 * engine's `pass diff` prints it (captured, never recomputed here). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "tui.h"

static void capture(void *ctx, session_stream stream, const char *text, size_t len)
{
    (void)stream;
    strbuf_append(ctx, text, len);
}

static void console_out(void *ctx, session_stream stream, const char *text, size_t len)
{
    tui_console_write(ctx, stream, text, len);
}

/* Runs `pass diff` for the current pass once, with the output captured. */
static void refresh(tui *t)
{
    int cur = session_current_pass(t->s);
    if (t->irdiff.pass == cur && t->irdiff.text)
        return;
    free(t->irdiff.text);
    t->irdiff.text = NULL;
    t->irdiff.pass = cur;
    t->irdiff.top = 0;
    if (!session_has_case(t->s) || session_collecting(t->s))
        return; /* a `define` body would swallow the command */
    strbuf sb = STRBUF_INIT;
    session_set_output(t->s, capture, &sb);
    if (cur == 0)
        strbuf_puts(&sb, "the first pass: nothing before it to compare with\n");
    else
        session_execute(t->s, "pass diff");
    session_set_output(t->s, console_out, t);
    t->irdiff.text = strbuf_detach(&sb);
    tui_lines_set(&t->irdiff.diff_lines, t->irdiff.text);
}

static void irdiff_draw(tui *t, crect r, int focused)
{
    refresh(t);
    view_pass p;
    char title[256] = "IR diff";
    if (session_has_case(t->s) && view_pass_info(t->s, session_current_pass(t->s), &p))
        snprintf(title, sizeof title, "IR diff: %s vs the pass before", p.stem);
    canvas_title(&t->cv, r, title, focused);
    crect body = {r.y + 1, r.x, r.h - 1, r.w};
    canvas_fill(&t->cv, body, ' ', ST_NORMAL);
    if (!t->irdiff.text) {
        canvas_message(&t->cv, body, "no case open \xe2\x80\x94 type open PATH");
        return;
    }
    int n = t->irdiff.diff_lines.nlines;
    if (t->irdiff.top > n - body.h)
        t->irdiff.top = n - body.h;
    if (t->irdiff.top < 0)
        t->irdiff.top = 0;
    for (int y = 0; y < body.h && t->irdiff.top + y < n; y++) {
        size_t len;
        const char *s = tui_lines_get(&t->irdiff.diff_lines, t->irdiff.top + y, &len);
        canvas_style st = ST_NORMAL;
        if (len >= 3 && (!strncmp(s, "+++", 3) || !strncmp(s, "---", 3)))
            st = ST_DIM;
        else if (len && s[0] == '+')
            st = ST_DIFF_ADD;
        else if (len && s[0] == '-')
            st = ST_DIFF_DEL;
        else if (len >= 2 && !strncmp(s, "@@", 2))
            st = ST_DIFF_HUNK;
        canvas_putn(&t->cv, body, y, 0, s, len, st);
    }
}

static int irdiff_key(tui *t, int action)
{
    int h = t->rect[PANE_IRDIFF].h - 1;
    switch (action) {
    case ACT_DOWN: t->irdiff.top++; break;
    case ACT_UP: t->irdiff.top--; break;
    case ACT_PGDN: t->irdiff.top += h; break;
    case ACT_PGUP: t->irdiff.top -= h; break;
    case ACT_TOP: t->irdiff.top = 0; break;
    case ACT_BOTTOM: t->irdiff.top = t->irdiff.diff_lines.nlines; break;
    default: return 0;
    }
    if (t->irdiff.top < 0)
        t->irdiff.top = 0;
    t->dirty |= 1u << PANE_IRDIFF;
    return 1;
}

const tui_pane_ops pane_irdiff_ops = {
    .draw = irdiff_draw,
    .key = irdiff_key,
    .click = NULL,
    .help = "the output of `pass diff` for the current pass",
};

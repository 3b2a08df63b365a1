/* The source pane: the current pass's dump file with line numbers, the
 * statement the program is stopped at, breakpoint marks, a cursor and `/`
 * search. Keys that run the program send gdb's command text. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "tui.h"

void pane_source_sync(tui *t)
{
    int cur = session_current_pass(t->s);
    /* The text is the session's: after `open` the same pass number may be
     * another case's file, so the pointer is compared too. */
    const char *text = session_has_case(t->s) ? session_pass_source(t->s, cur) : NULL;
    if (t->src.pass != cur || t->src.file.text != text) {
        t->src.pass = cur;
        tui_lines_set(&t->src.file, text);
        t->src.sc.top = t->src.sc.cursor = 0;
        t->src.left = 0;
        t->src.stop_line = 0;
        t->src.error_shown = 0;
    }
    /* A pass whose file does not check opens at its first error, the root
     * cause (its message is in the console). */
    int eline = t->src.error_shown ? 0 : view_pass_error_line(t->s, cur);
    if (eline > 0) {
        t->src.error_shown = 1;
        t->src.sc.cursor = eline - 1;
        tui_scroll_show(&t->src.sc, t->src.file.nlines, t->rect[PANE_SOURCE].h - 1);
    }
    /* A new bisect result: its statement, in the pass it selected. */
    int bpass, bline;
    unsigned serial;
    if (view_bisect_statement(t->s, &bpass, &bline, &serial) && serial != t->src.bisect_seen && bpass == cur) {
        t->src.bisect_seen = serial;
        t->src.sc.cursor = bline - 1;
        tui_scroll_show(&t->src.sc, t->src.file.nlines, t->rect[PANE_SOURCE].h - 1);
    }
    view_location loc;
    if (view_stop_location(t->s, &loc) && loc.pass == cur && loc.line > 0) {
        if (loc.line != t->src.stop_line) {
            /* Follow the program: the cursor goes to the new stop. */
            t->src.stop_line = loc.line;
            t->src.sc.cursor = loc.line - 1;
        }
    } else {
        t->src.stop_line = 0;
    }
}

/* Smart case: a pattern with no capital letter matches either case. */
static const char *find_in(const char *s, size_t n, const char *pat)
{
    size_t m = strlen(pat);
    int icase = 1;
    for (const char *p = pat; *p; p++)
        if (isupper((unsigned char)*p))
            icase = 0;
    if (m == 0 || m > n)
        return NULL;
    for (size_t i = 0; i + m <= n; i++) {
        size_t k = 0;
        while (k < m && (icase ? tolower((unsigned char)s[i + k]) == tolower((unsigned char)pat[k])
                               : s[i + k] == pat[k]))
            k++;
        if (k == m)
            return s + i;
    }
    return NULL;
}

static int digits(int n)
{
    int d = 1;
    while (n >= 10)
        n /= 10, d++;
    return d < 3 ? 3 : d;
}

static void source_draw(tui *t, crect r, int focused)
{
    pane_source_sync(t);
    char title[512];
    view_pass p;
    view_location loc;
    int have_pass = session_has_case(t->s) && view_pass_info(t->s, t->src.pass, &p);
    int running = view_stop_location(t->s, &loc);
    if (!have_pass)
        snprintf(title, sizeof title, "Source");
    else if (running)
        /* The core first: it is what the keys act on, and a long file name
         * is what gets clipped. */
    {
        char who[48] = ""; /* a multi-rank case: "rank 1, " */
        if (loc.rank >= 0)
            snprintf(who, sizeof who, "rank %d, ", loc.rank);
        snprintf(title, sizeof title, "Source [%s%s] %s:%d \xe2\x80\x94 %s.py", who,
                 loc.core_name ? loc.core_name : "?", loc.func ? loc.func : "?", loc.line, p.stem);
    }
    else {
        /* the divergence engine's answer in this pass (the first screen of
         * a failing case, or after bisect): its line and reason */
        view_divergence dv;
        if (view_divergence_answer(t->s, &dv) && dv.pass == t->src.pass && *dv.why)
            snprintf(title, sizeof title, "Source: %s.py \xe2\x80\x94 !%d %s", p.stem, dv.line,
                     strncmp(dv.why, "reason: ", 8) == 0 ? dv.why + 8 : dv.why);
        else
            snprintf(title, sizeof title, "Source: %s.py \xe2\x80\x94 not running", p.stem);
    }
    canvas_title(&t->cv, r, title, focused);
    crect body = {r.y + 1, r.x, r.h - 1, r.w};
    canvas_fill(&t->cv, body, ' ', ST_NORMAL);
    if (!have_pass) {
        canvas_message(&t->cv, body, "no case open \xe2\x80\x94 type open PATH");
        return;
    }
    if (!t->src.file.text) {
        canvas_message(&t->cv, body, "the pass file cannot be read");
        return;
    }
    int n = t->src.file.nlines;
    tui_scroll_show(&t->src.sc, n, body.h);
    int dw = digits(n);
    int bpass, bline = 0;
    unsigned serial;
    if (!view_bisect_statement(t->s, &bpass, &bline, &serial) || bpass != t->src.pass)
        bline = 0;
    int eline = view_pass_error_line(t->s, t->src.pass); /* a file that does not check */
    for (int y = 0; y < body.h; y++) {
        int i = t->src.sc.top + y;
        if (i >= n)
            break;
        int line = i + 1;
        int bp = view_breakpoint_at(t->s, t->src.pass, line);
        int stop = line == t->src.stop_line && running;
        canvas_put(&t->cv, body, y, 0, bp == 1 ? 'B' : bp == 2 ? 'b' : ' ', bp == 1 ? ST_BREAK : ST_BREAK_OFF);
        if (stop)
            canvas_put(&t->cv, body, y, 1, '>', ST_STOP);
        else
            canvas_put(&t->cv, body, y, 1, line == eline ? 'E' : line == bline ? '!' : ' ', ST_BAD);
        canvas_printf(&t->cv, body, y, 2, ST_LINENO, "%*d ", dw, line);
        size_t len;
        const char *s = tui_lines_get(&t->src.file, i, &len);
        int x0 = 3 + dw;
        crect text = {body.y + y, body.x + x0, 1, body.w - x0};
        /* Horizontal scroll: the line starts t->src.left columns to the
         * left of the pane, so tabs keep the file's stops. */
        canvas_putn(&t->cv, text, 0, -t->src.left, s, len, ST_NORMAL);
        if (t->src.search[0] && t->src.search_active) {
            size_t m = strlen(t->src.search);
            for (const char *q = s; (q = find_in(q, len - (size_t)(q - s), t->src.search)); q += m)
                canvas_putn(&t->cv, text, 0, canvas_width(s, (size_t)(q - s)) - t->src.left, q, m, ST_MATCH);
        }
        if (stop)
            canvas_style_row(&t->cv, text, 0, ST_STOP);
        if (i == t->src.sc.cursor && focused)
            canvas_style_row(&t->cv, text, 0, ST_CURSOR);
    }
}

/* Moves the cursor to the next (dir 1) or previous (-1) line matching. */
static void search(tui *t, int dir)
{
    int n = t->src.file.nlines;
    if (!t->src.search[0] || n == 0)
        return;
    t->src.search_active = 1;
    for (int k = 1; k <= n; k++) {
        int i = ((t->src.sc.cursor + dir * k) % n + n) % n;
        size_t len;
        const char *s = tui_lines_get(&t->src.file, i, &len);
        if (find_in(s, len, t->src.search)) {
            t->src.sc.cursor = i;
            tui_scroll_show(&t->src.sc, n, t->rect[PANE_SOURCE].h - 1);
            return;
        }
    }
    char msg[300];
    int m = snprintf(msg, sizeof msg, "Pattern not found: %s\n", t->src.search);
    tui_console_write(t, SESSION_ERR, msg, (size_t)m);
}

void pane_source_search(tui *t, const char *pattern)
{
    if (*pattern)
        snprintf(t->src.search, sizeof t->src.search, "%s", pattern);
    search(t, 1);
    t->dirty |= 1u << PANE_SOURCE;
}

/* "break FILE:LINE" and friends at the cursor line. */
static void at_cursor(tui *t, const char *verb)
{
    view_pass p;
    if (!view_pass_info(t->s, t->src.pass, &p))
        return;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s %s.py:%d", verb, p.stem, t->src.sc.cursor + 1);
    tui_execute(t, cmd);
}

static int source_key(tui *t, int action)
{
    int n = t->src.file.nlines;
    int h = t->rect[PANE_SOURCE].h - 1;
    switch (action) {
    case ACT_DOWN: tui_scroll_move(&t->src.sc, 1, n, h); break;
    case ACT_UP: tui_scroll_move(&t->src.sc, -1, n, h); break;
    case ACT_PGDN: tui_scroll_move(&t->src.sc, h, n, h); break;
    case ACT_PGUP: tui_scroll_move(&t->src.sc, -h, n, h); break;
    case ACT_TOP: tui_scroll_move(&t->src.sc, -n, n, h); break;
    case ACT_BOTTOM: tui_scroll_move(&t->src.sc, n, n, h); break;
    case ACT_RIGHT: t->src.left += 8; break;
    case ACT_LEFT: t->src.left = t->src.left > 8 ? t->src.left - 8 : 0; break;
    case ACT_SEARCH: tui_cmdline_start(t, 1, 0); return 1;
    case ACT_NEXT_OR_MATCH:
        if (t->src.search_active)
            search(t, 1);
        else
            tui_execute(t, "next");
        break;
    case ACT_PREV_MATCH:
        if (!t->src.search_active)
            return 0;
        search(t, -1);
        break;
    case ACT_SEARCH_END: t->src.search_active = 0; break;
    case ACT_UNTIL: at_cursor(t, "until"); break;
    case ACT_BREAK: {
        int on = view_breakpoint_at(t->s, t->src.pass, t->src.sc.cursor + 1);
        at_cursor(t, on ? "clear" : "break");
        break;
    }
    default: return 0;
    }
    t->dirty |= 1u << PANE_SOURCE;
    return 1;
}

static void source_click(tui *t, int y)
{
    t->src.sc.cursor = t->src.sc.top + y;
}

const tui_pane_ops pane_source_ops = {
    .draw = source_draw,
    .key = source_key,
    .click = source_click,
    .help = "B: breakpoint (b off), >: stopped at, !: bisect's statement, E: error",
};

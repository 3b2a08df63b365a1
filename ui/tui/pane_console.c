/* The console: the engine's output (session_set_output) with scrollback,
 * and at its bottom the command line readline edits (callbacks.c). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "tui.h"

enum { CONSOLE_MAX_LINES = 5000, CONSOLE_DROP = 500 };

/* Lines are stored with a first byte 'o' (output) or 'e' (error). */
static void push_line(tui_console *c, session_stream stream, const char *text, size_t len)
{
    if (c->nlines == CONSOLE_MAX_LINES) {
        /* Forget the oldest lines a block at a time: a command printing a
         * million lines costs one move per block, not one per line. */
        for (int i = 0; i < CONSOLE_DROP; i++)
            free(c->text[i]);
        memmove(c->text, c->text + CONSOLE_DROP, (size_t)(c->nlines - CONSOLE_DROP) * sizeof *c->text);
        c->nlines -= CONSOLE_DROP;
    }
    if (c->nlines == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 64;
        c->text = xreallocarray(c->text, (size_t)c->cap, sizeof *c->text);
    }
    /* Tabs become spaces here, so that wrapping cuts where they show. */
    size_t n;
    char *expanded = canvas_expand_tabs(text, len, &n);
    char *l = xmalloc(n + 2);
    l[0] = stream == SESSION_ERR ? 'e' : 'o';
    memcpy(l + 1, expanded, n + 1);
    free(expanded);
    c->text[c->nlines++] = l;
    if (c->scroll)
        c->scroll++; /* keep the lines being read in place */
}

void tui_console_write(tui *t, session_stream stream, const char *text, size_t len)
{
    tui_console *c = &t->con;
    while (len) {
        const char *nl = memchr(text, '\n', len);
        size_t n = nl ? (size_t)(nl - text) : len;
        if (!nl) {
            c->partial = xrealloc(c->partial, c->partial_len + n + 1);
            memcpy(c->partial + c->partial_len, text, n);
            c->partial_len += n;
            c->partial[c->partial_len] = '\0';
            break;
        }
        if (c->partial_len) {
            c->partial = xrealloc(c->partial, c->partial_len + n + 1);
            memcpy(c->partial + c->partial_len, text, n);
            push_line(c, stream, c->partial, c->partial_len + n);
            c->partial_len = 0;
        } else {
            push_line(c, stream, text, n);
        }
        text += n + 1;
        len -= n + 1;
    }
    t->dirty |= 1u << PANE_CONSOLE;
}

static void console_draw(tui *t, crect r, int focused)
{
    tui_console *c = &t->con;
    /* The title names the layout and the focused pane (the status line is
     * the engine's). */
    char title[160];
    snprintf(title, sizeof title, "Console | layout %s%s | focus %s | %s", tui_layout_name(t->layout),
             t->zoom ? ", zoomed" : "", tui_pane_name(t->focus),
             c->active ? "Esc: back to the panes" : ": command, Tab: next pane");
    canvas_title(&t->cv, r, title, focused);
    crect body = {r.y + 1, r.x, r.h - 1, r.w};
    canvas_fill(&t->cv, body, ' ', ST_NORMAL);
    int rows = body.h - 1; /* the last row is the command line */
    int total = c->nlines + (c->partial_len ? 1 : 0);
    if (c->scroll > total - 1)
        c->scroll = total > 0 ? total - 1 : 0;
    /* From the bottom up, long lines wrapped (an error message is worth
     * reading whole). */
    int y = rows;
    for (int i = total - 1 - c->scroll; i >= 0 && y > 0; i--) {
        const char *text = i == c->nlines ? c->partial : c->text[i] + 1;
        size_t len = i == c->nlines ? c->partial_len : strlen(text);
        canvas_style st = i < c->nlines && c->text[i][0] == 'e' ? ST_BAD : ST_NORMAL;
        /* Split into pieces that fit the width, then draw the last first. */
        size_t cut[64];
        int parts = 0;
        size_t at = 0;
        do {
            cut[parts++] = at;
            at += body.w > 0 ? canvas_fit(text + at, len - at, body.w) : len;
        } while (at < len && parts < 64);
        for (int k = parts - 1; k >= 0 && y > 0; k--) {
            size_t to = k + 1 < parts ? cut[k + 1] : len;
            canvas_putn(&t->cv, body, --y, 0, text + cut[k], to - cut[k], st);
        }
    }
    if (c->scroll)
        canvas_printf(&t->cv, body, 0, body.w - 14, ST_DIM, "[%5d more v]", c->scroll);
    /* The command line, scrolled so the cursor shows. */
    const char *prompt = c->prompt ? c->prompt : "(ptodb) ";
    const char *line = c->line ? c->line : "";
    int plen = (int)strlen(prompt);
    int shift = 0;
    if (plen + c->point >= body.w - 1)
        shift = plen + c->point - (body.w - 2);
    crect cl = {body.y + rows, body.x, 1, body.w};
    int x = canvas_puts(&t->cv, cl, 0, -shift, prompt, c->active ? ST_NORMAL : ST_DIM);
    canvas_puts(&t->cv, cl, 0, x, line, ST_NORMAL);
    /* The terminal cursor: at readline's point while the line is edited.
     * Counted in characters, not bytes, for UTF-8 input. */
    int col = -shift + plen;
    for (int i = 0; i < c->point && line[i]; i++)
        if (((unsigned char)line[i] & 0xc0) != 0x80)
            col++;
    t->cursor_y = c->active ? cl.y : -1;
    t->cursor_x = cl.x + col;
}

static int console_key(tui *t, int action)
{
    tui_console *c = &t->con;
    int h = t->rect[PANE_CONSOLE].h - 2;
    switch (action) {
    case ACT_PGUP: c->scroll += h > 1 ? h - 1 : 1; break;
    case ACT_PGDN: c->scroll -= h > 1 ? h - 1 : 1; break;
    default: return 0;
    }
    if (c->scroll < 0)
        c->scroll = 0;
    t->dirty |= 1u << PANE_CONSOLE;
    return 1;
}

void pane_console_free(tui_console *c)
{
    for (int i = 0; i < c->nlines; i++)
        free(c->text[i]);
    free(c->text);
    free(c->partial);
    free(c->prompt);
    free(c->line);
    memset(c, 0, sizeof *c);
}

const tui_pane_ops pane_console_ops = {
    .draw = console_draw,
    .key = console_key,
    .click = NULL,
    .help = "Enter runs the line; Up Down: history; Tab completes;\n"
            "Ctrl-R searches the history; Ctrl-C clears the line;\n"
            "Esc: back to the panes. TUI commands: layout [NAME],\n"
            "zoom, focus PANE",
};

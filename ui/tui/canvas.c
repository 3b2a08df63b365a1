/* The character-cell canvas (canvas.h). */
#include "config.h"

#include "canvas.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "base/mem.h"
#include "base/strbuf.h"

static int char_width(uint32_t cp);

void canvas_init(canvas *c, int rows, int cols)
{
    c->rows = c->cols = 0;
    c->cells = NULL;
    canvas_resize(c, rows, cols);
}

void canvas_resize(canvas *c, int rows, int cols)
{
    if (rows < 1)
        rows = 1;
    if (cols < 1)
        cols = 1;
    free(c->cells);
    c->rows = rows;
    c->cols = cols;
    c->cells = xcalloc((size_t)rows * (size_t)cols, sizeof *c->cells);
    canvas_fill(c, (crect){0, 0, rows, cols}, ' ', ST_NORMAL);
}

void canvas_free(canvas *c)
{
    free(c->cells);
    c->cells = NULL;
    c->rows = c->cols = 0;
}

static canvas_cell *cell_at(canvas *c, crect r, int y, int x)
{
    if (y < 0 || x < 0 || y >= r.h || x >= r.w)
        return NULL;
    int ay = r.y + y, ax = r.x + x;
    if (ay < 0 || ax < 0 || ay >= c->rows || ax >= c->cols)
        return NULL;
    return &c->cells[(size_t)ay * (size_t)c->cols + (size_t)ax];
}

void canvas_fill(canvas *c, crect r, uint32_t ch, canvas_style st)
{
    for (int y = 0; y < r.h; y++)
        for (int x = 0; x < r.w; x++)
            canvas_put(c, r, y, x, ch, st);
}

void canvas_put(canvas *c, crect r, int y, int x, uint32_t ch, canvas_style st)
{
    canvas_cell *cell = cell_at(c, r, y, x);
    if (cell) {
        cell->ch = ch;
        cell->style = (uint8_t)st;
    }
}

int canvas_utf8_decode(const char *s, size_t len, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    int need;
    uint32_t v;
    if (u[0] < 0x80) {
        *cp = u[0];
        return 1;
    } else if ((u[0] & 0xe0) == 0xc0) {
        need = 1, v = u[0] & 0x1f;
    } else if ((u[0] & 0xf0) == 0xe0) {
        need = 2, v = u[0] & 0x0f;
    } else if ((u[0] & 0xf8) == 0xf0) {
        need = 3, v = u[0] & 0x07;
    } else {
        *cp = 0xfffd;
        return 1;
    }
    if ((size_t)need >= len) {
        *cp = 0xfffd;
        return 1;
    }
    for (int i = 1; i <= need; i++) {
        if ((u[i] & 0xc0) != 0x80) {
            *cp = 0xfffd;
            return 1;
        }
        v = (v << 6) | (u[i] & 0x3f);
    }
    *cp = v;
    return need + 1;
}

int canvas_utf8(uint32_t cp, char *buf)
{
    if (cp < 0x80) {
        buf[0] = (char)cp;
        return 1;
    } else if (cp < 0x800) {
        buf[0] = (char)(0xc0 | (cp >> 6));
        buf[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    } else if (cp < 0x10000) {
        buf[0] = (char)(0xe0 | (cp >> 12));
        buf[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        buf[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    buf[0] = (char)(0xf0 | (cp >> 18));
    buf[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    buf[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    buf[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

int canvas_putn(canvas *c, crect r, int y, int x, const char *text, size_t len, canvas_style st)
{
    size_t i = 0;
    int x0 = x; /* tab stops count from where the text starts */
    while (i < len && text[i]) {
        uint32_t cp;
        i += (size_t)canvas_utf8_decode(text + i, len - i, &cp);
        if (cp == '\t') {
            do
                canvas_put(c, r, y, x++, ' ', st);
            while ((x - x0) % CANVAS_TAB);
            continue;
        }
        if (cp == '\r')
            continue;
        if (cp < 0x20 || cp == 0x7f)
            cp = '?';
        int w = char_width(cp);
        if (w == 0)
            continue;
        if (w == 2) {
            if (x + 1 >= r.w) {
                canvas_put(c, r, y, x++, ' ', st);
                continue;
            }
            canvas_put(c, r, y, x++, cp, st);
            canvas_put(c, r, y, x++, CANVAS_WIDE_RIGHT, st);
            continue;
        }
        canvas_put(c, r, y, x++, cp, st);
    }
    return x;
}

int canvas_puts(canvas *c, crect r, int y, int x, const char *text, canvas_style st)
{
    return canvas_putn(c, r, y, x, text, strlen(text), st);
}

int canvas_printf(canvas *c, crect r, int y, int x, canvas_style st, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return canvas_puts(c, r, y, x, buf, st);
}

void canvas_style_row(canvas *c, crect r, int y, canvas_style st)
{
    for (int x = 0; x < r.w; x++) {
        canvas_cell *cell = cell_at(c, r, y, x);
        if (cell)
            cell->style = (uint8_t)st;
    }
}

void canvas_title(canvas *c, crect r, const char *text, int focused)
{
    canvas_style st = focused ? ST_TITLE_FOCUS : ST_TITLE;
    crect row = {r.y, r.x, 1, r.w};
    canvas_fill(c, row, ' ', st);
    canvas_puts(c, row, 0, 1, text, st);
}

void canvas_message(canvas *c, crect r, const char *text)
{
    /* Several lines, each indented by two columns, from the top: a message
     * in the middle of a tall pane is easy to miss after a resize. */
    int y = r.h > 2 ? 1 : 0;
    const char *p = text;
    while (*p && y < r.h) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        /* Lines wider than the pane wrap at a space: nothing is cut. */
        size_t at = 0;
        do {
            size_t take = r.w > 3 ? canvas_fit(p + at, n - at, r.w - 2) : n - at;
            if (at + take < n) {
                size_t sp = take;
                while (sp > 0 && p[at + sp - 1] != ' ')
                    sp--;
                if (sp > 0)
                    take = sp;
            }
            canvas_putn(c, r, y++, 2, p + at, take, ST_DIM);
            at += take;
        } while (at < n && y < r.h);
        p += n + (nl ? 1 : 0);
    }
}

static int char_width(uint32_t cp)
{
    if (cp < 0x80)
        return 1;
    int w = wcwidth((wchar_t)cp);
    return w == 2 ? 2 : w == 0 ? 0 : 1;
}

int canvas_width(const char *s, size_t len)
{
    size_t i = 0;
    int used = 0;
    while (i < len && s[i]) {
        uint32_t cp;
        i += (size_t)canvas_utf8_decode(s + i, len - i, &cp);
        used += cp == '\t' ? CANVAS_TAB - used % CANVAS_TAB : char_width(cp);
    }
    return used;
}

char *canvas_expand_tabs(const char *s, size_t len, size_t *out_len)
{
    size_t tabs = 0;
    for (size_t i = 0; i < len; i++)
        tabs += s[i] == '\t';
    char *out = xmalloc(len + tabs * CANVAS_TAB + 1);
    size_t o = 0, i = 0;
    int col = 0;
    while (i < len) {
        if (s[i] == '\t') {
            do
                out[o++] = ' ';
            while (++col % CANVAS_TAB);
            i++;
            continue;
        }
        uint32_t cp;
        int n = canvas_utf8_decode(s + i, len - i, &cp);
        memcpy(out + o, s + i, (size_t)n);
        o += (size_t)n;
        i += (size_t)n;
        col += char_width(cp);
    }
    out[o] = '\0';
    if (out_len)
        *out_len = o;
    return out;
}

size_t canvas_fit(const char *s, size_t len, int cols)
{
    size_t i = 0;
    int used = 0;
    while (i < len) {
        uint32_t cp;
        int n = canvas_utf8_decode(s + i, len - i, &cp);
        int w = cp == '\t' ? CANVAS_TAB - used % CANVAS_TAB : char_width(cp);
        if (used + w > cols && i > 0)
            break;
        used += w;
        i += (size_t)n;
    }
    return i;
}

int canvas_is_wide(const canvas *c, int y, int x)
{
    if (y < 0 || y >= c->rows || x < 0 || x + 1 >= c->cols)
        return 0;
    const canvas_cell *cell = &c->cells[(size_t)y * (size_t)c->cols + (size_t)x];
    return cell->ch != CANVAS_WIDE_RIGHT && cell[1].ch == CANVAS_WIDE_RIGHT;
}

/* One letter per style for the style dump of tests. */
static const char style_letters[ST_COUNT + 1] = ".tTcsBblDmgxC+-hSU01234O";

char *canvas_to_text(const canvas *c, crect r, int styles)
{
    strbuf sb = STRBUF_INIT;
    for (int y = 0; y < r.h; y++) {
        size_t keep = sb.len;
        for (int x = 0; x < r.w; x++) {
            canvas_cell *cell = cell_at((canvas *)c, r, y, x);
            if (!cell)
                break;
            if (styles) {
                char l = cell->style < ST_COUNT ? style_letters[cell->style] : '?';
                strbuf_putc(&sb, l);
                if (l != '.')
                    keep = sb.len;
            } else {
                char buf[4];
                if (cell->ch == CANVAS_WIDE_RIGHT) {
                    /* Nothing for the right half of a wide character; a
                     * space for one whose left half was overwritten. */
                    if (!canvas_is_wide(c, r.y + y, r.x + x - 1))
                        strbuf_putc(&sb, ' ');
                    continue;
                }
                int n = canvas_utf8(cell->ch, buf);
                strbuf_append(&sb, buf, (size_t)n);
                if (cell->ch != ' ')
                    keep = sb.len;
            }
        }
        sb.len = keep; /* trailing blanks removed */
        strbuf_putc(&sb, '\n');
    }
    return strbuf_detach(&sb);
}

/* Small helpers shared by the panes: line indexes over a text, scrolling. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "tui.h"

void tui_lines_set(tui_lines *l, const char *text)
{
    free(l->start);
    l->text = text;
    l->start = NULL;
    l->nlines = 0;
    if (!text)
        return;
    size_t cap = 64, n = 0;
    l->start = xreallocarray(NULL, cap, sizeof *l->start);
    const char *p = text;
    while (*p) {
        if (n + 2 > cap) {
            cap *= 2;
            l->start = xreallocarray(l->start, cap, sizeof *l->start);
        }
        l->start[n++] = (size_t)(p - text);
        const char *nl = strchr(p, '\n');
        p = nl ? nl + 1 : p + strlen(p);
    }
    l->start[n] = (size_t)(p - text);
    l->nlines = (int)n;
}

void tui_lines_free(tui_lines *l)
{
    free(l->start);
    l->start = NULL;
    l->text = NULL;
    l->nlines = 0;
}

const char *tui_lines_get(const tui_lines *l, int i, size_t *len)
{
    if (i < 0 || i >= l->nlines) {
        *len = 0;
        return "";
    }
    const char *s = l->text + l->start[i];
    size_t n = l->start[i + 1] - l->start[i];
    if (n > 0 && s[n - 1] == '\n')
        n--;
    *len = n;
    return s;
}

void tui_scroll_show(tui_scroll *sc, int n, int height)
{
    if (height < 1)
        height = 1;
    if (sc->cursor >= n)
        sc->cursor = n - 1;
    if (sc->cursor < 0)
        sc->cursor = 0;
    if (sc->cursor < sc->top)
        sc->top = sc->cursor;
    if (sc->cursor >= sc->top + height)
        sc->top = sc->cursor - height + 1;
    if (sc->top > n - height)
        sc->top = n - height;
    if (sc->top < 0)
        sc->top = 0;
}

void tui_scroll_move(tui_scroll *sc, int delta, int n, int height)
{
    sc->cursor += delta;
    tui_scroll_show(sc, n, height);
}

/* The chain pane: the text of `why` on a heat-map cell (Enter there, see
 * pane_heatmap.c), in the heat map's place until q or Esc closes it. The
 * engine writes the chain (src/batch/why.h); this file only scrolls it and
 * marks the first differing hop. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tui.h"

static int has_text(const char *p, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++)
        if (memcmp(p + i, word, w) == 0)
            return 1;
    return 0;
}

static void chain_draw(tui *t, crect r, int focused)
{
    canvas_title(&t->cv, r, "Dataflow chain (why; q: back to the heat maps)", focused);
    crect body = {r.y + 1, r.x, r.h - 1, r.w};
    canvas_fill(&t->cv, body, ' ', ST_NORMAL);
    const char *text = t->chain.text ? t->chain.text : "";
    int lines = 0;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    if (t->chain.top > lines - 1)
        t->chain.top = lines > 0 ? lines - 1 : 0;
    int y = -t->chain.top;
    for (const char *p = text; *p && y < body.h; y++) {
        size_t n = strcspn(p, "\n");
        if (y >= 0) {
            /* the hop where the passes part, and the line naming it */
            int first = (n >= 2 && p[0] == '=' && p[1] == '>') || has_text(p, n, "FIRST DIFFERING") ||
                        has_text(p, n, "first differing hop") || has_text(p, n, "where the passes part");
            canvas_style st = first ? ST_BAD : p[0] == '(' ? ST_DIM : ST_NORMAL;
            canvas_printf(&t->cv, body, y, 0, st, "%.*s", (int)n, p);
        }
        p += n + (p[n] == '\n');
    }
}

static int chain_key(tui *t, int action)
{
    int h = t->rect[PANE_CHAIN].h - 1;
    switch (action) {
    case ACT_DOWN: t->chain.top++; break;
    case ACT_UP: t->chain.top--; break;
    case ACT_PGDN: t->chain.top += h; break;
    case ACT_PGUP: t->chain.top -= h; break;
    case ACT_TOP: t->chain.top = 0; break;
    case ACT_BOTTOM: t->chain.top = 1 << 20; break; /* clamped when drawn */
    case ACT_SEARCH_END: /* q, Esc: the heat maps again */
        t->chain.shown = 0;
        t->zoom = 0;
        t->focus = PANE_HEATMAP;
        tui_layout_apply(t);
        t->dirty = TUI_DIRTY_ALL;
        return 1;
    default: return 0;
    }
    if (t->chain.top < 0)
        t->chain.top = 0;
    t->dirty |= 1u << PANE_CHAIN;
    return 1;
}

const tui_pane_ops pane_chain_ops = {
    .draw = chain_draw,
    .key = chain_key,
    .click = NULL,
    .help = "why on the heat-map cell: the dataflow chain back from\n"
            "its element, one hop per statement that wrote it, aligned\n"
            "with the last passing pass; the hop where they part is\n"
            "marked. q or Esc: back to the heat maps",
};

/* The memory pane: the stopped core's on-chip memory (`info memory`, from
 * view_memory_map): each space's tiles with MemRef ids, byte ranges and
 * whether they still hold their data, slot buffers, free ranges and the
 * high-water mark. Lines whose tile was overwritten are marked. */
#include "config.h"

#include <string.h>

#include "base/strbuf.h"
#include "tui.h"

/* 1 when the n bytes at p hold word. */
static int has_word(const char *p, size_t n, const char *word)
{
    size_t w = strlen(word);
    for (size_t i = 0; i + w <= n; i++)
        if (memcmp(p + i, word, w) == 0)
            return 1;
    return 0;
}

void render_memory(canvas *c, crect r, const char *text, int top)
{
    canvas_fill(c, r, ' ', ST_NORMAL);
    int y = -top;
    for (const char *p = text; *p && y < r.h; y++) {
        size_t n = strcspn(p, "\n");
        if (y >= 0) {
            /* a tile another write changed, or a fault: the point of the pane */
            int bad = has_word(p, n, "overwritten") || has_word(p, n, "fault");
            /* the space headers ("Vec (AIV0): 184 KiB, ...") */
            canvas_style st = bad ? ST_BAD : (p[0] != ' ' ? ST_TITLE : ST_NORMAL);
            canvas_printf(c, r, y, 0, st, "%.*s", (int)n, p);
        }
        p += n + (p[n] == '\n');
    }
}

static void memory_draw(tui *t, crect r, int focused)
{
    canvas_title(&t->cv, r, "Memory", focused);
    strbuf sb = STRBUF_INIT;
    int live = view_memory_map(t->s, &sb);
    crect body = {r.y + 1, r.x, r.h - 1, r.w};
    if (!live) {
        canvas_fill(&t->cv, body, ' ', ST_NORMAL);
        canvas_message(&t->cv, body, strbuf_str(&sb));
    } else {
        int lines = 0;
        for (const char *p = strbuf_str(&sb); *p; p++)
            lines += *p == '\n';
        if (t->mem.top > lines - 1)
            t->mem.top = lines > 0 ? lines - 1 : 0;
        render_memory(&t->cv, body, strbuf_str(&sb), t->mem.top);
    }
    strbuf_free(&sb);
}

static int memory_key(tui *t, int action)
{
    int h = t->rect[PANE_MEMORY].h - 1;
    switch (action) {
    case ACT_DOWN: t->mem.top++; break;
    case ACT_UP: t->mem.top--; break;
    case ACT_PGDN: t->mem.top += h; break;
    case ACT_PGUP: t->mem.top -= h; break;
    case ACT_TOP: t->mem.top = 0; break;
    case ACT_BOTTOM: t->mem.top = 1 << 20; break; /* clamped when drawn */
    default: return 0;
    }
    if (t->mem.top < 0)
        t->mem.top = 0;
    t->dirty |= 1u << PANE_MEMORY;
    return 1;
}

const tui_pane_ops pane_memory_ops = {
    .draw = memory_draw,
    .key = memory_key,
    .click = NULL,
    .help = "the stopped core's on-chip memory (info memory): tiles by MemRef id and bytes,\n"
            "free ranges, high-water mark; core aic|aiv0|aiv1 switches; catch memory stops at a fault",
};

/* Layouts: which panes share the screen and where. Each layout is a primary
 * pane and one or two secondary ones; side by side on wide terminals,
 * stacked on narrow ones (80 columns). The console and the status line
 * always take the bottom rows. */
#include "config.h"

#include <string.h>

#include "tui.h"

typedef struct layout_def {
    const char *name;
    tui_pane_id primary, second, third; /* third == PANE_COUNT: none */
    int primary_share; /* percent of the width (side by side) or height */
    const char *help;
} layout_def;

static const layout_def layouts[LAYOUT_COUNT] = {
    [LAYOUT_SRC] = {"src", PANE_SOURCE, PANE_HEATMAP, PANE_COUNT, 55,
                    "source and heatmaps (and passes on 160x48 or more)"},
    [LAYOUT_QUEUES] = {"queues", PANE_SOURCE, PANE_CORES, PANE_WATCH, 55, "source, cores and queues, watch"},
    [LAYOUT_DIFF] = {"diff", PANE_PASSES, PANE_IRDIFF, PANE_HEATMAP, 40, "passes, IR diff and heatmaps"},
    [LAYOUT_PASSES] = {"passes", PANE_PASSES, PANE_SOURCE, PANE_COUNT, 40, "passes and source"},
    [LAYOUT_TIMELINE] = {"timeline", PANE_TIMELINE, PANE_SOURCE, PANE_CORES, 30,
                         "cross-core timeline over source, cores and queues"},
    [LAYOUT_MEMORY] = {"memory", PANE_SOURCE, PANE_MEMORY, PANE_CORES, 50,
                       "source, the stopped core's on-chip memory map, cores and queues"},
    [LAYOUT_COMPARE] = {"compare", PANE_COMPARE, PANE_COMPARE_SRC, PANE_COUNT, 40,
                        "two builds side by side (compare B): passes aligned by name over both files"},
};

const char *tui_layout_name(int layout)
{
    return layout >= 0 && layout < LAYOUT_COUNT ? layouts[layout].name : NULL;
}

const char *tui_layout_help(int layout)
{
    return layout >= 0 && layout < LAYOUT_COUNT ? layouts[layout].help : NULL;
}

int tui_layout_find(const char *name)
{
    for (int i = 0; i < LAYOUT_COUNT; i++)
        if (!strcmp(layouts[i].name, name))
            return i;
    return -1;
}

/* Wide enough to put the primary pane beside the others. */
enum { SIDE_BY_SIDE_MIN_COLS = 120 };
/* Big enough for the default layout to show the passes too: the answer
 * (which pass fails, and its heat maps) on the first screen. */
enum { FULL_MIN_COLS = 160, FULL_MIN_ROWS = 48 };
static const layout_def src_full = {"src", PANE_SOURCE, PANE_PASSES, PANE_HEATMAP, 50, "source and heatmaps"};

void tui_layout_apply(tui *t)
{
    int R = t->rows, C = t->cols;
    memset(t->visible, 0, sizeof t->visible);
    memset(t->member, 0, sizeof t->member);
    memset(t->rect, 0, sizeof t->rect);
    int conh = R / 4;
    if (conh < 4)
        conh = 4;
    if (conh > 12)
        conh = 12;
    int mainh = R - 1 - conh;
    if (mainh < 2) {
        /* A tiny terminal: the console only. */
        conh = R - 1;
        mainh = 0;
    }
    const layout_def *l = &layouts[t->layout];
    if (t->layout == LAYOUT_SRC && R >= FULL_MIN_ROWS && C >= FULL_MIN_COLS)
        l = &src_full;
    /* the chain pane (Enter on a heat-map cell) takes the heat map's place */
    layout_def swapped;
    if (t->chain.shown && (l->primary == PANE_HEATMAP || l->second == PANE_HEATMAP || l->third == PANE_HEATMAP)) {
        swapped = *l;
        if (swapped.primary == PANE_HEATMAP)
            swapped.primary = PANE_CHAIN;
        if (swapped.second == PANE_HEATMAP)
            swapped.second = PANE_CHAIN;
        if (swapped.third == PANE_HEATMAP)
            swapped.third = PANE_CHAIN;
        l = &swapped;
    } else if (t->chain.shown) {
        t->chain.shown = 0; /* a layout without heat maps: the chain goes with them */
    }
    t->member[PANE_CONSOLE] = t->member[l->primary] = t->member[l->second] = 1;
    if (l->third != PANE_COUNT)
        t->member[l->third] = 1;
    if (!t->member[t->focus])
        t->focus = l->primary;
    t->visible[PANE_CONSOLE] = 1;
    if (t->zoom && t->focus == PANE_CONSOLE) {
        t->rect[PANE_CONSOLE] = (crect){0, 0, R - 1, C};
        return;
    }
    t->rect[PANE_CONSOLE] = (crect){mainh, 0, conh, C};
    if (mainh == 0)
        return;
    if (t->zoom) {
        t->visible[t->focus] = 1;
        t->rect[t->focus] = (crect){0, 0, mainh, C};
        return;
    }
    tui_pane_id p = l->primary, a = l->second, b = l->third;
    t->visible[p] = t->visible[a] = 1;
    if (b != PANE_COUNT)
        t->visible[b] = 1;
    if (p == PANE_COMPARE) {
        /* Both panes want the width (two columns each): stacked. */
        int ph = mainh * l->primary_share / 100;
        if (ph < 4)
            ph = mainh / 2;
        t->rect[p] = (crect){0, 0, ph, C};
        t->rect[a] = (crect){ph, 0, mainh - ph, C};
    } else if (p == PANE_TIMELINE) {
        /* The timeline wants the whole width: on top, a row per core and
         * (room for four) a row per queue under them. */
        int th = mainh / 2 < 11 ? mainh / 2 : 11;
        t->rect[p] = (crect){0, 0, th, C};
        int aw = C / 2;
        t->rect[a] = (crect){th, 0, mainh - th, aw};
        t->rect[b] = (crect){th, aw + 1, mainh - th, C - aw - 1};
    } else if (C >= SIDE_BY_SIDE_MIN_COLS) {
        /* Primary | separator | secondaries stacked. */
        int pw = C * l->primary_share / 100;
        t->rect[p] = (crect){0, 0, mainh, pw};
        int x = pw + 1, w = C - pw - 1;
        if (b == PANE_COUNT) {
            t->rect[a] = (crect){0, x, mainh, w};
        } else {
            int ah = l == &src_full || (l == &swapped && t->layout == LAYOUT_SRC && R >= FULL_MIN_ROWS && C >= FULL_MIN_COLS)
                         ? mainh * 2 / 5
                         : mainh / 2;
            t->rect[a] = (crect){0, x, ah, w};
            t->rect[b] = (crect){ah, x, mainh - ah, w};
        }
    } else {
        /* Primary on top, the secondaries below, side by side. */
        int ph = mainh * l->primary_share / 100;
        if (l->primary_share < 50)
            ph = mainh * (100 - l->primary_share) / 100; /* a short list still wants rows */
        t->rect[p] = (crect){0, 0, ph, C};
        int y = ph, h = mainh - ph;
        if (b == PANE_COUNT) {
            t->rect[a] = (crect){y, 0, h, C};
        } else {
            int aw = C / 2;
            t->rect[a] = (crect){y, 0, h, aw};
            t->rect[b] = (crect){y, aw + 1, h, C - aw - 1};
        }
    }
}

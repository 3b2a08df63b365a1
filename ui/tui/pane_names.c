/* The panes' names, as `focus NAME` and the status line say them: a table
 * of its own, so that what needs a name (the commands, the status line)
 * does not need the panes' code. */
#include "config.h"

#include "tui.h"

const char *tui_pane_name(tui_pane_id id)
{
    static const char *const names[PANE_COUNT] = {
        [PANE_SOURCE] = "source",   [PANE_PASSES] = "passes",   [PANE_HEATMAP] = "heatmaps",
        [PANE_CORES] = "cores",     [PANE_WATCH] = "watch",     [PANE_IRDIFF] = "irdiff",
        [PANE_TIMELINE] = "timeline", [PANE_MEMORY] = "memory", [PANE_COMPARE] = "compare",
        [PANE_COMPARE_SRC] = "compare-source", [PANE_CHAIN] = "chain", [PANE_CONSOLE] = "console",
    };
    return id < PANE_COUNT && names[id] ? names[id] : "?";
}

/* The TUI's keys and panes: keys map to actions through one table
 * (keys.def), which also writes the `?` help; the panes by id. Commands
 * are command.c's. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

/* The key table (keys.def). */
typedef struct tui_binding {
    unsigned panes;
    int key;
    const char *name;
    tui_action action;
    const char *help;
} tui_binding;

static const tui_binding bindings[] = {
#define KEY(panes, key, name, action, help) {panes, key, name, action, help},
#include "keys.def"
#undef KEY
};
enum { NBINDINGS = sizeof bindings / sizeof bindings[0] };

/* The panes, by id: each an ops table with its own state in struct tui. */
static const tui_pane_ops *const pane_table[PANE_COUNT] = {
    [PANE_SOURCE] = &pane_source_ops,     [PANE_PASSES] = &pane_passes_ops, [PANE_HEATMAP] = &pane_heatmap_ops,
    [PANE_CORES] = &pane_cores_ops,       [PANE_WATCH] = &pane_watch_ops,   [PANE_IRDIFF] = &pane_irdiff_ops,
    [PANE_TIMELINE] = &pane_timeline_ops, [PANE_CONSOLE] = &pane_console_ops, [PANE_MEMORY] = &pane_memory_ops,
    [PANE_COMPARE] = &pane_compare_ops,   [PANE_COMPARE_SRC] = &pane_compare_src_ops,
    [PANE_CHAIN] = &pane_chain_ops,
};

const tui_pane_ops *tui_pane(tui_pane_id id)
{
    return id < PANE_COUNT ? pane_table[id] : NULL;
}

/* Which bindings a help section lists: the focused pane's own (pane != 0)
 * or those whose panes are exactly `panes`. */
static int in_section(const tui_binding *b, unsigned pane, unsigned panes)
{
    if (pane)
        return (b->panes & pane) && b->panes != K_PANES && !(b->panes & K_GLOBAL);
    return b->panes == panes;
}

/* Appends a help section, one binding a line ("NAMES  what it does");
 * rows of one action that follow each other share an entry ("j Down  down").
 * draw.c lays the entries out in columns that fit the screen. */
static void help_section(char *buf, size_t size, unsigned pane, unsigned panes)
{
    size_t len = strlen(buf);
    for (int i = 0; i < NBINDINGS; i++) {
        const tui_binding *b = &bindings[i];
        if (!in_section(b, pane, panes) || !b->help[0])
            continue;
        char names[64];
        int n = snprintf(names, sizeof names, "%s", b->name);
        for (int j = i + 1; j < NBINDINGS && bindings[j].action == b->action && !bindings[j].help[0]; j++)
            if (in_section(&bindings[j], pane, panes))
                n += snprintf(names + n, sizeof names - (size_t)n, " %s", bindings[j].name);
        len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%c%-9s %s\n", TUI_HELP_KEY, names,
                                b->help);
    }
    len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "\n");
}

void tui_pane_help(tui_pane_id id, char *buf, size_t size)
{
    if (id >= PANE_COUNT)
        id = PANE_SOURCE;
    buf[0] = '\0';
    help_section(buf, size, 1u << id, 0);
    size_t len = strlen(buf);
    snprintf(buf + len, size - len, "%s\n\n", pane_table[id]->help);
    if (id != PANE_CONSOLE)
        help_section(buf, size, 0, K_PANES);
    help_section(buf, size, 0, K_GLOBAL);
    len = strlen(buf);
    snprintf(buf + len, size - len, "mouse     a click focuses a pane and moves to the line");
}

static void focus_step(tui *t, int dir)
{
    int i = t->focus;
    for (int k = 0; k < PANE_COUNT; k++) {
        i = (i + dir + PANE_COUNT) % PANE_COUNT;
        if (t->member[i]) {
            tui_focus(t, (tui_pane_id)i);
            return;
        }
    }
}

static int is_running(tui *t)
{
    view_location loc;
    return view_stop_location(t->s, &loc);
}

static void run_selected(tui *t)
{
    if (t->focus == PANE_PASSES && t->passes.sc.cursor != session_current_pass(t->s)) {
        view_pass p;
        if (view_pass_info(t->s, t->passes.sc.cursor, &p)) {
            char cmd[32];
            snprintf(cmd, sizeof cmd, "pass %d", p.index);
            tui_execute(t, cmd);
        }
    }
    int in_selected = view_run_pass(t->s) == session_current_pass(t->s);
    tui_execute(t, in_selected && (is_running(t) || view_run_finished(t->s)) ? "continue" : "run");
}

/* The console takes the focus (cgdb's model): it keeps it after a command,
 * so the next word typed is a command too, until Esc goes back. key: the
 * first key of the command, 0 none. */
static void console_from_pane(tui *t, int key)
{
    tui_pane_id from = t->focus;
    if (t->zoom || from == PANE_CONSOLE) {
        /* zoomed: keep the zoomed pane on screen, the command line under it */
        t->return_focus = from;
        tui_cmdline_start(t, 0, key);
        return;
    }
    tui_focus(t, PANE_CONSOLE);
    t->return_focus = from;
    if (key)
        tui_cmdline_key(t, key);
}

/* The actions the TUI does itself, wherever the focus is. */
static void do_action(tui *t, tui_action a)
{
    switch (a) {
    /* F5: continue when stopped in the selected pass, and after its end on
     * to the next passes; otherwise run the selected pass (the passes
     * pane's cursor row when that pane has the focus). */
    case ACT_RUN: run_selected(t); break;
    case ACT_FINISH: tui_execute(t, "finish"); break;
    case ACT_NEXT: tui_execute(t, "next"); break;
    case ACT_STEP: tui_execute(t, "step"); break;
    case ACT_CONTINUE: tui_execute(t, "continue"); break;
    case ACT_REVERSE_STEP: tui_execute(t, "reverse-step"); break;
    case ACT_REVERSE_NEXT: tui_execute(t, "reverse-next"); break;
    case ACT_REVERSE_FINISH: tui_execute(t, "reverse-finish"); break;
    case ACT_REVERSE_CONTINUE: tui_execute(t, "reverse-continue"); break;
    case ACT_REDRAW: t->dirty = TUI_DIRTY_ALL; break;
    case ACT_HELP: t->help = 1; t->dirty |= TUI_DIRTY_ALL; break;
    case ACT_FOCUS_NEXT: focus_step(t, 1); break;
    case ACT_FOCUS_PREV: focus_step(t, -1); break;
    case ACT_CMDLINE: console_from_pane(t, 0); break;
    case ACT_QUIT: tui_execute(t, "quit"); break;
    case ACT_ZOOM: t->zoom = !t->zoom; tui_relayout(t); break;
    case ACT_LAYOUT: {
        /* the compare layout is in the cycle once there is a compare to show */
        view_compare v;
        t->layout = (t->layout + 1) % LAYOUT_COUNT;
        if (t->layout == LAYOUT_COMPARE && !view_compare_get(t->s, &v))
            t->layout = (t->layout + 1) % LAYOUT_COUNT;
        t->zoom = 0;
        tui_relayout(t);
        break;
    }
    case ACT_PASS_PREV: tui_execute(t, "pass prev"); break;
    case ACT_PASS_NEXT: tui_execute(t, "pass next"); break;
    default: break;
    }
}

/* Tries the bindings of key that apply to `where`, in table order; 1 when
 * one acted. */
static int bound_key(tui *t, int key, unsigned where)
{
    for (int i = 0; i < NBINDINGS; i++) {
        const tui_binding *b = &bindings[i];
        if (b->key != key || !(b->panes & where))
            continue;
        if (b->action <= ACT_PASS_NEXT) {
            do_action(t, b->action);
            return 1;
        }
        if (pane_table[t->focus]->key(t, b->action))
            return 1;
    }
    return 0;
}

static void cmdline_key(tui *t, int key)
{
    if (key == 27) {
        tui_cmdline_cancel(t);
        if (t->focus == PANE_CONSOLE && t->return_focus != PANE_CONSOLE && t->member[t->return_focus])
            tui_focus(t, t->return_focus);
        else if (t->focus == PANE_CONSOLE)
            focus_step(t, 1);
        t->dirty |= 1u << PANE_CONSOLE;
        return;
    }
    if (key == TK_PGUP || key == TK_PGDN) {
        pane_console_ops.key(t, key == TK_PGUP ? ACT_PGUP : ACT_PGDN);
        return;
    }
    /* ':' starts a command from a pane; on the console's empty line it is
     * the same request, already granted (no command starts with ':'). */
    if (key == ':' && (!t->con.line || !t->con.line[0]) && !t->search_prompt)
        return;
    /* Tab on an empty line moves on; otherwise readline completes. */
    if (key == '\t' && t->focus == PANE_CONSOLE && (!t->con.line || !t->con.line[0]) && !t->search_prompt) {
        focus_step(t, 1);
        return;
    }
    tui_cmdline_key(t, key);
}

void tui_key(tui *t, int key)
{
    if (t->help) {
        t->help = 0;
        t->dirty = TUI_DIRTY_ALL;
        return;
    }
    if (bound_key(t, key, K_GLOBAL))
        return;
    if (t->con.active) {
        cmdline_key(t, key);
        return;
    }
    if (bound_key(t, key, 1u << t->focus))
        return;
    /* Typing a command from a pane starts the command line with that key. */
    if (key >= 0x20 && key < TK_BASE && key != 0x7f)
        console_from_pane(t, key);
}

void tui_wheel(tui *t, tui_pane_id id, int up)
{
    tui_focus(t, id);
    if (id == PANE_CONSOLE) {
        /* Up and Down are the history there: the wheel scrolls the output. */
        pane_console_ops.key(t, up ? ACT_PGUP : ACT_PGDN);
        return;
    }
    for (int k = 0; k < 3; k++)
        pane_table[id]->key(t, up ? ACT_UP : ACT_DOWN);
}

void pane_click(tui *t, tui_pane_id id, int y)
{
    tui_focus(t, id);
    if (y < 0 || id >= PANE_COUNT)
        return;
    if (pane_table[id]->click)
        pane_table[id]->click(t, y);
    t->dirty |= 1u << id;
}

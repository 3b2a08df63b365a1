/* The TUI's commands and keys: lines go to session_execute (the engine is
 * the one source of truth), apart from the TUI's own `layout`, `zoom` and
 * `focus`, which mean nothing to the plain command line and so are handled
 * here rather than in the engine's command table. Keys map to actions
 * through one table (keys.def), which also writes the `?` help. */
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

const char *tui_pane_name(tui_pane_id id)
{
    return id < PANE_COUNT ? pane_table[id]->name : "?";
}

/* The command line, through the front end's functions (none in the
 * render tests). */
void tui_cmdline_start(tui *t, int search, int key)
{
    if (t->cmdline)
        t->cmdline->start(t, search, key);
}

void tui_cmdline_cancel(tui *t)
{
    if (t->cmdline)
        t->cmdline->cancel(t);
}

void tui_cmdline_key(tui *t, int key)
{
    if (t->cmdline)
        t->cmdline->key(t, key);
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

void tui_take_redraw(tui *t)
{
    unsigned bits = session_take_redraw(t->s);
    unsigned d = TUI_DIRTY_STATUS;
    if (bits & SESSION_REDRAW_PASSES) {
        d |= (1u << PANE_PASSES) | (1u << PANE_SOURCE) | (1u << PANE_HEATMAP) | (1u << PANE_IRDIFF);
        t->irdiff.pass = -1; /* another pass, or another case (`open`) */
    }
    if (bits & SESSION_REDRAW_SOURCE)
        d |= 1u << PANE_SOURCE;
    if (bits & SESSION_REDRAW_HEATMAP)
        d |= 1u << PANE_HEATMAP;
    /* A stop (queues) or changed tensors (watch): the live heatmaps follow. */
    if (bits & SESSION_REDRAW_QUEUES)
        d |= (1u << PANE_CORES) | (1u << PANE_SOURCE) | (1u << PANE_TIMELINE) | (1u << PANE_HEATMAP) |
             (1u << PANE_MEMORY);
    if (bits & SESSION_REDRAW_WATCH)
        d |= (1u << PANE_WATCH) | (1u << PANE_HEATMAP) | (1u << PANE_MEMORY);
    t->dirty |= d;
}

void tui_focus(tui *t, tui_pane_id id)
{
    if (id >= PANE_COUNT || !t->member[id] || id == t->focus)
        return;
    t->dirty |= (1u << t->focus) | (1u << id) | (1u << PANE_CONSOLE) | TUI_DIRTY_STATUS;
    tui_pane_id from = t->focus;
    t->focus = id;
    if (t->zoom) {
        /* Zoom follows the focus. */
        tui_layout_apply(t);
        t->dirty = TUI_DIRTY_ALL;
    }
    if (id == PANE_CONSOLE) {
        t->return_focus = from;
        tui_cmdline_start(t, 0, 0);
    } else if (t->con.active) {
        tui_cmdline_cancel(t);
    }
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

static void relayout(tui *t)
{
    tui_layout_apply(t);
    t->dirty = TUI_DIRTY_ALL;
}

static void say(tui *t, session_stream st, const char *fmt, const char *arg)
{
    char buf[512];
    int n = snprintf(buf, sizeof buf, fmt, arg);
    tui_console_write(t, st, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* The TUI's own commands; returns 1 when line was one of them. */
int tui_command(tui *t, const char *line)
{
    char word[32], arg[64] = "";
    if (sscanf(line, " %31s %63s", word, arg) < 1)
        return 0;
    if (!strcmp(word, "layout")) {
        if (!arg[0]) {
            for (int i = 0; i < LAYOUT_COUNT; i++) {
                char buf[128];
                snprintf(buf, sizeof buf, "%c %-7s %s\n", i == t->layout ? '*' : ' ', tui_layout_name(i),
                         tui_layout_help(i));
                tui_console_write(t, SESSION_OUT, buf, strlen(buf));
            }
            return 1;
        }
        int l = tui_layout_find(arg);
        if (l < 0) {
            say(t, SESSION_ERR, "No layout \"%s\": try src, queues, diff, passes or timeline.\n", arg);
            return 1;
        }
        t->layout = l;
        t->zoom = 0;
        relayout(t);
        return 1;
    }
    if (!strcmp(word, "zoom")) {
        t->zoom = !t->zoom;
        relayout(t);
        return 1;
    }
    if (!strcmp(word, "focus")) {
        for (int i = 0; i < PANE_COUNT; i++) {
            if (!strcmp(arg, tui_pane_name((tui_pane_id)i)) || (!strcmp(arg, "src") && i == PANE_SOURCE)) {
                if (!t->member[i])
                    say(t, SESSION_ERR, "The %s pane is not in this layout.\n", arg);
                else
                    tui_focus(t, (tui_pane_id)i);
                return 1;
            }
        }
        say(t, SESSION_ERR,
            "No pane \"%s\": try source, passes, heatmaps, cores, watch, irdiff, timeline, memory, console.\n",
            arg);
        return 1;
    }
    return 0;
}

const char *const tui_command_names[] = {"focus", "layout", "zoom", NULL};

int tui_command_hook(void *ctx, const char *line)
{
    return tui_command(ctx, line);
}

const char *tui_complete_word(const char *line, int start, const char *word, int idx, int *only)
{
    static const char *const commands[] = {"focus", "layout", "zoom", NULL};
    const char *names[PANE_COUNT + LAYOUT_COUNT + 1];
    const char *const *list = commands;
    /* The first word of the line, and whether the word is the first. */
    const char *p = line;
    while (*p == ' ')
        p++;
    const char *first_end = p;
    while (*first_end && *first_end != ' ')
        first_end++;
    *only = 0;
    if (line + start > first_end) {
        size_t n = (size_t)(first_end - p), k = 0;
        if (n == 6 && !strncmp(p, "layout", 6)) {
            for (int i = 0; i < LAYOUT_COUNT; i++)
                names[k++] = tui_layout_name(i);
        } else if (n == 5 && !strncmp(p, "focus", 5)) {
            for (int i = 0; i < PANE_COUNT; i++)
                names[k++] = tui_pane_name((tui_pane_id)i);
        } else {
            return NULL;
        }
        names[k] = NULL;
        list = names;
        *only = 1;
    }
    size_t wl = strlen(word);
    for (int i = 0; list[i]; i++)
        if (!strncmp(list[i], word, wl) && idx-- == 0)
            return list[i];
    return NULL;
}

void tui_execute(tui *t, const char *line)
{
    /* Echo it, as gdb's TUI does, so keys that send commands show what ran. */
    if (!session_collecting(t->s)) {
        char echo[600];
        int n = snprintf(echo, sizeof echo, "(ptodb) %s\n", line);
        tui_console_write(t, SESSION_OUT, echo, (size_t)n < sizeof echo ? (size_t)n : sizeof echo - 1);
    }
    t->con.scroll = 0;
    session_validate_cancel(t->s); /* any command stops the background validation */
    tui_take_redraw(t);
    if (!session_collecting(t->s) && tui_command(t, line)) {
        t->dirty |= (1u << PANE_CONSOLE) | TUI_DIRTY_STATUS;
        return;
    }
    t->busy = line;
    t->interrupted = 0;
    t->progress[0] = '\0';
    t->dirty |= TUI_DIRTY_STATUS;
    if (t->flush)
        t->flush(t);
    session_execute(t->s, line);
    t->busy = NULL;
    t->interrupted = 0;
    /* A new `compare B`: the two builds side by side, at the first difference. */
    view_compare v;
    if (view_compare_get(t->s, &v) && v.generation != t->cmp.laid_out) {
        t->cmp.laid_out = v.generation;
        t->layout = LAYOUT_COMPARE;
        t->zoom = 0;
        relayout(t);
        tui_focus(t, PANE_COMPARE);
    }
    /* A case opened from the command line is validated in the background
     * as the one given at start is. */
    char word[8];
    if (sscanf(line, " %7s", word) == 1 && !strcmp(word, "open"))
        session_validate_start(t->s);
    tui_take_redraw(t);
    if (session_quit_requested(t->s))
        t->quit = 1;
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
    case ACT_ZOOM: t->zoom = !t->zoom; relayout(t); break;
    case ACT_LAYOUT: {
        /* the compare layout is in the cycle once there is a compare to show */
        view_compare v;
        t->layout = (t->layout + 1) % LAYOUT_COUNT;
        if (t->layout == LAYOUT_COMPARE && !view_compare_get(t->s, &v))
            t->layout = (t->layout + 1) % LAYOUT_COUNT;
        t->zoom = 0;
        relayout(t);
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

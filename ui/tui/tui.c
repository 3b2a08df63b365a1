/* The TUI's commands and keys: lines go to session_execute (the engine is
 * the one source of truth), apart from the TUI's own `layout`, `zoom` and
 * `focus`, which mean nothing to the plain command line and so are handled
 * here rather than in the engine's command table. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

static const char global_help[] =
    "F5        run, or continue when running\n"
    "F7        finish      F8  next      F10  step\n"
    "Tab       next pane   Shift-Tab  previous pane\n"
    ":         type a command (or just start typing)\n"
    "[  ]      previous / next pass\n"
    "z         zoom the pane (again: back)   L  next layout\n"
    "Ctrl-L    redraw      ? F1  this help  q  quit\n"
    "Mouse     click a pane to focus it, a line to move there";

static const char *const pane_help[PANE_COUNT] = {
    [PANE_SOURCE] = "j k Up Down, PgUp PgDn, g G   move the cursor\n"
                    "h l Left Right   scroll sideways\n"
                    "s step   n next   c continue   f finish\n"
                    "Space    break / clear at the cursor line\n"
                    "u        run until the cursor line\n"
                    "/        search (smart case); then n N: next/previous match,\n"
                    "         Esc: end the search (n is `next` again)\n",
    [PANE_PASSES] = "j k Up Down, PgUp PgDn, g G   move the cursor\n"
                    "Enter Space   select the pass (runs `pass N`)\n"
                    "Columns: IR * changed from the previous pass, = same;\n"
                    "verdict and max_abs_diff per output once validated\n",
    [PANE_HEATMAP] = "o        next output tensor\n"
                     "Left: max |actual - golden|, right: vs the previous pass,\n"
                     "max per block; ramp \" .:-=+*#%@\"; marked cells exceed\n"
                     "the tolerance; the line shows the valid region's edge\n",
    [PANE_CORES] = "j k g    scroll\n"
                   "> marks the core commands act on (core NAME)\n",
    [PANE_WATCH] = "j k g    scroll\n"
                   "display TENSOR adds a line, undisplay N removes it;\n"
                   "* marks values changed at the last stop\n",
    [PANE_IRDIFF] = "j k PgUp PgDn Space g G   scroll\n"
                    "the output of `pass diff` for the current pass\n",
    [PANE_CONSOLE] = "Enter runs the line; Up Down history; Tab completes\n"
                     "Ctrl-R searches the history; Ctrl-C clears the line\n"
                     "PgUp PgDn scroll the output; Esc: back to the panes\n"
                     "TUI commands: layout [src|queues|diff|passes], zoom,\n"
                     "focus PANE\n",
};

void tui_pane_help(tui_pane_id id, char *buf, size_t size)
{
    if (id >= PANE_COUNT)
        id = PANE_SOURCE;
    snprintf(buf, size, "%s\n%s", pane_help[id], global_help);
}

void tui_take_redraw(tui *t)
{
    unsigned bits = session_take_redraw(t->s);
    unsigned d = TUI_DIRTY_STATUS;
    if (bits & SESSION_REDRAW_PASSES) {
        d |= (1u << PANE_PASSES) | (1u << PANE_SOURCE) | (1u << PANE_HEATMAP) | (1u << PANE_IRDIFF);
        t->irdiff_pass = -1; /* another pass, or another case (`open`) */
    }
    if (bits & SESSION_REDRAW_SOURCE)
        d |= 1u << PANE_SOURCE;
    if (bits & SESSION_REDRAW_HEATMAP)
        d |= 1u << PANE_HEATMAP;
    if (bits & SESSION_REDRAW_QUEUES)
        d |= (1u << PANE_CORES) | (1u << PANE_SOURCE);
    if (bits & SESSION_REDRAW_WATCH)
        d |= 1u << PANE_WATCH;
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
static int tui_command(tui *t, const char *line)
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
            say(t, SESSION_ERR, "No layout \"%s\": try src, queues, diff or passes.\n", arg);
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
        say(t, SESSION_ERR, "No pane \"%s\": try source, passes, heatmaps, cores, watch, irdiff, console.\n",
            arg);
        return 1;
    }
    return 0;
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
    tui_take_redraw(t);
    if (session_quit_requested(t->s))
        t->quit = 1;
}

static int is_running(tui *t)
{
    view_location loc;
    return view_stop_location(t->s, &loc);
}

typedef int (*pane_key_fn)(tui *t, int key);

static const pane_key_fn pane_key[PANE_COUNT] = {
    [PANE_SOURCE] = pane_source_key, [PANE_PASSES] = pane_passes_key,
    [PANE_HEATMAP] = pane_heatmap_key, [PANE_CORES] = pane_cores_key,
    [PANE_WATCH] = pane_watch_key,   [PANE_IRDIFF] = pane_irdiff_key,
    [PANE_CONSOLE] = pane_console_key,
};

/* Keys that work everywhere, the command line included. */
static int global_key(tui *t, int key)
{
    switch (key) {
    case TK_F(5): tui_execute(t, is_running(t) ? "continue" : "run"); return 1;
    case TK_F(7): tui_execute(t, "finish"); return 1;
    case TK_F(8): tui_execute(t, "next"); return 1;
    case TK_F(10): tui_execute(t, "step"); return 1;
    case TK_CTRL('l'): t->dirty = TUI_DIRTY_ALL; return 1;
    case TK_F(1): t->help = 1; t->dirty |= TUI_DIRTY_ALL; return 1;
    case TK_BTAB: focus_step(t, -1); return 1;
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
        pane_console_key(t, key);
        return;
    }
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
    if (global_key(t, key))
        return;
    if (t->con.active) {
        cmdline_key(t, key);
        return;
    }
    if (pane_key[t->focus] && pane_key[t->focus](t, key))
        return;
    switch (key) {
    case '\t': focus_step(t, 1); return;
    case ':': t->return_focus = t->focus; tui_cmdline_start(t, 0, 0); return;
    case '?': t->help = 1; t->dirty |= TUI_DIRTY_ALL; return;
    case 'q': tui_execute(t, "quit"); return;
    case 'z': t->zoom = !t->zoom; relayout(t); return;
    case 'L': t->layout = (t->layout + 1) % LAYOUT_COUNT; t->zoom = 0; relayout(t); return;
    case '[': tui_execute(t, "pass prev"); return;
    case ']': tui_execute(t, "pass next"); return;
    }
    /* Typing a command from a pane starts the command line with that key. */
    if (key >= 0x20 && key < TK_BASE && key != 0x7f) {
        t->return_focus = t->focus;
        tui_cmdline_start(t, 0, key);
    }
}

void pane_click(tui *t, tui_pane_id id, int y)
{
    tui_focus(t, id);
    if (y < 0)
        return;
    switch (id) {
    case PANE_SOURCE:
        t->src.sc.cursor = t->src.sc.top + y;
        break;
    case PANE_PASSES:
        if (y >= 1)
            t->passes.cursor = t->passes.top + y - 1; /* row 0 is the header */
        break;
    default:
        break;
    }
    t->dirty |= 1u << id;
}

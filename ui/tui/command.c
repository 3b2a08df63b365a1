/* The TUI's commands: lines go to session_execute (the engine is the one
 * source of truth), apart from the TUI's own `layout`, `zoom` and `focus`,
 * which mean nothing to the plain command line and so are handled here
 * rather than in the engine's command table; the focus and the redraw the
 * session asks for. It knows no pane's code (the panes call it: tui_execute),
 * only their names (pane_names.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

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

void tui_relayout(tui *t)
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
        tui_relayout(t);
        return 1;
    }
    if (!strcmp(word, "zoom")) {
        t->zoom = !t->zoom;
        tui_relayout(t);
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
    /* Echo it, as gdb's TUI does, so keys that send commands show what ran;
     * an answer after its question */
    const char *query = session_query_prompt(t->s);
    if (!session_collecting(t->s) || query) {
        char echo[700];
        int n = snprintf(echo, sizeof echo, "%s%s\n", query ? query : "(ptodb) ", line);
        tui_console_write(t, SESSION_OUT, echo, (size_t)n < sizeof echo ? (size_t)n : sizeof echo - 1);
    }
    t->con.scroll = 0;
    session_validate_cancel(t->s); /* any command stops the background validation */
    tui_take_redraw(t);
    if (!session_collecting(t->s) && !query && tui_command(t, line)) {
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
        tui_relayout(t);
        tui_focus(t, PANE_COMPARE);
    }
    tui_take_redraw(t);
    if (session_quit_requested(t->s))
        t->quit = 1;
}

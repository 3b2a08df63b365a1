/* The `display` list: expressions shown at every stop where their value
 * changed, in the REPL and in the TUI's watch pane (view_displays); the
 * commands display and undisplay are cmd_expr.c's. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "debug/state/expr.h"
#include "debug/state/session_impl.h"
#include "tensor/tensor_fmt.h"

void display_free_all(session *s)
{
    for (size_t i = 0; i < s->ndisplays; i++) {
        free(s->displays[i].expr);
        free(s->displays[i].summary);
        free(s->displays[i].detail);
    }
    free(s->displays);
    s->displays = NULL;
    s->ndisplays = 0;
}

static uint64_t tensor_hash(const tensor *t)
{
    uint64_t h = 1469598103934665603ull ^ (uint64_t)t->dtype;
    int64_t n = tensor_numel(t);
    for (int64_t k = 0; k < n; k++) {
        double v = tensor_get_flat(t, k);
        uint64_t bits;
        memcpy(&bits, &v, sizeof bits);
        h = (h ^ bits) * 1099511628211ull;
    }
    for (int d = 0; d < t->ndim; d++)
        h = (h ^ (uint64_t)t->shape[d]) * 1099511628211ull;
    return h;
}

/* Refreshes one display's summary (and, with a format, its elements);
 * returns 1 when its value changed. Quiet: a display that cannot be
 * evaluated here says so in its summary. */
static int display_refresh(session *s, display_item *d)
{
    strbuf sb = STRBUF_INIT, detail = STRBUF_INIT, err = STRBUF_INIT;
    int changed;
    const char *text = d->expr;
    char fmt = 0;
    int bad_format = expr_parse_format(NULL, &text, &fmt, NULL) != 0;
    tensor *t = NULL;
    if (bad_format || expr_eval(s, text, &t, NULL, &err) != PTODB_OK)
        t = NULL;
    if (!t) {
        strbuf_puts(&sb, "<not available>");
        changed = d->has_hash;
        d->has_hash = 0;
    } else {
        if (t->ndim == 0) {
            tensor_fmt_grid_as(t, 0, 3, fmt, &sb);
            if (sb.len && strbuf_str(&sb)[sb.len - 1] == '\n')
                sb.data[--sb.len] = '\0';
        } else {
            tensor_fmt_header(t, &sb);
            strbuf_puts(&sb, " ");
            tensor_fmt_stats(t, &sb);
            if (fmt)
                tensor_fmt_grid_as(t, session_get_int(s, SETTING_PRINT_ELEMENTS), 3, fmt, &detail);
        }
        uint64_t h = tensor_hash(t);
        changed = !d->has_hash || h != d->hash;
        d->hash = h;
        d->has_hash = 1;
        tensor_unref(t);
    }
    strbuf_free(&err);
    free(d->summary);
    d->summary = strbuf_detach(&sb);
    free(d->detail);
    d->detail = detail.len ? strbuf_detach(&detail) : (strbuf_free(&detail), NULL);
    d->changed = changed;
    return changed;
}

static void display_print(session *s, const display_item *d)
{
    session_printf(s, "%d: %s = %s\n", d->number, d->expr, d->summary);
    if (d->detail)
        session_printf(s, "%s", d->detail);
}

void display_show_all(session *s, int only_changed)
{
    for (size_t i = 0; i < s->ndisplays; i++) {
        display_item *d = &s->displays[i];
        if (display_refresh(s, d) || !only_changed)
            display_print(s, d);
    }
    session_mark_redraw(s, SESSION_REDRAW_WATCH);
}

void display_add(session *s, const char *expr)
{
    s->displays = xreallocarray(s->displays, s->ndisplays + 1, sizeof *s->displays);
    display_item *d = &s->displays[s->ndisplays++];
    memset(d, 0, sizeof *d);
    d->number = ++s->next_display;
    d->expr = xstrdup(expr);
    display_refresh(s, d);
    display_print(s, d);
    session_mark_redraw(s, SESSION_REDRAW_WATCH);
}

int display_delete(session *s, long number)
{
    size_t k;
    for (k = 0; k < s->ndisplays; k++)
        if (s->displays[k].number == number)
            break;
    if (k == s->ndisplays)
        return -1;
    free(s->displays[k].expr);
    free(s->displays[k].summary);
    free(s->displays[k].detail);
    memmove(&s->displays[k], &s->displays[k + 1], (s->ndisplays - k - 1) * sizeof *s->displays);
    s->ndisplays--;
    return 0;
}

/* The breakpoint table (breakpoint.h). */
#include "debug/state/breakpoint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "debug/state/session_impl.h"

breakpoint *bp_find(session *s, int number)
{
    for (size_t i = 0; i < s->nbps; i++)
        if (s->bps[i].number == number)
            return &s->bps[i];
    return NULL;
}

static void bp_clear(breakpoint *b)
{
    free(b->func);
    free(b->spec);
    if (b->has_re)
        regfree(&b->re);
    predicate_free(b->cond);
    free(b->cond_expr);
    bp_watch_reset(b);
    free(b->watch_ranks);
    free(b->watch_sub);
    for (size_t k = 0; k < b->ncommands; k++)
        free(b->commands[k]);
    free(b->commands);
}

void bp_free_all(session *s)
{
    for (size_t i = 0; i < s->nbps; i++)
        bp_clear(&s->bps[i]);
    free(s->bps);
    s->bps = NULL;
    s->nbps = 0;
}

breakpoint *bp_new(session *s, bp_kind kind)
{
    s->bps = xreallocarray(s->bps, s->nbps + 1, sizeof *s->bps);
    breakpoint *b = &s->bps[s->nbps++];
    memset(b, 0, sizeof *b);
    b->number = ++s->next_bp;
    b->kind = kind;
    b->enabled = 1;
    b->rank = -1;
    b->watch_loaded = -1;
    session_mark_redraw(s, SESSION_REDRAW_SOURCE);
    return b;
}

int bp_applies_to_rank(const session *s, const breakpoint *b)
{
    return b->rank < 0 || !s->run.ranks || b->rank == s->run.step_rank;
}

void bp_watch_reset(breakpoint *b)
{
    if (b->watch_old)
        tensor_unref(b->watch_old);
    b->watch_old = NULL;
    b->watch_seen = NULL;
    b->watch_bound = 0;
    for (int k = 0; k < b->nwatch_ranks; k++) {
        if (b->watch_ranks[k].old)
            tensor_unref(b->watch_ranks[k].old);
        b->watch_ranks[k] = (struct bp_watch_rank){0};
    }
    b->watch_loaded = -1;
}

const char *bp_condition_text(const breakpoint *b)
{
    return b->cond ? predicate_text(b->cond) : b->cond_expr;
}

void bp_note_also_set(session *s, const breakpoint *nb)
{
    strbuf nums = STRBUF_INIT;
    int n = 0;
    for (size_t i = 0; i < s->nbps; i++) {
        const breakpoint *b = &s->bps[i];
        int same = b->kind == nb->kind &&
                   ((b->kind == BP_LINE && b->pass == nb->pass && b->line == nb->line) ||
                    (b->kind == BP_FUNC && strcmp(b->func, nb->func) == 0));
        if (!same)
            continue;
        strbuf_printf(&nums, "%s%d%s", n ? ", " : "", b->number, b->enabled ? "" : " (disabled)");
        n++;
    }
    if (n) {
        if (nb->kind == BP_LINE)
            session_printf(s, "Note: breakpoint%s %s also set at %s:%d.\n", n > 1 ? "s" : "", strbuf_str(&nums),
                           session_file_name(s->kase.passes[nb->pass].path), nb->line);
        else
            session_printf(s, "Note: breakpoint%s %s also set at function %s.\n", n > 1 ? "s" : "",
                           strbuf_str(&nums), nb->func);
    }
    strbuf_free(&nums);
}

void bp_delete(session *s, breakpoint *b)
{
    size_t i = (size_t)(b - s->bps);
    bp_clear(b);
    memmove(&s->bps[i], &s->bps[i + 1], (s->nbps - i - 1) * sizeof *s->bps);
    s->nbps--;
}

int bp_pass_matches(const breakpoint *b, const case_pass *p)
{
    if (b->has_re)
        return regexec(&b->re, p->stem, 0, NULL, 0) == 0;
    return strcasecmp(b->spec, p->name) == 0 || strcmp(b->spec, p->stem) == 0 ||
           (b->spec[0] >= '0' && b->spec[0] <= '9' && strtol(b->spec, NULL, 10) == p->index);
}

/* gdb's `info breakpoints` table. */
const bp_catch_event bp_catch_events[3] = {
    {"memory", "memory fault", BP_CATCH_MEMORY},
    {"race", "race on a window", BP_CATCH_RACE},
    {"fence", "fence contract breach", BP_CATCH_FENCE},
};

const bp_catch_event *bp_catch_of(bp_kind kind)
{
    for (size_t i = 0; i < sizeof bp_catch_events / sizeof bp_catch_events[0]; i++)
        if (bp_catch_events[i].kind == kind)
            return &bp_catch_events[i];
    return NULL;
}

/* A line of text that opens `def name(`. */
static int defines(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        const char *q = p;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, "def", 3) != 0 || (q[3] != ' ' && q[3] != '\t'))
            continue;
        q += 3;
        while (*q == ' ' || *q == '\t')
            q++;
        if (strncmp(q, name, n) != 0)
            continue;
        q += n;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '(')
            return 1;
    }
    return 0;
}

size_t bp_func_passes(session *s, const char *name)
{
    size_t n = 0;
    for (size_t i = 0; s->have_case && i < s->kase.npasses; i++) {
        const char *src = session_pass_source(s, (int)i);
        n += src && defines(src, name);
    }
    return n;
}

void bp_print_table(session *s)
{
    if (!s->nbps) {
        session_printf(s, "No breakpoints or watchpoints.\n");
        return;
    }
    static const char *const types[] = {"breakpoint", "breakpoint", "pass",      "watchpoint", "nan",
                                        "inf",        "catchpoint", "catchpoint", "catchpoint"};
    static const char *const watch_types[] = {"watchpoint", "read watchpoint", "acc watchpoint"};
    /* gdb widens the Type column for "read watchpoint" */
    int width = 14;
    for (size_t i = 0; i < s->nbps; i++)
        if (s->bps[i].kind == BP_WATCH && s->bps[i].watch_access == WATCH_READ)
            width = 15;
    session_printf(s, "Num     %-*s Disp Enb What\n", width, "Type");
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        char what[512];
        switch (b->kind) {
        case BP_LINE:
            snprintf(what, sizeof what, "%s:%d", session_file_name(s->kase.passes[b->pass].path), b->line);
            break;
        case BP_FUNC:
            /* gdb's <PENDING>: no pass defines it (yet) */
            snprintf(what, sizeof what, "%sin %s", bp_func_passes(s, b->func) ? "" : "<PENDING> ", b->func);
            break;
        case BP_PASS: snprintf(what, sizeof what, "pass %s", b->spec); break;
        case BP_WATCH: snprintf(what, sizeof what, "%s%s", b->spec, b->watch_sub ? b->watch_sub : ""); break;
        case BP_CATCH_MEMORY: snprintf(what, sizeof what, "memory fault (clobber, uninit, bounds, slot)"); break;
        case BP_CATCH_RACE: snprintf(what, sizeof what, "race on a window (multi-rank)"); break;
        case BP_CATCH_FENCE: snprintf(what, sizeof what, "fence contract breach (multi-rank)"); break;
        default: snprintf(what, sizeof what, "any statement producing %s", b->kind == BP_NAN ? "NaN" : "Inf");
        }
        session_printf(s, "%-7d %-*s %-4s %-3s %s\n", b->number, width,
                       b->kind == BP_WATCH ? watch_types[b->watch_access] : types[b->kind],
                       b->temporary ? "del" : "keep", b->enabled ? "y" : "n", what);
        if (b->rank >= 0)
            session_printf(s, "\tstop only on rank %d\n", b->rank);
        if (bp_condition_text(b))
            session_printf(s, "\tstop only if %s\n", bp_condition_text(b));
        if (b->hits)
            session_printf(s, "\tbreakpoint already hit %ld time%s\n", b->hits, b->hits == 1 ? "" : "s");
        if (b->ignore)
            session_printf(s, "\tignore next %ld hits\n", b->ignore);
        for (size_t k = 0; k < b->ncommands; k++)
            session_printf(s, "        %s\n", b->commands[k]);
    }
}

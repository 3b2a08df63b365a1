/* Presentation as an observer of run control (present.h). */
#include "debug/present/present.h"

#include <stdlib.h>

#include "base/strbuf.h"

#include "debug/present/compare_view.h"
#include "debug/present/display.h"
#include "debug/present/frame.h"
#include "debug/run/record.h"
#include "debug/run/stop.h"
#include "debug/state/observers.h"
#include "debug/state/predicate.h"
#include "debug/state/session_impl.h"
#include "tensor/tensor_fmt.h"

/* ---- the messages of a stop ---------------------------------------------------- */

static void print_value_line(session *s, const char *label, const tensor *t)
{
    strbuf sb = STRBUF_INIT;
    if (t) {
        tensor_fmt_header(t, &sb);
        strbuf_puts(&sb, " ");
        tensor_fmt_stats(t, &sb);
    } else {
        strbuf_puts(&sb, "<not assigned>");
    }
    session_printf(s, "%s = %s\n", label, strbuf_str(&sb));
    strbuf_free(&sb);
}

/* gdb's "Old value = / New value =", as summaries, then where the values
 * first differ; a read prints "Value = ". */
static void on_watchpoint_triggered(session *s, const stop_chain *c, const stop_hit *h, void *ctx)
{
    (void)ctx;
    breakpoint *b = bp_find(s, h->bp);
    if (!b)
        return;
    const char *title = b->watch_access == WATCH_READ     ? "Hardware read watchpoint"
                        : b->watch_access == WATCH_ACCESS ? "Hardware access (read/write) watchpoint"
                                                          : "Watchpoint";
    session_printf(s, "\n%s %d: %s%s", title, b->number, b->spec, b->watch_sub ? b->watch_sub : "");
    if (s->run.ranks)
        session_printf(s, " (rank %d)", c->watch_rank);
    char lab[64];
    if (c->writer_line && (h->old || h->read))
        session_printf(s, ", %s by [%s] %s at line %d", h->read ? "read" : "written",
                       run_core_label(s, s->run.ranks ? s->run.rank : -1, c->writer_core, lab, sizeof lab),
                       c->writer_func ? c->writer_func : "?", c->writer_line);
    session_printf(s, "\n\n");
    if (b->cond && h->cond_error)
        session_printf(s, "(its condition %s could not be tested)\n", predicate_text(b->cond));
    if (h->read) {
        print_value_line(s, "Value", h->now);
        return;
    }
    print_value_line(s, "Old value", h->old);
    if (h->now || h->backward)
        print_value_line(s, "New value", h->now);
    strbuf sb = STRBUF_INIT;
    if (h->now && h->old && tensor_describe_changes(h->old, h->now, 3, &sb))
        session_printf(s, "%s", strbuf_str(&sb));
    strbuf_free(&sb);
}

/* The stop's own line for the hit that gives it (run control decides
 * whether its location follows). */
static void on_breakpoint_stop(session *s, const stop_chain *c, const stop_hit *h, void *ctx)
{
    (void)ctx;
    breakpoint *b = bp_find(s, h->bp);
    const case_pass *p = &s->kase.passes[c->pass];
    switch (h->kind) {
    case STOP_HIT_PRODUCED:
        if (h->cond_error)
            session_printf(s, "\nBreakpoint %d, line %d produced %s; its condition %s could not be tested\n",
                           h->bp, b ? b->line : 0, h->what, b ? predicate_text(b->cond) : "?");
        else
            session_printf(s, "\nBreakpoint %d, line %d produced %s with %s\n", h->bp, b ? b->line : 0,
                           h->what, b ? predicate_text(b->cond) : "?");
        return;
    case STOP_HIT_NAN:
    case STOP_HIT_INF:
        session_printf(s, "\nBreakpoint %d: %s produced by the last statement\n", h->bp,
                       h->kind == STOP_HIT_NAN ? "NaN" : "Inf");
        return;
    case STOP_HIT_MEMORY:
        session_printf(s, "\nCatchpoint %d (memory fault)\n%s", h->bp, s->run.m && machine_mem_last(s->run.m) ? machine_mem_last(s->run.m) : "");
        return;
    case STOP_HIT_RACE:
    case STOP_HIT_FENCE: /* run control kept the report (view_stop_exception) */
        session_printf(s, "\nCatchpoint %d (%s)\n%s\n", h->bp,
                       bp_catch_of(h->kind == STOP_HIT_RACE ? BP_CATCH_RACE : BP_CATCH_FENCE)->what,
                       s->run.comm_report ? s->run.comm_report : "");
        return;
    case STOP_HIT_PASS_START:
        session_printf(s, "\nBreakpoint %d, pass %d %s\n", h->bp, p->index, p->name);
        return;
    case STOP_HIT_PASS_END:
        session_printf(s, "\nBreakpoint %d, pass %d %s: %s %s for '%s'\n", h->bp, p->index, p->name,
                       b ? predicate_text(b->cond) : "?", h->cond_error ? "could not be tested" : "holds",
                       h->what);
        return;
    case STOP_HIT_LOCATION:
        if (b && b->cond_expr && h->cond_error)
            session_printf(s, "\nBreakpoint %d: its condition %s could not be tested, ", h->bp, b->cond_expr);
        else
            session_printf(s, "\n%s %d, ", b && b->temporary ? "Temporary breakpoint" : "Breakpoint", h->bp);
        return;
    case STOP_HIT_WATCH: /* watchpoint_triggered */
        break;
    }
}

/* ---- the case, the stop's location, displays ------------------------------------------ */

static void on_case_closing(session *s, void *ctx)
{
    (void)ctx;
    display_free_all(s);
    compare_view_free(s->compare); /* a compare against the case that goes */
    s->compare = NULL;
}

static void on_session_freeing(session *s, void *ctx)
{
    (void)ctx;
    display_free_all(s);
}

static void on_stop_location(session *s, void *ctx)
{
    (void)ctx;
    run_print_location(s);
}

static void on_normal_stop(session *s, int only_changed, void *ctx)
{
    (void)ctx;
    display_show_all(s, only_changed);
}

void present_attach(session *s)
{
    session_observe(s, &(session_observer){.case_closing = on_case_closing,
                                           .session_freeing = on_session_freeing,
                                           .stop_location = on_stop_location,
                                           .normal_stop = on_normal_stop,
                                           .breakpoint_stop = on_breakpoint_stop,
                                           .watchpoint_triggered = on_watchpoint_triggered});
}

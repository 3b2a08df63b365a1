/* Presentation as an observer of run control (present.h). */
#include "debug/present/present.h"

#include <inttypes.h>
#include <stdlib.h>

#include "base/strbuf.h"
#include "debug/present/compare_view.h"
#include "debug/present/display.h"
#include "debug/present/frame.h"
#include "debug/run/record.h"
#include "debug/run/run.h"
#include "debug/run/stop.h"
#include "debug/state/observers.h"
#include "debug/state/predicate.h"
#include "debug/state/session_impl.h"
#include "exec/compare.h"
#include "exec/inspect.h"
#include "exec/runpass.h"
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

/* ---- run control's messages of a run ------------------------------------------------ */

static void on_core_switched(session *s, int rank, int core, void *ctx)
{
    (void)ctx;
    char lab[64];
    session_printf(s, "[Switching to %s]\n", run_core_label(s, rank, core, lab, sizeof lab));
}

static void on_rank_switched(session *s, int rank, void *ctx)
{
    (void)ctx;
    session_printf(s, "[Switching to rank %d]\n", rank);
}

static void on_core_finished(session *s, int rank, int core, void *ctx)
{
    (void)ctx;
    char lab[64];
    session_printf(s, "[%s finished]\n", run_core_label(s, rank, core, lab, sizeof lab));
}

static void on_run_interrupted(session *s, void *ctx)
{
    (void)ctx;
    session_printf(s, "\nInterrupted.\n");
}

static void on_history_exhausted(session *s, void *ctx)
{
    (void)ctx;
    session_printf(s, "\nNo more reverse-execution history.\n");
}

static void on_finish_started(session *s, int level, const inspect_frame *f, void *ctx)
{
    (void)ctx;
    /* as gdb, before it runs (a breakpoint may stop it first) */
    session_printf(s, "Run till exit from #%-2d %s at %s:%d\n", level, f->func, session_file_name(f->file), f->line);
}

static void on_pass_finished(session *s, int pass, run_pass_end how, uint64_t steps, uint64_t memfaults, void *ctx)
{
    (void)ctx;
    if (memfaults)
        session_printf(s, "MEMFAULT: %" PRIu64 " memory fault%s in this pass (catch memory stops at them; "
                          "docs/memory.md)\n",
                       memfaults, memfaults == 1 ? "" : "s");
    session_printf(s, "Pass %d %s %s after %" PRIu64 " statements.\n", s->kase.passes[pass].index,
                   s->kase.passes[pass].name,
                   how == RUN_PASS_FINISHED            ? "finished"
                   : how == RUN_PASS_FINISHED_FAILURES ? "finished with failures"
                                                       : "finished (no golden output to compare)",
                   steps);
}

static void on_pass_failed(session *s, int pass, const char *error, void *ctx)
{
    (void)ctx;
    session_errorf(s, "%s", error);
    session_printf(s, "Pass %d %s stopped with an error.\n", s->kase.passes[pass].index, s->kase.passes[pass].name);
}

static void on_reference_unavailable(session *s, int pass, const char *note, void *ctx)
{
    (void)pass;
    (void)ctx;
    session_printf(s, "note: the PyTorch reference cannot run this pass: %s\n", note);
}

/* The "==== stem ====" block of a finished pass, as --run and --batch
 * print it: the reference's notes, then each output's validate line (or
 * why it has none). */
static void on_outputs_validated(session *s, const run_outputs_report *rep, void *ctx)
{
    (void)ctx;
    const char *stem = s->kase.passes[rep->pass].stem;
    session_printf(s, "==================== %s ====================\n", stem);
    if (rep->checks_failed) {
        session_errorf(s, "%s", rep->checks_failed);
        return;
    }
    strbuf line = STRBUF_INIT;
    if (rep->ref_note) {
        runpass_format_ref_note(rep->ref_note, 0, &line);
        session_write(s, strbuf_str(&line), line.len);
        strbuf_clear(&line);
    }
    if (rep->ref_differs) {
        runpass_format_ref_differs(rep->ref_differs, 0, &line);
        session_write(s, strbuf_str(&line), line.len);
        strbuf_clear(&line);
    }
    for (size_t k = 0; k < rep->noutputs; k++) {
        const run_output_verdict *v = &rep->outputs[k];
        if (v->missing) {
            session_errorf(s, "%s: expected key '%s' not found in tensors after execution", stem, v->key);
            continue;
        }
        if (v->cmp.error) {
            session_errorf(s, "%s: %s", stem, v->cmp.msg);
            continue;
        }
        exec_format_validate_line(v->key, &v->cmp, &line);
        session_write(s, strbuf_str(&line), line.len);
        strbuf_clear(&line);
    }
    strbuf_free(&line);
    if (rep->user_modified)
        session_printf(s, "Note: set var changed this run's tensors; these verdicts are not recorded as "
                          "the pass's own.\n");
}

/* ---- program points across passes -------------------------------------------------- */

static void on_point_sought(session *s, int pass, int found, const char *where, const char *how, void *ctx)
{
    (void)ctx;
    if (found)
        session_printf(s, "Corresponding point in pass %d (%s):\n", s->kase.passes[pass].index, how);
    else
        session_printf(s, "Pass %d: no point corresponding to %s (%s).\n", s->kase.passes[pass].index, where, how);
}

static void on_run_restarted(session *s, int pass, void *ctx)
{
    (void)ctx;
    session_printf(s, "The run is at the start of pass %d.\n", s->kase.passes[pass].index);
}

static void on_counterpart_found(session *s, const char *name, int from_pass, const char *where, const char *other,
                                 int pass, const char *how, void *ctx)
{
    (void)ctx;
    session_printf(s, "%s (pass %d, %s) is %s in pass %d (%s)\n", name, s->kase.passes[from_pass].index, where, other,
                   s->kase.passes[pass].index, how);
}

/* A guess, said as one: which half of the other pass's tensor a lane's
 * tile was compared with, and why that half. */
static void on_lane_share_taken(session *s, const run_lane_share *ls, void *ctx)
{
    (void)ctx;
    const char *unit = ls->axis == 0 ? "rows" : ls->axis == ls->ndim - 1 ? "columns" : "indices";
    if (ls->region)
        session_printf(s,
                       "(%s holds a lane's share: compared with %s %" PRId64 ":%" PRId64 " of dim %d of pass %d's "
                       "tensor, the half its own loads and stores cover (%s): a guess for a tile with no load or "
                       "store of its own)\n",
                       machine_core_name(ls->core), unit, ls->lo, ls->hi, ls->axis, s->kase.passes[ls->pass].index,
                       ls->region);
    else
        session_printf(s,
                       "(%s holds a lane's share: compared with %s %" PRId64 ":%" PRId64 " of dim %d of pass %d's "
                       "tensor, the half lane %" PRId64 " covers by position: a guess)\n",
                       machine_core_name(ls->core), unit, ls->lo, ls->hi, ls->axis, s->kase.passes[ls->pass].index,
                       ls->lane);
}

static void on_pass_entered(session *s, int pass, void *ctx)
{
    (void)ctx;
    if (pass < 0)
        session_printf(s, "The last pass has finished.\n");
    else
        session_printf(s, "Pass %d: %s\n", s->kase.passes[pass].index, s->kase.passes[pass].name);
}

/* ---- the background validation's reports -------------------------------------------- */

static void on_validation_passed(session *s, int npasses, void *ctx)
{
    (void)ctx;
    session_printf(s, "All %d passes pass validation.\n", npasses);
}

static void on_first_failing_pass(session *s, int pass, int selected, int unchecked, void *ctx)
{
    (void)ctx;
    const case_pass *p = &s->kase.passes[pass];
    if (!unchecked) {
        if (selected)
            session_printf(s, "first failing pass: %d %s (bisect for the statement)\n", p->index, p->name);
        else
            session_printf(s, "first failing pass: %d %s (`pass %d` selects it; bisect for the statement)\n",
                           p->index, p->name, p->index);
        return;
    }
    /* its errors were printed as it loaded; the first, the root cause,
     * comes last, where the source pane opens (view_pass_error) */
    const pass_state *ps = session_load_pass(s, pass);
    if (ps->first_error)
        session_errorf(s, "first failing pass: %d %s does not check (%zu error%s), not run; the first: %s", p->index,
                       p->name, ps->nerrors, ps->nerrors == 1 ? "" : "s", ps->first_error);
    else
        session_errorf(s, "first failing pass: %d %s does not check, not run", p->index, p->name);
}

/* The engine's two lines (the statement, the reason) in the console,
 * where the first screen shows them, and how to stop there. */
static void on_divergence_found(session *s, int pass, int line, int rank, void *ctx)
{
    (void)pass;
    (void)ctx;
    if (s->bisect_head)
        session_printf(s, "%s\n", s->bisect_head);
    if (s->bisect_why)
        session_printf(s, "  %s\n", s->bisect_why);
    if (rank >= 0)
        session_printf(s, "`break %d rank %d` then `run` stops there; `bisect` for the whole report.\n", line, rank);
    else
        session_printf(s, "`break %d` then `run` stops there; `bisect` for the whole report.\n", line);
}

static void on_validation_stopped(session *s, int received, int total, void *ctx)
{
    (void)ctx;
    session_printf(s, "Background validation stopped after %d of %d passes.\n", received, total);
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
                                           .watchpoint_triggered = on_watchpoint_triggered,
                                           .core_switched = on_core_switched,
                                           .rank_switched = on_rank_switched,
                                           .core_finished = on_core_finished,
                                           .run_interrupted = on_run_interrupted,
                                           .history_exhausted = on_history_exhausted,
                                           .finish_started = on_finish_started,
                                           .pass_finished = on_pass_finished,
                                           .pass_failed = on_pass_failed,
                                           .reference_unavailable = on_reference_unavailable,
                                           .outputs_validated = on_outputs_validated,
                                           .point_sought = on_point_sought,
                                           .run_restarted = on_run_restarted,
                                           .counterpart_found = on_counterpart_found,
                                           .lane_share_taken = on_lane_share_taken,
                                           .validation_passed = on_validation_passed,
                                           .first_failing_pass = on_first_failing_pass,
                                           .divergence_found = on_divergence_found,
                                           .validation_stopped = on_validation_stopped,
                                           .pass_entered = on_pass_entered});
}

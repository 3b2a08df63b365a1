/* Running a pass under the debugger: starting it with fresh inputs,
 * stepping on the selected core or letting the scheduler run, stopping at
 * breakpoints, watchpoints and NaN/Inf, validating the outputs against golden
 * when the pass ends, and reporting stops. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "debug/cmdtable.h"
#include "debug/state/expr.h"
#include "debug/state/lookup.h"
#include "debug/run/record.h"
#include "debug/run/queue_track.h"
#include "debug/state/session_impl.h"
#include "debug/run/stop.h"
#include "tensor/tensor_fmt.h"
#include "debug/run/timeline.h"
#include "debug/run/timetravel.h"
#include "exec/compare.h"
#include "exec/inspect.h"
#include "exec/runpass.h"
#include "exec/schedule.h"
#include "ir/print.h"
#include "ir/resolve.h"
#include "ranks/sched.h"


/* ---- lifetime ---------------------------------------------------------------- */

void run_kill(session *s)
{
    run_state *r = &s->run;
    tt_free(r); /* its snapshots name the program's functions */
    run_ranks_free(r); /* before the program its machines borrow; r->m was one of them */
    if (r->m)
        machine_free(r->m);
    exec_sched_pass_free(r->sched);
    if (r->prog)
        exec_program_free(r->prog);
    if (r->binds)
        case_bindings_free(r->binds, r->nbinds); /* frees the entries, not the array */
    free(r->binds);
    run_clear_step_lists(r);
    free(r->written);
    free(r->read);
    free(r->visits);
    point_regions_free(r);
    free(r->timeline);
    free(r->line_marks);
    run_track_free(r);
    free(r->comm_report);
    memset(r, 0, sizeof *r);
    session_mark_redraw(s, SESSION_REDRAW_SOURCE | SESSION_REDRAW_QUEUES | SESSION_REDRAW_WATCH |
                               SESSION_REDRAW_STATUS);
}

ptodb_status run_start(session *s, int pass)
{
    run_kill(s);
    session_ops(s);
    pass_state *ps = session_load_pass(s, pass);
    if (!ps->module) {
        session_pass_not_checked(s, "run", pass);
        return PTODB_ERR_SYNTAX;
    }
    run_state *r = &s->run;
    if (s->kase.ranks.nranks) {
        /* one machine per rank under the ranks' global schedule (run_ranks.c) */
        for (size_t i = 0; i < s->nbps; i++)
            if (s->bps[i].kind == BP_WATCH)
                bp_watch_reset(&s->bps[i]);
        ptodb_status st = run_ranks_start(s, pass);
        if (st != PTODB_OK) {
            run_kill(s);
            return st;
        }
        if (s->cur_pass != pass) {
            s->cur_pass = pass;
            s->list_line = 0;
        }
        session_mark_redraw(s, SESSION_REDRAW_ALL);
        return PTODB_OK;
    }
    runpass_options ro;
    memset(&ro, 0, sizeof ro);
    session_machine_options(s, &ro.mopt);
    /* the debugger matches values across passes by what they are */
    ro.mopt.provenance = 1;
    ro.ops = session_ops(s);
    session_schedule_options(s, &ro.mopt);
    /* the run's choices are kept (cheap: only where the fixed schedule's differ) */
    ro.record_schedule = 1;
    ro.replay = s->replay;
    runpass_run rp;
    runpass_open(&rp, s->kase.passes[pass].path, ps->module, &s->kase, &ro, run_write_hook, r, RUNPASS_OPEN_DESPITE_REF);
    if (!rp.m) {
        session_errorf(s, "%s", rp.message ? rp.message : "cannot run");
        runpass_close(&rp);
        return PTODB_ERR_RUNTIME;
    }
    if (rp.ref_note)
        session_notify_reference_unavailable(s, pass, rp.ref_note);
    /* the run is the session's now */
    r->prog = rp.prog;
    r->binds = rp.binds;
    r->nbinds = rp.nbinds;
    r->m = rp.m;
    r->sched = rp.sched;
    r->sched_replayed = s->replay != NULL;
    ptodb_status st = rp.start;
    rp.prog = NULL;
    rp.binds = NULL;
    rp.m = NULL;
    rp.sched = NULL;
    runpass_close(&rp);
    r->active = 1;
    r->pass = pass;
    machine_set_read_hook(r->m, stop_needs_reads(s) ? run_read_hook : NULL, r);
    r->core = EXEC_CORE_HOST;
    r->level = 0;
    for (int c = 0; c < EXEC_NCORES; c++)
        r->prev_depth[c] = inspect_depth(r->m, c);
    r->last_mover = -1; /* the run's first moment: no move made it */
    r->last_kind = EXEC_EV_NONE;
    run_note_arrivals(r, -1);
    if (st != PTODB_OK) {
        session_errorf(s, "%s", machine_error(r->m));
        r->failed = 1;
        r->fail_status = st;
        return st;
    }
    if (s->cur_pass != pass) {
        s->cur_pass = pass;
        s->list_line = 0;
    }
    /* Watchpoints start from the values the run starts with: the entry's
     * arguments are bound, not written. */
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        if (b->kind != BP_WATCH)
            continue;
        bp_watch_reset(b);
        stop_watch_prime(s, b);
    }
    session_mark_redraw(s, SESSION_REDRAW_ALL);
    return PTODB_OK;
}

/* ---- validation ---------------------------------------------------------------- */

static pass_result *result_for(session *s, int pass)
{
    if (!s->results)
        s->results = xcalloc(s->kase.npasses, sizeof *s->results);
    return &s->results[pass];
}

static void validate_outputs(session *s)
{
    run_state *r = &s->run;
    pass_result *res = result_for(s, r->pass);
    run_free_result(res);
    res->ran = 1;
    res->nout = (int)s->kase.noutputs;
    res->outputs = xcalloc(res->nout ? (size_t)res->nout : 1, sizeof *res->outputs);
    res->max_abs_diff = xcalloc(res->nout ? (size_t)res->nout : 1, sizeof *res->max_abs_diff);
    res->margin = xcalloc(res->nout ? (size_t)res->nout : 1, sizeof *res->margin);
    res->ok = xcalloc(res->nout ? (size_t)res->nout : 1, sizeof *res->ok);
    run_outputs_report rep = {.pass = r->pass, .noutputs = (size_t)res->nout, .user_modified = r->user_modified};
    run_output_verdict *v = xcalloc(res->nout ? (size_t)res->nout : 1, sizeof *v);
    rep.outputs = v;
    char *note = runpass_run_time_ref_note(s->kase.passes[r->pass].path, r->m); /* the line --run and --batch print */
    rep.ref_note = note;
    int raises;
    /* --semantics=device: where REF differs, as --run and --batch say */
    char *differs = runpass_ref_differs(s->kase.passes[r->pass].path, r->m, &raises);
    rep.ref_differs = differs;
    for (int k = 0; k < res->nout; k++) {
        const case_tensor *o = &s->kase.outputs[k];
        const tensor *act = NULL;
        for (size_t i = 0; i < r->nbinds; i++)
            if (r->binds[i].key && strcmp(r->binds[i].key, o->name) == 0)
                act = r->binds[i].t;
        res->max_abs_diff[k] = NAN;
        res->margin[k] = NAN;
        v[k].key = o->name;
        if (!act) {
            v[k].missing = 1;
            continue;
        }
        res->outputs[k] = tensor_ref((tensor *)act);
        double rtol, atol;
        session_output_tols(s, o, &rtol, &atol);
        exec_compare_result *cr = &v[k].cmp;
        exec_compare(act, o->t, rtol, atol, session_profile(s), session_semantics(s) == EXEC_SEM_DEVICE, cr);
        if (cr->error)
            continue;
        res->max_abs_diff[k] = cr->max_abs_diff;
        res->margin[k] = cr->margin;
        res->ok[k] = cr->pass;
    }
    session_notify_outputs_validated(s, &rep);
    free(v);
    free(note);
    free(differs);
    if (r->user_modified) {
        run_free_result(res);
        res->ran = 0;
    }
    session_mark_redraw(s, SESSION_REDRAW_PASSES | SESSION_REDRAW_HEATMAP);
}

/* ---- the engine --------------------------------------------------------------------- */

static int pass_validated_ok(session *s, int pass)
{
    pass_result *res = result_for(s, pass);
    if (res->memfault)
        return 0;
    for (int k = 0; k < res->nout; k++)
        if (!res->ok[k])
            return 0;
    return 1;
}

static void finish_run(session *s)
{
    run_state *r = &s->run;
    r->finished = 1;
    validate_outputs(s);
    uint64_t faults = machine_mem_faults(r->m);
    result_for(s, r->pass)->memfault = faults != 0 && result_for(s, r->pass)->ran;
    session_notify_pass_finished(s, r->pass, RUN_PASS_FINISHED, machine_steps(r->m), faults);
}

static void fail_run(session *s, ptodb_status st)
{
    run_state *r = &s->run;
    r->failed = 1;
    r->fail_status = st;
    result_for(s, r->pass)->ran = 1;
    result_for(s, r->pass)->failed = 1;
    session_notify_pass_failed(s, r->pass, machine_error(r->m));
    session_mark_redraw(s, SESSION_REDRAW_PASSES);
}

/* Starts the next pass for `continue` after the end of one. Returns 1 when
 * it stopped (pass breakpoint, error), 0 to keep running. */
static int continue_into_next_pass(session *s, int *stopped_ok)
{
    int next = s->run.pass + 1;
    if ((size_t)next >= s->kase.npasses) {
        session_notify_pass_entered(s, -1);
        *stopped_ok = 1;
        return 1;
    }
    if (run_start(s, next) != PTODB_OK) {
        *stopped_ok = 0;
        return 1;
    }
    session_notify_pass_entered(s, next);
    stop_chain c;
    if (stop_chain_build_pass(s, next, 0, &c)) {
        stop_chain_act(s, &c);
        *stopped_ok = 1;
        return 1;
    }
    stop_chain_free(&c);
    return 0;
}

ptodb_status run_go(session *s, run_mode mode, long count, int until_line)
{
    run_state *r = &s->run;
    if (!r->active) {
        session_errorf(s, "The program is not being run.  Use \"run\" or \"start\".");
        return PTODB_ERR_USAGE;
    }
    if (r->failed) {
        session_errorf(s, "The pass stopped with an error.  Use \"run\" to start it again.");
        return PTODB_ERR_USAGE;
    }
    /* a multi-rank pass runs in run_ranks.c; continue from its end comes
     * here for the following passes, as a single-rank run does */
    if (r->ranks && !(r->finished && mode == RUN_CONTINUE))
        return run_ranks_go(s, mode, count, until_line);
    if (r->level == INSPECT_LAST_FRAME) {
        /* looking at a finished core's last frame: the host resumes next */
        r->core = EXEC_CORE_HOST;
        r->level = 0;
    }
    if (r->finished && mode != RUN_CONTINUE) {
        session_errorf(s, "The pass has finished.  Use \"run\", or \"continue\" for the next pass.");
        return PTODB_ERR_USAGE;
    }
    if (count < 1)
        count = 1;
    stop_snapshot before = {0}, after = {0};
    int value_bps = stop_needs_values(s), positions = stop_needs_positions(s);
    /* operands are reported only while a read or access watchpoint is set */
    if (r->m)
        machine_set_read_hook(r->m, stop_needs_reads(s) ? run_read_hook : NULL, r);
    long done = 0;
    unsigned long polls = 0;
    ptodb_status result = PTODB_OK;
    /* continue from inside a pass stops at its end; continue from the end of
     * a pass runs the following passes until one fails or a breakpoint. */
    int across_passes = r->finished;
    int target = r->core;
    int d0 = r->m ? inspect_depth(r->m, target) : 0;
    /* gdb's finish runs until the selected frame returns: frame LEVEL is
     * LEVEL calls above the innermost */
    int finish_level = mode == RUN_FINISH && r->level > 0 ? r->level : 0;
    d0 -= finish_level;
    inspect_frame fin;
    if (mode == RUN_FINISH && r->m && inspect_frame_get(r->m, target, finish_level, &fin))
        /* as gdb, before it runs (a breakpoint may stop it first) */
        session_notify_finish_started(s, finish_level, &fin);
    inspect_frame start;
    int start_line = r->m && inspect_frame_get(r->m, target, 0, &start) ? start.line : 0;
    stop_chain chain;
    for (;;) {
        if (r->finished) {
            /* continue: on to the following passes */
            int ok;
            if (continue_into_next_pass(s, &ok)) {
                result = ok ? PTODB_OK : PTODB_ERR_RUNTIME;
                goto out;
            }
            across_passes = 1;
            if (r->ranks) {
                /* the ranks' pass to its end, a breakpoint or an error */
                result = run_ranks_go(s, RUN_CONTINUE, 1, 0);
                if (result != PTODB_OK || !r->finished || !r->ranks_end_clean)
                    goto out;
                continue;
            }
            target = r->core;
            d0 = inspect_depth(r->m, target);
            if (value_bps)
                stop_snapshot_take(r->m, &after);
            continue;
        }
        if (s->poll && (++polls & 4095) == 0) {
            char progress[160];
            snprintf(progress, sizeof progress, "pass %d %s: %" PRIu64 " statements",
                     s->kase.passes[r->pass].index, s->kase.passes[r->pass].name, machine_steps(r->m));
            s->poll(s->poll_ctx, progress);
        }
        if (s->interrupted) {
            s->interrupted = 0;
            session_notify_run_interrupted(s);
            stop_chain_plain(&chain, r->core);
            stop_chain_act(s, &chain);
            goto out;
        }
        if (value_bps) {
            stop_snapshot t = before;
            before = after;
            after = t;
            if (!before.n)
                stop_snapshot_take(r->m, &before);
        }
        run_clear_step_lists(r);
        /* Where each core is before the step: conditions on what a
         * statement produced and watchpoints name the statement that ran. */
        stop_step step = {0};
        inspect_frame where[EXEC_NCORES];
        for (int c = 0; positions && c < EXEC_NCORES; c++)
            if (inspect_frame_get(r->m, c, 0, &where[c]))
                step.was[c] = &where[c];
        int target_ready = inspect_core(r->m, target) == INSPECT_CORE_READY;
        exec_event ev;
        /* behind the recorded history's end the step follows it (timetravel.h) */
        ptodb_status st = tt_step(s, mode != RUN_CONTINUE && mode != RUN_UNTIL && target_ready ? target : -1, &ev);
        if (st != PTODB_OK || ev.kind == EXEC_EV_ERROR) {
            result = st != PTODB_OK ? st : PTODB_ERR_RUNTIME;
            fail_run(s, result);
            goto out;
        }
        if (ev.kind == EXEC_EV_DONE || machine_finished(r->m)) {
            finish_run(s);
            int bp = stop_chain_build_pass(s, r->pass, 1, &chain);
            if (bp)
                stop_chain_act(s, &chain);
            else
                stop_chain_free(&chain);
            if (bp || mode != RUN_CONTINUE || !across_passes || !pass_validated_ok(s, r->pass))
                goto out;
            continue;
        }
        if (value_bps)
            stop_snapshot_take(r->m, &after);
        /* Which cores moved: the stepped one, and any that entered a frame. */
        step.core = ev.core;
        step.stmt_done = ev.kind == EXEC_EV_STMT || ev.kind == EXEC_EV_RETURN;
        for (int c = 0; c < EXEC_NCORES; c++) {
            int depth = inspect_depth(r->m, c);
            step.entered[c] = depth > r->prev_depth[c];
            r->prev_depth[c] = depth;
        }
        step.before = value_bps ? &before : NULL;
        step.after = value_bps ? &after : NULL;
        step.until_line = mode == RUN_UNTIL ? until_line : 0;
        if (stop_chain_build(s, &step, &chain)) {
            r->core = chain.core;
            r->level = 0;
            stop_chain_act(s, &chain);
            goto out;
        }
        stop_chain_free(&chain);
        int finished_stmt = ev.kind == EXEC_EV_STMT || ev.kind == EXEC_EV_CALL ||
                            ev.kind == EXEC_EV_RETURN || ev.kind == EXEC_EV_FINISHED;
        int hit = 0;
        switch (mode) {
        case RUN_STEP:
            if (!target_ready && ev.core != target) {
                /* The selected core waits (a group call, an empty queue):
                 * stepping follows the core that ran. */
                session_notify_core_switched(s, -1, ev.core);
                target = r->core = ev.core;
                hit = finished_stmt;
            } else {
                hit = ev.core == target && finished_stmt;
            }
            break;
        case RUN_NEXT:
            hit = ev.core == target && finished_stmt && inspect_depth(r->m, target) <= d0;
            if (ev.core == target && ev.kind == EXEC_EV_FINISHED)
                hit = 1;
            break;
        case RUN_FINISH:
            if (inspect_depth(r->m, target) < d0) {
                hit = 1;
                count = 1;
            }
            break;
        case RUN_UNTIL_NEXT: {
            /* gdb's until: next, but never back to an earlier line of this
             * frame (a loop runs to its end), or out of the frame */
            int depth = inspect_depth(r->m, target);
            if (ev.core == target && (ev.kind == EXEC_EV_FINISHED || depth < d0)) {
                hit = 1;
            } else if (ev.core == target && finished_stmt && depth == d0) {
                inspect_frame g;
                hit = inspect_frame_get(r->m, target, 0, &g) && g.line > start_line;
            }
            break;
        }
        case RUN_UNTIL:
            /* until/advance LOCATION also stop when the current frame returns */
            if (d0 > 0 && inspect_depth(r->m, target) < d0) {
                hit = 1;
                count = 1;
            }
            break;
        default:
            break;
        }
        if (hit && ++done >= count) {
            if (inspect_depth(r->m, target) == 0 && target != EXEC_CORE_HOST) {
                /* The core ended: show the host, which resumes next. */
                session_notify_core_finished(s, -1, target);
                r->core = EXEC_CORE_HOST;
            }
            r->level = 0;
            stop_chain_plain(&chain, r->core);
            stop_chain_act(s, &chain);
            goto out;
        }
    }
out:
    stop_snapshot_free(&before);
    stop_snapshot_free(&after);
    session_mark_redraw(s, SESSION_REDRAW_SOURCE | SESSION_REDRAW_QUEUES | SESSION_REDRAW_WATCH |
                               SESSION_REDRAW_STATUS);
    return result;
}

ptodb_status run_begin(session *s, int pass, int stop_at_start)
{
    ptodb_status st = run_start(s, pass);
    if (st != PTODB_OK)
        return st;
    run_state *r = &s->run;
    stop_chain c;
    if (stop_chain_build_pass(s, pass, 0, &c)) {
        stop_chain_act(s, &c);
        return PTODB_OK;
    }
    stop_chain_free(&c);
    if (r->ranks) /* no rank stands at a statement yet: start stops at the first task's first */
        return run_ranks_go(s, stop_at_start ? RUN_STEP : RUN_CONTINUE, 1, 0);
    /* the entry's first statement: line and function breakpoints there */
    stop_step step = {.core = r->core};
    step.entered[r->core] = 1;
    if (stop_chain_build(s, &step, &c) || stop_at_start) {
        if (!c.stopped)
            stop_chain_plain(&c, r->core);
        stop_chain_act(s, &c);
        return PTODB_OK;
    }
    stop_chain_free(&c);
    return run_go(s, RUN_CONTINUE, 1, 0);
}

/* Running a multi-rank pass under the debugger (docs/multirank.md,
 * "Debugging"): the ranks' schedule (ranks/sched.h) stepped one statement
 * at a time, the same global schedule --batch runs. Every step's stops are
 * decided on the machine of the rank that ran (breakpoints and watchpoints
 * with `rank N` only on that rank); step, next, finish and until count the
 * selected rank's selected core. A watchpoint also looks at the other
 * ranks after a step that wrote (a remote store lands in a peer's window).
 * The end of the pass runs the --batch checks (races, signals left
 * non-zero) and compares every rank's outputs.
 *
 * The run's time is its count of moves (ranks_sched_step calls that ran a
 * statement or started a task). The schedule is deterministic for given
 * options, so going to move N (time travel, timetravel.c) makes a fresh
 * schedule with the run's options and moves it N times: rr's replay
 * without checkpoints, each jump back costing the moves from the pass's
 * start. The debugger's per-rank tables (depths, parked marks, arrivals for
 * positions, the timeline) are re-derived along the replay. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "debug/run/record.h"
#include "debug/run/queue_track.h"
#include "debug/run/run_ranks.h"
#include "debug/state/session_impl.h"
#include "debug/run/stop.h"
#include "debug/run/timeline.h"
#include "exec/compare.h"
#include "exec/inspect.h"
#include "exec/snapshot.h"
#include "ranks/run.h"
#include "ranks/sched.h"

/* The frames of every rank's cores before a step (conditions on what a
 * statement produced and watchpoints name the statement that ran). */
struct rank_where {
    inspect_frame f[EXEC_NCORES];
    int has[EXEC_NCORES];
};

/* Per rank: the arrivals run_note_arrivals counts (a position's ITER,
 * point.c), kept in run_state's fields for the rank whose machine r->m is
 * and here for the others. */
struct rank_arrivals {
    struct visit *visits;
    size_t nvisits, capvisits;
    int note_depth[EXEC_NCORES];
    uint32_t note_activation[EXEC_NCORES];
    uint64_t note_steps[EXEC_NCORES];
    uint64_t arrive_step[EXEC_NCORES];
    struct point_regions *regions;
};

void run_ranks_free(run_state *r)
{
    if (!r->ranks)
        return;
    int P = ranks_sched_nranks(r->ranks);
    for (int k = 0; r->rank_snaps && k < P; k++)
        stop_snapshot_free(&r->rank_snaps[k]);
    free(r->rank_snaps);
    free(r->rank_depth);
    free(r->rank_verdict);
    free(r->rank_parked);
    free(r->rank_where);
    free(r->rank_opts);
    for (int k = 0; r->rank_arrivals && k < P; k++)
        if (k != r->arrivals_rank) { /* the loaded rank's are run_state's own, freed with it */
            free(r->rank_arrivals[k].visits);
            point_regions_drop(r->rank_arrivals[k].regions);
        }
    free(r->rank_arrivals);
    r->rank_arrivals = NULL;
    r->rank_where = NULL;
    r->rank_opts = NULL;
    r->rank_parked = NULL;
    r->rank_snaps = NULL;
    r->rank_depth = NULL;
    r->rank_verdict = NULL;
    ranks_sched_free(r->ranks); /* the rank machines are the schedule's */
    r->ranks = NULL;
    r->m = NULL;
}

static void rank_write_hook(void *ud, int rank, int core, const tensor *t)
{
    (void)rank;
    run_write_hook(ud, core, t);
}

static void rank_read_hook(void *ud, int rank, int core, const tensor *t)
{
    (void)rank;
    run_read_hook(ud, core, t);
}

static void set_hooks(session *s)
{
    run_state *r = &s->run;
    ranks_sched_set_hooks(r->ranks, rank_write_hook, stop_needs_reads(s) ? rank_read_hook : NULL, r);
}

static void arrivals_load(run_state *r, int k)
{
    if (!r->rank_arrivals || r->arrivals_rank == k)
        return;
    if (r->arrivals_rank >= 0) {
        struct rank_arrivals *a = &r->rank_arrivals[r->arrivals_rank];
        a->visits = r->visits;
        a->nvisits = r->nvisits;
        a->capvisits = r->capvisits;
        memcpy(a->note_depth, r->note_depth, sizeof a->note_depth);
        memcpy(a->note_activation, r->note_activation, sizeof a->note_activation);
        memcpy(a->note_steps, r->note_steps, sizeof a->note_steps);
        memcpy(a->arrive_step, r->arrive_step, sizeof a->arrive_step);
        a->regions = r->regions;
    }
    struct rank_arrivals *b = &r->rank_arrivals[k];
    r->visits = b->visits;
    r->nvisits = b->nvisits;
    r->capvisits = b->capvisits;
    memcpy(r->note_depth, b->note_depth, sizeof r->note_depth);
    memcpy(r->note_activation, b->note_activation, sizeof r->note_activation);
    memcpy(r->note_steps, b->note_steps, sizeof r->note_steps);
    memcpy(r->arrive_step, b->arrive_step, sizeof r->arrive_step);
    r->regions = b->regions;
    memset(b, 0, sizeof *b);
    r->arrivals_rank = k;
}

/* r->m, the arrivals and the watchpoints' remembered values become rank k's. */
static void use_rank(session *s, int k)
{
    run_state *r = &s->run;
    arrivals_load(r, k);
    r->m = ranks_sched_machine(r->ranks, k);
    r->step_rank = k;
    stop_watch_load_rank(s, k);
}

ptodb_status run_ranks_start(session *s, int pass)
{
    run_state *r = &s->run;
    pass_state *ps = session_load_pass(s, pass);
    const char *path = s->kase.passes[pass].path;
    diag_sink sink;
    diag_sink_init(&sink, 20);
    xprogram *p = NULL;
    if (exec_program_build(ps->module, session_ops(s), &p, &sink) != PTODB_OK) {
        session_print_diags(s, &sink);
        diag_sink_free(&sink);
        return PTODB_ERR_RUNTIME;
    }
    diag_sink_free(&sink);
    runpass_result res;
    memset(&res, 0, sizeof res);
    if (!ranks_program_runnable(path, p, &res)) {
        session_errorf(s, "%s", res.message);
        runpass_result_free(&res);
        exec_program_free(p);
        return PTODB_ERR_UNSUPPORTED;
    }
    if (res.ref_note)
        session_notify_reference_unavailable(s, pass, res.ref_note);
    runpass_result_free(&res);
    runpass_options ro;
    memset(&ro, 0, sizeof ro);
    session_machine_options(s, &ro.mopt);
    /* the choices --batch's --schedule and --comm-order make */
    session_schedule_options(s, &ro.mopt);
    ro.comm_ready_order = strcmp(session_get_string(s, SETTING_COMM_ORDER), "ready") == 0;
    ro.ops = session_ops(s);
    strbuf err = STRBUF_INIT;
    runpass_status why;
    r->prog = p;
    r->ranks = ranks_sched_new(path, p, &s->kase, &ro, &err, &why);
    if (!r->ranks) {
        session_errorf(s, "%s", strbuf_str(&err));
        strbuf_free(&err);
        return PTODB_ERR_RUNTIME;
    }
    strbuf_free(&err);
    r->rank_opts = xmalloc(sizeof *r->rank_opts); /* a jump back makes the schedule again with these */
    *r->rank_opts = ro;
    int P = ranks_sched_nranks(r->ranks);
    r->rank_depth = xcalloc((size_t)P, sizeof *r->rank_depth);
    r->rank_snaps = xcalloc((size_t)P, sizeof *r->rank_snaps);
    r->rank_verdict = xcalloc((size_t)P, 1);
    r->rank_parked = xcalloc((size_t)P, 1);
    r->rank_where = xcalloc((size_t)P, sizeof *r->rank_where);
    r->rank_arrivals = xcalloc((size_t)P, sizeof *r->rank_arrivals);
    r->arrivals_rank = -1;
    memset(r->rank_verdict, -1, (size_t)P);
    r->active = 1;
    r->pass = pass;
    r->rank = 0;
    r->core = EXEC_CORE_HOST;
    r->level = 0;
    r->last_mover = -1;
    r->last_kind = EXEC_EV_NONE;
    use_rank(s, 0);
    set_hooks(s);
    return PTODB_OK;
}

void run_ranks_prime_watch(session *s, breakpoint *b)
{
    run_state *r = &s->run;
    for (int q = 0; q < ranks_sched_nranks(r->ranks); q++) {
        if (b->rank >= 0 && b->rank != q)
            continue;
        use_rank(s, q);
        stop_watch_prime(s, b);
    }
    use_rank(s, r->rank);
}

ptodb_status run_ranks_select(session *s, int rank)
{
    run_state *r = &s->run;
    if (!r->active || !r->ranks) {
        session_errorf(s, "The program is not being run.");
        return PTODB_ERR_USAGE;
    }
    int P = ranks_sched_nranks(r->ranks);
    if (rank < 0 || rank >= P) {
        session_errorf(s, "No rank %d: this case has ranks 0 to %d.", rank, P - 1);
        return PTODB_ERR_USAGE;
    }
    r->rank = rank;
    use_rank(s, rank);
    r->level = 0;
    r->core = EXEC_CORE_HOST;
    for (int c = 0; c < EXEC_NCORES; c++)
        if (inspect_depth(r->m, c) > 0 && inspect_core(r->m, c) == INSPECT_CORE_READY) {
            r->core = c;
            break;
        }
    session_notify_rank_switched(s, rank);
    session_mark_redraw(s, SESSION_REDRAW_SOURCE | SESSION_REDRAW_QUEUES | SESSION_REDRAW_WATCH |
                               SESSION_REDRAW_STATUS);
    return PTODB_OK;
}

/* The end of the pass: the --batch checks, then every rank's outputs: 1
 * every output passed, 0 a check or an output failed, -1 no golden output
 * to compare. */
static int finish(session *s)
{
    run_state *r = &s->run;
    run_outputs_report rep = {.pass = r->pass};
    strbuf out = STRBUF_INIT;
    int bad = ranks_sched_end_checks(r->ranks, &out);
    if (bad) {
        rep.checks_failed = strbuf_str(&out);
        session_notify_outputs_validated(s, &rep);
        strbuf_free(&out);
        return 0;
    }
    strbuf_free(&out);
    runpass_result res;
    memset(&res, 0, sizeof res);
    ranks_sched_compare(r->ranks, &res);
    int P = ranks_sched_nranks(r->ranks);
    run_output_verdict *v = xcalloc(res.noutputs ? res.noutputs : 1, sizeof *v);
    for (size_t i = 0; i < res.noutputs; i++) {
        const runpass_output *o = &res.outputs[i];
        int k = atoi(o->key + 4); /* "rank<R>.name" */
        if (k >= 0 && k < P) {
            int ok = !o->cmp.error && o->cmp.pass;
            r->rank_verdict[k] = r->rank_verdict[k] < 0 ? ok : r->rank_verdict[k] && ok;
        }
        v[i].key = o->key;
        v[i].cmp = o->cmp;
    }
    rep.outputs = v;
    rep.noutputs = res.noutputs;
    session_notify_outputs_validated(s, &rep);
    free(v);
    int all = res.noutputs ? res.all_pass : -1;
    runpass_result_free(&res);
    return all;
}

void run_ranks_move(session *s, int decide, int until_line, run_ranks_step *mv, strbuf *err)
{
    run_state *r = &s->run;
    int P = ranks_sched_nranks(r->ranks);
    int sel = r->rank;
    int value_bps = decide && stop_needs_values(s), positions = decide && stop_needs_positions(s);
    int watches = 0;
    for (size_t i = 0; decide && i < s->nbps; i++)
        watches |= s->bps[i].enabled && s->bps[i].kind == BP_WATCH;
    struct rank_where *where = positions ? r->rank_where : NULL;
    mv->stopped = 0;
    mv->started = 0;
    run_clear_step_lists(r);
    for (int k = 0; where && k < P; k++)
        for (int c = 0; c < EXEC_NCORES; c++)
            where[k].has[c] = inspect_frame_get(ranks_sched_machine(r->ranks, k), c, 0, &where[k].f[c]);
    int k;
    exec_event *ev = &mv->ev;
    unsigned faults = ranks_world_faults(ranks_sched_world(r->ranks));
    mv->st = ranks_sched_step(r->ranks, &k, ev, err);
    faults = ranks_world_faults(ranks_sched_world(r->ranks)) & ~faults; /* this step's */
    mv->rank = k;
    if (mv->st == RANKS_STEP_ERROR || mv->st == RANKS_STEP_DEADLOCK || mv->st == RANKS_STEP_DONE) {
        use_rank(s, r->rank);
        return;
    }
    if (mv->st == RANKS_STEP_PARKED) { /* nothing moved: the timeline shows where it waits, once */
        if (ev->kind == EXEC_EV_BLOCKED && !r->rank_parked[k]) {
            r->rank_parked[k] = 1;
            run_timeline_note_rank(s, k, -1, ev);
        }
        return;
    }
    r->rank_moves++;
    if (r->rank_moves > r->rank_horizon)
        r->rank_horizon = r->rank_moves;
    r->rank_parked[k] = 0;
    machine *m = ranks_sched_machine(r->ranks, k);
    use_rank(s, k);
    r->rank_last_mover = k;
    int notifier = ranks_world_take_acquired(ranks_sched_world(r->ranks), k);
    if (ev->kind != EXEC_EV_NONE)
        run_timeline_note_rank(s, k, notifier, ev);
    run_note_arrivals(r, ev->kind == EXEC_EV_NONE ? -1 : ev->core);
    stop_snapshot after = {0};
    if (value_bps) /* before: the rank's snapshot after its last step (empty before its first) */
        stop_snapshot_take(m, &after);
    stop_step step = {0};
    step.core = ev->kind == EXEC_EV_NONE ? -1 : ev->core;
    step.stmt_done = ev->kind == EXEC_EV_STMT || ev->kind == EXEC_EV_RETURN;
    for (int c = 0; c < EXEC_NCORES; c++) {
        int depth = inspect_depth(m, c);
        step.entered[c] = depth > r->rank_depth[k][c];
        r->rank_depth[k][c] = depth;
        step.was[c] = where && where[k].has[c] ? &where[k].f[c] : NULL;
    }
    mv->started = ev->kind == EXEC_EV_NONE && step.entered[EXEC_CORE_HOST];
    r->rank_last_core = mv->started ? EXEC_CORE_HOST : ev->core;
    r->last_mover = r->rank_last_core;
    r->last_kind = mv->started ? RUN_KIND_STARTED : (int)ev->kind;
    if (!decide) {
        use_rank(s, r->rank);
        return;
    }
    stop_chain *chain = &mv->chain;
    step.before = value_bps ? &r->rank_snaps[k] : NULL;
    step.after = value_bps ? &after : NULL;
    step.until_line = k == sel ? until_line : 0;
    step.comm_faults = faults;
    /* the stop is decided with the stepping rank's core as the selected one */
    int saved_core = r->core;
    if (k != sel)
        r->core = step.core >= 0 ? step.core : EXEC_CORE_HOST;
    int stopped = stop_chain_build(s, &step, chain);
    if (!stopped && watches && r->nwritten) {
        /* a remote store or put of this step may have changed a peer's watched window */
        stop_chain_free(chain);
        for (int q = 0; q < P && !stopped; q++) {
            if (q == k)
                continue;
            use_rank(s, q);
            stopped = stop_chain_build_watches(s, chain);
            if (!stopped)
                stop_chain_free(chain);
        }
        use_rank(s, k);
        if (stopped) { /* the statement that wrote is the stop's */
            int wc = step.core >= 0 ? step.core : 0;
            chain->core = step.core >= 0 ? step.core : EXEC_CORE_HOST;
            chain->writer_core = step.core;
            chain->writer_line = step.was[wc] ? step.was[wc]->line : ev->line;
            chain->writer_func = ev->func;
        }
    }
    r->core = saved_core;
    if (value_bps) {
        stop_snapshot_free(&r->rank_snaps[k]);
        r->rank_snaps[k] = after;
    }
    if (stopped) { /* rank k's machine stays the current one: the stop is reported on it */
        mv->stopped = 1;
        return;
    }
    stop_chain_free(chain);
    use_rank(s, r->rank);
}

/* The running pass's schedule from its start again: a fresh schedule with
 * the run's options (deterministic: the same moves follow) and the
 * per-rank tables as run_ranks_start makes them. 0, or -1 with a message
 * when the schedule cannot be made (it was made once: not expected). */
static int restart(session *s)
{
    run_state *r = &s->run;
    strbuf err = STRBUF_INIT;
    runpass_status why;
    ranks_sched *fresh = ranks_sched_new(s->kase.passes[r->pass].path, r->prog, &s->kase, r->rank_opts, &err, &why);
    if (!fresh) {
        session_errorf(s, "%s", strbuf_str(&err));
        strbuf_free(&err);
        return -1;
    }
    strbuf_free(&err);
    int P = ranks_sched_nranks(fresh);
    run_clear_step_lists(r);
    /* the arrivals: every rank's from zero (the loaded rank's are run_state's) */
    for (int k = 0; k < P; k++) {
        if (k != r->arrivals_rank) {
            free(r->rank_arrivals[k].visits);
            point_regions_drop(r->rank_arrivals[k].regions);
        }
        memset(&r->rank_arrivals[k], 0, sizeof r->rank_arrivals[k]);
        stop_snapshot_free(&r->rank_snaps[k]);
    }
    free(r->visits);
    r->visits = NULL;
    r->nvisits = r->capvisits = 0;
    point_regions_free(r);
    memset(r->note_depth, 0, sizeof r->note_depth);
    memset(r->note_activation, 0, sizeof r->note_activation);
    memset(r->note_steps, 0, sizeof r->note_steps);
    memset(r->arrive_step, 0, sizeof r->arrive_step);
    r->arrivals_rank = -1;
    memset(r->rank_depth, 0, (size_t)P * sizeof *r->rank_depth);
    memset(r->rank_parked, 0, (size_t)P);
    memset(r->rank_verdict, -1, (size_t)P);
    /* the watchpoints' remembered values name the old machines' tensors */
    for (size_t i = 0; i < s->nbps; i++)
        if (s->bps[i].kind == BP_WATCH)
            bp_watch_reset(&s->bps[i]);
    ranks_sched_free(r->ranks);
    r->ranks = fresh;
    r->rank_moves = 0;
    r->rank_last_mover = 0;
    r->rank_last_core = EXEC_CORE_HOST;
    r->finished = r->failed = r->ranks_end_clean = 0;
    r->fail_status = PTODB_OK;
    r->last_bp = 0;
    r->ntimeline = 0; /* noted again along the replay */
    run_track_free(r);
    use_rank(s, r->rank);
    set_hooks(s);
    return 0;
}

int run_ranks_goto(session *s, uint64_t n)
{
    run_state *r = &s->run;
    if (n < r->rank_moves || r->failed || r->finished) {
        if (n == r->rank_moves && !r->failed)
            return 0;
        if (restart(s) != 0)
            return 1;
    }
    int rc = 0;
    unsigned long polls = 0;
    /* no hooks while replaying: no stop is decided */
    ranks_sched_set_hooks(r->ranks, NULL, NULL, r);
    while (r->rank_moves < n) {
        if (s->interrupted) {
            rc = -1;
            break;
        }
        if (s->poll && (++polls & 4095) == 0) {
            char progress[160];
            snprintf(progress, sizeof progress, "pass %d %s: move %" PRIu64 " of %" PRIu64 " (seeking)",
                     s->kase.passes[r->pass].index, s->kase.passes[r->pass].name, r->rank_moves, n);
            s->poll(s->poll_ctx, progress);
        }
        if (!run_ranks_advance(s)) {
            rc = 1;
            break;
        }
    }
    run_clear_step_lists(r);
    set_hooks(s);
    /* value breakpoints compare with each rank's bindings as they are now */
    if (stop_needs_values(s))
        for (int k = 0; k < ranks_sched_nranks(r->ranks); k++) {
            stop_snapshot_free(&r->rank_snaps[k]);
            stop_snapshot_take(ranks_sched_machine(r->ranks, k), &r->rank_snaps[k]);
        }
    use_rank(s, r->rank);
    return rc;
}

int run_ranks_advance(session *s)
{
    run_state *r = &s->run;
    strbuf err = STRBUF_INIT;
    run_ranks_step mv;
    run_ranks_move(s, 0, 0, &mv, &err);
    strbuf_free(&err);
    if (mv.st == RANKS_STEP_ERROR || mv.st == RANKS_STEP_DEADLOCK) {
        r->failed = 1;
        r->fail_status = mv.st == RANKS_STEP_DEADLOCK ? PTODB_ERR_DEADLOCK : PTODB_ERR_RUNTIME;
        return 0;
    }
    if (mv.st == RANKS_STEP_DONE) {
        r->finished = 1;
        return 0;
    }
    return 1;
}

void run_ranks_use(session *s, int rank)
{
    use_rank(s, rank);
}

void run_ranks_watch_reprime(session *s)
{
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        if (b->kind != BP_WATCH)
            continue;
        bp_watch_reset(b);
        run_ranks_prime_watch(s, b);
    }
}

uint64_t run_ranks_state_hash(session *s)
{
    run_state *r = &s->run;
    uint64_t h = 1469598103934665603ull;
    for (int k = 0; r->ranks && k < ranks_sched_nranks(r->ranks); k++)
        h = (h ^ machine_state_hash(ranks_sched_machine(r->ranks, k))) * 1099511628211ull;
    return h;
}

ptodb_status run_ranks_go(session *s, run_mode mode, long count, int until_line)
{
    run_state *r = &s->run;
    if (r->finished) {
        session_errorf(s, "The pass has finished.  Use \"run\", or \"continue\" for the next pass.");
        return PTODB_ERR_USAGE;
    }
    if (r->level == INSPECT_LAST_FRAME)
        r->level = 0;
    int sel = r->rank, target = r->core;
    machine *selm = ranks_sched_machine(r->ranks, sel);
    int finish_level = mode == RUN_FINISH && r->level > 0 ? r->level : 0;
    int d0 = inspect_depth(selm, target) - finish_level;
    inspect_frame fin;
    if (mode == RUN_FINISH && inspect_frame_get(selm, target, finish_level, &fin))
        session_notify_finish_started(s, finish_level, &fin);
    inspect_frame start;
    int start_line = inspect_frame_get(selm, target, 0, &start) ? start.line : 0;
    set_hooks(s);
    ptodb_status result = PTODB_OK;
    long done = 0;
    unsigned long polls = 0;
    stop_chain chain;
    strbuf err = STRBUF_INIT;
    for (;;) {
        if (s->poll && (++polls & 4095) == 0) {
            char progress[160];
            snprintf(progress, sizeof progress, "pass %d %s: %" PRIu64 " statements",
                     s->kase.passes[r->pass].index, s->kase.passes[r->pass].name, ranks_sched_steps(r->ranks));
            s->poll(s->poll_ctx, progress);
        }
        if (s->interrupted) {
            s->interrupted = 0;
            session_notify_run_interrupted(s);
            use_rank(s, r->rank);
            stop_chain_plain(&chain, r->core);
            stop_chain_act(s, &chain);
            goto out;
        }
        int target_ready = inspect_core(selm, target) == INSPECT_CORE_READY && inspect_depth(selm, target) > 0;
        run_ranks_step mv;
        run_ranks_move(s, 1, mode == RUN_UNTIL ? until_line : 0, &mv, &err);
        if (mv.st == RANKS_STEP_ERROR || mv.st == RANKS_STEP_DEADLOCK) {
            r->failed = 1;
            session_notify_pass_failed(s, r->pass, strbuf_str(&err));
            result = mv.st == RANKS_STEP_DEADLOCK ? PTODB_ERR_DEADLOCK : PTODB_ERR_RUNTIME;
            goto out;
        }
        if (mv.st == RANKS_STEP_DONE) {
            r->finished = 1;
            int ok = finish(s);
            session_notify_pass_finished(s, r->pass,
                                         ok > 0    ? RUN_PASS_FINISHED
                                         : ok == 0 ? RUN_PASS_FINISHED_FAILURES
                                                   : RUN_PASS_FINISHED_NO_GOLDEN,
                                         ranks_sched_steps(r->ranks), 0);
            session_mark_redraw(s, SESSION_REDRAW_PASSES);
            int bp = stop_chain_build_pass(s, r->pass, 1, &chain);
            if (bp)
                stop_chain_act(s, &chain);
            else
                stop_chain_free(&chain);
            r->ranks_end_clean = ok != 0 && !bp;
            goto out;
        }
        if (mv.st == RANKS_STEP_PARKED)
            continue;
        if (mv.stopped) {
            r->rank = mv.rank;
            r->core = mv.chain.core >= 0 ? mv.chain.core : EXEC_CORE_HOST;
            r->level = 0;
            stop_chain_act(s, &mv.chain);
            goto out;
        }
        if (mv.rank != sel)
            continue;
        const exec_event ev = mv.ev;
        int started = mv.started;
        int finished_stmt = ev.kind == EXEC_EV_STMT || ev.kind == EXEC_EV_CALL || ev.kind == EXEC_EV_RETURN ||
                            ev.kind == EXEC_EV_FINISHED || started;
        int ev_core = started ? EXEC_CORE_HOST : ev.core;
        int hit = 0;
        switch (mode) {
        case RUN_STEP:
            if (!target_ready && ev_core != target && finished_stmt) {
                session_notify_core_switched(s, sel, ev_core);
                target = r->core = ev_core;
                hit = 1;
            } else {
                hit = ev_core == target && finished_stmt;
            }
            break;
        case RUN_NEXT:
            if (d0 <= 0) /* the rank was between tasks: its next statement */
                hit = finished_stmt;
            else
                hit = (ev_core == target && finished_stmt && inspect_depth(selm, target) <= d0) ||
                      (ev_core == target && ev.kind == EXEC_EV_FINISHED);
            if (hit && ev_core != target)
                target = r->core = ev_core;
            break;
        case RUN_FINISH:
            if (inspect_depth(selm, target) < d0) {
                hit = 1;
                count = 1;
            }
            break;
        case RUN_UNTIL_NEXT: {
            int depth = inspect_depth(selm, target);
            if (ev_core == target && (ev.kind == EXEC_EV_FINISHED || depth < d0)) {
                hit = 1;
            } else if (ev_core == target && finished_stmt && depth == d0) {
                inspect_frame g;
                hit = inspect_frame_get(selm, target, 0, &g) && g.line > start_line;
            }
            break;
        }
        case RUN_UNTIL:
            if (d0 > 0 && inspect_depth(selm, target) < d0) {
                hit = 1;
                count = 1;
            }
            break;
        default:
            break;
        }
        if (hit && ++done >= count) {
            if (inspect_depth(selm, target) == 0 && target != EXEC_CORE_HOST) {
                session_notify_core_finished(s, sel, target);
                r->core = EXEC_CORE_HOST;
            }
            r->level = 0;
            stop_chain_plain(&chain, r->core);
            stop_chain_act(s, &chain);
            goto out;
        }
    }
out:
    strbuf_free(&err);
    session_mark_redraw(s, SESSION_REDRAW_SOURCE | SESSION_REDRAW_QUEUES | SESSION_REDRAW_WATCH |
                               SESSION_REDRAW_STATUS);
    return result;
}

int run_ranks_row(session *s, int k, run_rank_row *row, strbuf *wait)
{
    run_state *r = &s->run;
    if (!r->active || !r->ranks || k < 0 || k >= ranks_sched_nranks(r->ranks))
        return 0;
    ranks_world *w = ranks_sched_world(r->ranks);
    memset(row, 0, sizeof *row);
    row->state = ranks_sched_rank_state(r->ranks, k);
    row->verdict = r->rank_verdict[k];
    row->pending = ranks_world_pending(w, k);
    machine *m = ranks_sched_machine(r->ranks, k);
    inspect_frame f;
    const exec_event *last = ranks_sched_last_event(r->ranks, k);
    if (row->state == RANKS_RANK_RUNNING) {
        for (int c = 0; c < EXEC_NCORES; c++)
            if (inspect_frame_get(m, c, 0, &f) && inspect_core(m, c) == INSPECT_CORE_READY) {
                row->located = 1;
                row->func = f.func;
                row->line = f.line;
                row->core = c;
                break;
            }
    } else if (row->state == RANKS_RANK_PARKED && last->line) {
        row->located = 1;
        row->func = last->func ? last->func : "?";
        row->line = last->line;
        row->core = last->core;
    }
    row->waits = row->state == RANKS_RANK_PARKED && ranks_world_describe_wait(w, k, wait);
    return 1;
}

size_t run_ranks_signals(session *s, ranks_signal_cell *cells, size_t max)
{
    run_state *r = &s->run;
    return r->ranks ? ranks_world_signal_cells(ranks_sched_world(r->ranks), cells, max) : 0;
}

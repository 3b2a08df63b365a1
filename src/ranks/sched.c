/* The global schedule of a multi-rank pass, one step at a time: see
 * sched.h. */
#include "config.h"

#include "ranks/sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "exec/compare.h"

typedef struct rank_state {
    ranks_sched *s;
    int rank;
    machine *m;
    int running;  /* a CALL task started on m */
    int finished; /* its FIFO ran dry */
    int parked;   /* its last attempt parked */
    exec_event last; /* the last event, for reports */
} rank_state;

struct ranks_sched {
    const char *path;
    const case_info *c;
    const xprogram *p;
    int random;
    uint64_t rng;
    exec_profile_id profile;
    int nan_dont_care; /* device semantics: NaN golden elements are don't care */
    ranks_world *w;
    machine *host;
    rank_state *rs;
    int P;
    case_param *params;
    case_rank_binding *b;
    size_t np;
    uint64_t host_steps;
    ranks_tensor_hook on_write, on_read;
    void *hook_ud;
    /* the sweep in progress: fixed, rank `cur` has run `slice` statements
     * of it; random, order[pos..n) are the ranks still to try */
    int cur, slice, progress, live;
    int order[CASE_MAX_RANKS], norder, pos, shuffled;
    int resume; /* a rank whose task just started: its first statement is the same decision's, -1 none */
};

/* statements a rank runs at most before the next one's turn (fixed schedule) */
enum { RANKS_SLICE = 1 << 16 };

static int host_function(const xprogram *p)
{
    for (uint32_t i = 0; i < p->nfuncs; i++)
        if (p->funcs[i].src->level_name && strcmp(p->funcs[i].src->level_name, "HOST") == 0)
            return (int)i;
    return -1;
}

static void on_write(void *ud, int core, const tensor *t)
{
    rank_state *rs = ud;
    ranks_world_local_access(rs->s->w, rs->rank, t, 1);
    if (rs->s->on_write)
        rs->s->on_write(rs->s->hook_ud, rs->rank, core, t);
}

static void on_gm(void *ud, int core, const tensor *region, int write)
{
    (void)core;
    rank_state *rs = ud;
    ranks_world_local_region(rs->s->w, rs->rank, region, write);
}

static void on_read(void *ud, int core, const tensor *t)
{
    rank_state *rs = ud;
    ranks_world_local_access(rs->s->w, rs->rank, t, 0);
    if (rs->s->on_read)
        rs->s->on_read(rs->s->hook_ud, rs->rank, core, t);
}

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

ranks_sched *ranks_sched_new(const char *path, const xprogram *p, const case_info *c, const runpass_options *o,
                             strbuf *err, runpass_status *fail)
{
    *fail = RUNPASS_ERROR;
    int hf = host_function(p);
    if (hf < 0) {
        strbuf_printf(err, "%s: no function with level=pl.Level.HOST: a multi-rank program needs its host "
                           "orchestrator",
                      path);
        return NULL;
    }
    ranks_sched *s = xcalloc(1, sizeof *s);
    s->path = path;
    s->c = c;
    s->p = p;
    s->P = c->ranks.nranks;
    s->random = o->mopt.sched == EXEC_SCHED_RANDOM;
    s->profile = o->mopt.profile;
    s->nan_dont_care = o->mopt.semantics == EXEC_SEM_DEVICE;
    s->resume = -1;
    s->rng = o->mopt.seed * 2654435761u + 0x9e3779b97f4a7c15ull;
    xprogram tmp = *p;
    tmp.entry = hf;
    s->params = runpass_entry_params(&tmp, &s->np); /* the host function's, by runpass_entry_params' rules */
    s->b = xcalloc(s->np ? s->np : 1, sizeof *s->b);
    diag_sink sink;
    diag_sink_init(&sink, 20);
    if (case_bind_ranks(c, s->params, s->np, s->b, &sink) != PTODB_OK) {
        char *t = diag_sink_error_text(&sink);
        strbuf_puts(err, t);
        free(t);
        diag_sink_free(&sink);
        ranks_sched_free(s);
        return NULL;
    }
    diag_sink_free(&sink);
    s->w = ranks_world_new(&c->ranks, o->comm_ready_order ? RANKS_ORDER_READY : RANKS_ORDER_PROGRAM);
    /* InsertCommFence inserts the markers (PyPTO pass 46 of its docs,
     * insert_comm_fence_pass.cpp): from it on, a missing one is a fault */
    if (o->mopt.memcheck && case_pass_at_or_after(c, path, "InsertCommFence") == 1)
        ranks_world_check_fences(s->w);
    machine_options mopt = o->mopt;
    runpass_memory_options(path, c, &mopt);
    machine_options hopt = mopt;
    hopt.comm = ranks_world_host_comm(s->w);
    s->host = machine_new(p, &hopt);
    value *args = xcalloc(s->np ? s->np : 1, sizeof *args);
    for (size_t i = 0; i < s->np; i++)
        args[i] = s->b[i].t ? value_tensor(tensor_ref(s->b[i].t)) : value_none();
    ptodb_status st = machine_start(s->host, hf, args, (uint32_t)s->np);
    for (size_t i = 0; i < s->np; i++)
        value_clear(&args[i]);
    free(args);
    if (st == PTODB_OK)
        st = machine_run(s->host);
    s->host_steps = machine_steps(s->host);
    if (st != PTODB_OK) {
        *fail = machine_error_is_ref(s->host) ? RUNPASS_REF_FAIL : RUNPASS_ERROR;
        strbuf_puts(err, machine_error(s->host));
        ranks_sched_free(s);
        return NULL;
    }
    s->rs = xcalloc((size_t)s->P, sizeof *s->rs);
    for (int k = 0; k < s->P; k++) {
        machine_options ropt = mopt;
        ropt.comm = ranks_world_rank_comm(s->w, k);
        s->rs[k].m = machine_new(p, &ropt);
        s->rs[k].s = s;
        s->rs[k].rank = k;
        machine_set_write_hook(s->rs[k].m, on_write, &s->rs[k]);
        machine_set_read_hook(s->rs[k].m, on_read, &s->rs[k]);
        machine_set_gm_hook(s->rs[k].m, on_gm, &s->rs[k]);
    }
    return s;
}

void ranks_sched_free(ranks_sched *s)
{
    if (!s)
        return;
    if (s->rs)
        for (int k = 0; k < s->P; k++)
            machine_free(s->rs[k].m);
    free(s->rs);
    machine_free(s->host);
    ranks_world_free(s->w);
    if (s->b)
        case_rank_bindings_free(s->b, s->np);
    free(s->b);
    free(s->params);
    free(s);
}

void ranks_sched_set_hooks(ranks_sched *s, ranks_tensor_hook w, ranks_tensor_hook r, void *ud)
{
    s->on_write = w;
    s->on_read = r;
    s->hook_ud = ud;
}

typedef enum { STEP_PROGRESS, STEP_PARKED, STEP_IDLE, STEP_ERROR, STEP_STARTED } step_result;

/* One statement (or one collective arrival) of rank r; STEP_STARTED when
 * it started r's next task instead (its machine stands at the task's first
 * statement: a debugger sees its breakpoints there). */
static step_result rank_step(ranks_sched *s, int r, exec_event *out, strbuf *err)
{
    ranks_world *w = s->w;
    rank_state *rs = &s->rs[r];
    out->kind = EXEC_EV_NONE;
    ranks_world_poll(w); /* a deferred completion may hold since the last step */
    ranks_task *t = ranks_world_next_task(w, r);
    if (!t) {
        if (ranks_world_pending(w, r))
            return STEP_PARKED; /* its next tasks wait for tasks of other ranks */
        rs->finished = 1;
        return STEP_IDLE;
    }
    if (t->kind == RANKS_TASK_COLLECTIVE) {
        ranks_world_task_start(w, r);
        char msg[600] = "";
        int done = 0;
        const exec_comm *c = ranks_world_rank_comm(w, r);
        ptodb_status st = c->collective(c->ud, r, &t->call, &done, msg, sizeof msg);
        if (st != PTODB_OK) {
            strbuf_printf(err, "%s:%d:%d: in the host orchestrator's %s for rank %d: %s", s->path, t->call.line,
                          t->call.col, t->call.op_name, r, msg);
            return STEP_ERROR;
        }
        if (!done)
            return STEP_PARKED;
        ranks_world_pop_task(w, r);
        return STEP_PROGRESS;
    }
    if (!rs->running) {
        ranks_world_task_start(w, r);
        ptodb_status st = machine_start(rs->m, t->fn, t->args, t->nargs);
        if (st != PTODB_OK) {
            strbuf_printf(err, "%s", machine_error(rs->m));
            return STEP_ERROR;
        }
        rs->running = 1;
        return STEP_STARTED;
    }
    exec_event ev;
    ptodb_status st = machine_step(rs->m, &ev);
    if (st != PTODB_OK) {
        strbuf_printf(err, "%s", machine_error(rs->m));
        return STEP_ERROR;
    }
    *out = ev;
    ranks_world_stamp(w, r, ev.line, ev.col);
    if (ev.kind == EXEC_EV_BLOCKED) {
        rs->last = ev;
        return STEP_PARKED;
    }
    ranks_world_clear_wait(w, r);
    if (ev.kind != EXEC_EV_NONE)
        rs->last = ev;
    if (ev.kind == EXEC_EV_DONE || machine_finished(rs->m)) {
        rs->running = 0;
        ranks_world_pop_task(w, r);
    }
    return STEP_PROGRESS;
}

/* Nothing can move: every rank with work is parked. */
static void deadlock_report(ranks_sched *s, strbuf *out)
{
    const char *path = s->path;
    ranks_world *w = s->w;
    rank_state *rs = s->rs;
    int P = s->P, first = -1;
    for (int r = 0; r < P && first < 0; r++)
        if (!rs[r].finished)
            first = r;
    const exec_event *e = &rs[first].last;
    if (rs[first].running)
        strbuf_printf(out, "%s:%d:%d: in %s: ", path, e->line, e->col, e->func ? e->func : "?");
    else
        strbuf_printf(out, "%s: ", path);
    strbuf_puts(out, "deadlock: every rank that has work left is parked, so none can ever move\n");
    for (int r = 0; r < P; r++) {
        const exec_event *ev = &rs[r].last;
        strbuf_printf(out, "  rank %d (device %d): ", r, s->c->ranks.device_ids[r]);
        if (rs[r].finished) {
            strbuf_printf(out, "finished all its tasks%s\n", rs[r].last.file ? "" : " (it was given none)");
            continue;
        }
        ranks_task *t = ranks_world_next_task(w, r);
        if (!t) {
            const ranks_task *list[1];
            size_t all = ranks_world_unfinished(w, r, list, 0), retired = 0;
            strbuf deferred = STRBUF_INIT;
            retired = ranks_world_describe_deferred(w, r, path, &deferred);
            if (all > retired)
                strbuf_printf(out, "%zu task%s not ready: each depends on an unfinished task of another rank\n", all - retired,
                              all - retired == 1 ? "" : "s");
            else
                strbuf_puts(out, "its tasks ran; a deferred completion is pending\n");
            strbuf_puts(out, strbuf_str(&deferred));
            strbuf_free(&deferred);
            continue;
        }
        if (t->kind == RANKS_TASK_COLLECTIVE) {
            strbuf_printf(out, "parked at the host orchestrator's %s (%d:%d), waiting for the other members\n",
                          t->call.op_name, t->call.line, t->call.col);
            continue;
        }
        strbuf_printf(out, "parked at %s:%d:%d in %s on core %s: ", path, ev->line, ev->col,
                      ev->func ? ev->func : "?", machine_core_name(ev->core));
        if (!ranks_world_describe_wait(w, r, out))
            strbuf_puts(out, "at a collective, waiting for the other members of its comm domain");
        strbuf_putc(out, '\n');
    }
    /* what each parked rank would have run next: the send a wait ran ahead
     * of is among them (#2397) */
    for (int r = 0; r < P; r++) {
        const ranks_task *list[8];
        size_t n = ranks_world_unfinished(w, r, list, 8);
        const ranks_task *cur = ranks_world_next_task(w, r);
        size_t waiting = 0;
        for (size_t i = 0; i < n && i < 8; i++)
            waiting += list[i] != cur && !list[i]->retired;
        if (rs[r].finished || !waiting)
            continue;
        strbuf_printf(out, "  not yet run on rank %d:", r);
        size_t shown = 0;
        for (size_t i = 0; i < n && i < 8; i++) {
            if (list[i] == cur || list[i]->retired)
                continue;
            const char *what =
                list[i]->kind == RANKS_TASK_COLLECTIVE ? list[i]->call.op_name : s->p->funcs[list[i]->fn].name;
            strbuf_printf(out, "%s %s (dispatched at %s:%d:%d)", shown++ ? "," : "", what, path, list[i]->line,
                          list[i]->col);
        }
        if (n > 8)
            strbuf_printf(out, ", and %zu more", n - 8);
        strbuf_puts(out, cur ? " (queued behind the parked task: the per-rank order of comm dispatches "
                               "decides; PyPTO #2398)\n"
                             : "\n");
    }
}

static int all_finished(const ranks_sched *s)
{
    for (int r = 0; r < s->P; r++)
        if (!s->rs[r].finished)
            return 0;
    return 1;
}

/* The end of a sweep over the ranks: done, deadlocked, or another sweep. */
static int sweep_end(ranks_sched *s, ranks_step_status *out, strbuf *err)
{
    if (all_finished(s)) {
        *out = RANKS_STEP_DONE;
        return 1;
    }
    if (!s->progress && s->live) {
        deadlock_report(s, err);
        *out = RANKS_STEP_DEADLOCK;
        return 1;
    }
    s->progress = s->live = 0;
    s->cur = 0;
    s->slice = 0;
    s->shuffled = 0;
    return 0;
}

ranks_step_status ranks_sched_step(ranks_sched *s, int *rank, exec_event *ev, strbuf *err)
{
    ranks_step_status end;
    ev->kind = EXEC_EV_NONE;
    for (;;) {
        int r;
        if (s->resume >= 0) {
            r = s->resume;
        } else if (s->random) {
            /* one statement of a rank picked among those with work, until
             * a full sweep of them makes no progress */
            if (!s->shuffled) {
                s->norder = 0;
                for (int k = 0; k < s->P; k++)
                    if (!s->rs[k].finished)
                        s->order[s->norder++] = k;
                for (int i = s->norder - 1; i > 0; i--) {
                    int j = (int)(next_rand(&s->rng) % (uint64_t)(i + 1));
                    int tmp = s->order[i];
                    s->order[i] = s->order[j];
                    s->order[j] = tmp;
                }
                s->pos = 0;
                s->shuffled = 1;
            }
            if (s->pos == s->norder) {
                if (sweep_end(s, &end, err))
                    return end;
                continue;
            }
            r = s->order[s->pos++];
            s->live++;
        } else {
            /* fixed: the lowest rank runs until it parks or has nothing
             * left, or for a slice of statements (a kernel that polls a
             * cell with reads instead of a wait never parks: the others
             * must still run) */
            if (s->cur == s->P) {
                if (sweep_end(s, &end, err))
                    return end;
                continue;
            }
            r = s->cur;
            if (s->rs[r].finished) {
                s->cur++;
                continue;
            }
            if (s->slice == 0)
                s->live++;
        }
        step_result res = rank_step(s, r, ev, err);
        *rank = r;
        if (res == STEP_STARTED) {
            /* not a decision of the schedule: the next call steps r's first
             * statement as this one's (the random schedule draws nothing) */
            s->resume = r;
            return RANKS_STEP_RAN;
        }
        s->resume = -1;
        if (res == STEP_ERROR)
            return RANKS_STEP_ERROR;
        s->rs[r].parked = res == STEP_PARKED;
        if (res == STEP_PROGRESS) {
            s->progress = 1;
            if (s->random)
                s->pos = s->norder, s->shuffled = 0; /* reshuffle after every statement */
            else if (++s->slice == RANKS_SLICE)
                s->cur++, s->slice = 0;
            if (s->random && sweep_end(s, &end, err))
                return end;
            return RANKS_STEP_RAN;
        }
        if (!s->random)
            s->cur++, s->slice = 0;
        if (res == STEP_PARKED)
            return RANKS_STEP_PARKED;
    }
}

ptodb_status ranks_sched_run(ranks_sched *s, strbuf *err)
{
    for (;;) {
        int r;
        exec_event ev;
        switch (ranks_sched_step(s, &r, &ev, err)) {
        case RANKS_STEP_DONE:
            return PTODB_OK;
        case RANKS_STEP_DEADLOCK:
            return PTODB_ERR_DEADLOCK;
        case RANKS_STEP_ERROR:
            return PTODB_ERR_RUNTIME;
        default:
            break;
        }
    }
}

int ranks_sched_end_checks(ranks_sched *s, strbuf *out)
{
    return ranks_world_race(s->w, s->path, out) || ranks_world_fence_breach(s->w, s->path, out) ||
           ranks_world_lost_notify(s->w, s->path, out);
}

void ranks_sched_compare(ranks_sched *s, runpass_result *r)
{
    const case_info *c = s->c;
    size_t cap = 0;
    for (int k = 0; k < c->ranks.nranks; k++)
        cap += c->rank_data[k].noutputs;
    r->outputs = xcalloc(cap ? cap : 1, sizeof *r->outputs);
    r->all_pass = 1;
    for (int k = 0; k < c->ranks.nranks; k++) {
        for (size_t i = 0; i < s->np; i++) {
            const case_tensor *g = s->b[i].golden[k];
            if (!s->params[i].is_tensor || !s->b[i].t || !g)
                continue;
            runpass_output *ro = &r->outputs[r->noutputs++];
            strbuf key = STRBUF_INIT;
            strbuf_printf(&key, "rank%d.%s", k, s->b[i].key);
            ro->key = strbuf_detach(&key);
            ro->actual = case_rank_slice(&s->b[i], k, NULL);
            ro->golden = g->t;
            ro->rtol = g->rtol.value;
            ro->atol = g->atol.value;
            if (ro->actual)
                exec_compare(ro->actual, ro->golden, ro->rtol, ro->atol, s->profile, s->nan_dont_care, &ro->cmp);
            else
                ro->cmp.error = 1;
            if (ro->cmp.error || !ro->cmp.pass)
                r->all_pass = 0;
        }
    }
    if (!r->noutputs)
        r->all_pass = 0; /* nothing compared: no verdict to give */
}

int ranks_sched_nranks(const ranks_sched *s)
{
    return s->P;
}

ranks_world *ranks_sched_world(ranks_sched *s)
{
    return s->w;
}

machine *ranks_sched_machine(ranks_sched *s, int r)
{
    return r >= 0 && r < s->P ? s->rs[r].m : NULL;
}

ranks_rank_state ranks_sched_rank_state(const ranks_sched *s, int r)
{
    const rank_state *rs = &s->rs[r];
    return rs->finished ? RANKS_RANK_FINISHED
           : rs->parked ? RANKS_RANK_PARKED
           : rs->running ? RANKS_RANK_RUNNING
                         : RANKS_RANK_IDLE;
}

const exec_event *ranks_sched_last_event(const ranks_sched *s, int r)
{
    return &s->rs[r].last;
}

uint64_t ranks_sched_steps(const ranks_sched *s)
{
    uint64_t n = s->host_steps;
    for (int k = 0; s->rs && k < s->P; k++)
        n += machine_steps(s->rs[k].m);
    return n;
}

const case_rank_binding *ranks_sched_bindings(const ranks_sched *s, size_t *np)
{
    *np = s->np;
    return s->b;
}

const char *ranks_sched_path(const ranks_sched *s)
{
    return s->path;
}

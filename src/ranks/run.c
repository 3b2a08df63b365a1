/* One pass file of a multi-rank case: host orchestrator, then the ranks
 * under one global schedule; see run.h. */
#include "config.h"

#include "ranks/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "data/rank_bind.h"
#include "ir/parse.h"
#include "ir/resolve.h"
#include "ranks/world.h"

static void fail(runpass_result *r, runpass_status st, char *msg)
{
    r->status = st;
    free(r->message);
    r->message = msg;
}

static int host_function(const xprogram *p)
{
    for (uint32_t i = 0; i < p->nfuncs; i++)
        if (p->funcs[i].src->level_name && strcmp(p->funcs[i].src->level_name, "HOST") == 0)
            return (int)i;
    return -1;
}

/* The host function's parameters as case_param records (runpass_entry_params' rules). */
static case_param *host_params(const xprogram *p, int fn, size_t *n)
{
    xprogram tmp = *p;
    tmp.entry = fn;
    return runpass_entry_params(&tmp, n);
}

typedef struct rank_state {
    ranks_world *w;
    int rank;
    machine *m;
    int running;  /* a CALL task started on m */
    int finished; /* its FIFO ran dry */
    exec_event last; /* the last event, for reports */
} rank_state;

static void on_write(void *ud, int core, const tensor *t)
{
    (void)core;
    rank_state *rs = ud;
    ranks_world_local_access(rs->w, rs->rank, t, 1);
}

static void on_read(void *ud, int core, const tensor *t)
{
    (void)core;
    rank_state *rs = ud;
    ranks_world_local_access(rs->w, rs->rank, t, 0);
}

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

typedef enum { STEP_PROGRESS, STEP_PARKED, STEP_IDLE, STEP_ERROR } step_result;

/* statements a rank runs at most before the next one's turn (fixed schedule) */
enum { RANKS_SLICE = 1 << 16 };

/* One statement (or one collective arrival) of rank r. */
static step_result rank_step(ranks_world *w, rank_state *rs, int r, strbuf *err)
{
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
            strbuf_printf(err, "%s: in the host orchestrator's %s for rank %d: %s", "", t->call.op_name, r, msg);
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
    }
    exec_event ev;
    ptodb_status st = machine_step(rs->m, &ev);
    if (st != PTODB_OK) {
        strbuf_printf(err, "%s", machine_error(rs->m));
        return STEP_ERROR;
    }
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
static void deadlock_report(const char *path, const case_info *c, const xprogram *p, ranks_world *w, rank_state *rs,
                            strbuf *out)
{
    int P = ranks_world_nranks(w), first = -1;
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
        strbuf_printf(out, "  rank %d (device %d): ", r, c->ranks.device_ids[r]);
        if (rs[r].finished) {
            strbuf_printf(out, "finished all its tasks%s\n",
                          rs[r].last.file ? "" : " (it was given none)");
            continue;
        }
        ranks_task *t = ranks_world_next_task(w, r);
        if (!t) {
            strbuf_printf(out, "%zu task%s not ready: each depends on an unfinished task of another rank\n",
                          ranks_world_pending(w, r), ranks_world_pending(w, r) == 1 ? "" : "s");
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
        if (rs[r].finished || n <= (cur ? 1u : 0u))
            continue;
        strbuf_printf(out, "  not yet run on rank %d:", r);
        size_t shown = 0;
        for (size_t i = 0; i < n && i < 8; i++) {
            if (list[i] == cur)
                continue;
            const char *what = list[i]->kind == RANKS_TASK_COLLECTIVE ? list[i]->call.op_name
                                                                      : p->funcs[list[i]->fn].name;
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

static ptodb_status schedule(const char *path, const case_info *c, const xprogram *p, const runpass_options *o,
                             ranks_world *w, rank_state *rs, strbuf *err, uint64_t *steps)
{
    int P = ranks_world_nranks(w);
    uint64_t rng = o->mopt.seed * 2654435761u + 0x9e3779b97f4a7c15ull;
    int random = o->mopt.sched == EXEC_SCHED_RANDOM;
    for (;;) {
        int progress = 0, live = 0;
        if (random) {
            /* one statement of a rank picked among those with work, until
             * a full sweep of them makes no progress */
            int order[CASE_MAX_RANKS], n = 0;
            for (int r = 0; r < P; r++)
                if (!rs[r].finished)
                    order[n++] = r;
            for (int i = n - 1; i > 0; i--) {
                int j = (int)(next_rand(&rng) % (uint64_t)(i + 1));
                int tmp = order[i];
                order[i] = order[j];
                order[j] = tmp;
            }
            for (int i = 0; i < n; i++) {
                int r = order[i];
                live++;
                step_result s = rank_step(w, &rs[r], r, err);
                (*steps)++;
                if (s == STEP_ERROR)
                    return PTODB_ERR_RUNTIME;
                if (s == STEP_PROGRESS) {
                    progress = 1;
                    break; /* reshuffle after every statement */
                }
            }
        } else {
            /* fixed: the lowest rank runs until it parks or has nothing
             * left, or for a slice of statements (a kernel that polls a
             * cell with reads instead of a wait never parks: the others
             * must still run) */
            for (int r = 0; r < P; r++) {
                if (rs[r].finished)
                    continue;
                live++;
                for (int slice = 0; slice < RANKS_SLICE; slice++) {
                    step_result s = rank_step(w, &rs[r], r, err);
                    (*steps)++;
                    if (s == STEP_ERROR)
                        return PTODB_ERR_RUNTIME;
                    if (s != STEP_PROGRESS)
                        break;
                    progress = 1;
                }
            }
        }
        int all = 1;
        for (int r = 0; r < P; r++)
            all &= rs[r].finished;
        if (all)
            return PTODB_OK;
        if (!progress && live) {
            deadlock_report(path, c, p, w, rs, err);
            return PTODB_ERR_DEADLOCK;
        }
    }
}

static void compare(const case_info *c, const runpass_options *o, const case_param *params, size_t np,
                    const case_rank_binding *b, runpass_result *r)
{
    size_t cap = 0;
    for (int k = 0; k < c->ranks.nranks; k++)
        cap += c->rank_data[k].noutputs;
    r->outputs = xcalloc(cap ? cap : 1, sizeof *r->outputs);
    r->all_pass = 1;
    for (int k = 0; k < c->ranks.nranks; k++) {
        for (size_t i = 0; i < np; i++) {
            const case_tensor *g = b[i].golden[k];
            if (!params[i].is_tensor || !b[i].t || !g)
                continue;
            runpass_output *ro = &r->outputs[r->noutputs++];
            strbuf key = STRBUF_INIT;
            strbuf_printf(&key, "rank%d.%s", k, b[i].key);
            ro->key = strbuf_detach(&key);
            ro->actual = case_rank_slice(&b[i], k, NULL);
            ro->golden = g->t;
            ro->rtol = g->rtol.value;
            ro->atol = g->atol.value;
            if (ro->actual)
                exec_compare(ro->actual, ro->golden, ro->rtol, ro->atol, o->mopt.profile, &ro->cmp);
            else
                ro->cmp.error = 1;
            if (ro->cmp.error || !ro->cmp.pass)
                r->all_pass = 0;
        }
    }
    if (!r->noutputs)
        r->all_pass = 0; /* nothing compared: no verdict to give */
}

/* The ranks' memory faults, summed, and their reports, each headed by
 * its rank, into r (as runpass_file does for one machine). */
static void collect_memory_faults(rank_state *rs, int P, runpass_result *r)
{
    strbuf sb = STRBUF_INIT;
    for (int k = 0; k < P; k++) {
        uint64_t n = machine_mem_faults(rs[k].m);
        if (!n)
            continue;
        r->memfaults += n;
        strbuf_printf(&sb, "rank %d:\n%s", k, machine_mem_report(rs[k].m) ? machine_mem_report(rs[k].m) : "");
    }
    if (sb.len)
        r->memreport = strbuf_detach(&sb);
    else
        strbuf_free(&sb);
}

void ranks_run_file(const char *path, const case_info *c, const runpass_options *o, runpass_result *r)
{
    memset(r, 0, sizeof *r);
    diag_sink sink;
    diag_sink_init(&sink, 20);
    ptodb_status st = PTODB_OK;
    xprogram *p = NULL;
    ranks_world *w = NULL;
    machine *host = NULL;
    rank_state *rs = NULL;
    case_param *params = NULL;
    case_rank_binding *b = NULL;
    size_t np = 0;
    strbuf err = STRBUF_INIT;
    ir_module *mod = ir_parse_file(path, &sink, &st);
    if (st != PTODB_OK || ir_resolve(mod, &sink) != PTODB_OK) {
        strbuf_printf(&err, "%s does not check (%zu error%s), not run:\n", path, sink.errors,
                      sink.errors == 1 ? "" : "s");
        char *t = diag_sink_error_text(&sink);
        strbuf_puts(&err, t);
        free(t);
        fail(r, RUNPASS_ERROR, strbuf_detach(&err));
        goto out;
    }
    if (exec_program_build(mod, o->ops, &p, &sink) != PTODB_OK) {
        fail(r, RUNPASS_ERROR, diag_sink_error_text(&sink));
        goto out;
    }
    if (p->codegen_error && p->uses_ptodb_only_ops < 0) {
        strbuf_printf(&err, "%s: %s", path, p->unrunnable ? p->unrunnable : p->codegen_error);
        fail(r, RUNPASS_ERROR, strbuf_detach(&err));
        goto out;
    }
    if (p->codegen_error) /* REF has no handler for the pld.* ops: a note, ptodb runs them */
        r->ref_note = xstrdup(p->codegen_error);
    int hf = host_function(p);
    if (hf < 0) {
        strbuf_printf(&err, "%s: no function with level=pl.Level.HOST: a multi-rank program needs its host "
                            "orchestrator",
                      path);
        fail(r, RUNPASS_ERROR, strbuf_detach(&err));
        goto out;
    }
    params = host_params(p, hf, &np);
    b = xcalloc(np ? np : 1, sizeof *b);
    if (case_bind_ranks(c, params, np, b, &sink) != PTODB_OK) {
        fail(r, RUNPASS_ERROR, diag_sink_error_text(&sink));
        goto out;
    }
    w = ranks_world_new(&c->ranks, o->comm_ready_order ? RANKS_ORDER_READY : RANKS_ORDER_PROGRAM);
    machine_options mopt = o->mopt;
    runpass_memory_options(path, c, &mopt);
    machine_options hopt = mopt;
    hopt.comm = ranks_world_host_comm(w);
    host = machine_new(p, &hopt);
    value *args = xcalloc(np ? np : 1, sizeof *args);
    for (size_t i = 0; i < np; i++)
        args[i] = b[i].t ? value_tensor(tensor_ref(b[i].t)) : value_none();
    st = machine_start(host, hf, args, (uint32_t)np);
    for (size_t i = 0; i < np; i++)
        value_clear(&args[i]);
    free(args);
    if (st == PTODB_OK)
        st = machine_run(host);
    r->steps = machine_steps(host);
    if (st != PTODB_OK) {
        fail(r, machine_error_is_ref(host) ? RUNPASS_REF_FAIL : RUNPASS_ERROR, xstrdup(machine_error(host)));
        goto out;
    }
    int P = c->ranks.nranks;
    rs = xcalloc((size_t)P, sizeof *rs);
    for (int k = 0; k < P; k++) {
        machine_options ropt = mopt;
        ropt.comm = ranks_world_rank_comm(w, k);
        rs[k].m = machine_new(p, &ropt);
        rs[k].w = w;
        rs[k].rank = k;
        machine_set_write_hook(rs[k].m, on_write, &rs[k]);
        machine_set_read_hook(rs[k].m, on_read, &rs[k]);
    }
    uint64_t steps = 0;
    st = schedule(path, c, p, o, w, rs, &err, &steps);
    for (int k = 0; k < P; k++)
        r->steps += machine_steps(rs[k].m);
    collect_memory_faults(rs, P, r);
    if (st == PTODB_OK && ranks_world_race(w, path, &err))
        st = PTODB_ERR_RUNTIME;
    if (st != PTODB_OK) {
        fail(r, RUNPASS_ERROR, strbuf_detach(&err));
        goto out;
    }
    compare(c, o, params, np, b, r);
    if (r->memfaults)
        r->all_pass = 0; /* the device would have read other data (docs/memory.md) */
    if (!r->message)
        r->status = RUNPASS_COMPARED;
    if (o->strict_ref && r->ref_note)
        r->all_pass = 0;
out:
    if (rs)
        for (int k = 0; k < c->ranks.nranks; k++)
            machine_free(rs[k].m);
    free(rs);
    machine_free(host);
    ranks_world_free(w);
    if (b) {
        case_rank_bindings_free(b, np);
        free(b);
    }
    free(params);
    exec_program_free(p);
    if (mod)
        ir_module_free(mod);
    strbuf_free(&err);
    diag_sink_free(&sink);
}

void ranks_or_single_run_file(const char *path, const case_info *c, const runpass_options *o, runpass_result *r)
{
    if (c->ranks.nranks)
        ranks_run_file(path, c, o, r);
    else
        runpass_file(path, c, o, r);
}

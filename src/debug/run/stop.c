/* The stop of a run (stop.h): the chain of what hit after a statement, and
 * acting on it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "debug/run/record.h"
#include "debug/state/expr.h"
#include "debug/state/lookup.h"
#include "debug/state/session_impl.h"
#include "debug/run/stop.h"
#include "tensor/tensor_fmt.h"
#include "exec/inspect.h"
#include "ranks/sched.h"

/* ---- snapshots of the bound tensors ---------------------------------------------- */

typedef struct stop_slot {
    int core, frame, slot;
    const tensor *t;
} stop_slot;

void stop_snapshot_take(const machine *m, stop_snapshot *sn)
{
    sn->n = 0;
    for (int c = 0; c < EXEC_NCORES; c++) {
        int depth = inspect_depth(m, c);
        for (int lv = depth - 1; lv >= 0; lv--) {
            inspect_frame f;
            inspect_frame_get(m, c, lv, &f);
            for (int i = 0; i < f.nslots; i++) {
                const char *name;
                const value *v;
                if (!inspect_slot(m, c, lv, i, &name, &v) || v->kind != VAL_TENSOR)
                    continue;
                if (sn->n == sn->cap) {
                    sn->cap = sn->cap ? sn->cap * 2 : 64;
                    sn->items = xreallocarray(sn->items, sn->cap, sizeof *sn->items);
                }
                sn->items[sn->n++] = (stop_slot){c, depth - 1 - lv, i, v->u.t};
            }
        }
    }
}

void stop_snapshot_free(stop_snapshot *sn)
{
    free(sn->items);
    memset(sn, 0, sizeof *sn);
}

static int slot_cmp(const stop_slot *a, const stop_slot *b)
{
    if (a->core != b->core)
        return a->core < b->core ? -1 : 1;
    if (a->frame != b->frame)
        return a->frame < b->frame ? -1 : 1;
    return a->slot < b->slot ? -1 : a->slot > b->slot;
}

/* Tensors bound (or rebound) by the last step: in `after` but not with the
 * same object in `before`. Both are in (core, frame, slot) order. */
static size_t new_bindings(const stop_snapshot *before, const stop_snapshot *after, const tensor **out,
                           size_t max)
{
    size_t i = 0, n = 0;
    for (size_t j = 0; j < after->n; j++) {
        while (i < before->n && slot_cmp(&before->items[i], &after->items[j]) < 0)
            i++;
        int same = i < before->n && slot_cmp(&before->items[i], &after->items[j]) == 0 &&
                   before->items[i].t == after->items[j].t;
        if (!same && n < max)
            out[n++] = after->items[j].t;
    }
    return n;
}

/* The name's current tensor on any core (selected core first). */
static const tensor *find_named(session *s, const char *name, int *core_out)
{
    machine *m = s->run.m;
    for (int k = 0; k < EXEC_NCORES; k++) {
        int c = k == 0 ? s->run.core : k - (k <= s->run.core);
        if (k != 0 && c == s->run.core)
            continue;
        int depth = inspect_depth(m, c);
        for (int lv = 0; lv < depth; lv++) {
            int slot = inspect_find_slot(m, c, lv, name);
            if (slot < 0)
                continue;
            const char *n;
            const value *v;
            if (inspect_slot(m, c, lv, slot, &n, &v) && v->kind == VAL_TENSOR) {
                *core_out = c;
                return v->u.t;
            }
        }
    }
    return NULL;
}

/* ---- conditions and counts -------------------------------------------------------- */

/* Evaluates b's predicate on t: 1 holds (or there is none), 0 does not, -1
 * it could not be tested. As gdb does, an error stops the run ("Error in
 * testing condition for breakpoint N: ..."), and the stop never claims the
 * condition held. */
static int condition_holds(session *s, breakpoint *b, const tensor *t, const char *name)
{
    if (!b->cond)
        return 1;
    predicate_env env = {0};
    env.t = t;
    const case_tensor *g = name ? session_golden_for(s, name) : NULL;
    env.golden = g ? g->t : NULL;
    if (g)
        session_output_tols(s, g, &env.rtol, &env.atol);
    else {
        env.rtol = session_get_double(s, SETTING_RTOL);
        env.atol = session_get_double(s, SETTING_ATOL);
    }
    env.profile = session_profile(s);
    env.nan_dont_care = session_semantics(s) == EXEC_SEM_DEVICE;
    strbuf err = STRBUF_INIT;
    int r = predicate_eval(b->cond, &env, &err);
    if (r < 0)
        session_errorf(s, "Error in testing condition for breakpoint %d:\n%s", b->number, strbuf_str(&err));
    strbuf_free(&err);
    return r < 0 ? -1 : r != 0;
}

/* gdb's condition: b's expression in the frame of `core` that reached the
 * breakpoint (selected for the evaluation, then restored): 1 true (nonzero;
 * a tensor when every element is), 0 false, -1 an error (reported; the run
 * stops, as gdb's does). */
static int expression_holds(session *s, breakpoint *b, int core)
{
    run_state *r = &s->run;
    int saved_core = r->core, saved_level = r->level;
    r->core = core;
    r->level = 0;
    tensor *t = NULL;
    strbuf err = STRBUF_INIT;
    int held;
    if (expr_eval(s, b->cond_expr, &t, NULL, &err) != PTODB_OK) {
        session_errorf(s, "Error in testing condition for breakpoint %d:\n%s", b->number, strbuf_str(&err));
        held = -1;
    } else {
        int64_t n = tensor_numel(t);
        held = n > 0;
        for (int64_t k = 0; k < n && held; k++)
            held = tensor_get_flat(t, k) != 0;
        tensor_unref(t);
    }
    strbuf_free(&err);
    r->core = saved_core;
    r->level = saved_level;
    return held;
}

/* Counts a hit: 1 when it stops (ignore count spent). */
static int count_hit(breakpoint *b)
{
    b->hits++;
    if (b->ignore > 0) {
        b->ignore--;
        return 0;
    }
    return 1;
}

/* gdb's `silent` as the first line of a breakpoint's commands: the stop
 * prints nothing of its own; the commands say what they want. */
static int bp_is_silent(const breakpoint *b)
{
    if (!b || !b->ncommands)
        return 0;
    const char *c = b->commands[0];
    c += strspn(c, " \t");
    return strncmp(c, "silent", 6) == 0 && c[6 + strspn(c + 6, " \t")] == '\0';
}

/* ---- the chain -------------------------------------------------------------------- */

static stop_hit *chain_add(stop_chain *c, const breakpoint *b, stop_hit_kind kind, int cond_error)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 4;
        c->hits = xreallocarray(c->hits, c->cap, sizeof *c->hits);
    }
    stop_hit *h = &c->hits[c->n++];
    memset(h, 0, sizeof *h);
    h->bp = b->number;
    h->kind = kind;
    h->print = !bp_is_silent(b);
    h->cond_error = cond_error;
    size_t first = bp_is_silent(b) ? 1 : 0;
    h->ncommands = b->ncommands > first ? b->ncommands - first : 0;
    if (h->ncommands) {
        h->commands = xcalloc(h->ncommands, sizeof *h->commands);
        for (size_t i = 0; i < h->ncommands; i++)
            h->commands[i] = xstrdup(b->commands[first + i]);
    }
    c->stopped = 1;
    return h;
}

void stop_chain_free(stop_chain *c)
{
    for (size_t i = 0; i < c->n; i++) {
        stop_hit *h = &c->hits[i];
        free(h->what);
        if (h->old)
            tensor_unref(h->old);
        if (h->now)
            tensor_unref(h->now);
        for (size_t k = 0; k < h->ncommands; k++)
            free(h->commands[k]);
        free(h->commands);
    }
    free(c->hits);
    memset(c, 0, sizeof *c);
}

void stop_chain_plain(stop_chain *c, int core)
{
    memset(c, 0, sizeof *c);
    c->stopped = 1;
    c->core = core;
}

int stop_needs_values(session *s)
{
    for (size_t i = 0; i < s->nbps; i++)
        if (s->bps[i].enabled &&
            (s->bps[i].kind == BP_WATCH || s->bps[i].kind == BP_NAN || s->bps[i].kind == BP_INF))
            return 1;
    return 0;
}

int stop_needs_reads(session *s)
{
    for (size_t i = 0; i < s->nbps; i++)
        if (s->bps[i].enabled && s->bps[i].kind == BP_WATCH && s->bps[i].watch_access != WATCH_WRITE)
            return 1;
    return 0;
}

int stop_needs_positions(session *s)
{
    for (size_t i = 0; i < s->nbps; i++)
        if (s->bps[i].enabled && s->bps[i].kind == BP_LINE && s->bps[i].cond)
            return 1;
    return stop_needs_values(s);
}

/* b is a line or function breakpoint at frame f, where `core` just ran or
 * (entered) called into. A line breakpoint with a predicate is tested after
 * its statement ran instead (produced_check). */
static int location_hits(const session *s, const breakpoint *b, int entered, const inspect_frame *f)
{
    return (b->kind == BP_LINE && !b->cond && b->pass == s->run.pass && b->line == f->line) ||
           (b->kind == BP_FUNC && entered && strcmp(b->func, f->func) == 0);
}

/* Line and function breakpoints (their expression conditions tested in
 * the frame that reached them), on the first core in core order that ran or
 * entered a frame and has a hit there (or reached the until line): returns
 * that core, -1 none. A condition false on one core lets another core that
 * arrived in the same step (a group call starts every lane) be looked at. */
static int location_hits_stage(session *s, const stop_step *step, stop_chain *c, int *until)
{
    machine *m = s->run.m;
    uint64_t now = s->run.ranks ? s->run.rank_moves : machine_steps(m);
    *until = 0;
    for (int core = 0; core < EXEC_NCORES; core++) {
        inspect_frame f;
        if (!inspect_frame_get(m, core, 0, &f) || inspect_core(m, core) != INSPECT_CORE_READY)
            continue;
        /* a core of an SPMD block can arrive by another core's move at
         * the same depth: a block resumed after a system.syncall, a host
         * its group call's end resumes at the statement after the call */
        int resumed = f.block_num > 1 && s->run.arrive_step[core] == now;
        if (core != step->core && !step->entered[core] && !resumed)
            continue;
        *until = step->until_line > 0 && f.line == step->until_line && core == s->run.core;
        for (size_t i = 0; i < s->nbps; i++) {
            breakpoint *b = &s->bps[i];
            if (!b->enabled || !bp_applies_to_rank(s, b) || !location_hits(s, b, step->entered[core], &f))
                continue;
            int held = b->cond_expr ? expression_holds(s, b, core) : 1;
            if (held && count_hit(b))
                chain_add(c, b, STOP_HIT_LOCATION, held < 0);
        }
        if (c->n || *until)
            return core;
    }
    return -1;
}

static int hit_order(const void *a, const void *b)
{
    int x = ((const stop_hit *)a)->bp, y = ((const stop_hit *)b)->bp;
    return x < y ? -1 : x > y;
}

/* What a watchpoint looks at in t: t itself, or the part its subscript
 * selects (NULL when the subscript does not apply to t). */
static tensor *watched_value(const breakpoint *b, const tensor *t)
{
    if (!b->watch_sub)
        return tensor_ref((tensor *)t);
    tensor *v = NULL;
    strbuf err = STRBUF_INIT;
    if (tensor_apply_subscript((tensor *)t, b->watch_sub, &v, &err) != PTODB_OK)
        v = NULL;
    strbuf_free(&err);
    return v;
}

int stop_watch_check(session *s, const char *name, const char *sub, strbuf *err)
{
    size_t n = strlen(sub);
    int depth = 0, bad = n < 2 || sub[n - 1] != ']';
    for (size_t i = 0; i < n && !bad; i++) {
        depth += sub[i] == '[' ? 1 : sub[i] == ']' ? -1 : 0;
        bad = depth < 0 || (depth == 0 && i + 1 < n && sub[i + 1] != '[');
    }
    if (bad || depth != 0) {
        strbuf_printf(err, "\"%s%s\": the subscript is not closed or has text after it.", name, sub);
        return -1;
    }
    if (!s->run.active || !s->run.m)
        return 0;
    int core = s->run.core;
    const tensor *t = find_named(s, name, &core);
    if (!t)
        return 0; /* bound later: checked as the run goes */
    tensor *v = NULL;
    strbuf why = STRBUF_INIT;
    int st = 0;
    if (tensor_apply_subscript((tensor *)t, sub, &v, &why) != PTODB_OK) {
        strbuf_printf(err, "\"%s%s\": %s", name, sub, strbuf_str(&why));
        st = -1;
    } else if (tensor_numel(v) == 0) {
        char shape[128];
        tensor_format_shape(t->ndim, t->shape, shape, sizeof shape);
        strbuf_printf(err, "\"%s%s\" selects no element of %s (shape %s).", name, sub, name, shape);
        st = -1;
    }
    if (v)
        tensor_unref(v);
    strbuf_free(&why);
    return st;
}

void stop_watch_prime(session *s, breakpoint *b)
{
    if (!s->run.active || !s->run.m)
        return;
    int core = s->run.core;
    const tensor *t = find_named(s, b->spec, &core);
    tensor *now = t ? watched_value(b, t) : NULL;
    if (!now)
        return;
    if (s->run.ranks && b->watch_loaded < 0)
        stop_watch_load_rank(s, s->run.step_rank); /* the values are this rank's */
    if (b->watch_old)
        tensor_unref(b->watch_old);
    b->watch_seen = t;
    b->watch_bound = 1;
    b->watch_old = tensor_snapshot(now);
    tensor_unref(now);
}

/* 1 when the step's list (written or read tensors) touches t's storage. */
static int touched(const tensor *const *list, size_t n, const tensor *t)
{
    for (size_t k = 0; t && k < n; k++)
        if (list[k] == t || list[k]->storage == t->storage)
            return 1;
    return 0;
}

/* A watchpoint after the step: a hit when its value changed (gdb's software
 * watchpoints), or for rwatch/awatch when the step read it. */
static void watch_check(session *s, breakpoint *b, stop_chain *c)
{
    run_state *r = &s->run;
    int core = r->core;
    const tensor *t = find_named(s, b->spec, &core);
    int rebound = t && (!b->watch_bound || t != b->watch_seen);
    int written = touched(r->written, r->nwritten, t);
    /* an operand the op wrote (a store's destination) is not a read */
    int read = b->watch_access != WATCH_WRITE && touched(r->read, r->nread, t) && !written;
    b->watch_seen = t;
    b->watch_bound = t != NULL;
    if (!t || (!rebound && !written && !read))
        return;
    tensor *now = watched_value(b, t);
    if (!now)
        return;
    int changed = !b->watch_old || !tensor_same_bits(b->watch_old, now);
    /* rwatch reports reads only; awatch reads and changes; watch changes */
    int hit = b->watch_access == WATCH_READ ? read && !changed : changed || read;
    if (!hit) {
        tensor_unref(now);
        return;
    }
    tensor *old = b->watch_old;
    if (changed)
        b->watch_old = tensor_snapshot(now);
    else
        old = NULL;
    int held = condition_holds(s, b, t, b->spec);
    if (held && count_hit(b)) {
        stop_hit *h = chain_add(c, b, STOP_HIT_WATCH, held < 0);
        h->read = !changed;
        h->old = changed ? old : NULL;
        h->now = tensor_snapshot(now);
    } else if (old && changed) {
        tensor_unref(old);
    }
    tensor_unref(now);
}

/* A predicate line breakpoint: `stmt` (on `core`) has just run; when it is
 * at the breakpoint's line, the predicate is evaluated on the tensor its
 * first target now holds. */
static void produced_check(session *s, breakpoint *b, int core, const ir_stmt *stmt, stop_chain *c)
{
    if (!stmt || (stmt->kind != IR_STMT_ASSIGN && stmt->kind != IR_STMT_YIELD) ||
        stmt->u.assign.ntargets == 0 || b->pass != s->run.pass || b->line != (int)stmt->span.line)
        return;
    const char *name = stmt->u.assign.targets[0].name->text;
    int slot = inspect_find_slot(s->run.m, core, 0, name);
    const char *n;
    const value *v;
    if (slot < 0 || !inspect_slot(s->run.m, core, 0, slot, &n, &v) || v->kind != VAL_TENSOR)
        return;
    int held = condition_holds(s, b, v->u.t, name);
    if (held && count_hit(b)) {
        stop_hit *h = chain_add(c, b, STOP_HIT_PRODUCED, held < 0);
        h->what = xstrdup(name);
    }
}

int stop_chain_build(session *s, const stop_step *step, stop_chain *c)
{
    run_state *r = &s->run;
    memset(c, 0, sizeof *c);
    int until;
    int at = location_hits_stage(s, step, c, &until);
    int stepped = step->core >= 0 && step->core < EXEC_NCORES ? step->core : -1;
    const inspect_frame *writer = stepped >= 0 ? step->was[stepped] : NULL;
    const ir_stmt *ran = step->stmt_done && writer ? writer->stmt : NULL;
    const tensor *fresh[64];
    size_t nfresh = step->before && step->after ? new_bindings(step->before, step->after, fresh, 64) : 0;
    c->core = at >= 0 ? at : stepped;
    c->writer_core = stepped;
    c->watch_rank = r->step_rank;
    /* taken at every step, so that a catchpoint set later sees only later faults */
    int memfault = r->m ? machine_mem_take_fault(r->m) : 0;
    c->writer_line = writer ? writer->line : 0;
    c->writer_func = writer ? writer->func : NULL;
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        if (!b->enabled || !bp_applies_to_rank(s, b))
            continue;
        switch (b->kind) {
        case BP_LINE:
            if (b->cond && stepped >= 0)
                produced_check(s, b, stepped, ran, c);
            break;
        case BP_FUNC:
            break;
        case BP_NAN:
        case BP_INF: {
            if (!step->after)
                break;
            const tensor *hit = NULL;
            for (size_t k = 0; k < nfresh + r->nwritten && !hit; k++) {
                const tensor *t = k < nfresh ? fresh[k] : r->written[k - nfresh];
                if (b->kind == BP_NAN ? tensor_has_nan(t) : tensor_has_inf(t))
                    hit = t;
            }
            if (hit && count_hit(b))
                chain_add(c, b, b->kind == BP_NAN ? STOP_HIT_NAN : STOP_HIT_INF, 0);
            break;
        }
        case BP_WATCH:
            if (step->after)
                watch_check(s, b, c);
            break;
        case BP_PASS:
            break;
        case BP_CATCH_MEMORY:
            if (memfault && count_hit(b))
                chain_add(c, b, STOP_HIT_MEMORY, 0);
            break;
        case BP_CATCH_RACE:
        case BP_CATCH_FENCE:
            if ((step->comm_faults & (b->kind == BP_CATCH_RACE ? RANKS_FAULT_RACE : RANKS_FAULT_FENCE)) &&
                count_hit(b))
                chain_add(c, b, b->kind == BP_CATCH_RACE ? STOP_HIT_RACE : STOP_HIT_FENCE, 0);
            break;
        }
    }
    /* table order (numbers grow as breakpoints are set) */
    if (c->n > 1)
        qsort(c->hits, c->n, sizeof *c->hits, hit_order);
    /* A stop caused by values only is on the core whose statement ran, not
     * the one that holds the name. */
    if (c->n && at < 0)
        c->core = stepped;
    if (until)
        c->stopped = 1;
    return c->stopped;
}

int stop_chain_build_watches(session *s, stop_chain *c)
{
    memset(c, 0, sizeof *c);
    c->core = s->run.core;
    c->writer_core = -1;
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        if (b->enabled && b->kind == BP_WATCH && bp_applies_to_rank(s, b))
            watch_check(s, b, c);
    }
    if (c->n > 1)
        qsort(c->hits, c->n, sizeof *c->hits, hit_order);
    c->watch_rank = s->run.step_rank;
    return c->stopped;
}

void stop_watch_load_rank(session *s, int rank)
{
    if (!s->run.ranks)
        return;
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        if (b->kind != BP_WATCH || b->watch_loaded == rank)
            continue;
        if (b->nwatch_ranks <= rank || b->nwatch_ranks <= b->watch_loaded) {
            int n = (rank > b->watch_loaded ? rank : b->watch_loaded) + 1;
            b->watch_ranks = xreallocarray(b->watch_ranks, (size_t)n, sizeof *b->watch_ranks);
            memset(b->watch_ranks + b->nwatch_ranks, 0, (size_t)(n - b->nwatch_ranks) * sizeof *b->watch_ranks);
            b->nwatch_ranks = n;
        }
        if (b->watch_loaded >= 0)
            b->watch_ranks[b->watch_loaded] = (struct bp_watch_rank){b->watch_seen, b->watch_old, b->watch_bound};
        else if (b->watch_old)
            tensor_unref(b->watch_old); /* primed before any rank was loaded */
        const struct bp_watch_rank *w = &b->watch_ranks[rank];
        b->watch_seen = w->seen;
        b->watch_old = w->old;
        b->watch_bound = w->bound;
        b->watch_ranks[rank] = (struct bp_watch_rank){0};
        b->watch_loaded = rank;
    }
}

int stop_chain_build_pass(session *s, int pass, int at_end, stop_chain *c)
{
    memset(c, 0, sizeof *c);
    c->core = s->run.core;
    c->pass = pass;
    const pass_result *res = at_end && s->results ? &s->results[pass] : NULL;
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        if (!b->enabled || b->kind != BP_PASS || !bp_pass_matches(b, &s->kase.passes[pass]))
            continue;
        if (!at_end) {
            if (!b->cond && count_hit(b))
                chain_add(c, b, STOP_HIT_PASS_START, 0);
            continue;
        }
        if (!b->cond || !res)
            continue;
        for (int k = 0; k < res->nout; k++) {
            if (!res->outputs[k])
                continue;
            int held = condition_holds(s, b, res->outputs[k], s->kase.outputs[k].name);
            if (held && count_hit(b)) {
                stop_hit *h = chain_add(c, b, STOP_HIT_PASS_END, held < 0);
                h->what = xstrdup(s->kase.outputs[k].name);
                break;
            }
        }
    }
    return c->stopped;
}

/* ---- acting on it ----------------------------------------------------------------- */

/* A race or fence catchpoint's report, kept for view_stop_exception and
 * the stop's message. */
static void record_comm_report(session *s, const stop_hit *h)
{
    strbuf rep = STRBUF_INIT;
    ranks_world *w = s->run.ranks ? ranks_sched_world(s->run.ranks) : NULL;
    const char *path = s->run.ranks ? ranks_sched_path(s->run.ranks) : "";
    if (w)
        h->kind == STOP_HIT_RACE ? ranks_world_race(w, path, &rep) : ranks_world_fence_breach(w, path, &rep);
    free(s->run.comm_report);
    s->run.comm_report = strbuf_detach(&rep);
}

void stop_chain_act(session *s, stop_chain *c)
{
    run_state *r = &s->run;
    r->last_bp = c->n ? c->hits[0].bp : 0;
    s->list_line = 0; /* the next `list` centres on the stop, as gdb's does */
    /* A finished pass's condition is a stop like any other (hook-stop, its
     * commands), but the run is over: no location, no displays. A stop
     * inside hook-stop or breakpoint commands (a `step` in a user command
     * they run) is reported, but runs no hooks within hooks. */
    int pass_end = c->n && c->hits[0].kind == STOP_HIT_PASS_END;
    int hooks = !s->in_hook;
    if (hooks) {
        /* gdb runs hook-stop before the stop is printed (its testsuite's
         * hook_stop_before_frame); a hook that ends the run leaves no stop
         * to print */
        s->in_hook++;
        session_notify_before_stop(s);
        s->in_hook--;
        if ((!pass_end && !r->active) || s->quit) {
            stop_chain_free(c);
            return;
        }
    }
    /* gdb's bpstat_print: watchpoints report their values and the chain goes
     * on; the first other printing hit gives the stop's line (presentation
     * prints both). Silent only when every hit is. */
    int print = c->n == 0, location = 1;
    for (size_t i = 0; i < c->n; i++)
        print |= c->hits[i].print;
    for (size_t i = 0; print && i < c->n; i++) {
        const stop_hit *h = &c->hits[i];
        if (!h->print)
            continue;
        if (h->kind == STOP_HIT_WATCH) {
            session_notify_watchpoint_triggered(s, c, h);
            continue;
        }
        if (h->kind == STOP_HIT_RACE || h->kind == STOP_HIT_FENCE)
            record_comm_report(s, h);
        session_notify_breakpoint_stop(s, c, h);
        location = h->kind != STOP_HIT_PASS_END; /* a finished pass has no location */
        break;
    }
    if (print && location)
        session_notify_stop_location(s);
    for (size_t i = 0; i < c->n; i++) {
        breakpoint *b = bp_find(s, c->hits[i].bp);
        if (b && b->temporary)
            bp_delete(s, b);
    }
    if (!pass_end)
        session_notify_normal_stop(s, 1);
    if (hooks) {
        s->in_hook++;
        for (size_t i = 0; i < c->n && (pass_end || r->active) && !s->quit; i++)
            session_notify_breakpoint_hit(s, &c->hits[i]);
        s->in_hook--;
    }
    stop_chain_free(c);
}

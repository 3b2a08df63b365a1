/* Time travel in the debugger's run (timetravel.h): the recorded schedule,
 * the checkpoints and their placement, going to a step or a position, and
 * the reverse commands' backward search.
 *
 * Placement (rr's ReplayTimeline): a checkpoint whenever the run is
 * G statements past the nearest earlier one (`set checkpoint-interval G`,
 * 2048 by default), thinned so that at distance d from the current
 * moment they are about max(2 G, d/4)
 * apart: O(log N) of them, dense where the user is. The run's first moment
 * and user checkpoints are never dropped. A reverse command searches back
 * one checkpoint interval at a time: restore, run forward to the interval's
 * end noting the moments the forward command would have stopped at, take
 * the last.
 *
 * A multi-rank run (run_ranks.h) has no checkpoints: its time is the
 * global schedule's move count, and going to a move makes the schedule
 * again from the pass's start (deterministic). A reverse command searches
 * that one interval, the pass's start to now, with the same test of the
 * moments the forward command stops at (resolve_feed, note_stop). */
#include "debug/run/timetravel.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/mem.h"
#include "debug/run/record.h"
#include "debug/run/queue_track.h"
#include "debug/run/run_ranks.h"
#include "debug/state/session_impl.h"
#include "debug/run/stop.h"
#include "debug/run/timeline.h"
#include "exec/inspect.h"
#include "exec/snapshot.h"
#include "ir/ast.h"

enum { TT_THIN_ABOVE = 12 };

typedef struct tt_ckpt {
    int user;           /* its number for `restart N`, 0 automatic */
    uint64_t step;
    int finished;
    machine_snapshot *ms;
    /* the debugger's tables of the run at that moment */
    struct visit *visits;
    size_t nvisits, capvisits;
    struct point_regions *regions;
    int note_depth[EXEC_NCORES];
    uint32_t note_activation[EXEC_NCORES];
    uint64_t note_steps[EXEC_NCORES];
    uint64_t arrive_step[EXEC_NCORES];
    int last_mover, last_kind;
} tt_ckpt;

struct tt_history {
    tt_ckpt *ck;        /* by step */
    size_t n, cap;
    struct tt_forced { uint64_t step; int core; } *log; /* by step */
    size_t nlog, caplog;
    uint64_t horizon;   /* the recorded history reaches this step */
    int next_user;
    int hold_thin;      /* a backward search is on: thin once it has landed */
    uint64_t goal;      /* a jump's target step (0: none): checkpoints only near it */
};

/* ---- checkpoints ------------------------------------------------------------------------ */

static void ckpt_free(tt_ckpt *c)
{
    machine_snapshot_free(c->ms);
    free(c->visits);
    point_regions_drop(c->regions);
    memset(c, 0, sizeof *c);
}

void tt_free(run_state *r)
{
    struct tt_history *h = r->tt;
    if (!h)
        return;
    for (size_t i = 0; i < h->n; i++)
        ckpt_free(&h->ck[i]);
    free(h->ck);
    free(h->log);
    free(h);
    r->tt = NULL;
}

/* The last checkpoint at or before step (the history's first otherwise). */
static size_t ckpt_at_or_before(const struct tt_history *h, uint64_t step)
{
    size_t k = 0;
    for (size_t i = 0; i < h->n; i++)
        if (h->ck[i].step <= step)
            k = i;
    return k;
}

static tt_ckpt *ckpt_take(run_state *r, int user)
{
    struct tt_history *h = r->tt;
    uint64_t now = machine_steps(r->m);
    size_t at = h->n;
    for (size_t i = 0; i < h->n; i++)
        if (h->ck[i].step > now) {
            at = i;
            break;
        }
    const machine_snapshot *base = at > 0 ? h->ck[at - 1].ms : NULL;
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 16;
        h->ck = xreallocarray(h->ck, h->cap, sizeof *h->ck);
    }
    memmove(&h->ck[at + 1], &h->ck[at], (h->n - at) * sizeof *h->ck);
    h->n++;
    tt_ckpt *c = &h->ck[at];
    memset(c, 0, sizeof *c);
    c->user = user;
    c->step = now;
    c->finished = machine_finished(r->m);
    c->ms = machine_snapshot_take(r->m, base);
    if (r->capvisits) {
        c->visits = xmalloc(r->capvisits * sizeof *c->visits);
        memcpy(c->visits, r->visits, r->capvisits * sizeof *c->visits);
    }
    c->nvisits = r->nvisits;
    c->capvisits = r->capvisits;
    c->regions = point_regions_copy(r->regions);
    memcpy(c->note_depth, r->note_depth, sizeof c->note_depth);
    memcpy(c->note_activation, r->note_activation, sizeof c->note_activation);
    memcpy(c->note_steps, r->note_steps, sizeof c->note_steps);
    memcpy(c->arrive_step, r->arrive_step, sizeof c->arrive_step);
    c->last_mover = r->last_mover;
    c->last_kind = r->last_kind;
    return c;
}

static void ckpt_restore(session *s, const tt_ckpt *c)
{
    run_state *r = &s->run;
    machine_snapshot_restore(r->m, c->ms);
    free(r->visits);
    r->visits = NULL;
    if (c->capvisits) {
        r->visits = xmalloc(c->capvisits * sizeof *r->visits);
        memcpy(r->visits, c->visits, c->capvisits * sizeof *r->visits);
    }
    r->nvisits = c->nvisits;
    r->capvisits = c->capvisits;
    point_regions_free(r);
    r->regions = point_regions_copy(c->regions);
    memcpy(r->note_depth, c->note_depth, sizeof r->note_depth);
    memcpy(r->note_activation, c->note_activation, sizeof r->note_activation);
    memcpy(r->note_steps, c->note_steps, sizeof r->note_steps);
    memcpy(r->arrive_step, c->arrive_step, sizeof r->arrive_step);
    r->last_mover = c->last_mover;
    r->last_kind = c->last_kind;
    for (int k = 0; k < EXEC_NCORES; k++)
        r->prev_depth[k] = inspect_depth(r->m, k);
    /* the timeline keeps the history after the checkpoint (the moments
     * replayed are there already), unless its ring wrapped past it */
    if (r->ntimeline > r->captimeline && r->timeline[r->ntimeline % r->captimeline].step > c->step)
        r->ntimeline = 0;
    /* who pushed the items in flight: unknown after a jump (queue show says so) */
    run_track_free(r);
    run_clear_step_lists(r);
    r->finished = c->finished;
    r->failed = 0;
    r->fail_status = PTODB_OK;
    r->last_bp = 0;
}

/* Drops automatic checkpoints where they are denser than the placement
 * wants around `now`. */
static void thin(struct tt_history *h, uint64_t now, uint64_t gap)
{
    if (h->n <= TT_THIN_ABOVE)
        return;
    for (size_t i = 1; i + 1 < h->n;) {
        tt_ckpt *c = &h->ck[i];
        uint64_t d = c->step > now ? c->step - now : now - c->step;
        uint64_t want = d / 4 > 2 * gap ? d / 4 : 2 * gap;
        if (!c->user && h->ck[i + 1].step - h->ck[i - 1].step <= want) {
            ckpt_free(c);
            memmove(&h->ck[i], &h->ck[i + 1], (h->n - i - 1) * sizeof *h->ck);
            h->n--;
            continue;
        }
        i++;
    }
}

static struct tt_history *history(run_state *r)
{
    if (!r->tt && r->m) {
        r->tt = xcalloc(1, sizeof *r->tt);
        r->tt->horizon = machine_steps(r->m);
        ckpt_take(r, 0);
    }
    return r->tt;
}

void tt_forget(session *s)
{
    run_state *r = &s->run;
    if (r->ranks) { /* a replay from the pass's start would no longer reach this state */
        if (!r->sched_broken)
            r->sched_broken = r->rank_moves + 1;
        return;
    }
    /* the recorded schedule no longer leads to this state (one more than the step: 0 is none) */
    if (r->m && !r->sched_broken)
        r->sched_broken = machine_steps(r->m) + 1;
    if (r->m)
        run_timeline_cut(r, machine_steps(r->m)); /* the moments after now are no longer its future */
    tt_free(r);
    history(r);
}

/* ---- stepping -------------------------------------------------------------------------- */

static int forced_core(const struct tt_history *h, uint64_t step)
{
    size_t lo = 0, hi = h->nlog;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (h->log[mid].step < step)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < h->nlog && h->log[lo].step == step ? h->log[lo].core : -1;
}

ptodb_status tt_step(session *s, int core, exec_event *ev)
{
    run_state *r = &s->run;
    struct tt_history *h = history(r);
    uint64_t now = machine_steps(r->m);
    int live = now >= h->horizon;
    int use = live ? core : forced_core(h, now);
    /* a replayed schedule decides every step (step waits for its core) */
    if (machine_schedule_replaying(r->m))
        use = -1;
    ptodb_status st = use >= 0 ? machine_step_core(r->m, use, ev) : machine_step(r->m, ev);
    uint64_t after = machine_steps(r->m);
    run_timeline_note(s, ev);
    int ok = st == PTODB_OK && ev->kind != EXEC_EV_ERROR;
    if (live && after > now && ok) {
        if (use >= 0) {
            if (h->nlog == h->caplog) {
                h->caplog = h->caplog ? 2 * h->caplog : 64;
                h->log = xreallocarray(h->log, h->caplog, sizeof *h->log);
            }
            h->log[h->nlog].step = now;
            h->log[h->nlog].core = use;
            h->nlog++;
        }
        h->horizon = after;
    }
    if (!ok)
        return st;
    if (after > now) {
        r->last_mover = ev->core;
        r->last_kind = ev->kind;
    }
    run_note_arrivals(r, ev->core);
    long gap = session_get_int(s, SETTING_CHECKPOINT_INTERVAL);
    /* a long jump forward leaves no trail of checkpoints it would thin away */
    int far = h->goal > after && h->goal - after > 2 * (uint64_t)gap;
    if (gap > 0 && !far && after > now && after - h->ck[ckpt_at_or_before(h, after)].step >= (uint64_t)gap) {
        ckpt_take(r, 0);
        if (!h->hold_thin)
            thin(h, after, (uint64_t)gap);
    }
    return st;
}

/* One step of a replay with the bookkeeping run_go does: 1 on, 0 the pass
 * ended or failed (the run says which). */
static int replay_step(session *s, exec_event *ev)
{
    run_state *r = &s->run;
    run_clear_step_lists(r);
    ptodb_status st = tt_step(s, -1, ev);
    if (st != PTODB_OK || ev->kind == EXEC_EV_ERROR) {
        r->failed = 1;
        r->fail_status = st != PTODB_OK ? st : PTODB_ERR_RUNTIME;
        return 0;
    }
    for (int c = 0; c < EXEC_NCORES; c++)
        r->prev_depth[c] = inspect_depth(r->m, c);
    if (ev->kind == EXEC_EV_DONE || machine_finished(r->m)) {
        r->finished = 1;
        return 0;
    }
    return 1;
}

/* Ctrl-C and the front end's progress line, every 4096 statements. */
static int interrupted(session *s, const char *what)
{
    run_state *r = &s->run;
    uint64_t now = r->ranks ? r->rank_moves : machine_steps(r->m);
    if (s->poll && (now & 4095) == 0) {
        char progress[160];
        snprintf(progress, sizeof progress, "pass %d %s: %" PRIu64 " %s (%s)", s->kase.passes[r->pass].index,
                 s->kase.passes[r->pass].name, now, r->ranks ? "moves" : "statements", what);
        s->poll(s->poll_ctx, progress);
    }
    return s->interrupted != 0;
}

int tt_goto_step(session *s, uint64_t step)
{
    run_state *r = &s->run;
    if (!r->active || !r->m)
        return -2;
    if (r->ranks)
        return run_ranks_goto(s, step);
    struct tt_history *h = history(r);
    uint64_t now = machine_steps(r->m);
    if (step == now && !r->failed)
        return 0;
    const tt_ckpt *c = &h->ck[ckpt_at_or_before(h, step)];
    if (step < now || r->failed || c->step > now)
        ckpt_restore(s, c);
    if (step < machine_steps(r->m))
        return 1; /* before the history's first moment: at that moment */
    exec_event ev;
    int rc = 0;
    h->goal = step;
    while (machine_steps(r->m) < step) {
        if (r->finished || r->failed) {
            rc = 1;
            break;
        }
        if (interrupted(s, "seeking")) {
            rc = -1;
            break;
        }
        if (!replay_step(s, &ev)) {
            rc = 1;
            break;
        }
    }
    h->goal = 0;
    return rc;
}

uint64_t tt_now(session *s)
{
    if (s->run.ranks)
        return s->run.rank_moves;
    return s->run.m ? machine_steps(s->run.m) : 0;
}

uint64_t tt_horizon(session *s)
{
    if (s->run.ranks)
        return s->run.rank_horizon;
    struct tt_history *h = s->run.m ? history(&s->run) : NULL;
    return h ? h->horizon : 0;
}

int tt_core_can_run(session *s, int core)
{
    return s->run.m && core >= 0 && core < EXEC_NCORES && inspect_core(s->run.m, core) == INSPECT_CORE_READY;
}

uint64_t tt_state_hash(session *s)
{
    if (s->run.ranks)
        return run_ranks_state_hash(s);
    return s->run.m ? machine_state_hash(s->run.m) : 0;
}

/* ---- positions ------------------------------------------------------------------------- */

static int core_of_name(const char *name)
{
    for (int c = 0; c < EXEC_NCORES; c++)
        if (strcasecmp(name, machine_core_name(c)) == 0)
            return c;
    return -1;
}

/* Where core is: its innermost frame's call, line and iteration. */
static int where(session *s, int core, uint32_t *call, int *line, uint32_t *iter)
{
    run_state *r = &s->run;
    inspect_frame f;
    if (!r->m || !inspect_frame_get(r->m, core, 0, &f) || inspect_core(r->m, core) == INSPECT_CORE_DONE)
        return 0;
    *call = f.activation + 1;
    *line = f.line;
    *iter = run_visit_iteration(r, f.stmt, core, f.activation);
    return 1;
}

int tt_position(session *s, int core, char *buf, size_t size)
{
    run_state *r = &s->run;
    if (core < 0)
        core = r->core;
    uint32_t call, iter;
    int line;
    if (!r->active || !where(s, core, &call, &line, &iter))
        return 0;
    /* the core stands there since its arrival: D moments later is "+D"
     * (other cores moved), so that no two moments print the same */
    char plus[32] = "";
    uint64_t now = tt_now(s);
    if (now > r->arrive_step[core])
        snprintf(plus, sizeof plus, "+%" PRIu64, now - r->arrive_step[core]);
    if (r->ranks) /* PASS:RANK:CORE:CALL:LINE:ITER, the rank as rN */
        snprintf(buf, size, "%d:r%d:%s:%" PRIu32 ":%d:%" PRIu32 "%s", s->kase.passes[r->pass].index, r->rank,
                 machine_core_name(core), call, line, iter, plus);
    else
        snprintf(buf, size, "%d:%s:%" PRIu32 ":%d:%" PRIu32 "%s", s->kase.passes[r->pass].index,
                 machine_core_name(core), call, line, iter, plus);
    return 1;
}

int tt_frame_start(session *s, int core, int level, char *buf, size_t size)
{
    run_state *r = &s->run;
    inspect_frame f;
    if (!r->active || !r->m || !inspect_frame_get(r->m, core, level, &f) || f.first_line <= 0)
        return 0;
    /* when the call began it was the core's innermost frame, at its first
     * statement for the first time in that call (the code's first stop: a
     * group function's pl.func_attr line heads its body but never runs) */
    if (r->ranks)
        snprintf(buf, size, "%d:r%d:%s:%" PRIu32 ":%d:1", s->kase.passes[r->pass].index, r->rank,
                 machine_core_name(core), f.activation + 1, f.first_line);
    else
        snprintf(buf, size, "%d:%s:%" PRIu32 ":%d:1", s->kase.passes[r->pass].index, machine_core_name(core),
                 f.activation + 1, f.first_line);
    return 1;
}

static int parse_u64(const char *t, uint64_t *out)
{
    if (!*t)
        return -1;
    uint64_t v = 0;
    for (; *t; t++) {
        if (*t < '0' || *t > '9' || v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*t - '0');
    }
    *out = v;
    return 0;
}

int tt_parse_position(session *s, const char *text, tt_pos *out, char *err, size_t errsize)
{
    memset(out, 0, sizeof *out);
    while (*text == ' ' || *text == '\t')
        text++;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    size_t n = strlen(buf);
    while (n && (buf[n - 1] == ' ' || buf[n - 1] == '\t'))
        buf[--n] = 0;
    const char *num = buf[0] == '@' ? buf + 1 : buf;
    if (!strchr(buf, ':')) {
        if (parse_u64(num, &out->step) != 0) {
            snprintf(err, errsize, "Expected a position PASS:CORE:CALL:LINE:ITER[+D] or @STEP, got \"%s\".", text);
            return -1;
        }
        out->by_step = 1;
        return 0;
    }
    char *f[7];
    int nf = 0;
    for (char *p = buf; nf < 7;) {
        f[nf++] = p;
        char *c = strchr(p, ':');
        if (!c)
            break;
        *c = 0;
        p = c + 1;
    }
    out->rank = -1;
    if (nf == 6) { /* PASS:RANK:CORE:CALL:LINE:ITER on a multi-rank case, RANK as rN */
        uint64_t rank;
        const char *rk = f[1][0] == 'r' || f[1][0] == 'R' ? f[1] + 1 : f[1];
        if (!s->run.ranks && !s->kase.ranks.nranks) {
            snprintf(err, errsize, "\"%s\" names a rank: this case has one (PASS:CORE:CALL:LINE:ITER).", text);
            return -1;
        }
        if (parse_u64(rk, &rank) != 0 || rank >= (uint64_t)(s->kase.ranks.nranks > 0 ? s->kase.ranks.nranks : 1)) {
            snprintf(err, errsize, "No rank \"%s\" in position \"%s\" (r0 to r%d).", f[1], text,
                     s->kase.ranks.nranks > 0 ? s->kase.ranks.nranks - 1 : 0);
            return -1;
        }
        out->rank = (int)rank;
        for (int i = 1; i < 5; i++)
            f[i] = f[i + 1];
        nf = 5;
    }
    uint64_t pass, call, line, iter, after = 0;
    char *plus = nf == 5 ? strchr(f[4], '+') : NULL;
    if (plus) /* ITER+D: D moments after that arrival */
        *plus++ = 0;
    if (nf != 5 || parse_u64(f[0], &pass) != 0 || parse_u64(f[2], &call) != 0 || parse_u64(f[3], &line) != 0 ||
        parse_u64(f[4], &iter) != 0 || (plus && (parse_u64(plus, &after) != 0 || after < 1)) || pass > INT32_MAX ||
        call < 1 || call > UINT32_MAX || line < 1 || line > INT32_MAX || iter < 1 || iter > UINT32_MAX) {
        snprintf(err, errsize,
                 "Expected a position PASS:CORE:CALL:LINE:ITER[+D] (PASS:RANK:CORE:CALL:LINE:ITER[+D] on a multi-rank "
                 "case; CALL, LINE and ITER from 1, D from 1) or @STEP, got \"%s\".",
                 text);
        return -1;
    }
    out->core = core_of_name(f[1]);
    if (out->core < 0) {
        snprintf(err, errsize, "No core \"%s\" (host, AIC, AIV0 or AIV1).", f[1]);
        return -1;
    }
    out->pass_index = (int)pass;
    out->call = (uint32_t)call;
    out->line = (int)line;
    out->iter = (uint32_t)iter;
    out->after = after;
    return 0;
}

/* The index of the running program's function whose text holds `line`, or -1. */
static int func_of_line(session *s, int line)
{
    run_state *r = &s->run;
    const char *src = session_pass_source(s, r->pass);
    if (!src || !r->prog)
        return -1;
    const char *q = src;
    for (int l = 1; l < line && q; l++) {
        q = strchr(q, '\n');
        if (q)
            q++;
    }
    if (!q)
        return -1;
    size_t off = (size_t)(q - src);
    for (uint32_t i = 0; i < r->prog->nfuncs; i++) {
        const ir_func *f = r->prog->funcs[i].src;
        if (f && f->span.start <= off && off < f->span.end)
            return (int)i;
    }
    return -1;
}

/* Whether checkpoint c is before the arrival position p names (fn: the
 * function of its line): its call had not begun, or the core had arrived
 * at that line fewer times in it. Arrivals only grow: the checkpoints
 * before an arrival are the history's first ones. */
static int ckpt_before_arrival(const tt_ckpt *c, const tt_pos *p, int fn)
{
    uint32_t calls = machine_snapshot_calls(c->ms, p->core, fn);
    if (calls < p->call)
        return 1;
    if (calls > p->call)
        return 0;
    for (size_t j = 0; j < c->capvisits; j++) {
        const struct visit *v = &c->visits[j];
        /* (an entry held for a parked block's call counts too) */
        if (!v->stmt || (v->core & ~RUN_VISIT_HELD) != p->core ||
            (int)((const ir_stmt *)v->stmt)->span.line != p->line)
            continue;
        if (v->act == p->call && v->count - v->base >= p->iter)
            return 0;
    }
    return 1;
}

static int at_position(session *s, const tt_pos *p)
{
    uint32_t call, iter;
    int line;
    return where(s, p->core, &call, &line, &iter) && call == p->call && line == p->line && iter == p->iter;
}

/* A multi-rank run: from the pass's start, the first moment the rank's
 * core stands there. */
static int goto_position_ranks(session *s, const tt_pos *p)
{
    run_state *r = &s->run;
    int was = r->rank;
    r->rank = p->rank >= 0 ? p->rank : r->rank; /* its arrivals are the ones counted */
    int rc = run_ranks_goto(s, 0);
    for (; rc == 0;) {
        if (at_position(s, p)) {
            r->core = p->core;
            r->level = 0;
            return 0;
        }
        if (interrupted(s, "seeking"))
            return -1;
        if (!run_ranks_advance(s))
            rc = 1;
    }
    r->rank = was;
    run_ranks_use(s, was);
    return rc;
}

/* The arrival a position names (without its +D). */
static int goto_arrival(session *s, const tt_pos *p)
{
    run_state *r = &s->run;
    if (r->ranks)
        return goto_position_ranks(s, p);
    struct tt_history *h = history(r);
    /* a position is reached once: from the last checkpoint before it (the
     * history's first moment when the line's function is not known) */
    int fn = func_of_line(s, p->line);
    size_t from = 0;
    for (size_t i = 0; fn >= 0 && i < h->n; i++)
        if (ckpt_before_arrival(&h->ck[i], p, fn))
            from = i;
        else
            break;
    ckpt_restore(s, &h->ck[from]);
    exec_event ev;
    for (;;) {
        if (at_position(s, p)) {
            r->core = p->core;
            r->level = 0;
            return 0;
        }
        if (r->finished || r->failed)
            return 1;
        if (interrupted(s, "seeking"))
            return -1;
        if (!replay_step(s, &ev))
            return 1;
    }
}

int tt_goto_position(session *s, const tt_pos *p)
{
    run_state *r = &s->run;
    if (p->by_step)
        return tt_goto_step(s, p->step);
    int rc = goto_arrival(s, p);
    if (rc != 0 || !p->after)
        return rc;
    /* +D: D moments after the arrival, while the core still stands there */
    uint64_t at = tt_now(s);
    rc = tt_goto_step(s, at + p->after);
    if (rc < 0)
        return rc;
    if (rc == 0 && r->arrive_step[p->core] == at && inspect_depth(r->m, p->core) > 0) {
        r->core = p->core;
        r->level = 0;
        return 0;
    }
    /* the core moved on first (or the pass ended): no moment has that position */
    if (tt_goto_step(s, at) < 0)
        return -1;
    r->core = p->core;
    r->level = 0;
    return 2;
}

/* ---- going backward ---------------------------------------------------------------------- */

/* The breakpoints' counts and watch values, kept across a backward search
 * (which runs the stop's decision on moments it then leaves). */
typedef struct bp_state {
    int hits, ignore;
    tensor *watch_old;
    const tensor *watch_seen;
    int watch_bound;
} bp_state;

static bp_state *bps_save(session *s)
{
    bp_state *v = xcalloc(s->nbps ? s->nbps : 1, sizeof *v);
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        v[i].hits = b->hits;
        v[i].ignore = b->ignore;
        v[i].watch_old = b->watch_old ? tensor_ref(b->watch_old) : NULL;
        v[i].watch_seen = b->watch_seen;
        v[i].watch_bound = b->watch_bound;
    }
    return v;
}

static void bps_restore(session *s, bp_state *v, size_t n)
{
    for (size_t i = 0; i < s->nbps && i < n; i++) {
        breakpoint *b = &s->bps[i];
        b->hits = v[i].hits;
        b->ignore = v[i].ignore;
    }
    for (size_t i = 0; i < n; i++)
        if (v[i].watch_old)
            tensor_unref(v[i].watch_old);
    free(v);
}

/* Watchpoints start from the values they have at the current moment. */
static void watch_reprime(session *s)
{
    if (s->run.ranks) { /* each rank's value */
        run_ranks_watch_reprime(s);
        return;
    }
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        if (b->kind != BP_WATCH)
            continue;
        if (b->watch_old)
            tensor_unref(b->watch_old);
        b->watch_old = NULL;
        b->watch_seen = NULL;
        b->watch_bound = 0;
        stop_watch_prime(s, b);
    }
}

typedef struct search {
    tt_reverse_mode mode;
    int core, d0;
    uint64_t found;       /* the moment (steps) to go to, UINT64_MAX none */
    stop_chain chain;     /* TT_REV_CONTINUE: the last hit's */
    int have_chain;
} search;

/* reverse-continue: the stop a forward run decided at moment t (ch, taken
 * over): 1 when it is the last match so far. At the current moment
 * (at_end) only a value's change counts: the step that made it is behind
 * now. stmt_ran: the step ran a statement (a multi-rank task's start runs
 * none: a watched name it brings into scope is seen where the forward run
 * stopped, not before). */
static int note_stop(search *q, stop_chain *ch, uint64_t t, int at_end, int stmt_ran)
{
    int watch = 0;
    for (size_t i = 0; i < ch->n && stmt_ran; i++)
        watch |= ch->hits[i].kind == STOP_HIT_WATCH && !ch->hits[i].read;
    if (at_end && !watch) {
        stop_chain_free(ch);
        return 0;
    }
    /* a value's change is seen going backward just before the statement
     * that made it */
    q->found = watch ? t - 1 : t;
    if (q->have_chain)
        stop_chain_free(&q->chain);
    q->chain = *ch;
    q->have_chain = 1;
    return 1;
}

/* Runs the interval up to `hi` noting the moments the forward command
 * stops at: 1 done, -1 interrupted. */
static int scan(session *s, search *q, uint64_t hi, int incl)
{
    run_state *r = &s->run;
    int value_bps = q->mode == TT_REV_CONTINUE && stop_needs_values(s);
    int positions = q->mode == TT_REV_CONTINUE && stop_needs_positions(s);
    stop_snapshot before = {0}, after = {0};
    if (q->mode == TT_REV_CONTINUE)
        watch_reprime(s);
    if (q->mode == TT_REV_FINISH && inspect_depth(r->m, q->core) < q->d0)
        q->found = machine_steps(r->m);
    int rc = 1;
    while (machine_steps(r->m) < hi && !r->finished && !r->failed) {
        if (interrupted(s, "running backward")) {
            rc = -1;
            break;
        }
        if (value_bps) {
            stop_snapshot t = before;
            before = after;
            after = t;
            if (!before.n)
                stop_snapshot_take(r->m, &before);
        }
        stop_step step = {0};
        inspect_frame was[EXEC_NCORES];
        for (int c = 0; positions && c < EXEC_NCORES; c++)
            if (inspect_frame_get(r->m, c, 0, &was[c]))
                step.was[c] = &was[c];
        int prev[EXEC_NCORES];
        memcpy(prev, r->prev_depth, sizeof prev);
        exec_event ev;
        if (!replay_step(s, &ev))
            break;
        uint64_t t = machine_steps(r->m);
        /* the interval's end is the current moment in the first interval:
         * only a value's change there is behind it (the step that made it) */
        int at_end = t == hi && !incl;
        if (t > hi || (at_end && q->mode != TT_REV_CONTINUE))
            break;
        switch (q->mode) {
        case TT_REV_STEP:
        case TT_REV_NEXT: /* reverse_search */
            break;
        case TT_REV_FINISH: /* the frame had not begun then: the latest such moment */
            if (inspect_depth(r->m, q->core) < q->d0)
                q->found = t;
            break;
        case TT_REV_CONTINUE: {
            if (value_bps)
                stop_snapshot_take(r->m, &after);
            step.core = ev.core;
            step.stmt_done = ev.kind == EXEC_EV_STMT || ev.kind == EXEC_EV_RETURN;
            for (int c = 0; c < EXEC_NCORES; c++)
                step.entered[c] = r->prev_depth[c] > prev[c];
            step.before = value_bps ? &before : NULL;
            step.after = value_bps ? &after : NULL;
            stop_chain ch;
            if (stop_chain_build(s, &step, &ch))
                note_stop(q, &ch, t, at_end, 1);
            else
                stop_chain_free(&ch);
            break;
        }
        }
    }
    stop_snapshot_free(&before);
    stop_snapshot_free(&after);
    return rc;
}

/* Going backward, watchpoints report the value after the statement as Old
 * and the one before it as New (gdb's and rr's reverse watchpoints). */
static void swap_watch_values(stop_chain *c)
{
    for (size_t i = 0; i < c->n; i++) {
        stop_hit *h = &c->hits[i];
        if (h->kind != STOP_HIT_WATCH || h->read)
            continue;
        tensor *t = h->old;
        h->old = h->now;
        h->now = t;
        h->backward = 1;
    }
}

/* ---- reverse-step and reverse-next: the stop before ---------------------------------------- *
 *
 * Forward, `step` on core C stops where C arrives at a statement by a move
 * of its own; `next` where it does so in its frame or an outer one. Going
 * back goes to the earliest moment from which that forward command comes
 * back to C's current statement:
 *  - C's current statement began at its arrival a (a try that blocked on a
 *    queue arrives again at the same statement: its arrival before);
 *  - when C's own move made a (or another core's move resumed C: a group
 *    call's end resumes its waiting host), the stop before is C's latest
 *    arrival before that move (for `next`, the latest in a frame no deeper
 *    than C's now). When C was blocked or waiting for its group there,
 *    forward `step` would follow another core: reverse-step goes to the
 *    moment before C moved instead;
 *  - when another core's move began C's run there (a group call starts
 *    the kernels' cores), it is that core's stop before its call, that
 *    core selected: the caller's call line;
 *  - the history's first moment has no stop before it.
 * A core's arrivals are counted as positions count them
 * (run_note_arrivals); a core whose run ended (its last statement) stops
 * there, frameless (a multi-rank host between tasks). The search runs
 * backward over the moments of an interval, replayed, then of the interval
 * before, until it has found the stop. */

/* What the search needs of one moment. */
typedef struct tt_mom {
    uint64_t t;
    int mover;          /* the core whose move made it; -1 none, -2 another rank's */
    int kind;           /* its event (exec_event_kind, RUN_KIND_STARTED) */
    int first;          /* the history's first moment */
    unsigned arrived;   /* the cores whose arrival was counted then (bit per core) */
    int depth[EXEC_NCORES];
    unsigned waits;     /* the cores blocked on a queue or waiting for their group call */
} tt_mom;

static void take_mom(session *s, tt_mom *x, int first, int mover, int kind)
{
    run_state *r = &s->run;
    memset(x, 0, sizeof *x);
    x->t = tt_now(s);
    x->mover = first ? -1 : mover;
    x->kind = first ? EXEC_EV_NONE : kind;
    x->first = first;
    for (int c = 0; c < EXEC_NCORES; c++) {
        x->depth[c] = inspect_depth(r->m, c);
        inspect_core_state st = inspect_core(r->m, c);
        if (x->depth[c] > 0 && r->arrive_step[c] == x->t)
            x->arrived |= 1u << c;
        if (x->depth[c] > 0 && (st == INSPECT_CORE_BLOCKED || st == INSPECT_CORE_WAITING))
            x->waits |= 1u << c;
    }
}

/* The search's state; the moments are fed latest first. */
typedef struct tt_resolve {
    tt_reverse_mode mode; /* TT_REV_STEP or TT_REV_NEXT */
    int core;             /* the core whose stop is searched (the caller's after a hand-over) */
    int depth;            /* next: the deepest frame a stop may be in */
    int phase;            /* 0: the arrival at its statement; 1: the moment before; 2: the stop before */
    uint64_t a, m;        /* that arrival, and the moment before it */
    int a_mover, a_kind;
    int a_depth[EXEC_NCORES];
    int done, nomore, found_core;
    uint64_t found;
} tt_resolve;

/* A moment core c stops at: its arrival at a statement, the end of its run,
 * the history's first moment. */
static int mom_stop(const tt_mom *x, int c)
{
    return x->first || ((x->arrived >> c) & 1u) ||
           (x->mover == c && x->kind == EXEC_EV_FINISHED && x->depth[c] == 0);
}

static void resolve_feed(tt_resolve *q, const tt_mom *x)
{
    int c = q->core;
    switch (q->phase) {
    case 0:
        if (!mom_stop(x, c))
            return;
        if (x->first) { /* there since the history began */
            q->done = q->nomore = 1;
            q->found = x->t;
            q->found_core = c;
            return;
        }
        q->a = x->t;
        q->a_mover = x->mover;
        q->a_kind = x->kind;
        memcpy(q->a_depth, x->depth, sizeof q->a_depth);
        q->phase = 1;
        return;
    case 1:
        if (q->a_mover == c && q->a_kind == EXEC_EV_BLOCKED) {
            /* a try that blocked: still the same statement, arrived at before */
            q->phase = 0;
            resolve_feed(q, x);
            return;
        }
        if (q->a_mover != c && x->depth[c] == 0) {
            /* another core's move began c's run (a group call): that core's stop before its call */
            if (q->a_mover < 0) {
                q->done = q->nomore = 1;
                q->found = q->a;
                q->found_core = c;
                return;
            }
            q->core = c = q->a_mover;
            q->depth = q->a_depth[c] > 0 ? q->a_depth[c] : 1;
        }
        q->m = x->t;
        q->phase = 2;
        /* fall through */
    default:
        if (!mom_stop(x, c) || (q->mode == TT_REV_NEXT && x->depth[c] > q->depth && !x->first))
            return;
        q->done = 1;
        q->found_core = c;
        q->found = x->t;
        /* the history's first moment when it is no stop of c's (no arrival there, or a deeper one) */
        q->nomore = x->first &&
                    !(((x->arrived >> c) & 1u) && (q->mode != TT_REV_NEXT || x->depth[c] <= q->depth));
        /* blocked or waiting there, forward step would follow the core that
         * runs: the moment before c moved on, from which it comes back here */
        if (q->mode == TT_REV_STEP && ((x->waits >> c) & 1u) && !x->first)
            q->found = q->m;
        return;
    }
}

/* Runs the search back from now over the history's intervals: 0 found
 * (q->found, q->found_core), -1 interrupted. */
static int reverse_search(session *s, tt_resolve *q)
{
    run_state *r = &s->run;
    struct tt_history *h = history(r);
    uint64_t hi = machine_steps(r->m);
    tt_mom *moms = NULL;
    size_t cap = 0;
    int rc = 0, incl = 1; /* the first interval's last moment is now, fed first */
    h->hold_thin = 1;
    while (!q->done) {
        uint64_t first = h->ck[0].step;
        uint64_t lo = hi > first ? h->ck[ckpt_at_or_before(h, hi - 1)].step : first;
        if (tt_goto_step(s, lo) < 0) {
            rc = -1;
            break;
        }
        size_t n = 0;
        if (cap < 64) {
            cap = 64;
            moms = xreallocarray(moms, cap, sizeof *moms);
        }
        take_mom(s, &moms[n++], lo == first, r->last_mover, r->last_kind);
        while (machine_steps(r->m) < hi && !r->finished && !r->failed) {
            if (interrupted(s, "running backward")) {
                rc = -1;
                break;
            }
            exec_event ev;
            uint64_t before = machine_steps(r->m);
            int on = replay_step(s, &ev);
            if (machine_steps(r->m) > before && !r->failed) {
                if (n == cap) {
                    cap *= 2;
                    moms = xreallocarray(moms, cap, sizeof *moms);
                }
                take_mom(s, &moms[n++], 0, ev.core, ev.kind);
            }
            if (!on)
                break;
        }
        if (rc < 0)
            break;
        for (size_t i = n; i-- > 0 && !q->done;)
            if (moms[i].t < hi || (incl && moms[i].t == hi))
                resolve_feed(q, &moms[i]);
        if (lo == first) { /* the history's first moment decides (mom_stop): not reached */
            if (!q->done) {
                q->done = q->nomore = 1;
                q->found = first;
                q->found_core = q->core;
            }
            break;
        }
        hi = lo;
        incl = 0;
    }
    h->hold_thin = 0;
    free(moms);
    return rc;
}

static void report_here(session *s, stop_chain *c)
{
    run_state *r = &s->run;
    r->level = 0;
    /* a core that had not started yet then: the host, which runs next */
    if (r->m && inspect_depth(r->m, r->core) == 0 && r->core != EXEC_CORE_HOST) {
        r->core = EXEC_CORE_HOST;
        c->core = EXEC_CORE_HOST;
    }
    r->tt_show_position = 1;
    stop_chain_act(s, c);
    r->tt_show_position = 0;
}

/* One backward move; 1 when it reached the history's first moment
 * without a match. */
/* reverse-step and reverse-next (reverse_search): 1 when there was no stop
 * before (at the history's first moment). */
static int reverse_stop_before(session *s, tt_reverse_mode mode, int *was_interrupted)
{
    run_state *r = &s->run;
    struct tt_history *h = history(r);
    int depth = inspect_depth(r->m, r->core);
    tt_resolve q = {.mode = mode, .core = r->core, .depth = depth > 0 ? depth : 1};
    if (reverse_search(s, &q) < 0 || tt_goto_step(s, q.found) < 0) {
        *was_interrupted = 1;
        return 0;
    }
    long gap = session_get_int(s, SETTING_CHECKPOINT_INTERVAL);
    if (gap > 0)
        thin(h, machine_steps(r->m), (uint64_t)gap);
    r->core = q.found_core;
    r->level = 0;
    return q.nomore;
}

/* reverse-continue at the pass's first moment: the stops `run` makes there
 * (run_begin: a pass breakpoint, a breakpoint at the entry's first
 * statement). */
static int start_stop(session *s, stop_chain *c)
{
    if (stop_chain_build_pass(s, s->run.pass, 0, c))
        return 1;
    stop_chain_free(c);
    stop_step step = {.core = EXEC_CORE_HOST};
    step.entered[EXEC_CORE_HOST] = 1;
    if (stop_chain_build(s, &step, c))
        return 1;
    stop_chain_free(c);
    return 0;
}

static int reverse_once(session *s, tt_reverse_mode mode, int *was_interrupted, stop_chain *chain, int *have_chain)
{
    if (mode == TT_REV_STEP || mode == TT_REV_NEXT)
        return reverse_stop_before(s, mode, was_interrupted);
    run_state *r = &s->run;
    struct tt_history *h = history(r);
    search q = {.mode = mode, .core = r->core, .found = UINT64_MAX};
    int level = r->level > 0 && r->level != INSPECT_LAST_FRAME ? r->level : 0;
    q.d0 = inspect_depth(r->m, q.core) - (mode == TT_REV_FINISH ? level : 0);
    uint64_t hi = machine_steps(r->m), now = hi;
    size_t nb = s->nbps;
    bp_state *saved = mode == TT_REV_CONTINUE ? bps_save(s) : NULL;
    int at_start = 0, incl = 0;
    /* the intervals searched get checkpoints as they are replayed; thinning
     * around each would drop the ones the next interval starts from */
    h->hold_thin = 1;
    for (;;) {
        uint64_t first = h->ck[0].step;
        if (hi <= first) {
            at_start = 1;
            break;
        }
        uint64_t lo = h->ck[ckpt_at_or_before(h, hi - 1)].step;
        if (tt_goto_step(s, lo) < 0) {
            *was_interrupted = 1;
            break;
        }
        if (scan(s, &q, hi, incl) < 0) {
            *was_interrupted = 1;
            break;
        }
        if (q.found != UINT64_MAX)
            break;
        hi = lo;
        incl = 1; /* the interval's last moment is its own now */
    }
    /* the pass's first moment: the stops `run` makes there */
    if (at_start && !*was_interrupted && mode == TT_REV_CONTINUE && h->ck[0].step == 0 && now > 0) {
        stop_chain c;
        if (tt_goto_step(s, 0) < 0) {
            *was_interrupted = 1;
        } else if (start_stop(s, &c)) {
            if (q.have_chain)
                stop_chain_free(&q.chain);
            q.chain = c;
            q.have_chain = 1;
            q.found = 0;
            at_start = 0;
        }
    }
    h->hold_thin = 0;
    if (saved)
        bps_restore(s, saved, nb);
    if (*was_interrupted) {
        if (q.have_chain)
            stop_chain_free(&q.chain);
        return 0;
    }
    uint64_t target = q.found != UINT64_MAX ? q.found : h->ck[0].step;
    if (tt_goto_step(s, target) < 0) {
        *was_interrupted = 1;
        if (q.have_chain)
            stop_chain_free(&q.chain);
        return 0;
    }
    long gap = session_get_int(s, SETTING_CHECKPOINT_INTERVAL);
    if (gap > 0)
        thin(h, machine_steps(r->m), (uint64_t)gap);
    if (mode == TT_REV_CONTINUE)
        watch_reprime(s);
    if (q.have_chain && q.found != UINT64_MAX) {
        if (*have_chain)
            stop_chain_free(chain);
        *chain = q.chain;
        *have_chain = 1;
        swap_watch_values(chain);
        r->core = chain->core >= 0 && chain->core < EXEC_NCORES ? chain->core : r->core;
    } else if (q.have_chain) {
        stop_chain_free(&q.chain);
    }
    return at_start || q.found == UINT64_MAX;
}

/* reverse_once on a multi-rank run: one interval, the pass's start to
 * now, replayed with the forward stop tests on the selected rank's core
 * (reverse-continue: every rank's breakpoints and watchpoints, as a
 * forward run decides them), then a second replay to the last match. */
/* reverse_stop_before on a multi-rank run: the moments of the selected
 * rank from the pass's start to now (another rank's move moves none of its
 * cores), searched back, then a second replay to the stop. */
static int reverse_stop_before_ranks(session *s, tt_reverse_mode mode, int *was_interrupted)
{
    run_state *r = &s->run;
    int sel = r->rank;
    int depth = inspect_depth(r->m, r->core);
    tt_resolve q = {.mode = mode, .core = r->core, .depth = depth > 0 ? depth : 1};
    uint64_t hi = r->rank_moves;
    size_t n = 0, cap = 64;
    tt_mom *moms = xmalloc(cap * sizeof *moms);
    int rc = run_ranks_goto(s, 0);
    if (rc >= 0)
        take_mom(s, &moms[n++], 1, -1, EXEC_EV_NONE);
    strbuf err = STRBUF_INIT;
    while (rc == 0 && r->rank_moves < hi) {
        if (interrupted(s, "running backward")) {
            rc = -1;
            break;
        }
        run_ranks_step mv;
        run_ranks_move(s, 0, 0, &mv, &err);
        if (mv.st == RANKS_STEP_PARKED)
            continue;
        if (mv.st != RANKS_STEP_RAN)
            break; /* the run reached now once: not expected before it */
        if (n == cap) {
            cap *= 2;
            moms = xreallocarray(moms, cap, sizeof *moms);
        }
        take_mom(s, &moms[n++], 0, mv.rank != sel ? -2 : mv.started ? EXEC_CORE_HOST : mv.ev.core,
                 mv.started ? RUN_KIND_STARTED : (int)mv.ev.kind);
    }
    strbuf_free(&err);
    for (size_t i = n; rc >= 0 && i-- > 0 && !q.done;)
        resolve_feed(&q, &moms[i]);
    free(moms);
    if (rc >= 0 && !q.done) {
        q.nomore = 1;
        q.found = 0;
        q.found_core = q.core;
    }
    if (rc < 0 || run_ranks_goto(s, q.found) < 0) {
        *was_interrupted = 1;
        return 0;
    }
    r->core = q.found_core;
    r->level = 0;
    return q.nomore;
}

static int reverse_once_ranks(session *s, tt_reverse_mode mode, int *was_interrupted, stop_chain *chain,
                              int *have_chain)
{
    if (mode == TT_REV_STEP || mode == TT_REV_NEXT)
        return reverse_stop_before_ranks(s, mode, was_interrupted);
    run_state *r = &s->run;
    int sel = r->rank, found_rank = sel;
    search q = {.mode = mode, .core = r->core, .found = UINT64_MAX};
    int level = r->level > 0 && r->level != INSPECT_LAST_FRAME ? r->level : 0;
    q.d0 = inspect_depth(r->m, q.core) - (mode == TT_REV_FINISH ? level : 0);
    uint64_t hi = r->rank_moves;
    if (hi == 0)
        return 1;
    size_t nb = s->nbps;
    bp_state *saved = mode == TT_REV_CONTINUE ? bps_save(s) : NULL;
    int rc = run_ranks_goto(s, 0);
    if (mode == TT_REV_CONTINUE)
        watch_reprime(s);
    if (mode == TT_REV_FINISH && inspect_depth(r->m, q.core) < q.d0)
        q.found = 0;
    strbuf err = STRBUF_INIT;
    while (rc == 0 && r->rank_moves < hi) {
        if (interrupted(s, "running backward")) {
            *was_interrupted = 1;
            break;
        }
        run_ranks_step mv;
        run_ranks_move(s, mode == TT_REV_CONTINUE, 0, &mv, &err);
        if (mv.st == RANKS_STEP_PARKED)
            continue;
        if (mv.st != RANKS_STEP_RAN)
            break; /* the run reached now once: not expected before it */
        uint64_t t = r->rank_moves;
        int at_end = t == hi;
        if (mode == TT_REV_CONTINUE) {
            if (mv.stopped) {
                if (note_stop(&q, &mv.chain, t, at_end, !mv.started && mv.ev.kind != EXEC_EV_NONE))
                    found_rank = mv.rank;
                run_ranks_use(s, sel);
            }
        } else if (!at_end && inspect_depth(r->m, q.core) < q.d0) {
            q.found = t; /* finish: the frame had not begun then (whichever rank moved) */
        }
    }
    strbuf_free(&err);
    if (saved)
        bps_restore(s, saved, nb);
    if (*was_interrupted) {
        if (q.have_chain)
            stop_chain_free(&q.chain);
        return 0;
    }
    uint64_t target = q.found != UINT64_MAX ? q.found : 0;
    if (run_ranks_goto(s, target) < 0) {
        *was_interrupted = 1;
        if (q.have_chain)
            stop_chain_free(&q.chain);
        return 0;
    }
    if (mode == TT_REV_CONTINUE)
        watch_reprime(s);
    if (q.have_chain && q.found != UINT64_MAX) {
        if (*have_chain)
            stop_chain_free(chain);
        *chain = q.chain;
        *have_chain = 1;
        swap_watch_values(chain);
        r->rank = found_rank;
        run_ranks_use(s, found_rank);
        r->core = chain->core >= 0 && chain->core < EXEC_NCORES ? chain->core : r->core;
    } else if (q.have_chain) {
        stop_chain_free(&q.chain);
    }
    return q.found == UINT64_MAX;
}

ptodb_status tt_reverse(session *s, tt_reverse_mode mode, long count)
{
    run_state *r = &s->run;
    if (!r->active || !r->m) {
        session_errorf(s, "The program is not being run.");
        return PTODB_ERR_USAGE;
    }
    if (r->level == INSPECT_LAST_FRAME) {
        /* a finished core's last frame: reverse-step and reverse-next go back
         * to its last statement; finish and continue are the host's, as
         * going forward */
        if (mode != TT_REV_STEP && mode != TT_REV_NEXT)
            r->core = EXEC_CORE_HOST;
        r->level = 0;
    }
    if (mode == TT_REV_FINISH && inspect_depth(r->m, r->core) - (r->level > 0 ? r->level : 0) <= 1 &&
        r->core == EXEC_CORE_HOST) {
        session_errorf(s, "\"finish\" not meaningful in the outermost frame.");
        return PTODB_ERR_USAGE;
    }
    if (count < 1)
        count = 1;
    int stop_core = r->core;
    int intr = 0, start = 0, have_chain = 0;
    stop_chain chain;
    for (long i = 0; i < count && !intr && !start; i++) {
        r->core = stop_core;
        start = r->ranks ? reverse_once_ranks(s, mode, &intr, &chain, &have_chain)
                         : reverse_once(s, mode, &intr, &chain, &have_chain);
        stop_core = r->core;
    }
    if (mode != TT_REV_CONTINUE)
        watch_reprime(s);
    if (intr) {
        s->interrupted = 0;
        session_notify_run_interrupted(s);
    } else if (start) {
        session_notify_history_exhausted(s);
    }
    if (!have_chain || intr || start) {
        if (have_chain)
            stop_chain_free(&chain);
        stop_chain_plain(&chain, r->core);
    }
    report_here(s, &chain);
    session_mark_redraw(s, SESSION_REDRAW_SOURCE | SESSION_REDRAW_QUEUES | SESSION_REDRAW_WATCH |
                               SESSION_REDRAW_STATUS);
    return PTODB_OK;
}

/* ---- user checkpoints --------------------------------------------------------------------- */

int tt_checkpoint_user(session *s)
{
    run_state *r = &s->run;
    if (!r->active || !r->m || r->failed || r->ranks)
        return -1;
    struct tt_history *h = history(r);
    uint64_t now = machine_steps(r->m);
    for (size_t i = 0; i < h->n; i++)
        if (h->ck[i].step == now) {
            /* this moment has a checkpoint already: name it */
            if (!h->ck[i].user)
                h->ck[i].user = ++h->next_user;
            return h->ck[i].user;
        }
    tt_ckpt *c = ckpt_take(r, ++h->next_user);
    return c->user;
}

void tt_memory(session *s, size_t *bytes, size_t *live, size_t *count)
{
    run_state *r = &s->run;
    *bytes = *live = *count = 0;
    if (!r->m || !r->tt || r->ranks)
        return;
    for (size_t i = 0; i < r->tt->n; i++)
        *bytes += machine_snapshot_bytes(r->tt->ck[i].ms, NULL) + r->tt->ck[i].capvisits * sizeof(struct visit);
    *live = machine_live_tensor_bytes(r->m);
    *count = r->tt->n;
}

int tt_user_checkpoint(session *s, size_t *cursor, tt_checkpoint_row *row)
{
    run_state *r = &s->run;
    if (!r->active || !r->m || r->ranks)
        return 0;
    struct tt_history *h = history(r);
    for (size_t i = *cursor; i < h->n; i++) {
        if (!h->ck[i].user)
            continue;
        row->user = h->ck[i].user;
        row->step = h->ck[i].step;
        row->finished = h->ck[i].finished;
        *cursor = i + 1;
        return 1;
    }
    *cursor = h->n;
    return 0;
}

ptodb_status tt_restart(session *s, int n)
{
    run_state *r = &s->run;
    struct tt_history *h = r->active && r->m && !r->ranks ? history(r) : NULL;
    for (size_t i = 0; h && i < h->n; i++) {
        if (h->ck[i].user != n)
            continue;
        int rc = tt_goto_step(s, h->ck[i].step);
        if (rc < 0) {
            s->interrupted = 0;
            session_notify_run_interrupted(s);
        }
        watch_reprime(s);
        stop_chain c;
        stop_chain_plain(&c, r->core);
        report_here(s, &c);
        return PTODB_OK;
    }
    session_errorf(s, "No checkpoint number %d.", n);
    return PTODB_ERR_USAGE;
}

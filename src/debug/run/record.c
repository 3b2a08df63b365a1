/* What a run records as it goes (run control's bottom floor,
 * docs/notes-debug.md): the tensors the last step wrote and read, how many times
 * each core arrived at each statement, the GM regions its loads and stores
 * touched, and what they say of a vector lane's share (record.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "debug/run/record_impl.h"
#include "debug/state/session_impl.h"
#include "exec/inspect.h"
#include "exec/region.h"
#include "ir/walk.h"

/* ---- the tensors of the last step ------------------------------------------------------ */

void run_write_hook(void *ud, int core, const tensor *t)
{
    (void)core;
    run_state *r = ud;
    if (r->nwritten == r->capwritten) {
        r->capwritten = r->capwritten ? r->capwritten * 2 : 8;
        r->written = xreallocarray(r->written, r->capwritten, sizeof *r->written);
    }
    /* a reference: an op may write a temporary freed before the step ends */
    r->written[r->nwritten++] = tensor_ref((tensor *)t);
}

void run_clear_step_lists(run_state *r)
{
    for (size_t i = 0; i < r->nwritten; i++)
        tensor_unref((tensor *)r->written[i]);
    for (size_t i = 0; i < r->nread; i++)
        tensor_unref((tensor *)r->read[i]);
    r->nwritten = r->nread = 0;
}

/* rwatch/awatch: the op operands of the last step. */
void run_read_hook(void *ud, int core, const tensor *t)
{
    (void)core;
    run_state *r = ud;
    if (r->nread == r->capread) {
        r->capread = r->capread ? r->capread * 2 : 8;
        r->read = xreallocarray(r->read, r->capread, sizeof *r->read);
    }
    /* a reference: an operand is often a temporary, freed once the op ran */
    r->read[r->nread++] = tensor_ref((tensor *)t);
}

const char *run_core_label(const session *s, int rank, int core, char *buf, size_t n)
{
    if (s->run.ranks)
        snprintf(buf, n, "rank %d, %s", rank < 0 ? s->run.rank : rank, machine_core_name(core));
    else
        snprintf(buf, n, "%s", machine_core_name(core));
    return buf;
}

/* ---- arrival counts --------------------------------------------------------------- */

static size_t visit_slot(const run_state *r, const void *stmt, int core)
{
    size_t h = ((uintptr_t)stmt >> 4) * 31u + (size_t)core;
    return h & (r->capvisits - 1);
}

/* The entry of core at stmt (held: the one holding call act's arrivals,
 * core | RUN_VISIT_HELD), made when missing; the table grows first. */
static struct visit *visit_entry(run_state *r, const void *stmt, int core, int held, uint32_t act)
{
    if ((r->nvisits + 1) * 2 > r->capvisits) {
        size_t old_cap = r->capvisits;
        struct visit *old = r->visits;
        r->capvisits = old_cap ? old_cap * 2 : 256;
        r->visits = xcalloc(r->capvisits, sizeof *r->visits);
        r->nvisits = 0;
        for (size_t i = 0; i < old_cap; i++) {
            if (!old[i].stmt)
                continue;
            size_t j = visit_slot(r, old[i].stmt, old[i].core);
            while (r->visits[j].stmt)
                j = (j + 1) & (r->capvisits - 1);
            r->visits[j] = old[i];
            r->nvisits++;
        }
        free(old);
    }
    int key = held ? core | RUN_VISIT_HELD : core;
    size_t j = visit_slot(r, stmt, key);
    while (r->visits[j].stmt &&
           (r->visits[j].stmt != stmt || r->visits[j].core != key || (held && r->visits[j].act != act)))
        j = (j + 1) & (r->capvisits - 1);
    if (!r->visits[j].stmt) {
        r->visits[j].stmt = stmt;
        r->visits[j].core = key;
        r->visits[j].act = held ? act : 0;
        r->nvisits++;
    }
    return &r->visits[j];
}

/* The arrivals held for call act of core at stmt (visit_entry), or 0. */
static uint32_t held_arrivals(const run_state *r, const void *stmt, int core, uint32_t act)
{
    int key = core | RUN_VISIT_HELD;
    size_t j = visit_slot(r, stmt, key);
    for (; r->visits[j].stmt; j = (j + 1) & (r->capvisits - 1))
        if (r->visits[j].stmt == stmt && r->visits[j].core == key && r->visits[j].act == act)
            return r->visits[j].count;
    return 0;
}

/* One more arrival of core at stmt in call `activation` of its function.
 * parked: SPMD blocks wait at a system.syncall (exec/barrier.c). */
static void count_visit(run_state *r, const void *stmt, int core, uint32_t activation, int parked)
{
    if (!stmt)
        return;
    struct visit *v = visit_entry(r, stmt, core, 0, 0);
    if (v->act != activation + 1) {
        /* another call arrives. While blocks are parked the leaving call
         * may be one of them and resume later: its arrivals are held, and
         * a resumed block's call counts on from its held ones, so that
         * its arrival after the barrier is one of its own */
        if (parked && v->act) {
            uint32_t left = v->act, iter = v->count - v->base;
            visit_entry(r, stmt, core, 1, left)->count = iter;
            v = visit_entry(r, stmt, core, 0, 0); /* (the table may have grown) */
        }
        v->act = activation + 1;
        v->base = v->count - held_arrivals(r, stmt, core, activation + 1);
    }
    v->count++;
}

/* ---- the GM regions a run's loads and stores touched ------------------------------------ */


void point_regions_free(run_state *r)
{
    struct point_regions *pr = r->regions;
    if (!pr)
        return;
    if (pr->keys && --pr->keys->refcount == 0) {
        for (size_t i = 0; i < pr->keys->n; i++)
            free(pr->keys->keys[i]);
        free(pr->keys->keys);
        free(pr->keys);
    }
    free(pr->counts);
    free(pr->seen);
    for (size_t i = 0; i < pr->ntouched; i++)
        free(pr->touched[i]);
    free(pr->touched);
    free(pr);
    r->regions = NULL;
}

struct point_regions *point_regions_copy(const struct point_regions *pr)
{
    if (!pr)
        return NULL;
    struct point_regions *c = xcalloc(1, sizeof *c);
    *c = *pr;
    c->counts = xcalloc(pr->capcounts ? pr->capcounts : 1, sizeof *c->counts);
    if (pr->capcounts)
        memcpy(c->counts, pr->counts, pr->capcounts * sizeof *c->counts);
    if (c->keys)
        c->keys->refcount++;
    c->seen = xcalloc(pr->capseen ? pr->capseen : 1, sizeof *c->seen);
    if (pr->nseen)
        memcpy(c->seen, pr->seen, pr->nseen * sizeof *c->seen);
    c->touched = xcalloc(pr->ntouched ? pr->ntouched : 1, sizeof *c->touched);
    for (size_t i = 0; i < pr->ntouched; i++)
        c->touched[i] = xstrdup(pr->touched[i]);
    return c;
}

void point_regions_drop(struct point_regions *pr)
{
    run_state r = {.regions = pr};
    point_regions_free(&r);
}

static size_t hash_text(const char *t)
{
    size_t h = 1469598103934665603ull & SIZE_MAX;
    for (; *t; t++)
        h = (h ^ (unsigned char)*t) * 1099511628211ull;
    return h;
}

/* One more arrival of core, in function func, at a load/store of exactly
 * region g: the count. Per function: a region written by an initialiser
 * (zero_down) and again by the kernel that accumulates into it are
 * different data, and passes move initialisers between cores. */
static uint32_t bump_region(struct point_regions *pr, int core, const char *func, const exec_region *g)
{
    strbuf key = STRBUF_INIT;
    strbuf_printf(&key, "%d|%s|%d|", core, func, (int)g->kind);
    exec_region_format(g, &key);
    if ((pr->ncounts + 1) * 2 > pr->capcounts) {
        size_t oldcap = pr->capcounts;
        struct region_count *old = pr->counts;
        pr->capcounts = oldcap ? oldcap * 2 : 64;
        pr->counts = xcalloc(pr->capcounts, sizeof *pr->counts);
        for (size_t i = 0; i < oldcap; i++) {
            if (!old[i].key)
                continue;
            size_t j = hash_text(old[i].key) & (pr->capcounts - 1);
            while (pr->counts[j].key)
                j = (j + 1) & (pr->capcounts - 1);
            pr->counts[j] = old[i];
        }
        free(old);
    }
    size_t j = hash_text(strbuf_str(&key)) & (pr->capcounts - 1);
    while (pr->counts[j].key && strcmp(pr->counts[j].key, strbuf_str(&key)) != 0)
        j = (j + 1) & (pr->capcounts - 1);
    if (!pr->counts[j].key) {
        if (!pr->keys) {
            pr->keys = xcalloc(1, sizeof *pr->keys);
            pr->keys->refcount = 1;
        }
        region_keys *k = pr->keys;
        if (k->n == k->cap) {
            k->cap = k->cap ? 2 * k->cap : 64;
            k->keys = xreallocarray(k->keys, k->cap, sizeof *k->keys);
        }
        k->keys[k->n] = strbuf_detach(&key);
        pr->counts[j].key = k->keys[k->n++];
        pr->ncounts++;
    }
    strbuf_free(&key);
    return ++pr->counts[j].n;
}

static void note_touched(struct point_regions *pr, const exec_region *g)
{
    char key[128];
    snprintf(key, sizeof key, "%d|%s", (int)g->kind, g->tensor);
    for (size_t i = 0; i < pr->ntouched; i++)
        if (strcmp(pr->touched[i], key) == 0)
            return;
    pr->touched = xreallocarray(pr->touched, pr->ntouched + 1, sizeof *pr->touched);
    pr->touched[pr->ntouched++] = xstrdup(key);
}

int record_touched(const run_state *r, const exec_region *g)
{
    char key[128];
    snprintf(key, sizeof key, "%d|%s", (int)g->kind, g->tensor);
    for (size_t i = 0; r->regions && i < r->regions->ntouched; i++)
        if (strcmp(r->regions->touched[i], key) == 0)
            return 1;
    return 0;
}

region_seen *record_find_seen(const run_state *r, const void *stmt, int core)
{
    struct point_regions *pr = r->regions;
    for (size_t i = 0; pr && i < pr->nseen; i++)
        if (pr->seen[i].stmt == stmt && pr->seen[i].core == core)
            return &pr->seen[i];
    return NULL;
}

/* Core c has just arrived at st: when st is a load or store, its region. */
static void note_region(run_state *r, int c, const char *func, const ir_stmt *st)
{
    exec_region g;
    if (!exec_region_stmt_kind(st) || !exec_region_of(r->m, c, st, &g))
        return;
    if (!r->regions)
        r->regions = xcalloc(1, sizeof *r->regions);
    struct point_regions *pr = r->regions;
    region_seen *rs = record_find_seen(r, st, c);
    if (!rs) {
        if (pr->nseen == pr->capseen) {
            pr->capseen = pr->capseen ? pr->capseen * 2 : 32;
            pr->seen = xreallocarray(pr->seen, pr->capseen, sizeof *pr->seen);
        }
        rs = &pr->seen[pr->nseen++];
        memset(rs, 0, sizeof *rs);
        rs->stmt = st;
        rs->core = c;
    }
    rs->prev = rs->last;
    rs->prev_k = rs->last_k;
    rs->have = rs->have ? 2 : 1;
    rs->last = g;
    rs->last_k = bump_region(pr, c, func, &g);
    rs->func = func;
    pr->arrived[c] = (int)(rs - pr->seen) + 1;
    note_touched(pr, &g);
}

int point_lane_half(session *s, int axis, int64_t h, char *region, size_t size)
{
    const run_state *r = &s->run;
    inspect_frame f;
    if (!r->regions || !r->m || h <= 0 || !inspect_frame_get(r->m, r->core, r->level, &f))
        return -1;
    int half = -1;
    for (size_t i = 0; i < r->regions->nseen; i++) {
        const region_seen *rs = &r->regions->seen[i];
        const exec_region *g = &rs->last;
        if (rs->core != r->core || strcmp(rs->func, f.func) != 0 || g->kind == EXEC_REGION_POP ||
            axis >= g->ndim || g->len[axis] != h || exec_region_empty(g))
            continue;
        int64_t lo = g->lo[axis] % (2 * h);
        int this_half = lo == 0 ? 0 : lo == h ? 1 : -1;
        if (this_half < 0 || (half >= 0 && this_half != half))
            return -1; /* regions that disagree say nothing */
        half = this_half;
        strbuf sb = STRBUF_INIT;
        exec_region_format(g, &sb);
        snprintf(region, size, "%s", strbuf_str(&sb));
        strbuf_free(&sb);
    }
    return half;
}

void run_note_arrivals(run_state *r, int stepped)
{
    uint64_t now = r->ranks ? r->rank_moves : machine_steps(r->m);
    if (r->regions)
        memset(r->regions->arrived, 0, sizeof r->regions->arrived);
    int parked = inspect_parked_blocks(r->m) > 0;
    for (int c = 0; c < EXEC_NCORES; c++) {
        inspect_frame g;
        if (!inspect_frame_get(r->m, c, 0, &g)) {
            r->note_depth[c] = 0;
            continue;
        }
        int depth = inspect_depth(r->m, c);
        if (c == stepped || depth != r->note_depth[c] || g.activation != r->note_activation[c] ||
            g.local_steps != r->note_steps[c]) {
            count_visit(r, g.stmt, c, g.activation, parked);
            note_region(r, c, g.func, g.stmt);
            r->arrive_step[c] = now;
        }
        r->note_depth[c] = depth;
        r->note_activation[c] = g.activation;
        r->note_steps[c] = g.local_steps;
    }
}

uint32_t run_visit_iteration(const run_state *r, const void *stmt, int core, uint32_t activation)
{
    if (!r->capvisits || !stmt)
        return 0;
    size_t j = visit_slot(r, stmt, core);
    while (r->visits[j].stmt) {
        if (r->visits[j].stmt == stmt && r->visits[j].core == core)
            return r->visits[j].act == activation + 1 ? r->visits[j].count - r->visits[j].base : 0;
        j = (j + 1) & (r->capvisits - 1);
    }
    return 0;
}

uint32_t record_visit_count(const run_state *r, const void *stmt, int core)
{
    if (!r->capvisits)
        return 0;
    size_t j = visit_slot(r, stmt, core);
    while (r->visits[j].stmt) {
        if (r->visits[j].stmt == stmt && r->visits[j].core == core)
            return r->visits[j].count;
        j = (j + 1) & (r->capvisits - 1);
    }
    return 0;
}

/* ---- a vector lane's share -------------------------------------------------------------- */

tensor *session_lane_share(session *s, const tensor *a, const tensor *b, int pass)
{
    int core = s->run.core;
    if ((core != EXEC_CORE_AIV0 && core != EXEC_CORE_AIV1) || a->ndim != b->ndim)
        return NULL;
    int axis = -1;
    for (int d = 0; d < a->ndim; d++) {
        if (a->shape[d] == b->shape[d])
            continue;
        if (axis >= 0 || b->shape[d] != 2 * a->shape[d])
            return NULL;
        axis = d;
    }
    if (axis < 0)
        return NULL;
    int64_t h = a->shape[axis];
    /* the half the lane's own loads and stores cover (its subblock_idx
     * offsets), else the lane's index */
    char region[128];
    int64_t lane = point_lane_half(s, axis, h, region, sizeof region);
    int by_region = lane >= 0;
    if (!by_region)
        lane = core - EXEC_CORE_AIV0;
    ptodb_status st;
    tensor *half = tensor_slice(b, axis, lane * h, (lane + 1) * h, 1, &st);
    if (half) {
        run_lane_share ls = {.core = core,
                             .axis = axis,
                             .ndim = a->ndim,
                             .lo = lane * h,
                             .hi = (lane + 1) * h,
                             .pass = pass,
                             .region = by_region ? region : NULL,
                             .lane = lane};
        session_notify_lane_share_taken(s, &ls);
    }
    return half;
}

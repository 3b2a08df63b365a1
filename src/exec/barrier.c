/* system.syncall inside an SPMD launch (machine_int.h): a barrier of every
 * block of the launch. pto-isa's SYNCALL is a cross-core all-participant
 * barrier (include/pto/npu/a2a3/SyncAll.hpp:19-46: each core signals its
 * FFTS flag and waits for every participant's), and PyPTO lowers
 * pl.system.syncall to it (pto_ops_crosscore.cpp:633-646). The machine
 * runs a launch's blocks one after the other in one frame, so a block that
 * reaches a syncall is parked: its frames from the launch's on are kept
 * here and the launch goes on with the next block; after the last block
 * the parked ones resume in the order they parked. A block that parks
 * again parks behind every block still waiting, so no block passes
 * barrier k before every block has reached it. */
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "exec/machine_int.h"

static value *copy_slots(const value *v, size_t n)
{
    value *r = xmalloc((n ? n : 1) * sizeof *r);
    for (size_t i = 0; i < n; i++)
        r[i] = value_copy(&v[i]);
    return r;
}

/* A deep copy of frame f (the program gives the dyns' count). */
static xframe frame_copy(const xframe *f, const xprogram *p)
{
    xframe r = *f;
    r.slots = copy_slots(f->slots, f->fn->nslots);
    r.loops = NULL;
    if (f->fn->nloops) {
        r.loops = xmalloc(f->fn->nloops * sizeof *r.loops);
        memcpy(r.loops, f->loops, f->fn->nloops * sizeof *r.loops);
    }
    r.dyns = f->dyns ? copy_slots(f->dyns, p->ndyns) : NULL;
    return r;
}

/* The frames a parked core holds: its stack, or its kept last frame. */
static int parked_nframes(const core *c)
{
    return c->depth ? c->depth : c->kept ? 1 : 0;
}

static void group_free(spmd_park_group *pg)
{
    if (!pg)
        return;
    for (int k = 0; k < pg->grp.ncores; k++) {
        core *c = &pg->cores[k];
        for (int i = 0; i < parked_nframes(c); i++)
            machine_frame_free(&c->frames[i]);
        free(c->frames);
        value_clear(&c->result);
    }
    exec_memcheck_saved_free(pg->mem);
    free(pg);
}

static void park_free(spmd_park *k)
{
    for (int i = 0; i < k->nframes; i++)
        machine_frame_free(&k->frames[i]);
    free(k->frames);
    group_free(k->group);
    k->group = NULL;
    k->frames = NULL;
    k->nframes = 0;
}

void spmd_barrier_clear(spmd_barrier *b)
{
    for (size_t i = b->first; i < b->n; i++)
        park_free(&b->parks[i]);
    free(b->parks);
    memset(b, 0, sizeof *b);
}

void spmd_barrier_start(machine *m, const core *c, int depth, uint32_t head, int32_t loop)
{
    spmd_barrier *b = &m->bar;
    spmd_barrier_clear(b);
    b->active = 1;
    b->core = c->id;
    b->depth = depth;
    b->head = head;
    b->loop = loop;
}

/* Parks core c's frames from the launch's on (advance: past the syncall
 * the innermost stands at) and sends the launch frame to its FOR_NEXT. */
static spmd_park *park_frames(machine *m, core *c, int advance)
{
    spmd_barrier *b = &m->bar;
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 16;
        b->parks = xreallocarray(b->parks, b->cap, sizeof *b->parks);
    }
    spmd_park *k = &b->parks[b->n++];
    int nf = c->depth - b->depth;
    k->nframes = nf;
    k->state = CORE_READY;
    k->group = NULL;
    k->frames = xmalloc((size_t)nf * sizeof *k->frames);
    xframe *launch = &c->frames[b->depth];
    /* the launch frame goes on with the next block: a copy parks */
    k->frames[0] = frame_copy(launch, m->p);
    for (int i = 1; i < nf; i++)
        k->frames[i] = c->frames[b->depth + i];
    c->depth = b->depth + 1;
    if (advance)
        k->frames[nf - 1].pc++; /* past the syncall */
    launch->pc = b->head;
    return k;
}

int spmd_barrier_park(machine *m, core *c)
{
    spmd_barrier *b = &m->bar;
    if (!b->active || b->core != c->id || c->depth <= b->depth)
        return 0;
    park_frames(m, c, 1);
    return 1;
}

int spmd_barrier_group_waits(machine *m, core *c)
{
    spmd_barrier *b = &m->bar;
    if (!b->active || !c->in_group || !m->grp.active)
        return 0;
    const core *host = &m->cores[b->core];
    return host->state == CORE_WAIT_GROUP && host->depth > b->depth;
}

int spmd_barrier_park_group(machine *m)
{
    spmd_barrier *b = &m->bar;
    group_run *g = &m->grp;
    if (!b->active || !g->active)
        return 0;
    core *host = &m->cores[b->core];
    if (host->state != CORE_WAIT_GROUP || host->depth <= b->depth)
        return 0;
    int waiting = 0;
    for (int k = 0; k < g->ncores; k++) {
        const core *c = &m->cores[g->order[k]];
        if (c->at_barrier)
            waiting = 1;
        else if (c->state != CORE_DONE)
            return 0;
    }
    if (!waiting)
        return 0;
    uint32_t queued = xrt_queued(&g->rt);
    if (queued) {
        strbuf_clear(&m->error);
        strbuf_printf(&m->error,
                      "%s: a system.syncall in group %s with %u item(s) still in its cross-core queues: "
                      "ptodb parks a block at the barrier only with its queues empty",
                      m->p->path, g->g ? g->g->name : "?", queued);
        return -1;
    }
    spmd_park *k = park_frames(m, host, 0);
    k->state = CORE_WAIT_GROUP;
    spmd_park_group *pg = xcalloc(1, sizeof *pg);
    pg->grp = *g;
    for (int i = 0; i < g->ncores; i++) {
        core *c = &m->cores[g->order[i]];
        pg->cores[i] = *c;
        c->frames = NULL;
        c->cap = c->depth = c->kept = 0;
        c->result = value_none();
        c->at_barrier = 0;
        c->nwait = 0;
        c->in_group = 0;
        c->state = CORE_IDLE;
        c->rt = &m->global_rt;
    }
    /* on the device each block runs on cores of its own: their memories
     * wait with the block */
    pg->mem = m->mem ? exec_memcheck_save_cores(m->mem) : NULL;
    k->group = pg;
    xrt_reset(&g->rt);
    g->active = 0;
    host->state = CORE_READY;
    return 1;
}

int spmd_barrier_resume(machine *m, core *c)
{
    spmd_barrier *b = &m->bar;
    if (!b->active || b->core != c->id || c->depth != b->depth + 1)
        return 0;
    if (b->first == b->n) {
        spmd_barrier_clear(b);
        return 0;
    }
    spmd_park k = b->parks[b->first++];
    if (c->cap < b->depth + k.nframes) {
        c->cap = b->depth + k.nframes;
        c->frames = xreallocarray(c->frames, (size_t)c->cap, sizeof *c->frames);
    }
    /* the launch's loop is past its last block: it stays so */
    xloop launch = c->frames[b->depth].loops[b->loop];
    machine_frame_free(&c->frames[b->depth]);
    k.frames[0].loops[b->loop] = launch;
    for (int i = 0; i < k.nframes; i++)
        c->frames[b->depth + i] = k.frames[i];
    c->depth = b->depth + k.nframes;
    c->state = k.state;
    free(k.frames);
    if (k.group) {
        xrt live = m->grp.rt;
        m->grp = k.group->grp;
        m->grp.rt = live;
        xrt_take_state(&m->grp.rt, &k.group->grp.rt);
        for (int i = 0; i < m->grp.ncores; i++) {
            core *gc = &m->cores[m->grp.order[i]];
            const core *pc = &k.group->cores[i];
            machine_core_clear(gc);
            free(gc->frames);
            gc->frames = pc->frames;
            gc->depth = pc->depth;
            gc->cap = pc->cap;
            gc->kept = pc->kept;
            gc->result = pc->result;
            gc->lane = pc->lane;
            gc->in_group = pc->in_group;
            gc->whole = pc->whole;
            gc->replay = pc->replay;
            gc->blocked_since = pc->blocked_since;
            gc->race_clock = pc->race_clock;
            gc->nwait = 0;
            gc->wait_room = 0;
            gc->rt = &m->grp.rt;
            gc->state = pc->at_barrier ? CORE_READY : pc->state;
            gc->at_barrier = 0;
        }
        if (m->race && m->grp.race_instance)
            exec_gmrace_enter(m->race, m->grp.race_instance, m->grp.race_rec, m->grp.race_block,
                              m->grp.race_twin);
        if (k.group->mem && m->mem)
            exec_memcheck_restore_cores(m->mem, k.group->mem);
        exec_memcheck_saved_free(k.group->mem);
        free(k.group);
    }
    return 1;
}

/* ---- snapshots ------------------------------------------------------------ */

typedef struct barrier_saved {
    spmd_barrier b; /* parks[0..n - first): copies */
    const xprogram *p;
} barrier_saved;

static spmd_barrier barrier_copy(const spmd_barrier *b, const xprogram *p)
{
    spmd_barrier r = *b;
    r.first = 0;
    r.n = b->n - b->first;
    r.cap = r.n;
    r.parks = r.n ? xcalloc(r.n, sizeof *r.parks) : NULL;
    for (size_t i = 0; i < r.n; i++) {
        const spmd_park *k = &b->parks[b->first + i];
        r.parks[i].nframes = k->nframes;
        r.parks[i].frames = xmalloc((size_t)k->nframes * sizeof *k->frames);
        for (int j = 0; j < k->nframes; j++)
            r.parks[i].frames[j] = frame_copy(&k->frames[j], p);
        r.parks[i].state = k->state;
        r.parks[i].group = NULL;
        if (k->group) {
            spmd_park_group *pg = xmalloc(sizeof *pg);
            *pg = *k->group;
            for (int c = 0; c < pg->grp.ncores; c++) {
                core *pc = &pg->cores[c];
                int nf = parked_nframes(pc);
                pc->frames = xmalloc((size_t)(nf ? nf : 1) * sizeof *pc->frames);
                pc->cap = nf;
                for (int j = 0; j < nf; j++)
                    pc->frames[j] = frame_copy(&k->group->cores[c].frames[j], p);
                pc->result = value_copy(&k->group->cores[c].result);
            }
            pg->mem = k->group->mem ? exec_memcheck_saved_cores_copy(k->group->mem) : NULL;
            r.parks[i].group = pg;
        }
    }
    return r;
}

void *spmd_barrier_save(const machine *m)
{
    if (!m->bar.active)
        return NULL;
    barrier_saved *s = xmalloc(sizeof *s);
    s->b = barrier_copy(&m->bar, m->p);
    s->p = m->p;
    return s;
}

void spmd_barrier_restore(machine *m, const void *saved)
{
    spmd_barrier_clear(&m->bar);
    if (saved)
        m->bar = barrier_copy(&((const barrier_saved *)saved)->b, m->p);
}

void spmd_barrier_saved_free(void *saved)
{
    barrier_saved *s = saved;
    if (!s)
        return;
    spmd_barrier_clear(&s->b);
    free(s);
}

size_t spmd_barrier_saved_bytes(const void *saved)
{
    const barrier_saved *s = saved;
    if (!s)
        return 0;
    size_t n = sizeof *s;
    for (size_t i = s->b.first; i < s->b.n; i++)
        for (int j = 0; j < s->b.parks[i].nframes; j++) {
            const xframe *f = &s->b.parks[i].frames[j];
            n += sizeof *f + f->fn->nslots * sizeof(value) + f->fn->nloops * sizeof(xloop);
        }
    return n;
}

static void walk_frames(const xframe *fr, int n, const xprogram *p, void (*fn)(void *ud, const value *v), void *ud)
{
    for (int j = 0; j < n; j++) {
        const xframe *f = &fr[j];
        for (uint32_t k = 0; k < f->fn->nslots; k++)
            fn(ud, &f->slots[k]);
        if (f->dyns)
            for (uint32_t k = 0; k < p->ndyns; k++)
                fn(ud, &f->dyns[k]);
    }
}

void spmd_barrier_walk(const spmd_barrier *b, const xprogram *p, void (*fn)(void *ud, const value *v), void *ud)
{
    for (size_t i = b->first; i < b->n; i++) {
        walk_frames(b->parks[i].frames, b->parks[i].nframes, p, fn, ud);
        const spmd_park_group *pg = b->parks[i].group;
        for (int c = 0; pg && c < pg->grp.ncores; c++) {
            walk_frames(pg->cores[c].frames, parked_nframes(&pg->cores[c]), p, fn, ud);
            fn(ud, &pg->cores[c].result);
        }
    }
}

/* Machine snapshots (snapshot.h): cores and frames, the group run, the
 * queues, the tensors they reach (restored in place), and the parts. */
#include "exec/snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "exec/state_walk.h"
#include "exec/write_log.h"

/* A copy of a storage's bytes, shared by the snapshots it did not change
 * between. */
typedef struct blob {
    int refcount;
    size_t n;
    unsigned char data[];
} blob;

typedef struct snap_tensor {
    tensor *t;     /* one reference held */
    tensor saved;  /* its fields (refcount ignored) */
} snap_tensor;

typedef struct snap_storage {
    tensor_storage *s; /* one reference held */
    blob *b;           /* NULL for an empty storage */
    uint64_t version;  /* write_log's, when copied */
    int own;           /* 1: this snapshot made the copy (0: shared with base) */
} snap_storage;

/* A frame: its fields by value (so a field added to xframe is kept
 * without a change here), its arrays copied. */
typedef struct snap_frame {
    xframe fr;         /* fr.slots, fr.loops, fr.dyns are the copies below */
    const xfunc *fn;
    value *slots;
    xloop *loops;
    value *dyns;
    uint32_t nslots, ndyns;
} snap_frame;

typedef struct snap_core {
    core c;            /* the scalar fields; its pointers are not ours */
    snap_frame *frames;
    int nframes;
    uint32_t *calls;
    value result;
} snap_core;

/* A queue runtime with each queue's items copied front first. */
typedef struct snap_rt {
    xrt rt;                          /* the scalar fields */
    value *items[XRT_NQUEUES];
    gmrace_clock *stamps[XRT_NQUEUES]; /* each item's pusher clock (exec/gmrace.h) */
    uint32_t n[XRT_NQUEUES];
} snap_rt;

struct machine_snapshot {
    uint64_t steps;
    snap_core cores[EXEC_NCORES];
    group_run grp;  /* its rt is in grp_rt */
    snap_rt grp_rt, global_rt;
    int finished, error_ref;
    uint64_t block_seq, rng;
    uint64_t next_task;                  /* pl.submit's next TaskId */
    uint64_t race_serial, race_spmd;     /* the GM race check's launch numbering */
    char *differs[EXEC_SEMDIFF_COUNT];   /* the REF-differs notes so far */
    char *error, *ref_note;
    snap_tensor *tensors;
    size_t ntensors;
    snap_storage *storages;
    size_t nstorages;
    ptr_index storage_index; /* storage -> its number in storages */
    void **parts;            /* per machine_snapshot_parts() entry */
    size_t nparts;
    size_t own_bytes, copied_bytes, shared_bytes;
};

/* ---- the tensors a state reaches ---------------------------------------------- */

typedef struct collect {
    machine_snapshot *s;
    ptr_index tensors;
    size_t cap_t, cap_s;
} collect;

static void collect_value(void *ud, const value *v)
{
    collect *c = ud;
    if (v->kind == VAL_TUPLE && v->u.tuple) {
        for (uint32_t i = 0; i < v->u.tuple->n; i++)
            collect_value(ud, &v->u.tuple->items[i]);
        return;
    }
    if (v->kind != VAL_TENSOR || !v->u.t)
        return;
    int added;
    ptr_index_put(&c->tensors, v->u.t, &added);
    if (!added)
        return;
    machine_snapshot *s = c->s;
    if (s->ntensors == c->cap_t) {
        c->cap_t = c->cap_t ? 2 * c->cap_t : 64;
        s->tensors = xreallocarray(s->tensors, c->cap_t, sizeof *s->tensors);
    }
    snap_tensor *st = &s->tensors[s->ntensors++];
    st->t = tensor_ref(v->u.t);
    st->saved = *v->u.t;
    tensor_storage *sg = v->u.t->storage;
    if (!sg)
        return;
    ptr_index_put(&s->storage_index, sg, &added);
    if (!added)
        return;
    if (s->nstorages == c->cap_s) {
        c->cap_s = c->cap_s ? 2 * c->cap_s : 64;
        s->storages = xreallocarray(s->storages, c->cap_s, sizeof *s->storages);
    }
    snap_storage *ss = &s->storages[s->nstorages++];
    memset(ss, 0, sizeof *ss);
    ss->s = tensor_storage_ref(sg);
}

static blob *blob_of(const tensor_storage *sg)
{
    if (!sg->data || !sg->nbytes)
        return NULL;
    blob *b = xmalloc(sizeof *b + sg->nbytes);
    b->refcount = 1;
    b->n = sg->nbytes;
    memcpy(b->data, sg->data, sg->nbytes);
    return b;
}

static void blob_unref(blob *b)
{
    if (b && --b->refcount == 0)
        free(b);
}

/* ---- values ------------------------------------------------------------------- */

static value *copy_values(const value *v, size_t n)
{
    value *c = xcalloc(n ? n : 1, sizeof *c);
    for (size_t i = 0; i < n; i++)
        c[i] = value_copy(&v[i]);
    return c;
}

static void clear_values(value *v, size_t n)
{
    if (!v)
        return;
    for (size_t i = 0; i < n; i++)
        value_clear(&v[i]);
    free(v);
}

/* ---- queues ------------------------------------------------------------------- */

static void save_rt(const xrt *rt, snap_rt *out, size_t *bytes)
{
    out->rt = *rt;
    xqueue *q[XRT_NQUEUES];
    xrt_queues((xrt *)rt, q);
    for (int i = 0; i < XRT_NQUEUES; i++) {
        out->n[i] = q[i]->n;
        out->items[i] = NULL;
        out->stamps[i] = NULL;
        if (!q[i]->n)
            continue;
        out->items[i] = xcalloc(q[i]->n, sizeof(value));
        out->stamps[i] = xcalloc(q[i]->n, sizeof(gmrace_clock));
        for (uint32_t k = 0; k < q[i]->n; k++) {
            out->items[i][k] = value_copy(&q[i]->items[(q[i]->head + k) % q[i]->cap]);
            out->stamps[i][k] = q[i]->stamps[(q[i]->head + k) % q[i]->cap];
        }
        *bytes += q[i]->n * (sizeof(value) + sizeof(gmrace_clock));
    }
}

static void restore_rt(xrt *rt, const snap_rt *sv)
{
    xqueue *q[XRT_NQUEUES], *sq[XRT_NQUEUES];
    xrt_queues(rt, q);
    xrt_queues((xrt *)&sv->rt, sq);
    for (int i = 0; i < XRT_NQUEUES; i++) {
        while (q[i]->n) {
            value v = xq_pop(q[i]);
            value_clear(&v);
        }
        q[i]->head = 0;
        for (uint32_t k = 0; k < sv->n[i]; k++) {
            xq_push(q[i], value_copy(&sv->items[i][k]));
            *xq_tail_stamp(q[i]) = sv->stamps[i][k];
        }
        q[i]->to_aiv = sq[i]->to_aiv;
        q[i]->split = sq[i]->split;
        q[i]->lane = sq[i]->lane;
        q[i]->pipe = sq[i]->pipe;
        q[i]->touched = sq[i]->touched;
        q[i]->limit = sq[i]->limit;
        q[i]->name = sq[i]->name;
    }
    rt->dual_nosplit = sv->rt.dual_nosplit;
    memcpy(rt->gather_posted, sv->rt.gather_posted, sizeof rt->gather_posted);
    memcpy(rt->gather_taken, sv->rt.gather_taken, sizeof rt->gather_taken);
    memcpy(rt->pipe, sv->rt.pipe, sizeof rt->pipe);
    memcpy(rt->tfree_to_aic, sv->rt.tfree_to_aic, sizeof rt->tfree_to_aic);
    rt->tfree_to_aiv = sv->rt.tfree_to_aiv;
}

static void free_rt(snap_rt *sv)
{
    for (int i = 0; i < XRT_NQUEUES; i++) {
        clear_values(sv->items[i], sv->n[i]);
        free(sv->stamps[i]);
    }
}

/* ---- cores ---------------------------------------------------------------------- */

static void save_core(const machine *m, const core *c, snap_core *out, size_t *bytes)
{
    out->c = *c;
    out->nframes = machine_core_nframes(c);
    out->frames = xcalloc(out->nframes ? (size_t)out->nframes : 1, sizeof *out->frames);
    for (int d = 0; d < out->nframes; d++) {
        const xframe *f = &c->frames[d];
        snap_frame *sf = &out->frames[d];
        sf->fr = *f;
        sf->fn = f->fn;
        sf->slots = copy_values(f->slots, f->fn->nslots);
        sf->nslots = f->fn->nslots;
        sf->loops = f->fn->nloops ? xmemdup(f->loops, f->fn->nloops * sizeof *f->loops) : NULL;
        sf->dyns = f->dyns ? copy_values(f->dyns, m->p->ndyns) : NULL;
        sf->ndyns = f->dyns ? m->p->ndyns : 0;
        *bytes += f->fn->nslots * sizeof(value) + f->fn->nloops * sizeof(xloop) +
                  (f->dyns ? m->p->ndyns * sizeof(value) : 0);
    }
    size_t nf = m->p->nfuncs ? m->p->nfuncs : 1;
    out->calls = xmemdup(c->calls, nf * sizeof *c->calls);
    out->result = value_copy(&c->result);
    *bytes += nf * sizeof *c->calls + (size_t)out->nframes * sizeof *out->frames;
}

static void restore_core(const machine *m, core *c, const snap_core *sc)
{
    machine_core_clear(c);
    if (c->cap < sc->nframes) {
        c->cap = sc->nframes;
        c->frames = xreallocarray(c->frames, (size_t)c->cap, sizeof *c->frames);
    }
    for (int d = 0; d < sc->nframes; d++) {
        const snap_frame *sf = &sc->frames[d];
        xframe *f = &c->frames[d];
        *f = sf->fr;
        f->slots = copy_values(sf->slots, sf->nslots);
        f->loops = sf->fn->nloops ? xmemdup(sf->loops, sf->fn->nloops * sizeof *f->loops) : NULL;
        f->dyns = sf->dyns ? copy_values(sf->dyns, sf->ndyns) : NULL;
    }
    c->depth = sc->c.depth;
    c->kept = sc->c.kept;
    c->lane = sc->c.lane;
    c->in_group = sc->c.in_group;
    c->whole = sc->c.whole;
    c->replay = sc->c.replay;
    c->at_barrier = sc->c.at_barrier;
    c->state = sc->c.state;
    c->rt = sc->c.rt;
    c->blocked_since = sc->c.blocked_since;
    c->race_clock = sc->c.race_clock;
    memcpy(c->wait_what, sc->c.wait_what, sizeof c->wait_what);
    memcpy(c->wait_op, sc->c.wait_op, sizeof c->wait_op);
    memcpy(c->wait_args, sc->c.wait_args, sizeof c->wait_args);
    memcpy(c->wait, sc->c.wait, sizeof c->wait);
    c->nwait = sc->c.nwait;
    c->wait_room = sc->c.wait_room;
    memcpy(c->calls, sc->calls, (m->p->nfuncs ? m->p->nfuncs : 1) * sizeof *c->calls);
    value_clear(&c->result);
    c->result = value_copy(&sc->result);
    c->ctx.err_set = 0;
    c->ctx.fail_at = NULL;
    c->ctx.ref_fail = 0;
    c->ctx.nwait = 0;
}

static void free_core(const snap_core *sc)
{
    for (int d = 0; d < sc->nframes; d++) {
        snap_frame *sf = &sc->frames[d];
        clear_values(sf->slots, sf->nslots);
        free(sf->loops);
        clear_values(sf->dyns, sf->ndyns);
    }
    free(sc->frames);
    free(sc->calls);
    value_clear((value *)&sc->result);
}

/* ---- the snapshot ---------------------------------------------------------------- */

machine_snapshot *machine_snapshot_take(machine *m, const machine_snapshot *base)
{
    if (!m->wlog)
        m->wlog = exec_write_log_new();
    machine_snapshot *s = xcalloc(1, sizeof *s);
    s->steps = m->steps;
    size_t bytes = sizeof *s;
    for (int i = 0; i < EXEC_NCORES; i++)
        save_core(m, &m->cores[i], &s->cores[i], &bytes);
    s->grp = m->grp;
    save_rt(&m->grp.rt, &s->grp_rt, &bytes);
    save_rt(&m->global_rt, &s->global_rt, &bytes);
    s->finished = m->finished;
    s->error_ref = m->error_ref;
    s->block_seq = m->block_seq;
    s->rng = m->rng;
    s->next_task = m->next_task;
    s->race_serial = m->race_serial;
    s->race_spmd = m->race_spmd;
    for (int i = 0; i < EXEC_SEMDIFF_COUNT; i++)
        s->differs[i] = m->differs[i] ? xstrdup(m->differs[i]) : NULL;
    s->error = xstrdup(strbuf_str(&m->error));
    s->ref_note = m->ref_note ? xstrdup(m->ref_note) : NULL;
    collect c = {.s = s};
    machine_walk_values(m, collect_value, &c);
    ptr_index_free(&c.tensors);
    bytes += s->ntensors * sizeof *s->tensors + s->nstorages * sizeof *s->storages;
    for (size_t i = 0; i < s->nstorages; i++) {
        snap_storage *ss = &s->storages[i];
        ss->version = exec_write_log_version(m->wlog, ss->s);
        size_t j = base ? ptr_index_get(&base->storage_index, ss->s) : (size_t)-1;
        if (j != (size_t)-1 && base->storages[j].version == ss->version) {
            ss->b = base->storages[j].b;
            if (ss->b) {
                ss->b->refcount++;
                s->shared_bytes += ss->b->n;
            }
        } else {
            ss->b = blob_of(ss->s);
            ss->own = 1;
            s->copied_bytes += ss->b ? ss->b->n : 0;
        }
    }
    size_t np;
    const machine_snapshot_part *parts = machine_snapshot_parts(&np);
    s->nparts = np;
    s->parts = xcalloc(np ? np : 1, sizeof *s->parts);
    for (size_t i = 0; i < np; i++) {
        s->parts[i] = parts[i].save ? parts[i].save(m) : NULL;
        if (s->parts[i] && parts[i].bytes)
            bytes += parts[i].bytes(s->parts[i]);
    }
    s->own_bytes = bytes;
    return s;
}

void machine_snapshot_restore(machine *m, const machine_snapshot *s)
{
    for (int i = 0; i < EXEC_NCORES; i++)
        restore_core(m, &m->cores[i], &s->cores[i]);
    xrt rt_keep = m->grp.rt;
    m->grp = s->grp;
    m->grp.rt = rt_keep;
    /* the GM race check's own state is a snapshot part (snapshot_parts.c) */
    m->race_serial = s->race_serial;
    m->race_spmd = s->race_spmd;
    restore_rt(&m->grp.rt, &s->grp_rt);
    restore_rt(&m->global_rt, &s->global_rt);
    m->steps = s->steps;
    m->finished = s->finished;
    m->error_ref = s->error_ref;
    /* a replay's refusal is of a later step: met again when the run gets there */
    strbuf_clear(&m->play_err);
    m->block_seq = s->block_seq;
    m->rng = s->rng;
    m->next_task = s->next_task;
    for (int i = 0; i < EXEC_SEMDIFF_COUNT; i++) {
        free(m->differs[i]);
        m->differs[i] = s->differs[i] ? xstrdup(s->differs[i]) : NULL;
    }
    strbuf_clear(&m->error);
    strbuf_puts(&m->error, s->error);
    free(m->ref_note);
    m->ref_note = s->ref_note ? xstrdup(s->ref_note) : NULL;
    m->running = NULL;
    /* the tensors' fields, then the bytes written since */
    for (size_t i = 0; i < s->ntensors; i++) {
        tensor *t = s->tensors[i].t;
        int rc = t->refcount;
        tensor_storage *cur = t->storage;
        *t = s->tensors[i].saved;
        t->refcount = rc;
        if (t->storage != cur) {
            if (t->storage)
                tensor_storage_ref(t->storage);
            if (cur)
                tensor_storage_unref(cur);
        }
    }
    for (size_t i = 0; i < s->nstorages; i++) {
        const snap_storage *ss = &s->storages[i];
        if (exec_write_log_version(m->wlog, ss->s) == ss->version)
            continue;
        if (ss->b && ss->s->data && ss->s->nbytes == ss->b->n)
            memcpy(ss->s->data, ss->b->data, ss->b->n);
        exec_write_log_set(m->wlog, ss->s, ss->version);
    }
    size_t np;
    const machine_snapshot_part *parts = machine_snapshot_parts(&np);
    for (size_t i = 0; i < np && i < s->nparts; i++)
        if (parts[i].restore)
            parts[i].restore(m, s->parts[i]);
}

void machine_snapshot_free(machine_snapshot *s)
{
    if (!s)
        return;
    for (int i = 0; i < EXEC_NCORES; i++)
        free_core(&s->cores[i]);
    free_rt(&s->grp_rt);
    free_rt(&s->global_rt);
    free(s->error);
    free(s->ref_note);
    for (int i = 0; i < EXEC_SEMDIFF_COUNT; i++)
        free(s->differs[i]);
    for (size_t i = 0; i < s->ntensors; i++)
        tensor_unref(s->tensors[i].t);
    free(s->tensors);
    for (size_t i = 0; i < s->nstorages; i++) {
        blob_unref(s->storages[i].b);
        tensor_storage_unref(s->storages[i].s);
    }
    free(s->storages);
    ptr_index_free(&s->storage_index);
    size_t np;
    const machine_snapshot_part *parts = machine_snapshot_parts(&np);
    for (size_t i = 0; i < np && i < s->nparts; i++)
        if (s->parts[i] && parts[i].drop)
            parts[i].drop(s->parts[i]);
    free(s->parts);
    free(s);
}

uint64_t machine_snapshot_step(const machine_snapshot *s)
{
    return s->steps;
}

uint32_t machine_snapshot_calls(const machine_snapshot *s, int cid, int fn)
{
    if (cid < 0 || cid >= EXEC_NCORES || fn < 0)
        return 0;
    return s->cores[cid].calls[fn];
}

size_t machine_snapshot_bytes(const machine_snapshot *s, size_t *shared)
{
    if (shared)
        *shared = s->shared_bytes;
    return s->own_bytes + s->copied_bytes;
}

static void live_value(void *ud, const value *v)
{
    ptr_index *seen = ud;
    if (v->kind == VAL_TUPLE && v->u.tuple) {
        for (uint32_t i = 0; i < v->u.tuple->n; i++)
            live_value(ud, &v->u.tuple->items[i]);
        return;
    }
    if (v->kind == VAL_TENSOR && v->u.t && v->u.t->storage) {
        int added;
        ptr_index_put(seen, v->u.t->storage, &added);
    }
}

size_t machine_live_tensor_bytes(const machine *m)
{
    ptr_index seen = {0};
    machine_walk_values(m, live_value, &seen);
    size_t total = 0;
    for (size_t i = 0; i < seen.cap; i++)
        if (seen.keys[i])
            total += ((const tensor_storage *)seen.keys[i])->nbytes;
    ptr_index_free(&seen);
    return total;
}

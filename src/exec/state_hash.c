/* machine_state_hash (snapshot.h): the oracle of reverse execution's tests
 * (a restored and re-run machine must hash as a straight run does). Every
 * field a later step can read goes in; pointers go in as what they name
 * (a function by its index, a storage by the order it was first met, so
 * that aliasing counts and addresses do not). */
#include <string.h>

#include "base/bytes_hash.h"
#include "exec/snapshot.h"
#include "exec/state_walk.h"

static uint64_t mix(uint64_t h, uint64_t x)
{
    return bytes_hash_mix(h, x);
}

static uint64_t mix_bytes(uint64_t h, const void *p, size_t n)
{
    return bytes_hash(h, p, n);
}

/* A storage's bytes go in as a sum of one term per chunk (its hash mixed
 * with its index), so that a hasher that knows which chunks changed since
 * it last read them (the reverse-execution oracle's:
 * tests/timetravel/page_hash.c) updates the sum with those alone and gives
 * the same value. */
static machine_storage_hasher storage_hasher;
static void *storage_hasher_ctx;

void machine_state_hash_set_storage_hasher(machine_storage_hasher fn, void *ctx)
{
    storage_hasher = fn;
    storage_hasher_ctx = ctx;
}

uint64_t machine_storage_chunk_term(const void *data, size_t nbytes, size_t index)
{
    size_t off = index * MACHINE_HASH_CHUNK, n = nbytes - off < MACHINE_HASH_CHUNK ? nbytes - off : MACHINE_HASH_CHUNK;
    return mix(mix_bytes(0x452821E638D01377ull, (const unsigned char *)data + off, n), (uint64_t)index);
}

uint64_t machine_storage_hash_finish(size_t nbytes, uint64_t sum)
{
    return mix(mix(0x13198A2E03707344ull, nbytes), sum);
}

uint64_t machine_storage_bytes_hash(const void *data, size_t nbytes)
{
    uint64_t sum = 0;
    for (size_t c = 0; c < machine_storage_nchunks(nbytes); c++)
        sum += machine_storage_chunk_term(data, nbytes, c);
    return machine_storage_hash_finish(nbytes, sum);
}

typedef struct hash_walk {
    uint64_t h;
    ptr_index storages;
} hash_walk;

static void hash_value(void *ud, const value *v)
{
    hash_walk *w = ud;
    w->h = mix(w->h, v->kind);
    switch (v->kind) {
    case VAL_BOOL: w->h = mix(w->h, (uint64_t)v->u.b); break;
    case VAL_INT: w->h = mix(w->h, (uint64_t)v->u.i); break;
    case VAL_FLOAT: w->h = mix_bytes(w->h, &v->u.f, sizeof v->u.f); break;
    case VAL_ENUM: w->h = mix(w->h, (uint64_t)v->u.e); break;
    case VAL_STR: w->h = mix_bytes(w->h, v->u.s, strlen(v->u.s)); break;
    case VAL_TUPLE:
        w->h = mix(w->h, v->u.tuple->n);
        for (uint32_t i = 0; i < v->u.tuple->n; i++)
            hash_value(ud, &v->u.tuple->items[i]);
        break;
    case VAL_TENSOR: {
        const tensor *t = v->u.t;
        w->h = mix(w->h, (uint64_t)t->dtype);
        w->h = mix(w->h, (uint64_t)t->ndim);
        w->h = mix_bytes(w->h, t->shape, (size_t)t->ndim * sizeof *t->shape);
        w->h = mix_bytes(w->h, t->strides, (size_t)t->ndim * sizeof *t->strides);
        w->h = mix(w->h, (uint64_t)t->offset);
        w->h = mix(w->h, (uint64_t)(int64_t)t->valid_ndim);
        if (t->valid_ndim > 0)
            w->h = mix_bytes(w->h, t->valid, (size_t)t->valid_ndim * sizeof *t->valid);
        w->h = mix(w->h, (uint64_t)(int64_t)t->full_ndim);
        if (t->full_ndim > 0)
            w->h = mix_bytes(w->h, t->full, (size_t)t->full_ndim * sizeof *t->full);
        w->h = mix(w->h, t->prov);
        w->h = mix(w->h, t->prov_k);
        w->h = mix(w->h, (uint64_t)(int64_t)t->prov_core);
        if (!t->storage)
            break;
        int added;
        size_t k = ptr_index_put(&w->storages, t->storage, &added);
        w->h = mix(w->h, k);
        if (added && t->storage->data)
            w->h = mix(w->h, storage_hasher ? storage_hasher(storage_hasher_ctx, t->storage)
                                            : machine_storage_bytes_hash(t->storage->data, t->storage->nbytes));
        break;
    }
    default: break;
    }
}

static void hash_rt(uint64_t *h, const xrt *rt)
{
    xqueue *q[XRT_NQUEUES];
    xrt_queues((xrt *)rt, q);
    for (int i = 0; i < XRT_NQUEUES; i++) {
        *h = mix(*h, q[i]->n);
        *h = mix(*h, q[i]->limit);
        *h = mix(*h, q[i]->touched);
    }
    *h = mix(*h, (uint64_t)rt->dual_nosplit);
    *h = mix_bytes(*h, rt->gather_posted, sizeof rt->gather_posted);
    *h = mix_bytes(*h, rt->gather_taken, sizeof rt->gather_taken);
    *h = mix_bytes(*h, rt->pipe, sizeof rt->pipe);
    *h = mix_bytes(*h, rt->tfree_to_aic, sizeof rt->tfree_to_aic);
    *h = mix(*h, rt->tfree_to_aiv);
}

/* with_sched 0: without the scheduler's own state (its random generator;
 * the group's last core by its id, not by its place in the order). */
static uint64_t state_hash(const machine *m, int with_sched)
{
    hash_walk w = {.h = 0x243F6A8885A308D3ull};
    w.h = mix(w.h, m->steps);
    w.h = mix(w.h, (uint64_t)m->finished);
    w.h = mix(w.h, m->block_seq);
    if (with_sched)
        w.h = mix(w.h, m->rng);
    w.h = mix(w.h, m->next_task);
    for (int i = 0; i < EXEC_NCORES; i++) {
        const core *c = &m->cores[i];
        w.h = mix(w.h, (uint64_t)c->state);
        w.h = mix(w.h, (uint64_t)c->in_group);
        w.h = mix(w.h, (uint64_t)c->whole);
        w.h = mix(w.h, (uint64_t)c->replay);
        w.h = mix(w.h, (uint64_t)c->depth);
        w.h = mix(w.h, (uint64_t)c->kept);
        w.h = mix(w.h, c->blocked_since);
        w.h = mix(w.h, (uint64_t)c->nwait);
        w.h = mix(w.h, (uint64_t)c->wait_room);
        w.h = mix(w.h, c->rt == &m->grp.rt);
        w.h = mix_bytes(w.h, c->calls, (m->p->nfuncs ? m->p->nfuncs : 1) * sizeof *c->calls);
        int nf = machine_core_nframes(c);
        for (int d = 0; d < nf; d++) {
            const xframe *f = &c->frames[d];
            w.h = mix(w.h, (uint64_t)(f->fn - m->p->funcs));
            w.h = mix(w.h, f->pc);
            w.h = mix(w.h, f->activation);
            w.h = mix(w.h, f->local_steps);
            w.h = mix(w.h, (uint64_t)f->block_idx);
            w.h = mix(w.h, (uint64_t)f->block_num);
            if (f->fn->nloops)
                w.h = mix_bytes(w.h, f->loops, f->fn->nloops * sizeof *f->loops);
        }
    }
    w.h = mix(w.h, (uint64_t)m->grp.active);
    w.h = mix(w.h, with_sched ? (uint64_t)m->grp.cur : (uint64_t)m->grp.order[m->grp.cur]);
    w.h = mix(w.h, (uint64_t)m->grp.ncores);
    hash_rt(&w.h, &m->grp.rt);
    hash_rt(&w.h, &m->global_rt);
    /* every value: slots, results, queue items (state_walk.h's order) */
    machine_walk_values(m, hash_value, &w);
    ptr_index_free(&w.storages);
    size_t np;
    const machine_snapshot_part *parts = machine_snapshot_parts(&np);
    for (size_t i = 0; i < np; i++)
        if (parts[i].hash)
            w.h = parts[i].hash(m, w.h);
    return w.h;
}

int machine_state_hash_selfcheck(const machine *m)
{
    return !m->prov || exec_prov_count_sum_ok(m->prov);
}

uint64_t machine_state_hash(const machine *m)
{
    return state_hash(m, 1);
}

uint64_t machine_program_state_hash(const machine *m)
{
    return state_hash(m, 0);
}

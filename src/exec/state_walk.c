/* The values of a machine's state in a fixed order (state_walk.h). */
#include "exec/state_walk.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "exec/snapshot.h"

void xrt_queues(xrt *rt, xqueue *out[XRT_NQUEUES])
{
    int k = 0;
    for (int id = 0; id < XRT_NPIPES; id++) {
        xpipe *p = &rt->p[id];
        out[k++] = &p->to_aiv;
        out[k++] = &p->to_aic;
        for (int l = 0; l < 2; l++) {
            out[k++] = &p->to_aiv_dual[l];
            out[k++] = &p->to_aic_dual[l];
            for (int s = 1; s <= 4; s++) {
                out[k++] = &p->to_aiv_split[s][l];
                out[k++] = &p->to_aic_split[s][l];
            }
        }
    }
    for (int l = 0; l < 2; l++)
        for (int t = 0; t < 2; t++)
            out[k++] = &rt->gather[l][t];
    /* k == XRT_NQUEUES */
}

int machine_core_nframes(const core *c)
{
    return c->depth ? c->depth : c->kept ? 1 : 0;
}

static void walk_rt(const xrt *rt, machine_value_fn fn, void *ud)
{
    xqueue *q[XRT_NQUEUES];
    xrt_queues((xrt *)rt, q);
    for (int i = 0; i < XRT_NQUEUES; i++)
        for (uint32_t k = 0; k < q[i]->n; k++)
            fn(ud, &q[i]->items[(q[i]->head + k) % q[i]->cap]);
}

void machine_walk_values(const machine *m, machine_value_fn fn, void *ud)
{
    for (int i = 0; i < EXEC_NCORES; i++) {
        const core *c = &m->cores[i];
        int nf = machine_core_nframes(c);
        for (int d = 0; d < nf; d++) {
            const xframe *f = &c->frames[d];
            for (uint32_t k = 0; k < f->fn->nslots; k++)
                fn(ud, &f->slots[k]);
            if (f->dyns)
                for (uint32_t k = 0; k < m->p->ndyns; k++)
                    fn(ud, &f->dyns[k]);
        }
        fn(ud, &c->result);
    }
    spmd_barrier_walk(&m->bar, m->p, fn, ud);
    walk_rt(&m->grp.rt, fn, ud);
    walk_rt(&m->global_rt, fn, ud);
}

static size_t ptr_slot(const void *p, size_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)p;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return (size_t)h & (cap - 1);
}

size_t ptr_index_get(const ptr_index *s, const void *p)
{
    if (!s->cap)
        return (size_t)-1;
    size_t j = ptr_slot(p, s->cap);
    while (s->keys[j] && s->keys[j] != p)
        j = (j + 1) & (s->cap - 1);
    return s->keys[j] ? s->idx[j] : (size_t)-1;
}

size_t ptr_index_put(ptr_index *s, const void *p, int *added)
{
    size_t got = ptr_index_get(s, p);
    if (got != (size_t)-1) {
        *added = 0;
        return got;
    }
    if ((s->n + 1) * 2 > s->cap) {
        size_t oc = s->cap;
        const void **ok = s->keys;
        size_t *oi = s->idx;
        s->cap = oc ? oc * 2 : 64;
        s->keys = xcalloc(s->cap, sizeof *s->keys);
        s->idx = xcalloc(s->cap, sizeof *s->idx);
        for (size_t i = 0; i < oc; i++)
            if (ok[i]) {
                size_t j = ptr_slot(ok[i], s->cap);
                while (s->keys[j])
                    j = (j + 1) & (s->cap - 1);
                s->keys[j] = ok[i];
                s->idx[j] = oi[i];
            }
        free(ok);
        free(oi);
    }
    size_t j = ptr_slot(p, s->cap);
    while (s->keys[j])
        j = (j + 1) & (s->cap - 1);
    s->keys[j] = p;
    s->idx[j] = s->n;
    *added = 1;
    return s->n++;
}

void ptr_index_free(ptr_index *s)
{
    free(s->keys);
    free(s->idx);
    memset(s, 0, sizeof *s);
}

/* Cross-core queues, split and merge (semantics.md §6.3). */
#include "exec/xcore.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

static void xq_init(xqueue *q, int to_aiv, int split, int lane, int pipe, const char *name)
{
    memset(q, 0, sizeof *q);
    q->to_aiv = (uint8_t)to_aiv;
    q->split = (int8_t)split;
    q->lane = (int8_t)lane;
    q->pipe = (uint8_t)pipe;
    q->name = name;
}

void xrt_init(xrt *rt)
{
    memset(rt, 0, sizeof *rt);
    for (int id = 0; id < XRT_NPIPES; id++) {
        xpipe *p = &rt->p[id];
        xq_init(&p->to_aiv, 1, -1, -1, id, "to_aiv");
        xq_init(&p->to_aic, 0, -1, -1, id, "to_aic");
        for (int l = 0; l < 2; l++) {
            xq_init(&p->to_aiv_dual[l], 1, 0, l, id, "to_aiv_dual_nosplit");
            xq_init(&p->to_aic_dual[l], 0, 0, l, id, "to_aic_dual_nosplit");
            for (int s = 1; s <= 4; s++) {
                xq_init(&p->to_aiv_split[s][l], 1, s, l, id, "to_aiv_split");
                xq_init(&p->to_aic_split[s][l], 0, s, l, id, "to_aic_split");
            }
        }
    }
    for (int l = 0; l < 2; l++)
        for (int t = 0; t < 2; t++)
            xq_init(&rt->gather[l][t], 0, -1, t, 0, "aic_gather");
}

static void xq_clear(xqueue *q)
{
    while (q->n)
    {
        value v = xq_pop(q);
        value_clear(&v);
    }
    q->head = 0;
}

#define XRT_FOREACH(rt, q, body)                                                           \
    do {                                                                                   \
        xqueue *q;                                                                         \
        for (int p_ = 0; p_ < XRT_NPIPES; p_++) {                                          \
            xpipe *pp_ = &(rt)->p[p_];                                                     \
            q = &pp_->to_aiv; body; q = &pp_->to_aic; body;                                 \
            for (int l_ = 0; l_ < 2; l_++) {                                               \
                q = &pp_->to_aiv_dual[l_]; body; q = &pp_->to_aic_dual[l_]; body;           \
                for (int s_ = 1; s_ <= 4; s_++) {                                          \
                    q = &pp_->to_aiv_split[s_][l_]; body; q = &pp_->to_aic_split[s_][l_]; body; \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
        for (int l_ = 0; l_ < 2; l_++)                                                     \
            for (int t_ = 0; t_ < 2; t_++) {                                               \
                q = &(rt)->gather[l_][t_]; body;                                           \
            }                                                                              \
    } while (0)

void xrt_reset(xrt *rt)
{
    XRT_FOREACH(rt, q, { xq_clear(q); q->touched = 0; });
    rt->gather_posted[0] = rt->gather_posted[1] = 0;
    rt->gather_taken[0] = rt->gather_taken[1] = 0;
    memset(rt->pipe, 0, sizeof rt->pipe);
    rt->tfree_to_aic[0] = rt->tfree_to_aic[1] = 0;
    rt->tfree_to_aiv = 0;
}

void xrt_set_limit(xrt *rt, uint32_t n)
{
    XRT_FOREACH(rt, q, { q->limit = strcmp(q->name, "aic_gather") == 0 ? 0 : n; });
}

void xrt_free(xrt *rt)
{
    XRT_FOREACH(rt, q, {
        xq_clear(q);
        free(q->items);
        free(q->stamps);
        q->items = NULL;
        q->stamps = NULL;
        q->cap = 0;
    });
}

uint32_t xrt_queued(xrt *rt)
{
    uint32_t n = 0;
    XRT_FOREACH(rt, q, { n += q->n; });
    return n;
}

void xrt_take_state(xrt *dst, const xrt *src)
{
    /* src's fields, then each of dst's queues keeps its items (the two
     * runtimes have one layout: a queue's place in src is its place in dst) */
    xrt mine = *dst;
    *dst = *src;
    XRT_FOREACH(dst, q, {
        const xqueue *own = (const xqueue *)((const char *)&mine + ((const char *)q - (const char *)dst));
        q->items = own->items;
        q->stamps = own->stamps;
        q->cap = own->cap;
        q->head = own->head;
        q->n = own->n;
    });
}

void xq_push(xqueue *q, value v)
{
    if (q->n == q->cap) {
        uint32_t nc = q->cap ? 2 * q->cap : 8;
        value *it = xreallocarray(NULL, nc, sizeof *it);
        gmrace_clock *st = xreallocarray(NULL, nc, sizeof *st);
        for (uint32_t i = 0; i < q->n; i++) {
            it[i] = q->items[(q->head + i) % q->cap];
            st[i] = q->stamps[(q->head + i) % q->cap];
        }
        free(q->items);
        free(q->stamps);
        q->items = it;
        q->stamps = st;
        q->cap = nc;
        q->head = 0;
    }
    q->items[(q->head + q->n) % q->cap] = v;
    memset(&q->stamps[(q->head + q->n) % q->cap], 0, sizeof *q->stamps);
    q->n++;
    q->touched = 1;
}

value xq_pop(xqueue *q)
{
    value v = q->items[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    q->touched = 1;
    return v;
}

gmrace_clock *xq_tail_stamp(xqueue *q)
{
    return &q->stamps[(q->head + q->n - 1) % q->cap];
}

const gmrace_clock *xq_head_stamp(const xqueue *q)
{
    return &q->stamps[q->head];
}

static void lanes_dict(strbuf *out, const xqueue *q2)
{
    strbuf_printf(out, "{0: %u, 1: %u}", q2[0].n, q2[1].n);
}

static void split_dict(strbuf *out, const xqueue (*qs)[2])
{
    strbuf_puts(out, "{");
    for (int s = 1; s <= 4; s++) {
        strbuf_printf(out, "%s%d: ", s > 1 ? ", " : "", s);
        lanes_dict(out, qs[s]);
    }
    strbuf_puts(out, "}");
}

void xrt_pipe_state(const xrt *rt, strbuf *out)
{
    const xpipe *p = &rt->p[0]; /* REF's one FIFO set (the other ids: xrt_describe) */
    strbuf_printf(out, "{'no_split_dual_aiv_dispatch': %s, 'to_aiv': %u, 'to_aiv_dual_nosplit': ",
                  rt->dual_nosplit ? "True" : "False", p->to_aiv.n);
    lanes_dict(out, p->to_aiv_dual);
    strbuf_puts(out, ", 'to_aiv_split': ");
    split_dict(out, p->to_aiv_split);
    strbuf_printf(out, ", 'to_aic': %u, 'to_aic_dual_nosplit': ", p->to_aic.n);
    lanes_dict(out, p->to_aic_dual);
    strbuf_puts(out, ", 'to_aic_split': ");
    split_dict(out, p->to_aic_split);
    strbuf_puts(out, "}");
}

void xrt_describe(const xrt *crt, strbuf *out)
{
    xrt *rt = (xrt *)(uintptr_t)crt;
    int any = 0;
    XRT_FOREACH(rt, q, {
        if (q->touched || q->n) {
            any = 1;
            strbuf_printf(out, "    queue %-19s %s  depth=%u", q->name,
                          strcmp(q->name, "aic_gather") == 0 ? "lane->lane" : q->to_aiv ? "AIC->AIV" : "AIV->AIC",
                          q->n);
            if (q->limit)
                strbuf_printf(out, "/%u", q->limit);
            if (q->split >= 0)
                strbuf_printf(out, "  split=%d", q->split);
            else
                strbuf_puts(out, "  split=-");
            if (q->lane >= 0)
                strbuf_printf(out, "  lane=%d", q->lane);
            else
                strbuf_puts(out, "  lane=-");
            if (q->pipe)
                strbuf_printf(out, "  id=%d", q->pipe);
            strbuf_putc(out, '\n');
        }
    });
    if (!any)
        strbuf_puts(out, "    (no queue was used: every queue is empty)\n");
    else
        strbuf_puts(out, "    (queues not listed were never used and are empty)\n");
    static const char *const who[3] = {"AIC", "AIV lane 0", "AIV lane 1"};
    for (int i = 0; i < 3; i++)
        if (rt->pipe[i].set)
            strbuf_printf(out, "    pipe set up by %s: dir_mask=%d slot_size=%d slot_num=%d\n", who[i],
                          rt->pipe[i].dir_mask, rt->pipe[i].slot_size, rt->pipe[i].slot_num);
    if (rt->tfree_to_aiv || rt->tfree_to_aic[0] || rt->tfree_to_aic[1])
        strbuf_printf(out, "    slots freed: tfree_to_aiv %u (AIC), tfree_to_aic %u (lane 0) %u (lane 1)\n",
                      rt->tfree_to_aiv, rt->tfree_to_aic[0], rt->tfree_to_aic[1]);
}

/* ---- split / merge ------------------------------------------------------- */

static tensor *clone_range(const tensor *t, int d, int64_t start, int64_t len)
{
    ptodb_status st;
    tensor *v = tensor_slice(t, d, start, start + len, 1, &st);
    if (!v)
        return NULL;
    tensor *c = tensor_clone(v);
    tensor_unref(v);
    return c;
}

int xcore_split(const tensor *t, int s, int64_t lane_stride, tensor **p0, tensor **p1,
                strbuf *err)
{
    *p0 = *p1 = NULL;
    int d = (s == 1 || s == 3) ? 0 : 1;
    if (t->ndim <= d) {
        strbuf_printf(err, "IndexError: tuple index out of range (split %d of a %d-D tile)", s,
                      t->ndim);
        return -1;
    }
    int64_t n = t->shape[d];
    int64_t h = (n + 1) / 2;
    int64_t S = lane_stride != 0 ? lane_stride : h;
    if (!(S > 0 && S <= h)) {
        strbuf_printf(err,
                      "ValueError: Split mode %d got an out-of-range lane stride %lld for a %lld-wide "
                      "axis (per-lane box %lld)",
                      s, (long long)S, (long long)n, (long long)h);
        return -1;
    }
    int64_t V = n;
    if (t->valid_ndim > d)
        V = t->valid[d];
    else if (t->valid_ndim == 0) {
        strbuf_puts(err, "IndexError: tuple index out of range (empty valid shape)");
        return -1;
    }
    int64_t l0 = V < S ? V : S;
    int64_t r = V - S > 0 ? V - S : 0;
    int64_t l1 = r < S ? r : S;
    if ((s == 3 || s == 4) && l0 != l1 + 1) {
        strbuf_printf(err,
                      "ValueError: Split mode %d requires lanes one cell apart, but a valid extent "
                      "of %lld over stride %lld gives %lld and %lld",
                      s, (long long)V, (long long)S, (long long)l0, (long long)l1);
        return -1;
    }
    *p0 = clone_range(t, d, 0, h);
    *p1 = clone_range(t, d, S, h);
    if (!*p0 || !*p1) {
        if (*p0)
            tensor_unref(*p0);
        if (*p1)
            tensor_unref(*p1);
        *p0 = *p1 = NULL;
        strbuf_puts(err, "split: bad slice");
        return -1;
    }
    if (t->full_ndim >= 0) {
        for (int k = 0; k < 2; k++) {
            tensor *p = k ? *p1 : *p0;
            p->full_ndim = t->full_ndim;
            memcpy(p->full, t->full, sizeof p->full);
            if (t->full_ndim > d) {
                int64_t F = t->full[d];
                int64_t v = k == 0 ? (F < h ? F : h) : (F - S > 0 ? (F - S < h ? F - S : h) : 0);
                p->full[d] = v;
            }
        }
    }
    if (t->valid_ndim >= 0) {
        for (int k = 0; k < 2; k++) {
            tensor *p = k ? *p1 : *p0;
            p->valid_ndim = t->valid_ndim;
            memcpy(p->valid, t->valid, sizeof p->valid);
            if (t->valid_ndim > d)
                p->valid[d] = k == 0 ? l0 : l1;
        }
    }
    return 0;
}

tensor *xcore_merge(const tensor *p0, const tensor *p1, int s, strbuf *err)
{
    int d = (s == 1 || s == 3) ? 0 : 1;
    if (p0->ndim != p1->ndim || p0->ndim <= d || p0->dtype != p1->dtype) {
        strbuf_puts(err, "RuntimeError: merge: lane tiles of different rank or dtype");
        return NULL;
    }
    for (int k = 0; k < p0->ndim; k++)
        if (k != d && p0->shape[k] != p1->shape[k]) {
            strbuf_printf(err, "RuntimeError: Sizes of tensors must match except in dimension %d", d);
            return NULL;
        }
    int64_t shape[TENSOR_MAX_DIMS];
    memcpy(shape, p0->shape, sizeof shape);
    shape[d] = p0->shape[d] + p1->shape[d];
    ptodb_status st;
    tensor *m = tensor_zeros(p0->dtype, p0->ndim, shape, &st);
    if (!m) {
        strbuf_puts(err, "merge: bad shape");
        return NULL;
    }
    tensor *a = tensor_slice(m, d, 0, p0->shape[d], 1, &st);
    tensor *b = tensor_slice(m, d, p0->shape[d], shape[d], 1, &st);
    tensor_copy_into(a, p0);
    tensor_copy_into(b, p1);
    tensor_unref(a);
    tensor_unref(b);
    /* attrs: full = F0 with [d] summed; valid = V0 with [d] summed, clamped to full */
    int64_t F0[TENSOR_MAX_DIMS], F1[TENSOR_MAX_DIMS], V0[TENSOR_MAX_DIMS], V1[TENSOR_MAX_DIMS];
    int nf0 = p0->full_ndim >= 0 ? p0->full_ndim : p0->ndim;
    int nf1 = p1->full_ndim >= 0 ? p1->full_ndim : p1->ndim;
    memcpy(F0, p0->full_ndim >= 0 ? p0->full : p0->shape, sizeof F0);
    memcpy(F1, p1->full_ndim >= 0 ? p1->full : p1->shape, sizeof F1);
    int nv0 = p0->valid_ndim >= 0 ? p0->valid_ndim : p0->ndim;
    int nv1 = p1->valid_ndim >= 0 ? p1->valid_ndim : p1->ndim;
    memcpy(V0, p0->valid_ndim >= 0 ? p0->valid : p0->shape, sizeof V0);
    memcpy(V1, p1->valid_ndim >= 0 ? p1->valid : p1->shape, sizeof V1);
    if (nf0 == nf1 && nf0 > d) {
        m->full_ndim = nf0;
        memcpy(m->full, F0, sizeof F0);
        m->full[d] = F0[d] + F1[d];
    }
    if (nv0 == nv1 && nv0 > d) {
        m->valid_ndim = nv0;
        memcpy(m->valid, V0, sizeof V0);
        m->valid[d] = V0[d] + V1[d];
        if (m->full_ndim >= 0)
            for (int k = 0; k < m->valid_ndim && k < m->full_ndim; k++)
                if (m->valid[k] > m->full[k])
                    m->valid[k] = m->full[k];
    }
    return m;
}

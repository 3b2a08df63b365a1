/* The cores' race check on global memory (gmrace.h). */
#include "exec/gmrace.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/vclock.h"
#include "tensor/dtype.h"

enum {
    GRANULE = 32,       /* bytes per shadow granule: one bit of a mask each */
    BLOCK = 4,          /* granules per block: 128 bytes, the shortest tile row the cases store */
    RECENT = 4          /* epochs kept per core for reuse */
};

/* Shadows outlive an instance (clearing them at each launch would cost the
 * size of every tensor a launch touches); past these, the next instance
 * frees them all and numbers epochs from 1 again. */
#define SHADOW_CAP_GRANULES ((size_t)1 << 25) /* 1 GiB of global memory */
#define EPOCH_CAP (UINT32_MAX - ((uint32_t)1 << 26))

/* ---- clocks ---------------------------------------------------------------- */

void gmrace_clock_start(gmrace_clock *c, int core)
{
    memset(c, 0, sizeof *c);
    c->vc[core] = 1; /* FastTrack: a thread starts in epoch 1, which no other has seen */
}

void gmrace_clock_release(gmrace_clock *c, int core, gmrace_clock *stamp)
{
    *stamp = *c;
    c->vc[core]++;
}

void gmrace_clock_acquire(gmrace_clock *c, const gmrace_clock *stamp)
{
    vclock_join(c->vc, stamp->vc, GMRACE_CORES);
    if (stamp->phase > c->phase)
        c->phase = stamp->phase;
}

void gmrace_clock_barrier(gmrace_clock *c, int core)
{
    c->phase++;
    c->vc[core]++;
}

/* ---- small tables ---------------------------------------------------------- */

/* (a, b) -> value, open addressing */
typedef struct pair_map {
    struct pair_slot {
        uint64_t a;
        int64_t b;
        uint32_t v;
        uint8_t used;
    } *s;
    size_t cap, n;
} pair_map;

static uint64_t mix(uint64_t a, int64_t b)
{
    uint64_t h = a * 0x9e3779b97f4a7c15ull ^ ((uint64_t)b + 0x632be59bd9b4e019ull) * 0xc2b2ae3d27d4eb4full;
    return h ^ (h >> 29);
}

/* the slot of (a, b), made (value 0) when absent */
static struct pair_slot *pair_at(pair_map *m, uint64_t a, int64_t b)
{
    if (2 * (m->n + 1) > m->cap) {
        pair_map g = {xcalloc(m->cap ? 2 * m->cap : 64, sizeof *g.s), m->cap ? 2 * m->cap : 64, 0};
        for (size_t i = 0; i < m->cap; i++)
            if (m->s[i].used) {
                struct pair_slot *d = pair_at(&g, m->s[i].a, m->s[i].b);
                d->v = m->s[i].v;
            }
        free(m->s);
        *m = g;
    }
    size_t i = mix(a, b) & (m->cap - 1);
    while (m->s[i].used && (m->s[i].a != a || m->s[i].b != b))
        i = (i + 1) & (m->cap - 1);
    if (!m->s[i].used) {
        m->s[i] = (struct pair_slot){a, b, 0, 1};
        m->n++;
    }
    return &m->s[i];
}

static void pair_clear(pair_map *m)
{
    free(m->s);
    memset(m, 0, sizeof *m);
}

/* ---- the checker ----------------------------------------------------------- */

typedef struct gm_epoch {
    int64_t block;
    uint32_t rec; /* the launch (site and occurrence) within the instance */
    uint32_t phase, clock;
    int32_t line, col;
    const char *func;
    int8_t core, kind;
} gm_epoch;

/* Epochs are numbered across instances: one below the instance's base is
 * of an earlier instance (ordered with everything now, as none), the base
 * itself marks a granule two unordered threads share (unchecked until a
 * write replaces it), above it the instance's own. */
typedef struct gm_granule {
    uint32_t w, wmask, r, rmask; /* the last writer's and reader's epochs and their bytes */
} gm_granule;

/* Granules come in blocks of BLOCK. A block whose granules all hold one
 * state keeps it once (blk[b]); its granules' own entries are not kept up
 * to date until a part of it is accessed (split[b] set, g[] then
 * authoritative for it). A whole-block access of a whole block applies
 * the granule rule once: the rule is a function of the state, the bytes'
 * mask and the access alone, so its BLOCK granules, all alike, end alike,
 * and the first of them that would race is the block's first. Most tile
 * rows are whole blocks: one shadow entry per 128 bytes of global memory
 * is read and written instead of four. */
typedef struct gm_shadow {
    size_t ngran, nblk;
    gm_granule *blk;  /* per block: the state of each of its granules, unless split */
    uint8_t *split;   /* per block: its granules differ, g[] holds them */
    gm_granule *g;    /* per granule, made at the first split */
} gm_shadow;

struct exec_gmrace {
    int active, stale, raced;
    uint64_t instance;
    int64_t block;
    uint32_t rec;
    int twin;
    uint32_t nrecs;
    pair_map occ;    /* (site, block) -> calls so far */
    pair_map recs;   /* (site, occurrence) -> rec + 1 */
    pair_map shmap;  /* (storage id, 0) -> shadow index + 1 */
    gm_shadow *sh;
    size_t nsh, capsh, granules, shbytes;
    uint32_t next;   /* the next epoch's number */
    uint32_t base;   /* the instance's: its shared-granule mark, its epochs above */
    gm_epoch *ep;    /* the instance's epochs: ep[k] is number base + k (ep[0] unused) */
    uint32_t nep, capep;
    uint32_t recent[GMRACE_CORES][RECENT];
    struct read_only {
        uint64_t *ids;
        uint32_t n;
    } *ro; /* per rec (ro[rec]): exec_gmrace_read_only's storages */
    uint32_t caprec;
    /* the race */
    gm_epoch now, then;
    uint64_t storage;
    tensor view; /* its shape, strides and offset (no storage reference) */
};

exec_gmrace *exec_gmrace_new(void)
{
    return xcalloc(1, sizeof(exec_gmrace));
}

static void shadow_free(gm_shadow *s)
{
    free(s->blk);
    free(s->split);
    free(s->g);
}

static size_t shadow_bytes(const gm_shadow *s)
{
    return s->nblk * (sizeof *s->blk + sizeof *s->split) + (s->g ? s->ngran * sizeof *s->g : 0);
}

static void free_shadows(exec_gmrace *r)
{
    pair_clear(&r->shmap);
    for (size_t i = 0; i < r->nsh; i++)
        shadow_free(&r->sh[i]);
    free(r->sh);
    r->sh = NULL;
    r->nsh = r->capsh = r->granules = r->shbytes = 0;
    r->next = 0;
}

/* A new instance: nothing recorded before it is compared with it. */
static void free_read_only(exec_gmrace *r)
{
    for (uint32_t i = 0; i < r->caprec; i++)
        free(r->ro[i].ids);
    free(r->ro);
    r->ro = NULL;
    r->caprec = 0;
}

static void forget(exec_gmrace *r)
{
    pair_clear(&r->occ);
    pair_clear(&r->recs);
    free_read_only(r);
    if (r->granules > SHADOW_CAP_GRANULES || r->next > EPOCH_CAP)
        free_shadows(r);
    r->base = ++r->next; /* 0 is never an epoch: a fresh granule is an old one */
    r->next++;
    r->nep = 1;
    r->nrecs = 0;
    memset(r->recent, 0, sizeof r->recent);
}

/* Frees what r holds, not r itself. */
static void release(exec_gmrace *r)
{
    free_shadows(r);
    pair_clear(&r->occ);
    pair_clear(&r->recs);
    free_read_only(r);
    free(r->ep);
}

void exec_gmrace_free(exec_gmrace *r)
{
    if (!r)
        return;
    release(r);
    free(r);
}

static const gm_epoch *epoch_at(const exec_gmrace *r, uint32_t e)
{
    return &r->ep[e - r->base];
}

uint32_t exec_gmrace_launch(exec_gmrace *r, uint64_t instance, uint64_t site, int64_t block, int twin_lanes)
{
    if (!instance || instance != r->instance || r->stale) {
        forget(r);
        r->instance = instance;
        r->stale = 0;
    }
    struct pair_slot *o = pair_at(&r->occ, site, block);
    uint32_t occurrence = o->v++;
    struct pair_slot *k = pair_at(&r->recs, site, (int64_t)occurrence);
    if (!k->v)
        k->v = ++r->nrecs;
    exec_gmrace_enter(r, instance, k->v, block, twin_lanes);
    return k->v;
}

void exec_gmrace_enter(exec_gmrace *r, uint64_t instance, uint32_t rec, int64_t block, int twin_lanes)
{
    if (instance != r->instance || r->stale)
        return; /* forgotten since (a restore): nothing to compare with */
    r->rec = rec;
    r->block = block;
    r->twin = twin_lanes;
    r->active = 1;
    memset(r->recent, 0, sizeof r->recent);
}

void exec_gmrace_read_only(exec_gmrace *r, const uint64_t *storages, uint32_t n)
{
    if (!r->active)
        return;
    if (r->rec >= r->caprec) {
        uint32_t cap = r->rec + 16;
        r->ro = xreallocarray(r->ro, cap, sizeof *r->ro);
        memset(r->ro + r->caprec, 0, (cap - r->caprec) * sizeof *r->ro);
        r->caprec = cap;
    }
    struct read_only *k = &r->ro[r->rec];
    free(k->ids);
    k->ids = n ? xmalloc(n * sizeof *k->ids) : NULL;
    if (n)
        memcpy(k->ids, storages, n * sizeof *k->ids);
    k->n = n;
}

static int read_only(const exec_gmrace *r, uint64_t id)
{
    if (r->rec >= r->caprec)
        return 0;
    const struct read_only *k = &r->ro[r->rec];
    for (uint32_t i = 0; i < k->n; i++)
        if (k->ids[i] == id)
            return 1;
    return 0;
}

void exec_gmrace_idle(exec_gmrace *r)
{
    r->active = 0;
}

void exec_gmrace_stale(exec_gmrace *r)
{
    r->stale = 1;
    r->active = 0;
    r->raced = 0;
}

/* ---- checkpoints ------------------------------------------------------------ */

static pair_map pair_copy(const pair_map *m)
{
    pair_map c = *m;
    c.s = m->cap ? xmemdup(m->s, m->cap * sizeof *m->s) : NULL;
    return c;
}

/* dst = a deep copy of src (dst holds nothing of its own) */
static void copy_into(exec_gmrace *dst, const exec_gmrace *src)
{
    *dst = *src;
    dst->occ = pair_copy(&src->occ);
    dst->recs = pair_copy(&src->recs);
    dst->shmap = pair_copy(&src->shmap);
    dst->sh = src->capsh ? xcalloc(src->capsh, sizeof *dst->sh) : NULL;
    for (size_t i = 0; i < src->nsh; i++) {
        const gm_shadow *a = &src->sh[i];
        gm_shadow *b = &dst->sh[i];
        b->ngran = a->ngran;
        b->nblk = a->nblk;
        b->blk = xmemdup(a->blk, a->nblk * sizeof *a->blk);
        b->split = xmemdup(a->split, a->nblk * sizeof *a->split);
        b->g = a->g ? xmemdup(a->g, a->ngran * sizeof *a->g) : NULL;
    }
    dst->ep = src->capep ? xmemdup(src->ep, src->capep * sizeof *src->ep) : NULL;
    dst->ro = src->caprec ? xcalloc(src->caprec, sizeof *dst->ro) : NULL;
    for (uint32_t i = 0; i < src->caprec; i++) {
        dst->ro[i].n = src->ro[i].n;
        dst->ro[i].ids = src->ro[i].n ? xmemdup(src->ro[i].ids, src->ro[i].n * sizeof *src->ro[i].ids) : NULL;
    }
}

void *exec_gmrace_save(const exec_gmrace *r)
{
    exec_gmrace *c = xmalloc(sizeof *c);
    copy_into(c, r);
    return c;
}

void exec_gmrace_restore(exec_gmrace *r, const void *saved)
{
    release(r);
    copy_into(r, saved);
}

void exec_gmrace_saved_free(void *saved)
{
    if (!saved)
        return;
    release(saved);
    free(saved);
}

size_t exec_gmrace_saved_bytes(const void *saved)
{
    const exec_gmrace *r = saved;
    if (!r)
        return 0;
    return sizeof *r + (r->occ.cap + r->recs.cap + r->shmap.cap) * sizeof(struct pair_slot) +
           r->shbytes + r->capep * sizeof(gm_epoch) + r->caprec * sizeof *r->ro;
}

static uint32_t epoch_of(exec_gmrace *r, const gmrace_clock *c, int core, int kind, int line, int col,
                         const char *func)
{
    gm_epoch e = {r->block, r->rec, c->phase, c->vc[core], line, col, func, (int8_t)core, (int8_t)kind};
    uint32_t *rc = r->recent[core];
    for (int i = 0; i < RECENT; i++) {
        const gm_epoch *x = rc[i] > r->base ? epoch_at(r, rc[i]) : NULL;
        if (x && x->block == e.block && x->rec == e.rec && x->phase == e.phase && x->clock == e.clock &&
            x->line == e.line && x->col == e.col && x->kind == e.kind && x->func == e.func)
            return rc[i];
    }
    if (r->nep >= r->capep) {
        r->capep = r->capep ? 2 * r->capep : 256;
        r->ep = xreallocarray(r->ep, r->capep, sizeof *r->ep);
    }
    r->ep[r->nep++] = e;
    memmove(rc + 1, rc, (RECENT - 1) * sizeof *rc);
    rc[0] = r->next++;
    return rc[0];
}

/* Does e happen before the access of core `core` at clock c? */
static int ordered(const exec_gmrace *r, const gm_epoch *e, const gmrace_clock *c, int core)
{
    if (e->rec != r->rec)
        return 1; /* another launch: another runtime task */
    if (e->phase != c->phase)
        return 1; /* a syncall between (a later phase's access came first: the other way) */
    if (e->block != r->block)
        return 0;
    if (e->core == core)
        return 1;
    if (r->twin && e->core >= 2 && core >= 2)
        return 1; /* the two lanes of one body on one data: not compared */
    return vclock_covers(c->vc, e->core, e->clock);
}

static gm_shadow *shadow_of(exec_gmrace *r, const tensor_storage *s)
{
    struct pair_slot *k = pair_at(&r->shmap, s->id, 0);
    if (!k->v) {
        if (r->nsh == r->capsh) {
            r->capsh = r->capsh ? 2 * r->capsh : 16;
            r->sh = xreallocarray(r->sh, r->capsh, sizeof *r->sh);
        }
        gm_shadow *g = &r->sh[r->nsh];
        g->ngran = (s->nbytes + GRANULE - 1) / GRANULE;
        g->nblk = g->ngran ? (g->ngran + BLOCK - 1) / BLOCK : 1;
        g->blk = xcalloc(g->nblk, sizeof *g->blk);
        g->split = xcalloc(g->nblk, sizeof *g->split);
        g->g = NULL;
        r->granules += g->ngran;
        r->shbytes += shadow_bytes(g);
        k->v = (uint32_t)++r->nsh;
    }
    return &r->sh[k->v - 1];
}

static int report(exec_gmrace *r, uint32_t now, uint32_t then, const tensor *v)
{
    r->now = *epoch_at(r, now);
    r->then = *epoch_at(r, then);
    r->storage = v->storage->id;
    r->view = *v;
    r->view.storage = NULL;
    r->raced = 1;
    return 1;
}

/* One granule's bytes `mask` accessed at epoch cur: 1 on a race. */
static int granule(exec_gmrace *r, gm_granule *g, uint32_t mask, uint32_t cur, const gmrace_clock *c, int core,
                   int kind, const tensor *v)
{
    uint32_t shared = r->base; /* the instance's mark: above it, its epochs; below, none */
    if (g->w > shared && g->w != cur && (g->wmask & mask)) {
        const gm_epoch *e = epoch_at(r, g->w);
        if (!ordered(r, e, c, core) && !(e->kind == 2 && kind == 2))
            return report(r, cur, g->w, v);
    }
    if (kind == 0) {
        if (g->r < shared) {
            g->r = cur;
            g->rmask = mask;
        } else if (g->r == cur) {
            g->rmask |= mask;
        } else if (g->r != shared) {
            if (ordered(r, epoch_at(r, g->r), c, core)) {
                g->r = cur;
                g->rmask = mask;
            } else {
                g->r = shared; /* readers the check cannot order any more */
            }
        }
        return 0;
    }
    if (g->r > shared && g->r != cur && (g->rmask & mask) && !ordered(r, epoch_at(r, g->r), c, core))
        return report(r, cur, g->r, v);
    if (g->w == cur) {
        g->wmask |= mask;
    } else if (g->w <= shared || ordered(r, epoch_at(r, g->w), c, core)) {
        g->w = cur;
        g->wmask = mask;
    } else {
        g->w = shared; /* disjoint bytes of two unordered writers, or an atomic pair */
    }
    if (g->r > shared) {
        g->rmask &= ~mask;
        if (!g->rmask)
            g->r = 0;
    }
    return 0;
}

/* The granules of block b of s apart: each takes the block's state. */
static void split_block(exec_gmrace *r, gm_shadow *s, size_t b)
{
    if (!s->g) {
        s->g = xmalloc((s->ngran ? s->ngran : 1) * sizeof *s->g);
        r->shbytes += s->ngran * sizeof *s->g;
    }
    size_t g0 = b * BLOCK, g1 = g0 + BLOCK < s->ngran ? g0 + BLOCK : s->ngran;
    for (size_t gi = g0; gi < g1; gi++)
        s->g[gi] = s->blk[b];
    s->split[b] = 1;
}

/* Block b of s whole again when its granules all hold one state. */
static void join_block(gm_shadow *s, size_t b)
{
    size_t g0 = b * BLOCK, g1 = g0 + BLOCK < s->ngran ? g0 + BLOCK : s->ngran;
    for (size_t gi = g0 + 1; gi < g1; gi++)
        if (memcmp(&s->g[gi], &s->g[g0], sizeof s->g[g0]))
            return;
    s->blk[b] = s->g[g0];
    s->split[b] = 0;
}

/* The whole-block granule rule's last answer within one access: a block
 * in the state `before` went to `after` (a block alike gets the same). */
typedef struct whole_memo {
    int valid;
    gm_granule before, after;
} whole_memo;

/* Bytes [lo, hi) of shadow s: 1 on a race. Granules in order, as one walk
 * over each would visit them (gmrace.h: the first race is reported). */
static int bytes(exec_gmrace *r, gm_shadow *s, int64_t lo, int64_t hi, uint32_t cur, const gmrace_clock *c,
                 int core, int kind, const tensor *v, whole_memo *memo)
{
    if (lo < 0)
        lo = 0;
    if (hi > (int64_t)s->ngran * GRANULE)
        hi = (int64_t)s->ngran * GRANULE;
    int64_t gi = lo / GRANULE;
    while (gi * GRANULE < hi) {
        size_t b = (size_t)gi / BLOCK;
        int64_t bend = (int64_t)(b + 1) * BLOCK < (int64_t)s->ngran ? (int64_t)(b + 1) * BLOCK : (int64_t)s->ngran;
        if (!s->split[b] && gi % BLOCK == 0 && gi * GRANULE >= lo && bend * GRANULE <= hi) {
            gm_granule *st = &s->blk[b];
            if (memo->valid && !memcmp(st, &memo->before, sizeof *st)) {
                *st = memo->after;
            } else {
                gm_granule before = *st;
                if (granule(r, st, UINT32_MAX, cur, c, core, kind, v))
                    return 1;
                *memo = (whole_memo){1, before, *st};
            }
            gi = bend;
            continue;
        }
        if (!s->split[b])
            split_block(r, s, b);
        for (; gi < bend && gi * GRANULE < hi; gi++) {
            int64_t a = gi * GRANULE > lo ? 0 : lo - gi * GRANULE;
            int64_t e = (gi + 1) * GRANULE < hi ? GRANULE : hi - gi * GRANULE;
            uint32_t mask = e - a == GRANULE ? UINT32_MAX : (((uint32_t)1 << (e - a)) - 1) << a;
            if (granule(r, &s->g[gi], mask, cur, c, core, kind, v))
                return 1;
        }
        join_block(s, b);
    }
    return 0;
}

int exec_gmrace_access(exec_gmrace *r, const gmrace_clock *c, int core, const tensor *v, int kind, int line,
                       int col, const char *func)
{
    if (!r || !r->active || r->stale || r->raced || !v || !v->storage || core < 0 || core >= GMRACE_CORES)
        return 0;
    int64_t n = tensor_numel(v);
    if (n <= 0 || (kind == 0 && read_only(r, v->storage->id)))
        return 0;
    uint32_t cur = epoch_of(r, c, core, kind, line, col, func);
    gm_shadow *s = shadow_of(r, v->storage);
    int64_t esz = (int64_t)dtype_size(v->dtype);
    int nd = v->ndim;
    /* rows along the last dim: one run of bytes when it is contiguous */
    int64_t inner = nd > 0 ? v->shape[nd - 1] : 1, step = nd > 0 ? v->strides[nd - 1] : 1;
    int64_t run = step == 1 ? inner : 1, per = step == 1 ? 1 : inner;
    int64_t idx[TENSOR_MAX_DIMS] = {0};
    whole_memo memo = {0};
    for (int64_t k = 0; k < n / inner; k++) {
        int64_t off = v->offset;
        for (int d = 0; d < nd - 1; d++)
            off += idx[d] * v->strides[d];
        for (int64_t j = 0; j < per; j++) {
            int64_t e = off + j * step;
            if (bytes(r, s, e * esz, (e + run) * esz, cur, c, core, kind, v, &memo))
                return 1;
        }
        for (int d = nd - 2; d >= 0; d--) {
            if (++idx[d] < v->shape[d])
                break;
            idx[d] = 0;
        }
    }
    return 0;
}

uint64_t exec_gmrace_storage(const exec_gmrace *r)
{
    return r->storage;
}

static const char *const core_word[GMRACE_CORES] = {"host", "AIC", "AIV0", "AIV1"};
static const char *const now_verb[] = {"reads", "writes", "atomically adds into"};
static const char *const then_verb[] = {"read", "wrote", "atomically added into"};

/* "kv[0:1, 8:16]": the view's box in the indices of `whole` (a row-major
 * tensor over the same storage), or its first element's */
static void put_region(const exec_gmrace *r, const char *name, const tensor *whole, strbuf *out)
{
    const tensor *v = &r->view;
    if (!name || !whole || !tensor_is_contiguous(whole) || whole->ndim < 1) {
        strbuf_printf(out, "%s (global memory from element %lld)", name ? name : "a tensor", (long long)v->offset);
        return;
    }
    int64_t k = v->offset - whole->offset, start[TENSOR_MAX_DIMS];
    int nd = whole->ndim;
    for (int d = nd - 1; d >= 0; d--) {
        int64_t m = whole->shape[d] > 0 ? whole->shape[d] : 1;
        start[d] = k % m;
        k /= m;
    }
    strbuf_printf(out, "%s[", name);
    for (int d = 0; d < nd; d++) {
        int vd = d - (nd - v->ndim); /* the view's dims align with whole's last ones */
        int64_t len = vd >= 0 && v->ndim <= nd ? v->shape[vd] : 1;
        strbuf_printf(out, "%s%lld:%lld", d ? ", " : "", (long long)start[d], (long long)(start[d] + len));
    }
    strbuf_puts(out, "]");
}

static void put_who(const gm_epoch *e, int blocks, strbuf *out)
{
    strbuf_puts(out, core_word[e->core]);
    if (blocks)
        strbuf_printf(out, " of block %lld", (long long)e->block);
}

static void put_at(const gm_epoch *e, int pass, strbuf *out)
{
    if (pass >= 0)
        strbuf_printf(out, "%d:", pass);
    strbuf_printf(out, "%d:%d", e->line, e->col);
}

void exec_gmrace_describe(const exec_gmrace *r, const char *name, const tensor *whole, int pass, strbuf *out)
{
    int blocks = r->now.block != r->then.block;
    strbuf_puts(out, "race: ");
    put_who(&r->now, blocks, out);
    strbuf_printf(out, " %s ", now_verb[r->now.kind]);
    put_region(r, name, whole, out);
    strbuf_puts(out, " at ");
    put_at(&r->now, pass, out);
    strbuf_puts(out, " that ");
    put_who(&r->then, blocks, out);
    strbuf_printf(out, " %s at ", then_verb[r->then.kind]);
    put_at(&r->then, pass, out);
    strbuf_printf(out, " (in %s)", r->then.func ? r->then.func : "?");
    if (blocks)
        strbuf_puts(out, " with no barrier between (the blocks of one launch are ordered only by "
                         "pl.system.syncall: pto-isa SyncAll.hpp:19-46)");
    else
        strbuf_puts(out, " with no pipe or barrier between (PyPTO emits a tpush/tpop fence for a GM store/load "
                         "pair across the cores: expand_mixed_kernel_pass.cpp:297-311, 63614e60f)");
}

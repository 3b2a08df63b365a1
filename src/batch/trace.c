/* Recording a statement trace of one pass (trace.h). The setup mirrors
 * runpass_file (parse, resolve, lower, bind fresh inputs) but drives the
 * machine one step at a time so each statement's bindings can be read. */
#include "batch/trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/content_set.h"
#include "base/mem.h"
#include "base/strbuf.h"
#include "exec/inspect.h"
#include "exec/machine.h"
#include "exec/program.h"
#include "exec/runpass.h"
#include "ir/walk.h"
#include "ir/parse.h"
#include "ir/resolve.h"
#include "ranks/run.h"
#include "ranks/sched.h"

/* What a count or a list of records is of: kind 'k', 'n', 'b', a record's
 * key, name or base name (s) on a lane of a rank; 'r', a region as
 * add_rec_region counts its touches (s says it all); 'R', a GM tensor (s),
 * a region kind (sub) and the how-manieth touch of one box of it (a), on a
 * rank; 'P', a provenance (x) and its count (a), on a rank. s is the
 * trace's pooled copy, so strings compare as pointers. */
typedef struct trace_key {
    const char *s;
    uint64_t x;
    uint32_t a;
    int32_t rank;
    uint8_t kind, lane, sub; /* kind 0: an empty slot */
} trace_key;

/* how many records so far had k (while recording: the nth_* counts) */
struct trace_count {
    trace_key k;
    uint32_t n;
};

/* One GM tensor's stores in a trace with boxed stores: the same storage
 * seen through the same view; cur is the tensor as its last store left it */
struct trace_gm {
    uint64_t sid;
    dtype_id dtype;
    int ndim;
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS], offset;
    tensor *cur;
    size_t *idx, n, cap; /* its records, in order */
};

struct trace_list {
    trace_key k;
    size_t *idx, n, cap;
    const char *key;   /* (base lists) the key of its records, NULL when several */
    /* (region lists whose boxes have one rank, 1 or more) the records'
     * boxes in order, lo[0..box_ndim) then len[0..box_ndim) each; by_lo0:
     * their positions in the list by the boxes' first lo; max_len0: the
     * largest first len (trace_region_match looks only at the boxes whose
     * first extent can hold its own). NULL otherwise. */
    const int64_t *box;
    const size_t *by_lo0;
    int box_ndim;
    int64_t max_len0;
};

static uint64_t key_hash(const trace_key *k)
{
    uint64_t h = (uint64_t)(uintptr_t)k->s * 0x9e3779b97f4a7c15ull;
    h ^= k->x * 0xff51afd7ed558ccdull;
    h ^= ((uint64_t)k->a << 32 | (uint32_t)k->rank) * 0xc4ceb9fe1a85ec53ull;
    h ^= (uint64_t)(k->kind | k->lane << 8 | k->sub << 16) * 0x100000001b3ull;
    return h ^ (h >> 29) ^ (h >> 47);
}

static int key_eq(const trace_key *a, const trace_key *b)
{
    return a->s == b->s && a->x == b->x && a->a == b->a && a->rank == b->rank && a->kind == b->kind &&
           a->lane == b->lane && a->sub == b->sub;
}

/* In a table of cap slots (a power of 2) of size bytes, each starting with
 * its key: k's slot, or the empty one where k goes. */
static size_t key_probe(const void *at, size_t size, size_t cap, const trace_key *k)
{
    size_t j = (size_t)key_hash(k) & (cap - 1);
    for (;;) {
        const trace_key *e = (const void *)((const char *)at + j * size);
        if (!e->kind || key_eq(e, k))
            return j;
        j = (j + 1) & (cap - 1);
    }
}

/* A table of *cap slots made twice as large (256 slots at first); n of
 * them hold keys. */
static void *key_table_grow(void *at, size_t size, size_t *cap)
{
    size_t oldcap = *cap;
    *cap = oldcap ? oldcap * 2 : 256;
    char *grown = xcalloc(*cap, size);
    for (size_t i = 0; i < oldcap; i++) {
        const trace_key *e = (const void *)((const char *)at + i * size);
        if (e->kind)
            memcpy(grown + key_probe(grown, size, *cap, e) * size, e, size);
    }
    free(at);
    return grown;
}

/* The count of earlier records with key k, then one more. */
static uint32_t bump(trace *t, trace_key k)
{
    if ((t->ncounts + 1) * 2 > t->capcounts)
        t->counts = key_table_grow(t->counts, sizeof *t->counts, &t->capcounts);
    struct trace_count *c = &t->counts[key_probe(t->counts, sizeof *t->counts, t->capcounts, &k)];
    if (!c->k.kind) {
        c->k = k;
        c->n = 0;
        t->ncounts++;
    }
    return c->n++;
}

/* A record's key, name or base name key (kind 'k', 'n', 'b'). */
static trace_key lane_key(char kind, int lane, int rank, const char *pooled)
{
    return (trace_key){.s = pooled, .rank = rank, .kind = (uint8_t)kind, .lane = (uint8_t)lane};
}

typedef struct rec_ctx {
    trace *t;
    size_t max_bytes;
    int boxed;         /* trace_pass_boxed */
    /* (boxed) the kept copies' storages by content: a value bit for bit an
     * earlier one's (a tile.move's, a carry's) shares its storage */
    content_set kept;  /* owner: the storage (a reference held) */
    trace_fn fn;
    void *ud;
    int stop;
    const trace_observer *obs; /* a second recorder of the same run, or NULL (single-rank runs only) */
    int rank;          /* the rank whose machine runs the step being recorded */
    /* the storages the step wrote, taken when the hook runs: the tensor
     * written may be an op's temporary view (a notify's remote cell), freed
     * before the step returns */
    const tensor_storage **written;
    size_t nwritten, capwritten;
    /* iterations of the loops running now, per core; since: the step at
     * which the current iteration began */
    struct loop_count { const ir_stmt *st; int core, rank; uint64_t n, since; } *loops;
    size_t nloops, caploops;
    /* the statement that last bound each name, per core and rank, and at
     * which step: a loop's carry is laid to the statement that made the
     * value its yield handed over in that iteration */
    struct def_slot { trace_key k; int line; uint64_t step; } *defs; /* k.s: the ir_sym, a: the core */
    size_t ndefs, capdefs;
    uint64_t step;
    const char *carry_from; /* for the record being made: its carry_from */
    /* the pool's strings by what they were made from, a pointer that names
     * one thing while the run lasts: a program string (a name, a function)
     * its copy (a), an assignment its key (a) and base names (b) */
    struct ptr_memo { trace_key k; const char *a, *b; } *memo; /* k.s: the pointer */
    size_t nmemo, capmemo;
} rec_ctx;

/* The key of name's definition on core, on the rank being recorded. */
static trace_key def_key(const rec_ctx *rc, const ir_sym *name, int core)
{
    return (trace_key){.s = (const char *)(const void *)name, .a = (uint32_t)core, .rank = rc->rank, .kind = 'd'};
}

static struct def_slot *def_find(rec_ctx *rc, const ir_sym *name, int core)
{
    if (!rc->capdefs)
        return NULL;
    trace_key k = def_key(rc, name, core);
    struct def_slot *d = &rc->defs[key_probe(rc->defs, sizeof *rc->defs, rc->capdefs, &k)];
    return d->k.kind ? d : NULL;
}

static void def_note(rec_ctx *rc, const ir_sym *name, int core, int line)
{
    if ((rc->ndefs + 1) * 2 > rc->capdefs)
        rc->defs = key_table_grow(rc->defs, sizeof *rc->defs, &rc->capdefs);
    trace_key k = def_key(rc, name, core);
    struct def_slot *d = &rc->defs[key_probe(rc->defs, sizeof *rc->defs, rc->capdefs, &k)];
    if (!d->k.kind)
        rc->ndefs++;
    *d = (struct def_slot){k, line, rc->step};
}

/* src's memo (a NULL: new, to be filled); its key table's slot */
static struct ptr_memo *memo_of(rec_ctx *rc, const void *src)
{
    if ((rc->nmemo + 1) * 2 > rc->capmemo)
        rc->memo = key_table_grow(rc->memo, sizeof *rc->memo, &rc->capmemo);
    trace_key k = {.s = src, .kind = 'm'};
    struct ptr_memo *e = &rc->memo[key_probe(rc->memo, sizeof *rc->memo, rc->capmemo, &k)];
    if (!e->k.kind) {
        e->k = k;
        rc->nmemo++;
    }
    return e;
}

/* The pool's copy of s, a string of the run's program (one string at that
 * pointer while the run lasts). */
static const char *pooled_program_string(rec_ctx *rc, const char *s)
{
    struct ptr_memo *e = memo_of(rc, s);
    if (!e->a)
        e->a = str_pool_intern(&rc->t->strs, s, SIZE_MAX);
    return e->a;
}

/* st ran on core: the names it bound */
static void note_defs(rec_ctx *rc, int core, const ir_stmt *st)
{
    if (st->kind != IR_STMT_ASSIGN && st->kind != IR_STMT_YIELD)
        return;
    for (uint32_t i = 0; i < st->u.assign.ntargets; i++)
        if (st->u.assign.targets[i].name)
            def_note(rc, st->u.assign.targets[i].name, core, (int)st->span.line);
}

static void on_write(void *ud, int core, const tensor *t)
{
    rec_ctx *rc = ud;
    if (rc->obs)
        rc->obs->write(rc->obs->ud, core, t);
    if (rc->nwritten == rc->capwritten) {
        rc->capwritten = rc->capwritten ? rc->capwritten * 2 : 8;
        rc->written = xreallocarray(rc->written, rc->capwritten, sizeof *rc->written);
    }
    rc->written[rc->nwritten++] = t->storage;
}

/* A contiguous copy of t with its attributes (the valid region limits
 * the comparison). */
static tensor *copy_tensor(const tensor *t)
{
    tensor *c = tensor_clone(t);
    tensor_copy_attrs(c, t);
    return c;
}

static tensor *copy_value(const value *v)
{
    if (v->kind == VAL_TENSOR && v->u.t)
        return copy_tensor(v->u.t);
    double d;
    if ((v->kind == VAL_INT || v->kind == VAL_FLOAT || v->kind == VAL_BOOL) && value_as_double(v, &d) == 0)
        return tensor_scalar(DTYPE_FP64, d);
    return NULL;
}

/* a record's region when it has none */
static const exec_region no_region;

static void add_rec_region(rec_ctx *rc, const char *key, const char *base, const char *name, int pooled,
                           const inspect_frame *f, int core, const value *v, const exec_region *g);

/* The box g of whole (a view), or NULL when g is not within it. */
static tensor *box_view(const tensor *whole, const exec_region *g)
{
    if (g->ndim != whole->ndim || whole->ndim == 0)
        return NULL;
    int64_t off = whole->offset;
    for (int d = 0; d < whole->ndim; d++) {
        if (g->lo[d] < 0 || g->len[d] < 0 || g->lo[d] + g->len[d] > whole->shape[d])
            return NULL;
        off += g->lo[d] * whole->strides[d];
    }
    ptodb_status st;
    return tensor_view(whole, whole->ndim, g->len, whole->strides, off, &st);
}

static struct trace_gm *gm_of(trace *t, const tensor *live)
{
    for (size_t i = 0; i < t->ngms; i++) {
        struct trace_gm *h = &t->gms[i];
        if (h->sid == live->storage->id && h->dtype == live->dtype && h->ndim == live->ndim &&
            h->offset == live->offset && memcmp(h->shape, live->shape, sizeof h->shape) == 0 &&
            memcmp(h->strides, live->strides, sizeof h->strides) == 0)
            return h;
    }
    if (t->ngms == t->capgms) {
        t->capgms = t->capgms ? t->capgms * 2 : 8;
        t->gms = xreallocarray(t->gms, t->capgms, sizeof *t->gms);
    }
    struct trace_gm *h = &t->gms[t->ngms++];
    memset(h, 0, sizeof *h);
    h->sid = live->storage->id;
    h->dtype = live->dtype;
    h->ndim = live->ndim;
    h->offset = live->offset;
    memcpy(h->shape, live->shape, sizeof h->shape);
    memcpy(h->strides, live->strides, sizeof h->strides);
    return h;
}

/* Where t's elements lie in row-major order in its storage, when they do
 * (a dense tensor: the bytes a copy of it would hold); *bytes their size.
 * NULL otherwise. */
static const unsigned char *dense_bytes(const tensor *t, size_t *bytes)
{
    size_t es = dtype_size(t->dtype);
    int64_t n = tensor_numel(t), expect = 1;
    int dense = n > 0 && es > 0 && t->offset >= 0;
    for (int d = t->ndim - 1; d >= 0 && dense; d--) {
        if (t->shape[d] != 1 && t->strides[d] != expect)
            dense = 0;
        expect *= t->shape[d];
    }
    *bytes = dense ? (size_t)n * es : 0;
    if (!dense || (size_t)t->offset * es + *bytes > t->storage->nbytes)
        return NULL;
    return t->storage->data + (size_t)t->offset * es;
}

/* The storage of a copy the trace keeps (or the observer's, then kept
 * too) holding the n bytes at data (hash h), or NULL. */
static tensor_storage *kept_storage(rec_ctx *rc, uint64_t h, const unsigned char *data, size_t n)
{
    tensor_storage *same = content_set_find(&rc->kept, h, data, n);
    if (!same && rc->obs && rc->obs->share) {
        /* the observer's copy of the same bytes */
        same = rc->obs->share(rc->obs->ud, h, data, n);
        if (same)
            content_set_add(&rc->kept, h, same->data, n, same);
    }
    return same;
}

/* copy (a fresh contiguous copy of a record's value) as the trace keeps it:
 * over the storage of an earlier copy with the same bytes, where there is
 * one (the same elements, shape and attributes; only the storage shared),
 * else copy itself, its storage noted. */
static tensor *keep_copy(rec_ctx *rc, tensor *copy)
{
    size_t bytes = (size_t)tensor_numel(copy) * dtype_size(copy->dtype);
    if (!bytes || copy->offset != 0 || copy->storage->nbytes != bytes)
        return copy;
    const unsigned char *data = copy->storage->data;
    uint64_t h = content_hash(data, bytes);
    tensor_storage *same = kept_storage(rc, h, data, bytes);
    if (same) {
        ptodb_status st;
        tensor *v = tensor_from_storage(same, copy->dtype, copy->ndim, copy->shape, NULL, 0, &st);
        if (!v)
            return copy;
        tensor_copy_attrs(v, copy);
        tensor_unref(copy);
        return v;
    }
    content_set_add(&rc->kept, h, data, bytes, tensor_storage_ref(copy->storage));
    return copy;
}

/* A boxed trace's record of live (not a store's): over the storage of a
 * copy kept before (or the observer's) with the bytes live's elements have,
 * found by those bytes where they lie when live is dense, as keep_copy
 * would find it for a copy; NULL when live is not dense or no copy has
 * them (the caller copies live then). */
static tensor *keep_live(rec_ctx *rc, const tensor *live)
{
    size_t bytes;
    const unsigned char *data = dense_bytes(live, &bytes);
    if (!data)
        return NULL;
    tensor_storage *same = kept_storage(rc, content_hash(data, bytes), data, bytes);
    if (!same)
        return NULL;
    ptodb_status st;
    tensor *v = tensor_from_storage(same, live->dtype, live->ndim, live->shape, NULL, 0, &st);
    if (v)
        tensor_copy_attrs(v, live);
    return v;
}

/* r, about to be kept as record i, is a store's of the GM tensor live: kept
 * as its box when the whole is the previous store's whole with the box
 * written (compared byte for byte, with live's bytes where they lie when
 * live is dense: no copy of the whole is made then), else as a copy of
 * the whole (r->t; the history starts again). */
static void box_store(trace *t, trace_rec *r, const tensor *live, size_t i)
{
    tensor *bv = box_view(live, r->reg);
    if (!bv) {
        r->t = copy_tensor(live);
        return;
    }
    struct trace_gm *h = gm_of(t, live);
    if (h->n == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 16;
        h->idx = xreallocarray(h->idx, h->cap, sizeof *h->idx);
    }
    r->gm = (uint32_t)(h - t->gms);
    r->gm_seq = (uint32_t)h->n;
    h->idx[h->n++] = i;
    size_t bytes;
    const unsigned char *in_place = dense_bytes(live, &bytes);
    tensor *whole = in_place ? NULL : copy_tensor(live);
    if (h->cur) {
        tensor *dst = box_view(h->cur, r->reg);
        size_t n = (size_t)tensor_numel(live) * dtype_size(live->dtype);
        int same = dst && tensor_copy_into(dst, bv) == PTODB_OK &&
                   memcmp(tensor_data(h->cur), in_place ? in_place : tensor_data(whole), n) == 0;
        tensor_unref(dst);
        if (same) {
            r->box = tensor_clone(bv);
            /* the header a copy of the whole has (tensor_clone's), no storage */
            ptodb_status st;
            r->hdr = tensor_from_storage(h->cur->storage, live->dtype, live->ndim, live->shape, NULL, 0, &st);
            if (r->hdr) {
                tensor_copy_attrs(r->hdr, live);
                tensor_storage_unref(r->hdr->storage);
                r->hdr->storage = NULL;
                tensor_unref(bv);
                tensor_unref(whole);
                return;
            }
            tensor_unref(r->box);
            r->box = NULL;
        }
    }
    tensor_unref(bv);
    if (!whole)
        whole = copy_tensor(live);
    tensor_unref(h->cur);
    h->cur = tensor_clone(whole);
    r->t = whole;
}

const tensor *trace_rec_header(const trace_rec *r)
{
    return r->t ? r->t : r->hdr;
}

const tensor *trace_rec_value(const trace *tr, const trace_rec *r)
{
    if (r->t || !r->box)
        return r->t;
    const struct trace_gm *h = &tr->gms[r->gm];
    /* the latest record before it with its whole: the history's start
     * (always whole), or one made before */
    uint32_t j = r->gm_seq;
    while (j > 0 && !tr->recs[h->idx[j]].t)
        j--;
    tensor *w = tensor_clone(tr->recs[h->idx[j]].t);
    for (uint32_t k = j + 1; k <= r->gm_seq; k++) {
        const trace_rec *x = &tr->recs[h->idx[k]];
        tensor *dst = box_view(w, x->reg);
        if (dst)
            tensor_copy_into(dst, x->box);
        tensor_unref(dst);
    }
    tensor_copy_attrs(w, r->hdr);
    ((trace_rec *)r)->t = w; /* the trace owns it from now on */
    return w;
}

static void add_rec(rec_ctx *rc, const char *key, const char *base, const char *name, const inspect_frame *f,
                    int core, const value *v)
{
    add_rec_region(rc, key, base, name, 0, f, core, v, NULL);
}

/* A record of v (bound by the statement at f) keyed by key, base and
 * name (pooled: they are the trace's pool's already), of region g (or
 * NULL). */
static void add_rec_region(rec_ctx *rc, const char *key, const char *base, const char *name, int pooled,
                           const inspect_frame *f, int core, const value *v, const exec_region *g)
{
    trace *t = rc->t;
    if (rc->stop || t->truncated)
        return;
    /* a callback's record lives for the call: a view of the live tensor
     * serves it as well as a copy (nothing runs meanwhile) */
    ptodb_status ast;
    tensor *copy = rc->fn && v->kind == VAL_TENSOR && v->u.t ? tensor_alias(v->u.t, &ast) : NULL;
    /* a boxed trace keeps most values over a copy it holds already: the
     * live bytes are looked for before any copy is made (a store's are
     * box_store's to copy or not) */
    int boxed_store = !rc->fn && rc->boxed && g && g->kind == EXEC_REGION_STORE && v->kind == VAL_TENSOR && v->u.t;
    if (!copy && !rc->fn && rc->boxed && v->kind == VAL_TENSOR && v->u.t && !boxed_store)
        copy = keep_live(rc, v->u.t);
    int kept = copy != NULL && !rc->fn;
    if (!copy && !boxed_store && !(copy = copy_value(v)))
        return;
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.reg = &no_region;
    r.lane = core == EXEC_CORE_AIV1;
    r.rank = rc->rank;
    r.key = pooled ? key : str_pool_intern(&t->strs, key, SIZE_MAX);
    r.base = pooled ? base : str_pool_intern(&t->strs, base, SIZE_MAX);
    r.name = pooled ? name : str_pool_intern(&t->strs, name, SIZE_MAX);
    r.nth_key = bump(t, lane_key('k', r.lane, r.rank, r.key));
    r.nth_name = bump(t, lane_key('n', r.lane, r.rank, r.name));
    r.nth_base = bump(t, lane_key('b', r.lane, r.rank, r.base));
    strbuf kb = STRBUF_INIT;
    if (g) {
        strbuf_putc(&kb, 'r');
        strbuf_put_int(&kb, core);
        strbuf_putc(&kb, '.');
        strbuf_put_int(&kb, r.rank);
        strbuf_putc(&kb, '|');
        strbuf_puts(&kb, f->func ? f->func : "?");
        strbuf_putc(&kb, '|');
        exec_region_format(g, &kb);
        strbuf_putc(&kb, '|');
        strbuf_put_int(&kb, (int)g->kind);
        r.nth_region = bump(t, (trace_key){.s = str_pool_intern(&t->strs, strbuf_str(&kb), SIZE_MAX), .kind = 'r'});
        r.has_region = 1;
        r.reg = g; /* the trace's own copy if it keeps the record */
    }
    strbuf_free(&kb);
    if (v->kind == VAL_TENSOR && v->u.t && v->u.t->prov) {
        r.prov = v->u.t->prov;
        r.prov_k = v->u.t->prov_k;
        r.prov_core = v->u.t->prov_core;
    }
    r.line = f->line;
    r.core = core;
    r.block = f ? f->block_idx : 0;
    r.blocks = f && f->block_num > 0 ? f->block_num : 1;
    r.t = copy;
    r.func = pooled_program_string(rc, f->func ? f->func : "?");
    r.carry_from = rc->carry_from ? pooled_program_string(rc, rc->carry_from) : NULL;
    if (rc->fn) {
        if (rc->fn(rc->ud, &r))
            rc->stop = 1;
        tensor_unref(r.t);
        return;
    }
    if (r.has_region)
        r.reg = arena_memdup(&t->mem, g, sizeof *g);
    const tensor *vt = copy ? copy : v->u.t; /* (a boxed store's: box_store copies what it keeps) */
    size_t bytes = (size_t)tensor_numel(vt) * dtype_size(vt->dtype);
    if (t->bytes + bytes > rc->max_bytes) {
        t->truncated = 1;
        tensor_unref(r.t);
        return;
    }
    t->bytes += bytes; /* a boxed store's whole, as unboxed: the same cap */
    if (boxed_store)
        box_store(t, &r, v->u.t, t->n);
    if (rc->boxed && r.t && !kept)
        r.t = keep_copy(rc, r.t);
    if (t->n == t->cap)
        t->recs = xpages_grow(t->recs, &t->cap, t->n + 1, sizeof *t->recs);
    t->recs[t->n++] = r;
}

/* 1 when ANNOT is the dump's `pl.Tensor[...]` type (a GM tensor), not a tile. */
static int annot_is_gm_tensor(const ir_expr *annot)
{
    return annot && annot->kind == IR_EXPR_SUBSCRIPT && annot->u.sub.value &&
           annot->u.sub.value->kind == IR_EXPR_ATTR && strcmp(annot->u.sub.value->u.attr.name->text, "Tensor") == 0;
}

/* What statement st (just run on core, frame f) bound: its targets, or for
 * an expression statement the named arguments it wrote in place. */
static void record_stmt(rec_ctx *rc, const machine *m, int core, const ir_stmt *st, const inspect_frame *f)
{
    strbuf key = STRBUF_INIT, base = STRBUF_INIT;
    if (st->kind == IR_STMT_ASSIGN) {
        /* its key and base names, made once per statement */
        struct ptr_memo *sk = memo_of(rc, st);
        if (!sk->a) {
            for (uint32_t i = 0; i < st->u.assign.ntargets; i++) {
                if (i)
                    strbuf_putc(&base, ',');
                ir_ssa_base_name(st->u.assign.targets[i].name->text, &base);
            }
            strbuf_puts(&key, strbuf_str(&base));
            strbuf_putc(&key, '|');
            ir_call_short_name(st->u.assign.value, &key);
            sk->a = str_pool_intern(&rc->t->strs, strbuf_str(&key), SIZE_MAX);
            sk->b = str_pool_intern(&rc->t->strs, strbuf_str(&base), SIZE_MAX);
        }
        const char *skey = sk->a, *sbase = sk->b; /* (sk moves when the memo grows) */
        /* a load's tile, a store's result: what GM region it is */
        exec_region g;
        int has_region = st->u.assign.ntargets == 1 && exec_region_of(m, core, st, &g);
        for (uint32_t i = 0; i < st->u.assign.ntargets; i++) {
            const char *name = st->u.assign.targets[i].name->text;
            int slot = inspect_find_slot(m, core, 0, name);
            const char *sn;
            const value *v;
            if (slot < 0 || !inspect_slot(m, core, 0, slot, &sn, &v) || strcmp(sn, name) != 0)
                continue;
            add_rec_region(rc, skey, sbase, pooled_program_string(rc, name), 1, f, core, v, has_region ? &g : NULL);
        }
    } else if (st->kind == IR_STMT_YIELD && st->u.assign.ntargets == st->u.assign.nvalues) {
        /* a branch's yield hands a value to its if's phi (PyPTO names it
         * x__phi_vN): the value a branch hands over is where a branch that
         * yields another operand first differs (PyPTO #652's CtrlFlowTransform
         * yielded the loop's carry instead of the value the branch computed).
         * A loop's own yield is left out: the same key as a pass without the
         * if, in other iterations (a continue skips it there); the carry it
         * hands over is recorded per iteration instead (record_carries). */
        for (uint32_t i = 0; i < st->u.assign.ntargets; i++) {
            const ir_expr *val = st->u.assign.values[i];
            if (!val || val->kind != IR_EXPR_NAME || !strstr(st->u.assign.targets[i].name->text, "__phi"))
                continue;
            strbuf_clear(&key);
            strbuf_clear(&base);
            ir_ssa_base_name(st->u.assign.targets[i].name->text, &base);
            strbuf_puts(&key, strbuf_str(&base));
            strbuf_putc(&key, '|');
            ir_call_short_name(st->u.assign.value, &key);
            strbuf_puts(&key, "phi");
            int slot = inspect_find_slot(m, core, 0, val->u.name->text);
            const char *sn;
            const value *v;
            /* tile-sized values only: a GM tensor a loop carries is seen at its stores */
            if (slot < 0 || (st->u.assign.ntargets == 1 && annot_is_gm_tensor(st->u.assign.annot)) ||
                !inspect_slot(m, core, 0, slot, &sn, &v) || strcmp(sn, val->u.name->text) != 0 ||
                v->kind != VAL_TENSOR || !v->u.t || tensor_numel(v->u.t) > 65536)
                continue;
            add_rec(rc, strbuf_str(&key), strbuf_str(&base), st->u.assign.targets[i].name->text, f, core, v);
        }
    } else if (st->kind == IR_STMT_EXPR && rc->nwritten) {
        const ir_expr *c = st->u.expr.value;
        if (c && c->kind == IR_EXPR_CALL) {
            ir_call_short_name(c, &key);
            strbuf_putc(&key, '(');
            strbuf_puts(&base, "(");
            for (uint32_t i = 0; i < c->u.call.nargs; i++)
                if (c->u.call.args[i]->kind == IR_EXPR_NAME) {
                    ir_ssa_base_name(c->u.call.args[i]->u.name->text, &key);
                    ir_ssa_base_name(c->u.call.args[i]->u.name->text, &base);
                    strbuf_putc(&key, ',');
                    strbuf_putc(&base, ',');
                }
            strbuf_putc(&key, ')');
            strbuf_putc(&base, ')');
            for (uint32_t i = 0; i < c->u.call.nargs; i++) {
                if (c->u.call.args[i]->kind != IR_EXPR_NAME)
                    continue;
                const char *name = c->u.call.args[i]->u.name->text;
                int slot = inspect_find_slot(m, core, 0, name);
                const char *sn;
                const value *v;
                if (slot < 0 || !inspect_slot(m, core, 0, slot, &sn, &v) || v->kind != VAL_TENSOR || !v->u.t)
                    continue;
                int hit = 0;
                for (size_t k = 0; k < rc->nwritten && !hit; k++)
                    hit = rc->written[k] == v->u.t->storage;
                if (hit)
                    add_rec(rc, strbuf_str(&key), strbuf_str(&base), name, f, core, v);
            }
        }
    }
    strbuf_free(&key);
    strbuf_free(&base);
}

static int inside(const ir_stmt *outer, const ir_stmt *st)
{
    return st && st != outer && st->span.start >= outer->span.start && st->span.end <= outer->span.end;
}

static void names_in(const ir_expr *e, strbuf *out)
{
    if (!e)
        return;
    if (e->kind == IR_EXPR_NAME) {
        strbuf_putc(out, ',');
        ir_ssa_base_name(e->u.name->text, out);
    } else if (e->kind == IR_EXPR_BINARY) {
        names_in(e->u.binary.lhs, out);
        names_in(e->u.binary.rhs, out);
    } else if (e->kind == IR_EXPR_UNARY) {
        names_in(e->u.unary.operand, out);
    }
}

/* Control flow as records, so that a pass that changes it is found where it
 * does: a `for` loop's trip count when it exits ("loop|VAR"), an `if`'s
 * branch, 1 then, 0 else ("if|NAMES": the SSA base names in its condition).
 * bisect compares them exactly (trace_rec_is_control). st ran on core;
 * next is the statement the core is at now. */
static const char control_loop[] = "loop|", control_if[] = "if|";

int trace_rec_is_control(const trace_rec *r)
{
    return strncmp(r->key, control_loop, sizeof control_loop - 1) == 0 ||
           strncmp(r->key, control_if, sizeof control_if - 1) == 0;
}

int trace_rec_is_if(const trace_rec *r)
{
    return strncmp(r->key, control_if, sizeof control_if - 1) == 0;
}

int trace_rec_is_yield(const trace_rec *r)
{
    const char *bar = strchr(r->key, '|');
    return bar && strncmp(bar + 1, "yield", 5) == 0;
}

/* A loop variable's name before SSA: ConvertToSSA turns the third loop over
 * `ob` (written ob_2 by the frontend) into ob__idx_v0_2, so the base name
 * keeps that trailing _2: "ob_2" either way. */
static void loop_var_base(const char *name, strbuf *out)
{
    const char *cut = strstr(name, "__");
    if (!cut) {
        strbuf_puts(out, name);
        return;
    }
    strbuf_append(out, name, (size_t)(cut - name));
    /* __KIND_vN_M: the _M is the frontend's own suffix */
    const char *v = strstr(cut, "_v");
    if (!v)
        return;
    const char *p = v + 2;
    while (*p >= '0' && *p <= '9')
        p++;
    if (p == v + 2 || *p != '_' || !p[1])
        return;
    for (const char *q = p + 1; *q; q++)
        if (*q < '0' || *q > '9')
            return;
    strbuf_puts(out, p);
}

/* The key of a loop's trip-count record: "loop|VAR" for a counted loop,
 * "loop|while,NAMES" for a while loop (the SSA base names in its
 * condition; a pl.while_'s is its first statement, pl.cond). */
static void loop_key(const ir_stmt *st, strbuf *key, char *label, size_t size)
{
    strbuf_puts(key, control_loop);
    if (st->kind == IR_STMT_FOR && st->u.for_.var) {
        loop_var_base(st->u.for_.var->name->text, key);
        snprintf(label, size, "trip count of the loop over %s", st->u.for_.var->name->text);
        return;
    }
    strbuf_puts(key, "while");
    if (st->kind == IR_STMT_WHILE)
        names_in(st->u.while_.cond, key);
    else if (st->u.for_.body.n && st->u.for_.body.items[0]->kind == IR_STMT_COND)
        names_in(st->u.for_.body.items[0]->u.expr.arg, key);
    snprintf(label, size, "trip count of the while loop at line %u", st->span.line);
}

static int is_loop(const ir_stmt *st)
{
    return st->kind == IR_STMT_FOR || st->kind == IR_STMT_WHILE;
}

/* A loop of core left open when its frame returned from inside it (a
 * kernel whose last statement is the loop): its trip count now. */
static void close_loop(rec_ctx *rc, size_t i, const inspect_frame *f, int core)
{

    const ir_stmt *st = rc->loops[i].st;
    uint64_t n = rc->loops[i].n;
    rc->loops[i] = rc->loops[--rc->nloops];
    strbuf key = STRBUF_INIT;
    char label[160];
    loop_key(st, &key, label, sizeof label);
    value v = value_int((int64_t)n);
    inspect_frame g = *f;
    g.line = (int)st->span.line;
    add_rec(rc, strbuf_str(&key), strbuf_str(&key), label, &g, core, &v);
    strbuf_free(&key);
}

/* Core returned from the function holding `last` (its last statement): the
 * loops around that statement that are still counting ended with it. */
static void close_loops_of_return(rec_ctx *rc, int core, const ir_stmt *last, const inspect_frame *f)
{
    for (size_t i = rc->nloops; i-- > 0;)
        if (rc->loops[i].core == core && rc->loops[i].rank == rc->rank && last &&
            (rc->loops[i].st == last || inside(rc->loops[i].st, last)))
            close_loop(rc, i, f, core);
}

/* 1 when the loop's carry i is a GM tensor: the yield's declared type (a
 * one-target yield), or the type of the assignment in the body that defined
 * the yielded value. A GM tensor a loop carries is updated in place and seen
 * at its stores; recording it whole every iteration costs its size times the
 * trip count (qwen3_scope3_h2048's down_proj_gm, [16, 2048] over 16 x 2
 * iterations per call, made `why` take minutes). */
static int carry_is_gm_tensor(const ir_stmt *loop, const ir_stmt *y, uint32_t i)
{
    if (!y)
        return 0;
    if (y->u.assign.ntargets == 1 && y->u.assign.annot)
        return annot_is_gm_tensor(y->u.assign.annot);
    const ir_expr *val = y->u.assign.values[i];
    if (!val || val->kind != IR_EXPR_NAME)
        return 0;
    const ir_block *body = &loop->u.for_.body;
    for (uint32_t k = 0; k < body->n; k++) {
        const ir_stmt *d = body->items[k];
        if (d->kind == IR_STMT_ASSIGN && d->u.assign.ntargets == 1 && d->u.assign.targets[0].name &&
            strcmp(d->u.assign.targets[0].name->text, val->u.name->text) == 0)
            return annot_is_gm_tensor(d->u.assign.annot);
    }
    return 0;
}

/* A counted loop's carries as one iteration hands them to the next (key
 * "BASE|yield_carry", BASE the iter-arg's SSA base name; one record per
 * iteration, so the count is the iteration): a pass whose loop carries
 * another value (a branch that yields the carry instead of what it
 * computed, PyPTO #652) differs here, before any statement of the next
 * iteration reads it, and in a pass where a `continue` skips the yield the
 * unchanged carry is still recorded. The record is laid to the statement
 * that made the value the loop's yield handed over in that iteration (the
 * header's when the yield did not run), and named after that value. Tiles
 * only: a GM tensor a loop carries is seen at its stores. since: the step
 * at which the iteration began. */
static void record_carries(rec_ctx *rc, const machine *m, int core, const ir_stmt *loop, const inspect_frame *f,
                           uint64_t since)
{
    if (loop->kind != IR_STMT_FOR || !loop->u.for_.niter_args)
        return;
    const ir_block *body = &loop->u.for_.body;
    const ir_stmt *y = body->n ? body->items[body->n - 1] : NULL;
    if (y && (y->kind != IR_STMT_YIELD || y->u.assign.nvalues != loop->u.for_.niter_args ||
              y->u.assign.ntargets != y->u.assign.nvalues))
        y = NULL;
    strbuf key = STRBUF_INIT;
    for (uint32_t i = 0; i < loop->u.for_.niter_args; i++) {
        const ir_sym *arg = loop->u.for_.iter_args[i].name;
        if (!arg || carry_is_gm_tensor(loop, y, i))
            continue;
        int slot = inspect_find_slot(m, core, 0, arg->text);
        const char *sn;
        const value *v;
        if (slot < 0 || !inspect_slot(m, core, 0, slot, &sn, &v) || strcmp(sn, arg->text) != 0 ||
            v->kind != VAL_TENSOR || !v->u.t || tensor_numel(v->u.t) > 65536)
            continue;
        inspect_frame g = *f;
        g.line = (int)loop->span.line;
        const char *from = NULL;
        const struct def_slot *ran = y && y->u.assign.targets[i].name ? def_find(rc, y->u.assign.targets[i].name, core)
                                                                     : NULL;
        const ir_expr *val = ran && ran->step > since ? y->u.assign.values[i] : NULL;
        if (val && val->kind == IR_EXPR_NAME) {
            const struct def_slot *d = def_find(rc, val->u.name, core);
            if (d) {
                g.line = d->line;
                from = val->u.name->text;
            }
        }
        strbuf_clear(&key);
        ir_ssa_base_name(arg->text, &key);
        strbuf_puts(&key, "|yield_carry");
        rc->carry_from = from;
        add_rec(rc, strbuf_str(&key), strbuf_str(&key), arg->text, &g, core, v);
        rc->carry_from = NULL;
    }
    strbuf_free(&key);
}

static void record_control(rec_ctx *rc, const machine *m, int core, const ir_stmt *st, const ir_stmt *next,
                           const inspect_frame *f)
{
    strbuf key = STRBUF_INIT;
    value v = value_none();
    char label[160];
    if (is_loop(st)) {
        size_t i = 0;
        while (i < rc->nloops && (rc->loops[i].st != st || rc->loops[i].core != core || rc->loops[i].rank != rc->rank))
            i++;
        /* one more iteration: the header stepped into its body's first
         * statement (a core at an implicit return after the loop names the
         * body's last statement: that is the exit) */
        const ir_block *body = st->kind == IR_STMT_WHILE ? &st->u.while_.body : &st->u.for_.body;
        if (inside(st, next) && body->n && (next == body->items[0] || inside(body->items[0], next))) {
            if (i == rc->nloops) {
                if (rc->nloops == rc->caploops) {
                    rc->caploops = rc->caploops ? rc->caploops * 2 : 16;
                    rc->loops = xreallocarray(rc->loops, rc->caploops, sizeof *rc->loops);
                }
                rc->loops[rc->nloops++] = (struct loop_count){st, core, rc->rank, 0, rc->step};
            } else {
                record_carries(rc, m, core, st, f, rc->loops[i].since);
                rc->loops[i].since = rc->step;
            }
            rc->loops[i].n++;
            return;
        }
        uint64_t n = 0;
        if (i < rc->nloops) {
            n = rc->loops[i].n;
            rc->loops[i] = rc->loops[--rc->nloops];
        }
        loop_key(st, &key, label, sizeof label);
        v = value_int((int64_t)n);

    } else if (st->kind == IR_STMT_IF) {
        strbuf_puts(&key, control_if);
        names_in(st->u.if_.cond, &key);
        int taken = 0;
        for (uint32_t i = 0; i < st->u.if_.body.n && !taken; i++)
            taken = st->u.if_.body.items[i] == next || inside(st->u.if_.body.items[i], next);
        snprintf(label, sizeof label, "branch taken by the if at line %u (1 then, 0 else)", st->span.line);
        v = value_int(taken);
    } else {
        return;
    }
    add_rec(rc, strbuf_str(&key), strbuf_str(&key), label, f, core, &v);
    strbuf_free(&key);
}

/* Statements by line: a step's event gives the line it ran, which is the
 * only record of it when the step left its block (the frame's cursor is
 * then between statements). */
/* Where the run failed, from machine_error's first "FILE:LINE:COL: in
 * FUNC: ..." line (the failing statement). */
static void note_error_place(trace *t, const char *path, const machine *mach)
{
    size_t n = strlen(path);
    const char *e = t->error;
    /* REF's wrappers ("Mixed-kernel execution failed in ...") come first */
    while (e && (strncmp(e, path, n) != 0 || e[n] != ':')) {
        e = strchr(e, '\n');
        e = e ? e + 1 : NULL;
    }
    if (!e)
        return;
    char *end;
    long line = strtol(e + n + 1, &end, 10);
    if (line <= 0 || *end != ':')
        return;
    t->error_line = (int)line;
    t->error_core = EXEC_CORE_HOST;
    const char *in = strstr(end, ": in ");
    if (in) {
        in += 5;
        size_t len = strcspn(in, ":\n");
        t->error_func = xstrndup(in, len);
        /* the core whose innermost frame is that function, at that line */
        for (int k = 0; k < EXEC_NCORES; k++) {
            inspect_frame f;
            if (inspect_frame_get(mach, k, 0, &f) && strcmp(f.func, t->error_func) == 0 && f.line == t->error_line) {
                t->error_core = k;
                break;
            }
        }
    }
}

/* One machine's cores as they stood before a step: the statement each was
 * at and its frame depth. */
typedef struct core_snap {
    const ir_stmt *pre[EXEC_NCORES];
    inspect_frame pref[EXEC_NCORES];
    int depth[EXEC_NCORES];
} core_snap;

static void snap_cores(const machine *mach, core_snap *sn)
{
    for (int k = 0; k < EXEC_NCORES; k++) {
        sn->pre[k] = inspect_frame_get(mach, k, 0, &sn->pref[k]) ? sn->pref[k].stmt : NULL;
        sn->depth[k] = inspect_depth(mach, k);
    }
}

/* the call statement each core's frames are in, by depth (calls only) */
typedef const ir_stmt *call_stack[EXEC_NCORES][64];

/* The records of one step of mach (rc->rank's machine): ev is its event,
 * sn its cores before the step. */
static void record_step(rec_ctx *rc, machine *mach, const core_snap *sn, const exec_event *ev,
                        const ir_line_index *lines, int calls, call_stack *callst)
{
    int k = ev->core;
    if (ev->kind != EXEC_EV_BLOCKED && ev->kind != EXEC_EV_CALL && k >= 0 && k < EXEC_NCORES &&
        inspect_depth(mach, k) < sn->depth[k] && sn->pre[k])
        close_loops_of_return(rc, k, sn->pre[k], &sn->pref[k]);
    if (calls && k >= 0 && k < EXEC_NCORES) {
        if (ev->kind == EXEC_EV_CALL && sn->depth[k] > 0 && sn->depth[k] <= 64)
            (*callst)[k][sn->depth[k] - 1] = sn->pre[k];
        int d = inspect_depth(mach, k);
        inspect_frame cf;
        if (ev->kind == EXEC_EV_RETURN && d > 0 && d <= 64 && (*callst)[k][d - 1] &&
            inspect_frame_get(mach, k, 0, &cf)) {
            cf.line = (int)(*callst)[k][d - 1]->span.line;
            record_stmt(rc, mach, k, (*callst)[k][d - 1], &cf);
            (*callst)[k][d - 1] = NULL;
        }
    }
    if (ev->kind != EXEC_EV_STMT || k < 0 || k >= EXEC_NCORES || inspect_depth(mach, k) != sn->depth[k])
        return;
    const ir_stmt *ran = sn->pre[k];
    if ((!ran || (int)ran->span.line != ev->line) && ev->line > 0 && (size_t)ev->line < lines->n)
        ran = lines->at[ev->line];
    inspect_frame f;
    if (!ran || !inspect_frame_get(mach, k, 0, &f))
        return;
    const ir_stmt *next = f.stmt;
    f.line = (int)ran->span.line;
    rc->step++;
    record_control(rc, mach, k, ran, next, &f);
    record_stmt(rc, mach, k, ran, &f);
    note_defs(rc, k, ran);
}

static void index_lines(const ir_module *mod, ir_line_index *lines)
{
    for (uint32_t i = 0; mod && mod->program && i < mod->program->nfuncs; i++)
        ir_line_index_add(lines, &mod->program->funcs[i]->body);
}

/* The trace's end-of-run fields, as the machine stands (whole: it ran to
 * its end as machine_run runs it). */
static void note_end(trace *out, machine *mach, int whole)
{
    out->steps = machine_steps(mach);
    out->ran_whole = whole;
    out->memfaults = machine_mem_faults(mach);
    if (machine_mem_report(mach))
        out->memreport = xstrdup(machine_mem_report(mach));
}

static void trace_run_one(const char *path, const case_info *c, const runpass_options *po, rec_ctx *rc, int calls,
                          trace *out)
{
    const trace_observer *obs = rc->obs;
    ir_line_index lines = {NULL, 0};
    runpass_run run;
    runpass_open(&run, path, NULL, c, po, on_write, rc, 0);
    machine *mach = run.m;
    if (run.status != RUNPASS_COMPARED) {
        if (obs)
            obs->open_failed(obs->ud);
        out->error = run.message;
        run.message = NULL;
        goto done;
    }
    if (obs)
        obs->open(obs->ud, &run);
    index_lines(run.module, &lines);
    call_stack *callst = xcalloc(1, sizeof *callst);
    /* ended where machine_run ends (a failed step, the done event) */
    int whole = 0;
    /* the trace records until its callback stops it; an observer's
     * recording goes on to the run's end */
    int recording = 1;
    for (;;) {
        if (recording && rc->stop) {
            note_end(out, mach, 0);
            recording = 0;
        }
        if (!recording && !obs)
            break;
        core_snap sn;
        if (recording)
            snap_cores(mach, &sn);
        rc->nwritten = 0;
        if (obs)
            obs->before(obs->ud, mach);
        exec_event ev;
        ptodb_status st = machine_step(mach, &ev);
        if (obs)
            obs->after(obs->ud, mach, st, &ev);
        if (st != PTODB_OK || ev.kind == EXEC_EV_ERROR) {
            if (recording) {
                whole = st != PTODB_OK;
                out->error = xstrdup(machine_error(mach));
                note_error_place(out, path, mach);
            }
            break;
        }
        if (ev.kind == EXEC_EV_DONE) {
            whole = 1;
            break;
        }
        if (recording)
            record_step(rc, mach, &sn, &ev, &lines, calls, callst);
        if (machine_finished(mach)) {
            whole = 1; /* its next step is the done event, and changes nothing */
            break;
        }
    }
    free(callst);
    if (recording)
        note_end(out, mach, whole);
    if (obs)
        obs->close(obs->ud, &run);
done:
    runpass_close(&run);
    ir_line_index_free(&lines);
}

/* The ranks' machines' writes (ranks/sched.h's hook): the step's rank's. */
static void on_rank_write(void *ud, int rank, int core, const tensor *t)
{
    (void)rank;
    on_write(ud, core, t);
}

/* A multi-rank pass: every rank's machine, one statement at a time in the
 * order the pass's global schedule runs them (ranks/sched.h), as --batch
 * runs it (ranks/run.c); records carry the rank. The host orchestrator
 * only dispatches: ranks_sched_new runs it whole, unrecorded. */
static void trace_run_ranks(const char *path, const case_info *c, const runpass_options *po, rec_ctx *rc, int calls,
                            trace *out)
{
    out->nranks = c->ranks.nranks;
    xprogram *p = NULL;
    ir_module *mod = NULL;
    ranks_sched *s = NULL;
    call_stack *callst = NULL;
    ir_line_index lines = {NULL, 0};
    strbuf err = STRBUF_INIT;
    runpass_result rr;
    memset(&rr, 0, sizeof rr);
    int built = ranks_build_file(path, po, &mod, &p, &rr) == 0;
    if (!built) {
        out->error = rr.message;
        rr.message = NULL;
    }
    runpass_result_free(&rr);
    if (!built)
        goto done;
    runpass_status why;
    s = ranks_sched_new(path, p, c, po, &err, &why);
    if (!s) {
        out->error = strbuf_detach(&err);
        goto done;
    }
    ranks_sched_set_hooks(s, on_rank_write, NULL, rc);
    index_lines(mod, &lines);
    int P = ranks_sched_nranks(s);
    callst = xcalloc((size_t)P, sizeof *callst);
    core_snap *sn = xcalloc((size_t)P, sizeof *sn);
    while (!rc->stop) {
        /* which rank the schedule runs is known only after the step */
        for (int r = 0; r < P; r++)
            snap_cores(ranks_sched_machine(s, r), &sn[r]);
        rc->nwritten = 0;
        int rank = 0;
        exec_event ev;
        ranks_step_status st = ranks_sched_step(s, &rank, &ev, &err);
        if (st == RANKS_STEP_DONE) {
            if (ranks_sched_end_checks(s, &err)) { /* a race, a lost notify: the pass fails there */
                out->error = strbuf_detach(&err);
                note_error_place(out, path, ranks_sched_machine(s, 0));
                out->error_core = EXEC_CORE_HOST;
                out->error_rank = -1; /* between ranks: no one rank's statement */
            }
            break;
        }
        if (st == RANKS_STEP_DEADLOCK || st == RANKS_STEP_ERROR) {
            out->error = strbuf_detach(&err);
            /* a deadlock's report is headed by the first rank not finished (sched.c) */
            for (int r = 0; st == RANKS_STEP_DEADLOCK && r < P; r++)
                if (ranks_sched_rank_state(s, r) != RANKS_RANK_FINISHED) {
                    rank = r;
                    break;
                }
            if (rank >= 0 && rank < P) {
                out->error_rank = rank;
                note_error_place(out, path, ranks_sched_machine(s, rank));
            }
            break;
        }
        if (st != RANKS_STEP_RAN || rank < 0 || rank >= P || ev.kind == EXEC_EV_NONE)
            continue;
        rc->rank = rank;
        record_step(rc, ranks_sched_machine(s, rank), &sn[rank], &ev, &lines, calls, &callst[rank]);
    }
    free(sn);
    out->steps = ranks_sched_steps(s);
done:
    ranks_sched_free(s);
    free(callst);
    strbuf_free(&err);
    ir_line_index_free(&lines);
    exec_program_free(p);
    if (mod)
        ir_module_free(mod);
}

static void trace_run(const char *path, const case_info *c, const runpass_options *o, size_t max_bytes, trace_fn fn,
                      void *ud, int calls, int boxed, const trace_observer *obs, trace *out)
{
    memset(out, 0, sizeof *out);
    rec_ctx rc;
    memset(&rc, 0, sizeof rc);
    rc.t = out;
    rc.max_bytes = max_bytes ? max_bytes : (size_t)1 << 30;
    rc.fn = fn;
    rc.ud = ud;
    rc.boxed = boxed;
    rc.obs = c->ranks.nranks ? NULL : obs;
    /* statements are matched by what their values are (exec/prov.h) */
    runpass_options po = *o;
    po.mopt.provenance = 1;
    if (c->ranks.nranks)
        trace_run_ranks(path, c, &po, &rc, calls, out);
    else
        trace_run_one(path, c, &po, &rc, calls, out);
    for (size_t i = 0; i < rc.kept.cap; i++)
        tensor_storage_unref(rc.kept.at[i].owner);
    content_set_free(&rc.kept);
    free(rc.written);
    free(rc.loops);
    free(rc.defs);
    free(rc.memo);
}

void trace_pass(const char *path, const case_info *c, const runpass_options *o, size_t max_bytes, trace_fn fn,
                void *ud, trace *out)
{
    trace_run(path, c, o, max_bytes, fn, ud, 0, 0, NULL, out);
}

void trace_pass_boxed(const char *path, const case_info *c, const runpass_options *o, size_t max_bytes,
                      trace *out)
{
    trace_run(path, c, o, max_bytes, NULL, NULL, 0, 1, NULL, out);
}

void trace_pass_with_calls(const char *path, const case_info *c, const runpass_options *o, size_t max_bytes,
                           trace *out)
{
    trace_run(path, c, o, max_bytes, NULL, NULL, 1, 0, NULL, out);
}

void trace_pass_observed(const char *path, const case_info *c, const runpass_options *o, size_t max_bytes,
                         trace_fn fn, void *ud, int boxed, const trace_observer *obs, trace *out)
{
    trace_run(path, c, o, max_bytes, fn, ud, 0, boxed, obs, out);
}

void trace_free(trace *t)
{
    free(t->memreport);
    for (size_t i = 0; i < t->n; i++) {
        tensor_unref(t->recs[i].t);
        tensor_unref(t->recs[i].box);
        tensor_unref(t->recs[i].hdr);
    }
    pages_free(t->recs, t->cap, sizeof *t->recs);
    for (size_t i = 0; i < t->ngms; i++) {
        tensor_unref(t->gms[i].cur);
        free(t->gms[i].idx);
    }
    free(t->gms);
    free(t->counts);
    str_pool_free(&t->strs);
    arena_free(&t->mem);
    for (size_t i = 0; i < t->caplists; i++)
        free(t->lists[i].idx);
    free(t->lists);
    free(t->error);
    free(t->error_func);
    memset(t, 0, sizeof *t);
}

/* ---- the index --------------------------------------------------------------------------- */

/* k's list, or NULL (t not indexed, or no record has k). */
static const struct trace_list *list_find(const trace *t, const trace_key *k)
{
    if (!t->caplists)
        return NULL;
    const struct trace_list *l = &t->lists[key_probe(t->lists, sizeof *t->lists, t->caplists, k)];
    return l->k.kind ? l : NULL;
}

static void list_add(trace *t, trace_key k, size_t i)
{
    if ((t->nlists + 1) * 2 > t->caplists)
        t->lists = key_table_grow(t->lists, sizeof *t->lists, &t->caplists);
    struct trace_list *l = &t->lists[key_probe(t->lists, sizeof *t->lists, t->caplists, &k)];
    if (!l->k.kind) {
        l->k = k;
        t->nlists++;
    }
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 4;
        l->idx = xreallocarray(l->idx, l->cap, sizeof *l->idx);
    }
    l->idx[l->n++] = i;
}

/* The list of another trace's string s (kind 'k', 'n', 'b') in t. */
static const struct trace_list *list_get(const trace *t, char kind, int lane, int rank, const char *s)
{
    const char *pooled = t->caplists ? str_pool_find(&t->strs, s) : NULL;
    if (!pooled)
        return NULL;
    trace_key k = lane_key(kind, lane, rank, pooled);
    return list_find(t, &k);
}

/* r's region list key in t: its tensor, kind and how-manieth touch, on its
 * rank (0 kind: t has no record of that tensor). */
static trace_key region_list_key(const trace *t, const trace_rec *r)
{
    const char *pooled = str_pool_find(&t->strs, r->reg->tensor);
    return (trace_key){.s = pooled, .a = r->nth_region, .rank = r->rank, .kind = pooled ? 'R' : 0,
                       .sub = (uint8_t)r->reg->kind};
}

static trace_key prov_list_key(const trace_rec *r)
{
    return (trace_key){.x = r->prov, .a = r->prov_k, .rank = r->rank, .kind = 'P'};
}

/* order[0..n) (positions of boxes of `stride` values each, lo[0] first)
 * sorted by their first lo: a merge sort, no allocation beyond a copy. */
static void sort_by_lo0(size_t *order, size_t n, const int64_t *box, size_t stride)
{
    size_t *tmp = xmalloc(n * sizeof *tmp);
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                tmp[o++] = box[order[b] * stride] < box[order[a] * stride] ? order[b++] : order[a++];
            while (a < mid)
                tmp[o++] = order[a++];
            while (b < hi)
                tmp[o++] = order[b++];
        }
        memcpy(order, tmp, n * sizeof *order);
    }
    free(tmp);
}

void trace_index(trace *t)
{
    /* the table grows with the lists (several records share one) */
    t->caplists = 0;
    t->nlists = 0;
    t->lists = key_table_grow(NULL, sizeof *t->lists, &t->caplists);
    for (size_t i = 0; i < t->n; i++) {
        const trace_rec *r = &t->recs[i];
        list_add(t, lane_key('k', r->lane, r->rank, r->key), i);
        list_add(t, lane_key('n', r->lane, r->rank, r->name), i);
        list_add(t, lane_key('b', r->lane, r->rank, r->base), i);
        if (r->has_region)
            list_add(t,
                     (trace_key){.s = str_pool_intern(&t->strs, r->reg->tensor, SIZE_MAX), .a = r->nth_region,
                                 .rank = r->rank, .kind = 'R', .sub = (uint8_t)r->reg->kind},
                     i);
        if (r->prov)
            list_add(t, prov_list_key(r), i);
    }
    /* the region lists' boxes, side by side, and by their first lo */
    for (size_t j = 0; j < t->caplists; j++) {
        struct trace_list *l = &t->lists[j];
        if (l->k.kind != 'R')
            continue;
        int nd = t->recs[l->idx[0]].reg->ndim;
        for (size_t k = 1; k < l->n && nd >= 1; k++)
            if (t->recs[l->idx[k]].reg->ndim != nd)
                nd = -1;
        if (nd < 1 || nd > TENSOR_MAX_DIMS)
            continue;
        int64_t *box = arena_alloc(&t->mem, l->n * 2 * (size_t)nd * sizeof *box);
        size_t *order = arena_alloc(&t->mem, l->n * sizeof *order);
        l->max_len0 = 0;
        for (size_t k = 0; k < l->n; k++) {
            const exec_region *g = t->recs[l->idx[k]].reg;
            memcpy(box + k * 2 * (size_t)nd, g->lo, (size_t)nd * sizeof *box);
            memcpy(box + k * 2 * (size_t)nd + nd, g->len, (size_t)nd * sizeof *box);
            order[k] = k;
            if (g->len[0] > l->max_len0)
                l->max_len0 = g->len[0];
        }
        sort_by_lo0(order, l->n, box, 2 * (size_t)nd);
        l->box = box;
        l->by_lo0 = order;
        l->box_ndim = nd;
    }
    /* which bases come from a single statement (key) */
    for (size_t j = 0; j < t->caplists; j++) {
        struct trace_list *l = &t->lists[j];
        if (l->k.kind != 'b')
            continue;
        l->key = t->recs[l->idx[0]].key;
        for (size_t k = 1; k < l->n && l->key; k++)
            if (t->recs[l->idx[k]].key != l->key) /* pooled: one pointer per string */
                l->key = NULL;
    }
}

/* "t__tile_6" and "t__tmp_v6" have the same base "t". */
static int same_base(const char *a, const char *b)
{
    const char *x = strstr(a, "__"), *y = strstr(b, "__");
    size_t la = x ? (size_t)(x - a) : strlen(a), lb = y ? (size_t)(y - b) : strlen(b);
    return la == lb && strncmp(a, b, la) == 0;
}

static int from_list(const trace *a, const struct trace_list *l, uint32_t nth, const trace_rec *r,
                     trace_match_kind how, trace_cands *out)
{
    if (!l)
        return 0;
    out->how = how;
    out->all = l->idx;
    out->n = l->n;
    out->primary = nth < l->n ? &a->recs[l->idx[nth]] : NULL;
    /* a statement with tuple targets: its records share the key (a control
     * record's key is all of it: its label names its line, which passes move) */
    if (out->primary && how == TRACE_BY_KEY && !trace_rec_is_control(r) && !same_base(out->primary->name, r->name)) {
        out->primary = NULL;
        for (size_t k = 0; k < l->n && !out->primary; k++)
            if (same_base(a->recs[l->idx[k]].name, r->name) && k >= nth)
                out->primary = &a->recs[l->idx[k]];
    }
    return 1;
}

/* Ops a miscompile swaps for one another (a flipped operator): the same
 * class means a statement whose op changed may still be the same one. */
int trace_op_class(const char *key)
{
    static const char *const classes[][16] = {
        {"add", "sub", "mul", "div", "maximum", "minimum", "max", "min", "rem", "pow", NULL},
        {"adds", "subs", "muls", "divs", "maxs", "mins", "rems", NULL},
        {"neg", "exp", "log", "sqrt", "rsqrt", "recip", "abs", "relu", "sigmoid", "tanh", NULL},
        {"row_sum", "row_max", "row_min", "col_sum", "col_max", "col_min", NULL},
        {"row_expand_add", "row_expand_sub", "row_expand_mul", "row_expand_div", "col_expand_add",
         "col_expand_sub", "col_expand_mul", "col_expand_div", NULL},
    };
    const char *bar = strrchr(key, '|');
    if (!bar)
        return -1;
    for (size_t c = 0; c < sizeof classes / sizeof classes[0]; c++)
        for (size_t i = 0; classes[c][i]; i++)
            if (strcmp(bar + 1, classes[c][i]) == 0)
                return (int)c;
    return -1;
}

int trace_candidates(const trace *a, const trace_rec *r, trace_cands *out)
{
    memset(out, 0, sizeof *out);
    for (int pass = 0; pass < 2; pass++) {
        int lane = pass == 0 ? r->lane : 0;
        if (pass == 1 && r->lane == 0)
            break;
        if (from_list(a, list_get(a, 'k', lane, r->rank, r->key), r->nth_key, r, TRACE_BY_KEY, out) ||
            from_list(a, list_get(a, 'n', lane, r->rank, r->name), r->nth_name, r, TRACE_BY_NAME, out))
            return 1;
        /* the op changed: the same-numbered record of the same base name,
         * when its op is of the same class (add for sub, exp for neg); a
         * pass that replaces a statement by another kind (a matmul by a
         * create and a loop) is not a flipped op */
        const struct trace_list *b = list_get(a, 'b', lane, r->rank, r->base);
        int cls = trace_op_class(r->key);
        if (b && cls >= 0 && r->nth_base < b->n) {
            const trace_rec *c = &a->recs[b->idx[r->nth_base]];
            if (trace_op_class(c->key) == cls) {
                out->how = TRACE_BY_BASE;
                out->primary = c;
                out->all = &b->idx[r->nth_base];
                out->n = 1;
                return 1;
            }
        }
    }
    return 0;
}

const trace_rec *trace_op_changed(const trace *a, const trace_rec *r)
{
    const struct trace_list *b = list_get(a, 'b', r->lane, r->rank, r->base);
    if (!b && r->lane)
        b = list_get(a, 'b', 0, r->rank, r->base);
    if (!b || !b->key || strcmp(b->key, r->key) == 0)
        return NULL;
    return &a->recs[b->idx[r->nth_base < b->n ? r->nth_base : 0]];
}

/* ---- regions ------------------------------------------------------------------------------- */

/* inner's box within outer's, by the numbers alone (exec_region_within
 * compares the names too) */
static int box_within(const exec_region *inner, const exec_region *outer)
{
    if (inner->ndim != outer->ndim)
        return 0;
    for (int d = 0; d < inner->ndim; d++)
        if (inner->lo[d] < outer->lo[d] || inner->lo[d] + inner->len[d] > outer->lo[d] + outer->len[d])
            return 0;
    return 1;
}

/* c holds r's region (r's box within c's, c not empty, the names
 * related) */
static int region_candidate(const trace_rec *r, const trace_rec *c)
{
    return box_within(r->reg, c->reg) && !exec_region_empty(c->reg) && exec_region_within(r->reg, c->reg) &&
           ir_funcs_related(c->func, r->func);
}

/* How good a holder of r's region c is (0 best): the core first, then the
 * same region before one that holds it: the list is by the tensor and the
 * how-manieth, so the first store of a full block and the first of a
 * shorter last block (another valid region) share a list; the shorter one
 * is not part of the full one. */
static int region_rank(const trace_rec *r, const trace_rec *c)
{
    return 2 * exec_region_core_rank(r->core, c->core) + !exec_region_equal(r->reg, c->reg);
}

/* trace_region_match's answer (the first in l of the best rank) from
 * the boxes whose first extent can hold r's: their first lo between r's
 * end less the longest first extent and r's own lo. */
static const trace_rec *region_match_boxed(const trace *a, const trace_rec *r, const struct trace_list *l)
{
    const exec_region *g = r->reg;
    int nd = l->box_ndim;
    if (g->ndim != nd)
        return NULL; /* box_within holds for none */
    size_t stride = 2 * (size_t)nd;
    int64_t from = g->lo[0] + g->len[0] - l->max_len0;
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->box[l->by_lo0[mid] * stride] < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    const trace_rec *best = NULL;
    int best_rank = 6;
    size_t best_k = 0;
    for (size_t p = lo; p < l->n && l->box[l->by_lo0[p] * stride] <= g->lo[0]; p++) {
        size_t k = l->by_lo0[p];
        const int64_t *blo = l->box + k * stride, *blen = blo + nd;
        int in = 1;
        for (int d = 0; d < nd && in; d++)
            in = g->lo[d] >= blo[d] && g->lo[d] + g->len[d] <= blo[d] + blen[d];
        if (!in)
            continue;
        const trace_rec *c = &a->recs[l->idx[k]];
        if (!region_candidate(r, c))
            continue;
        int rank = region_rank(r, c);
        if (rank < best_rank || (rank == best_rank && k < best_k)) {
            best = c;
            best_rank = rank;
            best_k = k;
        }
    }
    return best;
}

const trace_rec *trace_region_match(const trace *a, const trace_rec *r)
{
    if (!r->has_region || exec_region_empty(r->reg) || !a->caplists)
        return NULL;
    trace_key rk = region_list_key(a, r);
    const struct trace_list *l = rk.kind ? list_find(a, &rk) : NULL;
    if (!l)
        return NULL;
    /* the list holds every first (second, ...) touch of a box of the
     * tensor: thousands for a weight read in tiles, so the boxes are
     * looked at by their first lo where the list has them so; and the
     * first of the best rank is the answer */
    if (l->box)
        return region_match_boxed(a, r, l);
    const trace_rec *best = NULL;
    int best_rank = 6;
    for (size_t k = 0; k < l->n && best_rank > 0; k++) {
        const trace_rec *c = &a->recs[l->idx[k]];
        if (!region_candidate(r, c))
            continue;
        int rank = region_rank(r, c);
        if (rank < best_rank) {
            best = c;
            best_rank = rank;
        }
    }
    return best;
}

const trace_rec *trace_prov_match(const trace *a, const trace_rec *r)
{
    if (!r->prov || !a->caplists)
        return NULL;
    trace_key pk = prov_list_key(r);
    const struct trace_list *l = list_find(a, &pk);
    if (!l)
        return NULL;
    const trace_rec *best = NULL;
    int best_rank = 2;
    for (size_t k = 0; k < l->n; k++) {
        const trace_rec *c = &a->recs[l->idx[k]];
        const tensor *ct = trace_rec_header(c);
        /* a reshape keeps the provenance: the value of r's shape */
        if (!ct || !r->t || ct->ndim != r->t->ndim ||
            memcmp(ct->shape, r->t->shape, (size_t)r->t->ndim * sizeof *r->t->shape) != 0)
            continue;
        int rank = exec_region_core_rank(r->prov_core, c->prov_core);
        if (rank < best_rank) {
            best = c;
            best_rank = rank;
        }
    }
    return best;
}

tensor *trace_region_data(const trace_rec *rec, const exec_region *g)
{
    const tensor *rt = trace_rec_header(rec);
    if (!rec->has_region || !rt || rt->ndim != g->ndim || !exec_region_within(g, rec->reg))
        return NULL;
    /* a store's record is the whole GM tensor; a load's the tile, from the
     * region's first element; a boxed store's box is the region's (g lies
     * within it, and it within the whole) */
    int whole = rec->reg->kind == EXEC_REGION_STORE && rec->t;
    tensor *cur = tensor_ref(rec->t ? rec->t : rec->box);
    for (int d = 0; d < g->ndim && cur; d++) {
        int64_t lo = whole ? g->lo[d] : g->lo[d] - rec->reg->lo[d];
        if (lo + g->len[d] > cur->shape[d]) {
            tensor_unref(cur);
            return NULL;
        }
        ptodb_status st;
        tensor *next = tensor_slice(cur, d, lo, lo + g->len[d], 1, &st);
        tensor_unref(cur);
        cur = next;
    }
    return cur;
}

/* Recording the dataflow log of one run (why_log.h). The run is set up as
 * every other (runpass_open) and driven one statement at a time, as bisect's
 * trace is (trace.c), with the machine's read and write hooks on. */
#include "batch/why_log.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/content_set.h"
#include "base/fdio.h"
#include "base/mem.h"
#include "base/strbuf.h"
#include "batch/trace.h"
#include "exec/inspect.h"
#include "exec/machine.h"
#include "exec/program.h"
#include "ir/walk.h"

/* storage ids (never 0) to a value each, by open addressing: the storages
 * the log has met (seen), and two logs' ids paired (why_log_same) */
typedef struct id_map {
    uint64_t *key, *val;
    size_t n, cap;
} id_map;

/* A value buffer: its bytes follow a reference count (logs share them). */
typedef struct vals_buf {
    size_t refs;
    _Alignas(max_align_t) unsigned char data[];
} vals_buf;

static unsigned char *vals_alloc(size_t bytes)
{
    vals_buf *b = xmalloc(sizeof *b + (bytes ? bytes : 8));
    b->refs = 1;
    return b->data;
}

static vals_buf *vals_of(unsigned char *p)
{
    return (vals_buf *)(void *)(p - offsetof(vals_buf, data));
}

static void vals_unref(unsigned char *p)
{
    if (p && --vals_of(p)->refs == 0)
        free(vals_of(p));
}

/* an item on a queue before a step */
typedef struct queued { const void *t; why_view v; int lane; } queued;

typedef struct log_ctx {
    why_log *l;
    size_t max_bytes;
    id_map seen;
    uint64_t seen_recent[256];
    /* the step's reads and in-place writes; read_st: the read storages,
     * one reference each until the next step (a push's lane half is
     * located in its operand's bytes after the step) */
    why_view *reads;
    tensor_storage **read_st;
    int nreads, capreads;
    tensor **written;
    int nwritten, capwritten;
    /* each core's last call strings (call_strings): the function's name
     * and its scalar arguments as they were made from the frame's slots */
    struct call_cache {
        const char *func_src, *func, *args;
        int nparams;
        struct { const char *name; int kind; int64_t i; } p[16];
    } calls[EXEC_NCORES];
    /* the writes of the record being made (add_write) */
    why_write *wtmp;
    int capwtmp;
    /* the writes of each storage in log order, for why_log_writer */
    struct wlist { uint64_t sid; uint32_t *rec; uint16_t *w; size_t n, cap; } *wl;
    size_t nwl, capwl;
    int indexed;
    /* arrivals of each core at each statement in the current call, counted
     * as the debugger counts them (point.c run_note_arrivals): the
     * position's ITER */
    struct arrival { const void *stmt; int core; uint32_t act, n; } *arr;
    size_t narr, caparr;
    int note_depth[EXEC_NCORES];
    uint32_t note_act[EXEC_NCORES];
    uint64_t note_steps[EXEC_NCORES];
    uint64_t arrive_step[EXEC_NCORES]; /* the step of each core's last arrival (a position's +D) */
    /* every kept value buffer, by content (open addressing): a write whose
     * values are bit for bit an earlier write's shares its buffer (a push
     * of a tile, the pop of it, a move), or one of the log share's (the
     * same tile in another pass); the table holds a reference to each */
    content_set vals;            /* owner: the buffer */
    const struct log_ctx *share; /* why_log_opts.share's, or NULL */
    str_pool strs; /* the records' strings, one copy of each */
    const char *empty; /* strs' "", once looked up (every record starts with it) */
    /* loops around each statement met, cached by statement */
    /* and its op's short name, its first target, the loops' variables'
     * base names (interned); lci: the cache's entries by statement
     * (index + 1, open addressing) */
    struct loop_cache {
        const ir_stmt *st;
        int n;
        const ir_stmt *loops[8];
        int if_line, if_branch;
        const char *op, *target, *var[8];
    } *lc;
    size_t nlc, caplc;
    size_t *lci, caplci;
    /* the run: its statements by line, and each step's cores before it
     * (the statement each was at, its frame, its depth, its arrival
     * there) and the items in flight (a push adds to them) */
    const case_info *c;
    ir_line_index lines;
    const ir_stmt *pre[EXEC_NCORES];
    inspect_frame pref[EXEC_NCORES];
    int depth[EXEC_NCORES];
    /* the same as the last note_arrivals found them after a step, for the
     * next step's (next_known: they are the machine's now) */
    const ir_stmt *next_pre[EXEC_NCORES];
    inspect_frame next_pref[EXEC_NCORES];
    int next_depth[EXEC_NCORES];
    int next_known;
    uint32_t pre_arrival[EXEC_NCORES];
    uint64_t pre_after[EXEC_NCORES];
    queued qbefore[64];
    int nqb;
    int over; /* the run ended for the log (a failed step, the done event, the end) */
    /* why_log_observe: the run started, its memory model, its faults */
    int opened, memcheck;
    uint64_t faults;
    /* the records' arrays (loops, operands, writes) and regions */
    arena mem;
} log_ctx;

static int in_block(const ir_block *b, const ir_stmt *st);

/* The log's one copy of s cut to max bytes (as a buffer of max + 1 bytes
 * held it). */
static const char *intern(log_ctx *lc, const char *s, size_t max)
{
    return str_pool_intern(&lc->strs, s, max);
}

/* a record's region when it has none */
static const exec_region no_region;

/* A record with its strings empty. */
static void rec_init(log_ctx *lc, why_rec *r)
{
    memset(r, 0, sizeof *r);
    r->reg = &no_region;
    if (!lc->empty)
        lc->empty = intern(lc, "", 0);
    r->func = r->args = r->op = r->target = lc->empty;
}


static size_t id_slot(uint64_t h, size_t cap)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return (size_t)h & (cap - 1);
}

static size_t ptr_slot(const void *p, size_t cap)
{
    return id_slot((uint64_t)(uintptr_t)p, cap);
}

/* The value slot of key, or NULL. */
static uint64_t *id_map_find(const id_map *m, uint64_t key)
{
    if (!m->cap)
        return NULL;
    for (size_t j = id_slot(key, m->cap); m->key[j]; j = (j + 1) & (m->cap - 1))
        if (m->key[j] == key)
            return &m->val[j];
    return NULL;
}

/* The value slot of key, added (value 0, *added 1) when new. */
static uint64_t *id_map_put(id_map *m, uint64_t key, int *added)
{
    uint64_t *v = id_map_find(m, key);
    *added = !v;
    if (v)
        return v;
    if ((m->n + 1) * 2 > m->cap) {
        size_t oc = m->cap;
        uint64_t *ok = m->key, *ov = m->val;
        m->cap = oc ? oc * 2 : 1024;
        m->key = xcalloc(m->cap, sizeof *m->key);
        m->val = xcalloc(m->cap, sizeof *m->val);
        for (size_t i = 0; i < oc; i++)
            if (ok[i]) {
                size_t j = id_slot(ok[i], m->cap);
                while (m->key[j])
                    j = (j + 1) & (m->cap - 1);
                m->key[j] = ok[i];
                m->val[j] = ov[i];
            }
        free(ok);
        free(ov);
    }
    size_t j = id_slot(key, m->cap);
    while (m->key[j])
        j = (j + 1) & (m->cap - 1);
    m->key[j] = key;
    m->n++;
    return &m->val[j];
}

static void id_map_free(id_map *m)
{
    free(m->key);
    free(m->val);
    memset(m, 0, sizeof *m);
}

static int seen_has(const id_map *seen, uint64_t sid)
{
    return id_map_find(seen, sid) != NULL;
}

static uint64_t seen_add(id_map *seen, uint64_t sid)
{
    int added;
    id_map_put(seen, sid, &added);
    return sid;
}

static void view_of(log_ctx *lc, const tensor *t, why_view *v)
{
    memset(v, 0, sizeof *v);
    /* the storages met lately, by the low bits of their ids: one in it is
     * in seen (ids are never reused, seen never forgets), and the hash
     * probe is spared (the items in flight are looked at every step) */
    uint64_t sid = t->storage->id;
    if (lc->seen_recent[sid & 255] != sid)
        lc->seen_recent[sid & 255] = seen_add(&lc->seen, sid);
    v->sid = sid;
    v->dtype = t->dtype;
    v->ndim = t->ndim;
    v->offset = t->offset;
    for (int d = 0; d < t->ndim; d++) {
        v->shape[d] = t->shape[d];
        v->strides[d] = t->strides[d];
    }
    v->valid_ndim = t->valid_ndim;
    for (int d = 0; d < t->valid_ndim && d < TENSOR_MAX_DIMS; d++)
        v->valid[d] = t->valid[d];
}

static int64_t view_numel(const why_view *v)
{
    int64_t n = 1;
    for (int d = 0; d < v->ndim; d++)
        n *= v->shape[d];
    return n;
}

int64_t why_view_offset(const why_view *v, const int64_t *idx)
{
    int64_t o = v->offset;
    for (int d = 0; d < v->ndim; d++)
        o += idx[d] * v->strides[d];
    return o;
}

/* The index of storage offset off in v, when v holds it: 1, else 0. The
 * views met are boxes of row-major storages (strides nested), so the index
 * is found dimension by dimension from the largest stride; it is checked
 * by recomputing the offset. */
static int view_index(const why_view *v, int64_t off, int64_t *idx)
{
    int64_t r = off - v->offset;
    if (r < 0)
        return 0;
    int order[TENSOR_MAX_DIMS];
    for (int d = 0; d < v->ndim; d++)
        order[d] = d;
    for (int a = 0; a < v->ndim; a++)
        for (int b = a + 1; b < v->ndim; b++)
            if (v->strides[order[b]] > v->strides[order[a]]) {
                int t = order[a];
                order[a] = order[b];
                order[b] = t;
            }
    for (int k = 0; k < v->ndim; k++) {
        int d = order[k];
        if (v->strides[d] <= 0 || v->shape[d] <= 0) {
            idx[d] = 0;
            if (v->shape[d] <= 0)
                return 0;
            continue;
        }
        idx[d] = r / v->strides[d];
        if (idx[d] >= v->shape[d])
            return 0;
        r -= idx[d] * v->strides[d];
    }
    return r == 0 && why_view_offset(v, idx) == off;
}

/* v's elements in its dtype, row-major (NULL when over the cap), from st,
 * the live storage v names: rows of a contiguous last dim are copied whole. */
static unsigned char *copy_vals(log_ctx *lc, const why_view *v, const tensor_storage *st)
{
    int64_t n = view_numel(v);
    size_t es = dtype_size(v->dtype);
    if (n <= 0 || es == 0) {
        unsigned char *z = vals_alloc(0);
        memset(z, 0, 8);
        return z;
    }
    size_t bytes = (size_t)n * es;
    if (lc->l->bytes + bytes > lc->max_bytes) {
        lc->l->truncated = 1;
        return NULL;
    }
    lc->l->bytes += bytes;
    unsigned char *out = vals_alloc(bytes);
    const unsigned char *base = st->data;
    int last = v->ndim - 1;
    int64_t row = last >= 0 ? v->shape[last] : 1;
    int64_t rs = last >= 0 ? v->strides[last] : 1;
    int64_t idx[TENSOR_MAX_DIMS] = {0};
    for (int64_t k = 0; k < n; k += row) {
        int64_t o = v->offset;
        for (int d = 0; d < last; d++)
            o += idx[d] * v->strides[d];
        if (rs == 1)
            memcpy(out + (size_t)k * es, base + (size_t)o * es, (size_t)row * es);
        else
            for (int64_t j = 0; j < row; j++)
                memcpy(out + (size_t)(k + j) * es, base + (size_t)(o + j * rs) * es, es);
        for (int d = last - 1; d >= 0; d--) {
            if (++idx[d] < v->shape[d])
                break;
            idx[d] = 0;
        }
    }
    return out;
}

/* buf (the values of a view of bytes bytes, from copy_vals) as the log
 * keeps it: an equal buffer kept before (here or in the shared log), or buf
 * itself; the table holds a reference. The cap counts it as copied either
 * way (the same cut as ever). */
static unsigned char *keep_vals(log_ctx *lc, unsigned char *buf, size_t bytes)
{
    if (!buf)
        return NULL;
    uint64_t h = content_hash(buf, bytes);
    unsigned char *same = content_set_find(&lc->vals, h, buf, bytes);
    if (same) {
        vals_unref(buf);
        return same;
    }
    same = lc->share ? content_set_find(&lc->share->vals, h, buf, bytes) : NULL;
    if (same) {
        vals_unref(buf);
        vals_of(same)->refs++;
        buf = same;
    }
    content_set_add(&lc->vals, h, buf, bytes, buf);
    return buf;
}

/* The bytes of v's values (its elements in its dtype). */
static size_t view_bytes(const why_view *v)
{
    int64_t n = view_numel(v);
    return n > 0 ? (size_t)n * dtype_size(v->dtype) : 0;
}

/* keep_vals(copy_vals(v)): where v's elements lie in row-major order in st
 * (a whole tile, most writes), found by their bytes where they are before
 * any copy is made; copied only when the log holds no buffer like them. */
static unsigned char *keep_view_vals(log_ctx *lc, const why_view *v, const tensor_storage *st)
{
    int64_t n = view_numel(v), expect = 1;
    size_t es = dtype_size(v->dtype);
    int dense = n > 0 && es > 0 && v->offset >= 0;
    for (int d = v->ndim - 1; d >= 0 && dense; d--) {
        if (v->shape[d] != 1 && v->strides[d] != expect)
            dense = 0;
        expect *= v->shape[d];
    }
    size_t bytes = dense ? (size_t)n * es : 0;
    if (!dense || (size_t)v->offset * es + bytes > st->nbytes || lc->l->bytes + bytes > lc->max_bytes)
        return keep_vals(lc, copy_vals(lc, v, st), view_bytes(v));
    const unsigned char *src = st->data + (size_t)v->offset * es;
    uint64_t h = content_hash(src, bytes);
    unsigned char *same = content_set_find(&lc->vals, h, src, bytes);
    if (!same && lc->share && (same = content_set_find(&lc->share->vals, h, src, bytes)) != NULL) {
        vals_of(same)->refs++;
        content_set_add(&lc->vals, h, same, bytes, same);
    }
    if (!same)
        return keep_vals(lc, copy_vals(lc, v, st), view_bytes(v));
    lc->l->bytes += bytes; /* counted as copied (copy_vals' cap) */
    return same;
}

static int64_t flat_of(const why_view *v, const int64_t *idx)
{
    int64_t k = 0;
    for (int d = 0; d < v->ndim; d++)
        k = k * v->shape[d] + idx[d];
    return k;
}

double why_write_value(const why_write *w, const int64_t *idx)
{
    if (w->kind == WHY_W_INITIAL) {
        if (w->pristine)
            return tensor_get(w->pristine, idx);
        return 0.0; /* an output that starts as zeros */
    }
    if (!w->vals)
        return NAN;
    return dtype_load(w->v.dtype, w->vals, (size_t)flat_of(&w->v, idx));
}

/* One more write of r, the record being made: its writes are gathered in
 * lc's scratch array until keep_writes moves them to the arena. */
static why_write *add_write(log_ctx *lc, why_rec *r)
{
    if (r->nw == lc->capwtmp) {
        lc->capwtmp = lc->capwtmp ? lc->capwtmp * 2 : 16;
        lc->wtmp = xreallocarray(lc->wtmp, (size_t)lc->capwtmp, sizeof *lc->wtmp);
    }
    r->w = lc->wtmp;
    why_write *w = &r->w[r->nw++];
    memset(w, 0, sizeof *w);
    if (!lc->empty)
        lc->empty = intern(lc, "", 0);
    w->name = lc->empty;
    return w;
}

/* r is made: its writes move from the scratch array to the arena. */
static void keep_writes(log_ctx *lc, why_rec *r)
{
    r->w = r->nw ? arena_memdup(&lc->mem, lc->wtmp, (size_t)r->nw * sizeof *r->w) : NULL;
}

/* The step's reads are done with: their storages' references go. */
static void release_reads(log_ctx *lc)
{
    for (int i = 0; i < lc->nreads; i++)
        tensor_storage_unref(lc->read_st[i]);
    lc->nreads = 0;
}

static void on_read(void *ud, int core, const tensor *t)
{
    (void)core;
    log_ctx *lc = ud;
    if (lc->nreads == lc->capreads) {
        lc->capreads = lc->capreads ? lc->capreads * 2 : 8;
        lc->reads = xreallocarray(lc->reads, (size_t)lc->capreads, sizeof *lc->reads);
        lc->read_st = xreallocarray(lc->read_st, (size_t)lc->capreads, sizeof *lc->read_st);
    }
    lc->read_st[lc->nreads] = tensor_storage_ref(t->storage);
    view_of(lc, t, &lc->reads[lc->nreads++]);
}

static void on_write(void *ud, int core, const tensor *t)
{
    (void)core;
    log_ctx *lc = ud;
    if (lc->nwritten == lc->capwritten) {
        lc->capwritten = lc->capwritten ? lc->capwritten * 2 : 8;
        lc->written = xreallocarray(lc->written, (size_t)lc->capwritten, sizeof *lc->written);
    }
    lc->written[lc->nwritten++] = tensor_ref((tensor *)t);
}

/* ---- loops around a statement -------------------------------------------------------------- */

typedef struct loop_find {
    const ir_stmt *target;
    int n;
    const ir_stmt *loops[8];
    const ir_stmt *iff; /* the innermost if around it */
} loop_find;

static void find_loops(void *ctx, const ir_stmt *st)
{
    loop_find *f = ctx;
    if (st->kind == IR_STMT_FOR && st != f->target && st->span.start <= f->target->span.start &&
        st->span.end >= f->target->span.end && f->n < 8)
        f->loops[f->n++] = st;
    if (st->kind == IR_STMT_IF && st != f->target && st->span.start <= f->target->span.start &&
        st->span.end >= f->target->span.end)
        f->iff = st; /* outer ifs come first: the last is the innermost */
}

static const ir_expr *stmt_call(const ir_stmt *st);

static const struct loop_cache *loops_of(log_ctx *lc, const ir_func *fn, const ir_stmt *st)
{
    if ((lc->nlc + 1) * 2 > lc->caplci) {
        free(lc->lci);
        lc->caplci = lc->caplci ? lc->caplci * 2 : 256;
        lc->lci = xcalloc(lc->caplci, sizeof *lc->lci);
        for (size_t i = 0; i < lc->nlc; i++) {
            size_t j = ptr_slot(lc->lc[i].st, lc->caplci);
            while (lc->lci[j])
                j = (j + 1) & (lc->caplci - 1);
            lc->lci[j] = i + 1;
        }
    }
    size_t j = ptr_slot(st, lc->caplci);
    for (; lc->lci[j]; j = (j + 1) & (lc->caplci - 1))
        if (lc->lc[lc->lci[j] - 1].st == st)
            return &lc->lc[lc->lci[j] - 1];
    lc->lci[j] = lc->nlc + 1;
    if (lc->nlc == lc->caplc) {
        lc->caplc = lc->caplc ? lc->caplc * 2 : 64;
        lc->lc = xreallocarray(lc->lc, lc->caplc, sizeof *lc->lc);
    }
    loop_find f = {st, 0, {0}, NULL};
    if (fn)
        ir_walk_stmts(&fn->body, find_loops, &f); /* outer loops come first */
    struct loop_cache *c = &lc->lc[lc->nlc++];
    c->st = st;
    c->n = f.n;
    memcpy(c->loops, f.loops, sizeof f.loops);
    c->if_line = f.iff ? (int)f.iff->span.line : 0;
    c->if_branch = f.iff ? in_block(&f.iff->u.if_.body, st) : 0;
    strbuf sb = STRBUF_INIT;
    const ir_expr *call = stmt_call(st);
    c->op = NULL;
    if (call) {
        ir_call_short_name(call, &sb);
        c->op = intern(lc, strbuf_str(&sb), 47);
    }
    c->target = st->kind == IR_STMT_ASSIGN && st->u.assign.ntargets > 0
                    ? intern(lc, st->u.assign.targets[0].name->text, 95)
                    : NULL;
    for (int i = 0; i < c->n; i++) {
        c->var[i] = NULL;
        if (!c->loops[i]->u.for_.var)
            continue;
        strbuf_clear(&sb);
        ir_ssa_base_name(c->loops[i]->u.for_.var->name->text, &sb);
        c->var[i] = intern(lc, strbuf_str(&sb), 47);
    }
    strbuf_free(&sb);
    return c;
}

/* ---- one statement -------------------------------------------------------------------------- */

static const ir_expr *stmt_call(const ir_stmt *st)
{
    if (st->kind == IR_STMT_ASSIGN)
        return st->u.assign.value;
    if (st->kind == IR_STMT_EXPR)
        return st->u.expr.value;
    return NULL;
}

static int is_pop(const char *op)
{
    return strncmp(op, "tpop_from_", 10) == 0;
}

static int is_push(const char *op)
{
    return strncmp(op, "tpush_to_", 9) == 0;
}

static void record_result(log_ctx *lc, why_rec *r, const tensor *t)
{
    if (!t)
        return;
    int fresh = !seen_has(&lc->seen, t->storage->id);
    if (!fresh && !is_pop(r->op))
        return; /* a view or alias of elements the log knows (move, reshape, yield) */
    for (int i = 0; i < r->nin; i++)
        if (r->in[i].sid == t->storage->id && !is_pop(r->op))
            return;
    why_write *w = add_write(lc, r);
    w->kind = fresh ? WHY_W_RESULT : WHY_W_POP;
    view_of(lc, t, &w->v);
    w->vals = keep_view_vals(lc, &w->v, t->storage);
}

/* Where the queued item w lies in the pushed tile src: along the one dim
 * where it is smaller, the first offset at which every element is equal
 * bit for bit (lane 1 of a split: the lane stride). src_st: src's live
 * storage. */
static void locate_half(log_ctx *lc, const why_view *src, const tensor_storage *src_st, why_write *w, int lane)
{
    if (!w->vals || src->ndim != w->v.ndim || src->dtype != w->v.dtype)
        return;
    int d = -1;
    for (int k = 0; k < src->ndim; k++)
        if (w->v.shape[k] < src->shape[k])
            d = k;
    if (d < 0)
        return;
    unsigned char *sv = copy_vals(lc, src, src_st);
    if (!sv)
        return;
    size_t es = dtype_size(w->v.dtype);
    int64_t n = 1;
    for (int k = 0; k < w->v.ndim; k++)
        n *= w->v.shape[k];
    /* lane 1's part starts past 0 (its stride); lane 0's at 0 */
    int64_t last = src->shape[d] - w->v.shape[d];
    for (int64_t t = 0; t <= last; t++) {
        int64_t off = lane == 1 ? (t < last ? t + 1 : 0) : t;
        int ok = 1;
        int64_t idx[TENSOR_MAX_DIMS] = {0};
        for (int64_t e = 0; e < n && ok; e++) {
            int64_t sk = 0;
            for (int k = 0; k < src->ndim; k++)
                sk = sk * src->shape[k] + idx[k] + (k == d ? off : 0);
            ok = memcmp(sv + (size_t)sk * es, w->vals + (size_t)e * es, es) == 0;
            for (int k = w->v.ndim - 1; k >= 0; k--) {
                if (++idx[k] < w->v.shape[k])
                    break;
                idx[k] = 0;
            }
        }
        if (ok) {
            w->src_off[d] = off;
            break;
        }
    }
    int64_t sn = 1;
    for (int k = 0; k < src->ndim; k++)
        sn *= src->shape[k];
    lc->l->bytes -= (size_t)sn * es;
    vals_unref(sv);
}

static struct arrival *arrival_of(log_ctx *lc, const void *stmt, int core)
{
    if ((lc->narr + 1) * 2 > lc->caparr) {
        size_t oc = lc->caparr;
        struct arrival *old = lc->arr;
        lc->caparr = oc ? oc * 2 : 256;
        lc->arr = xcalloc(lc->caparr, sizeof *lc->arr);
        for (size_t i = 0; i < oc; i++)
            if (old[i].stmt) {
                size_t j = (ptr_slot(old[i].stmt, lc->caparr) + (size_t)old[i].core) & (lc->caparr - 1);
                while (lc->arr[j].stmt)
                    j = (j + 1) & (lc->caparr - 1);
                lc->arr[j] = old[i];
            }
        free(old);
    }
    size_t j = (ptr_slot(stmt, lc->caparr) + (size_t)core) & (lc->caparr - 1);
    while (lc->arr[j].stmt && (lc->arr[j].stmt != stmt || lc->arr[j].core != core))
        j = (j + 1) & (lc->caparr - 1);
    if (!lc->arr[j].stmt) {
        lc->arr[j].stmt = stmt;
        lc->arr[j].core = core;
        lc->narr++;
    }
    return &lc->arr[j];
}

/* After a step of core `stepped` (-1: the start): every core that moved,
 * and the stepped one, arrived once more where it is now. */
static void note_arrivals(log_ctx *lc, const machine *m, int stepped)
{
    for (int c = 0; c < EXEC_NCORES; c++) {
        /* the cores as the next step finds them (nothing runs between) */
        inspect_frame *ng = &lc->next_pref[c];
        int has = inspect_frame_get(m, c, 0, ng);
        lc->next_pre[c] = has ? ng->stmt : NULL;
        lc->next_depth[c] = inspect_depth(m, c);
        if (!has) {
            lc->note_depth[c] = 0;
            continue;
        }
        const inspect_frame g = *ng;
        int depth = lc->next_depth[c];
        if ((c == stepped || depth != lc->note_depth[c] || g.activation != lc->note_act[c] ||
             g.local_steps != lc->note_steps[c]) &&
            g.stmt) {
            struct arrival *a = arrival_of(lc, g.stmt, c);
            if (a->act != g.activation + 1) {
                a->act = g.activation + 1;
                a->n = 0;
            }
            a->n++;
            lc->arrive_step[c] = machine_steps(m);
        }
        lc->note_depth[c] = depth;
        lc->note_act[c] = g.activation;
        lc->note_steps[c] = g.local_steps;
    }
    lc->next_known = 1;
}

static int in_block(const ir_block *b, const ir_stmt *st)
{
    for (uint32_t i = 0; st && i < b->n; i++)
        if (st->span.start >= b->items[i]->span.start && st->span.end <= b->items[i]->span.end)
            return 1;
    return 0;
}

/* A record's function name and scalar arguments ("b0=0, o0=64": the int
 * and bool parameters of frame f, core's innermost), the log's copies;
 * made again only when the frame's parameters are not those the core's
 * last record was made from (names, kinds and values: the strings are
 * theirs alone). */
static void call_strings(log_ctx *lc, const machine *m, int core, const inspect_frame *f, const char **func,
                         const char **args)
{
    struct call_cache *cc = core >= 0 && core < EXEC_NCORES ? &lc->calls[core] : NULL;
    int np = f->nparams;
    int same = cc && cc->args && cc->func_src == f->func && cc->nparams == np && np <= 16;
    for (int i = 0; i < np && same; i++) {
        const char *name;
        const value *v;
        int ok = inspect_slot(m, core, 0, i, &name, &v);
        same = ok ? cc->p[i].name == name && cc->p[i].kind == (int)v->kind &&
                        ((v->kind != VAL_INT && v->kind != VAL_BOOL) || cc->p[i].i == v->u.i)
                  : cc->p[i].name == NULL;
    }
    if (same) {
        *func = cc->func;
        *args = cc->args;
        return;
    }
    *func = intern(lc, f->func ? f->func : "?", SIZE_MAX);
    strbuf sb = STRBUF_INIT;
    int na = 0;
    for (int i = 0; i < np; i++) {
        const char *name;
        const value *v;
        int ok = inspect_slot(m, core, 0, i, &name, &v);
        if (cc && i < 16) {
            cc->p[i].name = ok ? name : NULL;
            cc->p[i].kind = ok ? (int)v->kind : -1;
            cc->p[i].i = ok && (v->kind == VAL_INT || v->kind == VAL_BOOL) ? v->u.i : 0;
        }
        if (!ok || (v->kind != VAL_INT && v->kind != VAL_BOOL))
            continue;
        if (na++)
            strbuf_puts(&sb, ", ");
        ir_ssa_base_name(name, &sb);
        strbuf_putc(&sb, '=');
        strbuf_put_int(&sb, (long long)v->u.i);
    }
    *args = intern(lc, strbuf_str(&sb), 95);
    strbuf_free(&sb);
    if (cc) {
        cc->func_src = f->func;
        cc->func = *func;
        cc->args = *args;
        cc->nparams = np;
    }
}

static void record_stmt(log_ctx *lc, const machine *m, int core, const ir_stmt *st, const inspect_frame *f,
                        const queued *qbefore, int nqbefore, uint32_t arrival, uint64_t after)
{
    why_log *l = lc->l;
    if (l->n == l->cap)
        l->recs = xpages_grow(l->recs, &l->cap, l->n + 1, sizeof *l->recs);
    why_rec *r = &l->recs[l->n];
    rec_init(lc, r);
    r->step = machine_steps(m);
    r->core = core;
    r->line = (int)st->span.line;
    r->stmt = st;
    r->call = f->activation + 1;
    r->arrival = arrival;
    r->after = after;
    call_strings(lc, m, core, f, &r->func, &r->args);
    const ir_expr *call = stmt_call(st);
    const struct loop_cache *c = loops_of(lc, f->ir, st);
    if (c->op)
        r->op = c->op;
    if (c->target)
        r->target = c->target;
    r->if_line = c->if_line;
    r->if_branch = c->if_branch;
    if (c->n > 0) {
        unsigned char *p = arena_alloc(&lc->mem, (size_t)c->n * (sizeof(int64_t) + sizeof(char *) + sizeof(int)));
        r->loop_val = (int64_t *)(void *)p;
        r->loop_var = (const char **)(void *)(p + (size_t)c->n * sizeof(int64_t));
        r->loop_line = (int *)(void *)(p + (size_t)c->n * (sizeof(int64_t) + sizeof(char *)));
    }
    for (int i = 0; i < c->n; i++) {
        const ir_stmt *lp = c->loops[i];
        if (!lp->u.for_.var)
            continue;
        const char *name = lp->u.for_.var->name->text;
        int slot = inspect_find_slot(m, core, 0, name);
        const char *sn;
        const value *v;
        if (slot < 0 || !inspect_slot(m, core, 0, slot, &sn, &v) || v->kind != VAL_INT)
            continue;
        int k = r->nloops++;
        r->loop_line[k] = (int)lp->span.line;
        r->loop_val[k] = v->u.i;
        r->loop_var[k] = c->var[i];
    }
    r->nin = lc->nreads;
    r->in = lc->nreads ? arena_memdup(&lc->mem, lc->reads, (size_t)lc->nreads * sizeof *r->in) : NULL;
    r->in_name = lc->nreads ? arena_alloc(&lc->mem, (size_t)lc->nreads * sizeof *r->in_name) : NULL;
    if (lc->nreads)
        memset(r->in_name, 0, (size_t)lc->nreads * sizeof *r->in_name);
    /* the operands' names: the positional names whose value is that tensor */
    if (call && call->kind == IR_EXPR_CALL) {
        int k = 0;
        for (uint32_t i = 0; i < call->u.call.nargs && k < r->nin; i++) {
            const ir_expr *a = call->u.call.args[i];
            if (a->kind != IR_EXPR_NAME)
                continue;
            int slot = inspect_find_slot(m, core, 0, a->u.name->text);
            const char *sn;
            const value *v;
            if (slot < 0 || !inspect_slot(m, core, 0, slot, &sn, &v) || v->kind != VAL_TENSOR || !v->u.t)
                continue;
            if (v->u.t->storage->id != r->in[k].sid)
                continue;
            /* snprintf's "%s", cut where it cuts */
            size_t len = strnlen(a->u.name->text, sizeof r->in_name[0] - 1);
            memcpy(r->in_name[k], a->u.name->text, len);
            r->in_name[k++][len] = '\0';
        }
    }
    exec_region g;
    if (exec_region_stmt_kind(st) && exec_region_of(m, core, st, &g)) {
        r->has_region = 1;
        exec_region *own = arena_alloc(&lc->mem, sizeof *own);
        *own = g;
        r->reg = own;
    }
    /* in-place writes: a store's box of its destination, else the tensor */
    for (int i = 0; i < lc->nwritten; i++) {
        const tensor *t = lc->written[i];
        why_write *w = add_write(lc, r);
        w->kind = WHY_W_INPLACE;
        view_of(lc, t, &w->v);
        if (r->has_region && r->reg->kind == EXEC_REGION_STORE && r->reg->ndim == t->ndim) {
            for (int d = 0; d < t->ndim; d++) {
                w->v.offset += r->reg->lo[d] * t->strides[d];
                w->v.shape[d] = r->reg->len[d];
            }
            /* only the stored tile's valid shape is written */
            for (int k = 0; k < r->nin; k++)
                if (r->in[k].sid != t->storage->id && r->in[k].ndim == t->ndim && r->in[k].valid_ndim == t->ndim) {
                    for (int d = 0; d < t->ndim; d++)
                        if (r->in[k].valid[d] >= 0 && r->in[k].valid[d] < w->v.shape[d]) {
                            w->v.shape[d] = r->in[k].valid[d];
                            w->clipped = 1;
                        }
                    break;
                }
            if (!r->target[0])
                r->target = intern(lc, r->reg->tensor, 95);
        }
        w->vals = keep_view_vals(lc, &w->v, t->storage);
    }
    /* results */
    if (st->kind == IR_STMT_ASSIGN && call && call->kind == IR_EXPR_CALL)
        for (uint32_t i = 0; i < st->u.assign.ntargets; i++) {
            const char *name = st->u.assign.targets[i].name->text;
            int slot = inspect_find_slot(m, core, 0, name);
            const char *sn;
            const value *v;
            if (slot < 0 || !inspect_slot(m, core, 0, slot, &sn, &v) || strcmp(sn, name) != 0)
                continue;
            if (v->kind == VAL_TENSOR)
                record_result(lc, r, v->u.t);
            else if (v->kind == VAL_TUPLE && v->u.tuple)
                for (uint32_t k = 0; k < v->u.tuple->n; k++)
                    if (v->u.tuple->items[k].kind == VAL_TENSOR)
                        record_result(lc, r, v->u.tuple->items[k].u.t);
        }
    /* a pop that merges the two lanes' parts (tpop_from_aiv with split=):
     * its operands are the parts it took off the queues, lane 0's first */
    if (strcmp(r->op, "tpop_from_aiv") == 0 && r->nw == 1 && r->w[0].kind == WHY_W_RESULT && r->nin == 0) {
        inspect_queue qs[32];
        int nq = inspect_queues(m, qs, 32);
        const why_view *part[2] = {NULL, NULL};
        for (int b = 0; b < nqbefore; b++) {
            int still = 0;
            for (int q = 0; q < nq && q < 32 && !still; q++)
                for (int k = 0; k < qs[q].depth && !still; k++)
                    still = inspect_queue_item(m, &qs[q], k) == qbefore[b].t;
            if (!still && qbefore[b].lane >= 0 && qbefore[b].lane < 2 && !part[qbefore[b].lane])
                part[qbefore[b].lane] = &qbefore[b].v;
        }
        if (part[0] && part[1]) {
            r->in = arena_alloc(&lc->mem, 2 * sizeof *r->in);
            r->in_name = arena_alloc(&lc->mem, 2 * sizeof *r->in_name);
            r->in[0] = *part[0];
            r->in[1] = *part[1];
            snprintf(r->in_name[0], sizeof r->in_name[0], "lane 0's part");
            snprintf(r->in_name[1], sizeof r->in_name[1], "lane 1's part");
            r->nin = 2;
        }
    }
    /* a push: the tiles it put in flight (new items, not on a queue before) */
    if (is_push(r->op) && r->nin > 0) {
        inspect_queue qs[32];
        int nq = inspect_queues(m, qs, 32);
        for (int q = 0; q < nq && q < 32; q++)
            for (int k = 0; k < qs[q].depth; k++) {
                const tensor *t = inspect_queue_item(m, &qs[q], k);
                if (!t || seen_has(&lc->seen, t->storage->id))
                    continue;
                int before = 0;
                for (int b = 0; b < nqbefore && !before; b++)
                    before = qbefore[b].t == (const void *)t;
                if (before)
                    continue;
                why_write *w = add_write(lc, r);
                w->kind = WHY_W_QUEUE;
                view_of(lc, t, &w->v);
                w->vals = keep_view_vals(lc, &w->v, t->storage);
                /* a lane's half of a split push sits at the lane's offset:
                 * the lane stride, half the extent unless the push gave
                 * one; found as the offset whose elements are the item's */
                locate_half(lc, &r->in[0], lc->read_st[0], w, qs[q].lane);
            }
    }
    keep_writes(lc, r);
    l->n++;
}

static void index_lines(why_log *l)
{
    int n = 1;
    for (size_t i = 0; i < l->source_len; i++)
        n += l->source[i] == '\n';
    l->lines = xcalloc((size_t)n + 2, sizeof *l->lines);
    int k = 1;
    l->lines[k++] = l->source;
    for (size_t i = 0; i < l->source_len && k <= n; i++)
        if (l->source[i] == '\n')
            l->lines[k++] = l->source + i + 1;
    l->nlines = k - 1;
}

void why_log_line_text(const why_log *l, int line, char *buf, size_t size)
{
    buf[0] = 0;
    if (!l->lines || line < 1 || line > l->nlines || !size)
        return;
    const char *p = l->lines[line];
    const char *end = l->source + l->source_len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    size_t n = 0;
    while (p + n < end && p[n] != '\n')
        n++;
    if (n >= size)
        n = size - 1;
    memcpy(buf, p, n);
    buf[n] = 0;
}

/* The log's context for a run of path (why_log_run's own, or a trace's:
 * why_log_observe); out->priv. */
static log_ctx *log_new(const char *path, const case_info *c, const why_log_opts *lo, why_log *out)
{
    size_t max_bytes = lo ? lo->max_bytes : 0;
    memset(out, 0, sizeof *out);
    out->path = xstrdup(path);
    log_ctx *lc = xcalloc(1, sizeof *lc);
    out->priv = lc;
    lc->l = out;
    lc->c = c;
    lc->max_bytes = max_bytes ? max_bytes : (size_t)1 << 30;
    lc->share = lo && lo->share ? lo->share->priv : NULL;
    char why[256];
    out->source = file_read_all_why(path, &out->source_len, why, sizeof why);
    if (out->source)
        index_lines(out);
    return lc;
}

/* The run has started: the read hook, the case's tensors as they start. */
static void log_begin(log_ctx *lc, runpass_run *run)
{
    why_log *out = lc->l;
    const case_info *c = lc->c;
    machine *m = run->m;
    machine_set_read_hook(m, on_read, lc);
    if (out->n == out->cap)
        out->recs = xpages_grow(out->recs, &out->cap, out->n + 1, sizeof *out->recs);
    why_rec *r0 = &out->recs[out->n++];
    rec_init(lc, r0);
    r0->func = intern(lc, "(the case)", SIZE_MAX);
    r0->op = intern(lc, "input", 47);
    for (size_t i = 0; i < run->nbinds; i++) {
        if (!run->binds[i].t)
            continue;
        why_write *w = add_write(lc, r0);
        w->kind = WHY_W_INITIAL;
        view_of(lc, run->binds[i].t, &w->v);
        w->name = intern(lc, run->binds[i].key ? run->binds[i].key : "?", 63);
        /* the case's own tensor holds the start's values (the binding is a
         * fresh copy the run may write); a pure output starts as zeros */
        for (size_t k = 0; !run->binds[i].zeros && k < c->ninputs && !w->pristine; k++)
            if (run->binds[i].key && strcmp(c->inputs[k].name, run->binds[i].key) == 0 && c->inputs[k].t &&
                tensor_numel(c->inputs[k].t) == tensor_numel(run->binds[i].t))
                w->pristine = c->inputs[k].t;
        if (!w->pristine && !run->binds[i].zeros) {
            /* neither: keep a copy */
            tensor *copy = tensor_clone(run->binds[i].t);
            w->final = NULL;
            w->pristine = copy;
            w->own_pristine = 1;
        }
    }
    keep_writes(lc, r0);
    note_arrivals(lc, m, -1);
    for (uint32_t i = 0; run->module->program && i < run->module->program->nfuncs; i++)
        ir_line_index_add(&lc->lines, &run->module->program->funcs[i]->body);
}

/* Before a step: the cores and the queues as they stand; the last step's
 * reads and writes are done with. */
static void log_before(log_ctx *lc, machine *m)
{
    release_reads(lc);
    for (int i = 0; i < lc->nwritten; i++)
        tensor_unref(lc->written[i]);
    lc->nwritten = 0;
    int known = lc->next_known;
    lc->next_known = 0;
    if (lc->over || lc->l->truncated)
        return;
    if (known) { /* note_arrivals saw the cores as they stand */
        memcpy(lc->pre, lc->next_pre, sizeof lc->pre);
        memcpy(lc->pref, lc->next_pref, sizeof lc->pref);
        memcpy(lc->depth, lc->next_depth, sizeof lc->depth);
    } else {
        for (int k = 0; k < EXEC_NCORES; k++) {
            lc->pre[k] = inspect_frame_get(m, k, 0, &lc->pref[k]) ? lc->pref[k].stmt : NULL;
            lc->depth[k] = inspect_depth(m, k);
        }
    }
    /* the items in flight before the step (a push adds to them); as they
     * were before the last step when no push or pop ran since (the same
     * items in the same places: an item on a queue is the push's own
     * copy, which nothing changes while it waits) */
    const tensor *items[64];
    int lanes[64];
    int n = inspect_queue_items(m, 32, items, lanes, 64);
    int same = n == lc->nqb;
    for (int i = 0; i < n && same; i++)
        same = items[i] == lc->qbefore[i].t && lanes[i] == lc->qbefore[i].lane;
    if (!same) {
        for (int i = 0; i < n; i++) {
            lc->qbefore[i].t = items[i];
            lc->qbefore[i].lane = lanes[i];
            view_of(lc, items[i], &lc->qbefore[i].v);
        }
        lc->nqb = n;
    }
    /* each core's arrival at the statement it is about to run */
    for (int k = 0; k < EXEC_NCORES; k++) {
        lc->pre_arrival[k] = 0;
        lc->pre_after[k] = 0;
        if (lc->pre[k]) {
            struct arrival *a = arrival_of(lc, lc->pre[k], k);
            lc->pre_arrival[k] = a->act == lc->pref[k].activation + 1 ? a->n : 0;
            lc->pre_after[k] = machine_steps(m) - lc->arrive_step[k];
        }
    }
}

/* After a step (st, ev): its statement's record. */
static void log_after(log_ctx *lc, machine *m, ptodb_status st, const exec_event *ev)
{
    why_log *out = lc->l;
    if (lc->over || out->truncated)
        return;
    if (st != PTODB_OK || ev->kind == EXEC_EV_ERROR) {
        out->error = xstrdup(machine_error(m));
        lc->over = 1;
        return;
    }
    if (ev->kind == EXEC_EV_DONE) {
        lc->over = 1;
        return;
    }
    note_arrivals(lc, m, ev->core);
    int k = ev->core;
    if (ev->kind != EXEC_EV_STMT || k < 0 || k >= EXEC_NCORES || inspect_depth(m, k) != lc->depth[k])
        return;
    const ir_stmt *ran = lc->pre[k];
    if ((!ran || (int)ran->span.line != ev->line) && ev->line > 0 && (size_t)ev->line < lc->lines.n)
        ran = lc->lines.at[ev->line];
    inspect_frame f;
    if (!ran || !inspect_frame_get(m, k, 0, &f))
        return;
    record_stmt(lc, m, k, ran, &f, lc->qbefore, lc->nqb, lc->pre_arrival[k], lc->pre_after[k]);
    if (machine_finished(m))
        lc->over = 1;
}

/* The run is over: the outputs' values at its end, the captured variable. */
static void log_end(log_ctx *lc, runpass_run *run, const why_log_opts *lo)
{
    why_log *out = lc->l;
    machine *m = run->m;
    for (int i = 0; i < lc->nwritten; i++)
        tensor_unref(lc->written[i]);
    lc->nwritten = 0;
    release_reads(lc);
    for (int k = 0; out->n && k < out->recs[0].nw; k++) {
        why_write *w = &out->recs[0].w[k];
        for (size_t i = 0; i < run->nbinds; i++)
            if (run->binds[i].t && run->binds[i].t->storage->id == w->v.sid && run->binds[i].golden) {
                w->final = tensor_clone(run->binds[i].t);
                w->golden = run->binds[i].golden->t;
                w->rtol = run->binds[i].golden->rtol.value;
                w->atol = run->binds[i].golden->atol.value;
                break;
            }
    }
    if (lo && lo->capture) {
        int slot = inspect_find_slot(m, lo->capture_core, 0, lo->capture);
        const char *sn;
        const value *v;
        if (slot >= 0 && inspect_slot(m, lo->capture_core, 0, slot, &sn, &v) && v->kind == VAL_TENSOR && v->u.t) {
            view_of(lc, v->u.t, &out->capture);
            out->has_capture = 1;
        }
    }
    machine_set_read_hook(m, NULL, NULL);
    ir_line_index_free(&lc->lines);
}

void why_log_run(const char *path, const case_info *c, const runpass_options *o, const why_log_opts *lo,
                 why_log *out)
{
    uint64_t until = lo ? lo->until : 0;
    log_ctx *lc = log_new(path, c, lo, out);
    runpass_options po = *o;
    po.mopt.memcheck = 0;
    po.mopt.reuse_dead = 0;
    runpass_run run;
    runpass_open(&run, path, NULL, c, &po, on_write, lc, 0);
    if (run.status != RUNPASS_COMPARED || !run.m) {
        out->error = run.message ? run.message : xstrdup("the pass could not be run");
        run.message = NULL;
        runpass_close(&run);
        return;
    }
    machine *m = run.m;
    log_begin(lc, &run);
    while (!out->truncated && !lc->over && (!until || machine_steps(m) < until)) {
        log_before(lc, m);
        exec_event ev;
        ptodb_status st = machine_step(m, &ev);
        log_after(lc, m, st, &ev);
    }
    log_end(lc, &run, lo);
    runpass_close(&run);
}

/* ---- a log of a trace's run (why_log_observe) -------------------------------------------- */

static void obs_open(void *ud, runpass_run *run)
{
    log_ctx *lc = ud;
    lc->opened = 1;
    log_begin(lc, run);
}

static void obs_open_failed(void *ud)
{
    (void)ud;
}

static void obs_before(void *ud, machine *m)
{
    log_before(ud, m);
}

static void obs_after(void *ud, machine *m, ptodb_status st, const exec_event *ev)
{
    log_after(ud, m, st, ev);
}

static void release_vals(void *ctx, void *data, size_t nbytes)
{
    (void)ctx;
    (void)nbytes;
    vals_unref(data);
}

/* The trace's copy of a value the log holds: the log's buffer, one
 * reference more. */
static tensor_storage *obs_share(void *ud, uint64_t h, const void *p, size_t n)
{
    log_ctx *lc = ud;
    unsigned char *same = n ? content_set_find(&lc->vals, h, p, n) : NULL;
    if (!same)
        return NULL;
    vals_of(same)->refs++;
    return tensor_storage_wrap(same, n, release_vals, NULL);
}

static void obs_close(void *ud, runpass_run *run)
{
    log_ctx *lc = ud;
    lc->faults = machine_mem_faults(run->m);
    log_end(lc, run, NULL);
}

void why_log_observe(const char *path, const case_info *c, const runpass_options *ro, const why_log_opts *lo,
                     why_log *out, struct trace_observer *obs)
{
    log_ctx *lc = log_new(path, c, lo, out);
    lc->memcheck = ro->mopt.memcheck;
    memset(obs, 0, sizeof *obs);
    obs->ud = lc;
    obs->open = obs_open;
    obs->open_failed = obs_open_failed;
    obs->write = on_write;
    obs->before = obs_before;
    obs->after = obs_after;
    obs->close = obs_close;
    obs->share = obs_share;
}

int why_log_observed(why_log *l)
{
    log_ctx *lc = l->priv;
    /* the values are the reference's where the memory model met no fault
     * (docs/memory.md "Execution on the bytes"); a failed run under it may
     * have failed for the model alone */
    int same = lc && lc->opened && !l->truncated && !(lc->memcheck && (lc->faults || l->error));
    if (!same)
        why_log_free(l);
    return same;
}

void why_log_free(why_log *l)
{
    for (size_t i = 0; i < l->n; i++) {
        why_rec *r = &l->recs[i];
        for (int k = 0; k < r->nw; k++) {
            if (r->w[k].final)
                tensor_unref(r->w[k].final);
            if (r->w[k].own_pristine)
                tensor_unref((tensor *)r->w[k].pristine);
        }
    }
    pages_free(l->recs, l->cap, sizeof *l->recs);
    log_ctx *lc = l->priv;
    if (lc) {
        id_map_free(&lc->seen);
        str_pool_free(&lc->strs);
        for (size_t i = 0; i < lc->vals.cap; i++)
            vals_unref(lc->vals.at[i].owner);
        content_set_free(&lc->vals);
        for (size_t i = 0; i < lc->capwl; i++) {
            free(lc->wl[i].rec);
            free(lc->wl[i].w);
        }
        free(lc->wl);
        free(lc->reads);
        free(lc->read_st);
        free(lc->written);
        free(lc->wtmp);
        free(lc->lc);
        free(lc->lci);
        free(lc->arr);
        arena_free(&lc->mem);
        free(lc);
    }
    free(l->error);
    free(l->path);
    free(l->source);
    free(l->lines);
    memset(l, 0, sizeof *l);
}

static struct wlist *wl_find(const log_ctx *lc, uint64_t sid)
{
    if (!lc->capwl)
        return NULL;
    for (size_t j = id_slot(sid, lc->capwl); lc->wl[j].sid; j = (j + 1) & (lc->capwl - 1))
        if (lc->wl[j].sid == sid)
            return &lc->wl[j];
    return NULL;
}

/* The writes of each storage, in log order (built once, after the run). */
static void build_index(why_log *l)
{
    log_ctx *lc = l->priv;
    if (!lc || lc->indexed)
        return;
    lc->indexed = 1;
    size_t nst = lc->seen.n + 1;
    lc->capwl = 1024;
    while (lc->capwl < nst * 2)
        lc->capwl *= 2;
    lc->wl = xcalloc(lc->capwl, sizeof *lc->wl);
    for (size_t i = 0; i < l->n; i++)
        for (int k = 0; k < l->recs[i].nw; k++) {
            uint64_t sid = l->recs[i].w[k].v.sid;
            size_t j = id_slot(sid, lc->capwl);
            while (lc->wl[j].sid && lc->wl[j].sid != sid)
                j = (j + 1) & (lc->capwl - 1);
            struct wlist *e = &lc->wl[j];
            e->sid = sid;
            if (e->n == e->cap) {
                e->cap = e->cap ? e->cap * 2 : 4;
                e->rec = xreallocarray(e->rec, e->cap, sizeof *e->rec);
                e->w = xreallocarray(e->w, e->cap, sizeof *e->w);
            }
            e->rec[e->n] = (uint32_t)i;
            e->w[e->n] = (uint16_t)k;
            e->n++;
        }
}

long why_log_writer(const why_log *l, size_t before, uint64_t sid, int64_t off, int *wi,
                    int64_t *idx)
{
    if (before > l->n)
        before = l->n;
    build_index((why_log *)l);
    const struct wlist *e = wl_find(l->priv, sid);
    if (!e)
        return -1;
    /* the last write before `before`: binary search, then back */
    size_t lo = 0, hi = e->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (e->rec[mid] < before)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i-- > 0;) {
        const why_write *w = &l->recs[e->rec[i]].w[e->w[i]];
        if (view_index(&w->v, off, idx)) {
            *wi = e->w[i];
            return (long)e->rec[i];
        }
    }
    return -1;
}

int why_log_value(const why_log *l, size_t before, uint64_t sid, int64_t off, double *v)
{
    int wi;
    int64_t idx[TENSOR_MAX_DIMS];
    long ri = why_log_writer(l, before, sid, off, &wi, idx);
    if (ri < 0)
        return -1;
    const why_write *w = &l->recs[ri].w[wi];
    if (!w->vals && w->kind != WHY_W_INITIAL)
        return -1;
    *v = why_write_value(w, idx);
    return 0;
}

const why_write *why_log_case_tensor(const why_log *l, const char *name)
{
    if (!l->n)
        return NULL;
    const why_rec *r0 = &l->recs[0];
    size_t n = strlen(name);
    for (int k = 0; k < r0->nw; k++)
        if (strcmp(r0->w[k].name, name) == 0)
            return &r0->w[k];
    /* the SSA form of the name ("out" for "out__ssa_v0") */
    for (int k = 0; k < r0->nw; k++)
        if (strncmp(r0->w[k].name, name, n) == 0 && strncmp(r0->w[k].name + n, "__", 2) == 0)
            return &r0->w[k];
    return NULL;
}

/* ---- two logs compared (why_log_same) -------------------------------------------------------- */

/* a (of the first log) and b (of the second) are one storage: 1 when
 * neither was paired with another before (m: a's ids to b's and b's to
 * a's in one map, the first log's ids tagged by the top bit) */
static int sid_pair(id_map *m, uint64_t a, uint64_t b)
{
    uint64_t keys[2] = {a | (1ull << 63), b & ~(1ull << 63)}, vals[2] = {b, a};
    for (int k = 0; k < 2; k++) {
        int added;
        uint64_t *v = id_map_put(m, keys[k], &added);
        if (added)
            *v = vals[k];
        else if (*v != vals[k])
            return 0;
    }
    return 1;
}

static int same_view(id_map *m, const why_view *a, const why_view *b)
{
    if (a->dtype != b->dtype || a->ndim != b->ndim || a->offset != b->offset || a->valid_ndim != b->valid_ndim)
        return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d] || a->strides[d] != b->strides[d])
            return 0;
    for (int d = 0; d < a->valid_ndim && d < TENSOR_MAX_DIMS; d++)
        if (a->valid[d] != b->valid[d])
            return 0;
    return sid_pair(m, a->sid, b->sid);
}

static int same_region(const exec_region *a, const exec_region *b)
{
    if (a->kind != b->kind || a->ndim != b->ndim || strcmp(a->tensor, b->tensor) != 0)
        return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->lo[d] != b->lo[d] || a->len[d] != b->len[d])
            return 0;
    return 1;
}

static int same_tensor(const tensor *a, const tensor *b)
{
    return a == b || (a && b && tensor_same_bits(a, b));
}

static int same_write(id_map *m, const why_write *a, const why_write *b)
{
    if (a->kind != b->kind || !same_view(m, &a->v, &b->v) || a->clipped != b->clipped ||
        strcmp(a->name, b->name) != 0 || memcmp(a->src_off, b->src_off, sizeof a->src_off) != 0 ||
        !same_tensor(a->pristine, b->pristine) || !same_tensor(a->final, b->final) || a->golden != b->golden ||
        a->rtol != b->rtol || a->atol != b->atol || !a->vals != !b->vals)
        return 0;
    return !a->vals || memcmp(a->vals, b->vals, view_bytes(&a->v)) == 0;
}

static int same_rec(id_map *m, const why_rec *a, const why_rec *b)
{
    if (a->step != b->step || a->core != b->core || a->line != b->line || a->call != b->call ||
        a->arrival != b->arrival || a->after != b->after || strcmp(a->func, b->func) != 0 ||
        strcmp(a->args, b->args) != 0 || strcmp(a->op, b->op) != 0 || strcmp(a->target, b->target) != 0 ||
        a->nloops != b->nloops || a->if_line != b->if_line || a->if_branch != b->if_branch || a->nin != b->nin ||
        a->has_region != b->has_region || a->nw != b->nw || !same_region(a->reg, b->reg))
        return 0;
    for (int k = 0; k < a->nloops; k++)
        if (a->loop_line[k] != b->loop_line[k] || a->loop_val[k] != b->loop_val[k] ||
            strcmp(a->loop_var[k], b->loop_var[k]) != 0)
            return 0;
    for (int k = 0; k < a->nin; k++)
        if (!same_view(m, &a->in[k], &b->in[k]) || strcmp(a->in_name[k], b->in_name[k]) != 0)
            return 0;
    for (int k = 0; k < a->nw; k++)
        if (!same_write(m, &a->w[k], &b->w[k]))
            return 0;
    return 1;
}

int why_log_same(const why_log *a, const why_log *b, strbuf *why)
{
    id_map m = {NULL, NULL, 0, 0};
    int same = 1;
    if (a->n != b->n || a->truncated != b->truncated || !a->error != !b->error ||
        (a->error && strcmp(a->error, b->error) != 0) || a->has_capture != b->has_capture) {
        if (why)
            strbuf_printf(why, "%zu records against %zu; error %s against %s", a->n, b->n,
                          a->error ? a->error : "none", b->error ? b->error : "none");
        same = 0;
    }
    for (size_t i = 0; same && i < a->n; i++)
        if (!same_rec(&m, &a->recs[i], &b->recs[i])) {
            if (why)
                strbuf_printf(why, "record %zu (line %d, %s) differs", i, a->recs[i].line, a->recs[i].op);
            same = 0;
        }
    id_map_free(&m);
    return same;
}

/* The ranks' windows, domains, task queues, notify history and
 * collectives: see world.h. */
#include "config.h"

#include "ranks/world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/vclock.h"
#include "ranks/fence.h"

/* Vector clocks of the race check (base/vclock.h: an access by rank b at
 * epoch e happens before rank a's current point iff e <= vc[a][b]). */
typedef struct vclock {
    uint32_t c[CASE_MAX_RANKS];
} vclock;

/* Bytes of a window an access touches: [lo, hi), and when rs > 0 only
 * rw bytes from the start of each rs-byte row in it (a 2-D box of a
 * row-major view: its rows of rw bytes, rs apart). */
typedef struct byte_region {
    int64_t lo, hi, rs, rw;
} byte_region;

typedef struct access_rec {
    int64_t lo, hi; /* bytes of the window */
    int64_t rs, rw; /* byte_region's rows (rs 0: every byte of [lo, hi)) */
    int rank;
    uint32_t epoch;
    int write, atomic, line, col;
    char op[40];
} access_rec;

#define RANKS_MAX_ACCESS_RECS 256

typedef struct window_buffer {
    int signal; /* notify/wait touch it: a signal, synchronisation, not data */
    access_rec *acc[CASE_MAX_RANKS]; /* per owner rank, the accesses still of interest */
    size_t nacc[CASE_MAX_RANKS];
    int64_t bytes;
    int domain;
    char name[64];             /* ranks.txt's name, or "window#k" */
    tensor_storage *tmpl;      /* the host orchestrator's stand-in */
    tensor_storage *per_rank[CASE_MAX_RANKS]; /* NULL for ranks outside the domain */
} window_buffer;

typedef struct domain {
    char name[64];
    int n;
    int host_rank[CASE_MAX_RANKS]; /* domain rank k -> host rank */
    /* the rendezvous: collectives applied so far, and who is at the next one */
    uint64_t applied;
    uint64_t seq[CASE_MAX_RANKS]; /* per host rank: its collectives done on this domain */
    int arrived[CASE_MAX_RANKS];
    exec_collective_call calls[CASE_MAX_RANKS];
} domain;

typedef struct notify_log {
    const tensor_storage *s;
    int64_t elem;
    int from, line, col, op;
    int64_t value;
    vclock rel; /* what the notifiers released into this cell */
} notify_log;

typedef struct wait_note {
    int active;
    const tensor_storage *s;
    int64_t elem;
    int64_t expected;
    int cmp, line, col;
} wait_note;

typedef struct fifo {
    ranks_task **items;
    size_t head, n, cap;
} fifo;

struct ranks_world {
    const case_ranks *cr;
    int P;
    ranks_order order;
    ranks_task **all; /* every task, in submission order */
    size_t nall;
    struct vclock *done_vc; /* per task: its rank's clock when it ended */
    ranks_task *last_comm[CASE_MAX_RANKS][16]; /* per rank and domain (the token's WAW chain) */
    domain *domains;
    size_t ndomains;
    window_buffer *bufs;
    size_t nbufs;
    fifo q[CASE_MAX_RANKS];
    exec_comm host, rank[CASE_MAX_RANKS];
    notify_log *log;
    size_t nlog;
    wait_note waits[CASE_MAX_RANKS];
    vclock vc[CASE_MAX_RANKS];
    int has_race;
    access_rec race_now, race_then; /* the first race: this access and the earlier one */
    char race_buffer[64];
    int race_owner;
    int pending_stamp[CASE_MAX_RANKS]; /* local accesses of the step not located yet */
    /* per rank, the step's coarse local accesses (a whole operand or
     * destination, from the machine's read and write hooks), recorded at
     * the step's end unless an exact report of the same window came in the
     * step (reported: the storages an op gave the exact region of) */
    struct coarse_access {
        const tensor_storage *s;
        int write;
        byte_region g;
    } *coarse[CASE_MAX_RANKS];
    size_t ncoarse[CASE_MAX_RANKS], capcoarse[CASE_MAX_RANKS];
    const tensor_storage **reported[CASE_MAX_RANKS];
    size_t nreported[CASE_MAX_RANKS], capreported[CASE_MAX_RANKS];
    int acquired_from[CASE_MAX_RANKS]; /* per rank: the last notifier of the cell its last wait acquired */
    struct waited_cell {
        const tensor_storage *s;
        int64_t elem;
    } *waited; /* every cell a wait checked (the end's lost-notify check) */
    size_t nwaited;
    size_t nretired; /* tasks retired whose deferred completion is pending */
    ranks_fence *fence; /* the data-before-signal contract, when checked */
};

/* ---- lookups ---------------------------------------------------------------- */

static int host_rank_of_device(const ranks_world *w, int64_t dev)
{
    for (int r = 0; r < w->P; r++)
        if (w->cr->device_ids[r] == dev)
            return r;
    return -1;
}

/* The buffer holding storage s and whose it is (-1: the host's stand-in). */
static window_buffer *buffer_of(const ranks_world *w, const tensor_storage *s, int *owner)
{
    for (size_t k = 0; k < w->nbufs; k++) {
        if (w->bufs[k].tmpl == s) {
            *owner = -1;
            return &w->bufs[k];
        }
        for (int r = 0; r < w->P; r++)
            if (w->bufs[k].per_rank[r] == s) {
                *owner = r;
                return &w->bufs[k];
            }
    }
    return NULL;
}

static void mark_signal(ranks_world *w, const tensor *cell);

static int domain_rank_of(const domain *d, int host_rank)
{
    for (int k = 0; k < d->n; k++)
        if (d->host_rank[k] == host_rank)
            return k;
    return -1;
}

/* ---- the hooks ------------------------------------------------------------ */

static ptodb_status w_alloc_window(void *ud, int64_t bytes, int64_t *handle, char *err, size_t n)
{
    ranks_world *w = ud;
    if (bytes < 0 || bytes > (1LL << 32)) {
        snprintf(err, n, "a window of %lld bytes", (long long)bytes);
        return PTODB_ERR_RUNTIME;
    }
    /* the k-th buffer allocated is the k-th ranks.txt lists, domain by
     * domain (MaterializeCommDomainScopes keeps the allocation order) */
    size_t k = w->nbufs, seen = 0;
    int dom = -1;
    const case_window_buffer *listed = NULL;
    for (size_t i = 0; i < w->cr->ndomains && dom < 0; i++) {
        if (k < seen + w->cr->domains[i].nbuffers) {
            dom = (int)i;
            listed = &w->cr->domains[i].buffers[k - seen];
        }
        seen += w->cr->domains[i].nbuffers;
    }
    if (dom < 0 && w->cr->ndomains) {
        snprintf(err, n, "window buffer #%zu: %s lists only %zu window buffers in its comm domains", k + 1,
                 w->cr->path, seen);
        return PTODB_ERR_RUNTIME;
    }
    if (listed && listed->bytes >= 0 && listed->bytes != bytes) {
        snprintf(err, n, "window buffer #%zu is %lld bytes here, %s says %s is %lld B", k + 1, (long long)bytes,
                 w->cr->path, listed->name, (long long)listed->bytes);
        return PTODB_ERR_RUNTIME;
    }
    if (dom < 0)
        dom = (int)w->ndomains - 1; /* no domains in ranks.txt: the implicit one of every rank */
    w->bufs = xreallocarray(w->bufs, w->nbufs + 1, sizeof *w->bufs);
    window_buffer *b = &w->bufs[w->nbufs++];
    memset(b, 0, sizeof *b);
    b->bytes = bytes;
    b->domain = dom;
    if (listed)
        snprintf(b->name, sizeof b->name, "%s", listed->name);
    else
        snprintf(b->name, sizeof b->name, "window#%zu", k + 1);
    size_t nb = bytes ? (size_t)bytes : 1;
    ptodb_status st = PTODB_OK;
    b->tmpl = tensor_storage_new(nb, &st);
    const domain *d = &w->domains[dom];
    /* zeroed before any peer can reach them (simpler docs/comm-domain.md:221-230) */
    for (int i = 0; i < d->n && b->tmpl; i++)
        if (!(b->per_rank[d->host_rank[i]] = tensor_storage_new(nb, &st)))
            break;
    if (st != PTODB_OK) {
        snprintf(err, n, "%s", ptodb_status_message(st));
        return st;
    }
    *handle = (int64_t)k;
    return PTODB_OK;
}

static ptodb_status w_window(void *ud, int64_t handle, dtype_id dt, int nd, const int64_t *shape, tensor **out,
                             char *err, size_t n)
{
    ranks_world *w = ud;
    if (handle < 0 || (size_t)handle >= w->nbufs) {
        snprintf(err, n, "not a window buffer (pld.tensor.alloc_window_buffer)");
        return PTODB_ERR_RUNTIME;
    }
    window_buffer *b = &w->bufs[handle];
    int64_t numel = tensor_shape_numel(nd, shape);
    if (numel < 0 || (uint64_t)numel * dtype_size(dt) > (uint64_t)b->bytes) {
        snprintf(err, n, "a %s window of %lld elements does not fit window buffer %s of %lld bytes", dtype_name(dt),
                 (long long)numel, b->name, (long long)b->bytes);
        return PTODB_ERR_BOUNDS;
    }
    ptodb_status st;
    *out = tensor_from_storage(b->tmpl, dt, nd, shape, NULL, 0, &st);
    if (!*out) {
        snprintf(err, n, "%s", ptodb_status_message(st));
        return st;
    }
    return PTODB_OK;
}

static ptodb_status w_domain_of(void *ud, int rank, const tensor *t, int *dom, char *err, size_t n)
{
    ranks_world *w = ud;
    int owner;
    window_buffer *b = buffer_of(w, t->storage, &owner);
    if (!b || owner != rank) {
        snprintf(err, n, "not a window (pld.tensor.window) of this %s", rank < 0 ? "host" : "rank");
        return PTODB_ERR_RUNTIME;
    }
    *dom = b->domain;
    return PTODB_OK;
}

static int w_domain_rank(void *ud, int d, int rank)
{
    ranks_world *w = ud;
    return d >= 0 && (size_t)d < w->ndomains ? domain_rank_of(&w->domains[d], rank) : -1;
}

static int w_domain_size(void *ud, int d)
{
    ranks_world *w = ud;
    return d >= 0 && (size_t)d < w->ndomains ? w->domains[d].n : 0;
}

static ptodb_status w_peer_view(void *ud, int rank, const tensor *t, int64_t peer, tensor **out, char *err, size_t n)
{
    ranks_world *w = ud;
    int owner;
    window_buffer *b = buffer_of(w, t->storage, &owner);
    if (!b || owner != rank) {
        snprintf(err, n, "the target is not a window (pld.tensor.window) of this rank");
        return PTODB_ERR_RUNTIME;
    }
    const domain *d = &w->domains[b->domain];
    if (peer < 0 || peer >= d->n) {
        snprintf(err, n, "peer %lld is out of range: comm domain %s has %d ranks", (long long)peer, d->name, d->n);
        return PTODB_ERR_BOUNDS;
    }
    ptodb_status st;
    /* a peer's address is local + windowsIn[peer] - windowsIn[rank]: the
     * same offset in its window (pto_codegen.cpp:775-815) */
    *out = tensor_from_storage(b->per_rank[d->host_rank[peer]], t->dtype, t->ndim, t->shape, t->strides, t->offset,
                               &st);
    if (!*out) {
        snprintf(err, n, "the remote access is out of bounds of window buffer %s (%lld bytes)", b->name,
                 (long long)b->bytes);
        return st;
    }
    return PTODB_OK;
}

/* v on the host made rank r's: a view of a window stand-in becomes the same
 * view of rank r's window. */
static ptodb_status to_rank(ranks_world *w, int r, const value *v, value *out, char *err, size_t n)
{
    if (v->kind != VAL_TENSOR || !v->u.t) {
        *out = value_copy(v);
        return PTODB_OK;
    }
    int owner;
    window_buffer *b = buffer_of(w, v->u.t->storage, &owner);
    if (!b || owner != -1) {
        *out = value_copy(v); /* a host tensor: the rank writes its slice in place */
        return PTODB_OK;
    }
    if (!b->per_rank[r]) {
        snprintf(err, n, "device %d is not a member of comm domain %s, which window buffer %s belongs to",
                 w->cr->device_ids[r], w->domains[b->domain].name, b->name);
        return PTODB_ERR_RUNTIME;
    }
    const tensor *t = v->u.t;
    ptodb_status st;
    tensor *rt = tensor_from_storage(b->per_rank[r], t->dtype, t->ndim, t->shape, t->strides, t->offset, &st);
    if (!rt) {
        snprintf(err, n, "%s", ptodb_status_message(st));
        return st;
    }
    *out = value_tensor(rt);
    return PTODB_OK;
}

static void enqueue(ranks_world *w, ranks_task *t)
{
    fifo *q = &w->q[t->rank];
    if (q->head + q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 8;
        q->items = xreallocarray(q->items, q->cap, sizeof *q->items);
    }
    q->items[q->head + q->n++] = t;
    t->queued = 1;
}

static int ready(const ranks_world *w, const ranks_task *t)
{
    for (size_t i = 0; i < t->ndeps; i++)
        if (!w->all[t->deps[i]]->done)
            return 0;
    return 1;
}

static void enqueue_ready(ranks_world *w);
static void poll_deferred(ranks_world *w);
static int64_t cell_value(const tensor_storage *st, int64_t elem);
static void note_waited(ranks_world *w, const tensor *cell);
static int was_waited(const ranks_world *w, const tensor_storage *st, int64_t elem);
static int64_t elem_of(const tensor *cell);
static ptodb_status w_defer_wait(void *ud, int rank, const tensor *cell, int64_t expected, int line, int col,
                                 char *err, size_t n);

static void add_dep(ranks_task *t, size_t id)
{
    for (size_t i = 0; i < t->ndeps; i++)
        if (t->deps[i] == id)
            return;
    t->deps = xreallocarray(t->deps, t->ndeps + 1, sizeof *t->deps);
    t->deps[t->ndeps++] = id;
}

/* The host tensor regions of a dispatch's arguments (windows have no tag). */
static void note_access(ranks_world *w, ranks_task *t, const value *v, int dir)
{
    if (v->kind != VAL_TENSOR || !v->u.t)
        return;
    const tensor *x = v->u.t;
    int owner;
    if (buffer_of(w, x->storage, &owner))
        return;
    int64_t span = 1;
    for (int d = 0; d < x->ndim; d++) {
        if (!x->shape[d])
            return;
        span += (x->shape[d] - 1) * x->strides[d];
    }
    int64_t es = (int64_t)dtype_size(x->dtype);
    t->acc = xreallocarray(t->acc, t->nacc + 1, sizeof *t->acc);
    t->acc[t->nacc++] = (ranks_access){x->storage, x->offset * es, (x->offset + span) * es, dir != EXEC_ARG_IN};
}

/* A new task of rank r: its dependencies, by read-after-write and
 * write-after-write on tags (simpler docs/war-anti-dependency.md: no
 * write-after-read), and under RANKS_ORDER_PROGRAM the token's chain over
 * the rank's comm dispatches per domain; queued at once when ready. */
static void submit(ranks_world *w, ranks_task *t, const int *domains, int ndomains)
{
    t->id = w->nall;
    for (size_t i = 0; i < w->nall; i++) {
        const ranks_task *u = w->all[i];
        int dep = 0;
        for (size_t a = 0; a < t->nacc && !dep; a++)
            for (size_t b = 0; b < u->nacc && !dep; b++)
                dep = u->acc[b].writes && u->acc[b].s == t->acc[a].s && u->acc[b].lo < t->acc[a].hi &&
                      t->acc[a].lo < u->acc[b].hi;
        if (dep)
            add_dep(t, u->id);
    }
    for (int i = 0; i < ndomains; i++) {
        /* domains past the 16th share one chain: more order, never less */
        int d = domains[i] < 16 ? domains[i] : 15;
        if (w->order == RANKS_ORDER_PROGRAM && w->last_comm[t->rank][d])
            add_dep(t, w->last_comm[t->rank][d]->id);
        w->last_comm[t->rank][d] = t;
    }
    w->all = xreallocarray(w->all, w->nall + 1, sizeof *w->all);
    w->done_vc = xreallocarray(w->done_vc, w->nall + 1, sizeof *w->done_vc);
    memset(&w->done_vc[w->nall], 0, sizeof *w->done_vc);
    w->all[w->nall++] = t;
    if (ready(w, t))
        enqueue(w, t);
}

/* The comm domains of the windows among a task's operands. */
static int task_domains(ranks_world *w, const value *args, uint32_t n, int *out)
{
    int k = 0;
    for (uint32_t i = 0; i < n; i++) {
        int owner;
        window_buffer *b = args[i].kind == VAL_TENSOR && args[i].u.t ? buffer_of(w, args[i].u.t->storage, &owner) : NULL;
        if (!b)
            continue;
        int seen = 0;
        for (int j = 0; j < k; j++)
            seen |= out[j] == b->domain;
        if (!seen && k < CASE_MAX_RANKS)
            out[k++] = b->domain;
    }
    return k;
}

static int device_rank(ranks_world *w, int64_t dev, char *err, size_t n)
{
    int r = host_rank_of_device(w, dev);
    if (r < 0)
        snprintf(err, n, "device=%lld is not one of the %d devices of %s", (long long)dev, w->P, w->cr->path);
    return r;
}

static ptodb_status w_dispatch(void *ud, int64_t dev, int fn, const value *args, const int *dirs, uint32_t nargs,
                              int line, int col, char *err, size_t n)
{
    ranks_world *w = ud;
    int r = device_rank(w, dev, err, n);
    if (r < 0)
        return PTODB_ERR_BOUNDS;
    value *cp = xcalloc(nargs ? nargs : 1, sizeof *cp);
    for (uint32_t i = 0; i < nargs; i++) {
        ptodb_status st = to_rank(w, r, &args[i], &cp[i], err, n);
        if (st != PTODB_OK) {
            for (uint32_t k = 0; k < i; k++)
                value_clear(&cp[k]);
            free(cp);
            return st;
        }
    }
    ranks_task *t = xcalloc(1, sizeof *t);
    t->kind = RANKS_TASK_CALL;
    t->rank = r;
    t->fn = fn;
    t->args = cp;
    t->nargs = nargs;
    t->line = line;
    t->col = col;
    for (uint32_t i = 0; i < nargs; i++)
        note_access(w, t, &cp[i], dirs ? dirs[i] : EXEC_ARG_INOUT);
    int doms[CASE_MAX_RANKS];
    int nd = task_domains(w, cp, nargs, doms);
    submit(w, t, doms, nd);
    return PTODB_OK;
}

static ptodb_status call_to_rank(ranks_world *w, int r, const exec_collective_call *c, exec_collective_call *out,
                                 char *err, size_t n)
{
    *out = *c;
    out->target = out->input = out->signal = out->counts = out->recv_counts = NULL;
    tensor *const src[5] = {c->target, c->input, c->signal, c->counts, c->recv_counts};
    tensor **dst[5] = {&out->target, &out->input, &out->signal, &out->counts, &out->recv_counts};
    for (int i = 0; i < 5; i++) {
        if (!src[i])
            continue;
        value v = value_tensor(src[i]), rv;
        ptodb_status st = to_rank(w, r, &v, &rv, err, n);
        if (st != PTODB_OK)
            return st;
        *dst[i] = rv.u.t;
    }
    return PTODB_OK;
}

static void call_clear(exec_collective_call *c)
{
    tensor_unref(c->target);
    tensor_unref(c->input);
    tensor_unref(c->signal);
    tensor_unref(c->counts);
    tensor_unref(c->recv_counts);
    c->target = c->input = c->signal = c->counts = c->recv_counts = NULL;
}

static ptodb_status w_host_collective(void *ud, int64_t dev, const exec_collective_call *call, char *err, size_t n)
{
    ranks_world *w = ud;
    const tensor *any = call->target ? call->target : call->signal ? call->signal : call->input;
    int owner;
    window_buffer *b = any ? buffer_of(w, any->storage, &owner) : NULL;
    if (!b || owner != -1) {
        snprintf(err, n, "a collective's operands must be windows (pld.tensor.window)");
        return PTODB_ERR_RUNTIME;
    }
    const domain *d = &w->domains[b->domain];
    for (int k = 0; k < d->n; k++) {
        int r = d->host_rank[k];
        if (dev >= 0 && w->cr->device_ids[r] != dev)
            continue;
        exec_collective_call rc;
        ptodb_status st = call_to_rank(w, r, call, &rc, err, n);
        if (st != PTODB_OK) {
            call_clear(&rc);
            return st;
        }
        ranks_task *t = xcalloc(1, sizeof *t);
        t->kind = RANKS_TASK_COLLECTIVE;
        t->rank = r;
        t->call = rc;
        t->line = call->line;
        t->col = call->col;
        int dom = b->domain;
        submit(w, t, &dom, 1);
    }
    if (dev >= 0 && device_rank(w, dev, err, n) < 0)
        return PTODB_ERR_BOUNDS;
    return PTODB_OK;
}

/* ---- collectives ---------------------------------------------------------- */

static int64_t flat_index(const tensor *t, int64_t k, int64_t *idx)
{
    for (int d = t->ndim - 1; d >= 0; d--) {
        idx[d] = t->shape[d] ? k % t->shape[d] : 0;
        k = t->shape[d] ? k / t->shape[d] : 0;
    }
    return 0;
}

static double get_flat(const tensor *t, int64_t k)
{
    int64_t idx[TENSOR_MAX_DIMS];
    flat_index(t, k, idx);
    return tensor_get(t, idx);
}

static void set_flat(tensor *t, int64_t k, double v)
{
    int64_t idx[TENSOR_MAX_DIMS];
    flat_index(t, k, idx);
    tensor_set(t, idx, v);
}

static double reduce2(int op, double a, double b)
{
    switch (op) {
    case EXEC_REDUCE_MAX: return a > b ? a : b;
    case EXEC_REDUCE_MIN: return a < b ? a : b;
    case EXEC_REDUCE_PROD: return a * b;
    default: return a + b;
    }
}

static void shape_text(const tensor *t, char *buf, size_t n)
{
    if (!t) {
        snprintf(buf, n, "none");
        return;
    }
    char s[160];
    tensor_format_shape(t->ndim, t->shape, s, sizeof s);
    snprintf(buf, n, "%s %s", dtype_name(t->dtype), s);
}

static int same_operand(const tensor *a, const tensor *b)
{
    if (!a || !b)
        return a == b;
    if (a->dtype != b->dtype || a->ndim != b->ndim)
        return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return 0;
    return 1;
}

static const char *const coll_names[] = {"allreduce",      "barrier",    "broadcast",   "allgather",
                                         "reduce_scatter", "all_to_all", "all_to_all_v"};

/* Every member's call agrees (kind, reduction, root, operand shapes and
 * dtypes), else the first disagreement against domain rank 0's. */
static ptodb_status check_agree(const ranks_world *w, const domain *d, char *err, size_t n)
{
    const exec_collective_call *c0 = &d->calls[d->host_rank[0]];
    for (int k = 1; k < d->n; k++) {
        const exec_collective_call *c = &d->calls[d->host_rank[k]];
        const char *what = c->kind != c0->kind                   ? "op"
                           : c->reduce != c0->reduce && c->kind != EXEC_COLL_BARRIER ? "reduction"
                           : c->root != c0->root && c->kind == EXEC_COLL_BROADCAST ? "root"
                           : !same_operand(c->target, c0->target) ? "target shape or dtype"
                           : !same_operand(c->input, c0->input)   ? "input shape or dtype"
                           : !same_operand(c->signal, c0->signal) ? "signal shape or dtype"
                           : !same_operand(c->counts, c0->counts) ? "send_counts shape or dtype"
                           : !same_operand(c->recv_counts, c0->recv_counts) ? "recv_counts shape or dtype"
                                                                  : NULL;
        if (!what)
            continue;
        char t0[200], t1[200];
        shape_text(c0->target ? c0->target : c0->signal, t0, sizeof t0);
        shape_text(c->target ? c->target : c->signal, t1, sizeof t1);
        snprintf(err, n,
                 "mismatched collective #%llu in comm domain %s (%s differs): rank %d (device %d) calls %s (%s) "
                 "at %d:%d on %s, rank %d (device %d) calls %s (%s) at %d:%d on %s",
                 (unsigned long long)d->applied + 1, d->name, what, 0, w->cr->device_ids[d->host_rank[0]],
                 c0->op_name, coll_names[c0->kind], c0->line, c0->col, t0, k, w->cr->device_ids[d->host_rank[k]],
                 c->op_name, coll_names[c->kind], c->line, c->col, t1);
        return PTODB_ERR_RUNTIME;
    }
    return PTODB_OK;
}

/* Every member's signal is all zero at the rendezvous: a PyPTO collective
 * starts from an all-zero signal and leaves it so (its self-clearing credit
 * barrier: docs/en/dev/distributed_ops.md:142-183), and ptodb's rendezvous
 * leaves it as it found it, so a cell non-zero here is a notify left over
 * from before the call, which would let the collective's waits pass early
 * on the device. */
static ptodb_status check_signals_zero(const ranks_world *w, const domain *d, char *err, size_t n)
{
    for (int k = 0; k < d->n; k++) {
        const exec_collective_call *c = &d->calls[d->host_rank[k]];
        if (!c->signal)
            continue;
        int64_t numel = tensor_numel(c->signal);
        for (int64_t e = 0; e < numel; e++) {
            int64_t v = (int64_t)get_flat(c->signal, e);
            if (!v)
                continue;
            int owner;
            const window_buffer *b = buffer_of(w, c->signal->storage, &owner);
            int64_t elem = c->signal->offset; /* the element's offset in the buffer */
            int64_t idx[TENSOR_MAX_DIMS];
            flat_index(c->signal, e, idx);
            for (int dd = 0; dd < c->signal->ndim; dd++)
                elem += idx[dd] * c->signal->strides[dd];
            const notify_log *l = NULL;
            for (size_t i = 0; i < w->nlog; i++)
                if (w->log[i].s == c->signal->storage && w->log[i].elem == elem)
                    l = &w->log[i];
            char who[120] = "no notify of this run reached it";
            if (l)
                snprintf(who, sizeof who, "last notified by rank %d at %d:%d (%s %lld)", l->from, l->line, l->col,
                         l->op == EXEC_NOTIFY_SET ? "Set" : "AtomicAdd", (long long)l->value);
            snprintf(err, n,
                     "signal not zero at collective #%llu in comm domain %s: rank %d's signal %s element %lld "
                     "holds %lld when its %s (at %d:%d) starts, %s; a collective starts from an all-zero signal "
                     "and leaves it so (its credit barrier), so this leftover would let its waits pass early",
                     (unsigned long long)d->applied + 1, d->name, d->host_rank[k], b ? b->name : "?", (long long)elem,
                     (long long)v, c->op_name, c->line, c->col, who);
            return PTODB_ERR_RUNTIME;
        }
    }
    return PTODB_OK;
}

/* The collective's semantics over the members' windows (collective.cpp;
 * docs/ops.md): T_k is member k's target, I_k its input. */
static ptodb_status apply(domain *d, char *err, size_t n)
{
    const exec_collective_call *c0 = &d->calls[d->host_rank[0]];
    tensor *T[CASE_MAX_RANKS], *I[CASE_MAX_RANKS];
    for (int k = 0; k < d->n; k++) {
        T[k] = d->calls[d->host_rank[k]].target;
        I[k] = d->calls[d->host_rank[k]].input;
    }
    if (c0->kind == EXEC_COLL_BARRIER)
        return PTODB_OK;
    if (!T[0]) {
        snprintf(err, n, "%s has no target", c0->op_name);
        return PTODB_ERR_RUNTIME;
    }
    int64_t numel = tensor_numel(T[0]);
    int64_t rows = T[0]->ndim ? T[0]->shape[0] : 1, row = rows ? numel / rows : 0;
    double *acc = xcalloc((size_t)(numel ? numel : 1), sizeof *acc);
    switch (c0->kind) {
    case EXEC_COLL_ALLREDUCE:
        /* target[r] = op over every member of target: in member order */
        for (int64_t e = 0; e < numel; e++) {
            acc[e] = get_flat(T[0], e);
            for (int k = 1; k < d->n; k++)
                acc[e] = reduce2(c0->reduce, acc[e], get_flat(T[k], e));
        }
        for (int k = 0; k < d->n; k++)
            for (int64_t e = 0; e < numel; e++)
                set_flat(T[k], e, acc[e]);
        break;
    case EXEC_COLL_BROADCAST:
        if (c0->root < 0 || c0->root >= d->n) {
            free(acc);
            snprintf(err, n, "%s: root %lld is out of range: comm domain %s has %d ranks", c0->op_name,
                     (long long)c0->root, d->name, d->n);
            return PTODB_ERR_BOUNDS;
        }
        for (int64_t e = 0; e < numel; e++)
            acc[e] = get_flat(T[c0->root], e);
        for (int k = 0; k < d->n; k++)
            for (int64_t e = 0; e < numel; e++)
                set_flat(T[k], e, acc[e]);
        break;
    case EXEC_COLL_REDUCE_SCATTER:
        /* row k of member k = op over the members' row k */
        if (rows != d->n) {
            free(acc);
            snprintf(err, n, "%s: the target has %lld rows for %d ranks", c0->op_name, (long long)rows, d->n);
            return PTODB_ERR_SHAPE;
        }
        for (int k = 0; k < d->n; k++)
            for (int64_t e = 0; e < row; e++) {
                double v = get_flat(T[0], k * row + e);
                for (int j = 1; j < d->n; j++)
                    v = reduce2(c0->reduce, v, get_flat(T[j], k * row + e));
                acc[k * row + e] = v;
            }
        for (int k = 0; k < d->n; k++)
            for (int64_t e = 0; e < row; e++)
                set_flat(T[k], k * row + e, acc[k * row + e]);
        break;
    case EXEC_COLL_ALLGATHER:
    case EXEC_COLL_ALL_TO_ALL: {
        /* allgather: target[r][src] = input[src]; all_to_all:
         * target[r][src] = input[src][r] */
        int a2a = c0->kind == EXEC_COLL_ALL_TO_ALL;
        if (rows != d->n || !I[0] || tensor_numel(I[0]) != (a2a ? numel : row)) {
            free(acc);
            snprintf(err, n, "%s: the target must have one row per rank (%d) of the input's size", c0->op_name,
                     d->n);
            return PTODB_ERR_SHAPE;
        }
        for (int k = 0; k < d->n; k++)
            for (int src = 0; src < d->n; src++)
                for (int64_t e = 0; e < row; e++)
                    set_flat(T[k], src * row + e, get_flat(I[src], (a2a ? k * row : 0) + e));
        break;
    }
    case EXEC_COLL_ALL_TO_ALL_V: {
        /* lower_composite_ops_pass.cpp:1986-2034: MAX_RECV = rows / NR; every
         * member pushes its full MAX_RECV-row block for dest (rows
         * dest*M .. dest*M+M-1 of its input) into dest's target rows
         * src*M .., whatever its count, and publishes min(send_counts[dest],
         * MAX_RECV) into dest's recv_counts[src, 0] (a Set) */
        int64_t M = rows / d->n;
        tensor *C[CASE_MAX_RANKS], *R[CASE_MAX_RANKS];
        for (int k = 0; k < d->n; k++) {
            C[k] = d->calls[d->host_rank[k]].counts;
            R[k] = d->calls[d->host_rank[k]].recv_counts;
        }
        int bad = T[0]->ndim != 2 || rows % d->n != 0 || !I[0] || tensor_numel(I[0]) != numel;
        for (int k = 0; k < d->n && !bad; k++)
            bad = !C[k] || tensor_numel(C[k]) != d->n || !R[k] || tensor_numel(R[k]) != d->n;
        if (bad) {
            free(acc);
            snprintf(err, n,
                     "%s: needs a 2-D target [NR*MAX_RECV, SIZE] (NR = %d) with an input of its size, "
                     "send_counts of %d and a [%d, 1] recv_counts window",
                     c0->op_name, d->n, d->n, d->n);
            return PTODB_ERR_SHAPE;
        }
        for (int k = 0; k < d->n; k++)
            for (int src = 0; src < d->n; src++) {
                for (int64_t e = 0; e < M * row; e++)
                    set_flat(T[k], src * M * row + e, get_flat(I[src], k * M * row + e));
                int64_t cnt = (int64_t)get_flat(C[src], k);
                set_flat(R[k], src, (double)(cnt < M ? cnt : M));
            }
        break;
    }
    default:
        break;
    }
    free(acc);
    return PTODB_OK;
}

static ptodb_status w_collective(void *ud, int rank, const exec_collective_call *call, int *done, char *err, size_t n)
{
    ranks_world *w = ud;
    *done = 0;
    const tensor *any = call->target ? call->target : call->signal ? call->signal : call->input;
    int owner;
    window_buffer *b = any ? buffer_of(w, any->storage, &owner) : NULL;
    if (!b || owner != rank) {
        snprintf(err, n, "a collective's operands must be windows (pld.tensor.window) of this rank");
        return PTODB_ERR_RUNTIME;
    }
    domain *d = &w->domains[b->domain];
    if (d->seq[rank] < d->applied) { /* applied while this rank was parked */
        d->seq[rank]++;
        *done = 1;
        return PTODB_OK;
    }
    if (!d->arrived[rank]) {
        d->arrived[rank] = 1;
        d->calls[rank] = *call;
        exec_collective_call *c = &d->calls[rank];
        c->target = c->target ? tensor_ref(c->target) : NULL;
        c->input = c->input ? tensor_ref(c->input) : NULL;
        c->signal = c->signal ? tensor_ref(c->signal) : NULL;
        c->counts = c->counts ? tensor_ref(c->counts) : NULL;
        c->recv_counts = c->recv_counts ? tensor_ref(c->recv_counts) : NULL;
    }
    for (int k = 0; k < d->n; k++)
        if (!d->arrived[d->host_rank[k]])
            return PTODB_OK; /* parked until every member is here */
    ptodb_status st = check_agree(w, d, err, n);
    if (st == PTODB_OK)
        st = check_signals_zero(w, d, err, n);
    if (st == PTODB_OK)
        st = apply(d, err, n);
    if (st != PTODB_OK)
        return st;
    for (int k = 0; k < d->n; k++) {
        d->arrived[d->host_rank[k]] = 0;
        call_clear(&d->calls[d->host_rank[k]]);
    }
    /* a collective orders everything before it on every member before
     * everything after it */
    vclock j = w->vc[d->host_rank[0]];
    for (int k = 1; k < d->n; k++)
        vclock_join(j.c, w->vc[d->host_rank[k]].c, w->P);
    for (int k = 0; k < d->n; k++) {
        w->vc[d->host_rank[k]] = j;
        w->vc[d->host_rank[k]].c[d->host_rank[k]]++;
    }
    if (call->signal)
        mark_signal(w, call->signal);
    d->applied++;
    d->seq[rank]++;
    *done = 1;
    return PTODB_OK;
}

/* ---- races on windows ------------------------------------------------------ */

/* Do the bytes of r and g meet? Two boxes with the same row stride and
 * rows that do not wrap meet where their columns do (their extents meeting,
 * their row ranges do); anything else by its extent, which may only say
 * more. */
static int regions_meet(const access_rec *r, const byte_region *g)
{
    if (r->hi <= g->lo || g->hi <= r->lo)
        return 0;
    if (!g->rs || g->rs != r->rs)
        return 1;
    int64_t c1 = r->lo % r->rs, c2 = g->lo % g->rs;
    if (c1 + r->rw > r->rs || c2 + g->rw > g->rs)
        return 1;
    return c1 < c2 + g->rw && c2 < c1 + r->rw;
}

static void record_access(ranks_world *w, window_buffer *b, int owner, int rank, const byte_region *g, int write,
                          int atomic, int line, int col, const char *op)
{
    int64_t lo = g->lo, hi = g->hi;
    if (b->signal || lo >= hi)
        return;
    uint32_t e = w->vc[rank].c[rank];
    access_rec *list = b->acc[owner];
    size_t n = b->nacc[owner];
    for (size_t i = 0; i < n && !w->has_race; i++) {
        const access_rec *r = &list[i];
        if (r->rank == rank || !regions_meet(r, g) || !(r->write || write) || (r->atomic && atomic))
            continue;
        if (vclock_covers(w->vc[rank].c, r->rank, r->epoch))
            continue; /* ordered: a notify/wait, a collective or a task dependency between them */
        w->has_race = 1;
        w->race_now = (access_rec){lo, hi, g->rs, g->rw, rank, e, write, atomic, line, col, ""};
        snprintf(w->race_now.op, sizeof w->race_now.op, "%s", op);
        w->race_then = *r;
        snprintf(w->race_buffer, sizeof w->race_buffer, "%s", b->name);
        w->race_owner = owner;
    }
    for (size_t i = 0; i < n; i++) {
        access_rec *r = &list[i];
        if (r->rank == rank && r->lo == lo && r->hi == hi && r->rs == g->rs && r->rw == g->rw && r->write == write &&
            r->atomic == atomic) {
            r->epoch = e;
            r->line = line;
            r->col = col;
            snprintf(r->op, sizeof r->op, "%s", op);
            if (!line)
                w->pending_stamp[rank] = 1;
            return;
        }
    }
    if (n == RANKS_MAX_ACCESS_RECS) { /* the oldest goes: a race may be missed, never invented */
        memmove(list, list + 1, (n - 1) * sizeof *list);
        n--;
    }
    /* capacity: 4 at first, then doubled whenever n reaches a power of two
     * (so it is always above n) */
    if (!list || n == 0 || (n & (n - 1)) == 0)
        list = xreallocarray(list, n ? 2 * n : 4, sizeof *list);
    list[n] = (access_rec){lo, hi, g->rs, g->rw, rank, e, write, atomic, line, col, ""};
    snprintf(list[n].op, sizeof list[n].op, "%s", op);
    b->acc[owner] = list;
    b->nacc[owner] = n + 1;
    if (!line)
        w->pending_stamp[rank] = 1;
}

/* The bytes view t touches: its extent, and its rows when it is a box of
 * contiguous rows (the last axis dense, the others one row axis). */
static void view_bytes(const tensor *t, byte_region *g)
{
    int64_t span = 1;
    g->rs = g->rw = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (!t->shape[d]) {
            g->lo = g->hi = 0;
            return;
        }
        span += (t->shape[d] - 1) * t->strides[d];
    }
    int64_t es = (int64_t)dtype_size(t->dtype);
    g->lo = t->offset * es;
    g->hi = (t->offset + span) * es;
    int nd = t->ndim;
    if (nd < 2 || t->strides[nd - 1] != 1)
        return;
    /* the outer axes must walk rows evenly: each the next one's rows over */
    for (int d = 0; d + 2 < nd; d++)
        if (t->shape[d] > 1 && t->strides[d] != t->strides[d + 1] * t->shape[d + 1])
            return;
    int64_t rs = t->strides[nd - 2] * es, rw = t->shape[nd - 1] * es;
    if (rs > rw) {
        g->rs = rs;
        g->rw = rw;
    }
}

/* Rank's access to window b of owner, for the fence contract (when it is
 * checked; a signal is synchronisation, not data): remote by a comm op. */
static void fence_access(ranks_world *w, window_buffer *b, int owner, int rank, int write, int remote,
                         const char *op, int line, int col)
{
    if (!w->fence || b->signal)
        return;
    if (write)
        ranks_fence_write(w->fence, rank, b, b->name, owner, remote, op, line, col);
    else
        ranks_fence_read(w->fence, rank, b->name, owner, op, line, col);
}

/* An op of rank's step gave the exact region of its access to storage s:
 * the step's coarse accesses of s are not recorded. */
static void note_reported(ranks_world *w, int rank, const tensor_storage *s)
{
    for (size_t i = 0; i < w->nreported[rank]; i++)
        if (w->reported[rank][i] == s)
            return;
    if (w->nreported[rank] == w->capreported[rank]) {
        w->capreported[rank] = w->capreported[rank] ? 2 * w->capreported[rank] : 4;
        w->reported[rank] = xreallocarray(w->reported[rank], w->capreported[rank], sizeof *w->reported[rank]);
    }
    w->reported[rank][w->nreported[rank]++] = s;
}

/* A read of bytes [lo, hi) of storage st: a notified signal cell there is
 * consumed, as a wait would (a notify that publishes a count a peer then
 * loads is no lost notify: PyPTO's tests/st/distributed/
 * test_l3_ep_dispatch_combine.py publishes pub_counts with notify and
 * reads them with tensor.read after a barrier) */
static void note_read_cells(ranks_world *w, const tensor_storage *st, int64_t lo, int64_t hi)
{
    for (size_t i = 0; i < w->nlog; i++) {
        const notify_log *l = &w->log[i];
        int64_t at = l->elem * 4; /* signal cells are INT32 */
        if (l->s != st || at < lo || at >= hi || was_waited(w, l->s, l->elem))
            continue;
        w->waited = xreallocarray(w->waited, w->nwaited + 1, sizeof *w->waited);
        w->waited[w->nwaited++] = (struct waited_cell){l->s, l->elem};
    }
}

static void w_note_access(void *ud, int rank, const tensor *view, int write, int atomic, int line, int col,
                          const char *op)
{
    ranks_world *w = ud;
    int owner;
    window_buffer *b = buffer_of(w, view->storage, &owner);
    if (!b || owner < 0)
        return;
    byte_region g;
    view_bytes(view, &g);
    if (!write)
        note_read_cells(w, view->storage, g.lo, g.hi);
    record_access(w, b, owner, rank, &g, write, atomic, line, col, op);
    fence_access(w, b, owner, rank, write, 1, op, line, col);
    if (owner == rank) /* a put or get whose peer is the rank itself */
        note_reported(w, rank, view->storage);
}

void ranks_world_local_access(ranks_world *w, int rank, const tensor *t, int write)
{
    int owner;
    window_buffer *b = t ? buffer_of(w, t->storage, &owner) : NULL;
    if (!b || owner != rank) /* a peer's window: the comm op reported it */
        return;
    if (w->ncoarse[rank] == w->capcoarse[rank]) {
        w->capcoarse[rank] = w->capcoarse[rank] ? 2 * w->capcoarse[rank] : 4;
        w->coarse[rank] = xreallocarray(w->coarse[rank], w->capcoarse[rank], sizeof *w->coarse[rank]);
    }
    struct coarse_access *c = &w->coarse[rank][w->ncoarse[rank]++];
    c->s = t->storage;
    c->write = write;
    view_bytes(t, &c->g);
    if (!write)
        note_read_cells(w, t->storage, c->g.lo, c->g.hi);
}

void ranks_world_local_region(ranks_world *w, int rank, const tensor *region, int write)
{
    int owner;
    window_buffer *b = region ? buffer_of(w, region->storage, &owner) : NULL;
    if (!b || owner != rank)
        return;
    byte_region g;
    view_bytes(region, &g);
    if (!write)
        note_read_cells(w, region->storage, g.lo, g.hi);
    record_access(w, b, owner, rank, &g, write, 0, 0, 0, write ? "a local write" : "a local read");
    fence_access(w, b, owner, rank, write, 0, write ? "a store" : "a load", 0, 0);
    note_reported(w, rank, region->storage);
}

/* The step's coarse local accesses of windows no op of the step reported
 * exactly (an op that reports a window's region reports all it does to
 * that window; the whole operand the hooks see is coarser). */
static void flush_coarse(ranks_world *w, int rank)
{
    for (size_t i = 0; i < w->ncoarse[rank]; i++) {
        const struct coarse_access *c = &w->coarse[rank][i];
        int seen = 0;
        for (size_t k = 0; k < w->nreported[rank] && !seen; k++)
            seen = w->reported[rank][k] == c->s;
        int owner;
        window_buffer *b = buffer_of(w, c->s, &owner);
        if (seen || !b)
            continue;
        record_access(w, b, owner, rank, &c->g, c->write, 0, 0, 0,
                      c->write ? "a local write" : "a local read");
        fence_access(w, b, owner, rank, c->write, 0, c->write ? "a store" : "a load", 0, 0);
    }
    w->ncoarse[rank] = 0;
    w->nreported[rank] = 0;
}

void ranks_world_stamp(ranks_world *w, int rank, int line, int col)
{
    flush_coarse(w, rank);
    if (w->fence)
        ranks_fence_stamp(w->fence, rank, line, col);
    if (!w->pending_stamp[rank])
        return;
    w->pending_stamp[rank] = 0;
    for (size_t k = 0; k < w->nbufs; k++)
        for (int o = 0; o < w->P; o++)
            for (size_t i = 0; i < w->bufs[k].nacc[o]; i++) {
                access_rec *r = &w->bufs[k].acc[o][i];
                if (r->rank == rank && !r->line) {
                    r->line = line;
                    r->col = col;
                }
            }
    if (w->has_race && w->race_now.rank == rank && !w->race_now.line) {
        w->race_now.line = line;
        w->race_now.col = col;
    }
}

int ranks_world_race(const ranks_world *w, const char *path, strbuf *out)
{
    if (!w->has_race)
        return 0;
    const access_rec *a = &w->race_now, *b = &w->race_then;
    int64_t lo = a->lo > b->lo ? a->lo : b->lo, hi = a->hi < b->hi ? a->hi : b->hi;
    strbuf_printf(out,
                  "%s:%d:%d: race on window %s of rank %d (bytes %lld to %lld): %s (%s) by rank %d here and %s "
                  "(%s) by rank %d at %s:%d:%d are not ordered: no notify/wait, collective or task dependency "
                  "between them",
                  path, a->line, a->col, w->race_buffer, w->race_owner, (long long)lo, (long long)hi - 1,
                  a->write ? (a->atomic ? "an atomic add" : "a write") : "a read", a->op, a->rank,
                  b->write ? (b->atomic ? "an atomic add" : "a write") : "a read", b->op, b->rank, path, b->line,
                  b->col);
    return 1;
}

void ranks_world_task_start(ranks_world *w, int rank)
{
    ranks_task *t = ranks_world_next_task(w, rank);
    for (size_t i = 0; t && i < t->ndeps; i++)
        vclock_join(w->vc[rank].c, w->done_vc[t->deps[i]].c, w->P);
    if (w->fence)
        ranks_fence_task_start(w->fence, rank);
}

static void mark_signal(ranks_world *w, const tensor *cell)
{
    int owner;
    window_buffer *b = buffer_of(w, cell->storage, &owner);
    if (b)
        b->signal = 1;
}

/* ---- notify / wait history -------------------------------------------------- */

static int64_t elem_of(const tensor *cell)
{
    return cell->offset;
}

static void w_note_notify(void *ud, int rank, const tensor *cell, int64_t peer, int64_t val, int op, int line,
                          int col)
{
    (void)peer;
    ranks_world *w = ud;
    if (w->fence)
        ranks_fence_notify(w->fence, rank, line, col);
    notify_log *l = NULL;
    for (size_t i = 0; i < w->nlog && !l; i++)
        if (w->log[i].s == cell->storage && w->log[i].elem == elem_of(cell))
            l = &w->log[i];
    if (!l) {
        w->log = xreallocarray(w->log, w->nlog + 1, sizeof *w->log);
        l = &w->log[w->nlog++];
        memset(l, 0, sizeof *l);
    }
    vclock rel = l->s ? l->rel : (vclock){{0}};
    *l = (notify_log){cell->storage, elem_of(cell), rank, line, col, op, val, rel};
    vclock_join(l->rel.c, w->vc[rank].c, w->P);
    w->vc[rank].c[rank]++; /* a new epoch: what follows is not released */
    mark_signal(w, cell);
}

static void note_waited(ranks_world *w, const tensor *cell)
{
    for (size_t i = 0; i < w->nwaited; i++)
        if (w->waited[i].s == cell->storage && w->waited[i].elem == elem_of(cell))
            return;
    w->waited = xreallocarray(w->waited, w->nwaited + 1, sizeof *w->waited);
    w->waited[w->nwaited++] = (struct waited_cell){cell->storage, elem_of(cell)};
}

static int was_waited(const ranks_world *w, const tensor_storage *st, int64_t elem)
{
    for (size_t i = 0; i < w->nwaited; i++)
        if (w->waited[i].s == st && w->waited[i].elem == elem)
            return 1;
    return 0;
}

static void w_note_acquire(void *ud, int rank, const tensor *cell)
{
    ranks_world *w = ud;
    mark_signal(w, cell);
    note_waited(w, cell);
    if (w->fence)
        ranks_fence_acquire(w->fence, rank, 0, 0); /* located after the step */
    w->acquired_from[rank] = -1;
    for (size_t i = 0; i < w->nlog; i++)
        if (w->log[i].s == cell->storage && w->log[i].elem == elem_of(cell)) {
            vclock_join(w->vc[rank].c, w->log[i].rel.c, w->P);
            w->acquired_from[rank] = w->log[i].from;
        }
}

int ranks_world_take_acquired(ranks_world *w, int rank)
{
    int from = w->acquired_from[rank];
    w->acquired_from[rank] = -1;
    return from;
}

static void w_note_wait(void *ud, int rank, const tensor *cell, int64_t expected, int cmp, int line, int col)
{
    ranks_world *w = ud;
    w->waits[rank] = (wait_note){1, cell->storage, elem_of(cell), expected, cmp, line, col};
    mark_signal(w, cell);
    note_waited(w, cell);
}

void ranks_world_clear_wait(ranks_world *w, int rank)
{
    w->waits[rank].active = 0;
}

int ranks_world_describe_wait(const ranks_world *w, int rank, strbuf *out)
{
    const wait_note *wn = &w->waits[rank];
    if (!wn->active)
        return 0;
    int owner = -1;
    window_buffer *b = buffer_of(w, wn->s, &owner);
    int64_t cur = 0;
    if (b) {
        tensor *c = tensor_from_storage((tensor_storage *)wn->s, DTYPE_INT32, 0, NULL, NULL, wn->elem, NULL);
        if (c)
            cur = tensor_get_i64(c, NULL);
        tensor_unref(c);
    }
    strbuf_printf(out, "waits on %s element %lld of rank %d: expects %s %lld, holds %lld; ", b ? b->name : "?",
                  (long long)wn->elem, rank, wn->cmp == EXEC_WAIT_EQ ? "==" : ">=", (long long)wn->expected,
                  (long long)cur);
    const notify_log *l = NULL;
    for (size_t i = 0; i < w->nlog; i++)
        if (w->log[i].s == wn->s && w->log[i].elem == wn->elem)
            l = &w->log[i];
    if (l)
        strbuf_printf(out, "last notified by rank %d at %d:%d (%s %lld)", l->from, l->line, l->col,
                      l->op == EXEC_NOTIFY_SET ? "Set" : "AtomicAdd", (long long)l->value);
    else
        strbuf_puts(out, "no rank notified it");
    return 1;
}

int ranks_world_lost_notify(const ranks_world *w, const char *path, strbuf *out)
{
    size_t count = 0;
    const notify_log *first = NULL;
    int64_t first_value = 0;
    for (size_t i = 0; i < w->nlog; i++) {
        const notify_log *l = &w->log[i];
        int64_t v = cell_value(l->s, l->elem);
        if (!v || was_waited(w, l->s, l->elem))
            continue;
        if (!first) {
            first = l;
            first_value = v;
        }
        count++;
    }
    if (!first)
        return 0;
    int owner = -1;
    const window_buffer *b = buffer_of(w, first->s, &owner);
    strbuf_printf(out,
                  "%s:%d:%d: lost notify: rank %d's signal cell %s element %lld holds %lld at the end of the run, "
                  "last notified here by rank %d (%s %lld), and no wait of the run ever checked it: the peer "
                  "never synchronises on it, and the runtime frees the window after the run",
                  path, first->line, first->col, owner, b ? b->name : "?", (long long)first->elem,
                  (long long)first_value, first->from, first->op == EXEC_NOTIFY_SET ? "Set" : "AtomicAdd",
                  (long long)first->value);
    if (count > 1)
        strbuf_printf(out, " (and %zu more such cell%s)", count - 1, count == 2 ? "" : "s");
    return 1;
}

static int64_t cell_value(const tensor_storage *st, int64_t elem)
{
    tensor *c = tensor_from_storage((tensor_storage *)st, DTYPE_INT32, 0, NULL, NULL, elem, NULL);
    int64_t v = c ? tensor_get_i64(c, NULL) : 0;
    tensor_unref(c);
    return v;
}

size_t ranks_world_signal_cells(const ranks_world *w, ranks_signal_cell *out, size_t max)
{
    size_t n = 0;
    /* notified cells first, then cells only waited on */
    for (size_t pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < (pass ? (size_t)w->P : w->nlog); i++) {
            const tensor_storage *st;
            int64_t elem;
            if (!pass) {
                st = w->log[i].s;
                elem = w->log[i].elem;
            } else {
                if (!w->waits[i].active)
                    continue;
                st = w->waits[i].s;
                elem = w->waits[i].elem;
                int seen = 0;
                for (size_t k = 0; k < w->nlog && !seen; k++)
                    seen = w->log[k].s == st && w->log[k].elem == elem;
                for (size_t k = 0; k < i && !seen; k++)
                    seen = w->waits[k].active && w->waits[k].s == st && w->waits[k].elem == elem;
                if (seen)
                    continue;
            }
            int owner = -1;
            const window_buffer *b = buffer_of(w, st, &owner);
            ranks_signal_cell c = {owner, b ? b->name : "?", elem, cell_value(st, elem), !pass, -1, 0, 0, 0, 0, 0};
            if (!pass) {
                c.from = w->log[i].from;
                c.line = w->log[i].line;
                c.col = w->log[i].col;
                c.op = w->log[i].op;
                c.notify_value = w->log[i].value;
            }
            for (int r = 0; r < w->P; r++)
                if (w->waits[r].active && w->waits[r].s == st && w->waits[r].elem == elem)
                    c.waiters |= 1ull << r;
            if (n < max)
                out[n] = c;
            n++;
        }
    }
    return n;
}

static void w_note_marker(void *ud, int rank, int kind, const tensor *t, int line, int col)
{
    ranks_world *w = ud;
    if (!w->fence)
        return;
    int owner = -1;
    const window_buffer *b = t ? buffer_of(w, t->storage, &owner) : NULL;
    ranks_fence_marker(w->fence, rank, kind, b && owner == rank ? (const void *)b : NULL, line, col);
}

void ranks_world_check_fences(ranks_world *w)
{
    if (!w->fence)
        w->fence = ranks_fence_new(w->P);
}

int ranks_world_fence_breach(const ranks_world *w, const char *path, strbuf *out)
{
    return w->fence && ranks_fence_report(w->fence, path, out);
}

unsigned ranks_world_faults(const ranks_world *w)
{
    return (w->has_race ? RANKS_FAULT_RACE : 0u) | (w->fence && ranks_fence_breached(w->fence) ? RANKS_FAULT_FENCE : 0u);
}

/* ---- the world ------------------------------------------------------------ */

static void comm_init(ranks_world *w, exec_comm *c, int rank)
{
    c->ud = w;
    c->rank = rank;
    c->world_size = w->P;
    c->alloc_window = w_alloc_window;
    c->window = w_window;
    c->domain_of = w_domain_of;
    c->domain_rank = w_domain_rank;
    c->domain_size = w_domain_size;
    c->peer_view = w_peer_view;
    c->dispatch = w_dispatch;
    c->host_collective = w_host_collective;
    c->collective = w_collective;
    c->note_notify = w_note_notify;
    c->note_wait = w_note_wait;
    c->note_acquire = w_note_acquire;
    c->defer_wait = w_defer_wait;
    c->note_access = w_note_access;
    c->note_marker = w_note_marker;
}

ranks_world *ranks_world_new(const case_ranks *r, ranks_order order)
{
    ranks_world *w = xcalloc(1, sizeof *w);
    w->cr = r;
    w->order = order;
    w->P = r->nranks;
    /* ranks.txt's domains, then one of every rank for programs whose
     * ranks.txt lists none */
    w->ndomains = r->ndomains + 1;
    w->domains = xcalloc(w->ndomains, sizeof *w->domains);
    for (size_t i = 0; i < r->ndomains; i++) {
        domain *d = &w->domains[i];
        snprintf(d->name, sizeof d->name, "%s", r->domains[i].name);
        for (size_t k = 0; k < r->domains[i].ndevices; k++) {
            int hr = host_rank_of_device(w, r->domains[i].devices[k]);
            if (hr >= 0)
                d->host_rank[d->n++] = hr;
        }
    }
    domain *all = &w->domains[r->ndomains];
    snprintf(all->name, sizeof all->name, "(every rank)");
    for (int k = 0; k < w->P; k++)
        all->host_rank[all->n++] = k;
    comm_init(w, &w->host, -1);
    for (int k = 0; k < w->P; k++) {
        comm_init(w, &w->rank[k], k);
        w->acquired_from[k] = -1;
        w->vc[k].c[k] = 1; /* FastTrack: a rank starts in its epoch 1, which no other rank has seen */
    }
    return w;
}

static void task_free(ranks_task *t)
{
    for (uint32_t i = 0; i < t->nargs; i++)
        value_clear(&t->args[i]);
    free(t->args);
    call_clear(&t->call);
    free(t->acc);
    free(t->deps);
    free(t->defers);
    free(t);
}

void ranks_world_free(ranks_world *w)
{
    if (!w)
        return;
    ranks_fence_free(w->fence);
    for (size_t i = 0; i < w->nall; i++)
        task_free(w->all[i]);
    free(w->all);
    for (int r = 0; r < w->P; r++) {
        free(w->q[r].items);
        free(w->coarse[r]);
        free(w->reported[r]);
    }
    for (size_t i = 0; i < w->ndomains; i++)
        for (int r = 0; r < w->P; r++)
            call_clear(&w->domains[i].calls[r]);
    free(w->done_vc);
    for (size_t k = 0; k < w->nbufs; k++) {
        for (int r = 0; r < w->P; r++)
            free(w->bufs[k].acc[r]);
        tensor_storage_unref(w->bufs[k].tmpl);
        for (int r = 0; r < w->P; r++)
            if (w->bufs[k].per_rank[r])
                tensor_storage_unref(w->bufs[k].per_rank[r]);
    }
    free(w->bufs);
    free(w->domains);
    free(w->log);
    free(w->waited);
    free(w);
}

const exec_comm *ranks_world_host_comm(ranks_world *w)
{
    return &w->host;
}

const exec_comm *ranks_world_rank_comm(ranks_world *w, int rank)
{
    return &w->rank[rank];
}

int ranks_world_nranks(const ranks_world *w)
{
    return w->P;
}

ranks_task *ranks_world_next_task(ranks_world *w, int rank)
{
    fifo *q = &w->q[rank];
    return q->n ? q->items[q->head] : NULL;
}

void ranks_world_pop_task(ranks_world *w, int rank)
{
    fifo *q = &w->q[rank];
    if (!q->n)
        return;
    ranks_task *t = q->items[q->head];
    q->head++;
    q->n--;
    w->done_vc[t->id] = w->vc[rank];
    w->vc[rank].c[rank]++;
    /* its values are not needed any more: drop them now */
    for (uint32_t i = 0; i < t->nargs; i++)
        value_clear(&t->args[i]);
    call_clear(&t->call);
    if (t->ndefers) { /* retired: its completion waits for its conditions */
        t->retired = 1;
        w->nretired++;
        poll_deferred(w);
        return;
    }
    t->done = 1;
    enqueue_ready(w);
}

static void enqueue_ready(ranks_world *w)
{
    for (size_t i = 0; i < w->nall; i++)
        if (!w->all[i]->queued && ready(w, w->all[i]))
            enqueue(w, w->all[i]);
}

/* Retired tasks whose every condition holds are done now: their end's
 * clock joined with what the notifiers of their cells released. */
static void poll_deferred(ranks_world *w)
{
    if (!w->nretired)
        return;
    int any = 0;
    for (size_t i = 0; i < w->nall; i++) {
        ranks_task *t = w->all[i];
        if (!t->retired || t->done)
            continue;
        int all = 1;
        for (size_t k = 0; k < t->ndefers && all; k++)
            all = (uint32_t)cell_value(t->defers[k].s, t->defers[k].elem) >= (uint32_t)t->defers[k].expected;
        if (!all)
            continue;
        for (size_t k = 0; k < t->ndefers; k++)
            for (size_t j = 0; j < w->nlog; j++)
                if (w->log[j].s == t->defers[k].s && w->log[j].elem == t->defers[k].elem)
                    vclock_join(w->done_vc[t->id].c, w->log[j].rel.c, w->P);
        t->done = 1;
        w->nretired--;
        any = 1;
    }
    if (any)
        enqueue_ready(w);
}

void ranks_world_poll(ranks_world *w)
{
    poll_deferred(w);
}

static ptodb_status w_defer_wait(void *ud, int rank, const tensor *cell, int64_t expected, int line, int col,
                                 char *err, size_t n)
{
    ranks_world *w = ud;
    ranks_task *t = ranks_world_next_task(w, rank);
    if (!t) {
        snprintf(err, n, "pld.system.defer_wait outside a task of this rank");
        return PTODB_ERR_RUNTIME;
    }
    if (t->ndefers == 64) { /* distributed_ops.md:603-642: at most 64 conditions a task */
        snprintf(err, n, "a task may register at most 64 deferred conditions (PyPTO distributed_ops.md, "
                         "pld.system.defer_wait)");
        return PTODB_ERR_RUNTIME;
    }
    t->defers = xreallocarray(t->defers, t->ndefers + 1, sizeof *t->defers);
    t->defers[t->ndefers++] = (struct ranks_defer){cell->storage, elem_of(cell), expected, line, col};
    mark_signal(w, cell);
    note_waited(w, cell);
    return PTODB_OK;
}

size_t ranks_world_describe_deferred(const ranks_world *w, int rank, const char *path, strbuf *out)
{
    size_t n = 0;
    for (size_t i = 0; i < w->nall; i++) {
        const ranks_task *t = w->all[i];
        if (t->rank != rank || !t->retired || t->done)
            continue;
        for (size_t k = 0; k < t->ndefers; k++) {
            int64_t v = cell_value(t->defers[k].s, t->defers[k].elem);
            if ((uint32_t)v >= (uint32_t)t->defers[k].expected)
                continue;
            int owner = -1;
            const window_buffer *b = buffer_of(w, t->defers[k].s, &owner);
            strbuf_printf(out,
                          "  rank %d: its task dispatched at %s:%d:%d retired, and its completion waits on the "
                          "pld.system.defer_wait at %s:%d:%d: %s element %lld of rank %d expects >= %lld "
                          "(unsigned), holds %lld\n",
                          rank, path, t->line, t->col, path, t->defers[k].line, t->defers[k].col,
                          b ? b->name : "?", (long long)t->defers[k].elem, owner, (long long)t->defers[k].expected,
                          (long long)v);
            n++;
        }
    }
    return n;
}

size_t ranks_world_pending(const ranks_world *w, int rank)
{
    size_t n = 0;
    for (size_t i = 0; i < w->nall; i++)
        n += w->all[i]->rank == rank && !w->all[i]->done;
    return n;
}

size_t ranks_world_unfinished(const ranks_world *w, int rank, const ranks_task **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < w->nall; i++)
        if (w->all[i]->rank == rank && !w->all[i]->done) {
            if (n < max)
                out[n] = w->all[i];
            n++;
        }
    return n;
}

tensor *ranks_world_rank_window(ranks_world *w, int64_t handle, int rank, dtype_id dt, int nd, const int64_t *shape)
{
    if (handle < 0 || (size_t)handle >= w->nbufs || rank < 0 || rank >= w->P || !w->bufs[handle].per_rank[rank])
        return NULL;
    return tensor_from_storage(w->bufs[handle].per_rank[rank], dt, nd, shape, NULL, 0, NULL);
}

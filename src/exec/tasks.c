/* The task race check (tasks.h). */
#include "exec/tasks.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

enum {
    TASKS_MAX = 4096,           /* tasks checked per run; later ones are not */
    ACCESS_MAX_RUNS = 1 << 16   /* runs kept per access; past it, its bounding run */
};

typedef struct run {
    int64_t lo, hi; /* storage elements lo .. hi - 1 */
} run;

typedef struct access {
    uint64_t s; /* tensor_storage.id: an address may be reused within a run */
    int write;
    run *runs;
    uint32_t nruns;
    /* what first_common can tell without walking the runs: their bounds,
     * and for runs of one length len starting period apart (a tile's rows,
     * len < period) where they start modulo period (period 0: not so) */
    int64_t lo, hi, period, phase, len;
} access;

typedef struct task {
    int64_t id;
    char *func;
    int line;
    uint32_t scope;
    uint8_t *before; /* before[k]: task k is ordered before this one by deps= (transitively) */
    access *acc;
    uint32_t nacc, capacc;
} task;

typedef struct named {
    uint64_t s; /* tensor_storage.id */
    char *name;
    int ndim, contiguous;
    int64_t offset, shape[TENSOR_MAX_DIMS];
} named;

struct exec_tasks {
    task *tasks;
    uint32_t n, cap;
    int running;      /* index of the running checked task, or -1 */
    uint32_t scope;   /* manual scope instances so far */
    named *names;
    uint32_t nnames, capnames;
};

exec_tasks *exec_tasks_new(void)
{
    exec_tasks *t = xcalloc(1, sizeof *t);
    t->running = -1;
    return t;
}

static void task_free(task *k)
{
    free(k->func);
    free(k->before);
    for (uint32_t i = 0; i < k->nacc; i++)
        free(k->acc[i].runs);
    free(k->acc);
}

void exec_tasks_free(exec_tasks *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i < t->n; i++)
        task_free(&t->tasks[i]);
    free(t->tasks);
    for (uint32_t i = 0; i < t->nnames; i++)
        free(t->names[i].name);
    free(t->names);
    free(t);
}

void exec_tasks_scope(exec_tasks *t)
{
    t->scope++;
}

void exec_tasks_begin(exec_tasks *t, int64_t id, const char *func, int line, int manual, const int64_t *deps,
                      uint32_t ndeps)
{
    t->running = -1;
    if (!manual || t->n >= TASKS_MAX)
        return;
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->tasks = xreallocarray(t->tasks, t->cap, sizeof *t->tasks);
    }
    task *k = &t->tasks[t->n];
    memset(k, 0, sizeof *k);
    k->id = id;
    k->func = xstrdup(func ? func : "?");
    k->line = line;
    k->scope = t->scope;
    k->before = xcalloc(TASKS_MAX, 1);
    /* every task of that id: the blocks of one pl.spmd_submit share it */
    for (uint32_t d = 0; d < ndeps; d++)
        for (uint32_t j = 0; j < t->n; j++) {
            if (t->tasks[j].id != deps[d])
                continue;
            k->before[j] = 1;
            for (uint32_t i = 0; i < j; i++)
                k->before[i] |= t->tasks[j].before[i];
        }
    t->running = (int)t->n++;
}

void exec_tasks_name(exec_tasks *t, const tensor *param, const char *name)
{
    if (!param->storage)
        return;
    for (uint32_t i = 0; i < t->nnames; i++)
        if (t->names[i].s == param->storage->id)
            return;
    if (t->nnames == t->capnames) {
        t->capnames = t->capnames ? 2 * t->capnames : 8;
        t->names = xreallocarray(t->names, t->capnames, sizeof *t->names);
    }
    named *n = &t->names[t->nnames++];
    n->s = param->storage->id;
    n->name = xstrdup(name);
    n->ndim = param->ndim;
    n->offset = param->offset;
    n->contiguous = tensor_is_contiguous(param);
    memcpy(n->shape, param->shape, sizeof n->shape);
}

/* "scratch[32, 64]": the element of storage s, by the name and shape of the
 * parameter that holds it ("element 4160 of a global tensor" when none). */
static void put_element(const exec_tasks *t, uint64_t s, int64_t e, strbuf *out)
{
    for (uint32_t i = 0; i < t->nnames; i++) {
        const named *n = &t->names[i];
        if (n->s != s)
            continue;
        int64_t k = e - n->offset, idx[TENSOR_MAX_DIMS];
        if (!n->contiguous || k < 0 || n->ndim < 1)
            break;
        for (int d = n->ndim - 1; d >= 0; d--) {
            int64_t m = n->shape[d] > 0 ? n->shape[d] : 1;
            idx[d] = k % m;
            k /= m;
        }
        strbuf_printf(out, "%s[", n->name);
        for (int d = 0; d < n->ndim; d++)
            strbuf_printf(out, "%s%lld", d ? ", " : "", (long long)idx[d]);
        strbuf_puts(out, "]");
        return;
    }
    strbuf_printf(out, "element %lld of a global tensor", (long long)e);
}

/* The storage elements of v as sorted runs along its last dim. */
static void view_runs(const tensor *v, access *a)
{
    int64_t n = tensor_numel(v);
    if (n <= 0)
        return;
    int nd = v->ndim;
    int64_t inner = nd > 0 ? v->shape[nd - 1] : 1, step = nd > 0 ? v->strides[nd - 1] : 1;
    int64_t outer = n / inner;
    if (outer > ACCESS_MAX_RUNS || step > 1) {
        /* the bounding run: conservative (it may report an overlap a strided
         * access does not have; tile windows are contiguous rows) */
        int64_t lo = v->offset, hi = v->offset;
        for (int d = 0; d < nd; d++)
            hi += (v->shape[d] - 1) * v->strides[d];
        a->runs = xmalloc(sizeof *a->runs);
        a->runs[0] = (run){lo, hi + 1};
        a->nruns = 1;
        return;
    }
    a->runs = xmalloc((size_t)outer * sizeof *a->runs);
    int64_t idx[TENSOR_MAX_DIMS] = {0};
    for (int64_t r = 0; r < outer; r++) {
        int64_t off = v->offset;
        for (int d = 0; d < nd - 1; d++)
            off += idx[d] * v->strides[d];
        a->runs[a->nruns++] = (run){off, off + (inner - 1) * (step ? step : 1) + 1};
        for (int d = nd - 2; d >= 0; d--) {
            if (++idx[d] < v->shape[d])
                break;
            idx[d] = 0;
        }
    }
}

static int run_cmp(const void *a, const void *b)
{
    const run *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* a's bounds and, where its runs are evenly spaced rows of one length,
 * their period and phase (access's fields) */
static void access_shape(access *a)
{
    a->lo = a->runs[0].lo;
    a->hi = a->runs[0].hi;
    for (uint32_t i = 1; i < a->nruns; i++)
        if (a->runs[i].hi > a->hi)
            a->hi = a->runs[i].hi;
    a->period = 0;
    if (a->nruns < 2)
        return;
    int64_t period = a->runs[1].lo - a->runs[0].lo, len = a->runs[0].hi - a->runs[0].lo;
    if (len <= 0 || period <= len)
        return;
    for (uint32_t i = 1; i < a->nruns; i++)
        if (a->runs[i].lo - a->runs[i - 1].lo != period || a->runs[i].hi - a->runs[i].lo != len)
            return;
    a->period = period;
    a->len = len;
    a->phase = ((a->lo % period) + period) % period;
}

/* 1 when the residues [pa, pa + la) and [pb, pb + lb) modulo p (each
 * shorter than p) share one */
static int residues_meet(int64_t p, int64_t pa, int64_t la, int64_t pb, int64_t lb)
{
    int64_t d = ((pb - pa) % p + p) % p; /* b's start from a's, in [0, p) */
    return d < la || d + lb > p;
}

void exec_tasks_access(exec_tasks *t, const tensor *v, int write)
{
    if (t->running < 0 || !v || !v->storage)
        return;
    task *k = &t->tasks[t->running];
    if (k->nacc == k->capacc) {
        k->capacc = k->capacc ? 2 * k->capacc : 8;
        k->acc = xreallocarray(k->acc, k->capacc, sizeof *k->acc);
    }
    access *a = &k->acc[k->nacc];
    memset(a, 0, sizeof *a);
    a->s = v->storage->id;
    a->write = write;
    view_runs(v, a);
    if (!a->nruns) {
        free(a->runs);
        return;
    }
    qsort(a->runs, a->nruns, sizeof *a->runs, run_cmp);
    access_shape(a);
    k->nacc++;
}

/* The first storage element both sorted run lists hold, or -1. */
static int64_t first_common(const access *a, const access *b)
{
    /* disjoint bounds, or rows of one period whose columns never meet (two
     * tiles side by side in a matrix): nothing in common, without the walk */
    if (a->hi <= b->lo || b->hi <= a->lo)
        return -1;
    if (a->period && a->period == b->period && !residues_meet(a->period, a->phase, a->len, b->phase, b->len))
        return -1;
    uint32_t i = 0, j = 0;
    while (i < a->nruns && j < b->nruns) {
        const run *x = &a->runs[i], *y = &b->runs[j];
        int64_t lo = x->lo > y->lo ? x->lo : y->lo, hi = x->hi < y->hi ? x->hi : y->hi;
        if (lo < hi)
            return lo;
        if (x->hi <= y->hi)
            i++;
        else
            j++;
    }
    return -1;
}

int exec_tasks_end(exec_tasks *t, strbuf *why)
{
    if (t->running < 0)
        return 0;
    uint32_t me = (uint32_t)t->running;
    t->running = -1;
    const task *k = &t->tasks[me];
    for (uint32_t o = 0; o < me; o++) {
        const task *p = &t->tasks[o];
        if (p->scope != k->scope || k->before[o])
            continue;
        for (uint32_t i = 0; i < k->nacc; i++)
            for (uint32_t j = 0; j < p->nacc; j++) {
                const access *a = &k->acc[i], *b = &p->acc[j];
                if (a->s != b->s || !(a->write || b->write))
                    continue;
                int64_t e = first_common(a, b);
                if (e < 0)
                    continue;
                strbuf_printf(why, "race: task %lld (%s, submitted at line %d) %s ", (long long)k->id, k->func,
                              k->line, a->write ? "writes" : "reads");
                put_element(t, a->s, e, why);
                strbuf_printf(why,
                              ", which task %lld (%s, submitted at line %d) %s, and no deps= chain orders the "
                              "two in this manual scope: on the device their order is not fixed",
                              (long long)p->id, p->func, p->line, b->write ? "writes" : "reads");
                return 1;
            }
    }
    return 0;
}

typedef struct tasks_saved {
    uint32_t n, scope, running_nacc;
    int running;
} tasks_saved;

void *exec_tasks_save(const exec_tasks *t)
{
    tasks_saved *s = xcalloc(1, sizeof *s);
    s->n = t->n;
    s->scope = t->scope;
    s->running = t->running;
    s->running_nacc = t->running >= 0 ? t->tasks[t->running].nacc : 0;
    return s;
}

void exec_tasks_restore(exec_tasks *t, const void *saved)
{
    const tasks_saved *s = saved;
    while (t->n > s->n)
        task_free(&t->tasks[--t->n]);
    t->scope = s->scope;
    t->running = s->running;
    if (s->running >= 0 && (uint32_t)s->running < t->n) {
        task *k = &t->tasks[s->running];
        while (k->nacc > s->running_nacc)
            free(k->acc[--k->nacc].runs);
    }
}

void exec_tasks_saved_free(void *saved)
{
    free(saved);
}

uint64_t exec_tasks_state_hash(const exec_tasks *t, uint64_t h)
{
    h = (h ^ t->n) * 0x100000001b3ull;
    h = (h ^ t->scope) * 0x100000001b3ull;
    h = (h ^ (uint64_t)(int64_t)t->running) * 0x100000001b3ull;
    return (h ^ (t->running >= 0 ? t->tasks[t->running].nacc : 0)) * 0x100000001b3ull;
}

/* The oracle's storage hasher (page_hash.h). A moment's state hash on the
 * production-size case reads 57 MiB of tensors, almost all of them weights
 * no statement writes; the oracle hashes tens of thousands of moments a
 * pass. Which chunks changed is learned from the hardware, not from the
 * debugger (whose write log the checkpoints trust, and which the oracle
 * must not): a tracked storage's pages are write-protected once read, and
 * the first write to one (by anyone: a kernel, a restore's memcpy, a
 * worker thread) faults, marks the page and lifts the protection. A chunk
 * is read again when a page it lies on was marked, or is not wholly the
 * storage's (the first and last pages are shared with other allocations
 * and never protected), and its term in the storage's sum replaced: a
 * hash costs the chunks written since the last, not the storage's size. */
#include "page_hash.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/mem.h"
#include "exec/snapshot.h"

enum { MAX_TRACKED = 512, MIN_PAGES = 8 };

typedef struct tracked {
    tensor_storage *s;        /* one reference held */
    unsigned char *data;      /* the bytes and size when first tracked */
    size_t nbytes, nchunks;
    uintptr_t lo, hi;         /* the pages wholly inside the bytes */
    volatile unsigned char *clean;  /* per page of [lo, hi): protected since its chunks were read */
    uint32_t *written;        /* pages marked since the last hash ... */
    volatile size_t nwritten; /* ... (each once: only a clean page faults) */
    uint64_t *term;           /* per chunk: its term in the sum when last read */
    uint64_t sum;             /* of term[] */
    int primed;               /* term[] and sum hold every chunk */
} tracked;

static tracked tr[MAX_TRACKED];
static volatile sig_atomic_t ntr;
static size_t page;
static struct sigaction old_segv;
static size_t nread, ncached;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
    uintptr_t a = (uintptr_t)si->si_addr;
    for (int i = 0; i < ntr; i++)
        if (a >= tr[i].lo && a < tr[i].hi) {
            tracked *t = &tr[i];
            uintptr_t p = a & ~(uintptr_t)(page - 1);
            size_t k = (p - t->lo) / page;
            if (t->clean[k]) {
                t->clean[k] = 0;
                t->written[t->nwritten] = (uint32_t)k;
                t->nwritten = t->nwritten + 1;
            }
            mprotect((void *)p, page, PROT_READ | PROT_WRITE);
            return;
        }
    /* not ours: the fault happens again under the handler before us */
    (void)sig;
    (void)uc;
    sigaction(SIGSEGV, &old_segv, NULL);
}

static void untrack(tracked *t)
{
    if (t->hi > t->lo)
        mprotect((void *)t->lo, t->hi - t->lo, PROT_READ | PROT_WRITE);
    tensor_storage_unref(t->s);
    free((void *)t->clean);
    free(t->written);
    free(t->term);
    memset(t, 0, sizeof *t);
}

static tracked *track(const tensor_storage *s)
{
    for (int i = 0; i < ntr; i++)
        if (tr[i].s == s) {
            if (tr[i].data == s->data && tr[i].nbytes == s->nbytes)
                return &tr[i];
            /* its bytes moved: start over with them (the last slot fills this one) */
            untrack(&tr[i]);
            tr[i] = tr[ntr - 1];
            memset(&tr[ntr - 1], 0, sizeof tr[ntr - 1]);
            ntr--;
            break;
        }
    if (ntr == MAX_TRACKED || s->nbytes < MIN_PAGES * page)
        return NULL;
    tracked *t = &tr[ntr];
    t->s = tensor_storage_ref((tensor_storage *)s);
    t->data = s->data;
    t->nbytes = s->nbytes;
    t->nchunks = machine_storage_nchunks(s->nbytes);
    t->lo = ((uintptr_t)s->data + page - 1) & ~(uintptr_t)(page - 1);
    t->hi = ((uintptr_t)s->data + s->nbytes) & ~(uintptr_t)(page - 1);
    size_t npages = (t->hi - t->lo) / page;
    t->clean = xcalloc(npages ? npages : 1, 1);
    t->written = xcalloc(npages ? npages : 1, sizeof *t->written);
    t->term = xcalloc(t->nchunks, sizeof *t->term);
    ntr = ntr + 1; /* the handler sees it whole */
    return t;
}

/* Reads chunk c again and puts its new term in the sum. */
static void reread(tracked *t, size_t c)
{
    uint64_t x = machine_storage_chunk_term(t->data, t->nbytes, c);
    t->sum += x - t->term[c];
    t->term[c] = x;
    nread++;
}

/* Chunks [*first, *last] that lie on the address range [a, b). */
static void chunks_on(const tracked *t, uintptr_t a, uintptr_t b, size_t *first, size_t *last)
{
    uintptr_t d = (uintptr_t)t->data;
    *first = (a > d ? a - d : 0) / MACHINE_HASH_CHUNK;
    *last = (b - 1 - d) / MACHINE_HASH_CHUNK;
    if (*last >= t->nchunks)
        *last = t->nchunks - 1;
}

uint64_t page_hash_storage(const tensor_storage *s)
{
    tracked *t = track(s);
    if (!t) {
        nread += machine_storage_nchunks(s->nbytes);
        return machine_storage_bytes_hash(s->data, s->nbytes);
    }
    size_t npages = (t->hi - t->lo) / page;
    if (!t->primed) {
        for (size_t c = 0; c < t->nchunks; c++)
            reread(t, c);
        t->primed = 1;
        t->nwritten = 0;
        memset((void *)t->clean, 1, npages);
        if (npages)
            mprotect((void *)t->lo, npages * page, PROT_READ);
        return machine_storage_hash_finish(t->nbytes, t->sum);
    }
    /* the pages written since: their chunks again, then protected again */
    size_t nw = t->nwritten, read_before = nread;
    for (size_t i = 0; i < nw; i++) {
        uintptr_t p = t->lo + (uintptr_t)t->written[i] * page;
        size_t first, last;
        chunks_on(t, p, p + page, &first, &last);
        for (size_t c = first; c <= last; c++)
            reread(t, c);
    }
    for (size_t i = 0; i < nw; i++) {
        uintptr_t p = t->lo + (uintptr_t)t->written[i] * page;
        t->clean[t->written[i]] = 1;
        mprotect((void *)p, page, PROT_READ);
    }
    t->nwritten = 0;
    /* the first and last pages are never protected: their chunks every time */
    size_t first, last, all = t->nchunks;
    if (npages == 0) {
        for (size_t c = 0; c < all; c++)
            reread(t, c);
    } else {
        if ((uintptr_t)t->data < t->lo) {
            chunks_on(t, (uintptr_t)t->data, t->lo, &first, &last);
            for (size_t c = first; c <= last; c++)
                reread(t, c);
        }
        if (t->hi < (uintptr_t)t->data + t->nbytes) {
            chunks_on(t, t->hi, (uintptr_t)t->data + t->nbytes, &first, &last);
            for (size_t c = first; c <= last; c++)
                reread(t, c);
        }
    }
    ncached += all - (nread - read_before < all ? nread - read_before : all);
    return machine_storage_hash_finish(t->nbytes, t->sum);
}

static uint64_t hash_storage(void *ctx, const tensor_storage *s)
{
    (void)ctx;
    return page_hash_storage(s);
}

void page_hash_enable(void)
{
    page = (size_t)sysconf(_SC_PAGESIZE);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &old_segv);
    machine_state_hash_set_storage_hasher(hash_storage, NULL);
}

void page_hash_reset(void)
{
    while (ntr > 0) {
        untrack(&tr[ntr - 1]);
        ntr = ntr - 1;
    }
}

void page_hash_counts(size_t *read, size_t *cached)
{
    *read = nread;
    *cached = ncached;
}

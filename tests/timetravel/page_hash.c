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
 * and never protected). */
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
    size_t nbytes;
    uintptr_t lo, hi;         /* the pages wholly inside the bytes */
    volatile unsigned char *clean; /* per page of [lo, hi): protected since its chunks were read */
    uint64_t *chunk;          /* per chunk: its hash when last read */
    unsigned char *valid;     /* per chunk: chunk[] holds it */
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
            uintptr_t p = a & ~(uintptr_t)(page - 1);
            tr[i].clean[(p - tr[i].lo) / page] = 0;
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
    free(t->chunk);
    free(t->valid);
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
    t->lo = ((uintptr_t)s->data + page - 1) & ~(uintptr_t)(page - 1);
    t->hi = ((uintptr_t)s->data + s->nbytes) & ~(uintptr_t)(page - 1);
    size_t npages = (t->hi - t->lo) / page, nchunks = (s->nbytes + MACHINE_HASH_CHUNK - 1) / MACHINE_HASH_CHUNK;
    t->clean = xcalloc(npages, 1);
    t->chunk = xcalloc(nchunks, sizeof *t->chunk);
    t->valid = xcalloc(nchunks, 1);
    ntr = ntr + 1; /* the handler sees it whole */
    return t;
}

/* 1 when every page the chunk [off, off + n) lies on is protected and
 * unwritten since its hash was read. */
static int chunk_clean(const tracked *t, size_t off, size_t n)
{
    uintptr_t a = (uintptr_t)t->data + off, b = a + n;
    if (a < t->lo || b > t->hi)
        return 0;
    for (uintptr_t p = a & ~(uintptr_t)(page - 1); p < b; p += page)
        if (!t->clean[(p - t->lo) / page])
            return 0;
    return 1;
}

uint64_t page_hash_storage(const tensor_storage *s)
{
    tracked *t = track(s);
    if (!t) {
        nread += (s->nbytes + MACHINE_HASH_CHUNK - 1) / MACHINE_HASH_CHUNK;
        return machine_storage_bytes_hash(s->data, s->nbytes);
    }
    uint64_t h = machine_storage_hash_begin(t->nbytes);
    for (size_t off = 0, c = 0; off < t->nbytes; off += MACHINE_HASH_CHUNK, c++) {
        size_t n = t->nbytes - off < MACHINE_HASH_CHUNK ? t->nbytes - off : MACHINE_HASH_CHUNK;
        if (!t->valid[c] || !chunk_clean(t, off, n)) {
            t->chunk[c] = machine_storage_chunk_hash(t->data + off, n);
            t->valid[c] = 1;
            nread++;
        } else {
            ncached++;
        }
        h = machine_storage_hash_fold(h, t->chunk[c]);
    }
    /* protect what was read, in runs of pages */
    size_t npages = (t->hi - t->lo) / page;
    for (size_t i = 0; i < npages;) {
        if (t->clean[i]) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < npages && !t->clean[j])
            t->clean[j++] = 1;
        mprotect((void *)(t->lo + i * page), (j - i) * page, PROT_READ);
        i = j;
    }
    return h;
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

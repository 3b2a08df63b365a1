/* Whole-file private mappings shared by the storages cut from them. */
#include "base/input_file.h"
#include "config.h"

#include "data/mapfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/mem.h"

/* A private mapping of one storage's bytes: the pages are the page cache's
 * until written, then copied one page at a time by the kernel. In use it
 * holds a reference to its mapfile; idle (on m->idle_cows) it does not. */
typedef struct cow_map {
    mapfile *m;
    unsigned char *base;
    size_t len, aoff;
    struct cow_map *next;
} cow_map;

ptodb_status mapfile_open(const char *path, mapfile **out, diag_sink *sink)
{
    diag_loc loc = {path, 0, 0};
    *out = NULL;
    char why[300];
    int fd = input_file_open(path, why, sizeof why);
    if (fd < 0) {
        diag_report(sink, DIAG_ERROR, loc, NULL, "%s", why);
        return PTODB_ERR_IO;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        diag_report(sink, DIAG_ERROR, loc, NULL, "cannot open: %s", strerror(errno));
        close(fd);
        return PTODB_ERR_IO;
    }
    if ((uint64_t)sb.st_size > (uint64_t)tensor_max_bytes() + ((uint64_t)1 << 30)) {
        /* No tensor could use it; refusing early also keeps a hostile
         * sparse file from being read in full. */
        diag_report(sink, DIAG_ERROR, loc, NULL, "file too large (%lld bytes)", (long long)sb.st_size);
        close(fd);
        return PTODB_ERR_FORMAT;
    }
    mapfile *m = xcalloc(1, sizeof *m);
    m->refcount = 1;
    m->size = (size_t)sb.st_size;
    if (m->size == 0) {
        m->data = xcalloc(1, 1);
    } else {
        /* Private: copy-on-write pages, never written back to the file;
         * only pages actually written get copied. Not populated: each
         * pass reads through its own fresh mapping (mapfile_storage_cow),
         * so populating this one would only map every page twice (twice
         * the resident set of a one-process run) for readers that may
         * never look at it. */
        void *p = mmap(NULL, m->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            diag_report(sink, DIAG_ERROR, loc, NULL, "cannot map: %s", strerror(errno));
            close(fd);
            free(m);
            return PTODB_ERR_IO;
        }
        m->data = p;
        m->mapped = 1;
    }
    /* kept open for mapfile_storage_cow's fresh private mappings */
    m->fd = m->mapped ? fd : -1;
    if (!m->mapped)
        close(fd);
    *out = m;
    return PTODB_OK;
}

mapfile *mapfile_ref(mapfile *m)
{
    if (m)
        m->refcount++;
    return m;
}

void mapfile_unref(mapfile *m)
{
    if (!m || --m->refcount > 0)
        return;
    while (m->idle_cows) {
        cow_map *c = m->idle_cows;
        m->idle_cows = c->next;
        munmap(c->base, c->len);
        free(c);
    }
    if (m->fd >= 0)
        close(m->fd);
    if (m->mapped)
        munmap(m->data, m->size);
    else
        free(m->data);
    free(m);
}

static void mapfile_release(void *ctx, void *data, size_t nbytes)
{
    (void)data;
    (void)nbytes;
    mapfile_unref(ctx);
}

tensor_storage *mapfile_storage(mapfile *m, size_t off, size_t nbytes)
{
    unsigned char *p = m->data + off;
    if (((uintptr_t)p & 15u) == 0 && nbytes > 0)
        return tensor_storage_wrap(p, nbytes, mapfile_release, mapfile_ref(m));
    tensor_storage *s = tensor_storage_new(nbytes, NULL);
    if (s && nbytes)
        memcpy(s->data, p, nbytes);
    return s;
}

enum { COW_IDLE_MAX = 4 }; /* idle mappings kept per file */

static size_t page_size(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    return pg > 0 ? (size_t)pg : 4096;
}

/* Drops the pages of c the pass wrote (a private file mapping's written page
 * is anonymous: not a file page in the page map), so that they read the
 * file's bytes again. 0 when done, -1 when the page map cannot tell. The
 * page map is opened on each call: an inherited descriptor would describe
 * the parent process. */
static int cow_reset(cow_map *c)
{
    enum { BATCH = 512 };
    const uint64_t present = (uint64_t)1 << 63, swapped = (uint64_t)1 << 62, file = (uint64_t)1 << 61;
    size_t page = page_size(), npages = (c->len + page - 1) / page;
    int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    uint64_t ent[BATCH];
    size_t run = 0, nrun = 0; /* a run of written pages, dropped in one call */
    int rc = 0;
    for (size_t p0 = 0; p0 < npages && rc == 0; p0 += BATCH) {
        size_t n = npages - p0 < BATCH ? npages - p0 : BATCH;
        off_t at = (off_t)(((uintptr_t)c->base / page + p0) * sizeof(uint64_t));
        if (pread(fd, ent, n * sizeof(uint64_t), at) != (ssize_t)(n * sizeof(uint64_t))) {
            rc = -1;
            break;
        }
        for (size_t i = 0; i < n; i++) {
            int written = (ent[i] & (present | swapped)) && !(ent[i] & file);
            if (written) {
                if (nrun == 0)
                    run = p0 + i;
                nrun++;
                continue;
            }
            if (nrun && madvise(c->base + run * page, nrun * page, MADV_DONTNEED) != 0)
                rc = -1;
            nrun = 0;
        }
    }
    if (rc == 0 && nrun && madvise(c->base + run * page, nrun * page, MADV_DONTNEED) != 0)
        rc = -1;
    close(fd);
    return rc;
}

static void cow_release(void *ctx, void *data, size_t nbytes)
{
    (void)data;
    (void)nbytes;
    cow_map *c = ctx;
    mapfile *m = c->m;
    size_t idle = 0;
    for (cow_map *i = m->idle_cows; i; i = i->next)
        idle++;
    if (idle < COW_IDLE_MAX && cow_reset(c) == 0) {
        c->next = m->idle_cows;
        m->idle_cows = c;
    } else {
        munmap(c->base, c->len);
        free(c);
    }
    mapfile_unref(m);
}

/* the idle mapping of bytes [aoff, aoff + len), taken off the list */
static cow_map *take_idle(mapfile *m, size_t aoff, size_t len)
{
    for (cow_map **pp = &m->idle_cows; *pp; pp = &(*pp)->next) {
        cow_map *c = *pp;
        if (c->aoff == aoff && c->len == len) {
            *pp = c->next;
            c->next = NULL;
            return c;
        }
    }
    return NULL;
}

tensor_storage *mapfile_storage_cow(const tensor_storage *s)
{
    if (!s || s->release != mapfile_release || s->nbytes < MAPFILE_COW_MIN)
        return NULL;
    mapfile *m = s->release_ctx;
    if (m->fd < 0 || s->data < m->data || s->data + s->nbytes > m->data + m->size)
        return NULL;
    size_t off = (size_t)(s->data - m->data);
    size_t page = page_size();
    size_t aoff = off / page * page, delta = off - aoff;
    size_t len = s->nbytes + delta;
    cow_map *c = take_idle(m, aoff, len);
    if (!c) {
        /* not populated: a read fault maps the page cache's pages some at a
         * time (fault-around), cheaper than populating every page table
         * entry of a large input of which a pass may read only part */
        void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, m->fd, (off_t)aoff);
        if (p == MAP_FAILED)
            return NULL;
        c = xcalloc(1, sizeof *c);
        c->base = p;
        c->len = len;
        c->aoff = aoff;
    }
    c->m = mapfile_ref(m);
    return tensor_storage_wrap(c->base + delta, s->nbytes, cow_release, c);
}

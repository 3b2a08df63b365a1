/* Whole-file private mappings shared by the storages cut from them. */
#include "base/input_file.h"
#include "config.h"

#include "data/mapfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/mem.h"

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

/* A fresh private mapping of one storage's bytes: the pages are the page
 * cache's until written, then copied one page at a time by the kernel. */
typedef struct cow_map {
    void *base;
    size_t len;
} cow_map;

static void cow_release(void *ctx, void *data, size_t nbytes)
{
    (void)data;
    (void)nbytes;
    cow_map *c = ctx;
    munmap(c->base, c->len);
    free(c);
}

tensor_storage *mapfile_storage_cow(const tensor_storage *s)
{
    if (!s || s->release != mapfile_release || s->nbytes < MAPFILE_COW_MIN)
        return NULL;
    mapfile *m = s->release_ctx;
    if (m->fd < 0 || s->data < m->data || s->data + s->nbytes > m->data + m->size)
        return NULL;
    size_t off = (size_t)(s->data - m->data);
    long pg = sysconf(_SC_PAGESIZE);
    size_t page = pg > 0 ? (size_t)pg : 4096;
    size_t aoff = off / page * page, delta = off - aoff;
    /* not populated: a read fault maps the page cache's pages some at a
     * time (fault-around), cheaper than populating every page table entry
     * of a large input of which a pass may read only part */
    size_t len = s->nbytes + delta;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE, m->fd, (off_t)aoff);
    if (p == MAP_FAILED)
        return NULL;
    cow_map *c = xmalloc(sizeof *c);
    c->base = p;
    c->len = len;
    return tensor_storage_wrap((unsigned char *)p + delta, s->nbytes, cow_release, c);
}

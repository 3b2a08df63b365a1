#include "base/mem.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <sys/mman.h>
#include <unistd.h>

static ptodb_fatal_hook fatal_hook;

void ptodb_tune_allocator(void)
{
#ifdef __GLIBC__
    /* glibc gives a freed block of a few MB back to the kernel (munmap, or
     * trimming the heap's top), so the next tile of that size faults every
     * page in again: a quarter of the CPU time of a pass at hidden 4096.
     * Blocks up to 64 MB come from the heap, which keeps up to 256 MB free
     * at its top for the next statement. */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
#endif
}

void ptodb_set_fatal_hook(ptodb_fatal_hook hook)
{
    fatal_hook = hook;
}

void ptodb_fatal(const char *fmt, ...)
{
    va_list ap;
    if (fatal_hook) {
        ptodb_fatal_hook hook = fatal_hook;
        fatal_hook = NULL; /* a failing hook must not recurse */
        hook();
    }
    fputs("ptodb: fatal: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

/* ---- contexts named by allocation failures ----------------------------- */

enum { MEM_WHERE_MAX = 16 };
typedef struct where_entry {
    const char *verb;
    const char *path;
    mem_where_fn fn;
    const void *ctx;
    int used;
} where_entry;
static _Thread_local where_entry where_stack[MEM_WHERE_MAX];
static _Thread_local int where_depth;

static int where_push(where_entry e)
{
    if (where_depth >= MEM_WHERE_MAX)
        return -1;
    e.used = 1;
    where_stack[where_depth] = e;
    return where_depth++;
}

int mem_where_push(const char *verb, const char *path)
{
    return where_push((where_entry){.verb = verb, .path = path});
}

int mem_where_push_fn(mem_where_fn fn, const void *ctx)
{
    return where_push((where_entry){.fn = fn, .ctx = ctx});
}

void mem_where_pop(int token)
{
    if (token < 0 || token >= where_depth)
        return;
    where_stack[token].used = 0;
    while (where_depth > 0 && !where_stack[where_depth - 1].used)
        where_depth--;
}

void mem_where_text(char *buf, size_t size)
{
    if (!size)
        return;
    buf[0] = '\0';
    for (int i = where_depth - 1; i >= 0; i--) {
        const where_entry *e = &where_stack[i];
        if (!e->used)
            continue;
        if (e->fn)
            e->fn(e->ctx, buf, size);
        else
            snprintf(buf, size, "%s %s", e->verb, e->path);
        return;
    }
}

static void out_of_memory(const char *what, size_t count, size_t size)
{
    char where[512];
    mem_where_text(where, sizeof where);
    if (count)
        ptodb_fatal("out of memory %s %zu x %zu bytes%s%s%s", what, count, size, *where ? " (while " : "", where,
                    *where ? ")" : "");
    ptodb_fatal("out of memory %s %zu bytes%s%s%s", what, size, *where ? " (while " : "", where, *where ? ")" : "");
}

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        out_of_memory("allocating", 0, size);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory("allocating", count, size);
    return p;
}

void *xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (!p)
        out_of_memory("reallocating", 0, size);
    return p;
}

void *xreallocarray(void *ptr, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        ptodb_fatal("allocation of %zu x %zu bytes overflows", count, size);
    return xrealloc(ptr, count * size);
}

void *xmemdup(const void *p, size_t n)
{
    void *c = xmalloc(n ? n : 1);
    if (n)
        memcpy(c, p, n);
    return c;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *p = xmalloc(len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

/* ---- arrays grown by remapping their pages ----------------------------- */

#ifdef MREMAP_MAYMOVE
static size_t page_round(size_t bytes)
{
    static size_t page;
    if (!page) {
        long ps = sysconf(_SC_PAGESIZE);
        page = ps > 0 ? (size_t)ps : 4096;
    }
    size_t r = (bytes + page - 1) / page * page;
    return r ? r : page; /* at least a page: a mapping is never empty */
}
#endif

void *xpages_grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap && p)
        return p;
    size_t n = *cap ? *cap : 1;
    while (n < need) {
        if (n > SIZE_MAX / 2)
            ptodb_fatal("allocation of %zu x %zu bytes overflows", need, size);
        n *= 2;
    }
    if (size && n > SIZE_MAX / size)
        ptodb_fatal("allocation of %zu x %zu bytes overflows", n, size);
#ifdef MREMAP_MAYMOVE
    size_t bytes = page_round(n * size);
    void *q = p ? mremap(p, page_round(*cap * size), bytes, MREMAP_MAYMOVE)
                : mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (q == MAP_FAILED)
        out_of_memory(p ? "reallocating" : "allocating", 0, bytes);
#ifdef MADV_HUGEPAGE
    if (bytes >= (2u << 20))
        madvise(q, bytes, MADV_HUGEPAGE);
#endif
    *cap = size ? bytes / size : n;
    return q;
#else
    void *q = xreallocarray(p, n, size);
    *cap = n;
    return q;
#endif
}

void pages_free(void *p, size_t cap, size_t size)
{
    if (!p)
        return;
#ifdef MREMAP_MAYMOVE
    munmap(p, page_round(cap * size));
#else
    (void)cap;
    (void)size;
    free(p);
#endif
}

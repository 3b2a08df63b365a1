#include "base/mem.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

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

void *xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        ptodb_fatal("out of memory allocating %zu bytes", size);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        ptodb_fatal("out of memory allocating %zu x %zu bytes", count, size);
    return p;
}

void *xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (!p)
        ptodb_fatal("out of memory reallocating %zu bytes", size);
    return p;
}

void *xreallocarray(void *ptr, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        ptodb_fatal("allocation of %zu x %zu bytes overflows", count, size);
    return xrealloc(ptr, count * size);
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

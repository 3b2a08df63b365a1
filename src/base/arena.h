/* Memory that lives as long as its arena: many small blocks (a recorder's
 * per-record arrays and strings) without a malloc and a free each, given
 * back all at once. */
#ifndef PTODB_BASE_ARENA_H
#define PTODB_BASE_ARENA_H

#include <stddef.h>
#include <stdint.h>

#include "base/content_set.h"

typedef struct arena {
    struct arena_block *head;
    unsigned char *cur, *end; /* the free part of the newest block */
    size_t next_cap;          /* the next block's size (0: the first's) */
} arena;

/* n bytes in a new block (arena_alloc_aligned's slow path). */
void *arena_alloc_block(arena *a, size_t n);

/* n bytes aligned to align (a power of two, at most max_align_t's; n may
 * be 0) that live until arena_free. Inline: a parser allocates every node
 * here. */
static inline void *arena_alloc_aligned(arena *a, size_t n, size_t align)
{
    uintptr_t at = ((uintptr_t)a->cur + align - 1) & ~(uintptr_t)(align - 1);
    if (a->cur && at <= (uintptr_t)a->end && n <= (uintptr_t)a->end - at) {
        a->cur = (unsigned char *)at + n;
        return (void *)at;
    }
    return arena_alloc_block(a, n);
}

/* n bytes aligned for any scalar. */
void *arena_alloc(arena *a, size_t n);
/* A copy of the n bytes at p in the arena. */
void *arena_memdup(arena *a, const void *p, size_t n);
/* Every block of the arena given back; the arena is empty again. */
void arena_free(arena *a);

/* Strings kept once each (a recorder's records share a few distinct
 * ones): the pool's copy of a string is found by its text. */
typedef struct str_pool {
    content_set set; /* owner: the copy */
    arena mem;
} str_pool;

/* The pool's copy of s cut to max bytes (as a buffer of max + 1 bytes
 * held it), made at the first call. */
const char *str_pool_intern(str_pool *p, const char *s, size_t max);
/* The pool's copy of s, or NULL when it has none. */
const char *str_pool_find(const str_pool *p, const char *s);
void str_pool_free(str_pool *p);

#endif

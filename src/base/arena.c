/* Arenas and string pools (arena.h). */
#include "base/arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

struct arena_block {
    struct arena_block *next;
    _Alignas(max_align_t) unsigned char data[];
};

/* Blocks grow geometrically, so that a large user (a 5 MB dump's syntax
 * tree, a recorder's records) needs few mallocs and a small one wastes
 * little; a request larger than the next block gets a block of its own. */
enum { ARENA_FIRST_BLOCK = 64 * 1024, ARENA_MAX_BLOCK = 4 * 1024 * 1024 };

void *arena_alloc_block(arena *a, size_t n)
{
    size_t cap = a->next_cap ? a->next_cap : ARENA_FIRST_BLOCK;
    if (cap < ARENA_MAX_BLOCK)
        a->next_cap = cap * 2;
    if (cap < n)
        cap = n;
    struct arena_block *b = xmalloc(sizeof *b + cap);
    b->next = a->head;
    a->head = b;
    a->cur = b->data + n;
    a->end = b->data + cap;
    return b->data;
}

void *arena_alloc(arena *a, size_t n)
{
    return arena_alloc_aligned(a, n, alignof(max_align_t));
}

void *arena_memdup(arena *a, const void *p, size_t n)
{
    void *c = arena_alloc(a, n);
    if (n)
        memcpy(c, p, n);
    return c;
}

void arena_free(arena *a)
{
    while (a->head) {
        struct arena_block *next = a->head->next;
        free(a->head);
        a->head = next;
    }
    a->cur = a->end = NULL;
    a->next_cap = 0;
}

const char *str_pool_intern(str_pool *p, const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    uint64_t h = content_hash(s, n);
    const char *same = content_set_find(&p->set, h, s, n);
    if (same)
        return same;
    char *copy = arena_alloc(&p->mem, n + 1);
    memcpy(copy, s, n);
    copy[n] = '\0';
    content_set_add(&p->set, h, copy, n, copy);
    return copy;
}

const char *str_pool_find(const str_pool *p, const char *s)
{
    size_t n = strlen(s);
    return content_set_find(&p->set, content_hash(s, n), s, n);
}

void str_pool_free(str_pool *p)
{
    content_set_free(&p->set);
    arena_free(&p->mem);
}

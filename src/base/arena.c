/* Arenas and string pools (arena.h). */
#include "base/arena.h"

#include <stdalign.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

struct arena_block {
    struct arena_block *next;
    size_t used, cap;
    _Alignas(max_align_t) unsigned char data[];
};

enum { ARENA_BLOCK = 65536 };

void *arena_alloc(arena *a, size_t n)
{
    const size_t align = alignof(max_align_t);
    n = (n + align - 1) & ~(align - 1);
    struct arena_block *b = a->head;
    if (!b || n > b->cap - b->used) {
        size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        b = xmalloc(sizeof *b + cap);
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += n;
    return p;
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

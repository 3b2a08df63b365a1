#include "ir/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* Chunks grow geometrically so that a 5 MB dump needs few mallocs; a
 * request larger than the chunk size gets a chunk of its own. */
enum { ARENA_FIRST_CHUNK = 64 * 1024, ARENA_MAX_CHUNK = 4 * 1024 * 1024 };

typedef struct arena_chunk {
    struct arena_chunk *next;
    size_t size, used;
    _Alignas(16) unsigned char data[];
} arena_chunk;

struct ir_arena {
    arena_chunk *head;
    size_t next_size;
    size_t total;
};

ir_arena *ir_arena_new(void)
{
    ir_arena *a = xcalloc(1, sizeof *a);
    a->next_size = ARENA_FIRST_CHUNK;
    return a;
}

void ir_arena_free(ir_arena *a)
{
    if (!a)
        return;
    arena_chunk *c = a->head;
    while (c) {
        arena_chunk *next = c->next;
        free(c);
        c = next;
    }
    free(a);
}

void *ir_arena_alloc(ir_arena *a, size_t size)
{
    size = (size + 7) & ~(size_t)7;
    arena_chunk *c = a->head;
    if (!c || c->size - c->used < size) {
        size_t want = a->next_size;
        if (want < size)
            want = size;
        if (a->next_size < ARENA_MAX_CHUNK)
            a->next_size *= 2;
        c = xmalloc(sizeof *c + want);
        c->size = want;
        c->used = 0;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += size;
    a->total += size;
    memset(p, 0, size);
    return p;
}

char *ir_arena_strndup(ir_arena *a, const char *s, size_t n)
{
    char *p = ir_arena_alloc(a, n + 1);
    if (n)
        memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

size_t ir_arena_used(const ir_arena *a)
{
    return a->total;
}

#include "ir/arena.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/mem.h"

/* base/arena's blocks (geometric, few mallocs for a large dump) with the
 * tree's own terms: zeroed nodes, 8-byte alignment, a count of what was
 * handed out. */
struct ir_arena {
    arena mem;
    size_t total;
};

ir_arena *ir_arena_new(void)
{
    return xcalloc(1, sizeof(ir_arena));
}

void ir_arena_free(ir_arena *a)
{
    if (!a)
        return;
    arena_free(&a->mem);
    free(a);
}

void *ir_arena_alloc(ir_arena *a, size_t size)
{
    size = (size + 7) & ~(size_t)7;
    void *p = arena_alloc_aligned(&a->mem, size, 8);
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

/* A bump allocator: one ir_arena per parsed module, freed in one call.
 * Allocation never fails (it dies through xmalloc on exhaustion). */
#ifndef PTODB_IR_ARENA_H
#define PTODB_IR_ARENA_H

#include <stddef.h>

typedef struct ir_arena ir_arena;

ir_arena *ir_arena_new(void);
void ir_arena_free(ir_arena *a);
/* Zeroed, 8-byte aligned memory that lives until ir_arena_free. */
void *ir_arena_alloc(ir_arena *a, size_t size);
/* A NUL-terminated copy of n bytes. */
char *ir_arena_strndup(ir_arena *a, const char *s, size_t n);
/* Total bytes handed out (for tests and statistics). */
size_t ir_arena_used(const ir_arena *a);

#endif

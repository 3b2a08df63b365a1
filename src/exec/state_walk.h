/* Every value a machine's state holds, in one fixed order (snapshot.c,
 * state_hash.c): each core's frames (slots, dyns) outermost first, its
 * kept last frame and result, then the group run's queues and the global
 * ones, items front first. Tuples are visited as values (the callback
 * recurses if it wants their items). */
#ifndef PTODB_EXEC_STATE_WALK_H
#define PTODB_EXEC_STATE_WALK_H

#include <stddef.h>

#include "exec/machine_int.h"
#include "exec/snapshot.h"

typedef void (*machine_value_fn)(void *ud, const value *v);
void machine_walk_values(const machine *m, machine_value_fn fn, void *ud);

/* The queues of a cross-core runtime in a fixed order: *n of them. */
enum { XRT_NQUEUES = 22 * XRT_NPIPES + 4 };
void xrt_queues(xrt *rt, xqueue *out[XRT_NQUEUES]);

/* The frames a core holds: its stack, or the kept last frame of a
 * finished core. */
int machine_core_nframes(const core *c);

/* The snapshot parts of other components (snapshot_parts.c). */
const machine_snapshot_part *machine_snapshot_parts(size_t *n);

/* A set of pointers numbered in insertion order (the distinct tensors and
 * storages a walk meets). */
typedef struct ptr_index {
    const void **keys;
    size_t *idx;
    size_t n, cap;
} ptr_index;
/* The number of p (from 0), inserted when new (*added 1). */
size_t ptr_index_put(ptr_index *s, const void *p, int *added);
/* p's number, or (size_t)-1. */
size_t ptr_index_get(const ptr_index *s, const void *p);
void ptr_index_free(ptr_index *s);

#endif

/* Read-only inspection of a machine for debuggers: each core's state and
 * frame stack (function, location, named slots), the op a blocked core waits
 * on, and the cross-core queues. Nothing here changes the machine. */
#ifndef PTODB_EXEC_INSPECT_H
#define PTODB_EXEC_INSPECT_H

#include "base/strbuf.h"
#include "exec/machine.h"
#include "ir/ast.h"

typedef enum {
    INSPECT_CORE_IDLE,     /* not started, or not part of the running group */
    INSPECT_CORE_READY,    /* can run */
    INSPECT_CORE_BLOCKED,  /* waiting on an empty queue */
    INSPECT_CORE_WAITING,  /* the host, waiting for its group call's cores */
    INSPECT_CORE_DONE,
    INSPECT_CORE_FAILED
} inspect_core_state;

const char *inspect_core_state_name(inspect_core_state s);
inspect_core_state inspect_core(const machine *m, int core);
/* Frames on a core (0 when idle). */
int inspect_depth(const machine *m, int core);
/* The level that names a finished core's last frame (its outermost
 * function at its return, kept until the core runs again), for
 * inspect_frame_get, inspect_slot and the other per-level calls. */
enum { INSPECT_LAST_FRAME = -1 };
int inspect_has_last_frame(const machine *m, int core);

typedef struct inspect_frame {
    const char *func;  /* function name */
    const ir_func *ir; /* its IR */
    const char *file;  /* the pass file */
    const ir_stmt *stmt; /* the statement about to run (or running), or NULL */
    int line, col;     /* of stmt; 0 when none */
    int first_line;    /* of the function's first statement: where its calls stop first; 0 none */
    int nparams;
    int nslots;        /* named slots (params first), temps excluded */
    /* The frame's place in the run: the how-manieth call of func on this
     * core (from 0) and the statements it has completed. With the core and
     * the function they name one moment of a run exactly, the same moment in
     * any pass where that function is unchanged and called as often before. */
    uint32_t activation;
    uint64_t local_steps;
    /* The SPMD block the frame runs and its launch's width (0 and 1 outside
     * a launch and under --semantics=ref). */
    int64_t block_idx, block_num;
} inspect_frame;

/* How many blocks of the running SPMD launch are parked at a
 * system.syncall (exec/barrier.c), waiting to resume: 0 outside one. */
size_t inspect_parked_blocks(const machine *m);

/* Frame `level` of a core: 0 is the innermost. Returns 0 when out of range. */
int inspect_frame_get(const machine *m, int core, int level, inspect_frame *out);
/* Slot i of that frame: its IR name (as written in the dump) and value
 * (VAL_UNBOUND before assignment). Returns 0 when out of range. */
int inspect_slot(const machine *m, int core, int level, int i, const char **name,
                 const value **val);
/* Looks a name up in a frame: exact, then by its base name: "x" is the
 * latest assigned version of x (x__ssa_v3, x__iter_v1, ...), else the latest
 * assigned other variable made from x (x__tile). -1 if none. */
int inspect_find_slot(const machine *m, int core, int level, const char *name);
/* The bound slots of that frame whose base name is `name` (x__ssa_v0,
 * x__tile, ...), in slot order: fills at most max, returns how many. */
int inspect_slot_matches(const machine *m, int core, int level, const char *name, int *out, int max);

/* The type annotation slot i is declared with in the dump (a parameter's
 * as written, or the first annotated assignment to it), or NULL. */
const ir_expr *inspect_slot_annotation(const machine *m, int core, int level, int slot);

/* "tpop_from_aic (split=1, lane=0)" for a blocked core, else NULL. */
const char *inspect_waiting(const machine *m, int core);

typedef struct inspect_queue {
    const char *direction; /* "aic->aiv", "aiv->aic", "lane exchange" */
    int split;             /* -1 none, 0 dual no-split, 1..4 */
    int lane;              /* -1 single */
    int depth;
    int limit;             /* pushes block at this depth; 0 unbounded (REF) */
    int slot_num, slot_size; /* the producer's initialize_pipe, 0 when not given */
    unsigned waiting;      /* 1u << core id of each core blocked on it */
    const void *id;        /* the queue itself: for inspect_queue_item */
} inspect_queue;

/* Item k (0 = the next to pop) of a queue inspect_queues returned: the
 * tensor in flight (borrowed), or NULL. */
const tensor *inspect_queue_item(const machine *m, const inspect_queue *q, int k);

/* The queues of the running group (those touched so far); returns how many
 * there are, filling at most max. */
int inspect_queues(const machine *m, inspect_queue *out, int max);
/* The tensors in flight on the first max_queues queues inspect_queues
 * lists, in its order (queue by queue, the next to pop first), each with
 * its queue's lane: at most max of them; returns how many. What
 * inspect_queues and inspect_queue_item give, without describing the
 * queues (the why log asks at every step). */
int inspect_queue_items(const machine *m, int max_queues, const tensor **items, int *lanes, int max);

#endif

/* The world of a multi-rank run (docs/multirank.md): P ranks, each with
 * zeroed window buffers per comm domain, a FIFO of tasks the host
 * orchestrator dispatched to it (the runtime's one worker per rank, one
 * task at a time: simpler docs/scheduler.md:114-125), the notify history of
 * every signal cell and the collectives' rendezvous. It implements the
 * exec_comm hooks the multi-rank ops call (exec/comm.h): one for the host
 * orchestrator's machine, one per rank. Scheduling is run.c's. */
#ifndef PTODB_RANKS_WORLD_H
#define PTODB_RANKS_WORLD_H

#include "base/strbuf.h"
#include "data/ranks.h"
#include "exec/comm.h"

typedef enum { RANKS_TASK_CALL, RANKS_TASK_COLLECTIVE } ranks_task_kind;

typedef struct ranks_task {
    ranks_task_kind kind;
    int fn;          /* CALL: the function */
    value *args;     /* CALL: translated to the rank's windows */
    uint32_t nargs;
    exec_collective_call call; /* COLLECTIVE: its tensors are the rank's (references held) */
} ranks_task;

typedef struct ranks_world ranks_world;

/* A world for the ranks, devices and domains of r (borrowed; it outlives
 * the world). */
ranks_world *ranks_world_new(const case_ranks *r);
void ranks_world_free(ranks_world *w);

const exec_comm *ranks_world_host_comm(ranks_world *w);
const exec_comm *ranks_world_rank_comm(ranks_world *w, int rank);
int ranks_world_nranks(const ranks_world *w);

/* Rank's next task (NULL when its queue is empty) and its removal. */
ranks_task *ranks_world_next_task(ranks_world *w, int rank);
void ranks_world_pop_task(ranks_world *w, int rank);
size_t ranks_world_pending(const ranks_world *w, int rank);

/* A rank made progress: it no longer waits on a cell. */
void ranks_world_clear_wait(ranks_world *w, int rank);
/* The wait rank is parked at, described for a deadlock report ("signal_buf
 * element 0 of rank 0: expects >= 1, holds 0; last notified by rank 1 at
 * 12:9 (AtomicAdd 1)" or "... nobody notified it"); 0 when the rank waits
 * on no cell (a collective's rendezvous: described too). */
int ranks_world_describe_wait(const ranks_world *w, int rank, strbuf *out);
/* The window cells left non-zero at the end (signals are expected back at
 * zero after every collective: distributed_ops.md:142-192), one line each
 * in out; the count. Only buffers of INT32 views that a notify touched. */
size_t ranks_world_nonzero_signals(const ranks_world *w, strbuf *out);

#endif

/* The multi-rank ops' view of the world they run in (docs/multirank.md).
 *
 * A machine runs one rank (or the host orchestrator) of a multi-rank
 * program; the ranks, their windows, comm domains and task queues belong to
 * a layer above exec (src/ranks/), which hands each machine an exec_comm
 * through machine_options.comm. The ops of ops_comm.c reach the other ranks
 * only through it, so exec knows nothing of how ranks are scheduled. A
 * machine without one (a single-rank case) fails at the first multi-rank op
 * with a message saying the case needs a ranks.txt. */
#ifndef PTODB_EXEC_COMM_H
#define PTODB_EXEC_COMM_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "exec/value.h"
#include "tensor/tensor.h"

/* pld.system.notify's op (pypto src/ir/op/distributed/system.cpp:210) */
enum { EXEC_NOTIFY_ATOMIC_ADD = 0, EXEC_NOTIFY_SET = 1 };
/* pld.system.wait's cmp (system.cpp:241) */
enum { EXEC_WAIT_EQ = 0, EXEC_WAIT_GE = 1 };
/* a dispatched argument's direction */
enum { EXEC_ARG_IN = 0, EXEC_ARG_OUT = 1, EXEC_ARG_INOUT = 2 };
/* a GM marker of the data-before-signal contract (note_marker) */
enum { EXEC_MARK_FENCE = 0, EXEC_MARK_INVALIDATE_REGION = 1, EXEC_MARK_INVALIDATE_ALL = 2 };
/* the reduction of allreduce / reduce_scatter (allreduce.cpp:126) */
enum { EXEC_REDUCE_SUM = 0, EXEC_REDUCE_MAX = 1, EXEC_REDUCE_MIN = 2, EXEC_REDUCE_PROD = 3 };

/* The collectives run as rendezvous (every member of the domain reaches its
 * k-th call, then it applies at once). */
typedef enum {
    EXEC_COLL_ALLREDUCE,
    EXEC_COLL_BARRIER,
    EXEC_COLL_BROADCAST,
    EXEC_COLL_ALLGATHER,
    EXEC_COLL_REDUCE_SCATTER,
    EXEC_COLL_ALL_TO_ALL,
    EXEC_COLL_ALL_TO_ALL_V
} exec_collective;

typedef struct exec_collective_call {
    exec_collective kind;
    const char *op_name;   /* for messages: "pld.tensor.allreduce" */
    tensor *target;        /* the window operated on (in place) */
    tensor *input;         /* allgather / all_to_all: the local input, else NULL */
    tensor *signal;        /* may be NULL */
    tensor *counts;        /* all_to_all_v: send_counts ([NR] or [NR, 1] INT32), else NULL */
    tensor *recv_counts;   /* all_to_all_v: the [NR, 1] INT32 window of counts received, else NULL */
    int reduce;            /* EXEC_REDUCE_* */
    int64_t root;          /* broadcast */
    int line, col;         /* the call, for mismatch reports */
} exec_collective_call;

typedef struct exec_comm {
    void *ud;
    int rank;       /* host rank this machine runs (data/in/rank<R>), -1 for the host orchestrator */
    int world_size; /* pld.system.world_size() */
    /* Every hook returns PTODB_OK or an error status with a one-line
     * message in err (the op adds file:line:col). */
    /* host: pld.tensor.alloc_window_buffer(bytes): a buffer handle */
    ptodb_status (*alloc_window)(void *ud, int64_t bytes, int64_t *handle, char *err, size_t n);
    /* host: pld.tensor.window(buf, shape, dtype): a tensor standing for
     * every rank's view of the buffer (translated at each dispatch) */
    ptodb_status (*window)(void *ud, int64_t handle, dtype_id dt, int nd, const int64_t *shape, tensor **out,
                           char *err, size_t n);
    /* the comm domain of window tensor t on rank (-1: the host's templates) */
    ptodb_status (*domain_of)(void *ud, int rank, const tensor *t, int *domain, char *err, size_t n);
    /* rank's rank in domain d (-1 when not a member) and d's size */
    int (*domain_rank)(void *ud, int d, int rank);
    int (*domain_size)(void *ud, int d);
    /* the same view as window t of rank, on domain peer `peer` (a rank of
     * t's domain): a new reference */
    ptodb_status (*peer_view)(void *ud, int rank, const tensor *t, int64_t peer, tensor **out, char *err,
                              size_t n);
    /* host: self.f(args..., device=dev): queues f on device dev; dirs[i]
     * is f's parameter i's direction (EXEC_ARG_*), which orders the tasks
     * as the runtime's tensor tags do (read-after-write, write-after-write) */
    ptodb_status (*dispatch)(void *ud, int64_t dev, int fn, const value *args, const int *dirs, uint32_t nargs,
                             int line, int col, char *err, size_t n);
    /* host: a host-level collective (builtin.tensor.* with its device, or
     * an un-lowered pld.tensor.* composite for every member: dev -1) queued
     * on the devices' task queues */
    ptodb_status (*host_collective)(void *ud, int64_t dev, const exec_collective_call *call, char *err, size_t n);
    /* rank: one arrival at a collective. *done 0: not every member is there
     * yet (the op blocks and re-runs); 1: applied. */
    ptodb_status (*collective)(void *ud, int rank, const exec_collective_call *call, int *done, char *err,
                               size_t n);
    /* the deadlock report's facts: a notify into a cell (peer's), a wait
     * that found its cell unsatisfied */
    void (*note_notify)(void *ud, int rank, const tensor *cell, int64_t peer, int64_t value, int op, int line,
                        int col);
    void (*note_wait)(void *ud, int rank, const tensor *cell, int64_t expected, int cmp, int line, int col);
    /* a wait found its cell satisfied: what the notifiers did before their
     * notify happens before what this rank does next */
    void (*note_acquire)(void *ud, int rank, const tensor *cell);
    /* pld.system.defer_wait found its cell unsatisfied: rank's running task
     * completes (its dependents may start) only once cell >= expected,
     * compared unsigned; the kernel goes on and its core is freed at its end
     * (distributed_ops.md:603-642, system.cpp:255-298) */
    ptodb_status (*defer_wait)(void *ud, int rank, const tensor *cell, int64_t expected, int line, int col,
                               char *err, size_t n);
    /* a remote access (view: the region of the peer's window) for the race
     * check: write (remote_store, put) or read (remote_load, get) */
    void (*note_access)(void *ud, int rank, const tensor *view, int write, int atomic, int line, int col,
                        const char *op);
    /* system.fence (EXEC_MARK_FENCE) or system.cacheinvalid, of a region
     * (t its tensor, NULL when the dump names none the machine can see) or
     * of the whole GM, ran on rank: for the data-before-signal contract
     * (PyPTO docs/en/dev/passes/46-insert_comm_fence.md) */
    void (*note_marker)(void *ud, int rank, int kind, const tensor *t, int line, int col);
} exec_comm;

#endif

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

/* A host tensor region a task reads or writes: its tag for ordering. */
typedef struct ranks_access {
    const tensor_storage *s;
    int64_t lo, hi; /* bytes */
    int writes;
} ranks_access;

typedef struct ranks_task {
    ranks_task_kind kind;
    int fn;          /* CALL: the function */
    value *args;     /* CALL: translated to the rank's windows */
    uint32_t nargs;
    exec_collective_call call; /* COLLECTIVE: its tensors are the rank's (references held) */
    /* ordering, as the runtime's DAG: a task enters its rank's FIFO once
     * every task it depends on has finished */
    size_t id;       /* submission order */
    int line, col;   /* the host orchestrator's dispatch (or collective) */
    int rank;
    int done, queued;
    ranks_access *acc;
    size_t nacc;
    size_t *deps;
    size_t ndeps;
    /* pld.system.defer_wait's conditions: the task left its FIFO (its core
     * is free: retired) but is done only once every cell holds >= its
     * expected value, compared unsigned */
    struct ranks_defer {
        const tensor_storage *s;
        int64_t elem, expected;
        int line, col;
    } *defers;
    size_t ndefers;
    int retired;
} ranks_task;

typedef enum {
    /* PyPTO #2398 (e2d0f78, distributed_codegen.cpp:1173-1186): every comm
     * dispatch of a rank and domain is INOUT on an ordering token, so a
     * rank's comm dispatches run in program order */
    RANKS_ORDER_PROGRAM,
    /* before it: dependencies from tensor tags only (windows carry none),
     * a task routed to its rank's FIFO as soon as it is ready: a wait-only
     * dispatch can run ahead of its rank's own send (issue #2397) */
    RANKS_ORDER_READY
} ranks_order;

typedef struct ranks_world ranks_world;

/* A world for the ranks, devices and domains of r (borrowed; it outlives
 * the world). */
ranks_world *ranks_world_new(const case_ranks *r, ranks_order order);
void ranks_world_free(ranks_world *w);

const exec_comm *ranks_world_host_comm(ranks_world *w);
const exec_comm *ranks_world_rank_comm(ranks_world *w, int rank);
int ranks_world_nranks(const ranks_world *w);

/* Rank's next task (NULL when its FIFO is empty), and its end (what
 * depended on it may become ready). pending counts the rank's tasks not
 * finished, queued or not. */
ranks_task *ranks_world_next_task(ranks_world *w, int rank);
void ranks_world_pop_task(ranks_world *w, int rank);
size_t ranks_world_pending(const ranks_world *w, int rank);
/* Rank's unfinished tasks in submission order: up to max into out; the count. */
size_t ranks_world_unfinished(const ranks_world *w, int rank, const ranks_task **out, size_t max);

/* Completes the retired tasks whose deferred conditions hold now (a notify
 * changed a cell): the schedule calls it before every step. */
void ranks_world_poll(ranks_world *w);
/* Rank's retired tasks whose deferred completion still waits, one line
 * each ("a task ... retired at ...: its completion waits on ..."); the count. */
size_t ranks_world_describe_deferred(const ranks_world *w, int rank, const char *path, strbuf *out);

/* A rank made progress: it no longer waits on a cell. */
void ranks_world_clear_wait(ranks_world *w, int rank);
/* The wait rank is parked at, described for a deadlock report ("signal_buf
 * element 0 of rank 0: expects >= 1, holds 0; last notified by rank 1 at
 * 12:9 (AtomicAdd 1)" or "... nobody notified it"); 0 when the rank waits
 * on no cell (a collective's rendezvous: described too). */
int ranks_world_describe_wait(const ranks_world *w, int rank, strbuf *out);
/* Signals left non-zero at the end of the run. The runtime frees a comm
 * domain's windows after the run's completion fence and zeroes them at the
 * next allocation (simpler docs/comm-domain.md:158-175, 197-200, 221-230),
 * so the residue of a handshake (a cell its wait checked, as
 * ../shared/multirank's dist_notify_wait leaves it) is no fault; a cell
 * left non-zero that no wait of the run ever checked is a notify nobody
 * synchronised on (MUST's message pending at MPI_Finalize): the first such
 * cell, "path:line:col: lost notify: ..." at its last notify, in out; 0 when
 * none. Collectives check their own signals at the rendezvous (all zero:
 * distributed_ops.md:142-183). */
int ranks_world_lost_notify(const ranks_world *w, const char *path, strbuf *out);

/* The notifier (rank) of the cell rank's last satisfied wait acquired,
 * once (then -1): for the debugger's notify -> wait arrows. */
int ranks_world_take_acquired(ranks_world *w, int rank);

/* A signal cell (an INT32 element of a window a notify, wait or collective
 * touched) as the debugger shows it. */
typedef struct ranks_signal_cell {
    int owner;            /* the rank whose window holds it */
    const char *buffer;   /* the window buffer's name (the world's) */
    int64_t elem;         /* its element offset in the buffer (INT32 elements) */
    int64_t value;        /* now */
    int notified;         /* a notify reached it: the fields below say the last */
    int from, line, col, op; /* the notifier's rank, its statement, EXEC_NOTIFY_* */
    int64_t notify_value;
    uint64_t waiters;     /* bit r: rank r is parked waiting on it */
} ranks_signal_cell;
/* The cells notified or waited on so far, in first-touch order: up to max
 * into out; the count. */
size_t ranks_world_signal_cells(const ranks_world *w, ranks_signal_cell *out, size_t max);

/* The race check (vector clocks, FastTrack's epochs): happens-before comes
 * from each rank's program order, notify -> a wait it satisfies, the
 * collectives (a rendezvous orders all before all after, on every member)
 * and task dependencies; accesses are the comm ops' remote ones (exec_comm
 * note_access) and a rank's local reads and writes of its own windows
 * (ranks_world_local_access, from the machine's hooks). Unordered
 * overlapping accesses of two ranks, one of them a write, are a race; two
 * atomic adds are not. Signals (cells a notify or wait touches) are
 * synchronisation, not data. Local accesses are located after the step
 * that made them (ranks_world_stamp). */
void ranks_world_local_access(ranks_world *w, int rank, const tensor *t, int write);
/* The exact region of a local access (the machine's gm hook: tile.load's
 * window, tile.store's region). A window an op of the step reported so
 * (here, or as a put / get on the rank itself) has none of the step's
 * coarse accesses (ranks_world_local_access, a whole operand) recorded. */
void ranks_world_local_region(ranks_world *w, int rank, const tensor *region, int write);
void ranks_world_stamp(ranks_world *w, int rank, int line, int col);
/* Rank's next task starts: what its dependencies did happens before it. */
void ranks_world_task_start(ranks_world *w, int rank);
/* The first race, "path:line:col: race on window ..." in out; 0 when none. */
int ranks_world_race(const ranks_world *w, const char *path, strbuf *out);

/* The data-before-signal contract (ranks/fence.h) is checked from now on:
 * for the passes from the case's InsertCommFence on, where PyPTO has
 * inserted the markers it asks for. */
void ranks_world_check_fences(ranks_world *w);
/* Its first breach, "path:line:col: fence contract: ..." in out; 0 when
 * none (or not checked). */
int ranks_world_fence_breach(const ranks_world *w, const char *path, strbuf *out);

/* The faults found so far, as bits (the first of each kind is kept: its
 * report is ranks_world_race's, ranks_world_fence_breach's), for a
 * debugger's catchpoints: a new bit after a step is that step's fault. */
enum { RANKS_FAULT_RACE = 1, RANKS_FAULT_FENCE = 2 };
unsigned ranks_world_faults(const ranks_world *w);

/* Rank's view (dt, shape, from the start) of window buffer handle, as a
 * dispatch hands it over: for tests and the debugger. NULL when the rank is
 * not in the buffer's domain or the view does not fit. */
tensor *ranks_world_rank_window(ranks_world *w, int64_t handle, int rank, dtype_id dt, int nd, const int64_t *shape);

#endif

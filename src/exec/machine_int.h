/* Internals shared by machine.c, exec_ctx.c, xcore.c and xcore_ops.c. */
#ifndef PTODB_EXEC_MACHINE_INT_H
#define PTODB_EXEC_MACHINE_INT_H

#include <stdint.h>

#include "base/strbuf.h"
#include "exec/machine.h"
#include "exec/prov.h"
#include "exec/semantics.h"
#include "exec/tasks.h"
#include "exec/xcore.h"
#include "exec/memcheck.h"
#include "exec/gmrace.h"

enum { XLOOP_CARRIES = 8 };

typedef struct xloop {
    int64_t cur, stop, step;
    int64_t outer_block, outer_blocks; /* an SPMD launch's: the frame's block before it */
    uint64_t order_a, order_c;         /* an SPMD launch's block order: (a*i + c) mod N */
    /* the first iter_args' tiles at the loop's start (their init values'),
     * for the yield's move before MemoryReuse (exec_memcheck_yield_carry) */
    uint32_t carry_tile[XLOOP_CARRIES];
    int32_t carry_core[XLOOP_CARRIES];
} xloop;

typedef struct xframe {
    const xfunc *fn;
    value *slots;
    xloop *loops;
    value *dyns; /* program dyns bound in this frame (Orchestration) */
    uint32_t pc;
    /* Where this frame is in the run, for program points (exec/inspect.h):
     * the how-manieth call of fn on its core (from 0), and the statements
     * it has completed (a call completes when it returns). */
    uint32_t activation;
    uint64_t local_steps;
    /* The SPMD block this frame runs (get_block_idx) and its launch's
     * width (get_block_num): inherited from the caller, set by a launch. */
    int64_t block_idx, block_num;
} xframe;

typedef enum {
    CORE_IDLE,       /* not started / not part of the running group */
    CORE_READY,
    CORE_BLOCKED,
    CORE_WAIT_GROUP, /* host waiting for its group call */
    CORE_DONE,
    CORE_FAILED
} core_state;

struct core;

struct exec_ctx {
    struct machine *m;
    struct core *core;
    exec_profile_id profile;
    strbuf err;          /* the failing op's message */
    int err_set;
    /* set by a blocking op before it returns PTODB_BLOCKED */
    xqueue *wait[2];
    int nwait;
    int wait_room; /* 1: waiting for room to push (bounded queues), 0: for an item */
    char wait_what[48]; /* "tpop_from_aiv" (the debugger shows it) */
    char wait_op[48];   /* "tpop_from_aiv" */
    char wait_args[48]; /* "split=1, lane=0" */
    /* set by the machine when an evaluation fails */
    const ir_expr *fail_at;
    int ref_fail;
    const char *ref_note; /* exec_note_ref_cannot_run's message (static), until eval_op takes it */
    int differs_id;           /* exec_note_ref_differs's (-1: none), until eval_op takes it */
    const char *differs_what; /* its message (static) */
    int raced;                /* the op's GM access raced (exec/gmrace.h), until eval_op reports it */
};

typedef struct core {
    int id;      /* exec_core_id */
    int lane;    /* subblock idx */
    int in_group;
    /* device semantics, set at a group start: */
    int whole;   /* the whole vector side of a split kernel not yet halved
                    (its split pushes/pops carry both lanes' halves) */
    int replay;  /* lane 1 of a no-split dual-dispatch kernel on 910B: its
                    tile.store writes nothing (SplitVectorKernel's replay) */
    core_state state;
    xframe *frames;
    int depth, cap;
    int kept;    /* done: frames[0] is the outermost function's last frame,
                    kept for the debugger (inspect_frames), freed on the next
                    call into this core or a reset */
    uint32_t *calls; /* per function of the program: frames pushed on this core so far */
    value result;
    struct exec_ctx ctx;
    xrt *rt;     /* the queues this core's cross-core ops use */
    uint64_t blocked_since;
    char wait_what[48];
    char wait_op[48];
    char wait_args[48];
    xqueue *wait[2];
    int nwait;
    int wait_room;
    int at_barrier; /* a group core waiting at a system.syncall (exec/barrier.c) */
    gmrace_clock race_clock; /* its clock in the GM race check (exec/gmrace.h) */
} core;

typedef struct group_run {
    int active;
    int split_aiv;        /* a split_aiv kernel run on two lanes (no AIC) */
    const xfunc *g;       /* the group function (or the split_aiv kernel) */
    int lanes;
    int order[3];         /* core ids in scheduling order */
    int ncores;
    int cur;              /* index into order */
    int started;          /* a core of the group has run a statement (fixed_pick) */
    /* device semantics, a Group function's launch from its frame on the
     * host (g->dev): the XI_CALLs of that frame the AIC's and AIV lane 0's
     * results bind to (-1: none), and the pc the frame goes on at; resume_pc
     * -1: the launch is the host's current call (the result binds there) */
    int32_t bind_aic_pc, bind_aiv_pc, resume_pc;
    int fork;             /* the lanes run an XI_FORK scope of the host's frame:
                             lane 0's slots go back to it at the end */
    int direct;           /* a kernel the host calls directly, or a fork: not one
                             of REF's mixed-kernel groups (errors are not
                             wrapped in "Mixed-kernel execution failed") */
    /* the GM race check's launch (exec/gmrace.h): 0 when not checked */
    uint64_t race_instance;
    uint32_t race_rec;
    int64_t race_block;
    int race_twin;
    xrt rt;
} group_run;

/* A block of an SPMD launch parked at a system.syncall (exec/barrier.c):
 * the launch frame's state (slots, loops, pc) and the frames it had
 * called, the innermost last, its pc after the syncall. */
typedef struct spmd_park_group spmd_park_group;

typedef struct spmd_park {
    int nframes;
    xframe *frames; /* frames[0]: the launch frame's; every array owned */
    core_state state; /* the launch core's on resuming */
    /* the group run the block waited for, its cores at the syncall or done;
     * NULL when the syncall was on the launch's core itself */
    spmd_park_group *group;
} spmd_park;

/* A parked group run: its fields (its queues were empty: their arrays are
 * the live run's, not this copy's) and its cores' (in grp.order) as they
 * were, their frames and results owned. */
struct spmd_park_group {
    group_run grp;
    core cores[3];
    void *mem; /* its cores' on-chip memories (memory model on), or NULL */
};

/* The SPMD launch running on the host core under device semantics and the
 * blocks parked at its barrier, resumed first in, first out: every block
 * reaches a barrier before any goes past it (exec/barrier.c). */
typedef struct spmd_barrier {
    int active;
    int core, depth; /* the launch's core and its frame's index */
    uint32_t head;   /* the launch's FOR_NEXT */
    int32_t loop;    /* its loop in that frame (a resumed block keeps the live one) */
    spmd_park *parks;
    size_t first, n, cap; /* parks[first..n) wait */
} spmd_barrier;

struct machine {
    const xprogram *p;
    machine_options opt;
    core cores[EXEC_NCORES];
    group_run grp;
    spmd_barrier bar;     /* system.syncall in an SPMD launch (exec/barrier.c) */
    xrt global_rt;        /* cross-core ops outside group runs */
    strbuf error;
    int error_ref;
    char *ref_note;       /* "line:col: message" of the first op REF cannot run, or NULL */
    /* device semantics: the first place of each kind where REF differs,
     * "line:col: what (REF would ...)" (semantics.h), or NULL */
    char *differs[EXEC_SEMDIFF_COUNT];
    uint64_t next_task;   /* pl.submit's tasks so far: the next TaskId */
    exec_tasks *taskgraph; /* device semantics: the manual scopes' race check (exec/tasks.h) */
    int finished;
    uint64_t steps;
    double deadline;      /* CLOCK_MONOTONIC seconds (opt.time_limit > 0) */
    uint64_t block_seq;
    uint64_t rng;
    const core *running;  /* the core executing a statement, for mem_where */
    int where_token;      /* mem_where_push_fn's */
    machine_write_hook hook;
    void *hook_ud;
    machine_read_hook read_hook; /* NULL: operands are not reported */
    void *read_hook_ud;
    machine_gm_hook gm_hook;     /* NULL: exact regions are not reported */
    void *gm_hook_ud;
    int gm_hook_paused;          /* a multi-rank op runs a tile op on a window */
    value scratch_none;
    exec_prov *prov;      /* NULL unless opt.provenance */
    exec_memcheck *mem;   /* NULL unless opt.memcheck */
    exec_gmrace *race;    /* device semantics: the GM race check of a launch's cores */
    uint64_t race_serial; /* launches and SPMD launches so far (gmrace instances) */
    uint64_t race_spmd;   /* the running SPMD launch's instance, 0 when none */
    /* content versions of the storages ops write in place, from the first
     * snapshot on (snapshot.h); NULL before */
    struct exec_write_log *wlog;
    /* The schedule recorded (machine_schedule_record) or replayed
     * (machine_schedule_replay); NULL when not. play_cur caches the
     * replay's next decision (a cursor re-found by step after a restore),
     * play_used says the decision of the current step was taken, play_err
     * is a replay's refusal ("FILE:LINE: ..."). */
    struct exec_sched_pass *sched_rec;
    const struct exec_sched_pass *sched_play;
    size_t play_cur;
    int play_used;
    strbuf play_err;
};

/* Empties a core as a fresh run does: frames freed, result cleared, idle
 * (snapshot.c's restore). */
void machine_core_clear(core *c);

/* Frees a frame's arrays (not the frame). */
void machine_frame_free(xframe *f);

/* ---- system.syncall: the barrier of an SPMD launch (exec/barrier.c) ---- */

/* A launch starts in frame `depth` of core c: its FOR_NEXT is at head, its
 * loop is loop. */
void spmd_barrier_start(machine *m, const core *c, int depth, uint32_t head, int32_t loop);
/* A system.syncall on core c: parks the running block (its frames from
 * the launch's on) and sends the launch frame to its FOR_NEXT. 1 when it
 * parked, 0 when there is no launch to park in (the syncall does nothing). */
int spmd_barrier_park(machine *m, core *c);
/* A group core at a system.syncall inside the running launch: 1 when it
 * waits there for the launch's other blocks (it stops, at_barrier). */
int spmd_barrier_group_waits(machine *m, core *c);
/* No core of the running group can go on and some wait at a syncall:
 * parks the block with its group run (1), or 0; -1 with m->error set when
 * a cross-core queue still holds items. */
int spmd_barrier_park_group(machine *m);
/* At the launch's FOR_NEXT after its last block: resumes the first parked
 * block (1), or ends the launch (0). */
int spmd_barrier_resume(machine *m, core *c);
void spmd_barrier_clear(spmd_barrier *b);
/* The snapshot part (snapshot_parts.c) and the values the parks hold. */
void *spmd_barrier_save(const machine *m);
void spmd_barrier_restore(machine *m, const void *saved);
void spmd_barrier_saved_free(void *saved);
size_t spmd_barrier_saved_bytes(const void *saved);
void spmd_barrier_walk(const spmd_barrier *b, const xprogram *p, void (*fn)(void *ud, const value *v), void *ud);

/* An op wrote storage s in place: every variable of the run viewing it
 * (a tensor.slice's view, a reshape) holds other data now, so its
 * provenance goes (exec_note_write; provenance on). */
void machine_prov_drop_views(machine *m, const tensor_storage *s);

#endif

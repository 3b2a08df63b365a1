/* The global schedule of a multi-rank pass, one step at a time
 * (docs/multirank.md, "Running"): the host orchestrator has run (its
 * dispatches fill the ranks' FIFOs), then each ranks_sched_step runs one
 * statement (or one collective arrival) of the rank the schedule picks:
 * fixed (the lowest rank that can run, until it parks, finishes its work or
 * has run RANKS_SLICE statements) or, with --schedule random:SEED, a seeded
 * choice after every statement. --batch runs it to the end (run.c); the
 * debugger steps it and reads each rank's machine between steps. */
#ifndef PTODB_RANKS_SCHED_H
#define PTODB_RANKS_SCHED_H

#include "base/strbuf.h"
#include "data/rank_bind.h"
#include "exec/runpass.h"
#include "ranks/world.h"

typedef struct ranks_sched ranks_sched;

/* What the schedule did. */
typedef enum {
    RANKS_STEP_RAN,      /* rank *rank made progress: ev is its machine's event (EXEC_EV_NONE for a collective) */
    RANKS_STEP_PARKED,   /* rank *rank tried and is parked (a wait, a collective, tasks not ready) */
    RANKS_STEP_DONE,     /* every rank finished all its tasks */
    RANKS_STEP_DEADLOCK, /* no rank with work can move: the report is in err */
    RANKS_STEP_ERROR     /* a rank's statement failed: the message is in err */
} ranks_step_status;

/* What a rank is doing between steps. */
typedef enum {
    RANKS_RANK_IDLE,     /* no task started yet, or between tasks */
    RANKS_RANK_RUNNING,  /* a task runs on its machine */
    RANKS_RANK_PARKED,   /* its last attempt parked (a wait, a collective, tasks not ready) */
    RANKS_RANK_FINISHED  /* its FIFO ran dry with nothing pending */
} ranks_rank_state;

/* Binds the host orchestrator's parameters (p's level=HOST function) to
 * c's per-rank data, runs it, and makes one machine per rank (p is
 * borrowed and must outlive the schedule). NULL with *fail set (RUNPASS_*)
 * and the message in err when the pass cannot start. */
ranks_sched *ranks_sched_new(const char *path, const xprogram *p, const case_info *c, const runpass_options *o,
                             strbuf *err, runpass_status *fail);
void ranks_sched_free(ranks_sched *s);

/* Hooks of the ranks' machines besides the race check's (a debugger's
 * watchpoints): called with the rank's index as `core`'s owner in rank. */
typedef void (*ranks_tensor_hook)(void *ud, int rank, int core, const tensor *t);
void ranks_sched_set_hooks(ranks_sched *s, ranks_tensor_hook on_write, ranks_tensor_hook on_read, void *ud);

/* One step of the global schedule (see the enum). */
ranks_step_status ranks_sched_step(ranks_sched *s, int *rank, exec_event *ev, strbuf *err);
/* Runs to the end: PTODB_OK, or the deadlock or error in err. */
ptodb_status ranks_sched_run(ranks_sched *s, strbuf *err);

/* The checks at the end of a run, each one report in out (first only):
 * a race on a window, a breach of the fence contract (from the case's
 * InsertCommFence on, with the memory model), then signals left non-zero. 1 when one is found. */
int ranks_sched_end_checks(ranks_sched *s, strbuf *out);
/* Each rank's outputs against data/out/rank<R>/ into r (outputs, all_pass). */
void ranks_sched_compare(ranks_sched *s, runpass_result *r);

int ranks_sched_nranks(const ranks_sched *s);
ranks_world *ranks_sched_world(ranks_sched *s);
/* Rank r's machine (its current task's frames; none between tasks). */
machine *ranks_sched_machine(ranks_sched *s, int r);
ranks_rank_state ranks_sched_rank_state(const ranks_sched *s, int r);
/* Rank r's last event (its location when parked). */
const exec_event *ranks_sched_last_event(const ranks_sched *s, int r);
/* Statements of the host orchestrator and every rank so far. */
uint64_t ranks_sched_steps(const ranks_sched *s);
/* The host parameters' bindings (np entries), for the debugger's outputs. */
const case_rank_binding *ranks_sched_bindings(const ranks_sched *s, size_t *np);
/* The pass file, as reports name it. */
const char *ranks_sched_path(const ranks_sched *s);

#endif

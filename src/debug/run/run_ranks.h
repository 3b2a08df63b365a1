/* The multi-rank run's moves and its time (run_ranks.c), for time travel
 * (timetravel.c): one move of the global schedule with the debugger's
 * bookkeeping, and going to move N by re-execution. */
#ifndef PTODB_DEBUG_RUN_RANKS_H
#define PTODB_DEBUG_RUN_RANKS_H

#include <stdint.h>

#include "base/strbuf.h"
#include "debug/run/run.h"
#include "debug/run/stop.h"
#include "ranks/sched.h"

/* What one move did. */
typedef struct run_ranks_step {
    ranks_step_status st;
    int rank;          /* the rank the schedule picked */
    exec_event ev;     /* its machine's event (EXEC_EV_NONE: a task's start or a collective) */
    int started;       /* the move started a task on the rank's host */
    int stopped;       /* decide: a breakpoint or watchpoint stops here; chain is the stop (rank's machine current) */
    stop_chain chain;
} run_ranks_step;

/* One call of ranks_sched_step with the per-rank tables kept (depths,
 * parked marks, arrivals, the timeline, the move count). decide: also the
 * stops a forward run decides (breakpoints and watchpoints per rank, a
 * peer's watched window; until_line for the selected rank's RUN_UNTIL).
 * Unless it stopped, the selected rank's machine is current after it. */
void run_ranks_move(session *s, int decide, int until_line, run_ranks_step *mv, strbuf *err);
/* Goes to move n of the running pass: from its start again (a fresh
 * schedule with the run's options, the tables re-derived) when n is
 * behind now, then moves forward. 0 there; 1 the pass ended or failed
 * first (r->finished, r->failed; no report); -1 interrupted. Watchpoints
 * are not primed (run_ranks_watch_reprime). */
int run_ranks_goto(session *s, uint64_t n);
/* One move without stops (a replay): 1 a rank moved or parked, 0 the pass
 * ended or failed (r->finished, r->failed set; no report). */
int run_ranks_advance(session *s);
/* Makes rank's machine, arrivals and watch values the current ones (the
 * selection stays: r->rank). */
void run_ranks_use(session *s, int rank);
/* Every watchpoint starts again from what its ranks hold now. */
void run_ranks_watch_reprime(session *s);
/* A hash of every rank's machine state (the tests' oracle). */
uint64_t run_ranks_state_hash(session *s);

#endif

/* Time travel in the debugger's run (timetravel.c, docs/time-travel.md):
 * one time coordinate, checkpoints, and going back.
 *
 * The machine is deterministic, so the run's history is its step count
 * plus the steps the debugger forced on one core (`step` on a core runs
 * that core, not the scheduler's pick): the recorded schedule. Going to any
 * earlier step restores the nearest earlier checkpoint (a machine snapshot
 * with the debugger's per-run tables) and runs forward along the history.
 * Forward commands behind the history's end follow it too, as rr's replay
 * does, so a reverse-step followed by a step comes back to the same state.
 *
 * A position names one moment a user can see: PASS:CORE:CALL:LINE:ITER,
 * the pass's index, the core, the call of the core's current function on
 * that core (from 1), the line of the statement about to run, and the
 * how-manieth arrival of the core at that statement in that call (from 1).
 * `@STEP` (the machine's statement count, rr's event) names one too.
 *
 * A multi-rank run (run_ranks.h) has one time for all its ranks: the
 * global schedule's move count (`@STEP`), and a position names the rank,
 * PASS:RANK:CORE:CALL:LINE:ITER with RANK as rN. It goes back by
 * re-execution from the pass's start (the schedule is deterministic),
 * without checkpoints.
 *
 * Front-end neutral: everything prints through the session. */
#ifndef PTODB_DEBUG_TIMETRAVEL_H
#define PTODB_DEBUG_TIMETRAVEL_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "debug/run/run.h"
#include "exec/machine.h"

/* ---- for run.c ---------------------------------------------------------------------------- */

/* One machine step of the debugger's run: behind the history's end the
 * recorded one; past it core's statement (core >= 0, machine_step_core) or
 * the scheduler's (-1), recorded. Takes the automatic checkpoints. */
ptodb_status tt_step(session *s, int core, exec_event *ev);
/* The run's state changed outside the history (set var): the history
 * before now can no longer be replayed to now; it is dropped. */
void tt_forget(session *s);
void tt_free(run_state *r);

/* ---- the engine (commands, DAP) ------------------------------------------------------------ */

/* The current position "22:AIV0:3:143:2" of core `core` (-1: the selected
 * core) into buf; 0 when the run has none. A position names the moment of
 * the core's arrival there; when other cores moved since, "+D" follows
 * (D steps later: "22:AIV0:3:143:2+5"), so that every moment of the core
 * prints a position of its own. */
int tt_position(session *s, int core, char *buf, size_t size);
/* The machine's statement count (0 without a run). */
uint64_t tt_now(session *s);
/* The furthest step of the recorded history. */
uint64_t tt_horizon(session *s);
/* Moves the run to step `step` (restores and replays; past the history's
 * end runs the scheduler). 0 there; 1 the pass ended or failed first
 * (the run is where it stopped); -1 interrupted; -2 no run. Prints
 * nothing. */
int tt_goto_step(session *s, uint64_t step);
/* The position where frame `level` of `core` began: its call's first
 * statement, before it ran (the restart point of DAP's restartFrame, a
 * `seek` there); 0 when the frame has no statement. */
int tt_frame_start(session *s, int core, int level, char *buf, size_t size);
/* Parses a position or @STEP / STEP; 0 with the fields, -1 with a message
 * in err. The pass is the case's pass index. */
typedef struct tt_pos {
    int by_step;
    uint64_t step;
    int pass_index, core;
    int rank;       /* PASS:RANK:...: the rank (a multi-rank case), -1 the selected one */
    uint32_t call, iter;
    int line;
    uint64_t after;  /* ITER+D: the moment D after that arrival (0: the arrival) */
} tt_pos;
int tt_parse_position(session *s, const char *text, tt_pos *out, char *err, size_t errsize);
/* Moves the run to a position of the running pass. 0 there, 1 never
 * reached (the run is at the end of its history), 2 the core's arrival is
 * there but it moved on before +D (the run is at the arrival), -1
 * interrupted. */
int tt_goto_position(session *s, const tt_pos *p);

typedef enum { TT_REV_STEP, TT_REV_NEXT, TT_REV_FINISH, TT_REV_CONTINUE } tt_reverse_mode;
/* Runs backward: to the previous moment `step` (next, finish, continue)
 * would have stopped at going forward, and reports the stop (a watchpoint
 * with its Old and New values as seen going backward). `count` times for
 * step and next. */
ptodb_status tt_reverse(session *s, tt_reverse_mode mode, long count);

/* A user checkpoint at the current moment: its number (from 1), or -1. */
int tt_checkpoint_user(session *s);
/* info checkpoints' rows (present/run_listing.c): the next user
 * checkpoint from *cursor (0 at first; advanced), 0 after the last or
 * without a one-rank run. */
typedef struct tt_checkpoint_row {
    int user;      /* its number */
    uint64_t step; /* the moment it holds */
    int finished;  /* taken at the end of the pass */
} tt_checkpoint_row;
int tt_user_checkpoint(session *s, size_t *cursor, tt_checkpoint_row *row);
/* Goes to user checkpoint n and reports the stop. */
ptodb_status tt_restart(session *s, int n);
/* The bytes the checkpoints hold (own copies), shared copies, the live
 * tensors' bytes now, and how many checkpoints there are. */
void tt_memory(session *s, size_t *bytes, size_t *live, size_t *count);
/* 1 when core can run a statement now (not waiting, blocked or done). */
int tt_core_can_run(session *s, int core);
/* machine_state_hash of the run (0 without one): the tests' oracle. */
uint64_t tt_state_hash(session *s);

#endif

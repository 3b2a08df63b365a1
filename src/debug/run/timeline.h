/* The run's timeline of steps (timeline.c), read by view_timeline. */
#ifndef PTODB_DEBUG_TIMELINE_H
#define PTODB_DEBUG_TIMELINE_H

#include "debug/run/run.h"
#include "exec/machine.h"

/* Appends the step ev to the run's timeline (view.h's view_timeline). */
void run_timeline_note(session *s, const exec_event *ev);
/* Drops the entries after step `after` (the history they showed is gone). */
void run_timeline_cut(run_state *r, uint64_t after);
/* The same for rank's step in a multi-rank case (the step count is the
 * schedule's); notifier: for a wait that completed, the rank whose notify
 * it acquired (-1 none). */
void run_timeline_note_rank(session *s, int rank, int notifier, const exec_event *ev);

#endif

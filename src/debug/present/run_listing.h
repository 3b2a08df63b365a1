/* The listings of run control's state (run_listing.c): what `info
 * checkpoints`, `info ranks` and `queue show` print, read from run
 * control's queries (timetravel.h, run.h). */
#ifndef PTODB_DEBUG_RUN_LISTING_H
#define PTODB_DEBUG_RUN_LISTING_H

#include "debug/state/session.h"

/* The user checkpoints, then the automatic ones' count and bytes. */
void present_checkpoints(session *s);
/* info ranks' part while a multi-rank run exists: each rank's state,
 * verdict, tasks left, where it is and what a parked one waits for. */
void present_ranks(session *s);
/* queue show's part in a multi-rank run: the signal cells. */
void present_signal_cells(session *s);

#endif

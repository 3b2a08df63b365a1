/* The background validation's side of the per-pass table (validate_bg.c). */
#ifndef PTODB_DEBUG_VALIDATE_BG_IMPL_H
#define PTODB_DEBUG_VALIDATE_BG_IMPL_H

#include "data/case.h"
#include "debug/state/session.h"

/* validate_bg.c: the open case with the session's tolerances (`set rtol`)
 * where the manifest gives none; borrows all but c->outputs (free it). */
void session_case_with_tols(const session *s, case_info *c);
/* Records a verdict the batch engine found for pass (background validation,
 * bisect) in the per-pass table, without output tensors: per output its
 * max_abs_diff, margin (exec_compare_result.margin) and ok; memfault: the
 * pass had memory faults (its verdict is MEMFAULT); unchecked: it failed as
 * its file does not check (it never ran). */
void session_note_verdict(session *s, int pass, int failed, int same_as, int nout, const double *max_abs_diff,
                          const double *margin, const int *ok, int memfault, int unchecked);

/* The divergence engine's answer (bisect.h with its statement search,
 * diverge.h) for pass (an index of the case's passes): the statement's
 * line and rank, its reason and the engine's report text, whose first
 * "first divergence:" and "reason:" lines the front ends show (the TUI's
 * first screen, the DAP server's stop). view_divergence reads it. */
void session_note_divergence(session *s, int pass, int line, int rank, int reason, const char *report);

#endif

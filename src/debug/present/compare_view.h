/* The debugger's last `compare B`, kept in the session for the front ends
 * (view_compare_get in debug/view.h): the aligned passes of A (the open
 * case) and B with their verdicts, the first pair whose outputs differ and
 * its first differing statement. Replaced by the next compare, dropped
 * when another case is opened. */
#ifndef PTODB_DEBUG_COMPARE_VIEW_H
#define PTODB_DEBUG_COMPARE_VIEW_H

#include "batch/compare.h"
#include "data/case.h"
#include "debug/state/session.h"

struct session_compare;

/* Keeps what r says about a and b (copies: r, a and b may go). */
void compare_view_set(session *s, const case_info *a, const case_info *b, const compare_result *r);
void compare_view_free(struct session_compare *c);

#endif

/* The divergence engine (issue #40, docs/faults.md): one answer to "which
 * statement of which pass first computes the wrong value", for every
 * command that asks it (bisect, --compare and the debugger's compare, why).
 *
 * Given the failing pass file and a reference (the last passing pass of the
 * same case, or the same pass of another build), diverge_find names the
 * first statement whose value goes wrong and a reason in one vocabulary:
 *
 *   op          the value is beyond tolerance while every value before it
 *               agrees (or the statement's op changed)
 *   branch      another branch is taken: the if and its condition
 *   loop        another trip count or step: the loop header
 *   region      another region read or written: the load or store
 *   lane/core   another lane's or core's data: the statement on its own
 *               core (a lane-1 load, a push or pop whose split= changed)
 *   memfault    the writing statement and the live tile it clobbered
 *   error/deadlock  the statement where the run stops, with waiting cores
 *   not-written the store that no longer writes the output's region
 *   nan         a NaN or Inf appears where the reference has none
 *   value       a value differs and no more can be said
 *
 * It composes the pieces that were each command's own: the traced
 * statement search (divergence.h, in execution order, matched by region,
 * provenance or keys), the dataflow chain (why.h why_refine_divergence:
 * the load or push a consumer only passes on, the header of a loop that
 * runs otherwise) and the memory sanitizer's first report. The answer is a
 * bisect_stmt; diverge_report_text is the one formatter of its lines. */
#ifndef PTODB_BATCH_DIVERGE_H
#define PTODB_BATCH_DIVERGE_H

#include "batch/divergence.h"

typedef enum diverge_reason {
    DIVERGE_NONE = 0,
    DIVERGE_OP,
    DIVERGE_BRANCH,
    DIVERGE_LOOP,
    DIVERGE_REGION,
    DIVERGE_LANE,
    DIVERGE_MEMFAULT,
    DIVERGE_ERROR,
    DIVERGE_NOT_WRITTEN,
    DIVERGE_NAN,
    DIVERGE_VALUE
} diverge_reason;

/* good: the reference; bad: the failing pass file. Fills s (cleared
 * first). good_pass/bad_pass: the passes' indices in their cases (-1: not
 * known), for positions in the chain. max_trace_bytes caps good's trace (0:
 * 1 GiB). */
void diverge_find(const divergence_side *good, const divergence_side *bad, int good_pass, int bad_pass,
                  const runpass_options *ro, double rtol, double atol, size_t max_trace_bytes, bisect_stmt *s);

/* diverge_find that hands over the dataflow logs of both passes (to their
 * ends, nothing captured: why.h why_refine_divergence's) in keep_bad and
 * keep_good, for the caller to free (why_log_free); zeroed when it made
 * none. The search's traced runs make them (divergence_find_logged: one
 * run of each pass for the trace and the log), else its chain step runs
 * them when it needs them. `why` asks the same chain of the same logs. */
struct why_log;
void diverge_find_keep_logs(const divergence_side *good, const divergence_side *bad, int good_pass, int bad_pass,
                            const runpass_options *ro, double rtol, double atol, size_t max_trace_bytes,
                            bisect_stmt *s, struct why_log *keep_bad, struct why_log *keep_good);

/* "op", "branch", ..., "-" for DIVERGE_NONE. */
const char *diverge_reason_word(int reason);

/* The "first divergence: ..." lines (every command's). */
void diverge_report_text(const bisect_stmt *s, const char *good_stem, const char *bad_stem, double rtol,
                         double atol, strbuf *out);

#endif

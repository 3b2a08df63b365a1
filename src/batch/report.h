/* Text reports of a batch: the tolerances in use, each pass's lines in
 * exactly the form `ptodb --run` prints them (REF's validator lines, so logs
 * can be diffed), optional metrics and heat maps, and a summary table. */
#ifndef PTODB_BATCH_REPORT_H
#define PTODB_BATCH_REPORT_H

#include "base/strbuf.h"
#include "batch/batch.h"

typedef struct report_counts {
    size_t passed, failed, not_run;
    size_t errors;     /* pass files that do not check: never ran (not in failed) */
    int first_failing; /* the first pass that did not pass (failed or in error), -1 */
} report_counts;

/* "tolerances: rtol=5e-2 (PyPTO validate default), ..." and per output
 * where they differ from the global ones. */
void report_header(const batch *b, strbuf *out);
/* Pass i's lines (i must have been evaluated). */
void report_pass(const batch *b, size_t i, int metrics, int heatmap, strbuf *out);
/* The lines REF prints for output k of pass i: its validate line and the
 * mismatch summary under it, or why REF's compare itself would raise. */
void report_output_lines(const batch *b, size_t i, size_t k, strbuf *out);
/* The unified diff of the last passing pass before the first failing one
 * (*from) against that failing pass (*to); -1 when there is no such pair
 * (nothing fails, or nothing passes before it) or a file cannot be read. */
int report_ir_diff(const batch *b, int *from, int *to, strbuf *out);
/* Verdict word of a pass: PASS, FAIL, MEMFAULT, REF-FAIL, ERROR, -. */
const char *report_verdict(const batch_pass *p);
void report_count(const batch *b, report_counts *rc);
/* How the summary names report_counts' first_failing pass i: "first failing
 * pass", or "first pass in error" when its file does not check. */
const char *report_first_bad_word(const batch *b, int i);
/* A pass's margin: the largest exec_compare_result.margin over its outputs
 * (the worst element's |diff| as a fraction of its tolerance; NaN when one
 * is NaN or an output cannot be compared; 0 without outputs). */
double report_pass_margin(const batch_pass *p);
/* The table (pass, verdict, max_abs_diff per output, margin, steps, time)
 * and a totals line. */
void report_summary(const batch *b, double wall_seconds, strbuf *out);
/* Shortest round-trip form of a tolerance ("5e-2" style as %g). */
void report_format_tol(double v, char *buf, size_t size);

#endif

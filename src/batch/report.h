/* Text reports of a batch: the tolerances in use, each pass's lines in
 * exactly the form `ptodb --run` prints them (REF's validator lines, so logs
 * can be diffed), optional metrics and heat maps, and a summary table. */
#ifndef PTODB_BATCH_REPORT_H
#define PTODB_BATCH_REPORT_H

#include "base/strbuf.h"
#include "batch/batch.h"

typedef struct report_counts {
    size_t passed, failed, not_run;
    int first_failing; /* pass index, -1 */
} report_counts;

/* "tolerances: rtol=5e-2 (PyPTO validate default), ..." and per output
 * where they differ from the global ones. */
void report_header(const batch *b, strbuf *out);
/* Pass i's lines (i must have been evaluated). */
void report_pass(const batch *b, size_t i, int metrics, int heatmap, strbuf *out);
/* Verdict word of a pass: PASS, FAIL, REF-FAIL, ERROR, -. */
const char *report_verdict(const batch_pass *p);
void report_count(const batch *b, report_counts *rc);
/* The table (pass, verdict, max_abs_diff per output, steps, time) and a
 * totals line. */
void report_summary(const batch *b, double wall_seconds, strbuf *out);
/* Shortest round-trip form of a tolerance ("5e-2" style as %g). */
void report_format_tol(double v, char *buf, size_t size);

#endif

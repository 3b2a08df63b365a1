/* First-divergence bisection over the passes of a case.
 *
 * Pass level: the verdict of a pass is "every output within tolerance of
 * its golden" (REF failures and errors count as failing). Assuming the
 * verdicts flip once from pass to fail, the first failing pass is found by
 * binary search between the first pass and the last one, in about log2(N)
 * evaluations. When the measured cost says a full scan of the remaining
 * passes fits the scan budget, every pass is validated to confirm it; if
 * the verdicts are not monotone, every pass -> fail flip is reported and
 * the first one is taken.
 *
 * Statement level: the first failing pass and the last passing pass before
 * it go to the statement-level divergence finder (divergence.h), the one
 * `--compare` uses between two builds. */
#ifndef PTODB_BATCH_BISECT_H
#define PTODB_BATCH_BISECT_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "batch/batch.h"
#include "batch/divergence.h"

typedef enum {
    BISECT_FOUND,       /* first_bad/last_good set */
    BISECT_ALL_PASS,    /* no failing pass (among those evaluated) */
    BISECT_FIRST_FAILS, /* the first pass already fails: nothing passes before it */
    BISECT_NO_PASSES,
    BISECT_INTERRUPTED  /* the options' machine interrupt flag was raised (a session's Ctrl-C) */
} bisect_status;

typedef struct bisect_result {
    bisect_status status;
    int first_bad, last_good;   /* pass indices, -1 when none */
    size_t probes;              /* passes the binary search looked at */
    int *probe_order;           /* those passes, in the order looked at */
    size_t nprobe;
    size_t runs;                /* pass files run for the search (identical files run once) */
    double search_seconds;
    int scanned;                /* every pass was validated */
    double scan_estimate;       /* predicted seconds of the full scan */
    double scan_budget;         /* the budget it was held against; < 0: no scan asked for */
    double scan_seconds;
    int monotone;               /* (scanned) verdicts pass...pass fail...fail */
    int bisect_first_bad;       /* what the search alone found (-1) */
    int *flips;                 /* (scanned) passes failing right after a passing one */
    size_t nflips;
    int *recoveries;            /* (scanned) passes passing right after a failing one */
    size_t nrecoveries;
    int stmt_done;
    bisect_stmt stmt;
} bisect_result;

typedef struct bisect_options {
    double scan_budget;  /* seconds a confirming full scan may take; < 0 never, 0: 3 s */
    int force_scan;      /* always scan (`bisect scan`, --bisect-scan) */
    int statement;       /* find the first differing statement */
    size_t max_trace_bytes; /* 0: 1 GiB */
} bisect_options;

void bisect_run(batch *b, const bisect_options *o, bisect_result *r);
void bisect_result_free(bisect_result *r);

/* The text report ("bisect: ..." lines). */
void bisect_report_text(const batch *b, const bisect_result *r, strbuf *out);

#endif

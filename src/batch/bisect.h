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
 * it are both run with a statement trace (trace.h); the first statement of
 * the failing pass, in execution order, whose tensor differs (beyond the
 * case's rtol/atol) from the tensor at the same program point of the
 * passing pass is reported with its file, line and tensor name. */
#ifndef PTODB_BATCH_BISECT_H
#define PTODB_BATCH_BISECT_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "batch/batch.h"

typedef enum {
    BISECT_FOUND,       /* first_bad/last_good set */
    BISECT_ALL_PASS,    /* no failing pass (among those evaluated) */
    BISECT_FIRST_FAILS, /* the first pass already fails: nothing passes before it */
    BISECT_NO_PASSES,
    BISECT_INTERRUPTED  /* the options' machine interrupt flag was raised (a session's Ctrl-C) */
} bisect_status;

enum { BISECT_MAX_LATER = 3 };
/* new `if` statements (no counterpart in the passing pass) whose decisions
 * are tested by inverting them, the latest before the divergence first */
enum { BISECT_MAX_NEW_IFS = 3 };

typedef struct bisect_stmt {
    int found;             /* a differing tensor was found (or, op_changed, a changed op) */
    int op_changed;        /* no value differed; the statement's op differs from the passing pass's */
    char *file, *func, *tensor;
    int line, core;
    int64_t block, blocks; /* the SPMD block of the differing value, of how many (0 of 1: no launch) */
    char *good_file, *good_func, *good_tensor;
    int good_line;
    char *region;          /* matched by this GM region ("c[16:32, 0:64]"), else NULL */
    int by_provenance;     /* matched by provenance: the same data by the same ops (exec/prov.h) */
    size_t provenance;     /* of the tensors compared, those matched by provenance */
    double max_abs_diff;
    double max_golden;     /* the largest |value| of the passing pass's tensor */
    int64_t outside, count, first_bad;
    double actual_at, good_at;  /* values at first_bad */
    size_t compared;       /* matched tensors compared (all within tolerance before this one) */
    size_t realigned;      /* of those, matched by another occurrence than the same-numbered one */
    size_t unmatched;      /* records of the failing pass with no counterpart */
    char *note;            /* why nothing was found, or the failing pass's error */
    /* the next differing statements (other lines), in execution order */
    int later_line[BISECT_MAX_LATER];
    char *later_tensor[BISECT_MAX_LATER];
    size_t nlater;
    char *op_now, *op_was;  /* the statement's op changed (within its kind): "sub", "add" */
    int earlier_line;       /* with op_now: a statement that differs before it, or 0 */
    char *earlier_tensor;
    /* found: the statement fails in the failing pass (note holds its error)
     * while the passing pass ran to its end; tensor is "" */
    int fails;
    /* found by a test, not by a match: the statement is an `if` with no
     * counterpart in the passing pass (the pass added it) that ran before
     * the first differing value, and the failing pass run again with its
     * condition inverted (the other branch at each of its new_if_runs
     * runs, new_if_then of which took the then branch) passes. tensor is
     * its branch record's name, the good_* fields are NULL; the first
     * differing value, if any, heads the later list. */
    int new_if;
    uint64_t new_if_runs, new_if_then;
    /* the first statement whose result differs from its counterpart at all
     * (bit for bit), when that is before the divergence (within tolerance) */
    int bit_line, bit_core;
    char *bit_tensor;
    int64_t bit_count, bit_numel;
    double bit_max;
} bisect_stmt;

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

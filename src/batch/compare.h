/* `ptodb --compare A B` and the debugger's `compare B`: two build folders
 * of one program (two compiler commits, or two cases) run in lockstep.
 * Their passes are aligned by name (the k-th pass of a name in A with the
 * k-th of that name in B; a pass present in one build only is listed),
 * each aligned pair is validated on both sides against its own golden
 * data, the outputs of A's pass and B's pass are compared with each other
 * (A's tolerances), and inside the first pair whose outputs differ the
 * statement-level divergence finder (divergence.h, bisect's) names the
 * first statement of B's file whose value differs from A's, with the
 * program-point wording (by region, by provenance, or a guess).
 * A is the reference, B the build under test. Files identical in both
 * builds (after their header line) against identical inputs give the same
 * outputs (the interpreter is deterministic): they are run once. */
#ifndef PTODB_BATCH_COMPARE_H
#define PTODB_BATCH_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "batch/divergence.h"
#include "data/case.h"
#include "exec/runpass.h"

typedef struct compare_side {
    int pass;              /* index in its case, -1: the pass is not in this build */
    int ran;               /* validated (passes in one build only are not run) */
    runpass_status status;
    int ok;                /* compared and every output within tolerance of its golden */
    char *message;         /* the error, when not compared */
    int reused;            /* the result of the previous pass of this build (same file body) */
    uint64_t memfaults;    /* the memory sanitizer's reports of the run */
} compare_side;

typedef struct compare_pair {
    char *name;            /* the pass name ("CanonicalizeIOOrder") */
    compare_side a, b;
    int same_file;         /* both present, identical after the header line, identical inputs */
    int differs;           /* the outputs of A and B differ (or one side fails where the other runs) */
    char *output;          /* differs: the first output that differs, or NULL when one side failed */
    int missing;           /* that output is not among B's (or has no value on one side) */
    int memfault_only;     /* the outputs agree; one side has memory faults, the other none */
    int no_outputs;        /* both sides ran and neither computed its outputs (each stopped:
                              an error, a deadlock, REF failing): nothing was compared */
    double max_abs_diff;
    int64_t mismatches, count;
} compare_pair;

typedef struct compare_result {
    compare_pair *pairs;   /* in A's order; B-only passes where they fall in B's order */
    size_t npairs;
    size_t aligned, only_a, only_b;
    size_t runs;           /* pass files run */
    double seconds;
    int first_diff;        /* index into pairs, -1: no difference */
    size_t failed_a, failed_b; /* aligned passes failing validation on that side */
    size_t no_outputs;     /* aligned passes with no_outputs */
    int first_no_outputs;  /* index into pairs of the first, -1: none */
    int interrupted;       /* the options' interrupt flag stopped it; no result */
    int stmt_done;
    bisect_stmt stmt;      /* the first differing statement of the first differing pair */
} compare_result;

/* Runs A's and B's passes with ro (one at a time) and fills r. */
void compare_run(const case_info *a, const case_info *b, const runpass_options *ro, compare_result *r);
void compare_result_free(compare_result *r);

/* 1 when the two builds' outputs agree on every aligned pass, every pass
 * validates on both sides and no pass is in one build only. */
int compare_all_same(const compare_result *r);

/* The text report (the pass table, then "compare: ..." lines). */
void compare_report_text(const case_info *a, const case_info *b, const compare_result *r, strbuf *out);
/* The JSON report (schema "ptodb-compare/1"). */
void compare_report_json(const case_info *a, const case_info *b, const compare_result *r, strbuf *out);
/* A self-contained HTML page (no script, no fetch). */
void compare_report_html(const case_info *a, const case_info *b, const compare_result *r, strbuf *out);

#endif

/* `ptodb reduce CASE`: from the first failing pass N and the last passing
 * pass before it, the smallest pair of pass files that still shows the
 * same divergence (reduce_oracle.h's fingerprint, checked at every step:
 * no slippage), and whose difference (lines differing between the two
 * files) is no larger than the original pair's: the pair stays the pass's
 * input and output, neither file is reduced away from the other. The transformations (reduce_edit.h) run coarse to fine,
 * round after round until a round changes nothing (then no single unit of
 * any transformation can go: the result is 1-minimal for each) or the
 * budget is spent. Deterministic: the same case and options give the same
 * steps and the same result. The best pair so far is always on disk as a
 * case folder (reduce_case.h), rewritten after every accepted step, each
 * file atomically; an interrupt (the stop flag) ends the search between two
 * steps, so the folder is always a valid case. */
#ifndef PTODB_BATCH_REDUCE_H
#define PTODB_BATCH_REDUCE_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "batch/reduce_edit.h"
#include "batch/reduce_oracle.h"
#include "data/case.h"
#include "exec/runpass.h"

typedef struct reduce_options {
    int pass;              /* the failing pass's NN, or -1: bisect finds it */
    double budget;         /* seconds (0: 600) */
    const char *out_dir;   /* the reduced case (never inside a case folder: the caller checks) */
    runpass_options ro;
    const volatile sig_atomic_t *stop;
    int fingerprint_only;  /* find the pair and its fingerprint, search nothing, write nothing */
    int lines_baseline;    /* plain line-level ddmin instead of the transformations (for comparison) */
    FILE *progress;        /* one line per accepted step, or NULL */
    const char *command;   /* the command line, for the README */
} reduce_options;

typedef struct reduce_counts {
    size_t tried, accepted, invalid, uninteresting, cached;
} reduce_counts;

typedef struct reduce_result {
    char *error;           /* set when no reduction could start */
    int good, bad;         /* pass indices in the case */
    reduce_fp fp;
    size_t stmts_before[2], stmts_after[2];  /* [0] passing file, [1] failing file */
    size_t bytes_before[2], bytes_after[2];
    long diff_before, diff_after; /* lines differing between the two files (never more after) */
    reduce_counts counts[REDUCE_KIND_COUNT + 1]; /* [REDUCE_KIND_COUNT]: line ddmin */
    size_t tests;          /* oracle runs */
    size_t rounds;
    double seconds;
    int interrupted, budget_spent;
    int minimal;           /* the last round accepted nothing */
} reduce_result;

/* 0 with the reduced case in o->out_dir, -1 with r->error. */
int reduce_run(const case_info *c, const reduce_options *o, reduce_result *r);
void reduce_result_free(reduce_result *r);
/* The log: counts per transformation, sizes, the fingerprint. */
void reduce_report_text(const reduce_result *r, strbuf *out);

#endif

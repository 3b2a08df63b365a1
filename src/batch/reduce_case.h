/* The case folder `ptodb reduce` leaves: PyPTO's build layout, so that
 * ptodb and PyPTO's validator read it like any other case:
 *   passes_dump/NN_after_Prev.py, NN_after_Pass.py   the reduced pair
 *   data/in/NAME.pt      the inputs (torch.save format)
 *   data/out/NAME.pt     the golden: what the reduced passing file computes
 *   golden.py            RTOL/ATOL, only when not PyPTO's defaults
 *   fingerprint.json     the divergence fingerprint every step kept
 *   README.md            in the shape of PyPTO's pass-bug template
 *                        (.github/ISSUE_TEMPLATE/pass_bug.yml)
 *   reduce.log           counts per transformation
 * Every file is written atomically (base/atomic_file.h). */
#ifndef PTODB_BATCH_REDUCE_CASE_H
#define PTODB_BATCH_REDUCE_CASE_H

#include "base/strbuf.h"
#include "batch/reduce_oracle.h"
#include "data/case.h"

typedef struct reduce_case {
    const char *dir;
    const case_info *c;        /* the original case (inputs, tolerances, names) */
    int good, bad;             /* its pass indices */
    const char *good_text, *bad_text;
    tensor *const *golden;     /* c's outputs, in c's order */
    const reduce_fp *fp;
    const char *divergence;    /* the "first divergence: ..." lines of the pair, or NULL */
    const char *log;           /* reduce.log's text, or NULL: not written */
    const char *command;       /* how it was made */
} reduce_case;

/* Writes the pair, fingerprint.json and README.md; with data, also data/
 * and golden.py; with log, reduce.log. 0, or -1 with err set. */
int reduce_case_write(const reduce_case *rc, int data, strbuf *err);

/* The compiler commit in a dump's header line (a run of 7 to 40 hex digits
 * after "commit" or "@"), or NULL. Free it. */
char *reduce_header_commit(const char *text);

#endif

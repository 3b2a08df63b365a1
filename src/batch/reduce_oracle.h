/* The oracle of `ptodb reduce`: the divergence fingerprint of a pair of
 * pass files (the passing one and the failing one) against a case's
 * inputs. The golden outputs are what the passing file computes (it is the
 * reference: a reduced passing file computes other values than the
 * original golden, and the failing file must still differ from it):
 *   1. both files run; the passing one's outputs become the golden (and
 *      must pass against themselves: no NaN, so the reduced case passes
 *      its passing pass as PyPTO's validator checks it);
 *   2. the failing file's outputs fail against them (the output named is
 *      the first that fails), or it fails to run where the passing one ran;
 *   3. bisect's statement finder (divergence.h) names the first statement
 *      whose value differs, with its function, tensor and op;
 *   4. the kind of mismatch: "fails" (the statement fails to run), "new-if"
 *      (an if the passing file lacks decides it), "op-changed", else of the
 *      first differing element: "nan", "inf", "sign" (opposite signs) or
 *      "magnitude:1e-K" (max |diff| over the largest magnitude of the
 *      passing value, by decade).
 * A reduction step is accepted only when every field is unchanged: the
 * pass, function, tensor, op, output and kind (no slippage). */
#ifndef PTODB_BATCH_REDUCE_ORACLE_H
#define PTODB_BATCH_REDUCE_ORACLE_H

#include "base/strbuf.h"
#include "data/case.h"
#include "exec/runpass.h"

typedef struct reduce_fp {
    char *pass, *func, *tensor, *op, *output, *kind;
    int line;            /* in the failing file (not compared: it moves as the file shrinks) */
    int good_line;
} reduce_fp;

typedef enum {
    REDUCE_SHOWN,        /* the pair shows a divergence: fp filled */
    REDUCE_INVALID,      /* a file does not parse, resolve or run (or the passing one fails) */
    REDUCE_NOT_SHOWN     /* it runs, but shows no divergence (or another one: compare the fingerprints) */
} reduce_verdict;

/* pass: the failing pass's name (the fingerprint's first field). When
 * golden is not NULL, *golden gets the passing file's outputs (c's output
 * keys, in c's order; free with reduce_golden_free). why (may be NULL)
 * gets a line saying why the verdict is not REDUCE_SHOWN. */
reduce_verdict reduce_oracle(const char *good_path, const char *bad_path, const char *pass, const case_info *c,
                             const runpass_options *ro, reduce_fp *fp, tensor ***golden, strbuf *why);
void reduce_golden_free(tensor **g, size_t n);

int reduce_fp_equal(const reduce_fp *a, const reduce_fp *b);
void reduce_fp_free(reduce_fp *fp);
/* {"pass": ..., "function": ..., ...} */
void reduce_fp_json(const reduce_fp *fp, strbuf *out);
/* "pass P, function F, statement T (op O), output K, kind" */
void reduce_fp_text(const reduce_fp *fp, strbuf *out);

#endif

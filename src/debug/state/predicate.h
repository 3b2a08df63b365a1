/* Predicates on tensors, for conditions of breakpoints and watchpoints:
 *   nan | inf | METRIC OP NUMBER[%]   combined with `and` / `or` (and binds
 *   tighter), METRIC one of max_abs_diff, mismatch (share of elements outside
 *   rtol/atol, a fraction; 1% = 0.01), max, min, mean; OP one of > >= < <=
 *   == !=. max_abs_diff and mismatch need the tensor's golden. */
#ifndef PTODB_DEBUG_PREDICATE_H
#define PTODB_DEBUG_PREDICATE_H

#include "base/status.h"
#include "base/strbuf.h"
#include "tensor/tensor.h"

typedef struct predicate predicate;

/* Parses text; NULL with a one-line message in err on a syntax error. */
predicate *predicate_parse(const char *text, strbuf *err);
void predicate_free(predicate *p);
/* The text it was parsed from. */
const char *predicate_text(const predicate *p);

typedef struct predicate_env {
    const tensor *t;      /* the value tested */
    const tensor *golden; /* or NULL */
    double rtol, atol;
    int profile;          /* exec_profile_id for the comparison */
    int nan_dont_care;    /* device semantics: a NaN golden element is don't care */
} predicate_env;

/* 1 true, 0 false, -1 when it cannot be evaluated (message in err: no
 * golden for max_abs_diff, shape mismatch, ...). */
int predicate_eval(const predicate *p, const predicate_env *env, strbuf *err);

/* Convenience for `break nan` / `break inf`: counts in t. */
int tensor_has_nan(const tensor *t);
int tensor_has_inf(const tensor *t);

#endif

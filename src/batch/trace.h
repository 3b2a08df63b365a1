/* Statement traces for first-divergence bisection: run one pass file on the
 * machine, statement by statement, and keep a private copy of every tensor
 * (and scalar) each statement bound, keyed so that the same program point
 * can be found in another pass (as the debugger's `pass N` does,
 * src/debug/point.c):
 *   key   = the targets' SSA base names + the op's short name
 *           ("t__tile_6 = pl.tile.neg(...)" -> "t|neg"; an expression
 *           statement writing in place -> "store(out)"),
 *   base  = the base names alone (a fallback when a pass changed the op),
 *   nth   = how many earlier executions had that key (statement occurrence
 *           and loop arrival in one count, in execution order). */
#ifndef PTODB_BATCH_TRACE_H
#define PTODB_BATCH_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "data/case.h"
#include "exec/runpass.h"

typedef struct trace_rec {
    char *key, *base;
    uint32_t nth_key, nth_base;
    char *name;      /* the name in the dump ("t__tile_6") */
    char *func;
    int line;
    int core;
    tensor *t;       /* private copy (contiguous) */
} trace_rec;

typedef struct trace {
    trace_rec *recs;
    size_t n, cap;
    size_t bytes;    /* held by the copies */
    int truncated;   /* stopped recording at the memory cap */
    char *error;     /* the run failed: machine_error's text, or a setup error */
    uint64_t steps;
    /* internal: occurrence counts while recording, then the lookup index */
    struct trace_count *counts;
    size_t ncounts, capcounts;
    size_t *by_key, *by_base; /* open addressing: record index + 1, 0 empty */
    size_t capindex;
} trace;

/* Called for each record as it is made; return 1 to stop the run. When a
 * callback is given, records are not kept (the callback owns nothing). */
typedef int (*trace_fn)(void *ud, const trace_rec *r);

/* Runs path against case c. max_bytes caps the kept copies (0: 1 GiB). */
void trace_pass(const char *path, const case_info *c, const runpass_options *o, size_t max_bytes, trace_fn fn,
                void *ud, trace *out);
void trace_free(trace *t);

/* Builds the lookup index of a finished trace (trace_match needs it). */
void trace_index(trace *t);
/* Finds the record of a with the same key and nth as r (else the same base
 * and nth_base); NULL when none. */
const trace_rec *trace_match(const trace *a, const trace_rec *r);

#endif

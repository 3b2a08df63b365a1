/* The trace of one run of a pass file for Perfetto (ui.perfetto.dev) and
 * chrome://tracing, in the Chrome trace-event JSON format both load: one
 * track per core (host, AIC, AIV0, AIV1), a slice per function (from the
 * call to its return) and per statement, cross-core pushes and pops as flow
 * events from the pushing statement to the popping one, and the statements
 * that waited on an empty queue as instants. The x axis is statement time:
 * the machine's global statement count, shown as microseconds. */
#ifndef PTODB_BATCH_PERFETTO_H
#define PTODB_BATCH_PERFETTO_H

#include <stdint.h>

#include "base/strbuf.h"
#include "data/case.h"
#include "exec/runpass.h"

typedef struct perfetto_summary {
    uint64_t statements;
    int cores;     /* cores that ran a statement */
    int flows;     /* pushes matched with their pops */
    char *error;   /* the run failed (the trace ends there), or NULL; free it */
} perfetto_summary;

/* Runs path against case c (fresh inputs) and appends the JSON to out.
 * Returns 0, or -1 when the pass could not start (sum->error says why;
 * out then holds nothing). A run that fails midway is traced up to the
 * failure. */
int perfetto_trace_pass(const char *path, const case_info *c, const runpass_options *o, strbuf *out,
                        perfetto_summary *sum);

#endif

/* The --json report (schema "ptodb-batch/1", docs/batch-json.md). Numbers
 * that JSON cannot hold (NaN, Inf) are written as null, next to a *_text
 * field with the printed form. */
#ifndef PTODB_BATCH_JSON_H
#define PTODB_BATCH_JSON_H

#include "base/strbuf.h"
#include "batch/batch.h"
#include "batch/bisect.h"

typedef struct batch_json_info {
    const char *case_path;   /* as given on the command line */
    const char *profile;     /* "torch2" / "torch1.13" */
    int stop_at_first;
    int stopped;             /* --stop-at-first stopped early */
    double wall_seconds;
    int exit_code;
} batch_json_info;

/* s as a JSON string (NULL: null). */
void json_put_string(strbuf *o, const char *s);
/* The report of a case that could not be validated (in a report of several
 * cases): its path, name, the error message, no passes, exit code 2. */
void batch_json_error_case(const char *case_path, const char *name, const char *message, strbuf *o);
/* The statement-level divergence as the report's "statement" object
 * (docs/batch-json.md), with source windows around both lines. */
void batch_json_statement(strbuf *o, const bisect_stmt *s);
/* br may be NULL (no --bisect). */
void batch_json_write(const batch *b, const bisect_result *br, const batch_json_info *info, strbuf *out);

#endif

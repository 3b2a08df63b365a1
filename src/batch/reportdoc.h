/* A --batch report read back from its JSON (docs/batch-json.md): one case
 * (schema "ptodb-batch/1") or several ("ptodb-batch-cases/1", from
 * `--batch DIR` over a folder of cases, a --shard of it, or
 * --merge-reports). The JUnit and HTML writers work from this document
 * only, so the reports of merged shards say what one run's reports say. */
#ifndef PTODB_BATCH_REPORTDOC_H
#define PTODB_BATCH_REPORTDOC_H

#include <stddef.h>

#include "base/jsonread.h"
#include "base/strbuf.h"

#define REPORT_SCHEMA_CASE "ptodb-batch/1"
#define REPORT_SCHEMA_CASES "ptodb-batch-cases/1"

typedef struct report_doc {
    char *text;                 /* the JSON (value spans point into it) */
    size_t len;
    json_value root;
    const json_value **cases;   /* each case's "ptodb-batch/1" object */
    size_t ncases;
    int multi;                  /* a "ptodb-batch-cases/1" document */
    int shard_index, shard_count; /* --shard K/N that made it; 0 when none */
    const char *path;           /* the case or folder as given to --batch */
} report_doc;

/* Takes text (malloc'd, NUL-terminated) over, even on failure. On a
 * document that is not a report, appends "NAME:LINE:COL: what" (or
 * "NAME: what") to err and returns -1. */
int report_doc_parse(report_doc *d, char *text, size_t len, const char *name, strbuf *err);
/* The same from a file. */
int report_doc_read(report_doc *d, const char *file, strbuf *err);
void report_doc_free(report_doc *d);

/* Exit status a case's report stands for: 0 every pass passed, 1 some
 * failed, 2 the case could not be validated ("error"). */
int report_case_exit(const json_value *kase);
/* How a case's summary names its first_failing pass: "first failing pass",
 * or "first pass in error" when that pass's verdict is "error" (its file
 * does not check). */
const char *report_case_first_bad_word(const json_value *kase);
/* Its name (the case folder's name) and path. */
const char *report_case_name(const json_value *kase);
const char *report_case_path(const json_value *kase);

/* What REF prints for an output (its "lines"); for a report written before
 * ptodb kept them, the validate line made from its fields, in scratch. */
const char *report_output_text(const json_value *output, strbuf *scratch);

typedef struct report_totals {
    size_t cases, cases_passed, cases_failed, cases_error;
    size_t passes, passed, failed, errors, not_run; /* errors: pass files that do not check */
    int exit_code;              /* 2 when a case has an error, else 1 when one fails, else 0 */
} report_totals;
void report_doc_totals(const json_value *const *cases, size_t n, report_totals *t);

/* A "ptodb-batch-cases/1" document of the cases given as JSON texts (each
 * a case's "ptodb-batch/1" object, copied verbatim), in that order, with
 * their totals. shard_count 0: not a shard. */
void report_cases_json(const char *path, int shard_index, int shard_count, char *const *case_json, size_t n,
                       strbuf *out);

#endif

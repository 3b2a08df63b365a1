/* --merge-reports: the JSON reports of --batch shards (or of separate
 * --batch runs) joined into one "ptodb-batch-cases/1" document, its cases
 * in the order one unsharded run lists them (sorted by path), each case's
 * report copied verbatim. The JUnit and HTML written from the result are
 * those of one run over all the cases. */
#ifndef PTODB_BATCH_MERGE_H
#define PTODB_BATCH_MERGE_H

#include <stddef.h>

#include "base/strbuf.h"
#include "batch/reportdoc.h"

/* names[i] is the file docs[i] came from (for messages). Refuses (-1, a
 * line in err) a case found twice, shards of different counts, a shard
 * given twice or missing, and shard reports mixed with whole ones. */
int report_merge(const report_doc *docs, const char *const *names, size_t n, strbuf *out, strbuf *err);

#endif

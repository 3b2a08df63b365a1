/* The report files of --batch and --merge-reports: --json, --junit and
 * --html FILE ("-": standard output), all written from the JSON report so
 * that they agree with each other and with a merge of shards. */
#ifndef PTODB_UI_REPORT_FILES_H
#define PTODB_UI_REPORT_FILES_H

#include "base/strbuf.h"
#include "options.h"

typedef struct report_files {
    const char *json, *junit, *html; /* NULL when not asked for */
    int to_stdout;                   /* one of them is "-": the text report goes to stderr */
} report_files;

/* Reads the options and checks, before any work, that each file can be
 * written; at most one may be "-". -1 after a message. */
int report_files_parse(const ptodb_cli *cli, report_files *rf);
int report_files_wanted(const report_files *rf);
/* Writes each report asked for from the JSON report json (ptodb-batch/1 or
 * ptodb-batch-cases/1). -1 after a message. */
int report_files_write(const report_files *rf, const strbuf *json);
/* data as the whole of path ("-": standard output), atomically; -1 after
 * "ptodb: --OPTION: cannot write PATH: REASON". */
int report_file_write(const char *option, const char *path, const strbuf *data);

#endif

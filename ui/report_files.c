#include "report_files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/atomic_file.h"
#include "base/mem.h"
#include "batch/html.h"
#include "batch/junit.h"
#include "batch/reportdoc.h"

/* Can path be created or replaced? (Checked before the work, so that a
 * typo in a report path does not cost a whole run.) */
static int check_writable(const char *option, const char *path)
{
    if (strcmp(path, "-") == 0)
        return 0;
    int ok;
    if (access(path, F_OK) == 0) {
        ok = access(path, W_OK) == 0;
    } else {
        char *dir = xstrdup(path);
        char *slash = strrchr(dir, '/');
        if (slash)
            slash[slash == dir ? 1 : 0] = '\0';
        ok = access(slash ? dir : ".", W_OK | X_OK) == 0;
        free(dir);
    }
    if (!ok) {
        fprintf(stderr, "ptodb: --%s: cannot write %s: %s\n", option, path, strerror(errno));
        return -1;
    }
    return 0;
}

int report_files_parse(const ptodb_cli *cli, report_files *rf)
{
    memset(rf, 0, sizeof *rf);
    rf->json = ptodb_cli_value(cli, OPT_JSON);
    rf->junit = ptodb_cli_value(cli, OPT_JUNIT);
    rf->html = ptodb_cli_value(cli, OPT_HTML);
    const char *paths[3] = {rf->json, rf->junit, rf->html}, *names[3] = {"json", "junit", "html"};
    for (int i = 0; i < 3; i++) {
        if (!paths[i])
            continue;
        if (strcmp(paths[i], "-") == 0 && rf->to_stdout++) {
            fprintf(stderr, "ptodb: only one report can go to standard output ('-')\n");
            return -1;
        }
        if (check_writable(names[i], paths[i]) != 0)
            return -1;
    }
    return 0;
}

int report_files_wanted(const report_files *rf)
{
    return rf->json || rf->junit || rf->html;
}

/* The one place report files are written: to a temporary file renamed over
 * the name when complete (base/atomic_file), so a reader or a killed run
 * sees the old file or the new one, never a part. */
int report_file_write(const char *option, const char *path, const strbuf *data)
{
    if (strcmp(path, "-") == 0) {
        if (fwrite(strbuf_str(data), 1, data->len, stdout) != data->len || fflush(stdout) != 0) {
            fprintf(stderr, "ptodb: --%s: write error on standard output: %s\n", option, strerror(errno));
            return -1;
        }
        return 0;
    }
    if (atomic_file_write(path, strbuf_str(data), data->len) != 0) {
        fprintf(stderr, "ptodb: --%s: cannot write %s: %s\n", option, path, strerror(errno));
        return -1;
    }
    return 0;
}

int report_files_write(const report_files *rf, const strbuf *json)
{
    int rc = 0;
    if (rf->json && report_file_write("json", rf->json, json) != 0)
        rc = -1;
    if (!rf->junit && !rf->html)
        return rc;
    report_doc d;
    strbuf err = STRBUF_INIT;
    if (report_doc_parse(&d, xstrndup(strbuf_str(json), json->len), json->len, "report", &err) != 0) {
        /* our own JSON: a failure here is a bug, said as such */
        fprintf(stderr, "ptodb: internal error: the JSON report does not read back: %s\n", strbuf_str(&err));
        strbuf_free(&err);
        report_doc_free(&d);
        return -1;
    }
    strbuf_free(&err);
    strbuf out = STRBUF_INIT;
    if (rf->junit) {
        junit_write(&d, &out);
        if (report_file_write("junit", rf->junit, &out) != 0)
            rc = -1;
        strbuf_clear(&out);
    }
    if (rf->html) {
        html_write(&d, &out);
        if (report_file_write("html", rf->html, &out) != 0)
            rc = -1;
    }
    strbuf_free(&out);
    report_doc_free(&d);
    return rc;
}

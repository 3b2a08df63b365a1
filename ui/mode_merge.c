/* ptodb --merge-reports A.json B.json ...: joins the JSON reports of
 * --batch shards (batch/merge.h) and writes --json, --junit and --html from
 * the whole; prints one line per case and the totals. Exit status as
 * --batch over all the cases: 0 all pass, 1 some pass fails, 2 a case could
 * not be validated, or the reports do not merge (unreadable, a case twice,
 * a shard missing). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/status.h"
#include "base/strbuf.h"
#include "batch/merge.h"
#include "batch/reportdoc.h"
#include "modes.h"
#include "options.h"
#include "report_files.h"

int mode_merge(const ptodb_cli *cli);

static void print_summary(FILE *out, const report_doc *d)
{
    size_t width = 4;
    for (size_t i = 0; i < d->ncases; i++)
        if (strlen(report_case_path(d->cases[i])) > width)
            width = strlen(report_case_path(d->cases[i]));
    for (size_t i = 0; i < d->ncases; i++) {
        const json_value *c = d->cases[i], *s = json_get(c, "summary");
        int code = report_case_exit(c);
        fprintf(out, "%-*s ", (int)width, report_case_path(c));
        if (code == 2) {
            fprintf(out, "ERROR (%s)\n", json_get_str(c, "error") ? json_get_str(c, "error") : "?");
            continue;
        }
        double np = json_get_num(s, "passes", 0), nr = json_get_num(s, "not_run", 0);
        fprintf(out, "%s, %.0f pass%s: %.0f pass, %.0f fail", code ? "FAIL" : "PASS", np, np == 1 ? "" : "es",
                json_get_num(s, "passed", 0), json_get_num(s, "failed", 0));
        if (json_get_num(s, "errors", 0) > 0)
            fprintf(out, ", %.0f error (does not check)", json_get_num(s, "errors", 0));
        if (nr > 0)
            fprintf(out, ", %.0f not validated", nr);
        if (json_get_str(s, "first_failing"))
            fprintf(out, "; %s: %s", report_case_first_bad_word(c), json_get_str(s, "first_failing"));
        fputc('\n', out);
    }
    report_totals t;
    report_doc_totals(d->cases, d->ncases, &t);
    fprintf(out, "%zu case%s: %zu pass, %zu fail, %zu error; %zu passes: %zu pass, %zu fail, ", t.cases,
            t.cases == 1 ? "" : "s", t.cases_passed, t.cases_failed, t.cases_error, t.passes, t.passed, t.failed);
    if (t.errors)
        fprintf(out, "%zu error (does not check), ", t.errors);
    fprintf(out, "%zu not validated\n", t.not_run);
}

int mode_merge(const ptodb_cli *cli)
{
    if (cli->npaths < 1) {
        fprintf(stderr, "ptodb: --merge-reports needs the JSON reports to merge\n");
        return PTODB_EXIT_USAGE;
    }
    report_files rf;
    if (report_files_parse(cli, &rf) != 0)
        return PTODB_EXIT_USAGE;
    size_t n = (size_t)cli->npaths;
    report_doc *docs = xcalloc(n, sizeof *docs);
    strbuf err = STRBUF_INIT, json = STRBUF_INIT;
    int code = PTODB_EXIT_OK;
    for (size_t i = 0; i < n && code == PTODB_EXIT_OK; i++)
        if (report_doc_read(&docs[i], cli->paths[i], &err) != 0)
            code = PTODB_EXIT_USAGE;
    if (code == PTODB_EXIT_OK && report_merge(docs, cli->paths, n, &json, &err) != 0)
        code = PTODB_EXIT_USAGE;
    if (code != PTODB_EXIT_OK) {
        fprintf(stderr, "ptodb: --merge-reports: %s\n", strbuf_str(&err));
    } else {
        report_doc merged;
        strbuf e2 = STRBUF_INIT;
        if (report_doc_parse(&merged, xstrndup(strbuf_str(&json), json.len), json.len, "merged", &e2) == 0) {
            print_summary(rf.to_stdout ? stderr : stdout, &merged);
            report_totals t;
            report_doc_totals(merged.cases, merged.ncases, &t);
            code = t.exit_code;
        } else {
            fprintf(stderr, "ptodb: internal error: the merged report does not read back: %s\n", strbuf_str(&e2));
            code = PTODB_EXIT_USAGE;
        }
        strbuf_free(&e2);
        report_doc_free(&merged);
        if (report_files_write(&rf, &json) != 0)
            code = PTODB_EXIT_USAGE;
    }
    for (size_t i = 0; i < n; i++)
        report_doc_free(&docs[i]);
    free(docs);
    strbuf_free(&err);
    strbuf_free(&json);
    return code;
}

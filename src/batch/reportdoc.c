#include "batch/reportdoc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fdio.h"
#include "base/mem.h"
#include "batch/json.h"

/* The line and column of byte pos of text. */
static void where(const char *text, size_t pos, size_t *line, size_t *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < pos && text[i]; i++) {
        if (text[i] == '\n') {
            ++*line;
            *col = 1;
        } else {
            ++*col;
        }
    }
}

static int bad_at(const report_doc *d, const char *name, const json_value *v, const char *what, strbuf *err)
{
    size_t line, col;
    where(d->text, v ? v->start : 0, &line, &col);
    strbuf_printf(err, "%s:%zu:%zu: not a ptodb --batch report: %s", name, line, col, what);
    return -1;
}

/* What the writers rely on: a case object, its "case" path, and either an
 * "error" or "passes" whose entries have a stem. */
static int check_case(const report_doc *d, const char *name, const json_value *c, strbuf *err)
{
    if (c->type != JSON_OBJECT)
        return bad_at(d, name, c, "a case is not an object", err);
    const char *schema = json_get_str(c, "schema");
    if (!schema || strcmp(schema, REPORT_SCHEMA_CASE) != 0)
        return bad_at(d, name, c, "a case's schema is not \"" REPORT_SCHEMA_CASE "\"", err);
    if (!json_get_str(json_get(c, "case"), "path"))
        return bad_at(d, name, c, "a case has no case.path", err);
    if (json_get_str(c, "error"))
        return 0;
    const json_value *passes = json_get(c, "passes");
    if (!passes || passes->type != JSON_ARRAY)
        return bad_at(d, name, c, "a case has no passes array", err);
    for (size_t i = 0; i < passes->n; i++) {
        const json_value *p = &passes->items[i];
        if (!json_get_str(p, "stem"))
            return bad_at(d, name, p, "a pass has no stem", err);
        const json_value *outs = json_get(p, "outputs");
        for (size_t k = 0; outs && outs->type == JSON_ARRAY && k < outs->n; k++)
            if (!json_get_str(&outs->items[k], "key"))
                return bad_at(d, name, &outs->items[k], "an output has no key", err);
    }
    return 0;
}

int report_doc_parse(report_doc *d, char *text, size_t len, const char *name, strbuf *err)
{
    memset(d, 0, sizeof *d);
    d->text = text;
    d->len = len;
    char msg[200];
    if (json_parse(text, len, &d->root, msg, sizeof msg) != 0) {
        strbuf_printf(err, "%s:%s", name, msg);
        return -1;
    }
    const char *schema = json_get_str(&d->root, "schema");
    if (!schema)
        return bad_at(d, name, &d->root, "no \"schema\"", err);
    if (strcmp(schema, REPORT_SCHEMA_CASE) == 0) {
        d->cases = xcalloc(1, sizeof *d->cases);
        d->cases[0] = &d->root;
        d->ncases = 1;
    } else if (strcmp(schema, REPORT_SCHEMA_CASES) == 0) {
        const json_value *cases = json_get(&d->root, "cases");
        if (!cases || cases->type != JSON_ARRAY)
            return bad_at(d, name, &d->root, "no \"cases\" array", err);
        d->multi = 1;
        d->cases = xcalloc(cases->n ? cases->n : 1, sizeof *d->cases);
        for (size_t i = 0; i < cases->n; i++)
            d->cases[d->ncases++] = &cases->items[i];
        const json_value *shard = json_get(&d->root, "shard");
        if (shard && shard->type == JSON_OBJECT) {
            double k = json_get_num(shard, "index", 0), n = json_get_num(shard, "count", 0);
            if (!(n >= 1 && n <= 1e6 && k >= 1 && k <= n && k == (int)k && n == (int)n))
                return bad_at(d, name, shard, "shard index and count are not 1 <= K <= N", err);
            d->shard_index = (int)k;
            d->shard_count = (int)n;
        }
    } else {
        return bad_at(d, name, &d->root, "unknown schema", err);
    }
    for (size_t i = 0; i < d->ncases; i++)
        if (check_case(d, name, d->cases[i], err) != 0)
            return -1;
    d->path = d->multi ? json_get_str(&d->root, "path") : report_case_path(d->cases[0]);
    return 0;
}

int report_doc_read(report_doc *d, const char *file, strbuf *err)
{
    size_t len;
    char *text = file_read_all(file, &len);
    if (!text) {
        memset(d, 0, sizeof *d);
        strbuf_printf(err, "%s: cannot read: %s", file, strerror(errno));
        return -1;
    }
    return report_doc_parse(d, text, len, file, err);
}

void report_doc_free(report_doc *d)
{
    json_value_free(&d->root);
    free(d->cases);
    free(d->text);
    memset(d, 0, sizeof *d);
}

int report_case_exit(const json_value *kase)
{
    if (json_get_str(kase, "error"))
        return 2;
    const json_value *s = json_get(kase, "summary");
    /* a pass file that does not check makes the case fail too (exit 1) */
    return json_get_num(s, "failed", 0) > 0 || json_get_num(s, "errors", 0) > 0 ? 1 : 0;
}

const char *report_case_first_bad_word(const json_value *kase)
{
    const char *first = json_get_str(json_get(kase, "summary"), "first_failing");
    for (size_t i = 0; first && i < json_get_len(kase, "passes"); i++) {
        const json_value *p = json_get_at(kase, "passes", i);
        const char *stem = json_get_str(p, "stem"), *verdict = json_get_str(p, "verdict");
        if (stem && strcmp(stem, first) == 0)
            return verdict && strcmp(verdict, "error") == 0 ? "first pass in error" : "first failing pass";
    }
    return "first failing pass";
}

const char *report_case_name(const json_value *kase)
{
    const char *n = json_get_str(json_get(kase, "case"), "name");
    return n ? n : report_case_path(kase);
}

const char *report_case_path(const json_value *kase)
{
    const char *p = json_get_str(json_get(kase, "case"), "path");
    return p ? p : "?";
}

const char *report_output_text(const json_value *o, strbuf *scratch)
{
    const char *lines = json_get_str(o, "lines");
    if (lines)
        return lines;
    const char *d = json_get_str(o, "max_abs_diff_text");
    strbuf_clear(scratch);
    strbuf_printf(scratch, "validate tensor: '%s', max_abs_diff: %s, pass: %s\n", json_get_str(o, "key"),
                  d ? d : "nan", json_get_bool(o, "pass", 0) ? "True" : "False");
    return strbuf_str(scratch);
}

void report_doc_totals(const json_value *const *cases, size_t n, report_totals *t)
{
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < n; i++) {
        const json_value *s = json_get(cases[i], "summary");
        int code = report_case_exit(cases[i]);
        t->cases++;
        if (code == 2)
            t->cases_error++;
        else if (code == 1)
            t->cases_failed++;
        else
            t->cases_passed++;
        t->passes += (size_t)json_get_num(s, "passes", 0);
        t->passed += (size_t)json_get_num(s, "passed", 0);
        t->failed += (size_t)json_get_num(s, "failed", 0);
        t->errors += (size_t)json_get_num(s, "errors", 0);
        t->not_run += (size_t)json_get_num(s, "not_run", 0);
    }
    t->exit_code = t->cases_error ? 2 : t->cases_failed ? 1 : 0;
}

void report_cases_json(const char *path, int shard_index, int shard_count, char *const *case_json, size_t n,
                       strbuf *out)
{
    json_value *parsed = xcalloc(n ? n : 1, sizeof *parsed);
    const json_value **cases = xcalloc(n ? n : 1, sizeof *cases);
    char msg[200];
    for (size_t i = 0; i < n; i++) {
        /* our own text: it parses; a case that would not counts as nothing */
        if (json_parse(case_json[i], strlen(case_json[i]), &parsed[i], msg, sizeof msg) != 0)
            memset(&parsed[i], 0, sizeof parsed[i]);
        cases[i] = &parsed[i];
    }
    report_totals t;
    report_doc_totals(cases, n, &t);
    strbuf_puts(out, "{\n  \"schema\": \"" REPORT_SCHEMA_CASES "\",\n  \"path\": ");
    json_put_string(out, path);
    strbuf_puts(out, ",\n  \"shard\": ");
    if (shard_count > 0)
        strbuf_printf(out, "{\"index\": %d, \"count\": %d}", shard_index, shard_count);
    else
        strbuf_puts(out, "null");
    strbuf_puts(out, ",\n  \"cases\": [\n");
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(case_json[i]);
        while (len && (case_json[i][len - 1] == '\n' || case_json[i][len - 1] == ' '))
            len--;
        strbuf_append(out, case_json[i], len);
        strbuf_puts(out, i + 1 < n ? ",\n" : "\n");
    }
    strbuf_printf(out,
                  "  ],\n  \"summary\": {\"cases\": %zu, \"cases_passed\": %zu, \"cases_failed\": %zu, "
                  "\"cases_error\": %zu, \"passes\": %zu, \"passed\": %zu, \"failed\": %zu, \"errors\": %zu, "
                  "\"not_run\": %zu, \"exit_code\": %d}\n}\n",
                  t.cases, t.cases_passed, t.cases_failed, t.cases_error, t.passes, t.passed, t.failed, t.errors,
                  t.not_run, t.exit_code);
    for (size_t i = 0; i < n; i++)
        json_value_free(&parsed[i]);
    free(parsed);
    free(cases);
}

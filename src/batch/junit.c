#include "batch/junit.h"

#include <string.h>

#include "base/diag.h"
#include "base/xmlesc.h"
#include "exec/runpass.h"

/* Seconds as JUnit's SUREFIRE_TIME pattern takes them (at most 3 decimals). */
static void attr_time(strbuf *out, double s)
{
    strbuf_printf(out, " time=\"%.3f\"", s >= 0 && s < 1e9 ? s : 0.0);
}

static void attr(strbuf *out, const char *name, const char *text)
{
    strbuf_printf(out, " %s=\"", name);
    xml_escape(out, text ? text : "");
    strbuf_putc(out, '"');
}

/* The first line of text (messages are single-line attributes). */
static void attr_first_line(strbuf *out, const char *name, const char *text)
{
    const char *s = text ? text : "";
    const char *e = strchr(s, '\n');
    strbuf_printf(out, " %s=\"", name);
    xml_escape_n(out, s, e ? (size_t)(e - s) : strlen(s));
    strbuf_putc(out, '"');
}

static void testcase_open(strbuf *out, const char *cls, const char *stem, const char *key, double seconds)
{
    strbuf_puts(out, "    <testcase");
    attr(out, "classname", cls);
    strbuf_puts(out, " name=\"");
    xml_escape(out, stem);
    if (key) {
        strbuf_putc(out, '/');
        xml_escape(out, key);
    }
    strbuf_putc(out, '"');
    attr_time(out, seconds);
}

/* <KIND message="first line" type="TYPE">text</KIND> */
static void outcome(strbuf *out, const char *kind, const char *type, const char *text)
{
    strbuf_printf(out, "      <%s", kind);
    attr_first_line(out, "message", text);
    attr(out, "type", type);
    strbuf_putc(out, '>');
    xml_escape(out, text);
    strbuf_printf(out, "</%s>\n", kind);
}

typedef struct suite_counts {
    size_t tests, failures, errors, skipped;
    double seconds;
} suite_counts;

/* The testcases of one pass; counts them into sc. */
static void pass_cases(strbuf *out, const json_value *kase, const json_value *p, suite_counts *sc)
{
    const char *cls = report_case_name(kase), *stem = json_get_str(p, "stem");
    const char *status = json_get_str(p, "status");
    const char *message = json_get_str(p, "message");
    double seconds = json_get_num(p, "seconds", 0);
    const char *same_as = json_get_str(p, "same_as");
    if (same_as)
        seconds = 0; /* run once, counted at its twin */
    sc->seconds += seconds;
    const json_value *outs = json_get(p, "outputs");
    int compared = status && strcmp(status, "compared") == 0;
    if (compared && outs && outs->type == JSON_ARRAY && outs->n) {
        const char *note = json_get_str(p, "ref_note");
        int strict_fail = note && json_get_bool(p, "strict_ref_fail", 0);
        for (size_t k = 0; k < outs->n; k++) {
            const json_value *o = &outs->items[k];
            strbuf scratch = STRBUF_INIT;
            const char *lines = report_output_text(o, &scratch);
            testcase_open(out, cls, stem, json_get_str(o, "key"), k == 0 ? seconds : 0);
            sc->tests++;
            const char *error = json_get_str(o, "error");
            int pass = json_get_bool(o, "pass", 0);
            const json_value *dv = json_get(p, "ref_differs");
            const char *memreport = k == 0 ? json_get_str(p, "memory_report") : NULL;
            if (!error && pass && !note && !memreport && !(dv && dv->type == JSON_ARRAY && dv->n)) {
                strbuf_puts(out, "/>\n");
                strbuf_free(&scratch);
                continue;
            }
            strbuf_puts(out, ">\n");
            if (error) {
                outcome(out, "error", "compare_error", json_get_str(o, "lines") ? lines : error);
                sc->errors++;
            } else if (!pass) {
                outcome(out, "failure", "mismatch", lines);
                sc->failures++;
            } else if (memreport) {
                outcome(out, "failure", "memory_fault", memreport);
                sc->failures++;
            } else if (strict_fail) {
                strbuf why = STRBUF_INIT;
                runpass_format_ref_note(note, 1, &why);
                outcome(out, "failure", "ref_cannot_run", strbuf_str(&why));
                strbuf_free(&why);
                sc->failures++;
            }
            const json_value *differs = json_get(p, "ref_differs");
            if (differs && differs->type == JSON_ARRAY)
                for (size_t d = 0; d < differs->n; d++)
                    if (differs->items[d].type == JSON_STRING) {
                        strbuf_puts(out, "      <system-out>note: REF differs here: ");
                        xml_escape(out, differs->items[d].string);
                        strbuf_puts(out, "; ptodb ran it as the device does</system-out>\n");
                    }
            if (note && !strict_fail) {
                strbuf_puts(out, "      <system-out>note: REF cannot run this file (");
                xml_escape(out, note);
                strbuf_puts(out, "); ptodb ran it and compares with golden</system-out>\n");
            }
            strbuf_puts(out, "    </testcase>\n");
            strbuf_free(&scratch);
        }
        return;
    }
    /* not compared: one testcase per output of the case, so that every pass
     * has the same tests */
    const json_value *keys = json_get(json_get(kase, "case"), "outputs");
    size_t nkeys = keys && keys->type == JSON_ARRAY ? keys->n : 0;
    for (size_t k = 0; k < (nkeys ? nkeys : 1); k++) {
        const char *key = nkeys && keys->items[k].type == JSON_STRING ? keys->items[k].string : NULL;
        testcase_open(out, cls, stem, key, k == 0 ? seconds : 0);
        strbuf_puts(out, ">\n");
        sc->tests++;
        if (!status || strcmp(status, "not_run") == 0 || compared) {
            strbuf_puts(out, "      <skipped message=\"not validated\"/>\n");
            sc->skipped++;
        } else {
            strbuf text = STRBUF_INIT;
            strbuf_printf(&text, "%s%s", strcmp(status, "error") == 0 ? diag_error_prefix(message) : "", message ? message : "");
            outcome(out, "error", strcmp(status, "ref_fail") == 0 ? "ref_fail" : "error", strbuf_str(&text));
            strbuf_free(&text);
            sc->errors++;
        }
        strbuf_puts(out, "    </testcase>\n");
    }
}

static void suite(strbuf *out, const json_value *kase, suite_counts *total)
{
    strbuf body = STRBUF_INIT;
    suite_counts sc = {0, 0, 0, 0, 0};
    const char *error = json_get_str(kase, "error");
    if (error) {
        testcase_open(&body, report_case_name(kase), "case", NULL, 0);
        strbuf_puts(&body, ">\n");
        outcome(&body, "error", "case_error", error);
        strbuf_puts(&body, "    </testcase>\n");
        sc.tests = sc.errors = 1;
    }
    const json_value *passes = json_get(kase, "passes");
    for (size_t i = 0; passes && passes->type == JSON_ARRAY && i < passes->n; i++)
        pass_cases(&body, kase, &passes->items[i], &sc);
    strbuf_puts(out, "  <testsuite");
    attr(out, "name", report_case_name(kase));
    strbuf_printf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\"", sc.tests, sc.failures,
                  sc.errors, sc.skipped);
    attr_time(out, sc.seconds);
    attr(out, "file", report_case_path(kase));
    strbuf_puts(out, ">\n");
    const json_value *opt = json_get(kase, "options");
    if (opt) {
        strbuf_puts(out, "    <properties>\n");
        if (json_get_str(opt, "semantics")) {
            strbuf_puts(out, "      <property name=\"semantics\"");
            attr(out, "value", json_get_str(opt, "semantics"));
            strbuf_puts(out, "/>\n");
        }
        strbuf_puts(out, "      <property name=\"profile\"");
        attr(out, "value", json_get_str(opt, "profile"));
        strbuf_puts(out, "/>\n");
        const json_value *tol = json_get(kase, "tolerances");
        strbuf_printf(out, "      <property name=\"rtol\" value=\"%.17g\"/>\n",
                      json_get_num(json_get(tol, "rtol"), "value", 0));
        strbuf_printf(out, "      <property name=\"atol\" value=\"%.17g\"/>\n",
                      json_get_num(json_get(tol, "atol"), "value", 0));
        strbuf_puts(out, "    </properties>\n");
    }
    strbuf_append(out, strbuf_str(&body), body.len);
    strbuf_free(&body);
    const char *bisect = json_get_str(json_get(kase, "bisect"), "text");
    if (bisect) {
        strbuf_puts(out, "    <system-out>");
        xml_escape(out, bisect);
        strbuf_puts(out, "</system-out>\n");
    }
    strbuf_puts(out, "  </testsuite>\n");
    total->tests += sc.tests;
    total->failures += sc.failures;
    total->errors += sc.errors;
    total->seconds += sc.seconds;
}

void junit_write(const report_doc *d, strbuf *out)
{
    strbuf suites = STRBUF_INIT;
    suite_counts total = {0, 0, 0, 0, 0};
    for (size_t i = 0; i < d->ncases; i++)
        suite(&suites, d->cases[i], &total);
    strbuf_puts(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"ptodb --batch\"");
    strbuf_printf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\"", total.tests, total.failures, total.errors);
    attr_time(out, total.seconds);
    strbuf_puts(out, ">\n");
    strbuf_append(out, strbuf_str(&suites), suites.len);
    strbuf_puts(out, "</testsuites>\n");
    strbuf_free(&suites);
}

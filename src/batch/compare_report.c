/* The reports of --compare: text, JSON ("ptodb-compare/1") and HTML. */
#include <stdio.h>
#include <string.h>

#include "base/mem.h"
#include "base/xmlesc.h"
#include "batch/compare.h"
#include "batch/diverge.h"
#include "batch/json.h"
#include "exec/compare.h"

static const char *stem_of(const case_info *c, int i)
{
    return i >= 0 ? c->passes[i].stem : "-";
}

static const char *verdict(const compare_side *s)
{
    if (s->pass < 0)
        return "-";
    if (!s->ran)
        return "not run";
    if (s->status == RUNPASS_COMPARED)
        return s->ok ? "PASS" : "FAIL";
    return s->status == RUNPASS_REF_FAIL ? "REF_FAIL" : "ERROR";
}

/* What the pair's A-vs-B column says. */
static void pair_cell(const compare_pair *p, strbuf *out)
{
    char e6[32];
    if (p->a.pass < 0)
        strbuf_puts(out, "only in B");
    else if (p->b.pass < 0)
        strbuf_puts(out, "only in A");
    else if (p->no_outputs)
        strbuf_puts(out, p->same_file ? "same file, no outputs: both stop" : "no outputs: both stop");
    else if (p->same_file)
        strbuf_puts(out, "same file");
    else if (!p->differs)
        strbuf_puts(out, "same outputs");
    else if (p->memfault_only)
        strbuf_printf(out, "DIFFER: memory faults in %s only (the same outputs)", p->b.memfaults ? "B" : "A");
    else if (!p->output)
        strbuf_printf(out, "DIFFER: %s", p->a.status == RUNPASS_COMPARED ? "B stops, A computes its outputs"
                                                                         : "A stops, B computes its outputs");
    else if (p->missing)
        strbuf_printf(out, "DIFFER: output '%s' is not B's", p->output);
    else {
        exec_format_e6(p->max_abs_diff, e6, sizeof e6);
        strbuf_printf(out, "DIFFER: '%s' max_abs_diff %s, %lld of %lld elements", p->output, e6,
                      (long long)p->mismatches, (long long)p->count);
    }
}

/* "  LABEL stops: MESSAGE": its first line and the lines naming where a
 * core waits (a deadlock's report goes on with every queue) */
static void put_stop(strbuf *out, const char *label, const compare_side *sd)
{
    const char *m = sd->message && *sd->message ? sd->message : verdict(sd);
    size_t l = strcspn(m, "\n");
    strbuf_printf(out, "  %s stops: %.*s\n", label, (int)l, m);
    for (const char *p = m + l; *p;) {
        p += *p == '\n';
        size_t n = strcspn(p, "\n");
        size_t sp = strspn(p, " ");
        if (sp < n && memmem(p, n, ": blocked in ", 13))
            strbuf_printf(out, "    %.*s\n", (int)(n - sp), p + sp);
        p += n;
    }
}

void compare_report_text(const case_info *a, const case_info *b, const compare_result *r, strbuf *out)
{
    strbuf_printf(out, "compare: A %s (%zu passes), B %s (%zu passes): %zu aligned by name, %zu in A only, %zu in B "
                       "only\n",
                  a->root, a->npasses, b->root, b->npasses, r->aligned, r->only_a, r->only_b);
    size_t w = 4;
    for (size_t i = 0; i < r->npairs; i++) {
        size_t l = strlen(stem_of(a, r->pairs[i].a.pass));
        if (l > w)
            w = l;
    }
    strbuf_printf(out, "  %-*s  %-8s %-8s %s\n", (int)w, "pass", "A", "B", "A vs B");
    for (size_t i = 0; i < r->npairs; i++) {
        const compare_pair *p = &r->pairs[i];
        strbuf_printf(out, "  %-*s  %-8s %-8s ", (int)w, p->a.pass >= 0 ? stem_of(a, p->a.pass) : stem_of(b, p->b.pass),
                      verdict(&p->a), verdict(&p->b));
        pair_cell(p, out);
        strbuf_putc(out, '\n');
    }
    for (size_t i = 0; i < r->npairs; i++) {
        const compare_pair *p = &r->pairs[i];
        if (p->a.pass < 0 || p->b.pass < 0)
            strbuf_printf(out, "compare: %s is in %s only\n", p->a.pass >= 0 ? stem_of(a, p->a.pass) : stem_of(b, p->b.pass),
                          p->a.pass >= 0 ? "A" : "B");
    }
    strbuf_printf(out, "compare: %zu pass files run; validation: %zu failing in A, %zu failing in B\n", r->runs,
                  r->failed_a, r->failed_b);
    if (r->interrupted) {
        strbuf_puts(out, "compare: interrupted; no result\n");
        return;
    }
    if (r->first_diff < 0 && r->no_outputs) {
        /* never "no difference" about outputs neither side computed */
        const compare_pair *q = &r->pairs[r->first_no_outputs];
        if (r->no_outputs == r->aligned)
            strbuf_printf(out, "compare: nothing to compare: in each of the %zu aligned passes both builds stop "
                               "before computing their outputs\n",
                          r->aligned);
        else
            strbuf_printf(out, "compare: no difference in the %zu aligned passes where both builds computed their "
                               "outputs (rtol=%.3e atol=%.3e); in %zu both stop, nothing compared\n",
                          r->aligned - r->no_outputs, a->rtol.value, a->atol.value, r->no_outputs);
        strbuf_printf(out, "compare: first pass with no outputs on either side: %s\n", q->name);
        put_stop(out, "A", &q->a);
        put_stop(out, "B", &q->b);
        return;
    }
    if (r->first_diff < 0) {
        strbuf_printf(out, "compare: no difference: every aligned pass gives the same outputs in A and B (rtol=%.3e "
                           "atol=%.3e)\n",
                      a->rtol.value, a->atol.value);
        return;
    }
    const compare_pair *p = &r->pairs[r->first_diff];
    if (p->memfault_only)
        strbuf_printf(out, "compare: first pass that differs: %s (A: %s, B: %s): the same outputs, memory faults in %s "
                           "only (%llu)\n",
                      p->name, stem_of(a, p->a.pass), stem_of(b, p->b.pass), p->b.memfaults ? "B" : "A",
                      (unsigned long long)(p->b.memfaults ? p->b.memfaults : p->a.memfaults));
    else
        strbuf_printf(out, "compare: first pass whose outputs differ: %s (A: %s, B: %s)\n", p->name,
                      stem_of(a, p->a.pass), stem_of(b, p->b.pass));
    /* a side that stopped: what stopped it */
    if (p->a.ran && p->a.status != RUNPASS_COMPARED)
        put_stop(out, "A", &p->a);
    if (p->b.ran && p->b.status != RUNPASS_COMPARED)
        put_stop(out, "B", &p->b);
    if (r->stmt_done) {
        strbuf ga = STRBUF_INIT, gb = STRBUF_INIT;
        strbuf_printf(&ga, "A's %s", stem_of(a, p->a.pass));
        strbuf_printf(&gb, "B's %s", stem_of(b, p->b.pass));
        diverge_report_text(&r->stmt, strbuf_str(&ga), strbuf_str(&gb), a->rtol.value, a->atol.value, out);
        strbuf_free(&ga);
        strbuf_free(&gb);
    }
}

static void side_json(strbuf *o, const case_info *c, const compare_side *s)
{
    if (s->pass < 0) {
        strbuf_puts(o, "null");
        return;
    }
    strbuf_puts(o, "{\"stem\": ");
    json_put_string(o, c->passes[s->pass].stem);
    strbuf_puts(o, ", \"file\": ");
    json_put_string(o, c->passes[s->pass].path);
    strbuf_puts(o, ", \"verdict\": ");
    json_put_string(o, verdict(s));
    strbuf_puts(o, ", \"message\": ");
    json_put_string(o, s->message);
    strbuf_puts(o, "}");
}

static void jnum(strbuf *o, double v)
{
    if (v != v || v > 1.7976931348623157e308 || v < -1.7976931348623157e308)
        strbuf_puts(o, "null");
    else
        strbuf_printf(o, "%.17g", v);
}

void compare_report_json(const case_info *a, const case_info *b, const compare_result *r, strbuf *o)
{
    strbuf_puts(o, "{\"schema\": \"ptodb-compare/1\", \"a\": ");
    json_put_string(o, a->root);
    strbuf_puts(o, ", \"b\": ");
    json_put_string(o, b->root);
    strbuf_printf(o, ", \"aligned\": %zu, \"only_a\": %zu, \"only_b\": %zu, \"runs\": %zu, \"seconds\": %.3f, \"failed_a\": %zu, "
                     "\"failed_b\": %zu, \"no_outputs\": %zu, \"interrupted\": %s, \"same\": %s,\n \"pairs\": [",
                  r->aligned, r->only_a, r->only_b, r->runs, r->seconds, r->failed_a, r->failed_b, r->no_outputs,
                  r->interrupted ? "true" : "false", compare_all_same(r) ? "true" : "false");
    for (size_t i = 0; i < r->npairs; i++) {
        const compare_pair *p = &r->pairs[i];
        strbuf_puts(o, i ? ",\n  {\"name\": " : "\n  {\"name\": ");
        json_put_string(o, p->name);
        strbuf_puts(o, ", \"a\": ");
        side_json(o, a, &p->a);
        strbuf_puts(o, ", \"b\": ");
        side_json(o, b, &p->b);
        strbuf_printf(o, ", \"same_file\": %s, \"differs\": %s, \"no_outputs\": %s, \"memfault_only\": %s, \"output\": ",
                      p->same_file ? "true" : "false", p->differs ? "true" : "false", p->no_outputs ? "true" : "false",
                      p->memfault_only ? "true" : "false");
        json_put_string(o, p->output);
        strbuf_puts(o, ", \"max_abs_diff\": ");
        jnum(o, p->max_abs_diff);
        strbuf_printf(o, ", \"mismatches\": %lld, \"count\": %lld}", (long long)p->mismatches, (long long)p->count);
    }
    strbuf_puts(o, "],\n \"first_difference\": ");
    if (r->first_diff >= 0)
        json_put_string(o, r->pairs[r->first_diff].name);
    else
        strbuf_puts(o, "null");
    strbuf_puts(o, ", \"statement\": ");
    if (r->stmt_done)
        batch_json_statement(o, &r->stmt);
    else
        strbuf_puts(o, "null");
    strbuf text = STRBUF_INIT;
    compare_report_text(a, b, r, &text);
    strbuf_puts(o, ",\n \"text\": ");
    json_put_string(o, strbuf_str(&text));
    strbuf_free(&text);
    strbuf_puts(o, "}\n");
}

/* The statement's line and its neighbours, the line highlighted. */
static void source_window(strbuf *out, const char *caption, const char *path, int line)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    strbuf_puts(out, "<div><p>");
    xml_escape(out, caption);
    strbuf_puts(out, ": <code>");
    xml_escape(out, path ? path : "");
    strbuf_printf(out, ":%d</code></p><table class=\"src\">", line);
    char buf[4096];
    int n = 0;
    while (f && fgets(buf, sizeof buf, f)) {
        size_t l = strlen(buf);
        int whole = l && buf[l - 1] == '\n';
        if (whole)
            buf[--l] = '\0';
        n += 1;
        if (n >= line - 4 && n <= line + 4) {
            strbuf_printf(out, "<tr%s><td class=\"ln\">%d</td><td>", n == line ? " class=\"hl\"" : "", n);
            xml_escape(out, buf);
            strbuf_puts(out, "</td></tr>");
        }
        if (!whole) { /* the rest of a long line */
            int ch;
            while ((ch = fgetc(f)) != EOF && ch != '\n')
                ;
        }
        if (n > line + 4)
            break;
    }
    if (f)
        fclose(f);
    strbuf_puts(out, "</table></div>\n");
}

void compare_report_html(const case_info *a, const case_info *b, const compare_result *r, strbuf *out)
{
    strbuf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                     "style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'\">\n<title>ptodb --compare</title>"
                     "<style>body{font-family:sans-serif}td,th{padding:2px 8px}.d{background:#fdd}.o{color:#888}"
                     ".hl{background:#ffc}.src td{font-family:monospace;white-space:pre}.srcs{display:flex;gap:1em}"
                     "</style></head><body>\n<h1>ptodb --compare</h1>\n<p>A <code>");
    xml_escape(out, a->root);
    strbuf_puts(out, "</code>, B <code>");
    xml_escape(out, b->root);
    strbuf_printf(out, "</code>: %zu passes aligned by name, %zu in A only, %zu in B only</p>\n", r->aligned, r->only_a,
                  r->only_b);
    strbuf_puts(out, "<table><tr><th>pass</th><th>A</th><th>B</th><th>A vs B</th></tr>\n");
    for (size_t i = 0; i < r->npairs; i++) {
        const compare_pair *p = &r->pairs[i];
        strbuf_printf(out, "<tr%s><td>", p->differs ? " class=\"d\"" : p->a.pass < 0 || p->b.pass < 0 ? " class=\"o\"" : "");
        xml_escape(out, p->a.pass >= 0 ? stem_of(a, p->a.pass) : stem_of(b, p->b.pass));
        strbuf_printf(out, "</td><td>%s</td><td>%s</td><td>", verdict(&p->a), verdict(&p->b));
        strbuf cell = STRBUF_INIT;
        pair_cell(p, &cell);
        xml_escape(out, strbuf_str(&cell));
        strbuf_free(&cell);
        strbuf_puts(out, "</td></tr>\n");
    }
    strbuf_puts(out, "</table>\n<pre>");
    strbuf text = STRBUF_INIT;
    compare_report_text(a, b, r, &text);
    const char *t = strbuf_str(&text), *tail = strstr(t, "\ncompare: ");
    xml_escape(out, tail ? tail + 1 : t);
    strbuf_free(&text);
    strbuf_puts(out, "</pre>\n");
    if (r->stmt_done && r->stmt.found) {
        strbuf_puts(out, "<div class=\"srcs\">");
        source_window(out, "A", r->stmt.good_file, r->stmt.good_line);
        source_window(out, "B", r->stmt.file, r->stmt.line);
        strbuf_puts(out, "</div>\n");
    }
    strbuf_puts(out, "</body></html>\n");
}

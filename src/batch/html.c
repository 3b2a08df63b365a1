#include "batch/html.h"

#include <math.h>
#include <string.h>

#include "base/xmlesc.h"
#include "tensor/heatgrid.h"

static const char style[] =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}"
    "h1{font-size:1.5em}h2{margin-top:2em;border-bottom:1px solid #ccc}h3{font-size:1.05em}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ddd;padding:2px 8px;text-align:left}"
    "th{background:#f3f3f3}td.n,td.t{text-align:right;font-family:monospace}"
    "tr.fail td.v,td.bad{color:#b00;font-weight:bold}tr.pass td.v{color:#070}tr.notrun td{color:#999}"
    "tr.error td.v{color:#a50;font-weight:bold}"
    "pre{background:#f8f8f8;padding:.5em;overflow-x:auto;font-size:12px}"
    "pre.diff .add{background:#e6ffec;display:block}pre.diff .del{background:#ffebe9;display:block}"
    "pre.diff .hunk{color:#0550ae;display:block}"
    "table.src td{border:none;font-family:monospace;font-size:12px;white-space:pre;padding:0 6px}"
    "table.src tr.hl td{background:#ffd33d}table.src tr.hl2 td{background:#fff5b1}"
    "td.ln{color:#888;text-align:right}.legend text,.axis{font:11px sans-serif}"
    ".muted{color:#777}.srcs{display:flex;gap:2em;flex-wrap:wrap}";

static void text(strbuf *out, const char *s)
{
    xml_escape(out, s);
}

/* PASS, FAIL, REF-FAIL, ERROR or - (as the text summary), and its row class. */
static const char *verdict_word(const json_value *p, const char **cls)
{
    const char *status = json_get_str(p, "status"), *verdict = json_get_str(p, "verdict");
    if (status && strcmp(status, "ref_fail") == 0) {
        *cls = "fail";
        return "REF-FAIL";
    }
    if (status && strcmp(status, "error") == 0) {
        *cls = verdict && strcmp(verdict, "error") == 0 ? "error" : "fail"; /* the file does not check */
        return "ERROR";
    }
    if (verdict && strcmp(verdict, "pass") == 0) {
        *cls = "pass";
        return "PASS";
    }
    if (verdict && strcmp(verdict, "fail") == 0) {
        *cls = "fail";
        return "FAIL";
    }
    if (verdict && strcmp(verdict, "memfault") == 0) {
        *cls = "fail";
        return "MEMFAULT";
    }
    *cls = "notrun";
    return "-";
}

/* ---- heat maps -------------------------------------------------------------------------- */

typedef struct rgb {
    double r, g, b;
} rgb;

static void color(strbuf *out, rgb a, rgb b, double t)
{
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    strbuf_printf(out, "#%02x%02x%02x", (int)lround(a.r + (b.r - a.r) * t), (int)lround(a.g + (b.g - a.g) * t),
                  (int)lround(a.b + (b.b - a.b) * t));
}

/* within tolerance: white to blue; above: yellow to red; NaN/Inf: purple */
static const rgb low0 = {247, 251, 255}, low1 = {107, 174, 214}, high0 = {254, 224, 139}, high1 = {215, 48, 39};
#define NAN_COLOR "#7b3294"

/* outside: the cell's count of elements outside the tolerance (the
 * validator's rule), or -1 in an older report without it (then the cell's
 * max against atol decides). */
static void cell_color(strbuf *out, const json_value *v, double outside, double tol, double max)
{
    if (!v || v->type != JSON_NUMBER) {
        strbuf_puts(out, NAN_COLOR);
        return;
    }
    double x = v->number;
    if (outside >= 0) {
        if (outside > 0)
            color(out, high0, high1, max > 0 ? x / max : 1);
        else
            color(out, low0, low1, max > 0 ? x / max : 0);
        return;
    }
    if (x <= tol || max <= tol)
        color(out, low0, low1, tol > 0 ? x / tol : 0);
    else
        color(out, high0, high1, (x - tol) / (max - tol));
}

static void heatmap_svg(strbuf *out, const json_value *g, const char *title, int *ids)
{
    int rows = (int)json_get_num(g, "rows", 0), cols = (int)json_get_num(g, "cols", 0);
    const json_value *cells = json_get(g, "cells");
    if (rows < 1 || cols < 1 || rows > 4096 || cols > 4096 || !cells || cells->type != JSON_ARRAY ||
        cells->n != (size_t)rows * (size_t)cols)
        return;
    double tol = json_get_num(g, "tol", 0), max = json_get_num(g, "max", 0);
    /* cells as fractions of their tolerance (tensor/heatgrid.h); a report
     * written before that has max |diff| per cell, scaled to the worst */
    const char *scale = json_get_str(g, "scale");
    int absolute = scale && strcmp(scale, "tolerance") == 0;
    const json_value *outside = json_get(g, "outside");
    if (outside && (outside->type != JSON_ARRAY || outside->n != cells->n))
        outside = NULL;
    int cw = 768 / cols > 48 ? 48 : 768 / cols < 3 ? 3 : 768 / cols, ch = cw; /* square cells, at most 768 px wide */
    int w = cols * cw, h = rows * ch, legend_y = h + 14, width = w < 420 ? 420 : w;
    int id = ++*ids;
    strbuf_printf(out, "<svg class=\"heatmap\" width=\"%d\" height=\"%d\" "
                       "viewBox=\"0 0 %d %d\" role=\"img\"><title>",
                  width + 2, legend_y + 40, width + 2, legend_y + 40);
    text(out, title);
    strbuf_printf(out, "</title><defs><linearGradient id=\"lo%d\"><stop offset=\"0\" stop-color=\"", id);
    color(out, low0, low1, 0);
    strbuf_puts(out, "\"/><stop offset=\"1\" stop-color=\"");
    color(out, low0, low1, 1);
    strbuf_printf(out, "\"/></linearGradient><linearGradient id=\"hi%d\"><stop offset=\"0\" stop-color=\"", id);
    color(out, high0, high1, 0);
    strbuf_puts(out, "\"/><stop offset=\"1\" stop-color=\"");
    color(out, high0, high1, 1);
    strbuf_puts(out, "\"/></linearGradient></defs><g class=\"cells\" shape-rendering=\"crispEdges\">");
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            strbuf_printf(out, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"", 1 + c * cw, 1 + r * ch,
                          cw, ch);
            size_t at = (size_t)r * (size_t)cols + (size_t)c;
            double n_out = outside ? (outside->items[at].type == JSON_NUMBER ? outside->items[at].number : 0) : -1;
            if (absolute) /* the one heat scale: the cell's level's colour */
                strbuf_puts(out, heat_level_colour(heat_level(
                                     cells->items[at].type == JSON_NUMBER ? cells->items[at].number : NAN)));
            else
                cell_color(out, &cells->items[at], n_out, tol, max);
            strbuf_puts(out, "\"/>");
        }
    strbuf_printf(out, "</g><rect x=\"1\" y=\"1\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>", w, h);
    const json_value *valid = json_get(g, "valid");
    if (valid && valid->type == JSON_ARRAY && valid->n == 2 && valid->items[0].type == JSON_NUMBER &&
        valid->items[1].type == JSON_NUMBER) {
        int vr = (int)valid->items[0].number, vc = (int)valid->items[1].number;
        if ((vr < rows || vc < cols) && vr > 0 && vc > 0)
            strbuf_printf(out,
                          "<rect x=\"1\" y=\"1\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\" "
                          "stroke-dasharray=\"4 2\"><title>valid region</title></rect>",
                          vc * cw, vr * ch);
    }
    if (absolute) {
        /* legend: a swatch per level, its character under it, then the words */
        strbuf_puts(out, "<g class=\"legend\">");
        for (int level = 0; level < HEAT_NLEVELS; level++) {
            int x = 1 + level * 18 + (level >= HEAT_LEVEL_OVER ? 8 : 0) + (level == HEAT_LEVEL_NAN ? 8 : 0);
            char mark[2] = {heat_level_char(level), '\0'};
            strbuf_printf(out,
                          "<rect x=\"%d\" y=\"%d\" width=\"16\" height=\"10\" fill=\"%s\" stroke=\"#ccc\"/>"
                          "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>",
                          x, legend_y, heat_level_colour(level), x + 8, legend_y + 22,
                          mark[0] == ' ' ? "0" : mark);
        }
        char worst[32];
        heat_format_share(max, worst, sizeof worst);
        strbuf_printf(out, "<text x=\"1\" y=\"%d\">worst cell at %s%s its tolerance; %.0f of %.0f elements "
                           "outside it</text></g></svg>\n",
                      legend_y + 36, worst, worst[strlen(worst) - 1] == 'x' ? "" : " of",
                      json_get_num(g, "outside_elements", 0), json_get_num(g, "elements", 0));
        strbuf_puts(out, "<p class=\"muted\">");
        text(out, heat_legend());
        strbuf_puts(out, "</p>\n");
        return;
    }
    /* legend: 0..tol within tolerance, tol..max above, NaN/Inf */
    strbuf_printf(out,
                  "<g class=\"legend\"><rect x=\"1\" y=\"%d\" width=\"120\" height=\"10\" fill=\"url(#lo%d)\"/>"
                  "<rect x=\"130\" y=\"%d\" width=\"120\" height=\"10\" fill=\"url(#hi%d)\"/>"
                  "<rect x=\"260\" y=\"%d\" width=\"10\" height=\"10\" fill=\"" NAN_COLOR "\"/>",
                  legend_y, id, legend_y, id, legend_y);
    if (outside) {
        strbuf_printf(out,
                      "<text x=\"1\" y=\"%d\">0</text><text x=\"121\" y=\"%d\" text-anchor=\"end\">%.3g</text>"
                      "<text x=\"130\" y=\"%d\">0</text><text x=\"250\" y=\"%d\" text-anchor=\"end\">%.3g</text>"
                      "<text x=\"274\" y=\"%d\">NaN/Inf</text>"
                      "<text x=\"1\" y=\"%d\">max |actual - golden| per cell: all within tolerance | holding "
                      "elements outside it (%.0f of %.0f elements, as the validate line counts)</text>"
                      "</g></svg>\n",
                      legend_y + 22, legend_y + 22, max, legend_y + 22, legend_y + 22, max, legend_y + 22,
                      legend_y + 36, json_get_num(g, "outside_elements", 0), json_get_num(g, "elements", 0));
        return;
    }
    strbuf_printf(out,
                  "<text x=\"1\" y=\"%d\">0</text><text x=\"121\" y=\"%d\" text-anchor=\"end\">%.3g</text>"
                  "<text x=\"130\" y=\"%d\">&gt; tol</text><text x=\"250\" y=\"%d\" text-anchor=\"end\">%.3g</text>"
                  "<text x=\"274\" y=\"%d\">NaN/Inf</text>"
                  "<text x=\"1\" y=\"%d\">max |actual - golden| per cell: within tolerance (atol %.3g) | above</text>"
                  "</g></svg>\n",
                  legend_y + 22, legend_y + 22, tol, legend_y + 22, legend_y + 22, max, legend_y + 22,
                  legend_y + 36, tol);
}

/* ---- one case ------------------------------------------------------------------------------ */

static void pass_table(strbuf *out, const json_value *kase, size_t ci)
{
    const json_value *keys = json_get(json_get(kase, "case"), "outputs");
    const json_value *passes = json_get(kase, "passes");
    strbuf_puts(out, "<table class=\"passes\"><tr><th>pass</th><th>verdict</th>");
    for (size_t k = 0; keys && keys->type == JSON_ARRAY && k < keys->n; k++) {
        strbuf_puts(out, "<th>max_abs_diff ");
        text(out, keys->items[k].type == JSON_STRING ? keys->items[k].string : "?");
        strbuf_puts(out, "</th>");
    }
    strbuf_puts(out, "<th title=\"the worst element's |actual - golden| as a share of its tolerance, over the "
                     "outputs\">margin</th><th>steps</th><th>time (s)</th></tr>\n");
    for (size_t i = 0; passes && i < passes->n; i++) {
        const json_value *p = &passes->items[i];
        const char *cls, *word = verdict_word(p, &cls);
        strbuf_printf(out, "<tr class=\"%s\" id=\"c%zu-p%zu\"><td>", cls, ci, i);
        text(out, json_get_str(p, "stem"));
        if (json_get_str(p, "same_as"))
            strbuf_puts(out, " <span class=\"muted\" title=\"identical to an earlier file, run once\">=</span>");
        strbuf_printf(out, "</td><td class=\"v\">%s</td>", word);
        const json_value *outs = json_get(p, "outputs");
        for (size_t k = 0; keys && keys->type == JSON_ARRAY && k < keys->n; k++) {
            const json_value *o = NULL;
            for (size_t j = 0; outs && outs->type == JSON_ARRAY && j < outs->n && !o; j++) {
                const char *key = json_get_str(&outs->items[j], "key");
                if (key && keys->items[k].type == JSON_STRING && strcmp(key, keys->items[k].string) == 0)
                    o = &outs->items[j];
            }
            const char *d = o ? json_get_str(o, "max_abs_diff_text") : NULL;
            strbuf_printf(out, "<td class=\"n%s\">", o && !json_get_bool(o, "pass", 0) ? " bad" : "");
            text(out, d ? d : "-");
            strbuf_puts(out, "</td>");
        }
        /* the margin: the worst output's (a report without it, an older ptodb's: -) */
        double margin = 0;
        int have_margin = outs && outs->type == JSON_ARRAY && outs->n > 0;
        for (size_t j = 0; have_margin && j < outs->n; j++) {
            const json_value *m = json_get(&outs->items[j], "margin");
            if (!m || m->type != JSON_NUMBER)
                have_margin = 0;
            else if (m->number > margin)
                margin = m->number;
        }
        char ms[32] = "-";
        if (have_margin)
            heat_format_share(margin, ms, sizeof ms);
        strbuf_printf(out, "<td class=\"n%s\">%s</td>", have_margin && margin > 1 ? " bad" : "", ms);
        int ran = strcmp(cls, "notrun") != 0;
        if (ran)
            strbuf_printf(out, "<td class=\"n\">%.0f</td><td class=\"t\">%.3f</td></tr>\n", json_get_num(p, "steps", 0),
                          json_get_str(p, "same_as") ? 0.0 : json_get_num(p, "seconds", 0));
        else
            strbuf_puts(out, "<td class=\"n\">-</td><td class=\"t\">-</td></tr>\n");
    }
    strbuf_puts(out, "</table>\n");
}

static void failing_passes(strbuf *out, const json_value *kase, int *ids)
{
    const json_value *passes = json_get(kase, "passes");
    int any = 0;
    for (size_t i = 0; passes && i < passes->n; i++) {
        const json_value *p = &passes->items[i];
        const char *cls, *word = verdict_word(p, &cls);
        if (strcmp(cls, "fail") != 0)
            continue;
        if (!any++)
            strbuf_puts(out, "<h3>Failing passes</h3>\n");
        const char *stem = json_get_str(p, "stem"), *same = json_get_str(p, "same_as");
        strbuf_puts(out, "<details class=\"failing\" open><summary>");
        text(out, stem);
        strbuf_printf(out, " &#8212; %s</summary>\n", word);
        if (same) {
            strbuf_puts(out, "<p class=\"muted\">Same file as ");
            text(out, same);
            strbuf_puts(out, ": the same result.</p>\n");
        }
        const char *msg = json_get_str(p, "message");
        if (msg) {
            strbuf_puts(out, "<pre>");
            text(out, msg);
            strbuf_puts(out, "</pre>\n");
        }
        const json_value *outs = json_get(p, "outputs");
        for (size_t k = 0; outs && outs->type == JSON_ARRAY && k < outs->n; k++) {
            const json_value *o = &outs->items[k];
            if (json_get_bool(o, "pass", 0))
                continue;
            strbuf scratch = STRBUF_INIT;
            strbuf_puts(out, "<pre>");
            text(out, report_output_text(o, &scratch));
            strbuf_puts(out, "</pre>\n");
            strbuf_free(&scratch);
            const json_value *g = json_get(o, "heatgrid");
            if (g && !same) {
                strbuf title = STRBUF_INIT;
                const char *scale = json_get_str(g, "scale");
                strbuf_printf(&title, "heat map of '%s' after %s: %s per %s", json_get_str(o, "key"), stem,
                              scale && strcmp(scale, "tolerance") == 0
                                  ? "the worst |actual - golden| against its tolerance"
                                  : "max |actual - golden|",
                              json_get_str(g, "per") ? json_get_str(g, "per") : "cell");
                strbuf_puts(out, "<p class=\"muted\">");
                text(out, strbuf_str(&title));
                const json_value *view = json_get(g, "view");
                if (view && view->type == JSON_ARRAY && view->n == 2)
                    strbuf_printf(out, " (%.0fx%.0f elements, %.0fx%.0f cells)", view->items[0].number,
                                  view->items[1].number, json_get_num(g, "rows", 0), json_get_num(g, "cols", 0));
                strbuf_puts(out, "</p>\n");
                heatmap_svg(out, g, strbuf_str(&title), ids);
                strbuf_free(&title);
            }
        }
        strbuf_puts(out, "</details>\n");
    }
}

static void ir_diff(strbuf *out, const json_value *kase)
{
    const json_value *d = json_get(kase, "ir_diff");
    const char *t = json_get_str(d, "text");
    if (!t)
        return;
    strbuf_puts(out, "<h3>IR diff: ");
    text(out, json_get_str(d, "from"));
    strbuf_puts(out, " (last passing) &#8594; ");
    text(out, json_get_str(d, "to"));
    strbuf_puts(out, " (first failing)</h3>\n<pre class=\"diff\">");
    for (const char *p = t; *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *cls = n >= 2 && p[0] == '@' && p[1] == '@' ? "hunk"
                          : n >= 3 && (strncmp(p, "+++", 3) == 0 || strncmp(p, "---", 3) == 0) ? "hunk"
                          : *p == '+' ? "add"
                          : *p == '-' ? "del"
                                      : NULL;
        if (cls)
            strbuf_printf(out, "<span class=\"%s\">", cls);
        xml_escape_n(out, p, n);
        strbuf_puts(out, cls ? "</span>" : "\n");
        if (!e)
            break;
        p = e + 1;
    }
    strbuf_puts(out, "</pre>\n");
}

static int is_later(const json_value *stmt, int line)
{
    const json_value *later = json_get(stmt, "later");
    for (size_t i = 0; later && later->type == JSON_ARRAY && i < later->n; i++)
        if ((int)json_get_num(&later->items[i], "line", 0) == line)
            return 1;
    return 0;
}

/* A source window with the statement's line highlighted (and, in the
 * failing pass, the next differing ones more lightly). */
static void source_table(strbuf *out, const char *caption, const char *file, int line, const json_value *src,
                         const json_value *stmt)
{
    if (!src || src->type != JSON_OBJECT)
        return;
    int first = (int)json_get_num(src, "first", 1);
    const json_value *lines = json_get(src, "lines");
    strbuf_puts(out, "<div><p>");
    text(out, caption);
    strbuf_puts(out, ": <code>");
    text(out, file);
    strbuf_printf(out, ":%d</code></p><table class=\"src\">", line);
    for (size_t i = 0; lines && lines->type == JSON_ARRAY && i < lines->n; i++) {
        int n = first + (int)i;
        strbuf_printf(out, "<tr%s><td class=\"ln\">%d</td><td>",
                      n == line ? " class=\"hl\"" : stmt && is_later(stmt, n) ? " class=\"hl2\"" : "", n);
        text(out, lines->items[i].type == JSON_STRING ? lines->items[i].string : "");
        strbuf_puts(out, "</td></tr>");
    }
    strbuf_puts(out, "</table></div>\n");
}

static void bisect_section(strbuf *out, const json_value *kase)
{
    const json_value *b = json_get(kase, "bisect");
    if (!b || b->type != JSON_OBJECT)
        return;
    strbuf_puts(out, "<h3>Bisect: the first failing pass and its first differing statement</h3>\n<pre>");
    text(out, json_get_str(b, "text"));
    strbuf_puts(out, "</pre>\n");
    const json_value *s = json_get(b, "statement");
    if (!json_get_bool(s, "found", 0))
        return;
    strbuf_puts(out, "<div class=\"srcs\">");
    source_table(out, "first failing pass", json_get_str(s, "file"), (int)json_get_num(s, "line", 0),
                 json_get(s, "source"), s);
    source_table(out, "last passing pass", json_get_str(s, "good_file"), (int)json_get_num(s, "good_line", 0),
                 json_get(s, "good_source"), NULL);
    strbuf_puts(out, "</div>\n");
}

static void case_section(strbuf *out, const json_value *kase, size_t ci, int *ids)
{
    strbuf_printf(out, "<section class=\"case\" id=\"case-%zu\"><h2>", ci);
    text(out, report_case_name(kase));
    strbuf_puts(out, "</h2>\n<p><code>");
    text(out, report_case_path(kase));
    strbuf_puts(out, "</code>");
    const json_value *opt = json_get(kase, "options"), *tol = json_get(kase, "tolerances");
    if (opt) {
        strbuf_puts(out, " &#8212; ");
        if (json_get_str(opt, "semantics")) {
            strbuf_puts(out, "semantics ");
            text(out, json_get_str(opt, "semantics"));
            strbuf_puts(out, ", ");
        }
        strbuf_puts(out, "profile ");
        text(out, json_get_str(opt, "profile"));
        strbuf_printf(out, ", rtol %.6g, atol %.6g", json_get_num(json_get(tol, "rtol"), "value", 0),
                      json_get_num(json_get(tol, "atol"), "value", 0));
    }
    strbuf_puts(out, "</p>\n");
    const char *error = json_get_str(kase, "error");
    if (error) {
        strbuf_puts(out, "<pre class=\"error\">");
        text(out, error);
        strbuf_puts(out, "</pre></section>\n");
        return;
    }
    pass_table(out, kase, ci);
    failing_passes(out, kase, ids);
    ir_diff(out, kase);
    bisect_section(out, kase);
    strbuf_puts(out, "</section>\n");
}

void html_write(const report_doc *d, strbuf *out)
{
    report_totals t;
    report_doc_totals(d->cases, d->ncases, &t);
    strbuf_puts(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                     "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                     "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">\n"
                     "<title>ptodb --batch ");
    text(out, d->path ? d->path : "");
    strbuf_printf(out, "</title>\n<style>%s</style></head><body>\n<h1>ptodb --batch <code>", style);
    text(out, d->path ? d->path : "");
    strbuf_puts(out, "</code></h1>\n");
    if (d->shard_count)
        strbuf_printf(out, "<p>shard %d of %d</p>\n", d->shard_index, d->shard_count);
    strbuf_printf(out, "<p id=\"totals\">%zu case%s: %zu pass, %zu fail, %zu error; %zu passes: %zu pass, %zu fail, ",
                  t.cases, t.cases == 1 ? "" : "s", t.cases_passed, t.cases_failed, t.cases_error, t.passes, t.passed,
                  t.failed);
    if (t.errors) /* pass files that do not check, as the text summary says */
        strbuf_printf(out, "%zu error (does not check), ", t.errors);
    strbuf_printf(out, "%zu not validated</p>\n", t.not_run);
    strbuf_puts(out, "<table class=\"cases\"><tr><th>case</th><th>verdict</th><th>passes</th><th>pass</th>"
                     "<th>fail</th><th>error</th><th>not validated</th><th>first failing pass</th></tr>\n");
    for (size_t i = 0; i < d->ncases; i++) {
        const json_value *c = d->cases[i], *s = json_get(c, "summary");
        int code = report_case_exit(c);
        strbuf_printf(out, "<tr class=\"%s\"><td><a href=\"#case-%zu\">", code == 0 ? "pass" : code == 1 ? "fail" : "error",
                      i);
        text(out, report_case_name(c));
        strbuf_printf(out, "</a></td><td class=\"v\">%s</td><td class=\"n\">%.0f</td><td class=\"n\">%.0f</td>"
                           "<td class=\"n\">%.0f</td><td class=\"n\">%.0f</td><td class=\"n\">%.0f</td><td>",
                      code == 0 ? "PASS" : code == 1 ? "FAIL" : "ERROR", json_get_num(s, "passes", 0),
                      json_get_num(s, "passed", 0), json_get_num(s, "failed", 0), json_get_num(s, "errors", 0),
                      json_get_num(s, "not_run", 0));
        text(out, json_get_str(s, "first_failing"));
        strbuf_puts(out, "</td></tr>\n");
    }
    strbuf_puts(out, "</table>\n");
    int ids = 0;
    for (size_t i = 0; i < d->ncases; i++)
        case_section(out, d->cases[i], i, &ids);
    strbuf_puts(out, "</body></html>\n");
}

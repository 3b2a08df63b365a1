#include "batch/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fdio.h"
#include "base/mem.h"
#include "base/utf8.h"
#include "batch/diverge.h"
#include "batch/report.h"
#include "exec/machine.h"

void json_put_string(strbuf *o, const char *s)
{
    if (!s) {
        strbuf_puts(o, "null");
        return;
    }
    strbuf_putc(o, '"');
    const unsigned char *end = (const unsigned char *)s + strlen(s);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': strbuf_puts(o, "\\\""); break;
        case '\\': strbuf_puts(o, "\\\\"); break;
        case '\n': strbuf_puts(o, "\\n"); break;
        case '\t': strbuf_puts(o, "\\t"); break;
        case '\r': strbuf_puts(o, "\\r"); break;
        default:
            if (*p < 0x20) {
                strbuf_printf(o, "\\u%04x", *p);
            } else if (*p < 0x80) {
                strbuf_putc(o, (char)*p);
            } else {
                /* bytes that are not UTF-8 (a hostile dump's) become U+FFFD */
                size_t n = utf8_char_len(p, (size_t)(end - p));
                if (n == 0) {
                    strbuf_puts(o, "\\ufffd");
                } else {
                    strbuf_append(o, (const char *)p, n);
                    p += n - 1;
                }
            }
        }
    }
    strbuf_putc(o, '"');
}

static void jnum(strbuf *o, double v)
{
    if (!isfinite(v))
        strbuf_puts(o, "null");
    else
        strbuf_printf(o, "%.17g", v);
}

static void jkey(strbuf *o, const char *k)
{
    json_put_string(o, k);
    strbuf_puts(o, ": ");
}

static void tol(strbuf *o, const case_tol *t)
{
    strbuf_puts(o, "{\"value\": ");
    jnum(o, t->value);
    strbuf_puts(o, ", \"source\": ");
    json_put_string(o, case_tol_source_name(t->source));
    strbuf_puts(o, ", \"where\": ");
    json_put_string(o, t->where);
    strbuf_puts(o, "}");
}

static void pass_ref(strbuf *o, const batch *b, int i)
{
    if (i < 0)
        strbuf_puts(o, "null");
    else
        json_put_string(o, b->c->passes[i].stem);
}

/* The numbers of a heat grid (NaN cells as null), for reports to draw. */
static void grid_json(strbuf *o, const batch_output *x)
{
    const heatgrid *g = x->grid;
    strbuf_printf(o, "{\"rows\": %d, \"cols\": %d, \"view\": [%lld, %lld], \"block\": [%d, %d], \"per\": \"%s\", "
                     "\"valid\": [%d, %d], \"max\": ",
                  g->rows, g->cols, (long long)g->shape[0], (long long)g->shape[1], g->block_rows, g->block_cols,
                  x->grid_tiled ? "tile" : "block", g->valid_rows, g->valid_cols);
    jnum(o, g->max);
    /* cells: the worst element's |diff| as a fraction of its tolerance (tensor/heatgrid.h) */
    strbuf_puts(o, ", \"scale\": \"tolerance\", \"max_abs\": ");
    jnum(o, g->max_abs);
    strbuf_puts(o, ", \"tol\": ");
    jnum(o, x->atol);
    strbuf_puts(o, ", \"cells\": [");
    for (int i = 0; i < g->rows * g->cols; i++) {
        if (i)
            strbuf_puts(o, i % g->cols ? ", " : ",\n      ");
        if (isnan(g->cells[i]))
            strbuf_puts(o, "null");
        else
            strbuf_printf(o, "%.6g", (double)g->cells[i]);
    }
    strbuf_puts(o, "]");
    if (g->outside) {
        /* per cell, the elements outside the tolerance by the validator's rule */
        strbuf_printf(o, ", \"outside_elements\": %lld, \"elements\": %lld, \"outside\": [",
                      (long long)g->outside_elements, (long long)g->elements);
        for (int i = 0; i < g->rows * g->cols; i++)
            strbuf_printf(o, "%s%u", i ? (i % g->cols ? ", " : ",\n      ") : "", g->outside[i]);
        strbuf_puts(o, "]");
    }
    strbuf_puts(o, "}");
}

static void output_json(strbuf *o, const batch *b, size_t pass, size_t k)
{
    const batch_output *x = &b->passes[pass].outputs[k];
    int metrics = b->o.metrics;
    char d[64];
    exec_format_e6(x->cmp.max_abs_diff, d, sizeof d);
    strbuf_puts(o, "{");
    jkey(o, "key");
    json_put_string(o, x->key);
    strbuf_puts(o, ", \"pass\": ");
    strbuf_puts(o, !x->cmp.error && x->cmp.pass ? "true" : "false");
    strbuf_puts(o, ", \"max_abs_diff\": ");
    if (x->cmp.error)
        strbuf_puts(o, "null");
    else
        jnum(o, x->cmp.max_abs_diff);
    strbuf_puts(o, ", \"max_abs_diff_text\": ");
    json_put_string(o, x->cmp.error ? NULL : d);
    /* the worst element's |diff| as a fraction of its tolerance */
    strbuf_puts(o, ", \"margin\": ");
    if (x->cmp.error)
        strbuf_puts(o, "null");
    else
        jnum(o, x->cmp.margin);
    strbuf_puts(o, ", \"rtol\": ");
    jnum(o, x->rtol);
    strbuf_puts(o, ", \"atol\": ");
    jnum(o, x->atol);
    strbuf_printf(o, ", \"dtype\": \"%s\", \"mismatches\": %lld, \"count\": %lld, \"dont_care\": %lld, "
                  "\"first_bad_index\": ",
                  dtype_name(x->dtype), (long long)x->cmp.mismatches, (long long)x->cmp.count,
                  (long long)x->cmp.dont_care);
    if (x->cmp.first_bad >= 0)
        strbuf_printf(o, "%lld", (long long)x->cmp.first_bad);
    else
        strbuf_puts(o, "null");
    strbuf_puts(o, ", \"error\": ");
    json_put_string(o, x->cmp.error ? x->cmp.msg : NULL);
    if (metrics) {
        const batch_metrics *m = &x->met;
        strbuf_printf(o, ", \"metrics\": {\"outside\": %lld, \"outside_share\": ", (long long)m->outside);
        jnum(o, m->outside_share);
        strbuf_puts(o, ", \"first_bad_index\": ");
        if (m->first_bad >= 0) {
            strbuf_puts(o, "[");
            for (int dd = 0; dd < m->ndim; dd++)
                strbuf_printf(o, "%s%lld", dd ? ", " : "", (long long)m->first_bad_index[dd]);
            strbuf_puts(o, "], \"first_bad_actual\": ");
            jnum(o, m->first_bad_actual);
            strbuf_puts(o, ", \"first_bad_golden\": ");
            jnum(o, m->first_bad_golden);
        } else {
            strbuf_puts(o, "null, \"first_bad_actual\": null, \"first_bad_golden\": null");
        }
        strbuf_puts(o, ", \"max_rel_err\": ");
        jnum(o, m->max_rel);
        strbuf_printf(o,
                      ", \"max_ulp\": %llu, \"nan_actual\": %lld, \"nan_golden\": %lld, \"inf_actual\": %lld, "
                      "\"inf_golden\": %lld}",
                      (unsigned long long)m->max_ulp, (long long)m->nan_actual, (long long)m->nan_golden,
                      (long long)m->inf_actual, (long long)m->inf_golden);
    }
    if (x->heatmap) {
        strbuf_puts(o, ", \"heatmap\": ");
        json_put_string(o, x->heatmap);
    }
    strbuf lines = STRBUF_INIT;
    report_output_lines(b, pass, k, &lines);
    strbuf_puts(o, ", \"lines\": ");
    json_put_string(o, strbuf_str(&lines));
    strbuf_free(&lines);
    if (x->grid) {
        strbuf_puts(o, ", \"heatgrid\": ");
        grid_json(o, x);
    }
    strbuf_puts(o, "}");
}

/* Lines line-radius .. line+radius of file: {"first": N, "lines": [...]},
 * or null when the file cannot be read. */
static void source_json(strbuf *o, const char *file, int line, int radius)
{
    size_t len;
    char *text = file ? file_read_all(file, &len) : NULL;
    if (!text || line < 1) {
        strbuf_puts(o, "null");
        free(text);
        return;
    }
    int first = line - radius < 1 ? 1 : line - radius, n = 1;
    strbuf_printf(o, "{\"first\": %d, \"lines\": [", first);
    int emitted = 0;
    for (const char *p = text; *p && n <= line + radius; n++) {
        const char *e = strchr(p, '\n');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (n >= first) {
            char *one = xstrndup(p, l);
            strbuf_puts(o, emitted++ ? ", " : "");
            json_put_string(o, one);
            free(one);
        }
        if (!e)
            break;
        p = e + 1;
    }
    strbuf_puts(o, "]}");
    free(text);
}

enum { SOURCE_RADIUS = 4 }; /* source lines shown around a statement */

void batch_json_statement(strbuf *o, const bisect_stmt *s)
{
    strbuf_printf(o, "{\"found\": %s, \"op_changed\": %s, \"fails\": %s", s->found ? "true" : "false",
                  s->op_changed ? "true" : "false", s->fails ? "true" : "false");
    if (s->found) {
        strbuf_puts(o, ", \"file\": ");
        json_put_string(o, s->file);
        strbuf_printf(o, ", \"line\": %d, \"function\": ", s->line);
        json_put_string(o, s->func);
        strbuf_puts(o, ", \"core\": ");
        json_put_string(o, machine_core_name(s->core));
        strbuf_printf(o, ", \"block\": %lld, \"blocks\": %lld", (long long)s->block,
                      (long long)(s->blocks > 0 ? s->blocks : 1));
        if (s->rank >= 0)
            strbuf_printf(o, ", \"rank\": %d", s->rank);
        else
            strbuf_puts(o, ", \"rank\": null");
        strbuf_puts(o, ", \"tensor\": ");
        json_put_string(o, s->tensor);
        strbuf_puts(o, ", \"good_file\": ");
        json_put_string(o, s->good_file);
        strbuf_printf(o, ", \"good_line\": %d, \"good_tensor\": ", s->good_line);
        json_put_string(o, s->good_tensor);
        strbuf_puts(o, ", \"max_abs_diff\": ");
        jnum(o, s->op_changed ? NAN : s->max_abs_diff);
        strbuf_puts(o, ", \"max_abs_golden\": ");
        jnum(o, s->op_changed ? NAN : s->max_golden);
        strbuf_printf(o, ", \"outside\": %lld, \"count\": %lld, \"first_bad_index\": %lld", (long long)s->outside,
                      (long long)s->count, (long long)s->first_bad);
        strbuf_puts(o, ", \"source\": ");
        source_json(o, s->file, s->line, SOURCE_RADIUS);
        strbuf_puts(o, ", \"good_source\": ");
        source_json(o, s->good_file, s->good_line, SOURCE_RADIUS);
    }
    strbuf_puts(o, ", \"new_if\": ");
    if (s->found && s->new_if)
        strbuf_printf(o, "{\"runs\": %llu, \"then\": %llu}", (unsigned long long)s->new_if_runs,
                      (unsigned long long)s->new_if_then);
    else
        strbuf_puts(o, "null");
    strbuf_puts(o, ", \"op\": ");
    json_put_string(o, s->op_now);
    strbuf_puts(o, ", \"good_op\": ");
    json_put_string(o, s->op_was);
    strbuf_puts(o, ", \"earlier\": ");
    if (s->earlier_tensor) {
        strbuf_printf(o, "{\"line\": %d, \"tensor\": ", s->earlier_line);
        json_put_string(o, s->earlier_tensor);
        strbuf_puts(o, "}");
    } else {
        strbuf_puts(o, "null");
    }
    strbuf_puts(o, ", \"bit_difference\": ");
    if (s->bit_tensor && (!s->found || s->bit_line != s->line)) {
        strbuf_printf(o, "{\"line\": %d, \"core\": ", s->bit_line);
        json_put_string(o, machine_core_name(s->bit_core));
        if (s->bit_rank >= 0)
            strbuf_printf(o, ", \"rank\": %d", s->bit_rank);
        else
            strbuf_puts(o, ", \"rank\": null");
        strbuf_puts(o, ", \"tensor\": ");
        json_put_string(o, s->bit_tensor);
        strbuf_printf(o, ", \"elements\": %lld, \"count\": %lld, \"max_abs_diff\": ", (long long)s->bit_count,
                      (long long)s->bit_numel);
        jnum(o, s->bit_max);
        strbuf_puts(o, "}");
    } else {
        strbuf_puts(o, "null");
    }
    strbuf_puts(o, ", \"later\": [");
    for (size_t k = 0; k < s->nlater; k++) {
        strbuf_printf(o, "%s{\"line\": %d, \"tensor\": ", k ? ", " : "", s->later_line[k]);
        json_put_string(o, s->later_tensor[k]);
        strbuf_puts(o, "}");
    }
    strbuf_printf(o, "], \"compared\": %zu, \"realigned\": %zu, \"unmatched\": %zu, \"note\": ", s->compared,
                  s->realigned, s->unmatched);
    json_put_string(o, s->note);
    strbuf_puts(o, ", \"reason\": ");
    json_put_string(o, s->found ? diverge_reason_word(s->reason) : NULL);
    strbuf_puts(o, ", \"reason_why\": ");
    json_put_string(o, s->reason_why);
    strbuf_puts(o, ", \"waiting\": ");
    json_put_string(o, s->waiting);
    strbuf_puts(o, ", \"consumer\": ");
    if (s->consumer_tensor) {
        strbuf_printf(o, "{\"line\": %d, \"tensor\": ", s->consumer_line);
        json_put_string(o, s->consumer_tensor);
        strbuf_puts(o, "}");
    } else {
        strbuf_puts(o, "null");
    }
    strbuf_puts(o, "}");
}

static void bisect_json(strbuf *o, const batch *b, const bisect_result *r)
{
    static const char *const st[] = {"found", "all_pass", "first_fails", "no_passes", "interrupted"};
    strbuf_puts(o, "{\"status\": ");
    json_put_string(o, st[r->status]);
    strbuf text = STRBUF_INIT;
    bisect_report_text(b, r, &text);
    strbuf_puts(o, ", \"text\": ");
    json_put_string(o, strbuf_str(&text));
    strbuf_free(&text);
    strbuf_puts(o, ", \"first_bad\": ");
    pass_ref(o, b, r->first_bad);
    strbuf_puts(o, ", \"last_good\": ");
    pass_ref(o, b, r->last_good);
    strbuf_puts(o, ", \"probes\": [");
    for (size_t i = 0; i < r->nprobe; i++) {
        if (i)
            strbuf_puts(o, ", ");
        pass_ref(o, b, r->probe_order[i]);
    }
    strbuf_printf(o, "], \"runs\": %zu, \"search_seconds\": ", r->runs);
    jnum(o, r->search_seconds);
    strbuf_printf(o, ", \"scanned\": %s, \"scan_estimate_seconds\": ", r->scanned ? "true" : "false");
    jnum(o, r->scan_estimate);
    strbuf_puts(o, ", \"monotone\": ");
    strbuf_puts(o, !r->scanned ? "null" : r->monotone ? "true" : "false");
    strbuf_puts(o, ", \"flips\": [");
    for (size_t i = 0; i < r->nflips; i++) {
        if (i)
            strbuf_puts(o, ", ");
        pass_ref(o, b, r->flips[i]);
    }
    strbuf_puts(o, "], \"recoveries\": [");
    for (size_t i = 0; i < r->nrecoveries; i++) {
        if (i)
            strbuf_puts(o, ", ");
        pass_ref(o, b, r->recoveries[i]);
    }
    strbuf_puts(o, "], \"statement\": ");
    const bisect_stmt *s = &r->stmt;
    if (!r->stmt_done) {
        strbuf_puts(o, "null}");
        return;
    }
    batch_json_statement(o, s);
    strbuf_puts(o, "}");
}

void batch_json_write(const batch *b, const bisect_result *br, const batch_json_info *info, strbuf *o)
{
    const case_info *c = b->c;
    strbuf_puts(o, "{\n  \"schema\": \"ptodb-batch/1\",\n  \"case\": {");
    jkey(o, "path");
    json_put_string(o, info->case_path);
    strbuf_puts(o, ", \"name\": ");
    const char *slash = strrchr(c->root, '/');
    json_put_string(o, slash && slash[1] ? slash + 1 : c->root);
    strbuf_puts(o, ", \"root\": ");
    json_put_string(o, c->root);
    strbuf_puts(o, ", \"dump_dir\": ");
    json_put_string(o, c->dump_dir);
    strbuf_printf(o, ", \"passes\": %zu, \"distinct_files\": %zu, \"outputs\": [", c->npasses, b->ndistinct);
    for (size_t k = 0; k < c->noutputs; k++) {
        if (k)
            strbuf_puts(o, ", ");
        json_put_string(o, c->outputs[k].name);
    }
    /* a multi-rank case: its outputs per rank, as the passes name them */
    for (int r = 0, n = 0; r < c->ranks.nranks; r++)
        for (size_t k = 0; k < c->rank_data[r].noutputs; k++) {
            strbuf key = STRBUF_INIT;
            strbuf_printf(&key, "rank%d.%s", r, c->rank_data[r].outputs[k].name);
            if (n++)
                strbuf_puts(o, ", ");
            json_put_string(o, strbuf_str(&key));
            strbuf_free(&key);
        }
    strbuf_puts(o, "]");
    if (c->ranks.nranks)
        strbuf_printf(o, ", \"ranks\": %d", c->ranks.nranks);
    strbuf_puts(o, "},\n  \"tolerances\": {\"rtol\": ");
    tol(o, &c->rtol);
    strbuf_puts(o, ", \"atol\": ");
    tol(o, &c->atol);
    strbuf_puts(o, ", \"outputs\": {");
    for (size_t k = 0; k < c->noutputs; k++) {
        if (k)
            strbuf_puts(o, ", ");
        jkey(o, c->outputs[k].name);
        strbuf_puts(o, "{\"rtol\": ");
        tol(o, &c->outputs[k].rtol);
        strbuf_puts(o, ", \"atol\": ");
        tol(o, &c->outputs[k].atol);
        strbuf_puts(o, "}");
    }
    strbuf_puts(o, "}},\n  \"options\": {\"semantics\": ");
    json_put_string(o, exec_semantics_name(b->o.ro.mopt.semantics));
    strbuf_puts(o, ", \"profile\": ");
    json_put_string(o, info->profile);
    strbuf_printf(o,
                  ", \"jobs\": %d, \"stop_at_first\": %s, \"metrics\": %s, \"heatmap\": %s, \"bisect\": %s, "
                  "\"strict_ref\": %s},\n",
                  b->o.jobs, info->stop_at_first ? "true" : "false", b->o.metrics ? "true" : "false",
                  b->o.heatmap ? "true" : "false", br ? "true" : "false", b->o.ro.strict_ref ? "true" : "false");
    strbuf_puts(o, "  \"passes\": [\n");
    for (size_t i = 0; i < c->npasses; i++) {
        const batch_pass *p = &b->passes[i];
        strbuf_printf(o, "    {\"index\": %d, \"stem\": ", c->passes[i].index);
        json_put_string(o, c->passes[i].stem);
        strbuf_puts(o, ", \"name\": ");
        json_put_string(o, c->passes[i].name);
        strbuf_puts(o, ", \"file\": ");
        json_put_string(o, c->passes[i].path);
        strbuf_puts(o, ", \"status\": ");
        json_put_string(o, batch_status_name(p->status));
        strbuf_puts(o, ", \"verdict\": ");
        json_put_string(o, p->status == BATCH_NOT_RUN ? "not_run"
                           : p->ok                  ? "pass"
                           : p->unchecked           ? "error" /* the file does not check: it never ran */
                           : p->memfaults           ? "memfault"
                                                    : "fail");
        strbuf_puts(o, ", \"same_as\": ");
        pass_ref(o, b, p->same_as);
        strbuf_puts(o, ", \"message\": ");
        json_put_string(o, p->message);
        strbuf_puts(o, ", \"ref_note\": ");
        json_put_string(o, p->ref_note);
        strbuf_puts(o, ", \"ref_differs\": [");
        for (const char *q = p->ref_differs; q && *q;) {
            const char *e = strchr(q, '\n');
            size_t n = e ? (size_t)(e - q) : strlen(q);
            char *line = xstrndup(q, n);
            if (q != p->ref_differs)
                strbuf_puts(o, ", ");
            json_put_string(o, line);
            free(line);
            q = e ? e + 1 : q + n;
        }
        strbuf_puts(o, "]");
        strbuf_printf(o, ", \"strict_ref_fail\": %s",
                      p->status == BATCH_COMPARED && (p->ref_note || p->ref_differs_fail) && b->o.ro.strict_ref
                          ? "true"
                          : "false");
        strbuf_printf(o, ", \"memory_faults\": %llu, \"memory_report\": ", (unsigned long long)p->memfaults);
        json_put_string(o, p->memreport);
        strbuf_printf(o, ", \"steps\": %llu, \"seconds\": ", (unsigned long long)p->steps);
        jnum(o, p->status == BATCH_NOT_RUN ? 0 : p->seconds);
        strbuf_puts(o, ", \"outputs\": [");
        for (size_t k = 0; k < p->noutputs; k++) {
            if (k)
                strbuf_puts(o, ", ");
            output_json(o, b, i, k);
        }
        strbuf_printf(o, "]}%s\n", i + 1 < c->npasses ? "," : "");
    }
    report_counts rc;
    report_count(b, &rc);
    strbuf_printf(o,
                  "  ],\n  \"summary\": {\"passes\": %zu, \"passed\": %zu, \"failed\": %zu, \"errors\": %zu, "
                  "\"not_run\": %zu, ",
                  c->npasses, rc.passed, rc.failed, rc.errors, rc.not_run);
    strbuf_puts(o, "\"first_failing\": ");
    pass_ref(o, b, rc.first_failing);
    strbuf_printf(o, ", \"stopped_early\": %s, \"files_run\": %zu, \"wall_seconds\": ", info->stopped ? "true" : "false",
                  b->nruns);
    jnum(o, info->wall_seconds);
    strbuf_printf(o, ", \"exit_code\": %d},\n  \"ir_diff\": ", info->exit_code);
    strbuf diff = STRBUF_INIT;
    int from, to;
    if (report_ir_diff(b, &from, &to, &diff) == 0) {
        strbuf_puts(o, "{\"from\": ");
        pass_ref(o, b, from);
        strbuf_puts(o, ", \"to\": ");
        pass_ref(o, b, to);
        strbuf_puts(o, ", \"text\": ");
        json_put_string(o, strbuf_str(&diff));
        strbuf_puts(o, "}");
    } else {
        strbuf_puts(o, "null");
    }
    strbuf_free(&diff);
    strbuf_puts(o, ",\n  \"bisect\": ");
    if (br)
        bisect_json(o, b, br);
    else
        strbuf_puts(o, "null");
    strbuf_puts(o, "\n}\n");
}

void batch_json_error_case(const char *case_path, const char *name, const char *message, strbuf *o)
{
    strbuf_puts(o, "{\n  \"schema\": \"ptodb-batch/1\",\n  \"case\": {\"path\": ");
    json_put_string(o, case_path);
    strbuf_puts(o, ", \"name\": ");
    json_put_string(o, name);
    strbuf_puts(o, "},\n  \"error\": ");
    json_put_string(o, message);
    strbuf_puts(o, ",\n  \"passes\": [],\n  \"summary\": {\"passes\": 0, \"passed\": 0, \"failed\": 0, "
                   "\"errors\": 0, \"not_run\": 0, \"exit_code\": 2}\n}\n");
}

#include "batch/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/fdio.h"
#include "base/textdiff.h"

void report_format_tol(double v, char *buf, size_t size)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

static void tol_text(const case_tol *t, strbuf *out)
{
    char v[40];
    report_format_tol(t->value, v, sizeof v);
    strbuf_printf(out, "%s (%s%s%s)", v, case_tol_source_name(t->source), t->where ? ", " : "",
                  t->where ? t->where : "");
}

void report_header(const batch *b, strbuf *out)
{
    const case_info *c = b->c;
    strbuf_puts(out, "tolerances: rtol=");
    tol_text(&c->rtol, out);
    strbuf_puts(out, ", atol=");
    tol_text(&c->atol, out);
    strbuf_putc(out, '\n');
    for (size_t k = 0; k < c->noutputs; k++) {
        const case_tensor *o = &c->outputs[k];
        if (o->rtol.value == c->rtol.value && o->atol.value == c->atol.value)
            continue;
        strbuf_printf(out, "tolerances for '%s': rtol=", o->name);
        tol_text(&o->rtol, out);
        strbuf_puts(out, ", atol=");
        tol_text(&o->atol, out);
        strbuf_putc(out, '\n');
    }
}

const char *report_verdict(const batch_pass *p)
{
    switch (p->status) {
    case BATCH_COMPARED: return p->ok ? "PASS" : p->memfaults ? "MEMFAULT" : "FAIL";
    case BATCH_REF_FAIL: return "REF-FAIL";
    case BATCH_ERROR: return "ERROR";
    default: return "-";
    }
}

static void metrics_line(const batch_output *o, strbuf *out)
{
    const batch_metrics *m = &o->met;
    strbuf_printf(out, "  metrics '%s': outside tolerance %.4g%% (%lld of %lld)", o->key, 100.0 * m->outside_share,
                  (long long)m->outside, (long long)m->count);
    if (m->first_bad >= 0) {
        strbuf_printf(out, ", first bad index %lld [", (long long)m->first_bad);
        for (int d = 0; d < m->ndim; d++)
            strbuf_printf(out, "%s%lld", d ? ", " : "", (long long)m->first_bad_index[d]);
        strbuf_printf(out, "] (%.6g vs golden %.6g)", m->first_bad_actual, m->first_bad_golden);
    }
    strbuf_printf(out, ", max rel err %.3e, max ULP %llu (%s), NaN %lld/%lld, Inf %lld/%lld (actual/golden)\n",
                  m->max_rel, (unsigned long long)m->max_ulp, dtype_name(o->dtype), (long long)m->nan_actual,
                  (long long)m->nan_golden, (long long)m->inf_actual, (long long)m->inf_golden);
}

void report_pass(const batch *b, size_t i, int metrics, int heatmap, strbuf *out)
{
    const case_pass *cp = &b->c->passes[i];
    const batch_pass *p = &b->passes[i];
    /* the same lines as ui/mode_run.c's run_one */
    strbuf_printf(out, "==================== %s ====================\n", cp->stem);
    if (p->status == BATCH_NOT_RUN) {
        strbuf_puts(out, "not validated\n");
        return;
    }
    if (p->status != BATCH_COMPARED) {
        /* the places met before the error where the device differs from
         * REF: a shape note can be the error's cause */
        if (p->ref_differs)
            runpass_format_ref_differs(p->ref_differs, b->o.ro.strict_ref, out);
        strbuf_printf(out, "%s%s\n", p->status == BATCH_ERROR ? diag_error_prefix(p->message) : "", p->message ? p->message : "");
        return;
    }
    if (p->ref_note)
        runpass_format_ref_note(p->ref_note, b->o.ro.strict_ref, out);
    if (p->ref_differs)
        runpass_format_ref_differs(p->ref_differs, b->o.ro.strict_ref, out);
    for (size_t k = 0; k < p->noutputs; k++) {
        const batch_output *o = &p->outputs[k];
        report_output_lines(b, i, k, out);
        if (o->cmp.error)
            continue;
        if (metrics)
            metrics_line(o, out);
        if (heatmap && o->heatmap)
            strbuf_puts(out, o->heatmap);
    }
    if (p->memfaults) {
        strbuf_puts(out, p->memreport ? p->memreport : "");
        strbuf_printf(out, "MEMFAULT: %llu memory fault%s in this pass (the device reads other data than the "
                           "reference; docs/memory.md)\n",
                      (unsigned long long)p->memfaults, p->memfaults == 1 ? "" : "s");
    }
}

void report_output_lines(const batch *b, size_t i, size_t k, strbuf *out)
{
    const batch_output *o = &b->passes[i].outputs[k];
    if (o->cmp.error) {
        strbuf_printf(out, "REF would fail here: %s: comparing '%s': %s\n", b->c->passes[i].path, o->key,
                      o->cmp.msg);
        return;
    }
    exec_format_validate_line(o->key, &o->cmp, out);
    exec_format_dont_care_line(&o->cmp, out);
    exec_format_mismatch_line(&o->cmp, o->rtol, o->atol, out);
}

int report_ir_diff(const batch *b, int *from, int *to, strbuf *out)
{
    report_counts rc;
    report_count(b, &rc);
    int bad = rc.first_failing, good = -1;
    for (int i = bad - 1; i >= 0 && good < 0; i--)
        if (b->passes[i].status != BATCH_NOT_RUN && b->passes[i].ok)
            good = i;
    if (bad < 0 || good < 0)
        return -1;
    size_t la, lb;
    char *a = file_read_all(b->c->passes[good].path, &la);
    char *z = file_read_all(b->c->passes[bad].path, &lb);
    int rcode = -1;
    if (a && z) {
        textdiff_unified(a, z, b->c->passes[good].path, b->c->passes[bad].path, 3, out);
        *from = good;
        *to = bad;
        rcode = 0;
    }
    free(a);
    free(z);
    return rcode;
}

const char *report_first_bad_word(const batch *b, int i)
{
    return b->passes[i].unchecked ? "first pass in error" : "first failing pass";
}

void report_count(const batch *b, report_counts *rc)
{
    memset(rc, 0, sizeof *rc);
    rc->first_failing = -1;
    for (size_t i = 0; i < b->c->npasses; i++) {
        const batch_pass *p = &b->passes[i];
        if (p->status == BATCH_NOT_RUN)
            rc->not_run++;
        else if (p->ok)
            rc->passed++;
        else {
            if (p->unchecked)
                rc->errors++; /* an error of its file, not a verdict on the pass */
            else
                rc->failed++;
            if (rc->first_failing < 0)
                rc->first_failing = (int)i;
        }
    }
}

double report_pass_margin(const batch_pass *p)
{
    double worst = 0;
    for (size_t k = 0; k < p->noutputs; k++) {
        double m = p->outputs[k].cmp.error ? NAN : p->outputs[k].cmp.margin;
        if (isnan(m))
            return NAN;
        if (m > worst)
            worst = m;
    }
    return worst;
}

void report_summary(const batch *b, double wall_seconds, strbuf *out)
{
    const case_info *c = b->c;
    size_t w = 4;
    for (size_t i = 0; i < c->npasses; i++)
        if (strlen(c->passes[i].stem) > w)
            w = strlen(c->passes[i].stem);
    strbuf_puts(out, "\nsummary (max_abs_diff per output; margin: the worst element's |diff| as a share of its "
                     "tolerance, over the outputs; '=' marks a file identical to an earlier one, run once):\n");
    strbuf_printf(out, "%-*s   %-8s", (int)w, "pass", "verdict");
    for (size_t k = 0; k < c->noutputs; k++)
        strbuf_printf(out, " %-14s", c->outputs[k].name);
    strbuf_printf(out, " %-8s %12s %9s\n", "margin", "steps", "time");
    for (size_t i = 0; i < c->npasses; i++) {
        const batch_pass *p = &b->passes[i];
        strbuf_printf(out, "%-*s %c %-8s", (int)w, c->passes[i].stem, p->same_as >= 0 ? '=' : ' ', report_verdict(p));
        for (size_t k = 0; k < c->noutputs; k++) {
            const batch_output *o = NULL;
            for (size_t j = 0; j < p->noutputs && !o; j++)
                if (strcmp(p->outputs[j].key, c->outputs[k].name) == 0)
                    o = &p->outputs[j];
            char d[64] = "-";
            if (o && !o->cmp.error)
                exec_format_e6(o->cmp.max_abs_diff, d, sizeof d);
            strbuf_printf(out, " %-14s", d);
        }
        char m[32] = "-";
        double margin = report_pass_margin(p);
        if (p->status == BATCH_COMPARED && p->noutputs)
            heat_format_share(margin, m, sizeof m);
        strbuf_printf(out, " %-8s", m);
        if (p->status == BATCH_NOT_RUN)
            strbuf_printf(out, " %12s %9s\n", "-", "-");
        else
            strbuf_printf(out, " %12llu %8.3fs\n", (unsigned long long)p->steps, p->same_as >= 0 ? 0.0 : p->seconds);
    }
    report_counts rc;
    report_count(b, &rc);
    strbuf_printf(out, "%zu pass%s: %zu pass, %zu fail", c->npasses, c->npasses == 1 ? "" : "es", rc.passed,
                  rc.failed);
    if (rc.errors)
        strbuf_printf(out, ", %zu error (does not check)", rc.errors);
    if (rc.not_run)
        strbuf_printf(out, ", %zu not validated", rc.not_run);
    if (rc.first_failing >= 0)
        strbuf_printf(out, "; %s: %s", report_first_bad_word(b, rc.first_failing), c->passes[rc.first_failing].stem);
    strbuf_printf(out, "\n%zu distinct pass files of %zu run in %.3f s wall (%d job%s)\n", b->nruns, c->npasses,
                  wall_seconds, b->o.jobs, b->o.jobs == 1 ? "" : "s");
}

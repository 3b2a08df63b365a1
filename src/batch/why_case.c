/* One `why` question about a case (why.h why_case): the logs of the two
 * passes, the element (given, or the one farthest from golden), the chain
 * and its text. The one driver of the REPL's `why` and `ptodb --why`. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "batch/diverge.h"
#include "batch/why.h"

static int last_passing(const why_request *q)
{
    for (int p = q->pass - 1; p >= 0; p--) {
        runpass_result r;
        runpass_file(q->c->passes[p].path, q->c, q->ro, &r);
        int ok = r.status == RUNPASS_COMPARED && r.all_pass;
        runpass_result_free(&r);
        if (ok)
            return p;
    }
    return -1;
}

/* The divergence engine's answer into the chain (why.h): blame_line
 * becomes its line when it names one of this pass's file. */
static void put_answer(why_chain *ch, const bisect_stmt *a, const why_log *l, const char *path, const char *good_stem,
                       const char *bad_stem, double rtol, double atol)
{
    ch->chain_blame_line = ch->blame_line;
    strbuf t = STRBUF_INIT;
    diverge_report_text(a, good_stem, bad_stem, rtol, atol, &t);
    ch->divergence = strbuf_detach(&t);
    if (!a->found)
        return;
    snprintf(ch->reason, sizeof ch->reason, "%s", diverge_reason_word(a->reason));
    ch->reason_why = a->reason_why ? xstrdup(a->reason_why) : NULL;
    /* the chain's own first differing hop is evidence about this element:
     * a first divergence in time that is not on it (a value that differs
     * but does not reach the element) does not move the blame off it; a
     * fault, an error or a NaN the chain cannot see does */
    int chain_has_hop = ch->first >= 0 && ch->blame_line > 0;
    int off_chain = a->reason == DIVERGE_OP || a->reason == DIVERGE_VALUE || a->reason == DIVERGE_REGION;
    if (chain_has_hop && off_chain && a->line != ch->blame_line) {
        strbuf n = STRBUF_INIT;
        strbuf_printf(&n, "%s  (this element's chain parts at line %d, which it follows: the first divergence "
                          "above does not reach this element)\n",
                      ch->divergence, ch->blame_line);
        free(ch->divergence);
        ch->divergence = strbuf_detach(&n);
        return;
    }
    if (a->file && strcmp(a->file, path) == 0 && a->line > 0) {
        ch->blame_line = a->line;
        why_log_line_text(l, a->line, ch->blame_text, sizeof ch->blame_text);
    }
}

static void put_divergence_text(const why_chain *ch, strbuf *out)
{
    if (ch->divergence)
        strbuf_printf(out, "where it first went wrong (the divergence engine, as bisect and compare name it):\n%s",
                      ch->divergence);
}

int why_case(const why_request *q, strbuf *out)
{
    const case_info *c = q->c;
    if (q->pass < 0 || (size_t)q->pass >= c->npasses) {
        strbuf_printf(out, "why: no pass %d\n", q->pass);
        return -1;
    }
    if (c->ranks.nranks) {
        /* the log follows one machine (why_log.c); a multi-rank pass runs
         * one per rank under a global schedule */
        strbuf_printf(out, "why: the dataflow chain does not follow several ranks yet (%s is a multi-rank case, "
                           "docs/multirank.md); `bisect` names the first differing statement and its rank\n",
                      c->root ? c->root : "the case");
        return -1;
    }
    /* at a stop the chain is of that moment; the other pass has no moment
     * to match it by count, so the chain is aligned only after a run */
    int at_stop = q->until != 0;
    int other = at_stop ? -1 : q->other == WHY_LAST_PASSING ? last_passing(q) : q->other;
    if (other >= 0 && (size_t)other >= c->npasses)
        other = -1;
    /* the one answer to where the passes part (diverge.h), against the
     * same other pass: the chain below is its evidence for one element */
    bisect_stmt ans;
    memset(&ans, 0, sizeof ans);
    int have_ans = 0;
    if (!at_stop && other >= 0) {
        divergence_side g = {c->passes[other].path, c->passes[other].stem, c};
        divergence_side b = {c->passes[q->pass].path, c->passes[q->pass].stem, c};
        diverge_find(&g, &b, other, q->pass, q->ro, c->rtol.value, c->atol.value, 0, &ans);
        have_ans = 1;
    }
    why_log la, lb;
    why_log_opts lo = {q->until, 0, q->capture, q->capture_core};
    why_log_run(c->passes[q->pass].path, c, q->ro, &lo, &la);
    la.pass_index = c->passes[q->pass].index;
    if (la.error && la.n <= 1) {
        if (have_ans && ans.found) {
            /* no chain to follow: the pass stops before writing anything;
             * the answer is where it stops */
            why_chain ch;
            memset(&ch, 0, sizeof ch);
            ch.first = -1;
            ch.other_pass = other;
            snprintf(ch.stem, sizeof ch.stem, "%s", c->passes[q->pass].stem);
            snprintf(ch.other_stem, sizeof ch.other_stem, "%s", c->passes[other].stem);
            snprintf(ch.tensor, sizeof ch.tensor, "%s", q->name);
            ch.ndim = 0;
            ch.error = xstrdup(la.error);
            put_answer(&ch, &ans, &la, c->passes[q->pass].path, c->passes[other].stem, c->passes[q->pass].stem,
                       c->rtol.value, c->atol.value);
            if (q->json) {
                why_chain_jsonl(&ch, out);
            } else {
                strbuf_printf(out, "why: %s stops before any element of %s is written: %.*s\n",
                              c->passes[q->pass].stem, q->name, (int)strcspn(la.error, "\n"), la.error);
                put_divergence_text(&ch, out);
            }
            why_chain_free(&ch);
            divergence_stmt_free(&ans);
            why_log_free(&la);
            return 0;
        }
        strbuf_printf(out, "why: %s cannot be run: %s\n", c->passes[q->pass].stem, la.error);
        divergence_stmt_free(&ans);
        why_log_free(&la);
        return -1;
    }
    memset(&lb, 0, sizeof lb);
    /* the other pass to its end (a stop's moment has no twin by count) */
    why_log_opts lob = {0, 0, NULL, 0};
    if (other >= 0) {
        why_log_run(c->passes[other].path, c, q->ro, &lob, &lb);
        lb.pass_index = c->passes[other].index;
        if (lb.error && lb.n <= 1)
            other = -1;
    }
    int64_t idx[TENSOR_MAX_DIMS];
    int ndim = q->ndim;
    memcpy(idx, q->idx, sizeof idx);
    why_options wo = q->wo;
    wo.stem = c->passes[q->pass].stem;
    wo.other_stem = other >= 0 ? c->passes[other].stem : NULL;
    wo.other_pass = other;
    strbuf head = STRBUF_INIT;
    if (q->capture && !la.has_capture) {
        strbuf_printf(out, "why: no variable %s on that core at the stop\n", q->capture);
        why_log_free(&la);
        why_log_free(&lb);
        strbuf_free(&head);
        divergence_stmt_free(&ans);
        return -1;
    }
    if (ndim < 0) {
        const why_write *w = why_log_case_tensor(&la, q->name);
        if (!w || !w->final || !w->golden || why_worst_element(w->final, w->golden, w->rtol, w->atol, idx) != 0) {
            strbuf_printf(out, "why: %s is no output of the case with a golden of its shape: give an index "
                               "(why %s[i, j])\n", q->name, q->name);
            why_log_free(&la);
            why_log_free(&lb);
            strbuf_free(&head);
            divergence_stmt_free(&ans);
            return -1;
        }
        ndim = w->final->ndim;
        strbuf_printf(&head, "the element of %s farthest from golden: %s[", q->name, q->name);
        for (int d = 0; d < ndim; d++)
            strbuf_printf(&head, "%s%" PRId64, d ? ", " : "", idx[d]);
        strbuf_printf(&head, "] = %.9g, golden %.9g (rtol %g, atol %g)\n", tensor_get(w->final, idx),
                      tensor_get(w->golden, idx), w->rtol, w->atol);
    }
    if (wo.rtol == 0 && wo.atol == 0 && !wo.ulp) {
        const why_write *w = why_log_case_tensor(&la, q->name);
        wo.rtol = w && w->golden ? w->rtol : c->rtol.value;
        wo.atol = w && w->golden ? w->atol : c->atol.value;
    }
    why_chain ch;
    why_chain_build(&la, other >= 0 ? &lb : NULL, q->name, idx, ndim, &wo, &ch);
    if (have_ans && other >= 0)
        put_answer(&ch, &ans, &la, c->passes[q->pass].path, c->passes[other].stem, c->passes[q->pass].stem,
                   c->rtol.value, c->atol.value);
    divergence_stmt_free(&ans);
    if (ch.error) {
        strbuf_printf(out, "why: %s\n", ch.error);
    } else if (!q->json) {
        strbuf_puts(out, strbuf_str(&head));
        if (at_stop)
            strbuf_printf(out, "(at a stop: the chain of this moment, not aligned with another pass; `why` after the "
                               "run ends aligns it)\n");
        else if (q->other == WHY_LAST_PASSING && other < 0)
            strbuf_printf(out, "(no earlier pass passes: the chain is not aligned with another)\n");
        if (la.truncated)
            strbuf_printf(out, "(the log reached its memory cap: the chain covers the run's start only)\n");
        if (la.error)
            strbuf_printf(out, "(the run failed: %s)\n", la.error);
        why_chain_text(&ch, out);
        put_divergence_text(&ch, out);
    } else {
        why_chain_jsonl(&ch, out);
    }
    int rc = ch.error ? -1 : 0;
    why_chain_free(&ch);
    why_log_free(&la);
    why_log_free(&lb);
    strbuf_free(&head);
    return rc;
}

/* The distinct values the innermost loop's variable had at the executions
 * of a line ("0, 1, 2, 3", ascending), and that loop's header line: a pass
 * that restructures a kernel may run it more or less often (the host did
 * both lanes' halves), but a loop that runs otherwise has other values. */
static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static int loop_values_at(const why_log *l, int line, strbuf *out, int *header, char *var, size_t size)
{
    int64_t *v = NULL;
    size_t n = 0, cap = 0;
    *header = 0;
    for (size_t i = 1; i < l->n; i++) {
        const why_rec *r = &l->recs[i];
        if (r->line != line || r->nloops == 0)
            continue;
        int k = r->nloops - 1;
        if (!*header) {
            *header = r->loop_line[k];
            snprintf(var, size, "%s", r->loop_var[k]);
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            v = xreallocarray(v, cap, sizeof *v);
        }
        v[n++] = r->loop_val[k];
    }
    if (n)
        qsort(v, n, sizeof *v, cmp_i64);
    int shown = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && v[i] == v[i - 1])
            continue;
        if (shown < 16)
            strbuf_printf(out, "%s%" PRId64, shown ? ", " : "", v[i]);
        else if (shown == 16)
            strbuf_puts(out, ", ...");
        shown++;
    }
    free(v);
    return (int)n;
}

int why_refine_divergence(const why_refine_side *bad, const why_refine_side *good, const runpass_options *ro,
                          int div_line, int good_line, why_blame *out)
{
    memset(out, 0, sizeof *out);
    why_log la, lb;
    why_log_opts lo = {0, 0, NULL, 0};
    why_log_run(bad->path, bad->c, ro, &lo, &la);
    why_log_run(good->path, good->c, ro, &lo, &lb);
    int found = 0;
    if (la.n > 1 && lb.n > 1) {
        /* a statement inside a loop that ran at other iterations */
        char text[256];
        why_log_line_text(&la, div_line, text, sizeof text);
        strbuf va = STRBUF_INIT, vb = STRBUF_INIT;
        int ha, hb;
        char var_a[48], var_b[48];
        int na = strncmp(text, "for ", 4) == 0 ? 0 : loop_values_at(&la, div_line, &va, &ha, var_a, sizeof var_a);
        int nb = na ? loop_values_at(&lb, good_line, &vb, &hb, var_b, sizeof var_b) : 0;
        if (na && nb && ha && strcmp(var_a, var_b) == 0 && strcmp(strbuf_str(&va), strbuf_str(&vb)) != 0) {
            const why_rec *r = NULL;
            for (size_t i = 1; i < la.n && !r; i++)
                if (la.recs[i].line == div_line)
                    r = &la.recs[i];
            out->line = ha;
            out->core = r ? r->core : 0;
            snprintf(out->func, sizeof out->func, "%s", r ? r->func : "?");
            snprintf(out->tensor, sizeof out->tensor, "the loop over %s", var_a);
            snprintf(out->why, sizeof out->why,
                     "at the loop header: line %d ran at %s in {%s} here and in {%s} in %s (line %d): the loop at line %d runs otherwise",
                     div_line, var_a, strbuf_str(&va), strbuf_str(&vb), good->stem, good_line, ha);
            out->by_loop = 1;
            found = 1;
        }
        strbuf_free(&va);
        strbuf_free(&vb);
    }
    if (!found && la.n > 1 && lb.n > 1) {
        /* the worst element of the first failing output */
        const why_write *w = NULL;
        int64_t idx[TENSOR_MAX_DIMS];
        for (int k = 0; k < la.recs[0].nw && !w; k++) {
            const why_write *x = &la.recs[0].w[k];
            if (!x->final || !x->golden || why_worst_element(x->final, x->golden, x->rtol, x->atol, idx) != 0)
                continue;
            double a = tensor_get(x->final, idx), g = tensor_get(x->golden, idx);
            if (!(fabs(a - g) <= x->atol + x->rtol * fabs(g)))
                w = x;
        }
        if (w) {
            why_options wo;
            memset(&wo, 0, sizeof wo);
            wo.rtol = w->rtol;
            wo.atol = w->atol;
            wo.stem = bad->stem;
            wo.other_stem = good->stem;
            wo.other_pass = good->pass;
            why_chain ch;
            why_chain_build(&la, &lb, w->name, idx, w->final->ndim, &wo, &ch);
            int through = 0;
            for (int i = 0; ch.first > 0 && i < ch.first; i++)
                through |= ch.hops[i].line == div_line;
            if (ch.first >= 0 && ch.blame_line != div_line && through) {
                const why_hop *h = &ch.hops[ch.first];
                out->line = ch.blame_line;
                out->core = h->core;
                out->by_loop = ch.found_by_control;
                snprintf(out->func, sizeof out->func, "%s", h->func);
                snprintf(out->tensor, sizeof out->tensor, "%s", h->target[0] ? h->target : h->op);
                strbuf e = STRBUF_INIT;
                strbuf_printf(&e, "through the dataflow chain of %s[", w->name);
                for (int d = 0; d < w->final->ndim; d++)
                    strbuf_printf(&e, "%s%" PRId64, d ? ", " : "", idx[d]);
                strbuf_printf(&e, "] (why, docs/why.md): %s; line %d only consumes what it made", h->first_why,
                              div_line);
                snprintf(out->why, sizeof out->why, "%s", strbuf_str(&e));
                strbuf_free(&e);
                found = 1;
            }
            why_chain_free(&ch);
        }
    }
    why_log_free(&la);
    why_log_free(&lb);
    return found;
}

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

/* The chain ends at its first differing hop, and that hop reads name: the
 * engine's answer is the operand the chain could not follow past (a tile of
 * another shape in the other pass), on the chain. */
static int feeds_last_hop(const why_chain *ch, const char *name)
{
    if (ch->first < 0 || (size_t)ch->first + 1 != ch->n || !name || !*name)
        return 0;
    const char *text = ch->hops[ch->first].text, *rhs = strchr(text, '=');
    size_t n = strlen(name);
    for (const char *p = rhs ? strstr(rhs, name) : NULL; p; p = strstr(p + 1, name))
        if ((p[-1] == '(' || p[-1] == ' ') && (p[n] == ',' || p[n] == ')'))
            return 1;
    return 0;
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
    /* a branch's yield hands its value on to the element: the chain has no
     * hop for it (it names the statement that made what the yield chose) */
    int by_yield = a->stmt_op && strncmp(a->stmt_op, "yield", 5) == 0;
    int off_chain = !by_yield && !feeds_last_hop(ch, a->tensor) &&
                    (a->reason == DIVERGE_OP || a->reason == DIVERGE_VALUE || a->reason == DIVERGE_REGION);
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
    /* the logs the engine's chain step ran, of the same passes to their
     * ends: this chain's own when it asks for no moment or variable */
    why_log kept_a, kept_b;
    memset(&kept_a, 0, sizeof kept_a);
    memset(&kept_b, 0, sizeof kept_b);
    if (!at_stop && other >= 0) {
        divergence_side g = {c->passes[other].path, c->passes[other].stem, c};
        divergence_side b = {c->passes[q->pass].path, c->passes[q->pass].stem, c};
        diverge_find_keep_logs(&g, &b, other, q->pass, q->ro, c->rtol.value, c->atol.value, 0, &ans, &kept_a,
                               &kept_b);
        have_ans = 1;
    }
    int reuse = kept_a.path && kept_b.path && !q->until && !q->capture;
    if (!reuse) {
        why_log_free(&kept_a);
        why_log_free(&kept_b);
    }
    why_log la, lb;
    why_log_opts lo = {q->until, 0, q->capture, q->capture_core, NULL};
    if (reuse)
        la = kept_a;
    else
        why_log_run(c->passes[q->pass].path, c, q->ro, &lo, &la);
    la.pass_index = c->passes[q->pass].index;
    if (la.error && la.n <= 1) {
        if (reuse)
            why_log_free(&kept_b);
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
    why_log_opts lob = {0, 0, NULL, 0, &la};
    if (other >= 0 && reuse) {
        lb = kept_b;
        lb.pass_index = c->passes[other].index;
        if (lb.error && lb.n <= 1)
            other = -1;
    } else if (other >= 0) {
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

/* One `why` question about a case (why.h why_case): the logs of the two
 * passes, the element (given, or the one farthest from golden), the chain
 * and its text. The one driver of the REPL's `why` and `ptodb --why`. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
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

int why_case(const why_request *q, strbuf *out)
{
    const case_info *c = q->c;
    if (q->pass < 0 || (size_t)q->pass >= c->npasses) {
        strbuf_printf(out, "why: no pass %d\n", q->pass);
        return -1;
    }
    int other = q->other == WHY_LAST_PASSING ? last_passing(q) : q->other;
    if (other >= 0 && (size_t)other >= c->npasses)
        other = -1;
    why_log la, lb;
    why_log_opts lo = {q->until, 0, q->capture, q->capture_core};
    why_log_run(c->passes[q->pass].path, c, q->ro, &lo, &la);
    if (la.error && la.n <= 1) {
        strbuf_printf(out, "why: %s cannot be run: %s\n", c->passes[q->pass].stem, la.error);
        why_log_free(&la);
        return -1;
    }
    memset(&lb, 0, sizeof lb);
    /* the other pass to its end (a stop's moment has no twin by count) */
    why_log_opts lob = {0, 0, NULL, 0};
    if (other >= 0) {
        why_log_run(c->passes[other].path, c, q->ro, &lob, &lb);
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
    if (!q->json) {
        strbuf_puts(out, strbuf_str(&head));
        if (q->other == WHY_LAST_PASSING && other < 0)
            strbuf_printf(out, "(no earlier pass passes: the chain is not aligned with another)\n");
        if (la.truncated)
            strbuf_printf(out, "(the log reached its memory cap: the chain covers the run's start only)\n");
        if (la.error)
            strbuf_printf(out, "(the run failed: %s)\n", la.error);
        why_chain_text(&ch, out);
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

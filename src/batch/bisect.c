#include "batch/bisect.h"
#include "batch/diverge.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/mem.h"
#include "exec/machine.h"

static void note_probe(bisect_result *r, int i)
{
    r->probe_order = xreallocarray(r->probe_order, r->nprobe + 1, sizeof *r->probe_order);
    r->probe_order[r->nprobe++] = i;
    r->probes++;
}

static int probe(batch *b, bisect_result *r, size_t i)
{
    batch_eval(b, &i, 1, NULL, NULL);
    note_probe(r, (int)i);
    return b->passes[i].ok;
}

/* ---- pass level ------------------------------------------------------------------------------ */

/* A session's Ctrl-C (machine_options.interrupt): the pass that was running
 * stopped with an error, so no verdict after it means anything. Records the
 * interruption in r and returns 1 when the flag is up. */
static int stopped_by_interrupt(batch *b, bisect_result *r, size_t runs0, double t0)
{
    const volatile sig_atomic_t *flag = b->o.ro.mopt.interrupt;
    if (!flag || !*flag)
        return 0;
    r->status = BISECT_INTERRUPTED;
    r->first_bad = r->last_good = -1;
    r->stmt_done = 0; /* what a statement search found is freed with the result */
    r->runs = b->nruns - runs0;
    r->search_seconds = clock_seconds() - t0;
    return 1;
}

void bisect_run(batch *b, const bisect_options *o, bisect_result *r)
{
    memset(r, 0, sizeof *r);
    r->first_bad = r->last_good = r->bisect_first_bad = -1;
    size_t n = b->c->npasses;
    if (n == 0) {
        r->status = BISECT_NO_PASSES;
        return;
    }
    double t0 = clock_seconds();
    size_t runs0 = b->nruns;
    size_t ends[2] = {0, n - 1};
    batch_eval(b, ends, n > 1 ? 2 : 1, NULL, NULL);
    note_probe(r, 0);
    if (n > 1)
        note_probe(r, (int)(n - 1));
    if (stopped_by_interrupt(b, r, runs0, t0))
        return;
    int ok0 = b->passes[0].ok, okn = b->passes[n - 1].ok;
    if (!ok0)
        r->status = BISECT_FIRST_FAILS;
    else if (okn)
        r->status = BISECT_ALL_PASS;
    else {
        size_t lo = 0, hi = n - 1;
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            int ok = probe(b, r, mid);
            if (stopped_by_interrupt(b, r, runs0, t0))
                return;
            if (ok)
                lo = mid;
            else
                hi = mid;
        }
        r->status = BISECT_FOUND;
        r->first_bad = (int)hi;
        r->last_good = (int)lo;
        r->bisect_first_bad = (int)hi;
    }
    r->runs = b->nruns - runs0;
    r->search_seconds = clock_seconds() - t0;

    /* the confirming scan: its cost from what the search measured */
    size_t remaining = 0;
    for (size_t i = 0; i < n; i++)
        remaining += b->twin[i] == (int)i && b->passes[i].status == BATCH_NOT_RUN;
    double avg = b->nruns ? b->run_seconds / (double)b->nruns : 0;
    r->scan_estimate = avg * (double)remaining / (double)(b->o.jobs > 0 ? b->o.jobs : 1);
    double budget = o->scan_budget == 0 ? 3.0 : o->scan_budget;
    r->scan_budget = budget;
    if (o->force_scan || (budget > 0 && r->scan_estimate <= budget)) {
        double t1 = clock_seconds();
        batch_eval_all(b, NULL, NULL);
        r->scan_seconds = clock_seconds() - t1;
        if (stopped_by_interrupt(b, r, runs0, t0))
            return;
        r->scanned = 1;
        int seen_fail = 0;
        r->monotone = 1;
        for (size_t i = 0; i < n; i++) {
            int ok = b->passes[i].ok;
            if (i > 0 && b->passes[i - 1].ok && !ok) {
                r->flips = xreallocarray(r->flips, r->nflips + 1, sizeof *r->flips);
                r->flips[r->nflips++] = (int)i;
            }
            if (i > 0 && !b->passes[i - 1].ok && ok) {
                r->recoveries = xreallocarray(r->recoveries, r->nrecoveries + 1, sizeof *r->recoveries);
                r->recoveries[r->nrecoveries++] = (int)i;
            }
            if (!ok)
                seen_fail = 1;
            else if (seen_fail)
                r->monotone = 0;
        }
        if (r->nflips) {
            r->status = BISECT_FOUND;
            r->first_bad = r->flips[0];
            r->last_good = r->flips[0] - 1;
        } else {
            r->status = b->passes[0].ok ? BISECT_ALL_PASS : BISECT_FIRST_FAILS;
            r->first_bad = r->last_good = -1;
        }
    }
    if (r->status == BISECT_FOUND && o->statement) {
        const case_info *c = b->c;
        divergence_side good = {c->passes[r->last_good].path, c->passes[r->last_good].stem, c};
        divergence_side bad = {c->passes[r->first_bad].path, c->passes[r->first_bad].stem, c};
        r->stmt_done = 1;
        /* every rank's machine on a multi-rank case (trace.h); the engine (diverge.h) */
        diverge_find(&good, &bad, r->last_good, r->first_bad, &b->o.ro, c->rtol.value, c->atol.value,
                     o->max_trace_bytes, &r->stmt);
        stopped_by_interrupt(b, r, runs0, t0);
    }
}

void bisect_result_free(bisect_result *r)
{
    divergence_stmt_free(&r->stmt);
    free(r->probe_order);
    free(r->flips);
    free(r->recoveries);
    memset(r, 0, sizeof *r);
}

/* ---- report ---------------------------------------------------------------------------------- */

static void pass_list(const batch *b, const int *v, size_t n, strbuf *out)
{
    for (size_t i = 0; i < n; i++)
        strbuf_printf(out, "%s%s", i ? ", " : "", b->c->passes[v[i]].stem);
}

void bisect_report_text(const batch *b, const bisect_result *r, strbuf *out)
{
    const case_info *c = b->c;
    size_t n = c->npasses;
    switch (r->status) {
    case BISECT_NO_PASSES:
        strbuf_puts(out, "bisect: the case has no pass files\n");
        return;
    case BISECT_INTERRUPTED:
        strbuf_printf(out, "bisect: interrupted after %zu pass files (%.3f s); no result\n", r->runs,
                      r->search_seconds);
        return;
    case BISECT_ALL_PASS:
        strbuf_printf(out, "bisect: no failing pass: %s%s pass\n", r->scanned ? "all " : "the first and the last passes",
                      r->scanned ? "passes" : "");
        break;
    case BISECT_FIRST_FAILS:
        strbuf_printf(out, "bisect: the first pass (%s) already fails: no passing pass to bisect from%s\n",
                      c->passes[0].stem, r->scanned ? " (and no later pass passes then fails)" : "");
        break;
    case BISECT_FOUND:
        strbuf_printf(out, "bisect: first failing pass: %s (last passing pass before it: %s)\n",
                      c->passes[r->first_bad].stem, c->passes[r->last_good].stem);
        if (b->passes[r->first_bad].memfaults && b->passes[r->first_bad].memreport &&
            !(r->stmt_done && r->stmt.reason == DIVERGE_MEMFAULT)) {
            /* the pass fails by a memory fault: its first report names the
             * statement and both tiles (docs/memory.md) */
            const char *rep = b->passes[r->first_bad].memreport, *end = strstr(rep, "\nmemory fault: ");
            strbuf_printf(out, "bisect: first memory fault (%llu in the pass):\n%.*s%s",
                          (unsigned long long)b->passes[r->first_bad].memfaults,
                          end ? (int)(end - rep + 1) : (int)strlen(rep), rep, end || !*rep || rep[strlen(rep) - 1] == '\n' ? "" : "\n");
        }
        break;
    }
    strbuf_printf(out, "bisect: the binary search looked at %zu of %zu passes (", r->nprobe, n);
    for (size_t i = 0; i < r->nprobe; i++)
        strbuf_printf(out, "%s%02d", i ? " " : "", c->passes[r->probe_order[i]].index);
    strbuf_printf(out, ") and ran %zu pass files in %.3f s\n", r->runs, r->search_seconds);
    if (r->scanned) {
        strbuf_printf(out, "bisect: full scan of all %zu passes (%zu distinct files) in %.3f s: ", n, b->ndistinct,
                      r->scan_seconds);
        if (r->monotone)
            strbuf_puts(out, r->nflips ? "confirmed, the verdict flips once from pass to fail\n"
                                       : "confirmed, no pass -> fail flip\n");
        else {
            strbuf_puts(out, "NOT monotone: passes failing right after a passing one: ");
            if (r->nflips)
                pass_list(b, r->flips, r->nflips, out);
            else
                strbuf_puts(out, "none");
            strbuf_puts(out, "; passing again right after a failing one: ");
            if (r->nrecoveries)
                pass_list(b, r->recoveries, r->nrecoveries, out);
            else
                strbuf_puts(out, "none");
            strbuf_putc(out, '\n');
            if (r->bisect_first_bad >= 0 && r->bisect_first_bad != r->first_bad)
                strbuf_printf(out, "bisect: (the binary search alone landed on %s)\n",
                              c->passes[r->bisect_first_bad].stem);
        }
    } else {
        if (r->scan_budget < 0)
            strbuf_printf(out, "bisect: no confirming full scan (not asked for; estimated at %.2f s): the result "
                               "assumes the verdicts flip only once\n",
                          r->scan_estimate);
        else
            strbuf_printf(out,
                          "bisect: no confirming full scan: estimated at %.2f s, above the %.1f s budget (the result "
                          "assumes the verdicts flip only once)\n",
                          r->scan_estimate, r->scan_budget);
    }
    if (!r->stmt_done)
        return;
    diverge_report_text(&r->stmt, c->passes[r->last_good].stem, c->passes[r->first_bad].stem, c->rtol.value,
                        c->atol.value, out);
}

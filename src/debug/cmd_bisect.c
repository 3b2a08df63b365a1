/* The first-divergence commands, both on the batch engine's statement
 * finder (src/batch/divergence.h), with the session's tolerances and torch
 * profile, running pass files on their own (fresh inputs each), never
 * touching the stopped run:
 *   `bisect`: the first failing pass of the open case (src/batch/bisect.h),
 *   selected when nothing is running;
 *   `compare B`: the open case (A) against build folder B, as `ptodb
 *   --compare A B` does (src/batch/compare.h);
 *   `why TENSOR[i, j]`: the dataflow chain of one element, from the stop's
 *   moment when the pass is stopped, else from the end of a run of the
 *   current pass, aligned with the last passing pass before it (or `pass
 *   N`); the chain is built by the batch layer's side runs (src/batch/why.h),
 *   which call nothing of the debugger's. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "batch/batch.h"
#include "base/diag.h"
#include "batch/bisect.h"
#include "batch/compare.h"
#include "batch/diverge.h"
#include "debug/present/compare_view.h"
#include "batch/why.h"
#include "debug/state/passes.h"
#include "debug/state/session_impl.h"

#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    ptodb_status cmd_##id(session *s, const char *args);
#include "debug/commands.def"
#include "debug/run/validate_bg_impl.h"
#undef CMD

/* The machine's poll: progress for the front end, which may raise
 * s->interrupted (Ctrl-C); the machine then stops the pass it runs. */
static void bisect_poll(void *ud, const char *path, uint64_t steps)
{
    session *s = ud;
    if (!s->poll)
        return;
    char progress[200];
    snprintf(progress, sizeof progress, "bisect: %s: %" PRIu64 " statements", session_file_name(path),
             steps);
    s->poll(s->poll_ctx, progress);
}

ptodb_status cmd_BISECT(session *s, const char *args)
{
    if (!session_need_case(s))
        return PTODB_ERR_USAGE;
    bisect_options bo;
    memset(&bo, 0, sizeof bo);
    bo.statement = 1;
    if (strcmp(args, "scan") == 0)
        bo.force_scan = 1;
    else if (strcmp(args, "fast") == 0)
        bo.scan_budget = -1;
    else if (*args) {
        session_errorf(s, "Usage: bisect [scan | fast]");
        return PTODB_ERR_USAGE;
    }
    /* The case with the session's tolerances (`set rtol`), which apply
     * unless the manifest gives an output its own, as `run` does. The copy
     * borrows everything but its outputs array. */
    case_info c;
    session_case_with_tols(s, &c);
    batch_options opt;
    memset(&opt, 0, sizeof opt);
    session_machine_options(s, &opt.ro.mopt);
    opt.ro.mopt.poll = bisect_poll;
    opt.ro.mopt.poll_ud = s;
    opt.ro.mopt.interrupt = &s->interrupted;
    opt.ro.ops = session_ops(s);
    opt.jobs = 1; /* no worker processes inside an interactive session */
    batch b;
    batch_init(&b, &c, &opt);
    bisect_result r;
    bisect_run(&b, &bo, &r);
    /* The passes bisect evaluated land in the per-pass table every pane
     * reads (a pass the user ran keeps its own result, with its tensors). */
    for (size_t i = 0; i < c.npasses; i++) {
        const batch_pass *bp = &b.passes[i];
        if (bp->status == BATCH_NOT_RUN || (s->results && s->results[i].ran && !s->results[i].background))
            continue;
        double mad[64], marg[64];
        int oks[64];
        int nout = bp->noutputs < 64 ? (int)bp->noutputs : 64;
        for (int k = 0; k < nout; k++) {
            mad[k] = bp->outputs[k].cmp.max_abs_diff;
            marg[k] = bp->outputs[k].cmp.margin;
            oks[k] = bp->outputs[k].cmp.pass;
        }
        session_note_verdict(s, (int)i, bp->status != BATCH_COMPARED, bp->same_as, nout, mad, marg, oks,
                             bp->memfaults != 0, bp->unchecked);
    }
    strbuf out = STRBUF_INIT;
    bisect_report_text(&b, &r, &out);
    session_write(s, strbuf_str(&out), out.len);
    strbuf_free(&out);
    if (r.status == BISECT_INTERRUPTED) {
        s->interrupted = 0;
        session_printf(s, "Interrupted.\n");
    }
    if (r.status == BISECT_FOUND) {
        const case_pass *p = &s->kase.passes[r.first_bad];
        if (!s->run.active || s->run.finished || s->run.failed) {
            s->cur_pass = r.first_bad;
            s->list_line = 0;
            session_mark_redraw(s, SESSION_REDRAW_ALL);
            session_printf(s, "Pass %d: %s (%s)\n", p->index, p->name, p->path);
        } else {
            session_printf(s, "`pass %d` selects it.\n", p->index);
        }
        if (r.stmt.found) {
            if (r.stmt.rank >= 0)
                session_printf(s, "`break %d rank %d` then `run` stops at the first differing statement.\n",
                               r.stmt.line, r.stmt.rank);
            else
                session_printf(s, "`break %d` then `run` stops at the first differing statement.\n", r.stmt.line);
            /* the front ends show it (view_divergence_answer) */
            strbuf rep = STRBUF_INIT;
            diverge_report_text(&r.stmt, c.passes[r.last_good].stem, c.passes[r.first_bad].stem, c.rtol.value,
                                c.atol.value, &rep);
            session_note_divergence(s, r.first_bad, r.stmt.line, r.stmt.rank, r.stmt.reason, strbuf_str(&rep));
            strbuf_free(&rep);
        }
    }
    bisect_result_free(&r);
    batch_free(&b);
    free(c.outputs);
    return PTODB_OK;
}

/* ---- compare ---- */

static void compare_poll(void *ud, const char *path, uint64_t steps)
{
    session *s = ud;
    if (!s->poll)
        return;
    char progress[200];
    snprintf(progress, sizeof progress, "compare: %s: %" PRIu64 " statements", session_file_name(path), steps);
    s->poll(s->poll_ctx, progress);
}

ptodb_status cmd_COMPARE(session *s, const char *args)
{
    if (!session_need_case(s))
        return PTODB_ERR_USAGE;
    if (!*args) {
        session_errorf(s, "Usage: compare B (a build folder, its passes_dump/, or a dump file)");
        return PTODB_ERR_USAGE;
    }
    case_info a;
    session_case_with_tols(s, &a);
    case_options copt;
    memset(&copt, 0, sizeof copt);
    copt.has_rtol = copt.has_atol = 1;
    copt.rtol = a.rtol.value;
    copt.atol = a.atol.value;
    case_info b;
    diag_sink sink;
    diag_sink_init(&sink, 20);
    ptodb_status st = case_open(args, &copt, &b, &sink);
    if (st != PTODB_OK || b.npasses == 0) {
        char *why = diag_sink_error_text(&sink);
        session_errorf(s, "compare: %s: %s", args, why && *why ? why : "no pass files found");
        free(why);
        diag_sink_free(&sink);
        case_free(&b);
        free(a.outputs);
        return PTODB_ERR_USAGE;
    }
    diag_sink_free(&sink);
    runpass_options ro;
    memset(&ro, 0, sizeof ro);
    machine_options_init(&ro.mopt);
    ro.mopt.profile = session_profile(s);
    ro.mopt.poll = compare_poll;
    ro.mopt.poll_ud = s;
    ro.mopt.interrupt = &s->interrupted;
    ro.ops = session_ops(s);
    compare_result r;
    compare_run(&a, &b, &ro, &r);
    strbuf out = STRBUF_INIT;
    compare_report_text(&a, &b, &r, &out);
    session_write(s, strbuf_str(&out), out.len);
    strbuf_free(&out);
    if (r.interrupted) {
        s->interrupted = 0;
        session_printf(s, "Interrupted.\n");
    } else if (r.stmt_done && r.stmt.found) {
        session_printf(s, "`break %d` then `run` in pass %d stops at the first differing statement (in A).\n",
                       r.stmt.good_line, a.passes[r.pairs[r.first_diff].a.pass].index);
    }
    if (!r.interrupted)
        compare_view_set(s, &a, &b, &r);
    compare_result_free(&r);
    case_free(&b);
    free(a.outputs);
    return PTODB_OK;
}

/* ---- why ---------------------------------------------------------------------------------- */

static const char WHY_USAGE[] = "Usage: why [--json] [--ulp] TENSOR[[i, j, ...]] [pass N] [depth N]";

/* "name[3, 17]" into name and the indices: the count, or -1 when bad; 0
 * without a subscript. */
static int parse_element(const char *w, char *name, size_t size, int64_t *idx)
{
    const char *lb = strchr(w, '[');
    size_t n = lb ? (size_t)(lb - w) : strlen(w);
    if (n == 0 || n >= size)
        return -1;
    memcpy(name, w, n);
    name[n] = 0;
    if (!lb)
        return 0;
    const char *p = lb + 1;
    int nd = 0;
    for (;;) {
        while (*p == ' ')
            p++;
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || nd >= TENSOR_MAX_DIMS || v < 0)
            return -1;
        idx[nd++] = v;
        p = end;
        while (*p == ' ')
            p++;
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p == ']' && p[1] == 0)
            return nd;
        return -1;
    }
}

ptodb_status cmd_WHY(session *s, const char *args)
{
    if (!session_need_case(s))
        return PTODB_ERR_USAGE;
    char *words[12];
    char buf[1024];
    int n = session_split_words(args, words, 12, buf, sizeof buf);
    why_request q;
    memset(&q, 0, sizeof q);
    q.other = WHY_LAST_PASSING;
    q.wo.ulp = session_get_bool(s, SETTING_ULP);
    const char *elem = NULL;
    for (int i = 0; i < n; i++) {
        if (strcmp(words[i], "--json") == 0)
            q.json = 1;
        else if (strcmp(words[i], "--ulp") == 0)
            q.wo.ulp = 1;
        else if (strcmp(words[i], "pass") == 0 && i + 1 < n) {
            q.other = session_find_pass(s, words[++i]);
            if (q.other < 0)
                return PTODB_ERR_USAGE;
        } else if (strcmp(words[i], "depth") == 0 && i + 1 < n) {
            char *end;
            long d = strtol(words[++i], &end, 10);
            if (*end || d < 1 || d > 1000) {
                session_errorf(s, "why: depth must be 1 to 1000");
                return PTODB_ERR_USAGE;
            }
            q.wo.depth = (int)d;
        } else if (!elem)
            elem = words[i];
        else
            elem = NULL, n = -1;
    }
    char name[256];
    int nd = elem ? parse_element(elem, name, sizeof name, q.idx) : -1;
    if (n < 0 || !elem || nd < 0) {
        session_errorf(s, "%s", WHY_USAGE);
        return PTODB_ERR_USAGE;
    }
    q.name = name;
    q.ndim = nd ? nd : -1;
    case_info c;
    session_case_with_tols(s, &c);
    runpass_options ro;
    memset(&ro, 0, sizeof ro);
    session_machine_options(s, &ro.mopt);
    /* the run's interleaving (--schedule, a replayed file): the chain of the
     * run that failed, not of the fixed schedule's */
    session_schedule_options(s, &ro.mopt);
    ro.mopt.interrupt = &s->interrupted;
    ro.ops = session_ops(s);
    q.c = &c;
    q.ro = &ro;
    q.pass = s->cur_pass;
    /* stopped in this pass: the chain of the moment of the stop (a run
     * that raised is no moment to ask at: the question is the pass's, and
     * the answer where it stops) */
    run_state *r = &s->run;
    if (r->active && r->m && !r->finished && !r->failed && r->pass == s->cur_pass) {
        q.until = machine_steps(r->m);
        int is_case = 0;
        for (size_t i = 0; i < r->nbinds; i++)
            if (r->binds[i].key && strcmp(r->binds[i].key, name) == 0)
                is_case = 1;
        if (!is_case) {
            q.capture = name;
            q.capture_core = r->core;
        }
    }
    if (q.other == q.pass)
        q.other = -1;
    strbuf out = STRBUF_INIT;
    int rc = why_case(&q, &out);
    if (rc) {
        /* one line, as an error (batch mode then exits non-zero) */
        if (out.len && strbuf_str(&out)[out.len - 1] == '\n')
            out.len--;
        session_errorf(s, "%.*s", (int)out.len, strbuf_str(&out));
    } else {
        session_write(s, strbuf_str(&out), out.len);
    }
    strbuf_free(&out);
    free(c.outputs);
    if (s->interrupted) {
        s->interrupted = 0;
        session_printf(s, "Interrupted.\n");
    }
    return rc ? PTODB_ERR_NOT_FOUND : PTODB_OK;
}

/* Background validation of every pass of the open case: one task of the
 * worker pool (batch/worker_pool.h) runs the batch engine (batch/batch.h) as
 * `--batch` does and streams one record per pass back; the front end polls
 * the pool when it has nothing else to do, so it never blocks. Results land in the session's
 * per-pass table (pass_result), the one every view reads. The worker also
 * sends the output tensors of the first failing pass and of the pass before
 * it, so that their heat maps can be drawn without running anything.
 *
 * When a pass fails after one that passes, the worker then asks the
 * divergence engine (batch/bisect.h on the passes it validated, whose
 * statement search is batch/diverge.h, as `bisect` does) for the statement
 * and the reason: the first screen shows them without a command typed.
 *
 * Records (text header lines, tensors as raw bytes after their header):
 *   P pass status ok same_as nout       then nout lines "max_abs_diff ok margin"
 *   T pass output dtype ndim d0 .. dN-1 nbytes   then nbytes bytes
 *   S pass line rank reason nbytes       the engine's answer; then nbytes
 *                                        bytes of its report text
 *   D                                    all sent */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/mem.h"
#include "batch/batch.h"
#include "batch/bisect.h"
#include "batch/diverge.h"
#include "batch/worker_pool.h"
#include "debug/state/session_impl.h"
#include "debug/run/validate_bg_impl.h"
#include "debug/present/view.h"
#include "ranks/run.h"

struct validate_bg {
    worker_pool *pool;
    int handed_out; /* the pool's one task has been handed out */
    char *buf; /* bytes read, not yet parsed */
    size_t len, cap;
    int received; /* pass records so far */
    int first_bad; /* -1 until a failing pass arrives */
    int start_pass; /* the pass selected when it started: the first failing
                       pass is selected only if the user has not moved on */
    int done;      /* the stream ended (D, end of file or an error) */
    int complete;  /* the worker said D: every pass was sent */
};

void session_case_with_tols(const session *s, case_info *c)
{
    *c = s->kase;
    c->outputs = xcalloc(c->noutputs ? c->noutputs : 1, sizeof *c->outputs);
    double rtol = session_get_double(s, SETTING_RTOL), atol = session_get_double(s, SETTING_ATOL);
    c->rtol.value = rtol;
    c->atol.value = atol;
    for (size_t k = 0; k < c->noutputs; k++) {
        c->outputs[k] = s->kase.outputs[k];
        if (c->outputs[k].rtol.source != CASE_TOL_MANIFEST)
            c->outputs[k].rtol.value = rtol;
        if (c->outputs[k].atol.source != CASE_TOL_MANIFEST)
            c->outputs[k].atol.value = atol;
    }
}

/* ---- the worker ---- */

static void write_all(worker_pool_out *out, const void *data, size_t n)
{
    if (worker_pool_send(out, data, n) != 0)
        _exit(1); /* the front end went away or cancelled */
}

static void write_text(worker_pool_out *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void write_text(worker_pool_out *out, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    write_all(out, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

typedef struct worker {
    worker_pool_out *out;
    int first_bad;
} worker;

static int worker_ready(void *ud, const batch *b, size_t i)
{
    worker *w = ud;
    const batch_pass *p = &b->passes[i];
    /* ok 2: compared, outputs within tolerance or not, and memory faults;
     * then 1 when the file does not check */
    write_text(w->out, "P %zu %d %d %d %zu %d\n", i, (int)p->status, p->ok ? 1 : p->memfaults ? 2 : 0, p->same_as,
               p->noutputs, p->unchecked);
    for (size_t k = 0; k < p->noutputs; k++)
        write_text(w->out, "%a %d %a\n", p->outputs[k].cmp.max_abs_diff, p->outputs[k].cmp.pass,
                   p->outputs[k].cmp.margin);
    if (!p->ok && w->first_bad < 0)
        w->first_bad = (int)i;
    return 0;
}

static void send_outputs(worker_pool_out *out, const case_info *c, const runpass_options *ro, int pass)
{
    runpass_result r;
    ranks_or_single_run_file(c->passes[pass].path, c, ro, &r);
    for (size_t k = 0; r.status == RUNPASS_COMPARED && k < r.noutputs; k++) {
        /* tensor_contiguous returns a reference of its own: no tensor_ref here */
        tensor *t = r.outputs[k].actual ? tensor_contiguous(r.outputs[k].actual) : NULL;
        if (!t)
            continue;
        size_t nbytes = (size_t)tensor_numel(t) * dtype_size(t->dtype);
        char head[256];
        int n = snprintf(head, sizeof head, "T %d %zu %d %d", pass, k, (int)t->dtype, t->ndim);
        for (int d = 0; d < t->ndim; d++)
            n += snprintf(head + n, sizeof head - (size_t)n, " %lld", (long long)t->shape[d]);
        snprintf(head + n, sizeof head - (size_t)n, " %zu\n", nbytes);
        write_all(out, head, strlen(head));
        write_all(out, tensor_data(t), nbytes);
        tensor_unref(t);
    }
    runpass_result_free(&r);
}

/* The engine's answer on b, every pass of which is evaluated (bisect's
 * scan then costs nothing): the first pass -> fail flip, and in it the
 * statement where the passes part, with the engine's report. */
static void send_divergence(worker_pool_out *out, batch *b)
{
    bisect_options bo;
    memset(&bo, 0, sizeof bo);
    bo.statement = 1;
    bo.force_scan = 1;
    bisect_result r;
    bisect_run(b, &bo, &r);
    if (r.status == BISECT_FOUND && r.stmt_done && r.stmt.found && r.stmt.line > 0) {
        const case_info *c = b->c;
        strbuf rep = STRBUF_INIT;
        diverge_report_text(&r.stmt, c->passes[r.last_good].stem, c->passes[r.first_bad].stem, c->rtol.value,
                            c->atol.value, &rep);
        write_text(out, "S %d %d %d %d %zu\n", r.first_bad, r.stmt.line, r.stmt.rank, r.stmt.reason, rep.len);
        write_all(out, strbuf_str(&rep), rep.len);
        strbuf_free(&rep);
    }
    bisect_result_free(&r);
}

/* The pool's one task, in the worker (whose signals and standard streams
 * the pool has reset): the whole validation, streamed. */
static void worker_run(void *ud, size_t task, worker_pool_out *out)
{
    session *s = ud;
    (void)task;
    case_info c;
    session_case_with_tols(s, &c);
    batch_options opt;
    memset(&opt, 0, sizeof opt);
    session_machine_options(s, &opt.ro.mopt);
    opt.ro.mopt.reuse_dead = 1; /* verdicts only: no frame is shown */
    opt.ro.ops = session_ops(s);
    opt.jobs = 1; /* the worker is itself the background */
    batch b;
    batch_init(&b, &c, &opt);
    worker w = {out, -1};
    batch_eval_all(&b, worker_ready, &w);
    send_divergence(out, &b);
    if (w.first_bad >= 0 && b.passes[w.first_bad].status == BATCH_COMPARED) {
        send_outputs(out, &c, &opt.ro, w.first_bad);
        if (w.first_bad > 0 && b.passes[w.first_bad - 1].status == BATCH_COMPARED)
            send_outputs(out, &c, &opt.ro, w.first_bad - 1);
    }
    write_text(out, "D\n");
    _exit(0); /* no atexit handlers, no stdio flushes: they are the front end's */
}

/* ---- the front end's side ---- */

static int one_task(void *ud, size_t *task)
{
    session *s = ud;
    if (s->bg->handed_out)
        return 0;
    s->bg->handed_out = 1;
    *task = 0;
    return 1;
}

/* The bytes the worker sent, parsed by session_validate_poll. */
static void worker_output(void *ud, size_t task, const char *data, size_t len)
{
    session *s = ud;
    struct validate_bg *bg = s->bg;
    (void)task;
    if (bg->cap - bg->len < len) {
        bg->cap = bg->cap * 2 + len;
        bg->buf = xrealloc(bg->buf, bg->cap);
    }
    memcpy(bg->buf + bg->len, data, len);
    bg->len += len;
}

int session_validate_start(session *s)
{
    if (s->bg || !s->have_case || !session_get_bool(s, SETTING_AUTO_VALIDATE) || s->kase.npasses == 0)
        return -1;
    static const worker_pool_ops ops = {one_task, worker_run, worker_output, NULL, NULL, NULL};
    s->bg = xcalloc(1, sizeof *s->bg);
    s->bg->first_bad = -1;
    s->bg->start_pass = s->cur_pass;
    s->bg->cap = 65536;
    s->bg->buf = xmalloc(s->bg->cap);
    s->bg->pool = worker_pool_start(1, &ops, s);
    if (!s->bg->pool) {
        free(s->bg->buf);
        free(s->bg);
        s->bg = NULL;
        return -1;
    }
    session_mark_redraw(s, SESSION_REDRAW_STATUS);
    return worker_pool_fd(s->bg->pool);
}

int session_validate_fd(const session *s)
{
    return s->bg ? worker_pool_fd(s->bg->pool) : -1;
}

void session_validate_cancel(session *s)
{
    struct validate_bg *bg = s->bg;
    if (!bg)
        return;
    worker_pool_free(bg->pool); /* stops the worker if it is still running */
    if (!bg->complete)
        session_notify_validation_stopped(s, bg->received, (int)s->kase.npasses);
    free(bg->buf);
    free(bg);
    s->bg = NULL;
    session_mark_redraw(s, SESSION_REDRAW_STATUS);
}

int view_validation_progress(session *s, int *done, int *total)
{
    if (!s->bg)
        return 0;
    *done = s->bg->received;
    *total = (int)s->kase.npasses;
    return 1;
}

static void select_first_bad(session *s, int pass, int unchecked)
{
    /* Selected unless a program runs or the user selected another pass
     * meanwhile (the plain command line goes on while it validates). */
    int select = !s->run.active && s->cur_pass == s->bg->start_pass;
    if (select) {
        s->cur_pass = pass;
        s->list_line = 0;
        session_mark_redraw(s, SESSION_REDRAW_ALL);
    }
    /* A file that does not check never ran: no statement to bisect for.
     * Its errors (printed once, in the file's order, when it loads) and
     * then its first one, the root cause, last in the console, where the
     * source pane opens (view_pass_error). */
    if (unchecked)
        session_load_pass(s, pass);
    session_notify_first_failing_pass(s, pass, select, unchecked);
}

/* The first line of text starting with prefix (after spaces), or NULL. */
static char *line_starting(const char *text, const char *prefix)
{
    for (const char *l = text; l && *l;) {
        size_t len = strcspn(l, "\n");
        const char *q = l;
        while (*q == ' ')
            q++;
        if (strncmp(q, prefix, strlen(prefix)) == 0)
            return xstrndup(q, len - (size_t)(q - l));
        l += len + (l[len] == '\n');
    }
    return NULL;
}

void session_note_divergence(session *s, int pass, int line, int rank, int reason, const char *report)
{
    s->bisect_pass = pass;
    s->bisect_line = line;
    s->bisect_rank = rank;
    s->bisect_reason = reason;
    free(s->bisect_head);
    free(s->bisect_why);
    s->bisect_head = line_starting(report, "first divergence:");
    s->bisect_why = line_starting(report, "reason:");
    s->bisect_serial++;
    session_mark_redraw(s, SESSION_REDRAW_SOURCE | SESSION_REDRAW_STATUS);
}

/* The engine's answer the worker sent: noted, and reported
 * (divergence_found: presentation prints its two lines, the statement and
 * the reason, in the console, where the first screen shows them); the
 * source pane follows the statement (view_bisect_statement). */
static void take_divergence(session *s, int pass, int line, int rank, int reason, const char *report)
{
    session_note_divergence(s, pass, line, rank, reason, report);
    session_notify_divergence_found(s, pass, line, rank);
}

/* ---- the per-pass table of results (run.h's pass_result) ---- */

void run_free_result(pass_result *r)
{
    for (int k = 0; k < r->nout; k++)
        if (r->outputs[k])
            tensor_unref(r->outputs[k]);
    free(r->outputs);
    free(r->max_abs_diff);
    free(r->margin);
    free(r->ok);
    memset(r, 0, sizeof *r);
}

void run_free_results(session *s)
{
    if (!s->results)
        return;
    for (size_t i = 0; i < s->kase.npasses; i++)
        run_free_result(&s->results[i]);
    free(s->results);
    s->results = NULL;
}

static pass_result *fresh_result(session *s, int pass, int nout)
{
    if (!s->results)
        s->results = xcalloc(s->kase.npasses, sizeof *s->results);
    pass_result *r = &s->results[pass];
    run_free_result(r);
    r->nout = nout;
    r->outputs = xcalloc(nout ? (size_t)nout : 1, sizeof *r->outputs);
    r->max_abs_diff = xcalloc(nout ? (size_t)nout : 1, sizeof *r->max_abs_diff);
    r->margin = xcalloc(nout ? (size_t)nout : 1, sizeof *r->margin);
    r->ok = xcalloc(nout ? (size_t)nout : 1, sizeof *r->ok);
    return r;
}

/* 1 when pass's result holds output tensors and the verdict (failed,
 * max_abs_diff per output) the same as this one's. */
static int same_verdict_with_tensors(session *s, int pass, int failed, int nout, const double *max_abs_diff)
{
    const pass_result *r = s->results ? &s->results[pass] : NULL;
    if (!r || !r->ran || r->failed != failed || r->nout != (int)s->kase.noutputs)
        return 0;
    int tensors = 0;
    for (int k = 0; k < r->nout; k++) {
        double now = k < nout && !failed ? max_abs_diff[k] : NAN;
        if (!(r->max_abs_diff[k] == now || (isnan(r->max_abs_diff[k]) && isnan(now))))
            return 0;
        tensors |= r->outputs[k] != NULL;
    }
    return tensors;
}

void session_note_verdict(session *s, int pass, int failed, int same_as, int nout, const double *max_abs_diff,
                          const double *margin, const int *ok, int memfault, int unchecked)
{
    int nres = (int)s->kase.noutputs;
    /* The same verdict again (bisect's, after the background validation's)
     * keeps the tensors the heat maps draw: a fresh result would drop them
     * and empty the grids. Only the ok flags may change (other tolerances). */
    if (same_verdict_with_tensors(s, pass, failed, nout, max_abs_diff)) {
        pass_result *r = &s->results[pass];
        for (int k = 0; k < nres; k++) {
            r->ok[k] = k < nout ? ok[k] : 0;
            r->margin[k] = k < nout && !failed ? margin[k] : NAN;
        }
        r->same_as = same_as;
        r->memfault = memfault;
        session_mark_redraw(s, SESSION_REDRAW_PASSES | SESSION_REDRAW_HEATMAP);
        return;
    }
    pass_result *r = fresh_result(s, pass, nres);
    r->ran = 1;
    r->background = 1;
    r->same_as = same_as;
    r->failed = failed;
    r->unchecked = failed && unchecked;
    r->memfault = memfault;
    for (int k = 0; k < nres; k++) {
        r->max_abs_diff[k] = k < nout && !failed ? max_abs_diff[k] : NAN;
        r->margin[k] = k < nout && !failed ? margin[k] : NAN;
        r->ok[k] = k < nout ? ok[k] : 0;
    }
    session_mark_redraw(s, SESSION_REDRAW_PASSES | SESSION_REDRAW_HEATMAP);
}

/* The text line from b to its newline nl, as a string in line[size]; NULL
 * when it does not fit (a corrupt stream). sscanf first looks for the end of
 * the string it reads, so it must never get the buffer itself: no NUL
 * follows the bytes received, and a tensor's raw bytes follow its header. */
static const char *line_copy(const char *b, const char *nl, char *line, size_t size)
{
    size_t n = (size_t)(nl - b);
    if (n >= size)
        return NULL;
    memcpy(line, b, n);
    line[n] = '\0';
    return line;
}

/* Parses one record at the start of the buffer; returns the bytes it took,
 * 0 when it is not all there yet, -1 when the stream makes no sense. */
static long parse_record(session *s, const char *b, size_t len)
{
    struct validate_bg *bg = s->bg;
    const char *nl = memchr(b, '\n', len);
    if (!nl)
        return 0;
    size_t used = (size_t)(nl - b) + 1;
    char line[512]; /* write_text's longest line */
    const char *head = line_copy(b, nl, line, sizeof line);
    if (!head)
        return -1;
    if (b[0] == 'D') {
        bg->done = bg->complete = 1;
        return (long)used;
    }
    if (b[0] == 'P') {
        int pass, status, ok, same_as, nout, unchecked;
        if (sscanf(head, "P %d %d %d %d %d %d", &pass, &status, &ok, &same_as, &nout, &unchecked) != 6 || pass < 0 ||
            (size_t)pass >= s->kase.npasses || nout < 0 || nout > 4096)
            return -1;
        double mad[64], marg[64];
        int oks[64];
        for (int k = 0; k < nout; k++) {
            const char *l = b + used, *e = memchr(l, '\n', len - used);
            if (!e)
                return 0;
            char kline[512];
            const char *kl = line_copy(l, e, kline, sizeof kline);
            if (!kl || (k < 64 && sscanf(kl, "%la %d %la", &mad[k], &oks[k], &marg[k]) != 3))
                return -1;
            used += (size_t)(e - l) + 1;
        }
        session_note_verdict(s, pass, status != BATCH_COMPARED, same_as, nout < 64 ? nout : 64, mad, marg, oks,
                             ok == 2, unchecked);
        if (ok == 2)
            ok = 0;
        bg->received = pass + 1;
        session_mark_redraw(s, SESSION_REDRAW_PASSES | SESSION_REDRAW_STATUS | SESSION_REDRAW_HEATMAP);
        if (!ok && bg->first_bad < 0) {
            bg->first_bad = pass;
            select_first_bad(s, pass, unchecked);
        }
        return (long)used;
    }
    if (b[0] == 'S') {
        int pass, at, rank, reason;
        size_t nbytes;
        if (sscanf(head, "S %d %d %d %d %zu", &pass, &at, &rank, &reason, &nbytes) != 5 || pass < 0 ||
            (size_t)pass >= s->kase.npasses || at <= 0 || nbytes > (64u << 20))
            return -1;
        if (len - used < nbytes)
            return 0;
        char *report = xstrndup(b + used, nbytes);
        /* shown in the pass the first failing one selected, unless the
         * user moved on (select_first_bad) */
        take_divergence(s, pass, at, rank, reason, report);
        free(report);
        return (long)(used + nbytes);
    }
    if (b[0] == 'T') {
        int pass, out, dt, ndim, n = 0;
        if (sscanf(head, "T %d %d %d %d%n", &pass, &out, &dt, &ndim, &n) != 4 || ndim < 0 ||
            ndim > TENSOR_MAX_DIMS || pass < 0 || (size_t)pass >= s->kase.npasses)
            return -1;
        int64_t shape[TENSOR_MAX_DIMS];
        const char *p = head + n;
        for (int d = 0; d < ndim; d++) {
            long long v;
            int m;
            if (sscanf(p, " %lld%n", &v, &m) != 1 || v < 0)
                return -1;
            shape[d] = v;
            p += m;
        }
        size_t nbytes;
        if (sscanf(p, " %zu", &nbytes) != 1)
            return -1;
        if (len - used < nbytes)
            return 0;
        ptodb_status st;
        tensor *t = tensor_zeros((dtype_id)dt, ndim, shape, &st);
        if (!t)
            return -1;
        if (nbytes == (size_t)tensor_numel(t) * dtype_size(t->dtype))
            memcpy(tensor_data(t), b + used, nbytes);
        pass_result *r = s->results ? &s->results[pass] : NULL;
        if (r && r->ran && out >= 0 && out < r->nout && !r->outputs[out]) {
            tensor_copy_attrs(t, s->kase.outputs[out].t);
            r->outputs[out] = t;
        } else {
            tensor_unref(t);
        }
        session_mark_redraw(s, SESSION_REDRAW_HEATMAP);
        return (long)(used + nbytes);
    }
    return -1;
}

int session_validate_poll(session *s)
{
    struct validate_bg *bg = s->bg;
    if (!bg)
        return 0;
    if (!worker_pool_poll(bg->pool, 0))
        bg->done = 1; /* the worker ended */
    size_t off = 0;
    for (;;) {
        long used = parse_record(s, bg->buf + off, bg->len - off);
        if (used < 0) {
            session_errorf(s, "background validation: the worker's stream is corrupt; stopped");
            bg->done = 1;
            break;
        }
        if (used == 0)
            break;
        off += (size_t)used;
    }
    memmove(bg->buf, bg->buf + off, bg->len - off);
    bg->len -= off;
    if (!bg->done)
        return 1;
    if (bg->first_bad < 0 && bg->received == (int)s->kase.npasses)
        session_notify_validation_passed(s, (int)s->kase.npasses);
    bg->received = (int)s->kase.npasses > bg->received ? bg->received : (int)s->kase.npasses;
    session_validate_cancel(s);
    return 0;
}

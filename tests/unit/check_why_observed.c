/* `why`'s dataflow logs made by the divergence search's own traced runs
 * (batch/divergence.h divergence_find_logged: one run of each pass feeds
 * the trace and the log) against the logs of runs of their own
 * (batch/why_log.h why_log_run, as the chain made them before): record for
 * record the same statements, positions, operands and written values, bit
 * for bit (why_log_same). Material: examples/mlp (in the repository; the
 * plain pass 22 against pass 18, and mlp-broken's failing pass 22) and,
 * when the shared fixtures are there, qwen3_scope3_910b (21 against 22). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch/divergence.h"
#include "batch/why_log.h"
#include "exec/inspect.h"
#include "exec/machine.h"
#include "unit_case.h"

/* The logs of good_stem and bad_stem in case_dir, both ways; returns the
 * failing pass's records (-1: the case is not there). */
static long compare_logs(const char *case_dir, const char *good_stem, const char *bad_stem)
{
    case_info c;
    if (unit_case_open(case_dir, &c) != 0)
        return -1;
    const char *gp = unit_case_pass(&c, good_stem), *bp = unit_case_pass(&c, bad_stem);
    ck_assert_msg(gp && bp, "no pass %s or %s in %s", good_stem, bad_stem, case_dir);
    op_fn *ops;
    runpass_options ro;
    unit_run_options(&ro, &ops);
    divergence_side g = {gp, good_stem, &c}, b = {bp, bad_stem, &c};
    bisect_stmt s;
    why_log og, ob;
    divergence_find_logged(&g, &b, &ro, c.rtol.value, c.atol.value, 0, &s, &og, &ob);
    divergence_stmt_free(&s);
    ck_assert_msg(og.path && ob.path, "the search's runs made no logs");
    why_log la, lb;
    why_log_opts lo = {0, 0, NULL, 0, NULL}, lob = {0, 0, NULL, 0, &la};
    why_log_run(bp, &c, &ro, &lo, &la);
    why_log_run(gp, &c, &ro, &lob, &lb);
    ck_assert_uint_gt(la.n, 1);
    strbuf why = STRBUF_INIT;
    ck_assert_msg(why_log_same(&ob, &la, &why), "%s: %s", bad_stem, strbuf_str(&why));
    ck_assert_msg(why_log_same(&og, &lb, &why), "%s: %s", good_stem, strbuf_str(&why));
    /* the oracle sees a difference: one bit of one written value */
    for (size_t i = 1; i < la.n; i++) {
        why_write *w = la.recs[i].nw ? &la.recs[i].w[0] : NULL;
        if (!w || !w->vals || !w->v.ndim)
            continue;
        size_t bytes = dtype_size(w->v.dtype);
        for (int d = 0; d < w->v.ndim; d++)
            bytes *= (size_t)w->v.shape[d];
        unsigned char *was = w->vals, *other = xmalloc(bytes);
        memcpy(other, was, bytes);
        other[0] ^= 1;
        w->vals = other;
        ck_assert(!why_log_same(&ob, &la, NULL));
        w->vals = was;
        free(other);
        ck_assert(why_log_same(&ob, &la, NULL));
        break;
    }
    strbuf_free(&why);
    long n = (long)ob.n;
    why_log_free(&og);
    why_log_free(&ob);
    why_log_free(&lb);
    why_log_free(&la);
    free(ops);
    case_free(&c);
    return n;
}

START_TEST(test_observed_mlp)
{
    char dir[4096];
    unit_example_dir("mlp", dir, sizeof dir);
    ck_assert_int_gt(compare_logs(dir, "18_after_", "22_after_"), 1);
    unit_example_dir("mlp-broken", dir, sizeof dir);
    ck_assert_int_gt(compare_logs(dir, "18_after_", "22_after_"), 1);
}
END_TEST

START_TEST(test_observed_qwen3)
{
    char dir[4096];
    unit_fixture_dir("qwen3_scope3_910b", dir, sizeof dir);
    long n = compare_logs(dir, "21_after_", "22_after_");
    if (n < 0)
        return; /* no shared fixtures here */
    ck_assert_int_gt(n, 1);
}
END_TEST

/* The log's view of the items in flight (inspect_queue_items, asked at
 * every step) against inspect_queues and inspect_queue_item's, at every
 * step of examples/mlp's pass 22 (its queues carry tiles both ways): the
 * same tensors in the same order with their lanes, and under the caps the
 * log asks with (the first 32 queues, 64 items) and smaller ones. */
START_TEST(test_queue_items)
{
    char dir[4096];
    unit_example_dir("mlp", dir, sizeof dir);
    case_info c;
    ck_assert_int_eq(unit_case_open(dir, &c), 0);
    const char *path = unit_case_pass(&c, "22_after_");
    ck_assert_ptr_nonnull(path);
    op_fn *ops;
    runpass_options ro;
    unit_run_options(&ro, &ops);
    runpass_run run;
    runpass_open(&run, path, NULL, &c, &ro, NULL, NULL, 0);
    ck_assert_int_eq(run.status, RUNPASS_COMPARED);
    int busy = 0;
    for (int step = 0; step < 100000; step++) {
        static const int caps[][2] = {{32, 64}, {1, 64}, {32, 1}};
        for (int cap = 0; cap < 3; cap++) {
            int maxq = caps[cap][0], max = caps[cap][1];
            const tensor *want[64], *got[64];
            int want_lane[64], got_lane[64], nw = 0;
            inspect_queue qs[32];
            int nq = inspect_queues(run.m, qs, 32);
            for (int q = 0; q < nq && q < maxq; q++)
                for (int k = 0; k < qs[q].depth && nw < max; k++) {
                    const tensor *t = inspect_queue_item(run.m, &qs[q], k);
                    if (!t)
                        continue;
                    want[nw] = t;
                    want_lane[nw++] = qs[q].lane;
                }
            int ng = inspect_queue_items(run.m, maxq, got, got_lane, max);
            ck_assert_int_eq(ng, nw);
            for (int i = 0; i < nw; i++) {
                ck_assert_ptr_eq(got[i], want[i]);
                ck_assert_int_eq(got_lane[i], want_lane[i]);
            }
            busy += cap == 0 && nw > 0;
        }
        exec_event ev;
        if (machine_step(run.m, &ev) != PTODB_OK || ev.kind == EXEC_EV_DONE || ev.kind == EXEC_EV_ERROR ||
            machine_finished(run.m))
            break;
    }
    ck_assert_int_gt(busy, 0); /* tiles were in flight at some step */
    runpass_close(&run);
    free(ops);
    case_free(&c);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {test_observed_mlp, test_observed_qwen3, test_queue_items};
    return unit_run("why_observed", tests, 3);
}

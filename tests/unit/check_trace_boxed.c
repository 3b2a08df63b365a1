/* A trace with boxed stores (batch/trace.h trace_pass_boxed) against the
 * plain trace of the same pass: the same records in the same order, and
 * every record's value (trace_rec_value: a boxed store's GM tensor rebuilt
 * from its history) bit for bit and attribute for attribute the plain
 * trace's copy. Some stores must be boxed, or the test proves nothing.
 * Material: examples/mlp (in the repository) and, when the shared fixtures
 * are there, qwen3_scope3_910b (many stores into one GM tensor). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch/trace.h"
#include "unit_case.h"

/* The records of both traces of pass_file in case_dir agree; returns how
 * many stores were boxed (-1: the case is not there). */
static long compare_traces(const char *case_dir, const char *pass_file)
{
    case_info c;
    if (unit_case_open(case_dir, &c) != 0)
        return -1;
    const char *path = unit_case_pass(&c, pass_file);
    ck_assert_msg(path != NULL, "no pass %s in %s", pass_file, case_dir);
    op_fn *ops;
    runpass_options ro;
    unit_run_options(&ro, &ops);
    trace plain, boxed;
    trace_pass(path, &c, &ro, 0, NULL, NULL, &plain);
    trace_pass_boxed(path, &c, &ro, 0, &boxed);
    ck_assert_msg(!plain.error && !boxed.error, "%s", plain.error ? plain.error : boxed.error);
    ck_assert_uint_eq(plain.n, boxed.n);
    long nboxed = 0;
    for (size_t i = 0; i < plain.n; i++) {
        const trace_rec *p = &plain.recs[i], *b = &boxed.recs[i];
        ck_assert_str_eq(p->key, b->key);
        ck_assert_int_eq(p->line, b->line);
        nboxed += b->box != NULL && b->t == NULL;
        const tensor *h = trace_rec_header(b);
        ck_assert_ptr_nonnull(h);
        ck_assert_int_eq(h->ndim, p->t->ndim);
        ck_assert_int_eq(memcmp(h->shape, p->t->shape, sizeof h->shape), 0);
        const tensor *v = trace_rec_value(&boxed, b);
        ck_assert_ptr_nonnull(v);
        ck_assert_msg(tensor_same_bits(v, p->t), "record %zu (%s, line %d) differs", i, p->key, p->line);
        ck_assert_int_eq(v->valid_ndim, p->t->valid_ndim);
        ck_assert_int_eq(memcmp(v->valid, p->t->valid, sizeof v->valid), 0);
        ck_assert_int_eq(v->full_ndim, p->t->full_ndim);
        ck_assert_int_eq(memcmp(v->full, p->t->full, sizeof v->full), 0);
        ck_assert_int_eq(v->valid_declared, p->t->valid_declared);
        /* a region read off the box is the one read off the whole */
        if (p->has_region) {
            tensor *rp = trace_region_data(p, p->reg), *rb = trace_region_data(b, b->reg);
            ck_assert_int_eq(rp != NULL, rb != NULL);
            if (rp)
                ck_assert(tensor_same_bits(rp, rb));
            tensor_unref(rp);
            tensor_unref(rb);
        }
    }
    trace_free(&plain);
    trace_free(&boxed);
    free(ops);
    case_free(&c);
    return nboxed;
}

START_TEST(test_boxed_mlp)
{
    char dir[4096];
    unit_example_dir("mlp", dir, sizeof dir);
    long n = compare_traces(dir, "22_after_");
    ck_assert_int_gt(n, 0); /* one store of out is boxed there */
}
END_TEST

START_TEST(test_boxed_qwen3)
{
    char dir[4096];
    unit_fixture_dir("qwen3_scope3_910b", dir, sizeof dir);
    long n = compare_traces(dir, "21_after_");
    if (n < 0)
        return; /* no shared fixtures here */
    ck_assert_int_gt(n, 0);
}
END_TEST

int main(void)
{
    const TTest *tests[] = {test_boxed_mlp, test_boxed_qwen3};
    return unit_run("trace_boxed", tests, 2);
}

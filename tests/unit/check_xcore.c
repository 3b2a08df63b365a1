/* Split and merge of cross-core tiles (semantics.md §6.3) for every split
 * mode, odd extents and lane strides, with expectations worked out by hand
 * from the definitions: d = 0 for modes 1 and 3 (rows), 1 for 2 and 4
 * (columns); h = ceil(n/2); part0 = [0, h), part1 = [S, S+h) clipped. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "exec/xcore.h"

/* A rows x cols fp32 tile holding 10*r + c. */
static tensor *grid(int64_t rows, int64_t cols, int with_valid)
{
    int64_t shape[2] = {rows, cols};
    tensor *t = tensor_zeros(DTYPE_FP32, 2, shape, NULL);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t c = 0; c < cols; c++) {
            int64_t idx[2] = {r, c};
            tensor_set(t, idx, (double)(10 * r + c));
        }
    if (with_valid) {
        t->valid_ndim = 2;
        t->valid[0] = rows;
        t->valid[1] = cols;
        t->full_ndim = 2;
        t->full[0] = rows;
        t->full[1] = cols;
    }
    return t;
}

static double at(const tensor *t, int64_t r, int64_t c)
{
    int64_t idx[2] = {r, c};
    return tensor_get(t, idx);
}

START_TEST(test_up_down)
{
    tensor *t = grid(4, 6, 1), *p0, *p1;
    strbuf err = STRBUF_INIT;
    ck_assert_int_eq(xcore_split(t, 1, 0, &p0, &p1, &err), 0);
    ck_assert_int_eq(p0->shape[0], 2);
    ck_assert_int_eq(p0->shape[1], 6);
    ck_assert_int_eq(p1->shape[0], 2);
    ck_assert(at(p0, 1, 5) == 15.0); /* row 1 */
    ck_assert(at(p1, 0, 0) == 20.0); /* row 2 */
    ck_assert(at(p1, 1, 3) == 33.0);
    ck_assert_int_eq(p0->valid[0], 2);
    ck_assert_int_eq(p1->valid[0], 2);
    ck_assert_int_eq(p0->valid[1], 6);
    tensor *m = xcore_merge(p0, p1, 1, &err);
    ck_assert_ptr_nonnull(m);
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 6; c++)
            ck_assert(at(m, r, c) == 10.0 * r + c);
    ck_assert_int_eq(m->valid[0], 4);
    ck_assert_int_eq(m->full[0], 4);
    tensor_unref(m);
    tensor_unref(p0);
    tensor_unref(p1);
    tensor_unref(t);
    strbuf_free(&err);
}
END_TEST

START_TEST(test_left_right)
{
    tensor *t = grid(2, 6, 0), *p0, *p1;
    strbuf err = STRBUF_INIT;
    ck_assert_int_eq(xcore_split(t, 2, 0, &p0, &p1, &err), 0);
    ck_assert_int_eq(p0->shape[0], 2);
    ck_assert_int_eq(p0->shape[1], 3);
    ck_assert_int_eq(p1->shape[1], 3);
    ck_assert(at(p0, 1, 2) == 12.0);
    ck_assert(at(p1, 0, 0) == 3.0); /* column 3 */
    ck_assert(at(p1, 1, 2) == 15.0);
    /* no attrs on the source: none on the parts */
    ck_assert_int_eq(p0->valid_ndim, -1);
    tensor *m = xcore_merge(p0, p1, 2, &err);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->shape[1], 6);
    ck_assert(at(m, 1, 4) == 14.0);
    /* merge always sets attrs: valid = physical widths added */
    ck_assert_int_eq(m->valid_ndim, 2);
    ck_assert_int_eq(m->valid[1], 6);
    tensor_unref(m);
    tensor_unref(p0);
    tensor_unref(p1);
    tensor_unref(t);
    strbuf_free(&err);
}
END_TEST

START_TEST(test_odd_extents)
{
    strbuf err = STRBUF_INIT;
    tensor *p0, *p1;
    /* mode 3 on 5 rows: h = 3, lane 0 rows 0-2, lane 1 rows 3-4 (clipped) */
    tensor *t = grid(5, 2, 1);
    ck_assert_int_eq(xcore_split(t, 3, 0, &p0, &p1, &err), 0);
    ck_assert_int_eq(p0->shape[0], 3);
    ck_assert_int_eq(p1->shape[0], 2);
    ck_assert(at(p1, 0, 1) == 31.0);
    ck_assert(at(p1, 1, 0) == 40.0);
    ck_assert_int_eq(p0->valid[0], 3);
    ck_assert_int_eq(p1->valid[0], 2);
    ck_assert_int_eq(p0->full[0], 3);
    ck_assert_int_eq(p1->full[0], 2);
    tensor_unref(p0);
    tensor_unref(p1);
    tensor_unref(t);
    /* mode 4 on 5 columns: lane 0 columns 0-2, lane 1 columns 3-4 */
    t = grid(2, 5, 1);
    ck_assert_int_eq(xcore_split(t, 4, 0, &p0, &p1, &err), 0);
    ck_assert_int_eq(p0->shape[1], 3);
    ck_assert_int_eq(p1->shape[1], 2);
    ck_assert(at(p1, 1, 1) == 14.0);
    tensor_unref(p0);
    tensor_unref(p1);
    tensor_unref(t);
    /* an odd mode on an even extent: lanes 2 and 2 are not one apart */
    t = grid(4, 4, 1);
    ck_assert_int_ne(xcore_split(t, 3, 0, &p0, &p1, &err), 0);
    ck_assert_ptr_nonnull(strstr(strbuf_str(&err), "one cell apart"));
    tensor_unref(t);
    strbuf_free(&err);
}
END_TEST

START_TEST(test_lane_stride)
{
    strbuf err = STRBUF_INIT;
    tensor *p0, *p1;
    /* 4 rows, stride 1: lane 0 rows 0-1, lane 1 rows 1-2 */
    tensor *t = grid(4, 2, 1);
    ck_assert_int_eq(xcore_split(t, 1, 1, &p0, &p1, &err), 0);
    ck_assert_int_eq(p1->shape[0], 2);
    ck_assert(at(p1, 0, 0) == 10.0);
    ck_assert(at(p1, 1, 1) == 21.0);
    ck_assert_int_eq(p0->valid[0], 1); /* l0 = min(V, S) = 1 */
    ck_assert_int_eq(p1->valid[0], 1); /* l1 = min(max(V - S, 0), S) = 1 */
    tensor_unref(p0);
    tensor_unref(p1);
    /* stride 3 > h = 2 is out of range */
    ck_assert_int_ne(xcore_split(t, 1, 3, &p0, &p1, &err), 0);
    ck_assert_ptr_nonnull(strstr(strbuf_str(&err), "out-of-range lane stride"));
    tensor_unref(t);
    strbuf_free(&err);
}
END_TEST

START_TEST(test_merge_valid_clamped)
{
    /* lane 0 has 3 valid rows of 3, lane 1 2 of 3: merged valid 5, full 6 */
    strbuf err = STRBUF_INIT;
    tensor *p0 = grid(3, 2, 1), *p1 = grid(3, 2, 1);
    p1->valid[0] = 2;
    tensor *m = xcore_merge(p0, p1, 1, &err);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->shape[0], 6);
    ck_assert_int_eq(m->full[0], 6);
    ck_assert_int_eq(m->valid[0], 5);
    ck_assert(at(m, 3, 1) == 1.0); /* lane 1's row 0 starts at row 3 */
    tensor_unref(m);
    tensor_unref(p0);
    tensor_unref(p1);
    strbuf_free(&err);
}
END_TEST

static Suite *xcore_suite(void)
{
    Suite *s = suite_create("xcore");
    TCase *tc = tcase_create("split-merge");
    tcase_add_test(tc, test_up_down);
    tcase_add_test(tc, test_left_right);
    tcase_add_test(tc, test_odd_extents);
    tcase_add_test(tc, test_lane_stride);
    tcase_add_test(tc, test_merge_valid_clamped);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(xcore_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Unit tests for src/tensor/tensor.[ch]: storage sharing, views, copies,
 * casts, bounds checks, statistics. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "tensor/tensor.h"

static tensor *iota(dtype_id dt, int nd, const int64_t *shape)
{
    tensor *t = tensor_zeros(dt, nd, shape, NULL);
    ck_assert_ptr_nonnull(t);
    for (int64_t i = 0; i < tensor_numel(t); i++)
        dtype_store(dt, t->storage->data, (size_t)i, (double)i);
    return t;
}

START_TEST(test_zeros_and_strides)
{
    int64_t shape[3] = {2, 3, 4};
    tensor *t = tensor_zeros(DTYPE_FP32, 3, shape, NULL);
    ck_assert_int_eq(t->strides[0], 12);
    ck_assert_int_eq(t->strides[1], 4);
    ck_assert_int_eq(t->strides[2], 1);
    ck_assert_int_eq(tensor_numel(t), 24);
    ck_assert(tensor_is_contiguous(t));
    ck_assert_int_eq(t->valid_ndim, -1);
    ck_assert_int_eq(t->full_ndim, -1);
    tensor_unref(t);
    ptodb_status st;
    int64_t bad[2] = {-1, 3};
    ck_assert_ptr_null(tensor_zeros(DTYPE_FP32, 2, bad, &st));
    ck_assert_int_eq(st, PTODB_ERR_SHAPE);
    int64_t huge[2] = {INT64_MAX / 2, 4};
    ck_assert_ptr_null(tensor_zeros(DTYPE_FP32, 2, huge, &st));
    int64_t big[1] = {(int64_t)1 << 40};
    ck_assert_ptr_null(tensor_zeros(DTYPE_FP32, 1, big, &st));
    ck_assert_int_eq(st, PTODB_ERR_FORMAT);
    tensor *s = tensor_scalar(DTYPE_BF16, 1.00390625);
    ck_assert_int_eq(s->ndim, 0);
    ck_assert_int_eq(tensor_numel(s), 1);
    ck_assert_double_eq(tensor_get(s, NULL), 1.0);
    tensor_unref(s);
}
END_TEST

START_TEST(test_slice_shares_storage)
{
    int64_t shape[2] = {3, 4};
    tensor *t = iota(DTYPE_FP32, 2, shape);
    tensor *v = tensor_slice(t, 1, 1, 3, 1, NULL); /* t[:, 1:3] */
    ck_assert_ptr_eq(v->storage, t->storage);
    ck_assert_int_eq(v->shape[0], 3);
    ck_assert_int_eq(v->shape[1], 2);
    ck_assert_int_eq(v->offset, 1);
    ck_assert(!tensor_is_contiguous(v));
    int64_t idx[2] = {2, 1};
    ck_assert_double_eq(tensor_get(v, idx), 10.0);
    tensor_set(v, idx, -5.0); /* writes through to t */
    int64_t tidx[2] = {2, 2};
    ck_assert_double_eq(tensor_get(t, tidx), -5.0);
    /* clipping like Python slices, steps */
    tensor *w = tensor_slice(t, 0, 1, 100, 2, NULL);
    ck_assert_int_eq(w->shape[0], 1);
    tensor *e = tensor_slice(t, 0, 5, 9, 1, NULL);
    ck_assert_int_eq(e->shape[0], 0);
    ck_assert_int_eq(tensor_numel(e), 0);
    /* the view keeps the storage alive */
    tensor_unref(t);
    ck_assert_double_eq(tensor_get(v, idx), -5.0);
    tensor *c = tensor_clone(v);
    ck_assert(tensor_is_contiguous(c));
    ck_assert_ptr_ne(c->storage, v->storage);
    ck_assert_double_eq(tensor_get_flat(c, 5), -5.0);
    ck_assert_double_eq(tensor_get_flat(c, 0), 1.0);
    tensor_unref(c);
    tensor_unref(v);
    tensor_unref(w);
    tensor_unref(e);
}
END_TEST

START_TEST(test_transpose_reshape)
{
    int64_t shape[2] = {2, 3};
    tensor *t = iota(DTYPE_INT32, 2, shape);
    tensor *tt = tensor_transpose(t, 0, 1, NULL);
    ck_assert_int_eq(tt->shape[0], 3);
    ck_assert(!tensor_is_contiguous(tt));
    int64_t i[2] = {2, 1};
    ck_assert_int_eq(tensor_get_i64(tt, i), 5);
    int64_t flat[1] = {6};
    tensor *r = tensor_reshape(tt, 1, flat, NULL); /* copy: not contiguous */
    ck_assert_ptr_ne(r->storage, t->storage);
    ck_assert_double_eq(tensor_get_flat(r, 1), 3.0);
    tensor *r2 = tensor_reshape(t, 1, flat, NULL); /* view */
    ck_assert_ptr_eq(r2->storage, t->storage);
    int64_t wrong[1] = {7};
    ptodb_status st;
    ck_assert_ptr_null(tensor_reshape(t, 1, wrong, &st));
    ck_assert_int_eq(st, PTODB_ERR_SHAPE);
    tensor_unref(r);
    tensor_unref(r2);
    tensor_unref(tt);
    tensor_unref(t);
}
END_TEST

START_TEST(test_view_bounds)
{
    int64_t shape[1] = {12};
    tensor *t = iota(DTYPE_FP32, 1, shape);
    int64_t vs[2] = {3, 4}, vst[2] = {4, 1};
    ptodb_status st;
    tensor *v = tensor_view(t, 2, vs, vst, 0, &st);
    ck_assert_ptr_nonnull(v);
    ck_assert_ptr_null(tensor_view(t, 2, vs, vst, 1, &st)); /* one past the end */
    ck_assert_int_eq(st, PTODB_ERR_BOUNDS);
    int64_t ovs[2] = {3, 3}, ost[2] = {1, 1}; /* overlapping strides are fine */
    tensor *o = tensor_view(t, 2, ovs, ost, 0, &st);
    ck_assert_ptr_nonnull(o);
    int64_t bigst[2] = {INT64_MAX / 2, 1};
    ck_assert_ptr_null(tensor_view(t, 2, vs, bigst, 0, &st));
    tensor_unref(o);
    tensor_unref(v);
    tensor_unref(t);
}
END_TEST

START_TEST(test_cast_and_copy)
{
    int64_t shape[1] = {4};
    tensor *t = tensor_zeros(DTYPE_FP32, 1, shape, NULL);
    float *d = tensor_data(t);
    d[0] = 1.00390625f; /* bf16 tie -> 1.0 */
    d[1] = NAN;
    d[2] = 300.7f;
    d[3] = -1.5f;
    t->valid_ndim = 1;
    t->valid[0] = 2;
    tensor *same = tensor_cast(t, DTYPE_FP32);
    ck_assert_ptr_eq(same, t); /* .to(same dtype) is the same object */
    ck_assert_int_eq(same->refcount, 2);
    tensor_unref(same);
    tensor *b = tensor_cast(t, DTYPE_BF16);
    ck_assert_int_eq(b->valid_ndim, -1); /* a new object has no attrs */
    ck_assert_double_eq(tensor_get_flat(b, 0), 1.0);
    ck_assert(isnan(tensor_get_flat(b, 1)));
    tensor *i8 = tensor_cast(t, DTYPE_INT8);
    ck_assert_double_eq(tensor_get_flat(i8, 2), 44.0);
    tensor *u8 = tensor_cast(t, DTYPE_UINT8);
    ck_assert_double_eq(tensor_get_flat(u8, 3), 255.0);
    /* copy_into with conversion and overlap */
    ck_assert_int_eq(tensor_copy_into(b, t), PTODB_OK);
    int64_t two[1] = {2};
    tensor *src = tensor_view(t, 1, two, NULL, 0, NULL);
    tensor *dst = tensor_view(t, 1, two, NULL, 1, NULL);
    ck_assert_int_eq(tensor_copy_into(dst, src), PTODB_OK); /* t[1:3] = t[0:2] */
    ck_assert_double_eq(d[1], 1.00390625);
    ck_assert(isnan(d[2]));
    ck_assert_int_eq(tensor_copy_into(i8, src), PTODB_ERR_SHAPE);
    tensor_copy_attrs(dst, t);
    ck_assert_int_eq(dst->valid_ndim, 1);
    tensor_unref(src);
    tensor_unref(dst);
    tensor_unref(b);
    tensor_unref(i8);
    tensor_unref(u8);
    tensor_unref(t);
}
END_TEST

/* tensor_copy_into's three ways: straight into a dense dst (a row block),
 * by dense rows into a column block, element by element into a transposed
 * view; the source transposed (strided) throughout. */
START_TEST(test_copy_into_layouts)
{
    int64_t s34[2] = {3, 4}, s65[2] = {6, 5};
    tensor *v = tensor_zeros(DTYPE_FP32, 2, s34, NULL);
    float *vd = tensor_data(v);
    for (int i = 0; i < 12; i++)
        vd[i] = (float)i;
    tensor *vt = tensor_transpose(v, 0, 1, NULL); /* 4 x 3, vt[i][j] = 4 * j + i */
    tensor *m = tensor_zeros(DTYPE_FP32, 2, s65, NULL);
    float *md = tensor_data(m);
    /* rows 1..4, columns 0..2 of m: rows apart, inner dense */
    tensor *rows = tensor_slice(m, 0, 1, 5, 1, NULL);
    tensor *block = tensor_slice(rows, 1, 0, 3, 1, NULL);
    ck_assert_int_eq(tensor_copy_into(block, vt), PTODB_OK);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 5; j++)
            ck_assert_float_eq(md[i * 5 + j], i >= 1 && i <= 4 && j < 3 ? (float)(4 * j + (i - 1)) : 0.0f);
    /* rows 0..2 of m over rows 3..5 (the same storage: staged, then row by row) */
    tensor *m3 = tensor_slice(m, 0, 3, 6, 1, NULL);
    tensor *top = tensor_slice(m, 0, 0, 3, 1, NULL);
    ck_assert_int_eq(tensor_copy_into(m3, top), PTODB_OK);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++)
            ck_assert_float_eq(md[(i + 3) * 5 + j], i >= 1 && j < 3 ? (float)(4 * j + i - 1) : 0.0f);
    /* a transposed destination: v's storage receives vt's transpose back */
    tensor *z = tensor_zeros(DTYPE_FP32, 2, s34, NULL);
    tensor *zt = tensor_transpose(z, 0, 1, NULL);
    ck_assert_int_eq(tensor_copy_into(zt, vt), PTODB_OK);
    float *zd = tensor_data(z);
    for (int i = 0; i < 12; i++)
        ck_assert_float_eq(zd[i], (float)i);
    /* a dense dst over its own transpose: as if from a clone of the source */
    int64_t s33[2] = {3, 3};
    tensor *q = tensor_zeros(DTYPE_FP32, 2, s33, NULL);
    float *qd = tensor_data(q);
    for (int i = 0; i < 9; i++)
        qd[i] = (float)i;
    tensor *qt = tensor_transpose(q, 0, 1, NULL);
    ck_assert_int_eq(tensor_copy_into(q, qt), PTODB_OK);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            ck_assert_float_eq(qd[i * 3 + j], (float)(j * 3 + i));
    tensor *objs[] = {v, vt, m, rows, block, m3, top, z, zt, q, qt};
    for (size_t i = 0; i < sizeof objs / sizeof objs[0]; i++)
        tensor_unref(objs[i]);
}
END_TEST

START_TEST(test_stats)
{
    int64_t shape[1] = {6};
    tensor *t = tensor_zeros(DTYPE_FP32, 1, shape, NULL);
    float *d = tensor_data(t);
    d[0] = 1;
    d[1] = -3;
    d[2] = NAN;
    d[3] = INFINITY;
    d[4] = -INFINITY;
    d[5] = 5;
    tensor_stats s;
    tensor_compute_stats(t, &s);
    ck_assert_int_eq(s.count, 6);
    ck_assert_int_eq(s.nan_count, 1);
    ck_assert_int_eq(s.inf_count, 2);
    ck_assert_int_eq(s.finite, 3);
    ck_assert_double_eq(s.min, -3);
    ck_assert_double_eq(s.max, 5);
    ck_assert_double_eq(s.mean, 1);
    tensor *v = tensor_slice(t, 0, 0, 6, 5, NULL); /* elements 0 and 5 */
    tensor_compute_stats(v, &s);
    ck_assert_int_eq(s.count, 2);
    ck_assert_double_eq(s.mean, 3);
    char buf[64];
    tensor_format_shape(2, (int64_t[]){128, 64}, buf, sizeof buf);
    ck_assert_str_eq(buf, "[128, 64]");
    tensor_format_shape(0, NULL, buf, sizeof buf);
    ck_assert_str_eq(buf, "[]");
    tensor_unref(v);
    tensor_unref(t);
}
END_TEST

/* A storage's buffer reused after a free of the same size (tensor.c keeps
 * the last ones freed) is cleared again for tensor_zeros, and a clone over
 * it holds the source's bytes. */
START_TEST(test_reused_buffers)
{
    int64_t shape[2] = {16, 64}; /* 4 KB of floats: a reused size */
    for (int round = 0; round < 3; round++) {
        tensor *t = tensor_zeros(DTYPE_FP32, 2, shape, NULL);
        float *d = tensor_data(t);
        for (int i = 0; i < 16 * 64; i++)
            ck_assert_msg(d[i] == 0.0f, "round %d: element %d = %g, not cleared", round, i, d[i]);
        for (int i = 0; i < 16 * 64; i++)
            d[i] = (float)(i + 1 + round);
        tensor *c = tensor_clone(t);
        tensor_unref(t);
        ck_assert(memcmp(tensor_data(c), (float[]){(float)(1 + round)}, sizeof(float)) == 0);
        const float *cd = tensor_data(c);
        for (int i = 0; i < 16 * 64; i++)
            ck_assert(cd[i] == (float)(i + 1 + round));
        tensor_unref(c);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tensor");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_zeros_and_strides);
    tcase_add_test(tc, test_slice_shares_storage);
    tcase_add_test(tc, test_transpose_reshape);
    tcase_add_test(tc, test_view_bounds);
    tcase_add_test(tc, test_cast_and_copy);
    tcase_add_test(tc, test_copy_into_layouts);
    tcase_add_test(tc, test_stats);
    tcase_add_test(tc, test_reused_buffers);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

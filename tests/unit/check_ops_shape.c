/* Unit tests for ops_shape.c: slice views vs zero-padded copies and the
 * 4th-arg attrs, extract, reshape (view when strides allow, copy
 * otherwise, -1), transpose / transpose_view views, tensor.view (canonical
 * ND/DN strides, layout flip, attrs, out-of-storage error), concat
 * promotion, assemble in place and atomic, fillpad extremes, scatter_update.
 * Expectations worked out by hand from semantics.md §3.8. */
#include <stdlib.h>

#include "check_ops_util.h"

static exec_ctx C;

static tensor *iota(dtype_id dt, int64_t r, int64_t c)
{
    double v[64];
    for (int k = 0; k < r * c && k < 64; k++)
        v[k] = k;
    return mk2(dt, r, c, v);
}

static tensor *call_ok(int op, value *pos, uint32_t n)
{
    value out;
    ptodb_status st = run_op(&C, op, pos, n, &out);
    ck_assert_msg(st == PTODB_OK, "op failed: %s", C.msg);
    ck_assert_int_eq(out.kind, VAL_TENSOR);
    clear_all(pos, (int)n);
    return out.u.t;
}

START_TEST(test_slice)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *t = iota(DTYPE_FP32, 4, 6);
    value pos[4] = {value_tensor(tensor_ref(t)), tup2(2, 3), tup2(1, 2)};
    tensor *r = call_ok(IR_OP_TENSOR_SLICE, pos, 3);
    ck_assert_ptr_eq(r->storage, t->storage); /* a view */
    ck_assert_int_eq(r->valid_ndim, -1);
    double e[6] = {8, 9, 10, 14, 15, 16};
    expect_vals(r, e, 6);
    tensor_unref(r);
    /* overhanging window: a zero-padded copy; valid attr not clipped */
    value p2[4] = {value_tensor(tensor_ref(t)), tup2(2, 4), tup2(3, 4), tup2(5, 1)};
    r = call_ok(IR_OP_TILE_SLICE, p2, 4);
    ck_assert_ptr_ne(r->storage, t->storage);
    double e2[8] = {22, 23, 0, 0, 0, 0, 0, 0};
    expect_vals(r, e2, 8);
    ck_assert_int_eq(r->valid_ndim, 2);
    ck_assert_int_eq(r->valid[0], 5);
    ck_assert_int_eq(r->full[1], 4);
    tensor_unref(r);
    /* in bounds with a valid arg: still a view, nothing zeroed */
    value p3[4] = {value_tensor(tensor_ref(t)), tup2(2, 2), tup2(0, 0), tup2(1, 1)};
    r = call_ok(IR_OP_TILE_SLICE, p3, 4);
    ck_assert_ptr_eq(r->storage, t->storage);
    double e3[4] = {0, 1, 6, 7};
    expect_vals(r, e3, 4);
    ck_assert_int_eq(r->valid[0], 1);
    tensor_unref(r);
    /* extract(src, row, col, shape) */
    value p4[4] = {value_tensor(tensor_ref(t)), value_int(3), value_int(5), tup2(1, 1)};
    r = call_ok(IR_OP_TILE_EXTRACT, p4, 4);
    double e4[1] = {23};
    expect_vals(r, e4, 1);
    ck_assert_int_eq(r->valid_ndim, -1);
    tensor_unref(r);
    tensor_unref(t);
}
END_TEST

START_TEST(test_reshape_transpose)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *t = iota(DTYPE_FP32, 4, 6);
    value pos[2] = {value_tensor(tensor_ref(t)), tup2(-1, 8)};
    tensor *r = call_ok(IR_OP_TENSOR_RESHAPE, pos, 2);
    expect_shape2(r, 3, 8);
    ck_assert_ptr_eq(r->storage, t->storage);
    tensor_unref(r);
    /* a column slice [4, 2] can view as [8] only by copying */
    tensor *cs = tensor_slice(t, 1, 0, 2, 1, NULL);
    int64_t eight = 8;
    value p2[2] = {value_tensor(tensor_ref(cs)), tup(1, &eight)};
    r = call_ok(IR_OP_TILE_RESHAPE, p2, 2);
    ck_assert_ptr_ne(r->storage, t->storage);
    double e[8] = {0, 1, 6, 7, 12, 13, 18, 19};
    expect_vals(r, e, 8);
    tensor_unref(r);
    /* but [4, 2] -> [4, 2, 1] keeps the view (ATen computeStride) */
    int64_t s3[3] = {4, 2, 1};
    value p3[2] = {value_tensor(tensor_ref(cs)), tup(3, s3)};
    r = call_ok(IR_OP_TILE_RESHAPE, p3, 2);
    ck_assert_ptr_eq(r->storage, t->storage);
    tensor_unref(r);
    tensor_unref(cs);
    value p4[2] = {value_tensor(tensor_ref(t)), tup2(5, 5)}, out;
    ck_assert_int_ne(run_op(&C, IR_OP_TENSOR_RESHAPE, p4, 2, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "shape '[5, 5]' is invalid for input of size 24"));
    clear_all(p4, 2);
    /* transpose and transpose_view are views */
    value p5[3] = {value_tensor(tensor_ref(t)), value_int(0), value_int(-1)};
    r = call_ok(IR_OP_TENSOR_TRANSPOSE, p5, 3);
    expect_shape2(r, 6, 4);
    ck_assert_ptr_eq(r->storage, t->storage);
    ck_assert_double_eq(tensor_get_flat(r, 1), 6);
    tensor_unref(r);
    value p6[1] = {value_tensor(tensor_ref(t))};
    r = call_ok(IR_OP_TILE_TRANSPOSE_VIEW, p6, 1);
    expect_shape2(r, 6, 4);
    tensor_unref(r);
    value p7[3] = {value_tensor(tensor_ref(t)), value_int(0), value_int(2)};
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_TRANSPOSE, p7, 3, &out), PTODB_OK);
    clear_all(p7, 3);
    tensor_unref(t);
}
END_TEST

START_TEST(test_view)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *t = iota(DTYPE_FP32, 4, 6);
    tensor *sl = tensor_slice(t, 0, 1, 4, 1, NULL); /* offset 6 */
    /* ND: row-major from the source's storage offset, its strides ignored */
    value pos[2] = {value_tensor(tensor_ref(sl)), tup2(2, 3)};
    tensor *r = call_ok(IR_OP_TENSOR_VIEW, pos, 2);
    double e[6] = {6, 7, 8, 9, 10, 11};
    expect_vals(r, e, 6);
    tensor_unref(r);
    /* DN: stride[-2] = 1, stride[-1] = shape[-2] */
    exec_type rt;
    memset(&rt, 0, sizeof rt);
    rt.kind = EXEC_TYPE_TENSOR;
    rt.layout = IR_EV_TENSOR_LAYOUT_DN;
    value p2[3] = {value_tensor(tensor_ref(sl)), tup2(2, 3), tup2(1, 3)}, out;
    ck_assert_int_eq(run_op_kw(&C, IR_OP_TENSOR_VIEW, p2, 3, NULL, NULL, 0, &rt, &out), PTODB_OK);
    double e2[6] = {6, 8, 10, 7, 9, 11};
    expect_vals(out.u.t, e2, 6);
    ck_assert_int_eq(out.u.t->valid_ndim, 2);
    ck_assert_int_eq(out.u.t->valid[0], 1);
    ck_assert_int_eq(out.u.t->full[1], 3);
    value_clear(&out);
    clear_all(p2, 3);
    /* one arg: DN result -> .mT; ND -> the same object */
    value p3[1] = {value_tensor(tensor_ref(t))};
    ck_assert_int_eq(run_op_kw(&C, IR_OP_TENSOR_VIEW, p3, 1, NULL, NULL, 0, &rt, &out), PTODB_OK);
    expect_shape2(out.u.t, 6, 4);
    value_clear(&out);
    rt.layout = IR_EV_TENSOR_LAYOUT_ND;
    ck_assert_int_eq(run_op_kw(&C, IR_OP_TENSOR_VIEW, p3, 1, NULL, NULL, 0, &rt, &out), PTODB_OK);
    ck_assert_ptr_eq(out.u.t, t);
    value_clear(&out);
    clear_all(p3, 1);
    /* reading past the storage is REF's RuntimeError */
    value p4[2] = {value_tensor(tensor_ref(sl)), tup2(4, 6)};
    ck_assert_int_ne(run_op(&C, IR_OP_TENSOR_VIEW, p4, 2, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "out of bounds for storage"));
    clear_all(p4, 2);
    tensor_unref(sl);
    tensor_unref(t);
}
END_TEST

START_TEST(test_concat)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double a[4] = {1, 2, 3, 4}, b[2] = {5, 6};
    value pos[2] = {value_tensor(mk2(DTYPE_INT32, 2, 2, a)), value_tensor(mk2(DTYPE_FP32, 2, 1, b))};
    tensor *r = call_ok(IR_OP_TILE_CONCAT, pos, 2);
    ck_assert_int_eq(r->dtype, DTYPE_FP32);
    expect_shape2(r, 2, 3);
    double e[6] = {1, 2, 5, 3, 4, 6};
    expect_vals(r, e, 6);
    tensor_unref(r);
    value p2[2] = {value_tensor(mk2(DTYPE_FP32, 2, 2, a)), value_tensor(mk2(DTYPE_FP32, 1, 2, b))}, out;
    ck_assert_int_ne(run_op(&C, IR_OP_TENSOR_CONCAT, p2, 2, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "Sizes of tensors must match except in dimension 1"));
    clear_all(p2, 2);
}
END_TEST

START_TEST(test_assemble)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *target = mk2(DTYPE_FP32, 3, 3, NULL);
    double s[4] = {1, 2, 3, 4};
    tensor *src = mk2(DTYPE_FP32, 2, 2, s);
    src->valid_ndim = 2; /* only the first row is valid */
    src->valid[0] = 1;
    src->valid[1] = 2;
    value pos[3] = {value_tensor(tensor_ref(target)), value_tensor(tensor_ref(src)), tup2(1, 1)},
          out;
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_ASSEMBLE, pos, 3, &out), PTODB_OK);
    ck_assert_ptr_eq(out.u.t, target);
    ck_assert_int_eq(C.writes, 1);
    value_clear(&out);
    double e[9] = {0, 0, 0, 0, 1, 2, 0, 0, 0};
    expect_vals(target, e, 9);
    ck_assert_int_eq(run_op1kw(&C, IR_OP_TILE_ASSEMBLE, pos, 3, EXEC_KW_ATOMIC,
                               value_enum(IR_EV_ATOMIC_TYPE_ADD), &out),
                     PTODB_OK);
    value_clear(&out);
    double e2[9] = {0, 0, 0, 0, 2, 4, 0, 0, 0};
    expect_vals(target, e2, 9);
    clear_all(pos, 3);
    tensor_unref(src);
    tensor_unref(target);
}
END_TEST

static tensor *fillpad(tensor *x, int32_t pad_enum, value *same)
{
    value pos[1] = {value_tensor(x)}, out;
    ptodb_status st = pad_enum < 0
                          ? run_op(&C, IR_OP_TILE_FILLPAD, pos, 1, &out)
                          : run_op1kw(&C, IR_OP_TILE_FILLPAD, pos, 1, EXEC_KW_PAD_VALUE,
                                      value_enum(pad_enum), &out);
    ck_assert_msg(st == PTODB_OK, "fillpad failed: %s", C.msg);
    if (same)
        *same = pos[0];
    else
        value_clear(&pos[0]);
    return out.u.t;
}

START_TEST(test_fillpad)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    static const struct { dtype_id dt; int32_t pad; double v; } cases[] = {
        {DTYPE_FP32, IR_EV_PAD_VALUE_MIN, -3.4028234663852886e38},
        {DTYPE_FP32, IR_EV_PAD_VALUE_MAX, 3.4028234663852886e38},
        {DTYPE_BF16, IR_EV_PAD_VALUE_MIN, -3.3895313892515355e38},
        {DTYPE_FP16, IR_EV_PAD_VALUE_MAX, 65504},
        {DTYPE_INT32, IR_EV_PAD_VALUE_MIN, -2147483648.0},
        {DTYPE_INT8, IR_EV_PAD_VALUE_MAX, 127},
        {DTYPE_FP32, IR_EV_PAD_VALUE_ZERO, 0},
        {DTYPE_FP32, IR_EV_PAD_VALUE_NULL, 0},
    };
    double x[4] = {1, 2, 3, 4};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tensor *t = mk2(cases[k].dt, 2, 2, x);
        t->valid_ndim = 2;
        t->valid[0] = 2;
        t->valid[1] = 1;
        tensor *r = fillpad(t, cases[k].pad, NULL);
        double e[4] = {1, cases[k].v, 3, cases[k].v};
        expect_vals(r, e, 4);
        ck_assert_int_eq(r->valid_ndim, -1);
        tensor_unref(r);
    }
    /* bf16 max pattern is 0x7F7F */
    tensor *t = mk2(DTYPE_BF16, 1, 2, x);
    t->valid_ndim = 2;
    t->valid[0] = 1;
    t->valid[1] = 1;
    tensor *r = fillpad(t, IR_EV_PAD_VALUE_MAX, NULL);
    uint16_t bits;
    memcpy(&bits, (unsigned char *)tensor_data(r) + 2, 2);
    ck_assert_uint_eq(bits, 0x7F7F);
    tensor_unref(r);
    /* no valid attr: the same object */
    t = mk2(DTYPE_FP32, 2, 2, x);
    value same;
    r = fillpad(t, IR_EV_PAD_VALUE_MIN, &same);
    ck_assert_ptr_eq(r, t);
    tensor_unref(r);
    value_clear(&same);
    /* full bigger than the physical shape: zero-padded first, then filled */
    t = mk2(DTYPE_FP32, 1, 2, x);
    t->full_ndim = 2;
    t->full[0] = 2;
    t->full[1] = 3;
    t->valid_ndim = 2;
    t->valid[0] = 1;
    t->valid[1] = 2;
    r = fillpad(t, IR_EV_PAD_VALUE_MAX, NULL);
    expect_shape2(r, 2, 3);
    double M = 3.4028234663852886e38;
    double e2[6] = {1, 2, M, M, M, M};
    expect_vals(r, e2, 6);
    tensor_unref(r);
}
END_TEST

START_TEST(test_scatter_update)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *in = mk2(DTYPE_FP32, 4, 2, NULL);
    double iv[2] = {3, 1}, sv[4] = {1, 2, 3, 4};
    value pos[3] = {value_tensor(tensor_ref(in)), value_tensor(mk2(DTYPE_INT64, 2, 1, iv)),
                    value_tensor(mk2(DTYPE_FP32, 2, 2, sv))},
          out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_SCATTER_UPDATE, pos, 3, &out), PTODB_OK);
    ck_assert_ptr_eq(out.u.t, in);
    ck_assert_int_eq(C.writes, 1);
    value_clear(&out);
    double e[8] = {0, 0, 3, 4, 0, 0, 1, 2};
    expect_vals(in, e, 8);
    clear_all(pos, 3);
    /* an int32 index is refused by scatter_ (open question Q7) */
    value p2[3] = {value_tensor(tensor_ref(in)), value_tensor(mk2(DTYPE_INT32, 2, 1, iv)),
                   value_tensor(mk2(DTYPE_FP32, 2, 2, sv))};
    ck_assert_int_ne(run_op(&C, IR_OP_TENSOR_SCATTER_UPDATE, p2, 3, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "Expected dtype int64 for index"));
    clear_all(p2, 3);
    /* an out-of-range index fails before anything is written */
    double bad[2] = {4, 0};
    value p3[3] = {value_tensor(tensor_ref(in)), value_tensor(mk2(DTYPE_INT64, 2, 1, bad)),
                   value_tensor(mk2(DTYPE_FP32, 2, 2, sv))};
    ck_assert_int_ne(run_op(&C, IR_OP_TENSOR_SCATTER_UPDATE, p3, 3, &out), PTODB_OK);
    expect_vals(in, e, 8);
    clear_all(p3, 3);
    tensor_unref(in);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_shape");
    TCase *tc = tcase_create("shape");
    tcase_add_test(tc, test_slice);
    tcase_add_test(tc, test_reshape_transpose);
    tcase_add_test(tc, test_view);
    tcase_add_test(tc, test_concat);
    tcase_add_test(tc, test_assemble);
    tcase_add_test(tc, test_fillpad);
    tcase_add_test(tc, test_scatter_update);
    suite_add_tcase(s, tc);
    return run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}

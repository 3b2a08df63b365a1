/* Unit tests for unary ops, cast (ops_unary.c) and reductions
 * (ops_reduce.c): special values, class-A rounding (numpy expectations in
 * tests/data/ops/expected.h), int -> float32 results, torch 1.13 fp16
 * holes, cast aliasing, keepdim shapes, int64 sums, NaN in amax/amin. */
#include <stdlib.h>

#include "check_ops_util.h"
#include "../data/ops/expected.h"

static exec_ctx C;

static tensor *un(int op, value x)
{
    value out;
    ptodb_status st = run_op(&C, op, &x, 1, &out);
    ck_assert_msg(st == PTODB_OK, "op failed: %s", C.msg);
    ck_assert_int_eq(out.kind, VAL_TENSOR);
    value_clear(&x);
    return out.u.t;
}

static void un_fail(int op, value x)
{
    value out;
    ck_assert_int_ne(run_op(&C, op, &x, 1, &out), PTODB_OK);
    value_clear(&x);
}

START_TEST(test_float_unary_class_a)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    static const struct { int op; const double *e; } cases[] = {
        {IR_OP_TILE_EXP, F32_EXP}, {IR_OP_TENSOR_LOG, F32_LOG}, {IR_OP_TILE_SQRT, F32_SQRT},
        {IR_OP_TENSOR_RSQRT, F32_RSQRT}, {IR_OP_TILE_RECIP, F32_RECIP},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tensor *r = un(cases[k].op, value_tensor(mk1(DTYPE_FP32, 12, F32_UX)));
        ck_assert_int_eq(r->dtype, DTYPE_FP32);
        expect_vals(r, cases[k].e, 12);
        tensor_unref(r);
    }
    tensor *r = un(IR_OP_TILE_EXP, value_tensor(mk1(DTYPE_BF16, 16, BF16_A)));
    ck_assert_int_eq(r->dtype, DTYPE_BF16);
    expect_vals(r, BF16_EXP, 16);
    tensor_unref(r);
}
END_TEST

START_TEST(test_special_values)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double x[4] = {0.0, -0.0, -1.0, INFINITY};
    tensor *r = un(IR_OP_TILE_LOG, value_tensor(mk1(DTYPE_FP32, 4, x)));
    double e1[4] = {-INFINITY, -INFINITY, NAN, INFINITY};
    expect_vals(r, e1, 4);
    tensor_unref(r);
    r = un(IR_OP_TILE_RSQRT, value_tensor(mk1(DTYPE_FP32, 4, x)));
    double e2[4] = {INFINITY, -INFINITY, NAN, 0};
    expect_vals(r, e2, 4);
    tensor_unref(r);
    r = un(IR_OP_TILE_SQRT, value_tensor(mk1(DTYPE_FP32, 4, x)));
    double e3[4] = {0, -0.0, NAN, INFINITY}; /* IEEE sqrt(-0.0) = -0.0, as torch */
    expect_vals(r, e3, 4);
    tensor_unref(r);
    double y[3] = {-2, NAN, 3};
    r = un(IR_OP_TILE_RELU, value_tensor(mk1(DTYPE_FP32, 3, y)));
    double e4[3] = {0, NAN, 3};
    expect_vals(r, e4, 3);
    tensor_unref(r);
    r = un(IR_OP_TENSOR_ABS, value_tensor(mk1(DTYPE_FP32, 3, y)));
    double e5[3] = {2, NAN, 3};
    expect_vals(r, e5, 3);
    tensor_unref(r);
}
END_TEST

START_TEST(test_int_unary)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double x[3] = {-2147483648.0, -5, 7};
    tensor *r = un(IR_OP_TILE_ABS, value_tensor(mk1(DTYPE_INT32, 3, x)));
    double e1[3] = {-2147483648.0, 5, 7}; /* int min stays int min */
    expect_vals(r, e1, 3);
    tensor_unref(r);
    r = un(IR_OP_TILE_NEG, value_tensor(mk1(DTYPE_INT32, 3, x)));
    double e2[3] = {-2147483648.0, 5, -7};
    expect_vals(r, e2, 3);
    tensor_unref(r);
    r = un(IR_OP_TENSOR_NOT, value_tensor(mk1(DTYPE_INT32, 3, x)));
    double e3[3] = {2147483647.0, 4, -8};
    expect_vals(r, e3, 3);
    tensor_unref(r);
    double b[2] = {1, 0};
    r = un(IR_OP_TILE_NOT, value_tensor(mk1(DTYPE_BOOL, 2, b)));
    double e4[2] = {0, 1};
    ck_assert_int_eq(r->dtype, DTYPE_BOOL);
    expect_vals(r, e4, 2);
    tensor_unref(r);
    r = un(IR_OP_TILE_RELU, value_tensor(mk1(DTYPE_INT32, 3, x)));
    double e5[3] = {0, 0, 7};
    expect_vals(r, e5, 3);
    tensor_unref(r);
    /* integer input to exp/sqrt gives float32 */
    double sq[2] = {4, 9};
    r = un(IR_OP_TILE_SQRT, value_tensor(mk1(DTYPE_INT32, 2, sq)));
    ck_assert_int_eq(r->dtype, DTYPE_FP32);
    double e6[2] = {2, 3};
    expect_vals(r, e6, 2);
    tensor_unref(r);
    un_fail(IR_OP_TILE_NEG, value_tensor(mk1(DTYPE_BOOL, 2, b)));
    ck_assert_ptr_nonnull(strstr(C.msg, "bool tensor"));
    un_fail(IR_OP_TILE_NOT, value_tensor(mk1(DTYPE_FP32, 2, b)));
    un_fail(IR_OP_TILE_EXP, value_int(3));
}
END_TEST

START_TEST(test_fp16_t13_holes)
{
    double x[2] = {1, 2};
    ctx_init(&C, EXEC_PROFILE_T13);
    un_fail(IR_OP_TILE_EXP, value_tensor(mk1(DTYPE_FP16, 2, x)));
    ck_assert_ptr_nonnull(strstr(C.msg, "not implemented for 'Half'"));
    un_fail(IR_OP_TILE_RELU, value_tensor(mk1(DTYPE_FP16, 2, x)));
    tensor *r = un(IR_OP_TILE_RECIP, value_tensor(mk1(DTYPE_FP16, 2, x)));
    tensor_unref(r);
    ctx_init(&C, EXEC_PROFILE_T2);
    r = un(IR_OP_TILE_SQRT, value_tensor(mk1(DTYPE_FP16, 2, x)));
    ck_assert_int_eq(r->dtype, DTYPE_FP16);
    double e[2] = {1, 1.4140625}; /* fp16(sqrt(2)) */
    expect_vals(r, e, 2);
    tensor_unref(r);
}
END_TEST

START_TEST(test_cast)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double x[3] = {300.7, -1.5, 1.00390625};
    tensor *t = mk1(DTYPE_FP32, 3, x);
    t->valid_ndim = 1;
    t->valid[0] = 2;
    value pos[1] = {value_tensor(t)}, out;
    /* same dtype: the same object, attrs kept */
    ck_assert_int_eq(run_op1kw(&C, IR_OP_TILE_CAST, pos, 1, EXEC_KW_TARGET_TYPE,
                               value_enum(IR_EV_DTYPE_FP32), &out),
                     PTODB_OK);
    ck_assert_ptr_eq(out.u.t, t);
    ck_assert_int_eq(out.u.t->valid_ndim, 1);
    value_clear(&out);
    ck_assert_int_eq(run_op1kw(&C, IR_OP_TENSOR_CAST, pos, 1, EXEC_KW_TARGET_TYPE,
                               value_enum(IR_EV_DTYPE_INT8), &out),
                     PTODB_OK);
    ck_assert_ptr_ne(out.u.t, t);
    ck_assert_int_eq(out.u.t->dtype, DTYPE_INT8);
    ck_assert_int_eq(out.u.t->valid_ndim, -1);
    double e1[3] = {44, -1, 1};
    expect_vals(out.u.t, e1, 3);
    value_clear(&out);
    ck_assert_int_eq(run_op1kw(&C, IR_OP_TILE_CAST, pos, 1, EXEC_KW_TARGET_TYPE,
                               value_enum(IR_EV_DTYPE_BF16), &out),
                     PTODB_OK);
    double e2[3] = {300, -1.5, 1};
    expect_vals(out.u.t, e2, 3);
    value_clear(&out);
    /* FP8 is a float32 tensor in REF: cast is the identity object */
    ck_assert_int_eq(run_op1kw(&C, IR_OP_TILE_CAST, pos, 1, EXEC_KW_TARGET_TYPE,
                               value_enum(IR_EV_DTYPE_FP8E4M3FN), &out),
                     PTODB_OK);
    ck_assert_ptr_eq(out.u.t, t);
    value_clear(&out);
    clear_all(pos, 1);
}
END_TEST

static tensor *red(int op, tensor *x)
{
    return un(op, value_tensor(x));
}

START_TEST(test_reductions)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double x[6] = {1, 2, 3, 4, 5, 6};
    tensor *r = red(IR_OP_TILE_ROW_SUM, mk2(DTYPE_FP32, 2, 3, x));
    expect_shape2(r, 2, 1);
    double e1[2] = {6, 15};
    expect_vals(r, e1, 2);
    tensor_unref(r);
    r = red(IR_OP_TENSOR_COL_SUM, mk2(DTYPE_FP32, 2, 3, x));
    expect_shape2(r, 1, 3);
    double e2[3] = {5, 7, 9};
    expect_vals(r, e2, 3);
    tensor_unref(r);
    r = red(IR_OP_TILE_ROW_PROD, mk2(DTYPE_FP32, 2, 3, x));
    double e3[2] = {6, 120};
    expect_vals(r, e3, 2);
    tensor_unref(r);
    /* int sums and products are int64 */
    r = red(IR_OP_TILE_COL_PROD, mk2(DTYPE_INT32, 2, 3, x));
    ck_assert_int_eq(r->dtype, DTYPE_INT64);
    double e4[3] = {4, 10, 18};
    expect_vals(r, e4, 3);
    tensor_unref(r);
    double big[2] = {2147483647.0, 2147483647.0};
    r = red(IR_OP_TILE_ROW_SUM, mk2(DTYPE_INT32, 1, 2, big));
    ck_assert_int_eq(r->dtype, DTYPE_INT64);
    double e5[1] = {4294967294.0};
    expect_vals(r, e5, 1);
    tensor_unref(r);
    double bl[3] = {1, 1, 0};
    r = red(IR_OP_TILE_ROW_SUM, mk2(DTYPE_BOOL, 1, 3, bl));
    ck_assert_int_eq(r->dtype, DTYPE_INT64);
    double e6[1] = {2};
    expect_vals(r, e6, 1);
    tensor_unref(r);
    /* amax/amin keep the dtype and propagate NaN */
    double n[6] = {1, NAN, 3, -4, -5, -6};
    r = red(IR_OP_TILE_ROW_MAX, mk2(DTYPE_FP32, 2, 3, n));
    double e7[2] = {NAN, -4};
    expect_vals(r, e7, 2);
    tensor_unref(r);
    r = red(IR_OP_TENSOR_COL_MIN, mk2(DTYPE_INT16, 2, 3, x));
    ck_assert_int_eq(r->dtype, DTYPE_INT16);
    double e8[3] = {1, 2, 3};
    expect_vals(r, e8, 3);
    tensor_unref(r);
    /* bf16 row_sum: double accumulation rounded once */
    r = red(IR_OP_TILE_ROW_SUM, mk2(DTYPE_BF16, 4, 37, BF16_RS_IN));
    ck_assert_int_eq(r->dtype, DTYPE_BF16);
    expect_vals(r, BF16_RS_OUT, 4);
    tensor_unref(r);
    /* the reduction covers a strided view's whole extent */
    tensor *base = mk2(DTYPE_FP32, 2, 3, x);
    tensor *tv = tensor_transpose(base, 0, 1, NULL); /* [3, 2] */
    r = red(IR_OP_TILE_ROW_SUM, tv);
    double e9[3] = {5, 7, 9};
    expect_vals(r, e9, 3);
    tensor_unref(r);
    tensor_unref(base);
}
END_TEST

START_TEST(test_reduction_errors)
{
    double x[3] = {1, 2, 3};
    ctx_init(&C, EXEC_PROFILE_T13);
    un_fail(IR_OP_TILE_ROW_PROD, value_tensor(mk2(DTYPE_BF16, 1, 3, x)));
    ck_assert_ptr_nonnull(strstr(C.msg, "prod_cpu"));
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *r = red(IR_OP_TILE_ROW_PROD, mk2(DTYPE_BF16, 1, 3, x));
    double e[1] = {6};
    expect_vals(r, e, 1);
    tensor_unref(r);
    /* col_* on 1-D: dim -2 out of range */
    un_fail(IR_OP_TILE_COL_SUM, value_tensor(mk1(DTYPE_FP32, 3, x)));
    ck_assert_ptr_nonnull(strstr(C.msg, "Dimension out of range"));
    /* amax over an empty dim */
    un_fail(IR_OP_TILE_ROW_MAX, value_tensor(mk2(DTYPE_FP32, 2, 0, NULL)));
    /* sum over an empty dim is 0 */
    r = red(IR_OP_TILE_ROW_SUM, mk2(DTYPE_FP32, 2, 0, NULL));
    double z[2] = {0, 0};
    expect_vals(r, z, 2);
    tensor_unref(r);
}
END_TEST

/* t13: REF's own kernels (SLEEF exp, torch's cascade sum order) */
START_TEST(test_t13_exp_and_sums)
{
    ctx_init(&C, EXEC_PROFILE_T13);
    tensor *r = un(IR_OP_TILE_EXP, value_tensor(mk1(DTYPE_FP32, 32, T13_EXP_IN)));
    expect_vals(r, T13_EXP, 32);
    tensor_unref(r);
    r = red(IR_OP_TILE_ROW_SUM, mk2(DTYPE_FP32, 5, 70, T13_RS_IN));
    expect_vals(r, T13_RS_OUT, 5);
    tensor_unref(r);
    r = red(IR_OP_TILE_COL_SUM, mk2(DTYPE_FP32, 37, 40, T13_CS_IN));
    expect_vals(r, T13_CS_OUT, 40);
    tensor_unref(r);
    r = red(IR_OP_TENSOR_ROW_SUM, mk2(DTYPE_FP32, 3, 5, T13_RS5_IN));
    expect_vals(r, T13_RS5_OUT, 3);
    tensor_unref(r);
    r = red(IR_OP_TILE_ROW_SUM, mk2(DTYPE_FP32, 1, 1500, T13_RSBIG_IN));
    expect_vals(r, T13_RSBIG_OUT, 1);
    tensor_unref(r);
    r = red(IR_OP_TENSOR_COL_SUM, mk2(DTYPE_FP32, 300, 3, T13_CS3_IN));
    expect_vals(r, T13_CS3_OUT, 3);
    tensor_unref(r);
    /* the same sums under t2 are the double sums rounded once: they differ */
    ctx_init(&C, EXEC_PROFILE_T2);
    r = red(IR_OP_TILE_ROW_SUM, mk2(DTYPE_FP32, 1, 1500, T13_RSBIG_IN));
    double s = 0;
    for (int k = 0; k < 1500; k++)
        s += T13_RSBIG_IN[k];
    double e[1] = {(double)(float)s};
    expect_vals(r, e, 1);
    tensor_unref(r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_unary_reduce");
    TCase *tc = tcase_create("unary_reduce");
    tcase_add_test(tc, test_float_unary_class_a);
    tcase_add_test(tc, test_special_values);
    tcase_add_test(tc, test_int_unary);
    tcase_add_test(tc, test_fp16_t13_holes);
    tcase_add_test(tc, test_cast);
    tcase_add_test(tc, test_reductions);
    tcase_add_test(tc, test_reduction_errors);
    tcase_add_test(tc, test_t13_exp_and_sums);
    suite_add_tcase(s, tc);
    return run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}

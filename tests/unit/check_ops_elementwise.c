/* Unit tests for the elementwise families (ops_elementwise.c, kernel_elementwise.c):
 * broadcasting, torch promotion, bf16 rounding points, scalar narrowing per
 * profile, NaN propagation, remainder/fmod/shift rules, where, cmp, expands,
 * row/col broadcast ops and their errors. Expectations are by hand or from
 * scripts/gen_op_expected.py (tests/data/ops/expected.h). */
#include <stdlib.h>

#include "check_ops_util.h"
#include "../data/ops/expected.h"

static exec_ctx C;

/* op(x, y) -> the result tensor (asserts success); x, y are consumed. */
static tensor *bin(int op, value x, value y)
{
    value pos[2] = {x, y}, out;
    ptodb_status st = run_op(&C, op, pos, 2, &out);
    ck_assert_msg(st == PTODB_OK, "op failed: %s", C.msg);
    ck_assert_int_eq(out.kind, VAL_TENSOR);
    clear_all(pos, 2);
    return out.u.t;
}

static ptodb_status bin_fail(int op, value x, value y)
{
    value pos[2] = {x, y}, out;
    ptodb_status st = run_op(&C, op, pos, 2, &out);
    ck_assert_int_ne(st, PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_NONE);
    clear_all(pos, 2);
    return st;
}

START_TEST(test_add_broadcast)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double av[6] = {1, 2, 3, 4, 5, 6}, bv[3] = {10, 20, 30};
    tensor *r = bin(IR_OP_TILE_ADD, value_tensor(mk2(DTYPE_FP32, 2, 3, av)),
                    value_tensor(mk1(DTYPE_FP32, 3, bv)));
    double e[6] = {11, 22, 33, 14, 25, 36};
    expect_shape2(r, 2, 3);
    ck_assert_int_eq(r->dtype, DTYPE_FP32);
    ck_assert_int_eq(r->valid_ndim, -1);
    expect_vals(r, e, 6);
    tensor_unref(r);
    /* [2,1] - [1,3] -> [2,3] */
    double cv[2] = {1, 2}, dv[3] = {1, 2, 3};
    r = bin(IR_OP_TENSOR_SUB, value_tensor(mk2(DTYPE_FP32, 2, 1, cv)),
            value_tensor(mk2(DTYPE_FP32, 1, 3, dv)));
    double e2[6] = {0, -1, -2, 1, 0, -1};
    expect_shape2(r, 2, 3);
    expect_vals(r, e2, 6);
    tensor_unref(r);
    /* [2,3] * [2] does not broadcast */
    bin_fail(IR_OP_TILE_MUL, value_tensor(mk2(DTYPE_FP32, 2, 3, av)),
             value_tensor(mk1(DTYPE_FP32, 2, cv)));
    ck_assert_ptr_nonnull(strstr(C.msg, "must match the size of tensor b"));
}
END_TEST

START_TEST(test_promotion)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double v[2] = {3, -4};
    /* int32 tensor + 1.5 -> float32 */
    tensor *r = bin(IR_OP_TENSOR_ADDS, value_tensor(mk1(DTYPE_INT32, 2, v)), value_float(1.5));
    ck_assert_int_eq(r->dtype, DTYPE_FP32);
    double e1[2] = {4.5, -2.5};
    expect_vals(r, e1, 2);
    tensor_unref(r);
    /* int32 tensor + 7 stays int32 */
    r = bin(IR_OP_TILE_ADDS, value_tensor(mk1(DTYPE_INT32, 2, v)), value_int(7));
    ck_assert_int_eq(r->dtype, DTYPE_INT32);
    tensor_unref(r);
    /* bf16 tensor + 1.5 stays bf16 */
    r = bin(IR_OP_TILE_ADDS, value_tensor(mk1(DTYPE_BF16, 2, v)), value_float(1.5));
    ck_assert_int_eq(r->dtype, DTYPE_BF16);
    tensor_unref(r);
    /* bool tensor + 1 -> int64 */
    double bv[2] = {1, 0};
    r = bin(IR_OP_TENSOR_ADDS, value_tensor(mk1(DTYPE_BOOL, 2, bv)), value_int(1));
    ck_assert_int_eq(r->dtype, DTYPE_INT64);
    double e2[2] = {2, 1};
    expect_vals(r, e2, 2);
    tensor_unref(r);
    /* int32 * 0-d f64 -> f64; int32 + 0-d int64 -> int32; bf16 * 0-d f32 -> bf16 */
    r = bin(IR_OP_TILE_MULS, value_tensor(mk1(DTYPE_INT32, 2, v)),
            value_tensor(tensor_scalar(DTYPE_FP64, 0.5)));
    ck_assert_int_eq(r->dtype, DTYPE_FP64);
    tensor_unref(r);
    r = bin(IR_OP_TILE_ADDS, value_tensor(mk1(DTYPE_INT32, 2, v)),
            value_tensor(tensor_scalar(DTYPE_INT64, 5)));
    ck_assert_int_eq(r->dtype, DTYPE_INT32);
    tensor_unref(r);
    r = bin(IR_OP_TILE_MULS, value_tensor(mk1(DTYPE_BF16, 2, v)),
            value_tensor(tensor_scalar(DTYPE_FP32, 0.5)));
    ck_assert_int_eq(r->dtype, DTYPE_BF16);
    tensor_unref(r);
    /* int8 + uint8 -> int16; bf16 + fp16 -> fp32 */
    r = bin(IR_OP_TILE_ADD, value_tensor(mk1(DTYPE_INT8, 2, v)),
            value_tensor(mk1(DTYPE_UINT8, 2, bv)));
    ck_assert_int_eq(r->dtype, DTYPE_INT16);
    tensor_unref(r);
    r = bin(IR_OP_TILE_ADD, value_tensor(mk1(DTYPE_BF16, 2, v)),
            value_tensor(mk1(DTYPE_FP16, 2, v)));
    ck_assert_int_eq(r->dtype, DTYPE_FP32);
    tensor_unref(r);
    /* integer true division -> float32, x/0 -> inf */
    double n[3] = {7, -7, 1}, d[3] = {2, 2, 0};
    r = bin(IR_OP_TILE_DIV, value_tensor(mk1(DTYPE_INT32, 3, n)),
            value_tensor(mk1(DTYPE_INT32, 3, d)));
    ck_assert_int_eq(r->dtype, DTYPE_FP32);
    double e3[3] = {3.5, -3.5, INFINITY};
    expect_vals(r, e3, 3);
    tensor_unref(r);
    /* int32 wraps */
    double big[1] = {2147483647};
    r = bin(IR_OP_TILE_ADDS, value_tensor(mk1(DTYPE_INT32, 1, big)), value_int(1));
    double e4[1] = {-2147483648.0};
    expect_vals(r, e4, 1);
    tensor_unref(r);
}
END_TEST

START_TEST(test_bf16_binary_rounding)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    static const struct { int op; const double *e; } cases[] = {
        {IR_OP_TILE_ADD, BF16_ADD}, {IR_OP_TILE_SUB, BF16_SUB}, {IR_OP_TILE_MUL, BF16_MUL},
        {IR_OP_TILE_DIV, BF16_DIV}, {IR_OP_TILE_MAXIMUM, BF16_MAX},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tensor *r = bin(cases[k].op, value_tensor(mk1(DTYPE_BF16, 16, BF16_A)),
                        value_tensor(mk1(DTYPE_BF16, 16, BF16_B)));
        ck_assert_int_eq(r->dtype, DTYPE_BF16);
        expect_vals(r, cases[k].e, 16);
        tensor_unref(r);
    }
    /* tile.rem(a, b, tmp): Python remainder */
    value pos[3] = {value_tensor(mk1(DTYPE_BF16, 16, BF16_A)),
                    value_tensor(mk1(DTYPE_BF16, 16, BF16_B)), value_none()};
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_REM, pos, 3, &out), PTODB_OK);
    expect_vals(out.u.t, BF16_REM, 16);
    value_clear(&out);
    clear_all(pos, 3);
}
END_TEST

START_TEST(test_bf16_scalar_profiles)
{
    /* t13 narrows the Python float to bf16 for *, t2 widens it */
    ctx_init(&C, EXEC_PROFILE_T13);
    tensor *r = bin(IR_OP_TILE_MULS, value_tensor(mk1(DTYPE_BF16, 16, BF16_A)), value_float(1.1));
    expect_vals(r, BF16_MULS_T13, 16);
    tensor_unref(r);
    r = bin(IR_OP_TILE_DIVS, value_tensor(mk1(DTYPE_BF16, 16, BF16_A)), value_float(3.3));
    expect_vals(r, BF16_DIVS_T13, 16);
    tensor_unref(r);
    r = bin(IR_OP_TILE_ADDS, value_tensor(mk1(DTYPE_BF16, 16, BF16_A)), value_float(0.3));
    expect_vals(r, BF16_ADDS, 16);
    tensor_unref(r);
    ctx_init(&C, EXEC_PROFILE_T2);
    r = bin(IR_OP_TILE_MULS, value_tensor(mk1(DTYPE_BF16, 16, BF16_A)), value_float(1.1));
    expect_vals(r, BF16_MULS_T2, 16);
    tensor_unref(r);
    r = bin(IR_OP_TENSOR_DIVS, value_tensor(mk1(DTYPE_BF16, 16, BF16_A)), value_float(3.3));
    expect_vals(r, BF16_DIVS_T2, 16);
    tensor_unref(r);
    r = bin(IR_OP_TENSOR_ADDS, value_tensor(mk1(DTYPE_BF16, 16, BF16_A)), value_float(0.3));
    expect_vals(r, BF16_ADDS, 16);
    tensor_unref(r);
}
END_TEST

START_TEST(test_addc_two_roundings)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    value pos[3] = {value_tensor(mk1(DTYPE_BF16, 16, BF16_A)),
                    value_tensor(mk1(DTYPE_BF16, 16, BF16_B)),
                    value_tensor(mk1(DTYPE_BF16, 16, BF16_C))};
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_ADDC, pos, 3, &out), PTODB_OK);
    expect_vals(out.u.t, BF16_ADDC, 16);
    value_clear(&out);
    clear_all(pos, 3);
    /* addsc: (a + s) + c; subsc: (a - s) - c in f32 */
    double av[2] = {1, 2}, cv[2] = {0.25, 0.5};
    value p2[3] = {value_tensor(mk1(DTYPE_FP32, 2, av)), value_float(10),
                   value_tensor(mk1(DTYPE_FP32, 2, cv))};
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_SUBSC, p2, 3, &out), PTODB_OK);
    double e[2] = {-9.25, -8.5};
    expect_vals(out.u.t, e, 2);
    value_clear(&out);
    clear_all(p2, 3);
    /* row_expand_expdif: exp(a - b) with a rounding after each op */
    tensor *r = bin(IR_OP_TILE_ROW_EXPAND_EXPDIF, value_tensor(mk1(DTYPE_BF16, 16, BF16_A)),
                    value_tensor(mk1(DTYPE_BF16, 16, BF16_B)));
    expect_vals(r, BF16_EXPDIF, 16);
    tensor_unref(r);
}
END_TEST

START_TEST(test_max_min_nan)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double a[4] = {1, NAN, -INFINITY, 5}, b[4] = {2, 0, NAN, -1};
    tensor *r = bin(IR_OP_TILE_MAXIMUM, value_tensor(mk1(DTYPE_FP32, 4, a)),
                    value_tensor(mk1(DTYPE_FP32, 4, b)));
    double e[4] = {2, NAN, NAN, 5};
    expect_vals(r, e, 4);
    tensor_unref(r);
    r = bin(IR_OP_TENSOR_MINIMUM, value_tensor(mk1(DTYPE_FP32, 4, a)),
            value_tensor(mk1(DTYPE_FP32, 4, b)));
    double e2[4] = {1, NAN, NAN, -1};
    expect_vals(r, e2, 4);
    tensor_unref(r);
    /* maximums with a Python number is REF's TypeError; with a 0-d tensor it works */
    bin_fail(IR_OP_TILE_MAXIMUMS, value_tensor(mk1(DTYPE_FP32, 4, a)), value_float(0.0));
    ck_assert_ptr_nonnull(strstr(C.msg, "TypeError: maximum()"));
    r = bin(IR_OP_TILE_MINIMUMS, value_tensor(mk1(DTYPE_FP32, 4, b)),
            value_tensor(tensor_scalar(DTYPE_FP32, 0.5)));
    double e3[4] = {0.5, 0, NAN, -1};
    expect_vals(r, e3, 4);
    tensor_unref(r);
}
END_TEST

START_TEST(test_fmod_rem)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double a[4] = {-7, 7, -7, 7}, b[4] = {3, -3, -3, 3};
    tensor *r = bin(IR_OP_TILE_FMOD, value_tensor(mk1(DTYPE_INT32, 4, a)),
                    value_tensor(mk1(DTYPE_INT32, 4, b)));
    double ef[4] = {-1, 1, -1, 1};
    expect_vals(r, ef, 4);
    tensor_unref(r);
    value pos[3] = {value_tensor(mk1(DTYPE_INT32, 4, a)), value_tensor(mk1(DTYPE_INT32, 4, b)),
                    value_none()};
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_REM, pos, 3, &out), PTODB_OK);
    double er[4] = {2, -2, -1, 1};
    expect_vals(out.u.t, er, 4);
    value_clear(&out);
    clear_all(pos, 3);
    /* float: -7.5 % 2 = 0.5, fmod(-7.5, 2) = -1.5, x % 0 = NaN */
    double fa[2] = {-7.5, 1};
    value p2[3] = {value_tensor(mk1(DTYPE_FP32, 2, fa)), value_float(2.0), value_none()};
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_REMS, p2, 3, &out), PTODB_OK);
    double e2[2] = {0.5, 1};
    expect_vals(out.u.t, e2, 2);
    value_clear(&out);
    clear_all(p2, 3);
    r = bin(IR_OP_TENSOR_FMODS, value_tensor(mk1(DTYPE_FP32, 2, fa)), value_float(2.0));
    double e3[2] = {-1.5, 1};
    expect_vals(r, e3, 2);
    tensor_unref(r);
    r = bin(IR_OP_TENSOR_FMODS, value_tensor(mk1(DTYPE_FP32, 2, fa)), value_float(0.0));
    double e4[2] = {NAN, NAN};
    expect_vals(r, e4, 2);
    tensor_unref(r);
    /* integer fmod by zero: REF's ZeroDivisionError */
    bin_fail(IR_OP_TILE_FMODS, value_tensor(mk1(DTYPE_INT32, 4, a)), value_int(0));
    ck_assert_ptr_nonnull(strstr(C.msg, "ZeroDivisionError"));
}
END_TEST

START_TEST(test_bitwise_shift)
{
    double one[1] = {1}, m8[1] = {-8};
    ctx_init(&C, EXEC_PROFILE_T13);
    tensor *r = bin(IR_OP_TILE_SHLS, value_tensor(mk1(DTYPE_INT32, 1, one)), value_int(33));
    double e1[1] = {2}; /* x86 masks the count */
    expect_vals(r, e1, 1);
    tensor_unref(r);
    r = bin(IR_OP_TILE_SHLS, value_tensor(mk1(DTYPE_INT32, 1, one)), value_int(31));
    double e2[1] = {-2147483648.0};
    expect_vals(r, e2, 1);
    tensor_unref(r);
    r = bin(IR_OP_TILE_SHLS, value_tensor(mk1(DTYPE_INT16, 1, one)), value_int(17));
    double z[1] = {0};
    expect_vals(r, z, 1);
    tensor_unref(r);
    ctx_init(&C, EXEC_PROFILE_T2);
    r = bin(IR_OP_TILE_SHLS, value_tensor(mk1(DTYPE_INT32, 1, one)), value_int(33));
    expect_vals(r, z, 1);
    tensor_unref(r);
    r = bin(IR_OP_TENSOR_SHRS, value_tensor(mk1(DTYPE_INT32, 1, m8)), value_int(40));
    double e3[1] = {-1};
    expect_vals(r, e3, 1);
    tensor_unref(r);
    r = bin(IR_OP_TENSOR_SHRS, value_tensor(mk1(DTYPE_INT32, 1, m8)), value_int(1));
    double e4[1] = {-4}; /* arithmetic */
    expect_vals(r, e4, 1);
    tensor_unref(r);
    double a[3] = {12, 10, -1}, b[3] = {10, 6, 255};
    r = bin(IR_OP_TILE_AND, value_tensor(mk1(DTYPE_INT32, 3, a)),
            value_tensor(mk1(DTYPE_INT32, 3, b)));
    double e5[3] = {8, 2, 255};
    expect_vals(r, e5, 3);
    tensor_unref(r);
    /* tile.xors(lhs, scalar, tmp) */
    value pos[3] = {value_tensor(mk1(DTYPE_INT32, 3, a)), value_int(1), value_none()};
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_XORS, pos, 3, &out), PTODB_OK);
    double e6[3] = {13, 11, -2};
    expect_vals(out.u.t, e6, 3);
    value_clear(&out);
    clear_all(pos, 3);
    bin_fail(IR_OP_TILE_OR, value_tensor(mk1(DTYPE_FP32, 3, a)),
             value_tensor(mk1(DTYPE_FP32, 3, b)));
    ck_assert_ptr_nonnull(strstr(C.msg, "\"bitwise_or_cpu\" not implemented for 'Float'"));
    /* bool - bool is refused by torch */
    bin_fail(IR_OP_TILE_SUB, value_tensor(mk1(DTYPE_BOOL, 3, a)),
             value_tensor(mk1(DTYPE_BOOL, 3, b)));
}
END_TEST

START_TEST(test_cmp)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double a[4] = {1, 2, 3, NAN}, b[4] = {2, 2, 2, 2};
    value pos[2] = {value_tensor(mk1(DTYPE_FP32, 4, a)), value_tensor(mk1(DTYPE_FP32, 4, b))};
    value out;
    ck_assert_int_eq(run_op1kw(&C, IR_OP_TILE_CMP, pos, 2, EXEC_KW_CMP_TYPE, value_int(3), &out),
                     PTODB_OK);
    ck_assert_int_eq(out.u.t->dtype, DTYPE_BOOL);
    double e[4] = {1, 1, 0, 0}; /* <= */
    expect_vals(out.u.t, e, 4);
    value_clear(&out);
    ck_assert_int_eq(run_op1kw(&C, IR_OP_TILE_CMP, pos, 2, EXEC_KW_CMP_TYPE, value_int(1), &out),
                     PTODB_OK);
    double e2[4] = {1, 0, 1, 1}; /* != (NaN != x) */
    expect_vals(out.u.t, e2, 4);
    value_clear(&out);
    ck_assert_int_eq(run_op1kw(&C, IR_OP_TILE_CMP, pos, 2, EXEC_KW_CMP_TYPE, value_int(9), &out),
                     PTODB_OK);
    double e3[4] = {0, 1, 0, 0}; /* unknown -> == */
    expect_vals(out.u.t, e3, 4);
    value_clear(&out);
    clear_all(pos, 2);
    /* scalars are widened: bf16 0.30078125 < 0.302; f32 0.1f == 0.1 */
    double h[1] = {0.30078125}, t[1] = {0.1};
    value p2[2] = {value_tensor(mk1(DTYPE_BF16, 1, h)), value_float(0.302)};
    ck_assert_int_eq(run_op1kw(&C, IR_OP_TILE_CMPS, p2, 2, EXEC_KW_CMP_TYPE, value_int(2), &out),
                     PTODB_OK);
    double one[1] = {1};
    expect_vals(out.u.t, one, 1);
    value_clear(&out);
    clear_all(p2, 2);
    value p3[2] = {value_tensor(mk1(DTYPE_FP32, 1, t)), value_float(0.1)};
    ck_assert_int_eq(run_op1kw(&C, IR_OP_TILE_CMPS, p3, 2, EXEC_KW_CMP_TYPE, value_int(0), &out),
                     PTODB_OK);
    expect_vals(out.u.t, one, 1);
    value_clear(&out);
    clear_all(p3, 2);
}
END_TEST

START_TEST(test_where)
{
    double m[4] = {1, 0, 1, 0}, x[4] = {1, 2, 3, 4}, y[4] = {-1, -2, -3, -4};
    ctx_init(&C, EXEC_PROFILE_T2);
    value pos[4] = {value_tensor(mk1(DTYPE_BOOL, 4, m)), value_tensor(mk1(DTYPE_FP32, 4, x)),
                    value_tensor(mk1(DTYPE_FP32, 4, y)), value_none()};
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_SEL, pos, 4, &out), PTODB_OK);
    double e[4] = {1, -2, 3, -4};
    expect_vals(out.u.t, e, 4);
    value_clear(&out);
    clear_all(pos, 4);
    /* sels(mask, src, tmp, scalar): int src with a float scalar -> float32 */
    value p2[4] = {value_tensor(mk1(DTYPE_BOOL, 4, m)), value_tensor(mk1(DTYPE_INT32, 4, x)),
                   value_none(), value_float(0.5)};
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_SELS, p2, 4, &out), PTODB_OK);
    ck_assert_int_eq(out.u.t->dtype, DTYPE_FP32);
    double e2[4] = {1, 0.5, 3, 0.5};
    expect_vals(out.u.t, e2, 4);
    value_clear(&out);
    clear_all(p2, 4);
    /* a uint8 mask: accepted by torch 1.13, refused by 2.x */
    value p3[4] = {value_tensor(mk1(DTYPE_UINT8, 4, m)), value_tensor(mk1(DTYPE_FP32, 4, x)),
                   value_tensor(mk1(DTYPE_FP32, 4, y)), value_none()};
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_SEL, p3, 4, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "boolean tensor"));
    ctx_init(&C, EXEC_PROFILE_T13);
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_SEL, p3, 4, &out), PTODB_OK);
    expect_vals(out.u.t, e, 4);
    value_clear(&out);
    clear_all(p3, 4);
}
END_TEST

START_TEST(test_prelu_lrelu)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double x[4] = {-2, 0, 3, NAN};
    value pos[2] = {value_tensor(mk1(DTYPE_FP32, 4, x)), value_float(0.5)};
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_LRELU, pos, 2, &out), PTODB_OK);
    double e[4] = {-1, 0, 3, NAN};
    expect_vals(out.u.t, e, 4);
    value_clear(&out);
    clear_all(pos, 2);
    double s[4] = {0.25, 0.25, 0.25, 0.25};
    value p2[3] = {value_tensor(mk1(DTYPE_FP32, 4, x)), value_tensor(mk1(DTYPE_FP32, 4, s)),
                   value_none()};
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_PRELU, p2, 3, &out), PTODB_OK);
    double e2[4] = {-0.5, 0, 3, NAN};
    expect_vals(out.u.t, e2, 4);
    value_clear(&out);
    clear_all(p2, 3);
}
END_TEST

START_TEST(test_expands)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *r = bin(IR_OP_TILE_EXPANDS, value_tensor(mk2(DTYPE_INT32, 2, 2, NULL)),
                    value_float(-1.7));
    double e[4] = {-1, -1, -1, -1};
    ck_assert_int_eq(r->dtype, DTYPE_INT32);
    expect_vals(r, e, 4);
    tensor_unref(r);
    /* double -> f32 -> bf16: 1.00390625 (halfway) rounds to even 1.0 */
    r = bin(IR_OP_TENSOR_EXPANDS, value_tensor(mk1(DTYPE_BF16, 2, NULL)), value_float(1.00390625));
    double e2[2] = {1, 1};
    expect_vals(r, e2, 2);
    tensor_unref(r);
    bin_fail(IR_OP_TILE_EXPANDS, value_tensor(mk1(DTYPE_BF16, 2, NULL)), value_float(3.4e38));
    ck_assert_ptr_nonnull(strstr(C.msg, "without overflow"));
    bin_fail(IR_OP_TILE_EXPANDS, value_tensor(mk1(DTYPE_UINT8, 2, NULL)), value_int(300));
    bin_fail(IR_OP_TILE_EXPANDS, value_tensor(mk1(DTYPE_FP16, 2, NULL)), value_float(65520.0));
    r = bin(IR_OP_TILE_EXPANDS, value_tensor(mk1(DTYPE_FP32, 2, NULL)), value_float(INFINITY));
    double e3[2] = {INFINITY, INFINITY};
    expect_vals(r, e3, 2);
    tensor_unref(r);
}
END_TEST

START_TEST(test_row_col_ops)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double t[6] = {1, 2, 3, 4, 5, 6}, rv[2] = {1, 2}, cv[3] = {1, 2, 4};
    tensor *r = bin(IR_OP_TILE_ROW_EXPAND_SUB, value_tensor(mk2(DTYPE_FP32, 2, 3, t)),
                    value_tensor(mk2(DTYPE_FP32, 2, 1, rv)));
    double e[6] = {0, 1, 2, 2, 3, 4};
    expect_vals(r, e, 6);
    tensor_unref(r);
    r = bin(IR_OP_TENSOR_COL_EXPAND_DIV, value_tensor(mk2(DTYPE_FP32, 2, 3, t)),
            value_tensor(mk2(DTYPE_FP32, 1, 3, cv)));
    double e2[6] = {1, 1, 0.75, 4, 2.5, 1.5};
    expect_vals(r, e2, 6);
    tensor_unref(r);
    r = bin(IR_OP_TILE_COL_EXPAND_MAX, value_tensor(mk2(DTYPE_FP32, 2, 3, t)),
            value_tensor(mk2(DTYPE_FP32, 1, 3, cv)));
    double e3[6] = {1, 2, 4, 4, 5, 6};
    expect_vals(r, e3, 6);
    tensor_unref(r);
    /* row_expand: the vector materialised to the target's shape, promoted dtype */
    r = bin(IR_OP_TILE_ROW_EXPAND, value_tensor(mk2(DTYPE_BF16, 2, 3, t)),
            value_tensor(mk2(DTYPE_FP32, 2, 1, rv)));
    ck_assert_int_eq(r->dtype, DTYPE_FP32);
    expect_shape2(r, 2, 3);
    double e4[6] = {1, 1, 1, 2, 2, 2};
    expect_vals(r, e4, 6);
    ck_assert(tensor_is_contiguous(r));
    tensor_unref(r);
    r = bin(IR_OP_TENSOR_COL_EXPAND, value_tensor(mk2(DTYPE_INT32, 2, 3, t)),
            value_tensor(mk2(DTYPE_INT32, 1, 3, cv)));
    double e5[6] = {1, 2, 4, 1, 2, 4};
    expect_vals(r, e5, 6);
    tensor_unref(r);
    bin_fail(IR_OP_TILE_ROW_EXPAND, value_tensor(mk2(DTYPE_FP32, 2, 3, t)),
             value_tensor(mk2(DTYPE_FP32, 3, 1, cv)));
    ck_assert_ptr_nonnull(strstr(C.msg, "expanded size"));
    /* col_expand_add is not handled by REF but ptodb defines it
     * (check_ops_isa.c) */
    op_fn table[IR_OP_COUNT];
    exec_ops_init(table);
    ck_assert_ptr_nonnull(table[IR_OP_TILE_COL_EXPAND_ADD]);
    ck_assert(!ir_op_info_get(IR_OP_TILE_COL_EXPAND_ADD)->ref);
}
END_TEST

START_TEST(test_zero_d_operands)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    /* a 0-d int32 read result + Python int keeps int32 and wraps */
    tensor *r = bin(IR_OP_TILE_ADDS, value_tensor(tensor_scalar(DTYPE_INT32, 2147483647)),
                    value_int(1));
    ck_assert_int_eq(r->ndim, 0);
    ck_assert_int_eq(r->dtype, DTYPE_INT32);
    double e[1] = {-2147483648.0};
    expect_vals(r, e, 1);
    tensor_unref(r);
    /* non-tensor operands are refused */
    bin_fail(IR_OP_TILE_ADD, value_int(1), value_int(2));
    bin_fail(IR_OP_TILE_ADD, value_none(), value_int(2));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_elementwise");
    TCase *tc = tcase_create("elementwise");
    tcase_add_test(tc, test_add_broadcast);
    tcase_add_test(tc, test_promotion);
    tcase_add_test(tc, test_bf16_binary_rounding);
    tcase_add_test(tc, test_bf16_scalar_profiles);
    tcase_add_test(tc, test_addc_two_roundings);
    tcase_add_test(tc, test_max_min_nan);
    tcase_add_test(tc, test_fmod_rem);
    tcase_add_test(tc, test_bitwise_shift);
    tcase_add_test(tc, test_cmp);
    tcase_add_test(tc, test_where);
    tcase_add_test(tc, test_prelu_lrelu);
    tcase_add_test(tc, test_expands);
    tcase_add_test(tc, test_row_col_ops);
    tcase_add_test(tc, test_zero_d_operands);
    suite_add_tcase(s, tc);
    return run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}

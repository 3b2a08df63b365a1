/* The t13 profile against REF itself: outputs of Debian's torch 1.13 (the
 * fixtures' reference) stored in tests/data/ops/torch113.h by
 * scripts/gen_op_expected.py --torch, on inputs both sides draw from the
 * same LCG. Every comparison is bit for bit: SLEEF exp/log, the cascade
 * sum and vectorised prod orders, netlib's sgemm order, the bf16 matmul
 * loops, bf16 scalar narrowing. */
#include <stdint.h>
#include <stdlib.h>

#include "check_ops_util.h"
#include "../data/ops/torch113.h"

static exec_ctx C;

/* lcg_f32 of the generator: exact float32 values (u - 2^23) / 2^23 * scale */
static void lcg_f32(double *out, int n, uint64_t seed, double scale)
{
    uint64_t s = seed;
    for (int i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        out[i] = (double)(int64_t)((s >> 40) - ((uint64_t)1 << 23)) / (double)(1 << 23) * scale;
    }
}

static tensor *lcg2(dtype_id dt, int64_t r, int64_t c, uint64_t seed, double scale)
{
    double *v = malloc((size_t)(r * c) * sizeof *v);
    lcg_f32(v, (int)(r * c), seed, scale);
    tensor *t = mk2(dt, r, c, v);
    free(v);
    return t;
}

static tensor *call1(int op, tensor *x)
{
    value v = value_tensor(x), out;
    ck_assert_msg(run_op(&C, op, &v, 1, &out) == PTODB_OK, "%s", C.msg);
    value_clear(&v);
    return out.u.t;
}

static tensor *call2(int op, value x, value y)
{
    value pos[2] = {x, y}, out;
    ck_assert_msg(run_op(&C, op, pos, 2, &out) == PTODB_OK, "%s", C.msg);
    clear_all(pos, 2);
    return out.u.t;
}

START_TEST(test_exp_log)
{
    ctx_init(&C, EXEC_PROFILE_T13);
    tensor *r = call1(IR_OP_TILE_EXP, lcg2(DTYPE_FP32, 1, 256, 1, 64.0));
    expect_vals(r, TT_EXP, 256);
    tensor_unref(r);
    r = call1(IR_OP_TILE_EXP, lcg2(DTYPE_BF16, 1, 256, 1, 64.0));
    expect_vals(r, TT_EXP_BF16, 256);
    tensor_unref(r);
    double y[256];
    lcg_f32(y, 256, 2, 1.0);
    for (int i = 0; i < 256; i++)
        y[i] = (float)(fabs(y[i]) * ldexp(1.0, i % 40 - 20));
    r = call1(IR_OP_TENSOR_LOG, mk1(DTYPE_FP32, 256, y));
    expect_vals(r, TT_LOG, 256);
    tensor_unref(r);
}
END_TEST

START_TEST(test_sums_prods)
{
    ctx_init(&C, EXEC_PROFILE_T13);
    tensor *r = call1(IR_OP_TILE_ROW_SUM, lcg2(DTYPE_FP32, 4, 70, 3, 4.0));
    expect_vals(r, TT_RS70, 4);
    tensor_unref(r);
    r = call1(IR_OP_TILE_ROW_SUM, lcg2(DTYPE_FP32, 2, 600, 4, 4.0));
    expect_vals(r, TT_RS600, 2);
    tensor_unref(r);
    r = call1(IR_OP_TILE_COL_SUM, lcg2(DTYPE_FP32, 37, 40, 5, 4.0));
    expect_vals(r, TT_CS40, 40);
    tensor_unref(r);
    r = call1(IR_OP_TENSOR_COL_SUM, lcg2(DTYPE_FP32, 20, 100, 6, 4.0));
    expect_vals(r, TT_CS100, 100);
    tensor_unref(r);
    r = call1(IR_OP_TILE_COL_SUM, lcg2(DTYPE_FP32, 300, 3, 7, 4.0));
    expect_vals(r, TT_CS3, 3);
    tensor_unref(r);
    /* products of values in [0.75, 1.75) */
    static const struct { int op; int64_t r, c; uint64_t seed; const double *e; int n; } prods[] = {
        {IR_OP_TILE_ROW_PROD, 4, 70, 8, TT_RP70, 4}, {IR_OP_TILE_COL_PROD, 40, 9, 9, TT_CP9, 9}};
    for (int k = 0; k < 2; k++) {
        int64_t n = prods[k].r * prods[k].c;
        double *v = malloc((size_t)n * sizeof *v);
        lcg_f32(v, (int)n, prods[k].seed, 2.0);
        for (int64_t i = 0; i < n; i++)
            v[i] = (float)((float)fabs(v[i]) * 0.5f + 0.75f);
        r = call1(prods[k].op, mk2(DTYPE_FP32, prods[k].r, prods[k].c, v));
        expect_vals(r, prods[k].e, prods[k].n);
        tensor_unref(r);
        free(v);
    }
}
END_TEST

START_TEST(test_matmuls)
{
    ctx_init(&C, EXEC_PROFILE_T13);
    tensor *r = call2(IR_OP_TENSOR_MATMUL, value_tensor(lcg2(DTYPE_FP32, 24, 40, 10, 2.0)),
                      value_tensor(lcg2(DTYPE_FP32, 40, 20, 11, 2.0)));
    expect_vals(r, TT_MM_F32, 24 * 20);
    tensor_unref(r);
    r = call2(IR_OP_TENSOR_MATMUL, value_tensor(lcg2(DTYPE_BF16, 8, 48, 12, 2.0)),
              value_tensor(lcg2(DTYPE_BF16, 48, 24, 13, 2.0)));
    expect_vals(r, TT_MM_BF16, 8 * 24);
    tensor_unref(r);
    /* small bf16: row-major operands, a column-major rhs, a column-major lhs */
    tensor *a = lcg2(DTYPE_BF16, 8, 16, 15, 2.0), *b = lcg2(DTYPE_BF16, 16, 16, 16, 2.0);
    r = call2(IR_OP_TENSOR_MATMUL, value_tensor(tensor_ref(a)), value_tensor(tensor_ref(b)));
    expect_vals(r, TT_MM_BF16_NN, 8 * 16);
    tensor_unref(r);
    tensor *tv = tensor_transpose(b, 0, 1, NULL);
    tensor *bt = tensor_clone(tv);
    tensor_unref(tv);
    tensor *bcol = tensor_transpose(bt, 0, 1, NULL); /* b's values, column-major */
    r = call2(IR_OP_TENSOR_MATMUL, value_tensor(tensor_ref(a)), value_tensor(bcol));
    expect_vals(r, TT_MM_BF16_NT, 8 * 16);
    tensor_unref(r);
    tv = tensor_transpose(a, 0, 1, NULL);
    tensor *at = tensor_clone(tv);
    tensor_unref(tv);
    tensor *acol = tensor_transpose(at, 0, 1, NULL);
    r = call2(IR_OP_TENSOR_MATMUL, value_tensor(acol), value_tensor(tensor_ref(b)));
    expect_vals(r, TT_MM_BF16_TN, 8 * 16);
    tensor_unref(r);
    tensor_unref(at);
    tensor_unref(bt);
    tensor_unref(a);
    tensor_unref(b);
}
END_TEST

START_TEST(test_bf16_scalars)
{
    ctx_init(&C, EXEC_PROFILE_T13);
    static const struct { int op; double s; const double *e; } cases[] = {
        {IR_OP_TILE_MULS, 1.1, TT_BF16_MULS}, {IR_OP_TILE_DIVS, 3.3, TT_BF16_DIVS},
        {IR_OP_TILE_ADDS, 0.3, TT_BF16_ADDS}};
    for (int k = 0; k < 3; k++) {
        tensor *r = call2(cases[k].op, value_tensor(lcg2(DTYPE_BF16, 1, 64, 14, 8.0)),
                          value_float(cases[k].s));
        expect_vals(r, cases[k].e, 64);
        tensor_unref(r);
    }
    value pos[3] = {value_tensor(lcg2(DTYPE_BF16, 1, 64, 14, 8.0)), value_float(0.7), value_none()},
          out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_REMS, pos, 3, &out), PTODB_OK);
    expect_vals(out.u.t, TT_BF16_REMS, 64);
    value_clear(&out);
    clear_all(pos, 3);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_torch113");
    TCase *tc = tcase_create("torch113");
    tcase_add_test(tc, test_exp_log);
    tcase_add_test(tc, test_sums_prods);
    tcase_add_test(tc, test_matmuls);
    tcase_add_test(tc, test_bf16_scalars);
    suite_add_tcase(s, tc);
    return run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Unit tests for ops_matmul.c and kernel_matmul.c: torch.matmul shapes
 * (2-D, batch broadcast, 1-D), same-dtype rule, bf16 rounding of the
 * product before .float(), acc/bias adds, a_trans/b_trans/out_dtype,
 * integer wrap, the t13 fp16 hole, and the blocked kernel on awkward sizes.
 * Expectations: by hand, numpy (tests/data/ops/expected.h), or exact
 * integer-valued sums (values k/256, so every double sum is exact and any
 * summation order gives the same bits). */
#include <stdint.h>
#include <stdlib.h>

#include "check_ops_util.h"
#include "exec/kernel_matmul.h"
#include "../data/ops/expected.h"

static exec_ctx C;

/* The LCG of scripts/gen_op_expected.py: exact float32 values k/256. */
static void lcg_fill(double *out, int n, uint64_t seed)
{
    uint64_t s = seed;
    for (int i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        out[i] = ((double)((s >> 40) % 2001) - 1000.0) / 256.0;
    }
}

static tensor *mm_ok(int op, value *pos, uint32_t n)
{
    value out;
    ptodb_status st = run_op(&C, op, pos, n, &out);
    ck_assert_msg(st == PTODB_OK, "matmul failed: %s", C.msg);
    clear_all(pos, (int)n);
    return out.u.t;
}

START_TEST(test_small_f32)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {7, 8, 9, 10, 11, 12};
    value pos[2] = {value_tensor(mk2(DTYPE_FP32, 2, 3, a)), value_tensor(mk2(DTYPE_FP32, 3, 2, b))};
    tensor *r = mm_ok(IR_OP_TENSOR_MATMUL, pos, 2);
    expect_shape2(r, 2, 2);
    double e[4] = {58, 64, 139, 154};
    expect_vals(r, e, 4);
    tensor_unref(r);
    /* a_trans / b_trans take .mT of the operands */
    value p2[2] = {value_tensor(mk2(DTYPE_FP32, 3, 2, b)), value_tensor(mk2(DTYPE_FP32, 2, 3, a))};
    exec_kw kws[2] = {EXEC_KW_A_TRANS, EXEC_KW_B_TRANS};
    value kv[2] = {value_bool(1), value_bool(1)}, out;
    ck_assert_int_eq(run_op_kw(&C, IR_OP_TENSOR_MATMUL, p2, 2, kws, kv, 2, NULL, &out), PTODB_OK);
    /* b^T (2x3) @ a^T (3x2) = (a b)^T */
    double e2[4] = {58, 139, 64, 154};
    expect_vals(out.u.t, e2, 4);
    value_clear(&out);
    clear_all(p2, 2);
}
END_TEST

START_TEST(test_bf16)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    value pos[2] = {value_tensor(mk2(DTYPE_BF16, 5, 7, BF16_MM_A)),
                    value_tensor(mk2(DTYPE_BF16, 7, 3, BF16_MM_B))};
    tensor *r = mm_ok(IR_OP_TENSOR_MATMUL, pos, 2);
    ck_assert_int_eq(r->dtype, DTYPE_BF16);
    expect_vals(r, BF16_MM_C, 15);
    tensor_unref(r);
    /* tile.matmul: the bf16-rounded product widened with .float() */
    value p2[2] = {value_tensor(mk2(DTYPE_BF16, 5, 7, BF16_MM_A)),
                   value_tensor(mk2(DTYPE_BF16, 7, 3, BF16_MM_B))};
    r = mm_ok(IR_OP_TILE_MATMUL, p2, 2);
    ck_assert_int_eq(r->dtype, DTYPE_FP32);
    expect_vals(r, BF16_MM_C, 15);
    tensor_unref(r);
    /* out_dtype on tensor.matmul */
    value p3[2] = {value_tensor(mk2(DTYPE_BF16, 5, 7, BF16_MM_A)),
                   value_tensor(mk2(DTYPE_BF16, 7, 3, BF16_MM_B))}, out;
    ck_assert_int_eq(run_op1kw(&C, IR_OP_TENSOR_MATMUL, p3, 2, EXEC_KW_OUT_DTYPE,
                               value_enum(IR_EV_DTYPE_FP32), &out),
                     PTODB_OK);
    ck_assert_int_eq(out.u.t->dtype, DTYPE_FP32);
    expect_vals(out.u.t, BF16_MM_C, 15);
    value_clear(&out);
    clear_all(p3, 2);
}
END_TEST

START_TEST(test_lcg_f32)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double *a = malloc(24 * 40 * sizeof *a), *b = malloc(40 * 20 * sizeof *b);
    lcg_fill(a, 24 * 40, 1);
    lcg_fill(b, 40 * 20, 2);
    value pos[2] = {value_tensor(mk2(DTYPE_FP32, 24, 40, a)),
                    value_tensor(mk2(DTYPE_FP32, 40, 20, b))};
    tensor *r = mm_ok(IR_OP_TILE_MATMUL, pos, 2);
    expect_vals(r, F32_MM_C, 24 * 20);
    tensor_unref(r);
    free(a);
    free(b);
}
END_TEST

/* Awkward sizes (k beyond one 256-deep block, m and n not multiples of the
 * micro-tile) against a naive loop; exact sums make the order irrelevant. */
START_TEST(test_kernel_blocking)
{
    static const int64_t sizes[][3] = {{37, 19, 300}, {1, 1, 1}, {5, 9, 513}, {16, 64, 128}};
    for (size_t t = 0; t < sizeof sizes / sizeof sizes[0]; t++) {
        int64_t m = sizes[t][0], n = sizes[t][1], k = sizes[t][2];
        double *a = malloc((size_t)(m * k) * sizeof *a), *b = malloc((size_t)(k * n) * sizeof *b);
        float *af = malloc((size_t)(m * k) * sizeof *af), *bf = malloc((size_t)(k * n) * sizeof *bf);
        float *c = malloc((size_t)(m * n) * sizeof *c);
        lcg_fill(a, (int)(m * k), 10 + t);
        lcg_fill(b, (int)(k * n), 20 + t);
        for (int64_t i = 0; i < m * k; i++)
            af[i] = (float)a[i];
        for (int64_t i = 0; i < k * n; i++)
            bf[i] = (float)b[i];
        kernel_gemm_f32(m, n, k, af, k, bf, n, c, n);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double s = 0;
                for (int64_t p = 0; p < k; p++)
                    s += a[i * k + p] * b[p * n + j];
                ck_assert_msg(c[i * n + j] == (float)s, "size %zu: C[%lld][%lld] = %.9g, want %.9g",
                              t, (long long)i, (long long)j, c[i * n + j], (double)(float)s);
            }
        free(a);
        free(b);
        free(af);
        free(bf);
        free(c);
    }
}
END_TEST

START_TEST(test_acc_bias_batch)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {7, 8, 9, 10, 11, 12}, acc[4] = {0.5, 0.5, 1, 1};
    /* tile.matmul_acc(acc, lhs, rhs, init_cond): init_cond ignored, always acc + mm */
    value pos[4] = {value_tensor(mk2(DTYPE_FP32, 2, 2, acc)), value_tensor(mk2(DTYPE_FP32, 2, 3, a)),
                    value_tensor(mk2(DTYPE_FP32, 3, 2, b)), value_bool(1)};
    tensor *r = mm_ok(IR_OP_TILE_MATMUL_ACC, pos, 4);
    double e[4] = {58.5, 64.5, 140, 155};
    expect_vals(r, e, 4);
    tensor_unref(r);
    value p1[3] = {value_tensor(mk2(DTYPE_FP32, 2, 2, acc)), value_tensor(mk2(DTYPE_FP32, 2, 3, a)),
                   value_tensor(mk2(DTYPE_FP32, 3, 2, b))};
    r = mm_ok(IR_OP_TENSOR_MATMUL_ACC, p1, 3);
    expect_vals(r, e, 4);
    tensor_unref(r);
    double bias[2] = {-1, 1};
    value p2[3] = {value_tensor(mk2(DTYPE_FP32, 2, 3, a)), value_tensor(mk2(DTYPE_FP32, 3, 2, b)),
                   value_tensor(mk2(DTYPE_FP32, 1, 2, bias))};
    r = mm_ok(IR_OP_TILE_MATMUL_BIAS, p2, 3);
    double e2[4] = {57, 65, 138, 155};
    expect_vals(r, e2, 4);
    tensor_unref(r);
    /* batch: [2, 2, 3] @ [3, 2] broadcasts the rhs */
    double a3[12] = {1, 2, 3, 4, 5, 6, 1, 0, 0, 0, 1, 0};
    int64_t s3[3] = {2, 2, 3};
    value p3[2] = {value_tensor(mk(DTYPE_FP32, 3, s3, a3)), value_tensor(mk2(DTYPE_FP32, 3, 2, b))};
    r = mm_ok(IR_OP_TILE_BATCH_MATMUL, p3, 2);
    int64_t es[3] = {2, 2, 2};
    expect_shape(r, 3, es);
    double e3[8] = {58, 64, 139, 154, 7, 8, 9, 10};
    expect_vals(r, e3, 8);
    tensor_unref(r);
    /* gemv: 1-D lhs gives a 1-D result */
    double v[3] = {1, 0, -1};
    value p4[2] = {value_tensor(mk1(DTYPE_FP32, 3, v)), value_tensor(mk2(DTYPE_FP32, 3, 2, b))};
    r = mm_ok(IR_OP_TILE_GEMV, p4, 2);
    ck_assert_int_eq(r->ndim, 1);
    double e4[2] = {-4, -4};
    expect_vals(r, e4, 2);
    tensor_unref(r);
}
END_TEST

START_TEST(test_errors_and_ints)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double a[6] = {1, 2, 3, 4, 5, 6};
    value out;
    value p1[2] = {value_tensor(mk2(DTYPE_FP32, 2, 3, a)), value_tensor(mk2(DTYPE_BF16, 3, 2, a))};
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_MATMUL, p1, 2, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "expected scalar type Float but found BFloat16"));
    clear_all(p1, 2);
    value p2[2] = {value_tensor(mk2(DTYPE_FP32, 2, 3, a)), value_tensor(mk2(DTYPE_FP32, 2, 3, a))};
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_MATMUL, p2, 2, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"));
    clear_all(p2, 2);
    /* int8 matmul wraps in int8, then .float() */
    double x[2] = {100, 100}, y[2] = {2, 1};
    value p3[2] = {value_tensor(mk2(DTYPE_INT8, 1, 2, x)), value_tensor(mk2(DTYPE_INT8, 2, 1, y))};
    tensor *r = mm_ok(IR_OP_TILE_MATMUL, p3, 2);
    ck_assert_int_eq(r->dtype, DTYPE_FP32);
    double e[1] = {44};
    expect_vals(r, e, 1);
    tensor_unref(r);
    /* fp16: semantics.md §1.6 calls it a torch 1.13 hole, but the fixtures'
     * torch 1.13.0a0 runs it (mixed_kernel_updown); both profiles give fp16 */
    double h[4] = {1, 2, 3, 4};
    value p4[2] = {value_tensor(mk2(DTYPE_FP16, 2, 2, h)), value_tensor(mk2(DTYPE_FP16, 2, 2, h))};
    ctx_init(&C, EXEC_PROFILE_T13);
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_MATMUL, p4, 2, &out), PTODB_OK);
    ck_assert_int_eq(out.u.t->dtype, DTYPE_FP16);
    value_clear(&out);
    ctx_init(&C, EXEC_PROFILE_T2);
    r = mm_ok(IR_OP_TENSOR_MATMUL, p4, 2);
    ck_assert_int_eq(r->dtype, DTYPE_FP16);
    double e2[4] = {7, 10, 15, 22};
    expect_vals(r, e2, 4);
    tensor_unref(r);
    /* a_trans on a 1-D operand cannot take .mT */
    value p5[2] = {value_tensor(mk1(DTYPE_FP32, 3, a)), value_tensor(mk2(DTYPE_FP32, 3, 2, a))};
    ck_assert_int_ne(run_op1kw(&C, IR_OP_TENSOR_MATMUL, p5, 2, EXEC_KW_A_TRANS, value_bool(1), &out),
                     PTODB_OK);
    clear_all(p5, 2);
}
END_TEST

/* t13: netlib's order, a float running sum in k order (1 + 2^-24 rounds
 * back to 1 twice); t2: the exact sum rounded once. */
START_TEST(test_t13_sequential_order)
{
    double a[3] = {1, 0x1p-24, 0x1p-24}, b[3] = {1, 1, 1};
    value pos[2] = {value_tensor(mk2(DTYPE_FP32, 1, 3, a)), value_tensor(mk2(DTYPE_FP32, 3, 1, b))},
          out;
    ctx_init(&C, EXEC_PROFILE_T13);
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_MATMUL, pos, 2, &out), PTODB_OK);
    double e13[1] = {1.0};
    expect_vals(out.u.t, e13, 1);
    value_clear(&out);
    ctx_init(&C, EXEC_PROFILE_T2);
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_MATMUL, pos, 2, &out), PTODB_OK);
    double e2[1] = {1.0 + 0x1p-23};
    expect_vals(out.u.t, e2, 1);
    value_clear(&out);
    clear_all(pos, 2);
    /* a small bf16 matmul under t13: torch 1.13's bf16-arithmetic loop */
    ctx_init(&C, EXEC_PROFILE_T13);
    value p2[2] = {value_tensor(mk2(DTYPE_BF16, 5, 7, BF16_MM_A)),
                   value_tensor(mk2(DTYPE_BF16, 7, 3, BF16_MM_B))};
    tensor *r = mm_ok(IR_OP_TENSOR_MATMUL, p2, 2);
    expect_vals(r, BF16_MM_C_SEQ, 15);
    tensor_unref(r);
    /* larger fp32 cases (register-blocked part and edges) against the
     * sequential loop written out */
    static const int dims[][3] = {{24, 40, 20}, {10, 70, 130}};
    for (int t = 0; t < 2; t++) {
        int M = dims[t][0], K = dims[t][1], N = dims[t][2];
        double *x = malloc((size_t)(M * K) * sizeof *x), *y = malloc((size_t)(K * N) * sizeof *y);
        lcg_fill(x, M * K, 7 + t);
        lcg_fill(y, K * N, 8 + t);
        for (int i = 0; i < M * K; i++)
            x[i] *= 1.0 + 0x1p-20 * (i % 7); /* make the float sums inexact */
        value p3[2] = {value_tensor(mk2(DTYPE_FP32, M, K, x)), value_tensor(mk2(DTYPE_FP32, K, N, y))};
        r = mm_ok(IR_OP_TILE_MATMUL, p3, 2);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                float acc = 0.0f;
                for (int p = 0; p < K; p++) {
                    volatile float prod = (float)x[i * K + p] * (float)y[p * N + j];
                    acc = acc + prod;
                }
                ck_assert_msg(tensor_get_flat(r, i * N + j) == acc, "C[%d][%d]", i, j);
            }
        tensor_unref(r);
        /* bf16 inputs (the contiguous vector gather): the same float loop on
         * the bf16-rounded values, one bf16 rounding at the end */
        tensor *xb = mk2(DTYPE_BF16, M, K, x), *yb = mk2(DTYPE_BF16, K, N, y);
        value p4[2] = {value_tensor(tensor_ref(xb)), value_tensor(tensor_ref(yb))};
        r = mm_ok(IR_OP_TENSOR_MATMUL, p4, 2);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                float acc = 0.0f;
                for (int p = 0; p < K; p++) {
                    volatile float prod = (float)tensor_get_flat(xb, i * K + p) *
                                          (float)tensor_get_flat(yb, p * N + j);
                    acc = acc + prod;
                }
                ck_assert_msg(tensor_get_flat(r, i * N + j) == (double)dtype_round_bf16(acc),
                              "bf16 C[%d][%d]", i, j);
            }
        tensor_unref(r);
        tensor_unref(xb);
        tensor_unref(yb);
        free(x);
        free(y);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_matmul");
    TCase *tc = tcase_create("matmul");
    tcase_add_test(tc, test_small_f32);
    tcase_add_test(tc, test_bf16);
    tcase_add_test(tc, test_lcg_f32);
    tcase_add_test(tc, test_kernel_blocking);
    tcase_add_test(tc, test_acc_bias_batch);
    tcase_add_test(tc, test_errors_and_ints);
    tcase_add_test(tc, test_t13_sequential_order);
    suite_add_tcase(s, tc);
    return run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Unit tests for ops_matmul.c and kernel_matmul.c: torch.matmul shapes
 * (2-D, batch broadcast, 1-D), same-dtype rule, bf16 rounding of the
 * product before .float(), acc/bias adds, a_trans/b_trans/out_dtype,
 * integer wrap, the t13 fp16 hole, and both kernels (AVX-512 and portable)
 * on awkward sizes against the loops they promise.
 * Expectations: by hand, numpy (tests/data/ops/expected.h), or exact
 * integer-valued sums (values k/256, so every double sum is exact and any
 * summation order gives the same bits). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_ops_util.h"
#include "kernels/kernel_matmul.h"
#include "kernels/kernel_util.h"
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

/* Values whose products span 2^-40..2^40, so that neither the float nor
 * the double running sums are exact and any change of summation order, or
 * a fused multiply-add in the float kernel, changes bits. */
static float wide_value(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    double mant = (double)((*s >> 40) & 0xffffff) / 0x1p24 + 0.5;
    int ex = (int)((*s >> 20) % 41) - 20;
    return (float)((*s & 1 ? -mant : mant) * ldexp(1.0, ex));
}

/* Where k reaches past 260: +2^70 at k=250 and -2^70 at k=260 in every
 * element's sum (A's columns, B's rows of ones). The double sum then keeps
 * the terms in between only to 2^18 and the float sum drops them, so the
 * result depends on the order (and on a 256-deep slicing that sums the
 * slices apart). */
static void plant_cancellation(float *a, int64_t lda, float *b, int64_t ldb, int64_t m,
                               int64_t n, int64_t k)
{
    if (k <= 260)
        return;
    for (int64_t i = 0; i < m; i++) {
        a[i * lda + 250] = 0x1p70f;
        a[i * lda + 260] = -0x1p70f;
    }
    for (int64_t j = 0; j < n; j++)
        b[250 * ldb + j] = b[260 * ldb + j] = 1.0f;
}

/* Both kernels on one m x k x n product of wide values (leading dimensions
 * wider than the matrices; C's padding must stay untouched) against the
 * loops they promise, bit for bit. Returns the elements checked. */
static long check_kernels(int64_t m, int64_t n, int64_t k, uint64_t *seed, const char *mode)
{
    int64_t lda = k + 3, ldb = n + 5, ldc = n + 2;
    float *a = malloc((size_t)(m * lda + 1) * sizeof *a);
    float *b = malloc((size_t)(k * ldb + 1) * sizeof *b);
    float *c = malloc((size_t)(m * ldc) * sizeof *c);
    float *cs = malloc((size_t)(m * ldc) * sizeof *cs);
    for (int64_t i = 0; i < m * lda; i++)
        a[i] = wide_value(seed);
    for (int64_t i = 0; i < k * ldb; i++)
        b[i] = wide_value(seed);
    plant_cancellation(a, lda, b, ldb, m, n, k);
    for (int64_t i = 0; i < m * ldc; i++)
        c[i] = cs[i] = -7.0f;
    kernel_gemm_f32(m, n, k, a, lda, b, ldb, c, ldc);
    kernel_gemm_f32_seq(m, n, k, a, lda, b, ldb, cs, ldc);
    long checked = 0;
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < ldc; j++) {
            float want = -7.0f, want_seq = -7.0f;
            if (j < n) {
                double sum = 0;
                float acc = 0.0f;
                for (int64_t p = 0; p < k; p++) {
                    sum += (double)a[i * lda + p] * (double)b[p * ldb + j];
                    volatile float prod = a[i * lda + p] * b[p * ldb + j];
                    acc = acc + prod;
                }
                want = (float)sum;
                want_seq = acc;
            }
            ck_assert_msg(memcmp(&c[i * ldc + j], &want, sizeof want) == 0,
                          "%s f32 %lldx%lldx%lld: C[%lld][%lld] = %a, want %a", mode, (long long)m,
                          (long long)k, (long long)n, (long long)i, (long long)j,
                          (double)c[i * ldc + j], (double)want);
            ck_assert_msg(memcmp(&cs[i * ldc + j], &want_seq, sizeof want) == 0,
                          "%s seq %lldx%lldx%lld: C[%lld][%lld] = %a, want %a", mode, (long long)m,
                          (long long)k, (long long)n, (long long)i, (long long)j,
                          (double)cs[i * ldc + j], (double)want_seq);
            checked++;
        }
    free(a);
    free(b);
    free(c);
    free(cs);
    return checked;
}

/* Every row remainder of the 8-row blocks, column counts around the
 * 8/16/32-wide vectors, k from 0 to beyond one 256-deep slice and beyond
 * the AVX-512 kernel's depth limit (the portable kernel takes over). Run
 * with every implementation this CPU can run: the AVX-512 kernels, the
 * portable ones with their AVX-512, AVX2 and generic variants. */
START_TEST(test_kernel_blocking)
{
    static const int64_t ms[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 37};
    static const int64_t ns[] = {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 64, 71};
    static const int64_t ks[] = {0, 1, 5, 300};
    static const char *const modes[] = {"default", "portable", "portable<=avx2", "generic"};
    const char *mode = modes[_i];
    kernel_matmul_portable_only(_i);
    uint64_t seed = 99;
    long checked = 0;
    for (size_t mi = 0; mi < sizeof ms / sizeof ms[0]; mi++)
        for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
            for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++)
                if (ms[mi] * ns[ni] * ks[ki] <= 40000)
                    checked += check_kernels(ms[mi], ns[ni], ks[ki], &seed, mode);
    checked += check_kernels(37, 71, 300, &seed, mode);
    checked += check_kernels(3, 17, 5000, &seed, mode);
    kernel_matmul_portable_only(0);
    ck_assert_int_gt(checked, 20000);
}
END_TEST

/* The cube's matmul kernels against the loop pto-isa's TMatmul runs
 * (include/pto/cpu/TMatmul.hpp:61-74): per element sum = fmaf(a, b, sum)
 * from +0, k in order. kernel_gemm_bf16_fma reads bf16 operands in place
 * (B widened in registers): row remainders of the 8-row blocks, whole and
 * ragged 32-column strips, B with a wide row stride (a window of a larger
 * matrix) and as a transposed view; kernel_gemm_f32_fma the same on floats.
 * Every implementation this CPU can run. */
START_TEST(test_kernel_cube_fma)
{
    static const int64_t ms[] = {1, 3, 8, 9, 16, 17};
    static const int64_t ns[] = {1, 15, 16, 17, 32, 33, 64, 70};
    static const int64_t ks[] = {0, 1, 7, 128, 300};
    enum { NM = sizeof ms / sizeof ms[0], NN = sizeof ns / sizeof ns[0], NK = sizeof ks / sizeof ks[0] };
    uint64_t seed = 7;
    long checked = 0;
    kernel_matmul_portable_only(_i);
    /* every shape, B as it is and transposed */
    for (int shape = 0; shape < NM * NN * NK * 2; shape++) {
        int64_t m = ms[shape % NM], n = ns[shape / NM % NN], k = ks[shape / (NM * NN) % NK];
        int trans = shape / (NM * NN * NK);
        int64_t ldb = n + 40, ldc = n + 3;
        size_t nb = (size_t)((k + 1) * (ldb + 1) + n * (k + 2));
        uint16_t *a = malloc((size_t)(m * k + 1) * sizeof *a);
        uint16_t *b = malloc(nb * sizeof *b);
        float *af = malloc((size_t)(m * k + 1) * sizeof *af), *bf = malloc(nb * sizeof *bf);
        float *c = malloc((size_t)(m * ldc) * sizeof *c), *cf = malloc((size_t)(m * ldc) * sizeof *cf);
        for (int64_t q = 0; q < m * k; q++) {
            a[q] = dtype_f32_to_bf16(wide_value(&seed));
            af[q] = dtype_bf16_to_f32(a[q]);
        }
        for (size_t q = 0; q < nb; q++) {
            b[q] = dtype_f32_to_bf16(wide_value(&seed));
            bf[q] = wide_value(&seed);
        }
        /* B[p][j] at b[p * brs + j * bcs] */
        int64_t brs = trans ? 1 : ldb, bcs = trans ? k + 2 : 1;
        for (int64_t q = 0; q < m * ldc; q++)
            c[q] = cf[q] = -7.0f;
        kernel_gemm_bf16_fma(m, n, k, a, k, 1, b, brs, bcs, c, ldc);
        if (!trans)
            kernel_gemm_f32_fma(m, n, k, af, k, bf, ldb, cf, ldc);
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < ldc; j++) {
                float want = -7.0f, wantf = -7.0f;
                if (j < n) {
                    want = wantf = 0.0f;
                    for (int64_t p = 0; p < k; p++) {
                        want = fmaf(af[i * k + p], dtype_bf16_to_f32(b[p * brs + j * bcs]), want);
                        wantf = fmaf(af[i * k + p], bf[p * ldb + j], wantf);
                    }
                }
                ck_assert_msg(memcmp(&c[i * ldc + j], &want, sizeof want) == 0,
                              "mode %d bf16 fma %lldx%lldx%lld%s: C[%lld][%lld] = %a, want %a", _i,
                              (long long)m, (long long)k, (long long)n, trans ? " (B transposed)" : "",
                              (long long)i, (long long)j, (double)c[i * ldc + j], (double)want);
                if (!trans)
                    ck_assert_msg(memcmp(&cf[i * ldc + j], &wantf, sizeof wantf) == 0,
                                  "mode %d f32 fma %lldx%lldx%lld: C[%lld][%lld] = %a, want %a", _i,
                                  (long long)m, (long long)k, (long long)n, (long long)i, (long long)j,
                                  (double)cf[i * ldc + j], (double)wantf);
                checked++;
            }
        free(a);
        free(b);
        free(af);
        free(bf);
        free(c);
        free(cf);
    }
    /* where the fused step differs from multiply-then-add: 2^64 * 2^64
     * overflows FP32 alone, but after -2^127 the fused sum is 2^127 */
    uint16_t a2[2] = {dtype_f32_to_bf16(-0x1p127f), dtype_f32_to_bf16(0x1p64f)};
    uint16_t b2[2] = {dtype_f32_to_bf16(1.0f), dtype_f32_to_bf16(0x1p64f)};
    float c2 = 0;
    kernel_gemm_bf16_fma(1, 1, 2, a2, 2, 1, b2, 1, 1, &c2, 1);
    ck_assert_msg(c2 == 0x1p127f, "fused: %a", (double)c2);
    kernel_matmul_portable_only(0);
    ck_assert_int_gt(checked, 20000);
}
END_TEST

/* An 8-bit matmul deep and wide enough for the int32 path's 16 lanes and
 * its tail (n = 37), with sums far outside int8 that wrap (torch's int8
 * matmul): each element against the sum of its products computed here in
 * int64, wrapped to int8. */
START_TEST(test_int8_wide)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    enum { M = 5, K = 300, N = 37 };
    static double a[M * K], b[K * N];
    uint64_t seed = 11;
    for (int i = 0; i < M * K; i++)
        a[i] = (double)(int)((wide_value(&seed) > 0 ? 1 : -1) * (int)(seed >> 57)) - (i % 7 == 0 ? 0 : 1);
    for (int i = 0; i < K * N; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        b[i] = (double)((int)(seed >> 56) - 128);
    }
    value p[2] = {value_tensor(mk2(DTYPE_INT8, M, K, a)), value_tensor(mk2(DTYPE_INT8, K, N, b))};
    tensor *r = mm_ok(IR_OP_TENSOR_MATMUL, p, 2);
    ck_assert_int_eq(r->dtype, DTYPE_INT8);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            int64_t sum = 0;
            for (int q = 0; q < K; q++)
                sum += (int64_t)(int8_t)(int)a[i * K + q] * (int64_t)(int8_t)(int)b[q * N + j];
            int64_t idx[2] = {i, j};
            ck_assert_int_eq((int64_t)tensor_get(r, idx), (int64_t)(int8_t)(uint8_t)(sum & 0xff));
        }
    tensor_unref(r);
}
END_TEST

/* kernel_gemm_i8 with every implementation this CPU can run (mode 0: the
 * pairs by AVX-512 VNNI's vpdpwssd where the CPU has it, 1: by AVX-512BW's
 * vpmaddwd and an add; 2: the AVX2 loop; 3: the generic loop) against int64 sums of the products: row remainders of the 4-row
 * blocks, column counts around the 16-lane vectors and 64-column strips,
 * odd and even k (an odd k's last pair is half empty), int8, uint8 and
 * mixed values; and the bound the caller keeps, k = 2^15 of the largest
 * products (255 * 255 and -128 * -128), whose sums are exact in int32. */
START_TEST(test_kernel_i8)
{
    static const int64_t ms[] = {1, 2, 3, 4, 5, 8, 9};
    static const int64_t ns[] = {1, 15, 16, 17, 63, 64, 65, 130};
    static const int64_t ks[] = {0, 1, 2, 3, 64, 65, 300};
    kernel_matmul_portable_only(_i);
    uint64_t seed = 3;
    long checked = 0;
    for (size_t mi = 0; mi < sizeof ms / sizeof ms[0]; mi++)
        for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++)
            for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++)
                for (int sign = 0; sign < 3; sign++) {
                    int64_t m = ms[mi], n = ns[ni], k = ks[ki];
                    int16_t *a = malloc((size_t)(m * k + 1) * sizeof *a), *b = malloc((size_t)(k * n + 1) * sizeof *b);
                    int64_t *c = malloc((size_t)(m * n) * sizeof *c);
                    for (int64_t q = 0; q < m * k; q++) {
                        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                        a[q] = sign == 1 ? (int16_t)(seed >> 56) : (int16_t)(int8_t)(seed >> 56);
                    }
                    for (int64_t q = 0; q < k * n; q++) {
                        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                        b[q] = sign == 0 ? (int16_t)(int8_t)(seed >> 56) : (int16_t)(seed >> 56);
                    }
                    kernel_gemm_i8(m, n, k, a, b, c);
                    for (int64_t i = 0; i < m; i++)
                        for (int64_t j = 0; j < n; j++) {
                            int64_t want = 0;
                            for (int64_t p = 0; p < k; p++)
                                want += (int64_t)a[i * k + p] * b[p * n + j];
                            ck_assert_msg(c[i * n + j] == want, "mode %d %lldx%lldx%lld sign %d: C[%lld][%lld] = %lld, want %lld",
                                          _i, (long long)m, (long long)k, (long long)n, sign, (long long)i,
                                          (long long)j, (long long)c[i * n + j], (long long)want);
                            checked++;
                        }
                    free(a);
                    free(b);
                    free(c);
                }
    /* the bound: k = 2^15 products of 255 * 255 (2,130,739,200 < 2^31) and
     * of -128 * -128 */
    enum { KB = 1 << 15, NB = 17 };
    int16_t *a = malloc(KB * sizeof *a), *b = malloc((size_t)KB * NB * sizeof *b);
    int64_t c[NB];
    for (int v = 0; v < 2; v++) {
        int16_t x = v ? -128 : 255;
        for (int q = 0; q < KB; q++)
            a[q] = x;
        for (int q = 0; q < KB * NB; q++)
            b[q] = x;
        kernel_gemm_i8(1, NB, KB, a, b, c);
        for (int j = 0; j < NB; j++)
            ck_assert_int_eq(c[j], (int64_t)KB * x * x);
    }
    free(a);
    free(b);
    kernel_matmul_portable_only(0);
    ck_assert_int_gt(checked, 50000);
}
END_TEST

/* An int8 matmul whose rhs is a transposed view (the gather's strided
 * rows) and a uint8 one, through the op: every element against its int64
 * sum wrapped to the 8-bit result. */
START_TEST(test_int8_views)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    enum { M = 3, K = 41, N = 19 };
    double a[M * K], bt[N * K];
    uint64_t seed = 21;
    for (int dtv = 0; dtv < 2; dtv++) {
        dtype_id dt = dtv ? DTYPE_UINT8 : DTYPE_INT8;
        for (int i = 0; i < M * K; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            a[i] = dtv ? (double)(seed >> 56) : (double)(int8_t)(seed >> 56);
        }
        for (int i = 0; i < N * K; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            bt[i] = dtv ? (double)(seed >> 56) : (double)(int8_t)(seed >> 56);
        }
        value p[2] = {value_tensor(mk2(dt, M, K, a)), value_tensor(mk2(dt, N, K, bt))};
        exec_kw kws[1] = {EXEC_KW_B_TRANS};
        value kv[1] = {value_bool(1)}, out;
        ck_assert_int_eq(run_op_kw(&C, IR_OP_TENSOR_MATMUL, p, 2, kws, kv, 1, NULL, &out), PTODB_OK);
        tensor *r = out.u.t;
        ck_assert_int_eq(r->dtype, dt);
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                int64_t sum = 0;
                for (int q = 0; q < K; q++)
                    sum += (int64_t)a[i * K + q] * (int64_t)bt[j * K + q];
                int64_t idx[2] = {i, j};
                int64_t want = dtv ? (int64_t)(uint8_t)(sum & 0xff) : (int64_t)(int8_t)(uint8_t)(sum & 0xff);
                ck_assert_int_eq((int64_t)tensor_get(r, idx), want);
            }
        value_clear(&out);
        clear_all(p, 2);
    }
}
END_TEST

/* The test data do tell orders apart: the same products summed in 256-deep
 * slices added afterwards (the portable kernel's blocking before it kept the
 * running sums), or the float sum with a fused multiply-add, give other
 * results (so the test above can fail). */
START_TEST(test_kernel_orders_differ)
{
    uint64_t seed = 5;
    int64_t k = 300;
    float *a = malloc((size_t)k * sizeof *a), *b = malloc((size_t)k * sizeof *b);
    int diff_double = 0, diff_float = 0;
    for (int trial = 0; trial < 50; trial++) {
        for (int64_t p = 0; p < k; p++) {
            a[p] = wide_value(&seed);
            b[p] = wide_value(&seed);
        }
        plant_cancellation(a, k, b, 1, 1, 1, k);
        double seq = 0, slice[2] = {0, 0};
        float acc = 0.0f, fused = 0.0f;
        for (int64_t p = 0; p < k; p++) {
            seq += (double)a[p] * b[p];
            slice[p >= 256] += (double)a[p] * b[p];
            volatile float prod = a[p] * b[p];
            acc = acc + prod;
            fused = fmaf(a[p], b[p], fused);
        }
        diff_double += (float)seq != (float)(slice[0] + slice[1]);
        diff_float += acc != fused;
    }
    free(a);
    free(b);
    ck_assert_int_gt(diff_double, 25);
    ck_assert_int_gt(diff_float, 5);
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

/* kernel_store_f32 into bf16 (a bf16 matmul's result), vectorised, gives
 * dtype_f32_to_bf16's bits: ties both ways, overflow to infinity, NaNs of
 * either sign (0xFFFF), subnormals, and a length that is not a multiple of
 * the vector width. */
START_TEST(test_store_bf16_same_bits)
{
    static const uint32_t special[] = {
        0x00000000u, 0x80000000u, 0x00000001u, 0x807FFFFFu, 0x3F808000u, 0x3F818000u,
        0x3F807FFFu, 0x3F808001u, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800000u, 0xFF800000u,
        0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFFFFFFFu, 0x7FBFFFFFu, 0x7F7F8000u,
        0x477FFF80u, 0xFF800001u};
    enum { N = 1031 };
    float *x = malloc(N * sizeof *x);
    uint32_t seed = 777;
    for (int i = 0; i < N; i++) {
        uint32_t bits;
        if (i < (int)(sizeof special / sizeof special[0])) {
            bits = special[i];
        } else {
            seed = seed * 1664525u + 1013904223u;
            bits = seed;
        }
        memcpy(&x[i], &bits, sizeof bits);
    }
    int64_t shape[1] = {N};
    tensor *t = tensor_zeros(DTYPE_BF16, 1, shape, NULL);
    kernel_store_f32(t, x, N);
    const uint16_t *h = tensor_data(t);
    for (int i = 0; i < N; i++)
        ck_assert_msg(h[i] == dtype_f32_to_bf16(x[i]), "element %d (%08x): %04x, want %04x", i,
                      (unsigned)dtype_f32_bits(x[i]), h[i], dtype_f32_to_bf16(x[i]));
    tensor_unref(t);
    free(x);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_matmul");
    TCase *tc = tcase_create("matmul");
    tcase_add_test(tc, test_small_f32);
    tcase_add_test(tc, test_bf16);
    tcase_add_test(tc, test_lcg_f32);
    tcase_add_loop_test(tc, test_kernel_blocking, 0, 4);
    tcase_add_loop_test(tc, test_kernel_cube_fma, 0, 4);
    tcase_add_test(tc, test_int8_wide);
    tcase_add_loop_test(tc, test_kernel_i8, 0, 4);
    tcase_add_test(tc, test_int8_views);
    tcase_add_test(tc, test_kernel_orders_differ);
    tcase_add_test(tc, test_store_bf16_same_bits);
    tcase_add_test(tc, test_acc_bias_batch);
    tcase_add_test(tc, test_errors_and_ints);
    tcase_add_test(tc, test_t13_sequential_order);
    suite_add_tcase(s, tc);
    return run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* kernel_gemm_f32 split over threads (kernel_matmul_set_threads) gives the
 * bits of one thread: column counts that are and are not multiples of the
 * 16-column blocks, every kernel choice (AVX-512, portable with AVX-512,
 * AVX2 or generic micro-kernels), and leading dimensions wider than the
 * operands. And kernel_round_bf16_f32, the vectorised bf16 rounding of a
 * matmul's result, gives dtype_round_bf16's bits. kernel_gemm_bf16 (bf16
 * operands read in place, any strides) gives the scalar loop's bits. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/kernel_matmul.h"
#include "tensor/dtype.h"

static float rnd(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return (float)((int32_t)(*s >> 8) - (1 << 23)) / (float)(1 << 20);
}

START_TEST(test_threads_same_bits)
{
    static const int64_t shapes[][3] = {{37, 333, 517}, {64, 256, 512}, {8, 1000, 700}, {129, 48, 1024}};
    for (int level = 0; level <= 3; level++) {
        kernel_matmul_portable_only(level);
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            int64_t m = shapes[s][0], n = shapes[s][1], k = shapes[s][2];
            int64_t lda = k + 3, ldb = n + 5, ldc = n + 7;
            float *a = malloc(sizeof(float) * (size_t)(m * lda));
            float *b = malloc(sizeof(float) * (size_t)(k * ldb));
            float *c1 = calloc((size_t)(m * ldc), sizeof(float));
            float *c2 = calloc((size_t)(m * ldc), sizeof(float));
            uint32_t seed = (uint32_t)(s * 7 + 1);
            for (int64_t i = 0; i < m * lda; i++)
                a[i] = rnd(&seed);
            for (int64_t i = 0; i < k * ldb; i++)
                b[i] = rnd(&seed);
            kernel_matmul_set_threads(1);
            kernel_gemm_f32(m, n, k, a, lda, b, ldb, c1, ldc);
            for (int t = 2; t <= 3; t++) {
                memset(c2, 0, sizeof(float) * (size_t)(m * ldc));
                kernel_matmul_set_threads(t);
                kernel_gemm_f32(m, n, k, a, lda, b, ldb, c2, ldc);
                /* the padding between rows is never written either */
                ck_assert_msg(memcmp(c1, c2, sizeof(float) * (size_t)(m * ldc)) == 0,
                              "%lldx%lldx%lld, kernel level %d, %d threads: bits differ", (long long)m,
                              (long long)n, (long long)k, level, t);
            }
            free(a);
            free(b);
            free(c1);
            free(c2);
        }
    }
    kernel_matmul_set_threads(1);
    kernel_matmul_portable_only(0);
}
END_TEST

START_TEST(test_round_bf16_same_bits)
{
    static const uint32_t special[] = {
        0x00000000u, 0x80000000u, 0x00000001u, 0x807FFFFFu, 0x3F808000u, /* a tie to even (down) */
        0x3F818000u,                                                     /* a tie to even (up) */
        0x3F807FFFu, 0x3F808001u, 0x7F7FFFFFu, 0xFF7FFFFFu,             /* rounds to inf */
        0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u, 0x7F800001u, /* inf, NaNs */
        0xFFFFFFFFu, 0x7FBFFFFFu, 0x7F7F8000u, 0x477FFF80u};
    enum { N = 4099 }; /* not a multiple of the vector width */
    static float x[N], want[N];
    uint32_t seed = 12345;
    for (int i = 0; i < N; i++) {
        uint32_t bits;
        if (i < (int)(sizeof special / sizeof special[0])) {
            bits = special[i];
        } else {
            seed = seed * 1664525u + 1013904223u;
            bits = seed;
        }
        memcpy(&x[i], &bits, sizeof bits);
        want[i] = dtype_round_bf16(x[i]);
    }
    kernel_round_bf16_f32(x, N);
    for (int i = 0; i < N; i++)
        ck_assert_msg(memcmp(&x[i], &want[i], sizeof x[i]) == 0, "element %d differs", i);
}
END_TEST

/* A bf16 with a random sign, mantissa and an exponent in 2^-20..2^20, so
 * that the double sums are inexact and any change of order shows; a few
 * near the top of the range, so that some results round to infinity. */
static uint16_t rnd_bf16(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    uint32_t ex = 127 - 20 + (*s >> 8) % 41;
    if ((*s >> 20) % 97 == 0)
        ex = 127 + 60;
    return (uint16_t)(((*s >> 31) << 15) | (ex << 7) | ((*s >> 1) & 0x7f));
}

static float bf16f(uint16_t h)
{
    return dtype_bf16_to_f32(h);
}

/* One product: A m x k and B k x n in bf16, each row-major or transposed,
 * with leading dimensions wider than the matrix; C's padding must stay
 * untouched. Against the scalar loop: the double sum, k in order from +0,
 * rounded to float, then to bf16 when round. */
static void check_bf16(int64_t m, int64_t n, int64_t k, int at, int bt, int round, uint32_t *seed,
                       const char *mode)
{
    int64_t lda = (at ? m : k) + 3, ldb = (bt ? k : n) + 5, ldc = n + 2;
    int64_t ars = at ? 1 : lda, acs = at ? lda : 1, brs = bt ? 1 : ldb, bcs = bt ? ldb : 1;
    size_t asz = (size_t)((at ? k : m) * lda + 1), bsz = (size_t)((bt ? n : k) * ldb + 1);
    uint16_t *a = malloc(asz * sizeof *a), *b = malloc(bsz * sizeof *b);
    float *c = malloc((size_t)(m * ldc + 1) * sizeof *c);
    for (size_t i = 0; i < asz; i++)
        a[i] = rnd_bf16(seed);
    for (size_t i = 0; i < bsz; i++)
        b[i] = rnd_bf16(seed);
    for (int64_t i = 0; i < m * ldc + 1; i++)
        c[i] = -7.0f;
    kernel_gemm_bf16(m, n, k, a, ars, acs, b, brs, bcs, c, ldc, round);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < ldc; j++) {
            float want = -7.0f;
            if (j < n) {
                double sum = 0;
                for (int64_t p = 0; p < k; p++)
                    sum += (double)bf16f(a[i * ars + p * acs]) * (double)bf16f(b[p * brs + j * bcs]);
                want = (float)sum;
                if (round)
                    want = dtype_round_bf16(want);
            }
            ck_assert_msg(memcmp(&c[i * ldc + j], &want, sizeof want) == 0,
                          "%s %lldx%lldx%lld at=%d bt=%d round=%d: C[%lld][%lld] = %a, want %a",
                          mode, (long long)m, (long long)k, (long long)n, at, bt, round,
                          (long long)i, (long long)j, (double)c[i * ldc + j], (double)want);
        }
    ck_assert(c[m * ldc] == -7.0f);
    free(a);
    free(b);
    free(c);
}

/* Row counts around the 8-row blocks, column counts around the 16-column
 * strips, k from 0 past the AVX-512 kernel's depth bound (4096: the
 * fallback through float copies), both layouts of each operand, rounded or
 * not; with every kernel choice and with two threads. */
START_TEST(test_bf16_in_place)
{
    static const int64_t shapes[][3] = {
        {1, 1, 1}, {1, 17, 5}, {3, 16, 0}, {7, 15, 33}, {8, 16, 64}, {9, 31, 17},
        {17, 33, 100}, {13, 48, 7}, {5, 9, 4100}, {64, 96, 700}};
    static const char *const modes[] = {"default", "portable", "portable<=avx2", "generic"};
    uint32_t seed = 4242;
    for (int level = 0; level <= 3; level++) {
        kernel_matmul_portable_only(level);
        for (int threads = 1; threads <= 2; threads++) {
            kernel_matmul_set_threads(threads);
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
                for (int layout = 0; layout < 4; layout++)
                    check_bf16(shapes[s][0], shapes[s][1], shapes[s][2], layout & 1, layout >> 1,
                               (int)((s + (size_t)layout) & 1), &seed, modes[level]);
        }
    }
    kernel_matmul_set_threads(1);
    kernel_matmul_portable_only(0);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("matmul_threads");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600); /* generous: sanitizer and valgrind builds */
    tcase_add_test(tc, test_threads_same_bits);
    tcase_add_test(tc, test_round_bf16_same_bits);
    tcase_add_test(tc, test_bf16_in_place);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

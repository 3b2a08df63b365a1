/* kernel_gemm_f32 split over threads (kernel_matmul_set_threads) gives the
 * bits of one thread: column counts that are and are not multiples of the
 * 16-column blocks, every kernel choice (AVX-512, portable with AVX-512,
 * AVX2 or generic micro-kernels), and leading dimensions wider than the
 * operands. And kernel_round_bf16_f32, the vectorised bf16 rounding of a
 * matmul's result, gives dtype_round_bf16's bits. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exec/kernel_matmul.h"
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

int main(void)
{
    Suite *su = suite_create("matmul_threads");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600); /* generous: sanitizer and valgrind builds */
    tcase_add_test(tc, test_threads_same_bits);
    tcase_add_test(tc, test_round_bf16_same_bits);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

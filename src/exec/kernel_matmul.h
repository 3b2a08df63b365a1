/* The matmul kernel: double accumulation (semantics.md §1.7 class A: one
 * rounding of the exact-product double sum), blocked with packed panels so
 * that the inner loop is a fixed-size vector multiply-add.
 *
 * Independent of the machine (no exec_ctx), so the benchmark can link it
 * alone. */
#ifndef PTODB_EXEC_KERNEL_MATMUL_H
#define PTODB_EXEC_KERNEL_MATMUL_H

#include <stdint.h>

/* C = A * B for row-major A (m x k, row stride lda), B (k x n, ldb) and C
 * (m x n, ldc), all doubles. C is overwritten. */
void kernel_gemm_f64(int64_t m, int64_t n, int64_t k, const double *a, int64_t lda,
                     const double *b, int64_t ldb, double *c, int64_t ldc);

/* The same from float inputs: C = fl32(sum of exact products, in double). */
void kernel_gemm_f32(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                     const float *b, int64_t ldb, float *c, int64_t ldc);

/* C = A * B summed the way netlib's reference sgemm (Debian's libblas3,
 * which torch 1.13 there calls) does: for each element a float32 running
 * sum, in k order from +0, multiply and add rounded separately (no FMA). */
void kernel_gemm_f32_seq(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                         const float *b, int64_t ldb, float *c, int64_t ldc);

#endif

/* The matmul kernels: double accumulation (semantics.md §1.7 class A: the
 * exact products summed in double, k in order, rounded once) and netlib's
 * float running sum (the t13 profile). Portable blocked kernels, and
 * AVX-512 ones that give the same bits where the CPU has them.
 *
 * Independent of the machine (no exec_ctx), so the benchmark can link it
 * alone. */
#ifndef PTODB_KERNELS_KERNEL_MATMUL_H
#define PTODB_KERNELS_KERNEL_MATMUL_H

#include <stdint.h>

/* C = A * B for row-major A (m x k, row stride lda), B (k x n, ldb) and C
 * (m x n, ldc), all doubles. C is overwritten. */
void kernel_gemm_f64(int64_t m, int64_t n, int64_t k, const double *a, int64_t lda,
                     const double *b, int64_t ldb, double *c, int64_t ldc);

/* The same from float inputs: C = fl32(the products, exact in double, summed
 * in double in k order from +0). A large one is split by columns over the
 * threads kernel_matmul_set_threads allows, with the same bits. */
void kernel_gemm_f32(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                     const float *b, int64_t ldb, float *c, int64_t ldc);

/* kernel_gemm_f32 of bf16 operands read where they are: A[i][p] =
 * a[i * ars + p * acs], B[p][j] = b[p * brs + j * bcs] (bf16 bits, any
 * strides), C m x n floats (row stride ldc). round: each result then rounded
 * to bf16 (kept as a float: a bf16 matmul's .float()). The bits of widening
 * both to floats, kernel_gemm_f32 and kernel_round_bf16_f32, without the
 * float copies. Threads as kernel_gemm_f32. */
void kernel_gemm_bf16(int64_t m, int64_t n, int64_t k, const uint16_t *a, int64_t ars,
                      int64_t acs, const uint16_t *b, int64_t brs, int64_t bcs, float *c,
                      int64_t ldc, int round);

/* C = A * B summed the way netlib's reference sgemm (Debian's libblas3,
 * which torch 1.13 there calls) does: for each element a float32 running
 * sum, in k order from +0, multiply and add rounded separately (no FMA). */
void kernel_gemm_f32_seq(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                         const float *b, int64_t ldb, float *c, int64_t ldc);

/* C = A * B in the cube's order (pto-isa's TMatmul, include/pto/cpu/
 * TMatmul.hpp: per element a float sum from +0, k in order, sum =
 * fma(a, b, sum)). A product of two BF16 or FP16 values is exact in FP32
 * unless it overflows or falls below FP32's normal range, so there each step
 * is also the multiply-then-add of kernel_gemm_f32_seq. */
void kernel_gemm_f32_fma(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                         const float *b, int64_t ldb, float *c, int64_t ldc);

/* kernel_gemm_f32_fma of bf16 operands read where they are (A[i][p] =
 * a[i * ars + p * acs], B[p][j] = b[p * brs + j * bcs], C m x n floats, row
 * stride ldc): the bits of widening both to floats first, without the float
 * copy of B (A, a tile matmul's small operand, is widened into a reused
 * buffer). */
void kernel_gemm_bf16_fma(int64_t m, int64_t n, int64_t k, const uint16_t *a, int64_t ars,
                          int64_t acs, const uint16_t *b, int64_t brs, int64_t bcs, float *c,
                          int64_t ldc);

/* C = A * B of dense row-major matrices of 8-bit integer values held as
 * int16 (A m x k, B k x n; C m x n int64): every product is within 2^16 and,
 * for k <= 2^15, every partial sum within int32, so the sums run in int32
 * (pairs of products, AVX-512BW's vpmaddwd, or 16 lanes of one product) and
 * are the exact sums whatever the order. */
void kernel_gemm_i8(int64_t m, int64_t n, int64_t k, const int16_t *a, const int16_t *b, int64_t *c);

/* C = A * B (C m x n, dense row-major floats) from bf16 bits A[i][p] =
 * a[i * ars + p * acs] and B[p][j] = b[p * brs + j * bcs], in the order of
 * torch 1.13's oneDNN bf16 matmul on an AVX512-BF16 host
 * (docs/numerics-torch113.md): k in blocks of kernel_onednn_bf16_kblock(k,
 * brgemm), each block a float sum from +0 over the pairs (p+1, p), the block
 * sums added in order. brgemm: oneDNN's brgemm matmul (both operands dense)
 * rather than its jit gemm. */
void kernel_gemm_bf16_onednn(int64_t m, int64_t n, int64_t k, const uint16_t *a, int64_t ars,
                             int64_t acs, const uint16_t *b, int64_t brs, int64_t bcs, float *c,
                             int brgemm);
/* The same from dense row-major floats holding bf16 values (A m x k, B k x n). */
void kernel_gemm_bf16_onednn_f32(int64_t m, int64_t n, int64_t k, const float *a,
                                 const float *b, float *c, int brgemm);
int64_t kernel_onednn_bf16_kblock(int64_t k, int brgemm);

/* x[i] = dtype_round_bf16(x[i]) for n floats (the bf16 rounding of a
 * matmul's result), vectorised, with the same bits. */
void kernel_round_bf16_f32(float *x, int64_t n);

/* Threads kernel_gemm_f32 may use for one large matmul (1 to 8; 1, the
 * default, runs everything on the caller's thread). Set by --batch and
 * --run when fewer passes than jobs run at once. */
void kernel_matmul_set_threads(int n);
/* In a worker of a pool of workers processes sharing the cores, of which
 * *idle (shared memory, updated by the pool) have nothing left to run: each
 * large matmul also uses workers / (workers - *idle) threads, the cores the
 * idle ones leave free. NULL stops it. */
void kernel_matmul_share_cores(const volatile int *idle, int workers);

/* Tests: which implementations the kernels above may use, so that each can
 * be checked against one expectation: 0 any (the default), 1 the portable
 * code only, 2 that with its vector variants up to AVX2, 3 its generic
 * variant only (the ones a host without AVX-512 or AVX2 runs). */
void kernel_matmul_portable_only(int level);

#endif

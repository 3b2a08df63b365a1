/* AVX-512 versions of the float matmul kernels of kernel_matmul.h, for
 * hosts that have AVX-512F and AVX-512VL. Same results as the portable
 * kernels, bit for bit (the unit tests run both); kernel_matmul.c picks
 * between them. On other compilers and architectures these are absent and
 * km512_usable() is 0. */
#ifndef PTODB_KERNELS_KERNEL_MATMUL_AVX512_H
#define PTODB_KERNELS_KERNEL_MATMUL_AVX512_H

#include <stdint.h>

/* Nonzero when this build has the kernels and the CPU (and OS) runs them. */
int km512_usable(void);

/* kernel_gemm_f32_seq: a float running sum per element, k in order. */
void km512_gemm_f32_seq(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                        const float *b, int64_t ldb, float *c, int64_t ldc);

/* kernel_gemm_f32_fma: per element a float fma chain from +0, k in order. */
void km512_gemm_f32_fma(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                        const float *b, int64_t ldb, float *c, int64_t ldc);

/* The same with B as bf16 bits (B[p][j] = b[p * ldb + j]), widened in
 * registers. strip: room for k * 32 floats (a ragged last strip of columns
 * is widened there). */
void km512_gemm_bf16_fma(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                         const uint16_t *b, int64_t ldb, float *c, int64_t ldc, float *strip);

/* kernel_gemm_f32: the exact products summed in double, k in order, the
 * sum rounded once to float. */
void km512_gemm_f32(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                    const float *b, int64_t ldb, float *c, int64_t ldc);

/* kernel_gemm_bf16: the same from bf16 operands read in place, rounded to
 * bf16 when round. */
void km512_gemm_bf16(int64_t m, int64_t n, int64_t k, const uint16_t *a, int64_t ars,
                     int64_t acs, const uint16_t *b, int64_t brs, int64_t bcs, float *c,
                     int64_t ldc, int round);

/* Nonzero when km512_gemm_i8 runs here (AVX-512BW as well). */
int km512_i8_usable(void);

/* kernel_gemm_i8 (same arguments): the pairs of k steps as one int32 of two
 * int16 each, summed by vpmaddwd (the two exact products added) into int32
 * accumulators, 4 rows x 64 columns of C at a time; vnni: by vpdpwssd
 * where the CPU has AVX-512 VNNI (the same sums, one instruction). */
void km512_gemm_i8(int64_t m, int64_t n, int64_t k, const int16_t *a, const int16_t *b, int64_t *c, int vnni);

#endif

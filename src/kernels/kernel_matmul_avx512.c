/* AVX-512 matmul kernels (see kernel_matmul_avx512.h).
 *
 * Both keep a block of C of up to 8 rows in 16 zmm accumulators for the
 * whole k loop: per step of k they load one row segment of B, broadcast one
 * element of A per row and update every accumulator. Nothing is packed for
 * the float running sum, and ragged edges use masked loads and stores, so a
 * small tile pays no set-up. Blocks are instantiated per row count (1-8) and
 * width: the registers a block does not use are compiled away, and full
 * blocks carry no masks.
 *
 * seq: 8 rows x 32 floats. The multiply and the add are separate
 * instructions and never contracted, so each lane computes exactly
 * acc = acc + fl(a*b) from +0, k in order: two vector operations per 16
 * products where sgemm's FMA needs one, the price of netlib's rounding.
 *
 * f32 (double accumulation): 8 rows x 16 doubles. A is widened to double
 * once (row-major), B one 16-column strip at a time into a buffer that
 * stays in L1. A product of two floats is exact in double, so the FMA gives
 * the bits of the portable kernel's multiply-then-add; every sum runs in k
 * order from +0 and is rounded once to float.
 *
 * bf16 (double accumulation): the same blocks, A and the strips widened
 * straight from the bf16 operands in place (any strides), so no float copy
 * of them is made; a bf16 result is rounded block by block while in L1. */
#include "kernels/kernel_matmul_avx512.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

#include <immintrin.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

#ifdef __clang__
/* clang never contracts across the intrinsics' function boundaries */
#define KM512_ATTR __attribute__((target("avx512f,avx512vl")))
#else
#define KM512_ATTR __attribute__((target("avx512f,avx512vl"), optimize("fp-contract=off")))
#endif

int km512_usable(void)
{
    static int usable = -1;
    if (usable < 0) {
        __builtin_cpu_init();
        usable = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
    }
    return usable;
}

/* ---- float running sum ------------------------------------------------- */

/* Row r of the block: broadcast a[r][p], one multiply and one add per
 * vector of the row (seq), or one fused multiply-add (fma). */
#define ROW_WITH(r, SET1, STEP, S)                                                 \
    if (MR > r) {                                                                  \
        __typeof__(b0) x = SET1(ap[r * lda]);                                      \
        S##r##0 = STEP(x, b0, S##r##0);                                            \
        if (NV > 1)                                                                \
            S##r##1 = STEP(x, b1, S##r##1);                                        \
    }
#define SEQ_STEP(x, b, acc) _mm512_add_ps(acc, _mm512_mul_ps(x, b))
#define SEQ_ROW(r) ROW_WITH(r, _mm512_set1_ps, SEQ_STEP, s)
#define FMA_ROW(r) ROW_WITH(r, _mm512_set1_ps, _mm512_fmadd_ps, s)
#define SEQ_STORE(r)                                                               \
    if (MR > r) {                                                                  \
        if (NV == 1) {                                                             \
            _mm512_mask_storeu_ps(c + r * ldc, last, s##r##0);                      \
        } else {                                                                   \
            _mm512_storeu_ps(c + r * ldc, s##r##0);                                \
            if (FULL)                                                              \
                _mm512_storeu_ps(c + r * ldc + 16, s##r##1);                       \
            else                                                                   \
                _mm512_mask_storeu_ps(c + r * ldc + 16, last, s##r##1);             \
        }                                                                          \
    }
/* Step p's row of B as b0, b1: floats (masked where the strip is ragged) */
#define LOAD_F32(bp)                                                               \
    if (NV == 1) {                                                                 \
        b0 = _mm512_maskz_loadu_ps(last, bp);                                      \
        b1 = b0;                                                                   \
    } else {                                                                       \
        b0 = _mm512_loadu_ps(bp);                                                  \
        b1 = FULL ? _mm512_loadu_ps(bp + 16) : _mm512_maskz_loadu_ps(last, bp + 16); \
    }
/* ... or 32 bf16 bit patterns widened (exact: the bits move to the top
 * half); whole strips only */
#define LOAD_BF16(bp)                                                              \
    b0 = _mm512_castsi512_ps(                                                      \
        _mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(bp))), 16)); \
    b1 = _mm512_castsi512_ps(                                                      \
        _mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)((bp) + 16))), 16));
/* A block NAME: MRV rows; NVV vectors of 16 columns; FV: the last vector is
 * whole (no mask), `last` masks its columns otherwise; B of type BT, each
 * step's row loaded by LOAD and summed into the rows by ROW. */
#define BLOCK_DEF(NAME, ROW, BT, LOAD, MRV, NVV, FV)                               \
    KM512_ATTR static void NAME(int64_t k, const float *a, int64_t lda, const BT *b, \
                                int64_t ldb, float *c, int64_t ldc, __mmask16 last) \
    {                                                                              \
        enum { MR = MRV, NV = NVV, FULL = FV };                                    \
        (void)last;                                                                \
        __m512 s00 = _mm512_setzero_ps(), s01 = s00, s10 = s00, s11 = s00;         \
        __m512 s20 = s00, s21 = s00, s30 = s00, s31 = s00, s40 = s00, s41 = s00;   \
        __m512 s50 = s00, s51 = s00, s60 = s00, s61 = s00, s70 = s00, s71 = s00;   \
        for (int64_t p = 0; p < k; p++) {                                          \
            const BT *bp = b + p * ldb;                                            \
            __m512 b0, b1;                                                         \
            LOAD(bp)                                                               \
            const float *ap = a + p;                                               \
            ROW(0) ROW(1) ROW(2) ROW(3) ROW(4) ROW(5) ROW(6) ROW(7)                \
        }                                                                          \
        SEQ_STORE(0) SEQ_STORE(1) SEQ_STORE(2) SEQ_STORE(3)                        \
        SEQ_STORE(4) SEQ_STORE(5) SEQ_STORE(6) SEQ_STORE(7)                        \
    }
/* seq: float B, multiply then add; fma: float B, fused; fmah: bf16 B, fused */
#define SEQ_DEF(MRV, NVV, FV) BLOCK_DEF(seq_##MRV##_##NVV##_##FV, SEQ_ROW, float, LOAD_F32, MRV, NVV, FV)
#define FMA_DEF(MRV, NVV, FV) BLOCK_DEF(fma_##MRV##_##NVV##_##FV, FMA_ROW, float, LOAD_F32, MRV, NVV, FV)
#define FLOAT_ROWS(MR) SEQ_DEF(MR, 1, 0) SEQ_DEF(MR, 2, 0) SEQ_DEF(MR, 2, 1) \
    FMA_DEF(MR, 1, 0) FMA_DEF(MR, 2, 0) FMA_DEF(MR, 2, 1) BLOCK_DEF(fmah_##MR, FMA_ROW, uint16_t, LOAD_BF16, MR, 2, 1)
FLOAT_ROWS(1) FLOAT_ROWS(2) FLOAT_ROWS(3) FLOAT_ROWS(4) FLOAT_ROWS(5) FLOAT_ROWS(6) FLOAT_ROWS(7) FLOAT_ROWS(8)

typedef void (*seq_block)(int64_t k, const float *a, int64_t lda, const float *b, int64_t ldb,
                          float *c, int64_t ldc, __mmask16 last);
#define SEQ_ENTRY(MR) {seq_##MR##_1_0, seq_##MR##_2_0, seq_##MR##_2_1}
static const seq_block seq_blocks[8][3] = {SEQ_ENTRY(1), SEQ_ENTRY(2), SEQ_ENTRY(3),
                                           SEQ_ENTRY(4), SEQ_ENTRY(5), SEQ_ENTRY(6),
                                           SEQ_ENTRY(7), SEQ_ENTRY(8)};
#define FMA_ENTRY(MR) {fma_##MR##_1_0, fma_##MR##_2_0, fma_##MR##_2_1}
static const seq_block fma_blocks[8][3] = {FMA_ENTRY(1), FMA_ENTRY(2), FMA_ENTRY(3),
                                           FMA_ENTRY(4), FMA_ENTRY(5), FMA_ENTRY(6),
                                           FMA_ENTRY(7), FMA_ENTRY(8)};
typedef void (*fmah_block)(int64_t k, const float *a, int64_t lda, const uint16_t *b, int64_t ldb,
                           float *c, int64_t ldc, __mmask16 last);
static const fmah_block fmah_blocks[8] = {fmah_1, fmah_2, fmah_3, fmah_4,
                                          fmah_5, fmah_6, fmah_7, fmah_8};

/* Which block variant covers nr (1..W) columns of a strip W = 2 * V lanes
 * wide, and the mask of its last vector. */
static int km512_variant(int64_t nr, int lanes, unsigned *last)
{
    if (nr == 2 * lanes) {
        *last = (1u << lanes) - 1;
        return 2;
    }
    int64_t rem = nr > lanes ? nr - lanes : nr;
    *last = (1u << rem) - 1;
    return nr > lanes ? 1 : 0;
}

/* C = A * B in 32-column strips of B (a strip, k x 128 bytes, stays in L1
 * while every row block of A streams past it), each block by blocks[][] */
static void float_gemm(const seq_block (*blocks)[3], int64_t m, int64_t n, int64_t k, const float *a,
                       int64_t lda, const float *b, int64_t ldb, float *c, int64_t ldc)
{
    for (int64_t j0 = 0; j0 < n; j0 += 32) {
        unsigned last;
        int v = km512_variant(n - j0 < 32 ? n - j0 : 32, 16, &last);
        for (int64_t i0 = 0; i0 < m; i0 += 8) {
            int mr = m - i0 < 8 ? (int)(m - i0) : 8;
            blocks[mr - 1][v](k, a + i0 * lda, lda, b + j0, ldb, c + i0 * ldc + j0, ldc, (__mmask16)last);
        }
    }
}

void km512_gemm_f32_seq(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                        const float *b, int64_t ldb, float *c, int64_t ldc)
{
    float_gemm(seq_blocks, m, n, k, a, lda, b, ldb, c, ldc);
}

void km512_gemm_f32_fma(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                        const float *b, int64_t ldb, float *c, int64_t ldc)
{
    float_gemm(fma_blocks, m, n, k, a, lda, b, ldb, c, ldc);
}

void km512_gemm_bf16_fma(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                         const uint16_t *b, int64_t ldb, float *c, int64_t ldc, float *strip)
{
    int64_t whole = n / 32 * 32;
    for (int64_t j0 = 0; j0 < whole; j0 += 32)
        for (int64_t i0 = 0; i0 < m; i0 += 8) {
            int mr = m - i0 < 8 ? (int)(m - i0) : 8;
            fmah_blocks[mr - 1](k, a + i0 * lda, lda, b + j0, ldb, c + i0 * ldc + j0, ldc, 0xffff);
        }
    if (whole == n)
        return;
    /* the ragged last strip: its columns widened to floats, rows of 32 */
    int64_t nr = n - whole;
    for (int64_t p = 0; p < k; p++)
        for (int64_t j = 0; j < nr; j++) {
            uint32_t u = (uint32_t)b[p * ldb + whole + j] << 16;
            __builtin_memcpy(&strip[p * 32 + j], &u, sizeof u);
        }
    float_gemm(fma_blocks, m, nr, k, a, lda, strip, 32, c + whole, ldc);
}

/* ---- double accumulation ----------------------------------------------- */

#define DBL_ROW(r) ROW_WITH(r, _mm512_set1_pd, _mm512_fmadd_pd, d)
#define DBL_STORE(r)                                                               \
    if (MR > r) {                                                                  \
        if (NV == 1) {                                                             \
            _mm256_mask_storeu_ps(c + r * ldc, last, _mm512_cvtpd_ps(d##r##0));    \
        } else {                                                                   \
            _mm256_storeu_ps(c + r * ldc, _mm512_cvtpd_ps(d##r##0));               \
            if (FULL)                                                              \
                _mm256_storeu_ps(c + r * ldc + 8, _mm512_cvtpd_ps(d##r##1));       \
            else                                                                   \
                _mm256_mask_storeu_ps(c + r * ldc + 8, last, _mm512_cvtpd_ps(d##r##1)); \
        }                                                                          \
    }
/* b: the widened strip, rows of 16 doubles (zero beyond the matrix), 64-byte
 * aligned. */
#define DBL_DEF(MRV, NVV, FV)                                                      \
    KM512_ATTR static void dbl_##MRV##_##NVV##_##FV(                               \
        int64_t k, const double *a, int64_t lda, const double *b, float *c,        \
        int64_t ldc, __mmask8 last)                                                \
    {                                                                              \
        enum { MR = MRV, NV = NVV, FULL = FV };                                    \
        __m512d d00 = _mm512_setzero_pd(), d01 = d00, d10 = d00, d11 = d00;        \
        __m512d d20 = d00, d21 = d00, d30 = d00, d31 = d00, d40 = d00, d41 = d00;  \
        __m512d d50 = d00, d51 = d00, d60 = d00, d61 = d00, d70 = d00, d71 = d00;  \
        for (int64_t p = 0; p < k; p++) {                                          \
            const double *bp = b + p * 16;                                         \
            __m512d b0 = _mm512_load_pd(bp);                                       \
            __m512d b1 = NV > 1 ? _mm512_load_pd(bp + 8) : b0;                     \
            const double *ap = a + p;                                              \
            DBL_ROW(0) DBL_ROW(1) DBL_ROW(2) DBL_ROW(3)                            \
            DBL_ROW(4) DBL_ROW(5) DBL_ROW(6) DBL_ROW(7)                            \
        }                                                                          \
        DBL_STORE(0) DBL_STORE(1) DBL_STORE(2) DBL_STORE(3)                        \
        DBL_STORE(4) DBL_STORE(5) DBL_STORE(6) DBL_STORE(7)                        \
    }
#define DBL_ROWS(MR) DBL_DEF(MR, 1, 0) DBL_DEF(MR, 2, 0) DBL_DEF(MR, 2, 1)
DBL_ROWS(1) DBL_ROWS(2) DBL_ROWS(3) DBL_ROWS(4) DBL_ROWS(5) DBL_ROWS(6) DBL_ROWS(7) DBL_ROWS(8)

typedef void (*dbl_block)(int64_t k, const double *a, int64_t lda, const double *b, float *c,
                          int64_t ldc, __mmask8 last);
#define DBL_ENTRY(MR) {dbl_##MR##_1_0, dbl_##MR##_2_0, dbl_##MR##_2_1}
static const dbl_block dbl_blocks[8][3] = {DBL_ENTRY(1), DBL_ENTRY(2), DBL_ENTRY(3),
                                           DBL_ENTRY(4), DBL_ENTRY(5), DBL_ENTRY(6),
                                           DBL_ENTRY(7), DBL_ENTRY(8)};

/* rows x cols of src (row stride lds) into dst (row stride ldd) as doubles */
KM512_ATTR static void widen_rows(int64_t rows, int64_t cols, const float *src, int64_t lds,
                                  double *dst, int64_t ldd)
{
    for (int64_t r = 0; r < rows; r++) {
        const float *s = src + r * lds;
        double *d = dst + r * ldd;
        int64_t j = 0;
        for (; j + 8 <= cols; j += 8)
            _mm512_storeu_pd(d + j, _mm512_cvtps_pd(_mm256_loadu_ps(s + j)));
        if (j < cols) {
            __mmask8 mk = (__mmask8)((1u << (cols - j)) - 1);
            _mm512_mask_storeu_pd(d + j, mk, _mm512_cvtps_pd(_mm256_maskz_loadu_ps(mk, s + j)));
        }
    }
}

/* Columns [0, nr) of k rows of b into rows of 16 doubles, zero-padded. */
KM512_ATTR static void widen_strip(int64_t k, int64_t nr, const float *b, int64_t ldb,
                                   double *dst)
{
    __mmask16 mk = (__mmask16)(nr >= 16 ? 0xffffu : (1u << nr) - 1);
    for (int64_t p = 0; p < k; p++) {
        __m512 v = nr >= 16 ? _mm512_loadu_ps(b + p * ldb) : _mm512_maskz_loadu_ps(mk, b + p * ldb);
        __m256 lo = _mm512_castps512_ps256(v);
        __m256 hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
        _mm512_store_pd(dst + p * 16, _mm512_cvtps_pd(lo));
        _mm512_store_pd(dst + p * 16 + 8, _mm512_cvtps_pd(hi));
    }
}

KM512_ATTR void km512_gemm_f32(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                               const float *b, int64_t ldb, float *c, int64_t ldc)
{
    if (m <= 0 || n <= 0)
        return;
    int64_t kk = k > 0 ? k : 0;
    /* one block: the 64-byte aligned strip, then A widened */
    char *raw = xmalloc((size_t)(kk * 16 + m * kk) * sizeof(double) + 64);
    double *strip = (double *)(void *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
    double *aw = strip + kk * 16;
    widen_rows(m, kk, a, lda, aw, kk);
    for (int64_t j0 = 0; j0 < n; j0 += 16) {
        int64_t nr = n - j0 < 16 ? n - j0 : 16;
        unsigned last;
        int v = km512_variant(nr, 8, &last);
        widen_strip(kk, nr, b + j0, ldb, strip);
        for (int64_t i0 = 0; i0 < m; i0 += 8) {
            int mr = m - i0 < 8 ? (int)(m - i0) : 8;
            dbl_blocks[mr - 1][v](kk, aw + i0 * kk, kk, strip, c + i0 * ldc + j0, ldc,
                                  (__mmask8)last);
        }
    }
    free(raw);
}

/* ---- double accumulation from bf16 operands ----------------------------- */

/* 16 bf16 bit patterns -> floats (exact: the bits move to the top half) */
KM512_ATTR static inline __m512 bf16x16_ps(__m256i h)
{
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
}

KM512_ATTR static inline double bf16_pd(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    __builtin_memcpy(&f, &u, sizeof f);
    return f;
}

/* Stores 16 floats as two rows of 8 doubles. */
KM512_ATTR static inline void store_pd16(double *d, __m512 v, int aligned)
{
    __m256 lo = _mm512_castps512_ps256(v);
    __m256 hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1));
    if (aligned) {
        _mm512_store_pd(d, _mm512_cvtps_pd(lo));
        _mm512_store_pd(d + 8, _mm512_cvtps_pd(hi));
    } else {
        _mm512_storeu_pd(d, _mm512_cvtps_pd(lo));
        _mm512_storeu_pd(d + 8, _mm512_cvtps_pd(hi));
    }
}

/* A[i][p] = a[i * rs + p * cs] (bf16) into rows of doubles (row stride ldd) */
KM512_ATTR static void widen_rows_bf16(int64_t rows, int64_t cols, const uint16_t *a, int64_t rs,
                                       int64_t cs, double *dst, int64_t ldd)
{
    for (int64_t r = 0; r < rows; r++) {
        const uint16_t *s = a + r * rs;
        double *d = dst + r * ldd;
        int64_t j = 0;
        if (cs == 1)
            for (; j + 16 <= cols; j += 16)
                store_pd16(d + j, bf16x16_ps(_mm256_loadu_si256((const __m256i *)(s + j))), 0);
        for (; j < cols; j++)
            d[j] = bf16_pd(s[j * cs]);
    }
}

/* Columns [0, nr) of k rows of B (B[p][j] = b[p * rs + j * cs], bf16) into
 * rows of 16 doubles, zero-padded. */
KM512_ATTR static void widen_strip_bf16(int64_t k, int64_t nr, const uint16_t *b, int64_t rs,
                                        int64_t cs, double *dst)
{
    if (nr == 16 && cs == 1) {
        for (int64_t p = 0; p < k; p++)
            store_pd16(dst + p * 16,
                       bf16x16_ps(_mm256_loadu_si256((const __m256i *)(b + p * rs))), 1);
        return;
    }
    for (int64_t p = 0; p < k; p++) {
        uint16_t h[16] = {0};
        for (int64_t j = 0; j < nr; j++)
            h[j] = b[p * rs + j * cs];
        store_pd16(dst + p * 16, bf16x16_ps(_mm256_loadu_si256((const __m256i *)h)), 1);
    }
}

/* dtype_round_bf16 in place on an mr x nr block of C (nr <= 16), as
 * kernel_round_bf16_f32: the rounded pattern, 0xFFFF0000 for NaN. */
KM512_ATTR static void round_block_bf16(float *c, int64_t ldc, int mr, int64_t nr)
{
    __mmask16 mk = (__mmask16)(nr >= 16 ? 0xffffu : (1u << nr) - 1);
    const __m512i bias = _mm512_set1_epi32(0x7FFF), one = _mm512_set1_epi32(1);
    const __m512i hi = _mm512_set1_epi32((int)0xFFFF0000u);
    const __m512i abs = _mm512_set1_epi32(0x7FFFFFFF), inf = _mm512_set1_epi32(0x7F800000);
    for (int r = 0; r < mr; r++) {
        __m512i u = _mm512_castps_si512(_mm512_maskz_loadu_ps(mk, c + r * ldc));
        __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16), one);
        __m512i v = _mm512_and_si512(_mm512_add_epi32(_mm512_add_epi32(u, bias), odd), hi);
        __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(u, abs), inf);
        v = _mm512_mask_mov_epi32(v, nan, hi);
        _mm512_mask_storeu_ps(c + r * ldc, mk, _mm512_castsi512_ps(v));
    }
}

KM512_ATTR void km512_gemm_bf16(int64_t m, int64_t n, int64_t k, const uint16_t *a, int64_t ars,
                                int64_t acs, const uint16_t *b, int64_t brs, int64_t bcs,
                                float *c, int64_t ldc, int round)
{
    if (m <= 0 || n <= 0)
        return;
    int64_t kk = k > 0 ? k : 0;
    char *raw = xmalloc((size_t)(kk * 16 + m * kk) * sizeof(double) + 64);
    double *strip = (double *)(void *)(((uintptr_t)raw + 63) & ~(uintptr_t)63);
    double *aw = strip + kk * 16;
    widen_rows_bf16(m, kk, a, ars, acs, aw, kk);
    for (int64_t j0 = 0; j0 < n; j0 += 16) {
        int64_t nr = n - j0 < 16 ? n - j0 : 16;
        unsigned last;
        int v = km512_variant(nr, 8, &last);
        widen_strip_bf16(kk, nr, b + j0 * bcs, brs, bcs, strip);
        for (int64_t i0 = 0; i0 < m; i0 += 8) {
            int mr = m - i0 < 8 ? (int)(m - i0) : 8;
            dbl_blocks[mr - 1][v](kk, aw + i0 * kk, kk, strip, c + i0 * ldc + j0, ldc,
                                  (__mmask8)last);
            if (round) /* while the block is in L1 */
                round_block_bf16(c + i0 * ldc + j0, ldc, mr, nr);
        }
    }
    free(raw);
}

/* ---- 8-bit integers in int16 pairs (kernel_gemm_i8) --------------------- */

int km512_i8_usable(void)
{
    static int usable = -1;
    if (usable < 0) {
        __builtin_cpu_init();
        usable = km512_usable() && __builtin_cpu_supports("avx512bw");
    }
    return usable;
}

static int km512_vnni_usable(void)
{
    static int usable = -1;
    if (usable < 0)
        usable = km512_i8_usable() && __builtin_cpu_supports("avx512vnni");
    return usable;
}

/* Rows [i0, i0 + MR) of C, columns [j0, j0 + 64): four vectors of 16 int32
 * sums per row; per pair of k steps one vpmaddwd (the two exact products
 * added) and one add per vector, or with AVX-512 VNNI one vpdpwssd, which
 * is that sum added without saturation: the same int32 */
#define I16_MADD_ADD(acc, b, x) _mm512_add_epi32(acc, _mm512_madd_epi16(b, x))
#define I16_DPWSSD(acc, b, x) _mm512_dpwssd_epi32(acc, b, x)
#define I16_BLOCK(NAME, MR, TARGET, STEP)                                           \
    __attribute__((target(TARGET))) static void NAME(                                \
        int64_t kp, const int32_t *ap, int64_t lda, const int32_t *bp, int64_t n,   \
        int64_t *c, int64_t ldc, int64_t w)                                         \
    {                                                                               \
        __m512i acc[MR][4];                                                         \
        for (int r = 0; r < MR; r++)                                                \
            for (int v = 0; v < 4; v++)                                             \
                acc[r][v] = _mm512_setzero_si512();                                 \
        __mmask16 mask[4];                                                          \
        for (int v = 0; v < 4; v++) {                                               \
            int64_t left = w - 16 * v;                                              \
            mask[v] = left >= 16 ? (__mmask16)0xFFFF                                \
                      : left > 0 ? (__mmask16)((1u << left) - 1)                   \
                                 : (__mmask16)0;                                    \
        }                                                                           \
        for (int64_t q = 0; q < kp; q++) {                                          \
            __m512i b[4];                                                           \
            for (int v = 0; v < 4; v++)                                             \
                b[v] = _mm512_maskz_loadu_epi32(mask[v], bp + q * n + 16 * v);      \
            for (int r = 0; r < MR; r++) {                                          \
                __m512i x = _mm512_set1_epi32(ap[r * lda + q]);                     \
                for (int v = 0; v < 4; v++)                                         \
                    acc[r][v] = STEP(acc[r][v], b[v], x);                           \
            }                                                                       \
        }                                                                           \
        for (int r = 0; r < MR; r++)                                                \
            for (int v = 0; v < 4 && 16 * v < w; v++) {                             \
                int32_t lanes[16];                                                  \
                _mm512_storeu_si512(lanes, acc[r][v]);                              \
                int64_t left = w - 16 * v < 16 ? w - 16 * v : 16;                   \
                for (int64_t l = 0; l < left; l++)                                  \
                    c[r * ldc + 16 * v + l] = lanes[l];                             \
            }                                                                       \
    }
I16_BLOCK(i16_block_1, 1, "avx512f,avx512bw", I16_MADD_ADD)
I16_BLOCK(i16_block_2, 2, "avx512f,avx512bw", I16_MADD_ADD)
I16_BLOCK(i16_block_3, 3, "avx512f,avx512bw", I16_MADD_ADD)
I16_BLOCK(i16_block_4, 4, "avx512f,avx512bw", I16_MADD_ADD)
I16_BLOCK(i16_vnni_1, 1, "avx512f,avx512bw,avx512vnni", I16_DPWSSD)
I16_BLOCK(i16_vnni_2, 2, "avx512f,avx512bw,avx512vnni", I16_DPWSSD)
I16_BLOCK(i16_vnni_3, 3, "avx512f,avx512bw,avx512vnni", I16_DPWSSD)
I16_BLOCK(i16_vnni_4, 4, "avx512f,avx512bw,avx512vnni", I16_DPWSSD)

/* the pairs (A[i][2q], A[i][2q + 1]) as one int32 each, low half first
 * (a row of A as it lies when k is even), and (B[2q][j], B[2q + 1][j])
 * likewise, 16 columns at a time; an odd k's last pair has 0 high */
__attribute__((target("avx512f,avx512bw"))) static void i8_pairs(int64_t m, int64_t n, int64_t k,
                                                                 const int16_t *a, const int16_t *b,
                                                                 int32_t *ap, int32_t *bp)
{
    int64_t kp = (k + 1) / 2;
    for (int64_t i = 0; i < m; i++) {
        memcpy(ap + i * kp, a + i * k, (size_t)(k / 2) * sizeof *ap);
        if (k & 1)
            ap[i * kp + kp - 1] = (int32_t)(uint16_t)a[i * k + k - 1];
    }
    for (int64_t q = 0; q < kp; q++) {
        const int16_t *b0 = b + 2 * q * n, *b1 = 2 * q + 1 < k ? b0 + n : NULL;
        int32_t *out = bp + q * n;
        int64_t j = 0;
        for (; j + 16 <= n; j += 16) {
            __m512i lo = _mm512_cvtepu16_epi32(_mm256_loadu_si256((const void *)(b0 + j)));
            __m512i hi = b1 ? _mm512_slli_epi32(_mm512_cvtepu16_epi32(_mm256_loadu_si256((const void *)(b1 + j))), 16)
                            : _mm512_setzero_si512();
            _mm512_storeu_si512(out + j, _mm512_or_si512(lo, hi));
        }
        for (; j < n; j++)
            out[j] = (int32_t)((uint32_t)(uint16_t)b0[j] | (b1 ? (uint32_t)(uint16_t)b1[j] << 16 : 0));
    }
}

void km512_gemm_i8(int64_t m, int64_t n, int64_t k, const int16_t *a, const int16_t *b, int64_t *c, int vnni)
{
    typedef void (*block_fn)(int64_t, const int32_t *, int64_t, const int32_t *, int64_t, int64_t *, int64_t,
                             int64_t);
    static const block_fn madd_blocks[4] = {i16_block_1, i16_block_2, i16_block_3, i16_block_4};
    static const block_fn vnni_blocks[4] = {i16_vnni_1, i16_vnni_2, i16_vnni_3, i16_vnni_4};
    const block_fn *blocks = vnni && km512_vnni_usable() ? vnni_blocks : madd_blocks;
    int64_t kp = (k + 1) / 2;
    int32_t *ap = xmalloc((size_t)(m * kp + 1) * sizeof *ap);
    int32_t *bp = xmalloc((size_t)(kp * n + 1) * sizeof *bp);
    i8_pairs(m, n, k, a, b, ap, bp);
    for (int64_t j0 = 0; j0 < n; j0 += 64) {
        int64_t w = n - j0 < 64 ? n - j0 : 64;
        for (int64_t i0 = 0; i0 < m; i0 += 4) {
            int mr = m - i0 < 4 ? (int)(m - i0) : 4;
            blocks[mr - 1](kp, ap + i0 * kp, kp, bp + j0, n, c + i0 * n + j0, n, w);
        }
    }
    free(ap);
    free(bp);
}

#else /* no AVX-512 kernels in this build */

int km512_i8_usable(void)
{
    return 0;
}

void km512_gemm_i8(int64_t m, int64_t n, int64_t k, const int16_t *a, const int16_t *b, int64_t *c, int vnni)
{
    (void)m, (void)n, (void)k, (void)a, (void)b, (void)c, (void)vnni;
    abort();
}

#include <stdlib.h>

int km512_usable(void)
{
    return 0;
}

void km512_gemm_f32_seq(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                        const float *b, int64_t ldb, float *c, int64_t ldc)
{
    (void)m, (void)n, (void)k, (void)a, (void)lda, (void)b, (void)ldb, (void)c, (void)ldc;
    abort(); /* callers check km512_usable() */
}

void km512_gemm_f32(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                    const float *b, int64_t ldb, float *c, int64_t ldc)
{
    (void)m, (void)n, (void)k, (void)a, (void)lda, (void)b, (void)ldb, (void)c, (void)ldc;
    abort();
}

void km512_gemm_bf16(int64_t m, int64_t n, int64_t k, const uint16_t *a, int64_t ars,
                     int64_t acs, const uint16_t *b, int64_t brs, int64_t bcs, float *c,
                     int64_t ldc, int round)
{
    (void)m, (void)n, (void)k, (void)a, (void)ars, (void)acs, (void)b, (void)brs, (void)bcs;
    (void)c, (void)ldc, (void)round;
    abort();
}

void km512_gemm_f32_fma(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                        const float *b, int64_t ldb, float *c, int64_t ldc)
{
    (void)m, (void)n, (void)k, (void)a, (void)lda, (void)b, (void)ldb, (void)c, (void)ldc;
    abort();
}

void km512_gemm_bf16_fma(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                         const uint16_t *b, int64_t ldb, float *c, int64_t ldc, float *strip)
{
    (void)m, (void)n, (void)k, (void)a, (void)lda, (void)b, (void)ldb, (void)c, (void)ldc, (void)strip;
    abort();
}

#endif

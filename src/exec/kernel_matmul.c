/* Blocked double-accumulating GEMM (see kernel_matmul.h).
 *
 * Layout: B is packed once per KC-slice into panels of KM_NR columns
 * (k-major, zero-padded), A into blocks of KM_MR rows (k-major,
 * zero-padded). The micro-kernel keeps an KM_MR x KM_NR block of C in
 * registers as GCC vector-extension values (portable C, no intrinsics), so
 * the compiler emits packed multiply/add for whatever ISA it targets. On
 * x86-64 with GCC we also build an AVX2/FMA clone selected at load time.
 *
 * Products of two floats (or bf16s) are exact in double, so a fused
 * multiply-add gives the same bits as a separate multiply and add: the
 * FMA clone changes speed, not results, for float inputs. */
#include "exec/kernel_matmul.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

#define KM_MR 4
#define KM_NR 8
#define KM_KC 256

typedef double km_v4 __attribute__((vector_size(32)));

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(PTODB_NO_CLONES)
#define KM_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define KM_CLONES
#endif

/* acc (MR x NR) = sum over p < kc of a[p][i] * b[p][j]; a is kc x MR,
 * b is kc x NR, both k-major. The block is added to c (ldc) for the first
 * mr x nr entries. */
KM_CLONES
static void km_micro(int64_t kc, const double *restrict a, const double *restrict b,
                     double *restrict c, int64_t ldc, int mr, int nr)
{
    km_v4 c00 = {0}, c01 = {0}, c10 = {0}, c11 = {0};
    km_v4 c20 = {0}, c21 = {0}, c30 = {0}, c31 = {0};
    for (int64_t p = 0; p < kc; p++) {
        km_v4 b0, b1;
        memcpy(&b0, b + p * KM_NR, sizeof b0);
        memcpy(&b1, b + p * KM_NR + 4, sizeof b1);
        const double *ap = a + p * KM_MR;
        km_v4 a0 = {ap[0], ap[0], ap[0], ap[0]};
        c00 += a0 * b0;
        c01 += a0 * b1;
        km_v4 a1 = {ap[1], ap[1], ap[1], ap[1]};
        c10 += a1 * b0;
        c11 += a1 * b1;
        km_v4 a2 = {ap[2], ap[2], ap[2], ap[2]};
        c20 += a2 * b0;
        c21 += a2 * b1;
        km_v4 a3 = {ap[3], ap[3], ap[3], ap[3]};
        c30 += a3 * b0;
        c31 += a3 * b1;
    }
    double blk[KM_MR][KM_NR];
    memcpy(&blk[0][0], &c00, sizeof c00);
    memcpy(&blk[0][4], &c01, sizeof c01);
    memcpy(&blk[1][0], &c10, sizeof c10);
    memcpy(&blk[1][4], &c11, sizeof c11);
    memcpy(&blk[2][0], &c20, sizeof c20);
    memcpy(&blk[2][4], &c21, sizeof c21);
    memcpy(&blk[3][0], &c30, sizeof c30);
    memcpy(&blk[3][4], &c31, sizeof c31);
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < nr; j++)
            c[i * ldc + j] += blk[i][j];
}

/* Packs rows [p0, p0+kc) of B into panels: bp[panel][p][j]. */
#define KM_PACK_B(T)                                                                  \
    static void km_pack_b_##T(int64_t n, int64_t kc, const T *b, int64_t ldb,        \
                              double *bp)                                             \
    {                                                                                 \
        for (int64_t j0 = 0; j0 < n; j0 += KM_NR) {                                   \
            int64_t nr = n - j0 < KM_NR ? n - j0 : KM_NR;                             \
            for (int64_t p = 0; p < kc; p++) {                                        \
                const T *src = b + p * ldb + j0;                                      \
                int64_t j = 0;                                                        \
                for (; j < nr; j++)                                                   \
                    bp[j] = (double)src[j];                                           \
                for (; j < KM_NR; j++)                                                \
                    bp[j] = 0.0;                                                      \
                bp += KM_NR;                                                          \
            }                                                                         \
        }                                                                             \
    }

/* Packs columns [p0, p0+kc) of A rows [i0, i0+mr): ap[p][i]. */
#define KM_PACK_A(T)                                                                  \
    static void km_pack_a_##T(int64_t mr, int64_t kc, const T *a, int64_t lda,       \
                              double *ap)                                             \
    {                                                                                 \
        for (int64_t p = 0; p < kc; p++) {                                            \
            int64_t i = 0;                                                            \
            for (; i < mr; i++)                                                       \
                ap[i] = (double)a[i * lda + p];                                       \
            for (; i < KM_MR; i++)                                                    \
                ap[i] = 0.0;                                                          \
            ap += KM_MR;                                                              \
        }                                                                             \
    }

KM_PACK_B(double)
KM_PACK_B(float)
KM_PACK_A(double)
KM_PACK_A(float)

/* The blocked driver: C (doubles, ldc) accumulates A*B slice by slice. */
#define KM_DRIVER(T)                                                                  \
    static void km_gemm_##T(int64_t m, int64_t n, int64_t k, const T *a, int64_t lda, \
                            const T *b, int64_t ldb, double *c, int64_t ldc)          \
    {                                                                                 \
        int64_t npan = (n + KM_NR - 1) / KM_NR;                                       \
        int64_t kcmax = k < KM_KC ? k : KM_KC;                                        \
        if (kcmax == 0)                                                               \
            return;                                                                   \
        double *bp = xmalloc((size_t)(npan * KM_NR * kcmax) * sizeof *bp);            \
        double *ap = xmalloc((size_t)(KM_MR * kcmax) * sizeof *ap);                   \
        for (int64_t p0 = 0; p0 < k; p0 += KM_KC) {                                   \
            int64_t kc = k - p0 < KM_KC ? k - p0 : KM_KC;                             \
            km_pack_b_##T(n, kc, b + p0 * ldb, ldb, bp);                              \
            for (int64_t i0 = 0; i0 < m; i0 += KM_MR) {                               \
                int64_t mr = m - i0 < KM_MR ? m - i0 : KM_MR;                         \
                km_pack_a_##T(mr, kc, a + i0 * lda + p0, lda, ap);                    \
                for (int64_t jp = 0; jp < npan; jp++) {                               \
                    int64_t j0 = jp * KM_NR;                                          \
                    int nr = (int)(n - j0 < KM_NR ? n - j0 : KM_NR);                  \
                    km_micro(kc, ap, bp + jp * KM_NR * kc, c + i0 * ldc + j0, ldc,    \
                             (int)mr, nr);                                            \
                }                                                                     \
            }                                                                         \
        }                                                                             \
        free(ap);                                                                     \
        free(bp);                                                                     \
    }

KM_DRIVER(double)
KM_DRIVER(float)

void kernel_gemm_f64(int64_t m, int64_t n, int64_t k, const double *a, int64_t lda,
                     const double *b, int64_t ldb, double *c, int64_t ldc)
{
    for (int64_t i = 0; i < m; i++)
        memset(c + i * ldc, 0, (size_t)n * sizeof *c);
    km_gemm_double(m, n, k, a, lda, b, ldb, c, ldc);
}

void kernel_gemm_f32(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                     const float *b, int64_t ldb, float *c, int64_t ldc)
{
    if (m <= 0 || n <= 0)
        return;
    double *acc = xcalloc((size_t)(m * n), sizeof *acc);
    km_gemm_float(m, n, k, a, lda, b, ldb, acc, n);
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++)
            c[i * ldc + j] = (float)acc[i * n + j];
    free(acc);
}

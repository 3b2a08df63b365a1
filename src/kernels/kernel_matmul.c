/* The portable matmul kernels (see kernel_matmul.h) and the choice between
 * them and the AVX-512 ones (kernel_matmul_avx512.c), which give the same
 * bits faster.
 *
 * Double accumulation: for each KC-deep slice of k, A is packed into blocks
 * of MR rows (k-major doubles, zero-padded); B is read in place, a panel of
 * NR columns at a time (only a ragged last panel is copied into a
 * zero-padded buffer). The micro-kernel keeps an MR x NR block of C in
 * registers as vector-extension values (portable GNU C, no intrinsics), so
 * the compiler emits packed multiply-adds for whatever ISA the function is
 * compiled for. On x86-64 an AVX-512 (8x16) or AVX2 (6x8) variant is picked
 * at run time; elsewhere the generic 6x8 one runs.
 *
 * Each element's sum runs in k order from +0: a block starts from C's
 * running sums (zero before the first slice) and stores them back, so the
 * slicing does not change the order. Products of two floats (or bf16s) are
 * exact in double, so a fused multiply-add gives the same bits as a
 * multiply and an add: for float inputs the variants, and the AVX-512
 * kernel, differ in speed, not in results. (fp64 inputs are not exact
 * products: there the FMA variants may differ from the generic one in the
 * last bit.) */
#include "kernels/kernel_matmul.h"
#include "kernels/kernel_matmul_avx512.h"

#include <math.h>
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#endif
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "tensor/dtype.h"

#define KM_KC 256
#define KM_MAX_THREADS 8
#define KM_MRMAX 8
#define KM_NRMAX 16

typedef double km_v4 __attribute__((vector_size(32)));
typedef double km_v8 __attribute__((vector_size(64)));
typedef float km_v4f __attribute__((vector_size(16)));
typedef float km_v8f __attribute__((vector_size(32)));

/* Contracting a*b+c into an FMA is exact for float/bf16 inputs, so GCC may
 * do it (its ISO C mode turns contraction off by default). */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define KM_X86 1
#ifdef __clang__
#define KM_CONTRACT
#else
#define KM_CONTRACT __attribute__((optimize("fp-contract=fast")))
#endif
#define KM_AVX512 __attribute__((target("avx512f,avx512dq,avx2,fma"))) KM_CONTRACT
#define KM_AVX2 __attribute__((target("avx2,fma"))) KM_CONTRACT
#else
#define KM_X86 0
#endif
#define KM_GENERIC

/* Loads of n consecutive B elements as doubles. */
#define KM_LD4_double(dst, ptr) memcpy(&(dst), (ptr), sizeof(km_v4))
#define KM_LD8_double(dst, ptr) memcpy(&(dst), (ptr), sizeof(km_v8))
#define KM_LD4_float(dst, ptr)                                                     \
    do {                                                                           \
        km_v4f f_;                                                                 \
        memcpy(&f_, (ptr), sizeof f_);                                             \
        (dst) = __builtin_convertvector(f_, km_v4);                                \
    } while (0)
#define KM_LD8_float(dst, ptr)                                                     \
    do {                                                                           \
        km_v8f f_;                                                                 \
        memcpy(&f_, (ptr), sizeof f_);                                             \
        (dst) = __builtin_convertvector(f_, km_v8);                                \
    } while (0)

/* (v0, v1) = c[0..2W) and back, for W-wide vectors: a full block's rows. */
#define KM_LDROW(VT, ptr, v0, v1)                                                  \
    do {                                                                           \
        memcpy(&(v0), (ptr), sizeof(VT));                                          \
        memcpy(&(v1), (ptr) + sizeof(VT) / sizeof(double), sizeof(VT));            \
    } while (0)
#define KM_STROW(VT, ptr, v0, v1)                                                  \
    do {                                                                           \
        memcpy((ptr), &(v0), sizeof(VT));                                          \
        memcpy((ptr) + sizeof(VT) / sizeof(double), &(v1), sizeof(VT));            \
    } while (0)

/* The mr x nr corner of c (ldc) into a row-major block (row length NR),
 * zero elsewhere, and back: the ragged edges of the matrix. */
static void km_load(double *blk, int NR, const double *restrict c, int64_t ldc, int mr, int nr)
{
    memset(blk, 0, (size_t)(KM_MRMAX * KM_NRMAX) * sizeof *blk);
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < nr; j++)
            blk[i * NR + j] = c[i * ldc + j];
}

static void km_store(const double *blk, int NR, double *restrict c, int64_t ldc, int mr, int nr)
{
    for (int i = 0; i < mr; i++)
        for (int j = 0; j < nr; j++)
            c[i * ldc + j] = blk[i * NR + j];
}

/* 6 x 8: two 4-wide vectors per row, 12 accumulators (they fit the 16 AVX2
 * registers with two B vectors and one broadcast). a is kc x 6 k-major. */
#define KM_DEF_6x8(NAME, ATTR, T)                                                  \
    ATTR static void NAME(int64_t kc, const double *restrict a, const T *restrict b, \
                          int64_t ldb, double *restrict c, int64_t ldc, int mr, int nr) \
    {                                                                              \
        double blk[KM_MRMAX * KM_NRMAX];                                           \
        const int full_ = mr == 6 && nr == 8;                                      \
        if (!full_)                                                                \
            km_load(blk, 8, c, ldc, mr, nr);                                       \
        const double *src_ = full_ ? c : blk;                                      \
        const int64_t ld_ = full_ ? ldc : 8;                                       \
        km_v4 c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51;          \
        KM_LDROW(km_v4, src_, c00, c01);                                           \
        KM_LDROW(km_v4, src_ + ld_, c10, c11);                                     \
        KM_LDROW(km_v4, src_ + 2 * ld_, c20, c21);                                 \
        KM_LDROW(km_v4, src_ + 3 * ld_, c30, c31);                                 \
        KM_LDROW(km_v4, src_ + 4 * ld_, c40, c41);                                 \
        KM_LDROW(km_v4, src_ + 5 * ld_, c50, c51);                                 \
        for (int64_t p = 0; p < kc; p++) {                                         \
            km_v4 b0, b1, x;                                                       \
            KM_LD4_##T(b0, b + p * ldb);                                           \
            KM_LD4_##T(b1, b + p * ldb + 4);                                       \
            const double *ap = a + p * 6;                                          \
            x = (km_v4){ap[0], ap[0], ap[0], ap[0]}; c00 += x * b0; c01 += x * b1; \
            x = (km_v4){ap[1], ap[1], ap[1], ap[1]}; c10 += x * b0; c11 += x * b1; \
            x = (km_v4){ap[2], ap[2], ap[2], ap[2]}; c20 += x * b0; c21 += x * b1; \
            x = (km_v4){ap[3], ap[3], ap[3], ap[3]}; c30 += x * b0; c31 += x * b1; \
            x = (km_v4){ap[4], ap[4], ap[4], ap[4]}; c40 += x * b0; c41 += x * b1; \
            x = (km_v4){ap[5], ap[5], ap[5], ap[5]}; c50 += x * b0; c51 += x * b1; \
        }                                                                          \
        if (full_) {                                                               \
            KM_STROW(km_v4, c, c00, c01);                                          \
            KM_STROW(km_v4, c + ldc, c10, c11);                                    \
            KM_STROW(km_v4, c + 2 * ldc, c20, c21);                                \
            KM_STROW(km_v4, c + 3 * ldc, c30, c31);                                \
            KM_STROW(km_v4, c + 4 * ldc, c40, c41);                                \
            KM_STROW(km_v4, c + 5 * ldc, c50, c51);                                \
            return;                                                                \
        }                                                                          \
        memcpy(blk + 0, &c00, 32); memcpy(blk + 4, &c01, 32);                      \
        memcpy(blk + 8, &c10, 32); memcpy(blk + 12, &c11, 32);                     \
        memcpy(blk + 16, &c20, 32); memcpy(blk + 20, &c21, 32);                    \
        memcpy(blk + 24, &c30, 32); memcpy(blk + 28, &c31, 32);                    \
        memcpy(blk + 32, &c40, 32); memcpy(blk + 36, &c41, 32);                    \
        memcpy(blk + 40, &c50, 32); memcpy(blk + 44, &c51, 32);                    \
        km_store(blk, 8, c, ldc, mr, nr);                                          \
    }

/* 8 x 16: two 8-wide vectors per row, 16 independent FMA chains (AVX-512
 * has 32 registers), enough to hide the FMA latency. */
#define KM_DEF_8x16(NAME, ATTR, T)                                                 \
    ATTR static void NAME(int64_t kc, const double *restrict a, const T *restrict b, \
                          int64_t ldb, double *restrict c, int64_t ldc, int mr, int nr) \
    {                                                                              \
        double blk[KM_MRMAX * KM_NRMAX];                                           \
        const int full_ = mr == 8 && nr == 16;                                     \
        if (!full_)                                                                \
            km_load(blk, 16, c, ldc, mr, nr);                                      \
        const double *src_ = full_ ? c : blk;                                      \
        const int64_t ld_ = full_ ? ldc : 16;                                      \
        km_v8 c00, c01, c10, c11, c20, c21, c30, c31, c40, c41, c50, c51;          \
        km_v8 c60, c61, c70, c71;                                                  \
        KM_LDROW(km_v8, src_, c00, c01);                                           \
        KM_LDROW(km_v8, src_ + ld_, c10, c11);                                     \
        KM_LDROW(km_v8, src_ + 2 * ld_, c20, c21);                                 \
        KM_LDROW(km_v8, src_ + 3 * ld_, c30, c31);                                 \
        KM_LDROW(km_v8, src_ + 4 * ld_, c40, c41);                                 \
        KM_LDROW(km_v8, src_ + 5 * ld_, c50, c51);                                 \
        KM_LDROW(km_v8, src_ + 6 * ld_, c60, c61);                                 \
        KM_LDROW(km_v8, src_ + 7 * ld_, c70, c71);                                 \
        for (int64_t p = 0; p < kc; p++) {                                         \
            km_v8 b0, b1;                                                          \
            KM_LD8_##T(b0, b + p * ldb);                                           \
            KM_LD8_##T(b1, b + p * ldb + 8);                                       \
            const double *ap = a + p * 8;                                          \
            c00 += ap[0] * b0; c01 += ap[0] * b1; c10 += ap[1] * b0; c11 += ap[1] * b1; \
            c20 += ap[2] * b0; c21 += ap[2] * b1; c30 += ap[3] * b0; c31 += ap[3] * b1; \
            c40 += ap[4] * b0; c41 += ap[4] * b1; c50 += ap[5] * b0; c51 += ap[5] * b1; \
            c60 += ap[6] * b0; c61 += ap[6] * b1; c70 += ap[7] * b0; c71 += ap[7] * b1; \
        }                                                                          \
        if (full_) {                                                               \
            KM_STROW(km_v8, c, c00, c01);                                          \
            KM_STROW(km_v8, c + ldc, c10, c11);                                    \
            KM_STROW(km_v8, c + 2 * ldc, c20, c21);                                \
            KM_STROW(km_v8, c + 3 * ldc, c30, c31);                                \
            KM_STROW(km_v8, c + 4 * ldc, c40, c41);                                \
            KM_STROW(km_v8, c + 5 * ldc, c50, c51);                                \
            KM_STROW(km_v8, c + 6 * ldc, c60, c61);                                \
            KM_STROW(km_v8, c + 7 * ldc, c70, c71);                                \
            return;                                                                \
        }                                                                          \
        memcpy(blk + 0, &c00, 64); memcpy(blk + 8, &c01, 64);                      \
        memcpy(blk + 16, &c10, 64); memcpy(blk + 24, &c11, 64);                    \
        memcpy(blk + 32, &c20, 64); memcpy(blk + 40, &c21, 64);                    \
        memcpy(blk + 48, &c30, 64); memcpy(blk + 56, &c31, 64);                    \
        memcpy(blk + 64, &c40, 64); memcpy(blk + 72, &c41, 64);                    \
        memcpy(blk + 80, &c50, 64); memcpy(blk + 88, &c51, 64);                    \
        memcpy(blk + 96, &c60, 64); memcpy(blk + 104, &c61, 64);                   \
        memcpy(blk + 112, &c70, 64); memcpy(blk + 120, &c71, 64);                  \
        km_store(blk, 16, c, ldc, mr, nr);                                         \
    }

/* A rows [0, mr) x columns [0, kc) into ap[p][0..MR), zero-padded. */
#define KM_PACK_A(T)                                                                   \
    static void km_pack_a_##T(int64_t mr, int MR, int64_t kc, const T *a, int64_t lda, \
                              double *ap)                                          \
    {                                                                              \
        /* row by row: contiguous reads, MR-strided writes (both in L1) */        \
        for (int64_t i = 0; i < MR; i++) {                                         \
            if (i < mr) {                                                          \
                const T *row = a + i * lda;                                        \
                for (int64_t p = 0; p < kc; p++)                                   \
                    ap[p * MR + i] = (double)row[p];                               \
            } else {                                                               \
                for (int64_t p = 0; p < kc; p++)                                   \
                    ap[p * MR + i] = 0.0;                                          \
            }                                                                      \
        }                                                                          \
    }

KM_PACK_A(double)
KM_PACK_A(float)

/* Tests: 0 any kernel, 1 portable kernels only, 2 and their variants up to
 * AVX2, 3 and only the generic variant (kernel_matmul_portable_only). */
static int km_portable_only;

void kernel_matmul_portable_only(int level)
{
    km_portable_only = level;
}

/* One micro-kernel set, pick function and driver per B type. */
#define KM_FAMILY(T)                                                               \
    typedef void (*km_micro_##T)(int64_t kc, const double *restrict a,            \
                                 const T *restrict b, int64_t ldb, double *restrict c, \
                                 int64_t ldc, int mr, int nr);                     \
    KM_DEF_6x8(km_6x8_##T, KM_GENERIC, T)                                          \
    KM_FAMILY_X86(T)                                                               \
    static km_micro_##T km_pick_##T(int *mr, int *nr)                             \
    {                                                                              \
        KM_PICK_X86(T)                                                             \
        *mr = 6;                                                                   \
        *nr = 8;                                                                   \
        return km_6x8_##T;                                                         \
    }                                                                              \
    static void km_gemm_##T(int64_t m, int64_t n, int64_t k, const T *a, int64_t lda, \
                            const T *b, int64_t ldb, double *c, int64_t ldc)       \
    {                                                                              \
        int MR, NR;                                                                \
        km_micro_##T micro = km_pick_##T(&MR, &NR);                                \
        if (k <= 0 || m <= 0 || n <= 0)                                            \
            return;                                                                \
        int64_t kcmax = k < KM_KC ? k : KM_KC;                                     \
        int64_t mblocks = (m + MR - 1) / MR;                                       \
        double *ap = xmalloc((size_t)(mblocks * MR * kcmax) * sizeof *ap);         \
        T *edge = xmalloc((size_t)(NR * kcmax) * sizeof *edge);                    \
        for (int64_t p0 = 0; p0 < k; p0 += KM_KC) {                                \
            int64_t kc = k - p0 < KM_KC ? k - p0 : KM_KC;                          \
            for (int64_t ib = 0; ib < mblocks; ib++) {                             \
                int64_t i0 = ib * MR, mr = m - i0 < MR ? m - i0 : MR;              \
                km_pack_a_##T(mr, MR, kc, a + i0 * lda + p0, lda, ap + ib * MR * kc); \
            }                                                                      \
            for (int64_t j0 = 0; j0 < n; j0 += NR) {                               \
                int nr = (int)(n - j0 < NR ? n - j0 : NR);                         \
                const T *bp = b + p0 * ldb + j0;                                   \
                int64_t bld = ldb;                                                 \
                if (nr < NR) { /* the ragged last panel, zero-padded */            \
                    for (int64_t p = 0; p < kc; p++)                               \
                        for (int j = 0; j < NR; j++)                               \
                            edge[p * NR + j] = j < nr ? bp[p * ldb + j] : (T)0;    \
                    bp = edge;                                                     \
                    bld = NR;                                                      \
                }                                                                  \
                for (int64_t ib = 0; ib < mblocks; ib++) {                         \
                    int64_t i0 = ib * MR, mr = m - i0 < MR ? m - i0 : MR;          \
                    micro(kc, ap + ib * MR * kc, bp, bld, c + i0 * ldc + j0, ldc,  \
                          (int)mr, nr);                                            \
                }                                                                  \
            }                                                                      \
        }                                                                          \
        free(edge);                                                                \
        free(ap);                                                                  \
    }

#if KM_X86
#define KM_FAMILY_X86(T)                                                           \
    KM_DEF_6x8(km_6x8_avx2_##T, KM_AVX2, T)                                        \
    KM_DEF_8x16(km_8x16_avx512_##T, KM_AVX512, T)
#define KM_PICK_X86(T)                                                             \
    __builtin_cpu_init();                                                          \
    if (km_portable_only < 2 && __builtin_cpu_supports("avx512f") &&               \
        __builtin_cpu_supports("avx512dq")) {                                      \
        *mr = 8;                                                                   \
        *nr = 16;                                                                  \
        return km_8x16_avx512_##T;                                                 \
    }                                                                              \
    if (km_portable_only < 3 && __builtin_cpu_supports("avx2") &&                  \
        __builtin_cpu_supports("fma")) {                                           \
        *mr = 6;                                                                   \
        *nr = 8;                                                                   \
        return km_6x8_avx2_##T;                                                    \
    }
#else
#define KM_FAMILY_X86(T)
#define KM_PICK_X86(T)
#endif

KM_FAMILY(double)

void kernel_gemm_f64(int64_t m, int64_t n, int64_t k, const double *a, int64_t lda,
                     const double *b, int64_t ldb, double *c, int64_t ldc)
{
    for (int64_t i = 0; i < m; i++)
        memset(c + i * ldc, 0, (size_t)n * sizeof *c);
    km_gemm_double(m, n, k, a, lda, b, ldb, c, ldc);
}

/* An operand of km_gemm_f32_wide: element [i][p] is f[i * rs + p * cs]
 * (floats), or the bf16 h[i * rs + p * cs] when f is NULL. */
typedef struct km_src {
    const float *f;
    const uint16_t *h;
    int64_t rs, cs;
} km_src;

static inline double km_src_at(const km_src *x, int64_t i, int64_t p)
{
    int64_t e = i * x->rs + p * x->cs;
    if (x->f)
        return x->f[e];
    uint32_t u = (uint32_t)x->h[e] << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Row p of B, columns [0, n), as doubles (zero to npad). */
static void km_widen_b_row(const km_src *b, int64_t p, int64_t n, int64_t npad, double *dst)
{
    int64_t j = 0;
    if (b->cs == 1 && b->f) {
        const float *src = b->f + p * b->rs;
        for (; j + 4 <= n; j += 4) { /* 4 at a time: one packed conversion */
            km_v4f f;
            memcpy(&f, src + j, sizeof f);
            km_v4 v = __builtin_convertvector(f, km_v4);
            memcpy(dst + j, &v, sizeof v);
        }
    } else if (b->cs == 1) {
        typedef uint16_t v4u16 __attribute__((vector_size(8)));
        typedef uint32_t v4u32 __attribute__((vector_size(16)));
        const uint16_t *src = b->h + p * b->rs;
        for (; j + 4 <= n; j += 4) { /* bf16 -> float bits -> double, exact */
            v4u16 h;
            memcpy(&h, src + j, sizeof h);
            v4u32 u = __builtin_convertvector(h, v4u32) << 16;
            km_v4f f;
            memcpy(&f, &u, sizeof f);
            km_v4 v = __builtin_convertvector(f, km_v4);
            memcpy(dst + j, &v, sizeof v);
        }
    }
    for (; j < n; j++)
        dst[j] = km_src_at(b, p, j);
    for (; j < npad; j++)
        dst[j] = 0.0;
}

/* Float or bf16 inputs: each KC slice of B is widened to double once
 * (zero-padded to whole panels), so the micro-kernel's loop holds only
 * loads, broadcasts and multiply-adds; converting inside it cost more
 * shuffles than the multiply-adds it fed. bf16 operands are read in place,
 * with the same double values as their float copies would give. */
static void km_gemm_src_wide(int64_t m, int64_t n, int64_t k, const km_src *a, const km_src *b,
                             double *c, int64_t ldc)
{
    int MR, NR;
    km_micro_double micro = km_pick_double(&MR, &NR);
    if (k <= 0 || m <= 0 || n <= 0)
        return;
    int64_t kcmax = k < KM_KC ? k : KM_KC;
    int64_t mblocks = (m + MR - 1) / MR;
    int64_t npad = (n + NR - 1) / NR * NR;
    double *ap = xmalloc((size_t)(mblocks * MR * kcmax) * sizeof *ap);
    double *bd = xmalloc((size_t)(npad * kcmax) * sizeof *bd);
    for (int64_t p0 = 0; p0 < k; p0 += KM_KC) {
        int64_t kc = k - p0 < KM_KC ? k - p0 : KM_KC;
        for (int64_t p = 0; p < kc; p++)
            km_widen_b_row(b, p0 + p, n, npad, bd + p * npad);
        for (int64_t ib = 0; ib < mblocks; ib++) {
            int64_t i0 = ib * MR, mr = m - i0 < MR ? m - i0 : MR;
            if (a->f && a->cs == 1) {
                km_pack_a_float(mr, MR, kc, a->f + i0 * a->rs + p0, a->rs, ap + ib * MR * kc);
            } else { /* A rows [i0, i0 + mr) x [p0, p0 + kc), k-major, zero-padded */
                double *dst = ap + ib * MR * kc;
                for (int64_t i = 0; i < MR; i++)
                    for (int64_t p = 0; p < kc; p++)
                        dst[p * MR + i] = i < mr ? km_src_at(a, i0 + i, p0 + p) : 0.0;
            }
        }
        for (int64_t j0 = 0; j0 < n; j0 += NR) {
            int nr = (int)(n - j0 < NR ? n - j0 : NR);
            for (int64_t ib = 0; ib < mblocks; ib++) {
                int64_t i0 = ib * MR, mr = m - i0 < MR ? m - i0 : MR;
                micro(kc, ap + ib * MR * kc, bd + j0, npad, c + i0 * ldc + j0, ldc, (int)mr, nr);
            }
        }
    }
    free(bd);
    free(ap);
}

static int km_use_avx512(void)
{
    return !km_portable_only && km512_usable();
}

static void km_acc_store(int64_t m, int64_t n, const double *acc, float *c, int64_t ldc);

static void km_gemm_f32_one(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                            const float *b, int64_t ldb, float *c, int64_t ldc)
{
    if (m <= 0 || n <= 0)
        return;
    /* the AVX-512 kernel widens all of A and a k-deep strip of B at once:
     * beyond these bounds (a long gemv, a huge A) the portable kernel's
     * 256-deep slices keep the memory small, with the same bits */
    if (km_use_avx512() && k <= 4096 && m * k <= (int64_t)1 << 21) {
        km512_gemm_f32(m, n, k, a, lda, b, ldb, c, ldc);
        return;
    }
    double *acc = xcalloc((size_t)(m * n), sizeof *acc);
    km_src as = {a, NULL, lda, 1}, bs = {b, NULL, ldb, 1};
    km_gemm_src_wide(m, n, k, &as, &bs, acc, n);
    km_acc_store(m, n, acc, c, ldc);
    free(acc);
}

/* The double sums (m x n, dense) rounded to float into c (ldc). */
static void km_acc_store(int64_t m, int64_t n, const double *acc, float *c, int64_t ldc)
{
    for (int64_t i = 0; i < m; i++) {
        const double *src = acc + i * n;
        float *dst = c + i * ldc;
        int64_t j = 0;
        for (; j + 4 <= n; j += 4) { /* 4 at a time: one packed conversion */
            km_v4 v;
            memcpy(&v, src + j, sizeof v);
            km_v4f f = __builtin_convertvector(v, km_v4f);
            memcpy(dst + j, &f, sizeof f);
        }
        for (; j < n; j++)
            dst[j] = (float)src[j];
    }
}

void kernel_round_bf16_f32(float *x, int64_t n)
{
    /* dtype_round_bf16 without its branch, 8 at a time in GNU C vectors (the
     * compiler does not vectorise the scalar form at -O2): the rounded
     * pattern, or 0xFFFF (as the top half) for NaN */
    typedef uint32_t km_v8u __attribute__((vector_size(32)));
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        km_v8u u;
        memcpy(&u, x + i, sizeof u);
        km_v8u r = (u + 0x7FFFu + ((u >> 16) & 1u)) & 0xFFFF0000u;
        km_v8u nan = (km_v8u)((u & 0x7FFFFFFFu) > 0x7F800000u);
        r = (r & ~nan) | (0xFFFF0000u & nan);
        memcpy(x + i, &r, sizeof r);
    }
    for (; i < n; i++)
        x[i] = dtype_round_bf16(x[i]);
}

/* Threads for one large matmul (kernel_matmul_set_threads). */
static int km_threads = 1;

void kernel_matmul_set_threads(int n)
{
    km_threads = n < 1 ? 1 : n > KM_MAX_THREADS ? KM_MAX_THREADS : n;
}

/* kernel_matmul_share_cores: the pool's count of idle workers, or NULL */
static const volatile int *km_idle;
static int km_workers;

void kernel_matmul_share_cores(const volatile int *idle, int workers)
{
    km_idle = idle;
    km_workers = workers;
}

static int km_threads_now(void)
{
    int t = km_threads;
    if (km_idle && km_workers > 1) {
        int idle = __atomic_load_n(km_idle, __ATOMIC_RELAXED);
        int busy = km_workers - idle;
        int share = busy >= 1 ? km_workers / busy : km_workers;
        if (share > t)
            t = share;
    }
    return t > KM_MAX_THREADS ? KM_MAX_THREADS : t;
}

typedef struct km_part {
    int64_t m, n, k, lda, ldb, ldc;
    const float *a, *b;
    float *c;
    /* bf16 operands (kernel_gemm_bf16): a16[i * lda + p * acs],
     * b16[p * ldb + j * bcs]; NULL for float ones */
    const uint16_t *a16, *b16;
    int64_t acs, bcs;
    int round;
} km_part;

static void km_gemm_bf16_one(int64_t m, int64_t n, int64_t k, const uint16_t *a, int64_t ars,
                             int64_t acs, const uint16_t *b, int64_t brs, int64_t bcs, float *c,
                             int64_t ldc, int round);

static void *km_part_run(void *arg)
{
    const km_part *p = arg;
    if (p->a16)
        km_gemm_bf16_one(p->m, p->n, p->k, p->a16, p->lda, p->acs, p->b16, p->ldb, p->bcs, p->c,
                         p->ldc, p->round);
    else
        km_gemm_f32_one(p->m, p->n, p->k, p->a, p->lda, p->b, p->ldb, p->c, p->ldc);
    return NULL;
}

/* Split by columns: every element is the same sum in k order whichever
 * thread computes it, so the bits do not depend on the threads. The split
 * points are multiples of 16, the widest column block of either kernel, so
 * each part's blocks are the ones a single call would use. whole: the
 * entire product; part j covers its columns (B's advanced by bcs each). */
static void km_split_run(const km_part *whole)
{
    int64_t m = whole->m, n = whole->n, k = whole->k;
    int t = km_threads_now();
    int64_t blocks = (n + 15) / 16;
    if (t > blocks)
        t = (int)blocks;
    /* below about 4M multiply-adds a thread's start costs more than it saves */
    if (t < 2 || m <= 0 || k <= 0 || m * n * k < ((int64_t)1 << 22)) {
        km_part_run((void *)whole);
        return;
    }
    (void)km_use_avx512(); /* its one-time CPU probe, before the threads */
    km_part parts[KM_MAX_THREADS];
    pthread_t tid[KM_MAX_THREADS];
    int started[KM_MAX_THREADS] = {0};
    int64_t j0 = 0;
    for (int i = 0; i < t; i++) {
        int64_t j1 = i == t - 1 ? n : blocks * (i + 1) / t * 16;
        parts[i] = *whole;
        parts[i].n = j1 - j0;
        parts[i].c = whole->c + j0;
        if (whole->b16)
            parts[i].b16 = whole->b16 + j0 * whole->bcs;
        else
            parts[i].b = whole->b + j0;
        j0 = j1;
    }
    for (int i = 1; i < t; i++)
        started[i] = pthread_create(&tid[i], NULL, km_part_run, &parts[i]) == 0;
    km_part_run(&parts[0]);
    for (int i = 1; i < t; i++) {
        if (started[i])
            pthread_join(tid[i], NULL);
        else
            km_part_run(&parts[i]); /* no thread: here */
    }
}

void kernel_gemm_f32(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                     const float *b, int64_t ldb, float *c, int64_t ldc)
{
    km_part whole = {m, n, k, lda, ldb, ldc, a, b, c, NULL, NULL, 1, 1, 0};
    km_split_run(&whole);
}

void kernel_gemm_bf16(int64_t m, int64_t n, int64_t k, const uint16_t *a, int64_t ars,
                      int64_t acs, const uint16_t *b, int64_t brs, int64_t bcs, float *c,
                      int64_t ldc, int round)
{
    km_part whole = {m, n, k, ars, brs, ldc, NULL, NULL, c, a, b, acs, bcs, round};
    km_split_run(&whole);
}

/* ---- the reference-BLAS order (kernel_gemm_f32_seq) --------------------- */

typedef float km_v16f __attribute__((vector_size(64)));

/* c_row[0..n) += x * b_row[0..n): vector ops are elementwise IEEE multiply
 * and add, kept unfused (separate statements for clang, fp-contract=off for
 * GCC), so each element sees exactly the scalar sequence. */
#if defined(__GNUC__) && !defined(__clang__)
#define KM_NOCONTRACT __attribute__((optimize("fp-contract=off")))
#else
#define KM_NOCONTRACT
#endif
/* Portable: blocks of 4 rows x 64 columns (16 running sums per row block)
 * while p runs over k; the edges use the same per-element sequence. */
#define KM_SEQ_ROWS 4
#define KM_SEQ_STEP(acc, x, bv)                                                    \
    do {                                                                           \
        km_v16f pr_ = (x) * (bv); /* own statement: never contracted */            \
        (acc) = (acc) + pr_;                                                       \
    } while (0)

/* The plain loop for rows [i0, i1) x columns [j0, j1). */
KM_NOCONTRACT static void km_seq_edge(int64_t i0, int64_t i1, int64_t j0, int64_t j1,
                                      int64_t k, const float *restrict a, int64_t lda,
                                      const float *restrict b, int64_t ldb,
                                      float *restrict c, int64_t ldc)
{
    for (int64_t i = i0; i < i1; i++)
        for (int64_t j = j0; j < j1; j++) {
            float acc = 0.0f;
            for (int64_t p = 0; p < k; p++) {
                float pr = a[i * lda + p] * b[p * ldb + j];
                acc = acc + pr;
            }
            c[i * ldc + j] = acc;
        }
}

KM_NOCONTRACT static void km_seq_generic(int64_t m, int64_t n, int64_t k, const float *restrict a,
                           int64_t lda, const float *restrict b, int64_t ldb,
                           float *restrict c, int64_t ldc)
{
    int64_t i0 = 0;
    for (; i0 + KM_SEQ_ROWS <= m; i0 += KM_SEQ_ROWS) {
        int64_t j0 = 0;
        for (; j0 + 64 <= n; j0 += 64) {
            km_v16f acc[KM_SEQ_ROWS][4];
            memset(acc, 0, sizeof acc);
            for (int64_t p = 0; p < k; p++) {
                km_v16f bv[4];
                memcpy(bv, b + p * ldb + j0, sizeof bv);
                for (int r = 0; r < KM_SEQ_ROWS; r++) {
                    float x = a[(i0 + r) * lda + p];
                    km_v16f xv = {x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x};
                    KM_SEQ_STEP(acc[r][0], xv, bv[0]);
                    KM_SEQ_STEP(acc[r][1], xv, bv[1]);
                    KM_SEQ_STEP(acc[r][2], xv, bv[2]);
                    KM_SEQ_STEP(acc[r][3], xv, bv[3]);
                }
            }
            for (int r = 0; r < KM_SEQ_ROWS; r++)
                memcpy(c + (i0 + r) * ldc + j0, acc[r], sizeof acc[r]);
        }
        km_seq_edge(i0, i0 + KM_SEQ_ROWS, j0, n, k, a, lda, b, ldb, c, ldc);
    }
    km_seq_edge(i0, m, 0, n, k, a, lda, b, ldb, c, ldc);
}

void kernel_gemm_f32_seq(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                         const float *b, int64_t ldb, float *c, int64_t ldc)
{
    if (m <= 0 || n <= 0)
        return;
    if (km_use_avx512()) {
        km512_gemm_f32_seq(m, n, k, a, lda, b, ldb, c, ldc);
        return;
    }
    km_seq_generic(m, n, k, a, lda, b, ldb, c, ldc);
}

/* ---- 8-bit integers (kernel_gemm_i8) ------------------------------------ */

typedef int16_t km_v16h __attribute__((vector_size(32)));
typedef int32_t km_v16i __attribute__((vector_size(64)));

/* C = A * B in int32, one row of C at a time: row += x * B[p] for each
 * p, 16 lanes at a time (B's int16 widened in registers) */
#define KM_I8_BODY                                                                 \
    {                                                                              \
        for (int64_t i = 0; i < m; i++) {                                          \
            memset(row, 0, (size_t)n * sizeof *row);                               \
            for (int64_t p = 0; p < k; p++) {                                      \
                int32_t x = a[i * k + p];                                          \
                const int16_t *brow = b + p * n;                                   \
                if (!x)                                                            \
                    continue;                                                      \
                int64_t j = 0;                                                     \
                for (; j + 16 <= n; j += 16) {                                     \
                    km_v16i acc;                                                   \
                    km_v16h bh;                                                    \
                    memcpy(&acc, row + j, sizeof acc);                             \
                    memcpy(&bh, brow + j, sizeof bh);                              \
                    acc += x * __builtin_convertvector(bh, km_v16i);               \
                    memcpy(row + j, &acc, sizeof acc);                             \
                }                                                                  \
                for (; j < n; j++)                                                 \
                    row[j] += x * brow[j];                                         \
            }                                                                      \
            for (int64_t j = 0; j < n; j++)                                        \
                c[i * n + j] = row[j];                                             \
        }                                                                          \
    }

static void km_i8_generic(int64_t m, int64_t n, int64_t k, const int16_t *a, const int16_t *b, int32_t *row,
                          int64_t *c)
KM_I8_BODY

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) static void km_i8_avx2(int64_t m, int64_t n, int64_t k, const int16_t *a,
                                                        const int16_t *b, int32_t *row, int64_t *c)
KM_I8_BODY
#endif

void kernel_gemm_i8(int64_t m, int64_t n, int64_t k, const int16_t *a, const int16_t *b, int64_t *c)
{
    if (m <= 0 || n <= 0)
        return;
    if (km_portable_only < 2 && km512_i8_usable()) {
        km512_gemm_i8(m, n, k, a, b, c, km_portable_only == 0); /* level 1 (tests): without VNNI */
        return;
    }
    int32_t *row = xmalloc((size_t)n * sizeof *row);
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (km_portable_only < 3 && __builtin_cpu_supports("avx2"))
        km_i8_avx2(m, n, k, a, b, row, c);
    else
#endif
        km_i8_generic(m, n, k, a, b, row, c);
    free(row);
}

/* ---- torch 1.13's oneDNN bf16 order (kernel_gemm_bf16_onednn) ----------- */

int64_t kernel_onednn_bf16_kblock(int64_t k, int brgemm)
{
    if (brgemm)
        return k <= 512 ? k : k <= 1024 ? 512 : 1024;
    if (k <= 384)
        return k;
    if (k < 1536)
        return (k + 1) / 2;
    return 768;
}

/* Packing buffers reused from call to call (a pass runs thousands of tile
 * matmuls of the same sizes): slot s grows to the size asked and is kept up
 * to KM_SCRATCH_KEEP floats (km_scratch_trim drops a larger one); one set
 * per thread. */
#define KM_SCRATCH_KEEP ((size_t)1 << 20)
static _Thread_local float *km_scratch_buf[3];
static _Thread_local size_t km_scratch_cap[3];

static float *km_scratch(int s, size_t nfloats)
{
    float **buf = km_scratch_buf;
    size_t *cap = km_scratch_cap;
    if (nfloats > cap[s]) {
        free(buf[s]);
        buf[s] = xmalloc(nfloats * sizeof *buf[s]);
        cap[s] = nfloats;
    }
    return buf[s];
}

static void km_scratch_trim(void)
{
    for (int s = 0; s < 3; s++)
        if (km_scratch_cap[s] > KM_SCRATCH_KEEP) {
            free(km_scratch_buf[s]);
            km_scratch_buf[s] = NULL;
            km_scratch_cap[s] = 0;
        }
}

static inline float km_bf16(const uint16_t *p)
{
    uint16_t h;
    memcpy(&h, p, sizeof h);
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The fma chain without AVX-512: rows of C as running sums, k in order,
 * each step crow[j] = fma(x, brow[j], crow[j]) by one of these row steps
 * (the vector fma does the same lane by lane). */
typedef void (*km_fma_step)(float x, const float *brow, float *crow, int64_t n);

static void km_fma_step_scalar(float x, const float *brow, float *crow, int64_t n)
{
    for (int64_t j = 0; j < n; j++)
        crow[j] = fmaf(x, brow[j], crow[j]);
}

#if KM_X86
__attribute__((target("avx2,fma"))) static void km_fma_step_avx2(float x, const float *brow, float *crow,
                                                                  int64_t n)
{
    __m256 xv = _mm256_set1_ps(x);
    int64_t j = 0;
    for (; j + 8 <= n; j += 8)
        _mm256_storeu_ps(crow + j, _mm256_fmadd_ps(xv, _mm256_loadu_ps(brow + j), _mm256_loadu_ps(crow + j)));
    for (; j < n; j++)
        crow[j] = fmaf(x, brow[j], crow[j]);
}
#endif

void kernel_gemm_f32_fma(int64_t m, int64_t n, int64_t k, const float *a, int64_t lda,
                         const float *b, int64_t ldb, float *c, int64_t ldc)
{
    if (m <= 0 || n <= 0)
        return;
    int64_t kk = k > 0 ? k : 0;
    if (km_use_avx512()) {
        km512_gemm_f32_fma(m, n, kk, a, lda, b, ldb, c, ldc);
        return;
    }
    km_fma_step step = km_fma_step_scalar;
#if KM_X86
    if (km_portable_only < 3 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        step = km_fma_step_avx2;
#endif
    for (int64_t i = 0; i < m; i++) {
        float *crow = c + i * ldc;
        memset(crow, 0, (size_t)n * sizeof *crow);
        for (int64_t p = 0; p < kk; p++)
            step(a[i * lda + p], b + p * ldb, crow, n);
    }
}

void kernel_gemm_bf16_fma(int64_t m, int64_t n, int64_t k, const uint16_t *a, int64_t ars,
                          int64_t acs, const uint16_t *b, int64_t brs, int64_t bcs, float *c,
                          int64_t ldc)
{
    if (m <= 0 || n <= 0)
        return;
    int64_t kk = k > 0 ? k : 0;
    float *aw = km_scratch(0, (size_t)(m * kk + 1));
    typedef uint16_t v16h __attribute__((vector_size(32)));
    typedef uint32_t v16u __attribute__((vector_size(64)));
    for (int64_t i = 0; i < m; i++) {
        int64_t p = 0;
        if (acs == 1) /* a contiguous row: 16 at a time (the bits move up) */
            for (; p + 16 <= kk; p += 16) {
                v16h h;
                memcpy(&h, a + i * ars + p, sizeof h);
                v16u u = __builtin_convertvector(h, v16u) << 16;
                memcpy(aw + i * kk + p, &u, sizeof u);
            }
        for (; p < kk; p++)
            aw[i * kk + p] = km_bf16(a + i * ars + p * acs);
    }
    if (km_use_avx512()) {
        const uint16_t *bh = b;
        int64_t ldb = brs;
        if (bcs != 1) { /* a transposed rhs: its rows packed as bf16 first */
            uint16_t *packed = (uint16_t *)(void *)km_scratch(2, (size_t)((kk * n + 1) / 2 + 1));
            /* in 32 x 32 blocks: a column of B (a row of B^T) is read
             * along its bytes, where a row at a time strode across them */
            for (int64_t q0 = 0; q0 < kk; q0 += 32)
                for (int64_t j0 = 0; j0 < n; j0 += 32)
                    for (int64_t j = j0; j < j0 + 32 && j < n; j++)
                        for (int64_t q = q0; q < q0 + 32 && q < kk; q++)
                            packed[q * n + j] = b[q * brs + j * bcs];
            bh = packed;
            ldb = n;
        }
        km512_gemm_bf16_fma(m, n, kk, aw, kk, bh, ldb, c, ldc, km_scratch(1, (size_t)(kk * 32 + 1)));
    } else {
        float *bw = km_scratch(1, (size_t)(kk * n + 1));
        for (int64_t p = 0; p < kk; p++)
            for (int64_t j = 0; j < n; j++)
                bw[p * n + j] = km_bf16(b + p * brs + j * bcs);
        kernel_gemm_f32_fma(m, n, kk, aw, kk, bw, n, c, ldc);
    }
    km_scratch_trim();
}

/* The k sequence of one element: blocks of kb from +0, each walked in pairs
 * (p+1, p) from the block's start as vdpbf16ps adds them (an odd tail pairs
 * with a zero), the block sums added to C in block order. Products of bf16
 * values are exact in float, so each block's running sum is
 * kernel_gemm_f32_seq's over its k permuted pair by pair: A's columns and
 * B's rows are widened into that order once, each block padded to even. */
/* x[i] of a bf16 (f32 = 0) or float (f32 = 1) array */
static inline float km_ld(const void *x, int64_t i, int f32)
{
    return f32 ? ((const float *)x)[i] : km_bf16((const uint16_t *)x + i);
}

static void km_onednn(int64_t m, int64_t n, int64_t k, const void *a, int64_t ars, int64_t acs,
                      const void *b, int64_t brs, int64_t bcs, int f32, float *c, int brgemm)
{
    if (m <= 0 || n <= 0)
        return;
    int64_t kb = kernel_onednn_bf16_kblock(k, brgemm);
    if (kb < 1)
        kb = 1;
    int64_t kp = 0; /* padded total */
    for (int64_t k0 = 0; k0 < k; k0 += kb) {
        int64_t len = k - k0 < kb ? k - k0 : kb;
        kp += len + (len & 1);
    }
    float *ap = km_scratch(0, (size_t)(m * kp + 1));
    float *bp = km_scratch(1, (size_t)(kp * n + 1));
    /* A a row at a time (its rows may be a page apart: walking a column
     * would thrash the cache's sets) */
    for (int64_t i = 0; i < m; i++) {
        float *arow = ap + i * kp;
        for (int64_t k0 = 0, o = 0; k0 < k; k0 += kb) {
            int64_t len = k - k0 < kb ? k - k0 : kb, lp = len + (len & 1);
            for (int64_t p = 0; p < lp; p++) {
                int64_t q = p ^ 1;
                arow[o + p] = q < len ? km_ld(a, i * ars + (k0 + q) * acs, f32) : 0.0f;
            }
            o += lp;
        }
    }
    for (int64_t k0 = 0, o = 0; k0 < k; k0 += kb) {
        int64_t len = k - k0 < kb ? k - k0 : kb, lp = len + (len & 1);
        for (int64_t p = 0; p < lp; p++) {
            int64_t q = p ^ 1; /* the pair's other element comes first */
            float *brow = bp + (o + p) * n;
            if (q >= len) {
                memset(brow, 0, (size_t)n * sizeof *bp);
                continue;
            }
            int64_t brow0 = (k0 + q) * brs;
            if (f32) {
                for (int64_t j = 0; j < n; j++)
                    brow[j] = ((const float *)b)[brow0 + j * bcs];
                continue;
            }
            const uint16_t *bsrc = (const uint16_t *)b + brow0;
            if (bcs == 1 && k0 + q + 8 < k) { /* rows far apart: prefetch ahead */
                const char *pf = (const char *)((const uint16_t *)b + (k0 + q + 8) * brs);
                for (int64_t off = 0; off < n * 2; off += 64)
                    __builtin_prefetch(pf + off);
            }
            if (bcs == 1) {
                int64_t j = 0;
                typedef uint16_t v16u16 __attribute__((vector_size(32)));
                typedef uint32_t v16u32 __attribute__((vector_size(64)));
                for (; j + 16 <= n; j += 16) {
                    v16u16 h;
                    memcpy(&h, bsrc + j, sizeof h);
                    v16u32 u = __builtin_convertvector(h, v16u32) << 16;
                    memcpy(brow + j, &u, sizeof u);
                }
                for (; j < n; j++)
                    brow[j] = km_bf16(bsrc + j);
            } else {
                for (int64_t j = 0; j < n; j++)
                    brow[j] = km_bf16(bsrc + j * bcs);
            }
        }
        o += lp;
    }
    if ((k + kb - 1) / kb <= 1) {
        kernel_gemm_f32_seq(m, n, kp, ap, kp, bp, n, c, n);
    } else {
        float *part = km_scratch(2, (size_t)(m * n));
        for (int64_t k0 = 0, o = 0; k0 < k; k0 += kb) {
            int64_t len = k - k0 < kb ? k - k0 : kb, lp = len + (len & 1);
            float *dst = k0 == 0 ? c : part;
            kernel_gemm_f32_seq(m, n, lp, ap + o, kp, bp + o * n, n, dst, n);
            if (k0 != 0)
                for (int64_t e = 0; e < m * n; e++)
                    c[e] = c[e] + part[e];
            o += lp;
        }
    }
    km_scratch_trim();
}

void kernel_gemm_bf16_onednn(int64_t m, int64_t n, int64_t k, const uint16_t *a, int64_t ars,
                             int64_t acs, const uint16_t *b, int64_t brs, int64_t bcs, float *c,
                             int brgemm)
{
    km_onednn(m, n, k, a, ars, acs, b, brs, bcs, 0, c, brgemm);
}

void kernel_gemm_bf16_onednn_f32(int64_t m, int64_t n, int64_t k, const float *a,
                                 const float *b, float *c, int brgemm)
{
    km_onednn(m, n, k, a, k, 1, b, n, 1, 1, c, brgemm);
}

/* ---- bf16 operands read in place (kernel_gemm_bf16) --------------------- */

static void km_gemm_bf16_one(int64_t m, int64_t n, int64_t k, const uint16_t *a, int64_t ars,
                             int64_t acs, const uint16_t *b, int64_t brs, int64_t bcs, float *c,
                             int64_t ldc, int round)
{
    if (m <= 0 || n <= 0)
        return;
    /* the bounds of km_gemm_f32_one's AVX-512 kernel */
    if (km_use_avx512() && k <= 4096 && m * k <= (int64_t)1 << 21) {
        km512_gemm_bf16(m, n, k, a, ars, acs, b, brs, bcs, c, ldc, round);
        return;
    }
    /* elsewhere: the portable kernel, widening the bf16 operands from
     * where they are (the same double values as float copies), then the
     * rounding: the bits of km_gemm_f32_one on the float copies */
    double *acc = xcalloc((size_t)(m * n), sizeof *acc);
    km_src as = {NULL, a, ars, acs}, bs = {NULL, b, brs, bcs};
    km_gemm_src_wide(m, n, k, &as, &bs, acc, n);
    km_acc_store(m, n, acc, c, ldc);
    free(acc);
    if (round)
        for (int64_t i = 0; i < m; i++)
            kernel_round_bf16_f32(c + i * ldc, n);
}

/* The matmul family (semantics.md §3.6). torch.matmul semantics: both
 * operands of one dtype, result in that dtype (each element: the exact
 * double dot product rounded to f32, then to bf16/fp16), 1-D promotion and
 * batch broadcasting; tile forms widen with .float() and add acc/bias with
 * a second torch op. */
#include "kernels/kernel_matmul.h"
#include "exec/op_util.h"
#include "exec/semantics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* A header-only view of t with different shape/strides (no reference: used
 * only for reading while t is alive). */
static tensor as_view(const tensor *t, int nd, const int64_t *shape, const int64_t *strides)
{
    tensor v = *t;
    v.ndim = nd;
    for (int d = 0; d < nd; d++) {
        v.shape[d] = shape[d];
        v.strides[d] = strides[d];
    }
    return v;
}

/* torch 1.13's small bf16 matmuls (m*k*n <= 16^3, below its oneDNN
 * threshold) run cpublas's scalar loops, chosen by the operands' layouts
 * (addmm_impl_cpu_ swaps to column-major C^T = B^T A^T):
 *   - B column-major and A row-major: gemm_transa_, a float dot product in
 *     four interleaved partial sums (ilp 4), rounded once to bf16;
 *   - any other layout: c += a*b in bf16 arithmetic, the product and every
 *     partial sum rounded to bf16, k in order.
 * Checked bit for bit against Debian's torch 1.13 (all four layouts). */
static int mm_rowmajor(int64_t rs, int64_t cs, int64_t cols)
{
    return cs == 1 && rs >= (cols > 1 ? cols : 1);
}

static int mm_colmajor(int64_t rs, int64_t cs, int64_t rows)
{
    return rs == 1 && cs >= (rows > 1 ? rows : 1);
}

/* A 2-D operand oneDNN's brgemm matmul takes as it is: dense row-major or
 * dense column-major (a transposed view). */
static int mm_dense(const tensor *t)
{
    int64_t r = t->shape[0], c = t->shape[1], rs = t->strides[0], cs = t->strides[1];
    return (cs == 1 && (rs == c || r == 1)) || (rs == 1 && (cs == r || c == 1));
}

static void mm_bf16_small(int64_t m, int64_t n, int64_t k, const float *A, const float *B, float *C,
                          int ilp)
{
    for (int64_t i = 0; i < m; i++)
        for (int64_t j = 0; j < n; j++) {
            if (ilp) {
                float part[4] = {0, 0, 0, 0};
                int64_t l = 0;
                for (; l + 4 <= k; l += 4)
                    for (int q = 0; q < 4; q++) {
                        float pr = A[i * k + l + q] * B[(l + q) * n + j];
                        part[q] = part[q] + pr;
                    }
                for (; l < k; l++) {
                    float pr = A[i * k + l] * B[l * n + j];
                    part[0] = part[0] + pr;
                }
                C[i * n + j] = dtype_round_bf16(((part[0] + part[1]) + part[2]) + part[3]);
            } else {
                float acc = 0.0f;
                for (int64_t l = 0; l < k; l++) {
                    float pr = dtype_round_bf16(A[i * k + l] * B[l * n + j]);
                    acc = dtype_round_bf16(acc + pr);
                }
                C[i * n + j] = acc;
            }
        }
}

/* torch.matmul(L, R) */
static ptodb_status matmul_core(exec_ctx *ctx, const op_args *a, const tensor *L,
                                const tensor *R, int f32_out, tensor **out)
{
    const char *name = kernel_op_name(a);
    if (L->ndim == 0 || R->ndim == 0)
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: RuntimeError: both arguments to matmul need to be at least 1D, but "
                         "they are %dD and %dD",
                         name, L->ndim, R->ndim);
    if (L->dtype != R->dtype)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: RuntimeError: expected scalar type %s but found %s", name,
                         kernel_torch_type_name(L->dtype), kernel_torch_type_name(R->dtype));
    dtype_id dt = L->dtype;
    /* semantics.md §1.6 lists fp16 matmul as a torch 1.13 hole, but the
     * fixtures' Debian torch 1.13.0a0 runs it (mixed_kernel_updown): only
     * bool is refused */
    if (dt == DTYPE_BOOL)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: RuntimeError: \"addmm_impl_cpu_\" not implemented for '%s'", name,
                         kernel_torch_type_name(dt));
    /* matrices: a 1-D lhs is [1, k], a 1-D rhs is [k, 1] */
    int64_t ls[TENSOR_MAX_DIMS], lst[TENSOR_MAX_DIMS], rs[TENSOR_MAX_DIMS], rst[TENSOR_MAX_DIMS];
    int lnd = L->ndim, rnd = R->ndim;
    if (lnd == 1) {
        ls[0] = 1; lst[0] = 0; ls[1] = L->shape[0]; lst[1] = L->strides[0];
        lnd = 2;
    } else {
        memcpy(ls, L->shape, sizeof ls);
        memcpy(lst, L->strides, sizeof lst);
    }
    if (rnd == 1) {
        rs[0] = R->shape[0]; rst[0] = R->strides[0]; rs[1] = 1; rst[1] = 0;
        rnd = 2;
    } else {
        memcpy(rs, R->shape, sizeof rs);
        memcpy(rst, R->strides, sizeof rst);
    }
    int64_t m = ls[lnd - 2], k = ls[lnd - 1], k2 = rs[rnd - 2], n = rs[rnd - 1];
    if (k != k2)
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: RuntimeError: mat1 and mat2 shapes cannot be multiplied (%lldx%lld "
                         "and %lldx%lld)",
                         name, (long long)m, (long long)k, (long long)k2, (long long)n);
    /* batch dims broadcast */
    int bnd;
    int64_t bshape[TENSOR_MAX_DIMS];
    int nds[2] = {lnd - 2, rnd - 2};
    const int64_t *shp[2] = {ls, rs};
    ptodb_status st = kernel_broadcast(ctx, 2, nds, shp, &bnd, bshape);
    if (st != PTODB_OK)
        return st;
    int64_t nb = tensor_shape_numel(bnd, bshape);
    /* result shape: batch + [m] + [n], the 1-D dims squeezed */
    int64_t oshape[TENSOR_MAX_DIMS];
    int ond = 0;
    for (int d = 0; d < bnd; d++)
        oshape[ond++] = bshape[d];
    if (L->ndim != 1)
        oshape[ond++] = m;
    if (R->ndim != 1)
        oshape[ond++] = n;
    tensor *r;
    /* f32_out: the caller wants .float() of the result; for bf16 that is
     * the bf16-rounded values stored as float32 (exact), so the bf16 tensor
     * and the cast are skipped */
    int widen = f32_out && dt == DTYPE_BF16;
    /* the cube (device semantics): a BF16 or FP16 matmul with an FP32
     * result accumulates in FP32 in L0C; the products are never rounded to
     * the operands' dtype (semantics.h, cube-accumulation) */
    int cube_f32 = f32_out && exec_device(ctx) && (dt == DTYPE_BF16 || dt == DTYPE_FP16);
    /* ... and an FP32 matmul is the same chain with fma (TMatmul.hpp:61-74:
     * std::fma(a, b, sum) for a float accumulator), where an FP32 product is
     * not exact: tests/data/isa/matmul.txt */
    int cube_fma = f32_out && exec_device(ctx) && dt == DTYPE_FP32;
    if (cube_fma)
        cube_f32 = 1;
    if (cube_f32)
        widen = 1;
    /* the cube's only integer form: INT8 operands, an INT32 accumulator
     * (TMatmul.hpp:28; semantics.h, int-matmul): the sum never wraps in
     * INT8 as torch's int8 matmul does */
    int cube_i32 = exec_device(ctx) && dt == DTYPE_INT8;
    st = kernel_zeros(ctx, cube_i32 ? DTYPE_INT32 : widen ? DTYPE_FP32 : dt, ond, oshape, &r);
    if (st != PTODB_OK)
        return st;
    if (cube_i32)
        exec_note_ref_differs(ctx, EXEC_SEMDIFF_INT_MATMUL,
                              "the cube accumulates an INT8 matmul in INT32 (REF would compute: torch's int8 "
                              "matmul, every sum wrapped to INT8)");
    int64_t fl[TENSOR_MAX_DIMS + 2], fr[TENSOR_MAX_DIMS + 2], nmk, nkn;
    if (bnd + 2 > TENSOR_MAX_DIMS || __builtin_mul_overflow(nb, m, &nmk) ||
        __builtin_mul_overflow(nmk, k, &nmk) || __builtin_mul_overflow(nb, k, &nkn) ||
        __builtin_mul_overflow(nkn, n, &nkn) || nmk > KERNEL_MAX_ELEMS || nkn > KERNEL_MAX_ELEMS) {
        tensor_unref(r);
        return exec_fail(ctx, PTODB_ERR_UNSUPPORTED, "%s: operands too large", name);
    }
    memcpy(fl, bshape, (size_t)bnd * sizeof *fl);
    memcpy(fr, bshape, (size_t)bnd * sizeof *fr);
    fl[bnd] = m; fl[bnd + 1] = k;
    fr[bnd] = k; fr[bnd + 1] = n;
    tensor lv = as_view(L, lnd, ls, lst), rv = as_view(R, rnd, rs, rst);
    int64_t mn = m * n;
    if (mn == 0 || nb == 0) {
        *out = r;
        return PTODB_OK;
    }
    int t13 = exec_profile(ctx) == EXEC_PROFILE_T13;
    if (cube_f32) {
        if (!cube_fma)
            exec_note_ref_differs(ctx, EXEC_SEMDIFF_CUBE_FP32,
                              "the cube accumulates a BF16/FP16 matmul in FP32 for its FP32 result (REF would "
                              "compute: the product rounded to the operands' dtype, then widened)");
        else
            exec_note_ref_differs(ctx, EXEC_SEMDIFF_CUBE_FP32,
                                  "the cube sums an FP32 matmul as an fma chain from 0 in k order (REF would "
                                  "compute: torch's sum of the products, in another order)");
        /* pto-isa's TMatmul (include/pto/cpu/TMatmul.hpp:61-74): per
         * element an FP32 running sum from 0 in k order, sum = fma(a, b,
         * sum), for FP32 operands and for BF16/FP16 ones widened to FP32
         * (kernel_gemm_f32_fma; a BF16 or FP16 product is exact in FP32
         * unless it overflows or falls below FP32's normal range, so this is
         * also the multiply-then-add there) */
        if (dt == DTYPE_BF16 && nb == 1) {
            /* one matrix: the bf16 operands read in place (the same bits,
             * no float copy of the rhs) */
            const uint16_t *ad = (const uint16_t *)L->storage->data + L->offset;
            const uint16_t *bd = (const uint16_t *)R->storage->data + R->offset;
            kernel_gemm_bf16_fma(m, n, k, ad, lst[lnd - 2], lst[lnd - 1], bd, rst[rnd - 2], rst[rnd - 1],
                                 tensor_data(r), n);
            *out = r;
            return PTODB_OK;
        }
        float *A = xmalloc((size_t)(nb * m * k + 1) * sizeof *A);
        float *B = xmalloc((size_t)(nb * k * n + 1) * sizeof *B);
        kernel_gather_f32(&lv, bnd + 2, fl, A);
        kernel_gather_f32(&rv, bnd + 2, fr, B);
        for (int64_t b = 0; b < nb; b++)
            kernel_gemm_f32_fma(m, n, k, A + b * m * k, k, B + b * k * n, n, (float *)tensor_data(r) + b * mn, n);
        free(A);
        free(B);
    } else if (dtype_is_float(dt) && dt != DTYPE_FP64) {
        /* fp32/bf16/fp16 values are floats. t2: the float kernel sums their
         * exact products in double (as the double kernel would) and rounds
         * once to f32. t13: Debian's torch 1.13 (the fixtures' REF) calls
         * netlib's sgemm for fp32, oneDNN for larger bf16 and its own loop
         * for fp16: a float running sum in k order, rounded once to the
         * dtype (bit for bit on the fixtures' fp32 and fp16 matmuls); small
         * bf16: see above. The store then rounds to bf16/fp16. */
        /* torch 1.13's bf16 paths (docs/numerics-torch113.md): 2-D mm and a
         * batched lhs with a 2-D rhs (folded into one mm of nb*m rows):
         * cpublas loops up to m*k*n = 16^3, else oneDNN (brgemm when both
         * operands are dense, its jit gemm otherwise); bmm: oneDNN's brgemm
         * above batch*m*k*n = 16^3 (its checksize), else per matrix a bf16
         * loop (baddbmm's below k*m*n = 400, cpublas's above) */
        int bf = t13 && dt == DTYPE_BF16 && L->ndim >= 2 && R->ndim >= 2;
        /* a 2-D lhs with a batched rhs: torch folds the rhs instead,
         * C^T = R^T L^T as one mm; each element sees the same products in
         * the same k order, with L^T as the mm's rhs. Small, that mm is a
         * float running sum in k order (measured: neither of the loops
         * above) */
        int lhs2d = bf && L->ndim == 2 && R->ndim > 2;
        int fold = bf && R->ndim == 2, bmm = bf && !fold && !lhs2d;
        int small = bf && nb * m * k * n <= 16 * 16 * 16;
        int onednn = bf && !small, brgemm = 1;
        float *Cf = xmalloc((size_t)(nb * mn) * sizeof *Cf);
        if (onednn && L->ndim == 2 && R->ndim == 2) {
            /* read straight from the operands' storage */
            const uint16_t *ad = (const uint16_t *)L->storage->data + L->offset;
            const uint16_t *bd = (const uint16_t *)R->storage->data + R->offset;
            kernel_gemm_bf16_onednn(m, n, k, ad, lst[0], lst[1], bd, rst[0], rst[1], Cf,
                                    mm_dense(L) && mm_dense(R));
            if (widen)
                kernel_round_bf16_f32(Cf, mn);
            kernel_store_f32(r, Cf, mn);
            free(Cf);
            *out = r;
            return PTODB_OK;
        }
        if (dt == DTYPE_BF16 && !t13 && nb == 1) {
            /* the double-sum kernel reads the bf16 operands in place and
             * writes a widened result straight into r (same bits as the
             * float copies below) */
            const uint16_t *ad = (const uint16_t *)L->storage->data + L->offset;
            const uint16_t *bd = (const uint16_t *)R->storage->data + R->offset;
            float *dst = widen ? tensor_data(r) : Cf;
            kernel_gemm_bf16(m, n, k, ad, lst[lnd - 2], lst[lnd - 1], bd, rst[rnd - 2],
                             rst[rnd - 1], dst, n, widen);
            if (!widen)
                kernel_store_f32(r, Cf, mn);
            free(Cf);
            *out = r;
            return PTODB_OK;
        }
        if (onednn && fold)
            brgemm = mm_dense(R); /* the folded lhs is dense (a copy if it was not) */
        if (onednn && lhs2d)
            brgemm = mm_dense(L); /* the folded R^T is dense, L^T is the rhs */
        float *A = xmalloc((size_t)(nb * m * k + 1) * sizeof *A);
        float *B = xmalloc((size_t)(nb * k * n + 1) * sizeof *B);
        kernel_gather_f32(&lv, bnd + 2, fl, A);
        kernel_gather_f32(&rv, bnd + 2, fr, B);
        /* a folded lhs is row-major */
        int lrow = fold && L->ndim > 2, ilp = 0;
        if (small && !lhs2d && !(bmm && k * m * n < 400))
            ilp = !mm_rowmajor(rst[rnd - 2], rst[rnd - 1], n) &&
                  mm_colmajor(rst[rnd - 2], rst[rnd - 1], k) &&
                  !(!lrow && !mm_rowmajor(lst[lnd - 2], lst[lnd - 1], k) &&
                    mm_colmajor(lst[lnd - 2], lst[lnd - 1], m));
        for (int64_t b = 0; b < nb; b++) {
            const float *Ab = A + b * m * k, *Bb = B + b * k * n;
            if (onednn)
                kernel_gemm_bf16_onednn_f32(m, n, k, Ab, Bb, Cf + b * mn, brgemm);
            else if (small && !lhs2d)
                mm_bf16_small(m, n, k, Ab, Bb, Cf + b * mn, ilp);
            else if (t13)
                kernel_gemm_f32_seq(m, n, k, Ab, k, Bb, n, Cf + b * mn, n);
            else
                kernel_gemm_f32(m, n, k, Ab, k, Bb, n, Cf + b * mn, n);
        }
        if (widen)
            kernel_round_bf16_f32(Cf, nb * mn);
        kernel_store_f32(r, Cf, nb * mn);
        free(A);
        free(B);
        free(Cf);
    } else if (dtype_is_float(dt)) {
        double *A = xmalloc((size_t)(nb * m * k + 1) * sizeof *A);
        double *B = xmalloc((size_t)(nb * k * n + 1) * sizeof *B);
        double *C = xmalloc((size_t)(nb * mn) * sizeof *C);
        kernel_gather_f64(&lv, bnd + 2, fl, A);
        kernel_gather_f64(&rv, bnd + 2, fr, B);
        for (int64_t b = 0; b < nb; b++)
            kernel_gemm_f64(m, n, k, A + b * m * k, k, B + b * k * n, n, C + b * mn, n);
        kernel_store_f64(r, C, nb * mn); /* double -> f32 -> bf16/fp16 */
        free(A);
        free(B);
        free(C);
    } else {
        /* integer matmul in the input dtype (int8 wraps) */
        int64_t *C = xcalloc((size_t)(nb * mn), sizeof *C);
        int eight = (L->dtype == DTYPE_INT8 || L->dtype == DTYPE_UINT8) &&
                    (R->dtype == DTYPE_INT8 || R->dtype == DTYPE_UINT8);
        if ((dt == DTYPE_INT8 || dt == DTYPE_UINT8) && eight && k <= ((int64_t)1 << 15)) {
            /* 8-bit operands: every product is within 2^16 and k of them
             * within 2^31, so the sums in int32 are exact, the same int64
             * values as below */
            int16_t *A16 = xmalloc((size_t)(nb * m * k + 1) * sizeof *A16);
            int16_t *B16 = xmalloc((size_t)(nb * k * n + 1) * sizeof *B16);
            kernel_gather_i16(&lv, bnd + 2, fl, A16);
            kernel_gather_i16(&rv, bnd + 2, fr, B16);
            for (int64_t b = 0; b < nb; b++)
                kernel_gemm_i8(m, n, k, A16 + b * m * k, B16 + b * k * n, C + b * mn);
            kernel_store_i64(r, C, nb * mn);
            free(A16);
            free(B16);
            free(C);
            *out = r;
            return PTODB_OK;
        }
        int64_t *A = xmalloc((size_t)(nb * m * k + 1) * sizeof *A);
        int64_t *B = xmalloc((size_t)(nb * k * n + 1) * sizeof *B);
        kernel_gather_i64(&lv, bnd + 2, fl, A);
        kernel_gather_i64(&rv, bnd + 2, fr, B);
        for (int64_t b = 0; b < nb; b++)
            for (int64_t i = 0; i < m; i++)
                for (int64_t p = 0; p < k; p++) {
                    uint64_t x = (uint64_t)A[b * m * k + i * k + p];
                    const int64_t *brow = B + b * k * n + p * n;
                    int64_t *crow = C + b * mn + i * n;
                    for (int64_t j = 0; j < n; j++)
                        crow[j] = (int64_t)((uint64_t)crow[j] + x * (uint64_t)brow[j]);
                }
        kernel_store_i64(r, C, nb * mn);
        free(A);
        free(B);
        free(C);
    }
    *out = r;
    return PTODB_OK;
}

static ptodb_status transposed(exec_ctx *ctx, const op_args *a, tensor *t, int flip,
                               tensor **out)
{
    if (!flip) {
        *out = tensor_ref(t);
        return PTODB_OK;
    }
    if (t->ndim < 2)
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: RuntimeError: tensor.mT is only supported on matrices or batches of "
                         "matrices. Got %d-D tensor.",
                         kernel_op_name(a), t->ndim);
    ptodb_status vs;
    *out = tensor_transpose(t, t->ndim - 2, t->ndim - 1, &vs);
    if (!*out)
        return exec_fail(ctx, vs, "%s: internal: transpose", kernel_op_name(a));
    return PTODB_OK;
}

static int kw_true(const op_args *a, exec_kw kw)
{
    const value *v = op_kw(a, kw);
    return v && value_truthy(v) > 0;
}

/* .to(dt) on a fresh result: the same tensor when dt matches. */
static ptodb_status to_dtype(exec_ctx *ctx, const op_args *a, tensor **t, dtype_id dt)
{
    if ((*t)->dtype == dt)
        return PTODB_OK;
    tensor *c = tensor_cast(*t, dt);
    if (!c)
        return exec_fail(ctx, PTODB_ERR_NOMEM, "%s: cannot allocate", kernel_op_name(a));
    tensor_unref(*t);
    *t = c;
    return PTODB_OK;
}

/* tensor.matmul(lhs, rhs) and tensor.matmul_acc(acc, lhs, rhs[, init]) */
static ptodb_status op_tensor_matmul(exec_ctx *ctx, const op_args *a, value *out)
{
    int acc = a->op == IR_OP_TENSOR_MATMUL_ACC;
    tensor *x, *y, *c = NULL, *L = NULL, *R = NULL, *mm = NULL;
    ptodb_status st = kernel_tensor_arg(ctx, a, acc ? 1 : 0, &x);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, acc ? 2 : 1, &y);
    if (st == PTODB_OK && acc)
        st = kernel_tensor_arg(ctx, a, 0, &c);
    if (st != PTODB_OK)
        return st;
    dtype_id odt;
    int has_odt;
    st = kernel_dtype_kw(ctx, a, EXEC_KW_OUT_DTYPE, DTYPE_FP32, &odt, &has_odt);
    if (st == PTODB_OK)
        st = transposed(ctx, a, x, kw_true(a, EXEC_KW_A_TRANS), &L);
    if (st == PTODB_OK)
        st = transposed(ctx, a, y, kw_true(a, EXEC_KW_B_TRANS), &R);
    if (st == PTODB_OK)
        st = matmul_core(ctx, a, L, R,
                         (!acc && has_odt && odt == DTYPE_FP32) ||
                             (acc && exec_device(ctx) && c->dtype == DTYPE_FP32) ||
                             /* an FP32 tensor.matmul runs on the cube too
                              * (ConvertTensorToTileOps makes it a
                              * tile.matmul): its fma chain, the same bits
                              * before and after the lowering */
                             (!acc && exec_device(ctx) && x->dtype == DTYPE_FP32 && !has_odt),
                         &mm);
    tensor_unref(L);
    tensor_unref(R);
    if (st != PTODB_OK)
        return st;
    if (acc) {
        tensor *sum = NULL;
        st = kernel_binary_t(ctx, a, KOP_ADD, c, mm, &sum);
        tensor_unref(mm);
        if (st != PTODB_OK)
            return st;
        mm = sum;
    }
    if (has_odt)
        st = to_dtype(ctx, a, &mm, odt);
    if (st != PTODB_OK) {
        tensor_unref(mm);
        return st;
    }
    *out = value_tensor(mm);
    return PTODB_OK;
}

/* A 2-D tile with a valid region smaller than its shape, as the cube reads
 * it: TMATMUL takes M, K and N from the operands' valid shapes (pto-isa
 * cd4a3d3f include/pto/cpu/TMatmul.hpp:51-56), so the elements outside are
 * zeros here (a zero product leaves the FP32 sum, which starts at +0, as
 * it is). NULL when the tile has no such region. */
static tensor *valid_operand(const tensor *x)
{
    if (x->ndim != 2 || x->valid_ndim != 2 ||
        ((x->valid[0] < 0 || x->valid[0] >= x->shape[0]) && (x->valid[1] < 0 || x->valid[1] >= x->shape[1])))
        return NULL;
    tensor *c = tensor_clone(x);
    if (!c)
        return NULL;
    for (int64_t i = 0; i < c->shape[0]; i++)
        for (int64_t j = 0; j < c->shape[1]; j++)
            if ((x->valid[0] >= 0 && i >= x->valid[0]) || (x->valid[1] >= 0 && j >= x->valid[1])) {
                int64_t idx[2] = {i, j};
                tensor_set(c, idx, 0.0);
            }
    return c;
}

/* tile forms: matmul(lhs, rhs).float(), plus acc (before) or bias (after) */
static ptodb_status op_tile_matmul(exec_ctx *ctx, const op_args *a, value *out)
{
    int acc = a->op == IR_OP_TILE_MATMUL_ACC || a->op == IR_OP_TILE_BATCH_MATMUL_ACC ||
              a->op == IR_OP_TILE_GEMV_ACC;
    int bias = a->op == IR_OP_TILE_MATMUL_BIAS || a->op == IR_OP_TILE_GEMV_BIAS;
    tensor *x, *y, *extra = NULL, *mm = NULL;
    ptodb_status st = kernel_tensor_arg(ctx, a, acc ? 1 : 0, &x);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, acc ? 2 : 1, &y);
    if (st == PTODB_OK && (acc || bias))
        st = kernel_tensor_arg(ctx, a, acc ? 0 : 2, &extra);
    /* matmul_acc's init_cond (4th operand): where it holds the accumulator
     * is overwritten with lhs @ rhs, not accumulated into (pypto src/ir/op/
     * tile_ops/matmul.cpp:427-436, the split-K `k == 0` step) */
    if (st == PTODB_OK && exec_device(ctx) && a->op == IR_OP_TILE_MATMUL_ACC && a->npos >= 4 &&
        value_truthy(op_arg(a, 3)) > 0)
        extra = NULL;
    tensor *xv = NULL, *yv = NULL;
    if (st == PTODB_OK && exec_device(ctx)) {
        if ((xv = valid_operand(x)))
            x = xv;
        if ((yv = valid_operand(y)))
            y = yv;
    }
    int int8_operands = st == PTODB_OK && x->dtype == DTYPE_INT8;
    if (st == PTODB_OK)
        st = matmul_core(ctx, a, x, y, 1, &mm);
    /* (x may be xv: read before it goes) */
    if (xv)
        tensor_unref(xv);
    if (yv)
        tensor_unref(yv);
    /* REF's .float(); the cube's INT8 matmul stays in its INT32 accumulator */
    if (st == PTODB_OK && !(exec_device(ctx) && mm->dtype == DTYPE_INT32 && int8_operands))
        st = to_dtype(ctx, a, &mm, DTYPE_FP32);
    if (st != PTODB_OK) {
        tensor_unref(mm);
        return st;
    }
    if (extra) {
        tensor *sum = NULL;
        st = acc ? kernel_binary_t(ctx, a, KOP_ADD, extra, mm, &sum)
                 : kernel_binary_t(ctx, a, KOP_ADD, mm, extra, &sum);
        tensor_unref(mm);
        if (st != PTODB_OK)
            return st;
        mm = sum;
    }
    /* the accumulator is the result's buffer (set_output_reuses_input(0):
     * pypto src/ir/op/tile_ops/matmul.cpp:427-442): under device semantics
     * the result is written into it in place, so an accumulator that is a
     * view (a column window of a larger L0C tile) updates its parent */
    if (acc && exec_device(ctx)) {
        tensor *dst;
        if (kernel_tensor_arg(ctx, a, 0, &dst) == PTODB_OK && dst->dtype == mm->dtype && dst->ndim == mm->ndim &&
            memcmp(dst->shape, mm->shape, (size_t)mm->ndim * sizeof *mm->shape) == 0 && dst->refcount > 1 &&
            tensor_copy_into(dst, mm) == PTODB_OK) {
            exec_note_write(ctx, dst);
            tensor_unref(mm);
            *out = value_copy(op_arg(a, 0));
            return PTODB_OK;
        }
    }
    *out = value_tensor(mm);
    return PTODB_OK;
}

void exec_ops_register_matmul(op_fn *table)
{
    table[IR_OP_TENSOR_MATMUL] = op_tensor_matmul;
    table[IR_OP_TENSOR_MATMUL_ACC] = op_tensor_matmul;
    static const int tile_ops[] = {
        IR_OP_TILE_MATMUL, IR_OP_TILE_MATMUL_ACC, IR_OP_TILE_MATMUL_BIAS,
        IR_OP_TILE_BATCH_MATMUL, IR_OP_TILE_BATCH_MATMUL_ACC,
        IR_OP_TILE_GEMV, IR_OP_TILE_GEMV_ACC, IR_OP_TILE_GEMV_BIAS,
    };
    for (size_t k = 0; k < sizeof tile_ops / sizeof tile_ops[0]; k++)
        table[tile_ops[k]] = op_tile_matmul;
}

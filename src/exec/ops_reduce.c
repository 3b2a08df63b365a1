/* Row/column reductions (semantics.md §3.5): sum/amax/amin/prod over dim -1
 * (row_*) or -2 (col_*), keepdim, over the whole physical extent (padding
 * included). Float sums and products accumulate in double and round once
 * (class A, §1.7); integer and bool sums/products give int64. */
#include "exec/op_util.h"
#include "exec/semantics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

typedef enum { RED_SUM, RED_MAX, RED_MIN, RED_PROD } red_kind;

/* ---- torch 1.13's float sum order (SumKernel.cpp cascade_sum) ------------
 *
 * Under the t13 profile an fp32 sum reproduces the fixtures' REF (Debian
 * torch 1.13, AVX2 kernels: 8-float vectors) bit for bit: float
 * accumulators in the order of its cascade. The vector paths are lane-wise
 * scalar sums, so each output element is computed on its own from the
 * sequence of its inputs x(0..n). */

typedef struct tsum_seq {
    const unsigned char *data;
    dtype_id dt;
    int64_t base, stride; /* x(i) = element base + i * stride */
} tsum_seq;

static float tsum_x(const tsum_seq *q, int64_t i)
{
    return (float)dtype_load(q->dt, q->data, (size_t)(q->base + i * q->stride));
}

static int64_t tsum_ceil_log2(int64_t x)
{
    if (x <= 2)
        return 1;
    int64_t r = 0;
    while (((int64_t)1 << r) < x)
        r++;
    return r;
}

/* multi_row_sum for one accumulator: x(first + i * step), i < size, with
 * torch's four cascade levels. */
static float tsum_multi(const tsum_seq *q, int64_t first, int64_t step, int64_t size)
{
    int64_t lp = tsum_ceil_log2(size) / 4;
    if (lp < 4)
        lp = 4;
    int64_t lstep = (int64_t)1 << lp, lmask = lstep - 1;
    float acc[4] = {0, 0, 0, 0};
    int64_t i = 0;
    while (i + lstep <= size) {
        for (int64_t j = 0; j < lstep; j++, i++)
            acc[0] += tsum_x(q, first + i * step);
        for (int j = 1; j < 4; j++) {
            acc[j] += acc[j - 1];
            acc[j - 1] = 0;
            if ((i & (lmask << (j * lp))) != 0)
                break;
        }
    }
    for (; i < size; i++)
        acc[0] += tsum_x(q, first + i * step);
    for (int j = 1; j < 4; j++)
        acc[0] += acc[j];
    return acc[0];
}

/* row_sum: four interleaved partial sums (ilp 4), then the leftovers. */
static float tsum_row(const tsum_seq *q, int64_t first, int64_t step, int64_t size)
{
    int64_t size_ilp = size / 4;
    float part[4];
    for (int k = 0; k < 4; k++)
        part[k] = tsum_multi(q, first + k * step, 4 * step, size_ilp);
    for (int64_t i = size_ilp * 4; i < size; i++)
        part[0] += tsum_x(q, first + i * step);
    for (int k = 1; k < 4; k++)
        part[0] += part[k];
    return part[0];
}

#define TSUM_VEC 8 /* floats per AVX2 vector */

/* vectorized_inner_sum for one row: lane-wise row_sum of the 8-float
 * vectors, the scalar tail, then the lanes in order. */
static float tsum_inner(const tsum_seq *q, int64_t size)
{
    int64_t nvec = size / TSUM_VEC;
    float lanes[TSUM_VEC];
    for (int l = 0; l < TSUM_VEC; l++)
        lanes[l] = tsum_row(q, l, TSUM_VEC, nvec);
    float fin = 0;
    for (int64_t k = nvec * TSUM_VEC; k < size; k++)
        fin += tsum_x(q, k);
    for (int l = 0; l < TSUM_VEC; l++)
        fin += lanes[l];
    return fin;
}

/* torch 1.13's prod (binary_kernel_reduce_vec): over a contiguous reduced
 * dim, four 8-float vector accumulators across 32-element blocks, combined
 * (0*1)*(2*3), then the lanes in order, then the tail one by one; any other
 * layout multiplies in order from 1. */
static float tprod_one(const tsum_seq *q, int64_t n)
{
    float dst = 1.0f;
    int64_t done = 0;
    if (q->stride == 1 && n >= 32) {
        int64_t count = n / 32;
        float acc[4][TSUM_VEC];
        for (int v = 0; v < 4; v++)
            for (int l = 0; l < TSUM_VEC; l++)
                acc[v][l] = tsum_x(q, v * TSUM_VEC + l);
        for (int64_t i = 1; i < count; i++)
            for (int v = 0; v < 4; v++)
                for (int l = 0; l < TSUM_VEC; l++)
                    acc[v][l] = acc[v][l] * tsum_x(q, 32 * i + v * TSUM_VEC + l);
        float b[TSUM_VEC];
        for (int l = 0; l < TSUM_VEC; l++)
            b[l] = (acc[0][l] * acc[1][l]) * (acc[2][l] * acc[3][l]);
        float b0 = b[0];
        for (int l = 1; l < TSUM_VEC; l++)
            b0 = b0 * b[l];
        dst = dst * b0;
        done = count * 32;
    }
    for (int64_t k = done; k < n; k++)
        dst = dst * tsum_x(q, k);
    return dst;
}

/* How TensorIterator lays out the reduction: the reduced dim first, then
 * the other dims in the output's order (fastest first), coalesced where the
 * input's strides allow; the kernel sees the
 * reduced dim (size0, in_strides[0]) and the next one (size1,
 * in_strides[1]). mode picks cascade_sum's branch. */
typedef enum { TSUM_INNER, TSUM_VOUTER, TSUM_SINNER, TSUM_SOUTER } tsum_mode;

typedef struct tsum_plan {
    tsum_mode mode;
    int64_t size1;
    int ngroup;                   /* original dims coalesced into size1 */
    int group[TENSOR_MAX_DIMS];   /* fastest first */
} tsum_plan;

static void tsum_plan_make(const tensor *x, int dim, tsum_plan *p)
{
    /* The output (contiguous, keepdim) decides the order of the other dims:
     * the last dim is the fastest. */
    int other[TENSOR_MAX_DIMS], n = 0;
    for (int d = x->ndim - 1; d >= 0; d--)
        if (d != dim && x->shape[d] != 1)
            other[n++] = d;
    p->ngroup = 0;
    p->size1 = 1;
    int64_t s1 = 0;
    if (n > 0) {
        p->group[p->ngroup++] = other[0];
        p->size1 = x->shape[other[0]];
        s1 = x->strides[other[0]];
        for (int k = 1; k < n && x->strides[other[k]] == x->strides[other[k - 1]] * x->shape[other[k - 1]];
             k++) {
            p->group[p->ngroup++] = other[k];
            p->size1 *= x->shape[other[k]];
        }
    }
    int64_t size0 = x->ndim > 0 ? x->shape[dim] : 1;
    int64_t s0 = x->ndim > 0 ? x->strides[dim] : 1;
    if (s0 == 1 && size0 >= TSUM_VEC)
        p->mode = TSUM_INNER;
    else if (s1 == 1 && p->size1 >= TSUM_VEC)
        p->mode = TSUM_VOUTER;
    else if (s0 < s1)
        p->mode = TSUM_SINNER;
    else
        p->mode = TSUM_SOUTER;
}

/* One output element: the sum of x along dim starting at base, j its index
 * along the size1 dim. */
static float tsum_one(const tsum_plan *p, const tsum_seq *q, int64_t size0, int64_t j)
{
    switch (p->mode) {
    case TSUM_INNER: return 0.0f + tsum_inner(q, size0);
    case TSUM_VOUTER:
        if (j < p->size1 / (4 * TSUM_VEC) * (4 * TSUM_VEC))
            return 0.0f + tsum_multi(q, 0, 1, size0);
        return 0.0f + tsum_row(q, 0, 1, size0);
    case TSUM_SINNER: return 0.0f + tsum_row(q, 0, 1, size0);
    case TSUM_SOUTER:
    default:
        if (j < p->size1 / 4 * 4)
            return 0.0f + tsum_multi(q, 0, 1, size0);
        return 0.0f + tsum_row(q, 0, 1, size0);
    }
}

/* Under device semantics a tile reduction reads its source's valid region
 * only (pto-isa docs/isa/tile/ops/reduce-and-expand/trowsum.md:14, "Let R =
 * src.GetValidRow() and C = src.GetValidCol()", and likewise the other
 * row/col reductions): a copy of x whose padding holds the reduction's
 * identity, so that what the device leaves there never reaches the result.
 * NULL when x has no smaller valid region (REF reads the whole tile). */
static ptodb_status reduce_into(exec_ctx *ctx, const op_args *a, tensor *x, red_kind kind, int dim_rel,
                                value *out);

static tensor *valid_region_only(const tensor *x, red_kind kind)
{
    if (x->valid_ndim != x->ndim || x->ndim < 1)
        return NULL;
    int partial = 0;
    for (int d = 0; d < x->ndim; d++)
        partial |= x->valid[d] >= 0 && x->valid[d] < x->shape[d];
    if (!partial)
        return NULL;
    tensor *c = tensor_clone(x);
    if (!c)
        return NULL;
    /* the identity: 0, 1, or the lowest / highest value of the dtype */
    int isf = dtype_is_float(c->dtype);
    int bits = 8 * (int)dtype_size(c->dtype);
    int sgn = dtype_kind_of(c->dtype) == DTYPE_KIND_SINT;
    int64_t lo = sgn ? (bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1))) : 0;
    int64_t hi = sgn ? (bits >= 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1)
                     : (bits >= 63 ? INT64_MAX : ((int64_t)1 << bits) - 1);
    int64_t iid = kind == RED_SUM ? 0 : kind == RED_PROD ? 1 : kind == RED_MAX ? lo : hi;
    double fid = kind == RED_SUM ? 0.0 : kind == RED_PROD ? 1.0 : kind == RED_MAX ? -INFINITY : INFINITY;
    int64_t idx[TENSOR_MAX_DIMS] = {0};
    if (tensor_numel(c) > 0)
        do {
            int outside = 0;
            for (int d = 0; d < c->ndim; d++)
                outside |= idx[d] >= x->valid[d];
            if (outside && isf)
                tensor_set(c, idx, fid);
            else if (outside)
                tensor_set_i64(c, idx, iid);
        } while (tensor_next_index(c, idx));
    return c;
}

static ptodb_status op_reduce(exec_ctx *ctx, const op_args *a, value *out)
{
    red_kind kind;
    int dim_rel; /* -1 or -2 */
    switch (a->op) {
    case IR_OP_TENSOR_ROW_SUM: case IR_OP_TILE_ROW_SUM: kind = RED_SUM; dim_rel = -1; break;
    case IR_OP_TENSOR_ROW_MAX: case IR_OP_TILE_ROW_MAX: kind = RED_MAX; dim_rel = -1; break;
    case IR_OP_TENSOR_ROW_MIN: case IR_OP_TILE_ROW_MIN: kind = RED_MIN; dim_rel = -1; break;
    case IR_OP_TENSOR_ROW_PROD: case IR_OP_TILE_ROW_PROD: kind = RED_PROD; dim_rel = -1; break;
    case IR_OP_TENSOR_COL_SUM: case IR_OP_TILE_COL_SUM: kind = RED_SUM; dim_rel = -2; break;
    case IR_OP_TENSOR_COL_MAX: case IR_OP_TILE_COL_MAX: kind = RED_MAX; dim_rel = -2; break;
    case IR_OP_TENSOR_COL_MIN: case IR_OP_TILE_COL_MIN: kind = RED_MIN; dim_rel = -2; break;
    case IR_OP_TENSOR_COL_PROD: case IR_OP_TILE_COL_PROD: kind = RED_PROD; dim_rel = -2; break;
    default:
        return exec_fail(ctx, PTODB_ERR_UNSUPPORTED, "%s: not a reduction", kernel_op_name(a));
    }
    tensor *x;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &x);
    if (st != PTODB_OK)
        return st;
    tensor *valid_copy = NULL;
    if (exec_device(ctx) && a->op >= 0 && ir_op_info_get(a->op) &&
        ir_op_info_get(a->op)->family != IR_OPFAM_TENSOR && (valid_copy = valid_region_only(x, kind)))
        x = valid_copy;
    dtype_id xdt = x->dtype;
    st = reduce_into(ctx, a, x, kind, dim_rel, out);
    if (valid_copy)
        tensor_unref(valid_copy);
    /* the device's TROWSUM/TROWPROD/... of an integer tile keep its dtype
     * (the sum wraps in it), where torch widens to int64 (pto-isa cd4a3d3f
     * include/pto/cpu/TRowSum.hpp:18-40, tile_offsets.hpp:25 TypeSum;
     * tests/data/isa/reduce.txt) */
    if (st == PTODB_OK && exec_device(ctx) && ir_op_info_get(a->op) &&
        ir_op_info_get(a->op)->family != IR_OPFAM_TENSOR && out->kind == VAL_TENSOR && dtype_is_int(xdt) &&
        out->u.t->dtype != xdt) {
        tensor *n = tensor_cast(out->u.t, xdt);
        if (!n)
            return exec_fail(ctx, PTODB_ERR_NOMEM, "%s: cannot allocate the result", kernel_op_name(a));
        value_clear(out);
        *out = value_tensor(n);
        exec_note_ref_differs(ctx, EXEC_SEMDIFF_INT_REDUCTION,
                              "the reduction of an integer tile keeps its dtype (REF's sum is INT64)");
    }
    return st;
}

/* dtype_load_i64 with int32 first: a reduction reads every element of
 * its tile, and the switch was most of its time (the same values) */
static inline int64_t red_load_i64(dtype_id dt, const unsigned char *data, size_t i)
{
    if (dt == DTYPE_INT32) {
        int32_t v;
        memcpy(&v, data + 4 * i, 4);
        return v;
    }
    return dtype_load_i64(dt, data, i);
}

/* The reduction of x along dim_rel, as torch computes it (REF's handler). */
static ptodb_status reduce_into(exec_ctx *ctx, const op_args *a, tensor *x, red_kind kind, int dim_rel, value *out)
{
    ptodb_status st;
    /* torch wraps dims against max(ndim, 1): a 0-d tensor reduces over itself */
    int wrap = x->ndim > 0 ? x->ndim : 1;
    if (dim_rel < -wrap)
        return exec_fail(ctx, PTODB_ERR_BOUNDS,
                         "%s: IndexError: Dimension out of range (expected to be in range of "
                         "[%d, %d], but got %d)",
                         kernel_op_name(a), -wrap, wrap - 1, dim_rel);
    dtype_id dt = x->dtype;
    int isf = dtype_is_float(dt);
    if (kind == RED_PROD && exec_profile(ctx) == EXEC_PROFILE_T13 &&
        (dt == DTYPE_BF16 || dt == DTYPE_FP16))
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: RuntimeError: \"prod_cpu\" not implemented for '%s' (torch 1.13)",
                         kernel_op_name(a), kernel_torch_type_name(dt));
    dtype_id rdt = (kind == RED_SUM || kind == RED_PROD) && !isf ? DTYPE_INT64 : dt;
    int nd = x->ndim;
    int dim = nd > 0 ? nd + dim_rel : 0;
    int64_t len = nd > 0 ? x->shape[dim] : 1;
    int64_t stride = nd > 0 ? x->strides[dim] : 0;
    if (len == 0 && (kind == RED_MAX || kind == RED_MIN))
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: IndexError: %s(): Expected reduction dim %d to have non-zero size.",
                         kernel_op_name(a), kind == RED_MAX ? "amax" : "amin", dim);
    int64_t oshape[TENSOR_MAX_DIMS];
    for (int d = 0; d < nd; d++)
        oshape[d] = d == dim ? 1 : x->shape[d];
    tensor *r;
    st = kernel_zeros(ctx, rdt, nd, oshape, &r);
    if (st != PTODB_OK)
        return st;
    int64_t n = tensor_numel(r);
    const unsigned char *data = x->storage->data;
    int64_t idx[TENSOR_MAX_DIMS] = {0};
    unsigned char *rdata = tensor_data(r);
    int t13 = exec_profile(ctx) == EXEC_PROFILE_T13;
    int torch_sum = kind == RED_SUM && dt == DTYPE_FP32 && t13 && len > 1;
    int torch_prod = kind == RED_PROD && dt == DTYPE_FP32 && t13;
    tsum_plan plan;
    memset(&plan, 0, sizeof plan);
    if (torch_sum)
        tsum_plan_make(x, dim, &plan);
    for (int64_t k = 0; k < n; k++) {
        /* idx walks the output (dim fixed at 0); base is the first element */
        int64_t base = tensor_elem_index(x, idx);
        if (torch_sum) {
            tsum_seq q = {data, dt, base, stride};
            int64_t j = 0, mul = 1;
            for (int g = 0; g < plan.ngroup; g++) {
                j += idx[plan.group[g]] * mul;
                mul *= x->shape[plan.group[g]];
            }
            float v = tsum_one(&plan, &q, len, j);
            memcpy(rdata + 4 * (size_t)k, &v, 4);
        } else if (torch_prod) {
            tsum_seq q = {data, dt, base, stride};
            float v = tprod_one(&q, len);
            memcpy(rdata + 4 * (size_t)k, &v, 4);
        } else if (isf) {
            double acc = kind == RED_PROD ? 1.0 : 0.0;
            int nan = 0;
            for (int64_t j = 0; j < len; j++) {
                double v = dtype_load_fp32_first(dt, data, (size_t)(base + j * stride));
                switch (kind) {
                case RED_SUM: acc += v; break;
                case RED_PROD: acc *= v; break;
                case RED_MAX:
                    if (isnan(v))
                        nan = 1;
                    else if (j == 0 || v > acc)
                        acc = v;
                    break;
                case RED_MIN:
                    if (isnan(v))
                        nan = 1;
                    else if (j == 0 || v < acc)
                        acc = v;
                    break;
                }
            }
            if (nan)
                acc = NAN;
            dtype_store(rdt, rdata, (size_t)k, acc);
        } else {
            int64_t acc = kind == RED_PROD ? 1 : 0;
            for (int64_t j = 0; j < len; j++) {
                int64_t v = red_load_i64(dt, data, (size_t)(base + j * stride));
                switch (kind) {
                case RED_SUM: acc = (int64_t)((uint64_t)acc + (uint64_t)v); break;
                case RED_PROD: acc = (int64_t)((uint64_t)acc * (uint64_t)v); break;
                case RED_MAX: if (j == 0 || v > acc) acc = v; break;
                case RED_MIN: if (j == 0 || v < acc) acc = v; break;
                }
            }
            dtype_store_i64(rdt, rdata, (size_t)k, acc);
        }
        /* advance idx over the output shape */
        for (int d = nd - 1; d >= 0; d--) {
            if (++idx[d] < oshape[d])
                break;
            idx[d] = 0;
        }
    }
    *out = value_tensor(r);
    return PTODB_OK;
}

void exec_ops_register_reduce(op_fn *table)
{
    static const int ops[] = {
        IR_OP_TENSOR_ROW_SUM, IR_OP_TILE_ROW_SUM, IR_OP_TENSOR_ROW_MAX, IR_OP_TILE_ROW_MAX,
        IR_OP_TENSOR_ROW_MIN, IR_OP_TILE_ROW_MIN, IR_OP_TENSOR_ROW_PROD, IR_OP_TILE_ROW_PROD,
        IR_OP_TENSOR_COL_SUM, IR_OP_TILE_COL_SUM, IR_OP_TENSOR_COL_MAX, IR_OP_TILE_COL_MAX,
        IR_OP_TENSOR_COL_MIN, IR_OP_TILE_COL_MIN, IR_OP_TENSOR_COL_PROD, IR_OP_TILE_COL_PROD,
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        table[ops[k]] = op_reduce;
}

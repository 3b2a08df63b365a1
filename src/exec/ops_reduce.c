/* Row/column reductions (semantics.md §3.5): sum/amax/amin/prod over dim -1
 * (row_*) or -2 (col_*), keepdim, over the whole physical extent (padding
 * included). Float sums and products accumulate in double and round once
 * (class A, §1.7); integer and bool sums/products give int64. */
#include "exec/kernel_util.h"

#include <math.h>
#include <stdlib.h>

#include "base/mem.h"

typedef enum { RED_SUM, RED_MAX, RED_MIN, RED_PROD } red_kind;

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
    for (int64_t k = 0; k < n; k++) {
        /* idx walks the output (dim fixed at 0); base is the first element */
        int64_t base = tensor_elem_index(x, idx);
        if (isf) {
            double acc = kind == RED_PROD ? 1.0 : 0.0;
            int nan = 0;
            for (int64_t j = 0; j < len; j++) {
                double v = dtype_load(dt, data, (size_t)(base + j * stride));
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
                int64_t v = dtype_load_i64(dt, data, (size_t)(base + j * stride));
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

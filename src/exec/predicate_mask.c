/* Packed predicate tiles (predicate_mask.h). */
#include "exec/predicate_mask.h"

#include <string.h>

#include "exec/op_util.h"

int exec_mask_is_packed_type(const exec_type *t)
{
    return t && t->kind == EXEC_TYPE_TILE && t->dtype == DTYPE_UINT8 && t->ndim == 2 && t->dims[0] >= 0 &&
           t->dims[1] >= 0;
}

ptodb_status exec_mask_pack(exec_ctx *ctx, const exec_type *type, const tensor *bits, int64_t src_valid_cols,
                            tensor **out)
{
    if (bits->ndim != 2)
        return exec_fail(ctx, PTODB_ERR_SHAPE, "a packed predicate needs a 2-D source, got %d-D", bits->ndim);
    int64_t shape[2] = {type->dims[0], type->dims[1]};
    tensor *dst;
    ptodb_status st = kernel_zeros(ctx, DTYPE_UINT8, 2, shape, &dst); /* size-checked */
    if (st != PTODB_OK)
        return st;
    int64_t dvr = type->mem_valid_ndim == 2 && type->mem_valid[0] >= 0 ? type->mem_valid[0] : shape[0];
    int64_t dvc = type->mem_valid_ndim == 2 && type->mem_valid[1] >= 0 ? type->mem_valid[1] : shape[1];
    if (dvr > shape[0])
        dvr = shape[0];
    if (dvc > shape[1])
        dvc = shape[1];
    int64_t rows = bits->shape[0] < dvr ? bits->shape[0] : dvr;
    int64_t vc = src_valid_cols < bits->shape[1] ? src_valid_cols : bits->shape[1];
    int64_t words = (vc + 7) / 8;
    if (words > dvc)
        words = dvc;
    unsigned char *d = tensor_data(dst);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t w = 0; w < words; w++) {
            unsigned byte = 0;
            for (int64_t k = 0; k < 8 && 8 * w + k < vc; k++) {
                int64_t idx[2] = {r, 8 * w + k};
                if (tensor_get_i64(bits, idx))
                    byte |= 1u << k;
            }
            d[r * shape[1] + w] = (unsigned char)byte;
        }
    dst->valid_ndim = 2;
    dst->valid[0] = dvr;
    dst->valid[1] = dvc;
    dst->full_ndim = 2;
    dst->full[0] = shape[0];
    dst->full[1] = shape[1];
    *out = dst;
    return PTODB_OK;
}

ptodb_status exec_mask_unpack(exec_ctx *ctx, const tensor *mask, int64_t rows, int64_t cols, int64_t vrows,
                              int64_t vcols, int per_row, tensor **out)
{
    if (mask->ndim != 2)
        return exec_fail(ctx, PTODB_ERR_SHAPE, "a packed predicate mask must be 2-D, got %d-D", mask->ndim);
    int64_t shape[2] = {rows, cols};
    tensor *sel;
    ptodb_status st = kernel_zeros(ctx, DTYPE_BOOL, 2, shape, &sel);
    if (st != PTODB_OK)
        return st;
    int64_t mrows = mask->valid_ndim == 2 && mask->valid[0] <= mask->shape[0] ? mask->valid[0] : mask->shape[0];
    int64_t mcols = mask->valid_ndim == 2 && mask->valid[1] <= mask->shape[1] ? mask->valid[1] : mask->shape[1];
    int64_t mr = 0, mc = 0;
    int bit = 0;
    unsigned char *s = tensor_data(sel);
    if (per_row) {
        for (int64_t i = 0; i < vrows && i < rows && i < mask->shape[0]; i++)
            for (int64_t j = 0; j < vcols && j < cols && j / 8 < mask->shape[1]; j++) {
                int64_t idx[2] = {i, j / 8};
                s[i * cols + j] = (unsigned char)((tensor_get_i64(mask, idx) >> (j % 8)) & 1);
            }
        *out = sel;
        return PTODB_OK;
    }
    for (int64_t i = 0; i < vrows && i < rows && mcols > 0; i++)
        for (int64_t j = 0; j < vcols && j < cols; j++) {
            if (mr >= mrows)
                break;
            int64_t idx[2] = {mr, mc};
            s[i * cols + j] = (unsigned char)((tensor_get_i64(mask, idx) >> bit) & 1);
            if (++bit == 8) {
                bit = 0;
                if (++mc == mcols) {
                    mc = 0;
                    mr++;
                }
            }
        }
    *out = sel;
    return PTODB_OK;
}

/* The gather/scatter forms REF has no handler for, beyond the index and
 * mask gathers of ops_isa.c: TGATHERB (32-byte blocks), TGATHER's compare
 * form, PyPTO's mask-pattern scatter and the paged-KV gather. Each follows
 * the PTO ISA's CPU simulator or PyPTO's op docs; docs/ops.md records the
 * source and every judgement call. */
#include <string.h>

#include "exec/op_util.h"

static ptodb_status need_2d(exec_ctx *ctx, const op_args *a, const tensor *t, const char *what)
{
    if (t->ndim == 2)
        return PTODB_OK;
    return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: %s must be 2-D, got %d dims", kernel_op_name(a),
                     what, t->ndim);
}

/* A dtype keyword whose REF storage has the declared byte size: UINT16 and
 * UINT32 are held wider by REF (int32 / int64), FP8 and other narrow
 * formats as float32, so a byte-level op cannot honour them. */
static ptodb_status byte_exact_dtype_kw(exec_ctx *ctx, const op_args *a, exec_kw kw,
                                        dtype_id dflt, dtype_id *out)
{
    const value *v = op_kw(a, kw);
    if (v && v->kind == VAL_ENUM) {
        int32_t e = v->u.e;
        if (e != IR_EV_DTYPE_BOOL && e != IR_EV_DTYPE_INT8 && e != IR_EV_DTYPE_INT16 &&
            e != IR_EV_DTYPE_INT32 && e != IR_EV_DTYPE_INT64 && e != IR_EV_DTYPE_UINT8 &&
            e != IR_EV_DTYPE_UINT64 && e != IR_EV_DTYPE_FP16 && e != IR_EV_DTYPE_BF16 &&
            e != IR_EV_DTYPE_FP32)
            return exec_fail(ctx, PTODB_ERR_RUNTIME,
                             "%s: %s= names a dtype REF stores at another width; its bytes are "
                             "not modelled",
                             kernel_op_name(a), exec_kw_name(kw));
    }
    return kernel_dtype_kw(ctx, a, kw, dflt, out, NULL);
}

/* ---- gatherb ------------------------------------------------------------ */

#define GATHERB_BLOCK 32u

/* gatherb(src, offset, output_dtype=src's): TGATHERB as the simulator
 * (include/pto/cpu/TGatherB.hpp) computes it. offset [R, C] holds byte
 * offsets into src's row-major bytes; dst is [R, C * 32 / sizeof(out)] and
 * block (r, c) of it is the 32 source bytes at offset[r, c]. Over the
 * offset's valid region; a block whose bytes run past the source is left
 * unwritten by the simulator (0 here), as is everything outside the valid
 * region. */
static ptodb_status op_gatherb(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *src, *off, *r;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &src);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1, &off);
    if (st == PTODB_OK)
        st = need_2d(ctx, a, off, "the offset tile");
    dtype_id dt = DTYPE_FP32;
    if (st == PTODB_OK)
        st = byte_exact_dtype_kw(ctx, a, EXEC_KW_OUTPUT_DTYPE, src->dtype, &dt);
    if (st != PTODB_OK)
        return st;
    if (dtype_is_float(off->dtype))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: offsets must be integers", kernel_op_name(a));
    size_t es = dtype_size(dt);
    int64_t per_block = (int64_t)(GATHERB_BLOCK / es);
    int64_t vr, vc;
    kernel_valid_2d(off, &vr, &vc);
    int64_t shape[2] = {off->shape[0], off->shape[1] * per_block};
    st = kernel_zeros(ctx, dt, 2, shape, &r);
    if (st != PTODB_OK)
        return st;
    tensor *s = tensor_contiguous(src);
    if (!s) {
        tensor_unref(r);
        return exec_fail(ctx, PTODB_ERR_NOMEM, "%s: cannot allocate", kernel_op_name(a));
    }
    const unsigned char *from = tensor_data(s);
    unsigned char *to = tensor_data(r);
    uint64_t nbytes = (uint64_t)tensor_numel(s) * dtype_size(s->dtype);
    for (int64_t i = 0; i < vr; i++)
        for (int64_t j = 0; j < vc; j++) {
            int64_t at[2] = {i, j};
            uint64_t o = (uint32_t)tensor_get_i64(off, at);
            if (o + GATHERB_BLOCK > nbytes)
                continue;
            memcpy(to + ((size_t)(i * shape[1] + j * per_block)) * es, from + o, GATHERB_BLOCK);
        }
    tensor_unref(s);
    *out = value_tensor(r);
    return PTODB_OK;
}

/* ---- gather_compare ----------------------------------------------------- */

static const char *const cmp_mode_names[6] = {"eq", "ne", "lt", "le", "gt", "ge"};

static ptodb_status cmp_mode_kw(exec_ctx *ctx, const op_args *a, int *mode)
{
    const value *v = op_kw(a, EXEC_KW_CMP_MODE);
    int64_t i = -1;
    if (v && v->kind == VAL_STR) {
        for (int k = 0; k < 6; k++)
            if (strcmp(v->u.s, cmp_mode_names[k]) == 0)
                i = k;
    } else if (v && value_as_int(v, &i) != 0) {
        i = -1;
    }
    if (i < 0 || i > 5)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: cmp_mode= must be eq, ne, lt, le, gt, ge or 0..5", kernel_op_name(a));
    *mode = (int)i;
    return PTODB_OK;
}

static int compares(int mode, double x, double k)
{
    switch (mode) {
    case 0: return x == k;
    case 1: return x != k;
    case 2: return x < k;
    case 3: return x <= k;
    case 4: return x > k;
    default: return x >= k;
    }
}

static int compares_i(int mode, int64_t x, int64_t k)
{
    switch (mode) {
    case 0: return x == k;
    case 1: return x != k;
    case 2: return x < k;
    case 3: return x <= k;
    case 4: return x > k;
    default: return x >= k;
    }
}

/* gather_compare(src, kvalue[, tmp], cmp_mode=, offset=0, out_cols=,
 * count_dtype=INT32): TGATHER's compare form (docs/isa/TGATHER.md; the CPU
 * simulator has no model of it). Per row of the valid region, the column
 * numbers j (plus offset) where src[r, j] <cmp> kvalue, in column order,
 * into dst[r, 0..] ([rows, out_cols] INT32); the match count into
 * cdst[0, r] ([1, rows]). kvalue is rounded to src's dtype first (PyPTO
 * requires that dtype). A row with more matches than out_cols is an error
 * (the ISA would write past the row); dst entries past a row's count are
 * undefined on the device and 0 here. Returns the tuple (dst, cdst). */
static ptodb_status op_gather_compare(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *src, *dst = NULL, *cnt = NULL;
    const value *kv;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &src);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &kv);
    if (st == PTODB_OK)
        st = need_2d(ctx, a, src, "the source");
    int mode = 0;
    if (st == PTODB_OK)
        st = cmp_mode_kw(ctx, a, &mode);
    dtype_id cdt = DTYPE_INT32;
    if (st == PTODB_OK)
        st = kernel_dtype_kw(ctx, a, EXEC_KW_COUNT_DTYPE, DTYPE_INT32, &cdt, NULL);
    double kf = 0;
    int64_t ki = 0;
    if (st == PTODB_OK && src->dtype == DTYPE_BOOL)
        st = exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: bool sources have no ordering",
                       kernel_op_name(a));
    if (st == PTODB_OK)
        st = kernel_checked_scalar(ctx, a, kv, src->dtype, &kf, &ki);
    if (st != PTODB_OK)
        return st;
    int64_t out_cols = kernel_int_kw(a, EXEC_KW_OUT_COLS, -1);
    int64_t offset = kernel_int_kw(a, EXEC_KW_OFFSET, 0);
    if (out_cols <= 0)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: out_cols= must be a positive int",
                         kernel_op_name(a));
    if (cdt != DTYPE_INT32 && cdt != DTYPE_INT64)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: count_dtype must be INT32 or UINT32",
                         kernel_op_name(a));
    int64_t rows, cols;
    kernel_valid_2d(src, &rows, &cols);
    int64_t dshape[2] = {src->shape[0], out_cols}, cshape[2] = {1, src->shape[0]};
    st = kernel_zeros(ctx, DTYPE_INT32, 2, dshape, &dst);
    if (st == PTODB_OK)
        st = kernel_zeros(ctx, cdt, 2, cshape, &cnt);
    int is_float = dtype_is_float(src->dtype);
    for (int64_t i = 0; i < rows && st == PTODB_OK; i++) {
        int64_t n = 0;
        for (int64_t j = 0; j < cols; j++) {
            int64_t at[2] = {i, j};
            int hit = is_float ? compares(mode, tensor_get(src, at), kf)
                               : compares_i(mode, tensor_get_i64(src, at), ki);
            if (!hit)
                continue;
            if (n == out_cols) {
                st = exec_fail(ctx, PTODB_ERR_RUNTIME,
                               "%s: row %lld has more than out_cols=%lld matches",
                               kernel_op_name(a), (long long)i, (long long)out_cols);
                break;
            }
            int64_t d[2] = {i, n++};
            tensor_set_i64(dst, d, kernel_wrap_int(DTYPE_INT32, offset + j));
        }
        int64_t c[2] = {0, i};
        if (st == PTODB_OK)
            tensor_set_i64(cnt, c, n);
    }
    if (st != PTODB_OK) {
        if (dst)
            tensor_unref(dst);
        if (cnt)
            tensor_unref(cnt);
        return st;
    }
    *out = value_tuple_new(2);
    out->u.tuple->items[0] = value_tensor(dst);
    out->u.tuple->items[1] = value_tensor(cnt);
    return PTODB_OK;
}

/* ---- scatter_mask ------------------------------------------------------- */

/* The columns a mask pattern marks (PyPTO's MaskPattern table, 05-operators
 * "Mask patterns"): 1 even, 2 odd, 3..6 column % 4 == 0..3, 7 all. */
static int mask_marks(int64_t pattern, int64_t col)
{
    switch (pattern) {
    case 1: return col % 2 == 0;
    case 2: return col % 2 == 1;
    case 7: return 1;
    default: return col % 4 == pattern - 3;
    }
}

/* tile.scatter_mask(dst, src, mask_pattern=) / tensor.scatter_mask(src,
 * dst, mask_pattern=): PyPTO's mask-pattern scatter (05-operators "Mask
 * patterns"): src row r's k-th element goes to the k-th marked column of
 * dst row r; unmarked columns keep dst's values. dst is rewritten in place
 * (DPS) and returned. dst's columns must be src's times the pattern's
 * stride; the dtypes must agree. */
static ptodb_status op_scatter_mask(exec_ctx *ctx, const op_args *a, value *out)
{
    uint32_t di = a->op == IR_OP_TILE_SCATTER_MASK ? 0 : 1;
    tensor *dst, *src;
    ptodb_status st = kernel_tensor_arg(ctx, a, di, &dst);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1 - di, &src);
    if (st == PTODB_OK)
        st = need_2d(ctx, a, dst, "dst");
    if (st == PTODB_OK)
        st = need_2d(ctx, a, src, "src");
    if (st != PTODB_OK)
        return st;
    int64_t pat = kernel_int_kw(a, EXEC_KW_MASK_PATTERN, -1);
    if (pat < 1 || pat > 7)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: mask_pattern must be 1..7, got %lld",
                         kernel_op_name(a), (long long)pat);
    int64_t stride = pat == 7 ? 1 : pat <= 2 ? 2 : 4;
    if (src->dtype != dst->dtype)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: src is %s but dst is %s", kernel_op_name(a),
                         kernel_torch_type_name(src->dtype), kernel_torch_type_name(dst->dtype));
    if (src->shape[0] != dst->shape[0] || dst->shape[1] != src->shape[1] * stride)
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: dst [%lld, %lld] must be src [%lld, %lld] with %lld times the columns",
                         kernel_op_name(a), (long long)dst->shape[0], (long long)dst->shape[1],
                         (long long)src->shape[0], (long long)src->shape[1], (long long)stride);
    /* stage through a copy when src shares dst's storage */
    tensor *s = src->storage == dst->storage ? tensor_clone(src) : tensor_ref(src);
    if (!s)
        return exec_fail(ctx, PTODB_ERR_NOMEM, "%s: cannot allocate", kernel_op_name(a));
    int is_float = dtype_is_float(dst->dtype);
    for (int64_t i = 0; i < dst->shape[0]; i++)
        for (int64_t j = 0, k = 0; j < dst->shape[1]; j++) {
            if (!mask_marks(pat, j))
                continue;
            int64_t from[2] = {i, k++}, to[2] = {i, j};
            if (is_float)
                tensor_set(dst, to, tensor_get(s, from));
            else
                tensor_set_i64(dst, to, tensor_get_i64(s, from));
        }
    tensor_unref(s);
    exec_note_write(ctx, dst);
    *out = value_copy(op_arg(a, di));
    return PTODB_OK;
}

/* ---- paged_gather ------------------------------------------------------- */

static int64_t flat_int(const tensor *t, int64_t k)
{
    int64_t idx[TENSOR_MAX_DIMS];
    for (int d = t->ndim - 1; d >= 0; d--) {
        int64_t n = t->shape[d] ? t->shape[d] : 1;
        idx[d] = k % n;
        k /= n;
    }
    return tensor_get_i64(t, idx);
}

/* tensor.paged_gather(src, indices, block_table, block_size=, size=,
 * max_indices=, col_off=0, is_trans=False, ...): PyPTO's op doc and its
 * test golden (tests/st/runtime/ops/test_paged_gather.py): row i of the
 * result is src[phys, col_off : col_off + size] with phys =
 * block_table[idx // block_size] * block_size + idx % block_size for
 * idx = indices[i]. The result is [max_indices, size] in src's dtype
 * ([size, max_indices] with is_trans); rows past the index count are not
 * loaded (0 here). Any address outside its tensor is an error. */
static ptodb_status op_paged_gather(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *src, *ind, *bt, *r;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &src);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1, &ind);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 2, &bt);
    if (st == PTODB_OK)
        st = need_2d(ctx, a, src, "the KV pool");
    if (st != PTODB_OK)
        return st;
    if (dtype_is_float(ind->dtype) || dtype_is_float(bt->dtype))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: indices and block_table must be integers",
                         kernel_op_name(a));
    int64_t bs = kernel_int_kw(a, EXEC_KW_BLOCK_SIZE, -1);
    int64_t size = kernel_int_kw(a, EXEC_KW_SIZE, -1);
    int64_t maxn = kernel_int_kw(a, EXEC_KW_MAX_INDICES, -1);
    int64_t col_off = kernel_int_kw(a, EXEC_KW_COL_OFF, 0);
    int trans = kernel_int_kw(a, EXEC_KW_IS_TRANS, 0) != 0;
    int64_t n = tensor_numel(ind), nblocks = tensor_numel(bt);
    if (bs <= 0 || size < 0 || maxn < 0)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: block_size=, size= and max_indices= must be given (block_size > 0)",
                         kernel_op_name(a));
    if (col_off < 0 || col_off + size > src->shape[1])
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: columns %lld..%lld are outside the pool's %lld", kernel_op_name(a),
                         (long long)col_off, (long long)(col_off + size - 1),
                         (long long)src->shape[1]);
    if (n > maxn)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: %lld indices exceed max_indices=%lld",
                         kernel_op_name(a), (long long)n, (long long)maxn);
    int64_t shape[2] = {trans ? size : maxn, trans ? maxn : size};
    st = kernel_zeros(ctx, src->dtype, 2, shape, &r);
    if (st != PTODB_OK)
        return st;
    int is_float = dtype_is_float(src->dtype);
    for (int64_t i = 0; i < n; i++) {
        int64_t li = flat_int(ind, i);
        int64_t blk = li >= 0 ? li / bs : -1;
        int64_t phys = -1;
        if (blk >= 0 && blk < nblocks) {
            int64_t pb = flat_int(bt, blk);
            if (pb >= 0 && pb <= (INT64_MAX - bs) / bs)
                phys = pb * bs + li % bs;
        }
        if (phys < 0 || phys >= src->shape[0]) {
            tensor_unref(r);
            return exec_fail(ctx, PTODB_ERR_RUNTIME,
                             "%s: index %lld (element %lld) maps outside the pool's %lld rows",
                             kernel_op_name(a), (long long)li, (long long)i,
                             (long long)src->shape[0]);
        }
        for (int64_t j = 0; j < size; j++) {
            int64_t from[2] = {phys, col_off + j}, to[2] = {trans ? j : i, trans ? i : j};
            if (is_float)
                tensor_set(r, to, tensor_get(src, from));
            else
                tensor_set_i64(r, to, tensor_get_i64(src, from));
        }
    }
    *out = value_tensor(r);
    return PTODB_OK;
}

void exec_ops_register_gather_forms(op_fn *table)
{
    table[IR_OP_TILE_GATHERB] = op_gatherb;
    table[IR_OP_TILE_GATHER_COMPARE] = op_gather_compare;
    table[IR_OP_TENSOR_GATHER_COMPARE] = op_gather_compare;
    table[IR_OP_TILE_SCATTER_MASK] = op_scatter_mask;
    table[IR_OP_TENSOR_SCATTER_MASK] = op_scatter_mask;
    table[IR_OP_TENSOR_PAGED_GATHER] = op_paged_gather;
}

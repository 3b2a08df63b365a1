/* Ops torch_codegen has no handler for, defined by the PTO instruction set
 * (hw-native-sys/pto-isa: the CPU simulator include/pto/cpu and docs/isa)
 * or by PyPTO's op docs; docs/ops.md records each source and judgement
 * call. ptodb runs a file using them by definition and says REF cannot. */
#include <string.h>

#include "exec/op_util.h"

static int better(const tensor *t, const int64_t *cur, const int64_t *best, int want_max)
{
    if (dtype_is_float(t->dtype)) {
        /* strict compare as the simulator's: a NaN never wins, a NaN best
         * is never replaced; ties keep the first index */
        double c = tensor_get(t, cur), b = tensor_get(t, best);
        return want_max ? c > b : c < b;
    }
    int64_t c = tensor_get_i64(t, cur), b = tensor_get_i64(t, best);
    return want_max ? c > b : c < b;
}

/* row_argmax / row_argmin: [M, 1] int32, the column of each row's extreme
 * (TROWARGMAX / TROWARGMIN); col_*: [1, N], the row of each column's
 * (TCOLARGMAX / TCOLARGMIN). Over the valid region; rows/columns outside it
 * are 0. The tile forms' scratch operand is ignored. */
static ptodb_status op_arg_reduce(exec_ctx *ctx, const op_args *a, value *out)
{
    int row = a->op == IR_OP_TILE_ROW_ARGMAX || a->op == IR_OP_TILE_ROW_ARGMIN ||
              a->op == IR_OP_TENSOR_ROW_ARGMAX || a->op == IR_OP_TENSOR_ROW_ARGMIN;
    int want_max = a->op == IR_OP_TILE_ROW_ARGMAX || a->op == IR_OP_TILE_COL_ARGMAX ||
                   a->op == IR_OP_TENSOR_ROW_ARGMAX || a->op == IR_OP_TENSOR_COL_ARGMAX;
    tensor *x, *r = NULL;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &x);
    if (st != PTODB_OK)
        return st;
    if (x->ndim != 2)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: expects a 2-D tile, got %d dims",
                         kernel_op_name(a), x->ndim);
    if (x->dtype == DTYPE_BOOL)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: bool tiles have no ordering in the ISA",
                         kernel_op_name(a));
    int64_t rows, cols;
    kernel_valid_2d(x, &rows, &cols);
    if (rows == 0 || cols == 0)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: the valid region is empty",
                         kernel_op_name(a));
    int64_t shape[2] = {row ? x->shape[0] : 1, row ? 1 : x->shape[1]};
    st = kernel_zeros(ctx, DTYPE_INT32, 2, shape, &r);
    if (st != PTODB_OK)
        return st;
    int64_t outer = row ? rows : cols, inner = row ? cols : rows;
    for (int64_t o = 0; o < outer; o++) {
        int64_t best[2] = {row ? o : 0, row ? 0 : o};
        for (int64_t i = 1; i < inner; i++) {
            int64_t cur[2] = {row ? o : i, row ? i : o};
            if (better(x, cur, best, want_max)) {
                best[0] = cur[0];
                best[1] = cur[1];
            }
        }
        int64_t at[2] = {row ? o : 0, row ? 0 : o};
        tensor_set_i64(r, at, row ? best[1] : best[0]);
    }
    *out = value_tensor(r);
    return PTODB_OK;
}

/* ci(start, shape, dtype=INT32, descending=False): TCI fills the first row
 * with start + k (start - k descending) for each valid column k, wrapped
 * to the dtype; other rows are not written (zeros here). */
static ptodb_status op_ci(exec_ctx *ctx, const op_args *a, value *out)
{
    const value *sv, *shv;
    ptodb_status st = kernel_any_arg(ctx, a, 0, &sv);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &shv);
    int64_t start = 0, shape[TENSOR_MAX_DIMS];
    int nd = 0;
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, sv, "start", &start);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, shv, "shape", shape, &nd);
    dtype_id dt = DTYPE_INT32;
    if (st == PTODB_OK)
        st = kernel_dtype_kw(ctx, a, EXEC_KW_DTYPE, DTYPE_INT32, &dt, NULL);
    if (st != PTODB_OK)
        return st;
    /* PyPTO accepts INT16, INT32, UINT16 and UINT32 (src/ir/op/tensor_ops/
     * memory.cpp:636-638); an unsigned one lives in REF's wider signed
     * storage (INT32, INT64) and wraps at its own width */
    const value *dk = op_kw(a, EXEC_KW_DTYPE);
    int ubytes = dk && dk->kind == VAL_ENUM ? kernel_unsigned_bytes(dk->u.e) : 0;
    int64_t uwrap = ubytes ? (int64_t)1 << (8 * ubytes) : 0;
    if (dt != DTYPE_INT32 && dt != DTYPE_INT16 && !uwrap)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: dtype must be INT16, INT32, UINT16 or UINT32",
                         kernel_op_name(a));
    if (nd < 1)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: needs a shape", kernel_op_name(a));
    int desc = kernel_int_kw(a, EXEC_KW_DESCENDING, 0) != 0;
    tensor *r;
    st = kernel_zeros(ctx, dt, nd, shape, &r);
    if (st != PTODB_OK)
        return st;
    int64_t idx[TENSOR_MAX_DIMS] = {0};
    for (int64_t k = 0; k < shape[nd - 1]; k++) {
        idx[nd - 1] = k;
        uint64_t v = desc ? (uint64_t)start - (uint64_t)k : (uint64_t)start + (uint64_t)k;
        if (uwrap)
            tensor_set_i64(r, idx, (int64_t)(v & (uint64_t)(uwrap - 1)));
        else
            tensor_set_i64(r, idx, kernel_wrap_int(dt, (int64_t)v));
    }
    *out = value_tensor(r);
    return PTODB_OK;
}

/* tri(diagonal, shape, valid_shape?, dtype=INT32, upper=False): TTRI, a
 * torch.tril / torch.triu mask of ones: lower keeps j <= i + d, upper
 * j >= i + d, inside the valid region; zeros elsewhere. */
static ptodb_status op_tri(exec_ctx *ctx, const op_args *a, value *out)
{
    const value *dv, *shv;
    ptodb_status st = kernel_any_arg(ctx, a, 0, &dv);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &shv);
    int64_t d = 0, shape[TENSOR_MAX_DIMS], valid[TENSOR_MAX_DIMS];
    int nd = 0, nv = 0;
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, dv, "diagonal", &d);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, shv, "shape", shape, &nd);
    if (st == PTODB_OK && op_arg(a, 2) && op_arg(a, 2)->kind != VAL_NONE)
        st = kernel_int_list(ctx, a, op_arg(a, 2), "valid_shape", valid, &nv);
    dtype_id dt = DTYPE_INT32;
    if (st == PTODB_OK)
        st = kernel_dtype_kw(ctx, a, EXEC_KW_DTYPE, DTYPE_INT32, &dt, NULL);
    if (st != PTODB_OK)
        return st;
    if (nd != 2 || (nv && nv != 2))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: shape and valid_shape must be 2-D",
                         kernel_op_name(a));
    int upper = kernel_int_kw(a, EXEC_KW_UPPER, 0) != 0;
    int64_t rows = nv ? valid[0] : shape[0], cols = nv ? valid[1] : shape[1];
    if (rows > shape[0])
        rows = shape[0];
    if (cols > shape[1])
        cols = shape[1];
    tensor *r;
    st = kernel_zeros(ctx, dt, 2, shape, &r);
    if (st != PTODB_OK)
        return st;
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j++) {
            int64_t idx[2] = {i, j};
            int one = upper ? j >= i + d : j <= i + d;
            tensor_set(r, idx, one);
        }
    *out = value_tensor(r);
    return PTODB_OK;
}

/* set_validshape(t, rows, cols): the same storage with REF's valid-shape
 * attribute set to [rows, cols] (full shape: the tile's); no data moves. */
static ptodb_status op_set_validshape(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *x;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &x);
    const value *rv, *cv;
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &rv);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 2, &cv);
    int64_t rows = 0, cols = 0;
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, rv, "valid_rows", &rows);
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, cv, "valid_cols", &cols);
    if (st != PTODB_OK)
        return st;
    if (x->ndim != 2)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: expects a 2-D tile, got %d dims",
                         kernel_op_name(a), x->ndim);
    if (rows < 0 || cols < 0 || rows > x->shape[0] || cols > x->shape[1])
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: valid shape [%lld, %lld] outside the tile [%lld, %lld]",
                         kernel_op_name(a), (long long)rows, (long long)cols,
                         (long long)x->shape[0], (long long)x->shape[1]);
    tensor *v = tensor_view(x, x->ndim, x->shape, x->strides, x->offset, &st);
    if (!v)
        return exec_fail(ctx, st, "%s: cannot make the view", kernel_op_name(a));
    v->valid_ndim = 2;
    v->valid[0] = rows;
    v->valid[1] = cols;
    v->full_ndim = 2;
    v->full[0] = x->shape[0];
    v->full[1] = x->shape[1];
    *out = value_tensor(v);
    return PTODB_OK;
}

/* get_block_num: the running launch's width under device semantics; REF's
 * model runs one block (its get_block_idx is 0), so under ref it is 1 and
 * tensor.get_block_idx is tile.get_block_idx's 0.
 * system.available_cluster_count / available_aiv_count are the launch width
 * a full-occupancy SPMD kernel is given; in the same one-block model that
 * width is 1 (docs/ops.md says why not PyPTO's SoC core counts). */
static ptodb_status op_block_num(exec_ctx *ctx, const op_args *a, value *out)
{
    int dev = exec_device(ctx);
    if (a->op == IR_OP_TENSOR_GET_BLOCK_IDX)
        *out = value_int(dev ? exec_block_idx(ctx) : 0);
    else if (a->op == IR_OP_TILE_GET_BLOCK_NUM || a->op == IR_OP_TENSOR_GET_BLOCK_NUM)
        *out = value_int(dev ? exec_block_num(ctx) : 1);
    else /* the available widths: 1 under both semantics (docs/ops.md) */
        *out = value_int(1);
    return PTODB_OK;
}

/* ---- gather / scatter by index ------------------------------------------ */

/* The multi-index of element k (row-major) of t. */
static void unflatten(const tensor *t, int64_t k, int64_t *idx)
{
    for (int d = t->ndim - 1; d >= 0; d--) {
        int64_t n = t->shape[d] ? t->shape[d] : 1;
        idx[d] = k % n;
        k /= n;
    }
}

static void copy_elem(tensor *dst, int64_t kd, const tensor *src, int64_t ks)
{
    int64_t di[TENSOR_MAX_DIMS], si[TENSOR_MAX_DIMS];
    unflatten(dst, kd, di);
    unflatten(src, ks, si);
    if (dtype_is_float(dst->dtype))
        tensor_set(dst, di, tensor_get(src, si));
    else
        tensor_set_i64(dst, di, tensor_get_i64(src, si));
}

/* Index element k of idx as the ISA reads it: an unsigned 32-bit offset. */
static int64_t index_at(const tensor *idx, int64_t k)
{
    int64_t ii[TENSOR_MAX_DIMS];
    unflatten(idx, k, ii);
    return (int64_t)(uint32_t)tensor_get_i64(idx, ii);
}

static ptodb_status index_fail(exec_ctx *ctx, const op_args *a, int64_t k, int64_t v, int64_t cap)
{
    return exec_fail(ctx, PTODB_ERR_RUNTIME,
                     "%s: index %lld (element %lld of the index tile) is outside 0..%lld",
                     kernel_op_name(a), (long long)v, (long long)k, (long long)cap - 1);
}

/* tile.gather(src, indices, tmp): TGATHER's index form, dst[i, j] =
 * src.flat[indices[i, j]], the result shaped as indices with src's dtype.
 * The ISA docs leave out-of-range indices implementation-defined; the CPU
 * simulator (include/pto/cpu/TGather.hpp) writes 0 for them, as here. */
static ptodb_status op_gather(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *src, *idx, *r;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &src);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1, &idx);
    if (st != PTODB_OK)
        return st;
    if (dtype_is_float(idx->dtype))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: indices must be integers", kernel_op_name(a));
    int64_t cap = tensor_numel(src), n = tensor_numel(idx);
    st = kernel_zeros(ctx, src->dtype, idx->ndim, idx->shape, &r);
    if (st != PTODB_OK)
        return st;
    for (int64_t k = 0; k < n; k++)
        if (index_at(idx, k) < cap)
            copy_elem(r, k, src, index_at(idx, k));
    *out = value_tensor(r);
    return PTODB_OK;
}

/* The columns TGATHER's mask form keeps (MaskSelect of the simulator):
 * 1 P0101 even, 2 P1010 odd, 3..6 P0001..P1000 column % 4 == 0..3, 7 P1111
 * all. */
static int mask_keeps(int64_t pattern, int64_t col)
{
    switch (pattern) {
    case 1: return col % 2 == 0;
    case 2: return col % 2 == 1;
    case 3: case 4: case 5: case 6: return col % 4 == pattern - 3;
    default: return 1;
    }
}

/* gather_mask(src, mask_pattern=, output_dtype=): TGATHER's mask form: each
 * row keeps the columns the pattern selects, compacted; output_dtype (same
 * byte size) reinterprets the bits, as BitCastOrCast does. */
static ptodb_status op_gather_mask(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *src, *r;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &src);
    if (st != PTODB_OK)
        return st;
    int64_t pat = kernel_int_kw(a, EXEC_KW_MASK_PATTERN, 7);
    if (pat < 1 || pat > 7)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: mask_pattern must be 1..7, got %lld",
                         kernel_op_name(a), (long long)pat);
    if (src->ndim != 2)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: expects a 2-D tile", kernel_op_name(a));
    dtype_id dt = src->dtype;
    st = kernel_dtype_kw(ctx, a, EXEC_KW_OUTPUT_DTYPE, src->dtype, &dt, NULL);
    if (st != PTODB_OK)
        return st;
    /* UINT16/UINT32 are held in REF's wider signed storage (INT32, INT64):
     * the bits reinterpreted are the unsigned type's, zero-extended there */
    const value *ok = op_kw(a, EXEC_KW_OUTPUT_DTYPE);
    size_t unsigned_size = ok && ok->kind == VAL_ENUM ? (size_t)kernel_unsigned_bytes(ok->u.e) : 0;
    if (unsigned_size ? unsigned_size != dtype_size(src->dtype) : dtype_size(dt) != dtype_size(src->dtype))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: output_dtype must have the source's byte size",
                         kernel_op_name(a));
    int64_t rows = src->shape[0], cols = src->shape[1], kept = 0;
    for (int64_t c = 0; c < cols; c++)
        kept += mask_keeps(pat, c);
    int64_t shape[2] = {rows, kept};
    tensor *c = tensor_clone(src);
    if (!c)
        return exec_fail(ctx, PTODB_ERR_NOMEM, "%s: cannot allocate", kernel_op_name(a));
    st = kernel_zeros(ctx, dt, 2, shape, &r);
    if (st == PTODB_OK) {
        size_t es = unsigned_size ? unsigned_size : dtype_size(dt), ts = dtype_size(dt);
        const unsigned char *from = tensor_data(c);
        unsigned char *to = tensor_data(r);
        for (int64_t i = 0, k = 0; i < rows; i++)
            for (int64_t j = 0; j < cols; j++)
                if (mask_keeps(pat, j)) {
                    if (ts == es) {
                        memcpy(to + es * (size_t)k++, from + es * (size_t)(i * cols + j), es);
                        continue;
                    }
                    uint32_t u32 = 0;
                    uint16_t u16 = 0;
                    int64_t wide;
                    if (es == 4) {
                        memcpy(&u32, from + es * (size_t)(i * cols + j), 4);
                        wide = u32;
                    } else {
                        memcpy(&u16, from + es * (size_t)(i * cols + j), 2);
                        wide = u16;
                    }
                    if (ts == 8)
                        memcpy(to + ts * (size_t)k++, &wide, 8);
                    else {
                        int32_t w32 = (int32_t)wide;
                        memcpy(to + ts * (size_t)k++, &w32, 4);
                    }
                }
        *out = value_tensor(r);
    }
    tensor_unref(c);
    return st;
}

/* tile.scatter(dst, src, indexes): TSCATTER's index form, dst.flat[
 * indexes[i, j]] = src[i, j] in place (row-major order: a later element
 * wins a repeated index); returns dst. tile.mscatter(src, idx, out): the
 * same into the GM tensor out (MSCATTER). Out-of-range indices: an error. */
static ptodb_status op_scatter(exec_ctx *ctx, const op_args *a, value *out)
{
    int m = a->op == IR_OP_TILE_MSCATTER;
    tensor *dst, *src, *idx;
    ptodb_status st = kernel_tensor_arg(ctx, a, m ? 2 : 0, &dst);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, m ? 0 : 1, &src);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, m ? 1 : 2, &idx);
    if (st != PTODB_OK)
        return st;
    if (dtype_is_float(idx->dtype))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: indices must be integers", kernel_op_name(a));
    int64_t cap = tensor_numel(dst), n = tensor_numel(src);
    if (tensor_numel(idx) != n)
        return exec_fail(ctx, PTODB_ERR_SHAPE, "%s: %lld indices for %lld source elements",
                         kernel_op_name(a), (long long)tensor_numel(idx), (long long)n);
    for (int64_t k = 0; k < n; k++)
        if (index_at(idx, k) >= cap)
            return index_fail(ctx, a, k, index_at(idx, k), cap);
    /* stage through a copy when src shares dst's storage */
    tensor *s2 = src->storage == dst->storage ? tensor_clone(src) : tensor_ref(src);
    if (!s2)
        return exec_fail(ctx, PTODB_ERR_NOMEM, "%s: cannot allocate", kernel_op_name(a));
    for (int64_t k = 0; k < n; k++)
        copy_elem(dst, index_at(idx, k), s2, k);
    tensor_unref(s2);
    exec_note_write(ctx, dst);
    *out = value_copy(op_arg(a, m ? 2 : 0));
    return PTODB_OK;
}

/* tile.mgather(mem, idx, coalesce=0, gather_oob=0): MGATHER. Row mode
 * (coalesce 0): mem viewed as [rows, C] (C its last dim), idx holds R row
 * numbers ([1, R] or [R, 1]), dst[r, :] = mem[idx[r], :]. Element mode
 * (coalesce 1): dst shaped as idx, dst = mem.flat[idx]. gather_oob: 1 clamp
 * to capacity - 1, 2 wrap modulo capacity, 3 zero; 0 (undefined: the caller
 * promises in-range indices) is an error for an out-of-range one. */
static ptodb_status op_mgather(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *mem, *idx, *r;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &mem);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1, &idx);
    if (st != PTODB_OK)
        return st;
    if (dtype_is_float(idx->dtype))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: indices must be integers", kernel_op_name(a));
    int elem = kernel_int_kw(a, EXEC_KW_COALESCE, 0) == 1;
    int64_t oob = kernel_int_kw(a, EXEC_KW_GATHER_OOB, 0);
    if (mem->ndim < 1)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: the table has no dims", kernel_op_name(a));
    int64_t cols = mem->shape[mem->ndim - 1], n = tensor_numel(idx);
    int64_t cap = elem ? tensor_numel(mem) : (cols ? tensor_numel(mem) / cols : 0);
    if (elem) {
        st = kernel_zeros(ctx, mem->dtype, idx->ndim, idx->shape, &r);
    } else {
        int64_t shape[2] = {n, cols};
        st = kernel_zeros(ctx, mem->dtype, 2, shape, &r);
    }
    if (st != PTODB_OK)
        return st;
    for (int64_t k = 0; k < n; k++) {
        int64_t v = index_at(idx, k);
        if (v >= cap) {
            if (cap > 0 && oob == 1)
                v = cap - 1;
            else if (cap > 0 && oob == 2)
                v %= cap;
            else if (oob == 3)
                continue; /* the row / element stays 0 */
            else {
                tensor_unref(r);
                return index_fail(ctx, a, k, v, cap);
            }
        }
        if (elem)
            copy_elem(r, k, mem, v);
        else
            for (int64_t j = 0; j < cols; j++)
                copy_elem(r, k * cols + j, mem, v * cols + j);
    }
    *out = value_tensor(r);
    return PTODB_OK;
}

/* ---- sort32 / reinterpret_view ----------------------------------------- */

typedef struct score_index {
    double score;
    uint32_t index;
} score_index;

/* The simulator's comparator: larger score first, then smaller index. */
static int sorts_before(const score_index *a, const score_index *b)
{
    if (a->score != b->score)
        return a->score > b->score;
    return a->index < b->index;
}

/* sort32(src, idx): TSORT32 as include/pto/cpu/TSort32.hpp computes it: each
 * row in blocks of 32 columns, each block's (value, idx) pairs sorted by
 * value descending (ties: smaller index first), written as pairs
 * [value, index bits] into a row twice as long (fp32 / int32 values; the
 * uint32 index is stored bit for bit in the value's dtype). */
static ptodb_status op_sort32(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *src, *idx, *r;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &src);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1, &idx);
    if (st != PTODB_OK)
        return st;
    if (src->ndim != 2 || idx->ndim != 2 || idx->shape[0] != src->shape[0] ||
        idx->shape[1] != src->shape[1])
        return exec_fail(ctx, PTODB_ERR_SHAPE, "%s: src and idx must be 2-D tiles of one shape",
                         kernel_op_name(a));
    if (src->dtype != DTYPE_FP32 && src->dtype != DTYPE_INT32)
        return exec_fail(ctx, PTODB_ERR_UNSUPPORTED,
                         "%s: only fp32 and int32 values are modelled (the fp16 pair layout is not)",
                         kernel_op_name(a));
    int64_t rows, cols;
    kernel_valid_2d(src, &rows, &cols);
    int64_t shape[2] = {src->shape[0], 2 * src->shape[1]};
    st = kernel_zeros(ctx, src->dtype, 2, shape, &r);
    if (st != PTODB_OK)
        return st;
    unsigned char *data = tensor_data(r);
    score_index blk[32];
    for (int64_t i = 0; i < rows; i++)
        for (int64_t j = 0; j < cols; j += 32) {
            int n = (int)(cols - j < 32 ? cols - j : 32);
            for (int k = 0; k < n; k++) {
                int64_t at[2] = {i, j + k};
                blk[k].score = tensor_get(src, at);
                blk[k].index = (uint32_t)tensor_get_i64(idx, at);
                /* stable insertion: the simulator's std::stable_sort order */
                for (int m = k; m > 0 && sorts_before(&blk[m], &blk[m - 1]); m--) {
                    score_index t = blk[m];
                    blk[m] = blk[m - 1];
                    blk[m - 1] = t;
                }
            }
            for (int k = 0; k < n; k++) {
                size_t e = (size_t)(i * shape[1] + 2 * (j + k));
                if (src->dtype == DTYPE_FP32) {
                    float f = (float)blk[k].score;
                    memcpy(data + 4 * e, &f, 4);
                } else {
                    int32_t v = (int32_t)blk[k].score;
                    memcpy(data + 4 * e, &v, 4);
                }
                memcpy(data + 4 * (e + 1), &blk[k].index, 4);
            }
        }
    *out = value_tensor(r);
    return PTODB_OK;
}

/* reinterpret_view(data, dtype=, shape=): the same bytes read as dtype; the
 * last dim scales by the byte ratio unless shape= is given. Judgement call:
 * a copy of the bytes, not an alias (SSA dumps do not write through it). */
static ptodb_status op_reinterpret_view(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *x, *r;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &x);
    dtype_id dt = DTYPE_FP32;
    int present = 0;
    if (st == PTODB_OK)
        st = kernel_dtype_kw(ctx, a, EXEC_KW_DTYPE, x->dtype, &dt, &present);
    if (st != PTODB_OK)
        return st;
    int64_t shape[TENSOR_MAX_DIMS];
    int nd = x->ndim;
    memcpy(shape, x->shape, sizeof shape);
    size_t from = dtype_size(x->dtype), to = dtype_size(dt);
    if (op_kw(a, EXEC_KW_SHAPE) && op_kw(a, EXEC_KW_SHAPE)->kind != VAL_NONE) {
        st = kernel_int_list(ctx, a, op_kw(a, EXEC_KW_SHAPE), "shape", shape, &nd);
        if (st != PTODB_OK)
            return st;
    } else if (nd >= 1) {
        if ((uint64_t)shape[nd - 1] * from % to)
            return exec_fail(ctx, PTODB_ERR_SHAPE, "%s: the last dim (%lld x %zu bytes) is not a "
                             "whole number of %zu-byte elements", kernel_op_name(a),
                             (long long)shape[nd - 1], from, to);
        shape[nd - 1] = (int64_t)((uint64_t)shape[nd - 1] * from / to);
    }
    int64_t n = 1;
    for (int d = 0; d < nd; d++)
        n *= shape[d];
    if ((uint64_t)n * to != (uint64_t)tensor_numel(x) * from)
        return exec_fail(ctx, PTODB_ERR_SHAPE, "%s: %lld bytes cannot be read as %lld elements of "
                         "%zu bytes", kernel_op_name(a), (long long)(tensor_numel(x) * (int64_t)from),
                         (long long)n, to);
    tensor *c = tensor_clone(x);
    if (!c)
        return exec_fail(ctx, PTODB_ERR_NOMEM, "%s: cannot allocate", kernel_op_name(a));
    st = kernel_zeros(ctx, dt, nd, shape, &r);
    if (st == PTODB_OK)
        memcpy(tensor_data(r), tensor_data(c), (size_t)n * to);
    tensor_unref(c);
    if (st == PTODB_OK)
        *out = value_tensor(r);
    return st;
}

/* tensor.gather(input, index, dim=) / tensor.scatter(input, index, src,
 * dim=): PyPTO's index forms, defined as torch.gather / torch.scatter
 * (out of place): out[.., k, ..] = input[.., index[.., k, ..], ..] along
 * dim; scatter copies input and writes src[p] at index[p] along dim, in
 * row-major order of index (a later element wins a repeated index). */
static ptodb_status op_torch_gather_scatter(exec_ctx *ctx, const op_args *a, value *out)
{
    int sc = a->op == IR_OP_TENSOR_SCATTER;
    tensor *in, *idx, *src = NULL, *r;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &in);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1, &idx);
    if (st == PTODB_OK && sc)
        st = kernel_tensor_arg(ctx, a, 2, &src);
    if (st != PTODB_OK)
        return st;
    int64_t dim = kernel_int_kw(a, EXEC_KW_DIM, -1);
    const char *name = kernel_op_name(a);
    if (dim < 0)
        dim += in->ndim;
    if (in->ndim < 1 || dim < 0 || dim >= in->ndim)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: IndexError: Dimension out of range", name);
    if (idx->ndim != in->ndim || (src && src->ndim != in->ndim))
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: RuntimeError: Index tensor must have the same number of dimensions "
                         "as input tensor", name);
    if (dtype_is_float(idx->dtype) || idx->dtype == DTYPE_BOOL)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: RuntimeError: index must be an integer tensor",
                         name);
    for (int d = 0; d < in->ndim; d++)
        if ((d != dim && idx->shape[d] > in->shape[d]) || (src && idx->shape[d] > src->shape[d]))
            return exec_fail(ctx, PTODB_ERR_SHAPE,
                             "%s: RuntimeError: Size does not match at dimension %d", name, d);
    int64_t n = tensor_numel(idx), pos[TENSOR_MAX_DIMS], at[TENSOR_MAX_DIMS];
    for (int64_t k = 0; k < n; k++) {
        unflatten(idx, k, pos);
        int64_t v = tensor_get_i64(idx, pos);
        if (v < -in->shape[dim] || v >= in->shape[dim])
            return exec_fail(ctx, PTODB_ERR_RUNTIME,
                             "%s: RuntimeError: index %lld is out of bounds for dimension %lld "
                             "with size %lld",
                             name, (long long)v, (long long)dim, (long long)in->shape[dim]);
    }
    if (sc) {
        r = tensor_clone(in);
        if (!r)
            return exec_fail(ctx, PTODB_ERR_NOMEM, "%s: cannot allocate", name);
    } else {
        st = kernel_zeros(ctx, in->dtype, idx->ndim, idx->shape, &r);
        if (st != PTODB_OK)
            return st;
    }
    int isf = dtype_is_float(in->dtype);
    for (int64_t k = 0; k < n; k++) {
        unflatten(idx, k, pos);
        int64_t v = tensor_get_i64(idx, pos);
        memcpy(at, pos, sizeof at);
        at[dim] = v < 0 ? v + in->shape[dim] : v;
        tensor *to = r;
        const tensor *from = sc ? src : in;
        const int64_t *ti = sc ? at : pos, *fi = sc ? pos : at;
        if (isf)
            tensor_set(to, ti, tensor_get(from, fi));
        else
            tensor_set_i64(to, ti, tensor_get_i64(from, fi));
    }
    *out = value_tensor(r);
    return PTODB_OK;
}

/* system.syncall: a barrier of every block of an SPMD launch; the machine
 * parks a block there before it evaluates this (exec/barrier.c), so the op
 * itself does nothing (None). */
static ptodb_status op_syncall(exec_ctx *ctx, const op_args *a, value *out)
{
    (void)ctx;
    (void)a;
    *out = value_none();
    return PTODB_OK;
}

/* ---- mrgsort ------------------------------------------------------------- */

/* The 8-byte (score, index) structs of a one-row sorted list as sort32
 * writes them: 2 fp32/int32 or 4 fp16 elements each; the score is the first. */
typedef struct struct_list {
    tensor *c;          /* contiguous copy */
    const unsigned char *bytes;
    int64_t n;          /* structs */
} struct_list;

static double struct_score(const tensor *t, const unsigned char *bytes, int64_t s)
{
    size_t per = 8 / dtype_size(t->dtype);
    return dtype_load(t->dtype, bytes, (size_t)s * per);
}

static ptodb_status list_of(exec_ctx *ctx, const op_args *a, uint32_t i, dtype_id *dt,
                            struct_list *l)
{
    tensor *t;
    ptodb_status st = kernel_tensor_arg(ctx, a, i, &t);
    if (st != PTODB_OK)
        return st;
    size_t es = dtype_size(t->dtype);
    if (es == 0 || 8 % es || es == 8 || !dtype_is_float(t->dtype) || t->ndim != 2 || t->shape[0] != 1)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: operand %u must be a one-row fp16/fp32 tile of (score, index) pairs",
                         kernel_op_name(a), i + 1);
    if (*dt != DTYPE_COUNT && *dt != t->dtype)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: the lists must share a dtype", kernel_op_name(a));
    *dt = t->dtype;
    int64_t cols = t->shape[1];
    if (t->valid_ndim == 2 && t->valid[1] >= 0 && t->valid[1] < cols)
        cols = t->valid[1];
    l->c = tensor_clone(t);
    if (!l->c)
        return exec_fail(ctx, PTODB_ERR_NOMEM, "%s: cannot allocate", kernel_op_name(a));
    l->bytes = tensor_data(l->c);
    l->n = cols / (int64_t)(8 / es);
    return PTODB_OK;
}

/* mrgsort_format1(src, block_len): TMRGSORT format 1 as the simulator
 * computes it: the row in groups of 4 runs of block_len elements, each group
 * merged by repeatedly taking the struct with the strictly largest score
 * (ties: the earlier run). Columns past the last whole group stay 0. */
static ptodb_status op_mrgsort1(exec_ctx *ctx, const op_args *a, value *out)
{
    dtype_id dt = DTYPE_COUNT;
    struct_list l = {0};
    ptodb_status st = list_of(ctx, a, 0, &dt, &l);
    int64_t block = 0;
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, op_arg(a, 1), "block_len", &block);
    if (st != PTODB_OK) {
        tensor_unref(l.c);
        return st;
    }
    size_t es = dtype_size(dt), per = 8 / es;
    if (block <= 0 || block % (int64_t)per) {
        tensor_unref(l.c);
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: block_len must be a positive multiple of %zu",
                         kernel_op_name(a), per);
    }
    tensor *r;
    st = kernel_zeros(ctx, dt, 2, l.c->shape, &r);
    if (st != PTODB_OK) {
        tensor_unref(l.c);
        return st;
    }
    unsigned char *to = tensor_data(r);
    int64_t cols = l.n * (int64_t)per, spb = block / (int64_t)per;
    for (int64_t base = 0; base + 4 * block <= cols; base += 4 * block) {
        int64_t idx[4] = {0, 0, 0, 0};
        for (int64_t o = 0; o < 4 * spb; o++) {
            int pick = -1;
            double best = 0;
            for (int b = 0; b < 4; b++) {
                if (idx[b] >= spb)
                    continue;
                int64_t s = (base + b * block) / (int64_t)per + idx[b];
                double v = struct_score(l.c, l.bytes, s);
                if (pick < 0 || v > best) {
                    best = v;
                    pick = b;
                }
            }
            int64_t s = (base + pick * block) / (int64_t)per + idx[pick];
            memcpy(to + (size_t)(base / (int64_t)per + o) * 8, l.bytes + (size_t)s * 8, 8);
            idx[pick]++;
        }
    }
    tensor_unref(l.c);
    *out = value_tensor(r);
    return PTODB_OK;
}

/* mrgsort_format2(src0, src1[, src2[, src3]], tmp, exhausted=): TMRGSORT
 * format 2: a 2-4 way merge of sorted lists, taking the strictly largest
 * score (ties: the earlier list) until every list is used up, or, with
 * exhausted=True, until the first list is. The result is a one-row tile of
 * all the structs (the tail after an exhausted stop stays 0). The tile form's
 * last operand is the scratch tile; the tensor form has none. */
static ptodb_status op_mrgsort2(exec_ctx *ctx, const op_args *a, value *out)
{
    uint32_t nl = a->npos - (a->op == IR_OP_TILE_MRGSORT_FORMAT2 ? 1u : 0u);
    if (nl < 2 || nl > 4)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: needs 2 to 4 lists", kernel_op_name(a));
    dtype_id dt = DTYPE_COUNT;
    struct_list l[4] = {{0}};
    ptodb_status st = PTODB_OK;
    int64_t total = 0;
    for (uint32_t i = 0; i < nl && st == PTODB_OK; i++) {
        st = list_of(ctx, a, i, &dt, &l[i]);
        total += l[i].n;
    }
    tensor *r = NULL;
    if (st == PTODB_OK) {
        int64_t shape[2] = {1, total * (int64_t)(8 / dtype_size(dt))};
        st = kernel_zeros(ctx, dt, 2, shape, &r);
    }
    if (st == PTODB_OK) {
        int exhausted = kernel_int_kw(a, EXEC_KW_EXHAUSTED, 0) != 0;
        unsigned char *to = tensor_data(r);
        int64_t idx[4] = {0, 0, 0, 0};
        for (int64_t o = 0; o < total; o++) {
            int pick = -1;
            double best = 0;
            for (uint32_t b = 0; b < nl; b++) {
                if (idx[b] >= l[b].n)
                    continue;
                double v = struct_score(l[b].c, l[b].bytes, idx[b]);
                if (pick < 0 || v > best) {
                    best = v;
                    pick = (int)b;
                }
            }
            if (pick < 0)
                break;
            memcpy(to + (size_t)o * 8, l[pick].bytes + (size_t)idx[pick] * 8, 8);
            idx[pick]++;
            int done = 0;
            for (uint32_t b = 0; b < nl; b++)
                done |= idx[b] == l[b].n;
            if (exhausted && done)
                break;
        }
        *out = value_tensor(r);
    }
    for (uint32_t i = 0; i < nl; i++)
        tensor_unref(l[i].c);
    return st;
}

/* ---- create_l1 / expand_clone / gather_row -------------------------------- */

/* tensor.create_l1(shape, dtype=, transpose=): PyPTO's op doc: an on-chip
 * accumulator, lowered to tile.create, i.e. zeros (REF's tile.create); the
 * transposed fractal layout does not change values. */
static ptodb_status op_create_l1(exec_ctx *ctx, const op_args *a, value *out)
{
    int64_t shape[TENSOR_MAX_DIMS];
    int nd = 0;
    dtype_id dt = DTYPE_FP32;
    ptodb_status st = kernel_int_list(ctx, a, op_arg(a, 0), "shape", shape, &nd);
    if (st == PTODB_OK)
        st = kernel_dtype_kw(ctx, a, EXEC_KW_DTYPE, DTYPE_FP32, &dt, NULL);
    tensor *r;
    if (st == PTODB_OK)
        st = kernel_zeros(ctx, dt, nd, shape, &r);
    if (st == PTODB_OK)
        *out = value_tensor(r);
    return st;
}

/* tensor.expand_clone(src, target): PyPTO's op doc ("expand tensor to new
 * shape"): src.expand_as(target).clone() in src's dtype, torch's expand
 * rules (trailing dims equal or 1 in src), written into target in place and
 * returned: ConvertTensorToTileOps lowers it to tile.store(..., target)
 * (pypto src/ir/transforms/op_conversion_registry.cpp:912-1010), so an Out
 * target holds the result. */
static ptodb_status op_expand_clone(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *src, *tgt, *r;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &src);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1, &tgt);
    if (st != PTODB_OK)
        return st;
    int nd = tgt->ndim, off = nd - src->ndim;
    if (off < 0)
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: RuntimeError: expand: the number of sizes provided (%d) must be "
                         "greater or equal to the number of dimensions in the tensor (%d)",
                         kernel_op_name(a), nd, src->ndim);
    for (int d = 0; d < src->ndim; d++)
        if (src->shape[d] != 1 && src->shape[d] != tgt->shape[d + off])
            return exec_fail(ctx, PTODB_ERR_SHAPE,
                             "%s: RuntimeError: The expanded size of the tensor (%lld) must match "
                             "the existing size (%lld) at non-singleton dimension %d",
                             kernel_op_name(a), (long long)tgt->shape[d + off],
                             (long long)src->shape[d], d + off);
    st = kernel_zeros(ctx, src->dtype, nd, tgt->shape, &r);
    if (st != PTODB_OK)
        return st;
    int64_t n = tensor_numel(r), pos[TENSOR_MAX_DIMS], sp[TENSOR_MAX_DIMS];
    for (int64_t k = 0; k < n; k++) {
        unflatten(r, k, pos);
        for (int d = 0; d < src->ndim; d++)
            sp[d] = src->shape[d] == 1 ? 0 : pos[d + off];
        if (dtype_is_float(src->dtype))
            tensor_set(r, pos, tensor_get(src, sp));
        else
            tensor_set_i64(r, pos, tensor_get_i64(src, sp));
    }
    if (tgt->dtype == r->dtype && tensor_copy_into(tgt, r) == PTODB_OK) {
        exec_note_gm_access(ctx, tgt, 1);
        exec_note_write(ctx, tgt);
        tensor_unref(r);
        *out = value_copy(op_arg(a, 1));
        return PTODB_OK;
    }
    *out = value_tensor(r);
    return PTODB_OK;
}

/* gather_row(acc, src, dst_offset, src_offset, shapes, valid_shape=): PyPTO's
 * op doc: src[src_offset : src_offset + extent] copied into acc at
 * dst_offset, in place (DPS), extent = valid_shape or shapes; returns acc.
 * The transposed (DN2ZN) load is not modelled: an error. */
static ptodb_status op_gather_row(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *acc, *src;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &acc);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1, &src);
    int64_t doff[TENSOR_MAX_DIMS], soff[TENSOR_MAX_DIMS], ext[TENSOR_MAX_DIMS];
    int nd = 0, ns = 0, ne = 0;
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, op_arg(a, 2), "dst_offset", doff, &nd);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, op_arg(a, 3), "src_offset", soff, &ns);
    const value *vs = op_kw(a, EXEC_KW_VALID_SHAPE);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, vs && vs->kind != VAL_NONE ? vs : op_arg(a, 4), "shapes", ext,
                             &ne);
    if (st != PTODB_OK)
        return st;
    if (kernel_int_kw(a, EXEC_KW_TRANSPOSE, 0))
        return exec_fail(ctx, PTODB_ERR_UNSUPPORTED, "%s: the transposed load is not modelled",
                         kernel_op_name(a));
    if (nd != 2 || ns != 2 || ne != 2 || acc->ndim != 2 || src->ndim != 2)
        return exec_fail(ctx, PTODB_ERR_SHAPE, "%s: expects 2-D tiles, offsets and shapes",
                         kernel_op_name(a));
    for (int d = 0; d < 2; d++)
        if (ext[d] < 0 || doff[d] < 0 || soff[d] < 0 || doff[d] + ext[d] > acc->shape[d] ||
            soff[d] + ext[d] > src->shape[d])
            return exec_fail(ctx, PTODB_ERR_SHAPE,
                             "%s: the window [%lld, %lld] at src [%lld, %lld] / acc [%lld, %lld] "
                             "is outside a source or the accumulator",
                             kernel_op_name(a), (long long)ext[0], (long long)ext[1],
                             (long long)soff[0], (long long)soff[1], (long long)doff[0],
                             (long long)doff[1]);
    tensor *s2 = src->storage == acc->storage ? tensor_clone(src) : tensor_ref(src);
    if (!s2)
        return exec_fail(ctx, PTODB_ERR_NOMEM, "%s: cannot allocate", kernel_op_name(a));
    int isf = dtype_is_float(acc->dtype);
    for (int64_t i = 0; i < ext[0]; i++)
        for (int64_t j = 0; j < ext[1]; j++) {
            int64_t di[2] = {doff[0] + i, doff[1] + j}, si[2] = {soff[0] + i, soff[1] + j};
            if (isf)
                tensor_set(acc, di, tensor_get(s2, si));
            else
                tensor_set_i64(acc, di, tensor_get_i64(s2, si));
        }
    tensor_unref(s2);
    exec_note_write(ctx, acc);
    *out = value_copy(op_arg(a, 0));
    return PTODB_OK;
}

void exec_ops_register_isa(op_fn *table)
{
    table[IR_OP_SYSTEM_SYNCALL] = op_syncall;
    static const int arg_ops[] = {
        IR_OP_TILE_ROW_ARGMAX, IR_OP_TILE_ROW_ARGMIN, IR_OP_TILE_COL_ARGMAX,
        IR_OP_TILE_COL_ARGMIN, IR_OP_TENSOR_ROW_ARGMAX, IR_OP_TENSOR_ROW_ARGMIN,
        IR_OP_TENSOR_COL_ARGMAX, IR_OP_TENSOR_COL_ARGMIN,
    };
    for (size_t k = 0; k < sizeof arg_ops / sizeof arg_ops[0]; k++)
        table[arg_ops[k]] = op_arg_reduce;
    table[IR_OP_TILE_CI] = op_ci;
    table[IR_OP_TENSOR_CI] = op_ci;
    table[IR_OP_TILE_TRI] = op_tri;
    table[IR_OP_TILE_SET_VALIDSHAPE] = op_set_validshape;
    table[IR_OP_TENSOR_SET_VALIDSHAPE] = op_set_validshape;
    table[IR_OP_TILE_GET_BLOCK_NUM] = op_block_num;
    table[IR_OP_TENSOR_GET_BLOCK_NUM] = op_block_num;
    table[IR_OP_SYSTEM_AVAILABLE_AIV_COUNT] = op_block_num;
    table[IR_OP_SYSTEM_AVAILABLE_CLUSTER_COUNT] = op_block_num;
    table[IR_OP_TENSOR_GET_BLOCK_IDX] = op_block_num;
    table[IR_OP_TILE_GATHER] = op_gather;
    table[IR_OP_TILE_SCATTER] = op_scatter;
    table[IR_OP_TILE_MSCATTER] = op_scatter;
    table[IR_OP_TILE_MGATHER] = op_mgather;
    table[IR_OP_TILE_SORT32] = op_sort32;
    table[IR_OP_TENSOR_CREATE_L1] = op_create_l1;
    table[IR_OP_TENSOR_EXPAND_CLONE] = op_expand_clone;
    table[IR_OP_TENSOR_GATHER_ROW] = op_gather_row;
    table[IR_OP_TILE_GATHER_ROW] = op_gather_row;
    table[IR_OP_TILE_MRGSORT_FORMAT1] = op_mrgsort1;
    table[IR_OP_TENSOR_MRGSORT_FORMAT1] = op_mrgsort1;
    table[IR_OP_TILE_MRGSORT_FORMAT2] = op_mrgsort2;
    table[IR_OP_TENSOR_MRGSORT_FORMAT2] = op_mrgsort2;
    table[IR_OP_TENSOR_GATHER] = op_torch_gather_scatter;
    table[IR_OP_TILE_GATHER_MASK] = op_gather_mask;
    table[IR_OP_TENSOR_GATHER_MASK] = op_gather_mask;
    table[IR_OP_TENSOR_SCATTER] = op_torch_gather_scatter;
    table[IR_OP_TENSOR_SORT32] = op_sort32;
    table[IR_OP_TILE_REINTERPRET_VIEW] = op_reinterpret_view;
    table[IR_OP_TENSOR_REINTERPRET_VIEW] = op_reinterpret_view;
}

/* Elementwise binary ops (semantics.md §3.1), tensor/tile ⊕ scalar (§3.2)
 * and the row/column broadcast ops (§3.4). REF evaluates each as one or two
 * torch calls; the numerics live in kernel_elementwise.c. */
#include "exec/op_util.h"
#include "exec/predicate_mask.h"
#include "exec/semantics.h"

#include <string.h>

static ptodb_status finish(ptodb_status st, tensor *r, value *out)
{
    if (st == PTODB_OK)
        *out = value_tensor(r);
    return st;
}

/* The torch op of a plain binary IR op (both tensor⊕tensor and ⊕scalar). */
static int binop_of(int op, kernel_binop *k)
{
    switch (op) {
    case IR_OP_TENSOR_ADD: case IR_OP_TILE_ADD: case IR_OP_TENSOR_ADDS: case IR_OP_TILE_ADDS:
    case IR_OP_TENSOR_PART_ADD: case IR_OP_TILE_PART_ADD:
    case IR_OP_TENSOR_ROW_EXPAND_ADD: case IR_OP_TILE_ROW_EXPAND_ADD:
    case IR_OP_TENSOR_COL_EXPAND_ADD: case IR_OP_TILE_COL_EXPAND_ADD:
        *k = KOP_ADD; return 1;
    case IR_OP_TENSOR_SUB: case IR_OP_TILE_SUB: case IR_OP_TENSOR_SUBS: case IR_OP_TILE_SUBS:
    case IR_OP_TENSOR_ROW_EXPAND_SUB: case IR_OP_TILE_ROW_EXPAND_SUB:
    case IR_OP_TENSOR_COL_EXPAND_SUB: case IR_OP_TILE_COL_EXPAND_SUB:
        *k = KOP_SUB; return 1;
    case IR_OP_TENSOR_MUL: case IR_OP_TILE_MUL: case IR_OP_TENSOR_MULS: case IR_OP_TILE_MULS:
    case IR_OP_TENSOR_PART_MUL: case IR_OP_TILE_PART_MUL:
    case IR_OP_TENSOR_ROW_EXPAND_MUL: case IR_OP_TILE_ROW_EXPAND_MUL:
    case IR_OP_TENSOR_COL_EXPAND_MUL: case IR_OP_TILE_COL_EXPAND_MUL:
        *k = KOP_MUL; return 1;
    case IR_OP_TENSOR_DIV: case IR_OP_TILE_DIV: case IR_OP_TENSOR_DIVS: case IR_OP_TILE_DIVS:
    case IR_OP_TENSOR_ROW_EXPAND_DIV: case IR_OP_TILE_ROW_EXPAND_DIV:
    case IR_OP_TENSOR_COL_EXPAND_DIV: case IR_OP_TILE_COL_EXPAND_DIV:
        *k = KOP_DIV; return 1;
    case IR_OP_TENSOR_MAXIMUM: case IR_OP_TILE_MAXIMUM: case IR_OP_TILE_MAXIMUMS:
    case IR_OP_TENSOR_PART_MAX: case IR_OP_TILE_PART_MAX:
    case IR_OP_TENSOR_ROW_EXPAND_MAX: case IR_OP_TILE_ROW_EXPAND_MAX:
    case IR_OP_TENSOR_COL_EXPAND_MAX: case IR_OP_TILE_COL_EXPAND_MAX:
        *k = KOP_MAX; return 1;
    case IR_OP_TENSOR_MINIMUM: case IR_OP_TILE_MINIMUM: case IR_OP_TILE_MINIMUMS:
    case IR_OP_TENSOR_PART_MIN: case IR_OP_TILE_PART_MIN:
    case IR_OP_TENSOR_ROW_EXPAND_MIN: case IR_OP_TILE_ROW_EXPAND_MIN:
    case IR_OP_TENSOR_COL_EXPAND_MIN: case IR_OP_TILE_COL_EXPAND_MIN:
        *k = KOP_MIN; return 1;
    case IR_OP_TENSOR_FMOD: case IR_OP_TILE_FMOD: case IR_OP_TENSOR_FMODS: case IR_OP_TILE_FMODS:
        *k = KOP_FMOD; return 1;
    case IR_OP_TILE_REM: case IR_OP_TILE_REMS:
        *k = KOP_REM; return 1;
    case IR_OP_TENSOR_AND: case IR_OP_TILE_AND: case IR_OP_TENSOR_ANDS: case IR_OP_TILE_ANDS:
        *k = KOP_AND; return 1;
    case IR_OP_TENSOR_OR: case IR_OP_TILE_OR: case IR_OP_TENSOR_ORS: case IR_OP_TILE_ORS:
        *k = KOP_OR; return 1;
    case IR_OP_TENSOR_XOR: case IR_OP_TILE_XOR: case IR_OP_TENSOR_XORS: case IR_OP_TILE_XORS:
        *k = KOP_XOR; return 1;
    case IR_OP_TENSOR_SHL: case IR_OP_TILE_SHL: case IR_OP_TENSOR_SHLS: case IR_OP_TILE_SHLS:
        *k = KOP_SHL; return 1;
    case IR_OP_TENSOR_SHR: case IR_OP_TILE_SHR: case IR_OP_TENSOR_SHRS: case IR_OP_TILE_SHRS:
        *k = KOP_SHR; return 1;
    default: return 0;
    }
}

static int is_part(int op)
{
    return op == IR_OP_TILE_PART_ADD || op == IR_OP_TILE_PART_MUL || op == IR_OP_TILE_PART_MAX ||
           op == IR_OP_TILE_PART_MIN || op == IR_OP_TENSOR_PART_ADD || op == IR_OP_TENSOR_PART_MUL ||
           op == IR_OP_TENSOR_PART_MAX || op == IR_OP_TENSOR_PART_MIN;
}

/* TPARTADD/MUL/MAX/MIN compute the op where both sources are valid and
 * copy the source that is valid elsewhere (pto-isa cd4a3d3f
 * include/pto/cpu/TPartOp.hpp:19-40): r, src0 OP src1 over the whole tile,
 * takes src0's element inside src0's valid region and outside src1's (the
 * result's valid region is src0's, PyPTO's type), src1's inside src1's only,
 * 0 outside both (semantics.h, part-valid). */
static void part_outside(exec_ctx *ctx, const tensor *x, const tensor *y, tensor *r)
{
    int64_t r0, c0, r1, c1;
    kernel_valid_2d(x, &r0, &c0);
    kernel_valid_2d(y, &r1, &c1);
    if (r->ndim != 2 || (r0 == r1 && c0 == c1 && r0 == r->shape[0] && c0 == r->shape[1]) ||
        !kernel_same_dims(2, x->shape, 2, r->shape) || !kernel_same_dims(2, y->shape, 2, r->shape))
        return;
    int changed = 0;
    int64_t idx[2];
    for (idx[0] = 0; idx[0] < r->shape[0]; idx[0]++)
        for (idx[1] = 0; idx[1] < r->shape[1]; idx[1]++) {
            int in0 = idx[0] < r0 && idx[1] < c0, in1 = idx[0] < r1 && idx[1] < c1;
            if (in0 && in1)
                continue;
            const tensor *from = in0 ? x : in1 ? y : NULL;
            if (dtype_is_float(r->dtype))
                tensor_set(r, idx, from ? tensor_get(from, idx) : 0.0);
            else
                tensor_set_i64(r, idx, from ? tensor_get_i64(from, idx) : 0);
            changed |= in0;
        }
    if (changed)
        exec_note_ref_differs(ctx, EXEC_SEMDIFF_PART_VALID,
                              "where src1's valid region does not reach, the result is src0's element (REF "
                              "applies the op to src1's padding too)");
}

/* a0 OP a1; trailing operands (tmp tiles) are ignored as REF does. */
static ptodb_status op_binary(exec_ctx *ctx, const op_args *a, value *out)
{
    kernel_binop k;
    const value *x, *y;
    if (!binop_of(a->op, &k))
        return exec_fail(ctx, PTODB_ERR_UNSUPPORTED, "%s: not an elementwise op",
                         kernel_op_name(a));
    ptodb_status st = kernel_any_arg(ctx, a, 0, &x);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &y);
    if (st != PTODB_OK)
        return st;
    tensor *r = NULL;
    if ((k == KOP_MAX || k == KOP_MIN) && op_kw(a, EXEC_KW_BY_DEFINITION) &&
        (y->kind == VAL_FLOAT || y->kind == VAL_INT)) {
        /* REF raises here (a Python number is not a Tensor); the op's
         * definition is max/min with the scalar, which torch computes for a
         * 0-d tensor holding it, promoting as a Python scalar would: the
         * tile's dtype within its category, float32 for an int tile and a
         * float scalar. */
        int int_tile = x->kind == VAL_TENSOR && !dtype_is_float(x->u.t->dtype);
        dtype_id sdt = y->kind == VAL_INT ? DTYPE_INT64 : int_tile ? DTYPE_FP32 : DTYPE_FP64;
        tensor *s = tensor_zeros(sdt, 0, NULL, NULL);
        if (!s)
            return exec_fail(ctx, PTODB_ERR_NOMEM, "%s: cannot allocate", kernel_op_name(a));
        if (y->kind == VAL_FLOAT)
            tensor_set(s, NULL, y->u.f);
        else
            tensor_set_i64(s, NULL, y->u.i);
        value sv = value_tensor(s);
        st = kernel_binary(ctx, a, k, x, &sv, &r);
        value_clear(&sv);
        /* a Scalar variable holding a number: REF's TypeError happens at
         * run time, so the machine learns it here (a literal was noted by
         * the lowering) */
        if (st == PTODB_OK && kernel_int_kw(a, EXEC_KW_BY_DEFINITION, 1) == 2) {
            static const char *const why[2][2] = {
                {"TypeError: maximum(): argument 'other' (position 2) must be Tensor, not int",
                 "TypeError: maximum(): argument 'other' (position 2) must be Tensor, not float"},
                {"TypeError: minimum(): argument 'other' (position 2) must be Tensor, not int",
                 "TypeError: minimum(): argument 'other' (position 2) must be Tensor, not float"},
            };
            exec_note_ref_cannot_run(ctx, why[k == KOP_MIN][y->kind == VAL_FLOAT]);
        }
        return finish(st, r, out);
    }
    /* the device's tile-scalar instructions (TADDS, TMULS, TDIVS, ...) take
     * the scalar in the tile's dtype: a Python float is rounded to FP16/BF16
     * before the op, where torch keeps it in its float opmath (pto-isa
     * cd4a3d3f include/pto/cpu/TBinSOps.hpp:154-200, `typename
     * TileSrc::DType scalar`; tests/data/isa/scalar.txt) */
    value ys;
    if (exec_device(ctx) && y->kind == VAL_FLOAT && x->kind == VAL_TENSOR &&
        (x->u.t->dtype == DTYPE_FP16 || x->u.t->dtype == DTYPE_BF16)) {
        ys = value_float(x->u.t->dtype == DTYPE_FP16 ? (double)dtype_round_f16((float)y->u.f)
                                                     : (double)dtype_round_bf16((float)y->u.f));
        if (ys.u.f != y->u.f)
            exec_note_ref_differs(ctx, EXEC_SEMDIFF_SCALAR_DTYPE,
                                  "the scalar is rounded to the tile's dtype before the op (REF keeps the "
                                  "Python float in its float opmath)");
        y = &ys;
    }
    if (exec_device(ctx) && is_part(a->op) && x->kind == VAL_TENSOR && y->kind == VAL_TENSOR &&
        x->u.t->ndim == 2 && y->u.t->ndim == 2) {
        st = kernel_binary(ctx, a, k, x, y, &r);
        if (st == PTODB_OK)
            part_outside(ctx, x->u.t, y->u.t, r);
        return finish(st, r, out);
    }
    /* an operand the machine moved out of a dead slot may take the result */
    st = kernel_binary_reuse(ctx, a, k, x, y, &r);
    return finish(st, r, out);
}

int exec_elementwise_reuses_dead_operand(int op)
{
    kernel_binop k;
    return binop_of(op, &k);
}

/* tile.cmp / tile.cmps: (a0 OP a1) by cmp_type, a bool tensor. */
static ptodb_status op_cmp(exec_ctx *ctx, const op_args *a, value *out)
{
    static const kernel_binop ops[6] = {KOP_EQ, KOP_NE, KOP_LT, KOP_LE, KOP_GT, KOP_GE};
    const value *x, *y;
    ptodb_status st = kernel_any_arg(ctx, a, 0, &x);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &y);
    if (st != PTODB_OK)
        return st;
    int64_t ct = kernel_int_kw(a, EXEC_KW_CMP_TYPE, 0);
    kernel_binop k = (ct >= 0 && ct < 6) ? ops[ct] : KOP_EQ;
    tensor *r = NULL;
    st = kernel_binary(ctx, a, k, x, y, &r); /* before reading r */
    if (st == PTODB_OK && exec_device(ctx) && exec_mask_is_packed_type(a->result_type) && r->ndim == 2) {
        /* the device's packed predicate tile (semantics.h, cmp-mask) */
        const tensor *src = x->kind == VAL_TENSOR ? x->u.t : r;
        int64_t vc = src->valid_ndim == 2 ? src->valid[1] : r->shape[1];
        tensor *packed = NULL;
        st = exec_mask_pack(ctx, a->result_type, r, vc, &packed);
        tensor_unref(r);
        r = packed;
        if (st == PTODB_OK)
            exec_note_ref_differs(ctx, EXEC_SEMDIFF_CMP_MASK,
                                  "the mask is the packed UINT8 predicate tile its type declares, 8 columns a "
                                  "byte (REF would fail: it computes a bool tensor of the source's shape, which "
                                  "its check_shapes rejects)");
    }
    return finish(st, r, out);
}

/* ((a0 ± a1) ± a2): two torch ops, two roundings. Under device semantics
 * TSUBC and TSUBSC add the third operand: src0 - src1 + src2 (pto-isa
 * cd4a3d3f docs/isa/tile/ops/elementwise-tile-tile/tsubc.md:7,
 * include/pto/cpu/ElementOp.h:397-399,561-563; semantics.h, subc-sign),
 * where PyPTO's docstring and REF subtract it. */
static ptodb_status op_chain(exec_ctx *ctx, const op_args *a, value *out)
{
    kernel_binop k = (a->op == IR_OP_TILE_ADDC || a->op == IR_OP_TILE_ADDSC) ? KOP_ADD : KOP_SUB;
    kernel_binop k2 = k == KOP_SUB && exec_device(ctx) ? KOP_ADD : k;
    const value *x, *y, *z;
    ptodb_status st = kernel_any_arg(ctx, a, 0, &x);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &y);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 2, &z);
    if (st != PTODB_OK)
        return st;
    tensor *t1 = NULL, *r = NULL;
    st = kernel_binary(ctx, a, k, x, y, &t1);
    if (st != PTODB_OK)
        return st;
    value v1 = value_tensor(t1);
    st = kernel_binary(ctx, a, k2, &v1, z, &r);
    value_clear(&v1);
    if (st == PTODB_OK && k2 != k)
        exec_note_ref_differs(ctx, EXEC_SEMDIFF_SUBC_SIGN,
                              "TSUBC/TSUBSC compute src0 - src1 + src2 (REF subtracts src2, as PyPTO's docstring "
                              "says)");
    return finish(st, r, out);
}

/* prelu / lrelu: torch.where(a0 > 0, a0, a0 * a1). */
static ptodb_status op_prelu(exec_ctx *ctx, const op_args *a, value *out)
{
    const value *x, *s;
    ptodb_status st = kernel_any_arg(ctx, a, 0, &x);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &s);
    if (st != PTODB_OK)
        return st;
    /* TLRELU takes the slope in the tile's dtype (pto-isa cd4a3d3f
     * include/pto/cpu/TBinSOps.hpp:253, ElementOp.h:514-519), as TMULS */
    value ss;
    if (exec_device(ctx) && s->kind == VAL_FLOAT && x->kind == VAL_TENSOR &&
        (x->u.t->dtype == DTYPE_FP16 || x->u.t->dtype == DTYPE_BF16)) {
        ss = value_float(x->u.t->dtype == DTYPE_FP16 ? (double)dtype_round_f16((float)s->u.f)
                                                     : (double)dtype_round_bf16((float)s->u.f));
        if (ss.u.f != s->u.f)
            exec_note_ref_differs(ctx, EXEC_SEMDIFF_SCALAR_DTYPE,
                                  "the slope is rounded to the tile's dtype before the op (REF keeps the "
                                  "Python float in its float opmath)");
        s = &ss;
    }
    value zero = value_int(0);
    tensor *mask = NULL, *prod = NULL, *r = NULL;
    st = kernel_binary(ctx, a, KOP_GT, x, &zero, &mask);
    if (st != PTODB_OK)
        return st;
    st = kernel_binary(ctx, a, KOP_MUL, x, s, &prod);
    if (st == PTODB_OK) {
        value vm = value_tensor(mask), vp = value_tensor(prod);
        st = kernel_where(ctx, a, &vm, x, &vp, &r);
        value_clear(&vp);
        value_clear(&vm);
    } else {
        tensor_unref(mask);
    }
    return finish(st, r, out);
}

/* tile.sel(mask, lhs, rhs, tmp) and tile.sels(mask, src, tmp, scalar). */
static ptodb_status op_sel(exec_ctx *ctx, const op_args *a, value *out)
{
    const value *m, *x, *y;
    ptodb_status st = kernel_any_arg(ctx, a, 0, &m);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &x);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, a->op == IR_OP_TILE_SELS ? 3 : 2, &y);
    if (st != PTODB_OK)
        return st;
    tensor *r = NULL;
    tensor *bits = NULL;
    value vb;
    /* Under device semantics a UINT8 mask is always the packed predicate tile
     * TSEL reads bit by bit (pto-isa cd4a3d3f include/pto/cpu/TSel.hpp:21-45),
     * whatever its shape: PyPTO's mask of a [R, 32] source is [R, 32] too
     * (src/ir/op/tile_ops/elementwise.cpp:96-114: columns rounded up to 32
     * bytes), so a shape that differs does not tell it apart */
    /* An 8/16/32-bit integer mask is a carrier of the same bits, read
     * byte by byte in memory order (PyPTO's tests/st/runtime/ops/
     * test_sels.py:197-292, TileSelsMaskCarrierTestCase: a 32-byte row of
     * INT8/INT16/INT32 "explicitly loaded mask carrier"); REF's torch.where
     * refuses a non-bool condition. INT64 storage holds a UINT32 carrier. */
    tensor *carrier = NULL;
    value vc_carrier;
    if (exec_device(ctx) && m->kind == VAL_TENSOR && m->u.t->ndim == 2 && m->u.t->dtype != DTYPE_UINT8 &&
        m->u.t->dtype != DTYPE_BOOL && !dtype_is_float(m->u.t->dtype) && x->kind == VAL_TENSOR &&
        x->u.t->ndim == 2) {
        const tensor *mt = m->u.t;
        size_t es = mt->dtype == DTYPE_INT64 || mt->dtype == DTYPE_UINT64 ? 4 : dtype_size(mt->dtype);
        int64_t shp[2] = {mt->shape[0], mt->shape[1] * (int64_t)es};
        st = kernel_zeros(ctx, DTYPE_UINT8, 2, shp, &carrier);
        if (st != PTODB_OK)
            return st;
        uint8_t *dst = tensor_data(carrier);
        int64_t idx[2];
        for (idx[0] = 0; idx[0] < mt->shape[0]; idx[0]++)
            for (idx[1] = 0; idx[1] < mt->shape[1]; idx[1]++) {
                uint64_t v = (uint64_t)tensor_get_i64(mt, idx);
                for (size_t b = 0; b < es; b++)
                    dst[idx[0] * shp[1] + idx[1] * (int64_t)es + (int64_t)b] = (uint8_t)(v >> (8 * b));
            }
        if (mt->valid_ndim == 2 && mt->valid[1] >= 0) {
            carrier->valid_ndim = 2;
            carrier->valid[0] = mt->valid[0];
            carrier->valid[1] = mt->valid[1] * (int64_t)es;
        }
        vc_carrier = value_tensor(carrier);
        m = &vc_carrier;
    }
    if (exec_device(ctx) && m->kind == VAL_TENSOR && m->u.t->dtype == DTYPE_UINT8 && m->u.t->ndim == 2 &&
        x->kind == VAL_TENSOR && x->u.t->ndim == 2) {
        /* a packed predicate tile (semantics.h, cmp-mask): its bits select */
        /* TSEL reads the mask as one bit stream over the valid region's
         * rows (pto-isa cd4a3d3f include/pto/cpu/TSel.hpp:22-45), so a row
         * of valid columns VC starts VC bits after the last */
        const tensor *xt = x->u.t;
        int64_t vr = xt->valid_ndim == 2 && xt->valid[0] >= 0 && xt->valid[0] < xt->shape[0] ? xt->valid[0]
                                                                                         : xt->shape[0];
        int64_t vc = xt->valid_ndim == 2 && xt->valid[1] >= 0 && xt->valid[1] < xt->shape[1] ? xt->valid[1]
                                                                                         : xt->shape[1];
        /* TSELS reads row r's bits from mask row r (pto-isa cd4a3d3f
         * include/pto/cpu/TSelS.hpp:33-40: bit c % 8 of byte c / 8),
         * TSEL one stream over the rows */
        st = exec_mask_unpack(ctx, m->u.t, xt->shape[0], xt->shape[1], vr, vc, a->op == IR_OP_TILE_SELS, &bits);
        if (carrier)
            value_clear(&vc_carrier);
        carrier = NULL;
        if (st != PTODB_OK)
            return st;
        vb = value_tensor(bits);
        m = &vb;
    }
    st = kernel_where(ctx, a, m, x, y, &r);
    if (bits)
        value_clear(&vb);
    return finish(st, r, out);
}

/* expands: torch.full_like(a0, a1), value range-checked (§1.3). */
static ptodb_status op_expands(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t, *r;
    const value *v;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &t);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &v);
    if (st != PTODB_OK)
        return st;
    double f;
    int64_t i;
    st = kernel_checked_scalar(ctx, a, v, t->dtype, &f, &i);
    if (st != PTODB_OK)
        return st;
    st = kernel_zeros(ctx, t->dtype, t->ndim, t->shape, &r);
    if (st != PTODB_OK)
        return st;
    kernel_fill(r, f, i);
    *out = value_tensor(r);
    return PTODB_OK;
}

/* row/col_expand_expdif: torch.exp(a0 - a1), rounded after each op. */
static ptodb_status op_expdif(exec_ctx *ctx, const op_args *a, value *out)
{
    const value *x, *y;
    ptodb_status st = kernel_any_arg(ctx, a, 0, &x);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 1, &y);
    if (st != PTODB_OK)
        return st;
    tensor *d = NULL, *r = NULL;
    st = kernel_binary(ctx, a, KOP_SUB, x, y, &d);
    if (st != PTODB_OK)
        return st;
    st = kernel_unary(ctx, a, KUN_EXP, d, &r);
    tensor_unref(d);
    return finish(st, r, out);
}

/* row_expand / col_expand: a1.expand_as(a0).clone().to(promote_types(a0, a1)). */
static ptodb_status op_expand(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *t, *v, *r;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &t);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1, &v);
    if (st != PTODB_OK)
        return st;
    char tb[160], vb[160];
    if (v->ndim > t->ndim) {
        kernel_fmt_shape(v->ndim, v->shape, vb, sizeof vb);
        kernel_fmt_shape(t->ndim, t->shape, tb, sizeof tb);
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: RuntimeError: expand(%s, size=%s): the number of sizes provided "
                         "(%d) must be greater or equal to the number of dimensions in the "
                         "tensor (%d)",
                         kernel_op_name(a), vb, tb, t->ndim, v->ndim);
    }
    for (int j = v->ndim - 1; j >= 0; j--) {
        int d = t->ndim - v->ndim + j;
        if (v->shape[j] != 1 && v->shape[j] != t->shape[d]) {
            kernel_fmt_shape(v->ndim, v->shape, vb, sizeof vb);
            kernel_fmt_shape(t->ndim, t->shape, tb, sizeof tb);
            return exec_fail(ctx, PTODB_ERR_SHAPE,
                             "%s: RuntimeError: The expanded size of the tensor (%lld) must match "
                             "the existing size (%lld) at non-singleton dimension %d.  Target "
                             "sizes: %s.  Tensor sizes: %s",
                             kernel_op_name(a), (long long)t->shape[d], (long long)v->shape[j], d,
                             tb, vb);
        }
    }
    st = kernel_zeros(ctx, kernel_promote(t->dtype, v->dtype), t->ndim, t->shape, &r);
    if (st != PTODB_OK)
        return st;
    st = kernel_assign(ctx, a, r, v, 0);
    if (st != PTODB_OK) {
        tensor_unref(r);
        return st;
    }
    *out = value_tensor(r);
    return PTODB_OK;
}

void exec_ops_register_elementwise(op_fn *table)
{
    static const int binary_ops[] = {
        IR_OP_TENSOR_ADD, IR_OP_TILE_ADD, IR_OP_TENSOR_SUB, IR_OP_TILE_SUB,
        IR_OP_TENSOR_MUL, IR_OP_TILE_MUL, IR_OP_TENSOR_DIV, IR_OP_TILE_DIV,
        IR_OP_TENSOR_MAXIMUM, IR_OP_TILE_MAXIMUM, IR_OP_TENSOR_MINIMUM, IR_OP_TILE_MINIMUM,
        IR_OP_TENSOR_FMOD, IR_OP_TILE_FMOD, IR_OP_TILE_REM,
        IR_OP_TENSOR_PART_ADD, IR_OP_TILE_PART_ADD, IR_OP_TENSOR_PART_MUL, IR_OP_TILE_PART_MUL,
        IR_OP_TENSOR_PART_MAX, IR_OP_TILE_PART_MAX, IR_OP_TENSOR_PART_MIN, IR_OP_TILE_PART_MIN,
        IR_OP_TENSOR_AND, IR_OP_TILE_AND, IR_OP_TENSOR_OR, IR_OP_TILE_OR,
        IR_OP_TENSOR_XOR, IR_OP_TILE_XOR, IR_OP_TENSOR_SHL, IR_OP_TILE_SHL,
        IR_OP_TENSOR_SHR, IR_OP_TILE_SHR,
        /* ⊕ scalar */
        IR_OP_TENSOR_ADDS, IR_OP_TILE_ADDS, IR_OP_TENSOR_SUBS, IR_OP_TILE_SUBS,
        IR_OP_TENSOR_MULS, IR_OP_TILE_MULS, IR_OP_TENSOR_DIVS, IR_OP_TILE_DIVS,
        IR_OP_TILE_MAXIMUMS, IR_OP_TILE_MINIMUMS, IR_OP_TILE_REMS,
        IR_OP_TENSOR_FMODS, IR_OP_TILE_FMODS, IR_OP_TENSOR_ANDS, IR_OP_TILE_ANDS,
        IR_OP_TENSOR_ORS, IR_OP_TILE_ORS, IR_OP_TENSOR_XORS, IR_OP_TILE_XORS,
        IR_OP_TENSOR_SHLS, IR_OP_TILE_SHLS, IR_OP_TENSOR_SHRS, IR_OP_TILE_SHRS,
        /* row/col broadcast (REF has no col_expand_add handler: ptodb
         * defines it as its siblings, a0 + a1 broadcast; docs/ops.md) */
        IR_OP_TENSOR_COL_EXPAND_ADD, IR_OP_TILE_COL_EXPAND_ADD,
        IR_OP_TENSOR_ROW_EXPAND_ADD, IR_OP_TILE_ROW_EXPAND_ADD,
        IR_OP_TENSOR_ROW_EXPAND_SUB, IR_OP_TILE_ROW_EXPAND_SUB,
        IR_OP_TENSOR_ROW_EXPAND_MUL, IR_OP_TILE_ROW_EXPAND_MUL,
        IR_OP_TENSOR_ROW_EXPAND_DIV, IR_OP_TILE_ROW_EXPAND_DIV,
        IR_OP_TENSOR_ROW_EXPAND_MAX, IR_OP_TILE_ROW_EXPAND_MAX,
        IR_OP_TENSOR_ROW_EXPAND_MIN, IR_OP_TILE_ROW_EXPAND_MIN,
        IR_OP_TENSOR_COL_EXPAND_SUB, IR_OP_TILE_COL_EXPAND_SUB,
        IR_OP_TENSOR_COL_EXPAND_MUL, IR_OP_TILE_COL_EXPAND_MUL,
        IR_OP_TENSOR_COL_EXPAND_DIV, IR_OP_TILE_COL_EXPAND_DIV,
        IR_OP_TENSOR_COL_EXPAND_MAX, IR_OP_TILE_COL_EXPAND_MAX,
        IR_OP_TENSOR_COL_EXPAND_MIN, IR_OP_TILE_COL_EXPAND_MIN,
    };
    for (size_t k = 0; k < sizeof binary_ops / sizeof binary_ops[0]; k++)
        table[binary_ops[k]] = op_binary;
    table[IR_OP_TILE_CMP] = op_cmp;
    table[IR_OP_TENSOR_CMP] = op_cmp; /* REF lacks it: tile.cmp's handler (docs/ops.md) */
    table[IR_OP_TILE_CMPS] = op_cmp;
    table[IR_OP_TILE_ADDC] = op_chain;
    table[IR_OP_TILE_SUBC] = op_chain;
    table[IR_OP_TILE_ADDSC] = op_chain;
    table[IR_OP_TILE_SUBSC] = op_chain;
    table[IR_OP_TILE_PRELU] = op_prelu;
    table[IR_OP_TILE_LRELU] = op_prelu;
    table[IR_OP_TILE_SEL] = op_sel;
    table[IR_OP_TILE_SELS] = op_sel;
    table[IR_OP_TENSOR_EXPANDS] = op_expands;
    table[IR_OP_TILE_EXPANDS] = op_expands;
    table[IR_OP_TENSOR_ROW_EXPAND_EXPDIF] = op_expdif;
    table[IR_OP_TILE_ROW_EXPAND_EXPDIF] = op_expdif;
    table[IR_OP_TENSOR_COL_EXPAND_EXPDIF] = op_expdif;
    table[IR_OP_TILE_COL_EXPAND_EXPDIF] = op_expdif;
    table[IR_OP_TENSOR_ROW_EXPAND] = op_expand;
    table[IR_OP_TILE_ROW_EXPAND] = op_expand;
    table[IR_OP_TENSOR_COL_EXPAND] = op_expand;
    table[IR_OP_TILE_COL_EXPAND] = op_expand;
}

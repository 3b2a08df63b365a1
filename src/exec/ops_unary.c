/* Unary ops and cast (semantics.md §3.3). */
#include "exec/op_util.h"

#include <string.h>
#include "exec/semantics.h"

#include <math.h>

static int unop_of(int op, kernel_unop *k)
{
    switch (op) {
    case IR_OP_TENSOR_NEG: case IR_OP_TILE_NEG: *k = KUN_NEG; return 1;
    case IR_OP_TENSOR_EXP: case IR_OP_TILE_EXP: *k = KUN_EXP; return 1;
    case IR_OP_TENSOR_LOG: case IR_OP_TILE_LOG: *k = KUN_LOG; return 1;
    case IR_OP_TENSOR_SQRT: case IR_OP_TILE_SQRT: *k = KUN_SQRT; return 1;
    case IR_OP_TENSOR_RSQRT: case IR_OP_TILE_RSQRT: *k = KUN_RSQRT; return 1;
    case IR_OP_TENSOR_RECIP: case IR_OP_TILE_RECIP: *k = KUN_RECIP; return 1;
    case IR_OP_TENSOR_ABS: case IR_OP_TILE_ABS: *k = KUN_ABS; return 1;
    case IR_OP_TILE_RELU: *k = KUN_RELU; return 1;
    case IR_OP_TENSOR_NOT: case IR_OP_TILE_NOT: *k = KUN_NOT; return 1;
    case IR_OP_TENSOR_SIN: case IR_OP_TILE_SIN: *k = KUN_SIN; return 1;
    case IR_OP_TENSOR_COS: case IR_OP_TILE_COS: *k = KUN_COS; return 1;
    default: return 0;
    }
}

static ptodb_status op_unary(exec_ctx *ctx, const op_args *a, value *out)
{
    kernel_unop k;
    if (!unop_of(a->op, &k))
        return exec_fail(ctx, PTODB_ERR_UNSUPPORTED, "%s: not a unary op", kernel_op_name(a));
    tensor *x, *r = NULL;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &x);
    if (st != PTODB_OK)
        return st;
    /* an operand the machine moved out of a dead slot may take the result */
    st = kernel_unary_reuse(ctx, a, k, x, &r);
    if (st == PTODB_OK && k == KUN_RSQRT && exec_device(ctx) && x->dtype != DTYPE_FP64)
        exec_note_ref_differs(ctx, EXEC_SEMDIFF_RSQRT_ROUNDING,
                              "TRSQRT rounds 1/sqrt(x) once (REF rounds the root, then the reciprocal)");
    if (st == PTODB_OK)
        *out = value_tensor(r);
    return st;
}

int exec_unary_reuses_dead_operand(int op)
{
    kernel_unop k;
    return unop_of(op, &k);
}

/* TCVT's rounding of a float to an integer by PyPTO's mode (0-6: none rint
 * round floor ceil trunc odd, 7 cast_rint; pto-isa cd4a3d3f
 * include/pto/cpu/TCvt.hpp:75-105 applyRoundingToIntegral). */
static double cvt_round(double v, int64_t mode)
{
    switch (mode) {
    case 1: case 7: return nearbyint(v); /* ties to even (the default FE mode) */
    case 2: return round(v);
    case 3: return floor(v);
    case 4: return ceil(v);
    case 5: return trunc(v);
    case 6: {
        double f = floor(v), frac = v - f;
        if (frac != 0.5)
            return frac > 0.5 ? f + 1 : f;
        return fmod(f, 2.0) != 0 ? f : f + 1;
    }
    default: return v; /* none: the conversion truncates */
    }
}

/* a0.to(dtype(target_type)): the same object when the dtype does not
 * change (attrs survive), else a new tensor without attrs. REF ignores mode
 * (torch truncates a float to an integer); the device's TCVT rounds by it
 * (PyPTO's default is round, ties away from zero): tests/data/isa/cast.txt. */
static ptodb_status op_cast(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *x;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &x);
    if (st != PTODB_OK)
        return st;
    dtype_id dt;
    int present = 0;
    st = kernel_dtype_kw(ctx, a, EXEC_KW_TARGET_TYPE, DTYPE_FP32, &dt, &present);
    if (st == PTODB_OK && !present)
        st = kernel_dtype_kw(ctx, a, EXEC_KW_DTYPE, DTYPE_FP32, &dt, NULL);
    if (st != PTODB_OK)
        return st;
    if (dt == x->dtype) {
        *out = value_tensor(tensor_ref(x));
        return PTODB_OK;
    }
    if (tensor_numel(x) > KERNEL_MAX_ELEMS)
        return exec_fail(ctx, PTODB_ERR_UNSUPPORTED, "%s: tensor too large", kernel_op_name(a));
    tensor *r;
    if (exec_device(ctx) && dtype_is_float(x->dtype) && dtype_is_int(dt)) {
        /* mode= is written as a name in the dumps (mode='rint') or as its
         * number (pypto python/pypto/ir/utils.py:150-185) */
        int64_t mode = kernel_int_kw(a, EXEC_KW_MODE, 2);
        const value *mv = op_kw(a, EXEC_KW_MODE);
        if (mv && mv->kind == VAL_STR) {
            static const char *const names[] = {"none", "rint", "round", "floor", "ceil", "trunc", "odd"};
            for (int k = 0; k < 7; k++)
                if (!strcmp(mv->u.s, names[k]))
                    mode = k;
        }
        tensor *w = tensor_cast(x, DTYPE_FP64); /* exact for every float dtype */
        if (!w)
            return exec_fail(ctx, PTODB_ERR_NOMEM, "%s: cannot allocate the result", kernel_op_name(a));
        double *v = tensor_data(w);
        for (int64_t k = 0; k < tensor_numel(w); k++)
            v[k] = cvt_round(v[k], mode);
        r = tensor_cast(w, dt);
        tensor_unref(w);
        exec_note_ref_differs(ctx, EXEC_SEMDIFF_CAST_ROUNDING,
                              "TCVT rounds a float to an integer by the cast's mode (REF's .to() truncates)");
    } else {
        r = tensor_cast(x, dt);
    }
    if (!r)
        return exec_fail(ctx, PTODB_ERR_NOMEM, "%s: cannot allocate the result",
                         kernel_op_name(a));
    *out = value_tensor(r);
    return PTODB_OK;
}

void exec_ops_register_unary(op_fn *table)
{
    static const int ops[] = {
        IR_OP_TENSOR_NEG, IR_OP_TILE_NEG, IR_OP_TENSOR_EXP, IR_OP_TILE_EXP,
        IR_OP_TENSOR_LOG, IR_OP_TILE_LOG, IR_OP_TENSOR_SQRT, IR_OP_TILE_SQRT,
        IR_OP_TENSOR_RSQRT, IR_OP_TILE_RSQRT, IR_OP_TENSOR_RECIP, IR_OP_TILE_RECIP,
        IR_OP_TENSOR_ABS, IR_OP_TILE_ABS, IR_OP_TILE_RELU, IR_OP_TENSOR_NOT, IR_OP_TILE_NOT,
        IR_OP_TENSOR_SIN, IR_OP_TILE_SIN, IR_OP_TENSOR_COS, IR_OP_TILE_COS,
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        table[ops[k]] = op_unary;
    table[IR_OP_TENSOR_CAST] = op_cast;
    table[IR_OP_TILE_CAST] = op_cast;
}

/* Unary ops and cast (semantics.md §3.3). */
#include "exec/op_util.h"

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
    if (st == PTODB_OK)
        *out = value_tensor(r);
    return st;
}

int exec_unary_reuses_dead_operand(int op)
{
    kernel_unop k;
    return unop_of(op, &k);
}

/* a0.to(dtype(target_type)): the same object when the dtype does not
 * change (attrs survive), else a new tensor without attrs. mode is ignored. */
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
    tensor *r = tensor_cast(x, dt);
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

/* Argument access and names for messages (op_util.h, "names and
 * arguments"): the value side of the ops, which the kernels below never
 * see. */
#include "exec/op_util.h"

#include <string.h>

const char *kernel_op_name(const op_args *a)
{
    const ir_op_info *info = ir_op_info_get(a->op);
    return info ? info->name : "op";
}


/* ---- arguments ---------------------------------------------------------- */

const char *kernel_value_type_name(const value *v)
{
    switch (v->kind) {
    case VAL_BOOL: return "bool";
    case VAL_INT: return "int";
    case VAL_FLOAT: return "float";
    case VAL_TENSOR: return "Tensor";
    case VAL_TUPLE: return "tuple";
    case VAL_NONE: return "NoneType";
    default: return value_kind_name((value_kind)v->kind);
    }
}

ptodb_status kernel_any_arg(exec_ctx *ctx, const op_args *a, uint32_t i, const value **out)
{
    const value *v = op_arg(a, i);
    *out = v; /* set on every path: callers test the status, not the pointer */
    if (!v || v->kind == VAL_UNBOUND)
        return exec_fail(ctx, PTODB_ERR_USAGE, "%s: missing argument %u", kernel_op_name(a), i);
    *out = v;
    return PTODB_OK;
}

ptodb_status kernel_tensor_arg(exec_ctx *ctx, const op_args *a, uint32_t i, tensor **out)
{
    const value *v = NULL;
    *out = NULL;
    ptodb_status st = kernel_any_arg(ctx, a, i, &v);
    if (st != PTODB_OK || !v)
        return st;
    if (v->kind != VAL_TENSOR)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: argument %u must be a Tensor, not %s",
                         kernel_op_name(a), i, kernel_value_type_name(v));
    *out = v->u.t;
    return PTODB_OK;
}

ptodb_status kernel_int(exec_ctx *ctx, const op_args *a, const value *v, const char *what,
                        int64_t *out)
{
    *out = 0;
    if (value_as_int(v, out) != 0)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: %s must be an int, not %s",
                         kernel_op_name(a), what, kernel_value_type_name(v));
    return PTODB_OK;
}

ptodb_status kernel_int_list(exec_ctx *ctx, const op_args *a, const value *v, const char *what,
                             int64_t *out, int *n)
{
    *n = 0;
    if (v->kind == VAL_TUPLE) {
        int k = value_as_int_list(v, out, TENSOR_MAX_DIMS);
        if (k < 0)
            return exec_fail(ctx, PTODB_ERR_RUNTIME,
                             "%s: %s must be a list of at most %d ints", kernel_op_name(a), what,
                             TENSOR_MAX_DIMS);
        *n = k;
        return PTODB_OK;
    }
    if (value_as_int(v, out) == 0) {
        *n = 1;
        return PTODB_OK;
    }
    return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: %s must be a list of ints, not %s",
                     kernel_op_name(a), what, kernel_value_type_name(v));
}

ptodb_status kernel_dtype_kw(exec_ctx *ctx, const op_args *a, exec_kw kw, dtype_id dflt,
                             dtype_id *out, int *present)
{
    const value *v = op_kw(a, kw);
    if (present)
        *present = v != NULL && v->kind != VAL_NONE;
    if (!v || v->kind == VAL_NONE) {
        *out = dflt;
        return PTODB_OK;
    }
    if (value_as_dtype(v, out) != 0)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: %s= must be a dtype", kernel_op_name(a),
                         exec_kw_name(kw));
    return PTODB_OK;
}

int kernel_unsigned_bytes(int32_t ir_dtype)
{
    const ir_enum_info *e = ir_dtype >= 0 ? ir_enum_info_get(ir_dtype) : NULL;
    if (!e)
        return 0;
    return !strcmp(e->name, "UINT16") ? 2 : !strcmp(e->name, "UINT32") ? 4 : 0;
}

int64_t kernel_int_kw(const op_args *a, exec_kw kw, int64_t dflt)
{
    const value *v = op_kw(a, kw);
    int64_t i;
    if (!v)
        return dflt;
    if (v->kind == VAL_ENUM) {
        /* The printer writes atomic=pl.AtomicType.None_ (0) / .Add (1)
         * (ir-format.md); other enums carry no number ops read. */
        if (v->u.e == IR_EV_ATOMIC_TYPE_ADD)
            return 1;
        if (v->u.e == IR_EV_ATOMIC_TYPE_NONE_)
            return 0;
        return dflt;
    }
    if (value_as_int(v, &i) == 0)
        return i;
    return dflt;
}


ptodb_status kernel_opnd_from_value(exec_ctx *ctx, const op_args *a, const value *v,
                                    kernel_opnd *o)
{
    memset(o, 0, sizeof *o);
    switch (v->kind) {
    case VAL_BOOL:
        o->cls = KOPND_NUMBER;
        o->dt = DTYPE_BOOL;
        o->is_int = 1;
        o->i = v->u.b;
        o->f = v->u.b;
        return PTODB_OK;
    case VAL_INT:
        o->cls = KOPND_NUMBER;
        o->dt = DTYPE_INT64;
        o->is_int = 1;
        o->i = v->u.i;
        o->f = (double)v->u.i;
        return PTODB_OK;
    case VAL_FLOAT:
        o->cls = KOPND_NUMBER;
        o->dt = DTYPE_FP64;
        o->f = v->u.f;
        return PTODB_OK;
    case VAL_TENSOR:
        kernel_opnd_of_tensor(v->u.t, o);
        return PTODB_OK;
    default:
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: expected a Tensor or a number, got %s",
                         kernel_op_name(a), kernel_value_type_name(v));
    }
}

/* array.create / array.get_element / array.update_element: PyPTO's
 * stack-local arrays (docs/en/dev/ir/02-types.md, "ArrayType"), which REF
 * has no handler for. An array is held as a 1-D tensor of its element
 * dtype; docs/ops.md records the judgement calls. */
#include "exec/op_util.h"

#include <string.h>

static ptodb_status array_arg(exec_ctx *ctx, const op_args *a, tensor **arr)
{
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, arr);
    if (st == PTODB_OK && (*arr)->ndim != 1)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: an array is 1-D, got %d dims",
                         kernel_op_name(a), (*arr)->ndim);
    return st;
}

static ptodb_status element_index(exec_ctx *ctx, const op_args *a, const tensor *arr, int64_t *i)
{
    const value *iv;
    ptodb_status st = kernel_any_arg(ctx, a, 1, &iv);
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, iv, "index", i);
    if (st == PTODB_OK && (*i < 0 || *i >= arr->shape[0]))
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: index %lld is outside the array's %lld elements",
                         kernel_op_name(a), (long long)*i, (long long)arr->shape[0]);
    return st;
}

/* A TASK_ID array (PTO2TaskId arr[N]) is held as UINT64 raw task ids, the
 * invalid sentinel UINT64_MAX (PTO2TaskId::invalid(), raw all ones), which
 * every element starts as (pypto src/codegen/array_op_codegen.cpp:59-76:
 * "Explicitly fill with the invalid sentinel"); get_element gives None for
 * it, as ptodb's TaskId scalars are None (invalid) or an int (ops_task.c). */
static int task_id_dtype(const value *dv)
{
    if (!dv || dv->kind != VAL_ENUM)
        return 0;
    const ir_enum_info *e = ir_enum_info_get(dv->u.e);
    return e && !strcmp(e->name, "TASK_ID");
}

static int is_task_id_array(const tensor *arr)
{
    return arr->dtype == DTYPE_UINT64;
}

/* create(N, dtype): N zeros (`dtype arr[N] = {0};`) of an integer or BOOL
 * dtype (the v1 constraint), or N invalid task ids of TASK_ID. */
static ptodb_status op_array_create(exec_ctx *ctx, const op_args *a, value *out)
{
    const value *nv, *dv;
    int64_t n = 0;
    ptodb_status st = kernel_any_arg(ctx, a, 0, &nv);
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, nv, "size", &n);
    if (st != PTODB_OK)
        return st;
    dtype_id dt;
    dv = op_arg(a, 1) ? op_arg(a, 1) : op_kw(a, EXEC_KW_DTYPE);
    int tid = task_id_dtype(dv);
    if (tid)
        dt = DTYPE_UINT64;
    else if (!dv || value_as_dtype(dv, &dt) != 0 || dtype_is_float(dt) || dt == DTYPE_UINT64)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: the element dtype must be an integer (up to 32 bits or INT64), BOOL or TASK_ID",
                         kernel_op_name(a));
    if (n < 0)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: negative size %lld", kernel_op_name(a),
                         (long long)n);
    tensor *r;
    st = kernel_zeros(ctx, dt, 1, &n, &r);
    if (st == PTODB_OK && tid)
        for (int64_t i = 0; i < n; i++)
            ((uint64_t *)tensor_data(r))[i] = UINT64_MAX;
    if (st == PTODB_OK)
        *out = value_tensor(r);
    return st;
}

/* get_element(arr, i): element i as a Python int (a Scalar). */
static ptodb_status op_array_get(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *arr;
    int64_t i = 0;
    ptodb_status st = array_arg(ctx, a, &arr);
    if (st == PTODB_OK)
        st = element_index(ctx, a, arr, &i);
    if (st != PTODB_OK)
        return st;
    if (is_task_id_array(arr)) {
        uint64_t raw = ((const uint64_t *)tensor_data(arr))[i * arr->strides[0]];
        *out = raw == UINT64_MAX ? value_none() : value_int((int64_t)raw);
        return PTODB_OK;
    }
    int64_t v = tensor_get_i64(arr, &i);
    *out = arr->dtype == DTYPE_BOOL ? value_bool(v != 0) : value_int(v);
    return PTODB_OK;
}

/* update_element(arr, i, v): the array with element i replaced by v, cast
 * (wrapped) to the element dtype as the codegen's C assignment does. Both
 * codegen paths alias the result to the input's storage and write in
 * place, and so does ptodb: the input array sees the write too. */
static ptodb_status op_array_update(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *arr;
    int64_t i = 0, v = 0;
    const value *vv;
    ptodb_status st = array_arg(ctx, a, &arr);
    if (st == PTODB_OK)
        st = element_index(ctx, a, arr, &i);
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 2, &vv);
    if (st == PTODB_OK && is_task_id_array(arr)) {
        /* a task id (an int) or the invalid sentinel (None) */
        if (vv->kind != VAL_NONE && vv->kind != VAL_INT)
            return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: a TASK_ID array holds task ids", kernel_op_name(a));
        ((uint64_t *)tensor_data(arr))[i * arr->strides[0]] =
            vv->kind == VAL_NONE ? UINT64_MAX : (uint64_t)vv->u.i;
        exec_note_write(ctx, arr);
        *out = value_copy(op_arg(a, 0));
        return PTODB_OK;
    }
    if (st == PTODB_OK)
        st = kernel_int(ctx, a, vv, "value", &v);
    if (st != PTODB_OK)
        return st;
    tensor_set_i64(arr, &i, arr->dtype == DTYPE_BOOL ? v != 0 : kernel_wrap_int(arr->dtype, v));
    exec_note_write(ctx, arr);
    *out = value_copy(op_arg(a, 0));
    return PTODB_OK;
}

void exec_ops_register_array(op_fn *table)
{
    table[IR_OP_ARRAY_CREATE] = op_array_create;
    table[IR_OP_ARRAY_GET_ELEMENT] = op_array_get;
    table[IR_OP_ARRAY_UPDATE_ELEMENT] = op_array_update;
}

/* array.create / array.get_element / array.update_element: PyPTO's
 * stack-local arrays (docs/en/dev/ir/02-types.md, "ArrayType"), which REF
 * has no handler for. An array is held as a 1-D tensor of its element
 * dtype; docs/ops.md records the judgement calls. */
#include "exec/op_util.h"

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

/* create(N, dtype): N zeros (`dtype arr[N] = {0};`). The element dtype must
 * be an integer or BOOL (the v1 constraint); TASK_ID arrays hold runtime
 * task handles the machine does not model and are an error. */
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
    if (!dv || value_as_dtype(dv, &dt) != 0 || dtype_is_float(dt))
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: the element dtype must be an integer or BOOL (task-id arrays are "
                         "not modelled)",
                         kernel_op_name(a));
    if (n < 0)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: negative size %lld", kernel_op_name(a),
                         (long long)n);
    tensor *r;
    st = kernel_zeros(ctx, dt, 1, &n, &r);
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

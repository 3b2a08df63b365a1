/* system.task_invalid / task_dummy / task_is_valid: PyPTO's TaskId ops
 * (src/ir/op/sync_ops/task.cpp), which REF has no handler for. A TaskId is
 * an opaque Scalar[TASK_ID] handle, PTO2TaskId in the runtime (raw
 * (ring << 32) | local, invalid sentinel raw == UINT64_MAX). ptodb holds the
 * sentinel as None, PyPTO's own DSL spelling of it (02-types.md: `None` in
 * a TaskId position lowers to task_invalid), which is also what a
 * `with pl.at(...) as tid:` name holds before OutlineIncoreScopes; a real
 * task id is a Python int, its raw encoding. docs/ops.md records this. */
#include "exec/op_util.h"

/* task_invalid(): PTO2TaskId::invalid(), "no producer yet". */
static ptodb_status op_task_invalid(exec_ctx *ctx, const op_args *a, value *out)
{
    (void)ctx;
    (void)a;
    *out = value_none();
    return PTODB_OK;
}

/* task_dummy(deps=[...]): the orchestration submits a dependency-only task
 * (rt_submit_dummy_task) and binds its producer id, a valid handle. ptodb
 * runs no tasks, so the dummy is the first task of ring 0: raw 0. Task ids
 * have no arithmetic or comparison in the IR, so only task_is_valid can
 * observe the value; deps= only orders tasks and is not read. */
static ptodb_status op_task_dummy(exec_ctx *ctx, const op_args *a, value *out)
{
    (void)ctx;
    (void)a;
    *out = value_int(0);
    return PTODB_OK;
}

/* task_is_valid(t): PTO2TaskId::is_valid(), i.e. t is not the sentinel. */
static ptodb_status op_task_is_valid(exec_ctx *ctx, const op_args *a, value *out)
{
    const value *t;
    ptodb_status st = kernel_any_arg(ctx, a, 0, &t);
    if (st != PTODB_OK)
        return st;
    if (t->kind != VAL_NONE && t->kind != VAL_INT)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: the argument must be a Scalar[TASK_ID] (a task id or the "
                         "task_invalid sentinel)",
                         kernel_op_name(a));
    *out = value_bool(t->kind == VAL_INT);
    return PTODB_OK;
}

void exec_ops_register_task(op_fn *table)
{
    table[IR_OP_SYSTEM_TASK_INVALID] = op_task_invalid;
    table[IR_OP_SYSTEM_TASK_DUMMY] = op_task_dummy;
    table[IR_OP_SYSTEM_TASK_IS_VALID] = op_task_is_valid;
}

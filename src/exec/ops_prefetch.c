/* prefetch.make_context / async_prefetch / session / wait: PyPTO's L2
 * prefetch family (docs/en/dev/ir/05-operators.md, "Prefetch"), which REF
 * has no handler for. By PyPTO's own definition "the prefetch changes no
 * tensor values — a kernel is numerically identical with or without it",
 * and the machine models no L2, so each op only checks its operands: the
 * context, event and session are opaque singleton markers (None here) and
 * wait reports the event complete (True). docs/ops.md records this. */
#include "exec/op_util.h"

/* make_context(), session(ctx): opaque markers. */
static ptodb_status op_prefetch_marker(exec_ctx *ctx, const op_args *a, value *out)
{
    (void)ctx;
    (void)a;
    *out = value_none();
    return PTODB_OK;
}

/* async_prefetch(src, ctx): src must be a global tensor; nothing moves. */
static ptodb_status op_async_prefetch(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *src;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &src);
    if (st != PTODB_OK)
        return st;
    *out = value_none();
    return PTODB_OK;
}

/* wait(evt, session): the prefetch has landed. */
static ptodb_status op_prefetch_wait(exec_ctx *ctx, const op_args *a, value *out)
{
    const value *v;
    ptodb_status st = kernel_any_arg(ctx, a, 1, &v);
    if (st != PTODB_OK)
        return st;
    *out = value_bool(1);
    return PTODB_OK;
}

void exec_ops_register_prefetch(op_fn *table)
{
    table[IR_OP_PREFETCH_MAKE_CONTEXT] = op_prefetch_marker;
    table[IR_OP_PREFETCH_SESSION] = op_prefetch_marker;
    table[IR_OP_PREFETCH_ASYNC_PREFETCH] = op_async_prefetch;
    table[IR_OP_PREFETCH_WAIT] = op_prefetch_wait;
}

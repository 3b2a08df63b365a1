/* The kernels of src/kernels/ as ops call them (op_util.h, "the kernels as
 * ops call them"): a kernel_call names the op and the profile, and a
 * failure's message reaches exec_fail as the kernel wrote it. */
#include "exec/op_util.h"
#include "exec/semantics.h"

/* The kernel_call of op a (NULL for the kernels whose messages name no op). */
static void call_of(kernel_call *kc, const op_args *a, int t13)
{
    kernel_call_init(kc, a ? kernel_op_name(a) : NULL, t13);
}

static int t13_of(const exec_ctx *ctx)
{
    return exec_profile(ctx) == EXEC_PROFILE_T13;
}

/* st, after handing the kernel's failure (if any) to the machine. */
static ptodb_status relay(exec_ctx *ctx, const kernel_call *kc, ptodb_status st)
{
    if (kc->failed)
        exec_fail(ctx, kc->status, "%s", kc->msg);
    return st;
}

ptodb_status kernel_zeros(exec_ctx *ctx, dtype_id dt, int nd, const int64_t *shape, tensor **out)
{
    kernel_call kc;
    call_of(&kc, NULL, 0);
    return relay(ctx, &kc, kernels_zeros(&kc, dt, nd, shape, out));
}

ptodb_status kernel_broadcast(exec_ctx *ctx, int n, const int *nds, const int64_t *const *shapes,
                              int *ond, int64_t *oshape)
{
    kernel_call kc;
    call_of(&kc, NULL, 0);
    return relay(ctx, &kc, kernels_broadcast(&kc, n, nds, shapes, ond, oshape));
}

ptodb_status kernel_slice_view(exec_ctx *ctx, const tensor *t, int k, const int64_t *start,
                               const int64_t *size, tensor **out)
{
    kernel_call kc;
    call_of(&kc, NULL, 0);
    return relay(ctx, &kc, kernels_slice_view(&kc, t, k, start, size, out));
}

ptodb_status kernel_head_view(exec_ctx *ctx, const tensor *t, int k, const int64_t *stop,
                              tensor **out)
{
    kernel_call kc;
    call_of(&kc, NULL, 0);
    return relay(ctx, &kc, kernels_head_view(&kc, t, k, stop, out));
}

ptodb_status kernel_assign(exec_ctx *ctx, const op_args *a, tensor *dst, const tensor *src,
                           int accumulate)
{
    kernel_call kc;
    call_of(&kc, a, 0);
    return relay(ctx, &kc, kernels_assign(&kc, dst, src, accumulate));
}

ptodb_status kernel_pad_copy(exec_ctx *ctx, const op_args *a, const tensor *src, int nd,
                             const int64_t *shape, tensor **out)
{
    kernel_call kc;
    call_of(&kc, a, 0);
    return relay(ctx, &kc, kernels_pad_copy(&kc, src, nd, shape, out));
}

ptodb_status kernel_checked_scalar(exec_ctx *ctx, const op_args *a, const value *v, dtype_id dt,
                                   double *f, int64_t *i)
{
    kernel_opnd o;
    ptodb_status st = kernel_opnd_from_value(ctx, a, v, &o);
    if (st != PTODB_OK)
        return st;
    kernel_call kc;
    call_of(&kc, a, 0);
    return relay(ctx, &kc, kernels_checked_scalar(&kc, &o, dt, f, i));
}

static ptodb_status binary_values(exec_ctx *ctx, const op_args *a, kernel_binop op,
                                  const value *x, const value *y, int reuse, tensor **out)
{
    kernel_opnd o[2];
    ptodb_status st = kernel_opnd_from_value(ctx, a, x, &o[0]);
    if (st == PTODB_OK)
        st = kernel_opnd_from_value(ctx, a, y, &o[1]);
    if (st != PTODB_OK)
        return st;
    if ((op == KOP_MAX || op == KOP_MIN) && (o[0].cls == KOPND_NUMBER || o[1].cls == KOPND_NUMBER)) {
        int pos = o[0].cls == KOPND_NUMBER ? 0 : 1;
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: TypeError: %s(): argument '%s' (position %d) must be Tensor, not %s",
                         kernel_op_name(a), op == KOP_MAX ? "maximum" : "minimum",
                         pos ? "other" : "input", pos + 1,
                         kernel_value_type_name(pos ? y : x));
    }
    if (o[0].cls != KOPND_DIM && o[0].cls != KOPND_ZERO && o[1].cls == KOPND_NUMBER)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: expected a Tensor operand",
                         kernel_op_name(a));
    kernel_call kc;
    call_of(&kc, a, t13_of(ctx));
    kc.device = exec_device(ctx);
    st = relay(ctx, &kc, kernels_binary(&kc, op, o, reuse, out));
    if (st == PTODB_OK && kc.differs)
        exec_note_ref_differs(ctx, EXEC_SEMDIFF_FMOD_EXACT,
                              "the remainder is the exact fmod; REF's vectorised SLEEF fmodf gives NaN where "
                              "|x / y| passes FLT_MAX");
    return st;
}

ptodb_status kernel_binary(exec_ctx *ctx, const op_args *a, kernel_binop op, const value *x,
                           const value *y, tensor **out)
{
    return binary_values(ctx, a, op, x, y, 0, out);
}

ptodb_status kernel_binary_reuse(exec_ctx *ctx, const op_args *a, kernel_binop op, const value *x,
                                 const value *y, tensor **out)
{
    return binary_values(ctx, a, op, x, y, 1, out);
}

ptodb_status kernel_binary_t(exec_ctx *ctx, const op_args *a, kernel_binop op, const tensor *x,
                             const tensor *y, tensor **out)
{
    kernel_opnd o[2];
    kernel_opnd_of_tensor(x, &o[0]);
    kernel_opnd_of_tensor(y, &o[1]);
    kernel_call kc;
    call_of(&kc, a, t13_of(ctx));
    return relay(ctx, &kc, kernels_binary(&kc, op, o, 0, out));
}

ptodb_status kernel_where(exec_ctx *ctx, const op_args *a, const value *mask, const value *x,
                          const value *y, tensor **out)
{
    kernel_opnd o[3];
    ptodb_status st = kernel_opnd_from_value(ctx, a, mask, &o[0]);
    if (st == PTODB_OK)
        st = kernel_opnd_from_value(ctx, a, x, &o[1]);
    if (st == PTODB_OK)
        st = kernel_opnd_from_value(ctx, a, y, &o[2]);
    if (st != PTODB_OK)
        return st;
    if (o[0].cls == KOPND_NUMBER)
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "%s: TypeError: where(): argument 'condition' must be Tensor, not %s",
                         kernel_op_name(a), kernel_value_type_name(mask));
    kernel_call kc;
    call_of(&kc, a, t13_of(ctx));
    return relay(ctx, &kc, kernels_where(&kc, o, out));
}

ptodb_status kernel_unary(exec_ctx *ctx, const op_args *a, kernel_unop op, const tensor *x,
                          tensor **out)
{
    kernel_call kc;
    call_of(&kc, a, t13_of(ctx));
    kc.device = exec_device(ctx);
    return relay(ctx, &kc, kernels_unary(&kc, op, x, 0, out));
}

ptodb_status kernel_unary_reuse(exec_ctx *ctx, const op_args *a, kernel_unop op, const tensor *x,
                                tensor **out)
{
    kernel_call kc;
    call_of(&kc, a, t13_of(ctx));
    kc.device = exec_device(ctx);
    return relay(ctx, &kc, kernels_unary(&kc, op, x, 1, out));
}

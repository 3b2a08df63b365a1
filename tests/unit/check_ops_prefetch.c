/* Unit tests for src/exec/ops_prefetch.c: PyPTO's prefetch family changes
 * no tensor values (05-operators, "Prefetch"), so by hand: the markers
 * are None, async_prefetch leaves its source untouched and writes nothing,
 * wait is True. IR_OP_PREFETCH_MAKE_CONTEXT, IR_OP_PREFETCH_SESSION,
 * IR_OP_PREFETCH_ASYNC_PREFETCH, IR_OP_PREFETCH_WAIT. */
#include "check_ops_util.h"

static exec_ctx C;

START_TEST(test_prefetch)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_PREFETCH_MAKE_CONTEXT, NULL, 0, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_NONE);
    double x[4] = {1, NAN, -0.0, 4};
    tensor *src = mk2(DTYPE_FP32, 1, 4, x);
    value p[2] = {value_tensor(tensor_ref(src)), value_none()};
    ck_assert_int_eq(run_op(&C, IR_OP_PREFETCH_ASYNC_PREFETCH, p, 2, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_NONE);
    ck_assert_int_eq(C.writes, 0);
    expect_vals(src, x, 4);
    clear_all(p, 2);
    tensor_unref(src);
    value s[1] = {value_none()};
    ck_assert_int_eq(run_op(&C, IR_OP_PREFETCH_SESSION, s, 1, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_NONE);
    value w[2] = {value_none(), value_none()};
    ck_assert_int_eq(run_op(&C, IR_OP_PREFETCH_WAIT, w, 2, &out), PTODB_OK);
    ck_assert(out.kind == VAL_BOOL && out.u.b == 1);
    /* a source that is not a tensor is refused */
    value bad[2] = {value_int(3), value_none()};
    ck_assert_int_ne(run_op(&C, IR_OP_PREFETCH_ASYNC_PREFETCH, bad, 2, &out), PTODB_OK);
    ck_assert(strstr(C.msg, "must be a Tensor, not int") != NULL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_prefetch");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_prefetch);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* Unit tests for the kernels floor (src/kernels/) on its own terms: a
 * kernel_call carries the op name and the profile in and the first
 * failure's status and message out, with no machine. Oracles: messages
 * derived by hand from torch's rules (in the comments), values by hand, and
 * the metamorphic one that matters for users: the same failure reached
 * through the op table (exec's wrappers, exec_fail) has the same text as
 * the floor's kernel_call. */
#include <stdlib.h>

#include "check_ops_util.h"
#include "kernels/kernel_util.h"

static exec_ctx C;

static const char *op_name(int op)
{
    return ir_op_info_get(op)->name;
}

START_TEST(test_fail_first_wins)
{
    kernel_call kc;
    kernel_call_init(&kc, "tile.add", 0);
    ck_assert_int_eq(kc.failed, 0);
    ck_assert_int_eq(kernels_fail(&kc, PTODB_ERR_SHAPE, "first %d", 1), PTODB_ERR_SHAPE);
    ck_assert_int_eq(kernels_fail(&kc, PTODB_ERR_RUNTIME, "second"), PTODB_ERR_RUNTIME);
    ck_assert_int_eq(kc.failed, 1);
    ck_assert_int_eq(kc.status, PTODB_ERR_SHAPE);
    ck_assert_str_eq(kc.msg, "first 1");
}
END_TEST

START_TEST(test_broadcast_and_zeros)
{
    kernel_call kc;
    /* torch's infer_size from the last dim: [2,3] sets [2,3]; [2] meets 3
     * at dim 1, neither is 1 */
    int64_t a[2] = {2, 3}, b[1] = {2}, out[TENSOR_MAX_DIMS];
    const int64_t *shapes[2] = {a, b};
    int nds[2] = {2, 1}, nd = -1;
    kernel_call_init(&kc, NULL, 0);
    ck_assert_int_eq(kernels_broadcast(&kc, 2, nds, shapes, &nd, out), PTODB_ERR_SHAPE);
    ck_assert_str_eq(kc.msg, "The size of tensor a (3) must match the size of tensor b (2) at "
                             "non-singleton dimension 1");
    /* [2,1] with [3] -> [2,3] */
    int64_t c[2] = {2, 1}, d[1] = {3};
    const int64_t *shapes2[2] = {c, d};
    kernel_call_init(&kc, NULL, 0);
    ck_assert_int_eq(kernels_broadcast(&kc, 2, nds, shapes2, &nd, out), PTODB_OK);
    ck_assert_int_eq(kc.failed, 0);
    ck_assert_int_eq(nd, 2);
    ck_assert_int_eq(out[0], 2);
    ck_assert_int_eq(out[1], 3);
    tensor *t = NULL;
    int64_t bad[1] = {-1};
    kernel_call_init(&kc, NULL, 0);
    ck_assert_int_eq(kernels_zeros(&kc, DTYPE_FP32, 1, bad, &t), PTODB_ERR_SHAPE);
    ck_assert_str_eq(kc.msg, "invalid shape [-1]");
}
END_TEST

START_TEST(test_binary_values)
{
    kernel_call kc;
    double xv[2] = {1.5, 2}, yv[2] = {3, -4.25};
    tensor *x = mk1(DTYPE_FP32, 2, xv), *y = mk1(DTYPE_FP32, 2, yv), *r = NULL;
    kernel_opnd o[2];
    kernel_opnd_of_tensor(x, &o[0]);
    kernel_opnd_of_tensor(y, &o[1]);
    kernel_call_init(&kc, "tile.add", 0);
    ck_assert_int_eq(kernels_binary(&kc, KOP_ADD, o, 0, &r), PTODB_OK);
    double e[2] = {4.5, -2.25}; /* exact in fp32 */
    expect_vals(r, e, 2);
    tensor_unref(r);
    tensor_unref(x);
    tensor_unref(y);
}
END_TEST

/* op on (x, y) through the op table and through the floor: the same
 * failure, the same status and text. */
static void same_failure_binary(int op, kernel_binop kop, tensor *x, tensor *y, const char *expect)
{
    kernel_call kc;
    kernel_opnd o[2];
    tensor *r = NULL;
    kernel_opnd_of_tensor(x, &o[0]);
    kernel_opnd_of_tensor(y, &o[1]);
    kernel_call_init(&kc, op_name(op), 0);
    ptodb_status fst = kernels_binary(&kc, kop, o, 0, &r);
    ck_assert_int_ne(fst, PTODB_OK);
    ck_assert_str_eq(kc.msg, expect);
    ctx_init(&C, EXEC_PROFILE_T2);
    value pos[2] = {value_tensor(x), value_tensor(y)}, out;
    ptodb_status st = run_op(&C, op, pos, 2, &out);
    ck_assert_int_eq(st, fst);
    ck_assert_int_eq(C.failures, 1);
    ck_assert_str_eq(C.msg, kc.msg);
    clear_all(pos, 2);
}

START_TEST(test_same_text_through_the_op)
{
    double v[6] = {1, 0, 1, 0, 1, 1};
    /* torch's sub_check refuses bool operands, naming the op first */
    same_failure_binary(IR_OP_TILE_SUB, KOP_SUB, mk1(DTYPE_BOOL, 2, v), mk1(DTYPE_BOOL, 2, v),
                        "tile.sub: RuntimeError: Subtraction, the `-` operator, with two bool "
                        "tensors is not supported. If you are trying to invert a mask, use the "
                        "`~` or `logical_not()` operator instead.");
    same_failure_binary(IR_OP_TILE_SUB, KOP_SUB, mk2(DTYPE_FP32, 2, 3, v), mk1(DTYPE_FP32, 2, v),
                        "The size of tensor a (3) must match the size of tensor b (2) at "
                        "non-singleton dimension 1");
    /* unary: the kernel names the op too */
    kernel_call kc;
    tensor *b = mk1(DTYPE_BOOL, 2, v), *r = NULL;
    kernel_call_init(&kc, op_name(IR_OP_TILE_NEG), 0);
    ck_assert_int_eq(kernels_unary(&kc, KUN_NEG, b, 0, &r), PTODB_ERR_RUNTIME);
    ctx_init(&C, EXEC_PROFILE_T2);
    value pos[1] = {value_tensor(b)}, out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_NEG, pos, 1, &out), PTODB_ERR_RUNTIME);
    ck_assert_str_eq(C.msg, kc.msg);
    ck_assert_str_eq(kc.msg, "tile.neg: RuntimeError: Negation, the `-` operator, on a bool "
                             "tensor is not supported. If you are trying to invert a mask, use "
                             "the `~` or `logical_not()` operator instead.");
    clear_all(pos, 1);
}
END_TEST

/* The profile reaches the kernel through kernel_call.t13: torch 1.13's
 * where takes a uint8 condition, torch 2's refuses it. */
START_TEST(test_profile_in_the_call)
{
    double mv[2] = {1, 0}, xv[2] = {1, 2}, yv[2] = {3, 4};
    tensor *m = mk1(DTYPE_UINT8, 2, mv), *x = mk1(DTYPE_FP32, 2, xv), *y = mk1(DTYPE_FP32, 2, yv);
    kernel_opnd o[3];
    kernel_opnd_of_tensor(m, &o[0]);
    kernel_opnd_of_tensor(x, &o[1]);
    kernel_opnd_of_tensor(y, &o[2]);
    kernel_call kc;
    tensor *r = NULL;
    kernel_call_init(&kc, "tile.sel", 0);
    ck_assert_int_eq(kernels_where(&kc, o, &r), PTODB_ERR_RUNTIME);
    ck_assert_str_eq(kc.msg, "tile.sel: RuntimeError: where expected condition to be a boolean "
                             "tensor, but got a tensor with dtype Byte");
    kernel_call_init(&kc, "tile.sel", 1);
    ck_assert_int_eq(kernels_where(&kc, o, &r), PTODB_OK);
    double e[2] = {1, 4};
    expect_vals(r, e, 2);
    tensor_unref(r);
    tensor_unref(m);
    tensor_unref(x);
    tensor_unref(y);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("kernels");
    TCase *tc = tcase_create("kernel_call");
    tcase_add_test(tc, test_fail_first_wins);
    tcase_add_test(tc, test_broadcast_and_zeros);
    tcase_add_test(tc, test_binary_values);
    tcase_add_test(tc, test_same_text_through_the_op);
    tcase_add_test(tc, test_profile_in_the_call);
    suite_add_tcase(s, tc);
    return run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}

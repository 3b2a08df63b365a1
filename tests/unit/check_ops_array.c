/* Unit tests for src/exec/ops_array.c: PyPTO's stack-local arrays
 * (02-types.md "ArrayType"), expected values by hand from the doc's C
 * lowering: `dtype arr[N] = {0}`, `v = arr[i]`, `arr[i] = v` (in place,
 * the value converted to the element dtype). IR_OP_ARRAY_CREATE,
 * IR_OP_ARRAY_GET_ELEMENT, IR_OP_ARRAY_UPDATE_ELEMENT. */
#include "check_ops_util.h"

static exec_ctx C;

START_TEST(test_array)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    value p[3] = {value_int(5), value_enum(IR_EV_DTYPE_INT8)}, arr, out;
    ck_assert_int_eq(run_op(&C, IR_OP_ARRAY_CREATE, p, 2, &arr), PTODB_OK);
    ck_assert_int_eq(arr.kind, VAL_TENSOR);
    ck_assert_int_eq(arr.u.t->dtype, DTYPE_INT8);
    ck_assert_int_eq(arr.u.t->shape[0], 5);
    double zeros[5] = {0, 0, 0, 0, 0};
    expect_vals(arr.u.t, zeros, 5);

    /* arr[4] = 200 wraps to int8 -56 (the C assignment); arr[0] = -1 */
    value u[3] = {value_copy(&arr), value_int(4), value_int(200)};
    ck_assert_int_eq(run_op(&C, IR_OP_ARRAY_UPDATE_ELEMENT, u, 3, &out), PTODB_OK);
    ck_assert_ptr_eq(out.u.t, arr.u.t); /* aliases the input's storage */
    ck_assert_int_eq(C.writes, 1);
    value_clear(&out);
    clear_all(u, 3);
    value u2[3] = {value_copy(&arr), value_int(0), value_int(-1)};
    ck_assert_int_eq(run_op(&C, IR_OP_ARRAY_UPDATE_ELEMENT, u2, 3, &out), PTODB_OK);
    value_clear(&out);
    clear_all(u2, 3);
    double e[5] = {-1, 0, 0, 0, -56};
    expect_vals(arr.u.t, e, 5);

    value g[2] = {value_copy(&arr), value_int(4)};
    ck_assert_int_eq(run_op(&C, IR_OP_ARRAY_GET_ELEMENT, g, 2, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_INT);
    ck_assert_int_eq(out.u.i, -56);
    clear_all(g, 2);

    /* out of range both ways, and a float element dtype */
    value g2[2] = {value_copy(&arr), value_int(5)};
    ck_assert_int_ne(run_op(&C, IR_OP_ARRAY_GET_ELEMENT, g2, 2, &out), PTODB_OK);
    ck_assert(strstr(C.msg, "outside the array's 5 elements") != NULL);
    clear_all(g2, 2);
    value u3[3] = {value_copy(&arr), value_int(-1), value_int(0)};
    ck_assert_int_ne(run_op(&C, IR_OP_ARRAY_UPDATE_ELEMENT, u3, 3, &out), PTODB_OK);
    clear_all(u3, 3);
    value_clear(&arr);
    value f[2] = {value_int(4), value_enum(IR_EV_DTYPE_FP32)};
    ck_assert_int_ne(run_op(&C, IR_OP_ARRAY_CREATE, f, 2, &out), PTODB_OK);
    ck_assert(strstr(C.msg, "integer") != NULL);

    /* a BOOL array reads back Python bools */
    value b[2] = {value_int(2), value_enum(IR_EV_DTYPE_BOOL)};
    ck_assert_int_eq(run_op(&C, IR_OP_ARRAY_CREATE, b, 2, &arr), PTODB_OK);
    value ub[3] = {value_copy(&arr), value_int(1), value_int(7)};
    ck_assert_int_eq(run_op(&C, IR_OP_ARRAY_UPDATE_ELEMENT, ub, 3, &out), PTODB_OK);
    value_clear(&out);
    clear_all(ub, 3);
    value gb[2] = {value_copy(&arr), value_int(1)};
    ck_assert_int_eq(run_op(&C, IR_OP_ARRAY_GET_ELEMENT, gb, 2, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_BOOL);
    ck_assert_int_eq(out.u.b, 1);
    clear_all(gb, 2);
    value_clear(&arr);
}
END_TEST

/* PTO2TaskId arr[N]: every element starts as PTO2TaskId::invalid() (pypto
 * src/codegen/array_op_codegen.cpp:59-76), read back as None (ptodb's
 * TaskId sentinel); a task id written reads back as that int. */
START_TEST(test_task_id_array)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    value p[2] = {value_int(2), value_enum(IR_EV_DTYPE_TASK_ID)}, arr, out;
    ck_assert_int_eq(run_op(&C, IR_OP_ARRAY_CREATE, p, 2, &arr), PTODB_OK);
    value g[2] = {value_copy(&arr), value_int(1)};
    ck_assert_int_eq(run_op(&C, IR_OP_ARRAY_GET_ELEMENT, g, 2, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_NONE);
    clear_all(g, 2);
    value u[3] = {value_copy(&arr), value_int(0), value_int(7)};
    ck_assert_int_eq(run_op(&C, IR_OP_ARRAY_UPDATE_ELEMENT, u, 3, &out), PTODB_OK);
    value_clear(&out);
    clear_all(u, 3);
    value g0[2] = {value_copy(&arr), value_int(0)};
    ck_assert_int_eq(run_op(&C, IR_OP_ARRAY_GET_ELEMENT, g0, 2, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_INT);
    ck_assert_int_eq(out.u.i, 7);
    clear_all(g0, 2);
    /* writing the sentinel back */
    value u2[3] = {value_copy(&arr), value_int(0), value_none()};
    ck_assert_int_eq(run_op(&C, IR_OP_ARRAY_UPDATE_ELEMENT, u2, 3, &out), PTODB_OK);
    value_clear(&out);
    clear_all(u2, 3);
    value g1[2] = {value_copy(&arr), value_int(0)};
    ck_assert_int_eq(run_op(&C, IR_OP_ARRAY_GET_ELEMENT, g1, 2, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_NONE);
    clear_all(g1, 2);
    value_clear(&arr);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_array");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_array);
    tcase_add_test(tc, test_task_id_array);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* Unit tests for src/exec/scalar.c (semantics.md §4): the machine's scalar
 * arithmetic on Python ints, floats and bools, and on 0-d torch tensors.
 * Expected values are Python 3 / torch results worked by hand (each case
 * says the Python expression): floor division and modulo round toward -inf
 * and take the divisor's sign, ** and shifts of ints, 64-bit overflow
 * (an error here: REF's ints are unbounded), comparisons with NaN and -0.0,
 * and torch's promotion, wrap and rounding for 0-d tensors. */
#include "check_ops_util.h"

#include <stdint.h>

#include "exec/machine.h"
#include "ir/ast.h"

static exec_ctx C;

static value binop(int op, value a, value b)
{
    value out = value_none();
    ptodb_status st = exec_scalar_binop(&C, op, &a, &b, &out);
    ck_assert_msg(st == PTODB_OK, "%s failed: %s", ir_binop_text((ir_binop)op), C.msg);
    value_clear(&a);
    value_clear(&b);
    return out;
}

static void expect_int(int op, int64_t a, int64_t b, int64_t e)
{
    value r = binop(op, value_int(a), value_int(b));
    ck_assert_msg(r.kind == VAL_INT, "%lld %s %lld: not an int", (long long)a,
                  ir_binop_text((ir_binop)op), (long long)b);
    ck_assert_msg(r.u.i == e, "%lld %s %lld = %lld, expected %lld", (long long)a,
                  ir_binop_text((ir_binop)op), (long long)b, (long long)r.u.i, (long long)e);
}

static void expect_float(int op, value a, value b, double e)
{
    value r = binop(op, a, b);
    ck_assert_int_eq(r.kind, VAL_FLOAT);
    if (isnan(e))
        ck_assert(isnan(r.u.f));
    else {
        ck_assert_msg(r.u.f == e, "%s: got %.17g, expected %.17g", ir_binop_text((ir_binop)op),
                      r.u.f, e);
        ck_assert_int_eq(!!signbit(r.u.f), !!signbit(e));
    }
}

static void expect_bool(int op, value a, value b, int e)
{
    value r = binop(op, a, b);
    ck_assert_int_eq(r.kind, VAL_BOOL);
    ck_assert_int_eq(r.u.b, e);
}

static void expect_error(int op, value a, value b, const char *msg_part)
{
    value out = value_none();
    ck_assert_int_ne(exec_scalar_binop(&C, op, &a, &b, &out), PTODB_OK);
    ck_assert_msg(strstr(C.msg, msg_part) != NULL, "message '%s' lacks '%s'", C.msg, msg_part);
    value_clear(&a);
    value_clear(&b);
}

static value t0(dtype_id dt, double v)
{
    tensor *t = tensor_zeros(dt, 0, NULL, NULL);
    ck_assert_ptr_nonnull(t);
    tensor_set(t, NULL, v);
    return value_tensor(t);
}

static void expect_tensor(value r, dtype_id dt, double e)
{
    ck_assert_int_eq(r.kind, VAL_TENSOR);
    ck_assert_int_eq(r.u.t->ndim, 0);
    ck_assert_msg(r.u.t->dtype == dt, "dtype %s, expected %s", dtype_name(r.u.t->dtype),
                  dtype_name(dt));
    double v = tensor_get(r.u.t, NULL);
    if (isnan(e))
        ck_assert(isnan(v));
    else
        ck_assert_msg(v == e, "got %.17g, expected %.17g", v, e);
    value_clear(&r);
}

START_TEST(test_int_floor_div_mod)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    /* Python: 7 // 2 == 3, -7 // 2 == -4, 7 // -2 == -4, -7 // -2 == 3 */
    expect_int(IR_BINOP_FLOORDIV, 7, 2, 3);
    expect_int(IR_BINOP_FLOORDIV, -7, 2, -4);
    expect_int(IR_BINOP_FLOORDIV, 7, -2, -4);
    expect_int(IR_BINOP_FLOORDIV, -7, -2, 3);
    expect_int(IR_BINOP_FLOORDIV, -6, 3, -2); /* exact: no rounding down */
    /* -7 % 2 == 1, 7 % -2 == -1, -7 % -2 == -1, 5 % -1 == 0 */
    expect_int(IR_BINOP_MOD, -7, 2, 1);
    expect_int(IR_BINOP_MOD, 7, -2, -1);
    expect_int(IR_BINOP_MOD, -7, -2, -1);
    expect_int(IR_BINOP_MOD, 5, -1, 0);
    expect_int(IR_BINOP_MOD, INT64_MIN, -1, 0);
    expect_int(IR_BINOP_FLOORDIV, INT64_MIN, 1, INT64_MIN);
    /* -2**63 // -1 == 2**63 does not fit: an error, not a wrap */
    expect_error(IR_BINOP_FLOORDIV, value_int(INT64_MIN), value_int(-1), "integer overflow");
    expect_error(IR_BINOP_FLOORDIV, value_int(1), value_int(0),
                 "ZeroDivisionError: integer division or modulo by zero");
    expect_error(IR_BINOP_MOD, value_int(1), value_int(0), "ZeroDivisionError");
    /* 7 / 2 == 3.5 (true division gives a float), -1 / 4 == -0.25 */
    expect_float(IR_BINOP_DIV, value_int(7), value_int(2), 3.5);
    expect_float(IR_BINOP_DIV, value_int(-1), value_int(4), -0.25);
    expect_error(IR_BINOP_DIV, value_int(1), value_int(0), "ZeroDivisionError: division by zero");
}
END_TEST

START_TEST(test_int_pow_shift_overflow)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    /* 2 ** 10 == 1024, 2 ** 62, 3 ** 0 == 1, 0 ** 0 == 1, (-1) ** 5 == -1,
     * (-1) ** 4 == 1, (-2) ** 63 == -2**63 (fits), 2 ** 63 does not */
    expect_int(IR_BINOP_POW, 2, 10, 1024);
    expect_int(IR_BINOP_POW, 2, 62, INT64_C(4611686018427387904));
    expect_int(IR_BINOP_POW, 3, 0, 1);
    expect_int(IR_BINOP_POW, 0, 0, 1);
    expect_int(IR_BINOP_POW, 0, 5, 0);
    expect_int(IR_BINOP_POW, -1, 5, -1);
    expect_int(IR_BINOP_POW, -1, INT64_C(1000000000000), 1);
    expect_int(IR_BINOP_POW, -2, 63, INT64_MIN);
    expect_error(IR_BINOP_POW, value_int(2), value_int(63), "integer overflow");
    /* 2 ** -1 == 0.5, 0 ** -1 raises */
    expect_float(IR_BINOP_POW, value_int(2), value_int(-1), 0.5);
    expect_error(IR_BINOP_POW, value_int(0), value_int(-1),
                 "ZeroDivisionError: 0.0 cannot be raised to a negative power");
    /* 1 << 62, -1 << 3 == -8, 3 >> 1 == 1, -7 >> 1 == -4, -1 >> 100 == -1,
     * 5 >> 100 == 0; 1 << 63 overflows; a negative count raises */
    expect_int(IR_BINOP_SHL, 1, 62, INT64_C(4611686018427387904));
    expect_int(IR_BINOP_SHL, -1, 3, -8);
    expect_int(IR_BINOP_SHL, 0, 1000, 0);
    expect_int(IR_BINOP_SHL, -1, 63, INT64_MIN);
    expect_int(IR_BINOP_SHR, 3, 1, 1);
    expect_int(IR_BINOP_SHR, -7, 1, -4);
    expect_int(IR_BINOP_SHR, -1, 100, -1);
    expect_int(IR_BINOP_SHR, 5, 100, 0);
    expect_error(IR_BINOP_SHL, value_int(1), value_int(63), "integer overflow");
    expect_error(IR_BINOP_SHL, value_int(INT64_C(1) << 40), value_int(30), "integer overflow");
    expect_error(IR_BINOP_SHL, value_int(1), value_int(-1), "ValueError: negative shift count");
    expect_error(IR_BINOP_SHR, value_int(1), value_int(-1), "ValueError: negative shift count");
    /* + - * beyond 64 bits */
    expect_error(IR_BINOP_ADD, value_int(INT64_MAX), value_int(1), "integer overflow");
    expect_error(IR_BINOP_SUB, value_int(INT64_MIN), value_int(1), "integer overflow");
    expect_error(IR_BINOP_MUL, value_int(INT64_C(1) << 32), value_int(INT64_C(1) << 31),
                 "integer overflow");
    expect_int(IR_BINOP_ADD, INT64_MAX, -1, INT64_MAX - 1);
    /* bitwise: 6 & 3 == 2, 6 | 3 == 7, 6 ^ 3 == 5, -1 & 255 == 255 */
    expect_int(IR_BINOP_BITAND, 6, 3, 2);
    expect_int(IR_BINOP_BITOR, 6, 3, 7);
    expect_int(IR_BINOP_BITXOR, 6, 3, 5);
    expect_int(IR_BINOP_BITAND, -1, 255, 255);
}
END_TEST

START_TEST(test_bools_and_comparisons)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    /* True & False is False (a bool), True ^ True is False, True + True == 2 */
    expect_bool(IR_BINOP_BITAND, value_bool(1), value_bool(0), 0);
    expect_bool(IR_BINOP_BITXOR, value_bool(1), value_bool(1), 0);
    expect_bool(IR_BINOP_BITOR, value_bool(0), value_bool(1), 1);
    value r = binop(IR_BINOP_ADD, value_bool(1), value_bool(1));
    ck_assert_int_eq(r.kind, VAL_INT);
    ck_assert_int_eq(r.u.i, 2);
    /* True & 3 == 1 (an int: only bool & bool stays bool) */
    r = binop(IR_BINOP_BITAND, value_bool(1), value_int(3));
    ck_assert_int_eq(r.kind, VAL_INT);
    ck_assert_int_eq(r.u.i, 1);
    /* 3 < 5, 1 == 1.0, nan == nan is False, nan != nan is True, -0.0 == 0.0,
     * nan < 1 is False, 2**53 + 1 > 2.0**53 compares as floats here */
    expect_bool(IR_BINOP_LT, value_int(3), value_int(5), 1);
    expect_bool(IR_BINOP_GE, value_int(-3), value_int(5), 0);
    expect_bool(IR_BINOP_EQ, value_int(1), value_float(1.0), 1);
    expect_bool(IR_BINOP_EQ, value_float(NAN), value_float(NAN), 0);
    expect_bool(IR_BINOP_NE, value_float(NAN), value_float(NAN), 1);
    expect_bool(IR_BINOP_EQ, value_float(-0.0), value_float(0.0), 1);
    expect_bool(IR_BINOP_LT, value_float(NAN), value_int(1), 0);
    expect_bool(IR_BINOP_LE, value_float(-INFINITY), value_int(INT64_MIN), 1);
    expect_bool(IR_BINOP_GT, value_int(INT64_MAX), value_int(INT64_MAX - 1), 1);
    expect_bool(IR_BINOP_NE, value_int(2), value_int(2), 0);
    expect_bool(IR_BINOP_LE, value_int(2), value_int(2), 1);
    expect_bool(IR_BINOP_GT, value_float(0.0), value_float(-0.0), 0);
    expect_bool(IR_BINOP_GE, value_float(0.0), value_float(-0.0), 1);
    /* None == None, None != None; None + 1 raises TypeError */
    value n1 = value_none(), n2 = value_none();
    expect_bool(IR_BINOP_EQ, n1, n2, 1);
    expect_bool(IR_BINOP_NE, value_none(), value_none(), 0);
    expect_error(IR_BINOP_ADD, value_none(), value_int(1), "TypeError: unsupported operand type(s)");
}
END_TEST

START_TEST(test_floats)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    /* -7.0 // 2.0 == -4.0, 7.0 // -2.0 == -4.0, -0.0 // 1.0 == -0.0,
     * 0.0 // -1.0 == -0.0, 7.0 // 2 == 3.0 */
    expect_float(IR_BINOP_FLOORDIV, value_float(-7.0), value_float(2.0), -4.0);
    expect_float(IR_BINOP_FLOORDIV, value_float(7.0), value_float(-2.0), -4.0);
    expect_float(IR_BINOP_FLOORDIV, value_float(-0.0), value_float(1.0), -0.0);
    expect_float(IR_BINOP_FLOORDIV, value_float(0.0), value_float(-1.0), -0.0);
    expect_float(IR_BINOP_FLOORDIV, value_float(7.0), value_int(2), 3.0);
    /* -7.5 % 2.0 == 0.5, 7.5 % -2.0 == -0.5, 0.0 % -3.0 == -0.0,
     * -0.0 % 3.0 == 0.0, 6.0 % -3.0 == -0.0 (the divisor's sign) */
    expect_float(IR_BINOP_MOD, value_float(-7.5), value_float(2.0), 0.5);
    expect_float(IR_BINOP_MOD, value_float(7.5), value_float(-2.0), -0.5);
    expect_float(IR_BINOP_MOD, value_float(0.0), value_float(-3.0), -0.0);
    expect_float(IR_BINOP_MOD, value_float(-0.0), value_float(3.0), 0.0);
    expect_float(IR_BINOP_MOD, value_float(6.0), value_float(-3.0), -0.0);
    /* 2.0 ** 0.5, inf - inf is nan, 1e308 * 10 is inf (no error in Python),
     * 1 + 0.5 == 1.5 (int + float gives float) */
    expect_float(IR_BINOP_POW, value_float(2.0), value_float(0.5), sqrt(2.0));
    expect_float(IR_BINOP_SUB, value_float(INFINITY), value_float(INFINITY), NAN);
    expect_float(IR_BINOP_MUL, value_float(1e308), value_int(10), INFINITY);
    expect_float(IR_BINOP_ADD, value_int(1), value_float(0.5), 1.5);
    expect_float(IR_BINOP_DIV, value_float(-1.0), value_float(INFINITY), -0.0);
    /* the three float ZeroDivisionErrors */
    expect_error(IR_BINOP_DIV, value_float(1.0), value_float(0.0), "ZeroDivisionError: float division by zero");
    expect_error(IR_BINOP_FLOORDIV, value_float(1.0), value_float(-0.0),
                 "ZeroDivisionError: float floor division by zero");
    expect_error(IR_BINOP_MOD, value_float(1.0), value_int(0), "ZeroDivisionError: float modulo");
    expect_error(IR_BINOP_SHL, value_float(1.0), value_int(1), "TypeError: unsupported operand type(s)");
}
END_TEST

/* 0-d tensors: torch's result_type with the Python number as a "wrapped
 * number" (it raises the category only), int wrap at the tensor's width,
 * rounding to the tensor's float dtype. */
START_TEST(test_tensors)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    /* torch.tensor(5, dtype=int32) + 1 -> int32 6; + 1.5 -> float32 6.5 */
    expect_tensor(binop(IR_BINOP_ADD, t0(DTYPE_INT32, 5), value_int(1)), DTYPE_INT32, 6);
    expect_tensor(binop(IR_BINOP_ADD, t0(DTYPE_INT32, 5), value_float(1.5)), DTYPE_FP32, 6.5);
    /* int32 max + 1 wraps to int32 min; int8(-128) * -1 stays -128 */
    expect_tensor(binop(IR_BINOP_ADD, t0(DTYPE_INT32, 2147483647), value_int(1)), DTYPE_INT32,
                  -2147483648.0);
    expect_tensor(binop(IR_BINOP_MUL, t0(DTYPE_INT8, -128), t0(DTYPE_INT8, -1)), DTYPE_INT8, -128);
    /* int32 7 / 2 -> float32 3.5; int32 -7 // 2 -> -4; -7 % 2 -> 1 */
    expect_tensor(binop(IR_BINOP_DIV, t0(DTYPE_INT32, 7), value_int(2)), DTYPE_FP32, 3.5);
    expect_tensor(binop(IR_BINOP_FLOORDIV, t0(DTYPE_INT32, -7), value_int(2)), DTYPE_INT32, -4);
    expect_tensor(binop(IR_BINOP_MOD, t0(DTYPE_INT32, -7), value_int(2)), DTYPE_INT32, 1);
    /* int64 min // -1 wraps in torch (no error) */
    value mn = value_tensor(tensor_zeros(DTYPE_INT64, 0, NULL, NULL));
    tensor_set_i64(mn.u.t, NULL, INT64_MIN);
    value r = binop(IR_BINOP_FLOORDIV, mn, value_int(-1));
    ck_assert_int_eq(tensor_get_i64(r.u.t, NULL), INT64_MIN);
    value_clear(&r);
    expect_error(IR_BINOP_FLOORDIV, t0(DTYPE_INT32, 1), value_int(0), "ZeroDivisionError");
    expect_error(IR_BINOP_POW, t0(DTYPE_INT32, 2), value_int(-1),
                 "Integers to negative integer powers are not allowed");
    /* int32 3 ** 4 == 81; 1 << 3 == 8, -8 >> 1 == -4 */
    expect_tensor(binop(IR_BINOP_POW, t0(DTYPE_INT32, 3), value_int(4)), DTYPE_INT32, 81);
    expect_tensor(binop(IR_BINOP_SHL, t0(DTYPE_INT32, 1), value_int(3)), DTYPE_INT32, 8);
    expect_tensor(binop(IR_BINOP_SHR, t0(DTYPE_INT32, -8), value_int(1)), DTYPE_INT32, -4);
    /* bf16(1.0) + 0.1: the scalar narrowed to bf16 (0.10009765625), summed
     * in float, rounded to bf16: 1.1015625 */
    expect_tensor(binop(IR_BINOP_ADD, t0(DTYPE_BF16, 1.0), value_float(0.1)), DTYPE_BF16, 1.1015625);
    /* fp32 tensor + int tensor promotes to fp32; fp16 + fp32 -> fp32 */
    expect_tensor(binop(IR_BINOP_ADD, t0(DTYPE_FP32, 0.5), t0(DTYPE_INT64, 2)), DTYPE_FP32, 2.5);
    expect_tensor(binop(IR_BINOP_ADD, t0(DTYPE_FP16, 0.5), t0(DTYPE_FP32, 0.25)), DTYPE_FP32, 0.75);
    /* float32 division by zero is inf, not an error (torch); 1 // 0.0 is inf */
    expect_tensor(binop(IR_BINOP_DIV, t0(DTYPE_FP32, 1.0), value_float(0.0)), DTYPE_FP32, INFINITY);
    expect_tensor(binop(IR_BINOP_FLOORDIV, t0(DTYPE_FP32, 1.0), value_float(0.0)), DTYPE_FP32,
                  INFINITY);
    expect_tensor(binop(IR_BINOP_MOD, t0(DTYPE_FP32, 1.0), value_float(0.0)), DTYPE_FP32, NAN);
    /* comparisons give a bool tensor: fp32 nan < 1 is False, 1.0 < 2 True */
    expect_tensor(binop(IR_BINOP_LT, t0(DTYPE_FP32, NAN), value_int(1)), DTYPE_BOOL, 0);
    expect_tensor(binop(IR_BINOP_LT, t0(DTYPE_FP32, 1.0), value_int(2)), DTYPE_BOOL, 1);
    expect_tensor(binop(IR_BINOP_EQ, t0(DTYPE_INT32, 3), value_int(3)), DTYPE_BOOL, 1);
    expect_error(IR_BINOP_BITAND, t0(DTYPE_FP32, 1.0), value_int(1), "not supported on floating tensors");
    /* int32 tensor 6 - 9 == -3, 6 & 3 == 2, 6 | 3 == 7, 6 ^ 3 == 5 */
    expect_tensor(binop(IR_BINOP_SUB, t0(DTYPE_INT32, 6), value_int(9)), DTYPE_INT32, -3);
    expect_tensor(binop(IR_BINOP_BITAND, t0(DTYPE_INT32, 6), value_int(3)), DTYPE_INT32, 2);
    expect_tensor(binop(IR_BINOP_BITOR, t0(DTYPE_INT32, 6), value_int(3)), DTYPE_INT32, 7);
    expect_tensor(binop(IR_BINOP_BITXOR, t0(DTYPE_INT32, 6), value_int(3)), DTYPE_INT32, 5);
    /* fp64 stays double: 0.1 + 0.2 == 0.30000000000000004; fp32 ** 0.5 */
    expect_tensor(binop(IR_BINOP_ADD, t0(DTYPE_FP64, 0.1), value_float(0.2)), DTYPE_FP64, 0.1 + 0.2);
    expect_tensor(binop(IR_BINOP_POW, t0(DTYPE_FP32, 4.0), value_float(0.5)), DTYPE_FP32, 2.0);
    expect_tensor(binop(IR_BINOP_SUB, t0(DTYPE_FP32, 1.0), value_float(0.25)), DTYPE_FP32, 0.75);
    /* bf16(3) * 1.00390625 (1 + 2^-8, not a bf16): torch 2 keeps the scalar
     * in float for * and / (3.01171875, rounded to bf16 3.015625); torch
     * 1.13 narrows it to bf16 first (a tie, to even: 1.0), giving 3.0 */
    expect_tensor(binop(IR_BINOP_MUL, t0(DTYPE_BF16, 3.0), value_float(1.00390625)), DTYPE_BF16,
                  3.015625);
    ctx_init(&C, EXEC_PROFILE_T13);
    expect_tensor(binop(IR_BINOP_MUL, t0(DTYPE_BF16, 3.0), value_float(1.00390625)), DTYPE_BF16, 3.0);
    ctx_init(&C, EXEC_PROFILE_T2);
    /* a tensor with dims is not a scalar */
    int64_t two = 2;
    value vec = value_tensor(tensor_zeros(DTYPE_FP32, 1, &two, NULL));
    expect_error(IR_BINOP_ADD, vec, value_int(1), "TypeError: unsupported operand type(s)");
}
END_TEST

static value unop(int op, value a)
{
    value out = value_none();
    ptodb_status st = exec_scalar_unop(&C, op, &a, &out);
    ck_assert_msg(st == PTODB_OK, "unop failed: %s", C.msg);
    value_clear(&a);
    return out;
}

static void expect_unop_error(int op, value a, const char *msg_part)
{
    value out = value_none();
    ck_assert_int_ne(exec_scalar_unop(&C, op, &a, &out), PTODB_OK);
    ck_assert_msg(strstr(C.msg, msg_part) != NULL, "message '%s' lacks '%s'", C.msg, msg_part);
    value_clear(&a);
}

/* One promotion rule: a uint16 operand (REF holds it as int32) promotes
 * the same in the machine's scalar arithmetic and in the elementwise
 * kernels (tile.add on 1-element tiles): uint16 65535 + int16 1 is int32
 * 65536 both ways; uint32 (held as int64) + int32 is int64. */
START_TEST(test_one_promotion_rule)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    static const struct { dtype_id a, b, want; double x, y, sum; } cases[] = {
        {DTYPE_UINT16, DTYPE_INT16, DTYPE_INT32, 65535, 1, 65536},
        {DTYPE_UINT32, DTYPE_INT32, DTYPE_INT64, 4294967295.0, 1, 4294967296.0},
        {DTYPE_UINT16, DTYPE_FP16, DTYPE_FP16, 3, 0.5, 3.5},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        value s = binop(IR_BINOP_ADD, t0(cases[k].a, cases[k].x), t0(cases[k].b, cases[k].y));
        ck_assert_int_eq(s.u.t->dtype, cases[k].want);
        ck_assert_double_eq(tensor_get(s.u.t, NULL), cases[k].sum);
        value_clear(&s);
        value p[2] = {value_tensor(mk1(cases[k].a, 1, &cases[k].x)),
                      value_tensor(mk1(cases[k].b, 1, &cases[k].y))}, out;
        ck_assert_int_eq(run_op(&C, IR_OP_TILE_ADD, p, 2, &out), PTODB_OK);
        ck_assert_int_eq(out.u.t->dtype, cases[k].want);
        ck_assert_double_eq(tensor_get_flat(out.u.t, 0), cases[k].sum);
        value_clear(&out);
        clear_all(p, 2);
    }
}
END_TEST

START_TEST(test_unary)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    /* not 0 is True, not 2.5 is False, not None is True */
    value r = unop(IR_UNOP_NOT, value_int(0));
    ck_assert(r.kind == VAL_BOOL && r.u.b == 1);
    r = unop(IR_UNOP_NOT, value_float(2.5));
    ck_assert(r.kind == VAL_BOOL && r.u.b == 0);
    r = unop(IR_UNOP_NOT, value_none());
    ck_assert(r.kind == VAL_BOOL && r.u.b == 1);
    /* -5, -True == -1, +True == 1, ~5 == -6, -(-0.0) == 0.0, -2**63 overflows */
    r = unop(IR_UNOP_NEG, value_int(5));
    ck_assert(r.kind == VAL_INT && r.u.i == -5);
    r = unop(IR_UNOP_NEG, value_bool(1));
    ck_assert(r.kind == VAL_INT && r.u.i == -1);
    r = unop(IR_UNOP_POS, value_bool(1));
    ck_assert(r.kind == VAL_INT && r.u.i == 1);
    r = unop(IR_UNOP_INVERT, value_int(5));
    ck_assert(r.kind == VAL_INT && r.u.i == -6);
    r = unop(IR_UNOP_NEG, value_float(-0.0));
    ck_assert(r.kind == VAL_FLOAT && r.u.f == 0.0 && !signbit(r.u.f));
    expect_unop_error(IR_UNOP_NEG, value_int(INT64_MIN), "integer overflow");
    expect_unop_error(IR_UNOP_INVERT, value_float(1.5), "bad operand type for unary ~: 'float'");
    expect_unop_error(IR_UNOP_NEG, value_none(), "bad operand type for unary operator");
    /* tensors: -int32 min wraps, ~bool True is False, ~int8 0 is -1,
     * -bool and ~float raise as torch does, +t is t */
    expect_tensor(unop(IR_UNOP_NEG, t0(DTYPE_INT32, -2147483648.0)), DTYPE_INT32, -2147483648.0);
    expect_tensor(unop(IR_UNOP_NEG, t0(DTYPE_FP16, 0.0)), DTYPE_FP16, -0.0);
    expect_tensor(unop(IR_UNOP_INVERT, t0(DTYPE_BOOL, 1)), DTYPE_BOOL, 0);
    expect_tensor(unop(IR_UNOP_INVERT, t0(DTYPE_INT8, 0)), DTYPE_INT8, -1);
    expect_tensor(unop(IR_UNOP_POS, t0(DTYPE_FP32, 2.5)), DTYPE_FP32, 2.5);
    expect_unop_error(IR_UNOP_NEG, t0(DTYPE_BOOL, 1), "Negation, the `-` operator, on a bool tensor");
    expect_unop_error(IR_UNOP_INVERT, t0(DTYPE_FP32, 1), "bitwise_not_cpu");
    /* not of a tensor with several elements is ambiguous */
    int64_t two = 2;
    expect_unop_error(IR_UNOP_NOT, value_tensor(tensor_zeros(DTYPE_FP32, 1, &two, NULL)),
                      "ambiguous");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("scalar");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_int_floor_div_mod);
    tcase_add_test(tc, test_int_pow_shift_overflow);
    tcase_add_test(tc, test_bools_and_comparisons);
    tcase_add_test(tc, test_floats);
    tcase_add_test(tc, test_tensors);
    tcase_add_test(tc, test_unary);
    tcase_add_test(tc, test_one_promotion_rule);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* Scalar expressions (semantics.md §4): Python ints (64-bit here, overflow
 * is an error), floats and bools, and 0-d torch tensors with torch's
 * promotion and per-dtype rounding. */
#include <math.h>
#include <string.h>

#include "kernels/kernel_util.h"
#include "exec/machine_int.h"
#include "ir/ast.h"

typedef struct num {
    int kind; /* 0 bool, 1 int, 2 float, 3 tensor */
    int64_t i;
    double f;
    const tensor *t;
} num;

static int get_num(const value *v, num *n)
{
    switch (v->kind) {
    case VAL_BOOL: n->kind = 0; n->i = v->u.b; n->f = v->u.b; return 0;
    case VAL_INT: n->kind = 1; n->i = v->u.i; n->f = (double)v->u.i; return 0;
    case VAL_FLOAT: n->kind = 2; n->f = v->u.f; n->i = 0; return 0;
    case VAL_TENSOR:
        if (v->u.t->ndim != 0)
            return -1;
        n->kind = 3;
        n->t = v->u.t;
        if (dtype_is_float(v->u.t->dtype)) {
            n->f = tensor_get(v->u.t, NULL);
            n->i = 0;
        } else {
            n->i = tensor_get_i64(v->u.t, NULL);
            n->f = (double)n->i;
        }
        return 0;
    default: return -1;
    }
}

static int category(dtype_id dt)
{
    if (dt == DTYPE_BOOL)
        return 0;
    return dtype_is_float(dt) ? 2 : 1;
}

static ptodb_status zero_div(exec_ctx *ctx, int is_float, int op)
{
    if (!is_float)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "ZeroDivisionError: integer division or modulo by zero");
    return exec_fail(ctx, PTODB_ERR_RUNTIME, "ZeroDivisionError: float %s",
                     op == IR_BINOP_DIV ? "division by zero"
                     : op == IR_BINOP_MOD ? "modulo"
                                          : "floor division by zero");
}

static int64_t floordiv_i(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

static int64_t floormod_i(int64_t a, int64_t b)
{
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
    return r;
}

static double floordiv_f(double a, double b)
{
    double mod = fmod(a, b);
    double div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0)))
        div -= 1.0;
    double fl;
    if (div != 0) {
        fl = floor(div);
        if (div - fl > 0.5)
            fl += 1.0;
    } else {
        fl = copysign(0.0, a / b);
    }
    return fl;
}

static double floormod_f(double a, double b)
{
    double mod = fmod(a, b);
    if (mod != 0) {
        if ((b < 0) != (mod < 0))
            mod += b;
    } else {
        mod = copysign(0.0, b);
    }
    return mod;
}

static int is_cmp(int op)
{
    return op == IR_BINOP_EQ || op == IR_BINOP_NE || op == IR_BINOP_LT || op == IR_BINOP_LE ||
           op == IR_BINOP_GT || op == IR_BINOP_GE;
}

static int cmp_result(int op, double a, double b)
{
    switch (op) {
    case IR_BINOP_EQ: return a == b;
    case IR_BINOP_NE: return a != b;
    case IR_BINOP_LT: return a < b;
    case IR_BINOP_LE: return a <= b;
    case IR_BINOP_GT: return a > b;
    default: return a >= b;
    }
}

static int cmp_result_i(int op, int64_t a, int64_t b)
{
    switch (op) {
    case IR_BINOP_EQ: return a == b;
    case IR_BINOP_NE: return a != b;
    case IR_BINOP_LT: return a < b;
    case IR_BINOP_LE: return a <= b;
    case IR_BINOP_GT: return a > b;
    default: return a >= b;
    }
}

static ptodb_status overflow(exec_ctx *ctx)
{
    return exec_fail(ctx, PTODB_ERR_RUNTIME,
                     "integer overflow: ptodb keeps Python ints in 64 bits (REF's are unbounded)");
}

/* Python ints (bools count as ints). */
static ptodb_status int_binop(exec_ctx *ctx, int op, int64_t a, int64_t b, value *out)
{
    int64_t r;
    switch (op) {
    case IR_BINOP_ADD: if (__builtin_add_overflow(a, b, &r)) return overflow(ctx); break;
    case IR_BINOP_SUB: if (__builtin_sub_overflow(a, b, &r)) return overflow(ctx); break;
    case IR_BINOP_MUL: if (__builtin_mul_overflow(a, b, &r)) return overflow(ctx); break;
    case IR_BINOP_FLOORDIV:
        if (b == 0) return zero_div(ctx, 0, op);
        if (a == INT64_MIN && b == -1) return overflow(ctx);
        r = floordiv_i(a, b);
        break;
    case IR_BINOP_MOD:
        if (b == 0) return zero_div(ctx, 0, op);
        r = b == -1 ? 0 : floormod_i(a, b);
        break;
    case IR_BINOP_DIV:
        if (b == 0) return exec_fail(ctx, PTODB_ERR_RUNTIME, "ZeroDivisionError: division by zero");
        *out = value_float((double)a / (double)b);
        return PTODB_OK;
    case IR_BINOP_POW:
        if (b < 0) {
            if (a == 0)
                return exec_fail(ctx, PTODB_ERR_RUNTIME,
                                 "ZeroDivisionError: 0.0 cannot be raised to a negative power");
            *out = value_float(pow((double)a, (double)b));
            return PTODB_OK;
        }
        if (a == 0 || a == 1 || a == -1) {
            /* the bases whose powers never grow: (-1) ** b by parity */
            r = a == 0 ? (b == 0) : a == 1 ? 1 : (b % 2 ? -1 : 1);
            break;
        }
        r = 1; /* |a| >= 2 overflows within 63 steps */
        for (int64_t k = 0; k < b; k++)
            if (__builtin_mul_overflow(r, a, &r))
                return overflow(ctx);
        break;
    case IR_BINOP_BITAND: r = a & b; break;
    case IR_BINOP_BITOR: r = a | b; break;
    case IR_BINOP_BITXOR:
    case IR_BINOP_XOR: r = a ^ b; break;
    case IR_BINOP_SHL:
        if (b < 0) return exec_fail(ctx, PTODB_ERR_RUNTIME, "ValueError: negative shift count");
        /* 0 << any is 0 and -1 << 63 fits, as Python's unbounded ints say */
        if (a != 0 && (b >= 64 || a > (INT64_MAX >> b) || a < (INT64_MIN >> b))) return overflow(ctx);
        r = a == 0 ? 0 : (int64_t)((uint64_t)a << b);
        break;
    case IR_BINOP_SHR:
        if (b < 0) return exec_fail(ctx, PTODB_ERR_RUNTIME, "ValueError: negative shift count");
        r = b >= 63 ? (a < 0 ? -1 : 0) : a >> b;
        break;
    default:
        if (is_cmp(op)) {
            *out = value_bool(cmp_result_i(op, a, b));
            return PTODB_OK;
        }
        return exec_fail(ctx, PTODB_ERR_UNSUPPORTED, "operator '%s' on ints is not supported",
                         ir_binop_text((ir_binop)op));
    }
    *out = value_int(r);
    return PTODB_OK;
}

static ptodb_status float_binop(exec_ctx *ctx, int op, double a, double b, value *out)
{
    double r;
    switch (op) {
    case IR_BINOP_ADD: r = a + b; break;
    case IR_BINOP_SUB: r = a - b; break;
    case IR_BINOP_MUL: r = a * b; break;
    case IR_BINOP_DIV: if (b == 0) return zero_div(ctx, 1, op); r = a / b; break;
    case IR_BINOP_FLOORDIV: if (b == 0) return zero_div(ctx, 1, op); r = floordiv_f(a, b); break;
    case IR_BINOP_MOD: if (b == 0) return zero_div(ctx, 1, op); r = floormod_f(a, b); break;
    case IR_BINOP_POW: r = pow(a, b); break;
    default:
        if (is_cmp(op)) {
            *out = value_bool(cmp_result(op, a, b));
            return PTODB_OK;
        }
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "TypeError: unsupported operand type(s) for %s: 'float'",
                         ir_binop_text((ir_binop)op));
    }
    *out = value_float(r);
    return PTODB_OK;
}

/* Narrows a Python float to a reduced-precision dtype as torch does for an
 * operand of op (semantics.md §1.5). */
static float scalar_operand(exec_ctx *ctx, int op, double s, dtype_id dt)
{
    float f = (float)s;
    if (dt != DTYPE_BF16 && dt != DTYPE_FP16)
        return f;
    int widened = exec_profile(ctx) == EXEC_PROFILE_T2 && (op == IR_BINOP_MUL || op == IR_BINOP_DIV);
    if (is_cmp(op) || widened)
        return f;
    return dt == DTYPE_BF16 ? dtype_round_bf16(f) : dtype_round_f16(f);
}

static ptodb_status tensor_binop(exec_ctx *ctx, int op, const num *a, const num *b, value *out)
{
    dtype_id dt;
    if (a->kind == 3 && b->kind == 3) {
        /* torch.promote_types on REF's storage dtypes: the kernels' rule */
        dt = kernel_promote(a->t->dtype, b->t->dtype);
    } else {
        const num *t = a->kind == 3 ? a : b;
        const num *s = a->kind == 3 ? b : a;
        dt = kernel_ref_dtype(t->t->dtype);
        int cs = s->kind == 2 ? 2 : s->kind == 1 ? 1 : 0;
        if (cs > category(dt))
            dt = cs == 2 ? DTYPE_FP32 : DTYPE_INT64;
    }
    dtype_id rdt = dt;
    if (op == IR_BINOP_DIV && !dtype_is_float(dt))
        rdt = dt = DTYPE_FP32;
    if (is_cmp(op))
        rdt = DTYPE_BOOL;
    tensor *r = tensor_zeros(rdt, 0, NULL, NULL);
    if (!r)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "cannot allocate a scalar tensor");
    if (dtype_is_float(dt)) {
        double x, y;
        if (dt == DTYPE_FP64) {
            x = a->f;
            y = b->f;
        } else {
            x = a->kind == 3 ? (double)(float)a->f : scalar_operand(ctx, op, a->kind == 2 ? a->f : (double)a->i, dt);
            y = b->kind == 3 ? (double)(float)b->f : scalar_operand(ctx, op, b->kind == 2 ? b->f : (double)b->i, dt);
        }
        double v;
        int single = dt != DTYPE_FP64;
        switch (op) {
        case IR_BINOP_ADD: v = single ? (double)((float)x + (float)y) : x + y; break;
        case IR_BINOP_SUB: v = single ? (double)((float)x - (float)y) : x - y; break;
        case IR_BINOP_MUL: v = single ? (double)((float)x * (float)y) : x * y; break;
        case IR_BINOP_DIV: v = single ? (double)((float)x / (float)y) : x / y; break;
        case IR_BINOP_FLOORDIV: v = y == 0 ? x / y : floordiv_f(x, y); if (single) v = (float)v; break;
        case IR_BINOP_MOD: v = y == 0 ? NAN : floormod_f(x, y); if (single) v = (float)v; break;
        case IR_BINOP_POW: v = single ? (double)powf((float)x, (float)y) : pow(x, y); break;
        default:
            if (is_cmp(op)) {
                tensor_set(r, NULL, cmp_result(op, x, y));
                *out = value_tensor(r);
                return PTODB_OK;
            }
            tensor_unref(r);
            return exec_fail(ctx, PTODB_ERR_RUNTIME,
                             "RuntimeError: operator '%s' is not supported on floating tensors",
                             ir_binop_text((ir_binop)op));
        }
        tensor_set(r, NULL, v);
    } else {
        int64_t x = a->kind == 2 ? (int64_t)a->f : a->i;
        int64_t y = b->kind == 2 ? (int64_t)b->f : b->i;
        uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
        int64_t v;
        switch (op) {
        case IR_BINOP_ADD: v = (int64_t)(ux + uy); break;
        case IR_BINOP_SUB: v = (int64_t)(ux - uy); break;
        case IR_BINOP_MUL: v = (int64_t)(ux * uy); break;
        case IR_BINOP_FLOORDIV:
            if (y == 0) { tensor_unref(r); return exec_fail(ctx, PTODB_ERR_RUNTIME, "RuntimeError: ZeroDivisionError"); }
            v = (x == INT64_MIN && y == -1) ? x : floordiv_i(x, y);
            break;
        case IR_BINOP_MOD:
            if (y == 0) { tensor_unref(r); return exec_fail(ctx, PTODB_ERR_RUNTIME, "RuntimeError: ZeroDivisionError"); }
            v = y == -1 ? 0 : floormod_i(x, y);
            break;
        case IR_BINOP_BITAND: v = x & y; break;
        case IR_BINOP_BITOR: v = x | y; break;
        case IR_BINOP_XOR:
        case IR_BINOP_BITXOR: v = x ^ y; break;
        case IR_BINOP_SHL: v = (y < 0 || y >= 64) ? 0 : (int64_t)(ux << y); break;
        case IR_BINOP_SHR: v = (y < 0 || y >= 64) ? (x < 0 ? -1 : 0) : x >> y; break;
        case IR_BINOP_POW: {
            if (y < 0) { tensor_unref(r); return exec_fail(ctx, PTODB_ERR_RUNTIME, "RuntimeError: Integers to negative integer powers are not allowed."); }
            uint64_t acc = 1;
            for (int64_t k = 0; k < y && k < 64; k++)
                acc *= ux;
            v = (int64_t)acc;
            break;
        }
        default:
            if (is_cmp(op)) {
                tensor_set(r, NULL, cmp_result_i(op, x, y));
                *out = value_tensor(r);
                return PTODB_OK;
            }
            tensor_unref(r);
            return exec_fail(ctx, PTODB_ERR_UNSUPPORTED, "operator '%s' is not supported on tensors",
                             ir_binop_text((ir_binop)op));
        }
        tensor_set_i64(r, NULL, v);
    }
    *out = value_tensor(r);
    return PTODB_OK;
}

ptodb_status exec_scalar_binop(exec_ctx *ctx, int op, const value *a, const value *b, value *out)
{
    num x, y;
    if (get_num(a, &x) != 0 || get_num(b, &y) != 0) {
        if ((op == IR_BINOP_EQ || op == IR_BINOP_NE) && a->kind == VAL_NONE && b->kind == VAL_NONE) {
            *out = value_bool(op == IR_BINOP_EQ);
            return PTODB_OK;
        }
        return exec_fail(ctx, PTODB_ERR_RUNTIME,
                         "TypeError: unsupported operand type(s) for %s: '%s' and '%s'",
                         ir_binop_text((ir_binop)op), value_kind_name((value_kind)a->kind),
                         value_kind_name((value_kind)b->kind));
    }
    if (x.kind == 3 || y.kind == 3)
        return tensor_binop(ctx, op, &x, &y, out);
    if (x.kind == 2 || y.kind == 2)
        return float_binop(ctx, op, x.f, y.f, out);
    if ((op == IR_BINOP_BITAND || op == IR_BINOP_BITOR || op == IR_BINOP_BITXOR ||
         op == IR_BINOP_XOR) && x.kind == 0 && y.kind == 0) {
        value r;
        ptodb_status st = int_binop(ctx, op, x.i, y.i, &r);
        if (st == PTODB_OK)
            *out = value_bool(r.u.i != 0);
        return st;
    }
    return int_binop(ctx, op, x.i, y.i, out);
}

ptodb_status exec_scalar_unop(exec_ctx *ctx, int op, const value *a, value *out)
{
    if (op == IR_UNOP_NOT) {
        int t = value_truthy(a);
        if (t < 0)
            return exec_fail(ctx, PTODB_ERR_RUNTIME,
                             "RuntimeError: Boolean value of Tensor with more than one value is ambiguous");
        *out = value_bool(!t);
        return PTODB_OK;
    }
    num x;
    if (get_num(a, &x) != 0)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "TypeError: bad operand type for unary operator: '%s'",
                         value_kind_name((value_kind)a->kind));
    if (x.kind == 3) {
        dtype_id dt = x.t->dtype;
        if (op == IR_UNOP_POS) {
            *out = value_copy(a);
            return PTODB_OK;
        }
        tensor *r = tensor_zeros(dt, 0, NULL, NULL);
        if (op == IR_UNOP_NEG) {
            if (dt == DTYPE_BOOL) {
                tensor_unref(r);
                return exec_fail(ctx, PTODB_ERR_RUNTIME,
                                 "RuntimeError: Negation, the `-` operator, on a bool tensor is not supported.");
            }
            if (dtype_is_float(dt))
                tensor_set(r, NULL, -x.f);
            else
                tensor_set_i64(r, NULL, (int64_t)(0 - (uint64_t)x.i));
        } else { /* invert */
            if (dtype_is_float(dt)) {
                tensor_unref(r);
                return exec_fail(ctx, PTODB_ERR_RUNTIME,
                                 "RuntimeError: \"bitwise_not_cpu\" not implemented for 'Float'");
            }
            if (dt == DTYPE_BOOL)
                tensor_set_i64(r, NULL, !x.i);
            else
                tensor_set_i64(r, NULL, ~x.i);
        }
        *out = value_tensor(r);
        return PTODB_OK;
    }
    switch (op) {
    case IR_UNOP_NEG:
        if (x.kind == 2) { *out = value_float(-x.f); return PTODB_OK; }
        if (x.i == INT64_MIN) return overflow(ctx);
        *out = value_int(-x.i);
        return PTODB_OK;
    case IR_UNOP_POS:
        *out = x.kind == 2 ? value_float(x.f) : value_int(x.i);
        return PTODB_OK;
    default:
        if (x.kind == 2)
            return exec_fail(ctx, PTODB_ERR_RUNTIME, "TypeError: bad operand type for unary ~: 'float'");
        *out = value_int(~x.i);
        return PTODB_OK;
    }
}

/* The elementwise engine: binary ops, where and unary ops with torch's
 * promotion and rounding (kernel_util.h, "elementwise engine"). */
#include "kernels/kernel_util.h"
#include "kernels/kernel_walk.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* ---- elementwise engine ------------------------------------------------- */

static const char *binop_kernel_name(kernel_binop op)
{
    switch (op) {
    case KOP_AND: return "bitwise_and_cpu";
    case KOP_OR: return "bitwise_or_cpu";
    case KOP_XOR: return "bitwise_xor_cpu";
    case KOP_SHL: return "lshift_cpu";
    case KOP_SHR: return "rshift_cpu";
    case KOP_FMOD: return "fmod_cpu";
    case KOP_REM: return "remainder_cpu";
    default: return "binary_op";
    }
}

static int is_cmp(kernel_binop op)
{
    return op >= KOP_EQ;
}

static double f_apply(kernel_binop op, double x, double y)
{
    switch (op) {
    case KOP_ADD: return x + y;
    case KOP_SUB: return x - y;
    case KOP_MUL: return x * y;
    case KOP_DIV: return x / y;
    case KOP_MAX:
        if (isnan(x) || isnan(y))
            return NAN;
        return x > y ? x : y;
    case KOP_MIN:
        if (isnan(x) || isnan(y))
            return NAN;
        return x < y ? x : y;
    case KOP_FMOD: return fmod(x, y);
    case KOP_REM: {
        double r = fmod(x, y);
        if (r != 0 && ((r < 0) != (y < 0)))
            r += y;
        return r;
    }
    case KOP_EQ: return x == y;
    case KOP_NE: return x != y;
    case KOP_LT: return x < y;
    case KOP_LE: return x <= y;
    case KOP_GT: return x > y;
    case KOP_GE: return x >= y;
    default: return NAN;
    }
}

/* Integer op in dtype cdt; returns -1 on integer division by zero. */
static int i_apply(kernel_binop op, int64_t x, int64_t y, dtype_id cdt, int t13, int64_t *r)
{
    int width = cdt == DTYPE_BOOL ? 8 : (int)dtype_size(cdt) * 8;
    switch (op) {
    case KOP_ADD:
        *r = cdt == DTYPE_BOOL ? (x || y) : (int64_t)((uint64_t)x + (uint64_t)y);
        return 0;
    case KOP_SUB: *r = (int64_t)((uint64_t)x - (uint64_t)y); return 0;
    case KOP_MUL:
        *r = cdt == DTYPE_BOOL ? (x && y) : (int64_t)((uint64_t)x * (uint64_t)y);
        return 0;
    case KOP_MAX: *r = x > y ? x : y; return 0;
    case KOP_MIN: *r = x < y ? x : y; return 0;
    case KOP_FMOD:
    case KOP_REM:
        if (y == 0)
            return -1;
        if (y == -1) {
            *r = 0;
            return 0;
        }
        *r = x % y;
        if (op == KOP_REM && *r != 0 && ((*r < 0) != (y < 0)))
            *r += y;
        return 0;
    case KOP_AND: *r = x & y; return 0;
    case KOP_OR: *r = x | y; return 0;
    case KOP_XOR: *r = x ^ y; return 0;
    case KOP_SHL:
        if (t13) {
            /* x86 masks the count: 32-bit arithmetic for types up to int32 */
            if (width <= 32)
                *r = (int64_t)(int32_t)((uint32_t)(uint64_t)x << ((uint64_t)y & 31));
            else
                *r = (int64_t)((uint64_t)x << ((uint64_t)y & 63));
        } else {
            *r = (y < 0 || y >= width) ? 0 : (int64_t)((uint64_t)x << y);
        }
        return 0;
    case KOP_SHR:
        if (t13) /* x86 masks the count here too (torch 1.13: int32 8 >> 33 == 4) */
            *r = width <= 32 ? (int64_t)((int32_t)x >> ((uint64_t)y & 31))
                             : x >> ((uint64_t)y & 63);
        else if (y < 0 || y >= width)
            *r = x < 0 ? -1 : 0;
        else
            *r = x >> y;
        return 0;
    case KOP_EQ: *r = x == y; return 0;
    case KOP_NE: *r = x != y; return 0;
    case KOP_LT: *r = x < y; return 0;
    case KOP_LE: *r = x <= y; return 0;
    case KOP_GT: *r = x > y; return 0;
    case KOP_GE: *r = x >= y; return 0;
    default: *r = 0; return 0;
    }
}

/* One operand's values in compute precision, broadcast to the result shape:
 * either a buffer or a constant. */
typedef struct ew_src {
    double *f;
    int64_t *i;
    double cf;
    int64_t ci;
} ew_src;

static void ew_load(const kernel_opnd *o, int isf, dtype_id cdt, int widen, int nd,
                    const int64_t *shape, int64_t n, ew_src *s)
{
    memset(s, 0, sizeof *s);
    if (o->cls == KOPND_DIM) {
        if (isf) {
            s->f = xmalloc((size_t)(n ? n : 1) * sizeof *s->f);
            kernel_gather_f64(o->t, nd, shape, s->f);
            if (kernel_ref_dtype(o->t->dtype) != cdt)
                for (int64_t k = 0; k < n; k++)
                    s->f[k] = kernel_round_to(cdt, s->f[k]);
        } else {
            s->i = xmalloc((size_t)(n ? n : 1) * sizeof *s->i);
            kernel_gather_i64(o->t, nd, shape, s->i);
            if (kernel_ref_dtype(o->t->dtype) != cdt)
                for (int64_t k = 0; k < n; k++)
                    s->i[k] = kernel_wrap_int(cdt, s->i[k]);
        }
        return;
    }
    if (isf) {
        double x = o->is_int ? (double)o->i : o->f;
        /* "widened": the scalar enters opmath as a float; "narrowed": it is
         * first converted to the compute dtype (semantics.md §1.5) */
        if (widen && (cdt == DTYPE_BF16 || cdt == DTYPE_FP16))
            s->cf = (double)(float)x;
        else
            s->cf = kernel_round_to(cdt, x);
    } else {
        s->ci = kernel_wrap_int(cdt, o->is_int ? o->i : dtype_trunc_i64(o->f));
    }
}

static void ew_free(ew_src *s)
{
    free(s->f);
    free(s->i);
}

/* d[0..n) = x op y, each of x, y a run (p[k]) or a constant (c[k]), eight
 * lanes at a time (elementwise IEEE operations: the same bits as one at a
 * time; a constant is splat) */
static void f32_run(kernel_binop op, const float *const p[2], const float c[2], float *d, int64_t n)
{
    typedef float v8f __attribute__((vector_size(32)));
    v8f cv[2];
    for (int k = 0; k < 2; k++)
        for (int l = 0; l < 8; l++)
            cv[k][l] = c[k];
    int64_t i = 0;
#define F32_RUN_LOOP(OPR)                                                          \
    do {                                                                           \
        for (; i + 8 <= n; i += 8) {                                               \
            v8f x = cv[0], y = cv[1], z;                                           \
            if (p[0])                                                              \
                memcpy(&x, p[0] + i, sizeof x);                                    \
            if (p[1])                                                              \
                memcpy(&y, p[1] + i, sizeof y);                                    \
            z = x OPR y;                                                           \
            memcpy(d + i, &z, sizeof z);                                           \
        }                                                                          \
        for (; i < n; i++)                                                         \
            d[i] = (p[0] ? p[0][i] : c[0]) OPR (p[1] ? p[1][i] : c[1]);            \
    } while (0)
    switch (op) {
    case KOP_ADD: F32_RUN_LOOP(+); break;
    case KOP_SUB: F32_RUN_LOOP(-); break;
    case KOP_MUL: F32_RUN_LOOP(*); break;
    default: F32_RUN_LOOP(/); break;
    }
#undef F32_RUN_LOOP
}

/* The common float32 case without staging: + - * / on contiguous float32
 * tensors of the result's shape or scalars (converted to float32, which is
 * what both profiles do for a float32 result). A float32 operation is the
 * correctly rounded result, the same bits the general path produces. */
static int fast_f32(kernel_binop op, const kernel_opnd *o, dtype_id rdt, int nd,
                    const int64_t *shape, tensor *r, int64_t n)
{
    if (rdt != DTYPE_FP32 || op > KOP_DIV)
        return 0;
    const float *p[2] = {NULL, NULL};
    float c[2] = {0, 0}, *widened[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        if (o[k].cls == KOPND_DIM) {
            const tensor *t = o[k].t;
            if ((t->dtype != DTYPE_FP32 && t->dtype != DTYPE_BF16) || t->ndim != nd ||
                !tensor_is_contiguous(t) ||
                memcmp(t->shape, shape, (size_t)nd * sizeof *shape) != 0)
                return 0;
            p[k] = (const float *)tensor_data(t);
        } else {
            c[k] = (float)(o[k].is_int ? (double)o[k].i : o[k].f);
        }
    }
    /* a bf16 operand of a float32 result: widened exactly (torch computes
     * in float32 after promotion) */
    for (int k = 0; k < 2; k++)
        if (p[k] && o[k].t->dtype == DTYPE_BF16) {
            widened[k] = xmalloc((size_t)(n ? n : 1) * sizeof *widened[k]);
            const uint16_t *h = (const uint16_t *)tensor_data(o[k].t);
            for (int64_t i = 0; i < n; i++) {
                uint32_t u = (uint32_t)h[i] << 16;
                memcpy(&widened[k][i], &u, sizeof u);
            }
            p[k] = widened[k];
        }
    f32_run(op, p, c, (float *)tensor_data(r), n);
    free(widened[0]);
    free(widened[1]);
    return 1;
}

/* fast_f32 where an operand broadcasts: float32 operands (no bf16) whose
 * innermost dim is contiguous or broadcast (a row or column vector against a
 * tile: row_expand_mul and its kin), one result row at a time, a broadcast
 * element splat. The same correctly rounded float32 operations. */
static int fast_f32_rows(kernel_binop op, const kernel_opnd *o, dtype_id rdt, int nd, const int64_t *shape,
                         tensor *r, int64_t n)
{
    if (rdt != DTYPE_FP32 || op > KOP_DIV || nd < 1 || n <= 0)
        return 0;
    int64_t st[2][TENSOR_MAX_DIMS];
    const unsigned char *data[2] = {NULL, NULL};
    float c[2] = {0, 0};
    for (int k = 0; k < 2; k++) {
        if (o[k].cls != KOPND_DIM) {
            c[k] = (float)(o[k].is_int ? (double)o[k].i : o[k].f);
            continue;
        }
        const tensor *t = o[k].t;
        if (t->dtype != DTYPE_FP32 || t->ndim > nd)
            return 0;
        kernel_bcast_strides(t, nd, shape, st[k]);
        if (st[k][nd - 1] != 0 && st[k][nd - 1] != 1)
            return 0;
        data[k] = t->storage->data;
    }
    float *d = (float *)tensor_data(r);
    int64_t inner = shape[nd - 1], idx[TENSOR_MAX_DIMS] = {0};
    for (int64_t row = 0; row < n / inner; row++) {
        const float *p[2] = {NULL, NULL};
        float cs[2];
        for (int k = 0; k < 2; k++) {
            cs[k] = c[k];
            if (data[k]) {
                int64_t base = o[k].t->offset;
                for (int dd = 0; dd < nd - 1; dd++)
                    base += idx[dd] * st[k][dd];
                const float *at = (const float *)(const void *)data[k] + base;
                if (st[k][nd - 1])
                    p[k] = at;
                else
                    cs[k] = *at;
            }
        }
        f32_run(op, p, cs, d + row * inner, inner);
        for (int dd = nd - 2; dd >= 0; dd--) {
            if (++idx[dd] < shape[dd])
                break;
            idx[dd] = 0;
        }
    }
    return 1;
}

/* + - * of two int32 tensors of the result's shape, contiguous, into an
 * int32 result: the general path's int64 result (uint64 wrapping) stored
 * as its low 32 bits is the uint32 wrapping result. */
static int fast_i32(kernel_binop op, const kernel_opnd *o, dtype_id rdt, int nd, const int64_t *shape, tensor *r,
                    int64_t n)
{
    if (rdt != DTYPE_INT32 || (op != KOP_ADD && op != KOP_SUB && op != KOP_MUL))
        return 0;
    const unsigned char *p[2];
    for (int k = 0; k < 2; k++) {
        const tensor *t = o[k].t;
        if (o[k].cls != KOPND_DIM || t->dtype != DTYPE_INT32 || t->ndim != nd || !tensor_is_contiguous(t) ||
            memcmp(t->shape, shape, (size_t)nd * sizeof *shape) != 0)
            return 0;
        p[k] = tensor_data(t);
    }
    unsigned char *d = tensor_data(r);
    for (int64_t i = 0; i < n; i++) {
        uint32_t x, y, z;
        memcpy(&x, p[0] + 4 * i, 4);
        memcpy(&y, p[1] + 4 * i, 4);
        z = op == KOP_ADD ? x + y : op == KOP_SUB ? x - y : x * y;
        memcpy(d + 4 * i, &z, 4);
    }
    return 1;
}

/* Whether torch 1.13's cpu_kernel_vec computes the element k of a binary
 * op's result (flat, row-major over shape) in its vectorized loop or its
 * scalar one: TensorIterator coalesces the dims whose strides chain for
 * every operand into one inner loop of length L; when each operand is
 * contiguous or a broadcast scalar along it, the loop runs blocks of two
 * vectors (16 float32, 32 bf16/fp16 elements on AVX2) and the rest of the
 * row one at a time; other strides run one at a time. maximum and minimum
 * care (on +0 vs -0 the vector vmaxps/vminps returns the second operand,
 * the scalar std::max/std::min the first), and so do fmod and remainder
 * (SLEEF's fmodf in the vector loop, std::fmod in the scalar one). */
static int torch_vector_lane(const kernel_opnd *o, dtype_id cdt, int nd, const int64_t *shape,
                             int64_t k)
{
    int64_t block = cdt == DTYPE_FP32 ? 16 : (cdt == DTYPE_BF16 || cdt == DTYPE_FP16) ? 32 : 8;
    if (nd == 0)
        return 0;
    int64_t st[2][TENSOR_MAX_DIMS];
    for (int q = 0; q < 2; q++)
        for (int d = 0; d < nd; d++) {
            const tensor *t = o[q].cls == KOPND_DIM ? o[q].t : NULL;
            int td = t ? d - (nd - t->ndim) : -1;
            st[q][d] = t && td >= 0 && t->shape[td] != 1 ? t->strides[td] : 0;
        }
    int64_t len = shape[nd - 1], inner[2] = {st[0][nd - 1], st[1][nd - 1]};
    for (int d = nd - 2; d >= 0 && shape[d] != 0; d--) {
        if (shape[d] == 1)
            continue;
        if (st[0][d] != inner[0] * len || st[1][d] != inner[1] * len)
            break;
        len *= shape[d];
    }
    for (int q = 0; q < 2; q++)
        if (inner[q] != 0 && inner[q] != 1)
            return 0;
    if (len == 0)
        return 0;
    return k % len < len / block * block;
}

/* float one ulp toward zero (SLEEF's vtoward0f: the bit pattern minus 1) */
static float toward0f(float v)
{
    if (v == 0)
        return 0;
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    u--;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* Whether SLEEF's fmodf (Sleef_fmodf8, torch 1.13's Vectorized<float>::fmod,
 * also behind remainder's vector path) gives NaN for finite x, y where the
 * exact fmod is a number: its first quotient estimate trunc(toward0(|x|) *
 * toward0(1 / |y|)) is formed in float (both scaled by 2^25 when |y| is
 * below FLT_MIN) and overflows to inf when |x / y| is beyond FLT_MAX; the
 * remainder then becomes inf - inf. */
static int sleef_fmodf_nan(double x, double y)
{
    float nu = fabsf((float)x), de = fabsf((float)y);
    if (!isfinite(nu) || !isfinite(de) || nu == 0 || de == 0)
        return 0;
    if (de < FLT_MIN) {
        nu *= 33554432.0f;
        de *= 33554432.0f;
    }
    volatile float q = toward0f(nu) * toward0f(1.0f / de);
    return isinf(q);
}

/* An operand kernels_binary may write its result into (its reuse rule):
 * the caller's argument holds the only reference to the tensor and to its
 * storage, a buffer of our own (no release function: not a mapped input),
 * exactly the result's elements, dense from offset 0. */
static int reusable(const tensor *t, dtype_id rdt, int nd, const int64_t *shape)
{
    if (t->refcount != 1 || t->storage->refcount != 1 ||
        t->storage->release || t->dtype != rdt || t->ndim != nd || t->offset != 0 ||
        memcmp(t->shape, shape, (size_t)nd * sizeof *shape) != 0 || !tensor_is_contiguous(t))
        return 0;
    int64_t n = tensor_numel(t);
    return n > 0 && t->storage->nbytes == (size_t)n * dtype_size(rdt);
}

/* t as a fresh result: a new reference, no valid/full attributes */
static tensor *take_result(const tensor *t)
{
    tensor *r = tensor_ref((tensor *)t);
    r->valid_ndim = -1;
    r->full_ndim = -1;
    return r;
}

ptodb_status kernels_binary(kernel_call *kc, kernel_binop op, const kernel_opnd *o, int reuse,
                            tensor **out)
{
    dtype_id rdt = kernel_result_type(o, 2);
    if (op == KOP_DIV && !dtype_is_float(rdt))
        rdt = DTYPE_FP32; /* true division */
    dtype_id cdt = rdt;
    int isf = dtype_is_float(cdt);
    if ((op == KOP_AND || op == KOP_OR || op == KOP_XOR) && isf)
        return kernels_fail(kc, PTODB_ERR_RUNTIME, "%s: RuntimeError: \"%s\" not implemented for '%s'",
                            kc->op, binop_kernel_name(op), kernel_torch_type_name(cdt));
    if ((op == KOP_SHL || op == KOP_SHR || op == KOP_FMOD || op == KOP_REM) &&
        (cdt == DTYPE_BOOL || ((op == KOP_SHL || op == KOP_SHR) && isf)))
        return kernels_fail(kc, PTODB_ERR_RUNTIME, "%s: RuntimeError: \"%s\" not implemented for '%s'",
                            kc->op, binop_kernel_name(op), kernel_torch_type_name(cdt));
    /* torch's sub_check: any bool operand (a Python bool too) is refused */
    if (op == KOP_SUB && (o[0].dt == DTYPE_BOOL || o[1].dt == DTYPE_BOOL))
        return kernels_fail(kc, PTODB_ERR_RUNTIME,
                            "%s: RuntimeError: Subtraction, the `-` operator, with %s is not "
                            "supported. If you are trying to invert a mask, use the `~` or "
                            "`logical_not()` operator instead.",
                            kc->op,
                            o[0].dt == DTYPE_BOOL && o[1].dt == DTYPE_BOOL ? "two bool tensors"
                                                                          : "a bool tensor");
    int nds[2] = {o[0].cls == KOPND_DIM ? o[0].t->ndim : 0, o[1].cls == KOPND_DIM ? o[1].t->ndim : 0};
    const int64_t *shapes[2] = {o[0].t ? o[0].t->shape : NULL, o[1].t ? o[1].t->shape : NULL};
    int nd;
    int64_t shape[TENSOR_MAX_DIMS];
    ptodb_status st = kernels_broadcast(kc, 2, nds, shapes, &nd, shape);
    if (st != PTODB_OK)
        return st;
    tensor *r = NULL;
    for (int k = 0; k < 2 && reuse && !is_cmp(op) && !r; k++)
        if (o[k].cls == KOPND_DIM && reusable(o[k].t, rdt, nd, shape))
            r = take_result(o[k].t);
    if (!r && (st = kernels_zeros(kc, is_cmp(op) ? DTYPE_BOOL : rdt, nd, shape, &r)) != PTODB_OK)
        return st;
    int64_t n = tensor_numel(r);
    int t13 = kc->t13;
    int widen = is_cmp(op) || ((op == KOP_MUL || op == KOP_DIV) && !t13);
    if (fast_f32(op, o, rdt, nd, shape, r, n) || fast_f32_rows(op, o, rdt, nd, shape, r, n) ||
        fast_i32(op, o, rdt, nd, shape, r, n)) {
        *out = r;
        return PTODB_OK;
    }
    ew_src s[2];
    ew_load(&o[0], isf, cdt, widen, nd, shape, n, &s[0]);
    ew_load(&o[1], isf, cdt, widen, nd, shape, n, &s[1]);
    if (isf) {
        double *res = xmalloc((size_t)(n ? n : 1) * sizeof *res);
        for (int64_t k = 0; k < n; k++)
            res[k] = f_apply(op, s[0].f ? s[0].f[k] : s[0].cf, s[1].f ? s[1].f[k] : s[1].cf);
        /* the device's TFMOD/TREM is the exact fmod (pto-isa cd4a3d3f
         * include/pto/cpu/ElementOp.h:199-213,307-318, std::fmod in double;
         * tests/data/isa/remfmod.txt): SLEEF's NaN is REF's only */
        if ((op == KOP_FMOD || op == KOP_REM) && cdt != DTYPE_FP64)
            for (int64_t k = 0; k < n; k++) {
                double x = s[0].f ? s[0].f[k] : s[0].cf, y = s[1].f ? s[1].f[k] : s[1].cf;
                if (sleef_fmodf_nan(x, y) && torch_vector_lane(o, cdt, nd, shape, k)) {
                    if (kc->device)
                        kc->differs = 1;
                    else
                        res[k] = NAN;
                }
            }
        if (op == KOP_MAX || op == KOP_MIN)
            for (int64_t k = 0; k < n; k++) {
                double x = s[0].f ? s[0].f[k] : s[0].cf, y = s[1].f ? s[1].f[k] : s[1].cf;
                if (x == y && signbit(x) != signbit(y))
                    res[k] = torch_vector_lane(o, cdt, nd, shape, k) ? y : x;
            }
        if (is_cmp(op)) {
            unsigned char *b = tensor_data(r);
            for (int64_t k = 0; k < n; k++)
                b[k] = res[k] != 0;
        } else {
            kernel_store_f64(r, res, n);
        }
        free(res);
    } else {
        int64_t *res = xmalloc((size_t)(n ? n : 1) * sizeof *res);
        for (int64_t k = 0; k < n; k++) {
            if (i_apply(op, s[0].i ? s[0].i[k] : s[0].ci, s[1].i ? s[1].i[k] : s[1].ci, cdt, t13,
                        &res[k]) != 0) {
                free(res);
                ew_free(&s[0]);
                ew_free(&s[1]);
                tensor_unref(r);
                return kernels_fail(kc, PTODB_ERR_RUNTIME, "%s: RuntimeError: ZeroDivisionError",
                                    kc->op);
            }
        }
        kernel_store_i64(r, res, n);
        free(res);
    }
    ew_free(&s[0]);
    ew_free(&s[1]);
    *out = r;
    return PTODB_OK;
}

ptodb_status kernels_where(kernel_call *kc, const kernel_opnd *o, tensor **out)
{
    ptodb_status st;
    int t13 = kc->t13;
    if (o[0].t->dtype != DTYPE_BOOL && !(t13 && o[0].t->dtype == DTYPE_UINT8))
        return kernels_fail(kc, PTODB_ERR_RUNTIME,
                            "%s: RuntimeError: where expected condition to be a boolean tensor, but "
                            "got a tensor with dtype %s",
                            kc->op, kernel_torch_type_name(o[0].t->dtype));
    dtype_id rdt = kernel_result_type(&o[1], 2);
    int nds[3], nd;
    const int64_t *shapes[3];
    int64_t shape[TENSOR_MAX_DIMS];
    for (int k = 0; k < 3; k++) {
        nds[k] = o[k].cls == KOPND_DIM ? o[k].t->ndim : 0;
        shapes[k] = o[k].t ? o[k].t->shape : NULL;
    }
    st = kernels_broadcast(kc, 3, nds, shapes, &nd, shape);
    if (st != PTODB_OK)
        return st;
    tensor *r;
    st = kernels_zeros(kc, rdt, nd, shape, &r);
    if (st != PTODB_OK)
        return st;
    int64_t n = tensor_numel(r);
    int isf = dtype_is_float(rdt);
    ew_src m, s[2];
    /* the mask as integers: 0 / non-zero */
    ew_load(&o[0], 0, DTYPE_INT64, 0, nd, shape, n, &m);
    if (o[0].cls == KOPND_ZERO)
        m.ci = o[0].is_int ? o[0].i : (o[0].f != 0);
    ew_load(&o[1], isf, rdt, 0, nd, shape, n, &s[0]);
    ew_load(&o[2], isf, rdt, 0, nd, shape, n, &s[1]);
    if (isf) {
        double *res = xmalloc((size_t)(n ? n : 1) * sizeof *res);
        for (int64_t k = 0; k < n; k++) {
            int64_t c = m.i ? m.i[k] : m.ci;
            res[k] = c ? (s[0].f ? s[0].f[k] : s[0].cf) : (s[1].f ? s[1].f[k] : s[1].cf);
        }
        kernel_store_f64(r, res, n);
        free(res);
    } else {
        int64_t *res = xmalloc((size_t)(n ? n : 1) * sizeof *res);
        for (int64_t k = 0; k < n; k++) {
            int64_t c = m.i ? m.i[k] : m.ci;
            res[k] = c ? (s[0].i ? s[0].i[k] : s[0].ci) : (s[1].i ? s[1].i[k] : s[1].ci);
        }
        kernel_store_i64(r, res, n);
        free(res);
    }
    ew_free(&m);
    ew_free(&s[0]);
    ew_free(&s[1]);
    *out = r;
    return PTODB_OK;
}

/* SLEEF's expf_u10 as torch 1.13's AVX2 kernels run it (Sleef_expf8_u10,
 * its multiply-adds fused): the fixtures' REF computes fp32 exp this way,
 * bit for bit. Used under the t13 profile. */
static float sleef_expf(float d)
{
    if (isnan(d))
        return d;
    if (d < -104.0f)
        return 0.0f;
    if (d > 100.0f)
        return INFINITY;
    const float r_ln2 = 1.442695040888963407359924681001892137426645954152985934135449406931f;
    const float l2u = 0.693145751953125f, l2l = 1.428606765330187045e-06f;
    int q = (int)nearbyintf(d * r_ln2); /* cvtps2dq: to nearest even */
    float qf = (float)q;
    float s = fmaf(qf, -l2u, d);
    s = fmaf(qf, -l2l, s);
    float u = 0.000198527617612853646278381f;
    u = fmaf(u, s, 0.00139304355252534151077271f);
    u = fmaf(u, s, 0.00833336077630519866943359f);
    u = fmaf(u, s, 0.0416664853692054748535156f);
    u = fmaf(u, s, 0.166666671633720397949219f);
    u = fmaf(u, s, 0.5f);
    float ss = s * s;
    u = 1.0f + fmaf(ss, u, s);
    /* vldexp2: two exact power-of-two scalings, as SLEEF splits q */
    int q1 = q >> 1, q2 = q - q1;
    u *= dtype_f32_from_bits((uint32_t)(q1 + 0x7f) << 23);
    u *= dtype_f32_from_bits((uint32_t)(q2 + 0x7f) << 23);
    return u;
}

/* SLEEF's double-float helpers (FMA flavour) for sleef_logf. */
typedef struct { float x, y; } df2;

static df2 df_add2_ff(float x, float y)
{
    float s = x + y, v = s - x;
    df2 r = {s, (x - (s - v)) + (y - v)};
    return r;
}

static df2 df_add_22(df2 x, df2 y) /* |x| >= |y| */
{
    float s = x.x + y.x;
    df2 r = {s, (((x.x - s) + y.x) + x.y) + y.y};
    return r;
}

static df2 df_add_2f(df2 x, float y)
{
    float s = x.x + y;
    df2 r = {s, ((x.x - s) + y) + x.y};
    return r;
}

static df2 df_mul_2f(df2 x, float y)
{
    float s = x.x * y;
    df2 r = {s, fmaf(x.y, y, fmaf(x.x, y, -s))};
    return r;
}

static df2 df_div(df2 n, df2 d)
{
    float t = 1.0f / d.x, s = n.x * t;
    float u = fmaf(t, n.x, -s);
    float v = fmaf(-d.y, t, fmaf(-d.x, t, 1.0f));
    df2 r = {s, fmaf(s, v, fmaf(n.y, t, u))};
    return r;
}

/* SLEEF's logf_u1 (Sleef_logf8_u10) as torch 1.13's AVX2 kernels run it:
 * the fixtures' REF computes fp32 log this way (checked bit for bit against
 * Debian's torch 1.13 on 27k values, subnormals and specials included). */
static float sleef_logf(float d)
{
    if (isnan(d) || d < 0.0f)
        return NAN;
    if (d == 0.0f)
        return -INFINITY;
    if (isinf(d))
        return INFINITY;
    int o = d < 1.17549435e-38f; /* FLT_MIN: scale subnormals up by 2^64 */
    if (o)
        d = d * (18446744073709551616.0f);
    int e = (int)((dtype_f32_bits(d * (1.0f / 0.75f)) >> 23) & 0xff) - 0x7f;
    float m = dtype_f32_from_bits(dtype_f32_bits(d) + (uint32_t)((uint32_t)(-e) << 23));
    if (o)
        e -= 64;
    df2 ln2 = {0.69314718246459960938f, -1.904654323148236017e-09f};
    df2 s = df_mul_2f(ln2, (float)e);
    df2 x = df_div(df_add2_ff(-1.0f, m), df_add2_ff(1.0f, m));
    float x2 = x.x * x.x;
    float t = 0.3027294874e+0f;
    t = fmaf(t, x2, 0.3996108174e+0f);
    t = fmaf(t, x2, 0.6666694880e+0f);
    df2 x2s = {x.x * 2.0f, x.y * 2.0f};
    s = df_add_22(s, x2s);
    s = df_add_2f(s, (x2 * x.x) * t);
    return s.x + s.y;
}

static const char *unop_kernel_name(kernel_unop op)
{
    switch (op) {
    case KUN_EXP: return "exp_vml_cpu";
    case KUN_LOG: return "log_vml_cpu";
    case KUN_SQRT: return "sqrt_vml_cpu";
    case KUN_RSQRT: return "rsqrt_cpu";
    case KUN_RELU: return "clamp_min_cpu";
    case KUN_ABS: return "abs_cpu";
    case KUN_NOT: return "bitwise_not_cpu";
    default: return "unary_op";
    }
}

/* Whether torch 1.13's cpu_kernel_vec computes element k (row-major) of a
 * bf16 unary op in its vector loop (blocks of two 16-lane vectors over the
 * contiguous inner run) or in the scalar tail. Only bf16 rsqrt differs. */
static int rsqrt_vector_lane(const tensor *x, int64_t k)
{
    if (x->ndim == 0)
        return 0;
    if (tensor_is_contiguous(x))
        return k < tensor_numel(x) / 32 * 32;
    int64_t row = x->shape[x->ndim - 1];
    if (x->strides[x->ndim - 1] != 1 || row <= 0)
        return 0;
    return k % row < row / 32 * 32;
}

ptodb_status kernels_unary(kernel_call *kc, kernel_unop op, const tensor *x, int reuse,
                           tensor **out)
{
    dtype_id dt = kernel_ref_dtype(x->dtype);
    int t13 = kc->t13;
    int transcend = op == KUN_EXP || op == KUN_LOG || op == KUN_SQRT || op == KUN_RSQRT ||
                    op == KUN_RECIP || op == KUN_SIN || op == KUN_COS;
    dtype_id rdt = transcend && !dtype_is_float(dt) ? DTYPE_FP32 : dt;
    if (op == KUN_NEG && dt == DTYPE_BOOL)
        return kernels_fail(kc, PTODB_ERR_RUNTIME,
                            "%s: RuntimeError: Negation, the `-` operator, on a bool tensor is not "
                            "supported. If you are trying to invert a mask, use the `~` or "
                            "`logical_not()` operator instead.",
                            kc->op);
    if (op == KUN_RELU && dt == DTYPE_BOOL)
        return kernels_fail(kc, PTODB_ERR_RUNTIME,
                            "%s: RuntimeError: Boolean inputs not supported for relu",
                            kc->op);
    if ((op == KUN_NOT && dtype_is_float(dt)) || (op == KUN_ABS && dt == DTYPE_BOOL) ||
        (t13 && dt == DTYPE_FP16 && op != KUN_RECIP && op != KUN_SIN && op != KUN_COS &&
         (transcend || op == KUN_RELU)))
        return kernels_fail(kc, PTODB_ERR_RUNTIME, "%s: RuntimeError: \"%s\" not implemented for '%s'",
                            kc->op, unop_kernel_name(op), kernel_torch_type_name(dt));
    tensor *r = NULL;
    ptodb_status st;
    /* every element is gathered before any is stored */
    if (reuse && reusable(x, rdt, x->ndim, x->shape))
        r = take_result(x);
    else if ((st = kernels_zeros(kc, rdt, x->ndim, x->shape, &r)) != PTODB_OK)
        return st;
    int64_t n = tensor_numel(r);
    if (dtype_is_float(rdt)) {
        double *v = xmalloc((size_t)(n ? n : 1) * sizeof *v);
        kernel_gather_f64(x, x->ndim, x->shape, v);
        for (int64_t k = 0; k < n; k++) {
            double t = dt != rdt ? kernel_round_to(rdt, v[k]) : v[k];
            switch (op) {
            case KUN_NEG: t = -t; break;
            /* class A: computed in double, rounded once (semantics.md §1.7) */
            case KUN_EXP:
                /* t13: REF's SLEEF kernel (fp32, and bf16 through fp32) */
                t = t13 && (rdt == DTYPE_FP32 || rdt == DTYPE_BF16) ? (double)sleef_expf((float)t)
                                                                    : exp(t);
                break;
            case KUN_LOG:
                t = t13 && (rdt == DTYPE_FP32 || rdt == DTYPE_BF16) ? (double)sleef_logf((float)t)
                                                                    : log(t);
                break;
            case KUN_SQRT: t = sqrt(t); break;
            /* class A too: torch.sin/cos, computed in double, rounded once */
            case KUN_SIN: t = sin(t); break;
            case KUN_COS: t = cos(t); break;
            case KUN_RSQRT:
                /* 1/sqrt(x) with both roundings of the opmath type; the
                 * device (TRSQRT) rounds once: pto-isa cd4a3d3f
                 * include/pto/cpu/ElementOp.h:366-371, 1.0 / sqrt in
                 * double (tests/data/isa/unary.txt) */
                if (rdt == DTYPE_FP64 || kc->device)
                    t = 1.0 / sqrt(t);
                else if (t13 && rdt == DTYPE_BF16 && !rsqrt_vector_lane(x, k))
                    /* torch 1.13's scalar tail: 1 / std::sqrt(bf16), the
                     * root rounded to bf16 first */
                    t = 1.0 / (double)dtype_round_bf16((float)sqrt(t));
                else
                    t = 1.0 / (double)(float)sqrt(t);
                break;
            case KUN_RECIP: t = 1.0 / t; break;
            case KUN_ABS: t = fabs(t); break;
            /* torch's clamp_min(x, 0): only x < 0 becomes 0, so -0.0 and
             * NaN pass unchanged (torch 1.13, scalar and vector paths) */
            case KUN_RELU: t = t < 0 ? 0.0 : t; break;
            default: break;
            }
            v[k] = t;
        }
        kernel_store_f64(r, v, n);
        free(v);
    } else {
        int64_t *v = xmalloc((size_t)(n ? n : 1) * sizeof *v);
        kernel_gather_i64(x, x->ndim, x->shape, v);
        for (int64_t k = 0; k < n; k++) {
            int64_t t = v[k];
            switch (op) {
            case KUN_NEG: t = (int64_t)(0 - (uint64_t)t); break;
            case KUN_ABS: t = t < 0 ? (int64_t)(0 - (uint64_t)t) : t; break;
            case KUN_RELU: t = t > 0 ? t : 0; break;
            case KUN_NOT: t = dt == DTYPE_BOOL ? !t : ~t; break;
            default: break;
            }
            v[k] = t;
        }
        kernel_store_i64(r, v, n);
        free(v);
    }
    *out = r;
    return PTODB_OK;
}

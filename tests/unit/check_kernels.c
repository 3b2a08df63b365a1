/* Unit tests for the kernels floor (src/kernels/) on its own terms: a
 * kernel_call carries the op name and the profile in and the first
 * failure's status and message out, with no machine. Oracles: messages
 * derived by hand from torch's rules (in the comments), values by hand, and
 * the metamorphic one that matters for users: the same failure reached
 * through the op table (exec's wrappers, exec_fail) has the same text as
 * the floor's kernel_call. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* A fixed LCG's next 64 bits (the same sequence on every run). */
static uint64_t lcg_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s;
}

/* The integer copies' row loops (kernel_gather_i64 per dtype,
 * kernel_gather_i16, kernel_store_i64 per dtype) against the element
 * functions they replace (dtype_load_i64, dtype_store_i64): every integer
 * dtype, a contiguous tensor, a transposed view (strided rows) and a
 * broadcast column, values across each dtype's whole range and tails of
 * the 16-wide vectors. */
START_TEST(test_integer_copies)
{
    static const dtype_id dts[] = {DTYPE_INT8,  DTYPE_UINT8,  DTYPE_INT16, DTYPE_UINT16, DTYPE_INT32,
                                   DTYPE_UINT32, DTYPE_INT64, DTYPE_UINT64, DTYPE_INDEX, DTYPE_BOOL};
    uint64_t seed = 5;
    for (size_t di = 0; di < sizeof dts / sizeof dts[0]; di++) {
        dtype_id dt = dts[di];
        int64_t shape[2] = {7, 37};
        tensor *t = tensor_zeros(dt, 2, shape, NULL);
        unsigned char *raw = tensor_data(t);
        size_t es = dtype_size(dt);
        for (size_t q = 0; q < (size_t)(7 * 37) * es; q++)
            raw[q] = (unsigned char)(lcg_next(&seed) >> 56);
        if (dt == DTYPE_BOOL)
            for (size_t q = 0; q < 7 * 37; q++)
                raw[q] &= 1;
        ptodb_status st;
        tensor *tr = tensor_transpose(t, 0, 1, &st); /* 37 x 7, strided rows */
        int64_t col_shape[2] = {7, 1}, bshape[2] = {7, 37};
        int64_t col_strides[2] = {t->strides[0], 1};
        tensor *col = tensor_view(t, 2, col_shape, col_strides, 3, &st); /* broadcast along dim 1 */
        const tensor *views[3] = {t, tr, col};
        const int64_t *vshapes[3] = {t->shape, tr->shape, bshape};
        for (int v = 0; v < 3; v++) {
            const tensor *x = views[v];
            int64_t n = vshapes[v][0] * vshapes[v][1];
            int64_t *got = malloc((size_t)n * sizeof *got);
            kernel_gather_i64(x, 2, vshapes[v], got);
            int16_t *got16 = malloc((size_t)n * sizeof *got16);
            int eight = dt == DTYPE_INT8 || dt == DTYPE_UINT8;
            if (eight)
                kernel_gather_i16(x, 2, vshapes[v], got16);
            for (int64_t i = 0; i < vshapes[v][0]; i++)
                for (int64_t j = 0; j < vshapes[v][1]; j++) {
                    int64_t jj = v == 2 ? 0 : j;
                    size_t e = (size_t)(x->offset + i * x->strides[0] + jj * x->strides[1]);
                    int64_t want = dtype_load_i64(dt, x->storage->data, e);
                    ck_assert_msg(got[i * vshapes[v][1] + j] == want, "%s view %d [%lld,%lld]: %lld, want %lld",
                                  dtype_name(dt), v, (long long)i, (long long)j,
                                  (long long)got[i * vshapes[v][1] + j], (long long)want);
                    if (eight)
                        ck_assert_int_eq(got16[i * vshapes[v][1] + j], want);
                }
            free(got);
            free(got16);
        }
        /* the store: values beyond the dtype's range wrap as dtype_store_i64 */
        int64_t n = 7 * 37;
        int64_t *vals = malloc((size_t)n * sizeof *vals);
        for (int64_t q = 0; q < n; q++)
            vals[q] = (int64_t)lcg_next(&seed);
        tensor *a = tensor_zeros(dt, 2, shape, NULL), *b = tensor_zeros(dt, 2, shape, NULL);
        kernel_store_i64(a, vals, n);
        for (int64_t q = 0; q < n; q++)
            dtype_store_i64(dt, tensor_data(b), (size_t)q, vals[q]);
        ck_assert_msg(memcmp(tensor_data(a), tensor_data(b), (size_t)n * es) == 0, "%s: store differs",
                      dtype_name(dt));
        free(vals);
        tensor_unref(a);
        tensor_unref(b);
        tensor_unref(col);
        tensor_unref(tr);
        tensor_unref(t);
    }
}
END_TEST

/* kernel_fill (one element's bytes made once, then copied) against
 * dtype_store / dtype_store_i64 at every element: every dtype, a
 * contiguous tensor and a strided view of one (every other column, the
 * elements between untouched), values that round, wrap, NaN and -0. */
START_TEST(test_fill_every_dtype)
{
    static const double fs[] = {0.0, -0.0, 1.0 / 3.0, -1e39, NAN, 300.5};
    static const int64_t is[] = {0, -1, 255, 70000, (int64_t)1 << 40, INT64_MIN};
    for (int dt = 0; dt < DTYPE_COUNT; dt++)
        for (size_t vi = 0; vi < sizeof fs / sizeof fs[0]; vi++)
            for (int strided = 0; strided < 2; strided++) {
                int64_t shape[2] = {5, 37};
                tensor *t = tensor_zeros((dtype_id)dt, 2, shape, NULL), *want = tensor_zeros((dtype_id)dt, 2, shape, NULL);
                size_t es = dtype_size((dtype_id)dt), nb = (size_t)(5 * 37) * es;
                memset(tensor_data(t), 0x5a, nb);
                memset(tensor_data(want), 0x5a, nb);
                ptodb_status st;
                int64_t vshape[2] = {5, strided ? 18 : 37}, vstr[2] = {37, strided ? 2 : 1};
                tensor *v = tensor_view(t, 2, vshape, vstr, strided, &st);
                ck_assert_ptr_nonnull(v);
                kernel_fill(v, fs[vi], is[vi]);
                for (int64_t r = 0; r < vshape[0]; r++)
                    for (int64_t c = 0; c < vshape[1]; c++) {
                        size_t e = (size_t)(strided + r * vstr[0] + c * vstr[1]);
                        if (dtype_is_float((dtype_id)dt))
                            dtype_store((dtype_id)dt, tensor_data(want), e, fs[vi]);
                        else
                            dtype_store_i64((dtype_id)dt, tensor_data(want), e, is[vi]);
                    }
                ck_assert_msg(memcmp(tensor_data(t), tensor_data(want), nb) == 0, "%s value %zu strided %d",
                              dtype_name((dtype_id)dt), vi, strided);
                tensor_unref(v);
                tensor_unref(t);
                tensor_unref(want);
            }
}
END_TEST

/* kernels_binary's staged path computes + - * / in double and rounds once
 * (float32: the correctly rounded float operation) and int32 + - * in int64
 * stored as the low 32 bits: the row-broadcast float path and the int32
 * path give exactly that, checked here element by element against the
 * float (int32: uint32 wrapping) operation itself. Shapes: [5, 37] against
 * [5, 1] (row_expand), [1, 37] (col_expand), [37] and [5, 37]; both orders;
 * special values (0, -0, inf, NaN, huge) among the floats. */
START_TEST(test_binary_fast_paths)
{
    static const kernel_binop ops[] = {KOP_ADD, KOP_SUB, KOP_MUL, KOP_DIV};
    uint64_t seed = 9;
    enum { R = 5, N = 37 };
    double big[R * N], small[R * N];
    for (int q = 0; q < R * N; q++) {
        uint64_t x = lcg_next(&seed);
        big[q] = (double)(int64_t)(x >> 33) / 65536.0 - 16384.0;
        if (q % 11 == 0)
            big[q] = q % 3 == 0 ? 0.0 : q % 3 == 1 ? -0.0 : INFINITY;
        small[q] = (double)(int64_t)(lcg_next(&seed) >> 40) / 1024.0 - 8192.0;
        if (q % 13 == 0)
            small[q] = q % 2 ? NAN : 3.0e38;
    }
    int64_t shapes[4][2] = {{R, 1}, {1, N}, {1, N}, {R, N}};
    int nds[4] = {2, 2, 1, 2};
    for (int sh = 0; sh < 4; sh++)
        for (int order = 0; order < 2; order++)
            for (size_t oi = 0; oi < sizeof ops / sizeof ops[0]; oi++) {
                int64_t full[2] = {R, N};
                tensor *x = mk(DTYPE_FP32, 2, full, big);
                tensor *y = mk(DTYPE_FP32, nds[sh], nds[sh] == 1 ? &shapes[sh][1] : shapes[sh], small);
                kernel_opnd o[2];
                kernel_opnd_of_tensor(order ? y : x, &o[0]);
                kernel_opnd_of_tensor(order ? x : y, &o[1]);
                kernel_call kc;
                kernel_call_init(&kc, "tile.add", 0);
                tensor *r = NULL;
                ck_assert_int_eq(kernels_binary(&kc, ops[oi], o, 0, &r), PTODB_OK);
                ck_assert_int_eq(r->dtype, DTYPE_FP32);
                const float *xs = tensor_data(x), *ys = tensor_data(y), *rs = tensor_data(r);
                for (int i = 0; i < R; i++)
                    for (int j = 0; j < N; j++) {
                        int yi = sh == 0 ? i : sh == 3 ? i * N + j : j;
                        float a = xs[i * N + j], b = ys[yi];
                        if (order) {
                            float t = a;
                            a = b;
                            b = t;
                        }
                        volatile float want = ops[oi] == KOP_ADD   ? a + b
                                              : ops[oi] == KOP_SUB ? a - b
                                              : ops[oi] == KOP_MUL ? a * b
                                                                   : a / b;
                        float w = want;
                        ck_assert_msg(memcmp(&rs[i * N + j], &w, sizeof w) == 0 || (isnan(w) && isnan(rs[i * N + j])),
                                      "shape %d order %d op %d [%d,%d]: %a, want %a", sh, order, (int)ops[oi], i, j,
                                      (double)rs[i * N + j], (double)w);
                    }
                tensor_unref(r);
                tensor_unref(x);
                tensor_unref(y);
            }
    /* int32: wrapping + - * */
    double iv[R * N], jv[R * N];
    for (int q = 0; q < R * N; q++) {
        iv[q] = (double)(int32_t)(uint32_t)(lcg_next(&seed) >> 32);
        jv[q] = (double)(int32_t)(uint32_t)(lcg_next(&seed) >> 32);
    }
    for (size_t oi = 0; oi < 3; oi++) {
        tensor *x = mk2(DTYPE_INT32, R, N, iv), *y = mk2(DTYPE_INT32, R, N, jv), *r = NULL;
        kernel_opnd o[2];
        kernel_opnd_of_tensor(x, &o[0]);
        kernel_opnd_of_tensor(y, &o[1]);
        kernel_call kc;
        kernel_call_init(&kc, "tile.add", 0);
        ck_assert_int_eq(kernels_binary(&kc, ops[oi], o, 0, &r), PTODB_OK);
        ck_assert_int_eq(r->dtype, DTYPE_INT32);
        const int32_t *rs = tensor_data(r);
        for (int q = 0; q < R * N; q++) {
            uint32_t a = (uint32_t)(int32_t)iv[q], b = (uint32_t)(int32_t)jv[q];
            uint32_t w = ops[oi] == KOP_ADD ? a + b : ops[oi] == KOP_SUB ? a - b : a * b;
            ck_assert_int_eq((uint32_t)rs[q], w);
        }
        tensor_unref(r);
        tensor_unref(x);
        tensor_unref(y);
    }
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
    tcase_add_test(tc, test_integer_copies);
    tcase_add_test(tc, test_binary_fast_paths);
    tcase_add_test(tc, test_fill_every_dtype);
    suite_add_tcase(s, tc);
    return run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}

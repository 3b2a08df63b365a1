/* Unit tests for src/exec/ops_matmul_mx.c: IR_OP_TILE_MATMUL_MX,
 * IR_OP_TILE_MATMUL_MX_ACC, IR_OP_TILE_MATMUL_MX_BIAS and
 * IR_OP_TILE_TGET_SCALE_ADDR. torch has no MX matmul, so every expectation
 * is a hand computation from the definition in docs/ops.md (pto-isa's
 * TMatmulMX with PyPTO's MX_A_ZZ / MX_B_NN scale packs):
 *   out[i, j] = sum over k of a[i, k] * b[k, j] * 2^(s0(i, k/32) - 127) *
 *               2^(s1(k/32, j) - 127), summed in float32 in k order.
 * The shapes are M = 32, K = 128 (4 scale groups), N = 32: two pack blocks
 * each way, so a wrong pack order reads another element's scale. */
#include "check_ops_util.h"

static exec_ctx C;

enum { M = 32, K = 128, N = 32, G = K / 32 };

/* Tile position of logical left scale (r, g) in the MX_A_ZZ pack:
 * [M/16, G/2, 16, 2] row-major, viewed as [M, G]; by hand:
 * (17, 3): ((1*2 + 1)*16 + 1)*2 + 1 = 99 -> [24, 3];
 * (0, 2):  ((0*2 + 1)*16 + 0)*2 + 0 = 32 -> [8, 0];
 * (1, 0):  ((0*2 + 0)*16 + 1)*2 + 0 = 2  -> [0, 2]. */
/* Tile position of logical right scale (g, n) in the MX_B_NN pack:
 * [N/16, G/2, 16, 2] row-major, viewed as [G, N]; by hand:
 * (3, 0):  ((0*2 + 1)*16 + 0)*2 + 1 = 33 -> [1, 1];
 * (0, 31): ((1*2 + 0)*16 + 15)*2 + 0 = 94 -> [2, 30]. */

typedef struct mx_operands {
    tensor *a, *as, *b, *bs;
} mx_operands;

static void set2(tensor *t, int64_t r, int64_t c, double v)
{
    tensor_set(t, (int64_t[]){r, c}, v);
}

static mx_operands make_operands(dtype_id scale_dt)
{
    mx_operands o;
    o.a = mk2(DTYPE_FP32, M, K, NULL);
    o.b = mk2(DTYPE_FP32, K, N, NULL);
    o.as = mk2(scale_dt, M, G, NULL);
    o.bs = mk2(scale_dt, G, N, NULL);
    int codes = scale_dt == DTYPE_UINT8;
    double one = codes ? 127 : 1.0;
    for (int64_t k = 0; k < M * G; k++)
        dtype_store(scale_dt, o.as->storage->data, (size_t)k, one);
    for (int64_t k = 0; k < G * N; k++)
        dtype_store(scale_dt, o.bs->storage->data, (size_t)k, one);
    /* A: out[17, 0] = 3 * -1.5 * 2^3 * 2^-2 = -9 (k = 100, group 3) */
    set2(o.a, 17, 100, 3.0);
    set2(o.b, 100, 0, -1.5);
    set2(o.as, 24, 3, codes ? 130 : 8.0);
    set2(o.bs, 1, 1, codes ? 125 : 0.25);
    /* B: out[0, 17] = 1 * 448 * 2^-10 = 0.4375 (k = 70, group 2) */
    set2(o.a, 0, 70, 1.0);
    set2(o.b, 70, 17, 448.0);
    set2(o.as, 8, 0, codes ? 117 : 0x1p-10);
    /* C: out[1, 1] = 256 * 256 * 2^8 = 2^24 (k = 0), then + 1 (k = 32) and
     * + 1 (k = 34; k = 33 adds -0.0): in float32 each + 1 is a tie that stays at 2^24; the
     * exact sum would be 2^24 + 2 */
    set2(o.a, 1, 0, 256.0);
    set2(o.b, 0, 1, 256.0);
    set2(o.as, 0, 2, codes ? 135 : 256.0);
    set2(o.a, 1, 32, 1.0);
    set2(o.b, 32, 1, 1.0);
    set2(o.a, 1, 33, -0.0);
    set2(o.a, 1, 34, 1.0);
    set2(o.b, 34, 1, 1.0);
    /* D: a NaN scale (code 0xFF) for column 31's group 0 makes the whole
     * column NaN, zero data included (OCP: 0xFF is NaN) */
    set2(o.bs, 2, 30, codes ? 255 : NAN);
    return o;
}

static void free_operands(mx_operands *o)
{
    tensor_unref(o->a);
    tensor_unref(o->as);
    tensor_unref(o->b);
    tensor_unref(o->bs);
}

static double at(const tensor *t, int64_t r, int64_t c)
{
    return tensor_get(t, (int64_t[]){r, c});
}

static tensor *run_mx(int op, mx_operands *o, tensor *extra)
{
    value p[5];
    uint32_t n = 0;
    if (op == IR_OP_TILE_MATMUL_MX_ACC)
        p[n++] = value_tensor(tensor_ref(extra));
    p[n++] = value_tensor(tensor_ref(o->a));
    p[n++] = value_tensor(tensor_ref(o->as));
    p[n++] = value_tensor(tensor_ref(o->b));
    p[n++] = value_tensor(tensor_ref(o->bs));
    if (op == IR_OP_TILE_MATMUL_MX_BIAS)
        p[n++] = value_tensor(tensor_ref(extra));
    value out;
    ptodb_status st = run_op(&C, op, p, n, &out);
    ck_assert_msg(st == PTODB_OK, "%s", C.msg);
    clear_all(p, (int)n);
    ck_assert_int_eq(out.kind, VAL_TENSOR);
    tensor *r = tensor_ref(out.u.t);
    value_clear(&out);
    return r;
}

static void expect_base(const tensor *r)
{
    expect_shape2(r, M, N);
    ck_assert_int_eq(r->dtype, DTYPE_FP32);
    ck_assert(at(r, 17, 0) == -9.0);
    ck_assert(at(r, 0, 17) == 0.4375);
    ck_assert(at(r, 1, 1) == 16777216.0);
    ck_assert(isnan(at(r, 5, 31)) && isnan(at(r, 0, 31)));
    double z = at(r, 2, 2);
    ck_assert(z == 0.0 && !signbit(z));
    ck_assert(at(r, 17, 1) == 0.0 && at(r, 31, 30) == 0.0);
}

START_TEST(test_matmul_mx_by_hand)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    mx_operands o = make_operands(DTYPE_FP32);
    tensor *r = run_mx(IR_OP_TILE_MATMUL_MX, &o, NULL);
    expect_base(r);
    ck_assert_int_eq(r->valid_ndim, -1);
    tensor_unref(r);
    free_operands(&o);
    /* the same codes as a UINT8 tile (PyPTO's UINT8 scale path) */
    o = make_operands(DTYPE_UINT8);
    r = run_mx(IR_OP_TILE_MATMUL_MX, &o, NULL);
    expect_base(r);
    tensor_unref(r);
    free_operands(&o);
}
END_TEST

START_TEST(test_matmul_mx_acc_bias)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    mx_operands o = make_operands(DTYPE_FP32);
    tensor *acc = mk2(DTYPE_FP32, M, N, NULL);
    set2(acc, 17, 0, 0.5);
    set2(acc, 3, 3, -0.0);
    set2(acc, 4, 4, INFINITY);
    tensor *r = run_mx(IR_OP_TILE_MATMUL_MX_ACC, &o, acc);
    ck_assert(at(r, 17, 0) == -8.5);
    ck_assert(at(r, 0, 17) == 0.4375);
    ck_assert(at(r, 1, 1) == 16777216.0);
    ck_assert(isinf(at(r, 4, 4)));
    double z = at(r, 3, 3); /* -0.0 + +0.0 */
    ck_assert(z == 0.0 && !signbit(z));
    ck_assert(at(acc, 17, 0) == 0.5); /* the input accumulator is not changed */
    tensor_unref(r);
    tensor_unref(acc);
    tensor *bias = mk2(DTYPE_FP32, 1, N, NULL);
    set2(bias, 0, 17, 1.0);
    set2(bias, 0, 0, 9.0);
    r = run_mx(IR_OP_TILE_MATMUL_MX_BIAS, &o, bias);
    ck_assert(at(r, 0, 17) == 1.4375);
    ck_assert(at(r, 17, 0) == 0.0);
    ck_assert(at(r, 5, 0) == 9.0);
    ck_assert(isnan(at(r, 5, 31)));
    tensor_unref(r);
    tensor_unref(bias);
    free_operands(&o);
}
END_TEST

/* valid shapes smaller than the tiles: M and K from lhs, N from rhs; the
 * rest of the result is 0 and the result carries valid [M, N] */
START_TEST(test_matmul_mx_valid_shape)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    mx_operands o = make_operands(DTYPE_FP32);
    o.a->valid_ndim = 2;
    o.a->valid[0] = 20;
    o.a->valid[1] = 100; /* k = 100 (term A) is outside */
    o.b->valid_ndim = 2;
    o.b->valid[0] = 128;
    o.b->valid[1] = 24; /* column 31 (the NaN scale) is outside */
    tensor *r = run_mx(IR_OP_TILE_MATMUL_MX, &o, NULL);
    ck_assert(at(r, 17, 0) == 0.0);
    ck_assert(at(r, 0, 17) == 0.4375);
    ck_assert(at(r, 1, 1) == 16777216.0);
    ck_assert(at(r, 5, 31) == 0.0);
    ck_assert_int_eq(r->valid_ndim, 2);
    ck_assert_int_eq(r->valid[0], 20);
    ck_assert_int_eq(r->valid[1], 24);
    tensor_unref(r);
    free_operands(&o);
}
END_TEST

static void expect_error(int op, mx_operands *o, const char *needle)
{
    value p[4] = {value_tensor(tensor_ref(o->a)), value_tensor(tensor_ref(o->as)), value_tensor(tensor_ref(o->b)),
                  value_tensor(tensor_ref(o->bs))};
    value out;
    ck_assert_int_ne(run_op(&C, op, p, 4, &out), PTODB_OK);
    ck_assert_msg(strstr(C.msg, needle) != NULL, "message: %s", C.msg);
    clear_all(p, 4);
}

START_TEST(test_matmul_mx_errors)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    mx_operands o = make_operands(DTYPE_FP32);
    set2(o.a, 3, 5, 1.0625); /* between e4m3 neighbours 1 and 1.125 */
    expect_error(IR_OP_TILE_MATMUL_MX, &o, "lhs element [3, 5] is 1.0625, not an FP8E4M3FN value");
    set2(o.a, 3, 5, 1.0);
    set2(o.bs, 0, 0, 0.75);
    expect_error(IR_OP_TILE_MATMUL_MX, &o, "rhs_scale element [0, 0] is 0.75, not an FP8E8M0 value");
    set2(o.bs, 0, 0, 0.0); /* E8M0 has no zero */
    expect_error(IR_OP_TILE_MATMUL_MX, &o, "not an FP8E8M0 value");
    set2(o.bs, 0, 0, 1.0);
    free_operands(&o);
    /* not whole 16 x 2 packs: M = 8 */
    o = make_operands(DTYPE_FP32);
    tensor_unref(o.a);
    tensor_unref(o.as);
    o.a = mk2(DTYPE_FP32, 8, K, NULL);
    o.as = mk2(DTYPE_FP32, 8, G, NULL);
    expect_error(IR_OP_TILE_MATMUL_MX, &o, "is not whole MX_A_ZZ packs");
    tensor_unref(o.as);
    o.as = mk2(DTYPE_FP32, 8, 2, NULL);
    expect_error(IR_OP_TILE_MATMUL_MX, &o, "lhs_scale is [8, 2]; the operands need [8, 4]");
    free_operands(&o);
    /* a bf16 data tile and a K mismatch */
    o = make_operands(DTYPE_FP32);
    tensor_unref(o.a);
    o.a = mk2(DTYPE_BF16, M, K, NULL);
    expect_error(IR_OP_TILE_MATMUL_MX, &o, "lhs must be FP8E4M3FN, got bf16");
    tensor_unref(o.a);
    o.a = mk2(DTYPE_FP32, M, 64, NULL);
    expect_error(IR_OP_TILE_MATMUL_MX, &o, "(K differs)");
    free_operands(&o);
}
END_TEST

START_TEST(test_tget_scale_addr)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double s[4] = {1.0, 2.0, NAN, 0x1p-127};
    tensor *scale = mk2(DTYPE_FP32, 2, 2, s);
    tensor *data = mk2(DTYPE_FP32, 2, 64, NULL);
    value p[2] = {value_tensor(tensor_ref(scale)), value_tensor(tensor_ref(data))};
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_TGET_SCALE_ADDR, p, 2, &out), PTODB_OK);
    ck_assert(out.kind == VAL_TENSOR && out.u.t == scale); /* in place on dst_scale */
    expect_vals(out.u.t, s, 4);
    value_clear(&out);
    clear_all(p, 2);
    value bad[2] = {value_tensor(tensor_ref(scale)), value_int(1)};
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_TGET_SCALE_ADDR, bad, 2, &out), PTODB_OK);
    clear_all(bad, 2);
    tensor_unref(scale);
    tensor_unref(data);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_matmul_mx");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_matmul_mx_by_hand);
    tcase_add_test(tc, test_matmul_mx_acc_bias);
    tcase_add_test(tc, test_matmul_mx_valid_shape);
    tcase_add_test(tc, test_matmul_mx_errors);
    tcase_add_test(tc, test_tget_scale_addr);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

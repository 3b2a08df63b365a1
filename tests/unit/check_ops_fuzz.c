/* Hostile-argument test for every op the op families register: random
 * argument kinds, dtypes, shapes, strided and empty tensors, huge and
 * negative ints, NaN/inf, odd keyword values. Each call must either succeed
 * with a value or fail with a message and VAL_NONE; the sanitizer build
 * turns any out-of-bounds access or leak into a failure. Deterministic
 * (fixed seed). */
#include <stdlib.h>

#include "check_ops_util.h"

static exec_ctx C;

static uint64_t rng_state;

static uint64_t rnd(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return rng_state >> 33;
}

static int64_t rnd_int(void)
{
    static const int64_t special[] = {0, 1, -1, 2, -2, 3, 7, 16, 64, -64, 70, INT64_MAX, INT64_MIN,
                                      (int64_t)1 << 40, -((int64_t)1 << 33), 255, 300};
    if (rnd() % 3 == 0)
        return special[rnd() % (sizeof special / sizeof special[0])];
    return (int64_t)(rnd() % 12) - 3;
}

static const dtype_id dtypes[] = {DTYPE_BOOL, DTYPE_INT8,  DTYPE_UINT8, DTYPE_INT16, DTYPE_INT32,
                                  DTYPE_INT64, DTYPE_FP16, DTYPE_BF16,  DTYPE_FP32,  DTYPE_FP64};

static tensor *rnd_tensor(void)
{
    int nd = (int)(rnd() % 4);
    int64_t shape[4];
    for (int d = 0; d < nd; d++)
        shape[d] = (int64_t)(rnd() % 5) + (rnd() % 6 == 0 ? 0 : 1) * (rnd() % 3 == 0 ? 14 : 0);
    dtype_id dt = dtypes[rnd() % (sizeof dtypes / sizeof dtypes[0])];
    tensor *t = tensor_zeros(dt, nd, shape, NULL);
    ck_assert_ptr_nonnull(t);
    for (int64_t k = 0; k < tensor_numel(t); k++) {
        double v = (double)((int64_t)(rnd() % 21) - 10) / 4.0;
        if (rnd() % 40 == 0)
            v = rnd() % 2 ? NAN : INFINITY;
        dtype_store(dt, t->storage->data, (size_t)k, v);
    }
    if (nd >= 2 && rnd() % 3 == 0) { /* a transposed view */
        tensor *v = tensor_transpose(t, 0, nd - 1, NULL);
        tensor_unref(t);
        t = v;
    }
    if (nd >= 1 && t->shape[0] > 1 && rnd() % 3 == 0) { /* a strided slice */
        tensor *v = tensor_slice(t, 0, 1, t->shape[0], 2, NULL);
        tensor_unref(t);
        t = v;
    }
    if (rnd() % 4 == 0) { /* valid/full attrs, sometimes absurd */
        t->valid_ndim = (int)(rnd() % 4);
        for (int d = 0; d < t->valid_ndim; d++)
            t->valid[d] = rnd_int();
        if (rnd() % 2) {
            t->full_ndim = (int)(rnd() % 4);
            for (int d = 0; d < t->full_ndim; d++)
                t->full[d] = (int64_t)(rnd() % 6);
        }
    }
    return t;
}

static value rnd_value(void)
{
    switch (rnd() % 9) {
    case 0:
    case 1:
    case 2: return value_tensor(rnd_tensor());
    case 3: return value_int(rnd_int());
    case 4: {
        static const double f[] = {0.0, -0.0, 1.5, -2.25, 1e30, -3.4e38, 65520.0};
        if (rnd() % 5 == 0)
            return value_float(rnd() % 2 ? NAN : -INFINITY);
        return value_float(f[rnd() % (sizeof f / sizeof f[0])]);
    }
    case 5:
    case 6: {
        int n = (int)(rnd() % 4);
        if (rnd() % 10 == 0)
            n = 9; /* longer than any tensor rank */
        value v = value_tuple_new((uint32_t)n);
        for (int k = 0; k < n; k++)
            v.u.tuple->items[k] = rnd() % 8 ? value_int(rnd_int()) : value_float(2.5);
        return v;
    }
    case 7: return value_enum((int32_t)(rnd() % IR_EV_COUNT));
    default: return rnd() % 2 ? value_none() : value_bool((int)(rnd() % 2));
    }
}

static const exec_kw kws[] = {EXEC_KW_DTYPE, EXEC_KW_TARGET_TYPE, EXEC_KW_OUT_DTYPE,
                              EXEC_KW_VALUE, EXEC_KW_A_TRANS, EXEC_KW_B_TRANS, EXEC_KW_PAD_VALUE,
                              EXEC_KW_CMP_TYPE, EXEC_KW_ATOMIC, EXEC_KW_LAYOUT};

START_TEST(test_fuzz_all_ops)
{
    op_fn table[IR_OP_COUNT];
    memset(table, 0, sizeof table);
    /* only the families of this module (the cross-core ops need a machine) */
    exec_ops_register_elementwise(table);
    exec_ops_register_unary(table);
    exec_ops_register_reduce(table);
    exec_ops_register_matmul(table);
    exec_ops_register_memory(table);
    exec_ops_register_shape(table);
    rng_state = 12345;
    int ops = 0, calls = 0, ok = 0;
    for (int op = 0; op < IR_OP_COUNT; op++) {
        if (!table[op])
            continue;
        ops++;
        const ir_op_info *info = ir_op_info_get(op);
        for (int trial = 0; trial < 600; trial++) {
            ctx_init(&C, rnd() % 2 ? EXEC_PROFILE_T2 : EXEC_PROFILE_T13);
            int lo = info->min_args, hi = info->max_args;
            uint32_t npos = (uint32_t)(lo + (int)(rnd() % (uint64_t)(hi - lo + 1)));
            value pos[8];
            for (uint32_t k = 0; k < npos; k++)
                pos[k] = rnd_value();
            uint32_t nkw = (uint32_t)(rnd() % 3);
            exec_kw kwid[4];
            value kwv[4];
            for (uint32_t k = 0; k < nkw; k++) {
                kwid[k] = kws[rnd() % (sizeof kws / sizeof kws[0])];
                kwv[k] = rnd() % 2 ? value_enum((int32_t)(rnd() % IR_EV_COUNT)) : rnd_value();
            }
            exec_type rt;
            memset(&rt, 0, sizeof rt);
            rt.layout = rnd() % 2 ? IR_EV_TENSOR_LAYOUT_DN : -1;
            value out;
            ptodb_status st = run_op_kw(&C, op, pos, npos, kwid, kwv, nkw, &rt, &out);
            calls++;
            if (st == PTODB_OK) {
                ok++;
                ck_assert_msg(out.kind != VAL_UNBOUND, "%s returned no value", info->name);
                value_clear(&out);
            } else {
                ck_assert_msg(out.kind == VAL_NONE, "%s failed but set a value", info->name);
                ck_assert_msg(C.failures > 0 && C.msg[0], "%s failed without a message",
                              info->name);
            }
            clear_all(pos, (int)npos);
            clear_all(kwv, (int)nkw);
        }
    }
    ck_assert_int_gt(ops, 150);
    ck_assert_int_gt(ok, calls / 20); /* some calls do succeed */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_fuzz");
    TCase *tc = tcase_create("fuzz");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, test_fuzz_all_ops);
    suite_add_tcase(s, tc);
    return run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}

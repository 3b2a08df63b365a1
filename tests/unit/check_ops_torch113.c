/* The t13 profile against REF itself: outputs of Debian's torch 1.13 (the
 * fixtures' reference) stored in tests/data/ops/torch113.h by
 * scripts/gen_op_expected.py --torch, on inputs both sides draw from the
 * same LCG. Every comparison is bit for bit: SLEEF exp/log, the cascade
 * sum and vectorised prod orders, netlib's sgemm order, the bf16 matmul
 * loops, bf16 scalar narrowing; plus tests/data/ops/torch113_cases.txt,
 * random calls of most op kinds with torch's result or its refusal
 * (scripts/gen_op_expected.py --torch-cases). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check_ops_util.h"
#include "../data/ops/torch113.h"

static exec_ctx C;

/* lcg_f32 of the generator: exact float32 values (u - 2^23) / 2^23 * scale */
static void lcg_f32(double *out, int n, uint64_t seed, double scale)
{
    uint64_t s = seed;
    for (int i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        out[i] = (double)(int64_t)((s >> 40) - ((uint64_t)1 << 23)) / (double)(1 << 23) * scale;
    }
}

static tensor *lcg2(dtype_id dt, int64_t r, int64_t c, uint64_t seed, double scale)
{
    double *v = malloc((size_t)(r * c) * sizeof *v);
    lcg_f32(v, (int)(r * c), seed, scale);
    tensor *t = mk2(dt, r, c, v);
    free(v);
    return t;
}

static tensor *call1(int op, tensor *x)
{
    value v = value_tensor(x), out;
    ck_assert_msg(run_op(&C, op, &v, 1, &out) == PTODB_OK, "%s", C.msg);
    value_clear(&v);
    return out.u.t;
}

static tensor *call2(int op, value x, value y)
{
    value pos[2] = {x, y}, out;
    ck_assert_msg(run_op(&C, op, pos, 2, &out) == PTODB_OK, "%s", C.msg);
    clear_all(pos, 2);
    return out.u.t;
}

START_TEST(test_exp_log)
{
    ctx_init(&C, EXEC_PROFILE_T13);
    tensor *r = call1(IR_OP_TILE_EXP, lcg2(DTYPE_FP32, 1, 256, 1, 64.0));
    expect_vals(r, TT_EXP, 256);
    tensor_unref(r);
    r = call1(IR_OP_TILE_EXP, lcg2(DTYPE_BF16, 1, 256, 1, 64.0));
    expect_vals(r, TT_EXP_BF16, 256);
    tensor_unref(r);
    double y[256];
    lcg_f32(y, 256, 2, 1.0);
    for (int i = 0; i < 256; i++)
        y[i] = (float)(fabs(y[i]) * ldexp(1.0, i % 40 - 20));
    r = call1(IR_OP_TENSOR_LOG, mk1(DTYPE_FP32, 256, y));
    expect_vals(r, TT_LOG, 256);
    tensor_unref(r);
}
END_TEST

START_TEST(test_sums_prods)
{
    ctx_init(&C, EXEC_PROFILE_T13);
    tensor *r = call1(IR_OP_TILE_ROW_SUM, lcg2(DTYPE_FP32, 4, 70, 3, 4.0));
    expect_vals(r, TT_RS70, 4);
    tensor_unref(r);
    r = call1(IR_OP_TILE_ROW_SUM, lcg2(DTYPE_FP32, 2, 600, 4, 4.0));
    expect_vals(r, TT_RS600, 2);
    tensor_unref(r);
    r = call1(IR_OP_TILE_COL_SUM, lcg2(DTYPE_FP32, 37, 40, 5, 4.0));
    expect_vals(r, TT_CS40, 40);
    tensor_unref(r);
    r = call1(IR_OP_TENSOR_COL_SUM, lcg2(DTYPE_FP32, 20, 100, 6, 4.0));
    expect_vals(r, TT_CS100, 100);
    tensor_unref(r);
    r = call1(IR_OP_TILE_COL_SUM, lcg2(DTYPE_FP32, 300, 3, 7, 4.0));
    expect_vals(r, TT_CS3, 3);
    tensor_unref(r);
    /* products of values in [0.75, 1.75) */
    static const struct { int op; int64_t r, c; uint64_t seed; const double *e; int n; } prods[] = {
        {IR_OP_TILE_ROW_PROD, 4, 70, 8, TT_RP70, 4}, {IR_OP_TILE_COL_PROD, 40, 9, 9, TT_CP9, 9}};
    for (int k = 0; k < 2; k++) {
        int64_t n = prods[k].r * prods[k].c;
        double *v = malloc((size_t)n * sizeof *v);
        lcg_f32(v, (int)n, prods[k].seed, 2.0);
        for (int64_t i = 0; i < n; i++)
            v[i] = (float)((float)fabs(v[i]) * 0.5f + 0.75f);
        r = call1(prods[k].op, mk2(DTYPE_FP32, prods[k].r, prods[k].c, v));
        expect_vals(r, prods[k].e, prods[k].n);
        tensor_unref(r);
        free(v);
    }
}
END_TEST

START_TEST(test_matmuls)
{
    ctx_init(&C, EXEC_PROFILE_T13);
    tensor *r = call2(IR_OP_TENSOR_MATMUL, value_tensor(lcg2(DTYPE_FP32, 24, 40, 10, 2.0)),
                      value_tensor(lcg2(DTYPE_FP32, 40, 20, 11, 2.0)));
    expect_vals(r, TT_MM_F32, 24 * 20);
    tensor_unref(r);
    r = call2(IR_OP_TENSOR_MATMUL, value_tensor(lcg2(DTYPE_BF16, 8, 48, 12, 2.0)),
              value_tensor(lcg2(DTYPE_BF16, 48, 24, 13, 2.0)));
    expect_vals(r, TT_MM_BF16, 8 * 24);
    tensor_unref(r);
    /* small bf16: row-major operands, a column-major rhs, a column-major lhs */
    tensor *a = lcg2(DTYPE_BF16, 8, 16, 15, 2.0), *b = lcg2(DTYPE_BF16, 16, 16, 16, 2.0);
    r = call2(IR_OP_TENSOR_MATMUL, value_tensor(tensor_ref(a)), value_tensor(tensor_ref(b)));
    expect_vals(r, TT_MM_BF16_NN, 8 * 16);
    tensor_unref(r);
    tensor *tv = tensor_transpose(b, 0, 1, NULL);
    tensor *bt = tensor_clone(tv);
    tensor_unref(tv);
    tensor *bcol = tensor_transpose(bt, 0, 1, NULL); /* b's values, column-major */
    r = call2(IR_OP_TENSOR_MATMUL, value_tensor(tensor_ref(a)), value_tensor(bcol));
    expect_vals(r, TT_MM_BF16_NT, 8 * 16);
    tensor_unref(r);
    tv = tensor_transpose(a, 0, 1, NULL);
    tensor *at = tensor_clone(tv);
    tensor_unref(tv);
    tensor *acol = tensor_transpose(at, 0, 1, NULL);
    r = call2(IR_OP_TENSOR_MATMUL, value_tensor(acol), value_tensor(tensor_ref(b)));
    expect_vals(r, TT_MM_BF16_TN, 8 * 16);
    tensor_unref(r);
    tensor_unref(at);
    tensor_unref(bt);
    tensor_unref(a);
    tensor_unref(b);
}
END_TEST

START_TEST(test_bf16_scalars)
{
    ctx_init(&C, EXEC_PROFILE_T13);
    static const struct { int op; double s; const double *e; } cases[] = {
        {IR_OP_TILE_MULS, 1.1, TT_BF16_MULS}, {IR_OP_TILE_DIVS, 3.3, TT_BF16_DIVS},
        {IR_OP_TILE_ADDS, 0.3, TT_BF16_ADDS}};
    for (int k = 0; k < 3; k++) {
        tensor *r = call2(cases[k].op, value_tensor(lcg2(DTYPE_BF16, 1, 64, 14, 8.0)),
                          value_float(cases[k].s));
        expect_vals(r, cases[k].e, 64);
        tensor_unref(r);
    }
    value pos[3] = {value_tensor(lcg2(DTYPE_BF16, 1, 64, 14, 8.0)), value_float(0.7), value_none()},
          out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_REMS, pos, 3, &out), PTODB_OK);
    expect_vals(out.u.t, TT_BF16_REMS, 64);
    value_clear(&out);
    clear_all(pos, 3);
}
END_TEST

/* ---- the differential cases ------------------------------------------- */

static dtype_id case_dtype(const char *s)
{
    static const char *const names[] = {"bool", "int8", "uint8", "int16", "int32",
                                        "int64", "fp16", "bf16", "fp32", "fp64"};
    static const dtype_id ids[] = {DTYPE_BOOL, DTYPE_INT8, DTYPE_UINT8, DTYPE_INT16, DTYPE_INT32,
                                   DTYPE_INT64, DTYPE_FP16, DTYPE_BF16, DTYPE_FP32, DTYPE_FP64};
    for (int i = 0; i < 10; i++)
        if (strcmp(s, names[i]) == 0)
            return ids[i];
    ck_abort_msg("unknown dtype %s", s);
    return DTYPE_FP32;
}

static int32_t case_ir_dtype(const char *s)
{
    static const char *const names[] = {"bool", "int8", "uint8", "int16", "int32",
                                        "int64", "fp16", "bf16", "fp32"};
    static const int32_t ids[] = {IR_EV_DTYPE_BOOL, IR_EV_DTYPE_INT8, IR_EV_DTYPE_UINT8,
                                  IR_EV_DTYPE_INT16, IR_EV_DTYPE_INT32, IR_EV_DTYPE_INT64,
                                  IR_EV_DTYPE_FP16, IR_EV_DTYPE_BF16, IR_EV_DTYPE_FP32};
    for (int i = 0; i < 9; i++)
        if (strcmp(s, names[i]) == 0)
            return ids[i];
    ck_abort_msg("unknown dtype %s", s);
    return IR_EV_DTYPE_FP32;
}

static char *case_tok(char **p)
{
    while (**p == ' ')
        (*p)++;
    if (!**p)
        return NULL;
    char *s = *p;
    while (**p && **p != ' ')
        (*p)++;
    if (**p)
        *(*p)++ = '\0';
    return s;
}

static value case_value(char **p)
{
    char *k = case_tok(p);
    ck_assert_ptr_nonnull(k);
    if (strcmp(k, "T") == 0) {
        dtype_id dt = case_dtype(case_tok(p));
        int nd = atoi(case_tok(p));
        int64_t shape[TENSOR_MAX_DIMS];
        for (int d = 0; d < nd; d++)
            shape[d] = atoll(case_tok(p));
        tensor *t = tensor_zeros(dt, nd, shape, NULL);
        ck_assert_ptr_nonnull(t);
        for (int64_t i = 0; i < tensor_numel(t); i++) {
            char *v = case_tok(p);
            ck_assert_ptr_nonnull(v);
            if (dtype_is_float(dt))
                dtype_store(dt, t->storage->data, (size_t)i, strtod(v, NULL));
            else
                dtype_store_i64(dt, t->storage->data, (size_t)i, strtoll(v, NULL, 10));
        }
        return value_tensor(t);
    }
    if (strcmp(k, "I") == 0)
        return value_int(strtoll(case_tok(p), NULL, 10));
    if (strcmp(k, "B") == 0)
        return value_bool(atoi(case_tok(p)));
    if (strcmp(k, "F") == 0)
        return value_float(strtod(case_tok(p), NULL));
    return value_none();
}

START_TEST(test_differential_cases)
{
    const char *top = getenv("top_srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/ops/torch113_cases.txt", top ? top : "..");
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s (set top_srcdir)", path);
    op_fn table[IR_OP_COUNT];
    exec_ops_init(table);
    char *line = NULL;
    size_t cap = 0;
    int n = 0;
    while (getline(&line, &cap, f) > 0) {
        n++;
        line[strcspn(line, "\n")] = '\0';
        char *part[4], *s = line;
        for (int i = 0; i < 4; i++) {
            part[i] = s;
            char *bar = i < 3 ? strchr(s, '|') : NULL;
            if (bar) {
                *bar = '\0';
                s = bar + 1;
            }
        }
        int op = ir_op_lookup(part[0], strlen(part[0]));
        ck_assert_msg(op >= 0 && table[op], "line %d: op %s", n, part[0]);
        value pos[8];
        uint32_t npos = 0;
        for (char *a = part[1]; *a;) {
            char *semi = strchr(a, ';');
            if (semi)
                *semi = '\0';
            char *q = a;
            pos[npos++] = case_value(&q);
            if (!semi)
                break;
            a = semi + 1;
        }
        uint8_t ids[2];
        value kv[2];
        uint32_t nkw = 0;
        char *kp = part[2], *t;
        while ((t = case_tok(&kp)) && nkw < 2) {
            char *eq = strchr(t, '=');
            ck_assert_ptr_nonnull(eq);
            *eq = '\0';
            if (strcmp(t, "cmp_type") == 0) {
                ids[nkw] = EXEC_KW_CMP_TYPE;
                kv[nkw++] = value_int(atoi(eq + 1));
            } else {
                ids[nkw] = EXEC_KW_TARGET_TYPE;
                kv[nkw++] = value_enum(case_ir_dtype(eq + 1));
            }
        }
        ctx_init(&C, EXEC_PROFILE_T13);
        op_args args = {op, pos, npos, ids, kv, nkw, NULL};
        value out = value_none();
        ptodb_status st = table[op](&C, &args, &out);
        char *e = part[3], *ek = case_tok(&e);
        if (strcmp(ek, "ERR") == 0) {
            ck_assert_msg(st != PTODB_OK, "line %d %s: REF raises, ptodb gives a value", n,
                          part[0]);
        } else {
            ck_assert_msg(st == PTODB_OK, "line %d %s: ptodb failed: %s", n, part[0], C.msg);
            value ev = case_value(&e);
            ck_assert_msg(out.kind == VAL_TENSOR, "line %d %s: not a tensor", n, part[0]);
            tensor *r = out.u.t, *x = ev.u.t;
            ck_assert_msg(r->dtype == x->dtype && r->ndim == x->ndim,
                          "line %d %s: dtype/rank %s/%d, REF %s/%d", n, part[0],
                          dtype_name(r->dtype), r->ndim, dtype_name(x->dtype), x->ndim);
            for (int d = 0; d < r->ndim; d++)
                ck_assert_msg(r->shape[d] == x->shape[d], "line %d %s: shape", n, part[0]);
            for (int64_t i = 0; i < tensor_numel(r); i++) {
                double u = tensor_get_flat(r, i), w = tensor_get_flat(x, i);
                ck_assert_msg((isnan(u) && isnan(w)) || u == w,
                              "line %d %s: element %lld: ptodb %.17g, REF %.17g", n, part[0],
                              (long long)i, u, w);
            }
            value_clear(&ev);
        }
        value_clear(&out);
        clear_all(pos, (int)npos);
        clear_all(kv, (int)nkw);
    }
    free(line);
    fclose(f);
    ck_assert_int_gt(n, 100);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_torch113");
    TCase *tc = tcase_create("torch113");
    tcase_add_test(tc, test_exp_log);
    tcase_add_test(tc, test_sums_prods);
    tcase_add_test(tc, test_matmuls);
    tcase_add_test(tc, test_bf16_scalars);
    tcase_add_test(tc, test_differential_cases);
    suite_add_tcase(s, tc);
    return run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The op catalogue (src/ir/ops.def's last three columns) against the code:
 * an op is implemented exactly when it names a semantics source, an op REF
 * runs takes torch_codegen's semantics, and every implemented op names a
 * file under tests/ that exercises it (IR_OP_<ID>, "pl.<name>(" or an op
 * case line "<name>|"). Then hand-computed cases for the ops no other unit
 * test covered: broadcast families, partial combines, bitwise ops, chains,
 * matmul variants with accumulators, reductions with -0.0, NaN and Inf. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#include "check_ops_util.h"
#include "exec/op_catalogue.h"

static exec_ctx C;

/* The file tests/<rel> as a string (NULL when it cannot be read). */
static char *slurp(const char *rel)
{
    const char *top = getenv("top_srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/%s", top ? top : "..", rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap);
    size_t k;
    while ((k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (n + 1 == cap)
            s = realloc(s, cap *= 2);
    }
    fclose(f);
    s[n] = '\0';
    return s;
}

/* s mentions needle followed by one of the characters in after ("" = any). */
static int mentions(const char *s, const char *needle, const char *after)
{
    size_t n = strlen(needle);
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle)) {
        char c = p[n];
        if (!*after ? !(isalnum((unsigned char)c) || c == '_') : c && strchr(after, c) != NULL)
            return 1;
    }
    return 0;
}

START_TEST(test_catalogue_matches_code)
{
    op_fn table[IR_OP_COUNT];
    exec_ops_init(table);
    int checked = 0;
    for (int op = 0; op < IR_OP_COUNT; op++) {
        const ir_op_info *info = ir_op_info_get(op);
        int impl = exec_op_implemented(table, op);
        ck_assert_msg(impl == (info->source != IR_OPSRC_NONE),
                      "%s: implemented=%d but ops.def says semantics %s", info->name, impl,
                      ir_op_source_name(info->source));
        if (impl && info->ref)
            ck_assert_msg(info->source == IR_OPSRC_TORCH,
                          "%s: REF runs it, so its semantics are torch_codegen's", info->name);
        if (impl && !info->ref)
            ck_assert_msg(info->source != IR_OPSRC_TORCH,
                          "%s: REF has no handler, so torch_codegen is not its source", info->name);
        if (!impl) {
            ck_assert_msg(!info->tested_by[0], "%s: not implemented but tested by %s",
                          info->name, info->tested_by);
            continue;
        }
        ck_assert_msg(info->tested_by[0], "%s is implemented but ops.def names no test",
                      info->name);
        char *text = slurp(info->tested_by);
        ck_assert_msg(text != NULL, "%s: cannot read tests/%s (set top_srcdir)", info->name,
                      info->tested_by);
        char id[96] = "IR_OP_", pl[96];
        size_t k = strlen(id);
        for (const char *c = info->name; *c && k + 1 < sizeof id; c++)
            id[k++] = *c == '.' ? '_' : (char)toupper((unsigned char)*c);
        id[k] = '\0';
        snprintf(pl, sizeof pl, "pl.%s", info->name);
        ck_assert_msg(mentions(text, id, "") || mentions(text, pl, "(_") ||
                          mentions(text, info->name, "|"),
                      "%s: tests/%s does not exercise it", info->name, info->tested_by);
        free(text);
        checked++;
    }
    ck_assert_int_gt(checked, 190);
}
END_TEST

START_TEST(test_catalogue_printer)
{
    strbuf sb = STRBUF_INIT;
    exec_op_catalogue_print(&sb);
    const char *s = strbuf_str(&sb);
    ck_assert_ptr_nonnull(strstr(s, "\ntile.add "));
    ck_assert_ptr_nonnull(strstr(s, "\npld.tensor.get                     yes"));
    ck_assert_ptr_nonnull(strstr(s, "\ndist.make_tensor                   no "));
    ck_assert_ptr_nonnull(strstr(s, "9 not implemented, each for a reason (docs/ops.md)"));
    ck_assert_ptr_nonnull(strstr(s, "312 ops: "));
    strbuf_free(&sb);
}
END_TEST

/* ---- hand-computed cases -------------------------------------------------- */

/* a = [[1, -2, 3.5], [-0.0, 4, -5]], b = [[2, 0.5, -1], [3, -4, 2]],
 * r = [[2], [-1]] (row vector), c = [[1, 2, -1]] (column vector). */
static const double A[6] = {1, -2, 3.5, -0.0, 4, -5};
static const double B[6] = {2, 0.5, -1, 3, -4, 2};
static const double R[2] = {2, -1};
static const double CV[3] = {1, 2, -1};

static value fa(const double *v) { return value_tensor(mk2(DTYPE_FP32, 2, 3, v)); }

static void expect_op(int op, value *pos, uint32_t n, const double *e, int64_t ne)
{
    value out;
    ptodb_status st = run_op(&C, op, pos, n, &out);
    ck_assert_msg(st == PTODB_OK, "%s failed: %s", ir_op_info_get(op)->name, C.msg);
    ck_assert_int_eq(out.kind, VAL_TENSOR);
    expect_vals(out.u.t, e, ne);
    value_clear(&out);
    clear_all(pos, (int)n);
}

START_TEST(test_binary_families)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    static const struct { int op; double e[6]; } cases[] = {
        {IR_OP_TENSOR_ADD, {3, -1.5, 2.5, 3, 0, -3}},
        {IR_OP_TENSOR_PART_ADD, {3, -1.5, 2.5, 3, 0, -3}},
        {IR_OP_TILE_PART_ADD, {3, -1.5, 2.5, 3, 0, -3}},
        {IR_OP_TENSOR_MUL, {2, -1, -3.5, -0.0, -16, -10}},
        {IR_OP_TENSOR_PART_MUL, {2, -1, -3.5, -0.0, -16, -10}},
        {IR_OP_TILE_PART_MUL, {2, -1, -3.5, -0.0, -16, -10}},
        {IR_OP_TENSOR_DIV, {0.5, -4, -3.5, -0.0, -1, -2.5}},
        {IR_OP_TENSOR_MAXIMUM, {2, 0.5, 3.5, 3, 4, 2}},
        {IR_OP_TENSOR_PART_MAX, {2, 0.5, 3.5, 3, 4, 2}},
        {IR_OP_TILE_PART_MAX, {2, 0.5, 3.5, 3, 4, 2}},
        {IR_OP_TILE_MINIMUM, {1, -2, -1, -0.0, -4, -5}},
        {IR_OP_TENSOR_PART_MIN, {1, -2, -1, -0.0, -4, -5}},
        {IR_OP_TILE_PART_MIN, {1, -2, -1, -0.0, -4, -5}},
        /* C fmod: the sign of the dividend, -0.0 kept */
        {IR_OP_TENSOR_FMOD, {1, -0.0, 0.5, -0.0, 0, -1}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        value p[2] = {fa(A), fa(B)};
        expect_op(cases[k].op, p, 2, cases[k].e, 6);
    }
    /* -0.0 survives where the sign matters */
    value p[2] = {fa(A), fa(B)};
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_MUL, p, 2, &out), PTODB_OK);
    ck_assert(signbit(tensor_get_flat(out.u.t, 3)));
    value_clear(&out);
    clear_all(p, 2);
}
END_TEST

START_TEST(test_scalar_and_unary)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    value p[2] = {fa(A), value_float(2.0)};
    double muls[6] = {2, -4, 7, -0.0, 8, -10};
    expect_op(IR_OP_TENSOR_MULS, p, 2, muls, 6);
    double subs[6] = {0, -3, 2.5, -1, 3, -6};
    int sub_ops[2] = {IR_OP_TENSOR_SUBS, IR_OP_TILE_SUBS};
    for (int k = 0; k < 2; k++) {
        value q[2] = {fa(A), value_float(1.0)};
        expect_op(sub_ops[k], q, 2, subs, 6);
    }
    double neg[6] = {-1, 2, -3.5, 0, -4, 5};
    value q[1] = {fa(A)};
    expect_op(IR_OP_TENSOR_NEG, q, 1, neg, 6);
    double x[4] = {0, -INFINITY, INFINITY, NAN}, ex[4] = {1, 0, INFINITY, NAN};
    q[0] = value_tensor(mk1(DTYPE_FP32, 4, x));
    expect_op(IR_OP_TENSOR_EXP, q, 1, ex, 4);
    double y[4] = {4, 0.25, -0.0, -1}, sq[4] = {2, 0.5, -0.0, NAN};
    q[0] = value_tensor(mk1(DTYPE_FP32, 4, y));
    expect_op(IR_OP_TENSOR_SQRT, q, 1, sq, 4);
    double z[4] = {2, -4, 0, -0.0}, rc[4] = {0.5, -0.25, INFINITY, -INFINITY};
    q[0] = value_tensor(mk1(DTYPE_FP32, 4, z));
    expect_op(IR_OP_TENSOR_RECIP, q, 1, rc, 4);
}
END_TEST

START_TEST(test_row_col_expand)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    static const struct { int op; double e[6]; } rows[] = {
        {IR_OP_TENSOR_ROW_EXPAND_ADD, {3, 0, 5.5, -1, 3, -6}},
        {IR_OP_TILE_ROW_EXPAND_ADD, {3, 0, 5.5, -1, 3, -6}},
        {IR_OP_TENSOR_ROW_EXPAND_SUB, {-1, -4, 1.5, 1, 5, -4}},
        {IR_OP_TENSOR_ROW_EXPAND_MUL, {2, -4, 7, 0, -4, 5}},
        {IR_OP_TILE_ROW_EXPAND_MUL, {2, -4, 7, 0, -4, 5}},
        {IR_OP_TENSOR_ROW_EXPAND_DIV, {0.5, -1, 1.75, 0, -4, 5}},
        {IR_OP_TILE_ROW_EXPAND_DIV, {0.5, -1, 1.75, 0, -4, 5}},
        {IR_OP_TENSOR_ROW_EXPAND_MAX, {2, 2, 3.5, -0.0, 4, -1}},
        {IR_OP_TILE_ROW_EXPAND_MAX, {2, 2, 3.5, -0.0, 4, -1}},
        {IR_OP_TENSOR_ROW_EXPAND_MIN, {1, -2, 2, -1, -1, -5}},
        {IR_OP_TILE_ROW_EXPAND_MIN, {1, -2, 2, -1, -1, -5}},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        value p[2] = {fa(A), value_tensor(mk2(DTYPE_FP32, 2, 1, R))};
        expect_op(rows[k].op, p, 2, rows[k].e, 6);
    }
    static const struct { int op; double e[6]; } cols[] = {
        {IR_OP_TENSOR_COL_EXPAND_MUL, {1, -4, -3.5, -0.0, 8, 5}},
        {IR_OP_TILE_COL_EXPAND_MUL, {1, -4, -3.5, -0.0, 8, 5}},
        {IR_OP_TENSOR_COL_EXPAND_SUB, {0, -4, 4.5, -1, 2, -4}},
        {IR_OP_TILE_COL_EXPAND_SUB, {0, -4, 4.5, -1, 2, -4}},
        {IR_OP_TILE_COL_EXPAND_DIV, {1, -1, -3.5, -0.0, 2, 5}},
        {IR_OP_TENSOR_COL_EXPAND_MAX, {1, 2, 3.5, 1, 4, -1}},
        {IR_OP_TENSOR_COL_EXPAND_MIN, {1, -2, -1, -0.0, 2, -5}},
        {IR_OP_TILE_COL_EXPAND_MIN, {1, -2, -1, -0.0, 2, -5}},
    };
    for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++) {
        value p[2] = {fa(A), value_tensor(mk2(DTYPE_FP32, 1, 3, CV))};
        expect_op(cols[k].op, p, 2, cols[k].e, 6);
    }
    /* expdif: exp(x - v), exact where x - v is 0 or infinite */
    double xr[6] = {2, -INFINITY, 2, -1, -1, INFINITY}, er[6] = {1, 0, 1, 1, 1, INFINITY};
    int rexp[2] = {IR_OP_TENSOR_ROW_EXPAND_EXPDIF, IR_OP_TILE_ROW_EXPAND_EXPDIF};
    for (int k = 0; k < 2; k++) {
        value p[2] = {fa(xr), value_tensor(mk2(DTYPE_FP32, 2, 1, R))};
        expect_op(rexp[k], p, 2, er, 6);
    }
    double xc[6] = {1, 2, -1, NAN, 2, -1}, ec[6] = {1, 1, 1, NAN, 1, 1};
    int cexp[2] = {IR_OP_TENSOR_COL_EXPAND_EXPDIF, IR_OP_TILE_COL_EXPAND_EXPDIF};
    for (int k = 0; k < 2; k++) {
        value p[2] = {fa(xc), value_tensor(mk2(DTYPE_FP32, 1, 3, CV))};
        expect_op(cexp[k], p, 2, ec, 6);
    }
    /* row_expand / col_expand: the second operand broadcast to the first's shape */
    double re[6] = {2, 2, 2, -1, -1, -1};
    value p[2] = {fa(A), value_tensor(mk2(DTYPE_FP32, 2, 1, R))};
    expect_op(IR_OP_TENSOR_ROW_EXPAND, p, 2, re, 6);
    double ce[6] = {1, 2, -1, 1, 2, -1};
    value q[2] = {fa(A), value_tensor(mk2(DTYPE_FP32, 1, 3, CV))};
    expect_op(IR_OP_TILE_COL_EXPAND, q, 2, ce, 6);
}
END_TEST

START_TEST(test_reductions)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    static const struct { int op; int n; double e[3]; } cases[] = {
        {IR_OP_TENSOR_ROW_MAX, 2, {3.5, 4}},
        {IR_OP_TENSOR_ROW_MIN, 2, {-2, -5}},
        {IR_OP_TILE_ROW_MIN, 2, {-2, -5}},
        {IR_OP_TENSOR_ROW_PROD, 2, {-7, 0}},
        {IR_OP_TENSOR_COL_MAX, 3, {1, 4, 3.5}},
        {IR_OP_TILE_COL_MAX, 3, {1, 4, 3.5}},
        {IR_OP_TILE_COL_MIN, 3, {-0.0, -2, -5}},
        {IR_OP_TENSOR_COL_PROD, 3, {-0.0, -8, -17.5}},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        value p[1] = {fa(A)};
        expect_op(cases[k].op, p, 1, cases[k].e, cases[k].n);
    }
}
END_TEST

/* int32 operands: i = [[12, -7, 5], [0, 255, -1]], j = [[10, 3, 1], [7, 15, 2]],
 * s = [[1, 2, 3], [0, 1, 4]] (shift counts). Two's complement by hand. */
static const double I[6] = {12, -7, 5, 0, 255, -1};
static const double J[6] = {10, 3, 1, 7, 15, 2};
static const double S[6] = {1, 2, 3, 0, 1, 4};

static value ia(const double *v) { return value_tensor(mk2(DTYPE_INT32, 2, 3, v)); }

START_TEST(test_bitwise)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    static const struct { int op; const double *b; double e[6]; } tt[] = {
        {IR_OP_TENSOR_AND, J, {8, 1, 1, 0, 15, 2}},
        {IR_OP_TENSOR_OR, J, {14, -5, 5, 7, 255, -1}},
        {IR_OP_TENSOR_XOR, J, {6, -6, 4, 7, 240, -3}},
        {IR_OP_TENSOR_SHL, S, {24, -28, 40, 0, 510, -16}},
        {IR_OP_TILE_SHL, S, {24, -28, 40, 0, 510, -16}},
        {IR_OP_TENSOR_SHR, S, {6, -2, 0, 0, 127, -1}},
        {IR_OP_TILE_SHR, S, {6, -2, 0, 0, 127, -1}},
    };
    for (size_t k = 0; k < sizeof tt / sizeof tt[0]; k++) {
        value p[2] = {ia(I), ia(tt[k].b)};
        expect_op(tt[k].op, p, 2, tt[k].e, 6);
    }
    /* tile.xor carries a scratch tile REF ignores */
    value p3[3] = {ia(I), ia(J), ia(J)};
    double ex[6] = {6, -6, 4, 7, 240, -3};
    expect_op(IR_OP_TILE_XOR, p3, 3, ex, 6);
    static const struct { int op; double e[6]; } ts[] = {
        {IR_OP_TENSOR_ANDS, {4, 0, 4, 0, 6, 6}},
        {IR_OP_TILE_ANDS, {4, 0, 4, 0, 6, 6}},
        {IR_OP_TENSOR_ORS, {14, -1, 7, 6, 255, -1}},
        {IR_OP_TILE_ORS, {14, -1, 7, 6, 255, -1}},
        {IR_OP_TENSOR_XORS, {10, -1, 3, 6, 249, -7}},
    };
    for (size_t k = 0; k < sizeof ts / sizeof ts[0]; k++) {
        value p[2] = {ia(I), value_int(6)};
        expect_op(ts[k].op, p, 2, ts[k].e, 6);
    }
    double shl2[6] = {48, -28, 20, 0, 1020, -4};
    value p[2] = {ia(I), value_int(2)};
    expect_op(IR_OP_TENSOR_SHLS, p, 2, shl2, 6);
    double shr2[6] = {3, -2, 1, 0, 63, -1};
    value q[2] = {ia(I), value_int(2)};
    expect_op(IR_OP_TILE_SHRS, q, 2, shr2, 6);
}
END_TEST

START_TEST(test_chains_and_accumulators)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    /* subc: (a - b) - c; addsc: (a + s) + c */
    value p[3] = {fa(A), fa(B), fa(B)};
    double subc[6] = {-3, -3, 5.5, -6, 12, -9};
    expect_op(IR_OP_TILE_SUBC, p, 3, subc, 6);
    value q[3] = {fa(A), value_float(1.0), fa(B)};
    double addsc[6] = {4, -0.5, 3.5, 4, 1, -2};
    expect_op(IR_OP_TILE_ADDSC, q, 3, addsc, 6);
    /* gemv_acc: acc + x @ w with x = [[1, 2]], w = [[1, -2, 3.5], [-0.0, 4, -5]] */
    double x[2] = {1, 2}, acc[3] = {10, 20, 30}, bias[3] = {-1, -1, -1};
    double w[6] = {1, -2, 3.5, -0.0, 4, -5};
    value g[3] = {value_tensor(mk2(DTYPE_FP32, 1, 3, acc)), value_tensor(mk2(DTYPE_FP32, 1, 2, x)),
                  value_tensor(mk2(DTYPE_FP32, 2, 3, w))};
    double eacc[3] = {11, 26, 23.5};
    expect_op(IR_OP_TILE_GEMV_ACC, g, 3, eacc, 3);
    value gb[3] = {value_tensor(mk2(DTYPE_FP32, 1, 2, x)), value_tensor(mk2(DTYPE_FP32, 2, 3, w)),
                   value_tensor(mk2(DTYPE_FP32, 1, 3, bias))};
    double ebias[3] = {0, 5, -7.5};
    expect_op(IR_OP_TILE_GEMV_BIAS, gb, 3, ebias, 3);
    int64_t s3a[3] = {1, 1, 3}, s3x[3] = {1, 1, 2}, s3w[3] = {1, 2, 3};
    value bm[3] = {value_tensor(mk(DTYPE_FP32, 3, s3a, acc)), value_tensor(mk(DTYPE_FP32, 3, s3x, x)),
                   value_tensor(mk(DTYPE_FP32, 3, s3w, w))};
    expect_op(IR_OP_TILE_BATCH_MATMUL_ACC, bm, 3, eacc, 3);
    /* fillpad of a tile with no smaller valid shape is the tile itself */
    value f[1] = {fa(A)};
    expect_op(IR_OP_TENSOR_FILLPAD, f, 1, A, 6);
}
END_TEST

/* sin / cos: REF has no handler before LowerCompositeOps expands them;
 * ptodb runs torch.sin / torch.cos by definition (class A: double, rounded
 * once to the result dtype; ints go to float32). Hand values: exact zeros,
 * signed zero kept by sin, NaN for +-Inf and NaN; sin(fp32(pi/2)) and
 * cos(fp32(pi)) round to exactly 1 and -1 in fp32 and bf16. */
START_TEST(test_sin_cos)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double x[6] = {0, -0.0, INFINITY, -INFINITY, NAN, (float)(M_PI / 2)};
    double es[6] = {0, -0.0, NAN, NAN, NAN, 1};
    int sin_ops[2] = {IR_OP_TENSOR_SIN, IR_OP_TILE_SIN};
    for (int k = 0; k < 2; k++) {
        value p[1] = {value_tensor(mk2(DTYPE_FP32, 2, 3, x))};
        value out;
        ck_assert_int_eq(run_op(&C, sin_ops[k], p, 1, &out), PTODB_OK);
        expect_vals(out.u.t, es, 6);
        ck_assert(signbit(tensor_get_flat(out.u.t, 1)));
        value_clear(&out);
        clear_all(p, 1);
    }
    double y[6] = {0, -0.0, INFINITY, -INFINITY, NAN, (float)M_PI};
    double ec[6] = {1, 1, NAN, NAN, NAN, -1};
    int cos_ops[2] = {IR_OP_TENSOR_COS, IR_OP_TILE_COS};
    for (int k = 0; k < 2; k++) {
        value p[1] = {value_tensor(mk2(DTYPE_FP32, 2, 3, y))};
        expect_op(cos_ops[k], p, 1, ec, 6);
    }
    /* bf16 stays bf16: bf16(pi) = 3.140625, cos = -0.99999873... -> -1 */
    double b[3] = {3.140625, 0, -0.0}, eb[3] = {-1, 1, 1};
    value q[1] = {value_tensor(mk1(DTYPE_BF16, 3, b))};
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_COS, q, 1, &out), PTODB_OK);
    ck_assert_int_eq(out.u.t->dtype, DTYPE_BF16);
    expect_vals(out.u.t, eb, 3);
    value_clear(&out);
    clear_all(q, 1);
    /* int32 -> float32, odd shape 3x5 */
    double z[15] = {0};
    value r[1] = {value_tensor(mk2(DTYPE_INT32, 3, 5, z))};
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_SIN, r, 1, &out), PTODB_OK);
    ck_assert_int_eq(out.u.t->dtype, DTYPE_FP32);
    expect_shape2(out.u.t, 3, 5);
    expect_vals(out.u.t, z, 15);
    value_clear(&out);
    clear_all(r, 1);
    /* fp16 under torch 1.13: defined (REF never runs it) */
    ctx_init(&C, EXEC_PROFILE_T13);
    double hx[3] = {0, -0.0, 65504}, eh[3] = {0, -0.0, NAN};
    value h[1] = {value_tensor(mk1(DTYPE_FP16, 3, hx))};
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_SIN, h, 1, &out), PTODB_OK);
    ck_assert_int_eq(out.u.t->dtype, DTYPE_FP16);
    eh[2] = (double)(float)sin(65504.0); /* |sin| <= 1: exact in fp16 only after rounding */
    ck_assert(fabs(tensor_get_flat(out.u.t, 2) - eh[2]) < 1e-3);
    ck_assert_double_eq(tensor_get_flat(out.u.t, 0), 0);
    ck_assert(signbit(tensor_get_flat(out.u.t, 1)));
    value_clear(&out);
    clear_all(h, 1);
}
END_TEST

/* The TaskId ops (docs/ops.md): task_invalid is the sentinel, held as
 * None (PyPTO's DSL spelling of it); task_dummy a valid id (int raw 0);
 * task_is_valid tells them apart, and rejects anything that is not a
 * Scalar[TASK_ID]. */
START_TEST(test_task_ids)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    value inv, dummy, out;
    ck_assert_int_eq(run_op(&C, IR_OP_SYSTEM_TASK_INVALID, NULL, 0, &inv), PTODB_OK);
    ck_assert_int_eq(inv.kind, VAL_NONE);
    ck_assert_int_eq(run_op(&C, IR_OP_SYSTEM_TASK_DUMMY, NULL, 0, &dummy), PTODB_OK);
    ck_assert_int_eq(dummy.kind, VAL_INT);
    ck_assert_int_eq(dummy.u.i, 0);
    ck_assert_int_eq(run_op(&C, IR_OP_SYSTEM_TASK_IS_VALID, &inv, 1, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_BOOL);
    ck_assert_int_eq(out.u.b, 0);
    ck_assert_int_eq(run_op(&C, IR_OP_SYSTEM_TASK_IS_VALID, &dummy, 1, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_BOOL);
    ck_assert_int_eq(out.u.b, 1);
    /* a task id of ring 1 (raw (1 << 32) | 7) is valid too */
    value ring1 = value_int(((int64_t)1 << 32) | 7);
    ck_assert_int_eq(run_op(&C, IR_OP_SYSTEM_TASK_IS_VALID, &ring1, 1, &out), PTODB_OK);
    ck_assert_int_eq(out.u.b, 1);
    /* not a task id: a float, a tensor */
    value f = value_float(1.5);
    ck_assert_int_ne(run_op(&C, IR_OP_SYSTEM_TASK_IS_VALID, &f, 1, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "Scalar[TASK_ID]"));
    value t[1] = {fa(A)};
    ck_assert_int_ne(run_op(&C, IR_OP_SYSTEM_TASK_IS_VALID, t, 1, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "system.task_is_valid"));
    clear_all(t, 1);
}
END_TEST

static Suite *catalogue_suite(void)
{
    Suite *s = suite_create("ops_catalogue");
    TCase *tc = tcase_create("catalogue");
    tcase_add_test(tc, test_catalogue_matches_code);
    tcase_add_test(tc, test_catalogue_printer);
    tcase_add_test(tc, test_binary_families);
    tcase_add_test(tc, test_scalar_and_unary);
    tcase_add_test(tc, test_row_col_expand);
    tcase_add_test(tc, test_reductions);
    tcase_add_test(tc, test_bitwise);
    tcase_add_test(tc, test_chains_and_accumulators);
    tcase_add_test(tc, test_sin_cos);
    tcase_add_test(tc, test_task_ids);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(catalogue_suite());
}

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
#include "exec/op_catalogue.h"
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


/* One argument or result of a case line: 'T dtype ndim shape... values
 * [V n valid...]' (a tensor, with REF's valid-shape attribute when V is
 * there), 'L n ints...' (a tuple), 'I n', 'F x', 'B 0/1' or 'N'. */
static value case_value(char **p)
{
    char *k = data_tok(p);
    ck_assert_ptr_nonnull(k);
    if (strcmp(k, "T") == 0) {
        dtype_id dt = case_dtype(data_tok(p));
        int nd = atoi(data_tok(p));
        int64_t shape[TENSOR_MAX_DIMS];
        for (int d = 0; d < nd; d++)
            shape[d] = atoll(data_tok(p));
        tensor *t = tensor_zeros(dt, nd, shape, NULL);
        ck_assert_ptr_nonnull(t);
        for (int64_t i = 0; i < tensor_numel(t); i++) {
            char *v = data_tok(p);
            ck_assert_ptr_nonnull(v);
            if (dtype_is_float(dt))
                dtype_store(dt, t->storage->data, (size_t)i, strtod(v, NULL));
            else
                dtype_store_i64(dt, t->storage->data, (size_t)i, strtoll(v, NULL, 10));
        }
        char *save = *p, *v = data_tok(p);
        if (v && strcmp(v, "V") == 0) {
            t->valid_ndim = atoi(data_tok(p));
            for (int d = 0; d < t->valid_ndim; d++)
                t->valid[d] = atoll(data_tok(p));
            t->full_ndim = t->ndim; /* REF sets both; full is the tile's shape */
            memcpy(t->full, t->shape, sizeof t->full);
        } else {
            *p = save;
        }
        return value_tensor(t);
    }
    if (strcmp(k, "L") == 0) {
        int n = atoi(data_tok(p));
        value v = value_tuple_new((uint32_t)n);
        for (int i = 0; i < n; i++)
            v.u.tuple->items[i] = value_int(strtoll(data_tok(p), NULL, 10));
        return v;
    }
    if (strcmp(k, "I") == 0)
        return value_int(strtoll(data_tok(p), NULL, 10));
    if (strcmp(k, "B") == 0)
        return value_bool(atoi(data_tok(p)));
    if (strcmp(k, "F") == 0)
        return value_float(strtod(data_tok(p), NULL));
    return value_none();
}

/* A keyword argument 'name=value': a dtype name for the dtype kwargs, a
 * PadValue name for pad_value, a TensorLayout name for layout (the result
 * layout tensor.view otherwise takes from the IR result type), else an int. */
static value case_kwarg(const char *name, const char *v)
{
    if (strcmp(name, "target_type") == 0 || strcmp(name, "dtype") == 0 ||
        strcmp(name, "out_dtype") == 0)
        return value_enum(data_ir_dtype(v));
    if (strcmp(name, "pad_value") == 0 || strcmp(name, "layout") == 0) {
        char printed[64];
        snprintf(printed, sizeof printed, "pl.%s.%s",
                 strcmp(name, "layout") == 0 ? "TensorLayout" : "PadValue", v);
        int e = ir_enum_lookup(printed, strlen(printed));
        ck_assert_msg(e >= 0, "unknown %s %s", name, v);
        return value_enum(e);
    }
    return value_int(strtoll(v, NULL, 10));
}

/* Element i of two tensors of one dtype agree bit for bit: integers
 * exactly (int64 included), floats by value and by the sign of zero; any
 * NaN matches any NaN (REF's NaN payload and sign are those of whatever
 * SIMD path torch took, which no definition pins down). */
static int same_element(const tensor *r, const tensor *x, int64_t i)
{
    if (!dtype_is_float(r->dtype))
        return dtype_load_i64(r->dtype, r->storage->data, (size_t)(r->offset + i)) ==
               dtype_load_i64(x->dtype, x->storage->data, (size_t)(x->offset + i));
    double u = dtype_load(r->dtype, r->storage->data, (size_t)(r->offset + i));
    double w = dtype_load(x->dtype, x->storage->data, (size_t)(x->offset + i));
    if (isnan(u) || isnan(w))
        return isnan(u) && isnan(w);
    return u == w && signbit(u) == signbit(w);
}

/* ---- edge classes ---------------------------------------------------------
 * A case belongs to every class its tensor arguments show: a NaN, +Inf,
 * -Inf or -0.0 element; a subnormal of the tensor's own float dtype; an
 * integer tensor holding its dtype's extreme (where add/sub/mul/neg/abs/
 * shl/sum/prod/cast wrap); an argument whose last two dims are an odd
 * shape (1x1, 1xN, Nx1, or RxC with R != C, all > 1); a tensor with REF's valid-shape
 * attribute smaller than its shape. */
enum {
    EC_NAN, EC_POSINF, EC_NEGINF, EC_NEGZERO, EC_DENORM_FP32, EC_DENORM_BF16, EC_DENORM_FP16,
    EC_INT_EXTREME, EC_ODD_1X1, EC_ODD_1XN, EC_ODD_NX1, EC_ODD_RXC, EC_VALID, EC_COUNT
};
static const char *const ec_names[EC_COUNT] = {
    "nan", "+inf", "-inf", "-0.0", "subnormal fp32", "subnormal bf16", "subnormal fp16",
    "int extremes", "shape 1x1", "shape 1xN", "shape Nx1", "shape RxC", "valid < shape"};

static unsigned case_classes(const value *pos, uint32_t npos)
{
    unsigned m = 0;
    for (uint32_t a = 0; a < npos; a++) {
        if (pos[a].kind != VAL_TENSOR)
            continue;
        const tensor *t = pos[a].u.t;
        if (t->ndim >= 2) {
            int64_t r = t->shape[t->ndim - 2], c = t->shape[t->ndim - 1];
            m |= r == 1 && c == 1   ? 1u << EC_ODD_1X1
                 : r == 1           ? 1u << EC_ODD_1XN
                 : c == 1           ? 1u << EC_ODD_NX1
                 : r != c           ? 1u << EC_ODD_RXC
                                    : 0u;
        }
        if (t->valid_ndim == t->ndim)
            for (int d = 0; d < t->ndim; d++)
                if (t->valid[d] < t->shape[d])
                    m |= 1u << EC_VALID;
        int64_t n = tensor_numel(t);
        if (dtype_is_float(t->dtype)) {
            double tiny = t->dtype == DTYPE_FP16 ? 0x1p-14 : 0x1p-126;
            int dn = t->dtype == DTYPE_FP16 ? EC_DENORM_FP16
                     : t->dtype == DTYPE_BF16 ? EC_DENORM_BF16
                     : t->dtype == DTYPE_FP32 ? EC_DENORM_FP32
                                              : -1;
            for (int64_t i = 0; i < n; i++) {
                double v = tensor_get_flat(t, i);
                if (isnan(v))
                    m |= 1u << EC_NAN;
                else if (isinf(v))
                    m |= 1u << (v > 0 ? EC_POSINF : EC_NEGINF);
                else if (v == 0 && signbit(v))
                    m |= 1u << EC_NEGZERO;
                else if (v != 0 && fabs(v) < tiny && dn >= 0)
                    m |= 1u << dn;
            }
        } else if (dtype_is_int(t->dtype)) {
            int64_t lo = 0, hi = 0;
            switch (t->dtype) {
            case DTYPE_INT8: lo = INT8_MIN, hi = INT8_MAX; break;
            case DTYPE_UINT8: lo = -1, hi = UINT8_MAX; break;
            case DTYPE_INT16: lo = INT16_MIN, hi = INT16_MAX; break;
            case DTYPE_INT32: lo = INT32_MIN, hi = INT32_MAX; break;
            case DTYPE_INT64: lo = INT64_MIN, hi = INT64_MAX; break;
            default: lo = 1, hi = -1; break;
            }
            tensor *c = tensor_clone(t);
            for (int64_t i = 0; i < n; i++) {
                int64_t v = dtype_load_i64(c->dtype, c->storage->data, (size_t)i);
                if (v == lo || v == hi)
                    m |= 1u << EC_INT_EXTREME;
            }
            tensor_unref(c);
        }
    }
    return m;
}

/* The classes that apply to an op, from what it accepts: any float tensor
 * argument brings the four specials, a dtype's own subnormals with that
 * dtype, an integer tensor its extremes, any tensor the odd shapes and a
 * valid shape. */
static unsigned case_applies(const value *pos, uint32_t npos)
{
    unsigned m = 0;
    for (uint32_t a = 0; a < npos; a++) {
        if (pos[a].kind != VAL_TENSOR)
            continue;
        dtype_id dt = pos[a].u.t->dtype;
        m |= 1u << EC_ODD_1X1 | 1u << EC_ODD_1XN | 1u << EC_ODD_NX1 | 1u << EC_ODD_RXC |
             1u << EC_VALID;
        if (dtype_is_float(dt))
            m |= 1u << EC_NAN | 1u << EC_POSINF | 1u << EC_NEGINF | 1u << EC_NEGZERO |
                 (dt == DTYPE_FP16   ? 1u << EC_DENORM_FP16
                  : dt == DTYPE_BF16 ? 1u << EC_DENORM_BF16
                                     : 1u << EC_DENORM_FP32);
        else if (dtype_is_int(dt))
            m |= 1u << EC_INT_EXTREME;
    }
    return m;
}

/* Ops of torch_codegen semantics with no tensor values to put edges in (or
 * with their own tests), each with the reason; printed by the test. */
static const struct {
    const char *op, *why;
} edge_exempt[] = {
    {"system.", "REF's no-ops: operands not evaluated, value None (check_machine.c)"},
    {"tile.tpush_to_aic", "cross-core queue, needs the machine (check_machine.c)"},
    {"tile.tpush_to_aiv", "cross-core queue, needs the machine (check_machine.c)"},
    {"tile.tpop_from_aic", "cross-core queue, needs the machine (check_machine.c)"},
    {"tile.tpop_from_aiv", "cross-core queue, needs the machine (check_machine.c)"},
    {"tile.get_block_idx", "the literal 0, no operands"},
    {"tile.get_subblock_idx", "the current lane, no operands"},
    {"tile.alloc", "a float32 placeholder of the memory space's size, no data"},
};

static const char *exempt_reason(const char *op)
{
    for (size_t k = 0; k < sizeof edge_exempt / sizeof edge_exempt[0]; k++) {
        size_t n = strlen(edge_exempt[k].op);
        if (edge_exempt[k].op[n - 1] == '.' ? strncmp(op, edge_exempt[k].op, n) == 0
                                            : strcmp(op, edge_exempt[k].op) == 0)
            return edge_exempt[k].why;
    }
    return NULL;
}

/* Per op: the classes its edge cases show, and those that apply. */
typedef struct {
    unsigned has, applies;
    int cases;
} op_edges;

/* Known differences between ptodb and Debian's x86 torch 1.13.1 (the
 * generator's torch), each printed as such on every case it covers and not
 * counted: the op's name contains op, its arguments text contains args. */
static const struct {
    const char *op, *args, *why;
} known_diff[] = {
    {"matmul", "T fp16", "fp16 matmul: Debian's x86 torch 1.13.1 refuses it (\"addmm_impl_cpu_\" "
                         "not implemented for 'Half'); the fixtures' REF ran it with an "
                         "fp16-matmul shim (mixed_kernel_updown_910b's timing.txt) and "
                         "ptodb follows the fixtures (docs/ops.md)"},
    {"gemv", "T fp16", "fp16 matmul: as for matmul"},
};

static const char *known_reason(const char *op, const char *args)
{
    for (size_t k = 0; k < sizeof known_diff / sizeof known_diff[0]; k++)
        if (strstr(op, known_diff[k].op) && strstr(args, known_diff[k].args))
            return known_diff[k].why;
    return NULL;
}

/* A case whose result differs from REF's: printed with its line, counted
 * (or printed as a known difference). */
#define MISMATCH(...)                                                       \
    do {                                                                    \
        const char *why_ = known_reason(part[0], args_text);                \
        printf("%s%s:%d %s: ", why_ ? "KNOWN DIFFERENCE " : "", name, n,    \
               part[0]);                                                    \
        printf(__VA_ARGS__);                                                \
        printf(why_ ? " (%s)\n" : "\n", why_);                               \
        if (!why_)                                                          \
            (*bad)++;                                                       \
    } while (0)

/* Replays tests/data/ops/<name>: every line is one op call with torch's
 * result or its refusal, checked bit for bit; each mismatch is printed and
 * counted in *bad. With seen, records each case's classes (and, for OK
 * cases, the classes that apply). */
static int replay_cases(const char *name, op_edges *seen, op_edges *accepts, int *per_class,
                        int *bad)
{
    const char *top = getenv("top_srcdir");
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/data/ops/%s", top ? top : "..", name);
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
        ck_assert_msg(op >= 0 && table[op], "%s:%d: op %s", name, n, part[0]);
        char *args_text = strdup(part[1]); /* the tokenizer cuts part[1] */
        value pos[8];
        uint32_t npos = 0;
        for (char *a = part[1]; *a;) {
            char *semi = strchr(a, ';');
            if (semi)
                *semi = '\0';
            char *q = a;
            ck_assert(npos < 8);
            pos[npos++] = case_value(&q);
            if (!semi)
                break;
            a = semi + 1;
        }
        uint8_t ids[4];
        value kv[4];
        uint32_t nkw = 0;
        char *kp = part[2], *t;
        while ((t = data_tok(&kp)) && nkw < 4) {
            char *eq = strchr(t, '=');
            ck_assert_ptr_nonnull(eq);
            *eq = '\0';
            ids[nkw] = (uint8_t)exec_kw_lookup(t);
            kv[nkw++] = case_kwarg(t, eq + 1);
        }
        unsigned cls = case_classes(pos, npos);
        if (seen) {
            seen[op].has |= cls;
            seen[op].cases++;
            for (int c = 0; c < EC_COUNT; c++)
                if (cls >> c & 1)
                    per_class[c]++;
        }
        char *e = part[3], *ek = data_tok(&e);
        if (strcmp(ek, "OK") == 0)
            accepts[op].applies |= case_applies(pos, npos);
        ctx_init(&C, EXEC_PROFILE_T13);
        op_args args = {op, pos, npos, ids, kv, nkw, NULL};
        value out = value_none();
        ptodb_status st = table[op](&C, &args, &out);
        if (strcmp(ek, "ERR") == 0) {
            if (st == PTODB_OK)
                MISMATCH("REF raises, ptodb gives a value");
        } else if (st != PTODB_OK) {
            MISMATCH("ptodb failed: %s", C.msg);
        } else {
            value ev = case_value(&e);
            if (ev.kind != VAL_TENSOR) {
                ck_assert_msg(out.kind == ev.kind, "%s:%d %s: value kind %d, REF %d", name, n,
                              part[0], out.kind, ev.kind);
                ck_assert_msg(ev.kind != VAL_INT || out.u.i == ev.u.i, "%s:%d %s: %lld, REF %lld",
                              name, n, part[0], (long long)out.u.i, (long long)ev.u.i);
            } else {
                ck_assert_msg(out.kind == VAL_TENSOR, "%s:%d %s: not a tensor", name, n, part[0]);
                tensor *r = tensor_clone(out.u.t), *x = ev.u.t;
                ck_assert_msg(r->dtype == x->dtype && r->ndim == x->ndim,
                              "%s:%d %s: dtype/rank %s/%d, REF %s/%d", name, n, part[0],
                              dtype_name(r->dtype), r->ndim, dtype_name(x->dtype), x->ndim);
                for (int d = 0; d < r->ndim; d++)
                    ck_assert_msg(r->shape[d] == x->shape[d], "%s:%d %s: shape", name, n,
                                  part[0]);
                for (int64_t i = 0; i < tensor_numel(r); i++)
                    if (!same_element(r, x, i)) {
                        MISMATCH("element %lld: ptodb %.17g, REF %.17g", (long long)i,
                                 tensor_get_flat(r, i), tensor_get_flat(x, i));
                        break;
                    }
                if (x->valid_ndim >= 0) {
                    const tensor *o = out.u.t;
                    ck_assert_msg(o->valid_ndim == x->valid_ndim,
                                  "%s:%d %s: valid shape rank %d, REF %d", name, n, part[0],
                                  o->valid_ndim, x->valid_ndim);
                    for (int d = 0; d < x->valid_ndim; d++)
                        ck_assert_msg(o->valid[d] == x->valid[d], "%s:%d %s: valid shape", name,
                                      n, part[0]);
                }
                tensor_unref(r);
            }
            value_clear(&ev);
        }
        value_clear(&out);
        clear_all(pos, (int)npos);
        clear_all(kv, (int)nkw);
        free(args_text);
    }
    free(line);
    fclose(f);
    return n;
}

START_TEST(test_differential_cases)
{
    static op_edges accepts[IR_OP_COUNT];
    int bad = 0;
    ck_assert_int_gt(replay_cases("torch113_cases.txt", NULL, accepts, NULL, &bad), 100);
    ck_assert_msg(bad == 0, "%d cases differ from REF (printed above)", bad);
}
END_TEST

/* tests/data/ops/torch113_edges.txt (scripts/gen_op_expected.py
 * --torch-edges): every case bit for bit, and every implemented op of
 * torch_codegen semantics has a case in each class that applies to it. */
START_TEST(test_edge_cases)
{
    static op_edges seen[IR_OP_COUNT], accepts[IR_OP_COUNT];
    int per_class[EC_COUNT] = {0};
    int bad = 0, other = 0;
    int n = replay_cases("torch113_edges.txt", seen, accepts, per_class, &bad);
    replay_cases("torch113_cases.txt", NULL, accepts, NULL, &other);
    op_fn table[IR_OP_COUNT];
    exec_ops_init(table);
    int ops = 0, missing = 0;
    for (int op = 0; op < IR_OP_COUNT; op++) {
        const ir_op_info *info = ir_op_info_get(op);
        if (info->source != IR_OPSRC_TORCH || !exec_op_implemented(table, op))
            continue;
        const char *why = exempt_reason(info->name);
        if (why) {
            printf("edge cases: %s exempt: %s\n", info->name, why);
            ck_assert_msg(seen[op].cases == 0, "%s is exempt but has edge cases", info->name);
            continue;
        }
        if (!seen[op].cases) {
            printf("edge cases: %s has none\n", info->name);
            missing++;
            continue;
        }
        ops++;
        unsigned lack = accepts[op].applies & ~seen[op].has;
        for (int c = 0; c < EC_COUNT; c++)
            if (lack >> c & 1) {
                printf("edge cases: %s lacks class %s\n", info->name, ec_names[c]);
                missing++;
            }
    }
    printf("edge cases: %d lines, %d ops\n", n, ops);
    for (int c = 0; c < EC_COUNT; c++)
        printf("edge cases: class %-15s %d cases\n", ec_names[c], per_class[c]);
    ck_assert_msg(bad == 0, "%d edge cases differ from REF (printed above)", bad);
    ck_assert_msg(missing == 0, "%d op/class pairs without an edge case (see above)", missing);
    ck_assert_int_gt(ops, 150);
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
    tcase_add_test(tc, test_edge_cases);
    suite_add_tcase(s, tc);
    return run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}

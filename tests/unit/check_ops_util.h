/* Helpers shared by the op unit tests (tests/unit/check_ops_*.c): the test
 * exec_ctx, tensor builders, op calls through the real op table. */
#ifndef PTODB_TESTS_CHECK_OPS_UTIL_H
#define PTODB_TESTS_CHECK_OPS_UTIL_H

#include <check.h>
#include <math.h>
#include <string.h>

#include "exec/op.h"
#include "tensor/tensor.h"

struct exec_ctx {
    exec_profile_id profile;
    int lane;
    char msg[512];
    int failures;
    int writes;
    tensor *last_write;
    const char *ref_note; /* exec_note_ref_cannot_run's message */
    /* 0: the reference's semantics (what the op tests' torch expectations
     * are), 1: the device's (semantics.h) */
    int device;
    int64_t block_idx, block_num;
    int differs_id;           /* exec_note_ref_differs's, -1 when none */
    const char *differs_what;
    const struct exec_comm *comm; /* exec_comm_of's (multi-rank op tests) */
    int blocked;                  /* exec_block_external calls */
};

static inline void ctx_init(exec_ctx *ctx, exec_profile_id p)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->profile = p;
    ctx->differs_id = -1;
}

/* A contiguous tensor with values stored by dtype_store (NULL vals: zeros). */
static inline tensor *mk(dtype_id dt, int nd, const int64_t *shape, const double *vals)
{
    tensor *t = tensor_zeros(dt, nd, shape, NULL);
    ck_assert_ptr_nonnull(t);
    if (vals)
        for (int64_t k = 0; k < tensor_numel(t); k++)
            dtype_store(dt, t->storage->data, (size_t)k, vals[k]);
    return t;
}

static inline tensor *mk2(dtype_id dt, int64_t r, int64_t c, const double *vals)
{
    int64_t s[2] = {r, c};
    return mk(dt, 2, s, vals);
}

static inline tensor *mk1(dtype_id dt, int64_t n, const double *vals)
{
    return mk(dt, 1, &n, vals);
}

/* A tuple value of ints. */
static inline value tup(int n, const int64_t *xs)
{
    value v = value_tuple_new((uint32_t)n);
    for (int k = 0; k < n; k++)
        v.u.tuple->items[k] = value_int(xs[k]);
    return v;
}

static inline value tup2(int64_t a, int64_t b)
{
    int64_t x[2] = {a, b};
    return tup(2, x);
}

/* Runs op with positional args and up to 4 keyword args. */
static inline ptodb_status run_op_kw(exec_ctx *ctx, int op, const value *pos, uint32_t npos,
                                     const exec_kw *kws, const value *kwv, uint32_t nkw,
                                     const exec_type *rt, value *out)
{
    op_fn table[IR_OP_COUNT];
    exec_ops_init(table);
    ck_assert_msg(table[op] != NULL, "op %d not registered", op);
    uint8_t ids[4];
    for (uint32_t k = 0; k < nkw && k < 4; k++)
        ids[k] = (uint8_t)kws[k];
    op_args a = {op, pos, npos, ids, kwv, nkw, rt};
    *out = value_none();
    return table[op](ctx, &a, out);
}

static inline ptodb_status run_op(exec_ctx *ctx, int op, const value *pos, uint32_t npos,
                                  value *out)
{
    return run_op_kw(ctx, op, pos, npos, NULL, NULL, 0, NULL, out);
}

static inline ptodb_status run_op1kw(exec_ctx *ctx, int op, const value *pos, uint32_t npos,
                                     exec_kw kw, value kwv, value *out)
{
    return run_op_kw(ctx, op, pos, npos, &kw, &kwv, 1, NULL, out);
}

static inline void clear_all(value *v, int n)
{
    for (int k = 0; k < n; k++)
        value_clear(&v[k]);
}

/* Element k of t equals e bit for bit: the same value and the same sign of
 * zero (-0.0 is not 0.0); NaN matches any NaN. */
static inline void expect_vals(const tensor *t, const double *e, int64_t n)
{
    ck_assert_int_eq(tensor_numel(t), n);
    for (int64_t k = 0; k < n; k++) {
        double v = tensor_get_flat(t, k);
        if (isnan(e[k]))
            ck_assert_msg(isnan(v), "element %lld: expected NaN, got %.17g", (long long)k, v);
        else
            ck_assert_msg(v == e[k] && signbit(v) == signbit(e[k]),
                          "element %lld: expected %.17g, got %.17g", (long long)k, e[k], v);
    }
}

static inline void expect_shape(const tensor *t, int nd, const int64_t *shape)
{
    ck_assert_int_eq(t->ndim, nd);
    for (int d = 0; d < nd; d++)
        ck_assert_int_eq(t->shape[d], shape[d]);
}

static inline void expect_shape2(const tensor *t, int64_t r, int64_t c)
{
    int64_t s[2] = {r, c};
    expect_shape(t, 2, s);
}

static inline int run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}


/* The committed expectation files (tests/data/ops, tests/data/isa) are
 * space-separated tokens: the next one of *p, NUL-terminated in place, or
 * NULL at the end of the line. */
static inline char *data_tok(char **p)
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

/* The IR dtype of a data file's dtype name. */
static inline int32_t data_ir_dtype(const char *s)
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

#endif

/* Unit tests for src/exec/ops_random.c and src/exec/ops_gather_forms.c.
 *
 * Expected values:
 *  - random (IR_OP_TILE_RANDOM, IR_OP_TENSOR_RANDOM): from a line-by-line
 *    Python transcription of pto-isa's include/pto/cpu/TRandom.hpp
 *    (IncrementCounter, RunRounds, the row/loop/lane/repeat walk; pto-isa
 *    3186c381), a second implementation written independently of the C one;
 *  - the others by hand from PyPTO's op docs and the simulator, worked in
 *    the comments: block copies (IR_OP_TILE_GATHERB), compare-form index
 *    lists (IR_OP_TILE_GATHER_COMPARE, IR_OP_TENSOR_GATHER_COMPARE), mask
 *    scatters (IR_OP_TILE_SCATTER_MASK, IR_OP_TENSOR_SCATTER_MASK) and the
 *    paged row walk (IR_OP_TENSOR_PAGED_GATHER).
 * Edge cases: NaN, -0.0, Inf, odd shapes, valid shapes smaller than the tile,
 * counter carries and int32 wrap, out-of-range addresses. */
#include "check_ops_util.h"

static exec_ctx C;

static ptodb_status run_kw(int op, value *pos, uint32_t n, const exec_kw *kws, const value *kwv,
                           uint32_t nkw, value *out)
{
    op_fn table[IR_OP_COUNT];
    exec_ops_init(table);
    ck_assert_msg(table[op] != NULL, "op %d not registered", op);
    uint8_t ids[8];
    for (uint32_t k = 0; k < nkw && k < 8; k++)
        ids[k] = (uint8_t)kws[k];
    op_args a = {op, pos, n, ids, kwv, nkw, NULL};
    *out = value_none();
    return table[op](&C, &a, out);
}

static tensor *run_ok(int op, value *pos, uint32_t n, const exec_kw *kws, const value *kwv,
                      uint32_t nkw)
{
    value out;
    ptodb_status st = run_kw(op, pos, n, kws, kwv, nkw, &out);
    ck_assert_msg(st == PTODB_OK, "%s failed: %s", ir_op_info_get(op)->name, C.msg);
    ck_assert_int_eq(out.kind, VAL_TENSOR);
    clear_all(pos, (int)n);
    return out.u.t;
}

static void expect_fail(int op, value *pos, uint32_t n, const exec_kw *kws, const value *kwv,
                        uint32_t nkw, const char *msg_part)
{
    value out;
    ck_assert_int_ne(run_kw(op, pos, n, kws, kwv, nkw, &out), PTODB_OK);
    ck_assert_msg(strstr(C.msg, msg_part) != NULL, "message '%s' lacks '%s'", C.msg, msg_part);
    clear_all(pos, (int)n);
}

static void set_valid(tensor *t, int64_t r, int64_t c)
{
    t->valid_ndim = 2;
    t->valid[0] = r;
    t->valid[1] = c;
}

/* ---- random ------------------------------------------------------------- */

static void random_args(value *p, const int64_t seeds[6], value shape)
{
    for (int k = 0; k < 6; k++)
        p[k] = value_int(seeds[k]);
    p[6] = shape;
}

START_TEST(test_random)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    /* UINT32 [2, 300] valid [2, 260]: two 256-column loops per row, the
     * second partly outside the valid columns; cols/4 = 75 per loop. */
    static const int64_t seeds[6] = {0x1234, 0x5678, 1, 2, 3, 4};
    value p[8];
    random_args(p, seeds, tup2(2, 300));
    p[7] = tup2(2, 260);
    tensor *t = run_ok(IR_OP_TILE_RANDOM, p, 8, NULL, NULL, 0);
    ck_assert_int_eq(t->dtype, DTYPE_INT64); /* UINT32 as REF holds it */
    expect_shape2(t, 2, 300);
    static const struct { int64_t r, c; double v; } spots[] = {
        {0, 0, 3806764879.0}, {0, 1, 2719832301.0}, {0, 64, 3962498448.0},
        {0, 255, 3800201782.0}, {0, 256, 2966244610.0}, {0, 259, 3725736981.0},
        {0, 260, 0}, {0, 299, 0}, {1, 0, 560873886.0}, {1, 259, 3586392992.0},
    };
    for (size_t k = 0; k < sizeof spots / sizeof spots[0]; k++)
        ck_assert_double_eq(tensor_get_flat(t, spots[k].r * 300 + spots[k].c), spots[k].v);
    /* deterministic: the same seeds give the same tile */
    random_args(p, seeds, tup2(2, 300));
    p[7] = tup2(2, 260);
    tensor *u = run_ok(IR_OP_TILE_RANDOM, p, 8, NULL, NULL, 0);
    for (int64_t k = 0; k < 600; k++)
        ck_assert_double_eq(tensor_get_flat(u, k), tensor_get_flat(t, k));
    tensor_unref(u);
    tensor_unref(t);

    /* INT32, rounds=7, key0 = counter0 = counter1 = -1 (0xffffffff): lane
     * additions carry into the next counter words; results wrap to int32 */
    static const int64_t s2[6] = {-1, 0x0ABC, -1, -1, 0, 0};
    random_args(p, s2, tup2(1, 8));
    exec_kw kws[2] = {EXEC_KW_DTYPE, EXEC_KW_ROUNDS};
    value kv[2] = {value_enum(IR_EV_DTYPE_INT32), value_int(7)};
    t = run_ok(IR_OP_TENSOR_RANDOM, p, 7, kws, kv, 2);
    ck_assert_int_eq(t->dtype, DTYPE_INT32);
    static const double e2[8] = {-729784587, -895053980, -1957637930, 674991745,
                                 -1046809023, -1535863623, 570004679, 282419246};
    expect_vals(t, e2, 8);
    tensor_unref(t);

    /* refused: rounds other than 7/10, float dtypes, 3-D shapes, valid > shape */
    random_args(p, s2, tup2(1, 8));
    value bad_r = value_int(5);
    expect_fail(IR_OP_TILE_RANDOM, p, 7, &kws[1], &bad_r, 1, "rounds must be 7 or 10");
    random_args(p, s2, tup2(1, 8));
    value bad_d = value_enum(IR_EV_DTYPE_FP32);
    expect_fail(IR_OP_TILE_RANDOM, p, 7, kws, &bad_d, 1, "INT32 or UINT32");
    int64_t s3[3] = {1, 2, 3};
    random_args(p, s2, tup(3, s3));
    expect_fail(IR_OP_TILE_RANDOM, p, 7, NULL, NULL, 0, "1-D or 2-D");
    random_args(p, s2, tup2(1, 8));
    p[7] = tup2(2, 8);
    expect_fail(IR_OP_TILE_RANDOM, p, 8, NULL, NULL, 0, "outside the shape");
}
END_TEST

/* ---- gatherb ------------------------------------------------------------ */

/* src fp32 [2, 16] = 0..31 except src[0, 9] = NaN, src[0, 10] = -0.0,
 * src[0, 11] = -inf, src[0, 12] = 2^-149 (a denormal): 128 bytes, four
 * 32-byte blocks of 8 floats. */
static tensor *gatherb_src(void)
{
    double v[32];
    for (int k = 0; k < 32; k++)
        v[k] = k;
    v[9] = NAN;
    v[10] = -0.0;
    v[11] = -INFINITY;
    v[12] = 1.401298464324817e-45;
    return mk2(DTYPE_FP32, 2, 16, v);
}

START_TEST(test_gatherb)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    /* offsets [[32, 96, 100]]: blocks at floats 8..15 and 24..31; 100 + 32 >
     * 128 runs past the source and stays 0 */
    double o[3] = {32, 96, 100};
    value p[2] = {value_tensor(gatherb_src()), value_tensor(mk2(DTYPE_INT32, 1, 3, o))};
    tensor *t = run_ok(IR_OP_TILE_GATHERB, p, 2, NULL, NULL, 0);
    expect_shape2(t, 1, 24);
    double e[24] = {8, NAN, -0.0, -INFINITY, 1.401298464324817e-45, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31,
                    0, 0, 0, 0, 0, 0, 0, 0};
    expect_vals(t, e, 24);
    ck_assert(signbit(tensor_get_flat(t, 2)));
    tensor_unref(t);

    /* output_dtype=INT32 reinterprets the bytes; an unaligned byte offset
     * 4 (as the simulator copies it) starts at float 1 = 0x3f800000; the
     * offset tile's valid shape [2, 1] of [3, 2] limits the walk */
    double o2[6] = {4, 0, 64, 0, 0, 0};
    tensor *off = mk2(DTYPE_INT32, 3, 2, o2);
    set_valid(off, 2, 1);
    value p2[2] = {value_tensor(gatherb_src()), value_tensor(off)};
    exec_kw kw = EXEC_KW_OUTPUT_DTYPE;
    value kv = value_enum(IR_EV_DTYPE_INT32);
    t = run_ok(IR_OP_TILE_GATHERB, p2, 2, &kw, &kv, 1);
    expect_shape2(t, 3, 16);
    ck_assert_int_eq(t->dtype, DTYPE_INT32);
    ck_assert_double_eq(tensor_get_flat(t, 0), 1065353216); /* 1.0f */
    ck_assert_double_eq(tensor_get_flat(t, 1), 1073741824); /* 2.0f */
    ck_assert_double_eq(tensor_get_flat(t, 8), 0);          /* column 1 outside valid */
    ck_assert_double_eq(tensor_get_flat(t, 16), 1098907648); /* 16.0f */
    ck_assert_double_eq(tensor_get_flat(t, 32), 0);         /* row 2 outside valid */
    tensor_unref(t);

    /* fp16 output: 16 elements per block */
    value p3[2] = {value_tensor(gatherb_src()), value_tensor(mk2(DTYPE_INT32, 1, 1, o))};
    kv = value_enum(IR_EV_DTYPE_FP16);
    t = run_ok(IR_OP_TILE_GATHERB, p3, 2, &kw, &kv, 1);
    expect_shape2(t, 1, 16);
    tensor_unref(t);

    /* UINT32 output: REF holds it as int64, whose bytes are not the device's */
    value p4[2] = {value_tensor(gatherb_src()), value_tensor(mk2(DTYPE_INT32, 1, 1, o))};
    kv = value_enum(IR_EV_DTYPE_UINT32);
    expect_fail(IR_OP_TILE_GATHERB, p4, 2, &kw, &kv, 1, "another width");
}
END_TEST

/* ---- gather_compare ----------------------------------------------------- */

/* x = [[0, -0.0, nan, 1, 0], [inf, 2, 0, 0, 0], [5, 5, 5, 5, 5]] */
static const double X[15] = {0, -0.0, NAN, 1, 0, INFINITY, 2, 0, 0, 0, 5, 5, 5, 5, 5};

START_TEST(test_gather_compare)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    exec_kw kws[3] = {EXEC_KW_CMP_MODE, EXEC_KW_OUT_COLS, EXEC_KW_OFFSET};
    /* eq 0.0 over the valid rows [2, 5] (row 2 outside): -0.0 == 0 matches,
     * NaN does not. Row 0: j = 0, 1, 4 (+10); row 1: j = 2, 3, 4 (+10). */
    tensor *x = mk2(DTYPE_FP32, 3, 5, X);
    set_valid(x, 2, 5);
    value p[3] = {value_tensor(x), value_float(0.0), value_tensor(mk2(DTYPE_UINT8, 1, 8, NULL))};
    value kv[3] = {value_int(0), value_int(3), value_int(10)};
    value out;
    ck_assert_int_eq(run_kw(IR_OP_TILE_GATHER_COMPARE, p, 3, kws, kv, 3, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_TUPLE);
    tensor *d = out.u.tuple->items[0].u.t, *c = out.u.tuple->items[1].u.t;
    expect_shape2(d, 3, 3);
    expect_shape2(c, 1, 3);
    ck_assert_int_eq(d->dtype, DTYPE_INT32);
    double ed[9] = {10, 11, 14, 12, 13, 14, 0, 0, 0}, ec[3] = {3, 3, 0};
    expect_vals(d, ed, 9);
    expect_vals(c, ec, 3);
    value_clear(&out);
    clear_all(p, 3);

    /* tensor form, "ne" by name: NaN != 0 matches; fewer matches than
     * out_cols leave zeros (the device leaves them undefined). Row 0:
     * j = 2 (nan), 3; row 1: j = 0 (inf), 1; row 2: all five, but out_cols
     * is 5 so that still fits. */
    value pt[2] = {value_tensor(mk2(DTYPE_FP32, 3, 5, X)), value_int(0)};
    value s = {0};
    s.kind = VAL_STR;
    s.u.s = "ne";
    value kv2[2] = {s, value_int(5)};
    ck_assert_int_eq(run_kw(IR_OP_TENSOR_GATHER_COMPARE, pt, 2, kws, kv2, 2, &out), PTODB_OK);
    double ed2[15] = {2, 3, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 2, 3, 4}, ec2[3] = {2, 2, 5};
    expect_vals(out.u.tuple->items[0].u.t, ed2, 15);
    expect_vals(out.u.tuple->items[1].u.t, ec2, 3);
    value_clear(&out);
    clear_all(pt, 2);

    /* int32 "gt" 4 with count_dtype=UINT32 (held as int64) */
    double xi[6] = {5, 4, 2147483647, -5, 9, 4};
    value pi[2] = {value_tensor(mk2(DTYPE_INT32, 2, 3, xi)), value_int(4)};
    exec_kw kws3[3] = {EXEC_KW_CMP_MODE, EXEC_KW_OUT_COLS, EXEC_KW_COUNT_DTYPE};
    value kv3[3] = {value_int(4), value_int(2), value_enum(IR_EV_DTYPE_UINT32)};
    ck_assert_int_eq(run_kw(IR_OP_TENSOR_GATHER_COMPARE, pi, 2, kws3, kv3, 3, &out), PTODB_OK);
    double ed3[4] = {0, 2, 1, 0}, ec3[2] = {2, 1};
    expect_vals(out.u.tuple->items[0].u.t, ed3, 4);
    expect_vals(out.u.tuple->items[1].u.t, ec3, 2);
    ck_assert_int_eq(out.u.tuple->items[1].u.t->dtype, DTYPE_INT64);
    value_clear(&out);
    clear_all(pi, 2);

    /* more matches than out_cols: the ISA would overrun the row */
    value pe[2] = {value_tensor(mk2(DTYPE_FP32, 3, 5, X)), value_int(5)};
    value kv4[2] = {value_int(0), value_int(4)};
    expect_fail(IR_OP_TENSOR_GATHER_COMPARE, pe, 2, kws, kv4, 2, "more than out_cols=4");
    value pm[2] = {value_tensor(mk2(DTYPE_FP32, 3, 5, X)), value_int(5)};
    value kv5[2] = {value_int(6), value_int(4)};
    expect_fail(IR_OP_TENSOR_GATHER_COMPARE, pm, 2, kws, kv5, 2, "cmp_mode");
}
END_TEST

/* ---- scatter_mask ------------------------------------------------------- */

START_TEST(test_scatter_mask)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    exec_kw kw = EXEC_KW_MASK_PATTERN;
    /* P0101 (1): src [[-0.0, nan], [inf, 2^-149]] (the smallest fp32
     * denormal) into the even columns of dst = 10..17 as [2, 4]; odd
     * columns keep dst's values */
    const double denorm = 1.401298464324817e-45;
    double dv[8] = {10, 11, 12, 13, 14, 15, 16, 17}, sv[4] = {-0.0, NAN, INFINITY, denorm};
    tensor *dst = mk2(DTYPE_FP32, 2, 4, dv);
    value p[2] = {value_tensor(tensor_ref(dst)), value_tensor(mk2(DTYPE_FP32, 2, 2, sv))};
    value kv = value_int(1);
    tensor *t = run_ok(IR_OP_TILE_SCATTER_MASK, p, 2, &kw, &kv, 1);
    ck_assert_ptr_eq(t, dst); /* DPS: dst rewritten and returned */
    double e[8] = {-0.0, 11, NAN, 13, INFINITY, 15, denorm, 17};
    expect_vals(dst, e, 8);
    ck_assert(signbit(tensor_get_flat(dst, 0)));
    ck_assert_int_eq(C.writes, 1);
    tensor_unref(t);
    tensor_unref(dst);

    /* tensor form (input = the compact rows, dst): P1000 (6) marks
     * column 3 of each group of 4; int32 [1, 8] */
    double dv2[8] = {0, 0, 0, 0, 0, 0, 0, 0}, sv2[2] = {-7, 2147483647};
    dst = mk2(DTYPE_INT32, 1, 8, dv2);
    value p2[2] = {value_tensor(mk2(DTYPE_INT32, 1, 2, sv2)), value_tensor(tensor_ref(dst))};
    kv = value_int(6);
    t = run_ok(IR_OP_TENSOR_SCATTER_MASK, p2, 2, &kw, &kv, 1);
    double e2[8] = {0, 0, 0, -7, 0, 0, 0, 2147483647};
    expect_vals(dst, e2, 8);
    tensor_unref(t);
    tensor_unref(dst);

    /* refused: the columns do not match the stride, dtypes differ */
    value p3[2] = {value_tensor(mk2(DTYPE_FP32, 1, 6, NULL)), value_tensor(mk2(DTYPE_FP32, 1, 2, NULL))};
    kv = value_int(3);
    expect_fail(IR_OP_TILE_SCATTER_MASK, p3, 2, &kw, &kv, 1, "4 times the columns");
    value p4[2] = {value_tensor(mk2(DTYPE_FP32, 1, 4, NULL)), value_tensor(mk2(DTYPE_FP16, 1, 2, NULL))};
    kv = value_int(2);
    expect_fail(IR_OP_TILE_SCATTER_MASK, p4, 2, &kw, &kv, 1, "src is Half");
}
END_TEST

/* ---- paged_gather ------------------------------------------------------- */

START_TEST(test_paged_gather)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    /* pool [8, 4] = 0..31 (row r = 4r..4r+3, pool[6, 2] = -0.0), block_size
     * 2, block_table {3, 0, 2, 1}; indices {0, 3, 5}: 0 -> block 0 -> 3*2+0
     * = row 6; 3 -> block 1 -> 0*2+1 = row 1; 5 -> block 2 -> 2*2+1 = row 5.
     * size 2 from col_off 1, max_indices 4: row 3 is not loaded. */
    double pool[32];
    for (int k = 0; k < 32; k++)
        pool[k] = k;
    pool[26] = -0.0;
    double bt[4] = {3, 0, 2, 1}, ind[3] = {0, 3, 5};
    exec_kw kws[5] = {EXEC_KW_BLOCK_SIZE, EXEC_KW_SIZE, EXEC_KW_MAX_INDICES, EXEC_KW_COL_OFF,
                      EXEC_KW_IS_TRANS};
    value kv[5] = {value_int(2), value_int(2), value_int(4), value_int(1), value_bool(0)};
    value p[3] = {value_tensor(mk2(DTYPE_FP16, 8, 4, pool)), value_tensor(mk2(DTYPE_INT32, 1, 3, ind)),
                  value_tensor(mk1(DTYPE_INT32, 4, bt))};
    tensor *t = run_ok(IR_OP_TENSOR_PAGED_GATHER, p, 3, kws, kv, 5);
    expect_shape2(t, 4, 2);
    ck_assert_int_eq(t->dtype, DTYPE_FP16);
    double e[8] = {25, -0.0, 5, 6, 21, 22, 0, 0};
    expect_vals(t, e, 8);
    ck_assert(signbit(tensor_get_flat(t, 1)));
    tensor_unref(t);

    /* is_trans: [size, max_indices] */
    value p2[3] = {value_tensor(mk2(DTYPE_FP16, 8, 4, pool)), value_tensor(mk1(DTYPE_INT32, 3, ind)),
                   value_tensor(mk1(DTYPE_INT32, 4, bt))};
    kv[4] = value_bool(1);
    t = run_ok(IR_OP_TENSOR_PAGED_GATHER, p2, 3, kws, kv, 5);
    expect_shape2(t, 2, 4);
    double et[8] = {25, 5, 21, 0, -0.0, 6, 22, 0};
    expect_vals(t, et, 8);
    tensor_unref(t);

    /* index 8 -> block 4, past the table; more indices than max_indices;
     * columns past the pool */
    double bad[1] = {8};
    value p3[3] = {value_tensor(mk2(DTYPE_FP16, 8, 4, pool)), value_tensor(mk1(DTYPE_INT32, 1, bad)),
                   value_tensor(mk1(DTYPE_INT32, 4, bt))};
    expect_fail(IR_OP_TENSOR_PAGED_GATHER, p3, 3, kws, kv, 5, "outside the pool");
    value p4[3] = {value_tensor(mk2(DTYPE_FP16, 8, 4, pool)), value_tensor(mk1(DTYPE_INT32, 3, ind)),
                   value_tensor(mk1(DTYPE_INT32, 4, bt))};
    kv[2] = value_int(2);
    expect_fail(IR_OP_TENSOR_PAGED_GATHER, p4, 3, kws, kv, 5, "exceed max_indices");
    value p5[3] = {value_tensor(mk2(DTYPE_FP16, 8, 4, pool)), value_tensor(mk1(DTYPE_INT32, 3, ind)),
                   value_tensor(mk1(DTYPE_INT32, 4, bt))};
    kv[2] = value_int(4);
    kv[3] = value_int(3);
    expect_fail(IR_OP_TENSOR_PAGED_GATHER, p5, 3, kws, kv, 5, "outside the pool's 4");
}
END_TEST

static Suite *gather_random_suite(void)
{
    Suite *s = suite_create("ops_gather_random");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_random);
    tcase_add_test(tc, test_gatherb);
    tcase_add_test(tc, test_gather_compare);
    tcase_add_test(tc, test_scatter_mask);
    tcase_add_test(tc, test_paged_gather);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(gather_random_suite());
}

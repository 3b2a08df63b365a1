/* The ops' device semantics (exec/semantics.h), each against a hand
 * computation from its source, and the reference's behaviour kept under
 * --semantics=ref (the stub's ctx.device = 0). */
#include <check.h>
#include <math.h>
#include <string.h>

#include "check_ops_util.h"
#include "exec/semantics.h"

/* A declared UINT8 mask type [rows, cols] with valid [vr, vc]. */
static exec_type mask_type(int64_t rows, int64_t cols, int64_t vr, int64_t vc)
{
    exec_type t;
    memset(&t, 0, sizeof t);
    t.kind = EXEC_TYPE_TILE;
    t.dtype = DTYPE_UINT8;
    t.ir_dtype = -1;
    t.ndim = 2;
    t.dims[0] = rows;
    t.dims[1] = cols;
    t.mem_valid_ndim = 2;
    t.mem_valid[0] = vr;
    t.mem_valid[1] = vc;
    t.mem_space = -1;
    t.layout = -1;
    return t;
}

/* pto-isa include/pto/cpu/TCmp.h:41-66: byte w of row r holds columns
 * 8w..8w+7, column 8w+k in bit k. Row 0 of a 2x16 source is
 * 1 0 0 1 1 1 1 1 | 0 0 0 0 0 0 0 1 (> 0 after the -1 / 1 pattern below):
 * byte 0 = 1 + 8 + 16 + 32 + 64 + 128 = 249, byte 1 = 128. Row 1 is the
 * negation: byte 0 = 255 - 249 = 6, byte 1 = 127. Bytes 2..31 stay 0. */
START_TEST(test_cmps_packs_bits)
{
    exec_ctx C;
    ctx_init(&C, EXEC_PROFILE_T2);
    C.device = 1;
    double v[32];
    const int row0[16] = {1, -1, -1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1, 1};
    for (int j = 0; j < 16; j++) {
        v[j] = row0[j];
        v[16 + j] = -row0[j];
    }
    value p[2] = {value_tensor(mk2(DTYPE_FP32, 2, 16, v)), value_float(0.0)};
    exec_type mt = mask_type(2, 32, 2, 2);
    exec_kw kw = EXEC_KW_CMP_TYPE;
    value kv = value_int(4); /* GT */
    value out;
    ck_assert_int_eq(run_op_kw(&C, IR_OP_TILE_CMPS, p, 2, &kw, &kv, 1, &mt, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_TENSOR);
    ck_assert_int_eq(out.u.t->dtype, DTYPE_UINT8);
    expect_shape2(out.u.t, 2, 32);
    double e[64] = {0};
    e[0] = 249, e[1] = 128, e[32] = 6, e[33] = 127;
    expect_vals(out.u.t, e, 64);
    ck_assert_int_eq(out.u.t->valid_ndim, 2);
    ck_assert_int_eq(out.u.t->valid[1], 2);
    ck_assert_int_eq(C.differs_id, EXEC_SEMDIFF_CMP_MASK);
    value_clear(&out);
    /* the reference: a bool tensor of the source's shape, no note */
    C.device = 0;
    C.differs_id = -1;
    ck_assert_int_eq(run_op_kw(&C, IR_OP_TILE_CMPS, p, 2, &kw, &kv, 1, &mt, &out), PTODB_OK);
    ck_assert_int_eq(out.u.t->dtype, DTYPE_BOOL);
    expect_shape2(out.u.t, 2, 16);
    ck_assert_int_eq(C.differs_id, -1);
    value_clear(&out);
    clear_all(p, 2);
}
END_TEST

/* A source with 12 valid columns of 16: byte 1 holds columns 8..11 only
 * (TCmp.h:56: the bit loop stops at srcValidCol), so with every element
 * > 0 byte 0 = 255 and byte 1 = 15. */
START_TEST(test_cmps_valid_columns)
{
    exec_ctx C;
    ctx_init(&C, EXEC_PROFILE_T2);
    C.device = 1;
    double v[16];
    for (int j = 0; j < 16; j++)
        v[j] = 1;
    tensor *src = mk2(DTYPE_FP32, 1, 16, v);
    src->valid_ndim = 2;
    src->valid[0] = 1;
    src->valid[1] = 12;
    value p[2] = {value_tensor(src), value_float(0.0)};
    exec_type mt = mask_type(1, 32, 1, 2);
    exec_kw kw = EXEC_KW_CMP_TYPE;
    value kv = value_int(4);
    value out;
    ck_assert_int_eq(run_op_kw(&C, IR_OP_TILE_CMPS, p, 2, &kw, &kv, 1, &mt, &out), PTODB_OK);
    ck_assert_int_eq(tensor_get_flat(out.u.t, 0), 255);
    ck_assert_int_eq(tensor_get_flat(out.u.t, 1), 15);
    ck_assert_int_eq(tensor_get_flat(out.u.t, 2), 0);
    value_clear(&out);
    clear_all(p, 2);
}
END_TEST

/* pto-isa include/pto/cpu/TSel.hpp:21-45: the bits are read along each
 * mask row's valid bytes, bit 0 first. lhs element k is 10 + k, rhs -1.
 * Mask row 0 = {0x05, 0x80}: columns 0, 2 and 15 take lhs (10, 12, 25);
 * row 1 = {0xff, 0x00}: its columns 0..7 take lhs (26 .. 33). */
START_TEST(test_sel_reads_bits)
{
    exec_ctx C;
    ctx_init(&C, EXEC_PROFILE_T2);
    C.device = 1;
    double mv[64] = {0};
    mv[0] = 0x05, mv[1] = 0x80, mv[32] = 0xff, mv[33] = 0x00;
    tensor *mask = mk2(DTYPE_UINT8, 2, 32, mv);
    mask->valid_ndim = 2;
    mask->valid[0] = 2;
    mask->valid[1] = 2;
    double lv[32], rv[32];
    for (int k = 0; k < 32; k++) {
        lv[k] = 10 + k;
        rv[k] = -1;
    }
    value p[4] = {value_tensor(mask), value_tensor(mk2(DTYPE_FP32, 2, 16, lv)),
                  value_tensor(mk2(DTYPE_FP32, 2, 16, rv)), value_none()};
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_SEL, p, 4, &out), PTODB_OK);
    double e[32];
    for (int k = 0; k < 32; k++)
        e[k] = -1;
    e[0] = 10, e[2] = 12, e[15] = 25;
    for (int j = 0; j < 8; j++)
        e[16 + j] = 26 + j;
    expect_vals(out.u.t, e, 32);
    value_clear(&out);
    clear_all(p, 4);
}
END_TEST

/* PyPTO python/pypto/ir/op/tensor_ops.py:1964-1980: row index.flat[k] of
 * input becomes row k of src. input 4x2 = 0; index [[3, 1]] (b = 1, s = 2,
 * as many elements as src has rows); src rows {1, 2}, {3, 4}: input row 3
 * becomes {1, 2} and row 1 {3, 4}. Then an index [2, 3] with src [6, 2],
 * which REF's index.expand_as(src) rejects: row 5 - k becomes src row k. */
START_TEST(test_scatter_update_rows)
{
    exec_ctx C;
    ctx_init(&C, EXEC_PROFILE_T2);
    C.device = 1;
    double iv[2] = {3, 1}, sv[4] = {1, 2, 3, 4};
    value p[3] = {value_tensor(mk2(DTYPE_FP32, 4, 2, NULL)), value_tensor(mk2(DTYPE_INT32, 1, 2, iv)),
                  value_tensor(mk2(DTYPE_FP32, 2, 2, sv))};
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_SCATTER_UPDATE, p, 3, &out), PTODB_OK);
    double e[8] = {0, 0, 3, 4, 0, 0, 1, 2};
    expect_vals(p[0].u.t, e, 8);
    value_clear(&out);
    clear_all(p, 3);
    /* [2, 3] index, src [6, 2]: REF's expand_as raises; the device scatters */
    double iv2[6] = {5, 4, 3, 2, 1, 0}, sv2[12];
    for (int k = 0; k < 12; k++)
        sv2[k] = k;
    value q[3] = {value_tensor(mk2(DTYPE_FP32, 6, 2, NULL)), value_tensor(mk2(DTYPE_INT64, 2, 3, iv2)),
                  value_tensor(mk2(DTYPE_FP32, 6, 2, sv2))};
    C.differs_id = -1;
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_SCATTER_UPDATE, q, 3, &out), PTODB_OK);
    double e2[12] = {10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1}; /* row 5-k = src row k */
    expect_vals(q[0].u.t, e2, 12);
    ck_assert_int_eq(C.differs_id, EXEC_SEMDIFF_SCATTER_INDEX);
    value_clear(&out);
    /* under ref: torch's error */
    C.device = 0;
    ck_assert_int_ne(run_op(&C, IR_OP_TENSOR_SCATTER_UPDATE, q, 3, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "The expanded size of the tensor"));
    clear_all(q, 3);
    /* an index row past input's rows is an error, not a write outside */
    C.device = 1;
    double bad[2] = {0, 4};
    value r[3] = {value_tensor(mk2(DTYPE_FP32, 4, 2, NULL)), value_tensor(mk2(DTYPE_INT32, 1, 2, bad)),
                  value_tensor(mk2(DTYPE_FP32, 2, 2, sv))};
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_SCATTER_UPDATE, r, 3, &out), PTODB_ERR_BOUNDS);
    ck_assert_ptr_nonnull(strstr(C.msg, "index 4 (element 1) is outside input's 4 rows"));
    clear_all(r, 3);
}
END_TEST

/* get_block_idx / get_block_num: the running block and the launch width
 * under device; 0 and 1 under ref (REF's torch_codegen.py:1068 "0"). */
START_TEST(test_block_ops)
{
    exec_ctx C;
    ctx_init(&C, EXEC_PROFILE_T2);
    C.device = 1;
    C.block_idx = 3;
    C.block_num = 4;
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_GET_BLOCK_IDX, NULL, 0, &out), PTODB_OK);
    ck_assert_int_eq(out.u.i, 3);
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_GET_BLOCK_NUM, NULL, 0, &out), PTODB_OK);
    ck_assert_int_eq(out.u.i, 4);
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_GET_BLOCK_IDX, NULL, 0, &out), PTODB_OK);
    ck_assert_int_eq(out.u.i, 3);
    ck_assert_int_eq(run_op(&C, IR_OP_SYSTEM_AVAILABLE_AIV_COUNT, NULL, 0, &out), PTODB_OK);
    ck_assert_int_eq(out.u.i, 1);
    C.device = 0;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_GET_BLOCK_IDX, NULL, 0, &out), PTODB_OK);
    ck_assert_int_eq(out.u.i, 0);
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_GET_BLOCK_NUM, NULL, 0, &out), PTODB_OK);
    ck_assert_int_eq(out.u.i, 1);
}
END_TEST

/* Tile reductions read the source's valid region (pto-isa
 * docs/isa/tile/ops/reduce-and-expand/trowsum.md:14). x = [[1, 2, 3, 100],
 * [-4, -5, -6, 100]] with valid [2, 3]: row sums 6 and -15, row maxima 3
 * and -4 (the 100s are padding); under ref 106, 85 and 100, 100. */
START_TEST(test_reductions_valid_region)
{
    exec_ctx C;
    ctx_init(&C, EXEC_PROFILE_T2);
    C.device = 1;
    double v[8] = {1, 2, 3, 100, -4, -5, -6, 100};
    tensor *x = mk2(DTYPE_FP32, 2, 4, v);
    x->valid_ndim = 2;
    x->valid[0] = 2;
    x->valid[1] = 3;
    value p[2] = {value_tensor(x), value_none()};
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_ROW_SUM, p, 2, &out), PTODB_OK);
    double e1[2] = {6, -15};
    expect_vals(out.u.t, e1, 2);
    value_clear(&out);
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_ROW_MAX, p, 2, &out), PTODB_OK);
    double e2[2] = {3, -4};
    expect_vals(out.u.t, e2, 2);
    value_clear(&out);
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_COL_MIN, p, 2, &out), PTODB_OK);
    double e3[4] = {-4, -5, -6, INFINITY}; /* column 3 is all padding: the identity */
    expect_vals(out.u.t, e3, 4);
    value_clear(&out);
    ck_assert_double_eq(tensor_get_flat(x, 3), 100); /* the source is untouched */
    C.device = 0;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_ROW_SUM, p, 2, &out), PTODB_OK);
    double e4[2] = {106, 85};
    expect_vals(out.u.t, e4, 2);
    value_clear(&out);
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_ROW_MAX, p, 2, &out), PTODB_OK);
    double e5[2] = {100, 100};
    expect_vals(out.u.t, e5, 2);
    value_clear(&out);
    clear_all(p, 2);
}
END_TEST

/* The table: names parse back, every row has a source. */
START_TEST(test_table)
{
    ck_assert_int_eq(exec_semantics_parse("device"), EXEC_SEM_DEVICE);
    ck_assert_int_eq(exec_semantics_parse("ref"), EXEC_SEM_REF);
    ck_assert_int_eq(exec_semantics_parse("devic"), -1);
    for (int i = 0; i < EXEC_SEMDIFF_COUNT; i++) {
        ck_assert(exec_semdiffs[i].name && *exec_semdiffs[i].name);
        ck_assert(exec_semdiffs[i].source && strlen(exec_semdiffs[i].source) > 10);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_device");
    TCase *tc = tcase_create("device");
    tcase_add_test(tc, test_cmps_packs_bits);
    tcase_add_test(tc, test_cmps_valid_columns);
    tcase_add_test(tc, test_sel_reads_bits);
    tcase_add_test(tc, test_scatter_update_rows);
    tcase_add_test(tc, test_block_ops);
    tcase_add_test(tc, test_reductions_valid_region);
    tcase_add_test(tc, test_table);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* Unit tests for the ops REF has no handler for (src/exec/ops_isa.c and
 * col_expand_add), expected values computed by hand from the PTO ISA's
 * definitions (docs/isa/TROWARGMAX.md, TCOLARGMAX.md, TCI.md, TTRI.md and
 * the CPU simulator include/pto/cpu/TReduceIdx.hpp) and PyPTO's op docs:
 * ties keep the first index, a NaN never wins (strict compare), valid
 * shapes smaller than the tile, odd shapes, integer wrap, -0.0. */
#include "check_ops_util.h"

static exec_ctx C;

/* x = [[1, 5, 5, -inf], [nan, 2, 3, 1], [-0.0, 0.0, -1, 7]] */
static const double X[12] = {1, 5, 5, -INFINITY, NAN, 2, 3, 1, -0.0, 0.0, -1, 7};

static tensor *run_ok(int op, value *pos, uint32_t n, const exec_kw *kws, const value *kwv,
                      uint32_t nkw)
{
    value out;
    ptodb_status st = run_op_kw(&C, op, pos, n, kws, kwv, nkw, NULL, &out);
    ck_assert_msg(st == PTODB_OK, "%s failed: %s", ir_op_info_get(op)->name, C.msg);
    ck_assert_int_eq(out.kind, VAL_TENSOR);
    clear_all(pos, (int)n);
    return out.u.t;
}

static void expect_arg(int op, const tensor *x, int nargs, int64_t r, int64_t c, const double *e)
{
    value p[2] = {value_tensor(tensor_ref((tensor *)x)), value_tensor(tensor_ref((tensor *)x))};
    tensor *t = run_ok(op, p, (uint32_t)nargs, NULL, NULL, 0);
    if (nargs < 2)
        value_clear(&p[1]);
    ck_assert_int_eq(t->dtype, DTYPE_INT32);
    expect_shape2(t, r, c);
    expect_vals(t, e, r * c);
    tensor_unref(t);
}

START_TEST(test_arg_reductions)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *x = mk2(DTYPE_FP32, 3, 4, X);
    double rmax[3] = {1, 0, 3}, rmin[3] = {3, 0, 2};
    double cmax[4] = {0, 0, 0, 2}, cmin[4] = {2, 2, 2, 0};
    expect_arg(IR_OP_TILE_ROW_ARGMAX, x, 2, 3, 1, rmax);
    expect_arg(IR_OP_TENSOR_ROW_ARGMAX, x, 1, 3, 1, rmax);
    expect_arg(IR_OP_TILE_ROW_ARGMIN, x, 2, 3, 1, rmin);
    expect_arg(IR_OP_TENSOR_ROW_ARGMIN, x, 1, 3, 1, rmin);
    expect_arg(IR_OP_TILE_COL_ARGMAX, x, 2, 1, 4, cmax);
    expect_arg(IR_OP_TENSOR_COL_ARGMAX, x, 1, 1, 4, cmax);
    expect_arg(IR_OP_TILE_COL_ARGMIN, x, 2, 1, 4, cmin);
    expect_arg(IR_OP_TENSOR_COL_ARGMIN, x, 1, 1, 4, cmin);
    /* valid shape [2, 3] of the 3x4 tile: row 2 and column 3 are not read,
     * the row outside the valid region gets 0 */
    value p[3] = {value_tensor(tensor_ref(x)), value_int(2), value_int(3)};
    tensor *v = run_ok(IR_OP_TILE_SET_VALIDSHAPE, p, 3, NULL, NULL, 0);
    double vmax[3] = {1, 0, 0}, vcmin[4] = {0, 1, 1, 0};
    expect_arg(IR_OP_TILE_ROW_ARGMAX, v, 2, 3, 1, vmax);
    expect_arg(IR_OP_TILE_COL_ARGMIN, v, 2, 1, 4, vcmin);
    tensor_unref(v);
    tensor_unref(x);
    /* int32, odd shape 1x5, wrap-free extremes */
    double iv[5] = {3, -2147483648.0, 3, 2147483647.0, -7};
    tensor *xi = mk2(DTYPE_INT32, 1, 5, iv);
    double imax[1] = {3}, imin[1] = {1}, icol[5] = {0, 0, 0, 0, 0};
    expect_arg(IR_OP_TILE_ROW_ARGMAX, xi, 2, 1, 1, imax);
    expect_arg(IR_OP_TILE_ROW_ARGMIN, xi, 2, 1, 1, imin);
    expect_arg(IR_OP_TILE_COL_ARGMAX, xi, 2, 1, 5, icol);
    tensor_unref(xi);
    /* bf16 keeps its values exactly: 1.5 vs 1.5 ties */
    double bv[4] = {1.5, -2, 1.5, 0.25};
    tensor *xb = mk2(DTYPE_BF16, 2, 2, bv);
    double bmax[2] = {0, 0}, bcol[2] = {0, 0};
    expect_arg(IR_OP_TILE_ROW_ARGMAX, xb, 2, 2, 1, bmax);
    expect_arg(IR_OP_TILE_COL_ARGMIN, xb, 2, 1, 2, bcol);
    tensor_unref(xb);
    /* a 1-D input is an error with a message */
    value q[2] = {value_tensor(mk1(DTYPE_FP32, 3, X)), value_none()};
    value out;
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_ROW_ARGMAX, q, 2, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "2-D"));
    clear_all(q, 2);
}
END_TEST

START_TEST(test_ci)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    exec_kw kws[2] = {EXEC_KW_DTYPE, EXEC_KW_DESCENDING};
    value kv[2] = {value_enum(IR_EV_DTYPE_INT32), value_bool(0)};
    value p[2] = {value_int(5), tup2(1, 6)};
    tensor *t = run_ok(IR_OP_TILE_CI, p, 2, kws, kv, 2);
    double up[6] = {5, 6, 7, 8, 9, 10};
    ck_assert_int_eq(t->dtype, DTYPE_INT32);
    expect_vals(t, up, 6);
    tensor_unref(t);
    kv[1] = value_bool(1);
    value q[2] = {value_int(5), tup2(1, 6)};
    t = run_ok(IR_OP_TENSOR_CI, q, 2, kws, kv, 2);
    double down[6] = {5, 4, 3, 2, 1, 0};
    expect_vals(t, down, 6);
    tensor_unref(t);
    /* int16 wraps past 32767 */
    kv[0] = value_enum(IR_EV_DTYPE_INT16);
    kv[1] = value_bool(0);
    value w[2] = {value_int(32766), tup2(1, 4)};
    t = run_ok(IR_OP_TILE_CI, w, 2, kws, kv, 2);
    double wrap[4] = {32766, 32767, -32768, -32767};
    ck_assert_int_eq(t->dtype, DTYPE_INT16);
    expect_vals(t, wrap, 4);
    tensor_unref(t);
    /* only the first row is written */
    value r[2] = {value_int(0), tup2(2, 3)};
    t = run_ok(IR_OP_TILE_CI, r, 2, NULL, NULL, 0);
    double two[6] = {0, 1, 2, 0, 0, 0};
    expect_vals(t, two, 6);
    tensor_unref(t);
    /* float dtypes are refused as the ISA does */
    kv[0] = value_enum(IR_EV_DTYPE_FP32);
    value f[2] = {value_int(0), tup2(1, 4)};
    value out;
    ck_assert_int_ne(run_op_kw(&C, IR_OP_TILE_CI, f, 2, kws, kv, 1, NULL, &out), PTODB_OK);
    clear_all(f, 2);
}
END_TEST

START_TEST(test_tri)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    value p[2] = {value_int(0), tup2(3, 4)};
    tensor *t = run_ok(IR_OP_TILE_TRI, p, 2, NULL, NULL, 0);
    double lower[12] = {1, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0};
    ck_assert_int_eq(t->dtype, DTYPE_INT32);
    expect_vals(t, lower, 12);
    tensor_unref(t);
    exec_kw kws[2] = {EXEC_KW_DTYPE, EXEC_KW_UPPER};
    value kv[2] = {value_enum(IR_EV_DTYPE_FP32), value_bool(1)};
    value q[2] = {value_int(1), tup2(3, 4)};
    t = run_ok(IR_OP_TILE_TRI, q, 2, kws, kv, 2);
    double upper[12] = {0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 1};
    ck_assert_int_eq(t->dtype, DTYPE_FP32);
    expect_vals(t, upper, 12);
    tensor_unref(t);
    /* valid_shape [2, 3], diagonal -1: only (1, 0) is set */
    value r[3] = {value_int(-1), tup2(3, 4), tup2(2, 3)};
    t = run_ok(IR_OP_TILE_TRI, r, 3, NULL, NULL, 0);
    double valid[12] = {0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    expect_vals(t, valid, 12);
    tensor_unref(t);
}
END_TEST

START_TEST(test_set_validshape)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *x = mk2(DTYPE_FP32, 3, 4, X);
    value p[3] = {value_tensor(tensor_ref(x)), value_int(2), value_int(3)};
    tensor *v = run_ok(IR_OP_TENSOR_SET_VALIDSHAPE, p, 3, NULL, NULL, 0);
    ck_assert_int_eq(v->valid_ndim, 2);
    ck_assert_int_eq(v->valid[0], 2);
    ck_assert_int_eq(v->valid[1], 3);
    ck_assert_int_eq(v->full_ndim, 2);
    ck_assert_int_eq(v->full[1], 4);
    ck_assert_ptr_eq(tensor_data(v), tensor_data(x)); /* no data moves */
    expect_shape2(v, 3, 4);
    tensor_unref(v);
    value q[3] = {value_tensor(tensor_ref(x)), value_int(4), value_int(1)};
    value out;
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_SET_VALIDSHAPE, q, 3, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "outside the tile"));
    clear_all(q, 3);
    tensor_unref(x);
}
END_TEST

START_TEST(test_block_num_and_col_expand_add)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    value out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_GET_BLOCK_NUM, NULL, 0, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_INT);
    ck_assert_int_eq(out.u.i, 1);
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_GET_BLOCK_NUM, NULL, 0, &out), PTODB_OK);
    ck_assert_int_eq(out.u.i, 1);
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_GET_BLOCK_IDX, NULL, 0, &out), PTODB_OK);
    ck_assert_int_eq(out.u.i, 0);
    /* the launch width of the one-block model */
    ck_assert_int_eq(run_op(&C, IR_OP_SYSTEM_AVAILABLE_AIV_COUNT, NULL, 0, &out), PTODB_OK);
    ck_assert(out.kind == VAL_INT && out.u.i == 1);
    ck_assert_int_eq(run_op(&C, IR_OP_SYSTEM_AVAILABLE_CLUSTER_COUNT, NULL, 0, &out), PTODB_OK);
    ck_assert(out.kind == VAL_INT && out.u.i == 1);
    /* col_expand_add: t[i, j] + v[0, j]; -0.0 + -0.0 stays -0.0; int32 +
     * fp32 promotes to fp32 as torch's + */
    double a[6] = {1, -2, 3.5, -0.0, 4, -5}, c[3] = {-0.0, 2, -1};
    double e[6] = {1, 0, 2.5, -0.0, 6, -6};
    int ops[2] = {IR_OP_TILE_COL_EXPAND_ADD, IR_OP_TENSOR_COL_EXPAND_ADD};
    for (int k = 0; k < 2; k++) {
        value p[2] = {value_tensor(mk2(DTYPE_FP32, 2, 3, a)),
                      value_tensor(mk2(DTYPE_FP32, 1, 3, c))};
        tensor *t = run_ok(ops[k], p, 2, NULL, NULL, 0);
        expect_vals(t, e, 6);
        ck_assert(signbit(tensor_get_flat(t, 3)));
        tensor_unref(t);
    }
    double ia[6] = {1, 2, 3, 4, 5, 6}, fc[3] = {0.5, 0.25, NAN}, ie[6] = {1.5, 2.25, NAN, 4.5, 5.25, NAN};
    value p[2] = {value_tensor(mk2(DTYPE_INT32, 2, 3, ia)), value_tensor(mk2(DTYPE_FP32, 1, 3, fc))};
    tensor *t = run_ok(IR_OP_TILE_COL_EXPAND_ADD, p, 2, NULL, NULL, 0);
    ck_assert_int_eq(t->dtype, DTYPE_FP32);
    expect_vals(t, ie, 6);
    tensor_unref(t);
}
END_TEST

/* tile.maximums / minimums with a literal scalar: REF raises TypeError; the
 * lowering marks the call " by definition" and ptodb computes max/min with
 * the scalar as torch does for a Python scalar: rounded to the tile's dtype
 * (bf16(0.1) = 0.10009765625), NaN propagates, int tile with a float
 * scalar gives float32, int with int stays int32. Without the mark REF's TypeError is reproduced. */
START_TEST(test_maximums_by_definition)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    exec_kw kw = EXEC_KW_BY_DEFINITION;
    value one = value_int(1);
    double b[4] = {1.5, -2, NAN, -0.0};
    value p[2] = {value_tensor(mk1(DTYPE_BF16, 4, b)), value_float(0.1)};
    tensor *t = run_ok(IR_OP_TILE_MAXIMUMS, p, 2, &kw, &one, 1);
    double e[4] = {1.5, 0.10009765625, NAN, 0.10009765625};
    ck_assert_int_eq(t->dtype, DTYPE_BF16);
    expect_vals(t, e, 4);
    tensor_unref(t);
    value q[2] = {value_tensor(mk1(DTYPE_FP32, 4, b)), value_float(0.0)};
    t = run_ok(IR_OP_TILE_MINIMUMS, q, 2, &kw, &one, 1);
    double em[4] = {0, -2, NAN, -0.0};
    expect_vals(t, em, 4); /* the sign of min(-0.0, 0.0) is torch's kernel's, as for tile.minimum */
    tensor_unref(t);
    double iv[3] = {-3, 0, 7};
    value r[2] = {value_tensor(mk1(DTYPE_INT32, 3, iv)), value_float(0.5)};
    t = run_ok(IR_OP_TILE_MAXIMUMS, r, 2, &kw, &one, 1);
    double ei[3] = {0.5, 0.5, 7};
    ck_assert_int_eq(t->dtype, DTYPE_FP32);
    expect_vals(t, ei, 3);
    tensor_unref(t);
    value w[2] = {value_tensor(mk1(DTYPE_INT32, 3, iv)), value_int(1)};
    t = run_ok(IR_OP_TILE_MINIMUMS, w, 2, &kw, &one, 1);
    double ew[3] = {-3, 0, 1};
    ck_assert_int_eq(t->dtype, DTYPE_INT32);
    expect_vals(t, ew, 3);
    tensor_unref(t);
    ck_assert_ptr_null(C.ref_note); /* a literal: the lowering noted it */
    /* unmarked: REF's error */
    value u[2] = {value_tensor(mk1(DTYPE_FP32, 4, b)), value_float(0.0)};
    value out;
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_MAXIMUMS, u, 2, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "must be Tensor, not float"));
    clear_all(u, 2);
}
END_TEST

/* tile.maximums / minimums with a Scalar variable (the lowering's mark 2):
 * a Python number at run time runs by definition, exactly as a literal
 * does, and tells the machine REF raises (TypeError, not int / not float);
 * a 0-d tensor (a read result, which REF's torch.maximum accepts) is REF's
 * own path and notes nothing. */
START_TEST(test_maximums_scalar_variable)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    exec_kw kw = EXEC_KW_BY_DEFINITION;
    value two = value_int(2);
    double b[4] = {1.5, -2, NAN, -0.0};
    value p[2] = {value_tensor(mk1(DTYPE_FP16, 4, b)), value_float(-1.0)};
    tensor *t = run_ok(IR_OP_TILE_MAXIMUMS, p, 2, &kw, &two, 1);
    double e[4] = {1.5, -1, NAN, -0.0};
    ck_assert_int_eq(t->dtype, DTYPE_FP16);
    expect_vals(t, e, 4);
    tensor_unref(t);
    ck_assert_str_eq(C.ref_note,
                     "TypeError: maximum(): argument 'other' (position 2) must be Tensor, not float");
    C.ref_note = NULL;
    double iv[3] = {-3, 2147483647, 7};
    value q[2] = {value_tensor(mk1(DTYPE_INT32, 3, iv)), value_int(5)};
    t = run_ok(IR_OP_TILE_MINIMUMS, q, 2, &kw, &two, 1);
    double ei[3] = {-3, 5, 5};
    ck_assert_int_eq(t->dtype, DTYPE_INT32);
    expect_vals(t, ei, 3);
    tensor_unref(t);
    ck_assert_str_eq(C.ref_note,
                     "TypeError: minimum(): argument 'other' (position 2) must be Tensor, not int");
    C.ref_note = NULL;
    /* a 0-d fp32 tensor: torch.maximum(fp16 tile, 0-d fp32) = fp16 (a 0-d
     * tensor does not raise the category), max(-0.0, 0) etc. as torch */
    tensor *z = tensor_zeros(DTYPE_FP32, 0, NULL, NULL);
    tensor_set(z, NULL, 0.25);
    value r[2] = {value_tensor(mk1(DTYPE_FP16, 4, b)), value_tensor(z)};
    t = run_ok(IR_OP_TILE_MAXIMUMS, r, 2, &kw, &two, 1);
    double ez[4] = {1.5, 0.25, NAN, 0.25};
    ck_assert_int_eq(t->dtype, DTYPE_FP16);
    expect_vals(t, ez, 4);
    tensor_unref(t);
    ck_assert_ptr_null(C.ref_note);
}
END_TEST

/* fillpad_expand / fillpad_inplace (PyPTO's op docs): the valid region kept
 * at the top-left, the rest pad_value (zero, or the dtype's finite max/min
 * as tile.fillpad's); -0.0 inside the valid region kept. */
START_TEST(test_fillpad_expand_inplace)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    const double FMAX = 3.4028234663852886e38;
    double a[6] = {1, -2, 3.5, -0.0, 4, -5};
    /* no valid shape: the whole 2x3 copied, zero padding */
    value p[2] = {value_tensor(mk2(DTYPE_FP32, 2, 3, a)), tup2(3, 4)};
    tensor *t = run_ok(IR_OP_TILE_FILLPAD_EXPAND, p, 2, NULL, NULL, 0);
    double e[12] = {1, -2, 3.5, 0, -0.0, 4, -5, 0, 0, 0, 0, 0};
    expect_shape2(t, 3, 4);
    expect_vals(t, e, 12);
    ck_assert(signbit(tensor_get_flat(t, 4)));
    tensor_unref(t);
    /* valid [1, 2], pad max */
    tensor *x = mk2(DTYPE_FP32, 2, 3, a);
    value q[3] = {value_tensor(x), value_int(1), value_int(2)};
    tensor *v = run_ok(IR_OP_TILE_SET_VALIDSHAPE, q, 3, NULL, NULL, 0);
    exec_kw kw = EXEC_KW_PAD_VALUE;
    value pv = value_enum(IR_EV_PAD_VALUE_MAX);
    value r[2] = {value_tensor(tensor_ref(v)), tup2(3, 4)};
    t = run_ok(IR_OP_TENSOR_FILLPAD_EXPAND, r, 2, &kw, &pv, 1);
    double em[12] = {1, -2, FMAX, FMAX, FMAX, FMAX, FMAX, FMAX, FMAX, FMAX, FMAX, FMAX};
    expect_vals(t, em, 12);
    tensor_unref(t);
    /* a destination smaller than the source is an error */
    value bad[2] = {value_tensor(tensor_ref(v)), tup2(1, 4)};
    value out;
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_FILLPAD_EXPAND, bad, 2, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "smaller"));
    clear_all(bad, 2);
    /* in place, pad min: the view's storage (shared with x) changes */
    pv = value_enum(IR_EV_PAD_VALUE_MIN);
    value w[1] = {value_tensor(tensor_ref(v))};
    t = run_ok(IR_OP_TILE_FILLPAD_INPLACE, w, 1, &kw, &pv, 1);
    /* the result is the same bytes, its valid shape the whole tile (PyPTO's
     * type deduction of fillpad_inplace) */
    ck_assert_ptr_eq(t->storage, v->storage);
    ck_assert_int_eq(t->valid_ndim, -1);
    double ei[6] = {1, -2, -FMAX, -FMAX, -FMAX, -FMAX};
    expect_vals(t, ei, 6);
    ck_assert_int_eq(C.writes, 1);
    tensor_unref(t);
    /* int16 tile with no valid shape: unchanged, no write */
    double iv[3] = {-32768, 0, 32767};
    value z[1] = {value_tensor(mk2(DTYPE_INT16, 1, 3, iv))};
    t = run_ok(IR_OP_TILE_FILLPAD_INPLACE, z, 1, NULL, NULL, 0);
    expect_vals(t, iv, 3);
    ck_assert_int_eq(C.writes, 1);
    tensor_unref(t);
    tensor_unref(v);
}
END_TEST

/* gather / scatter by index (TGATHER, TSCATTER, MGATHER, MSCATTER), hand
 * values: flat row-major indices, -0.0 carried, a repeated scatter index
 * keeps the later element, out-of-range indices are errors unless
 * gather_oob says clamp / wrap / zero. */
START_TEST(test_gather_scatter)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double a[6] = {1, -2, 3.5, -0.0, 4, -5};
    double gi[4] = {5, 0, 3, 3};
    value p[3] = {value_tensor(mk2(DTYPE_FP32, 2, 3, a)), value_tensor(mk2(DTYPE_INT32, 1, 4, gi)),
                  value_none()};
    tensor *t = run_ok(IR_OP_TILE_GATHER, p, 3, NULL, NULL, 0);
    double ge[4] = {-5, 1, -0.0, -0.0};
    expect_shape2(t, 1, 4);
    expect_vals(t, ge, 4);
    ck_assert(signbit(tensor_get_flat(t, 2)));
    tensor_unref(t);
    /* out-of-range indices (6, and -1 read as unsigned) give 0, as the
     * simulator's IndexInBounds */
    double bad[3] = {6, -1, 1}, eb[3] = {0, 0, -2};
    value q[3] = {value_tensor(mk2(DTYPE_FP32, 2, 3, a)), value_tensor(mk2(DTYPE_INT32, 1, 3, bad)),
                  value_none()};
    t = run_ok(IR_OP_TILE_GATHER, q, 3, NULL, NULL, 0);
    expect_vals(t, eb, 3);
    tensor_unref(t);
    value out;

    /* scatter: dst.flat[idx] = src, in place, the later of two writes wins */
    double sv[3] = {7, 8, 9}, si[3] = {4, 0, 4};
    tensor *dst = mk2(DTYPE_FP32, 2, 3, NULL);
    value r[3] = {value_tensor(tensor_ref(dst)), value_tensor(mk2(DTYPE_FP32, 1, 3, sv)),
                  value_tensor(mk2(DTYPE_INT32, 1, 3, si))};
    t = run_ok(IR_OP_TILE_SCATTER, r, 3, NULL, NULL, 0);
    double se[6] = {8, 0, 0, 0, 9, 0};
    ck_assert_ptr_eq(t, dst);
    expect_vals(dst, se, 6);
    ck_assert_int_eq(C.writes, 1);
    tensor_unref(t);
    tensor_unref(dst);
    /* mscatter(src, idx, out) into an int32 tensor */
    tensor *o = mk2(DTYPE_INT32, 1, 6, NULL);
    value m[3] = {value_tensor(mk2(DTYPE_INT32, 1, 3, sv)), value_tensor(mk2(DTYPE_INT32, 1, 3, si)),
                  value_tensor(tensor_ref(o))};
    t = run_ok(IR_OP_TILE_MSCATTER, m, 3, NULL, NULL, 0);
    ck_assert_ptr_eq(t, o);
    expect_vals(o, se, 6);
    tensor_unref(t);
    tensor_unref(o);
    double oi[1] = {6};
    value mo[3] = {value_tensor(mk2(DTYPE_INT32, 1, 1, sv)), value_tensor(mk2(DTYPE_INT32, 1, 1, oi)),
                   value_tensor(mk2(DTYPE_INT32, 1, 6, NULL))};
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_MSCATTER, mo, 3, &out), PTODB_OK);
    clear_all(mo, 3);

    /* mgather, row mode: mem 3x2, rows 2, 0, 2 */
    double mem[6] = {1, 2, 3, 4, 5, 6}, ri[3] = {2, 0, 2};
    value g[2] = {value_tensor(mk2(DTYPE_FP32, 3, 2, mem)), value_tensor(mk2(DTYPE_INT32, 1, 3, ri))};
    t = run_ok(IR_OP_TILE_MGATHER, g, 2, NULL, NULL, 0);
    double re[6] = {5, 6, 1, 2, 5, 6};
    expect_shape2(t, 3, 2);
    expect_vals(t, re, 6);
    tensor_unref(t);
    /* an out-of-range row 3 under each gather_oob */
    static const struct { int64_t oob; double e[2]; } oobs[] = {
        {1, {5, 6}}, {2, {1, 2}}, {3, {0, 0}},
    };
    double r3[1] = {3};
    exec_kw kws[2] = {EXEC_KW_COALESCE, EXEC_KW_GATHER_OOB};
    for (size_t k = 0; k < 3; k++) {
        value kv[2] = {value_int(0), value_int(oobs[k].oob)};
        value h[2] = {value_tensor(mk2(DTYPE_FP32, 3, 2, mem)),
                      value_tensor(mk2(DTYPE_INT32, 1, 1, r3))};
        t = run_ok(IR_OP_TILE_MGATHER, h, 2, kws, kv, 2);
        expect_vals(t, oobs[k].e, 2);
        tensor_unref(t);
    }
    value h[2] = {value_tensor(mk2(DTYPE_FP32, 3, 2, mem)), value_tensor(mk2(DTYPE_INT32, 1, 1, r3))};
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_MGATHER, h, 2, &out), PTODB_OK);
    clear_all(h, 2);
    /* element mode with wrap: 7 % 6 = 1 */
    double ei[4] = {5, 0, 1, 7}, ee[4] = {6, 1, 2, 2};
    value kv[2] = {value_int(1), value_int(2)};
    value el[2] = {value_tensor(mk2(DTYPE_FP32, 3, 2, mem)), value_tensor(mk2(DTYPE_INT32, 2, 2, ei))};
    t = run_ok(IR_OP_TILE_MGATHER, el, 2, kws, kv, 2);
    expect_shape2(t, 2, 2);
    expect_vals(t, ee, 4);
    tensor_unref(t);
}
END_TEST

static uint32_t bits_at(const tensor *t, int64_t k)
{
    uint32_t u;
    memcpy(&u, (const unsigned char *)tensor_data(t) + 4 * k, 4);
    return u;
}

/* sort32 (TSORT32, the CPU simulator's order): per 32-column block, values
 * descending, ties by smaller index, pairs [value, index bits]; a valid
 * width smaller than the tile sorts only the valid columns. */
START_TEST(test_sort32)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double v[3] = {1, 5, 5}, ix[3] = {10, 12, 11};
    value p[2] = {value_tensor(mk2(DTYPE_FP32, 1, 3, v)), value_tensor(mk2(DTYPE_INT32, 1, 3, ix))};
    tensor *t = run_ok(IR_OP_TILE_SORT32, p, 2, NULL, NULL, 0);
    expect_shape2(t, 1, 6);
    ck_assert_double_eq(tensor_get_flat(t, 0), 5);
    ck_assert_uint_eq(bits_at(t, 1), 11);
    ck_assert_double_eq(tensor_get_flat(t, 2), 5);
    ck_assert_uint_eq(bits_at(t, 3), 12);
    ck_assert_double_eq(tensor_get_flat(t, 4), 1);
    ck_assert_uint_eq(bits_at(t, 5), 10);
    tensor_unref(t);
    /* 33 columns: block 0 is columns 0..31, block 1 column 32 alone */
    double w[33], wi[33];
    for (int k = 0; k < 33; k++) {
        w[k] = k;
        wi[k] = k;
    }
    value q[2] = {value_tensor(mk2(DTYPE_INT32, 1, 33, w)), value_tensor(mk2(DTYPE_INT32, 1, 33, wi))};
    t = run_ok(IR_OP_TENSOR_SORT32, q, 2, NULL, NULL, 0);
    ck_assert_double_eq(tensor_get_flat(t, 0), 31);
    ck_assert_uint_eq(bits_at(t, 1), 31);
    ck_assert_double_eq(tensor_get_flat(t, 62), 0);
    ck_assert_double_eq(tensor_get_flat(t, 64), 32);
    ck_assert_uint_eq(bits_at(t, 65), 32);
    tensor_unref(t);
    /* valid width 2 of 3 */
    value sv[3] = {value_tensor(mk2(DTYPE_FP32, 1, 3, v)), value_int(1), value_int(2)};
    tensor *vv = run_ok(IR_OP_TILE_SET_VALIDSHAPE, sv, 3, NULL, NULL, 0);
    value r[2] = {value_tensor(vv), value_tensor(mk2(DTYPE_INT32, 1, 3, ix))};
    t = run_ok(IR_OP_TILE_SORT32, r, 2, NULL, NULL, 0);
    ck_assert_double_eq(tensor_get_flat(t, 0), 5);
    ck_assert_uint_eq(bits_at(t, 1), 12);
    ck_assert_double_eq(tensor_get_flat(t, 2), 1);
    ck_assert_double_eq(tensor_get_flat(t, 4), 0);
    tensor_unref(t);
    /* fp16 pairs are not modelled: a clear error */
    value h[2] = {value_tensor(mk2(DTYPE_FP16, 1, 3, v)), value_tensor(mk2(DTYPE_INT32, 1, 3, ix))};
    value out;
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_SORT32, h, 2, &out), PTODB_OK);
    clear_all(h, 2);
}
END_TEST

/* reinterpret_view: the bytes of fp32 [1.0, -0.0] (0x3f800000, 0x80000000)
 * as int32, and as little-endian int16 halves with the last dim doubled. */
START_TEST(test_reinterpret_view)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double f[2] = {1.0, -0.0};
    exec_kw kws[2] = {EXEC_KW_DTYPE, EXEC_KW_SHAPE};
    value kv[2] = {value_enum(IR_EV_DTYPE_INT32), value_none()};
    value p[1] = {value_tensor(mk2(DTYPE_FP32, 1, 2, f))};
    tensor *t = run_ok(IR_OP_TILE_REINTERPRET_VIEW, p, 1, kws, kv, 1);
    double e32[2] = {1065353216, -2147483648.0};
    ck_assert_int_eq(t->dtype, DTYPE_INT32);
    expect_vals(t, e32, 2);
    tensor_unref(t);
    kv[0] = value_enum(IR_EV_DTYPE_INT16);
    value q[1] = {value_tensor(mk2(DTYPE_FP32, 1, 2, f))};
    t = run_ok(IR_OP_TENSOR_REINTERPRET_VIEW, q, 1, kws, kv, 1);
    double e16[4] = {0, 16256, 0, -32768};
    expect_shape2(t, 1, 4);
    expect_vals(t, e16, 4);
    tensor_unref(t);
    kv[1] = tup2(2, 2);
    value r[1] = {value_tensor(mk2(DTYPE_FP32, 1, 2, f))};
    t = run_ok(IR_OP_TILE_REINTERPRET_VIEW, r, 1, kws, kv, 2);
    expect_shape2(t, 2, 2);
    expect_vals(t, e16, 4);
    tensor_unref(t);
    value_clear(&kv[1]);
    int64_t three = 3;
    kv[1] = tup(1, &three);
    value b[1] = {value_tensor(mk2(DTYPE_FP32, 1, 2, f))};
    value out;
    ck_assert_int_ne(run_op_kw(&C, IR_OP_TILE_REINTERPRET_VIEW, b, 1, kws, kv, 2, NULL, &out),
                     PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "cannot be read as"));
    clear_all(b, 1);
    value_clear(&kv[1]);
}
END_TEST

/* tensor.gather / tensor.scatter: torch.gather / torch.scatter along dim
 * (negative dims and negative indices wrap as in torch). */
START_TEST(test_tensor_gather_scatter)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double a[6] = {1, -2, 3.5, -0.0, 4, -5};
    double i1[4] = {2, 0, 1, -1};
    exec_kw kw = EXEC_KW_DIM;
    value d = value_int(-1);
    value p[2] = {value_tensor(mk2(DTYPE_FP32, 2, 3, a)), value_tensor(mk2(DTYPE_INT32, 2, 2, i1))};
    tensor *t = run_ok(IR_OP_TENSOR_GATHER, p, 2, &kw, &d, 1);
    double e1[4] = {3.5, 1, 4, -5};
    expect_shape2(t, 2, 2);
    expect_vals(t, e1, 4);
    tensor_unref(t);
    double i0[3] = {1, 0, 1};
    d = value_int(0);
    value q[2] = {value_tensor(mk2(DTYPE_FP32, 2, 3, a)), value_tensor(mk2(DTYPE_INT32, 1, 3, i0))};
    t = run_ok(IR_OP_TENSOR_GATHER, q, 2, &kw, &d, 1);
    double e0[3] = {-0.0, -2, -5};
    expect_vals(t, e0, 3);
    ck_assert(signbit(tensor_get_flat(t, 0)));
    tensor_unref(t);
    /* scatter out of place: the input is unchanged */
    double si[2] = {2, 0}, sv[2] = {7, 8};
    d = value_int(1);
    tensor *in = mk2(DTYPE_INT32, 2, 3, NULL);
    value r[3] = {value_tensor(tensor_ref(in)), value_tensor(mk2(DTYPE_INT32, 2, 1, si)),
                  value_tensor(mk2(DTYPE_INT32, 2, 1, sv))};
    t = run_ok(IR_OP_TENSOR_SCATTER, r, 3, &kw, &d, 1);
    double es[6] = {0, 0, 7, 8, 0, 0}, zero[6] = {0};
    expect_vals(t, es, 6);
    expect_vals(in, zero, 6);
    tensor_unref(t);
    tensor_unref(in);
    /* torch's bounds message */
    double bad[1] = {3};
    value b[2] = {value_tensor(mk2(DTYPE_FP32, 2, 3, a)), value_tensor(mk2(DTYPE_INT32, 1, 1, bad))};
    value out;
    ck_assert_int_ne(run_op_kw(&C, IR_OP_TENSOR_GATHER, b, 2, &kw, &d, 1, NULL, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "index 3 is out of bounds for dimension 1 with size 3"));
    clear_all(b, 2);
}
END_TEST

/* gather_mask (TGATHER mask form): row-wise compaction of the selected
 * columns; output_dtype reinterprets the bits (fp32 1.0 -> 0x3f800000). */
START_TEST(test_gather_mask)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double a[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    static const struct { int64_t pat; int64_t cols; double e[10]; } cases[] = {
        {1, 3, {1, 3, 5, 6, 8, 10}}, {2, 2, {2, 4, 7, 9}}, {3, 2, {1, 5, 6, 10}},
        {6, 1, {4, 9}}, {7, 5, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}},
    };
    exec_kw kws[2] = {EXEC_KW_MASK_PATTERN, EXEC_KW_OUTPUT_DTYPE};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        value kv[1] = {value_int(cases[k].pat)};
        value p[1] = {value_tensor(mk2(DTYPE_FP32, 2, 5, a))};
        tensor *t = run_ok(k % 2 ? IR_OP_TENSOR_GATHER_MASK : IR_OP_TILE_GATHER_MASK, p, 1, kws, kv, 1);
        expect_shape2(t, 2, cases[k].cols);
        expect_vals(t, cases[k].e, 2 * cases[k].cols);
        tensor_unref(t);
    }
    value kv[2] = {value_int(1), value_enum(IR_EV_DTYPE_INT32)};
    value p[1] = {value_tensor(mk2(DTYPE_FP32, 2, 5, a))};
    tensor *t = run_ok(IR_OP_TILE_GATHER_MASK, p, 1, kws, kv, 2);
    ck_assert_int_eq(t->dtype, DTYPE_INT32);
    ck_assert_double_eq(tensor_get_flat(t, 0), 1065353216);
    tensor_unref(t);
    value bad[1] = {value_tensor(mk2(DTYPE_FP32, 2, 5, a))};
    value k8 = value_int(8), out;
    ck_assert_int_ne(run_op_kw(&C, IR_OP_TILE_GATHER_MASK, bad, 1, kws, &k8, 1, NULL, &out), PTODB_OK);
    clear_all(bad, 1);
}
END_TEST

/* tensor.cmp (tile.cmp's definition: cmp_type 0..5 = == != < <= > >=, a
 * bool tensor, NaN compares unequal), tensor.get_subblock_idx (the lane),
 * system.syncall (nothing, None). */
START_TEST(test_cmp_lane_syncall)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double x[4] = {1, NAN, -0.0, 3}, y[4] = {1, NAN, 0.0, 2};
    static const struct { int ct; double e[4]; } cases[] = {
        {0, {1, 0, 1, 0}}, {1, {0, 1, 0, 1}}, {2, {0, 0, 0, 0}},
        {3, {1, 0, 1, 0}}, {4, {0, 0, 0, 1}}, {5, {1, 0, 1, 1}},
    };
    exec_kw kw = EXEC_KW_CMP_TYPE;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        value kv = value_int(cases[k].ct);
        value p[2] = {value_tensor(mk1(DTYPE_FP32, 4, x)), value_tensor(mk1(DTYPE_FP32, 4, y))};
        tensor *t = run_ok(IR_OP_TENSOR_CMP, p, 2, &kw, &kv, 1);
        ck_assert_int_eq(t->dtype, DTYPE_BOOL);
        expect_vals(t, cases[k].e, 4);
        tensor_unref(t);
    }
    value out;
    C.lane = 1;
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_GET_SUBBLOCK_IDX, NULL, 0, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_INT);
    ck_assert_int_eq(out.u.i, 1);
    ck_assert_int_eq(run_op(&C, IR_OP_SYSTEM_SYNCALL, NULL, 0, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_NONE);
}
END_TEST

/* A 1 x 2n fp32 tile of (score, index bits) pairs as sort32 writes them. */
static tensor *pairs(int n, const double *score, const uint32_t *index)
{
    tensor *t = mk2(DTYPE_FP32, 1, 2 * n, NULL);
    unsigned char *d = tensor_data(t);
    for (int k = 0; k < n; k++) {
        float f = (float)score[k];
        memcpy(d + 8 * k, &f, 4);
        memcpy(d + 8 * k + 4, &index[k], 4);
    }
    return t;
}

static void expect_pairs(const tensor *t, int n, const double *score, const uint32_t *index)
{
    for (int k = 0; k < n; k++) {
        ck_assert_msg(tensor_get_flat(t, 2 * k) == score[k], "struct %d: score %g, expected %g", k,
                      tensor_get_flat(t, 2 * k), score[k]);
        ck_assert_msg(bits_at(t, 2 * k + 1) == index[k], "struct %d: index %u, expected %u", k,
                      bits_at(t, 2 * k + 1), index[k]);
    }
}

/* mrgsort (TMRGSORT as the CPU simulator): strictly-larger picks, ties go
 * to the earlier list / run; exhausted stops at the first used-up list;
 * format 1 merges groups of 4 runs, columns past the last group stay 0. */
START_TEST(test_mrgsort)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double sa[3] = {5, 3, 1}, sb[2] = {4, 3};
    uint32_t ia[3] = {1, 2, 3}, ib[2] = {10, 11};
    value p[3] = {value_tensor(pairs(3, sa, ia)), value_tensor(pairs(2, sb, ib)), value_none()};
    tensor *t = run_ok(IR_OP_TILE_MRGSORT_FORMAT2, p, 3, NULL, NULL, 0);
    double es[5] = {5, 4, 3, 3, 1};
    uint32_t ei[5] = {1, 10, 2, 11, 3};
    expect_shape2(t, 1, 10);
    expect_pairs(t, 5, es, ei);
    tensor_unref(t);
    exec_kw kw = EXEC_KW_EXHAUSTED;
    value yes = value_bool(1);
    value q[2] = {value_tensor(pairs(3, sa, ia)), value_tensor(pairs(2, sb, ib))};
    t = run_ok(IR_OP_TENSOR_MRGSORT_FORMAT2, q, 2, &kw, &yes, 1);
    expect_pairs(t, 4, es, ei);
    ck_assert_double_eq(tensor_get_flat(t, 8), 0); /* stopped when list b ran out */
    tensor_unref(t);
    /* format 1: four runs of 2 structs (block_len 4 fp32 elements), then
     * two structs past the group */
    double s1[10] = {9, 1, 8, 7, 9, 2, 0, -1, 6, 5};
    uint32_t i1[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    value r[2] = {value_tensor(pairs(10, s1, i1)), value_int(4)};
    t = run_ok(IR_OP_TILE_MRGSORT_FORMAT1, r, 2, NULL, NULL, 0);
    double e1[10] = {9, 9, 8, 7, 2, 1, 0, -1, 0, 0};
    uint32_t f1[10] = {0, 4, 2, 3, 5, 1, 6, 7, 0, 0};
    expect_pairs(t, 10, e1, f1);
    tensor_unref(t);
    value bad[2] = {value_tensor(pairs(10, s1, i1)), value_int(3)};
    value out;
    ck_assert_int_ne(run_op(&C, IR_OP_TENSOR_MRGSORT_FORMAT1, bad, 2, &out), PTODB_OK);
    clear_all(bad, 2);
    double two[2] = {1, 2};
    value b2[2] = {value_tensor(mk2(DTYPE_INT32, 1, 2, two)), value_tensor(pairs(2, sb, ib))};
    ck_assert_int_ne(run_op(&C, IR_OP_TENSOR_MRGSORT_FORMAT2, b2, 2, &out), PTODB_OK);
    clear_all(b2, 2);
}
END_TEST

/* create_l1 (zeros), expand_clone (expand_as + clone), gather_row (a window
 * copied in place, valid_shape narrowing it; out-of-range windows and the
 * transposed load are errors). */
START_TEST(test_create_l1_expand_gather_row)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    exec_kw dk = EXEC_KW_DTYPE;
    value bf = value_enum(IR_EV_DTYPE_BF16);
    value p[1] = {tup2(2, 3)};
    tensor *t = run_ok(IR_OP_TENSOR_CREATE_L1, p, 1, &dk, &bf, 1);
    double z[6] = {0};
    ck_assert_int_eq(t->dtype, DTYPE_BF16);
    expect_shape2(t, 2, 3);
    expect_vals(t, z, 6);
    tensor_unref(t);
    double c[3] = {1, -0.0, NAN};
    value q[2] = {value_tensor(mk2(DTYPE_FP32, 1, 3, c)), value_tensor(mk2(DTYPE_INT32, 2, 3, NULL))};
    t = run_ok(IR_OP_TENSOR_EXPAND_CLONE, q, 2, NULL, NULL, 0);
    double ec[6] = {1, -0.0, NAN, 1, -0.0, NAN};
    ck_assert_int_eq(t->dtype, DTYPE_FP32);
    expect_vals(t, ec, 6);
    ck_assert(signbit(tensor_get_flat(t, 4)));
    tensor_unref(t);
    value bad[2] = {value_tensor(mk2(DTYPE_FP32, 1, 3, c)), value_tensor(mk2(DTYPE_FP32, 2, 2, NULL))};
    value out;
    ck_assert_int_ne(run_op(&C, IR_OP_TENSOR_EXPAND_CLONE, bad, 2, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "expanded size"));
    clear_all(bad, 2);
    /* gather_row: src 3x4 = 0..11, window [1, 3] at src [2, 1] into acc [0, 2] */
    double sv[12];
    for (int k = 0; k < 12; k++)
        sv[k] = k;
    tensor *acc = mk2(DTYPE_FP32, 2, 5, NULL);
    value g[5] = {value_tensor(tensor_ref(acc)), value_tensor(mk2(DTYPE_FP32, 3, 4, sv)), tup2(0, 2),
                  tup2(2, 1), tup2(1, 3)};
    t = run_ok(IR_OP_TENSOR_GATHER_ROW, g, 5, NULL, NULL, 0);
    double eg[10] = {0, 0, 9, 10, 11, 0, 0, 0, 0, 0};
    ck_assert_ptr_eq(t, acc);
    expect_vals(acc, eg, 10);
    tensor_unref(t);
    /* valid_shape [1, 1] narrows the window */
    exec_kw vk = EXEC_KW_VALID_SHAPE;
    value vsh = tup2(1, 1);
    value h[5] = {value_tensor(tensor_ref(acc)), value_tensor(mk2(DTYPE_FP32, 3, 4, sv)), tup2(1, 0),
                  tup2(0, 3), tup2(1, 3)};
    t = run_ok(IR_OP_TILE_GATHER_ROW, h, 5, &vk, &vsh, 1);
    double eh[10] = {0, 0, 9, 10, 11, 3, 0, 0, 0, 0};
    expect_vals(acc, eh, 10);
    tensor_unref(t);
    value_clear(&vsh);
    value o[5] = {value_tensor(tensor_ref(acc)), value_tensor(mk2(DTYPE_FP32, 3, 4, sv)), tup2(0, 3),
                  tup2(0, 0), tup2(1, 3)};
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_GATHER_ROW, o, 5, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "outside"));
    clear_all(o, 5);
    tensor_unref(acc);
}
END_TEST

/* Infinities and subnormals in the ops ptodb defines by hand or from the
 * ISA (the other edge classes are in the tests above: NaN, -0.0, odd and
 * valid shapes, wrap). Each expected value by hand:
 * - argmax/argmin (strict compare from index 0): row [inf, 1, inf, nan]
 *   -> argmax 0 (the later inf is not greater, NaN never wins), argmin 1;
 *   row [2^-149, 0, -2^-149, 2^-148] -> argmax 3, argmin 2 (subnormals
 *   order as numbers); row [-inf, -0.0, -inf, 0.0] -> argmax 1 (0.0 is not
 *   greater than -0.0), argmin 0.
 * - col_expand_add (torch's +): inf + -inf = NaN, -inf + -inf = -inf,
 *   2^-149 + 2^-149 = 2^-148 exactly (a subnormal sum, no flush to zero).
 * - sort32 (descending, ties by the smaller index): values [-inf, inf,
 *   2^-149, -0.0, 0.0] with indices 0..4 -> inf/1, 2^-149/2, -0.0/3 (equal
 *   to 0.0, smaller index first, its sign bit kept), 0.0/4, -inf/0.
 * - sin/cos, class A (double, rounded once): for a subnormal x, sin x =
 *   x - x^3/6 + ... rounds to x and cos x to 1, in fp32 (2^-149), bf16
 *   (2^-133) and fp16 (2^-24, the t13 profile). */
START_TEST(test_infinities_subnormals)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double x[12] = {INFINITY, 1, INFINITY, NAN, 0x1p-149, 0, -0x1p-149, 0x1p-148,
                    -INFINITY, -0.0, -INFINITY, 0.0};
    tensor *t = mk2(DTYPE_FP32, 3, 4, x);
    double amax[3] = {0, 3, 1}, amin[3] = {1, 2, 0};
    expect_arg(IR_OP_TILE_ROW_ARGMAX, t, 2, 3, 1, amax);
    expect_arg(IR_OP_TENSOR_ROW_ARGMIN, t, 1, 3, 1, amin);
    tensor_unref(t);

    double a[3] = {INFINITY, -INFINITY, 0x1p-149}, c[3] = {-INFINITY, -INFINITY, 0x1p-149};
    double e[3] = {NAN, -INFINITY, 0x1p-148};
    value p[2] = {value_tensor(mk2(DTYPE_FP32, 1, 3, a)), value_tensor(mk2(DTYPE_FP32, 1, 3, c))};
    t = run_ok(IR_OP_TILE_COL_EXPAND_ADD, p, 2, NULL, NULL, 0);
    expect_vals(t, e, 3);
    tensor_unref(t);

    double v[5] = {-INFINITY, INFINITY, 0x1p-149, -0.0, 0.0}, ix[5] = {0, 1, 2, 3, 4};
    value q[2] = {value_tensor(mk2(DTYPE_FP32, 1, 5, v)), value_tensor(mk2(DTYPE_INT32, 1, 5, ix))};
    t = run_ok(IR_OP_TILE_SORT32, q, 2, NULL, NULL, 0);
    static const double ev[5] = {INFINITY, 0x1p-149, -0.0, 0.0, -INFINITY};
    static const uint32_t ei[5] = {1, 2, 3, 4, 0};
    for (int k = 0; k < 5; k++) {
        double got = tensor_get_flat(t, 2 * k);
        ck_assert_msg(got == ev[k] && signbit(got) == signbit(ev[k]), "sort32 value %d: %g", k,
                      got);
        ck_assert_uint_eq(bits_at(t, 2 * k + 1), ei[k]);
    }
    tensor_unref(t);

    static const struct { dtype_id dt; double tiny; exec_profile_id prof; } sub[] = {
        {DTYPE_FP32, 0x1p-149, EXEC_PROFILE_T2}, {DTYPE_BF16, 0x1p-133, EXEC_PROFILE_T2},
        {DTYPE_FP16, 0x1p-24, EXEC_PROFILE_T13}};
    for (int k = 0; k < 3; k++) {
        ctx_init(&C, sub[k].prof);
        double in[2] = {sub[k].tiny, -sub[k].tiny}, es[2] = {sub[k].tiny, -sub[k].tiny},
               ec[2] = {1, 1};
        value s1[1] = {value_tensor(mk1(sub[k].dt, 2, in))};
        t = run_ok(IR_OP_TILE_SIN, s1, 1, NULL, NULL, 0);
        expect_vals(t, es, 2);
        tensor_unref(t);
        value c1[1] = {value_tensor(mk1(sub[k].dt, 2, in))};
        t = run_ok(IR_OP_TENSOR_COS, c1, 1, NULL, NULL, 0);
        expect_vals(t, ec, 2);
        tensor_unref(t);
    }
}
END_TEST

static Suite *isa_suite(void)
{
    Suite *s = suite_create("ops_isa");
    TCase *tc = tcase_create("isa");
    tcase_add_test(tc, test_arg_reductions);
    tcase_add_test(tc, test_ci);
    tcase_add_test(tc, test_maximums_scalar_variable);
    tcase_add_test(tc, test_tri);
    tcase_add_test(tc, test_set_validshape);
    tcase_add_test(tc, test_block_num_and_col_expand_add);
    tcase_add_test(tc, test_maximums_by_definition);
    tcase_add_test(tc, test_fillpad_expand_inplace);
    tcase_add_test(tc, test_gather_scatter);
    tcase_add_test(tc, test_sort32);
    tcase_add_test(tc, test_reinterpret_view);
    tcase_add_test(tc, test_tensor_gather_scatter);
    tcase_add_test(tc, test_gather_mask);
    tcase_add_test(tc, test_cmp_lane_syncall);
    tcase_add_test(tc, test_mrgsort);
    tcase_add_test(tc, test_create_l1_expand_gather_row);
    tcase_add_test(tc, test_infinities_subnormals);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return run_suite(isa_suite());
}

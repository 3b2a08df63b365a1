/* Unit tests for ops_memory.c: create/full range checks, tile.load's five
 * steps (zero padding, valid clipping, zeroing outside the valid box,
 * attrs), tile.store (valid region, atomic add, dtype conversion, clipped
 * slices, REF's errors, aliasing), move, read (0-d views), write, dim,
 * get_block_idx and alloc. Expectations worked out by hand from
 * semantics.md §3.7. */
#include <stdlib.h>

#include "check_ops_util.h"
#include "exec/semantics.h"
#include "kernels/kernel_util.h"

static exec_ctx C;

/* a [4, 6] float32 tensor holding 0..23 */
static tensor *iota46(void)
{
    double v[24];
    for (int k = 0; k < 24; k++)
        v[k] = k;
    return mk2(DTYPE_FP32, 4, 6, v);
}

static tensor *load(tensor *t, int64_t o0, int64_t o1, int64_t s0, int64_t s1, int64_t v0,
                    int64_t v1)
{
    value pos[4] = {value_tensor(tensor_ref(t)), tup2(o0, o1), tup2(s0, s1), tup2(v0, v1)};
    value out;
    ptodb_status st = run_op(&C, IR_OP_TILE_LOAD, pos, 4, &out);
    ck_assert_msg(st == PTODB_OK, "load failed: %s", C.msg);
    clear_all(pos, 4);
    return out.u.t;
}

START_TEST(test_create_full)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    value pos[2] = {tup2(2, 3), value_float(-1.7)}, out;
    ck_assert_int_eq(run_op1kw(&C, IR_OP_TENSOR_CREATE, pos, 1, EXEC_KW_DTYPE,
                               value_enum(IR_EV_DTYPE_BF16), &out),
                     PTODB_OK);
    ck_assert_int_eq(out.u.t->dtype, DTYPE_BF16);
    expect_shape2(out.u.t, 2, 3);
    value_clear(&out);
    /* dtype missing -> float32; UINT16 is stored as int32 */
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_CREATE, pos, 1, &out), PTODB_OK);
    ck_assert_int_eq(out.u.t->dtype, DTYPE_FP32);
    value_clear(&out);
    ck_assert_int_eq(run_op1kw(&C, IR_OP_TILE_FULL, pos, 2, EXEC_KW_DTYPE,
                               value_enum(IR_EV_DTYPE_UINT16), &out),
                     PTODB_OK);
    ck_assert_int_eq(out.u.t->dtype, DTYPE_INT32);
    double e[6] = {-1, -1, -1, -1, -1, -1};
    expect_vals(out.u.t, e, 6);
    value_clear(&out);
    value_clear(&pos[1]);
    /* full(shape, dtype=..., value=v) as printed: value as a keyword */
    exec_kw kws[2] = {EXEC_KW_DTYPE, EXEC_KW_VALUE};
    value kv[2] = {value_enum(IR_EV_DTYPE_UINT8), value_int(-1)};
    ck_assert_int_eq(run_op_kw(&C, IR_OP_TENSOR_FULL, pos, 1, kws, kv, 2, NULL, &out), PTODB_OK);
    double e2[6] = {255, 255, 255, 255, 255, 255};
    expect_vals(out.u.t, e2, 6);
    value_clear(&out);
    kv[1] = value_int(300);
    ck_assert_int_ne(run_op_kw(&C, IR_OP_TENSOR_FULL, pos, 1, kws, kv, 2, NULL, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "value cannot be converted to type uint8_t without overflow"));
    kv[0] = value_enum(IR_EV_DTYPE_FP16);
    kv[1] = value_float(65520.0);
    ck_assert_int_ne(run_op_kw(&C, IR_OP_TENSOR_FULL, pos, 1, kws, kv, 2, NULL, &out), PTODB_OK);
    kv[0] = value_enum(IR_EV_DTYPE_INT32);
    kv[1] = value_float(NAN);
    ck_assert_int_ne(run_op_kw(&C, IR_OP_TENSOR_FULL, pos, 1, kws, kv, 2, NULL, &out), PTODB_OK);
    /* a 0-d tensor value is accepted */
    kv[0] = value_enum(IR_EV_DTYPE_FP32);
    kv[1] = value_tensor(tensor_scalar(DTYPE_INT32, 7));
    ck_assert_int_eq(run_op_kw(&C, IR_OP_TILE_FULL, pos, 1, kws, kv, 2, NULL, &out), PTODB_OK);
    double e3[6] = {7, 7, 7, 7, 7, 7};
    expect_vals(out.u.t, e3, 6);
    value_clear(&out);
    value_clear(&kv[1]);
    /* a negative dim fails cleanly */
    value bad[1] = {tup2(-2, 3)};
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_CREATE, bad, 1, &out), PTODB_OK);
    value_clear(&bad[0]);
    value huge[1] = {tup2((int64_t)1 << 40, (int64_t)1 << 40)};
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_CREATE, huge, 1, &out), PTODB_OK);
    value_clear(&huge[0]);
    value_clear(&pos[0]);
}
END_TEST

START_TEST(test_load_inbounds)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *t = iota46();
    tensor *r = load(t, 1, 2, 2, 3, 2, 3);
    expect_shape2(r, 2, 3);
    ck_assert_ptr_ne(r->storage, t->storage); /* a clone */
    double e[6] = {8, 9, 10, 14, 15, 16};
    expect_vals(r, e, 6);
    ck_assert_int_eq(r->valid_ndim, 2);
    ck_assert_int_eq(r->valid[0], 2);
    ck_assert_int_eq(r->valid[1], 3);
    ck_assert_int_eq(r->full_ndim, 2);
    ck_assert_int_eq(r->full[1], 3);
    tensor_unref(r);
    /* valid smaller than the window: in-bounds data outside it becomes 0 */
    r = load(t, 0, 0, 2, 3, 1, 2);
    double e2[6] = {0, 1, 0, 0, 0, 0};
    expect_vals(r, e2, 6);
    ck_assert_int_eq(r->valid[0], 1);
    ck_assert_int_eq(r->valid[1], 2);
    tensor_unref(r);
    /* a negative offset wraps like a Python slice start (and so does the
     * stop o+s: -2:-1 is row 2, but -1:0 is empty, so that load is zeros) */
    r = load(t, -2, 0, 1, 2, 1, 2);
    double e3[2] = {12, 13};
    expect_vals(r, e3, 2);
    tensor_unref(r);
    r = load(t, -1, 0, 1, 2, 1, 2);
    double e4[2] = {0, 0};
    expect_vals(r, e4, 2);
    ck_assert_int_eq(r->valid[0], 0);
    tensor_unref(r);
    tensor_unref(t);
}
END_TEST

START_TEST(test_load_overhang)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *t = iota46();
    /* rows 3..4, cols 4..7: only [1, 2] in bounds; valid clipped to it */
    tensor *r = load(t, 3, 4, 2, 4, 2, 4);
    expect_shape2(r, 2, 4);
    double e[8] = {22, 23, 0, 0, 0, 0, 0, 0};
    expect_vals(r, e, 8);
    ck_assert_int_eq(r->valid[0], 1);
    ck_assert_int_eq(r->valid[1], 2);
    ck_assert_int_eq(r->full[0], 2);
    ck_assert_int_eq(r->full[1], 4);
    tensor_unref(r);
    /* a start past the end gives an empty window: all zeros, valid 0 */
    r = load(t, 9, 0, 2, 2, 2, 2);
    double z[4] = {0, 0, 0, 0};
    expect_vals(r, z, 4);
    ck_assert_int_eq(r->valid[0], 0);
    tensor_unref(r);
    /* a lower-rank window cannot be loaded: REF's "too many indices" */
    double v3[8] = {0};
    int64_t s3[3] = {2, 2, 2};
    tensor *t3 = mk(DTYPE_FP32, 3, s3, v3);
    value pos[4] = {value_tensor(t3), tup2(0, 0), tup2(2, 2), tup2(2, 2)}, out;
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_LOAD, pos, 4, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "too many indices"));
    clear_all(pos, 4);
    tensor_unref(t);
}
END_TEST

static ptodb_status store(tensor *tile, int64_t o0, int64_t o1, tensor *out_t, int atomic,
                          value *out)
{
    value pos[3] = {value_tensor(tensor_ref(tile)), tup2(o0, o1), value_tensor(tensor_ref(out_t))};
    ptodb_status st = run_op1kw(&C, IR_OP_TILE_STORE, pos, 3, EXEC_KW_ATOMIC,
                                atomic ? value_enum(IR_EV_ATOMIC_TYPE_ADD)
                                       : value_enum(IR_EV_ATOMIC_TYPE_NONE_),
                                out);
    clear_all(pos, 3);
    return st;
}

START_TEST(test_store_valid_region)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *src = iota46();
    tensor *dst = mk2(DTYPE_FP32, 4, 6, NULL);
    tensor *tile = load(src, 3, 4, 2, 4, 2, 4); /* valid [1, 2] */
    value out;
    ck_assert_int_eq(store(tile, 3, 4, dst, 0, &out), PTODB_OK);
    ck_assert_ptr_eq(out.u.t, dst); /* returns the destination object */
    ck_assert_int_eq(C.writes, 1);
    ck_assert_ptr_eq(C.last_write, dst);
    value_clear(&out);
    double e[24] = {0};
    e[22] = 22;
    e[23] = 23;
    expect_vals(dst, e, 24);
    /* after a compute op drops the attrs, the whole physical tile is
     * stored and overhangs the destination: REF's expanded-size error */
    value p1[2] = {value_tensor(tensor_ref(tile)), value_float(1.0)};
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_ADDS, p1, 2, &out), PTODB_OK);
    clear_all(p1, 2);
    tensor *plain = out.u.t;
    ck_assert_int_eq(plain->valid_ndim, -1);
    ck_assert_int_ne(store(plain, 3, 4, dst, 0, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "The expanded size of the tensor (2) must match the existing size (4) at non-singleton dimension 1"));
    /* in bounds, the padding values are written */
    ck_assert_int_eq(store(plain, 0, 0, dst, 0, &out), PTODB_OK);
    value_clear(&out);
    double row0[4] = {23, 24, 1, 1};
    for (int k = 0; k < 4; k++)
        ck_assert_double_eq(tensor_get_flat(dst, k), row0[k]);
    ck_assert_double_eq(tensor_get_flat(dst, 6), 1);
    tensor_unref(plain);
    tensor_unref(tile);
    tensor_unref(src);
    tensor_unref(dst);
}
END_TEST

START_TEST(test_store_atomic_and_convert)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    double tv[4] = {0.5, 1.5, 2.5, 3.5};
    tensor *tile = mk2(DTYPE_FP32, 2, 2, tv);
    double dv[6] = {1, 1, 1, 1, 1, 1};
    tensor *dst = mk2(DTYPE_FP32, 2, 3, dv);
    value out;
    ck_assert_int_eq(store(tile, 0, 1, dst, 1, &out), PTODB_OK);
    value_clear(&out);
    double e[6] = {1, 1.5, 2.5, 1, 3.5, 4.5};
    expect_vals(dst, e, 6);
    tensor_unref(dst);
    /* bf16 out += f32 tile: f32 add, rounded to bf16 once */
    double bv[1] = {256};
    tensor *bdst = mk2(DTYPE_BF16, 1, 1, bv);
    double sv[1] = {1.5};
    tensor *small = mk2(DTYPE_FP32, 1, 1, sv);
    ck_assert_int_eq(store(small, 0, 0, bdst, 1, &out), PTODB_OK);
    value_clear(&out);
    double e2[1] = {258}; /* 257.5 -> bf16 258 */
    expect_vals(bdst, e2, 1);
    tensor_unref(bdst);
    /* int out += float tile cannot be cast back */
    tensor *idst = mk2(DTYPE_INT32, 2, 2, NULL);
    ck_assert_int_ne(store(tile, 0, 0, idst, 1, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "result type Float can't be cast to the desired output type Int"));
    /* a plain store of floats into ints truncates */
    ck_assert_int_eq(store(tile, 0, 0, idst, 0, &out), PTODB_OK);
    value_clear(&out);
    double e3[4] = {0, 1, 2, 3};
    expect_vals(idst, e3, 4);
    tensor_unref(idst);
    tensor_unref(tile);
    tensor_unref(small);
    /* a same-dtype store copies bytes: a NaN payload survives as in copy_ */
    tensor *nt = mk2(DTYPE_BF16, 1, 1, NULL), *nd = mk2(DTYPE_BF16, 1, 1, NULL);
    uint16_t pat = 0x7FC1, got;
    memcpy(nt->storage->data, &pat, 2);
    ck_assert_int_eq(store(nt, 0, 0, nd, 0, &out), PTODB_OK);
    value_clear(&out);
    memcpy(&got, nd->storage->data, 2);
    ck_assert_uint_eq(got, 0x7FC1);
    tensor_unref(nt);
    tensor_unref(nd);
}
END_TEST

START_TEST(test_store_through_alias)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *base = mk2(DTYPE_FP32, 4, 4, NULL);
    /* a view (slice) of the output, as a kernel argument */
    value sp[3] = {value_tensor(tensor_ref(base)), tup2(2, 2), tup2(2, 2)}, sl;
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_SLICE, sp, 3, &sl), PTODB_OK);
    clear_all(sp, 3);
    double tv[4] = {1, 2, 3, 4};
    tensor *tile = mk2(DTYPE_FP32, 2, 2, tv);
    value out;
    ck_assert_int_eq(store(tile, 0, 0, sl.u.t, 0, &out), PTODB_OK);
    value_clear(&out);
    ck_assert_double_eq(tensor_get_flat(base, 10), 1);
    ck_assert_double_eq(tensor_get_flat(base, 15), 4);
    ck_assert_double_eq(tensor_get_flat(base, 0), 0);
    value_clear(&sl);
    tensor_unref(tile);
    tensor_unref(base);
}
END_TEST

START_TEST(test_move_read_write_dim)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *t = iota46();
    value v = value_tensor(t), out;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_MOVE, &v, 1, &out), PTODB_OK);
    /* a tile of its own over the same bytes: its placement is not the
     * source's (docs/memory.md, tile.move) */
    ck_assert_ptr_ne(out.u.t, t);
    ck_assert_ptr_eq(out.u.t->storage, t->storage);
    ck_assert_int_eq(out.u.t->ndim, t->ndim);
    ck_assert_double_eq(tensor_get_flat(out.u.t, 5), tensor_get_flat(t, 5));
    value_clear(&out);
    /* read: a 0-d view that sees later writes */
    value rp[2] = {value_copy(&v), tup2(1, -1)}, rd;
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_READ, rp, 2, &rd), PTODB_OK);
    ck_assert_int_eq(rd.u.t->ndim, 0);
    ck_assert_ptr_eq(rd.u.t->storage, t->storage);
    ck_assert_double_eq(tensor_get(rd.u.t, NULL), 11);
    value wp[3] = {value_copy(&v), tup2(1, 5), value_float(-2.5)};
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_WRITE, wp, 3, &out), PTODB_OK);
    ck_assert_ptr_eq(out.u.t, t);
    ck_assert_int_eq(C.writes, 1);
    value_clear(&out);
    ck_assert_double_eq(tensor_get(rd.u.t, NULL), -2.5);
    value_clear(&rd);
    clear_all(wp, 3);
    /* out of range read: IndexError */
    value_clear(&rp[1]);
    rp[1] = tup2(4, 0);
    ck_assert_int_ne(run_op(&C, IR_OP_TENSOR_READ, rp, 2, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "index 4 is out of bounds for dimension 0 with size 4"));
    clear_all(rp, 2);
    /* write overflow into an int tensor */
    value ip[3] = {value_tensor(mk2(DTYPE_INT8, 2, 2, NULL)), tup2(0, 0), value_int(200)};
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_WRITE, ip, 3, &out), PTODB_OK);
    clear_all(ip, 3);
    /* dim with a negative axis */
    value dp[2] = {value_copy(&v), value_int(-1)};
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_DIM, dp, 2, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_INT);
    ck_assert_int_eq(out.u.i, 6);
    value_clear(&dp[1]);
    dp[1] = value_int(2);
    ck_assert_int_ne(run_op(&C, IR_OP_TENSOR_DIM, dp, 2, &out), PTODB_OK);
    clear_all(dp, 2);
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_GET_BLOCK_IDX, NULL, 0, &out), PTODB_OK);
    ck_assert_int_eq(out.kind, VAL_INT);
    ck_assert_int_eq(out.u.i, 0);
    value ap[2] = {value_enum(IR_EV_MEM_VEC), value_int(128)};
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_ALLOC, ap, 2, &out), PTODB_OK);
    ck_assert_int_eq(out.u.t->dtype, DTYPE_FP32);
    value_clear(&out);
    /* tensor.alloc(pl.Mem.DDR, size): tile.alloc's placeholder for DDR (0),
     * an empty float32 tensor whatever the size; a negative space integer is
     * torch.zeros' error */
    value ddr[2] = {value_enum(IR_EV_MEM_DDR), value_int(4096)};
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_ALLOC, ddr, 2, &out), PTODB_OK);
    ck_assert(out.kind == VAL_TENSOR && out.u.t->dtype == DTYPE_FP32 && out.u.t->ndim == 1);
    ck_assert_int_eq(out.u.t->shape[0], 0);
    value_clear(&out);
    value np_[2] = {value_int(-1), value_int(16)};
    ck_assert_int_ne(run_op(&C, IR_OP_TENSOR_ALLOC, np_, 2, &out), PTODB_OK);
    ck_assert(strstr(C.msg, "negative dimension") != NULL);
    value_clear(&v);
}
END_TEST

START_TEST(test_hostile_args)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    tensor *t = iota46();
    value out;
    /* huge offsets and sizes: clipped slices, never out-of-storage access */
    value pos[4] = {value_tensor(tensor_ref(t)), tup2(INT64_MAX, INT64_MIN), tup2(2, 2), tup2(2, 2)};
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_LOAD, pos, 4, &out), PTODB_OK);
    value_clear(&out);
    clear_all(pos, 4);
    value p2[4] = {value_tensor(tensor_ref(t)), tup2(0, 0), tup2(INT64_MAX, 2), tup2(1, 1)};
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_LOAD, p2, 4, &out), PTODB_OK);
    clear_all(p2, 4);
    /* wrong argument kinds */
    value p3[3] = {value_int(1), value_int(2), value_none()};
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_STORE, p3, 3, &out), PTODB_OK);
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_LOAD, p3, 3, &out), PTODB_OK);
    clear_all(p3, 3);
    tensor_unref(t);
}
END_TEST

/* a contiguous float32 tensor of shape sh holding 0, 1, 2, ... */
static tensor *iota(int nd, const int64_t *sh)
{
    int64_t n = tensor_shape_numel(nd, sh);
    double *v = malloc((size_t)n * sizeof *v);
    for (int64_t k = 0; k < n; k++)
        v[k] = (double)k;
    tensor *t = mk(DTYPE_FP32, nd, sh, v);
    free(v);
    return t;
}

/* Device semantics, nd-partition (semantics.h): tile row r on the
 * partition's leading axes in row-major order at the tensor's strides
 * (pto-isa include/pto/cpu/tile_offsets.hpp:169-186), the partition the
 * shapes operand or [1, .., 1] + the source's shape. */
START_TEST(test_nd_partition)
{
    ctx_init(&C, EXEC_PROFILE_T2);
    C.device = 1;
    int64_t s68[2] = {6, 8}, s238[3] = {2, 3, 8}, o3[3] = {0, 0, 0};
    tensor *tile = iota(2, s68), *dst = mk(DTYPE_FP32, 3, s238, NULL);
    value out;
    /* a [6, 8] tile at [0, 0, 0] of [2, 3, 8]: partition [1, 6, 8], rows 3-5
     * walk into index 1 of axis 0: the whole tensor, 0..47 in order; REF's
     * dst[0:6, 0:8] = tile raises (6 against 2), noted */
    value p1[3] = {value_tensor(tensor_ref(tile)), tup(3, o3), value_tensor(tensor_ref(dst))};
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_STORE, p1, 3, &out), PTODB_OK);
    value_clear(&out);
    for (int k = 0; k < 48; k++)
        ck_assert_double_eq(tensor_get_flat(dst, k), k);
    ck_assert_int_eq(C.differs_id, EXEC_SEMDIFF_ND_PARTITION);
    ck_assert_ptr_nonnull(C.ref_note);
    /* under ref: REF's error */
    C.device = 0;
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_STORE, p1, 3, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "The expanded size of the tensor"));
    C.device = 1;
    clear_all(p1, 3);
    /* a [4, 8] tile at [1, 0, 0]: row 3 would be index 2 of axis 0 */
    int64_t s48[2] = {4, 8}, o100[3] = {1, 0, 0};
    tensor *t48 = iota(2, s48);
    value p2[3] = {value_tensor(tensor_ref(t48)), tup(3, o100), value_tensor(tensor_ref(dst))};
    ck_assert_int_ne(run_op(&C, IR_OP_TILE_STORE, p2, 3, &out), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(C.msg, "falls outside the tensor [2, 3, 8]"));
    clear_all(p2, 3);
    tensor_unref(t48);
    /* the shapes operand: a [2, 4] tile through [1, 1, 2, 4] at [1, 0, 1, 0]
     * of [2, 2, 3, 4] is out[1, 0, 1:3, :] */
    int64_t s2234[4] = {2, 2, 3, 4}, s24[2] = {2, 4}, o4[4] = {1, 0, 1, 0}, sh4[4] = {1, 1, 2, 4};
    tensor *d4 = mk(DTYPE_FP32, 4, s2234, NULL), *t24 = iota(2, s24);
    value p3[4] = {value_tensor(tensor_ref(t24)), tup(4, o4), value_tensor(tensor_ref(d4)), tup(4, sh4)};
    ck_assert_int_eq(run_op(&C, IR_OP_TILE_STORE, p3, 4, &out), PTODB_OK);
    value_clear(&out);
    clear_all(p3, 4);
    for (int k = 0; k < 48; k++) {
        int in = k >= 12 * 2 + 4 && k < 12 * 2 + 12; /* [1, 0, 1..2, :] */
        ck_assert_double_eq(tensor_get_flat(d4, k), in ? k - 28 : 0);
    }
    /* tensor.assemble of a [2, 4] source, valid [1, 4], at [1, 1, 0] of
     * [2, 2, 4]: only out[1, 1, :] = its row 0 */
    int64_t s224[3] = {2, 2, 4}, o110[3] = {1, 1, 0}, v14[2] = {1, 4};
    tensor *d3 = mk(DTYPE_FP32, 3, s224, NULL);
    kernel_set_valid_full(t24, 2, v14, 2, s24);
    value p4[3] = {value_tensor(tensor_ref(d3)), value_tensor(tensor_ref(t24)), tup(3, o110)};
    ck_assert_int_eq(run_op(&C, IR_OP_TENSOR_ASSEMBLE, p4, 3, &out), PTODB_OK);
    value_clear(&out);
    clear_all(p4, 3);
    for (int k = 0; k < 16; k++)
        ck_assert_double_eq(tensor_get_flat(d3, k), k >= 12 ? k - 12 : 0);
    /* FlattenTileNdTo2D's load: window [2, 3, 4] of a [2, 3, 4] tensor with
     * valid [2, 2, 4] into a 2-D [6, 4] tile: the valid box's rows packed,
     * (0,0) (0,1) (1,0) (1,1), then zeros; valid [4, 4] */
    int64_t s234[3] = {2, 3, 4}, v224[3] = {2, 2, 4};
    tensor *src = iota(3, s234);
    exec_type rt;
    memset(&rt, 0, sizeof rt);
    rt.kind = EXEC_TYPE_TILE;
    rt.ndim = 2;
    rt.dims[0] = 6;
    rt.dims[1] = 4;
    C.differs_id = -1;
    C.ref_note = NULL;
    value p5[4] = {value_tensor(tensor_ref(src)), tup(3, o3), tup(3, s234), tup(3, v224)};
    ck_assert_int_eq(run_op_kw(&C, IR_OP_TILE_LOAD, p5, 4, NULL, NULL, 0, &rt, &out), PTODB_OK);
    ck_assert_int_eq(out.u.t->ndim, 2);
    ck_assert_int_eq(out.u.t->shape[0], 6);
    ck_assert_int_eq(out.u.t->valid_ndim, 2);
    ck_assert_int_eq(out.u.t->valid[0], 4);
    ck_assert_int_eq(out.u.t->valid[1], 4);
    double e5[24] = {0};
    int rows[4] = {0, 1, 3, 4};
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            e5[r * 4 + c] = rows[r] * 4 + c;
    expect_vals(out.u.t, e5, 24);
    ck_assert_int_eq(C.differs_id, EXEC_SEMDIFF_ND_PARTITION);
    ck_assert_ptr_nonnull(C.ref_note);
    value_clear(&out);
    /* under ref: REF's _tile_load, the window's rank */
    C.device = 0;
    ck_assert_int_eq(run_op_kw(&C, IR_OP_TILE_LOAD, p5, 4, NULL, NULL, 0, &rt, &out), PTODB_OK);
    ck_assert_int_eq(out.u.t->ndim, 3);
    value_clear(&out);
    clear_all(p5, 4);
    tensor_unref(src);
    tensor_unref(d3);
    tensor_unref(d4);
    tensor_unref(t24);
    tensor_unref(tile);
    tensor_unref(dst);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_memory");
    TCase *tc = tcase_create("memory");
    tcase_add_test(tc, test_create_full);
    tcase_add_test(tc, test_load_inbounds);
    tcase_add_test(tc, test_load_overhang);
    tcase_add_test(tc, test_store_valid_region);
    tcase_add_test(tc, test_store_atomic_and_convert);
    tcase_add_test(tc, test_store_through_alias);
    tcase_add_test(tc, test_move_read_write_dim);
    tcase_add_test(tc, test_hostile_args);
    tcase_add_test(tc, test_nd_partition);
    suite_add_tcase(s, tc);
    return run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* tile.random / tensor.random: TRANDOM, the PTO ISA's counter-based random
 * generator, exactly as pto-isa's CPU simulator (include/pto/cpu/TRandom.hpp,
 * pto-isa 3186c381) computes it. REF has no handler; PyPTO's own tests check
 * only determinism, so the simulator is the one public bit-exact definition
 * (docs/ops.md). */
#include "exec/op_util.h"

#define RANDOM_LANES_PER_REPEAT 64u /* 256-byte repeat of 32-bit elements */
#define RANDOM_REPEATS 4u           /* kTrandomOnceRepeat */

/* IncrementCounter: a 128-bit little-endian add of v. */
static void counter_add(uint32_t c[4], uint32_t v)
{
    uint64_t carry = v;
    for (int i = 0; i < 4 && carry; i++) {
        carry += c[i];
        c[i] = (uint32_t)carry;
        carry >>= 32;
    }
}

/* RunRounds: the Philox-style rounds on one counter. */
static void run_rounds(uint32_t c[4], const uint32_t key_in[2], int rounds)
{
    uint32_t key[2] = {key_in[0], key_in[1]};
    for (int r = 0; r < rounds; r++) {
        uint64_t m0 = (uint64_t)c[0] * 0xD2511F53u, m1 = (uint64_t)c[2] * 0xCD9E8D57u;
        uint32_t n0 = (uint32_t)(m1 >> 32) ^ c[1] ^ key[0];
        uint32_t n1 = (uint32_t)m1;
        uint32_t n2 = (uint32_t)(m0 >> 32) ^ c[3] ^ key[1];
        uint32_t n3 = (uint32_t)m0;
        c[0] = n0;
        c[1] = n1;
        c[2] = n2;
        c[3] = n3;
        key[0] += 0x9E3779B9u;
        key[1] += 0xBB67AE85u;
    }
}

/* random(key0, key1, counter0..3, shape, valid_shape?, dtype=UINT32,
 * rounds=10). Per valid row, per 256-column loop, lane l (0..63) runs the
 * rounds on rowCounter + l and writes its 4 output words to columns
 * loop*256 + repeat*64 + l; rowCounter advances by cols/4 after each loop
 * (the simulator's RowStride / kTrandomOnceRepeat). Elements outside the
 * valid region stay 0 (the device leaves them unwritten). UINT32 results
 * are held as REF holds UINT32 (int64 storage, 0..2^32-1). */
static ptodb_status op_random(exec_ctx *ctx, const op_args *a, value *out)
{
    uint32_t seed[6];
    ptodb_status st = PTODB_OK;
    for (uint32_t k = 0; k < 6 && st == PTODB_OK; k++) {
        const value *v;
        int64_t i = 0;
        st = kernel_any_arg(ctx, a, k, &v);
        if (st == PTODB_OK)
            st = kernel_int(ctx, a, v, k < 2 ? "key" : "counter", &i);
        seed[k] = (uint32_t)i; /* INT32 words: the bits, as the device reads them */
    }
    const value *shv;
    int64_t shape[TENSOR_MAX_DIMS], valid[TENSOR_MAX_DIMS];
    int nd = 0, nv = 0;
    if (st == PTODB_OK)
        st = kernel_any_arg(ctx, a, 6, &shv);
    if (st == PTODB_OK)
        st = kernel_int_list(ctx, a, shv, "shape", shape, &nd);
    if (st == PTODB_OK && op_arg(a, 7) && op_arg(a, 7)->kind != VAL_NONE)
        st = kernel_int_list(ctx, a, op_arg(a, 7), "valid_shape", valid, &nv);
    if (st != PTODB_OK)
        return st;
    const value *dv = op_kw(a, EXEC_KW_DTYPE);
    int is_signed;
    if (!dv || dv->kind == VAL_NONE || (dv->kind == VAL_ENUM && dv->u.e == IR_EV_DTYPE_UINT32))
        is_signed = 0;
    else if (dv->kind == VAL_ENUM && dv->u.e == IR_EV_DTYPE_INT32)
        is_signed = 1;
    else
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: dtype must be INT32 or UINT32",
                         kernel_op_name(a));
    int64_t rounds = kernel_int_kw(a, EXEC_KW_ROUNDS, 10);
    if (rounds != 7 && rounds != 10)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: rounds must be 7 or 10, got %lld",
                         kernel_op_name(a), (long long)rounds);
    if (nd != 1 && nd != 2)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: shape must be 1-D or 2-D, got %d dims",
                         kernel_op_name(a), nd);
    if (nv && nv != nd)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: valid_shape must have the shape's %d dims",
                         kernel_op_name(a), nd);
    /* a 1-D shape is one row */
    int64_t rows = nd == 2 ? shape[0] : 1, cols = shape[nd - 1];
    int64_t vrows = nv == 2 ? valid[0] : rows, vcols = nv ? valid[nv - 1] : cols;
    if (vrows < 0 || vcols < 0 || vrows > rows || vcols > cols)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: valid_shape outside the shape",
                         kernel_op_name(a));
    tensor *r;
    st = kernel_zeros(ctx, is_signed ? DTYPE_INT32 : DTYPE_INT64, nd, shape, &r);
    if (st != PTODB_OK)
        return st;
    const uint32_t key[2] = {seed[0], seed[1]};
    uint32_t row_counter[4] = {seed[2], seed[3], seed[4], seed[5]};
    const uint32_t per_loop = RANDOM_REPEATS * RANDOM_LANES_PER_REPEAT;
    const uint32_t loops = (uint32_t)((vcols + per_loop - 1) / per_loop);
    const uint32_t row_stride_chunks = (uint32_t)(cols / RANDOM_REPEATS);
    for (int64_t row = 0; row < vrows; row++)
        for (uint32_t loop = 0; loop < loops; loop++) {
            for (uint32_t lane = 0; lane < RANDOM_LANES_PER_REPEAT; lane++) {
                uint32_t c[4] = {row_counter[0], row_counter[1], row_counter[2], row_counter[3]};
                counter_add(c, lane);
                run_rounds(c, key, (int)rounds);
                for (uint32_t rep = 0; rep < RANDOM_REPEATS; rep++) {
                    int64_t col = (int64_t)loop * per_loop + rep * RANDOM_LANES_PER_REPEAT + lane;
                    if (col >= vcols)
                        continue;
                    int64_t idx[2] = {nd == 2 ? row : col, col};
                    tensor_set_i64(r, idx, is_signed ? (int64_t)(int32_t)c[rep] : (int64_t)c[rep]);
                }
            }
            counter_add(row_counter, row_stride_chunks);
        }
    *out = value_tensor(r);
    return PTODB_OK;
}

void exec_ops_register_random(op_fn *table)
{
    table[IR_OP_TILE_RANDOM] = op_random;
    table[IR_OP_TENSOR_RANDOM] = op_random;
}

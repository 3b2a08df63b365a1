/* The MX (microscaling) matmul family of Ascend950: tile.matmul_mx,
 * matmul_mx_acc, matmul_mx_bias and the compiler's tile.tget_scale_addr.
 * REF has no handler; the definition is the PTO ISA's (docs/isa/TMATMUL_MX.md,
 * CPU simulator include/pto/cpu/TMatmul.hpp TMatmulMX) with the operand
 * contract and scale layouts of PyPTO's op docs and of its runtime test
 * tests/st/runtime/ops/test_matmul_mx.py. docs/ops.md records the judgement
 * calls. Kept apart from the dense matmul kernels (kernel_matmul*.c).
 *
 * Data operands reach ptodb as float32 tiles holding FP8E4M3FN values
 * exactly (REF's _DTYPE_MAP gives FP8 float32; case_bind widens float8 data
 * files exactly). Scale operands are FP8E8M0 tiles held the same way
 * (values 2^(code - 127), NaN for code 0xFF) or UINT8 tiles of raw codes
 * (PyPTO allows UINT8 scale loads; TMov reinterprets the bytes). */
#include <math.h>
#include <stdlib.h>

#include "base/mem.h"
#include "exec/op_util.h"

#define MX_GROUP 32        /* K elements sharing one scale */
#define MX_SCALE_BLOCK 16  /* rows (A) / columns (B) of one packed scale block */
#define MX_SCALE_C0 2      /* scale groups side by side in a packed block */

/* The E8M0 code of a scale element: a UINT8 tile holds codes, a float tile
 * holds the value. -1 when a float is not an E8M0 value (2^-127 .. 2^127
 * or NaN), which no FP8E8M0 tile can hold. */
static int e8m0_code(const tensor *t, int64_t flat)
{
    if (t->dtype == DTYPE_UINT8)
        return (int)tensor_get_i64(t, (int64_t[]){flat / t->shape[1], flat % t->shape[1]});
    double v = tensor_get(t, (int64_t[]){flat / t->shape[1], flat % t->shape[1]});
    if (isnan(v))
        return 0xFF;
    if (!(v > 0.0))
        return -1;
    int e;
    double m = frexp(v, &e); /* v = m * 2^e, m in [0.5, 1) */
    if (m != 0.5 || e - 1 < -127 || e - 1 > 127)
        return -1;
    return e - 1 + 127;
}

/* 2^(code - 127), NaN for 0xFF (OCP MX v1.0 §5.4.1, torch float8_e8m0fnu). */
static double e8m0_value(int code)
{
    return code == 0xFF ? NAN : ldexp(1.0, code - 127);
}

/* Where logical scale (r, g) of a [rows, groups] left scale sits in the
 * MX_A_ZZ pack: [rows/16, groups/2, 16, 2] row-major (PyPTO's _pack_a_scale,
 * pto-isa's convert_x1_scale_format). */
static int64_t zz_offset(int64_t r, int64_t g, int64_t groups)
{
    return (((r / MX_SCALE_BLOCK) * (groups / MX_SCALE_C0) + g / MX_SCALE_C0) * MX_SCALE_BLOCK +
            r % MX_SCALE_BLOCK) * MX_SCALE_C0 + g % MX_SCALE_C0;
}

/* Where logical scale (g, n) of a [groups, cols] right scale sits in the
 * MX_B_NN pack: [cols/16, groups/2, 16, 2] row-major (_pack_b_scale). */
static int64_t nn_offset(int64_t g, int64_t n, int64_t groups)
{
    return (((n / MX_SCALE_BLOCK) * (groups / MX_SCALE_C0) + g / MX_SCALE_C0) * MX_SCALE_BLOCK +
            n % MX_SCALE_BLOCK) * MX_SCALE_C0 + g % MX_SCALE_C0;
}

/* 1 when v is an FP8E4M3FN value (NaN included). */
static int is_e4m3fn(double v)
{
    if (isnan(v))
        return 1;
    return (double)dtype_round_fp8(DTYPE_FP8E4M3FN, (float)v) == v;
}

static ptodb_status need_2d(exec_ctx *ctx, const op_args *a, const tensor *t, const char *what)
{
    if (t->ndim != 2)
        return exec_fail(ctx, PTODB_ERR_SHAPE, "%s: %s must be a 2-D tile, got %d dims", kernel_op_name(a),
                         what, t->ndim);
    return PTODB_OK;
}

/* The scale tile's E8M0 codes in logical order: [rows, groups] for the
 * left (ZZ pack), [groups, cols] for the right (NN pack). */
static ptodb_status unpack_scales(exec_ctx *ctx, const op_args *a, const tensor *s, int left, int64_t outer,
                                  int64_t groups, int *codes)
{
    const char *what = left ? "lhs_scale" : "rhs_scale";
    ptodb_status st = need_2d(ctx, a, s, what);
    if (st != PTODB_OK)
        return st;
    if (s->dtype != DTYPE_UINT8 && s->dtype != DTYPE_FP32)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: %s must be FP8E8M0 (or UINT8 codes), got %s",
                         kernel_op_name(a), what, dtype_name(s->dtype));
    int64_t want0 = left ? outer : groups, want1 = left ? groups : outer;
    if (s->shape[0] != want0 || s->shape[1] != want1)
        return exec_fail(ctx, PTODB_ERR_SHAPE, "%s: %s is [%lld, %lld]; the operands need [%lld, %lld]",
                         kernel_op_name(a), what, (long long)s->shape[0], (long long)s->shape[1],
                         (long long)want0, (long long)want1);
    if (outer % MX_SCALE_BLOCK != 0 || groups % MX_SCALE_C0 != 0)
        return exec_fail(ctx, PTODB_ERR_SHAPE,
                         "%s: %s [%lld, %lld] is not whole %s packs of %d x %d (%s needs %s %% 16 == 0 and "
                         "K/32 even)",
                         kernel_op_name(a), what, (long long)s->shape[0], (long long)s->shape[1],
                         left ? "MX_A_ZZ" : "MX_B_NN", MX_SCALE_BLOCK, MX_SCALE_C0, what, left ? "M" : "N");
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t g = 0; g < groups; g++) {
            int64_t at = left ? zz_offset(o, g, groups) : nn_offset(g, o, groups);
            int c = e8m0_code(s, at);
            if (c < 0)
                return exec_fail(ctx, PTODB_ERR_RUNTIME,
                                 "%s: %s element [%lld, %lld] is %g, not an FP8E8M0 value (2^-127 .. 2^127 "
                                 "or NaN)",
                                 kernel_op_name(a), what, (long long)(at / s->shape[1]),
                                 (long long)(at % s->shape[1]),
                                 tensor_get(s, (int64_t[]){at / s->shape[1], at % s->shape[1]}));
            codes[left ? o * groups + g : g * outer + o] = c;
        }
    }
    return PTODB_OK;
}

static ptodb_status check_data(exec_ctx *ctx, const op_args *a, const tensor *t, const char *what, int64_t rows,
                               int64_t cols)
{
    if (t->dtype != DTYPE_FP32)
        return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: %s must be FP8E4M3FN, got %s", kernel_op_name(a), what,
                         dtype_name(t->dtype));
    for (int64_t r = 0; r < rows; r++) {
        for (int64_t c = 0; c < cols; c++) {
            double v = tensor_get(t, (int64_t[]){r, c});
            if (!is_e4m3fn(v))
                return exec_fail(ctx, PTODB_ERR_RUNTIME,
                                 "%s: %s element [%lld, %lld] is %.9g, not an FP8E4M3FN value (ptodb holds FP8 "
                                 "tiles as float32, as REF does, and does not guess the device's rounding)",
                                 kernel_op_name(a), what, (long long)r, (long long)c, v);
        }
    }
    return PTODB_OK;
}

/* tile.matmul_mx(lhs, lhs_scale, rhs, rhs_scale)
 * tile.matmul_mx_acc(acc, lhs, lhs_scale, rhs, rhs_scale)
 * tile.matmul_mx_bias(lhs, lhs_scale, rhs, rhs_scale, bias)
 * TMatmulMX over the valid region (M, K from lhs, N from rhs): for each
 * (i, j), k ascending, acc_f32 = (float)(acc_f32 + a[i,k] * b[k,j] *
 * (s0[i, k/32] * s1[k/32, j])) with the product in double, then + acc
 * (float) or + bias[0, j] (float). */
static ptodb_status op_matmul_mx(exec_ctx *ctx, const op_args *a, value *out)
{
    int acc = a->op == IR_OP_TILE_MATMUL_MX_ACC, bias = a->op == IR_OP_TILE_MATMUL_MX_BIAS;
    uint32_t base = acc ? 1 : 0;
    tensor *L, *Ls, *R, *Rs, *extra = NULL;
    ptodb_status st = kernel_tensor_arg(ctx, a, base, &L);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, base + 1, &Ls);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, base + 2, &R);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, base + 3, &Rs);
    if (st == PTODB_OK && (acc || bias))
        st = kernel_tensor_arg(ctx, a, acc ? 0 : 4, &extra);
    if (st == PTODB_OK)
        st = need_2d(ctx, a, L, "lhs");
    if (st == PTODB_OK)
        st = need_2d(ctx, a, R, "rhs");
    if (st != PTODB_OK)
        return st;
    if (L->shape[1] != R->shape[0])
        return exec_fail(ctx, PTODB_ERR_SHAPE, "%s: lhs is [%lld, %lld] but rhs is [%lld, %lld] (K differs)",
                         kernel_op_name(a), (long long)L->shape[0], (long long)L->shape[1],
                         (long long)R->shape[0], (long long)R->shape[1]);
    int64_t Mp = L->shape[0], Kp = L->shape[1], Np = R->shape[1];
    int64_t groups = (Kp + MX_GROUP - 1) / MX_GROUP;
    int64_t M, K, N, rhs_rows;
    kernel_valid_2d(L, &M, &K);
    kernel_valid_2d(R, &rhs_rows, &N); /* the simulator takes K from lhs */
    (void)rhs_rows;
    if (extra) {
        st = need_2d(ctx, a, extra, acc ? "acc" : "bias");
        if (st != PTODB_OK)
            return st;
        if (extra->dtype != DTYPE_FP32)
            return exec_fail(ctx, PTODB_ERR_RUNTIME, "%s: %s must be FP32, got %s", kernel_op_name(a),
                             acc ? "acc" : "bias", dtype_name(extra->dtype));
        int64_t want0 = acc ? Mp : 1;
        if (extra->shape[0] != want0 || extra->shape[1] != Np)
            return exec_fail(ctx, PTODB_ERR_SHAPE, "%s: %s is [%lld, %lld]; it must be [%lld, %lld]",
                             kernel_op_name(a), acc ? "acc" : "bias", (long long)extra->shape[0],
                             (long long)extra->shape[1], (long long)want0, (long long)Np);
    }
    if ((st = check_data(ctx, a, L, "lhs", M, K)) != PTODB_OK ||
        (st = check_data(ctx, a, R, "rhs", K, N)) != PTODB_OK)
        return st;
    int *s0 = xcalloc((size_t)(Mp * groups) + 1, sizeof *s0);
    int *s1 = xcalloc((size_t)(groups * Np) + 1, sizeof *s1);
    st = unpack_scales(ctx, a, Ls, 1, Mp, groups, s0);
    if (st == PTODB_OK)
        st = unpack_scales(ctx, a, Rs, 0, Np, groups, s1);
    tensor *res = NULL;
    if (st == PTODB_OK)
        st = kernel_zeros(ctx, DTYPE_FP32, 2, (int64_t[]){Mp, Np}, &res);
    if (st != PTODB_OK) {
        free(s0);
        free(s1);
        return st;
    }
    /* dense copies: a row-major, b column by column, the scales as values */
    double *av = xmalloc((size_t)(Mp * Kp) * sizeof *av + 1);
    double *bv = xmalloc((size_t)(Kp * Np) * sizeof *bv + 1);
    double *sv0 = xmalloc((size_t)(Mp * groups) * sizeof *sv0 + 1);
    double *sv1 = xmalloc((size_t)(groups * Np) * sizeof *sv1 + 1);
    kernel_gather_f64(L, 2, L->shape, av);
    kernel_gather_f64(R, 2, R->shape, bv);
    for (int64_t k = 0; k < Mp * groups; k++)
        sv0[k] = e8m0_value(s0[k]);
    for (int64_t k = 0; k < groups * Np; k++)
        sv1[k] = e8m0_value(s1[k]);
    float *rv = (float *)tensor_data(res);
    for (int64_t i = 0; i < M; i++) {
        for (int64_t j = 0; j < N; j++) {
            float sum = 0.0f;
            for (int64_t k = 0; k < K; k++) {
                double scale = sv0[i * groups + k / MX_GROUP] * sv1[(k / MX_GROUP) * Np + j];
                double prod = av[i * Kp + k] * bv[k * Np + j] * scale;
                sum = (float)((double)sum + prod);
            }
            if (acc)
                sum = (float)tensor_get(extra, (int64_t[]){i, j}) + sum;
            else if (bias)
                sum = sum + (float)tensor_get(extra, (int64_t[]){0, j});
            rv[i * Np + j] = sum;
        }
    }
    free(av);
    free(bv);
    free(sv0);
    free(sv1);
    free(s0);
    free(s1);
    if (M != Mp || N != Np) {
        res->valid_ndim = 2;
        res->valid[0] = M;
        res->valid[1] = N;
    }
    *out = value_tensor(res);
    return PTODB_OK;
}

/* tile.tget_scale_addr(dst_scale, src): binds the scale buffer's address to
 * the data tile's (dst_addr = src_addr >> 4, in place on dst_scale). Values
 * are untouched; ptodb has no addresses, so it is dst_scale itself. */
static ptodb_status op_tget_scale_addr(exec_ctx *ctx, const op_args *a, value *out)
{
    tensor *dst, *src;
    ptodb_status st = kernel_tensor_arg(ctx, a, 0, &dst);
    if (st == PTODB_OK)
        st = kernel_tensor_arg(ctx, a, 1, &src);
    if (st != PTODB_OK)
        return st;
    *out = value_tensor(tensor_ref(dst));
    return PTODB_OK;
}

void exec_ops_register_matmul_mx(op_fn *table)
{
    table[IR_OP_TILE_MATMUL_MX] = op_matmul_mx;
    table[IR_OP_TILE_MATMUL_MX_ACC] = op_matmul_mx;
    table[IR_OP_TILE_MATMUL_MX_BIAS] = op_matmul_mx;
    table[IR_OP_TILE_TGET_SCALE_ADDR] = op_tget_scale_addr;
}

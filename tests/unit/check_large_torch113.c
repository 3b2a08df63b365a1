/* Production-size sums and bf16 matmuls under the t13 profile against REF itself: torch 1.13's
 * oneDNN results (tests/data/ops/torch113_large.h, written by
 * scripts/gen_torch113_large.py on Debian's python3-torch) for k from 96
 * to 8192, both oneDNN kernels (brgemm for dense operands, the jit gemm for
 * a sliced B) and their k blocking. The inputs cancel, so a bf16 output is
 * the rounding error of the summation order: bit for bit or the order is
 * wrong (docs/numerics-torch113.md). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check_ops_util.h"
#include "kernels/kernel_matmul.h"
#include "../data/ops/torch113_large.h"

static exec_ctx C;

/* the generator's lcg_f32 (exact float32 values) */
static void lcg_f32(double *out, int64_t n, uint64_t seed, double scale)
{
    uint64_t s = seed;
    for (int64_t i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        out[i] = (double)(int64_t)((s >> 40) - ((uint64_t)1 << 23)) / (double)(1 << 23) * scale;
    }
}

/* the generator's operands(): the second half of k cancels the first */
static void operands_mkn(int64_t m, int64_t k, int64_t n, int seed, double *a, double *b)
{
    int64_t h = k / 2;
    lcg_f32(a, m * k, (uint64_t)seed, 1.0);
    for (int64_t i = 0; i < m; i++)
        for (int64_t p = 0; p < k; p++) {
            a[i * k + p] = (float)a[i * k + p] * ldexpf(1.0f, (int)(p * 7 % 13) - 3);
        }
    for (int64_t i = 0; i < m; i++)
        for (int64_t p = h; p < 2 * h; p++)
            a[i * k + p] = -a[i * k + p - h];
    lcg_f32(b, k * n, (uint64_t)seed + 1, 1.0);
    for (int64_t p = h; p < 2 * h; p++)
        memcpy(b + p * n, b + (p - h) * n, (size_t)n * sizeof *b);
}

static void operands(const struct tmm_case *c, double *a, double *b)
{
    operands_mkn(c->m, c->k, c->n, c->seed, a, b);
}

static tensor *layout_b(const struct tmm_case *c, const double *b)
{
    int64_t k = c->k, n = c->n;
    if (c->layout == TMM_BSLICE) {
        double *w = calloc((size_t)(k * 2 * n), sizeof *w);
        for (int64_t p = 0; p < k; p++)
            memcpy(w + p * 2 * n + n, b + p * n, (size_t)n * sizeof *w);
        tensor *wide = mk2(DTYPE_BF16, k, 2 * n, w);
        free(w);
        tensor *v = tensor_slice(wide, 1, n, 2 * n, 1, NULL);
        tensor_unref(wide);
        return v;
    }
    tensor *t = mk2(DTYPE_BF16, k, n, b);
    if (c->layout == TMM_BCOL) {
        tensor *tv = tensor_transpose(t, 0, 1, NULL), *tc = tensor_clone(tv);
        tensor *col = tensor_transpose(tc, 0, 1, NULL);
        tensor_unref(tv);
        tensor_unref(tc);
        tensor_unref(t);
        return col;
    }
    return t;
}

START_TEST(test_onednn_order)
{
    ctx_init(&C, EXEC_PROFILE_T13);
    const struct tmm_case *c = &TMM_CASES[_i];
    double *a = malloc((size_t)(c->m * c->k) * sizeof *a);
    double *b = malloc((size_t)(c->k * c->n) * sizeof *b);
    operands(c, a, b);
    value pos[2] = {value_tensor(mk2(DTYPE_BF16, c->m, c->k, a)), value_tensor(layout_b(c, b))};
    value out;
    ck_assert_msg(run_op(&C, IR_OP_TENSOR_MATMUL, pos, 2, &out) == PTODB_OK, "%s", C.msg);
    const tensor *r = out.u.t;
    ck_assert_int_eq(r->dtype, DTYPE_BF16);
    ck_assert_int_eq(tensor_numel(r), c->m * c->n);
    const uint16_t *bits = tensor_data(r);
    for (int64_t e = 0; e < c->m * c->n; e++)
        ck_assert_msg(bits[e] == c->out[e],
                      "%dx%dx%d layout %d: element %lld: ptodb 0x%04x, torch 1.13 0x%04x", c->m,
                      c->k, c->n, c->layout, (long long)e, bits[e], c->out[e]);
    value_clear(&out);
    clear_all(pos, 2);
    free(a);
    free(b);
}
END_TEST

/* batched bf16 matmuls: bmm (a bf16 loop below k*m*n = 400, else brgemm),
 * a 3-D lhs with a 2-D rhs folded into one mm, a 2-D lhs with a 3-D rhs */
START_TEST(test_batched)
{
    ctx_init(&C, EXEC_PROFILE_T13);
    const struct tbmm_case *c = &TBMM_CASES[_i];
    int64_t bt = c->batch, m = c->m, k = c->k, n = c->n;
    double *a = malloc((size_t)(bt * m * k) * sizeof *a);
    double *b = malloc((size_t)(bt * k * n) * sizeof *b);
    for (int64_t i = 0; i < bt; i++)
        operands_mkn(m, k, n, c->seed + 10 * (int)i, a + i * m * k, b + i * k * n);
    int64_t as[3] = {bt, m, k}, bs[3] = {bt, k, n};
    tensor *ta = c->form == TBMM_LHS2D ? mk2(DTYPE_BF16, m, k, a) : mk(DTYPE_BF16, 3, as, a);
    tensor *tb;
    if (c->form == TBMM_FOLD) {
        tb = mk2(DTYPE_BF16, k, n, b);
    } else if (c->form == TBMM_FOLDSLICE) {
        double *w = calloc((size_t)(k * 2 * n), sizeof *w);
        for (int64_t p = 0; p < k; p++)
            memcpy(w + p * 2 * n + n, b + p * n, (size_t)n * sizeof *w);
        tensor *wide = mk2(DTYPE_BF16, k, 2 * n, w);
        free(w);
        tb = tensor_slice(wide, 1, n, 2 * n, 1, NULL);
        tensor_unref(wide);
    } else {
        tb = mk(DTYPE_BF16, 3, bs, b);
    }
    value pos[2] = {value_tensor(ta), value_tensor(tb)}, out;
    ck_assert_msg(run_op(&C, IR_OP_TENSOR_MATMUL, pos, 2, &out) == PTODB_OK, "%s", C.msg);
    int64_t no = bt * m * n;
    ck_assert_int_eq(tensor_numel(out.u.t), no);
    const uint16_t *bits = tensor_data(out.u.t);
    for (int64_t e = 0; e < no; e++)
        ck_assert_msg(bits[e] == c->out[e],
                      "batch %lld of %lldx%lldx%lld form %d: element %lld: ptodb 0x%04x, torch "
                      "1.13 0x%04x",
                      (long long)bt, (long long)m, (long long)k, (long long)n, c->form,
                      (long long)e, bits[e], c->out[e]);
    value_clear(&out);
    clear_all(pos, 2);
    free(a);
    free(b);
}
END_TEST

/* row and column sums at production lengths, fp32 (SumKernel's cascade)
 * and bf16 (float accumulation, one rounding) */
START_TEST(test_long_sums)
{
    ctx_init(&C, EXEC_PROFILE_T13);
    const struct tsum_case *c = &TSUM_CASES[_i];
    int64_t n = (int64_t)c->rows * c->cols;
    double *x = malloc((size_t)n * sizeof *x);
    lcg_f32(x, n, (uint64_t)c->seed, 1.0);
    for (int64_t e = 0; e < n; e++)
        x[e] = (float)x[e] * ldexpf(1.0f, (int)(e * 5 % 21) - 6);
    tensor *t = mk2(c->bf16 ? DTYPE_BF16 : DTYPE_FP32, c->rows, c->cols, x);
    value pos[1] = {value_tensor(t)}, out;
    int op = c->dim == -1 ? IR_OP_TILE_ROW_SUM : IR_OP_TILE_COL_SUM;
    ck_assert_msg(run_op(&C, op, pos, 1, &out) == PTODB_OK, "%s", C.msg);
    int64_t no = c->dim == -1 ? c->rows : c->cols;
    ck_assert_int_eq(tensor_numel(out.u.t), no);
    for (int64_t e = 0; e < no; e++) {
        float v = (float)tensor_get_flat(out.u.t, e), w;
        memcpy(&w, &c->out[e], sizeof w);
        ck_assert_msg(memcmp(&v, &w, sizeof v) == 0,
                      "%dx%d sum dim %d%s: element %lld: ptodb %.9g, torch 1.13 %.9g", c->rows,
                      c->cols, c->dim, c->bf16 ? " bf16" : "", (long long)e, v, w);
    }
    value_clear(&out);
    clear_all(pos, 1);
    free(x);
}
END_TEST

/* the k blocks the docs give for oneDNN's two kernels */
START_TEST(test_kblock)
{
    ck_assert_int_eq(kernel_onednn_bf16_kblock(128, 0), 128);
    ck_assert_int_eq(kernel_onednn_bf16_kblock(600, 0), 300);
    ck_assert_int_eq(kernel_onednn_bf16_kblock(1534, 0), 767);
    ck_assert_int_eq(kernel_onednn_bf16_kblock(386, 0), 193);
    ck_assert_int_eq(kernel_onednn_bf16_kblock(8192, 0), 768);
    ck_assert_int_eq(kernel_onednn_bf16_kblock(512, 1), 512);
    ck_assert_int_eq(kernel_onednn_bf16_kblock(1024, 1), 512);
    ck_assert_int_eq(kernel_onednn_bf16_kblock(1100, 1), 1024);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("matmul_torch113");
    TCase *tc = tcase_create("onednn");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_onednn_order, 0, (int)(sizeof TMM_CASES / sizeof TMM_CASES[0]));
    tcase_add_test(tc, test_kblock);
    tcase_add_loop_test(tc, test_batched, 0, (int)(sizeof TBMM_CASES / sizeof TBMM_CASES[0]));
    tcase_add_loop_test(tc, test_long_sums, 0, (int)(sizeof TSUM_CASES / sizeof TSUM_CASES[0]));
    suite_add_tcase(s, tc);
    return run_suite(s) ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Unit tests for the multi-rank case layout (src/data/ranks.c,
 * rank_bind.c): ranks.txt parsing with its errors at line:col, domain ranks,
 * and the host tensors stacked from the ranks' slices, by hand. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "data/case.h"
#include "data/rank_bind.h"
#include "data/ranks.h"

/* Our own ranks.txt in the layout of docs/multirank.md: three devices, two
 * overlapping domains (device 1 is rank 1 of d_a and rank 0 of d_b), prose
 * lines in between that must be skipped. */
static const char three[] = "ranks: 3\n"
                            "device_ids: 0 1 2   (prose in parentheses)\n"
                            "world_size: 3\n"
                            "domains: 2   (more prose)\n"
                            "  d_a (handle __d_a): workers=[0, 1] = devices [0, 1]; window buffers: sa (256 B), ga (4 B)\n"
                            "    device 0 -> rank 0 in d_a\n"
                            "    device 1 -> rank 1 in d_a\n"
                            "  d_b: devices [1, 2]; window buffers: sb (256 B), gb\n"
                            "    device 1 -> rank 0 in d_b\n"
                            "    device 2 -> rank 1 in d_b\n"
                            "  per device: device 0 in d_a; device 1 in d_a, d_b; device 2 in d_b\n";

START_TEST(test_ranks_parse)
{
    diag_sink sink;
    diag_sink_init(&sink, 0);
    case_ranks r;
    ck_assert_int_eq(case_ranks_parse("ranks.txt", three, strlen(three), &r, &sink), PTODB_OK);
    ck_assert_uint_eq(sink.errors, 0);
    ck_assert_int_eq(r.nranks, 3);
    ck_assert_int_eq(r.device_ids[2], 2);
    ck_assert_uint_eq(r.ndomains, 2);
    ck_assert_str_eq(r.domains[1].name, "d_b");
    ck_assert_int_eq(r.domains[1].line, 8);
    ck_assert_int_eq(case_domain_rank(&r.domains[0], 1), 1);
    ck_assert_int_eq(case_domain_rank(&r.domains[1], 1), 0);
    ck_assert_int_eq(case_domain_rank(&r.domains[1], 0), -1);
    ck_assert_uint_eq(r.domains[0].nbuffers, 2);
    ck_assert_int_eq(r.domains[0].buffers[0].bytes, 256);
    ck_assert_int_eq(r.domains[1].buffers[1].bytes, -1); /* "gb" without a size */
    ck_assert_ptr_eq(case_ranks_buffer_domain(&r, "gb__ssa_v0"), &r.domains[1]);
    ck_assert_ptr_eq(case_ranks_buffer_domain(&r, "sa"), &r.domains[0]);
    ck_assert_ptr_null(case_ranks_buffer_domain(&r, "nope"));
    case_ranks_free(&r);
    /* no device_ids: devices 0 .. P-1 */
    ck_assert_int_eq(case_ranks_parse("r", "ranks: 2\n", 9, &r, &sink), PTODB_OK);
    ck_assert_int_eq(r.device_ids[1], 1);
    ck_assert_uint_eq(r.ndomains, 0);
    case_ranks_free(&r);
    diag_sink_free(&sink);
}
END_TEST

/* Each malformed file gives one error at the place named. */
static void expect_error(const char *text, const char *want)
{
    diag_sink sink;
    diag_sink_init(&sink, 0);
    case_ranks r;
    ck_assert_int_eq(case_ranks_parse("ranks.txt", text, strlen(text), &r, &sink), PTODB_ERR_FORMAT);
    ck_assert_uint_ge(sink.errors, 1);
    char *m = diag_format(&sink.items[0]);
    ck_assert_msg(strstr(m, want) != NULL, "want '%s' in '%s'", want, m);
    free(m);
    case_ranks_free(&r);
    diag_sink_free(&sink);
}

START_TEST(test_ranks_errors)
{
    expect_error("domains: 0\n", "ranks.txt: error: no 'ranks: P' line");
    expect_error("ranks: 65\n", "ranks.txt:1:8: error: 'ranks:' needs a count from 1 to 64");
    expect_error("ranks: 0\n", "ranks.txt:1:8:");
    expect_error("ranks: 2\nranks: 2\n", "ranks.txt:2:1: error: 'ranks:' given twice");
    expect_error("ranks: 2\ndevice_ids: 0\n", "'device_ids:' lists 1 devices for ranks: 2");
    expect_error("ranks: 2\nworld_size: 3\n", "world_size: 3 differs from ranks: 2");
    /* col 18: the 'x' after "  d: devices [0, " */
    expect_error("ranks: 2\n  d: devices [0, x]\n", "ranks.txt:2:18: error: domain 'd': expected a device id");
    expect_error("ranks: 2\n  d: devices [0, 0]\n", "a device is listed twice");
    expect_error("ranks: 2\n  d: devices [0, 1]\n    device 1 -> rank 0 in d\n",
                 "ranks.txt:3:22: error: device 1 has rank 1 in 'd' by its devices list, not rank 0");
    expect_error("ranks: 2\n  d: devices [0]\n    device 1 -> rank 0 in d\n", "device 1 is not in the devices list of 'd'");
    expect_error("ranks: 2\n    device 1 -> rank 0 in e\n", "ranks.txt:2:27: error: no domain 'e' defined above this line");
    expect_error("ranks: 2\n  d: devices [0, 5]\n", "ranks.txt:2:3: error: domain 'd' lists device 5, which is not one of device_ids");
    expect_error("ranks: 2\ndomains: 1\n", "'domains: 1' but 0 domain lines found");
    expect_error("ranks: 2\n  d: devices [0]\n  d: devices [1]\n", "ranks.txt:3:3: error: domain 'd' is defined twice");
    static const char nul[] = "ranks: 2\n\0";
    diag_sink sink;
    diag_sink_init(&sink, 0);
    case_ranks r;
    ck_assert_int_eq(case_ranks_parse("ranks.txt", nul, sizeof nul - 1, &r, &sink), PTODB_ERR_FORMAT);
    case_ranks_free(&r);
    diag_sink_free(&sink);
}
END_TEST

/* Two ranks, slices x of [2, 3] with x[r][i][j] = 10r + 3i + j, and a golden
 * y only on rank 1. A host parameter declared [2, 2, 3] stacks them along
 * axis 0. One declared [2, 3, 2] takes axis 2: without axis 0 it would be
 * [3, 2], without axis 2 it is the slices' [2, 3]. */
START_TEST(test_rank_bind)
{
    diag_sink sink;
    diag_sink_init(&sink, 0);
    case_info c = {0};
    c.root = "case";
    c.ranks.nranks = 2;
    case_rank_data rd[2] = {{0}};
    case_tensor xs[2], ys[1];
    for (int r = 0; r < 2; r++) {
        xs[r] = (case_tensor){.name = "x", .path = "x.pt", .t = tensor_zeros(DTYPE_FP32, 2, (int64_t[]){2, 3}, NULL)};
        for (int64_t i = 0; i < 2; i++)
            for (int64_t j = 0; j < 3; j++)
                tensor_set(xs[r].t, (int64_t[]){i, j}, 10.0 * r + 3.0 * (double)i + (double)j);
        rd[r].inputs = &xs[r];
        rd[r].ninputs = 1;
    }
    ys[0] = (case_tensor){.name = "y", .path = "y.pt", .t = tensor_zeros(DTYPE_FP32, 2, (int64_t[]){2, 3}, NULL)};
    rd[1].outputs = ys;
    rd[1].noutputs = 1;
    c.rank_data = rd;
    case_param ps[4] = {
        {.name = "x__ssa_v0", .is_tensor = 1, .dtype = DTYPE_FP32, .ndim = 3, .shape = {2, 2, 3}, .dir = CASE_PARAM_IN},
        {.name = "x", .is_tensor = 1, .dtype = DTYPE_FP32, .ndim = 3, .shape = {2, 3, 2}, .dir = CASE_PARAM_IN},
        {.name = "y", .is_tensor = 1, .dtype = DTYPE_FP32, .ndim = -1, .dir = CASE_PARAM_OUT},
        {.name = "n", .is_tensor = 0, .ndim = -1, .dir = CASE_PARAM_IN},
    };
    case_rank_binding b[4];
    ck_assert_int_eq(case_bind_ranks(&c, ps, 4, b, &sink), PTODB_OK);
    ck_assert_uint_eq(sink.errors, 0);
    ck_assert_int_eq(b[0].axis, 0);
    ck_assert_int_eq(b[0].t->shape[0], 2);
    /* x[1][1][2] = 10 + 3 + 2 */
    ck_assert_int_eq((int)tensor_get(b[0].t, (int64_t[]){1, 1, 2}), 15);
    ck_assert_int_eq(b[1].axis, 2);
    /* axis 2: host[i][j][r] = slice r [i][j]; host[1][2][1] = 10 + 3 + 2 */
    ck_assert_int_eq((int)tensor_get(b[1].t, (int64_t[]){1, 2, 1}), 15);
    ck_assert(b[2].zeros);
    ck_assert_ptr_null(b[2].golden[0]);
    ck_assert_ptr_eq(b[2].golden[1], &ys[0]);
    ck_assert_int_eq(b[2].t->ndim, 3);
    ck_assert_ptr_null(b[3].t);
    tensor *s = case_rank_slice(&b[1], 1, NULL);
    ck_assert_int_eq(s->ndim, 2);
    ck_assert_int_eq((int)tensor_get(s, (int64_t[]){0, 1}), 11);
    tensor_set(s, (int64_t[]){0, 0}, -1); /* a view: writes reach the host tensor */
    ck_assert_int_eq((int)tensor_get(b[1].t, (int64_t[]){0, 0, 1}), -1);
    tensor_unref(s);
    ck_assert_ptr_null(case_rank_slice(&b[1], 2, NULL));
    case_rank_bindings_free(b, 4);
    /* a slice missing on one rank, and a key nowhere */
    rd[1].ninputs = 0;
    case_param q[2] = {
        {.name = "x", .is_tensor = 1, .dtype = DTYPE_FP32, .ndim = 3, .shape = {2, 2, 3}, .dir = CASE_PARAM_IN},
        {.name = "z", .is_tensor = 1, .dtype = DTYPE_FP32, .ndim = 3, .shape = {2, 2, 3}, .dir = CASE_PARAM_IN},
    };
    ck_assert_int_eq(case_bind_ranks(&c, q, 2, b, &sink), PTODB_ERR_RESOLVE);
    ck_assert_uint_eq(sink.errors, 2);
    char *m = diag_format(&sink.items[0]);
    ck_assert_msg(strstr(m, "host parameter 'x': rank 1 has no data/in/rank1/x.pt, rank 0 has one"), "%s", m);
    free(m);
    m = diag_format(&sink.items[1]);
    ck_assert_msg(strstr(m, "Cannot resolve tensor for host parameter 'z' in any data/in/rank<R>/. Available keys: "
                            "rank0: ['x'], rank1: []"),
                  "%s", m);
    free(m);
    case_rank_bindings_free(b, 2);
    for (int r = 0; r < 2; r++)
        tensor_unref(xs[r].t);
    tensor_unref(ys[0].t);
    diag_sink_free(&sink);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ranks");
    TCase *tc = tcase_create("layout");
    tcase_add_test(tc, test_ranks_parse);
    tcase_add_test(tc, test_ranks_errors);
    tcase_add_test(tc, test_rank_bind);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

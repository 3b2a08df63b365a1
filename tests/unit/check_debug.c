/* Unit tests for the debugger engine's pieces: tensor formatting and
 * subscripts, the text diff, command lookup, settings, user commands. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "debug/cmdtable.h"
#include "debug/state/session.h"
#include "tensor/tensor_fmt.h"
#include "debug/present/view.h"
#include "base/textdiff.h"

static tensor *arange(dtype_id dt, int ndim, const int64_t *shape)
{
    tensor *t = tensor_zeros(dt, ndim, shape, NULL);
    for (int64_t k = 0; k < tensor_numel(t); k++) {
        int64_t idx[TENSOR_MAX_DIMS], r = k;
        for (int d = ndim - 1; d >= 0; d--) {
            idx[d] = r % shape[d];
            r /= shape[d];
        }
        tensor_set(t, idx, (double)k);
    }
    return t;
}

START_TEST(test_grid_small)
{
    int64_t shape[2] = {2, 3};
    tensor *t = arange(DTYPE_INT32, 2, shape);
    strbuf sb = STRBUF_INIT;
    tensor_fmt_grid(t, 0, 3, &sb);
    ck_assert_str_eq(strbuf_str(&sb), "[[0, 1, 2],\n [3, 4, 5]]\n");
    strbuf_clear(&sb);
    tensor_fmt_header(t, &sb);
    ck_assert_str_eq(strbuf_str(&sb), "int32 [2, 3]");
    strbuf_free(&sb);
    tensor_unref(t);
}
END_TEST

START_TEST(test_grid_elided)
{
    int64_t shape[2] = {8, 10};
    tensor *t = arange(DTYPE_FP32, 2, shape);
    strbuf sb = STRBUF_INIT;
    tensor_fmt_grid(t, 20, 2, &sb);
    ck_assert_str_eq(strbuf_str(&sb), "[[ 0,  1, ...,  8,  9],\n"
                                      " [10, 11, ..., 18, 19],\n"
                                      " ...,\n"
                                      " [60, 61, ..., 68, 69],\n"
                                      " [70, 71, ..., 78, 79]]\n");
    strbuf_free(&sb);
    tensor_unref(t);
}
END_TEST

START_TEST(test_grid_special_values)
{
    int64_t shape[1] = {4};
    tensor *t = tensor_zeros(DTYPE_BF16, 1, shape, NULL);
    int64_t i = 0;
    tensor_set(t, &i, NAN);
    i = 1;
    tensor_set(t, &i, -INFINITY);
    i = 2;
    tensor_set(t, &i, 1.0 / 3.0); /* bf16(1/3) = 0.333984375 */
    strbuf sb = STRBUF_INIT;
    tensor_fmt_grid(t, 0, 3, &sb);
    ck_assert_str_eq(strbuf_str(&sb), "[     nan,     -inf, 0.333984,        0]\n");
    strbuf_clear(&sb);
    tensor_fmt_stats(t, &sb);
    ck_assert_str_eq(strbuf_str(&sb), "min 0 max 0.333984 mean 0.166992 nan 1 inf 1");
    strbuf_free(&sb);
    tensor_unref(t);
}
END_TEST

START_TEST(test_subscripts)
{
    int64_t shape[2] = {4, 5};
    tensor *t = arange(DTYPE_INT64, 2, shape);
    tensor *v = NULL;
    strbuf err = STRBUF_INIT, sb = STRBUF_INIT;

    ck_assert_int_eq(tensor_apply_subscript(t, "[1:3, -2:]", &v, &err), PTODB_OK);
    tensor_fmt_grid(v, 0, 3, &sb);
    ck_assert_str_eq(strbuf_str(&sb), "[[ 8,  9],\n [13, 14]]\n");
    tensor_unref(v);

    strbuf_clear(&sb);
    ck_assert_int_eq(tensor_apply_subscript(t, "[-1]", &v, &err), PTODB_OK);
    ck_assert_int_eq(v->ndim, 1);
    tensor_fmt_grid(v, 0, 3, &sb);
    ck_assert_str_eq(strbuf_str(&sb), "[15, 16, 17, 18, 19]\n");
    tensor_unref(v);

    strbuf_clear(&sb);
    ck_assert_int_eq(tensor_apply_subscript(t, "[::2, 4]", &v, &err), PTODB_OK);
    tensor_fmt_grid(v, 0, 3, &sb);
    ck_assert_str_eq(strbuf_str(&sb), "[ 4, 14]\n");
    tensor_unref(v);

    strbuf_clear(&sb);
    ck_assert_int_eq(tensor_apply_subscript(t, "[2, 3]", &v, &err), PTODB_OK);
    ck_assert_int_eq(v->ndim, 0);
    tensor_fmt_grid(v, 0, 3, &sb);
    ck_assert_str_eq(strbuf_str(&sb), "13\n");
    tensor_unref(v);

    ck_assert_int_eq(tensor_apply_subscript(t, "[4]", &v, &err), PTODB_ERR_BOUNDS);
    ck_assert_str_eq(strbuf_str(&err), "index 4 is out of bounds for dimension 0 with size 4");
    strbuf_clear(&err);
    ck_assert_int_eq(tensor_apply_subscript(t, "[0, 0, 0]", &v, &err), PTODB_ERR_BOUNDS);
    ck_assert_str_eq(strbuf_str(&err), "too many indices for tensor of dimension 2");
    strbuf_clear(&err);
    ck_assert_int_eq(tensor_apply_subscript(t, "[a]", &v, &err), PTODB_ERR_USAGE);
    strbuf_clear(&err);
    ck_assert_int_eq(tensor_apply_subscript(t, "[1:2", &v, &err), PTODB_ERR_USAGE);
    strbuf_clear(&err);
    ck_assert_int_eq(tensor_apply_subscript(t, "[::0]", &v, &err), PTODB_ERR_USAGE);
    ck_assert_str_eq(strbuf_str(&err), "slice step must be positive, got 0");
    strbuf_free(&err);
    strbuf_free(&sb);
    tensor_unref(t);
}
END_TEST

START_TEST(test_textdiff)
{
    strbuf sb = STRBUF_INIT;
    ck_assert_int_eq(textdiff_unified("a\nb\nc\n", "a\nb\nc\n", "x", "y", 3, &sb), 0);
    ck_assert_uint_eq(sb.len, 0);
    long n = textdiff_unified("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nFIVE\n6\n7\n8\n9\n", "a", "b", 1, &sb);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(strbuf_str(&sb), "--- a\n+++ b\n@@ -4,3 +4,3 @@\n 4\n-5\n+FIVE\n 6\n");
    strbuf_clear(&sb);
    n = textdiff_unified("", "x\n", "a", "b", 3, &sb);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(strbuf_str(&sb), "--- a\n+++ b\n@@ -0,0 +1,1 @@\n+x\n");
    strbuf_free(&sb);
}
END_TEST

START_TEST(test_command_lookup)
{
    ck_assert_int_eq(cmd_lookup("help", 4), CMD_HELP);
    ck_assert_int_eq(cmd_lookup("h", 1), CMD_HELP);   /* alias */
    ck_assert_int_eq(cmd_lookup("q", 1), CMD_QUIT);   /* alias */
    ck_assert_int_eq(cmd_lookup("sho", 3), CMD_SHOW); /* unique prefix */
    ck_assert_int_eq(cmd_lookup("s", 1), CMD_STEP);   /* alias wins over prefixes */
    ck_assert_int_eq(cmd_lookup("de", 2), -2);        /* define, delete, ... */
    ck_assert_int_eq(cmd_lookup("zzz", 3), -1);
}
END_TEST

typedef struct capture {
    strbuf out, err;
} capture;

static void capture_output(void *ctx, session_stream stream, const char *text, size_t len)
{
    capture *c = ctx;
    strbuf_append(stream == SESSION_ERR ? &c->err : &c->out, text, len);
}

START_TEST(test_session_define_and_settings)
{
    session *s = session_new();
    capture c = {STRBUF_INIT, STRBUF_INIT};
    session_set_output(s, capture_output, &c);
    ck_assert_int_eq(session_execute(s, "define hi"), PTODB_OK);
    ck_assert(session_collecting(s));
    session_execute(s, "echo hi $arg1 $arg0 $argc\\n");
    session_execute(s, "end");
    ck_assert(!session_collecting(s));
    ck_assert_int_eq(session_execute(s, "hi a b"), PTODB_OK);
    ck_assert_str_eq(strbuf_str(&c.out), "hi b a 2\n");
    ck_assert_int_eq(session_execute(s, "set rtol 0.001"), PTODB_OK);
    ck_assert(fabs(session_get_double(s, SETTING_RTOL) - 0.001) < 1e-15);
    ck_assert_int_eq(session_execute(s, "set rtol x"), PTODB_ERR_USAGE);
    ck_assert(fabs(session_get_double(s, SETTING_RTOL) - 0.001) < 1e-15);
    ck_assert_int_eq(session_execute(s, "nosuch"), PTODB_ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(strbuf_str(&c.err), "Undefined command: \"nosuch\""));
    /* A user command that calls itself stops at the depth limit, no crash. */
    session_execute(s, "define loop");
    session_execute(s, "loop");
    session_execute(s, "end");
    ck_assert_int_eq(session_execute(s, "loop"), PTODB_ERR_USAGE);
    ck_assert_ptr_nonnull(strstr(strbuf_str(&c.err), "max user-command depth"));
    ck_assert_int_eq(session_execute(s, "quit"), PTODB_OK);
    ck_assert(session_quit_requested(s));
    session_free(s);
    strbuf_free(&c.out);
    strbuf_free(&c.err);
}
END_TEST

static void ignore_output(void *ctx, session_stream stream, const char *text, size_t len)
{
    (void)ctx, (void)stream, (void)text, (void)len;
}

/* All completions of the last word of line, joined with spaces. */
static void completions(session *s, const char *line, strbuf *out)
{
    const char *word = strrchr(line, ' ');
    word = word ? word + 1 : line;
    int start = (int)(word - line);
    strbuf_clear(out);
    ck_assert_int_eq(session_completion_kind(s, line, start), COMPLETE_WORDS);
    for (int i = 0;; i++) {
        const char *c = session_complete_word(s, line, start, word, i);
        if (!c)
            break;
        strbuf_printf(out, "%s%s", i ? " " : "", c);
    }
}

START_TEST(test_completion)
{
    session *s = session_new();
    session_set_output(s, ignore_output, NULL);
    strbuf sb = STRBUF_INIT;
    completions(s, "inf", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "info");
    completions(s, "info l", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "locals");
    completions(s, "core a", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "aic aiv0 aiv1");
    completions(s, "show print", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "print elements print position");
    ck_assert_int_eq(session_completion_kind(s, "source ", 7), COMPLETE_FILES);
    ck_assert_int_eq(session_completion_kind(s, "kill ", 5), COMPLETE_NOTHING);
    ck_assert_int_eq(session_open(s, PTODB_TOP_SRCDIR "/examples/mlp-broken", -1, -1), PTODB_OK);
    completions(s, "pass Conv", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "ConvertToSSA ConvertTensorToTileOps");
    completions(s, "pass 2", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "22_after_ExpandMixedKernel");
    ck_assert_int_eq(session_execute(s, "pass 22"), PTODB_OK);
    completions(s, "break mlp_fused_a", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "mlp_fused_aic mlp_fused_aiv");
    completions(s, "print gol", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "golden.out");
    ck_assert_int_eq(session_execute(s, "start"), PTODB_OK);
    completions(s, "print out", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "out__ssa_v0");
    completions(s, "print w_", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "w_gate__ssa_v0 w_up__ssa_v0 w_down__ssa_v0 w_gate w_up w_down");
    completions(s, "rwatch out", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "out__ssa_v0");
    completions(s, "awatch out", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "out__ssa_v0");
    /* the value history ($, $$, $N) and convenience variables ($name), in
     * every command that takes an expression, p/FMT included */
    completions(s, "print $", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "");
    session_execute(s, "print 1");
    session_execute(s, "print 2");
    session_execute(s, "set $keep = 3");
    completions(s, "print $", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "$ $$ $1 $2 $keep");
    completions(s, "p/x $k", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "$keep");
    completions(s, "display $$", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "$$");
    completions(s, "output $2", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "$2");
    completions(s, "set $k", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "$keep");
    completions(s, "set var out", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "out__ssa_v0");
    completions(s, "set pri", &sb);
    ck_assert_str_eq(strbuf_str(&sb), "print elements print position");
    strbuf_free(&sb);
    session_free(s);
}
END_TEST

static int hook_calls;
static char hook_line[64];

static int record_hook(void *ctx, const char *line)
{
    (void)ctx;
    hook_calls++;
    snprintf(hook_line, sizeof hook_line, "%s", line);
    return 1;
}

START_TEST(test_front_end_command_hook)
{
    static const char *const names[] = {"layout", "zoom", NULL};
    session *s = session_new();
    capture c = {STRBUF_INIT, STRBUF_INIT};
    session_set_output(s, capture_output, &c);
    session_set_command_hook(s, record_hook, NULL, names);
    hook_calls = 0;
    ck_assert_int_eq(session_execute(s, "  layout queues"), PTODB_OK);
    ck_assert_int_eq(hook_calls, 1);
    ck_assert_str_eq(hook_line, "layout queues");
    /* only the names it declared go to the front end */
    ck_assert_int_eq(session_execute(s, "lay"), PTODB_ERR_USAGE);
    ck_assert_int_eq(session_execute(s, "nosuch"), PTODB_ERR_USAGE);
    ck_assert_int_eq(hook_calls, 1);
    /* user commands reach it too */
    session_execute(s, "define big");
    session_execute(s, "zoom");
    session_execute(s, "end");
    ck_assert_int_eq(session_execute(s, "big"), PTODB_OK);
    ck_assert_int_eq(hook_calls, 2);
    session_execute(s, "help");
    ck_assert_ptr_nonnull(strstr(strbuf_str(&c.out), "Commands of this front end: layout zoom"));
    ck_assert_str_eq(session_complete_command(s, "zo", 0), "zoom");
    session_free(s);
    strbuf_free(&c.out);
    strbuf_free(&c.err);
}
END_TEST

/* Stopped inside a pass, the heat grids are of the output at the stop:
 * against golden they count what `diff out golden` counts there, against
 * the previous pass they are of its output at the mapped point, with the
 * match's quality; no console line comes from the side run. */
/* examples/mlp-broken opened with its output captured, no background
 * validation, pass 22 (ExpandMixedKernel) selected. */
static session *open_mlp_broken_pass22(capture *c)
{
    session *s = session_new();
    session_set_output(s, capture_output, c);
    ck_assert_int_eq(session_open(s, PTODB_TOP_SRCDIR "/examples/mlp-broken", -1, -1), PTODB_OK);
    session_execute(s, "set auto-validate off");
    ck_assert_int_eq(session_execute(s, "pass 22"), PTODB_OK);
    return s;
}

START_TEST(test_view_live_heatmap)
{
    capture c = {STRBUF_INIT, STRBUF_INIT};
    session *s = open_mlp_broken_pass22(&c);
    view_heatmap h;
    ck_assert_int_eq(view_heatmap_get(s, 0, VIEW_HEAT_VS_GOLDEN, 8, 8, &h), 0);
    ck_assert_int_eq(h.live, 0);
    ck_assert_int_eq(session_execute(s, "break 73"), PTODB_OK);
    ck_assert_int_eq(session_execute(s, "run"), PTODB_OK);
    /* AIV0 stored rows 0..7; rows 8..15 still zero */
    ck_assert_int_eq(view_heatmap_get(s, 0, VIEW_HEAT_VS_GOLDEN, 8, 8, &h), 1);
    ck_assert_int_eq(h.live, 1);
    ck_assert_int_eq(h.compare_pass, -1);
    int64_t golden_out = h.outside_elements;
    strbuf_clear(&c.out);
    ck_assert_int_eq(session_execute(s, "diff out golden"), PTODB_OK);
    char want[64];
    snprintf(want, sizeof want, "mismatched %lld of 1024", (long long)golden_out);
    ck_assert_ptr_nonnull(strstr(strbuf_str(&c.out), want));
    size_t out_len = c.out.len, err_len = c.err.len;
    int errors = session_error_count(s);
    ck_assert_int_eq(view_heatmap_get(s, 0, VIEW_HEAT_VS_PREVIOUS, 8, 8, &h), 1);
    ck_assert_int_eq(h.live, 1);
    ck_assert_int_eq(h.compare_pass, 5); /* pass 18 */
    /* across ExpandMixedKernel: matched by the GM region the lane stored
     * (exact) where the program-points engine finds it, else a guess */
    ck_assert(h.match == VIEW_MATCH_GUESS ? strstr(h.match_how, "a guess") != NULL
                                          : h.match == VIEW_MATCH_EXACT && strstr(h.match_how, "region") != NULL);
    ck_assert(h.outside_elements > 0 && h.outside_elements < golden_out);
    ck_assert_uint_eq(c.out.len, out_len);
    ck_assert_uint_eq(c.err.len, err_len);
    ck_assert_int_eq(session_error_count(s), errors);
    /* AIV1 stored its half: the same as pass 18 there */
    ck_assert_int_eq(session_execute(s, "continue"), PTODB_OK);
    ck_assert_int_eq(view_heatmap_get(s, 0, VIEW_HEAT_VS_PREVIOUS, 8, 8, &h), 1);
    ck_assert_int_eq(h.outside_elements, 0);
    ck_assert(h.max == 0);
    /* the stop's tile: at pass 11's store (the planted miscompile), the
     * stored tile against its counterpart at the point of pass 9 counts
     * what `diff t__tile_11 pass 9` counts; a tile has no golden */
    ck_assert_int_eq(session_execute(s, "kill"), PTODB_OK);
    ck_assert_int_eq(session_execute(s, "delete"), PTODB_OK);
    ck_assert_int_eq(session_execute(s, "pass 11"), PTODB_OK);
    ck_assert_int_eq(view_heatmap_tile(s, VIEW_HEAT_VS_PREVIOUS, 8, 8, &h), 0);
    ck_assert_int_eq(h.live, 0);
    ck_assert_int_eq(session_execute(s, "break 41"), PTODB_OK);
    ck_assert_int_eq(session_execute(s, "run"), PTODB_OK);
    ck_assert_int_eq(view_heatmap_tile(s, VIEW_HEAT_VS_GOLDEN, 8, 8, &h), 0);
    ck_assert_str_eq(h.why, "a tile has no golden output");
    ck_assert_int_eq(view_heatmap_tile(s, VIEW_HEAT_VS_PREVIOUS, 8, 8, &h), 1);
    ck_assert_str_eq(h.tensor, "t__tile_11");
    ck_assert_int_eq(h.compare_pass, 3); /* pass 9 */
    int64_t tile_out = h.outside_elements;
    ck_assert(tile_out > 0);
    strbuf_clear(&c.out);
    ck_assert_int_eq(session_execute(s, "diff t__tile_11 pass 9"), PTODB_OK);
    snprintf(want, sizeof want, "mismatched %lld of 1024", (long long)tile_out);
    ck_assert_ptr_nonnull(strstr(strbuf_str(&c.out), want));
    /* the run killed: the pass has no finished run to show */
    ck_assert_int_eq(session_execute(s, "kill"), PTODB_OK);
    ck_assert_int_eq(view_heatmap_get(s, 0, VIEW_HEAT_VS_GOLDEN, 8, 8, &h), 0);
    ck_assert_int_eq(h.live, 0);
    session_free(s);
    strbuf_free(&c.out);
    strbuf_free(&c.err);
}
END_TEST

/* A seek in the other pass (the live heat map against the previous pass at
 * a stop) polls the front end like a run does, so Ctrl-C stops it: the
 * interrupted seek gives no heat map and says why; the next one works. */
static int interrupt_polls;
static void interrupt_on_poll(void *ctx, const char *progress)
{
    (void)progress;
    interrupt_polls++;
    session_interrupt(ctx);
}

START_TEST(test_view_live_heatmap_interrupt)
{
    capture c = {STRBUF_INIT, STRBUF_INIT};
    session *s = open_mlp_broken_pass22(&c);
    ck_assert_int_eq(session_execute(s, "break 73"), PTODB_OK);
    ck_assert_int_eq(session_execute(s, "run"), PTODB_OK);
    view_heatmap h;
    session_set_poll(s, interrupt_on_poll, s);
    ck_assert_int_eq(view_heatmap_get(s, 0, VIEW_HEAT_VS_PREVIOUS, 8, 8, &h), 0);
    ck_assert_int_ge(interrupt_polls, 1);
    ck_assert_str_eq(h.why, "Interrupted");
    session_set_poll(s, NULL, NULL);
    ck_assert_int_eq(view_heatmap_get(s, 0, VIEW_HEAT_VS_PREVIOUS, 8, 8, &h), 1);
    ck_assert_int_eq(h.compare_pass, 5); /* pass 18 */
    session_free(s);
    strbuf_free(&c.out);
    strbuf_free(&c.err);
}
END_TEST

static Suite *debug_suite(void)
{
    Suite *s = suite_create("debug");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_grid_small);
    tcase_add_test(tc, test_grid_elided);
    tcase_add_test(tc, test_grid_special_values);
    tcase_add_test(tc, test_subscripts);
    tcase_add_test(tc, test_textdiff);
    tcase_add_test(tc, test_command_lookup);
    tcase_add_test(tc, test_session_define_and_settings);
    tcase_add_test(tc, test_completion);
    tcase_add_test(tc, test_front_end_command_hook);
    tcase_add_test(tc, test_view_live_heatmap);
    tcase_add_test(tc, test_view_live_heatmap_interrupt);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(debug_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* The GM race check (exec/gmrace.h) and the vector clocks it shares with the
 * ranks (base/vclock.h), on hand-made accesses: each case's verdict is
 * derived in its comment from the happens-before rules of docs/schedule.md. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/vclock.h"
#include "exec/gmrace.h"
#include "tensor/tensor.h"

enum { HOST, AIC, AIV0, AIV1 };

static tensor *gm_16x16(void)
{
    int64_t shape[2] = {16, 16};
    ptodb_status st;
    tensor *t = tensor_zeros(DTYPE_FP32, 2, shape, &st);
    ck_assert_ptr_nonnull(t);
    return t;
}

/* rows [r0, r0 + nr) and columns [c0, c0 + nc) of t */
static tensor *box(const tensor *t, int64_t r0, int64_t nr, int64_t c0, int64_t nc)
{
    int64_t shape[2] = {nr, nc};
    ptodb_status st;
    tensor *v = tensor_view(t, 2, shape, t->strides, t->offset + r0 * t->strides[0] + c0, &st);
    ck_assert_ptr_nonnull(v);
    return v;
}

static int access_box(exec_gmrace *r, const gmrace_clock *c, int core, const tensor *t, int64_t r0, int64_t nr,
                      int64_t c0, int64_t nc, int kind, int line)
{
    tensor *v = box(t, r0, nr, c0, nc);
    int raced = exec_gmrace_access(r, c, core, v, kind, line, 9, core == AIC ? "k_aic" : "k_aiv");
    tensor_unref(v);
    return raced;
}

/* A launch of one block with the cube and a vector core, their clocks
 * started: *c the AIC's, *v AIV0's. */
static exec_gmrace *cube_and_vector(gmrace_clock *c, gmrace_clock *v)
{
    exec_gmrace *r = exec_gmrace_new();
    exec_gmrace_launch(r, 1, 7, 0, 0);
    gmrace_clock_start(c, AIC);
    gmrace_clock_start(v, AIV0);
    return r;
}

START_TEST(test_vclock)
{
    uint32_t a[3] = {1, 5, 0}, b[3] = {3, 2, 7};
    vclock_join(a, b, 3);
    ck_assert_uint_eq(a[0], 3);
    ck_assert_uint_eq(a[1], 5);
    ck_assert_uint_eq(a[2], 7);
    ck_assert(vclock_covers(a, 2, 7));
    ck_assert(!vclock_covers(a, 2, 8));
}
END_TEST

/* The cube stores the tile, a vector core loads a row of it: with no pipe
 * between, a race (the read's last writer is unordered); with a push after
 * the store and the pop before the load, none. */
START_TEST(test_store_load_fence)
{
    tensor *kv = gm_16x16();
    for (int fence = 0; fence < 2; fence++) {
        gmrace_clock cc, cv, token;
        exec_gmrace *r = cube_and_vector(&cc, &cv);
        ck_assert_int_eq(access_box(r, &cc, AIC, kv, 0, 16, 0, 16, 1, 14), 0);
        if (fence) {
            gmrace_clock_release(&cc, AIC, &token);
            gmrace_clock_acquire(&cv, &token);
        }
        ck_assert_int_eq(access_box(r, &cv, AIV0, kv, 3, 1, 0, 8, 0, 20), !fence);
        if (!fence) {
            strbuf out = STRBUF_INIT;
            exec_gmrace_describe(r, "kv", kv, 22, &out);
            ck_assert_str_eq(strbuf_str(&out),
                             "race: AIV0 reads kv[3:4, 0:8] at 22:20:9 that AIC wrote at 22:14:9 (in k_aic) with no "
                             "pipe or barrier between (PyPTO emits a tpush/tpop fence for a GM store/load pair "
                             "across the cores: expand_mixed_kernel_pass.cpp:297-311, 63614e60f)");
            strbuf_free(&out);
        }
        exec_gmrace_free(r);
    }
    tensor_unref(kv);
}
END_TEST

/* A pop acquires what the pusher had before its push, not after: the
 * cube's second store, after the push, still races with the load. */
START_TEST(test_store_after_push)
{
    tensor *kv = gm_16x16();
    gmrace_clock cc, cv, token;
    exec_gmrace *r = cube_and_vector(&cc, &cv);
    gmrace_clock_release(&cc, AIC, &token);
    ck_assert_int_eq(access_box(r, &cc, AIC, kv, 0, 16, 0, 16, 1, 15), 0);
    gmrace_clock_acquire(&cv, &token);
    ck_assert_int_eq(access_box(r, &cv, AIV0, kv, 0, 1, 0, 16, 0, 20), 1);
    exec_gmrace_free(r);
    tensor_unref(kv);
}
END_TEST

/* A write over what another core read before, unordered: a race at the
 * write, naming the read. */
START_TEST(test_write_after_read)
{
    tensor *kv = gm_16x16();
    gmrace_clock cc, cv;
    exec_gmrace *r = cube_and_vector(&cc, &cv);
    ck_assert_int_eq(access_box(r, &cv, AIV0, kv, 0, 1, 0, 8, 0, 20), 0);
    ck_assert_int_eq(access_box(r, &cc, AIC, kv, 0, 16, 0, 16, 1, 14), 1);
    strbuf out = STRBUF_INIT;
    exec_gmrace_describe(r, "kv", kv, -1, &out);
    ck_assert_ptr_nonnull(strstr(strbuf_str(&out), "race: AIC writes kv[0:16, 0:16] at 14:9 that AIV0 read at 20:9 (in k_aiv)"));
    strbuf_free(&out);
    exec_gmrace_free(r);
    tensor_unref(kv);
}
END_TEST

/* Two blocks: the same bytes written unordered race; disjoint bytes of one
 * 32-byte granule (columns 0:4 and 4:8 of a row of FP32: bytes 0-15 and
 * 16-31) do not; a syncall (a later phase) orders them. */
START_TEST(test_blocks)
{
    tensor *out = gm_16x16();
    exec_gmrace *r = exec_gmrace_new();
    gmrace_clock b0, b1;
    exec_gmrace_launch(r, 5, 9, 0, 0);
    gmrace_clock_start(&b0, AIV0);
    ck_assert_int_eq(access_box(r, &b0, AIV0, out, 0, 1, 0, 4, 1, 10), 0);
    exec_gmrace_launch(r, 5, 9, 1, 0);
    gmrace_clock_start(&b1, AIV0);
    ck_assert_int_eq(access_box(r, &b1, AIV0, out, 0, 1, 4, 4, 1, 10), 0); /* disjoint bytes */
    ck_assert_int_eq(access_box(r, &b1, AIV0, out, 1, 1, 0, 16, 1, 11), 0); /* another row */
    exec_gmrace_launch(r, 5, 9, 0, 0);
    gmrace_clock_start(&b0, AIV0);
    gmrace_clock_barrier(&b0, AIV0);
    ck_assert_int_eq(access_box(r, &b0, AIV0, out, 1, 1, 0, 16, 0, 12), 0); /* after a syncall */
    exec_gmrace_launch(r, 5, 9, 2, 0);
    gmrace_clock b2;
    gmrace_clock_start(&b2, AIV0);
    ck_assert_int_eq(access_box(r, &b2, AIV0, out, 1, 1, 8, 1, 1, 13), 1); /* block 1's bytes, no syncall */
    strbuf s = STRBUF_INIT;
    exec_gmrace_describe(r, "out", out, 24, &s);
    ck_assert_ptr_nonnull(strstr(strbuf_str(&s), "race: AIV0 of block 2 writes out[1:2, 8:9] at 24:13:9 that AIV0 of "
                                                 "block 1 wrote at 24:11:9 (in k_aiv) with no barrier between"));
    strbuf_free(&s);
    exec_gmrace_free(r);
    tensor_unref(out);
}
END_TEST

/* Atomic adds of two blocks into the same bytes are not a race; a plain
 * store against an atomic add is. Two launches (another call site) never
 * race; a new instance forgets the last. */
START_TEST(test_atomic_and_launches)
{
    tensor *acc = gm_16x16();
    exec_gmrace *r = exec_gmrace_new();
    gmrace_clock b0, b1;
    gmrace_clock_start(&b0, AIV0);
    gmrace_clock_start(&b1, AIV0);
    exec_gmrace_launch(r, 3, 1, 0, 0);
    ck_assert_int_eq(access_box(r, &b0, AIV0, acc, 0, 16, 0, 16, 2, 10), 0);
    exec_gmrace_launch(r, 3, 1, 1, 0);
    ck_assert_int_eq(access_box(r, &b1, AIV0, acc, 0, 16, 0, 16, 2, 10), 0);
    exec_gmrace_launch(r, 3, 2, 1, 0); /* another call site of the SPMD body */
    ck_assert_int_eq(access_box(r, &b1, AIV0, acc, 0, 16, 0, 16, 1, 20), 0);
    exec_gmrace_launch(r, 3, 2, 0, 0);
    ck_assert_int_eq(access_box(r, &b0, AIV0, acc, 4, 1, 0, 16, 2, 21), 1); /* atomic vs block 1's plain store */
    exec_gmrace_launch(r, 4, 2, 1, 0); /* a new instance: nothing before it */
    ck_assert_int_eq(access_box(r, &b1, AIV0, acc, 4, 1, 0, 16, 1, 22), 0);
    exec_gmrace_free(r);
    tensor_unref(acc);
}
END_TEST

/* The two lanes of one body on one data (twin) are not compared; other
 * lanes are. A stale check (a restored checkpoint) reports nothing until
 * the next instance. */
START_TEST(test_twins_and_stale)
{
    tensor *t = gm_16x16();
    for (int twin = 0; twin < 2; twin++) {
        exec_gmrace *r = exec_gmrace_new();
        exec_gmrace_launch(r, 1, 1, 0, twin);
        gmrace_clock l0, l1;
        gmrace_clock_start(&l0, AIV0);
        gmrace_clock_start(&l1, AIV1);
        ck_assert_int_eq(access_box(r, &l0, AIV0, t, 0, 16, 0, 16, 1, 10), 0);
        ck_assert_int_eq(access_box(r, &l1, AIV1, t, 0, 16, 0, 16, 1, 10), !twin);
        exec_gmrace_free(r);
    }
    gmrace_clock c, v;
    exec_gmrace *r = cube_and_vector(&c, &v);
    ck_assert_int_eq(access_box(r, &c, AIC, t, 0, 16, 0, 16, 1, 10), 0);
    exec_gmrace_stale(r);
    exec_gmrace_enter(r, 1, 1, 0, 0); /* the launch resumed: still stale */
    ck_assert_int_eq(access_box(r, &v, AIV0, t, 0, 16, 0, 16, 0, 11), 0);
    exec_gmrace_free(r);
    tensor_unref(t);
}
END_TEST

/* rows [0, rows) by 64 columns of FP32: a row is 256 bytes, two of the
 * shadow's 128-byte blocks (columns 0:32 and 32:64), eight granules */
static tensor *gm_rows_of_64(int64_t rows)
{
    int64_t shape[2] = {rows, 64};
    ptodb_status st;
    tensor *t = tensor_zeros(DTYPE_FP32, 2, shape, &st);
    ck_assert_ptr_nonnull(t);
    return t;
}

/* the cube pushes, the vector core pops: what the cube did so far
 * happens before what the vector core does next */
static void cube_to_vector(gmrace_clock *cube, gmrace_clock *vector)
{
    gmrace_clock token;
    gmrace_clock_release(cube, AIC, &token);
    gmrace_clock_acquire(vector, &token);
}

static void ck_race_text(exec_gmrace *r, const tensor *whole, const char *want)
{
    strbuf out = STRBUF_INIT;
    exec_gmrace_describe(r, "t", whole, -1, &out);
    ck_assert_msg(strstr(strbuf_str(&out), want), "%s", strbuf_str(&out));
    strbuf_free(&out);
}

/* The shadow keeps a whole 128-byte block written or read as one once
 * (gmrace.c, gm_shadow): a race inside such a run is found at the granule
 * it touches, one across two runs at the run that is not ordered, and none
 * when a fence orders the run.
 * Inside a run: the cube writes all four rows (eight blocks, each one
 * state); a vector core reads columns 40:48 of row 2 (bytes 672-703: the
 * second granule of row 2's second block, part of a block): its last
 * writer is the cube, unordered without the fence, ordered by it.
 * A block taken apart and whole again: the cube writes columns 0:8 of row
 * 1 (line 10: block 0's first granule apart from its other three), then
 * the whole row (line 11: every granule of block 0 now the line-11 write,
 * one state again). A vector core's read of columns 16:24 (block 0's third
 * granule) races with line 11 without the fence; after it, that read and a
 * write of the whole row are ordered. */
START_TEST(test_race_inside_a_block_run)
{
    tensor *t = gm_rows_of_64(4);
    for (int fence = 0; fence < 2; fence++) {
        gmrace_clock cc, cv;
        exec_gmrace *r = cube_and_vector(&cc, &cv);
        ck_assert_int_eq(access_box(r, &cc, AIC, t, 0, 4, 0, 64, 1, 10), 0);
        if (fence)
            cube_to_vector(&cc, &cv);
        ck_assert_int_eq(access_box(r, &cv, AIV0, t, 2, 1, 40, 8, 0, 20), !fence);
        if (!fence)
            ck_race_text(r, t, "race: AIV0 reads t[2:3, 40:48] at 20:9 that AIC wrote at 10:9 (in k_aic)");
        exec_gmrace_free(r);
        /* apart and whole again */
        r = cube_and_vector(&cc, &cv);
        ck_assert_int_eq(access_box(r, &cc, AIC, t, 1, 1, 0, 8, 1, 10), 0);
        ck_assert_int_eq(access_box(r, &cc, AIC, t, 1, 1, 0, 64, 1, 11), 0);
        if (fence)
            cube_to_vector(&cc, &cv);
        ck_assert_int_eq(access_box(r, &cv, AIV0, t, 1, 1, 16, 8, 0, 20), !fence);
        if (fence)
            ck_assert_int_eq(access_box(r, &cv, AIV0, t, 1, 1, 0, 64, 1, 21), 0);
        else
            ck_race_text(r, t, "race: AIV0 reads t[1:2, 16:24] at 20:9 that AIC wrote at 11:9 (in k_aic)");
        exec_gmrace_free(r);
    }
    tensor_unref(t);
}
END_TEST

/* Across runs: the cube writes columns 0:32 of row 0 (block 0, line 10),
 * pushes to the vector core, then writes columns 32:64 (block 1, line 12)
 * in its next epoch, which the vector core has not seen. A read of 0:32
 * is ordered (block 0's writer is the pushed epoch); a read of 24:40
 * (bytes 96-159: block 0's last granule and block 1's first) races with
 * the line-12 write and not the line-10 one. The memo of a whole block's
 * answer must not carry block 0's verdict to block 1 either: a read of the
 * whole row (both blocks whole, in two states) races with line 12. */
START_TEST(test_race_across_runs)
{
    tensor *t = gm_rows_of_64(2);
    static const struct {
        int64_t c0, nc;
        const char *want;
    } reads[] = {
        {24, 16, "race: AIV0 reads t[0:1, 24:40] at 21:9 that AIC wrote at 12:9 (in k_aic)"},
        {0, 64, "race: AIV0 reads t[0:1, 0:64] at 21:9 that AIC wrote at 12:9 (in k_aic)"},
    };
    for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++) {
        gmrace_clock cc, cv;
        exec_gmrace *r = cube_and_vector(&cc, &cv);
        ck_assert_int_eq(access_box(r, &cc, AIC, t, 0, 1, 0, 32, 1, 10), 0);
        cube_to_vector(&cc, &cv);
        ck_assert_int_eq(access_box(r, &cc, AIC, t, 0, 1, 32, 32, 1, 12), 0);
        ck_assert_int_eq(access_box(r, &cv, AIV0, t, 0, 1, 0, 32, 0, 20), 0);
        ck_assert_int_eq(access_box(r, &cv, AIV0, t, 0, 1, reads[i].c0, reads[i].nc, 0, 21), 1);
        ck_race_text(r, t, reads[i].want);
        exec_gmrace_free(r);
    }
    tensor_unref(t);
}
END_TEST

static Suite *gmrace_suite(void)
{
    Suite *s = suite_create("gmrace");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_vclock);
    tcase_add_test(tc, test_store_load_fence);
    tcase_add_test(tc, test_store_after_push);
    tcase_add_test(tc, test_write_after_read);
    tcase_add_test(tc, test_blocks);
    tcase_add_test(tc, test_atomic_and_launches);
    tcase_add_test(tc, test_twins_and_stale);
    tcase_add_test(tc, test_race_inside_a_block_run);
    tcase_add_test(tc, test_race_across_runs);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(gmrace_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

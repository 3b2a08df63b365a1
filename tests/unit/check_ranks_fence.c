/* Unit tests for the data-before-signal contract (src/ranks/fence.c), each
 * a sequence of one kernel's events with the verdict the contract gives
 * (PyPTO docs/en/dev/passes/46-insert_comm_fence.md: "after each local
 * publishing write: a region cacheinvalid of the target, immediately
 * followed by a fence; after each remote write: a fence; after each wait:
 * a whole-GM cacheinvalid"). Two ranks; window identities are addresses. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "exec/comm.h"
#include "ranks/fence.h"

static int win_a, win_b; /* two windows: their addresses are their identities */

/* The report, or "" when the contract holds; the caller frees it. */
static char *report(ranks_fence *f)
{
    strbuf sb = STRBUF_INIT;
    if (!ranks_fence_report(f, "k.py", &sb))
        strbuf_puts(&sb, "");
    return strbuf_detach(&sb);
}

#define EXPECT_REPORT(f, needle)                                                                              \
    do {                                                                                                       \
        char *r_ = report(f);                                                                                  \
        ck_assert_msg(strstr(r_, needle) != NULL, "expected \"%s\" in \"%s\"", needle, r_);                    \
        free(r_);                                                                                              \
    } while (0)

#define EXPECT_NONE(f)                                                                                         \
    do {                                                                                                       \
        char *r_ = report(f);                                                                                  \
        ck_assert_msg(r_[0] == 0, "expected no breach, got \"%s\"", r_);                                       \
        free(r_);                                                                                              \
    } while (0)

START_TEST(test_local_store_published)
{
    /* store(a); cacheinvalid(a); fence; notify: InsertCommFence's own output */
    ranks_fence *f = ranks_fence_new(2);
    ranks_fence_task_start(f, 0);
    ranks_fence_write(f, 0, &win_a, "a", 0, 0, "a store", 3, 9);
    ranks_fence_marker(f, 0, EXEC_MARK_INVALIDATE_REGION, &win_a, 4, 9);
    ranks_fence_marker(f, 0, EXEC_MARK_FENCE, NULL, 5, 9);
    ranks_fence_notify(f, 0, 6, 9);
    EXPECT_NONE(f);
    ranks_fence_free(f);
}
END_TEST

START_TEST(test_local_store_other_window_invalidated)
{
    /* store(a); cacheinvalid(b); fence; notify: a is still in the cache */
    ranks_fence *f = ranks_fence_new(2);
    ranks_fence_task_start(f, 0);
    ranks_fence_write(f, 0, &win_a, "a", 0, 0, "a store", 3, 9);
    ranks_fence_marker(f, 0, EXEC_MARK_INVALIDATE_REGION, &win_b, 4, 9);
    ranks_fence_marker(f, 0, EXEC_MARK_FENCE, NULL, 5, 9);
    ranks_fence_notify(f, 0, 6, 9);
    EXPECT_REPORT(f, "k.py:6:9: fence contract: rank 0 notifies here while its write to window a of rank 0 "
                     "(a store at 3:9) is not yet visible (no system.cacheinvalid of the window and "
                     "system.fence after it)");
    ranks_fence_free(f);
}
END_TEST

START_TEST(test_fence_before_invalidate)
{
    /* store(a); fence; cacheinvalid(a); notify: the fence came too early */
    ranks_fence *f = ranks_fence_new(2);
    ranks_fence_write(f, 1, &win_a, "a", 1, 0, "a store", 3, 9);
    ranks_fence_marker(f, 1, EXEC_MARK_FENCE, NULL, 4, 9);
    ranks_fence_marker(f, 1, EXEC_MARK_INVALIDATE_ALL, NULL, 5, 9);
    ranks_fence_notify(f, 1, 6, 9);
    EXPECT_REPORT(f, "(no system.fence after its system.cacheinvalid)");
    ranks_fence_free(f);
}
END_TEST

START_TEST(test_remote_write)
{
    /* put(peer); notify is a breach; put(peer); fence; notify is not (the
     * peer region's cacheinvalid is the put's codegen's) */
    ranks_fence *f = ranks_fence_new(2);
    ranks_fence_write(f, 0, &win_a, "a", 1, 1, "pld.tile.put", 3, 9);
    ranks_fence_marker(f, 0, EXEC_MARK_FENCE, NULL, 4, 9);
    ranks_fence_notify(f, 0, 5, 9);
    EXPECT_NONE(f);
    ranks_fence_write(f, 0, &win_a, "a", 1, 1, "pld.tile.put", 7, 9);
    ranks_fence_notify(f, 0, 8, 9);
    EXPECT_REPORT(f, "k.py:8:9: fence contract: rank 0 notifies here while its write to window a of rank 1 "
                     "(pld.tile.put at 7:9) is not yet visible (no system.fence after it)");
    ranks_fence_free(f);
}
END_TEST

START_TEST(test_pure_barrier_notify)
{
    /* a notify with no write before it needs no marker */
    ranks_fence *f = ranks_fence_new(2);
    ranks_fence_notify(f, 0, 5, 9);
    ranks_fence_acquire(f, 0, 6, 9);
    ranks_fence_marker(f, 0, EXEC_MARK_INVALIDATE_ALL, NULL, 7, 9);
    ranks_fence_read(f, 0, "a", 1, "pld.tile.remote_load", 8, 9);
    EXPECT_NONE(f);
    ranks_fence_free(f);
}
END_TEST

START_TEST(test_read_after_wait)
{
    /* wait; cacheinvalid(a) (a region: one cache line); load(a): stale */
    ranks_fence *f = ranks_fence_new(2);
    ranks_fence_read(f, 1, "a", 1, "a load", 2, 9); /* before any wait: fine */
    ranks_fence_acquire(f, 1, 0, 0);                 /* located by the stamp */
    ranks_fence_stamp(f, 1, 3, 17);
    ranks_fence_marker(f, 1, EXEC_MARK_INVALIDATE_REGION, &win_a, 4, 9);
    ranks_fence_read(f, 1, "a", 1, "a load", 0, 0);
    ranks_fence_stamp(f, 1, 5, 9);
    EXPECT_REPORT(f, "k.py:5:9: fence contract: rank 1 reads window a of rank 1 (a load) after its wait at 3:17 "
                     "with no system.cacheinvalid() between them");
    ranks_fence_free(f);
}
END_TEST

START_TEST(test_task_start_resets)
{
    /* a kernel's unpublished write is not the next kernel's */
    ranks_fence *f = ranks_fence_new(2);
    ranks_fence_write(f, 0, &win_a, "a", 0, 0, "a store", 3, 9);
    ranks_fence_acquire(f, 0, 4, 9);
    ranks_fence_task_start(f, 0);
    ranks_fence_notify(f, 0, 6, 9);
    ranks_fence_read(f, 0, "a", 0, "a load", 7, 9);
    EXPECT_NONE(f);
    /* and one rank's state is not another's */
    ranks_fence_write(f, 1, &win_a, "a", 1, 0, "a store", 3, 9);
    ranks_fence_notify(f, 0, 8, 9);
    EXPECT_NONE(f);
    /* a rank outside the world is ignored, never a crash */
    ranks_fence_write(f, 7, &win_a, "a", 1, 0, "a store", 3, 9);
    ranks_fence_notify(f, -1, 8, 9);
    EXPECT_NONE(f);
    ranks_fence_free(f);
}
END_TEST

START_TEST(test_many_windows)
{
    /* more pending writes than kept: the oldest goes, the newest is named */
    ranks_fence *f = ranks_fence_new(1);
    static int wins[100];
    for (int i = 0; i < 100; i++)
        ranks_fence_write(f, 0, &wins[i], "w", 0, 0, "a store", 10 + i, 9);
    ranks_fence_notify(f, 0, 200, 9);
    EXPECT_REPORT(f, "(a store at 109:9)");
    ranks_fence_free(f);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ranks_fence");
    TCase *tc = tcase_create("contract");
    tcase_add_test(tc, test_local_store_published);
    tcase_add_test(tc, test_local_store_other_window_invalidated);
    tcase_add_test(tc, test_fence_before_invalidate);
    tcase_add_test(tc, test_remote_write);
    tcase_add_test(tc, test_pure_barrier_notify);
    tcase_add_test(tc, test_read_after_wait);
    tcase_add_test(tc, test_task_start_resets);
    tcase_add_test(tc, test_many_windows);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Unit tests for the stop chain (src/debug/run/stop.c): which breakpoints a
 * stop hits, in table order, with their print flags and commands. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "debug/state/session_impl.h"
#include "debug/run/stop.h"

static void ignore_output(void *ctx, session_stream stream, const char *text, size_t len)
{
    (void)ctx, (void)stream, (void)text, (void)len;
}

static session *at_pass_11(void)
{
    session *s = session_new();
    session_set_output(s, ignore_output, NULL);
    ck_assert_int_eq(session_open(s, PTODB_TOP_SRCDIR "/examples/mlp-broken", -1, -1), PTODB_OK);
    ck_assert_int_eq(session_execute(s, "pass 11"), PTODB_OK);
    return s;
}

static void add_commands(session *s, const char *const *lines)
{
    ck_assert_int_eq(session_execute(s, "commands"), PTODB_OK);
    for (; *lines; lines++)
        session_execute(s, *lines);
    session_execute(s, "end");
}

/* Two breakpoints at one line, a condition that fails and one that holds:
 * the chain holds every one that hit, in table order, each with its
 * commands, and counts each hit. */
START_TEST(test_chain_location_hits)
{
    session *s = at_pass_11();
    session_execute(s, "break 29");
    add_commands(s, (const char *const[]){"silent", "echo one\\n", NULL});
    session_execute(s, "break 29 if 1 > 2");
    session_execute(s, "break 29");
    add_commands(s, (const char *const[]){"echo three\\n", "print 1", NULL});
    session_execute(s, "break 30");
    ck_assert_int_eq(session_execute(s, "run"), PTODB_OK);
    ck_assert_int_eq((int)bp_find(s, 1)->hits, 1);
    ck_assert_int_eq((int)bp_find(s, 2)->hits, 0);
    ck_assert_int_eq((int)bp_find(s, 3)->hits, 1);
    ck_assert_int_eq((int)bp_find(s, 4)->hits, 0);
    ck_assert_int_eq(s->run.last_bp, 1);

    /* the chain at line 29, built directly: the host is there */
    stop_chain c;
    stop_step step = {.core = s->run.core};
    step.entered[s->run.core] = 0;
    ck_assert_int_eq(stop_chain_build(s, &step, &c), 1);
    ck_assert_uint_eq(c.n, 2);
    ck_assert_int_eq(c.hits[0].bp, 1);
    ck_assert_int_eq(c.hits[0].kind, STOP_HIT_LOCATION);
    ck_assert_int_eq(c.hits[0].print, 0); /* silent */
    ck_assert_uint_eq(c.hits[0].ncommands, 1);
    ck_assert_str_eq(c.hits[0].commands[0], "echo one\\n");
    ck_assert_int_eq(c.hits[1].bp, 3);
    ck_assert_int_eq(c.hits[1].print, 1);
    ck_assert_uint_eq(c.hits[1].ncommands, 2);
    ck_assert_int_eq(c.core, s->run.core);
    stop_chain_free(&c);
    /* a disabled breakpoint is not in it; an ignore count swallows a hit */
    session_execute(s, "disable 1");
    session_execute(s, "ignore 3 1");
    ck_assert_int_eq(stop_chain_build(s, &step, &c), 0);
    ck_assert_uint_eq(c.n, 0);
    stop_chain_free(&c);
    session_free(s);
}
END_TEST

/* A watchpoint written by the statement before a breakpoint's line: one
 * stop, the watch first (table order), then the breakpoint. */
START_TEST(test_chain_watch_and_location)
{
    session *s = at_pass_11();
    session_execute(s, "watch t__tile_7");
    session_execute(s, "break 31");
    ck_assert_int_eq(session_execute(s, "run"), PTODB_OK);
    ck_assert_int_eq(s->run.last_bp, 1);
    ck_assert_int_eq((int)bp_find(s, 1)->hits, 1);
    ck_assert_int_eq((int)bp_find(s, 2)->hits, 1);
    session_free(s);
}
END_TEST

/* rwatch: the machine's read hook reports the AIV lane's load of x; the
 * stop is on that lane (fails when the hook is not called: no stop). */
START_TEST(test_chain_read_watch)
{
    session *s = session_new();
    session_set_output(s, ignore_output, NULL);
    ck_assert_int_eq(session_open(s, PTODB_TOP_SRCDIR "/examples/mlp-broken", -1, -1), PTODB_OK);
    ck_assert_int_eq(session_execute(s, "pass 22"), PTODB_OK);
    ck_assert_int_eq(session_execute(s, "rwatch x__ssa_v0"), PTODB_OK);
    ck_assert_int_eq(bp_find(s, 1)->watch_access, WATCH_READ);
    ck_assert_int_eq(session_execute(s, "run"), PTODB_OK);
    ck_assert_int_eq(s->run.last_bp, 1);
    ck_assert_int_eq(s->run.core, EXEC_CORE_AIV0);
    ck_assert_int_eq(session_execute(s, "continue"), PTODB_OK);
    ck_assert_int_eq(s->run.last_bp, 1);
    ck_assert_int_eq(s->run.core, EXEC_CORE_AIV1);
    session_free(s);
}
END_TEST

/* The group call starts both AIV lanes in one step: a hit swallowed by the
 * ignore count on lane 0 leaves lane 1's arrival to be looked at. */
START_TEST(test_chain_lanes_same_step)
{
    session *s = session_new();
    session_set_output(s, ignore_output, NULL);
    ck_assert_int_eq(session_open(s, PTODB_TOP_SRCDIR "/examples/mlp-broken", -1, -1), PTODB_OK);
    ck_assert_int_eq(session_execute(s, "pass 22"), PTODB_OK);
    session_execute(s, "break mlp_fused_aiv");
    session_execute(s, "ignore 1 1");
    ck_assert_int_eq(session_execute(s, "run"), PTODB_OK);
    ck_assert_int_eq(s->run.last_bp, 1);
    ck_assert_int_eq(s->run.core, EXEC_CORE_AIV1);
    ck_assert_int_eq((int)bp_find(s, 1)->hits, 2);
    session_free(s);
}
END_TEST

/* A pass breakpoint at the start of its pass. */
START_TEST(test_chain_pass_start)
{
    session *s = at_pass_11();
    session_execute(s, "break pass 11");
    stop_chain c;
    ck_assert_int_eq(stop_chain_build_pass(s, 2, 0, &c), 0);
    stop_chain_free(&c);
    int eleven = -1;
    for (size_t i = 0; i < s->kase.npasses; i++)
        if (s->kase.passes[i].index == 11)
            eleven = (int)i;
    ck_assert_int_ge(eleven, 0);
    ck_assert_int_eq(stop_chain_build_pass(s, eleven, 0, &c), 1);
    ck_assert_uint_eq(c.n, 1);
    ck_assert_int_eq(c.hits[0].kind, STOP_HIT_PASS_START);
    stop_chain_free(&c);
    session_free(s);
}
END_TEST

static Suite *stop_suite(void)
{
    Suite *s = suite_create("stop");
    TCase *tc = tcase_create("chain");
    tcase_set_timeout(tc, 0);
    tcase_add_test(tc, test_chain_location_hits);
    tcase_add_test(tc, test_chain_watch_and_location);
    tcase_add_test(tc, test_chain_pass_start);
    tcase_add_test(tc, test_chain_read_watch);
    tcase_add_test(tc, test_chain_lanes_same_step);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(stop_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

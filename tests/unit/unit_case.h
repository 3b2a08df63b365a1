/* A case opened for a unit test that runs its passes (check_trace_boxed,
 * check_why_observed): where it is, the case, run options with every op,
 * and the suite's run. */
#ifndef PTODB_TESTS_UNIT_CASE_H
#define PTODB_TESTS_UNIT_CASE_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/mem.h"
#include "data/case.h"
#include "exec/machine.h"
#include "exec/op.h"
#include "exec/runpass.h"
#include "ir/resolve.h"

/* Opens the case at dir into c; 0, or -1 when it is not there (c freed). */
static inline int unit_case_open(const char *dir, case_info *c)
{
    memset(c, 0, sizeof *c);
    diag_sink sink;
    diag_sink_init(&sink, 16);
    case_options co;
    memset(&co, 0, sizeof co);
    int ok = case_open(dir, &co, c, &sink) == PTODB_OK;
    diag_sink_free(&sink);
    if (!ok)
        case_free(c);
    return ok ? 0 : -1;
}

/* The path of the pass of c whose file name holds stem, or NULL. */
static inline const char *unit_case_pass(const case_info *c, const char *stem)
{
    for (size_t i = 0; i < c->npasses; i++)
        if (strstr(c->passes[i].path, stem))
            return c->passes[i].path;
    return NULL;
}

/* Default run options with every op (*ops: the table, for the caller to free). */
static inline void unit_run_options(runpass_options *ro, op_fn **ops)
{
    *ops = xcalloc(IR_OP_COUNT, sizeof **ops);
    exec_ops_init(*ops);
    memset(ro, 0, sizeof *ro);
    machine_options_init(&ro->mopt);
    ro->ops = *ops;
}

/* The case examples/NAME of the source tree (top_srcdir, else ..). */
static inline void unit_example_dir(const char *name, char *dir, size_t size)
{
    const char *top = getenv("top_srcdir");
    snprintf(dir, size, "%s/examples/%s", top ? top : "..", name);
}

/* The shared fixture NAME (PTODB_FIXTURES, else ../../shared/fixtures). */
static inline void unit_fixture_dir(const char *name, char *dir, size_t size)
{
    const char *fx = getenv("PTODB_FIXTURES");
    snprintf(dir, size, "%s/%s", fx ? fx : "../../shared/fixtures", name);
}

/* Runs tests[0..n) as one suite (600 s each): the exit status. */
static inline int unit_run(const char *suite, const TTest *const *tests, int n)
{
    Suite *s = suite_create(suite);
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 600);
    for (int i = 0; i < n; i++)
        tcase_add_test(tc, tests[i]);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif

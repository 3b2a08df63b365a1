/* A machine over a small program given as dump text, for the unit tests
 * that step it (check_region, check_prov): parsed, resolved, built with
 * the full op table and started at its entry with two zero fp32 [64, 32]
 * tensors (the programs' a/x and out). */
#ifndef PTODB_TESTS_TEST_MACHINE_H
#define PTODB_TESTS_TEST_MACHINE_H

#include <check.h>
#include <string.h>

#include "base/diag.h"
#include "exec/machine.h"
#include "exec/program.h"
#include "ir/parse.h"
#include "ir/resolve.h"

typedef struct test_machine {
    diag_sink sink;
    ir_module *module;
    xprogram *program;
    machine *m;
    value args[2];
} test_machine;

static inline void test_machine_start(test_machine *t, const char *src, const machine_options *o)
{
    diag_sink_init(&t->sink, 20);
    ptodb_status st;
    t->module = ir_parse("t.py", src, strlen(src), &t->sink, &st);
    ck_assert_int_eq(st, PTODB_OK);
    ck_assert_int_eq(ir_resolve(t->module, &t->sink), PTODB_OK);
    op_fn ops[IR_OP_COUNT];
    exec_ops_init(ops);
    ck_assert_int_eq(exec_program_build(t->module, ops, &t->program, &t->sink), PTODB_OK);
    t->m = machine_new(t->program, o);
    int64_t shape[2] = {64, 32};
    for (int i = 0; i < 2; i++)
        t->args[i] = value_tensor(tensor_zeros(DTYPE_FP32, 2, shape, NULL));
    ck_assert_int_eq(machine_start(t->m, t->program->entry, t->args, 2), PTODB_OK);
}

/* test_machine_start with the default options, provenance on or off. */
static inline void test_machine_start_prov(test_machine *t, const char *src, int provenance)
{
    machine_options o;
    machine_options_init(&o);
    o.provenance = provenance;
    test_machine_start(t, src, &o);
}

static inline void test_machine_free(test_machine *t)
{
    value_clear(&t->args[0]);
    value_clear(&t->args[1]);
    machine_free(t->m);
    exec_program_free(t->program);
    ir_module_free(t->module);
    diag_sink_free(&t->sink);
}

#endif

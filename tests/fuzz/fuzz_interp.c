/* Fuzzes the interpreter with mutated pass dumps: each input is a dump
 * (seeded with examples/mlp's passes; libFuzzer mutates numbers, names and
 * ops as text) run against examples/mlp's data as a pass of that case, for
 * at most FUZZ_STEP_BUDGET statements. The machine's own limit is wall time
 * (machine_options.time_limit, --timeout), which would make runs depend on
 * the machine's speed; a step budget is deterministic.
 *
 * Under libFuzzer the dumps' custom mutator (dump_mutator.c) changes one
 * token at a time, so that most mutants still parse and reach the machine.
 *
 * A dump of examples/memory (its program is `MemoryChecks`) runs against
 * that case's data instead: the memory sanitizer's MemRefs, offsets, sizes,
 * slot buffers and scratch tiles (docs/memory.md) are fuzzed there. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/case.h"
#include "exec/runpass.h"
#include "ir/parse.h"
#include "ir/resolve.h"

enum { FUZZ_STEP_BUDGET = 20000 };

static case_info kase, memory_kase;
static runpass_options opts;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char root[4096];
    snprintf(root, sizeof root, "%s/examples/mlp", fuzz_srcdir());
    case_options copt = {0};
    diag_sink sink;
    diag_sink_init(&sink, 20);
    if (case_open(root, &copt, &kase, &sink) != PTODB_OK) {
        diag_sink_print(&sink, stderr, 0);
        fprintf(stderr, "fuzz_interp: cannot open %s\n", root);
        exit(2);
    }
    diag_sink_free(&sink);
    snprintf(root, sizeof root, "%s/examples/memory", fuzz_srcdir());
    diag_sink_init(&sink, 20);
    if (case_open(root, &copt, &memory_kase, &sink) != PTODB_OK) {
        diag_sink_print(&sink, stderr, 0);
        fprintf(stderr, "fuzz_interp: cannot open %s\n", root);
        exit(2);
    }
    diag_sink_free(&sink);
    machine_options_init(&opts.mopt);
    op_fn *ops = calloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    opts.ops = ops;
    return 0;
}


/* 1 when the size bytes at data hold the string w */
static int contains(const uint8_t *data, size_t size, const char *w)
{
    size_t n = strlen(w);
    for (size_t i = 0; i + n <= size; i++)
        if (memcmp(data + i, w, n) == 0)
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag_sink sink;
    diag_sink_init(&sink, 20);
    ptodb_status st;
    ir_module *m = ir_parse("fuzz.py", (const char *)data, size, &sink, &st);
    if (st == PTODB_OK && ir_resolve(m, &sink) == PTODB_OK) {
        runpass_run run;
        const case_info *c = contains(data, size, "class MemoryChecks") ? &memory_kase : &kase;
        runpass_open(&run, "fuzz.py", m, c, &opts, NULL, NULL, RUNPASS_OPEN_DESPITE_REF);
        if (run.status == RUNPASS_COMPARED) {
            exec_event ev;
            for (int i = 0; i < FUZZ_STEP_BUDGET; i++)
                if (machine_step(run.m, &ev) != PTODB_OK || ev.kind == EXEC_EV_DONE)
                    break;
            if (machine_finished(run.m))
                for (size_t i = 0; i < run.nbinds; i++) {
                    const case_binding *b = &run.binds[i];
                    if (!b->golden)
                        continue;
                    exec_compare_result cmp;
                    exec_compare(b->t, b->golden->t, 0.05, 0.05, opts.mopt.profile, 1, &cmp);
                }
        }
        if (getenv("PTODB_FUZZ_VERBOSE")) /* to see what an input does */
            fprintf(stderr, "fuzz_interp: %s after %llu steps%s%s\n",
                    run.status != RUNPASS_COMPARED ? "not started"
                    : machine_finished(run.m)      ? "finished"
                                                   : "stopped",
                    run.m ? (unsigned long long)machine_steps(run.m) : 0ULL,
                    run.message ? ": " : "", run.message ? run.message : "");
        runpass_close(&run);
    }
    ir_module_free(m);
    diag_sink_free(&sink);
    return 0;
}

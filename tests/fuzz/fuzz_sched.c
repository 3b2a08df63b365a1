/* Fuzzes the multi-rank scheduler (src/ranks/): each input picks a
 * schedule (its first 8 bytes seed --schedule random:SEED, the next byte
 * the program) for our own programs of tests/data/multirank/. The
 * property: a race-free program's outputs never depend on the schedule
 * (bit for bit equal to the fixed schedule's), and our #2397 reproducer
 * deadlocks under --comm-order=ready whatever the schedule.
 *
 * The pass file is parsed, resolved and built once (the program is
 * immutable: machines borrow it); each input runs the host orchestrator
 * and every rank afresh (ranks_run_program), so an input costs one run of
 * the schedule, not one parse of the dump. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/case.h"
#include "ir/parse.h"
#include "ir/resolve.h"
#include "ranks/run.h"

static case_info kase;
static runpass_options opts;
static case_tensor outs[2][3];
static tensor *baseline[6];
static size_t nbaseline;
static ir_module *mod;
static xprogram *prog;

static void run(uint64_t seed, int random, int ready, runpass_result *r)
{
    runpass_options o = opts;
    o.mopt.sched = random ? EXEC_SCHED_RANDOM : EXEC_SCHED_FIXED;
    o.mopt.seed = seed;
    o.comm_ready_order = ready;
    memset(r, 0, sizeof *r);
    if (ranks_program_runnable(kase.passes[0].path, prog, r))
        ranks_run_program(kase.passes[0].path, prog, &kase, &o, r);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char root[4096];
    snprintf(root, sizeof root, "%s/tests/data/multirank/order_2397", fuzz_srcdir());
    case_options copt = {0};
    diag_sink sink;
    diag_sink_init(&sink, 20);
    if (case_open(root, &copt, &kase, &sink) != PTODB_OK || !kase.ranks.nranks) {
        diag_sink_print(&sink, stderr, 0);
        fprintf(stderr, "fuzz_sched: cannot open %s\n", root);
        exit(2);
    }
    diag_sink_free(&sink);
    /* goldens of the outputs' shape: only the actual outputs matter here */
    static const char *const names[3] = {"y", "z", "w"};
    for (int r = 0; r < 2; r++) {
        for (int k = 0; k < 3; k++)
            outs[r][k] = (case_tensor){(char *)names[k], (char *)"-", tensor_zeros(DTYPE_FP32, 2, (int64_t[]){1, 8}, NULL),
                                       {0.05, CASE_TOL_DEFAULT, NULL}, {0.05, CASE_TOL_DEFAULT, NULL}};
        kase.rank_data[r].outputs = outs[r];
        kase.rank_data[r].noutputs = 3;
    }
    machine_options_init(&opts.mopt);
    op_fn *ops = calloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    opts.ops = ops;
    ptodb_status st = PTODB_OK;
    diag_sink_init(&sink, 20);
    mod = ir_parse_file(kase.passes[0].path, &sink, &st);
    if (st != PTODB_OK || ir_resolve(mod, &sink) != PTODB_OK || exec_program_build(mod, ops, &prog, &sink) != PTODB_OK) {
        diag_sink_print(&sink, stderr, 0);
        fprintf(stderr, "fuzz_sched: %s does not build\n", kase.passes[0].path);
        exit(2);
    }
    diag_sink_free(&sink);
    runpass_result r;
    run(0, 0, 0, &r);
    if (r.status != RUNPASS_COMPARED || r.noutputs != 6) {
        fprintf(stderr, "fuzz_sched: the fixed schedule does not run: %s\n", r.message ? r.message : "?");
        exit(2);
    }
    for (size_t i = 0; i < r.noutputs; i++)
        baseline[nbaseline++] = tensor_snapshot(r.outputs[i].actual);
    runpass_result_free(&r);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t seed = 0;
    for (size_t i = 0; i < size && i < 8; i++)
        seed = seed << 8 | data[i];
    int ready = size > 8 && (data[8] & 1);
    runpass_result r;
    run(seed, 1, ready, &r);
    if (ready) {
        if (r.status != RUNPASS_ERROR || !r.message || !strstr(r.message, "deadlock"))
            abort();
    } else {
        if (r.status != RUNPASS_COMPARED || r.noutputs != nbaseline)
            abort();
        for (size_t i = 0; i < r.noutputs; i++)
            if (!tensor_same_bits(r.outputs[i].actual, baseline[i]))
                abort();
    }
    runpass_result_free(&r);
    return 0;
}

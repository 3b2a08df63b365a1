/* Fuzzes the multi-rank runner with mutated pass dumps: each input is a
 * dump run as a pass of our two-rank case tests/data/multirank/
 * fence_contract, at its InsertCommFence pass (so the fence contract is
 * checked with the memory model, the race and signal checks and the
 * deadlock report), under the fixed schedule, for at most FUZZ_STEP_BUDGET
 * steps of the global schedule (a hostile loop must not hang the fuzzer;
 * the budget is deterministic, wall time is not). Seeds: every multi-rank
 * program of ours (tests/data/multirank, examples/multirank_*). Mutation:
 * the dumps' token mutator (dump_mutator.c).
 *
 * Checked: no crash (ASan, UBSan), every error and every end-check report
 * has a message, and what the pass computed can be compared. */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/case.h"
#include "ir/parse.h"
#include "ir/resolve.h"
#include "ranks/run.h"
#include "ranks/sched.h"

enum { FUZZ_STEP_BUDGET = 20000 };

static case_info kase;
static runpass_options opts;
static const char *pass_path; /* the InsertCommFence pass: reports and the fence check key on it */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char root[4096];
    snprintf(root, sizeof root, "%s/tests/data/multirank/fence_contract", fuzz_srcdir());
    case_options copt = {0};
    diag_sink sink;
    diag_sink_init(&sink, 20);
    if (case_open(root, &copt, &kase, &sink) != PTODB_OK || !kase.ranks.nranks) {
        diag_sink_print(&sink, stderr, 0);
        fprintf(stderr, "fuzz_rankprog: cannot open %s\n", root);
        exit(2);
    }
    diag_sink_free(&sink);
    for (size_t i = 0; i < kase.npasses && !pass_path; i++)
        if (kase.passes[i].name && strcmp(kase.passes[i].name, "InsertCommFence") == 0)
            pass_path = kase.passes[i].path;
    if (!pass_path) {
        fprintf(stderr, "fuzz_rankprog: %s has no InsertCommFence pass\n", root);
        exit(2);
    }
    /* a mutated dump may declare a host tensor of 2^31 elements: ptodb
     * refuses one beyond --max-tensor-bytes with a message (data/rank_bind.c),
     * and here that limit is under libFuzzer's 2 GB malloc limit, as a user
     * would set it on a small machine */
    tensor_set_max_bytes((uint64_t)256 << 20);
    machine_options_init(&opts.mopt);
    op_fn *ops = calloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    opts.ops = ops;
    return 0;
}

/* A report must say something. */
static void need_text(const strbuf *sb, const char *what)
{
    if (!sb->len) {
        fprintf(stderr, "fuzz_rankprog: %s without a message\n", what);
        abort();
    }
}

static void run(const xprogram *p)
{
    runpass_result res;
    memset(&res, 0, sizeof res);
    if (!ranks_program_runnable(pass_path, p, &res)) {
        if (!res.message)
            abort();
        runpass_result_free(&res);
        return;
    }
    strbuf err = STRBUF_INIT;
    runpass_status why;
    ranks_sched *s = ranks_sched_new(pass_path, p, &kase, &opts, &err, &why);
    if (!s) {
        need_text(&err, "a refused start");
        strbuf_free(&err);
        runpass_result_free(&res);
        return;
    }
    ranks_step_status st = RANKS_STEP_RAN;
    for (int i = 0; i < FUZZ_STEP_BUDGET && (st == RANKS_STEP_RAN || st == RANKS_STEP_PARKED); i++) {
        int rank;
        exec_event ev;
        st = ranks_sched_step(s, &rank, &ev, &err);
    }
    if (st == RANKS_STEP_DEADLOCK || st == RANKS_STEP_ERROR)
        need_text(&err, st == RANKS_STEP_DEADLOCK ? "a deadlock" : "an error");
    if (st == RANKS_STEP_DONE) {
        strbuf end = STRBUF_INIT;
        if (ranks_sched_end_checks(s, &end))
            need_text(&end, "an end check");
        strbuf_free(&end);
        ranks_sched_compare(s, &res);
    }
    if (getenv("PTODB_FUZZ_VERBOSE"))
        fprintf(stderr, "fuzz_rankprog: %s after %llu steps%s%s\n",
                st == RANKS_STEP_DONE       ? "finished"
                : st == RANKS_STEP_DEADLOCK ? "deadlocked"
                : st == RANKS_STEP_ERROR    ? "failed"
                                            : "stopped",
                (unsigned long long)ranks_sched_steps(s), err.len ? ": " : "", strbuf_str(&err));
    ranks_sched_free(s);
    strbuf_free(&err);
    runpass_result_free(&res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag_sink sink;
    diag_sink_init(&sink, 20);
    ptodb_status st;
    ir_module *m = ir_parse("fuzz.py", (const char *)data, size, &sink, &st);
    xprogram *p = NULL;
    if (st == PTODB_OK && ir_resolve(m, &sink) == PTODB_OK && exec_program_build(m, opts.ops, &p, &sink) == PTODB_OK)
        run(p);
    exec_program_free(p);
    ir_module_free(m);
    diag_sink_free(&sink);
    return 0;
}

/* Fuzzes bisect's statement trace across ranks (src/batch/trace.c's
 * multi-rank driver, divergence.c's rank-by-rank matching) with mutated
 * multi-rank pass dumps: each input is a dump, run as a pass of one of our
 * multi-rank cases of tests/data/multirank/ (the one whose program class it
 * names, else order_2397), traced twice as the passing and the failing
 * pass of a bisect. The property: a pass compared with itself under the
 * fixed schedule has no first divergence (every rank's records match the
 * same rank's, value for value), whatever the program does; and nothing
 * crashes, leaks or hangs. Each machine stops after FUZZ_STEP_BUDGET
 * statements (the machines' poll raises their interrupt flag: a step count,
 * deterministic, where a wall-time limit would not be); an interrupted
 * input checks nothing. */
#include "fuzz.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch/diverge.h"
#include "data/case.h"
#include "exec/machine.h"

enum { FUZZ_STEP_BUDGET = 40960 };

static const char *const case_names[] = {"order_2397", "defer_wait", "race_remote_store", "fence_contract"};
static const char *const case_classes[] = {"class Order2397", "class DeferWait", "class RemoteStoreRace",
                                           "class FenceContract"};
enum { NCASES = sizeof case_names / sizeof case_names[0] };
static case_info kases[NCASES];
static int opened[NCASES];
static runpass_options opts;
static volatile sig_atomic_t over_budget;

static void budget_poll(void *ud, const char *path, uint64_t steps)
{
    (void)ud, (void)path;
    if (steps >= FUZZ_STEP_BUDGET)
        over_budget = 1;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    for (int k = 0; k < NCASES; k++) {
        char root[4096];
        snprintf(root, sizeof root, "%s/tests/data/multirank/%s", fuzz_srcdir(), case_names[k]);
        case_options copt = {0};
        diag_sink sink;
        diag_sink_init(&sink, 20);
        /* a case another change removed is skipped, not a failure */
        opened[k] = case_open(root, &copt, &kases[k], &sink) == PTODB_OK && kases[k].ranks.nranks > 0;
        diag_sink_free(&sink);
    }
    if (!opened[0]) {
        fprintf(stderr, "fuzz_ranktrace: cannot open tests/data/multirank/order_2397\n");
        exit(2);
    }
    /* a mutated dump may declare a host tensor of 2^31 elements: ptodb
     * refuses one beyond --max-tensor-bytes with a message (data/rank_bind.c),
     * and here that limit is under libFuzzer's 2 GB malloc limit, as a user
     * would set it on a small machine */
    tensor_set_max_bytes((uint64_t)256 << 20);
    machine_options_init(&opts.mopt);
    opts.mopt.poll = budget_poll;
    opts.mopt.interrupt = &over_budget;
    op_fn *ops = calloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    opts.ops = ops;
    return 0;
}

static int contains(const uint8_t *d, size_t n, const char *s)
{
    size_t m = strlen(s);
    for (size_t i = 0; i + m <= n; i++)
        if (memcmp(d + i, s, m) == 0)
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int k = 0;
    for (int j = 1; j < NCASES; j++)
        if (opened[j] && contains(data, size, case_classes[j]))
            k = j;
    const char *path = fuzz_memfile(data, size);
    divergence_side side = {path, "fuzz", &kases[k]};
    over_budget = 0;
    bisect_stmt s;
    divergence_find(&side, &side, &opts, 0.05, 0.05, (size_t)64 << 20, &s);
    strbuf out = STRBUF_INIT;
    diverge_report_text(&s, "fuzz", "fuzz", 0.05, 0.05, &out);
    if (getenv("PTODB_FUZZ_VERBOSE"))
        fprintf(stderr, "fuzz_ranktrace (%s%s): %s", case_names[k], over_budget ? ", over budget" : "",
                strbuf_str(&out));
    if (!over_budget && s.found) {
        fprintf(stderr, "fuzz_ranktrace: a pass differs from itself:\n%s", strbuf_str(&out));
        abort();
    }
    strbuf_free(&out);
    divergence_stmt_free(&s);
    return 0;
}

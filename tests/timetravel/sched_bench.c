/* make bench (scripts/bench.d/schedule): what recording a run's schedule
 * costs (docs/schedule.md). On one pass of a case, the CPU time of the
 * machine's run (machine_run, after the inputs are bound: loading is the
 * same either way) with recording over the same without, best of R rounds,
 * under the fixed schedule (no decision is kept: the cost of the checks)
 * and under random:1 (a decision at most group steps); then the replay of
 * the random run's file against the random run itself.
 *   sched_bench CASE PASS_INDEX [ROUNDS] */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "data/case.h"
#include "exec/runpass.h"
#include "exec/schedule.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One run's CPU seconds; *text gets the recorded file when recording. */
static double run_once(const case_info *c, const char *path, const op_fn *ops, int kind, int record,
                       const exec_schedule *play, uint64_t *steps, size_t *decisions, strbuf *text)
{
    runpass_options ro;
    memset(&ro, 0, sizeof ro);
    machine_options_init(&ro.mopt);
    ro.mopt.reuse_dead = 1; /* as --run */
    ro.mopt.sched = (exec_sched)kind;
    ro.mopt.seed = 1;
    ro.ops = ops;
    ro.record_schedule = record;
    ro.replay = play;
    runpass_run rp;
    runpass_open(&rp, path, NULL, c, &ro, NULL, NULL, RUNPASS_OPEN_DESPITE_REF);
    if (!rp.m || rp.start != PTODB_OK) {
        fprintf(stderr, "sched_bench: %s does not start: %s\n", path, rp.message ? rp.message : "?");
        exit(1);
    }
    double t0 = cpu_now();
    ptodb_status st = machine_run(rp.m);
    double t = cpu_now() - t0;
    if (st != PTODB_OK) {
        fprintf(stderr, "sched_bench: %s: %s\n", path, machine_error(rp.m));
        exit(1);
    }
    *steps = machine_steps(rp.m);
    if (rp.sched) {
        *decisions = rp.sched->n;
        if (text) {
            strbuf_clear(text);
            exec_schedule_format_head(text);
            exec_sched_pass_format(rp.sched, text);
        }
    }
    runpass_close(&rp);
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: sched_bench CASE PASS_INDEX [ROUNDS]\n");
        return 2;
    }
    int index = atoi(argv[2]), rounds = argc > 3 ? atoi(argv[3]) : 5;
    diag_sink sink;
    diag_sink_init(&sink, 20);
    case_info c;
    case_options co;
    memset(&co, 0, sizeof co);
    if (case_open(argv[1], &co, &c, &sink) != PTODB_OK) {
        fprintf(stderr, "sched_bench: cannot open %s\n", argv[1]);
        return 2;
    }
    const char *path = NULL;
    for (size_t i = 0; i < c.npasses; i++)
        if (c.passes[i].index == index)
            path = c.passes[i].path;
    if (!path) {
        fprintf(stderr, "sched_bench: no pass %d in %s\n", index, argv[1]);
        return 2;
    }
    op_fn *ops = calloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    strbuf text = STRBUF_INIT;
    static const char *const names[] = {"fixed", "random:1"};
    static const int kinds[] = {EXEC_SCHED_FIXED, EXEC_SCHED_RANDOM};
    printf("pass %d of %s, best CPU time of %d rounds:\n", index, argv[1], rounds);
    for (int k = 0; k < 2; k++) {
        double plain = 1e30, rec = 1e30, play = 1e30;
        uint64_t steps = 0;
        size_t decisions = 0, nd = 0;
        for (int r = 0; r < rounds; r++) {
            double t = run_once(&c, path, ops, kinds[k], 0, NULL, &steps, &nd, NULL);
            plain = t < plain ? t : plain;
            t = run_once(&c, path, ops, kinds[k], 1, NULL, &steps, &decisions, &text);
            rec = t < rec ? t : rec;
        }
        strbuf err = STRBUF_INIT;
        exec_schedule *s = exec_schedule_parse("bench.sched", strbuf_str(&text), text.len, &err);
        if (!s) {
            fprintf(stderr, "sched_bench: %s\n", strbuf_str(&err));
            return 1;
        }
        for (int r = 0; r < rounds; r++) {
            double t = run_once(&c, path, ops, EXEC_SCHED_FIXED, 0, s, &steps, &nd, NULL);
            play = t < play ? t : play;
        }
        exec_schedule_free(s);
        strbuf_free(&err);
        printf("  %-9s %" PRIu64 " statements, %zu decisions (%zu bytes of file): run %.4f s, recording %.4f s "
               "(%.3fx), replaying %.4f s (%.3fx)\n",
               names[k], steps, decisions, text.len, plain, rec, rec / plain, play, play / plain);
    }
    strbuf_free(&text);
    free(ops);
    case_free(&c);
    diag_sink_free(&sink);
    return 0;
}

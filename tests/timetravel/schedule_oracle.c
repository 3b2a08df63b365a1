/* The oracle of schedule record and replay (tests/cli/schedule_replay.sh,
 * docs/schedule.md). For every pass of a case with a choice to make
 * (cross-core queues or an SPMD launch) and each of N random seeds:
 *   A. the pass runs under --schedule random:SEED, recording; the state
 *      hash without the scheduler's own state (machine_program_state_hash)
 *      is kept at every step, with the outputs' bytes at the end;
 *   the recorded section is printed, parsed back, and must print the same
 *      (the format round-trips);
 *   B. the pass runs under the fixed schedule replaying the parsed file:
 *      the same hash at every step, the same end (step, finished or
 *      failed, message) and the same output bytes, bit for bit;
 *   B'. again under another random schedule (random:SEED+1000), which the
 *      replay must ignore: the same again;
 *   C. a plain fixed-schedule run, only counted: how many of the random
 *      schedules lead to another state sequence (the test has teeth when
 *      some do).
 * Then, for the first seed, a debugger session replays the written file
 * (`replay schedule FILE`, `start PASS`) and, at M moments right after a
 * core's statement, visited in random order, must give B's full state
 * hash after `seek @STEP`, and again after `reverse-step` then `step` on
 * that core (every such moment: `step` comes back from where reverse-step
 * lands, a core that was blocked or waiting for its group call included).
 * On a pass of more than H steps (--hashes H, 4000), the hashes are
 * taken every (steps / H)-th step, so that a long pass's tensors are not
 * hashed at each of its steps; the outputs are compared bit for bit all
 * the same.
 * A pass file with the bytes of an earlier checked one and the same
 * memory-model options (runpass_memory_options: all that runpass takes from
 * the pass's place in the case) is the same program on the same data: every
 * run above would repeat the earlier one's step for step, so it is counted
 * as identical and not run again (as --batch and seek_oracle do; the
 * pass's index and name are only labels in the recorded file).
 *   schedule_oracle CASE TMPFILE [--seeds N] [--moments M] [--seed S] [--pass INDEX] [--hashes H]
 * Prints the counts; exit 0 when nothing differs, 1 otherwise. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomic_file.h"
#include "base/diag.h"
#include "base/fdio.h"
#include "base/strbuf.h"
#include "data/case.h"
#include "debug/state/session.h"
#include "debug/run/timetravel.h"
#include "exec/inspect.h"
#include "exec/runpass.h"
#include "exec/schedule.h"
#include "exec/snapshot.h"

static void quiet(void *ctx, session_stream stream, const char *text, size_t len)
{
    (void)ctx;
    (void)stream;
    (void)text;
    (void)len;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* One straight run's trace. */
typedef struct trace {
    uint64_t *prog;   /* program hash at step t (t = 0 .. steps) */
    uint64_t *full;   /* full hash at step t */
    int8_t *moved;    /* core whose statement made step t (t >= 1), -1 none */
    uint64_t steps;
    int failed;
    char *error;
    uint64_t outputs; /* the entry's tensors' bytes */
    char *schedule;   /* recorded: the file's text */
} trace;

static void trace_free(trace *t)
{
    free(t->prog);
    free(t->full);
    free(t->moved);
    free(t->error);
    free(t->schedule);
    memset(t, 0, sizeof *t);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

/* Hash every `stride`-th step (1 on the examples: every step; a long
 * pass's tensors would be hashed at each of its steps otherwise). */
static uint64_t stride = 1;
/* Take the full state hash too (trace.full): only in the run the debugger's
 * seeks are checked against; the others compare program hashes only. */
static int with_full;

/* Pass p of c repeats an earlier pass of texts (the files' bytes, NULL where
 * not checked): the same bytes, and the same options from the memory model
 * (all else runpass_open takes from the case is the same for every pass). */
static int twin_of_earlier(const case_info *c, size_t p, char *const *texts, const size_t *lens)
{
    machine_options here;
    machine_options_init(&here);
    here.memcheck = 1;
    runpass_memory_options(c->passes[p].path, c, &here);
    for (size_t q = 0; q < p; q++) {
        if (!texts[q] || !texts[p] || lens[q] != lens[p] || memcmp(texts[q], texts[p], lens[p]) != 0)
            continue;
        machine_options there;
        machine_options_init(&there);
        there.memcheck = 1;
        runpass_memory_options(c->passes[q].path, c, &there);
        if (here.mem_target == there.mem_target && here.mem_addressed == there.mem_addressed &&
            here.mem_yields_move == there.mem_yields_move)
            return 1;
    }
    return 0;
}

/* Runs path with schedule (kind, seed), recording or replaying play. */
static int run_trace(const case_info *c, const char *path, const op_fn *ops, int kind, uint64_t seed, int record,
                     const exec_schedule *play, trace *t)
{
    memset(t, 0, sizeof *t);
    runpass_options ro;
    memset(&ro, 0, sizeof ro);
    machine_options_init(&ro.mopt);
    ro.mopt.provenance = 1; /* as the debugger's run */
    ro.mopt.sched = (exec_sched)kind;
    ro.mopt.seed = seed;
    ro.ops = ops;
    ro.record_schedule = record;
    ro.replay = play;
    runpass_run rp;
    runpass_open(&rp, path, NULL, c, &ro, NULL, NULL, RUNPASS_OPEN_DESPITE_REF);
    if (!rp.m || rp.start != PTODB_OK) {
        if (rp.message)
            t->error = strdup(rp.message);
        runpass_close(&rp);
        return -1;
    }
    size_t cap = 1024;
    t->prog = malloc(cap * sizeof *t->prog);
    t->full = malloc(cap * sizeof *t->full);
    t->moved = malloc(cap);
    for (;;) {
        uint64_t now = machine_steps(rp.m);
        if (now + 1 >= cap) {
            cap *= 2;
            t->prog = realloc(t->prog, cap * sizeof *t->prog);
            t->full = realloc(t->full, cap * sizeof *t->full);
            t->moved = realloc(t->moved, cap);
        }
        int hashed = stride == 1 || now % stride == 0;
        t->prog[now] = hashed ? machine_program_state_hash(rp.m) : 0;
        t->full[now] = hashed && with_full ? machine_state_hash(rp.m) : 0;
        t->steps = now;
        exec_event ev;
        ptodb_status st = machine_step(rp.m, &ev);
        if (st != PTODB_OK || ev.kind == EXEC_EV_ERROR) {
            t->failed = 1;
            t->error = strdup(machine_error(rp.m));
            t->steps = machine_steps(rp.m);
            break;
        }
        if (ev.kind == EXEC_EV_DONE)
            break;
        /* a core's last statement leaves it done: the debugger then shows the host */
        int moved = (ev.kind == EXEC_EV_STMT || ev.kind == EXEC_EV_CALL || ev.kind == EXEC_EV_RETURN) &&
                    inspect_depth(rp.m, ev.core) > 0 && (stride == 1 || machine_steps(rp.m) % stride == 0);
        t->moved[machine_steps(rp.m)] = (int8_t)(moved ? ev.core : -1);
    }
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < rp.nbinds; i++)
        if (rp.binds[i].t) {
            tensor *ct = tensor_contiguous(rp.binds[i].t);
            h = fnv(h, tensor_data(ct), dtype_size(ct->dtype) * (size_t)tensor_numel(ct));
            tensor_unref(ct);
        }
    t->outputs = h;
    if (rp.sched) {
        strbuf sb = STRBUF_INIT;
        exec_schedule_format_head(&sb);
        if (rp.sched->end == EXEC_SCHED_END_NONE)
            exec_sched_pass_end(rp.sched, machine_steps(rp.m),
                                t->failed ? EXEC_SCHED_END_FAILED : EXEC_SCHED_END_FINISHED);
        exec_sched_pass_format(rp.sched, &sb);
        t->schedule = strbuf_detach(&sb);
    }
    runpass_close(&rp);
    return 0;
}

/* 0 when b replays a step for step. */
static int same_trace(const char *what, const char *stem, uint64_t seed, const trace *a, const trace *b)
{
    if (a->steps != b->steps || a->failed != b->failed) {
        fprintf(stderr, "%s: seed %" PRIu64 ": %s ends at step %" PRIu64 " (%s), the recorded run at %" PRIu64 " (%s)%s%s\n",
                stem, seed, what, b->steps, b->failed ? "failed" : "finished", a->steps,
                a->failed ? "failed" : "finished", b->error ? ": " : "", b->error ? b->error : "");
        return 1;
    }
    /* the hashes both runs took: every moment before a failing step */
    uint64_t last = a->failed ? a->steps - 1 : a->steps;
    for (uint64_t i = 0; a->steps && i <= last; i++)
        if ((stride == 1 || i % stride == 0) && a->prog[i] != b->prog[i]) {
            fprintf(stderr, "%s: seed %" PRIu64 ": %s differs from the recorded run at step %" PRIu64 "\n", stem, seed,
                    what, i);
            return 1;
        }
    if (a->outputs != b->outputs || (a->error && b->error && strcmp(a->error, b->error) != 0)) {
        fprintf(stderr, "%s: seed %" PRIu64 ": %s: other outputs or error\n", stem, seed, what);
        return 1;
    }
    return 0;
}

static int has_choices(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096];
    int yes = 0;
    while (!yes && fgets(line, sizeof line, f))
        yes = strstr(line, "tpush_to_") != NULL || strstr(line, "tpop_from_") != NULL ||
              strstr(line, "pl.spmd") != NULL || strstr(line, "get_block_idx") != NULL;
    fclose(f);
    return yes;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: schedule_oracle CASE TMPFILE [--seeds N] [--moments M] [--seed S] [--pass INDEX] [--hashes H]\n");
        return 2;
    }
    const char *tmp = argv[2];
    int seeds = 3, only = -1;
    uint64_t max_hashes = 4000;
    size_t strided = 0;
    size_t want = 40;
    for (int i = 3; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--seeds") == 0)
            seeds = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--moments") == 0)
            want = (size_t)strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--seed") == 0)
            rng = strtoull(argv[i + 1], NULL, 10) | 1;
        else if (strcmp(argv[i], "--pass") == 0)
            only = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--hashes") == 0)
            max_hashes = strtoull(argv[i + 1], NULL, 10) ? strtoull(argv[i + 1], NULL, 10) : 1;
    }
    diag_sink sink;
    diag_sink_init(&sink, 20);
    case_info c;
    case_options co;
    memset(&co, 0, sizeof co);
    if (case_open(argv[1], &co, &c, &sink) != PTODB_OK) {
        fprintf(stderr, "schedule_oracle: cannot open %s\n", argv[1]);
        return 2;
    }
    op_fn *ops = calloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    session *s = session_new();
    session_set_output(s, quiet, NULL);
    if (session_open(s, argv[1], -1, -1) != PTODB_OK) {
        fprintf(stderr, "schedule_oracle: the session cannot open %s\n", argv[1]);
        return 2;
    }
    size_t runs = 0, bad = 0, decisions = 0, other_than_fixed = 0, moments = 0, bad_seek = 0, trips = 0,
           bad_trip = 0, unchecked = 0, twins = 0;
    char **texts = calloc(c.npasses ? c.npasses : 1, sizeof *texts);
    size_t *lens = calloc(c.npasses ? c.npasses : 1, sizeof *lens);
    for (size_t p = 0; p < c.npasses; p++) {
        if ((only >= 0 && c.passes[p].index != only) || !has_choices(c.passes[p].path))
            continue;
        texts[p] = file_read_all(c.passes[p].path, &lens[p]);
        if (twin_of_earlier(&c, p, texts, lens)) {
            twins++;
            continue;
        }
        const char *stem = c.passes[p].stem;
        trace fixed;
        stride = UINT64_MAX; /* a first run only counts the steps */
        if (run_trace(&c, c.passes[p].path, ops, EXEC_SCHED_FIXED, 0, 0, NULL, &fixed) != 0) {
            trace_free(&fixed);
            continue;
        }
        stride = fixed.steps > max_hashes ? fixed.steps / max_hashes : 1;
        strided += stride > 1;
        trace_free(&fixed);
        run_trace(&c, c.passes[p].path, ops, EXEC_SCHED_FIXED, 0, 0, NULL, &fixed);
        for (int k = 0; k < seeds; k++) {
            uint64_t seed = (uint64_t)k * 7919 + 1;
            trace a, b, b2;
            if (run_trace(&c, c.passes[p].path, ops, EXEC_SCHED_RANDOM, seed, 1, NULL, &a) != 0) {
                trace_free(&a);
                continue;
            }
            runs++;
            strbuf err = STRBUF_INIT;
            exec_schedule *play = exec_schedule_parse(tmp, a.schedule, strlen(a.schedule), &err);
            if (!play) {
                fprintf(stderr, "%s: seed %" PRIu64 ": the recorded file does not parse: %s\n", stem, seed,
                        strbuf_str(&err));
                bad++;
                strbuf_free(&err);
                trace_free(&a);
                continue;
            }
            strbuf again = STRBUF_INIT;
            exec_schedule_format_head(&again);
            exec_sched_pass_format(play->passes[0], &again);
            if (strcmp(strbuf_str(&again), a.schedule) != 0) {
                fprintf(stderr, "%s: seed %" PRIu64 ": the file does not print back the same\n", stem, seed);
                bad++;
            }
            strbuf_free(&again);
            decisions += play->passes[0]->n;
            int differs = fixed.steps != a.steps;
            for (uint64_t i = 0; !differs && i <= a.steps && i <= fixed.steps; i++)
                differs = i < a.steps && (stride == 1 || i % stride == 0) && fixed.prog[i] != a.prog[i];
            other_than_fixed += differs;
            with_full = k == 0 && want; /* the debugger's seeks below check against b */
            run_trace(&c, c.passes[p].path, ops, EXEC_SCHED_FIXED, 0, 0, play, &b);
            with_full = 0;
            bad += same_trace("the replay", stem, seed, &a, &b);
            run_trace(&c, c.passes[p].path, ops, EXEC_SCHED_RANDOM, seed + 1000, 0, play, &b2);
            bad += same_trace("the replay under another random schedule", stem, seed, &a, &b2);
            if (k == 0 && want && atomic_file_write(tmp, a.schedule, strlen(a.schedule)) == 0) {
                /* the debugger replays the file: seek, and reverse-step + step */
                char cmd[4200];
                snprintf(cmd, sizeof cmd, "replay schedule %s", tmp);
                session_execute(s, cmd);
                snprintf(cmd, sizeof cmd, "start %d", c.passes[p].index);
                if (session_execute(s, cmd) == PTODB_OK) {
                    uint64_t *cand = malloc((b.steps + 1) * sizeof *cand);
                    size_t nc = 0;
                    for (uint64_t t = 1; t < b.steps; t++)
                        if (b.moved[t] >= 0)
                            cand[nc++] = t;
                    size_t n = nc < want ? nc : want;
                    for (size_t i = 0; i < n; i++) {
                        size_t j = i + (size_t)(rnd() % (nc - i));
                        uint64_t x = cand[i];
                        cand[i] = cand[j];
                        cand[j] = x;
                    }
                    for (size_t i = 0; i < n; i++) {
                        uint64_t t = cand[i];
                        int core = b.moved[t];
                        moments++;
                        snprintf(cmd, sizeof cmd, "seek @%" PRIu64, t);
                        session_execute(s, cmd);
                        if (tt_now(s) != t || tt_state_hash(s) != b.full[t]) {
                            bad_seek++;
                            fprintf(stderr, "%s: seed %" PRIu64 ": seek @%" PRIu64 " under the replay: at step %" PRIu64 ", other state\n",
                                    stem, seed, t, tt_now(s));
                            continue;
                        }
                        snprintf(cmd, sizeof cmd, "core %s", core == 0 ? "host" : core == 1 ? "aic" : core == 2 ? "aiv0" : "aiv1");
                        if (session_execute(s, cmd) != PTODB_OK) {
                            unchecked++;
                            continue;
                        }
                        /* t is the core's arrival by a statement of its own: reverse-step goes
                         * where `step` comes back from (the moment before the core moved on
                         * when it was blocked or waiting for its group call there) */
                        session_execute(s, "reverse-step");
                        session_execute(s, "step");
                        trips++;
                        if (tt_now(s) != t || tt_state_hash(s) != b.full[t]) {
                            bad_trip++;
                            fprintf(stderr, "%s: seed %" PRIu64 ": reverse-step + step from @%" PRIu64 " under the replay: at step %" PRIu64 "\n",
                                    stem, seed, t, tt_now(s));
                        }
                    }
                    free(cand);
                }
                session_execute(s, "kill");
                session_execute(s, "replay schedule off");
            }
            trace_free(&a);
            trace_free(&b);
            trace_free(&b2);
            exec_schedule_free(play);
            strbuf_free(&err);
        }
        trace_free(&fixed);
    }
    if (strided)
        printf("(%zu passes of more than %" PRIu64 " steps: hashed at about %" PRIu64 " moments each) ", strided,
               max_hashes, max_hashes);
    printf("%zu recorded runs (%zu decisions; %zu of them run otherwise than the fixed schedule): %zu replays "
           "differ; debugger: %zu seeks, %zu differ; reverse-step + step %zu checked, %zu differ (%zu where the "
           "core cannot be selected)",
           runs, decisions, other_than_fixed, bad, moments, bad_seek, trips, bad_trip, unchecked);
    if (twins)
        printf("; %zu more passes identical to one of them, not run again", twins);
    printf("\n");
    for (size_t p = 0; p < c.npasses; p++)
        free(texts[p]);
    free(texts);
    free(lens);
    session_free(s);
    free(ops);
    case_free(&c);
    diag_sink_free(&sink);
    return bad || bad_seek || bad_trip ? 1 : 0;
}

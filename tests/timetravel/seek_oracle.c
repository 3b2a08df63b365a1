/* The oracle of reverse execution (tests/cli/timetravel_fixtures.sh): for
 * every pass of a case with cross-core queues, a straight run of the pass
 * on a machine of its own (no checkpoints, no debugger) hashes its whole
 * state (machine_state_hash: cores, frames, slots, queues, every tensor's
 * bytes) at N random moments; then a debugger session on the same pass
 * must give the same hash
 *   1. after `seek @STEP` to each moment, visited in random order (backward
 *      and forward jumps: restores of checkpoints and replays);
 *   2. after `seek POSITION` with the position `when` printed there (each
 *      moment is chosen right after a core's move, so its position names it);
 *   3. after `reverse-step` then `step` on that core, wherever the core can
 *      run at the earlier moment and does not block on a queue before its
 *      next statement (then `step` follows the core the scheduler runs, as
 *      going forward does; both counted apart).
 *   seek_oracle CASE [--positions N] [--seed S] [--pass INDEX]
 * Prints the counts; exit 0 when nothing differs, 1 otherwise. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "data/case.h"
#include "debug/session.h"
#include "debug/timetravel.h"
#include "exec/inspect.h"
#include "exec/runpass.h"
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

typedef struct moment {
    uint64_t step;
    int core;
    uint64_t hash;
    char pos[128];
} moment;

static int cmp_step(const void *a, const void *b)
{
    const moment *x = a, *y = b;
    return x->step < y->step ? -1 : x->step > y->step;
}

/* The straight run: the moments after a core's statement (not its last),
 * and the hashes at the chosen ones. Returns how many were chosen. */
static size_t straight(const case_info *c, const char *path, const op_fn *ops, moment *out, size_t want)
{
    runpass_options ro;
    memset(&ro, 0, sizeof ro);
    machine_options_init(&ro.mopt);
    ro.mopt.provenance = 1; /* as the debugger's run (run.c) */
    ro.ops = ops;
    uint64_t *cand = NULL;
    int *cand_core = NULL;
    size_t ncand = 0, capcand = 0;
    for (int pass = 0; pass < 2; pass++) {
        runpass_run rp;
        runpass_open(&rp, path, NULL, c, &ro, NULL, NULL, RUNPASS_OPEN_DESPITE_REF);
        if (!rp.m || rp.start != PTODB_OK) {
            runpass_close(&rp);
            free(cand);
            free(cand_core);
            return 0;
        }
        size_t k = 0;
        for (;;) {
            exec_event ev;
            if (pass == 1)
                while (k < want && out[k].step == machine_steps(rp.m))
                    out[k++].hash = machine_state_hash(rp.m);
            if (machine_step(rp.m, &ev) != PTODB_OK || ev.kind == EXEC_EV_ERROR || ev.kind == EXEC_EV_DONE)
                break;
            int moved = ev.kind == EXEC_EV_STMT || ev.kind == EXEC_EV_CALL || ev.kind == EXEC_EV_RETURN;
            if (pass == 0 && moved && !machine_finished(rp.m) && inspect_depth(rp.m, ev.core) > 0) {
                if (ncand == capcand) {
                    capcand = capcand ? 2 * capcand : 1024;
                    cand = realloc(cand, capcand * sizeof *cand);
                    cand_core = realloc(cand_core, capcand * sizeof *cand_core);
                }
                cand[ncand] = machine_steps(rp.m);
                cand_core[ncand++] = ev.core;
            }
        }
        runpass_close(&rp);
        if (pass == 0) {
            if (!ncand)
                break;
            if (want > ncand)
                want = ncand;
            /* want distinct moments: a partial shuffle of the candidates */
            for (size_t i = 0; i < want; i++) {
                size_t j = i + (size_t)(rnd() % (ncand - i));
                uint64_t t = cand[i];
                cand[i] = cand[j];
                cand[j] = t;
                int tc = cand_core[i];
                cand_core[i] = cand_core[j];
                cand_core[j] = tc;
                out[i].step = cand[i];
                out[i].core = cand_core[i];
            }
            qsort(out, want, sizeof *out, cmp_step);
        }
    }
    free(cand);
    free(cand_core);
    return ncand ? want : 0;
}

static int has_queues(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096];
    int yes = 0;
    while (!yes && fgets(line, sizeof line, f))
        yes = strstr(line, "tpush_to_") != NULL || strstr(line, "tpop_from_") != NULL;
    fclose(f);
    return yes;
}

/* The whole file at path, NUL-terminated, or NULL. */
static char *read_text(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    strbuf sb = STRBUF_INIT;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
        strbuf_append(&sb, buf, n);
    fclose(fp);
    return strbuf_detach(&sb);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: seek_oracle CASE [--positions N] [--seed S] [--pass INDEX] [--all 1]\n");
        return 2;
    }
    size_t want = 200;
    int only = -1, all = 0;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--all") == 0) /* every pass, queues or not (SPMD blocks, tasks, memory) */
            all = atoi(argv[i + 1]);
        if (strcmp(argv[i], "--positions") == 0)
            want = (size_t)strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--seed") == 0)
            rng = strtoull(argv[i + 1], NULL, 10) | 1;
        else if (strcmp(argv[i], "--pass") == 0)
            only = atoi(argv[i + 1]);
    }
    diag_sink sink;
    diag_sink_init(&sink, 20);
    case_info c;
    case_options co;
    memset(&co, 0, sizeof co);
    if (case_open(argv[1], &co, &c, &sink) != PTODB_OK) {
        fprintf(stderr, "seek_oracle: cannot open %s\n", argv[1]);
        return 2;
    }
    op_fn *ops = calloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    moment *mo = calloc(want ? want : 1, sizeof *mo);
    session *s = session_new();
    session_set_output(s, quiet, NULL);
    if (session_open(s, argv[1], -1, -1) != PTODB_OK) {
        fprintf(stderr, "seek_oracle: the session cannot open %s\n", argv[1]);
        return 2;
    }
    size_t passes = 0, total = 0, bad_step = 0, bad_pos = 0, trips = 0, bad_trip = 0, waits = 0, blocked = 0;
    size_t twins = 0;
    char **texts = calloc(c.npasses ? c.npasses : 1, sizeof *texts);
    for (size_t p = 0; p < c.npasses; p++) {
        if ((only >= 0 && c.passes[p].index != only) || (!all && !has_queues(c.passes[p].path)))
            continue;
        /* a pass file with the bytes of an earlier one is the same program
         * on the same data: its moments are the earlier one's (as --batch
         * runs it once) */
        texts[p] = read_text(c.passes[p].path);
        int twin = 0;
        for (size_t q = 0; q < p && texts[p] && !twin; q++)
            twin = texts[q] && strcmp(texts[q], texts[p]) == 0;
        if (twin) {
            twins++;
            continue;
        }
        size_t n = straight(&c, c.passes[p].path, ops, mo, want);
        if (!n)
            continue;
        char cmd[256];
        snprintf(cmd, sizeof cmd, "start %d", c.passes[p].index);
        if (session_execute(s, cmd) != PTODB_OK)
            continue;
        passes++;
        total += n;
        /* 1: by step, in random order */
        size_t *order = malloc(n * sizeof *order);
        for (size_t i = 0; i < n; i++)
            order[i] = i;
        for (size_t i = n; i > 1; i--) {
            size_t j = (size_t)(rnd() % i), t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
        for (size_t k = 0; k < n; k++) {
            moment *m = &mo[order[k]];
            snprintf(cmd, sizeof cmd, "seek @%" PRIu64, m->step);
            session_execute(s, cmd);
            if (tt_now(s) != m->step || tt_state_hash(s) != m->hash) {
                bad_step++;
                fprintf(stderr, "%s: seek @%" PRIu64 ": at step %" PRIu64 ", hash %016" PRIx64 " (straight run %016" PRIx64 ")\n",
                        c.passes[p].stem, m->step, tt_now(s), tt_state_hash(s), m->hash);
            }
            m->pos[0] = 0;
            tt_position(s, m->core, m->pos, sizeof m->pos);
        }
        /* 2: by position, and 3: reverse-step then step */
        for (size_t k = 0; k < n; k++) {
            moment *m = &mo[order[k]];
            if (!m->pos[0]) {
                bad_pos++;
                fprintf(stderr, "%s: no position at step %" PRIu64 "\n", c.passes[p].stem, m->step);
                continue;
            }
            snprintf(cmd, sizeof cmd, "seek %s", m->pos);
            session_execute(s, cmd);
            if (tt_state_hash(s) != m->hash) {
                bad_pos++;
                fprintf(stderr, "%s: seek %s (step %" PRIu64 "): at step %" PRIu64 "\n", c.passes[p].stem, m->pos,
                        m->step, tt_now(s));
                continue;
            }
            session_execute(s, "reverse-step");
            snprintf(cmd, sizeof cmd, "core %s", m->core == 0 ? "host" : m->core == 1 ? "aic" : m->core == 2 ? "aiv0" : "aiv1");
            if (!tt_core_can_run(s, m->core) || session_execute(s, cmd) != PTODB_OK) {
                waits++;
                continue;
            }
            session_execute(s, "step");
            char after[128], on[32];
            snprintf(on, sizeof on, ":%s:", machine_core_name(m->core));
            if (!tt_position(s, -1, after, sizeof after) || strstr(after, on) == NULL) {
                /* the core blocked on a queue first: step followed the
                 * core the scheduler ran ("[Switching to ...]") */
                blocked++;
                continue;
            }
            trips++;
            if (tt_state_hash(s) != m->hash || tt_now(s) != m->step) {
                bad_trip++;
                fprintf(stderr, "%s: reverse-step + step from %s (step %" PRIu64 "): at step %" PRIu64 "\n",
                        c.passes[p].stem, m->pos, m->step, tt_now(s));
            }
        }
        free(order);
        session_execute(s, "kill");
    }
    for (size_t p = 0; p < c.npasses; p++)
        free(texts[p]);
    free(texts);
    printf("%zu distinct passes with queues (%zu more identical to one of them), %zu moments: seek by step %zu differ; by position %zu differ; "
           "reverse-step + step %zu checked, %zu differ (%zu where the core waits for its group, %zu where it "
           "blocks on a queue and step follows another core)\n",
           passes, twins, total, bad_step, bad_pos, trips, bad_trip, waits, blocked);
    session_free(s);
    free(mo);
    free(ops);
    case_free(&c);
    diag_sink_free(&sink);
    return bad_step || bad_pos || bad_trip ? 1 : 0;
}

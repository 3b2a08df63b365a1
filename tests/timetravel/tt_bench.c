/* Time travel's figures (scripts/bench.d/timetravel): on one pass of a
 * case, in a debugger session,
 *   - the forward run to the end with automatic checkpoints against the
 *     same run with them off (`set checkpoint-interval 0`): the ratio;
 *   - the checkpoints' memory at the end against the live tensors' bytes;
 *   - `seek @STEP` to N random moments in random order: p50 and p99, and
 *     `seek POSITION` with the positions of N random moments;
 *   - `reverse-step` from each of N random moments: p50 and p99, and a run
 *     of N consecutive reverse-steps from the end.
 *   tt_bench CASE PASS [N]
 * Prints one line per figure; latencies are wall time (p50, p99). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "debug/state/session.h"
#include "debug/run/timetravel.h"

static void quiet(void *ctx, session_stream stream, const char *text, size_t len)
{
    (void)ctx;
    (void)len;
    if (stream == SESSION_ERR)
        fwrite(text, 1, len, stderr);
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void pct(const char *what, double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_d);
    size_t i99 = n ? (n * 99 + 99) / 100 - 1 : 0;
    printf("%s: %zu samples, p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", what, n, n ? v[n / 2] * 1e3 : 0,
           n ? v[i99 < n ? i99 : n - 1] * 1e3 : 0, n ? v[n - 1] * 1e3 : 0);
}

static double timed(session *s, const char *cmd)
{
    double t0 = clock_seconds();
    session_execute(s, cmd);
    return clock_seconds() - t0;
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* `start PASS` then `continue` to the end: the CPU seconds (the machine
 * may be shared), best of 5. */
static double forward(session *s, const char *start, const char *interval)
{
    char cmd[64];
    snprintf(cmd, sizeof cmd, "set checkpoint-interval %s", interval);
    session_execute(s, cmd);
    double best = 1e9;
    for (int i = 0; i < 5; i++) {
        session_execute(s, start);
        double t0 = cpu_seconds();
        session_execute(s, "continue");
        double t = cpu_seconds() - t0;
        if (t < best)
            best = t;
    }
    return best;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: tt_bench CASE PASS [N]\n");
        return 2;
    }
    size_t n = argc > 3 ? (size_t)strtoul(argv[3], NULL, 10) : 200;
    session *s = session_new();
    session_set_output(s, quiet, NULL);
    if (session_open(s, argv[1], -1, -1) != PTODB_OK)
        return 2;
    char start[64];
    snprintf(start, sizeof start, "start %s", argv[2]);
    double off = forward(s, start, "0"), on = forward(s, start, "2048");
    double off2 = forward(s, start, "0"), on2 = forward(s, start, "2048");
    off = off2 < off ? off2 : off;
    on = on2 < on ? on2 : on;
    uint64_t end = tt_now(s);
    size_t bytes, live, count;
    tt_memory(s, &bytes, &live, &count);
    printf("forward run to the end (%" PRIu64 " statements): %.3f s CPU with automatic checkpoints, %.3f s without: %.2fx\n",
           end, on, off, off > 0 ? on / off : 0);
    printf("checkpoints: %zu, %.1f MiB; live tensors %.1f MiB: %.2fx\n", count, (double)bytes / 1048576.0,
           (double)live / 1048576.0, live ? (double)bytes / (double)live : 0);
    if (end < 2)
        return 1;
    double *v = calloc(n ? n : 1, sizeof *v);
    char cmd[64];
    for (size_t i = 0; i < n; i++) {
        uint64_t from = tt_now(s);
        snprintf(cmd, sizeof cmd, "seek @%" PRIu64, 1 + rnd() % (end - 1));
        v[i] = timed(s, cmd);
        if (getenv("TT_BENCH_VERBOSE"))
            fprintf(stderr, "%s from %" PRIu64 ": %.1f ms\n", cmd, from, v[i] * 1e3);
    }
    pct("seek @STEP (random moments, random order)", v, n);
    char (*pos)[128] = calloc(n ? n : 1, sizeof *pos);
    for (size_t i = 0; i < n; i++) {
        snprintf(cmd, sizeof cmd, "seek @%" PRIu64, 1 + rnd() % (end - 1));
        session_execute(s, cmd);
        tt_position(s, -1, pos[i], sizeof pos[i]);
    }
    size_t np = 0;
    for (size_t i = 0; i < n; i++) {
        if (!pos[i][0])
            continue;
        snprintf(cmd, sizeof cmd, "seek %s", pos[(i * 7 + 3) % n][0] ? pos[(i * 7 + 3) % n] : pos[i]);
        v[np++] = timed(s, cmd);
    }
    pct("seek POSITION (random moments' positions, random order)", v, np);
    free(pos);
    for (size_t i = 0; i < n; i++) {
        snprintf(cmd, sizeof cmd, "seek @%" PRIu64, 1 + rnd() % (end - 1));
        session_execute(s, cmd);
        v[i] = timed(s, "reverse-step");
    }
    pct("reverse-step (after a seek to a random moment)", v, n);
    session_execute(s, start);
    session_execute(s, "continue");
    for (size_t i = 0; i < n; i++)
        v[i] = timed(s, "reverse-step");
    pct("reverse-step (consecutive, from the end)", v, n);
    tt_memory(s, &bytes, &live, &count);
    printf("checkpoints after the reverse steps: %zu, %.1f MiB (%.2fx the live tensors)\n", count,
           (double)bytes / 1048576.0, live ? (double)bytes / (double)live : 0);
    free(v);
    session_free(s);
    return 0;
}

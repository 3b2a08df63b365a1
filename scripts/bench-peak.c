/* The machine limits scripts/bench.d measures ptodb against, measured in the
 * same run:
 *   peak fma THREADS    the double-precision FMA throughput of THREADS
 *                       threads at once (the arithmetic of ptodb's matmul
 *                       kernels, which sum exact products in double), in
 *                       GFLOP/s (an FMA is 2 flops), compiled for the host's
 *                       widest vectors (-march=native);
 *   peak triad THREADS  STREAM's triad a = b + s * c over arrays far larger
 *                       than the caches, THREADS threads each on its own
 *                       arrays, in GB/s (24 bytes an element, STREAM's count).
 * Prints the best of 15 runs. Built by the benchmarks with cc -O2
 * -march=native; not part of ptodb. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef double v8d __attribute__((vector_size(64)));

/* short runs, the best of many: on a shared machine the best run is the
 * one that had the core to itself, as the benchmarks' own best-of runs */
enum { ACC = 12, TRIAD_N = 1 << 23, RUNS = 15 };
static const long FMA_LOOPS = 30000000; /* about 0.05 s a thread at 4 GHz */

static pthread_barrier_t start;
static const char *what;
static volatile double sink;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void fma_loop(void)
{
    v8d m, c;
    for (int i = 0; i < 8; i++) {
        m[i] = 0.999999;
        c[i] = 1e-7 * i;
    }
    /* ACC independent chains in registers hide the FMA latency */
    v8d a0 = c + 0.0, a1 = c + 1.0, a2 = c + 2.0, a3 = c + 3.0, a4 = c + 4.0, a5 = c + 5.0;
    v8d a6 = c + 6.0, a7 = c + 7.0, a8 = c + 8.0, a9 = c + 9.0, a10 = c + 10.0, a11 = c + 11.0;
    for (long it = 0; it < FMA_LOOPS; it++) {
        a0 = a0 * m + c, a1 = a1 * m + c, a2 = a2 * m + c, a3 = a3 * m + c;
        a4 = a4 * m + c, a5 = a5 * m + c, a6 = a6 * m + c, a7 = a7 * m + c;
        a8 = a8 * m + c, a9 = a9 * m + c, a10 = a10 * m + c, a11 = a11 * m + c;
    }
    v8d s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11;
    double t = 0;
    for (int i = 0; i < 8; i++)
        t += s[i];
    sink = t;
}

static void *worker(void *arg)
{
    double *mem = arg;
    pthread_barrier_wait(&start);
    if (strcmp(what, "fma") == 0) {
        fma_loop();
    } else {
        double *a = mem, *b = mem + TRIAD_N, *c = mem + 2 * (size_t)TRIAD_N;
        for (int rep = 0; rep < 4; rep++)
            for (long i = 0; i < TRIAD_N; i++)
                a[i] = b[i] + 3.0 * c[i];
        sink = a[TRIAD_N / 2];
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "fma") && strcmp(argv[1], "triad"))) {
        fprintf(stderr, "usage: peak fma|triad THREADS\n");
        return 2;
    }
    what = argv[1];
    int n = atoi(argv[2]);
    if (n < 1 || n > 256)
        return 2;
    pthread_t *t = calloc(n, sizeof *t);
    double **mem = calloc(n, sizeof *mem);
    for (int i = 0; i < n; i++) {
        if (strcmp(what, "triad") == 0) {
            mem[i] = malloc(sizeof(double) * 3 * (size_t)TRIAD_N);
            if (!mem[i])
                return 1;
            for (size_t j = 0; j < 3 * (size_t)TRIAD_N; j++)
                mem[i][j] = 1.0; /* touch every page before timing */
        }
    }
    double best = 1e30;
    for (int run = 0; run < RUNS; run++) {
        pthread_barrier_init(&start, NULL, (unsigned)n + 1);
        for (int i = 0; i < n; i++)
            pthread_create(&t[i], NULL, worker, mem[i]);
        pthread_barrier_wait(&start);
        double t0 = now();
        for (int i = 0; i < n; i++)
            pthread_join(t[i], NULL);
        double dt = now() - t0;
        pthread_barrier_destroy(&start);
        if (dt < best)
            best = dt;
    }
    if (strcmp(what, "fma") == 0)
        printf("%.2f\n", 2.0 * 8 * ACC * (double)FMA_LOOPS * n / best * 1e-9);
    else
        printf("%.2f\n", 24.0 * TRIAD_N * 4 * n / best * 1e-9);
    return 0;
}

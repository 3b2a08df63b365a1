/* The worker pool (src/batch/worker_pool.h): every task's pieces arrive in
 * order and each task finishes once; a worker that dies is reported for its
 * task while the others go on; a stop ends the pool without waiting for
 * the tasks in flight; workers' standard streams are /dev/null; the
 * asynchronous interface (start, fd, poll with a timeout, free); the shared
 * count of idle workers. */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "batch/worker_pool.h"

enum { NTASKS = 20 };

typedef struct state {
    size_t next, ntasks;
    int stop_after;     /* next_task says stop once this many finished; -1 never */
    int die_on;         /* the worker running this task kills itself; -1 none */
    char got[NTASKS][64];
    int finished[NTASKS], failed[NTASKS], fail_status[NTASKS];
    int nfinished;
} state;

static int next_task(void *ud, size_t *task)
{
    state *s = ud;
    if (s->stop_after >= 0 && s->nfinished >= s->stop_after)
        return -1;
    if (s->next >= s->ntasks)
        return 0;
    *task = s->next++;
    return 1;
}

static void run_task(void *ud, size_t task, worker_pool_out *out)
{
    state *s = ud;
    if ((int)task == s->die_on)
        raise(SIGKILL);
    /* never the terminal: this goes to /dev/null */
    printf("worker noise %zu\n", task);
    fflush(stdout);
    struct stat a, b;
    int null_out = fstat(STDOUT_FILENO, &a) == 0 && stat("/dev/null", &b) == 0 && a.st_rdev == b.st_rdev;
    char piece[32];
    snprintf(piece, sizeof piece, "%zu*%zu=", task, task);
    worker_pool_send(out, piece, strlen(piece));
    snprintf(piece, sizeof piece, "%zu%s", task * task, null_out ? "" : " (stdout is not /dev/null)");
    worker_pool_send(out, piece, strlen(piece));
}

static void task_output(void *ud, size_t task, const char *data, size_t len)
{
    state *s = ud;
    ck_assert_uint_lt(task, NTASKS);
    ck_assert(!s->finished[task]);
    strncat(s->got[task], data, len);
}

static void task_finished(void *ud, size_t task)
{
    state *s = ud;
    ck_assert(!s->finished[task]);
    s->finished[task] = 1;
    s->nfinished++;
}

static void start_failure(void *ud, size_t task, int status)
{
    state *s = ud;
    s->failed[task] = 1;
    s->fail_status[task] = status;
}

static const worker_pool_ops ops = {next_task, run_task, task_output, task_finished, start_failure, NULL};

static void init(state *s, size_t ntasks)
{
    memset(s, 0, sizeof *s);
    s->ntasks = ntasks;
    s->stop_after = -1;
    s->die_on = -1;
}

START_TEST(test_every_task)
{
    state s;
    init(&s, NTASKS);
    ck_assert_int_eq(worker_pool_run(3, &ops, &s), 0);
    for (size_t t = 0; t < NTASKS; t++) {
        char want[64];
        snprintf(want, sizeof want, "%zu*%zu=%zu", t, t, t * t);
        ck_assert_str_eq(s.got[t], want);
        ck_assert(s.finished[t]);
        ck_assert(!s.failed[t]);
    }
}
END_TEST

START_TEST(test_worker_dies)
{
    state s;
    init(&s, NTASKS);
    s.die_on = 5;
    ck_assert_int_eq(worker_pool_run(2, &ops, &s), 0);
    ck_assert(s.failed[5]);
    ck_assert(WIFSIGNALED(s.fail_status[5]));
    ck_assert_int_eq(WTERMSIG(s.fail_status[5]), SIGKILL);
    ck_assert(!s.finished[5]);
    /* the other worker ran everything else */
    for (size_t t = 0; t < NTASKS; t++)
        if (t != 5)
            ck_assert(s.finished[t] && !s.failed[t]);
}
END_TEST

START_TEST(test_stop)
{
    state s;
    init(&s, NTASKS);
    s.stop_after = 3;
    ck_assert_int_eq(worker_pool_run(2, &ops, &s), 0);
    ck_assert_int_ge(s.nfinished, 3);
    ck_assert_int_le(s.nfinished, 4); /* the other worker's task may have finished in the same read */
    ck_assert_uint_le(s.next, 5);
    for (size_t t = 0; t < NTASKS; t++)
        ck_assert(!s.failed[t]); /* tasks in flight at a stop are reported nowhere */
}
END_TEST

/* worker_init: the shared count of idle workers reaches the worker running
 * the last task once the other has nothing left */
static const volatile int *seen_idle;
static int seen_workers;

static void init_worker(void *ud, const volatile int *idle, int workers)
{
    (void)ud;
    seen_idle = idle;
    seen_workers = workers;
}

static void run_last_waits(void *ud, size_t task, worker_pool_out *out)
{
    (void)ud;
    char msg[32];
    int idle = -1;
    if (task == 2) /* the last: wait for the other worker to run out (bounded) */
        for (int i = 0; i < 3000 && (idle = *seen_idle) < 1; i++)
            usleep(10000);
    snprintf(msg, sizeof msg, "%d/%d", task == 2 ? idle : 0, seen_workers);
    worker_pool_send(out, msg, strlen(msg));
}

START_TEST(test_idle_count)
{
    state s;
    init(&s, 3);
    static const worker_pool_ops idle_ops = {next_task, run_last_waits, task_output, task_finished, start_failure,
                                             init_worker};
    ck_assert_int_eq(worker_pool_run(2, &idle_ops, &s), 0);
    ck_assert_str_eq(s.got[2], "1/2");
    ck_assert_str_eq(s.got[0], "0/2");
}
END_TEST

START_TEST(test_async)
{
    state s;
    init(&s, 4);
    worker_pool *p = worker_pool_start(1, &ops, &s);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_ge(worker_pool_fd(p), 0);
    int rounds = 0;
    while (worker_pool_poll(p, 100))
        ck_assert_int_lt(++rounds, 1000);
    ck_assert_int_eq(worker_pool_fd(p), -1);
    worker_pool_free(p);
    ck_assert_int_eq(s.nfinished, 4);
    ck_assert_str_eq(s.got[3], "3*3=9");
    /* freed while running: the worker is stopped, nothing more arrives */
    init(&s, 4);
    p = worker_pool_start(1, &ops, &s);
    worker_pool_free(p);
    ck_assert_int_le(s.nfinished, 1);
}
END_TEST

static Suite *pool_suite(void)
{
    Suite *su = suite_create("worker_pool");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 300); /* generous: sanitizer and valgrind builds */
    tcase_add_test(tc, test_every_task);
    tcase_add_test(tc, test_worker_dies);
    tcase_add_test(tc, test_stop);
    tcase_add_test(tc, test_async);
    tcase_add_test(tc, test_idle_count);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    SRunner *sr = srunner_create(pool_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* A pool of forked worker processes, shaped like git's
 * run_processes_parallel: the parent hands out tasks one at a time
 * (next_task), a worker runs each (run_task, in the worker process) and
 * sends its result back as bytes, and the parent gets them (task_output,
 * task_finished) or learns that a task's worker died (start_failure).
 * Used by --batch, --run -j and the debugger's background validation.
 *
 * Workers are forked once and kept for every task (a fork per task would
 * cost more than a small pass); they never write to the terminal (their
 * standard streams are /dev/null) and start with default signal handlers.
 * Tasks are numbers the callbacks give meaning to. */
#ifndef PTODB_BATCH_WORKER_POOL_H
#define PTODB_BATCH_WORKER_POOL_H

#include <stddef.h>

/* The worker's channel to the parent during run_task. */
typedef struct worker_pool_out worker_pool_out;
/* Sends len bytes to the parent, which gets them as one task_output call
 * (a task may send any number of pieces). -1 when the parent has gone. */
int worker_pool_send(worker_pool_out *out, const void *data, size_t len);

typedef struct worker_pool_ops {
    /* Parent: the next task into *task and 1; 0 when there are no more (the
     * tasks in flight finish); -1 to stop now (workers are killed, their
     * tasks reported nowhere). */
    int (*next_task)(void *ud, size_t *task);
    /* Worker: runs task, sending its result through out. */
    void (*run_task)(void *ud, size_t task, worker_pool_out *out);
    /* Parent: a piece the worker sent for task. Optional. */
    void (*task_output)(void *ud, size_t task, const char *data, size_t len);
    /* Parent: task's worker finished it. Optional. */
    void (*task_finished)(void *ud, size_t task);
    /* Parent: task's worker ended before finishing it; wait_status is
     * waitpid's (WIFSIGNALED and WTERMSIG apply). Optional. */
    void (*start_failure)(void *ud, size_t task, int wait_status);
    /* Worker, once before its first task: *idle counts the pool's workers
     * that have no task left (shared memory, updated as they run out), of
     * workers in all; work that can use threads may use the cores those
     * leave free. Optional. */
    void (*worker_init)(void *ud, const volatile int *idle, int workers);
} worker_pool_ops;

typedef struct worker_pool worker_pool;

/* Starts up to jobs workers and gives each its first task. NULL when no
 * worker could be started (no task was handed out then). */
worker_pool *worker_pool_start(int jobs, const worker_pool_ops *ops, void *ud);
/* Reads what the workers sent, waiting up to timeout_ms (-1: until
 * something arrives), and makes the callbacks. 1 while workers remain, 0
 * when every one has ended (the pool can then be freed). */
int worker_pool_poll(worker_pool *p, int timeout_ms);
/* A descriptor to poll for the pool's next event (its first live worker's),
 * -1 when none is left. For callers with a loop of their own and one job. */
int worker_pool_fd(const worker_pool *p);
/* Ends the workers still running (SIGKILL), waits for them, frees p. */
void worker_pool_free(worker_pool *p);

/* Runs every task to the end with up to jobs workers: worker_pool_start,
 * then worker_pool_poll until done. -1 when no worker could be started
 * (the caller runs the tasks itself), else 0. Tasks left when every worker
 * died were never handed out. */
int worker_pool_run(int jobs, const worker_pool_ops *ops, void *ud);

/* The cores nothing runs on by the load average (online processors minus
 * the 1-minute load, rounded; 0 when the machine is busy or the load is
 * unknown). Threads of a pass pay only where a core is free: on a busy
 * machine each join waits for the thread the scheduler left behind. */
int worker_pool_free_cores(void);
/* One worker per online processor, at most 64 (the default for --batch). */
int worker_pool_default_jobs(void);
/* The --jobs range. */
enum { WORKER_POOL_MAX_JOBS = 256 };

#endif

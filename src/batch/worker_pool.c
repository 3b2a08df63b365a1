/* The worker pool (worker_pool.h). Each worker has one socket to the
 * parent: the parent writes task numbers (uint64) to it, the worker writes
 * frames back, a header {task, kind, length} and length bytes; kind DATA is
 * a piece of the task's result, DONE ends the task. The parent's ends are
 * non-blocking and read into a buffer per worker, so a partial frame waits
 * for the rest without blocking the caller (the debugger polls between
 * keys). A socket rather than a pipe: the parent's sends to a worker that
 * died fail with EPIPE (MSG_NOSIGNAL) instead of killing it. */
#include "batch/worker_pool.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fdio.h"
#include "base/mem.h"

enum { FRAME_DATA = 0, FRAME_DONE = 1 };

typedef struct frame_header {
    uint64_t task;
    uint32_t kind;
    uint32_t len;
} frame_header;

struct worker_pool_out {
    int fd;
    uint64_t task;
};

typedef struct pool_worker {
    pid_t pid;
    int fd;         /* the parent's end of the socket; -1 once ended */
    int has_task;   /* a task is in flight */
    size_t task;
    char *buf;      /* bytes received, not yet parsed */
    size_t len, cap;
} pool_worker;

struct worker_pool {
    const worker_pool_ops *ops;
    void *ud;
    pool_worker *w;
    int n;         /* workers started */
    int exhausted; /* next_task said no more (or stop) */
    int stopping;  /* next_task said stop */
    int *idle;     /* shared with the workers: those with no task left */
    int jobs;      /* workers asked for */
};

int worker_pool_free_cores(void)
{
    double load;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1 || getloadavg(&load, 1) != 1)
        return 0;
    long busy = (long)(load + 0.5);
    return busy >= n ? 0 : (int)(n - busy);
}

int worker_pool_default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

/* ---- the worker ---- */

static int send_frame(int fd, uint64_t task, uint32_t kind, const void *data, size_t len)
{
    frame_header h = {task, kind, (uint32_t)len};
    if (len > UINT32_MAX)
        return -1;
    if (fd_write_all(fd, &h, sizeof h) != 0)
        return -1;
    return len ? fd_write_all(fd, data, len) : 0;
}

int worker_pool_send(worker_pool_out *out, const void *data, size_t len)
{
    /* pieces of up to 1 GB: a frame's length is 32 bits */
    const char *p = data;
    do {
        size_t n = len > ((size_t)1 << 30) ? (size_t)1 << 30 : len;
        if (send_frame(out->fd, out->task, FRAME_DATA, p, n) != 0)
            return -1;
        p += n;
        len -= n;
    } while (len);
    return 0;
}

/* Starts with every signal blocked (worker_pool_start); mask is the
 * parent's own. */
static void worker_main(worker_pool *p, int fd, const sigset_t *mask)
{
    /* The parent's handlers are not the worker's: a fatal-signal handler
     * that restores the terminal would reset it under the front end when a
     * signal (a hang-up, say) ends the worker. They are reset before any
     * signal can arrive: one sent right after the fork waits in the blocked
     * set. And the worker never touches the terminal. */
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            signal(sig, SIG_DFL);
    sigprocmask(SIG_SETMASK, mask, NULL);
    if (p->ops->worker_init && p->idle != MAP_FAILED)
        p->ops->worker_init(p->ud, p->idle, p->jobs);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) {
        dup2(null, STDIN_FILENO);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        if (null > STDERR_FILENO)
            close(null);
    }
    uint64_t task;
    while (fd_read_all(fd, &task, sizeof task) == 0) {
        worker_pool_out out = {fd, task};
        p->ops->run_task(p->ud, (size_t)task, &out);
        if (send_frame(fd, task, FRAME_DONE, NULL, 0) != 0)
            break;
    }
    /* the pool's tables are the parent's, freed there; no atexit handlers
     * and no stdio flushes, which are the parent's too */
    free(p->w);
    free(p);
    _exit(0);
}

/* ---- the parent ---- */

static void end_worker(worker_pool *p, pool_worker *w, int kill_it)
{
    if (w->fd < 0)
        return;
    /* SIGKILL: a stopped worker has nothing to clean up (its heap goes with
     * it), and no mask or handler can delay it. Under valgrind a SIGTERM
     * also ran the leak check in the middle of the task, with the worker's
     * stack no longer counted: every block it pointed to was reported as
     * definitely lost (check_worker_pool's test_async under check-valgrind). */
    if (kill_it)
        kill(w->pid, SIGKILL);
    close(w->fd);
    w->fd = -1;
    int status = 0;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR)
        ;
    free(w->buf);
    w->buf = NULL;
    w->len = w->cap = 0;
    if (w->has_task && !kill_it && p->ops->start_failure) {
        w->has_task = 0;
        p->ops->start_failure(p->ud, w->task, status);
    }
    w->has_task = 0;
}

/* Gives w its next task, or lets it end when there is none. */
static void dispatch(worker_pool *p, pool_worker *w)
{
    if (!p->exhausted) {
        size_t task;
        int r = p->ops->next_task(p->ud, &task);
        if (r > 0) {
            uint64_t t = task;
            if (send(w->fd, &t, sizeof t, MSG_NOSIGNAL) == (ssize_t)sizeof t) {
                w->has_task = 1;
                w->task = task;
                return;
            }
            /* the worker has gone: the task goes back to no one; the
             * caller sees it never finished */
            if (p->ops->start_failure)
                p->ops->start_failure(p->ud, task, 0);
        } else {
            p->exhausted = 1;
            p->stopping = r < 0;
        }
    }
    /* no task: the worker reads end of file and exits, its core free */
    shutdown(w->fd, SHUT_WR);
    if (p->idle != MAP_FAILED)
        __atomic_add_fetch(p->idle, 1, __ATOMIC_RELAXED);
}

worker_pool *worker_pool_start(int jobs, const worker_pool_ops *ops, void *ud)
{
    if (jobs < 1)
        jobs = 1;
    worker_pool *p = xcalloc(1, sizeof *p);
    p->ops = ops;
    p->ud = ud;
    p->w = xcalloc((size_t)jobs, sizeof *p->w);
    p->jobs = jobs;
    p->idle = mmap(NULL, sizeof *p->idle, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (p->idle != MAP_FAILED)
        *p->idle = 0;
    fflush(NULL); /* nothing buffered may be written twice */
    sigset_t all, mask;
    sigfillset(&all);
    for (int i = 0; i < jobs; i++) {
        int sv[2];
        if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
            break;
        sigprocmask(SIG_BLOCK, &all, &mask);
        pid_t pid = fork();
        if (pid == 0) {
            close(sv[0]);
            for (int k = 0; k < p->n; k++)
                close(p->w[k].fd);
            worker_main(p, sv[1], &mask);
        }
        sigprocmask(SIG_SETMASK, &mask, NULL);
        if (pid < 0) {
            close(sv[0]);
            close(sv[1]);
            break;
        }
        close(sv[1]);
        fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK);
        fcntl(sv[0], F_SETFD, FD_CLOEXEC);
        p->w[p->n].pid = pid;
        p->w[p->n].fd = sv[0];
        p->n++;
    }
    if (p->n == 0) {
        if (p->idle != MAP_FAILED)
            munmap(p->idle, sizeof *p->idle);
        free(p->w);
        free(p);
        return NULL;
    }
    p->jobs = p->n; /* the workers there are */
    for (int i = 0; i < p->n && !p->stopping; i++)
        dispatch(p, &p->w[i]);
    return p;
}

/* Makes the callbacks for the whole frames at the start of w's buffer. */
static void parse_frames(worker_pool *p, pool_worker *w)
{
    size_t off = 0;
    while (w->len - off >= sizeof(frame_header) && !p->stopping) {
        frame_header h;
        memcpy(&h, w->buf + off, sizeof h);
        if (w->len - off - sizeof h < h.len)
            break;
        const char *data = w->buf + off + sizeof h;
        off += sizeof h + h.len;
        if (h.kind == FRAME_DATA) {
            if (p->ops->task_output)
                p->ops->task_output(p->ud, (size_t)h.task, data, h.len);
        } else {
            w->has_task = 0;
            if (p->ops->task_finished)
                p->ops->task_finished(p->ud, (size_t)h.task);
            dispatch(p, w);
        }
    }
    memmove(w->buf, w->buf + off, w->len - off);
    w->len -= off;
}

/* Reads what w has sent; ends it at end of file. */
static void receive(worker_pool *p, pool_worker *w)
{
    for (;;) {
        if (w->cap - w->len < 65536) {
            w->cap = w->cap * 2 + 65536;
            w->buf = xrealloc(w->buf, w->cap);
        }
        ssize_t n = read(w->fd, w->buf + w->len, w->cap - w->len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) /* EAGAIN: nothing more for now */
            break;
        if (n == 0) {
            parse_frames(p, w);
            end_worker(p, w, 0);
            return;
        }
        w->len += (size_t)n;
        parse_frames(p, w);
        if (p->stopping)
            return;
    }
}

int worker_pool_poll(worker_pool *p, int timeout_ms)
{
    struct pollfd *pf = xcalloc((size_t)p->n, sizeof *pf);
    int *which = xcalloc((size_t)p->n, sizeof *which);
    int np = 0;
    for (int i = 0; i < p->n; i++) {
        if (p->w[i].fd < 0)
            continue;
        pf[np].fd = p->w[i].fd;
        pf[np].events = POLLIN;
        which[np++] = i;
    }
    if (np > 0 && poll(pf, (nfds_t)np, timeout_ms) > 0) {
        for (int k = 0; k < np && !p->stopping; k++)
            if (pf[k].revents & (POLLIN | POLLHUP | POLLERR))
                receive(p, &p->w[which[k]]);
    }
    free(pf);
    free(which);
    if (p->stopping)
        for (int i = 0; i < p->n; i++)
            end_worker(p, &p->w[i], 1);
    for (int i = 0; i < p->n; i++)
        if (p->w[i].fd >= 0)
            return 1;
    return 0;
}

int worker_pool_fd(const worker_pool *p)
{
    for (int i = 0; p && i < p->n; i++)
        if (p->w[i].fd >= 0)
            return p->w[i].fd;
    return -1;
}

void worker_pool_free(worker_pool *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->n; i++)
        end_worker(p, &p->w[i], 1);
    if (p->idle != MAP_FAILED)
        munmap(p->idle, sizeof *p->idle);
    free(p->w);
    free(p);
}

int worker_pool_run(int jobs, const worker_pool_ops *ops, void *ud)
{
    worker_pool *p = worker_pool_start(jobs, ops, ud);
    if (!p)
        return -1;
    while (worker_pool_poll(p, -1))
        ;
    worker_pool_free(p);
    return 0;
}

/* Write to a temporary file, rename when complete (see atomic_file.h). */
#include "config.h"

#include "base/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/mem.h"

/* Temporary files open in this process, for atomic_file_remove_pending. A
 * forked worker inherits the table but must not remove its parent's files. */
#define PENDING_MAX 16
static char *volatile pending[PENDING_MAX];
static volatile pid_t pending_pid[PENDING_MAX];

static void pending_add(char *tmp)
{
    for (int i = 0; i < PENDING_MAX; i++)
        if (!pending[i]) {
            pending_pid[i] = getpid();
            pending[i] = tmp;
            return;
        }
}

static void pending_drop(const char *tmp)
{
    for (int i = 0; i < PENDING_MAX; i++)
        if (pending[i] == tmp)
            pending[i] = NULL;
}

void atomic_file_remove_pending(void)
{
    pid_t me = getpid();
    for (int i = 0; i < PENDING_MAX; i++)
        if (pending[i] && pending_pid[i] == me)
            unlink(pending[i]);
}

static void free_names(atomic_file *a)
{
    if (a->tmp)
        pending_drop(a->tmp);
    free(a->path);
    free(a->tmp);
    a->path = a->tmp = NULL;
    a->f = NULL;
}

int atomic_file_open(atomic_file *a, const char *path)
{
    memset(a, 0, sizeof *a);
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = slash ? slash + 1 : path;
    if (!*base) {
        errno = EISDIR;
        return -1;
    }
    size_t n = dirlen + 1 + strlen(base) + 8;
    a->tmp = xmalloc(n);
    snprintf(a->tmp, n, "%.*s.%s.XXXXXX", (int)dirlen, path, base);
    int fd = mkostemp(a->tmp, O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        free_names(a);
        errno = e;
        return -1;
    }
    /* mkstemp makes 0600; give the file what fopen would have */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || !(a->f = fdopen(fd, "wb"))) {
        int e = errno;
        close(fd);
        unlink(a->tmp);
        free_names(a);
        errno = e;
        return -1;
    }
    a->path = xstrdup(path);
    pending_add(a->tmp);
    return 0;
}

int atomic_file_commit(atomic_file *a)
{
    int failed = ferror(a->f) != 0, e = failed ? (errno ? errno : EIO) : 0;
    if (fflush(a->f) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    if (fsync(fileno(a->f)) != 0 && !failed && errno != EINVAL) {
        failed = 1;
        e = errno;
    }
    if (fclose(a->f) != 0 && !failed) {
        failed = 1;
        e = errno;
    }
    a->f = NULL;
    if (!failed && rename(a->tmp, a->path) != 0) {
        failed = 1;
        e = errno;
    }
    if (failed)
        unlink(a->tmp);
    free_names(a);
    errno = e;
    return failed ? -1 : 0;
}

void atomic_file_abort(atomic_file *a)
{
    if (a->f)
        fclose(a->f);
    if (a->tmp)
        unlink(a->tmp);
    free_names(a);
}

int atomic_file_write(const char *path, const void *data, size_t len)
{
    atomic_file a;
    if (atomic_file_open(&a, path) != 0)
        return -1;
    if (len)
        fwrite(data, 1, len, a.f);
    return atomic_file_commit(&a);
}

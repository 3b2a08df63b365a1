/* The write guard of fuzz_guard.h: --wrap'ed file functions that let reads
 * through and allow writes only inside fuzz_tmpdir(). */
#include "fuzz_guard.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

FILE *__real_fopen(const char *path, const char *mode);
int __real_open(const char *path, int flags, ...);
int __real_mkdir(const char *path, mode_t mode);
int __real_unlink(const char *path);
int __real_rename(const char *from, const char *to);
int __real_remove(const char *path);
FILE *__wrap_fopen(const char *path, const char *mode);
int __wrap_open(const char *path, int flags, ...);
int __wrap_mkdir(const char *path, mode_t mode);
int __wrap_unlink(const char *path);
int __wrap_rename(const char *from, const char *to);
int __wrap_remove(const char *path);

static unsigned long refused;
static int active;
static const char *artifact_prefix = "", *artifact_path;

void fuzz_guard_init(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "-artifact_prefix=", 17) == 0)
            artifact_prefix = argv[i] + 17;
        else if (strncmp(argv[i], "-exact_artifact_path=", 21) == 0)
            artifact_path = argv[i] + 21;
    }
}

/* 1 for the file libFuzzer writes when the input crashes or hangs (from
 * inside the harness call, so while the guard is up). */
static int is_artifact(const char *path)
{
    static const char *const kinds[] = {"crash-", "timeout-", "leak-", "oom-", "slow-unit-",
                                        "minimized-from-"};
    if (artifact_path && strcmp(path, artifact_path) == 0)
        return 1;
    size_t n = strlen(artifact_prefix);
    if (strncmp(path, artifact_prefix, n) != 0 || strchr(path + n, '/'))
        return 0;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (strncmp(path + n, kinds[k], strlen(kinds[k])) == 0)
            return 1;
    return 0;
}

void fuzz_guard_begin(void)
{
    fuzz_tmpdir(); /* created before the guard is up */
    active = 1;
}

void fuzz_guard_end(void)
{
    active = 0;
}

unsigned long fuzz_guard_refused(void)
{
    return refused;
}

/* 1 when path is inside the private folder (no ".." to climb out). */
static int allowed(const char *path)
{
    if (!active || (path && is_artifact(path)))
        return 1;
    const char *dir = fuzz_tmpdir();
    size_t n = strlen(dir);
    if (!path || strncmp(path, dir, n) != 0 || path[n] != '/' || strstr(path, "/.."))
        return 0;
    return 1;
}

static int refuse(void)
{
    refused++;
    errno = EACCES;
    return -1;
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
    if (strpbrk(mode, "wa+") && !allowed(path)) {
        refuse();
        return NULL;
    }
    return __real_fopen(path, mode);
}

int __wrap_open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = (mode_t)va_arg(ap, int);
        va_end(ap);
    }
    if ((flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND)) && !allowed(path))
        return refuse();
    return __real_open(path, flags, mode);
}

int __wrap_mkdir(const char *path, mode_t mode)
{
    return allowed(path) ? __real_mkdir(path, mode) : refuse();
}

int __wrap_unlink(const char *path)
{
    return allowed(path) ? __real_unlink(path) : refuse();
}

int __wrap_rename(const char *from, const char *to)
{
    return allowed(from) && allowed(to) ? __real_rename(from, to) : refuse();
}

int __wrap_remove(const char *path)
{
    return allowed(path) ? __real_remove(path) : refuse();
}

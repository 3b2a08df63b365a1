/* Helpers of the fuzz harnesses: the source tree, a private temporary
 * folder and an in-memory file, so that no harness writes into the source
 * tree or a case folder. */
#include "fuzz.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef PTODB_TOP_SRCDIR
#define PTODB_TOP_SRCDIR "."
#endif

const char *fuzz_srcdir(void)
{
    const char *dir = getenv("PTODB_SRCDIR");
    return dir && *dir ? dir : PTODB_TOP_SRCDIR;
}

static char tmpdir[4096];

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void remove_tmpdir(void)
{
    if (tmpdir[0])
        nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *fuzz_tmpdir(void)
{
    if (tmpdir[0])
        return tmpdir;
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/ptodb-fuzz-XXXXXX", base && *base ? base : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror(tmpdir);
        exit(2);
    }
    atexit(remove_tmpdir);
    return tmpdir;
}

const char *fuzz_memfile(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("ptodb-fuzz", MFD_CLOEXEC);
        if (fd < 0) {
            perror("memfd_create");
            exit(2);
        }
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) != 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size)) {
        perror("memfd write");
        exit(2);
    }
    return path;
}

void fuzz_write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

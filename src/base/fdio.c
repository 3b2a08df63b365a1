#include "base/fdio.h"

#include "base/input_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/strbuf.h"

int fd_write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int fd_read_all(int fd, void *buf, size_t n)
{
    char *p = buf;
    while (n) {
        ssize_t r = read(fd, p, n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        p += r;
        n -= (size_t)r;
    }
    return 0;
}

char *file_read_all(const char *path, size_t *len)
{
    char why[300];
    return file_read_all_why(path, len, why, sizeof why);
}

char *file_read_all_why(const char *path, size_t *len, char *why, size_t size)
{
    FILE *f = input_file_fopen(path, why, size); /* regular files only: a FIFO never blocks */
    if (!f)
        return NULL;
    strbuf sb = STRBUF_INIT;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        strbuf_append(&sb, buf, n);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        strbuf_free(&sb);
        snprintf(why, size, "cannot read: %s", strerror(EIO));
        errno = EIO;
        return NULL;
    }
    *len = sb.len;
    return strbuf_detach(&sb);
}

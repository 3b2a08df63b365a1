/* Regular files only, opened without blocking (see input_file.h). */
#include "config.h"

#include "base/input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_name(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISSOCK(m))
        return "a socket";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    return "not a file";
}

int input_file_open(const char *path, char *why, size_t size)
{
    /* O_NONBLOCK: opening a FIFO for reading would wait for a writer */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        int e = errno;
        snprintf(why, size, "cannot open: %s", strerror(e));
        errno = e;
        return -1;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        snprintf(why, size, "cannot open: %s", strerror(e));
        close(fd);
        errno = e;
        return -1;
    }
    if (!S_ISREG(sb.st_mode)) {
        snprintf(why, size, "not a regular file (%s)", kind_name(sb.st_mode));
        close(fd);
        errno = EINVAL;
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        int e = errno;
        snprintf(why, size, "cannot open: %s", strerror(e));
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

FILE *input_file_fopen(const char *path, char *why, size_t size)
{
    int fd = input_file_open(path, why, size);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        snprintf(why, size, "cannot open: %s", strerror(e));
        close(fd);
        errno = e;
    }
    return f;
}

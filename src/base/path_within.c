#include "base/path_within.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

int path_within(const char *path, const char *dir)
{
    char rdir[PATH_MAX], head[PATH_MAX], rhead[PATH_MAX];
    if (!realpath(dir, rdir))
        return -1;
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof head)
        return 1;
    memcpy(head, path, n + 1);
    /* the longest existing prefix of path, resolved; the rest kept as text */
    size_t hl = n;
    while (!realpath(head, rhead)) {
        char *slash = strrchr(head, '/');
        if (!slash)
            return 1; /* a relative path none of which exists: cannot judge */
        if (slash == head) {
            strcpy(rhead, "/");
            hl = 0;
            break;
        }
        *slash = '\0';
        hl = (size_t)(slash - head);
    }
    for (const char *p = path + hl; *p; p++)
        if (p[0] == '.' && p[1] == '.' && (p == path || p[-1] == '/') && (p[2] == '/' || !p[2]))
            return 1;
    size_t dl = strlen(rdir);
    if (dl == 1) /* dir is / */
        return 1;
    return strncmp(rhead, rdir, dl) == 0 && (rhead[dl] == '/' || rhead[dl] == '\0');
}

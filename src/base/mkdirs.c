#include "base/mkdirs.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/mem.h"

int mkdirs(const char *dir)
{
    char *p = xstrdup(dir);
    /* Each parent in turn; failures show up as the final stat failing. */
    for (char *q = p + 1; *q; q++) {
        if (*q == '/') {
            *q = '\0';
            mkdir(p, 0700);
            *q = '/';
        }
    }
    mkdir(p, 0700);
    struct stat st;
    int ok = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
    free(p);
    return ok ? 0 : -1;
}

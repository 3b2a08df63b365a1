#include "data/caselist.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/mem.h"
#include "base/strbuf.h"

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int has_passes_dump(const char *dir, const char *name)
{
    strbuf sb = STRBUF_INIT;
    strbuf_printf(&sb, "%s/%s/passes_dump", dir, name);
    int yes = is_dir(strbuf_str(&sb));
    strbuf_free(&sb);
    return yes;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

long caselist_read(const char *dir, char ***names)
{
    *names = NULL;
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !has_passes_dump(dir, e->d_name))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            *names = xrealloc(*names, cap * sizeof **names);
        }
        (*names)[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    if (n)
        qsort(*names, n, sizeof **names, by_name);
    return (long)n;
}

int caselist_is_folder_of_cases(const char *dir)
{
    if (!is_dir(dir) || has_passes_dump(dir, "."))
        return 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    int dumps = 0, cases = 0;
    while ((e = readdir(d)) && !dumps) {
        size_t l = strlen(e->d_name);
        if (l > 3 && strcmp(e->d_name + l - 3, ".py") == 0)
            dumps = 1;
        else if (e->d_name[0] != '.' && !cases && has_passes_dump(dir, e->d_name))
            cases = 1;
    }
    closedir(d);
    return cases && !dumps;
}

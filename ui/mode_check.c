/* ptodb --check PATH...: parse and resolve every dump (.py) under the given
 * files and folders; print diagnostics (file:line:col, source line, caret);
 * exit 0 when all are clean, 2 otherwise. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/diag.h"
#include "base/mem.h"
#include "base/status.h"
#include "ir/resolve.h"
#include "modes.h"
#include "options.h"

int mode_check(const ptodb_cli *cli);

enum { CHECK_MAX_ERRORS = 20, CHECK_MAX_DEPTH = 32 };

typedef struct check_stats {
    size_t files, bad_files, errors, warnings;
} check_stats;

static int has_py_suffix(const char *s)
{
    size_t n = strlen(s);
    return n > 3 && strcmp(s + n - 3, ".py") == 0;
}

static void check_file(const char *path, check_stats *st)
{
    diag_sink sink;
    diag_sink_init(&sink, CHECK_MAX_ERRORS);
    ir_check_file(path, &sink);
    st->files++;
    st->warnings += sink.warnings;
    if (!sink.errors && sink.warnings) /* e.g. an op of a newer PyPTO: the file still opens */
        diag_sink_print(&sink, stderr, 1);
    if (sink.errors) {
        st->bad_files++;
        st->errors += sink.errors;
        diag_sink_print(&sink, stderr, 1);
        if (diag_sink_full(&sink))
            fprintf(stderr, "%s: note: stopped after %d errors\n", path, CHECK_MAX_ERRORS);
    }
    diag_sink_free(&sink);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void check_path(const char *path, int depth, int explicit_file, check_stats *st)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        fprintf(stderr, "%s: error: cannot access: %s\n", path, strerror(errno));
        st->files++;
        st->bad_files++;
        st->errors++;
        return;
    }
    if (!S_ISDIR(sb.st_mode)) {
        if (explicit_file || has_py_suffix(path))
            check_file(path, st);
        return;
    }
    if (depth >= CHECK_MAX_DEPTH)
        return;
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "%s: error: cannot open folder: %s\n", path, strerror(errno));
        st->errors++;
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            names = xreallocarray(names, cap, sizeof *names);
        }
        names[n++] = xstrdup(de->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_names); /* deterministic order */
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(path) + strlen(names[i]) + 2;
        char *child = xmalloc(len);
        snprintf(child, len, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", names[i]);
        check_path(child, depth + 1, 0, st);
        free(child);
        free(names[i]);
    }
    free(names);
}

int mode_check(const ptodb_cli *cli)
{
    if (cli->npaths == 0) {
        fprintf(stderr, "ptodb: --check needs at least one file or folder\n"
                        "Try 'ptodb --help' for more information.\n");
        return PTODB_EXIT_USAGE;
    }
    check_stats st = {0, 0, 0, 0};
    for (int i = 0; i < cli->npaths; i++)
        check_path(cli->paths[i], 0, 1, &st);
    printf("checked %zu file%s: %zu with errors, %zu error%s", st.files, st.files == 1 ? "" : "s",
           st.bad_files, st.errors, st.errors == 1 ? "" : "s");
    if (st.warnings)
        printf(", %zu warning%s", st.warnings, st.warnings == 1 ? "" : "s");
    putchar('\n');
    return st.errors ? PTODB_EXIT_USAGE : PTODB_EXIT_OK;
}

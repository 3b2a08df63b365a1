/* Runs a harness's LLVMFuzzerTestOneInput on files, without libFuzzer: what
 * `make check` does with the seed corpora and every regression input
 * (tests/fuzz/replay.sh). Arguments are files or folders (their files, in
 * name order, dot files skipped). A crash ends the process, so the test
 * fails; otherwise it prints how many inputs ran. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 4096, len = 0, n;
    unsigned char *buf = malloc(cap);
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "%s: out of memory\n", path);
        return -1;
    }
    /* a copy of exactly len bytes, so that ASan sees reads past the end */
    unsigned char *data = malloc(len ? len : 1);
    memcpy(data, buf, len);
    free(buf);
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    return 1;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int skip_dot(const struct dirent *e)
{
    return e->d_name[0] != '.';
}

static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    struct dirent **names;
    int n = scandir(path, &names, skip_dot, by_name);
    if (n < 0) {
        perror(path);
        return -1;
    }
    int count = 0;
    for (int i = 0; i < n; i++) {
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", path, names[i]->d_name);
        int k = count >= 0 ? run_path(sub) : 0;
        count = k < 0 ? -1 : count + k;
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|FOLDER...\n", argv[0]);
        return 2;
    }
    LLVMFuzzerInitialize(&argc, &argv);
    int total = 0;
    for (int i = 1; i < argc; i++) {
        int k = run_path(argv[i]);
        if (k < 0)
            return 1;
        total += k;
    }
    printf("%s: %d input%s ran\n", argv[0], total, total == 1 ? "" : "s");
    return 0;
}

/* Every file ptodb writes (--json, --save-outputs, export, save, session
 * files) is written to a temporary file in the same folder and renamed over
 * its name when complete: a reader, or a run killed half way, never sees a
 * truncated or empty file, only the old one or the new one. */
#ifndef PTODB_BASE_ATOMIC_FILE_H
#define PTODB_BASE_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct atomic_file {
    char *path; /* the name it will have */
    char *tmp;  /* DIR/.NAME.XXXXXX until committed */
    FILE *f;    /* write here */
} atomic_file;

/* Creates the temporary file (mode 0666 & ~umask, like fopen). 0, or -1 with
 * errno set and nothing created. */
int atomic_file_open(atomic_file *a, const char *path);
/* Flushes, closes and renames onto path. 0, or -1 with errno set (a write
 * error of any earlier fwrite included) and the temporary file removed. */
int atomic_file_commit(atomic_file *a);
/* Drops the temporary file; path is untouched. */
void atomic_file_abort(atomic_file *a);
/* For a fatal-signal handler (async-signal-safe): removes the temporary
 * files of this process that are still open, so that a killed run leaves
 * nothing behind. */
void atomic_file_remove_pending(void);
/* Writes len bytes as the whole new content of path: 0 or -1 with errno. */
int atomic_file_write(const char *path, const void *data, size_t len);

#endif

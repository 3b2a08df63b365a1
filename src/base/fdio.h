/* Whole-buffer reads and writes on file descriptors (pipes between worker
 * processes), retrying on EINTR and short transfers, and whole files. */
#ifndef PTODB_BASE_FDIO_H
#define PTODB_BASE_FDIO_H

#include <stddef.h>

/* 0 when all n bytes were written, -1 on an error. */
int fd_write_all(int fd, const void *buf, size_t n);
/* 0 when all n bytes were read, -1 on an error or end of file first. */
int fd_read_all(int fd, void *buf, size_t n);
/* The bytes of the file at path, NUL-terminated (*len without the NUL), or
 * NULL with errno set. */
char *file_read_all(const char *path, size_t *len);
/* The same, with why set to a one-line reason when it returns NULL ("not a
 * regular file (a FIFO)", "cannot open: ...", "cannot read: ..."). */
char *file_read_all_why(const char *path, size_t *len, char *why, size_t size);

#endif

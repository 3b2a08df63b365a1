/* The one way ptodb opens a file it reads (dumps, data, manifests, scripts,
 * rc and session files): only a regular file is opened. The open itself is
 * non-blocking, so a FIFO, a device or a socket named like an input is a
 * one-line error instead of a read that waits for ever. */
#ifndef PTODB_BASE_INPUT_FILE_H
#define PTODB_BASE_INPUT_FILE_H

#include <stddef.h>
#include <stdio.h>

/* A blocking read-only descriptor (close-on-exec) of the regular file path,
 * or -1 with why set to "cannot open: REASON" or "not a regular file (a
 * FIFO)" and errno to the cause (ENOENT, ... or EINVAL for the wrong kind). */
int input_file_open(const char *path, char *why, size_t size);
/* The same as a stdio stream (binary read). */
FILE *input_file_fopen(const char *path, char *why, size_t size);

#endif

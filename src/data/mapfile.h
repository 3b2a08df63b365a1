/* A whole input file in memory with one read-only-source mapping. The
 * mapping is private and copy-on-write, so tensors whose storage points into
 * it may be modified by the interpreter without ever touching the user's file. */
#ifndef PTODB_DATA_MAPFILE_H
#define PTODB_DATA_MAPFILE_H

#include <stddef.h>

#include "base/diag.h"
#include "tensor/tensor.h"

typedef struct mapfile {
    int refcount;
    unsigned char *data; /* size bytes (a private mapping, or malloc for empty files) */
    size_t size;
    int mapped;
    int fd; /* the file, open while mapped (-1 otherwise) */
} mapfile;

/* Maps path. Errors (missing file, a directory, ...) go to sink as
 * "path: error: ..." and return ERR_IO. */
ptodb_status mapfile_open(const char *path, mapfile **out, diag_sink *sink);
mapfile *mapfile_ref(mapfile *m);
void mapfile_unref(mapfile *m);

/* A storage over bytes [off, off + nbytes) of the mapping that keeps the
 * mapping alive. When the bytes are not 16-byte aligned they are copied
 * instead, so that every storage is aligned for its dtype. The caller has
 * checked the range. */
tensor_storage *mapfile_storage(mapfile *m, size_t off, size_t nbytes);

/* A private copy-on-write mapping of the same file bytes as storage s (one
 * cut by mapfile_storage): a fresh copy of an input for one pass that costs
 * no copying until, and only where, it is written. NULL when s is not such
 * a storage or is smaller than MAPFILE_COW_MIN (a copy is cheaper: measured, a 128 KiB input copied
 * costs less than mapping it and taking its faults). */
#define MAPFILE_COW_MIN ((size_t)1 << 20)
tensor_storage *mapfile_storage_cow(const tensor_storage *s);

#endif

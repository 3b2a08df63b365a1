/* A whole input file in memory with one read-only-source mapping. The
 * mapping is private and copy-on-write, so tensors whose storage points into
 * it may be modified by the interpreter without ever touching the user's file. */
#ifndef PTODB_DATA_MAPFILE_H
#define PTODB_DATA_MAPFILE_H

#include <stddef.h>

#include "base/diag.h"
#include "tensor/tensor.h"

struct cow_map;

typedef struct mapfile {
    int refcount;
    unsigned char *data; /* size bytes (a private mapping, or malloc for empty files) */
    size_t size;
    int mapped;
    int fd;                    /* the file, open while mapped (-1 otherwise) */
    struct cow_map *idle_cows; /* copy-on-write mappings reset for the next pass */
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
 * costs less than mapping it and taking its faults).
 *
 * When the storage is released, the mapping is not unmapped but reset: the
 * pages the pass wrote (found in /proc/self/pagemap) are dropped, so they
 * read the file's bytes again, and the next call for the same bytes returns
 * the same mapping with its clean pages still mapped. A fresh mapping's first
 * touch of each page costs a fault (and under a shadow-paging hypervisor a
 * second, hidden one): measured, 60 MB of strided tile loads took 46 ms in a
 * fresh mapping against 3 ms in a reused one. Where the page map cannot be
 * read, the mapping is unmapped as before. */
#define MAPFILE_COW_MIN ((size_t)1 << 20)
tensor_storage *mapfile_storage_cow(const tensor_storage *s);

#endif

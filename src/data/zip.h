/* Reading and writing the ZIP container torch.save uses: stored (method 0)
 * entries, sizes from the central directory, Zip64 end records, CRC-32
 * verified. Compressed entries, encryption and multi-disk archives are
 * refused: torch never writes them. */
#ifndef PTODB_DATA_ZIP_H
#define PTODB_DATA_ZIP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/diag.h"

typedef struct zip_entry {
    char *name;        /* NUL-terminated copy */
    uint64_t data_off; /* where the stored bytes start in the archive */
    uint64_t size;
    uint32_t crc;
    int crc_checked;   /* set by zip_entry_verify once the CRC matched */
} zip_entry;

typedef struct zip_archive {
    const unsigned char *data; /* borrowed: the whole file */
    size_t size;
    const char *path;          /* borrowed, for messages */
    zip_entry *entries;
    size_t count;
} zip_archive;

/* Parses the end records and the central directory of data[0..size) and
 * checks that each entry's local header and bytes lie inside the file.
 * Errors go to sink as "path: error: ..." with ERR_FORMAT. */
ptodb_status zip_open(zip_archive *z, const unsigned char *data, size_t size, const char *path,
                      diag_sink *sink);
void zip_close(zip_archive *z);

/* The first entry whose name ends with suffix (suffix must match after a '/'
 * or be the whole name), or NULL. */
const zip_entry *zip_find_suffix(const zip_archive *z, const char *suffix);
const zip_entry *zip_find(const zip_archive *z, const char *name);

/* Checks an entry's CRC-32 (reporting a mismatch as ERR_FORMAT). */
ptodb_status zip_entry_verify(const zip_archive *z, zip_entry *e, diag_sink *sink);

uint32_t zip_crc32(uint32_t crc, const void *data, size_t len);

/* ---- writer: the layout torch.save produces (semantics.md §9.1) ---------- */

typedef struct zip_writer {
    FILE *out;
    uint64_t pos;
    zip_entry *entries;
    size_t count, cap;
    int failed;
} zip_writer;

void zip_writer_init(zip_writer *w, FILE *out);
/* Adds a stored entry whose data starts on a 64-byte boundary (the "FB"
 * padding extra field), with a data descriptor, flags 0x0808. */
void zip_writer_add(zip_writer *w, const char *name, const void *data, size_t size);
/* Writes the central directory, Zip64 end record + locator and the classic
 * end record. Returns 0, or -1 when any write failed. */
int zip_writer_finish(zip_writer *w);

#endif

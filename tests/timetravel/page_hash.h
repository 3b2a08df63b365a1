/* The state hash of a large case without reading every byte at every
 * moment: the reverse-execution oracle's storage hasher (page_hash.c). */
#ifndef PTODB_TESTS_PAGE_HASH_H
#define PTODB_TESTS_PAGE_HASH_H

#include <stddef.h>
#include <stdint.h>

#include "tensor/tensor.h"

/* From now on machine_state_hash folds a large storage's bytes in from
 * chunk hashes it keeps, reading again only the chunks on pages written
 * since it last read them (the pages are write-protected in between; a
 * write faults once and marks the page). Gives the value the bytes give. */
void page_hash_enable(void);
/* Unprotects every page, drops the storages (between passes: the hasher
 * holds a reference to each storage it tracks). */
void page_hash_reset(void);
/* The hasher itself: machine_storage_bytes_hash of the storage's bytes now,
 * tracking it from now on if it is large (8 pages or more). */
uint64_t page_hash_storage(const tensor_storage *s);
/* Chunks read again and chunks taken from the cache, since enable. */
void page_hash_counts(size_t *read, size_t *cached);

#endif

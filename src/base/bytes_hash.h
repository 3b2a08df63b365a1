/* A 64-bit hash of every byte of a buffer, at memory speed: the state
 * hashes of reverse execution's oracle (the machine's tensors, the memory
 * model's spaces). Not a content_hash (content_set.h), which samples. */
#ifndef PTODB_BASE_BYTES_HASH_H
#define PTODB_BASE_BYTES_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Mixes x into h. */
uint64_t bytes_hash_mix(uint64_t h, uint64_t x);
/* h with the n bytes at p folded in (n and every byte count). */
uint64_t bytes_hash(uint64_t h, const void *p, size_t n);

#endif

/* Buffers by content: a set that finds, for some bytes, an earlier buffer
 * bit for bit the same, so that a recorder keeping many copies of values
 * (the divergence search's trace, why's log) keeps one of each. Each entry
 * is the bytes it is found by and an owner the caller gives (the buffer
 * itself, a storage holding it); the set owns neither. */
#ifndef PTODB_BASE_CONTENT_SET_H
#define PTODB_BASE_CONTENT_SET_H

#include <stddef.h>
#include <stdint.h>

typedef struct content_slot {
    const void *bytes; /* NULL: an empty slot */
    size_t n;
    uint64_t h;
    void *owner;
} content_slot;

typedef struct content_set {
    content_slot *at;
    size_t n, cap;
} content_set;

/* A hash of n bytes at p from their length and at most 64 words spread
 * over them: equal buffers hash the same (a hit is compared whole), and a
 * tile's worth is not read twice to find its twin. */
uint64_t content_hash(const void *p, size_t n);
/* The owner of an entry whose n bytes (hash h) are p's, or NULL. */
void *content_set_find(const content_set *s, uint64_t h, const void *p, size_t n);
/* Adds an entry: bytes p (which must stay as they are while it is in the
 * set), hash h, owner. */
void content_set_add(content_set *s, uint64_t h, const void *p, size_t n, void *owner);
/* Frees the table (not the owners: walk s->at first). */
void content_set_free(content_set *s);

#endif

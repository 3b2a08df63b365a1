/* Numbers typed by the user (options, REPL settings and commands): the whole
 * text must be one, in range, without overflow. */
#ifndef PTODB_BASE_NUMBER_H
#define PTODB_BASE_NUMBER_H

#include <stdint.h>

/* A decimal integer (optional sign) in [lo, hi]: 0 and *out set, or -1 for
 * junk, an empty text, overflow or a value out of range. */
int parse_int_range(const char *text, long long lo, long long hi, long long *out);
/* An unsigned decimal integer (no sign) up to UINT64_MAX: 0 or -1. */
int parse_u64(const char *text, uint64_t *out);
/* A byte count: an integer with an optional K, M, G or T suffix (powers of
 * 1024), in [lo, hi]: 0 or -1. */
int parse_byte_size(const char *text, uint64_t lo, uint64_t hi, uint64_t *out);

#endif

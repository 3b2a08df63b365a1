/* Whole-text, range-checked number parsing (see number.h). */
#include "config.h"

#include "base/number.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

int parse_int_range(const char *text, long long lo, long long hi, long long *out)
{
    if (!text || !*text || isspace((unsigned char)*text))
        return -1;
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int parse_u64(const char *text, uint64_t *out)
{
    if (!text || !isdigit((unsigned char)*text))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end || errno)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

int parse_byte_size(const char *text, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (!text || !isdigit((unsigned char)*text))
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno)
        return -1;
    int shift = 0;
    switch (*end) {
    case 'K': case 'k': shift = 10; end++; break;
    case 'M': case 'm': shift = 20; end++; break;
    case 'G': case 'g': shift = 30; end++; break;
    case 'T': case 't': shift = 40; end++; break;
    default: break;
    }
    if (*end || (shift && v > (UINT64_MAX >> shift)))
        return -1;
    uint64_t b = (uint64_t)v << shift;
    if (b < lo || b > hi)
        return -1;
    *out = b;
    return 0;
}

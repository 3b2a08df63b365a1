/* bytes_hash (bytes_hash.h). */
#include "base/bytes_hash.h"

#include <string.h>

uint64_t bytes_hash_mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 32);
}

uint64_t bytes_hash(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i = 0;
    /* four independent lanes: a tensor's bytes hash at memory speed */
    if (n >= 64) {
        uint64_t l[4] = {h, h ^ 0x9E3779B97F4A7C15ull, h ^ 0xC2B2AE3D27D4EB4Full, h ^ 0x165667B19E3779F9ull};
        for (; i + 32 <= n; i += 32)
            for (int k = 0; k < 4; k++) {
                uint64_t w;
                memcpy(&w, b + i + 8 * k, 8);
                l[k] = (l[k] ^ w) * 0x100000001b3ull;
                l[k] ^= l[k] >> 29;
            }
        for (int k = 0; k < 4; k++)
            h = bytes_hash_mix(h, l[k]);
    }
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    uint64_t t = 0;
    memcpy(&t, b + i, n - i);
    return bytes_hash_mix(h, t ^ n);
}

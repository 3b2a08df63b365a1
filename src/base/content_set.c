/* Buffers by content (content_set.h): open addressing by the hash. */
#include "base/content_set.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

uint64_t content_hash(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    size_t words = n / 8, step = words > 64 ? words / 64 : 1;
    for (size_t w = 0; w < words; w += step) {
        uint64_t x;
        memcpy(&x, b + w * 8, 8);
        h = (h ^ x) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    for (size_t i = words * 8; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h ^ (h >> 32);
}

void *content_set_find(const content_set *s, uint64_t h, const void *p, size_t n)
{
    if (!s->cap)
        return NULL;
    for (size_t j = (size_t)h & (s->cap - 1); s->at[j].bytes; j = (j + 1) & (s->cap - 1))
        if (s->at[j].h == h && s->at[j].n == n && memcmp(s->at[j].bytes, p, n) == 0)
            return s->at[j].owner;
    return NULL;
}

void content_set_add(content_set *s, uint64_t h, const void *p, size_t n, void *owner)
{
    if ((s->n + 1) * 2 > s->cap) {
        size_t oc = s->cap;
        content_slot *old = s->at;
        s->cap = oc ? oc * 2 : 1024;
        s->at = xcalloc(s->cap, sizeof *s->at);
        for (size_t i = 0; i < oc; i++)
            if (old[i].bytes) {
                size_t j = (size_t)old[i].h & (s->cap - 1);
                while (s->at[j].bytes)
                    j = (j + 1) & (s->cap - 1);
                s->at[j] = old[i];
            }
        free(old);
    }
    size_t j = (size_t)h & (s->cap - 1);
    while (s->at[j].bytes)
        j = (j + 1) & (s->cap - 1);
    s->at[j] = (content_slot){p, n, h, owner};
    s->n++;
}

void content_set_free(content_set *s)
{
    free(s->at);
    memset(s, 0, sizeof *s);
}

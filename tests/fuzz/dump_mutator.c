/* The custom mutator of the harnesses whose inputs are pass dumps
 * (fuzz_interp, fuzz_rankprog), linked into them by scripts/fuzz (libFuzzer
 * only: the replay build does not mutate). It changes one token at a time,
 * so that most mutants still parse and resolve and reach the machine (with
 * byte-level mutation alone, 2 in 100 of the corpus did): a number becomes
 * another (often a boundary), an op after "pl." becomes another op of the
 * catalogue, a name becomes another
 * name of the same dump; one mutation in four is libFuzzer's own. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ir/resolve.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

static unsigned next_random(unsigned *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

static int is_name_char(int c)
{
    return isalnum(c) || c == '_';
}

typedef struct span {
    size_t at, len;
} span;

/* The tokens of one kind in data: 'n' numbers, 'o' ops ("pl.tile.add",
 * "pld.system.notify": the whole spelling),
 * 'i' identifiers. Returns how many (at most cap). */
static size_t find_tokens(const uint8_t *d, size_t size, int kind, span *out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < size && n < cap;) {
        if (!is_name_char(d[i]) && d[i] != '.') {
            i++;
            continue;
        }
        size_t j = i;
        while (j < size && (is_name_char(d[j]) || d[j] == '.'))
            j++;
        int digit = isdigit(d[i]);
        if (kind == 'n' && digit)
            out[n++] = (span){i, j - i};
        else if (kind == 'o' && j < size && d[j] == '(' &&
                 ((j - i > 3 && memcmp(d + i, "pl.", 3) == 0) || (j - i > 4 && memcmp(d + i, "pld.", 4) == 0)))
            out[n++] = (span){i, j - i};
        else if (kind == 'i' && !digit && !memchr(d + i, '.', j - i))
            out[n++] = (span){i, j - i};
        i = j;
    }
    return n;
}

/* Replaces s in data by text; returns the new size (or size when it would not fit). */
static size_t replace(uint8_t *data, size_t size, size_t max_size, span s, const char *text, size_t len)
{
    if (size - s.len + len > max_size)
        return size;
    memmove(data + s.at + len, data + s.at + s.len, size - s.at - s.len);
    memcpy(data + s.at, text, len);
    return size - s.len + len;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    static span spans[4096];
    unsigned rnd = seed | 1;
    int kind = "noii"[next_random(&rnd) % 4];
    if (next_random(&rnd) % 4 == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    size_t n = find_tokens(data, size, kind, spans, sizeof spans / sizeof spans[0]);
    if (n == 0)
        return LLVMFuzzerMutate(data, size, max_size);
    span s = spans[next_random(&rnd) % n];
    char text[256];
    size_t len;
    if (kind == 'n') {
        static const long long boundary[] = {0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65,
                                             127, 128, 129, 255, 256, 1023, 1024, 4096, 65536,
                                             2147483647, 2147483648LL, 4294967296LL};
        unsigned r = next_random(&rnd);
        long long v = r % 2 ? boundary[r / 2 % (sizeof boundary / sizeof boundary[0])]
                            : (long long)(next_random(&rnd) % 300);
        len = (size_t)snprintf(text, sizeof text, "%lld", v);
    } else if (kind == 'o') {
        /* as the dumps spell it: pl. before an op of the pl namespace */
        const ir_op_info *op = ir_op_info_get((int)(next_random(&rnd) % IR_OP_COUNT));
        const char *name = op ? op->name : "tile.add";
        len = (size_t)snprintf(text, sizeof text, "%s%s", strncmp(name, "pld.", 4) == 0 ? "" : "pl.", name);
    } else {
        span other = spans[next_random(&rnd) % n];
        len = other.len < sizeof text ? other.len : sizeof text - 1;
        memcpy(text, data + other.at, len);
    }
    return replace(data, size, max_size, s, text, len);
}

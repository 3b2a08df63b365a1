/* ZIP container: just what torch.save writes, checked against hostile input. */
#include "config.h"

#include "data/zip.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "data/crc32_table.h"

/* Limits that keep a hostile central directory from costing much. */
#define ZIP_MAX_ENTRIES 100000u
#define ZIP_MAX_NAME 4096u

static uint16_t rd16(const unsigned char *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t rd32(const unsigned char *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static uint64_t rd64(const unsigned char *p)
{
    return (uint64_t)rd32(p) | ((uint64_t)rd32(p + 4) << 32);
}

/* ---- CRC-32 (IEEE 802.3, reflected), slicing-by-8 ----------------------- */

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ZIP_HAVE_CLMUL 1

/* CRC-32 by carry-less multiplication folding (Intel, "Fast CRC Computation
 * for Generic Polynomials Using PCLMULQDQ", the bit-reflected constants for
 * 0xEDB88320, as in Chromium's zlib crc32_simd.c). Takes and returns the
 * raw (pre/post-inverted) register; len >= 64 and a multiple of 16. Large
 * tensors spend their load time here, so this keeps loading near memory
 * speed; the table version below handles the rest and other CPUs. */
__attribute__((target("pclmul,sse4.1"))) static uint32_t crc32_clmul(const unsigned char *buf,
                                                                      size_t len, uint32_t crc)
{
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5k0 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    __m128i x0, x1, x2, x3, x4, x5, x6, x7, x8;

    x1 = _mm_loadu_si128((const __m128i *)(buf + 0x00));
    x2 = _mm_loadu_si128((const __m128i *)(buf + 0x10));
    x3 = _mm_loadu_si128((const __m128i *)(buf + 0x20));
    x4 = _mm_loadu_si128((const __m128i *)(buf + 0x30));
    x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
    x0 = k1k2;
    buf += 64;
    len -= 64;
    while (len >= 64) { /* four lanes folded in parallel */
        x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
        x6 = _mm_clmulepi64_si128(x2, x0, 0x00);
        x7 = _mm_clmulepi64_si128(x3, x0, 0x00);
        x8 = _mm_clmulepi64_si128(x4, x0, 0x00);
        x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
        x2 = _mm_clmulepi64_si128(x2, x0, 0x11);
        x3 = _mm_clmulepi64_si128(x3, x0, 0x11);
        x4 = _mm_clmulepi64_si128(x4, x0, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), _mm_loadu_si128((const __m128i *)(buf + 0x00)));
        x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), _mm_loadu_si128((const __m128i *)(buf + 0x10)));
        x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), _mm_loadu_si128((const __m128i *)(buf + 0x20)));
        x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), _mm_loadu_si128((const __m128i *)(buf + 0x30)));
        buf += 64;
        len -= 64;
    }
    x0 = k3k4; /* fold the four lanes into one */
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x3), x5);
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x4), x5);
    while (len >= 16) {
        x2 = _mm_loadu_si128((const __m128i *)buf);
        x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
        x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
        buf += 16;
        len -= 16;
    }
    /* 128 -> 64 bits */
    x2 = _mm_clmulepi64_si128(x1, x0, 0x10);
    x3 = _mm_setr_epi32(~0, 0, ~0, 0);
    x1 = _mm_srli_si128(x1, 8);
    x1 = _mm_xor_si128(x1, x2);
    x0 = k5k0;
    x2 = _mm_srli_si128(x1, 4);
    x1 = _mm_and_si128(x1, x3);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_xor_si128(x1, x2);
    /* Barrett reduction to 32 bits */
    x0 = poly;
    x2 = _mm_and_si128(x1, x3);
    x2 = _mm_clmulepi64_si128(x2, x0, 0x10);
    x2 = _mm_and_si128(x2, x3);
    x2 = _mm_clmulepi64_si128(x2, x0, 0x00);
    x1 = _mm_xor_si128(x1, x2);
    return (uint32_t)_mm_extract_epi32(x1, 1);
}
#endif

uint32_t zip_crc32(uint32_t crc, const void *data, size_t len)
{
    const unsigned char *p = data;
    crc = ~crc;
#ifdef ZIP_HAVE_CLMUL
    if (len >= 256 && __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1")) {
        size_t chunk = len & ~(size_t)15;
        crc = crc32_clmul(p, chunk, crc);
        p += chunk;
        len -= chunk;
    }
#endif
    while (len >= 8) {
        uint32_t a = crc ^ rd32(p);
        uint32_t b = rd32(p + 4);
        crc = zip_crc_table[7][a & 0xFF] ^ zip_crc_table[6][(a >> 8) & 0xFF] ^ zip_crc_table[5][(a >> 16) & 0xFF] ^
              zip_crc_table[4][a >> 24] ^ zip_crc_table[3][b & 0xFF] ^ zip_crc_table[2][(b >> 8) & 0xFF] ^
              zip_crc_table[1][(b >> 16) & 0xFF] ^ zip_crc_table[0][b >> 24];
        p += 8;
        len -= 8;
    }
    while (len--)
        crc = zip_crc_table[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

/* ---- reader ------------------------------------------------------------- */

#define ZIP_ERR(...)                                                                    \
    do {                                                                                \
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, __VA_ARGS__);       \
        return PTODB_ERR_FORMAT;                                                        \
    } while (0)

/* Finds the classic end record, scanning back over a comment of at most
 * 64 KiB. Returns its offset or -1. */
static int64_t find_eocd(const unsigned char *d, size_t size)
{
    if (size < 22)
        return -1;
    size_t lo = size > 22 + 65535 ? size - 22 - 65535 : 0;
    for (size_t i = size - 22 + 1; i-- > lo;) {
        if (rd32(d + i) == 0x06054b50u && (size_t)rd16(d + i + 20) == size - i - 22)
            return (int64_t)i;
    }
    return -1;
}

static ptodb_status read_end(const unsigned char *d, size_t size, const char *path, diag_sink *sink,
                             uint64_t *count, uint64_t *cd_off, uint64_t *cd_size)
{
    int64_t e = find_eocd(d, size);
    if (e < 0) {
        if (size >= 2 && d[0] == 0x80 && d[1] == 0x02)
            ZIP_ERR("legacy (pre-1.6, non-ZIP) torch file: re-save it with a current torch.save");
        if (size >= 4 && rd32(d) == 0x04034b50u)
            ZIP_ERR("truncated ZIP archive: no end-of-central-directory record");
        ZIP_ERR("not a ZIP archive (torch .pt files are ZIP archives)");
    }
    const unsigned char *r = d + e;
    if (rd16(r + 4) != 0 && rd16(r + 4) != 0xFFFF)
        ZIP_ERR("multi-disk ZIP archives are not supported");
    *count = rd16(r + 10);
    *cd_size = rd32(r + 12);
    *cd_off = rd32(r + 16);
    /* A Zip64 locator sits right before the classic record. */
    if (e >= 20 && rd32(d + e - 20) == 0x07064b50u) {
        uint64_t z64 = rd64(d + e - 20 + 8);
        if (z64 > size || size - z64 < 56 || rd32(d + z64) != 0x06064b50u)
            ZIP_ERR("bad Zip64 end-of-central-directory locator");
        const unsigned char *q = d + z64;
        if (*count == 0xFFFF || *cd_size == 0xFFFFFFFFu || *cd_off == 0xFFFFFFFFu ||
            rd64(q + 32) != *count) {
            *count = rd64(q + 32);
            *cd_size = rd64(q + 40);
            *cd_off = rd64(q + 48);
        }
    }
    if (*cd_off > size || *cd_size > size - *cd_off)
        ZIP_ERR("central directory (offset %llu, %llu bytes) lies outside the %zu-byte file",
                (unsigned long long)*cd_off, (unsigned long long)*cd_size, size);
    if (*count > ZIP_MAX_ENTRIES || *count > *cd_size / 46)
        ZIP_ERR("the end record claims %llu entries, more than the %llu-byte central directory holds",
                (unsigned long long)*count, (unsigned long long)*cd_size);
    return PTODB_OK;
}

/* Parses the Zip64 extended-information extra field of a central header. */
static int zip64_extra(const unsigned char *x, size_t xlen, uint64_t *usize, uint64_t *csize,
                       uint64_t *off)
{
    while (xlen >= 4) {
        uint16_t id = rd16(x), n = rd16(x + 2);
        if ((size_t)n > xlen - 4)
            return -1;
        if (id == 0x0001) {
            const unsigned char *p = x + 4, *end = x + 4 + n;
            if (*usize == 0xFFFFFFFFu) {
                if (end - p < 8)
                    return -1;
                *usize = rd64(p);
                p += 8;
            }
            if (*csize == 0xFFFFFFFFu) {
                if (end - p < 8)
                    return -1;
                *csize = rd64(p);
                p += 8;
            }
            if (*off == 0xFFFFFFFFu) {
                if (end - p < 8)
                    return -1;
                *off = rd64(p);
            }
            return 0;
        }
        x += 4 + n;
        xlen -= 4 + (size_t)n;
    }
    return 0;
}

static ptodb_status read_entry(zip_archive *z, const unsigned char **pp, const unsigned char *end,
                               size_t i, diag_sink *sink)
{
    const char *path = z->path;
    const unsigned char *p = *pp, *d = z->data;
    if (end - p < 46 || rd32(p) != 0x02014b50u)
        ZIP_ERR("central directory entry %zu is malformed", i);
    uint16_t flags = rd16(p + 8), method = rd16(p + 10);
    uint32_t crc = rd32(p + 16);
    uint64_t csize = rd32(p + 20), usize = rd32(p + 24);
    size_t nlen = rd16(p + 28), xlen = rd16(p + 30), clen = rd16(p + 32);
    uint64_t off = rd32(p + 42);
    if ((size_t)(end - p - 46) < nlen + xlen + clen)
        ZIP_ERR("central directory entry %zu runs past the directory", i);
    if (nlen == 0 || nlen > ZIP_MAX_NAME)
        ZIP_ERR("central directory entry %zu has a bad name length (%zu)", i, nlen);
    char *name = xstrndup((const char *)p + 46, nlen);
    if (strlen(name) != nlen) {
        free(name);
        ZIP_ERR("central directory entry %zu has a NUL byte in its name", i);
    }
    z->entries[i].name = name; /* owned from here, freed by zip_close */
    if (zip64_extra(p + 46 + nlen, xlen, &usize, &csize, &off) != 0)
        ZIP_ERR("%s: malformed Zip64 extra field", name);
    if (flags & 0x0001)
        ZIP_ERR("%s: encrypted ZIP entries are not supported", name);
    if (method != 0)
        ZIP_ERR("%s: compressed ZIP entry (method %u); torch.save stores entries uncompressed", name,
                method);
    if (csize != usize)
        ZIP_ERR("%s: stored entry has compressed size %llu but size %llu", name,
                (unsigned long long)csize, (unsigned long long)usize);
    if (off > z->size || z->size - off < 30 || rd32(d + off) != 0x04034b50u)
        ZIP_ERR("%s: local header at offset %llu is missing or outside the file", name,
                (unsigned long long)off);
    uint64_t data_off = off + 30 + rd16(d + off + 26) + rd16(d + off + 28);
    if (data_off > z->size || usize > z->size - data_off)
        ZIP_ERR("%s: entry data (%llu bytes at offset %llu) runs past the end of the %zu-byte file",
                name, (unsigned long long)usize, (unsigned long long)data_off, z->size);
    z->entries[i].data_off = data_off;
    z->entries[i].size = usize;
    z->entries[i].crc = crc;
    *pp = p + 46 + nlen + xlen + clen;
    return PTODB_OK;
}

ptodb_status zip_open(zip_archive *z, const unsigned char *data, size_t size, const char *path,
                      diag_sink *sink)
{
    memset(z, 0, sizeof *z);
    z->data = data;
    z->size = size;
    z->path = path;
    uint64_t count, cd_off, cd_size;
    ptodb_status st = read_end(data, size, path, sink, &count, &cd_off, &cd_size);
    if (st != PTODB_OK)
        return st;
    if (count == 0)
        ZIP_ERR("empty ZIP archive: no entries");
    z->entries = xcalloc((size_t)count, sizeof *z->entries);
    z->count = (size_t)count;
    const unsigned char *p = data + cd_off, *end = data + cd_off + cd_size;
    for (size_t i = 0; i < z->count; i++) {
        st = read_entry(z, &p, end, i, sink);
        if (st != PTODB_OK) {
            zip_close(z);
            return st;
        }
    }
    return PTODB_OK;
}

void zip_close(zip_archive *z)
{
    for (size_t i = 0; i < z->count; i++)
        free(z->entries[i].name);
    free(z->entries);
    z->entries = NULL;
    z->count = 0;
}

const zip_entry *zip_find(const zip_archive *z, const char *name)
{
    for (size_t i = 0; i < z->count; i++)
        if (strcmp(z->entries[i].name, name) == 0)
            return &z->entries[i];
    return NULL;
}

const zip_entry *zip_find_suffix(const zip_archive *z, const char *suffix)
{
    size_t sl = strlen(suffix);
    for (size_t i = 0; i < z->count; i++) {
        const char *n = z->entries[i].name;
        size_t nl = strlen(n);
        if (nl >= sl && strcmp(n + nl - sl, suffix) == 0 && (nl == sl || n[nl - sl - 1] == '/'))
            return &z->entries[i];
    }
    return NULL;
}

ptodb_status zip_entry_verify(const zip_archive *z, zip_entry *e, diag_sink *sink)
{
    if (e->crc_checked)
        return PTODB_OK;
    uint32_t crc = zip_crc32(0, z->data + e->data_off, (size_t)e->size);
    if (crc != e->crc) {
        diag_report(sink, DIAG_ERROR, (diag_loc){z->path, 0, 0}, NULL,
                    "%s: CRC-32 mismatch (stored %08x, computed %08x): the file is corrupt", e->name,
                    e->crc, crc);
        return PTODB_ERR_FORMAT;
    }
    e->crc_checked = 1;
    return PTODB_OK;
}

/* ---- writer ------------------------------------------------------------- */

static void put(zip_writer *w, const void *p, size_t n)
{
    if (n && fwrite(p, 1, n, w->out) != n)
        w->failed = 1;
    w->pos += n;
}

static void put16(zip_writer *w, uint32_t v)
{
    unsigned char b[2] = {(unsigned char)v, (unsigned char)(v >> 8)};
    put(w, b, 2);
}

static void put32(zip_writer *w, uint32_t v)
{
    unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    put(w, b, 4);
}

static void put64(zip_writer *w, uint64_t v)
{
    put32(w, (uint32_t)v);
    put32(w, (uint32_t)(v >> 32));
}

void zip_writer_init(zip_writer *w, FILE *out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
}

static uint32_t clamp32(uint64_t v)
{
    return v >= 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)v;
}

void zip_writer_add(zip_writer *w, const char *name, const void *data, size_t size)
{
    if (w->count == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 8;
        w->entries = xreallocarray(w->entries, w->cap, sizeof *w->entries);
    }
    zip_entry *e = &w->entries[w->count++];
    size_t nlen = strlen(name);
    e->name = xstrdup(name);
    e->data_off = w->pos; /* the local header's offset, for the directory */
    e->size = size;
    e->crc = zip_crc32(0, data, size);
    size_t pad = (64 - (size_t)((w->pos + 30 + nlen + 4) % 64)) % 64;
    put32(w, 0x04034b50u);
    put16(w, 0);      /* version needed (torch writes 0) */
    put16(w, 0x0808); /* data descriptor + UTF-8 names */
    put16(w, 0);      /* stored */
    put32(w, 0);      /* time, date */
    put32(w, 0);      /* crc, sizes: in the descriptor */
    put32(w, 0);
    put32(w, 0);
    put16(w, (uint32_t)nlen);
    put16(w, (uint32_t)(4 + pad));
    put(w, name, nlen);
    put16(w, 0x4246); /* "FB": torch's alignment padding */
    put16(w, (uint32_t)pad);
    for (size_t i = 0; i < pad; i++)
        put(w, "Z", 1);
    put(w, data, size);
    put32(w, 0x08074b50u);
    put32(w, e->crc);
    if (size >= 0xFFFFFFFFu) {
        put64(w, size);
        put64(w, size);
    } else {
        put32(w, (uint32_t)size);
        put32(w, (uint32_t)size);
    }
}

int zip_writer_finish(zip_writer *w)
{
    uint64_t cd_off = w->pos;
    for (size_t i = 0; i < w->count; i++) {
        zip_entry *e = &w->entries[i];
        int z64 = e->size >= 0xFFFFFFFFu || e->data_off >= 0xFFFFFFFFu;
        size_t nlen = strlen(e->name);
        put32(w, 0x02014b50u);
        put16(w, 0); /* made by */
        put16(w, z64 ? 45 : 0);
        put16(w, 0x0808);
        put16(w, 0);
        put32(w, 0);
        put32(w, e->crc);
        put32(w, clamp32(e->size));
        put32(w, clamp32(e->size));
        put16(w, (uint32_t)nlen);
        put16(w, z64 ? 28 : 0);
        put16(w, 0); /* comment */
        put16(w, 0); /* disk */
        put16(w, 0); /* internal attrs */
        put32(w, 0); /* external attrs */
        put32(w, clamp32(e->data_off));
        put(w, e->name, nlen);
        if (z64) {
            put16(w, 1);
            put16(w, 24);
            put64(w, e->size);
            put64(w, e->size);
            put64(w, e->data_off);
        }
    }
    uint64_t cd_size = w->pos - cd_off;
    uint64_t z64_off = w->pos;
    put32(w, 0x06064b50u); /* Zip64 end record, as torch always writes one */
    put64(w, 44);
    put16(w, 0x031e);
    put16(w, 45);
    put32(w, 0);
    put32(w, 0);
    put64(w, w->count);
    put64(w, w->count);
    put64(w, cd_size);
    put64(w, cd_off);
    put32(w, 0x07064b50u);
    put32(w, 0);
    put64(w, z64_off);
    put32(w, 1);
    put32(w, 0x06054b50u);
    put16(w, 0);
    put16(w, 0);
    put16(w, w->count >= 0xFFFF ? 0xFFFF : (uint32_t)w->count);
    put16(w, w->count >= 0xFFFF ? 0xFFFF : (uint32_t)w->count);
    put32(w, clamp32(cd_size));
    put32(w, clamp32(cd_off));
    put16(w, 0);
    for (size_t i = 0; i < w->count; i++)
        free(w->entries[i].name);
    free(w->entries);
    w->entries = NULL;
    return w->failed ? -1 : 0;
}

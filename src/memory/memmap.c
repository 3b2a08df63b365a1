/* One core's memory and the sanitizer's checks (memmap.h, docs/memory.md). */
#include "memory/memmap.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/bytes_hash.h"
#include "base/mem.h"
#include "tensor/dtype.h"

/* Before AllocateMemoryAddr every MemRef id is a buffer of its own; they
 * are laid one after another in a space that may exceed the device's (no
 * reuse has happened yet), up to this many bytes before a bounds fault. */
#define MEM_VIRTUAL_LIMIT ((uint64_t)256 << 20)

static const char *const fault_names[] = {"none", "clobber", "uninit", "bounds", "slot"};

const char *mem_fault_kind_name(mem_fault_kind k)
{
    return (unsigned)k < sizeof fault_names / sizeof fault_names[0] ? fault_names[k] : "?";
}

void mem_core_init(mem_core *mc, mem_target t, int addressed)
{
    memset(mc, 0, sizeof *mc);
    mc->target = t;
    mc->addressed = addressed != 0;
}

void mem_core_free(mem_core *mc)
{
    for (int s = 0; s < MEM_NSPACES; s++) {
        free(mc->sp[s].bytes);
        free(mc->sp[s].writer);
    }
    free(mc->tiles);
    free(mc->hash);
    free(mc->ids);
    free(mc->slots);
    memset(mc, 0, sizeof *mc);
}

void mem_core_begin_call(mem_core *mc)
{
    for (int s = 0; s < MEM_NSPACES; s++) {
        mem_space_state *sp = &mc->sp[s];
        sp->high = 0;
        sp->nintact = 0;
        if (sp->writer)
            memset(sp->writer, 0, (size_t)((sp->size + MEM_GRANULE - 1) / MEM_GRANULE) * sizeof *sp->writer);
    }
    for (uint32_t i = 0; i < mc->ntiles; i++) {
        mc->tiles[i].extent = 0;
        mc->tiles[i].intact = 0;
    }
    mc->epoch++;
    mc->nslots = 0; /* reserved again by the call */
}

static uint64_t space_limit(const mem_core *mc, mem_space s)
{
    mem_space_limits l;
    if (mem_space_limits_of(mc->target, s, &l) != 0)
        return 0;
    return mc->addressed ? l.capacity : MEM_VIRTUAL_LIMIT;
}

uint64_t mem_space_extent(const mem_core *mc, mem_space s)
{
    return (unsigned)s < MEM_NSPACES ? space_limit(mc, s) : 0;
}

uint64_t mem_space_read(const mem_core *mc, mem_space s, uint64_t addr, void *dst, uint64_t n)
{
    uint64_t end = mem_space_extent(mc, s);
    if (addr >= end)
        return 0;
    if (n > end - addr)
        n = end - addr;
    const mem_space_state *sp = &mc->sp[s];
    /* past the bytes allocated so far: nothing was written there */
    uint64_t have = addr < sp->size ? sp->size - addr : 0;
    if (have > n)
        have = n;
    if (have)
        memcpy(dst, sp->bytes + addr, (size_t)have);
    memset((unsigned char *)dst + have, 0, (size_t)(n - have));
    return n;
}

/* The space's bytes at addr; NULL while none were allocated (an empty
 * tile's walk touches nothing, and NULL + 0 is undefined behaviour). */
static unsigned char *space_at(const mem_space_state *sp, uint64_t addr)
{
    return sp->bytes ? sp->bytes + addr : NULL;
}

/* Makes [0, end) of space s addressable (end within its limit). */
static void space_reserve(mem_space_state *sp, uint64_t end)
{
    if (end <= sp->size)
        return;
    uint64_t n = sp->size ? sp->size : 4096;
    while (n < end)
        n *= 2;
    uint64_t ng_old = (sp->size + MEM_GRANULE - 1) / MEM_GRANULE;
    uint64_t ng = (n + MEM_GRANULE - 1) / MEM_GRANULE;
    sp->bytes = xrealloc(sp->bytes, (size_t)n);
    memset(sp->bytes + sp->size, 0, (size_t)(n - sp->size));
    sp->writer = xreallocarray(sp->writer, (size_t)ng, sizeof *sp->writer);
    memset(sp->writer + ng_old, 0, (size_t)(ng - ng_old) * sizeof *sp->writer);
    sp->size = n;
}

static uint32_t hash_key(const void *key, uint32_t cap)
{
    uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 32) & (cap - 1);
}

static uint32_t find_tile(const mem_core *mc, const void *key)
{
    if (!mc->hcap)
        return 0;
    for (uint32_t i = hash_key(key, mc->hcap);; i = (i + 1) & (mc->hcap - 1)) {
        uint32_t t = mc->hash[i];
        if (!t)
            return 0;
        if (mc->tiles[t - 1].key == key)
            return t;
    }
}

static void hash_insert(mem_core *mc, uint32_t t)
{
    if (2 * (mc->ntiles + 1) > mc->hcap) {
        uint32_t ncap = mc->hcap ? 2 * mc->hcap : 64;
        free(mc->hash);
        mc->hash = xcalloc(ncap, sizeof *mc->hash);
        mc->hcap = ncap;
        for (uint32_t k = 1; k < t; k++) {
            uint32_t i = hash_key(mc->tiles[k - 1].key, ncap);
            while (mc->hash[i])
                i = (i + 1) & (ncap - 1);
            mc->hash[i] = k;
        }
    }
    uint32_t i = hash_key(mc->tiles[t - 1].key, mc->hcap);
    while (mc->hash[i])
        i = (i + 1) & (mc->hcap - 1);
    mc->hash[i] = t;
}

static void copy_name(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "?");
}

static void fault_set(mem_fault *f, mem_fault_kind k, uint32_t tile, uint32_t other, int space, uint64_t at,
                      const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void fault_set(mem_fault *f, mem_fault_kind k, uint32_t tile, uint32_t other, int space, uint64_t at,
                      const char *fmt, ...)
{
    f->kind = k;
    f->tile = tile;
    f->other = other;
    f->space = (uint8_t)space;
    f->at = at;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->why, sizeof f->why, fmt, ap);
    va_end(ap);
}

/* The id-per-buffer layout's range of base (before AllocateMemoryAddr). */
static mem_buffer_id *buffer_id(mem_core *mc, const void *scope, const char *base, mem_space s, uint64_t size)
{
    for (uint32_t i = 0; i < mc->nids; i++)
        if (mc->ids[i].space == s && mc->ids[i].scope == scope && strcmp(mc->ids[i].base, base) == 0)
            return &mc->ids[i];
    if (mc->nids == mc->idcap) {
        mc->idcap = mc->idcap ? 2 * mc->idcap : 16;
        mc->ids = xreallocarray(mc->ids, mc->idcap, sizeof *mc->ids);
    }
    mem_buffer_id *b = &mc->ids[mc->nids++];
    memset(b, 0, sizeof *b);
    copy_name(b->base, sizeof b->base, base);
    b->scope = scope;
    b->space = (uint8_t)s;
    uint64_t at = 0;
    for (uint32_t i = 0; i + 1 < mc->nids; i++)
        if (mc->ids[i].space == s && mc->ids[i].at + mc->ids[i].size > at)
            at = mc->ids[i].at + mc->ids[i].size;
    b->at = (at + 511) & ~(uint64_t)511;
    b->size = size;
    return b;
}

uint32_t mem_tile_again(mem_core *mc, const void *key)
{
    uint32_t t = find_tile(mc, key);
    if (t) {
        mem_tile *tl = &mc->tiles[t - 1];
        tl->epoch = mc->epoch;
        if (!tl->unplaced && tl->addr + tl->size > mc->sp[tl->space].high)
            mc->sp[tl->space].high = tl->addr + tl->size;
    }
    return t;
}

uint32_t mem_tile_declare(mem_core *mc, const void *key, const void *scope, const char *name, const char *base,
                          mem_space space, int64_t offset, int64_t size, uint32_t line, uint32_t col,
                          mem_fault *f)
{
    f->kind = MEM_FAULT_NONE;
    uint32_t t = mem_tile_again(mc, key);
    if (t)
        return t;
    mem_space_limits lim;
    if (mem_space_limits_of(mc->target, space, &lim) != 0) {
        fault_set(f, MEM_FAULT_BOUNDS, 0, 0, space, 0, "%s has no %s space", mem_target_name(mc->target),
                  mem_space_name(space));
        return 0;
    }
    if (offset < 0 || size < 0) {
        fault_set(f, MEM_FAULT_BOUNDS, 0, 0, space, 0, "MemRef(%s, %" PRId64 ", %" PRId64 ") is negative",
                  base ? base : "?", offset, size);
        return 0;
    }
    uint64_t addr = (uint64_t)offset;
    if (!mc->addressed) {
        mem_buffer_id *b = buffer_id(mc, scope, base ? base : "?", space, (uint64_t)size + (uint64_t)offset);
        if ((uint64_t)offset + (uint64_t)size > b->size)
            b->size = (uint64_t)offset + (uint64_t)size; /* a later, larger member: laid out again below */
        addr = b->at + (uint64_t)offset;
    }
    uint64_t limit = space_limit(mc, space);
    int unplaced = 0;
    if (addr > limit || (uint64_t)size > limit - addr) {
        fault_set(f, MEM_FAULT_BOUNDS, 0, 0, space, addr,
                  "buffer %s [%" PRIu64 ", %" PRIu64 ") of %s is past the space's %" PRIu64 " bytes on %s",
                  base ? base : "?", addr, addr + (uint64_t)size, mem_space_name(space), limit,
                  mem_target_name(mc->target));
        unplaced = 1;
    } else if (mc->addressed && addr % lim.align) {
        fault_set(f, MEM_FAULT_BOUNDS, 0, 0, space, addr,
                  "buffer %s at %" PRIu64 " of %s is not aligned to %" PRIu64 " bytes", base ? base : "?", addr,
                  mem_space_name(space), lim.align);
        /* placed all the same: the other checks still apply */
    }
    if (mc->ntiles == mc->cap) {
        mc->cap = mc->cap ? 2 * mc->cap : 32;
        mc->tiles = xreallocarray(mc->tiles, mc->cap, sizeof *mc->tiles);
    }
    mem_tile *tl = &mc->tiles[mc->ntiles++];
    memset(tl, 0, sizeof *tl);
    tl->key = key;
    copy_name(tl->name, sizeof tl->name, name);
    copy_name(tl->base, sizeof tl->base, base);
    tl->line = line;
    tl->col = col;
    tl->space = (uint8_t)space;
    tl->unplaced = unplaced;
    tl->epoch = mc->epoch;
    tl->addr = addr;
    tl->offset = (uint64_t)offset;
    tl->size = (uint64_t)size;
    t = mc->ntiles;
    hash_insert(mc, t);
    mem_space_state *sp = &mc->sp[space];
    if (!unplaced && addr + (uint64_t)size > sp->high)
        sp->high = addr + (uint64_t)size;
    if (f->kind != MEM_FAULT_NONE)
        f->tile = t;
    return t;
}

const mem_tile *mem_tile_get(const mem_core *mc, uint32_t tile)
{
    return tile >= 1 && tile <= mc->ntiles ? &mc->tiles[tile - 1] : NULL;
}

/* The elements the device touches: the valid box the tile's type declares
 * (literal entries), else the value's own valid box (REF's valid_shape
 * attribute), each dim clipped to the shape. Returns 1 when that is the
 * whole tensor. */
static int touched_box(const tensor *t, const mem_tile *tl, int64_t *box)
{
    int whole = 1;
    for (int d = 0; d < t->ndim; d++) {
        box[d] = t->shape[d];
        /* a literal valid shape the tile's type declares is what the
         * instruction runs over (a load of 16 rows from an 8-row tensor
         * still writes 16: this interpreter clips the value's valid rows to
         * the tensor, the device reads on); else the value's own */
        int64_t v = tl->valid_ndim == t->ndim && tl->valid[d] >= 0 ? tl->valid[d]
                    : t->valid_ndim == t->ndim && t->valid[d] >= 0  ? t->valid[d]
                                                                     : -1;
        if (v >= 0 && v < box[d]) {
            box[d] = v;
            whole = 0;
        }
    }
    return whole;
}

/* A tile's layout in its bytes: a value an op computed is written densely,
 * row-major over its shape (the device's tile buffer); a view (origin set)
 * sits on its source's bytes with the source's strides, which the view
 * tensor carries. */
static int is_view(const mem_tile *tl)
{
    return tl->origin != 0;
}

/* 1 when t's elements fill one block of its storage in some order of its
 * dims (a contiguous tensor, or a transpose of one): its bytes can then be
 * the tile's as they are, one copy. */
static int block_dense(const tensor *t)
{
    /* the common case first: dense row-major (every tile an op computes) */
    int64_t want = 1;
    int r = t->ndim - 1;
    for (; r >= 0; r--) {
        if (t->shape[r] > 1 && t->strides[r] != want)
            break;
        want *= t->shape[r];
    }
    if (r < 0)
        return 1;
    int order[TENSOR_MAX_DIMS], n = 0;
    for (int d = 0; d < t->ndim; d++)
        if (t->shape[d] > 1)
            order[n++] = d;
    for (int i = 1; i < n; i++) /* by stride, smallest first */
        for (int j = i; j > 0 && t->strides[order[j]] < t->strides[order[j - 1]]; j--) {
            int x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    want = 1;
    for (int i = 0; i < n; i++) {
        if (t->strides[order[i]] != want)
            return 0;
        want *= t->shape[order[i]];
    }
    return 1;
}

/* The tile's layout: a value an op computed is its storage block as it
 * lies (dense row-major, or the transpose the value was computed in); any
 * other value row-major over its shape; a view its source's strides. The
 * same tile always has the same layout, so a clobber is found whatever the
 * layout (docs/memory.md). */
static void layout_strides(const tensor *t, const mem_tile *tl, int64_t *st)
{
    int keep = is_view(tl) || block_dense(t);
    int64_t s = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        st[d] = keep ? t->strides[d] : s;
        s *= t->shape[d] > 0 ? t->shape[d] : 1;
    }
}

/* The bytes t's elements span in tile tl's layout from its first one: the
 * largest element offset plus one, times the element size (0 for an empty
 * tensor). */
static uint64_t tensor_extent(const tensor *t, const mem_tile *tl)
{
    int64_t st[TENSOR_MAX_DIMS];
    layout_strides(t, tl, st);
    uint64_t last = 0;
    for (int d = 0; d < t->ndim; d++) {
        if (t->shape[d] == 0)
            return 0;
        last += (uint64_t)(t->shape[d] - 1) * (uint64_t)st[d];
    }
    return (last + 1) * dtype_size(t->dtype);
}

/* Walks t's elements in row-major order, in runs of count elements that
 * are consecutive both in t and in the tile's layout (a whole row when both
 * are contiguous along the last dim): fn(ud, byte offset of the run in the
 * layout, its first element in t, element size, its row-major index over
 * t's shape, count) stops the walk by returning nonzero. */
typedef int (*elem_fn)(void *ud, uint64_t off, const unsigned char *elem, size_t es, uint64_t lin, uint64_t count);

static int walk_strides(const tensor *t, const mem_tile *tl, const int64_t *st, elem_fn fn, void *ud)
{
    size_t es = dtype_size(t->dtype);
    const unsigned char *base = tensor_data(t);
    int64_t idx[TENSOR_MAX_DIMS] = {0}, box[TENSOR_MAX_DIMS];
    touched_box(t, tl, box);
    for (int d = 0; d < t->ndim; d++)
        if (box[d] <= 0)
            return 0;
    int last = t->ndim - 1;
    int runs = last >= 0 && t->strides[last] == 1 && st[last] == 1;
    uint64_t count = runs ? (uint64_t)box[last] : 1;
    int outer = runs ? last - 1 : last; /* the dims stepped one by one */
    for (;;) {
        uint64_t off = 0, src = 0, lin = 0;
        for (int d = 0; d < t->ndim; d++) {
            off += (uint64_t)idx[d] * (uint64_t)st[d];
            src += (uint64_t)idx[d] * (uint64_t)t->strides[d];
            lin = lin * (uint64_t)t->shape[d] + (uint64_t)idx[d];
        }
        if (fn(ud, off * es, base + src * es, es, lin, count))
            return 1;
        int d = outer;
        for (; d >= 0; d--) {
            if (++idx[d] < box[d])
                break;
            idx[d] = 0;
        }
        if (d < 0)
            return 0;
    }
}

static int walk(const tensor *t, const mem_tile *tl, elem_fn fn, void *ud)
{
    int64_t st[TENSOR_MAX_DIMS];
    layout_strides(t, tl, st);
    return walk_strides(t, tl, st, fn, ud);
}

struct put_ud {
    unsigned char *dst;
    uint32_t *writer; /* granules of the space, from address 0 */
    uint64_t addr;
    uint32_t tile;
};

static int put_elem(void *ud, uint64_t off, const unsigned char *elem, size_t es, uint64_t lin, uint64_t count)
{
    struct put_ud *p = ud;
    (void)lin;
    uint64_t n = es * count;
    memcpy(p->dst + off, elem, (size_t)n);
    uint64_t g0 = (p->addr + off) / MEM_GRANULE, g1 = (p->addr + off + n - 1) / MEM_GRANULE;
    for (uint64_t g = g0; g <= g1; g++)
        p->writer[g] = p->tile;
    return 0;
}

struct cmp_ud {
    const unsigned char *src;
    const uint32_t *writer;
    uint64_t addr;
    uint64_t first;  /* the first differing byte offset, UINT64_MAX none */
    uint64_t unset;  /* the first byte offset no write reached, UINT64_MAX none */
};

static int cmp_elem(void *ud, uint64_t off, const unsigned char *elem, size_t es, uint64_t lin, uint64_t count)
{
    struct cmp_ud *c = ud;
    (void)lin;
    uint64_t n = es * count;
    if (c->unset == UINT64_MAX) {
        uint64_t g0 = (c->addr + off) / MEM_GRANULE, g1 = (c->addr + off + n - 1) / MEM_GRANULE;
        for (uint64_t g = g0; g <= g1; g++)
            if (!c->writer[g]) {
                uint64_t at = g * MEM_GRANULE;
                c->unset = at > c->addr + off ? at - c->addr : off;
                break;
            }
    }
    if (memcmp(c->src + off, elem, (size_t)n) == 0)
        return 0;
    for (uint64_t i = 0; i < n; i++)
        if (c->src[off + i] != elem[i]) {
            c->first = off + i;
            break;
        }
    return 1;
}

/* Four granules at a time (SSE2's width, which every x86-64 has and which
 * other targets' compilers split or map as they can): every tile write
 * marks its granules and every read asks whether one is unwritten, and a
 * loop of single granules was a visible share of a run. */
typedef uint32_t mem_v4u __attribute__((vector_size(16)));

/* writer[g0..g1] = tile */
static void mark_writer(uint32_t *writer, uint64_t g0, uint64_t g1, uint32_t tile)
{
    mem_v4u v = {tile, tile, tile, tile};
    uint64_t g = g0;
    for (; g + 4 <= g1 + 1; g += 4)
        memcpy(writer + g, &v, sizeof v);
    for (; g <= g1; g++)
        writer[g] = tile;
}

/* 1 when any of writer[g0..g1] is 0 (a granule nothing wrote) */
static int any_unwritten(const uint32_t *writer, uint64_t g0, uint64_t g1)
{
    mem_v4u acc = {0, 0, 0, 0}, zero = {0, 0, 0, 0};
    uint64_t g = g0;
    for (; g + 4 <= g1 + 1; g += 4) {
        mem_v4u w;
        memcpy(&w, writer + g, sizeof w);
        acc |= (mem_v4u)(w == zero);
    }
    unsigned any = (acc[0] | acc[1] | acc[2] | acc[3]) != 0;
    for (; g <= g1; g++)
        any |= writer[g] == 0;
    return (int)any;
}

/* 1 when every one of writer[g0..g1] is tile */
static int all_written_by(const uint32_t *writer, uint64_t g0, uint64_t g1, uint32_t tile)
{
    mem_v4u acc = {0, 0, 0, 0}, v = {tile, tile, tile, tile};
    uint64_t g = g0;
    for (; g + 4 <= g1 + 1; g += 4) {
        mem_v4u w;
        memcpy(&w, writer + g, sizeof w);
        acc |= w ^ v;
    }
    unsigned other = (acc[0] | acc[1] | acc[2] | acc[3]) != 0;
    for (; g <= g1; g++)
        other |= writer[g] != tile;
    return !other;
}

static int overlaps(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
    return a < b + bn && b < a + an;
}

/* Granules [g0, g1] of space s get another writer: every tile whose
 * intact bytes share a granule with them forgets them (the tile writing
 * too: the caller sets its own again where it may). */
static void intact_drop(mem_core *mc, int s, uint64_t g0, uint64_t g1)
{
    mem_space_state *sp = &mc->sp[s];
    uint32_t keep = 0;
    for (uint32_t i = 0; i < sp->nintact; i++) {
        if (sp->intact_g0[i] <= g1 && g0 <= sp->intact_g1[i]) {
            mc->tiles[sp->intact_tiles[i] - 1].intact = 0;
            continue;
        }
        sp->intact_tiles[keep] = sp->intact_tiles[i];
        sp->intact_g0[keep] = sp->intact_g0[i];
        sp->intact_g1[keep++] = sp->intact_g1[i];
    }
    sp->nintact = keep;
}

/* Tile now holds all of granules from its address over n bytes (after
 * intact_drop of them). */
static void intact_set(mem_core *mc, uint32_t tile, uint64_t n)
{
    mem_tile *tl = &mc->tiles[tile - 1];
    mem_space_state *sp = &mc->sp[tl->space];
    if (sp->nintact == MEM_INTACT_KEEP) { /* the oldest forgets */
        mc->tiles[sp->intact_tiles[0] - 1].intact = 0;
        memmove(sp->intact_tiles, sp->intact_tiles + 1, (MEM_INTACT_KEEP - 1) * sizeof *sp->intact_tiles);
        memmove(sp->intact_g0, sp->intact_g0 + 1, (MEM_INTACT_KEEP - 1) * sizeof *sp->intact_g0);
        memmove(sp->intact_g1, sp->intact_g1 + 1, (MEM_INTACT_KEEP - 1) * sizeof *sp->intact_g1);
        sp->nintact--;
    }
    tl->intact = n;
    sp->intact_g0[sp->nintact] = tl->addr / MEM_GRANULE;
    sp->intact_g1[sp->nintact] = (tl->addr + n - 1) / MEM_GRANULE;
    sp->intact_tiles[sp->nintact++] = tile;
}

uint32_t mem_tile_write(mem_core *mc, uint32_t tile, const tensor *t, mem_fault *f)
{
    f->kind = MEM_FAULT_NONE;
    mem_tile *tl = &mc->tiles[tile - 1];
    if (tl->unplaced)
        return tl->writes;
    uint64_t n = tensor_extent(t, tl);
    if (n > tl->size) {
        fault_set(f, MEM_FAULT_BOUNDS, tile, 0, tl->space, tl->addr + tl->size,
                  "%s's data is %" PRIu64 " bytes, larger than its MemRef's %" PRIu64, tl->name, n, tl->size);
        return tl->writes;
    }
    mem_space_state *sp = &mc->sp[tl->space];
    space_reserve(sp, tl->addr + n);
    int64_t box[TENSOR_MAX_DIMS];
    int dense_whole = block_dense(t) && touched_box(t, tl, box);
    uint64_t own = tl->intact; /* bytes whose granules are this tile's already */
    if (n)
        intact_drop(mc, tl->space, tl->addr / MEM_GRANULE, (tl->addr + n - 1) / MEM_GRANULE);
    if (dense_whole) {
        if (n) { /* an empty tile may have no bytes at all (sp->bytes NULL): nothing to copy */
            memcpy(sp->bytes + tl->addr, tensor_data(t), (size_t)n);
            if (n > own) /* a loop's next write of the tile: its granules are marked */
                mark_writer(sp->writer, tl->addr / MEM_GRANULE, (tl->addr + n - 1) / MEM_GRANULE, tile);
            intact_set(mc, tile, n);
        }
    } else {
        struct put_ud p = {space_at(sp, tl->addr), sp->writer, tl->addr, tile};
        walk(t, tl, put_elem, &p);
    }
    tl->extent = n;
    tl->writes++;
    tl->store = 0;
    if (t->storage && dense_whole) {
        tl->store = t->storage->id;
        tl->store_off = t->offset;
    }
    for (uint32_t i = 0; i < mc->nslots; i++) {
        const mem_slot_buffer *s = &mc->slots[i];
        if (!s->imported && s->space == tl->space && overlaps(tl->addr, n, s->base, s->size)) {
            fault_set(f, MEM_FAULT_SLOT, tile, 0, tl->space, tl->addr > s->base ? tl->addr : s->base,
                      "%s [%" PRIu64 ", %" PRIu64 ") is written over the slot buffer %s [%" PRIu64 ", %" PRIu64
                      ") of %s",
                      tl->name, tl->addr, tl->addr + n, s->name, s->base, s->base + s->size,
                      mem_space_name(tl->space));
            break;
        }
    }
    return tl->writes;
}

/* 1 when t is a part of the value bound to tl (a view of its storage, not
 * that value itself): its elements lie at their storage offsets from the
 * bound value's first one, bytes [*start, *end) of the tile. */
static int part_of_bound(const mem_tile *tl, const tensor *t, uint64_t *start, uint64_t *end)
{
    size_t es = dtype_size(t->dtype);
    if (!tl->store || !t->storage || t->storage->id != tl->store || t->offset < tl->store_off || !es)
        return 0;
    if (t->offset == tl->store_off && block_dense(t))
        return 0; /* the bound value itself, or a dense value on the same bytes */
    uint64_t last = (uint64_t)(t->offset - tl->store_off);
    for (int d = 0; d < t->ndim; d++) {
        if (t->shape[d] <= 0)
            return 0;
        last += (uint64_t)(t->shape[d] - 1) * (uint64_t)t->strides[d];
    }
    if ((last + 1) * es > tl->size)
        return 0;
    *start = (uint64_t)(t->offset - tl->store_off) * es;
    *end = (last + 1) * es;
    return 1;
}

/* The tile holding t's elements as a part of its bound value: tile itself
 * or a source it views (a view's MemRef offset is the IR's guess, the
 * device's pto.subview sits where the elements are); 0 for none. */
static uint32_t locate_part(const mem_core *mc, uint32_t tile, const tensor *t, uint64_t *start, uint64_t *end)
{
    for (int hops = 0; tile && hops < 64; hops++) {
        const mem_tile *tl = &mc->tiles[tile - 1];
        if (!tl->unplaced && part_of_bound(tl, t, start, end))
            return tile;
        tile = tl->origin;
    }
    return 0;
}

uint32_t mem_tile_find_bound(const mem_core *mc, const tensor *t, uint8_t space)
{
    if (!t->storage)
        return 0;
    for (uint32_t i = 0; i < mc->ntiles; i++) {
        const mem_tile *tl = &mc->tiles[i];
        uint64_t a, b;
        if (tl->store == t->storage->id && tl->space == space && !tl->unplaced && part_of_bound(tl, t, &a, &b))
            return i + 1;
    }
    return 0;
}

void mem_tile_bind(mem_core *mc, uint32_t tile, const tensor *t)
{
    mem_tile *tl = &mc->tiles[tile - 1];
    int64_t box[TENSOR_MAX_DIMS];
    tl->store = 0;
    if (t->storage && block_dense(t) && touched_box(t, tl, box)) {
        tl->store = t->storage->id;
        tl->store_off = t->offset;
    }
}

uint32_t mem_tile_write_in_place(mem_core *mc, uint32_t tile, const tensor *t, mem_fault *f)
{
    f->kind = MEM_FAULT_NONE;
    uint64_t start, end;
    uint32_t st = locate_part(mc, tile, t, &start, &end);
    if (!st)
        return mem_tile_write(mc, tile, t, f);
    mem_tile *sl = &mc->tiles[st - 1];
    mem_space_state *sp = &mc->sp[sl->space];
    space_reserve(sp, sl->addr + end);
    if (end > start)
        intact_drop(mc, sl->space, (sl->addr + start) / MEM_GRANULE, (sl->addr + end - 1) / MEM_GRANULE);
    struct put_ud p = {space_at(sp, sl->addr + start), sp->writer, sl->addr + start, st};
    walk_strides(t, sl, t->strides, put_elem, &p);
    if (end > sl->extent)
        sl->extent = end;
    sl->writes++;
    return sl->writes;
}

void mem_tile_scratch(mem_core *mc, uint32_t tile, const tensor *t)
{
    mem_tile *tl = &mc->tiles[tile - 1];
    if (tl->unplaced)
        return;
    uint64_t n = tensor_extent(t, tl);
    if (n > tl->size)
        n = tl->size;
    if (!n)
        return;
    mem_space_state *sp = &mc->sp[tl->space];
    space_reserve(sp, tl->addr + n);
    /* the pattern stands for "unknown": any tile whose data it replaced no
     * longer compares equal (a value equal to 0xa5a5a5a5 bytes would hide
     * one such element, never a whole tile in practice) */
    memset(sp->bytes + tl->addr, 0xa5, (size_t)n);
    uint64_t g0 = tl->addr / MEM_GRANULE, g1 = (tl->addr + n - 1) / MEM_GRANULE;
    intact_drop(mc, tl->space, g0, g1);
    mark_writer(sp->writer, g0, g1, tile);
    tl->writes++;
}

void mem_tile_set_valid(mem_core *mc, uint32_t tile, int ndim, const int64_t *valid)
{
    mem_tile *tl = &mc->tiles[tile - 1];
    if (ndim < 0 || ndim > TENSOR_MAX_DIMS)
        ndim = 0;
    tl->valid_ndim = ndim;
    for (int d = 0; d < ndim; d++)
        tl->valid[d] = valid[d];
}

void mem_tile_alias(mem_core *mc, uint32_t tile, uint32_t origin)
{
    mem_tile *tl = &mc->tiles[tile - 1];
    tl->origin = origin;
}

/* 1 when writer w stands for tile (itself or the source it views). */
static int same_storage(const mem_core *mc, uint32_t tile, uint32_t w)
{
    for (int hops = 0; tile && hops < 64; hops++) {
        if (w == tile)
            return 1;
        tile = mc->tiles[tile - 1].origin;
    }
    return 0;
}

int mem_tile_rows_unwritten(const mem_core *mc, uint32_t tile, const tensor *t, int64_t r0, int64_t r1,
                            int64_t ncols, int64_t *row)
{
    const mem_tile *tl = &mc->tiles[tile - 1];
    if (t->ndim != 2 || tl->unplaced || r0 >= r1 || ncols <= 0)
        return 0;
    const mem_space_state *sp = &mc->sp[tl->space];
    int64_t st[TENSOR_MAX_DIMS];
    layout_strides(t, tl, st);
    size_t es = dtype_size(t->dtype);
    uint64_t granules = (sp->size + MEM_GRANULE - 1) / MEM_GRANULE;
    for (int64_t r = r0; r < r1 && r < t->shape[0]; r++)
        for (int64_t c = 0; c < ncols && c < t->shape[1]; c++) {
            uint64_t at = tl->addr + (uint64_t)(r * st[0] + c * st[1]) * es;
            uint64_t g = at / MEM_GRANULE;
            if (at >= tl->addr + tl->size || g >= granules || !sp->writer[g]) {
                *row = r;
                return 1;
            }
        }
    return 0;
}

static int read_fault(mem_core *mc, uint32_t tile, uint32_t gen, uint64_t first, uint64_t unset, mem_fault *f);

/* A read of a part of the tile's bound value (part_of_bound): its
 * elements checked at their places. */
static int read_part(mem_core *mc, uint32_t tile, uint32_t gen, const tensor *t, uint64_t start, uint64_t end,
                     mem_fault *f)
{
    const mem_tile *tl = &mc->tiles[tile - 1];
    mem_space_state *sp = &mc->sp[tl->space];
    space_reserve(sp, tl->addr + end);
    struct cmp_ud c = {space_at(sp, tl->addr + start), sp->writer, tl->addr + start, UINT64_MAX, UINT64_MAX};
    walk_strides(t, tl, t->strides, cmp_elem, &c);
    return read_fault(mc, tile, gen, c.first == UINT64_MAX ? c.first : start + c.first,
                      c.unset == UINT64_MAX ? c.unset : start + c.unset, f);
}

int mem_tile_read(mem_core *mc, uint32_t tile, uint32_t gen, const tensor *t, mem_fault *f)
{
    f->kind = MEM_FAULT_NONE;
    const mem_tile *tl = &mc->tiles[tile - 1];
    uint64_t n = tensor_extent(t, tl), extent = n;
    if (!n || tl->unplaced)
        return 0;
    uint64_t pstart, pend;
    uint32_t pt = locate_part(mc, tile, t, &pstart, &pend);
    if (pt)
        return read_part(mc, pt, gen, t, pstart, pend, f);
    if (n > tl->size)
        n = tl->size; /* reported as bounds at its write */
    mem_space_state *sp = &mc->sp[tl->space];
    space_reserve(sp, tl->addr + n);
    const unsigned char *src = sp->bytes + tl->addr;
    uint64_t first = UINT64_MAX, unset = UINT64_MAX;
    int64_t box[TENSOR_MAX_DIMS];
    int whole = touched_box(t, tl, box);
    if (whole && block_dense(t) && extent == n) {
        /* every granule still the tile's own, from the write this value
         * is: whatever the bytes, read_fault finds nothing (its own bytes,
         * written in place since), so they need no comparing */
        if (tl->writes == gen && (n <= tl->intact || all_written_by(sp->writer, tl->addr / MEM_GRANULE,
                                                                   (tl->addr + n - 1) / MEM_GRANULE, tile)))
            return 0;
        const unsigned char *d = tensor_data(t);
        if (memcmp(src, d, (size_t)n) != 0)
            for (uint64_t i = 0; i < n; i++)
                if (src[i] != d[i]) {
                    first = i;
                    break;
                }
        uint64_t g0 = tl->addr / MEM_GRANULE, g1 = (tl->addr + n - 1) / MEM_GRANULE;
        /* is any granule unwritten? (vectors first: almost never) */
        int any = any_unwritten(sp->writer, g0, g1);
        for (uint64_t g = g0; any && g <= g1 && unset == UINT64_MAX; g++)
            if (!sp->writer[g])
                unset = g * MEM_GRANULE > tl->addr ? g * MEM_GRANULE - tl->addr : 0;
    } else {
        if (extent > tl->size)
            return 0; /* reported as bounds at its write */
        struct cmp_ud c = {src, sp->writer, tl->addr, UINT64_MAX, UINT64_MAX};
        walk(t, tl, cmp_elem, &c);
        first = c.first;
        unset = c.unset;
    }
    return read_fault(mc, tile, gen, first, unset, f);
}

static int read_fault(mem_core *mc, uint32_t tile, uint32_t gen, uint64_t first, uint64_t unset, mem_fault *f)
{
    const mem_tile *tl = &mc->tiles[tile - 1];
    const mem_space_state *sp = &mc->sp[tl->space];
    if (first == UINT64_MAX) {
        if (unset == UINT64_MAX)
            return 0;
        fault_set(f, MEM_FAULT_UNINIT, tile, 0, tl->space, tl->addr + unset,
                  "byte %" PRIu64 " of %s was never written in this run", unset, tl->name);
        return 1;
    }
    uint64_t at = tl->addr + first;
    uint32_t w = sp->writer[at / MEM_GRANULE];
    if (!w) {
        fault_set(f, MEM_FAULT_UNINIT, tile, 0, tl->space, at,
                  "byte %" PRIu64 " of %s was never written in this run", first, tl->name);
        return 1;
    }
    if (same_storage(mc, tile, w)) {
        if (w != tile || mc->tiles[w - 1].writes == gen)
            return 0; /* its own bytes, written in place since */
        fault_set(f, MEM_FAULT_CLOBBER, tile, w, tl->space, at,
                  "byte %" PRIu64 " of %s was overwritten by a later write of the same tile (write %u, this "
                  "value is write %u)",
                  first, tl->name, mc->tiles[w - 1].writes, gen);
        return 1;
    }
    const mem_tile *wt = &mc->tiles[w - 1];
    if (!tl->writes && !tl->origin) {
        fault_set(f, MEM_FAULT_UNINIT, tile, w, tl->space, at,
                  "%s is read before anything wrote it: byte %" PRIu64 " holds %s's data", tl->name, first,
                  wt->name);
        return 1;
    }
    fault_set(f, MEM_FAULT_CLOBBER, tile, w, tl->space, at,
              "byte %" PRIu64 " of %s was changed by %s's write (%s at %u:%u)", first, tl->name, wt->name,
              wt->name, wt->line, wt->col);
    return 1;
}

struct get_ud {
    const unsigned char *src;
    unsigned char *dst;
};

static int get_elem(void *ud, uint64_t off, const unsigned char *elem, size_t es, uint64_t lin, uint64_t count)
{
    struct get_ud *g = ud;
    (void)elem;
    memcpy(g->dst + lin * es, g->src + off, (size_t)(es * count));
    return 0;
}

void mem_tile_device_value(const mem_core *mc, uint32_t tile, const tensor *t, tensor *dst)
{
    const mem_tile *tl = &mc->tiles[tile - 1];
    const mem_space_state *sp = &mc->sp[tl->space];
    uint64_t n = tensor_extent(t, tl);
    if (tl->unplaced || !n)
        return;
    uint64_t start, end;
    uint32_t pt = locate_part(mc, tile, t, &start, &end);
    if (pt) {
        const mem_tile *pl = &mc->tiles[pt - 1];
        const mem_space_state *ps = &mc->sp[pl->space];
        if (pl->addr + end > ps->size)
            return;
        struct get_ud g = {space_at(ps, pl->addr + start), tensor_data(dst)};
        walk_strides(t, pl, t->strides, get_elem, &g);
        return;
    }
    if (n > tl->size || tl->addr + n > sp->size)
        return;
    struct get_ud g = {space_at(sp, tl->addr), tensor_data(dst)};
    walk(t, tl, get_elem, &g);
}

static mem_slot_buffer *slot_new(mem_core *mc)
{
    if (mc->nslots == mc->slotcap) {
        mc->slotcap = mc->slotcap ? 2 * mc->slotcap : 4;
        mc->slots = xreallocarray(mc->slots, mc->slotcap, sizeof *mc->slots);
    }
    mem_slot_buffer *s = &mc->slots[mc->nslots++];
    memset(s, 0, sizeof *s);
    return s;
}

void mem_slot_import(mem_core *mc, const char *name, const char *peer, mem_space space, int64_t base, int64_t size)
{
    for (uint32_t i = 0; i < mc->nslots; i++)
        if (mc->slots[i].imported && strcmp(mc->slots[i].name, name ? name : "?") == 0)
            return;
    mem_slot_buffer *s = slot_new(mc);
    copy_name(s->name, sizeof s->name, name);
    copy_name(s->peer, sizeof s->peer, peer);
    s->imported = 1;
    s->space = (uint8_t)space;
    s->base = base < 0 ? UINT64_MAX : (uint64_t)base;
    s->size = size < 0 ? 0 : (uint64_t)size;
}

void mem_slot_reserve(mem_core *mc, const char *name, mem_space space, int64_t base, int64_t size)
{
    if (base < 0 || size <= 0)
        return;
    for (uint32_t i = 0; i < mc->nslots; i++)
        if (!mc->slots[i].imported && strcmp(mc->slots[i].name, name ? name : "?") == 0)
            return;
    mem_slot_buffer *s = slot_new(mc);
    copy_name(s->name, sizeof s->name, name);
    s->space = (uint8_t)space;
    s->base = (uint64_t)base;
    s->size = (uint64_t)size;
    if (s->base + s->size > mc->sp[space].high)
        mc->sp[space].high = s->base + s->size;
}

static void range(strbuf *out, const mem_core *mc, const mem_tile *t)
{
    uint64_t n = t->extent ? t->extent : t->size;
    if (mc->addressed)
        strbuf_printf(out, "%s (MemRef %s, %s [%" PRIu64 ", %" PRIu64 "))", t->name, t->base,
                      mem_space_name(t->space), t->addr, t->addr + n);
    else
        strbuf_printf(out, "%s (MemRef %s, bytes [%" PRIu64 ", %" PRIu64 ") of buffer %s in %s)", t->name, t->base,
                      t->offset, t->offset + n, t->base, mem_space_name(t->space));
}

void mem_fault_format(const mem_core *mc, const mem_fault *f, strbuf *out)
{
    const mem_tile *t = mem_tile_get(mc, f->tile);
    const mem_tile *o = mem_tile_get(mc, f->other);
    if (t) {
        strbuf_puts(out, "  tile:   ");
        range(out, mc, t);
        strbuf_printf(out, ", defined at %u:%u\n", t->line, t->col);
    }
    if (o) {
        strbuf_puts(out, "  wrote:  ");
        range(out, mc, o);
        strbuf_printf(out, ", written at %u:%u\n", o->line, o->col);
    }
    strbuf_printf(out, "  why:    %s\n", f->why);
}

static int cmp_u32_addr(const uint32_t *a, const uint32_t *b, const mem_core *mc)
{
    const mem_tile *x = &mc->tiles[*a - 1], *y = &mc->tiles[*b - 1];
    return x->addr < y->addr ? -1 : x->addr > y->addr ? 1 : (x < y ? -1 : x > y);
}

/* insertion sort: a space holds tens of tiles */
static void sort_tiles(uint32_t *v, uint32_t n, const mem_core *mc)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = v[i];
        uint32_t j = i;
        while (j > 0 && cmp_u32_addr(&v[j - 1], &x, mc) > 0) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

void mem_core_format_map(const mem_core *mc, strbuf *out)
{
    uint32_t *order = xcalloc(mc->ntiles ? mc->ntiles : 1, sizeof *order);
    for (int s = 0; s < MEM_NSPACES; s++) {
        const mem_space_state *sp = &mc->sp[s];
        uint32_t n = 0;
        for (uint32_t i = 0; i < mc->ntiles; i++)
            if (mc->tiles[i].space == s && mc->tiles[i].epoch == mc->epoch)
                order[n++] = i + 1;
        int nslots = 0;
        for (uint32_t i = 0; i < mc->nslots; i++)
            nslots += mc->slots[i].space == s && !mc->slots[i].imported;
        if (!n && !nslots)
            continue;
        sort_tiles(order, n, mc);
        mem_space_limits lim = {0, 0, 0};
        mem_space_limits_of(mc->target, (mem_space)s, &lim);
        strbuf_printf(out, "%s: %s, %" PRIu64 " bytes, align %" PRIu64 ", high-water %" PRIu64 "\n",
                      mem_space_name((mem_space)s), mc->addressed ? "addresses" : "one buffer per MemRef id",
                      lim.capacity, lim.align, sp->high);
        for (uint32_t i = 0; i < mc->nslots; i++) {
            const mem_slot_buffer *sb = &mc->slots[i];
            if (sb->space == s && !sb->imported)
                strbuf_printf(out, "  [%7" PRIu64 ", %7" PRIu64 ")  slot buffer %s\n", sb->base, sb->base + sb->size,
                              sb->name);
        }
        /* free: the bytes no tile of the call and no slot buffer covers */
        uint64_t covered = 0;
        for (uint32_t k = 0; k < n; k++) {
            const mem_tile *t = &mc->tiles[order[k] - 1];
            uint64_t start = t->addr;
            for (uint32_t i = 0; i < mc->nslots; i++) {
                const mem_slot_buffer *sb = &mc->slots[i];
                if (sb->space == s && !sb->imported && sb->base <= covered && sb->base + sb->size > covered)
                    covered = sb->base + sb->size;
            }
            if (mc->addressed && start > covered && !t->unplaced)
                strbuf_printf(out, "  [%7" PRIu64 ", %7" PRIu64 ")  free\n", covered, start);
            const char *state = "not written";
            if (t->unplaced) {
                state = "past the space";
            } else if (t->extent) {
                uint32_t w = sp->writer && t->addr / MEM_GRANULE < (sp->size + MEM_GRANULE - 1) / MEM_GRANULE
                                 ? sp->writer[t->addr / MEM_GRANULE]
                                 : 0;
                state = w == order[k] ? "holds its data" : "overwritten";
            } else if (t->origin) {
                state = "view";
            }
            if (mc->addressed)
                strbuf_printf(out, "  [%7" PRIu64 ", %7" PRIu64 ")  %s (%s) %s, line %u\n", t->addr, t->addr + t->size,
                              t->name, t->base, state, t->line);
            else /* no addresses yet: bytes of its buffer */
                strbuf_printf(out, "  %s [%" PRIu64 ", %" PRIu64 ")  %s %s, line %u\n", t->base, t->offset,
                              t->offset + t->size, t->name, state, t->line);
            if (!t->unplaced && t->addr + t->size > covered)
                covered = t->addr + t->size;
        }
        for (uint32_t i = 0; i < mc->nslots; i++) {
            const mem_slot_buffer *sb = &mc->slots[i];
            if (sb->space == s && !sb->imported && sb->base <= covered && sb->base + sb->size > covered)
                covered = sb->base + sb->size;
        }
        if (mc->addressed && lim.capacity > covered)
            strbuf_printf(out, "  [%7" PRIu64 ", %7" PRIu64 ")  free\n", covered, lim.capacity);
    }
    for (uint32_t i = 0; i < mc->nslots; i++) {
        const mem_slot_buffer *sb = &mc->slots[i];
        if (!sb->imported)
            continue;
        strbuf_printf(out, "imported: slot buffer %s of %s, its %s ", sb->name, sb->peer,
                      mem_space_name((mem_space)sb->space));
        if (sb->base == UINT64_MAX)
            strbuf_printf(out, "(no address yet), %" PRIu64 " bytes\n", sb->size);
        else
            strbuf_printf(out, "[%" PRIu64 ", %" PRIu64 ")\n", sb->base, sb->base + sb->size);
    }
    free(order);
}

void mem_core_copy(mem_core *dst, const mem_core *src)
{
    mem_core_free(dst);
    *dst = *src;
    for (int s = 0; s < MEM_NSPACES; s++) {
        const mem_space_state *sp = &src->sp[s];
        uint64_t ng = (sp->size + MEM_GRANULE - 1) / MEM_GRANULE;
        dst->sp[s].bytes = sp->size ? xmemdup(sp->bytes, (size_t)sp->size) : NULL;
        dst->sp[s].writer = ng ? xmemdup(sp->writer, (size_t)ng * sizeof *sp->writer) : NULL;
    }
    dst->tiles = src->cap ? xmemdup(src->tiles, src->cap * sizeof *src->tiles) : NULL;
    dst->hash = src->hcap ? xmemdup(src->hash, src->hcap * sizeof *src->hash) : NULL;
    dst->ids = src->idcap ? xmemdup(src->ids, src->idcap * sizeof *src->ids) : NULL;
    dst->slots = src->slotcap ? xmemdup(src->slots, src->slotcap * sizeof *src->slots) : NULL;
}

/* every byte of the spaces, at each moment the reverse-execution oracle
 * checks: at memory speed (a byte-wise FNV here was its largest cost) */
uint64_t mem_core_hash(const mem_core *mc)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (int s = 0; s < MEM_NSPACES; s++) {
        const mem_space_state *sp = &mc->sp[s];
        uint64_t ng = (sp->size + MEM_GRANULE - 1) / MEM_GRANULE;
        if (sp->size)
            h = bytes_hash(h, sp->bytes, (size_t)sp->size);
        if (ng)
            h = bytes_hash(h, sp->writer, (size_t)ng * sizeof *sp->writer);
    }
    for (uint32_t i = 0; i < mc->ntiles; i++)
        h = bytes_hash_mix(h, mc->tiles[i].writes);
    return h;
}

/* One core's on-chip memory as the device has it: each space's bytes, which
 * tile last wrote each 32-byte granule, the tiles the program placed there
 * (a MemRef id before AllocateMemoryAddr, a byte range from it on) and the
 * sanitizer's checks over them (docs/memory.md):
 *   - clobber: a tile is read whose bytes another write changed since the
 *     tile was written (use after reuse);
 *   - uninit:  a read of bytes nothing in this run wrote (a tile.create
 *     scratch read before any write);
 *   - bounds:  a buffer past its space's capacity or misaligned, a tile
 *     whose data is larger than its MemRef;
 *   - slot:    a tile written over a cross-core slot buffer
 *     (system.reserve_buffer).
 * A check compares the bytes with the tile's value, so it reports a fault
 * when the device would read other data, never because ranges merely
 * overlap. The floor knows tensors (to serialise a tile) and nothing of the
 * machine: the caller names the tiles and formats where a fault happened. */
#ifndef PTODB_MEMORY_MEMMAP_H
#define PTODB_MEMORY_MEMMAP_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "memory/soc.h"
#include "tensor/tensor.h"

#define MEM_GRANULE 32
#define MEM_INTACT_KEEP 16

typedef enum {
    MEM_FAULT_NONE,
    MEM_FAULT_CLOBBER,
    MEM_FAULT_UNINIT,
    MEM_FAULT_BOUNDS,
    MEM_FAULT_SLOT
} mem_fault_kind;

/* "clobber", "uninit", "bounds", "slot" */
const char *mem_fault_kind_name(mem_fault_kind k);

typedef struct mem_tile {
    const void *key;  /* the defining statement: one tile per statement */
    char name[64];    /* the variable the statement assigns */
    char base[48];    /* the MemRef's id (mem_vec_3) */
    uint32_t line, col;
    uint8_t space;    /* mem_space */
    uint64_t addr;    /* first byte in the space */
    uint64_t size;    /* the MemRef's size */
    uint64_t offset;  /* the MemRef's offset (the address once addressed) */
    uint64_t extent;  /* bytes its last write spanned (0: never written) */
    uint32_t writes;  /* writes so far (a tensor remembers which one it holds) */
    uint32_t origin;  /* a view's source tile (1-based), 0 for none */
    uint32_t epoch;   /* the kernel call that last placed it (mem_core.epoch) */
    int unplaced;     /* 1: out of its space (a bounds fault): never written nor read */
    uint8_t blayout, slayout; /* mem_layout its bytes are written in (defaults applied) */
    /* the storage of the value that filled it whole (a tile.create's, or a
     * dense write's) and that value's first element: a write through a view
     * of that value (an op writing a tile.slice of it in place) lands at the
     * view's elements within it, not at the tile's start (tensor_storage.id,
     * 0 none). */
    uint64_t store;
    int64_t store_off;
    int stale_carry;  /* 1: a yield's target holding a value of another buffer
                         that no tile.move copied here (exec_memcheck_yield) */
    /* bytes from addr whose granules all still hold this tile's last
     * write (a dense write of them all, no write over them since; 0: not
     * known): a read of them needs no granule walk (mem_tile_read) */
    uint64_t intact;
    int valid_ndim;   /* its type's valid_shape (pl.TileView), 0 none */
    int64_t valid[TENSOR_MAX_DIMS]; /* -1: not a literal */
} mem_tile;

typedef struct mem_fault {
    mem_fault_kind kind;
    uint32_t tile;    /* the tile read or written (1-based) */
    uint32_t other;   /* the tile that wrote the bytes, or whose range is hit; 0 none */
    uint8_t space;
    uint64_t at;      /* the first faulting byte */
    char why[512];
} mem_fault;

typedef struct mem_space_state {
    unsigned char *bytes;
    uint32_t *writer; /* per granule: the tile that last wrote it (1-based), 0 never */
    uint64_t size;    /* bytes allocated so far */
    uint64_t high;    /* high-water mark: the end of the highest range placed */
    /* the tiles whose mem_tile.intact is set (the most recent; a tile
     * pushed out forgets it) */
    uint32_t intact_tiles[MEM_INTACT_KEEP];
    /* their first and last granules (a tile's address and intact bytes do
     * not change while it is listed): a write's overlap test reads these,
     * not four tiles' records */
    uint64_t intact_g0[MEM_INTACT_KEEP], intact_g1[MEM_INTACT_KEEP];
    uint32_t nintact;
} mem_space_state;

typedef struct mem_buffer_id {
    const void *scope;
    char base[48];
    uint8_t space;
    uint64_t at, size; /* its range in the id-per-buffer layout */
} mem_buffer_id;

typedef struct mem_slot_buffer {
    char name[64];
    uint8_t space;
    uint64_t base, size;
    /* import_peer_buffer: the buffer is the peer function's, in its core's
     * space, a handle here (never checked against this core's tiles) */
    uint8_t imported;
    char peer[64];
} mem_slot_buffer;

typedef struct mem_core {
    mem_target target;
    int addressed; /* 1: MemRef offsets are addresses (AllocateMemoryAddr on) */
    mem_space_state sp[MEM_NSPACES];
    mem_tile *tiles;
    uint32_t ntiles, cap;
    uint32_t *hash; /* open addressing over tiles by key; hcap entries */
    uint32_t hcap;
    mem_buffer_id *ids;
    uint32_t nids, idcap;
    mem_slot_buffer *slots;
    uint32_t nslots, slotcap;
    uint32_t epoch; /* kernel calls so far (mem_core_begin_call) */
} mem_core;

void mem_core_init(mem_core *mc, mem_target t, int addressed);
void mem_core_free(mem_core *mc);
/* A new kernel call: nothing is written yet (tiles stay declared). */
void mem_core_begin_call(mem_core *mc);

/* The tile of statement key (declared on the first call): its MemRef id
 * (an id names one buffer within scope, the function declaring it),
 * space, offset and size. Returns the tile (1-based; 0 for a negative
 * MemRef), and *f a bounds fault on the first call when the buffer lies past
 * its space (the tile is then never written nor read) or is misaligned. */
uint32_t mem_tile_declare(mem_core *mc, const void *key, const void *scope, const char *name, const char *base,
                          mem_space space, int64_t offset, int64_t size, uint32_t line, uint32_t col,
                          mem_fault *f);
/* The tile of statement key when it was declared before (placed again in
 * this kernel call, as mem_tile_declare does), else 0. */
uint32_t mem_tile_again(mem_core *mc, const void *key);
const mem_tile *mem_tile_get(const mem_core *mc, uint32_t tile);
/* Tile writes t: its elements become the bytes at its range. Returns the
 * generation t now holds (mem_tile.writes); *f (kind != NONE) when the
 * write is out of bounds (not done) or over a slot buffer (done). */
uint32_t mem_tile_write(mem_core *mc, uint32_t tile, const tensor *t, mem_fault *f);
/* t is the value that fills tile whole (a tile.create's): a later write of
 * a view of t's storage lands where the view's elements lie in it. */
void mem_tile_bind(mem_core *mc, uint32_t tile, const tensor *t);
/* A write of t in place: where t is a view of the tile's bound value (the
 * MemRef of a tile.slice written by matmul_acc, pto.subview on the device),
 * its elements are written at their places in the tile; otherwise as
 * mem_tile_write. */
uint32_t mem_tile_write_in_place(mem_core *mc, uint32_t tile, const tensor *t, mem_fault *f);
/* The tile of space whose bound value t is a part of (a view of its
 * storage), 0 for none. */
uint32_t mem_tile_find_bound(const mem_core *mc, const tensor *t, uint8_t space);
/* The tile's declared valid shape (pl.TileView(valid_shape=...)): only
 * those elements are written and read (-1 entries: the value's own). */
void mem_tile_set_valid(mem_core *mc, uint32_t tile, int ndim, const int64_t *valid);
/* An op used tile (holding t) as its scratch: the device leaves unknown
 * bytes there, so every other tile on them reads as clobbered. */
void mem_tile_scratch(mem_core *mc, uint32_t tile, const tensor *t);
/* A view (tile.reshape, tile.slice, ...) placed on its source's bytes:
 * nothing is written; reading it checks the bytes against it. */
void mem_tile_alias(mem_core *mc, uint32_t tile, uint32_t origin);
/* Rows [r0, r1) by columns [0, ncols) of the 2-D tensor t in tile's
 * layout: 1 and *row the first row with a byte nothing in this run wrote
 * (a granule without writer, or past the tile), else 0. */
int mem_tile_rows_unwritten(const mem_core *mc, uint32_t tile, const tensor *t, int64_t r0, int64_t r1,
                            int64_t ncols, int64_t *row);
/* A read of tile holding t at generation gen: 1 and *f when the bytes are
 * not t's (clobber or uninit), 0 when the device reads t. */
int mem_tile_read(mem_core *mc, uint32_t tile, uint32_t gen, const tensor *t, mem_fault *f);
/* What the device reads for tile holding t: the bytes at its range, in
 * its layout, into dst (contiguous, t's dtype and shape; the elements
 * outside the touched box are left as they are). */
void mem_tile_device_value(const mem_core *mc, uint32_t tile, const tensor *t, tensor *dst);
/* A cross-core slot buffer reserved at [base, base+size) of space. */
void mem_slot_reserve(mem_core *mc, const char *name, mem_space space, int64_t base, int64_t size);
/* import_peer_buffer(name=, peer_func=peer) on this core: the handle to
 * the peer's reservation (space, base, size: base -1 before AllocateMemoryAddr),
 * listed by mem_core_format_map, reserving nothing here. */
void mem_slot_import(mem_core *mc, const char *name, const char *peer, mem_space space, int64_t base, int64_t size);

/* The bytes of space s a reader may address: [0, extent) (the device's
 * capacity once addressed, the id-per-buffer layout's limit before); 0 for
 * a space the target has not. */
uint64_t mem_space_extent(const mem_core *mc, mem_space s);
/* Copies [addr, addr + n) of space s into dst as far as it lies within the
 * extent: the bytes copied (a prefix; 0 when addr is past it). Bytes no
 * write reached read as the model holds them (0). */
uint64_t mem_space_read(const mem_core *mc, mem_space s, uint64_t addr, void *dst, uint64_t n);

/* The map at this point: per space the tiles placed in this kernel call (id, bytes, who holds them
 * now), free ranges and high-water mark, for `info memory`. */
void mem_core_format_map(const mem_core *mc, strbuf *out);
/* The tile part of a fault report (both tiles with ids and byte ranges). */
void mem_fault_format(const mem_core *mc, const mem_fault *f, strbuf *out);

/* For checkpoints (reverse execution): copy src's whole state into dst
 * (dst initialised or zeroed), and a hash of the bytes and writers. */
void mem_core_copy(mem_core *dst, const mem_core *src);
uint64_t mem_core_hash(const mem_core *mc);

#endif

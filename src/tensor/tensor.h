/* Tensors: a dtype, a shape, strides and an offset into a reference-counted
 * storage, so that views and slices share memory exactly where PyTorch's do
 * (semantics.md §2.2), plus REF's optional valid/full shape attributes
 * (semantics.md §2.3).
 *
 * Ownership: every tensor and storage is reference counted (single-threaded
 * counts: the interpreter is deterministic and runs cores in one thread).
 * A function that returns a tensor* gives the caller one reference; release
 * it with tensor_unref. "Same object" in REF (tile.move, cast to the same
 * dtype, plain name binding) is tensor_ref; "a view" is a new tensor object
 * on the same storage (tensor_view, tensor_slice, ...), which starts without
 * valid/full attributes, as in REF.
 *
 * Shapes, strides and offsets are int64_t and counted in elements. Every
 * constructor checks that the addressed elements lie inside the storage and
 * that byte counts do not overflow; it returns NULL (and a status through
 * *st when st is non-NULL) instead of aborting, because the sizes may come
 * from a hostile data file. A checked size that still does not fit in memory
 * is ERR_NOMEM for callers that pass a status, so that they can say what the
 * memory was for; the others die through xmalloc (base/mem.h). */
#ifndef PTODB_TENSOR_TENSOR_H
#define PTODB_TENSOR_TENSOR_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "tensor/dtype.h"

#define TENSOR_MAX_DIMS 8

/* The largest tensor ptodb will allocate or load, in bytes of its elements
 * (numel x element size, whatever its strides). Data files that ask for more
 * are refused with ERR_FORMAT rather than exhausting memory or computing for
 * ever. Default: 16 GiB, or half the physical memory when that is less; the
 * user raises it with --max-tensor-bytes or `set max-tensor-bytes`. */
#define TENSOR_DEFAULT_MAX_BYTES ((uint64_t)16 << 30)
uint64_t tensor_max_bytes(void);
/* 0 restores the default. */
void tensor_set_max_bytes(uint64_t limit);
/* numel x element size of a shape, or UINT64_MAX when it overflows or the
 * shape is bad. */
uint64_t tensor_shape_bytes(dtype_id dt, int ndim, const int64_t *shape);
/* 0 when a tensor of this dtype and shape is within tensor_max_bytes(); else
 * -1 and msg says "shape [..] of fp32 is N bytes, beyond the limit of M bytes
 * (...how to raise it)". */
int tensor_check_limit(dtype_id dt, int ndim, const int64_t *shape, char *msg, size_t size);

typedef struct tensor_storage tensor_storage;

/* How a storage's bytes are released: NULL means free(data). A loader that
 * maps a file passes its own release function (and ctx). */
typedef void (*tensor_storage_release_fn)(void *ctx, void *data, size_t nbytes);

struct tensor_storage {
    int refcount;
    unsigned char *data; /* nbytes bytes, aligned for any dtype (malloc or mmap) */
    size_t nbytes;
    tensor_storage_release_fn release;
    void *release_ctx;
    /* unique per storage made by this process (never reused, unlike an
     * address): an identity a consumer may keep after the storage is gone */
    uint64_t id;
};

typedef struct tensor {
    int refcount;
    dtype_id dtype;
    int ndim;                          /* 0 .. TENSOR_MAX_DIMS; 0 = a scalar (0-d) */
    /* Where the value lives on the device (src/memory, memcheck on): the
     * tile (1-based) of memory mem_core holding it, and which write of that
     * tile it is. 0: not placed. Set by the machine only; constructors zero it.
     * In the first cache line, with the shape an op reads anyway: the memory
     * model asks it of every operand and result. */
    uint32_t mem_tile;
    uint32_t mem_gen;
    int32_t mem_core;
    int64_t shape[TENSOR_MAX_DIMS];    /* >= 0 */
    int64_t strides[TENSOR_MAX_DIMS];  /* elements, >= 0 (0 repeats an element: broadcast) */
    int64_t offset;                    /* storage offset in elements */
    tensor_storage *storage;           /* one reference held */
    /* REF's _pypto_valid_shape / _pypto_full_shape: -1 = attribute absent,
     * 0 = the empty tuple (), else that many entries. Independent of ndim
     * (REF does not clip or check them). */
    int valid_ndim;
    int64_t valid[TENSOR_MAX_DIMS];
    int full_ndim;
    int64_t full[TENSOR_MAX_DIMS];
    /* 1: the valid shape is the one the IR type declares, set under device
     * semantics where REF's tensor has none (exec/semantics.h valid-shape) */
    int valid_declared;
    /* What the data is, for a debugger comparing passes (exec/prov.h): a
     * hash of where it came from (0: not tracked), the core that computed
     * it and the how-manieth value of that hash that core computed. Set by
     * the machine only when provenance is on; every constructor zeroes it. */
    uint64_t prov;
    uint32_t prov_k;
    int32_t prov_core;
} tensor;

/* ---- storage ------------------------------------------------------------ */

/* A zero-filled storage of nbytes; NULL with ERR_FORMAT past
 * tensor_max_bytes(). When the memory is not there: NULL with ERR_NOMEM when
 * st is given, else ptodb dies as xmalloc does (callers that cannot report). */
tensor_storage *tensor_storage_new(size_t nbytes, ptodb_status *st);
/* Wraps existing bytes; release (NULL = free) runs on the last unref. */
tensor_storage *tensor_storage_wrap(void *data, size_t nbytes, tensor_storage_release_fn release,
                                    void *ctx);
tensor_storage *tensor_storage_ref(tensor_storage *s);
void tensor_storage_unref(tensor_storage *s);

/* ---- construction ------------------------------------------------------- */

/* numel of a shape, or -1 when a dim is negative, ndim is out of range, or
 * the count overflows. */
int64_t tensor_shape_numel(int ndim, const int64_t *shape);

/* A new contiguous zero-filled tensor. NULL on a bad shape (ERR_SHAPE) or a
 * size beyond tensor_max_bytes() (ERR_FORMAT); when the memory is not there,
 * NULL with ERR_NOMEM if st is given (see tensor_storage_new). */
tensor *tensor_zeros(dtype_id dt, int ndim, const int64_t *shape, ptodb_status *st);
/* A tensor over an existing storage (takes its own reference). strides NULL
 * means contiguous. Checks that every element lies in the storage:
 * ERR_BOUNDS otherwise. */
tensor *tensor_from_storage(tensor_storage *s, dtype_id dt, int ndim, const int64_t *shape,
                            const int64_t *strides, int64_t offset, ptodb_status *st);
/* A 0-d tensor holding v (converted per dtype_store). */
tensor *tensor_scalar(dtype_id dt, double v);

tensor *tensor_ref(tensor *t);
void tensor_unref(tensor *t);

/* ---- views (share storage; new object; no valid/full attrs) -------------- */

/* as_strided on t's storage, offset absolute (as torch.as_strided). */
tensor *tensor_view(const tensor *t, int ndim, const int64_t *shape, const int64_t *strides,
                    int64_t offset, ptodb_status *st);
/* t[..., start:stop:step, ...] along dim (step >= 1). start/stop are clipped
 * to [0, shape[dim]] like Python slicing (negative values are NOT wrapped:
 * callers resolve Python negative indices first). */
tensor *tensor_slice(const tensor *t, int dim, int64_t start, int64_t stop, int64_t step,
                     ptodb_status *st);
/* Swaps two dims (a view). */
tensor *tensor_transpose(const tensor *t, int d0, int d1, ptodb_status *st);
/* Reshape: a view when t is contiguous, else a contiguous copy (torch's
 * reshape). numel must match: ERR_SHAPE. */
tensor *tensor_reshape(const tensor *t, int ndim, const int64_t *shape, ptodb_status *st);

/* ---- copies ------------------------------------------------------------- */

/* A new contiguous copy (torch clone + contiguous), attrs not copied. NULL
 * when the copy is beyond tensor_max_bytes(). */
tensor *tensor_clone(const tensor *t);
/* The same, also NULL (ERR_NOMEM in *st) when the memory is not there. */
tensor *tensor_clone_status(const tensor *t, ptodb_status *st);
/* t itself (a new reference) when contiguous, else tensor_clone(t). */
tensor *tensor_contiguous(tensor *t);
/* t.to(dt): t itself (new reference, attrs kept) when dt == t->dtype, else a
 * new contiguous tensor converted with dtype_convert's rules. */
tensor *tensor_cast(tensor *t, dtype_id dt);
/* Copies src's elements into dst (same shape; ERR_SHAPE otherwise),
 * converting dtypes; handles overlap by staging through a temporary. */
ptodb_status tensor_copy_into(tensor *dst, const tensor *src);

/* A contiguous copy with the valid/full attributes: the value as it is now,
 * which later writes to t's storage do not change. */
tensor *tensor_snapshot(tensor *t);
/* 1 when a and b have the same dtype, shape and element bytes (NaNs with
 * the same bits compare equal, -0.0 and 0.0 do not). */
int tensor_same_bits(const tensor *a, const tensor *b);

/* Copies the valid/full attributes of src onto dst. */
void tensor_copy_attrs(tensor *dst, const tensor *src);
/* A view of t's bytes (same shape and strides) with t's attributes and
 * provenance: a value whose attributes change without touching t's other
 * holders. NULL on failure (*st says why). */
tensor *tensor_alias(const tensor *t, ptodb_status *st);

/* ---- queries and element access ---------------------------------------- */

int64_t tensor_numel(const tensor *t);
int tensor_is_contiguous(const tensor *t);
/* Address of the element at offset 0 of t (storage data + offset * size). */
void *tensor_data(const tensor *t);
/* Storage element index of the element at idx (no bounds check). */
static inline int64_t tensor_elem_index(const tensor *t, const int64_t *idx)
{
    int64_t off = t->offset;
    for (int d = 0; d < t->ndim; d++)
        off += idx[d] * t->strides[d];
    return off;
}
/* Advances a row-major multi-index over t's shape; returns 0 after the last
 * element (idx is then all zeros), 1 otherwise. */
static inline int tensor_next_index(const tensor *t, int64_t *idx)
{
    for (int d = t->ndim - 1; d >= 0; d--) {
        if (++idx[d] < t->shape[d])
            return 1;
        idx[d] = 0;
    }
    return 0;
}

/* Element at multi-index idx (ndim entries), as double / as int64. Callers
 * check bounds (tensor_index_ok). */
double tensor_get(const tensor *t, const int64_t *idx);
int64_t tensor_get_i64(const tensor *t, const int64_t *idx);
void tensor_set(tensor *t, const int64_t *idx, double v);
void tensor_set_i64(tensor *t, const int64_t *idx, int64_t v);
/* Element number k in row-major (logical) order, 0 <= k < numel. */
double tensor_get_flat(const tensor *t, int64_t k);
int tensor_index_ok(const tensor *t, const int64_t *idx);

/* ---- statistics --------------------------------------------------------- */

typedef struct tensor_stats {
    int64_t count;     /* elements */
    int64_t finite;    /* finite elements: min/max/mean are over these */
    int64_t nan_count;
    int64_t inf_count; /* +inf and -inf */
    double min, max;   /* 0 when finite == 0 */
    double mean;       /* accumulated in double (Kahan-free, fine for display) */
    double sum;
    int64_t sampled;   /* 0: every element was read; else the statistics are
                          over this many elements spread evenly over count */
} tensor_stats;

/* Statistics read at most TENSOR_STATS_MAX_ELEMS elements, so that a huge
 * view (a broadcast of one element over terabytes) costs bounded time. */
#define TENSOR_STATS_MAX_ELEMS ((int64_t)1 << 26)
void tensor_compute_stats(const tensor *t, tensor_stats *out);

/* "[2, 3]" style shape text into buf (always NUL-terminated). */
void tensor_format_shape(int ndim, const int64_t *shape, char *buf, size_t bufsize);

#endif

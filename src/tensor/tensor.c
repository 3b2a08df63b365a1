/* Tensors over reference-counted storages (see tensor.h for ownership). */
#include "config.h"

#include "tensor/tensor.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "base/mem.h"

static void set_status(ptodb_status *st, ptodb_status v)
{
    if (st)
        *st = v;
}

/* ---- size limit --------------------------------------------------------- */

static uint64_t max_bytes; /* 0 until set or first asked: then the default */

static uint64_t default_max_bytes(void)
{
    uint64_t limit = TENSOR_DEFAULT_MAX_BYTES;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && (uint64_t)pages <= UINT64_MAX / 2 / (uint64_t)page &&
        (uint64_t)pages * (uint64_t)page / 2 < limit)
        limit = (uint64_t)pages * (uint64_t)page / 2;
    return limit;
}

uint64_t tensor_max_bytes(void)
{
    if (!max_bytes)
        max_bytes = default_max_bytes();
    return max_bytes;
}

void tensor_set_max_bytes(uint64_t limit)
{
    max_bytes = limit ? limit : default_max_bytes();
}

uint64_t tensor_shape_bytes(dtype_id dt, int ndim, const int64_t *shape)
{
    int64_t n = tensor_shape_numel(ndim, shape);
    uint64_t b;
    if (n < 0 || __builtin_mul_overflow((uint64_t)n, (uint64_t)dtype_size(dt), &b))
        return UINT64_MAX;
    return b;
}

int tensor_check_limit(dtype_id dt, int ndim, const int64_t *shape, char *msg, size_t size)
{
    uint64_t b = tensor_shape_bytes(dt, ndim, shape);
    if (b <= tensor_max_bytes())
        return 0;
    char sh[160];
    tensor_format_shape(ndim, shape, sh, sizeof sh);
    char bytes[40];
    if (b == UINT64_MAX)
        snprintf(bytes, sizeof bytes, "more than 2^64 bytes");
    else
        snprintf(bytes, sizeof bytes, "%llu bytes", (unsigned long long)b);
    snprintf(msg, size,
             "shape %s of %s is %s, beyond the limit of %llu bytes (raise it with --max-tensor-bytes N "
             "or `set max-tensor-bytes N`)",
             sh, dtype_name(dt), bytes, (unsigned long long)tensor_max_bytes());
    return -1;
}

/* ---- storage ------------------------------------------------------------ */

/* glibc's per-thread cache serves chunks up to about 1 KB */
#define TENSOR_SMALL_BYTES 1024

/* Buffers of freed storages, 1 KB to 4 MB, kept (up to 64 of them and
 * 32 MB) for the next storage of exactly the same size: a pass allocates
 * and frees tiles of a few shapes thousands of times, and glibc's bins
 * for those sizes hand back the chunk freed longest ago (cold in the
 * caches) after a search; the last one freed is still in L1/L2. Per
 * thread (tensors are made on the interpreter's thread only). Not under
 * AddressSanitizer, which should see every free. */
#if defined(__SANITIZE_ADDRESS__)
#define TENSOR_BUF_CACHE 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TENSOR_BUF_CACHE 0
#endif
#endif
#ifndef TENSOR_BUF_CACHE
#define TENSOR_BUF_CACHE 1
#endif
#define BUF_CACHE_SLOTS 64
#define BUF_CACHE_MAX_BYTES ((size_t)4 << 20)
#define BUF_CACHE_TOTAL ((size_t)32 << 20)

typedef struct buf_entry {
    size_t nbytes;
    void *data;
} buf_entry;
static _Thread_local buf_entry buf_cache[BUF_CACHE_SLOTS]; /* oldest first */
static _Thread_local int buf_cached;
static _Thread_local size_t buf_cached_bytes;

static int buf_cacheable(size_t nbytes)
{
    return TENSOR_BUF_CACHE && nbytes > TENSOR_SMALL_BYTES && nbytes <= BUF_CACHE_MAX_BYTES;
}

static void buf_drop(int i)
{
    buf_cached_bytes -= buf_cache[i].nbytes;
    memmove(&buf_cache[i], &buf_cache[i + 1], (size_t)(buf_cached - 1 - i) * sizeof buf_cache[0]);
    buf_cached--;
}

/* The last freed buffer of exactly nbytes, or NULL. */
static void *buf_take(size_t nbytes)
{
    if (!buf_cacheable(nbytes))
        return NULL;
    for (int i = buf_cached - 1; i >= 0; i--)
        if (buf_cache[i].nbytes == nbytes) {
            void *data = buf_cache[i].data;
            buf_drop(i);
            return data;
        }
    return NULL;
}

/* free(data), or keep it for buf_take (dropping the oldest when full). */
static void buf_put(void *data, size_t nbytes)
{
    if (!buf_cacheable(nbytes)) {
        free(data);
        return;
    }
    while (buf_cached == BUF_CACHE_SLOTS || buf_cached_bytes + nbytes > BUF_CACHE_TOTAL) {
        free(buf_cache[0].data);
        buf_drop(0);
    }
    buf_cache[buf_cached++] = (buf_entry){nbytes, data};
    buf_cached_bytes += nbytes;
}

tensor_storage *tensor_storage_new(size_t nbytes, ptodb_status *st)
{
    if (nbytes > tensor_max_bytes()) {
        set_status(st, PTODB_ERR_FORMAT);
        return NULL;
    }
    /* calloc gives zeroed, maximally aligned bytes; one extra byte keeps
     * empty storages distinct from NULL. A size within the limit may still
     * not fit in memory: the caller reports it, naming what it was for. */
    void *data;
    if ((data = buf_take(nbytes)) != NULL) {
        memset(data, 0, nbytes);
    } else if (nbytes <= TENSOR_SMALL_BYTES) {
        /* small (a 0-d value, a short row): malloc's per-thread cache,
         * which calloc skips (see tensor_alloc) */
        data = xmalloc(nbytes ? nbytes : 1);
        memset(data, 0, nbytes ? nbytes : 1);
    } else if (!st) {
        data = xcalloc(1, nbytes); /* the caller cannot report it: die */
    } else if (!(data = calloc(1, nbytes))) {
        set_status(st, PTODB_ERR_NOMEM);
        return NULL;
    }
    return tensor_storage_wrap(data, nbytes, NULL, NULL);
}

tensor_storage *tensor_storage_wrap(void *data, size_t nbytes, tensor_storage_release_fn release,
                                    void *ctx)
{
    static _Atomic uint64_t next_id = 1; /* atomic: kernels may run on threads */
    tensor_storage *s = xmalloc(sizeof *s);
    s->id = next_id++;
    s->refcount = 1;
    s->data = data;
    s->nbytes = nbytes;
    s->release = release;
    s->release_ctx = ctx;
    return s;
}

tensor_storage *tensor_storage_ref(tensor_storage *s)
{
    if (s)
        s->refcount++;
    return s;
}

void tensor_storage_unref(tensor_storage *s)
{
    if (!s || --s->refcount > 0)
        return;
    if (s->release)
        s->release(s->release_ctx, s->data, s->nbytes);
    else
        buf_put(s->data, s->nbytes); /* malloc'd: at least nbytes */
    free(s);
}

/* ---- construction ------------------------------------------------------- */

int64_t tensor_shape_numel(int ndim, const int64_t *shape)
{
    if (ndim < 0 || ndim > TENSOR_MAX_DIMS)
        return -1;
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] < 0)
            return -1;
        if (shape[d] != 0 && n > INT64_MAX / shape[d])
            return -1;
        n *= shape[d];
    }
    return n;
}

static void contiguous_strides(int ndim, const int64_t *shape, int64_t *strides)
{
    int64_t s = 1;
    for (int d = ndim - 1; d >= 0; d--) {
        strides[d] = s;
        /* the product can overflow only beside a zero dimension (callers
         * checked the numel), where no element is addressed: any stride does */
        if (__builtin_mul_overflow(s, shape[d] > 0 ? shape[d] : 1, &s))
            s = 0;
    }
}

static tensor *tensor_alloc(dtype_id dt, int ndim, const int64_t *shape)
{
    /* malloc and memset rather than calloc: glibc's calloc skips its
     * per-thread cache and takes the arena's slow path every time (a few
     * percent of a pass of small tiles) */
    tensor *t = xmalloc(sizeof *t);
    memset(t, 0, sizeof *t);
    t->refcount = 1;
    t->dtype = dt;
    t->ndim = ndim;
    if (ndim > 0)
        memcpy(t->shape, shape, (size_t)ndim * sizeof *shape);
    t->valid_ndim = -1;
    t->full_ndim = -1;
    return t;
}

/* The bytes of n elements of es bytes, checked against the limit: 0, or -1
 * with *st set (a bad shape, or beyond --max-tensor-bytes). */
static int checked_bytes(int64_t n, size_t es, size_t *bytes, ptodb_status *st)
{
    if (n < 0 || es == 0) {
        set_status(st, PTODB_ERR_SHAPE);
        return -1;
    }
    if ((uint64_t)n > tensor_max_bytes() / es) {
        set_status(st, PTODB_ERR_FORMAT);
        return -1;
    }
    *bytes = (size_t)n * es;
    return 0;
}

tensor *tensor_zeros(dtype_id dt, int ndim, const int64_t *shape, ptodb_status *st)
{
    size_t nbytes;
    if (checked_bytes(tensor_shape_numel(ndim, shape), dtype_size(dt), &nbytes, st) != 0)
        return NULL;
    tensor_storage *s = tensor_storage_new(nbytes, st);
    if (!s)
        return NULL;
    tensor *t = tensor_alloc(dt, ndim, shape);
    contiguous_strides(ndim, shape, t->strides);
    t->storage = s;
    set_status(st, PTODB_OK);
    return t;
}

/* Checks that every element of (shape, strides, offset) lies inside a
 * storage of nelem elements, without overflow. */
static int view_in_bounds(int ndim, const int64_t *shape, const int64_t *strides, int64_t offset,
                          uint64_t nelem)
{
    if (ndim < 0 || ndim > TENSOR_MAX_DIMS || offset < 0)
        return 0;
    int64_t hi = offset;
    for (int d = 0; d < ndim; d++) {
        if (shape[d] < 0 || strides[d] < 0)
            return 0;
        if (shape[d] == 0)
            return 1; /* empty: nothing is addressed */
    }
    for (int d = 0; d < ndim; d++) {
        int64_t span;
        if (__builtin_mul_overflow(shape[d] - 1, strides[d], &span) ||
            __builtin_add_overflow(hi, span, &hi))
            return 0;
    }
    return (uint64_t)hi < nelem;
}

tensor *tensor_from_storage(tensor_storage *s, dtype_id dt, int ndim, const int64_t *shape,
                            const int64_t *strides, int64_t offset, ptodb_status *st)
{
    size_t es = dtype_size(dt);
    if (!s || es == 0 || ndim < 0 || ndim > TENSOR_MAX_DIMS || tensor_shape_numel(ndim, shape) < 0) {
        set_status(st, PTODB_ERR_SHAPE);
        return NULL;
    }
    int64_t cstrides[TENSOR_MAX_DIMS];
    if (!strides) {
        contiguous_strides(ndim, shape, cstrides);
        strides = cstrides;
    }
    if (!view_in_bounds(ndim, shape, strides, offset, s->nbytes / es)) {
        set_status(st, PTODB_ERR_BOUNDS);
        return NULL;
    }
    tensor *t = tensor_alloc(dt, ndim, shape);
    if (ndim > 0)
        memcpy(t->strides, strides, (size_t)ndim * sizeof *strides);
    t->offset = offset;
    t->storage = tensor_storage_ref(s);
    set_status(st, PTODB_OK);
    return t;
}

tensor *tensor_scalar(dtype_id dt, double v)
{
    tensor *t = tensor_zeros(dt, 0, NULL, NULL);
    if (t)
        dtype_store(dt, t->storage->data, 0, v);
    return t;
}

tensor *tensor_ref(tensor *t)
{
    if (t)
        t->refcount++;
    return t;
}

void tensor_unref(tensor *t)
{
    if (!t || --t->refcount > 0)
        return;
    tensor_storage_unref(t->storage);
    free(t);
}

/* ---- views -------------------------------------------------------------- */

tensor *tensor_view(const tensor *t, int ndim, const int64_t *shape, const int64_t *strides,
                    int64_t offset, ptodb_status *st)
{
    return tensor_from_storage(t->storage, t->dtype, ndim, shape, strides, offset, st);
}

tensor *tensor_slice(const tensor *t, int dim, int64_t start, int64_t stop, int64_t step,
                     ptodb_status *st)
{
    if (dim < 0 || dim >= t->ndim || step < 1) {
        set_status(st, PTODB_ERR_SHAPE);
        return NULL;
    }
    int64_t n = t->shape[dim];
    start = start < 0 ? 0 : (start > n ? n : start);
    stop = stop < start ? start : (stop > n ? n : stop);
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    memcpy(shape, t->shape, sizeof shape);
    memcpy(strides, t->strides, sizeof strides);
    /* ceil((stop - start) / step) without forming stop - start + step */
    shape[dim] = stop == start ? 0 : 1 + (stop - start - 1) / step;
    /* a dimension of one element never uses its stride, and a step larger
     * than the dimension leaves one: keep the stride then (no overflow) */
    if (shape[dim] > 1 && __builtin_mul_overflow(t->strides[dim], step, &strides[dim])) {
        set_status(st, PTODB_ERR_BOUNDS);
        return NULL;
    }
    int64_t offset = t->offset + (shape[dim] > 0 ? start * t->strides[dim] : 0);
    return tensor_view(t, t->ndim, shape, strides, offset, st);
}

tensor *tensor_transpose(const tensor *t, int d0, int d1, ptodb_status *st)
{
    if (d0 < 0 || d1 < 0 || d0 >= t->ndim || d1 >= t->ndim) {
        set_status(st, PTODB_ERR_SHAPE);
        return NULL;
    }
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    memcpy(shape, t->shape, sizeof shape);
    memcpy(strides, t->strides, sizeof strides);
    shape[d0] = t->shape[d1];
    shape[d1] = t->shape[d0];
    strides[d0] = t->strides[d1];
    strides[d1] = t->strides[d0];
    return tensor_view(t, t->ndim, shape, strides, t->offset, st);
}

tensor *tensor_reshape(const tensor *t, int ndim, const int64_t *shape, ptodb_status *st)
{
    int64_t n = tensor_shape_numel(ndim, shape);
    if (n < 0 || n != tensor_numel(t)) {
        set_status(st, PTODB_ERR_SHAPE);
        return NULL;
    }
    if (tensor_is_contiguous(t))
        return tensor_view(t, ndim, shape, NULL, t->offset, st);
    tensor *c = tensor_clone(t);
    tensor *r = tensor_view(c, ndim, shape, NULL, 0, st);
    tensor_unref(c);
    return r;
}

/* ---- copies ------------------------------------------------------------- */

int64_t tensor_numel(const tensor *t)
{
    return tensor_shape_numel(t->ndim, t->shape);
}

int tensor_is_contiguous(const tensor *t)
{
    int64_t expect = 1;
    for (int d = t->ndim - 1; d >= 0; d--) {
        if (t->shape[d] == 0)
            return 1;
        if (t->shape[d] != 1 && t->strides[d] != expect)
            return 0;
        expect *= t->shape[d];
    }
    return 1;
}

void *tensor_data(const tensor *t)
{
    return t->storage->data + (size_t)t->offset * dtype_size(t->dtype);
}

/* Copies src (any strides) into a contiguous buffer of dtype dst_dt. */
static void gather_into(void *dst, dtype_id dst_dt, const tensor *src)
{
    int64_t n = tensor_numel(src);
    if (n == 0)
        return;
    if (tensor_is_contiguous(src)) {
        dtype_convert(dst_dt, dst, src->dtype, tensor_data(src), (size_t)n);
        return;
    }
    size_t es = dtype_size(src->dtype);
    if (src->ndim == 2 && src->strides[1] == 1 && src->dtype == dst_dt) {
        /* a 2-D window of a wider matrix (a tile load): rows apart by a
         * stride that is often a page or more, so the next rows' lines are
         * prefetched while this one is copied (the hardware prefetchers do
         * not follow such strides) */
        int64_t rows = src->shape[0], cols = src->shape[1], rs = src->strides[0];
        const unsigned char *base = src->storage->data + (size_t)src->offset * es;
        size_t rowbytes = (size_t)cols * es;
        unsigned char *out = dst;
        enum { AHEAD = 8 };
        for (int64_t r = 0; r < rows; r++) {
            if (r + AHEAD < rows) {
                const unsigned char *pf = base + (size_t)((r + AHEAD) * rs) * es;
                for (size_t o = 0; o < rowbytes; o += 64)
                    __builtin_prefetch(pf + o);
            }
            memcpy(out + (size_t)r * rowbytes, base + (size_t)(r * rs) * es, rowbytes);
        }
        return;
    }
    /* Walk the index space innermost-dim at a time. */
    int64_t idx[TENSOR_MAX_DIMS] = {0};
    size_t des = dtype_size(dst_dt);
    int inner = src->ndim - 1;
    int64_t len = src->shape[inner];
    int64_t stride = src->strides[inner];
    unsigned char *out = dst;
    do {
        int64_t base = tensor_elem_index(src, idx);
        if (stride == 1) {
            dtype_convert(dst_dt, out, src->dtype, src->storage->data + (size_t)base * es, (size_t)len);
        } else {
            for (int64_t i = 0; i < len; i++)
                dtype_convert(dst_dt, out + (size_t)i * des, src->dtype,
                              src->storage->data + (size_t)(base + i * stride) * es, 1);
        }
        out += (size_t)len * des;
        idx[inner] = len - 1;
    } while (tensor_next_index(src, idx));
}

tensor *tensor_clone(const tensor *t)
{
    return tensor_clone_status(t, NULL);
}

tensor *tensor_clone_status(const tensor *t, ptodb_status *st)
{
    /* every byte is written by the gather: no zeroing; the same limits and
     * failure rules as tensor_storage_new */
    size_t nbytes;
    if (checked_bytes(tensor_numel(t), dtype_size(t->dtype), &nbytes, st) != 0)
        return NULL;
    void *data;
    if ((data = buf_take(nbytes)) != NULL) {
        /* reused as it is */
    } else if (!st) {
        data = xmalloc(nbytes ? nbytes : 1);
    } else if (!(data = malloc(nbytes ? nbytes : 1))) {
        set_status(st, PTODB_ERR_NOMEM);
        return NULL;
    }
    tensor_storage *s = tensor_storage_wrap(data, nbytes, NULL, NULL);
    tensor *c = tensor_from_storage(s, t->dtype, t->ndim, t->shape, NULL, 0, st);
    tensor_storage_unref(s);
    if (c)
        gather_into(c->storage->data, c->dtype, t);
    return c;
}

tensor *tensor_contiguous(tensor *t)
{
    return tensor_is_contiguous(t) ? tensor_ref(t) : tensor_clone(t);
}

tensor *tensor_cast(tensor *t, dtype_id dt)
{
    if (dt == t->dtype)
        return tensor_ref(t);
    tensor *c = tensor_zeros(dt, t->ndim, t->shape, NULL);
    if (c)
        gather_into(c->storage->data, dt, t);
    return c;
}

/* whether the bytes of two storages can overlap */
static int storages_overlap(const tensor_storage *a, const tensor_storage *b)
{
    return a == b || (a->data < b->data + b->nbytes && b->data < a->data + a->nbytes);
}

ptodb_status tensor_copy_into(tensor *dst, const tensor *src)
{
    if (dst->ndim != src->ndim || memcmp(dst->shape, src->shape, (size_t)dst->ndim * sizeof(int64_t)))
        return PTODB_ERR_SHAPE;
    int64_t n = tensor_numel(src);
    if (n == 0)
        return PTODB_OK;
    /* apart in memory and dst one dense block (a row slice, a lane's half
     * of a merged tile): the gather writes dst directly */
    if (!storages_overlap(dst->storage, src->storage) && tensor_is_contiguous(dst)) {
        gather_into(tensor_data(dst), dst->dtype, src);
        return PTODB_OK;
    }
    /* Stage through a contiguous buffer of dst's dtype: this also makes
     * overlapping src/dst behave like torch's copy_ of a cloned source. */
    size_t des = dtype_size(dst->dtype);
    unsigned char *tmp = xmalloc((size_t)n * des);
    gather_into(tmp, dst->dtype, src);
    int64_t idx[TENSOR_MAX_DIMS] = {0};
    int inner = dst->ndim - 1;
    /* a run of the innermost dim at a time where it is dense */
    int64_t run = inner >= 0 && (dst->strides[inner] == 1 || dst->shape[inner] == 1) ? dst->shape[inner] : 1;
    int64_t k = 0;
    do {
        memcpy(dst->storage->data + (size_t)tensor_elem_index(dst, idx) * des, tmp + (size_t)k * des,
               (size_t)run * des);
        k += run;
        if (run > 1)
            idx[inner] = run - 1;
    } while (tensor_next_index(dst, idx));
    free(tmp);
    return PTODB_OK;
}

void tensor_copy_attrs(tensor *dst, const tensor *src)
{
    dst->valid_ndim = src->valid_ndim;
    memcpy(dst->valid, src->valid, sizeof dst->valid);
    dst->full_ndim = src->full_ndim;
    memcpy(dst->full, src->full, sizeof dst->full);
    dst->valid_declared = src->valid_declared;
}

tensor *tensor_alias(const tensor *t, ptodb_status *st)
{
    tensor *w = tensor_view(t, t->ndim, t->shape, t->strides, t->offset, st);
    if (!w)
        return NULL;
    tensor_copy_attrs(w, t);
    w->prov = t->prov;
    w->prov_k = t->prov_k;
    w->prov_core = t->prov_core;
    return w;
}

/* ---- element access ----------------------------------------------------- */

int tensor_index_ok(const tensor *t, const int64_t *idx)
{
    for (int d = 0; d < t->ndim; d++)
        if (idx[d] < 0 || idx[d] >= t->shape[d])
            return 0;
    return 1;
}

double tensor_get(const tensor *t, const int64_t *idx)
{
    return dtype_load(t->dtype, t->storage->data, (size_t)tensor_elem_index(t, idx));
}

int64_t tensor_get_i64(const tensor *t, const int64_t *idx)
{
    return dtype_load_i64(t->dtype, t->storage->data, (size_t)tensor_elem_index(t, idx));
}

void tensor_set(tensor *t, const int64_t *idx, double v)
{
    dtype_store(t->dtype, t->storage->data, (size_t)tensor_elem_index(t, idx), v);
}

void tensor_set_i64(tensor *t, const int64_t *idx, int64_t v)
{
    dtype_store_i64(t->dtype, t->storage->data, (size_t)tensor_elem_index(t, idx), v);
}

double tensor_get_flat(const tensor *t, int64_t k)
{
    int64_t off = t->offset;
    for (int d = t->ndim - 1; d >= 0; d--) {
        int64_t n = t->shape[d];
        off += (k % n) * t->strides[d];
        k /= n;
    }
    return dtype_load(t->dtype, t->storage->data, (size_t)off);
}

/* ---- statistics --------------------------------------------------------- */

static void stats_add(tensor_stats *s, double v)
{
    if (isnan(v)) {
        s->nan_count++;
        return;
    }
    if (isinf(v)) {
        s->inf_count++;
        return;
    }
    if (s->finite == 0 || v < s->min)
        s->min = v;
    if (s->finite == 0 || v > s->max)
        s->max = v;
    s->finite++;
    s->sum += v;
}

void tensor_compute_stats(const tensor *t, tensor_stats *out)
{
    memset(out, 0, sizeof *out);
    out->count = tensor_numel(t);
    if (out->count <= 0)
        return;
    if (out->count > TENSOR_STATS_MAX_ELEMS) {
        /* evenly spaced elements, the first and (nearly) the last included */
        int64_t step = out->count / TENSOR_STATS_MAX_ELEMS + (out->count % TENSOR_STATS_MAX_ELEMS != 0);
        for (int64_t k = 0; k < out->count; k += step)
            stats_add(out, tensor_get_flat(t, k));
        out->sampled = out->finite + out->nan_count + out->inf_count;
    } else if (tensor_is_contiguous(t)) {
        const void *base = tensor_data(t);
        for (int64_t i = 0; i < out->count; i++)
            stats_add(out, dtype_load(t->dtype, base, (size_t)i));
    } else {
        int64_t idx[TENSOR_MAX_DIMS] = {0};
        do {
            stats_add(out, tensor_get(t, idx));
        } while (tensor_next_index(t, idx));
    }
    out->mean = out->finite ? out->sum / (double)out->finite : 0.0;
}

void tensor_format_shape(int ndim, const int64_t *shape, char *buf, size_t bufsize)
{
    size_t used = 0;
    if (bufsize == 0)
        return;
    buf[0] = '\0';
    used += (size_t)snprintf(buf, bufsize, "[");
    for (int d = 0; d < ndim && used < bufsize; d++)
        used += (size_t)snprintf(buf + used, bufsize - used, "%s%lld", d ? ", " : "", (long long)shape[d]);
    if (used < bufsize)
        snprintf(buf + used, bufsize - used, "]");
}

tensor *tensor_snapshot(tensor *t)
{
    tensor *c = tensor_clone(t);
    tensor_copy_attrs(c, t);
    return c;
}

int tensor_same_bits(const tensor *a, const tensor *b)
{
    if (a->dtype != b->dtype || a->ndim != b->ndim)
        return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return 0;
    size_t esize = dtype_size(a->dtype);
    if (tensor_is_contiguous(a) && tensor_is_contiguous(b))
        return tensor_data(a) == tensor_data(b) ||
               memcmp(tensor_data(a), tensor_data(b), (size_t)tensor_numel(a) * esize) == 0;
    int64_t n = tensor_numel(a), idx[TENSOR_MAX_DIMS] = {0};
    for (int64_t k = 0; k < n; k++, tensor_next_index(a, idx)) {
        const unsigned char *pa = a->storage->data + (size_t)tensor_elem_index(a, idx) * esize;
        const unsigned char *pb = b->storage->data + (size_t)tensor_elem_index(b, idx) * esize;
        if (memcmp(pa, pb, esize) != 0)
            return 0;
    }
    return 1;
}

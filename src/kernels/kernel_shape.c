/* Broadcasting, Python slicing and views (kernel_util.h, "shapes"). */
#include "kernels/kernel_util.h"

#include <string.h>

/* ---- shapes ------------------------------------------------------------- */

ptodb_status kernels_broadcast(kernel_call *kc, int n, const int *nds, const int64_t *const *shapes,
                               int *ond, int64_t *oshape)
{
    int nd = 0;
    for (int k = 0; k < n; k++)
        if (nds[k] > nd)
            nd = nds[k];
    for (int d = 0; d < nd; d++)
        oshape[d] = 1;
    for (int k = 0; k < n; k++) {
        /* torch's infer_size walks from the last dim */
        for (int j = nds[k] - 1; j >= 0; j--) {
            int d = nd - nds[k] + j;
            int64_t s = shapes[k][j];
            if (s == oshape[d] || s == 1)
                continue;
            if (oshape[d] == 1) {
                oshape[d] = s;
                continue;
            }
            /* torch names the first tensor whose size disagrees */
            return kernels_fail(kc, PTODB_ERR_SHAPE,
                                "The size of tensor a (%lld) must match the size of tensor b (%lld) "
                                "at non-singleton dimension %d",
                                (long long)oshape[d], (long long)s, d);
        }
    }
    *ond = nd;
    return PTODB_OK;
}

void kernel_pyslice(int64_t n, int64_t start, int64_t stop, int64_t *first, int64_t *len)
{
    if (start < 0) {
        start += n;
        if (start < 0)
            start = 0;
    } else if (start > n) {
        start = n;
    }
    if (stop < 0) {
        stop += n;
        if (stop < 0)
            stop = 0;
    } else if (stop > n) {
        stop = n;
    }
    *first = start;
    *len = stop > start ? stop - start : 0;
}

static int64_t sat_add(int64_t x, int64_t y)
{
    int64_t r;
    if (__builtin_add_overflow(x, y, &r))
        return y > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

static ptodb_status window_view(kernel_call *kc, const tensor *t, int k, const int64_t *start,
                                const int64_t *stop, tensor **out)
{
    if (k > t->ndim)
        return kernels_fail(kc, PTODB_ERR_BOUNDS, "IndexError: too many indices for tensor of "
                                                   "dimension %d",
                            t->ndim);
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
    int64_t offset = t->offset;
    int empty = 0;
    for (int d = 0; d < t->ndim; d++) {
        shape[d] = t->shape[d];
        strides[d] = t->strides[d];
    }
    for (int d = 0; d < k; d++) {
        int64_t first, len;
        kernel_pyslice(t->shape[d], start ? start[d] : 0, stop[d], &first, &len);
        shape[d] = len;
        if (len == 0)
            empty = 1;
        else
            offset += first * t->strides[d];
    }
    if (empty)
        offset = t->offset;
    ptodb_status st;
    tensor *v = tensor_view(t, t->ndim, shape, strides, offset, &st);
    if (!v)
        return kernels_fail(kc, st, "internal: slice view outside its storage");
    *out = v;
    return PTODB_OK;
}

ptodb_status kernels_slice_view(kernel_call *kc, const tensor *t, int k, const int64_t *start,
                                const int64_t *size, tensor **out)
{
    int64_t stop[TENSOR_MAX_DIMS];
    for (int d = 0; d < k && d < TENSOR_MAX_DIMS; d++)
        stop[d] = sat_add(start[d], size[d]);
    return window_view(kc, t, k, start, stop, out);
}

ptodb_status kernels_head_view(kernel_call *kc, const tensor *t, int k, const int64_t *stop,
                               tensor **out)
{
    return window_view(kc, t, k, NULL, stop, out);
}

void kernel_valid_2d(const tensor *t, int64_t *rows, int64_t *cols)
{
    *rows = t->shape[0];
    *cols = t->shape[1];
    if (t->valid_ndim == 2) {
        if (t->valid[0] >= 0 && t->valid[0] < *rows)
            *rows = t->valid[0];
        if (t->valid[1] >= 0 && t->valid[1] < *cols)
            *cols = t->valid[1];
    }
}

int kernel_same_dims(int n1, const int64_t *a1, int n2, const int64_t *a2)
{
    return n1 == n2 && (n1 == 0 || memcmp(a1, a2, (size_t)n1 * sizeof *a1) == 0);
}

void kernel_set_valid_full(tensor *t, int nv, const int64_t *v, int nf, const int64_t *f)
{
    t->valid_ndim = nv;
    for (int d = 0; d < nv; d++)
        t->valid[d] = v[d];
    t->full_ndim = nf;
    for (int d = 0; d < nf; d++)
        t->full[d] = f[d];
}

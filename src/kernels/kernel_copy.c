/* Data movement: gathers, stores, assignment and padding copies
 * (kernel_util.h, "data movement"). */
#include "kernels/kernel_walk.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

/* ---- data movement ------------------------------------------------------ */


/* One row of len elements of dtype dt (storage index base, stride) as
 * doubles: typed loops for the common dtypes, so the compiler can keep the
 * dtype switch out of the loop. */
static void row_load_f64(dtype_id dt, const unsigned char *data, int64_t base, int64_t stride,
                         int64_t len, double *out)
{
    switch (dt) {
    case DTYPE_FP32:
        for (int64_t j = 0; j < len; j++) {
            float f;
            memcpy(&f, data + 4 * (size_t)(base + j * stride), 4);
            out[j] = f;
        }
        return;
    case DTYPE_BF16:
        for (int64_t j = 0; j < len; j++) {
            uint16_t h;
            memcpy(&h, data + 2 * (size_t)(base + j * stride), 2);
            out[j] = dtype_bf16_to_f32(h);
        }
        return;
    case DTYPE_FP16:
        for (int64_t j = 0; j < len; j++) {
            uint16_t h;
            memcpy(&h, data + 2 * (size_t)(base + j * stride), 2);
            out[j] = dtype_f16_to_f32(h);
        }
        return;
    case DTYPE_INT32:
        for (int64_t j = 0; j < len; j++) {
            int32_t v;
            memcpy(&v, data + 4 * (size_t)(base + j * stride), 4);
            out[j] = v;
        }
        return;
    default:
        for (int64_t j = 0; j < len; j++)
            out[j] = dtype_load(dt, data, (size_t)(base + j * stride));
        return;
    }
}

void kernel_gather_f64(const tensor *t, int nd, const int64_t *shape, double *buf)
{
    const unsigned char *data = t->storage->data;
    dtype_id dt = t->dtype;
    KERNEL_ROWS(t, nd, shape, row_load_f64(dt, data, base_, istr_, inner_, buf + k_));
}

typedef uint16_t kernel_v16u16 __attribute__((vector_size(32)));
typedef int16_t kernel_v16s16 __attribute__((vector_size(32)));
typedef uint32_t kernel_v16u32 __attribute__((vector_size(64)));

void kernel_gather_f32(const tensor *t, int nd, const int64_t *shape, float *buf)
{
    const unsigned char *data = t->storage->data;
    dtype_id dt = t->dtype;
    if (dt == DTYPE_FP32) {
        KERNEL_ROWS(t, nd, shape, {
            if (istr_ == 1)
                memcpy(buf + k_, data + 4 * (size_t)base_, 4 * (size_t)inner_);
            else
                for (int64_t j = 0; j < inner_; j++)
                    memcpy(buf + k_ + j, data + 4 * (size_t)(base_ + j * istr_), 4);
        });
        return;
    }
    if (dt == DTYPE_BF16) {
        KERNEL_ROWS(t, nd, shape, {
            if (istr_ == 1) { /* contiguous rows: 16 at a time as vectors */
                const unsigned char *src = data + 2 * (size_t)base_;
                float *dst = buf + k_;
                int64_t j = 0;
                for (; j + 16 <= inner_; j += 16) {
                    kernel_v16u16 h;
                    memcpy(&h, src + 2 * j, sizeof h);
                    kernel_v16u32 u = __builtin_convertvector(h, kernel_v16u32) << 16;
                    memcpy(dst + j, &u, sizeof u);
                }
                for (; j < inner_; j++) {
                    uint16_t h;
                    memcpy(&h, src + 2 * j, 2);
                    uint32_t u = (uint32_t)h << 16;
                    memcpy(dst + j, &u, 4);
                }
            } else {
                for (int64_t j = 0; j < inner_; j++) {
                    uint16_t h;
                    memcpy(&h, data + 2 * (size_t)(base_ + j * istr_), 2);
                    buf[k_ + j] = dtype_bf16_to_f32(h);
                }
            }
        });
        return;
    }
    KERNEL_WALK(t, nd, shape, buf[kk_] = (float)dtype_load(dt, data, e_));
}

/* buf[k_ + j] = element (base_ + j * istr_) of data, j < inner_, each read
 * as T: an integer dtype's values exactly, without dtype_load's double */
#define GATHER_INT_ROWS(T)                                                         \
    KERNEL_ROWS(t, nd, shape, {                                                    \
        const unsigned char *src_ = data + (size_t)base_ * sizeof(T);              \
        int64_t *dst_ = buf + k_;                                                  \
        for (int64_t j = 0; j < inner_; j++) {                                     \
            T v_;                                                                  \
            memcpy(&v_, src_ + (size_t)(j * istr_) * sizeof(T), sizeof v_);        \
            dst_[j] = (int64_t)v_;                                                 \
        }                                                                          \
    })

void kernel_gather_i64(const tensor *t, int nd, const int64_t *shape, int64_t *buf)
{
    const unsigned char *data = t->storage->data;
    dtype_id dt = t->dtype;
    switch (dt) { /* the integer dtypes a storage holds aligned (tensor_storage_new, mapfile_storage) */
    case DTYPE_INT8: GATHER_INT_ROWS(int8_t); return;
    case DTYPE_UINT8: GATHER_INT_ROWS(uint8_t); return;
    case DTYPE_INT16: GATHER_INT_ROWS(int16_t); return;
    case DTYPE_UINT16: GATHER_INT_ROWS(uint16_t); return;
    case DTYPE_INT32: GATHER_INT_ROWS(int32_t); return;
    case DTYPE_UINT32: GATHER_INT_ROWS(uint32_t); return;
    case DTYPE_INDEX:
    case DTYPE_INT64: GATHER_INT_ROWS(int64_t); return;
    default: break;
    }
    KERNEL_WALK(t, nd, shape, buf[kk_] = dtype_load_i64(dt, data, e_));
}
#undef GATHER_INT_ROWS

void kernel_gather_i16(const tensor *t, int nd, const int64_t *shape, int16_t *buf)
{
    const unsigned char *data = t->storage->data;
    int is_signed = t->dtype == DTYPE_INT8;
    if (nd == 2 && t->ndim == 2 && t->shape[0] == shape[0] && t->shape[1] == shape[1] && t->strides[1] != 1 &&
        t->strides[0] == 1) {
        /* a transposed matrix (a b_trans operand): in 32 x 32 blocks, each
         * column of the result read along its bytes */
        int64_t rows = shape[0], cols = shape[1], cs = t->strides[1];
        const unsigned char *src = data + t->offset;
        for (int64_t r0 = 0; r0 < rows; r0 += 32)
            for (int64_t c0 = 0; c0 < cols; c0 += 32)
                for (int64_t c = c0; c < c0 + 32 && c < cols; c++)
                    for (int64_t r = r0; r < r0 + 32 && r < rows; r++) {
                        unsigned char v = src[r + c * cs];
                        buf[r * cols + c] = is_signed ? (int8_t)v : v;
                    }
        return;
    }
    KERNEL_ROWS(t, nd, shape, {
        const unsigned char *src = data + base_;
        int16_t *dst = buf + k_;
        if (istr_ == 1) { /* the common case: 16 at a time as vectors */
            typedef int8_t v16s8 __attribute__((vector_size(16)));
            typedef uint8_t v16u8 __attribute__((vector_size(16)));
            int64_t j = 0;
            for (; j + 16 <= inner_; j += 16) {
                kernel_v16u16 h;
                if (is_signed) {
                    v16s8 v;
                    memcpy(&v, src + j, sizeof v);
                    h = (kernel_v16u16)__builtin_convertvector(v, kernel_v16s16);
                } else {
                    v16u8 v;
                    memcpy(&v, src + j, sizeof v);
                    h = __builtin_convertvector(v, kernel_v16u16);
                }
                memcpy(dst + j, &h, sizeof h);
            }
            for (; j < inner_; j++)
                dst[j] = is_signed ? (int8_t)src[j] : src[j];
        } else if (is_signed)
            for (int64_t j = 0; j < inner_; j++)
                dst[j] = (int8_t)src[j * istr_];
        else
            for (int64_t j = 0; j < inner_; j++)
                dst[j] = src[j * istr_];
    });
}

void kernel_store_f64(tensor *t, const double *buf, int64_t n)
{
    unsigned char *data = tensor_data(t);
    if (t->dtype == DTYPE_FP32) {
        for (int64_t k = 0; k < n; k++) {
            float f = (float)buf[k];
            memcpy(data + 4 * (size_t)k, &f, 4);
        }
        return;
    }
    if (t->dtype == DTYPE_BF16) {
        for (int64_t k = 0; k < n; k++) {
            uint16_t h = dtype_f32_to_bf16((float)buf[k]);
            memcpy(data + 2 * (size_t)k, &h, 2);
        }
        return;
    }
    for (int64_t k = 0; k < n; k++)
        dtype_store(t->dtype, data, (size_t)k, buf[k]);
}

void kernel_store_f32(tensor *t, const float *buf, int64_t n)
{
    unsigned char *data = tensor_data(t);
    if (t->dtype == DTYPE_FP32) {
        memcpy(data, buf, (size_t)n * sizeof *buf);
        return;
    }
    if (t->dtype == DTYPE_BF16) {
        /* dtype_f32_to_bf16 without its branch, 16 at a time in GNU C
         * vectors (the compiler leaves the scalar form a loop of branches):
         * the rounded top half, or 0xFFFF for NaN */
        typedef int32_t v16i32 __attribute__((vector_size(64)));
        int64_t k = 0;
        for (; k + 16 <= n; k += 16) {
            kernel_v16u32 u;
            memcpy(&u, buf + k, sizeof u);
            kernel_v16u32 r = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
            kernel_v16u32 nan = (kernel_v16u32)((v16i32)(u & 0x7FFFFFFFu) > 0x7F800000);
            r = (r & ~nan) | (0xFFFFu & nan);
            kernel_v16u16 h = __builtin_convertvector(r, kernel_v16u16);
            memcpy(data + 2 * (size_t)k, &h, sizeof h);
        }
        for (; k < n; k++) {
            uint16_t h = dtype_f32_to_bf16(buf[k]);
            memcpy(data + 2 * (size_t)k, &h, 2);
        }
        return;
    }
    for (int64_t k = 0; k < n; k++)
        dtype_store(t->dtype, data, (size_t)k, (double)buf[k]);
}

void kernel_store_i64(tensor *t, const int64_t *buf, int64_t n)
{
    unsigned char *data = tensor_data(t);
    /* the integer dtypes as dtype_store_i64 stores them (the low bytes of
     * the two's complement), one loop each */
    switch (t->dtype) {
    case DTYPE_INT8:
    case DTYPE_UINT8:
        for (int64_t k = 0; k < n; k++)
            data[k] = (unsigned char)(uint64_t)buf[k];
        return;
    case DTYPE_INT16:
    case DTYPE_UINT16:
        for (int64_t k = 0; k < n; k++) {
            uint16_t w = (uint16_t)(uint64_t)buf[k];
            memcpy(data + 2 * (size_t)k, &w, 2);
        }
        return;
    case DTYPE_INT32:
    case DTYPE_UINT32:
        for (int64_t k = 0; k < n; k++) {
            uint32_t w = (uint32_t)(uint64_t)buf[k];
            memcpy(data + 4 * (size_t)k, &w, 4);
        }
        return;
    case DTYPE_INDEX:
    case DTYPE_INT64:
    case DTYPE_UINT64:
        if (n > 0)
            memcpy(data, buf, (size_t)n * sizeof *buf);
        return;
    default:
        break;
    }
    for (int64_t k = 0; k < n; k++)
        dtype_store_i64(t->dtype, data, (size_t)k, buf[k]);
}

/* Writes buf (row-major over dst's shape) into dst's (strided) elements. */
static void scatter_f64(tensor *dst, const double *buf)
{
    unsigned char *data = dst->storage->data;
    dtype_id dt = dst->dtype;
    KERNEL_WALK(dst, dst->ndim, dst->shape, dtype_store(dt, data, e_, buf[kk_]));
}

static void scatter_i64(tensor *dst, const int64_t *buf)
{
    unsigned char *data = dst->storage->data;
    dtype_id dt = dst->dtype;
    KERNEL_WALK(dst, dst->ndim, dst->shape, dtype_store_i64(dt, data, e_, buf[kk_]));
}

ptodb_status kernels_assign(kernel_call *kc, tensor *dst, const tensor *src, int accumulate)
{
    char tb[160], sb[160];
    /* setitem drops leading unit dims of the value (torch's slicePrefix1sSize) */
    int snd = src->ndim, skip = 0;
    while (snd - skip > dst->ndim && src->shape[skip] == 1)
        skip++;
    const int64_t *sshape = src->shape + skip;
    snd -= skip;
    if (snd > dst->ndim) {
        kernel_fmt_shape(src->ndim, src->shape, sb, sizeof sb);
        kernel_fmt_shape(dst->ndim, dst->shape, tb, sizeof tb);
        return kernels_fail(kc, PTODB_ERR_SHAPE,
                            "%s: expand(%s, size=%s): the number of sizes provided (%d) must be "
                            "greater or equal to the number of dimensions in the tensor (%d)",
                            kc->op, sb, tb, dst->ndim, src->ndim);
    }
    for (int j = snd - 1; j >= 0; j--) { /* expand checks from the last dim */
        int d = dst->ndim - snd + j;
        if (sshape[j] != 1 && sshape[j] != dst->shape[d]) {
            kernel_fmt_shape(dst->ndim, dst->shape, tb, sizeof tb);
            kernel_fmt_shape(src->ndim, src->shape, sb, sizeof sb);
            return kernels_fail(kc, PTODB_ERR_SHAPE,
                                "%s: RuntimeError: The expanded size of the tensor (%lld) must match "
                                "the existing size (%lld) at non-singleton dimension %d.  Target "
                                "sizes: %s.  Tensor sizes: %s",
                                kc->op, (long long)dst->shape[d], (long long)sshape[j], d,
                                tb, sb);
        }
    }
    /* src without its skipped unit dims, as a view with the same elements */
    tensor s2 = *src;
    s2.ndim = snd;
    for (int j = 0; j < snd; j++) {
        s2.shape[j] = src->shape[j + skip];
        s2.strides[j] = src->strides[j + skip];
    }
    int64_t n = tensor_numel(dst);
    if (n <= 0)
        return PTODB_OK;
    if (accumulate) {
        kernel_opnd o[2];
        memset(o, 0, sizeof o);
        o[0].cls = dst->ndim ? KOPND_DIM : KOPND_ZERO;
        o[0].dt = dst->dtype;
        o[1].cls = src->ndim ? KOPND_DIM : KOPND_ZERO;
        o[1].dt = src->dtype;
        dtype_id pdt = kernel_result_type(o, 2);
        if (!kernel_can_cast(pdt, dst->dtype))
            return kernels_fail(kc, PTODB_ERR_RUNTIME,
                                "%s: RuntimeError: result type %s can't be cast to the desired "
                                "output type %s",
                                kc->op, kernel_torch_type_name(pdt),
                                kernel_torch_type_name(dst->dtype));
        if (dtype_is_float(pdt)) {
            double *sv = xmalloc((size_t)n * sizeof *sv);
            double *dv = xmalloc((size_t)n * sizeof *dv);
            kernel_gather_f64(&s2, dst->ndim, dst->shape, sv);
            kernel_gather_f64(dst, dst->ndim, dst->shape, dv);
            for (int64_t k = 0; k < n; k++)
                dv[k] = kernel_round_to(pdt, kernel_round_to(pdt, dv[k]) + kernel_round_to(pdt, sv[k]));
            scatter_f64(dst, dv);
            free(sv);
            free(dv);
        } else {
            int64_t *sv = xmalloc((size_t)n * sizeof *sv);
            int64_t *dv = xmalloc((size_t)n * sizeof *dv);
            kernel_gather_i64(&s2, dst->ndim, dst->shape, sv);
            kernel_gather_i64(dst, dst->ndim, dst->shape, dv);
            for (int64_t k = 0; k < n; k++)
                dv[k] = pdt == DTYPE_BOOL ? (dv[k] || sv[k])
                                          : (int64_t)((uint64_t)dv[k] + (uint64_t)sv[k]);
            scatter_i64(dst, dv);
            free(sv);
            free(dv);
        }
        return PTODB_OK;
    }
    /* Plain copy: stage the whole source first (overlap-safe). The same
     * dtype copies bytes (torch's copy_ keeps NaN payloads); otherwise as a
     * double when the source is a float and as an int64 otherwise, so that
     * every dtype pair converts by the dtype_store / dtype_store_i64 rules. */
    if (src->dtype == dst->dtype) {
        size_t es = dtype_size(dst->dtype);
        unsigned char *tmp = xmalloc((size_t)n * es);
        const unsigned char *sdata = src->storage->data;
        unsigned char *ddata = dst->storage->data;
        KERNEL_ROWS(&s2, dst->ndim, dst->shape, {
            if (istr_ == 1)
                memcpy(tmp + (size_t)k_ * es, sdata + (size_t)base_ * es, (size_t)inner_ * es);
            else
                for (int64_t j = 0; j < inner_; j++)
                    memcpy(tmp + (size_t)(k_ + j) * es, sdata + (size_t)(base_ + j * istr_) * es, es);
        });
        KERNEL_ROWS(dst, dst->ndim, dst->shape, {
            if (istr_ == 1)
                memcpy(ddata + (size_t)base_ * es, tmp + (size_t)k_ * es, (size_t)inner_ * es);
            else
                for (int64_t j = 0; j < inner_; j++)
                    memcpy(ddata + (size_t)(base_ + j * istr_) * es, tmp + (size_t)(k_ + j) * es, es);
        });
        free(tmp);
    } else if (dtype_is_float(src->dtype)) {
        double *sv = xmalloc((size_t)n * sizeof *sv);
        kernel_gather_f64(&s2, dst->ndim, dst->shape, sv);
        scatter_f64(dst, sv);
        free(sv);
    } else {
        int64_t *sv = xmalloc((size_t)n * sizeof *sv);
        kernel_gather_i64(&s2, dst->ndim, dst->shape, sv);
        scatter_i64(dst, sv);
        free(sv);
    }
    return PTODB_OK;
}

ptodb_status kernels_pad_copy(kernel_call *kc, const tensor *src, int nd, const int64_t *shape,
                              tensor **out)
{
    tensor *buf, *corner;
    ptodb_status st = kernels_zeros(kc, src->dtype, nd, shape, &buf);
    if (st != PTODB_OK)
        return st;
    st = kernels_head_view(kc, buf, src->ndim, src->shape, &corner);
    if (st == PTODB_OK) {
        st = kernels_assign(kc, corner, src, 0);
        tensor_unref(corner);
    }
    if (st != PTODB_OK) {
        tensor_unref(buf);
        return st;
    }
    *out = buf;
    return PTODB_OK;
}

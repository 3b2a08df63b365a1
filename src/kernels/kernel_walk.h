/* The broadcast walk shared by the copies (kernel_copy.c) and the scalar
 * fill (kernel_element.c): a tensor's elements in row-major order of a
 * shape it broadcasts to, one innermost row at a time. Private to the
 * kernel files; the rest use kernel_util.h. */
#ifndef PTODB_KERNELS_KERNEL_WALK_H
#define PTODB_KERNELS_KERNEL_WALK_H

#include "kernels/kernel_util.h"

/* Strides of t broadcast (right-aligned) to (nd, shape): 0 on broadcast dims. */
static inline void kernel_bcast_strides(const tensor *t, int nd, const int64_t *shape, int64_t *st)
{
    for (int d = 0; d < nd; d++) {
        int td = d - (nd - t->ndim);
        if (td < 0 || (t->shape[td] == 1 && shape[d] != 1))
            st[d] = 0;
        else
            st[d] = t->strides[td];
    }
}

/* Walks the broadcast iteration of t over (nd, shape) one innermost row at
 * a time: ROW runs with base_ (storage element index of the row's first
 * element), istr_ (its element stride, 0 when broadcast), inner_ (row
 * length) and k_ (row-major index of the row's first element). */
#define KERNEL_ROWS(t, nd, shape, ROW)                                               \
    do {                                                                            \
        int64_t st_[TENSOR_MAX_DIMS], idx_[TENSOR_MAX_DIMS] = {0};                  \
        kernel_bcast_strides((t), (nd), (shape), st_);                                     \
        int64_t n_ = tensor_shape_numel((nd), (shape));                             \
        if (n_ <= 0)                                                                \
            break;                                                                  \
        int64_t inner_ = (nd) > 0 ? (shape)[(nd)-1] : 1;                            \
        int64_t istr_ = (nd) > 0 ? st_[(nd)-1] : 0;                                 \
        int64_t k_ = 0;                                                             \
        for (;;) {                                                                  \
            int64_t base_ = (t)->offset;                                            \
            for (int d_ = 0; d_ < (nd)-1; d_++)                                     \
                base_ += idx_[d_] * st_[d_];                                        \
            ROW;                                                                    \
            k_ += inner_;                                                           \
            int d2_ = (nd)-2;                                                       \
            for (; d2_ >= 0; d2_--) {                                               \
                if (++idx_[d2_] < (shape)[d2_])                                     \
                    break;                                                          \
                idx_[d2_] = 0;                                                      \
            }                                                                       \
            if (d2_ < 0)                                                            \
                break;                                                              \
        }                                                                           \
    } while (0)

/* The same with BODY run per element: e_ its storage index, k_ + j_ its
 * row-major index (use KERNEL_AT for the latter). */
#define KERNEL_WALK(t, nd, shape, BODY)                                              \
    KERNEL_ROWS(t, nd, shape, {                                                     \
        for (int64_t j_ = 0; j_ < inner_; j_++) {                                   \
            size_t e_ = (size_t)(base_ + j_ * istr_);                               \
            int64_t kk_ = k_ + j_;                                                  \
            (void)kk_;                                                              \
            BODY;                                                                   \
        }                                                                           \
    })

#endif

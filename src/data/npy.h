/* NumPy .npy files: header versions 1-3, either byte order, C or Fortran
 * order. Little-endian data is used in place (one mapping, no per-element
 * work; Fortran order becomes column-major strides); big-endian data is
 * byte-swapped into a new storage.
 *
 * bfloat16 has no numpy dtype: it is recognised from the descriptors
 * '<V2' (what np.save writes for ml_dtypes.bfloat16) and 'bfloat16', or from
 * a caller's hint (a manifest's dtype) on 2-byte integer data ('<u2').
 * float8 has no numpy dtype either and its descriptor '|V1' does not say
 * which of the three it is: a hint (fp8e4m3fn, fp8e5m2, fp8e8m0) reads
 * '|V1', '|u1' or '|i1' data as those codes; '|V1' without one is an error. */
#ifndef PTODB_DATA_NPY_H
#define PTODB_DATA_NPY_H

#include "base/diag.h"
#include "tensor/tensor.h"

/* hint: DTYPE_COUNT for none; otherwise the dtype the caller expects. A hint
 * that names another 2-byte type reinterprets 2-byte data (u2/i2/V2 as bf16
 * or fp16), an FP8 hint 1-byte data (V1/u1/i1); any other disagreement is an
 * ERR_FORMAT error. */
ptodb_status npy_load(const char *path, dtype_id hint, tensor **out, diag_sink *sink);

/* Writes t (any strides) as a version 1.0 C-order little-endian .npy; bf16
 * is written with descriptor '<V2', the FP8 dtypes with '|V1'. */
ptodb_status npy_save(const char *path, const tensor *t, diag_sink *sink);

/* Raw little-endian binary: nbytes from offset must equal numel * size. */
ptodb_status raw_load(const char *path, dtype_id dt, int ndim, const int64_t *shape, uint64_t offset,
                      tensor **out, diag_sink *sink);

#endif

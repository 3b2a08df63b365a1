/* ptodb.yaml: a case's manifest, read with libyaml. Schema (all optional):
 *
 *   entry: NAME                          entry function
 *   tolerance: {rtol: R, atol: A}        global tolerances
 *   inputs:  {PARAM: SPEC, ...}          parameter name -> data
 *   outputs: {PARAM: SPEC, ...}          golden outputs
 *   SPEC = {file: PATH, dtype: DT, shape: [D, ...], offset: BYTES, rtol: R, atol: A}
 *
 * file is required; a relative path is relative to the manifest's folder.
 * .pt and .npy files carry their own dtype and shape (dtype may reinterpret
 * 2-byte .npy data as bf16); any other extension is raw little-endian
 * binary and needs dtype and shape. rtol/atol are only meaningful for
 * outputs. Unknown keys and wrong types are errors with file:line:col. */
#ifndef PTODB_DATA_MANIFEST_H
#define PTODB_DATA_MANIFEST_H

#include <stdint.h>

#include "base/diag.h"
#include "tensor/tensor.h"

typedef struct manifest_tensor {
    char *name;
    char *file;     /* resolved against the manifest folder */
    int has_dtype;
    dtype_id dtype;
    int ndim;       /* -1 when no shape was given */
    int64_t shape[TENSOR_MAX_DIMS];
    uint64_t offset;
    int has_rtol, has_atol;
    double rtol, atol;
    int line, col;  /* where the entry is, for messages */
} manifest_tensor;

typedef struct manifest {
    char *path;     /* the manifest file */
    char *dir;      /* its folder */
    char *entry;    /* NULL when absent */
    int has_rtol, has_atol;
    double rtol, atol;
    int rtol_line, atol_line;
    manifest_tensor *inputs, *outputs;
    size_t ninputs, noutputs;
} manifest;

/* Reads and checks a manifest. Every problem is reported (file:line:col);
 * returns ERR_IO when the file cannot be read, ERR_FORMAT when anything in
 * it is wrong (then *m is still freed safely with manifest_free). */
ptodb_status manifest_load(const char *path, manifest *m, diag_sink *sink);
void manifest_free(manifest *m);

/* Loads the tensor an entry describes (by extension: .pt, .npy, raw). */
ptodb_status manifest_load_tensor(const manifest *m, const manifest_tensor *mt, tensor **out,
                                  diag_sink *sink);

#endif

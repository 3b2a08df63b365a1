/* Case discovery: from a path to the passes, data and tolerances of one
 * PyPTO case (semantics.md §7, §8).
 *
 * PATH may be a passes_dump/ folder, the build folder that contains one, a
 * single dump file (NN_after_X.py), or a ptodb.yaml manifest. The build
 * folder ("root") holds data/in, data/out, golden.py and ptodb.yaml.
 *
 * Data: the manifest's inputs/outputs when it lists them, otherwise every
 * data/in/<name>.pt|.npy and data/out/<name>.pt|.npy. A case with a
 * ranks.txt beside passes_dump/ is multi-rank: its data is per rank, in
 * data/in/rank<R>/ and data/out/rank<R>/ (see case_rank_data). Tolerances, highest
 * priority first: options (--rtol/--atol), manifest (per output, then
 * global), RTOL/ATOL assignments scanned as text from golden.py (never
 * executed), PyPTO's validate defaults (5e-2, semantics.md §7.1). Each
 * tolerance remembers where it came from.
 *
 * Binding parameters to data needs the entry function's parameter list; it
 * comes from the caller (the dump parser) as plain case_param records, so
 * this module does not depend on src/ir. */
#ifndef PTODB_DATA_CASE_H
#define PTODB_DATA_CASE_H

#include "base/diag.h"
#include "data/manifest.h"
#include "data/ranks.h"
#include "tensor/tensor.h"

/* PyPTO's validate_pass_ir_codegen_results defaults (semantics.md §7.1). */
#define CASE_DEFAULT_RTOL 5e-2
#define CASE_DEFAULT_ATOL 5e-2

typedef enum { CASE_TOL_DEFAULT, CASE_TOL_GOLDEN, CASE_TOL_MANIFEST, CASE_TOL_OPTION } case_tol_source;

typedef struct case_tol {
    double value;
    case_tol_source source;
    char *where; /* "golden.py:5", "ptodb.yaml:2", "--rtol", "PyPTO validate default" */
} case_tol;

typedef struct case_pass {
    int index;  /* NN of the file name; -1 for a .py name outside the pattern */
    char *name; /* "frontend", "InlineFunctions", or the stem for odd names */
    char *stem; /* "01_after_InlineFunctions": REF's pass_name */
    char *path;
} case_pass;

typedef struct case_tensor {
    char *name;        /* data key: the parameter name */
    char *path;        /* the file it came from */
    tensor *t;         /* one reference */
    case_tol rtol, atol; /* outputs only: the tolerances that apply */
} case_tensor;

/* One rank's data of a multi-rank case: data/in/rank<R>/ and
 * data/out/rank<R>/, the slices of the host tensors that the host
 * orchestrator hands to device_ids[R] (docs/multirank.md). */
typedef struct case_rank_data {
    case_tensor *inputs, *outputs;
    size_t ninputs, noutputs;
} case_rank_data;

typedef struct case_options {
    int has_rtol, has_atol;
    double rtol, atol;
    const char *manifest; /* an explicit manifest, or NULL to look for root/ptodb.yaml */
} case_options;

typedef struct case_info {
    char *root;          /* build folder; "." style path, never NULL after case_open */
    char *dump_dir;      /* folder of the pass files */
    char *manifest_path; /* NULL when there is none */
    char *golden_path;   /* NULL when there is none */
    char *entry;         /* from the manifest, or NULL */
    case_pass *passes;
    size_t npasses;
    case_tensor *inputs, *outputs;
    size_t ninputs, noutputs;
    case_tol rtol, atol; /* global tolerances in use */
    /* A multi-rank case (root/ranks.txt exists): its ranks and domains, and
     * ranks.nranks entries of per-rank data. nranks is 0 and rank_data NULL
     * for a single-rank case, whose data stays in inputs/outputs. */
    case_ranks ranks;
    case_rank_data *rank_data;
} case_info;

/* Discovers a case. Problems go to sink: gaps in the pass numbering and
 * odd file names are warnings, duplicate indices, unreadable data and a bad
 * manifest are errors. Returns ERR_NOT_FOUND / ERR_IO / ERR_FORMAT on
 * errors, with *c filled as far as it got (free it with case_free). */
ptodb_status case_open(const char *path, const case_options *opt, case_info *c, diag_sink *sink);
void case_free(case_info *c);

const char *case_tol_source_name(case_tol_source s);

/* Where pass file path stands against the case's first pass called name
 * (case_pass.name, "MemoryReuse"): 1 at or after it, 0 before it, -1 when
 * the case has no such pass or path is not one of its files. */
int case_pass_at_or_after(const case_info *c, const char *path, const char *name);

/* "out__ssa_v3" -> "out": drops a trailing __ssa_v<digits> (REF's retry
 * rule, semantics.md §7.2). Writes into buf and returns it. */
const char *case_strip_ssa(const char *name, char *buf, size_t size);

/* ---- binding ------------------------------------------------------------ */

typedef enum { CASE_PARAM_IN, CASE_PARAM_OUT, CASE_PARAM_INOUT } case_param_dir;

typedef struct case_param {
    const char *name;  /* as in the dump, e.g. "a__ssa_v0" */
    int is_tensor;     /* 0 for a scalar parameter */
    dtype_id dtype;
    int ndim;          /* -1 when unknown */
    int64_t shape[TENSOR_MAX_DIMS]; /* -1 for a dynamic dim */
    case_param_dir dir;
} case_param;

typedef struct case_binding {
    char *key;          /* the data name that matched (ssa suffix dropped) */
    tensor *t;          /* a fresh contiguous tensor: clone of the input, or zeros */
    int zeros;          /* a pure output that starts as zeros (semantics.md §7.4) */
    const case_tensor *golden; /* the golden output of the same name, or NULL */
} case_binding;

/* Binds each parameter, in order: the input of that name (exact, then with
 * __ssa_vN dropped), else zeros shaped like the golden output of that name
 * (or like the parameter when it is an Out tensor with a static shape).
 * Otherwise an error naming the parameter and the available keys, as REF's
 * KeyError. A dtype that differs from the parameter's is a warning (REF's
 * entry assertion would fail). out has n entries; free with
 * case_bindings_free. */
ptodb_status case_bind(const case_info *c, const case_param *params, size_t n, case_binding *out,
                       diag_sink *sink);
void case_bindings_free(case_binding *b, size_t n);

#endif

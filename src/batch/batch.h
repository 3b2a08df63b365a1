/* The batch engine behind `ptodb --batch` and the debugger's `bisect`: runs
 * any set of pass files of a case as REF's validator does (exec/runpass.h),
 * in forked worker processes when asked, and keeps one result per pass.
 *
 * Pass files whose bytes are identical (most passes change nothing for a
 * given program) are run once: the interpreter is deterministic, so the
 * result is the same, and only the file path in messages differs. The
 * result of such a pass says which pass it was taken from (same_as). */
#ifndef PTODB_BATCH_BATCH_H
#define PTODB_BATCH_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "batch/metrics.h"
#include "data/case.h"
#include "exec/compare.h"
#include "exec/runpass.h"
#include "tensor/heatgrid.h"

typedef enum { BATCH_NOT_RUN, BATCH_COMPARED, BATCH_REF_FAIL, BATCH_ERROR } batch_status;

typedef struct batch_output {
    char *key;
    double rtol, atol;
    dtype_id dtype;
    int64_t shape[2];      /* the 2-D view (leading dims folded into rows) */
    exec_compare_result cmp;
    batch_metrics met;     /* when the options ask for metrics */
    char *heatmap;         /* text grid when the options ask for heat maps, else NULL */
    heatgrid *grid;        /* the same grid's numbers for a failing output (reports draw it), else NULL */
    int grid_tiled;        /* one cell per stored tile rather than per block */
} batch_output;

typedef struct batch_pass {
    batch_status status;
    int unchecked;         /* BATCH_ERROR: the file does not parse or resolve, it never ran (an
                              error of the report, not a failing pass) */
    int ok;                /* compared and every output passes */
    char *message;         /* REF_FAIL / ERROR: what and where */
    char *ref_note;        /* REF could not run the file but ptodb did */
    char *ref_differs;     /* device semantics: where REF differs (runpass_ref_differs) */
    int ref_differs_fail;  /* REF raises at one of those places */
    batch_output *outputs;
    size_t noutputs;
    uint64_t steps;
    double seconds;        /* wall time of its run (of the twin's when reused) */
    int same_as;           /* -1, or the earlier pass whose file has the same bytes */
    char *save_error;      /* save_dir: the first output that could not be written, or NULL */
    uint64_t memfaults;    /* memory faults (docs/memory.md): the verdict is MEMFAULT */
    char *memreport;       /* their first reports, one block each, or NULL */
} batch_pass;

typedef struct batch_options {
    runpass_options ro;
    int jobs;              /* worker processes; 1 runs in this process */
    int metrics;
    int heatmap;
    int heat_max_rows, heat_max_cols; /* 0: 16 x 64 */
    const char *save_dir;  /* --save-outputs: every pass's outputs as DIR/PASS.KEY.raw
                              (identical pass files are then each run) */
} batch_options;

typedef struct batch {
    const case_info *c;
    batch_options o;
    batch_pass *passes;    /* c->npasses */
    int *twin;             /* twin[i]: the first pass with the same file bytes */
    size_t ndistinct;
    size_t nruns;          /* pass files actually run so far */
    double run_seconds;    /* their summed wall time */
} batch;

/* Reads every pass file once (to find identical ones). */
void batch_init(batch *b, const case_info *c, const batch_options *o);
void batch_free(batch *b);

/* Called for each requested pass, in the order requested, as soon as its
 * result and those of every pass before it in the list are there. Return 1
 * to stop: the passes not reported are left BATCH_NOT_RUN (even those a
 * worker had already run). */
typedef int (*batch_ready_fn)(void *ud, const batch *b, size_t pass);

/* Evaluates passes idx[0..n) (already evaluated ones are reused). Returns
 * how many were reported to cb (n unless cb stopped it); cb may be NULL. */
size_t batch_eval(batch *b, const size_t *idx, size_t n, batch_ready_fn cb, void *ud);
/* All passes, in order. */
size_t batch_eval_all(batch *b, batch_ready_fn cb, void *ud);

/* The tile shape stored into output `key` in a pass file (the first
 * tile.store into a tensor of that base name whose tile has a literal 2-D
 * shape). Returns 1 and sets *rows, *cols, or 0 when unknown. */
int batch_tile_shape(const char *path, const char *key, int64_t *rows, int64_t *cols);

/* The heat grid of output `key` of the pass file at path, seen as a
 * rows x cols 2-D view, in tiles: one cell per stored tile when the tile
 * shape is known (batch_tile_shape), divides the view, gives at least two
 * tiles and at most max_rows x max_cols of them. Returns 1 with the number
 * of tiles down and across, 0 when the grid should be blocks. The one rule
 * for --heatmap, the reports and the debugger's heat maps. */
int batch_tile_grid(const char *path, const char *key, int64_t rows, int64_t cols, int max_rows, int max_cols,
                    int *grid_rows, int *grid_cols);

const char *batch_status_name(batch_status s);
/* Frees o->grid (and sets it to NULL). */
void batch_output_free_grid(batch_output *o);

#endif

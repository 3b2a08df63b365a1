/* The dataflow log of one run, for `why` (why.h): a side run of a pass file
 * that keeps, for every statement it executes, the operands the op read
 * (their views: storage, offset, shape, strides) and every element it
 * wrote with its value, so that the statement that last wrote any element
 * before any moment, and the elements it read, can be found exactly. An
 * element is named by its storage and its offset in it, so views
 * (reshape, move, slice, yield) need no record of their own: the chain
 * passes through them to the writer of the elements they show. Queues are
 * followed by the tiles in flight: a push writes the tile it puts on the
 * queue (a copy, or a lane's half of it), the pop that takes it off is a
 * hop of its own that passes the same elements on.
 *
 * Nothing is recorded during normal runs: `why` makes its own run and pays
 * for it then (one copy of every written tile; the cost is in
 * docs/why.md). A storage is named by its id (tensor_storage.id), which
 * no later storage takes, so (storage, offset) stays one element without
 * keeping the storage alive: the log holds no storage past the step that
 * met it. */
#ifndef PTODB_BATCH_WHY_LOG_H
#define PTODB_BATCH_WHY_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "data/case.h"
#include "exec/region.h"
#include "exec/runpass.h"
#include "tensor/tensor.h"

typedef struct why_view {
    uint64_t sid;       /* the storage's id (tensor_storage.id: never reused, so it names one storage
                           after the storage is gone) */
    dtype_id dtype;
    int ndim;
    int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS], offset;
    int valid_ndim;           /* the tensor's valid shape (-1 none) */
    int64_t valid[TENSOR_MAX_DIMS];
} why_view;

typedef enum {
    WHY_W_INITIAL = 1, /* a case tensor's data at the start of the run */
    WHY_W_RESULT,      /* an op's result in a fresh storage */
    WHY_W_INPLACE,     /* an op wrote an operand in place (a store's box, an accumulator) */
    WHY_W_QUEUE,       /* a push put a copy (or a lane's half) of operand 0 on a queue */
    WHY_W_POP          /* a pop took a tile in flight off its queue: the same elements */
} why_write_kind;

typedef struct why_write {
    why_write_kind kind;
    int clipped;      /* a store's box cut to its tile's valid shape (the rest is not written) */
    why_view v;       /* the elements written */
    unsigned char *vals; /* their values after the write, in v's dtype, row-major over v's shape
                            (WHY_W_INITIAL: none, see pristine) */
    int64_t src_off[TENSOR_MAX_DIMS]; /* WHY_W_QUEUE: v's element 0 in operand 0 */
    const char *name; /* WHY_W_INITIAL: the case tensor's name (at most 63 bytes), else "" (the log's own) */
    const tensor *pristine; /* WHY_W_INITIAL: the start's values (the case's tensor), NULL: zeros */
    int own_pristine;
    /* WHY_W_INITIAL of an output: its value at the end of the run (one
     * reference), its golden (borrowed from the case) and tolerances */
    tensor *final;
    const tensor *golden;
    double rtol, atol;
} why_write;

typedef struct why_rec {
    /* (the fields are paired by size: no padding, 152 bytes a record) */
    uint64_t step;            /* machine_steps() after the statement (the @STEP of the moment after it) */
    int core, line;
    const void *stmt;         /* the ir_stmt (valid while the log lives) */
    /* the strings below are the log's own, one copy of each distinct one
     * (shared by the records: a run has few), cut as these buffers were */
    const char *func;
    const char *args;         /* its scalar arguments ("b0=0, o0=64"), at most 95 bytes */
    uint32_t call;            /* the function's call on that core, from 1 */
    uint32_t arrival;         /* the core's arrival at the statement in that call (the position's ITER) */
    uint64_t after;           /* the steps from that arrival to the statement's run (the position's +D) */
    const char *op;           /* the op's short name ("add", "load", "tpop_from_aic"), "" none; at most 47 */
    const char *target;       /* the first target's name, or the op's destination; at most 95 */
    /* the loops around the statement, outermost first: their header lines
     * and the loop variables' values there */
    int nloops;               /* at most 8; the arrays below hold nloops each (the log's own) */
    int if_line;              /* the innermost if around the statement (0 none) */
    int *loop_line;
    int64_t *loop_val;
    const char **loop_var;    /* at most 47 bytes each */
    int if_branch;            /* 1 its then branch, 0 its else */
    int nin;
    why_view *in;             /* tensor operands in order (positional, then keyword) */
    char (*in_name)[48];      /* their names in the statement ("" unknown) */
    int has_region;
    int nw;
    const exec_region *reg;   /* a load's or store's GM box (the log's own); an empty region, never
                                 NULL, when it has none (the box held by pointer: most records have none) */
    why_write *w;
} why_rec;

typedef struct why_log {
    why_rec *recs;     /* cap of them, grown by xpages_grow (base/mem.h) */
    size_t n, cap;
    size_t bytes;      /* values copied */
    int truncated;     /* the memory cap was reached: the log stops there */
    char *error;       /* the run failed (its message), or NULL */
    char *path;
    int pass_index;    /* the pass's NN (positions), set by the caller */
    char *source;      /* the pass file's text (for statement text) */
    size_t source_len;
    const char **lines; /* line starts, 1-based */
    int nlines;
    int has_capture;   /* the captured variable's view at the end */
    why_view capture;
    /* internal */
    void *priv;
} why_log;

/* Runs pass path against case c (scheduler order, as `run` does) up to
 * lo->until statements, recording the log. The memory model is off in this run (the
 * values are the reference's placement-free ones). out->error says why a
 * run could not be made or failed; the log holds what ran before. */
typedef struct why_log_opts {
    uint64_t until;       /* statements to run (0: to the end) */
    size_t max_bytes;     /* cap on the copied values (0: 1 GiB) */
    const char *capture;  /* a variable to capture at the end (frame 0 of capture_core), or NULL */
    int capture_core;
    /* a log (of another pass of the case) whose value buffers this one
     * shares where the values are bit for bit the same (most of them: the
     * same tiles of the same weights); NULL none. Either may be freed
     * first. */
    const struct why_log *share;
} why_log_opts;
void why_log_run(const char *path, const case_info *c, const runpass_options *o, const why_log_opts *lo,
                 why_log *out);
/* why_log_run's log made by a trace's run of the same pass (trace.h
 * trace_pass_observed with obs, which this fills), so that the pass runs
 * once for the two: lo asks for no moment and no capture (until 0, capture
 * NULL); ro is the trace's options, which must be as why_log_run's but for
 * the memory model and provenance (reuse_dead off). After the run,
 * why_log_observed returns 1 when the log is the one why_log_run makes:
 * the run started and ran to its end, the cap not reached, and under the
 * memory model no fault and no failed step (without a fault the model's
 * values are the reference's, docs/memory.md); else it frees the log and
 * returns 0 (the caller runs why_log_run). */
struct trace_observer;
void why_log_observe(const char *path, const case_info *c, const runpass_options *ro, const why_log_opts *lo,
                     why_log *out, struct trace_observer *obs);
int why_log_observed(why_log *l);
/* 1 when logs a and b (of one pass, from two runs) record the same: every
 * record's statement, position, strings, loops, operands and writes with
 * their values, bit for bit; storages need only correspond one to one (the
 * ids differ between runs). Else 0, and why says where (may be NULL).
 * tests/unit/check_why_observed's oracle. */
int why_log_same(const why_log *a, const why_log *b, strbuf *why);
void why_log_free(why_log *l);

/* The write of a record before rec index `before` (exclusive) whose
 * elements hold storage offset `off` of storage sid: its record index and write
 * index, and the element's index in it. -1 when none. */
long why_log_writer(const why_log *l, size_t before, uint64_t sid, int64_t off, int *wi,
                    int64_t *idx);
/* The value of element idx (of w->v) that write w left. */
double why_write_value(const why_write *w, const int64_t *idx);
/* The value of element (sid, off) just before record `before` runs; 0 with
 * *v set, -1 when nothing wrote it. */
int why_log_value(const why_log *l, size_t before, uint64_t sid, int64_t off, double *v);
/* The storage offset of index idx of view v. */
int64_t why_view_offset(const why_view *v, const int64_t *idx);
/* The statement's text, trimmed ("" when unknown). */
void why_log_line_text(const why_log *l, int line, char *buf, size_t size);
/* The case tensor (an entry parameter bound at the start) named name: its
 * WHY_W_INITIAL write, or NULL. */
const why_write *why_log_case_tensor(const why_log *l, const char *name);

#endif

/* Statement traces for first-divergence bisection: run one pass file on the
 * machine, statement by statement, and keep a private copy of every tensor
 * (and scalar) each statement bound, keyed so that the same program point
 * can be found in another pass (as the debugger's `pass N` does,
 * src/debug/run/point.c):
 *   key   = the targets' SSA base names + the op's short name
 *           ("t__tile_6 = pl.tile.neg(...)" -> "t|neg"; an expression
 *           statement writing in place -> "store(out)"),
 *   nth   = how many earlier executions had that key (statement occurrence
 *           and loop arrival in one count, in execution order).
 * Counts are kept per lane: AIV1 (the second vector lane) separately from
 * the rest, because in dual dispatch it replays AIV0's work (and in split
 * mode its tiles have other shapes anyway); a lane-1 record is matched with
 * lane 1 of the other pass, else with lane 0 (the single-core pass before
 * ExpandMixedKernel has no lane 1).
 * On a multi-rank case (docs/multirank.md) every rank's machine is traced
 * under the pass's global schedule (ranks/sched.h), the ranks' statements
 * in the order it runs them; each record carries its rank, and every count
 * and lookup below is per rank: rank R's statements are matched with rank
 * R's of the other pass only.
 * Control flow is recorded too, as 0-d values: a `for` loop's trip count
 * when it exits (key "loop|VAR"), an `if`'s branch, 1 then 0 else (key
 * "if|NAMES", the SSA base names in its condition); bisect compares them
 * exactly. A counted loop's tile carries are recorded as each iteration
 * hands them to the next (key "BASE|yield_carry", one per iteration: the
 * count is the iteration), at the statement that made the yielded value
 * (carry_from), so that a pass whose branch yields another value is found
 * there even against a pass with a `continue` and no if-yield.
 * When a pass changed the op (the bug being looked for, often), the key
 * finds nothing; the full SSA name and its own count are the fallback. The
 * base names alone are not: temporaries ("t__tile_3", "t__tmp_v6") share
 * them, and passes that add statements would pair unrelated ones. */
#ifndef PTODB_BATCH_TRACE_H
#define PTODB_BATCH_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "data/case.h"
#include "exec/region.h"
#include "exec/runpass.h"

typedef struct trace_rec {
    /* the strings are the trace's (its pool: one copy of each) */
    const char *key, *base;
    uint32_t nth_key, nth_name, nth_base;
    const char *name; /* the name in the dump ("t__tile_6") */
    const char *func;
    int line;
    int core;
    int lane;        /* 1 on AIV1, else 0 */
    int rank;        /* the rank whose machine ran it (0 in a single-rank case) */
    int64_t block, blocks; /* the SPMD block that computed it, of how many (0 of 1 outside a launch) */
    tensor *t;       /* private copy (contiguous) */
    /* a tile.load's tile or a tile.store's result: the GM region it read or
     * wrote (exec/region.h) and how many times before the core, in that
     * function, touched exactly that region (0-based) */
    int has_region;
    const exec_region *reg; /* the trace's own (held by pointer: most records have none); an empty
                               region, never NULL, in a record the trace made without one */
    uint32_t nth_region;
    /* what the value is (exec/prov.h): its provenance hash (0: untracked),
     * the how-manieth value of it computed on core prov_core (a popped
     * tile's is the pushing core) */
    uint64_t prov;
    uint32_t prov_k;
    int prov_core;
    /* a loop carry's record (key "BASE|yield_carry", one per iteration):
     * the value the loop's yield handed over, made at line (NULL: the
     * yield did not run, the carry stays) */
    const char *carry_from;
    /* a store's record in a trace with boxed stores (trace_pass_boxed):
     * when the GM tensor after the store is the one after its previous
     * store with this store's box written, t is NULL until
     * trace_rec_value makes it, box holds the box's values (reg, in the
     * whole's coordinates) and hdr the whole's shape and attributes (no
     * storage); gm and gm_seq: its tensor's history and its place there */
    tensor *box, *hdr;
    uint32_t gm, gm_seq;
} trace_rec;

struct trace_list;
struct trace_gm;

typedef struct trace {
    trace_rec *recs; /* cap of them, grown by xpages_grow (base/mem.h) */
    size_t n, cap;
    size_t bytes;    /* held by the copies */
    int truncated;   /* stopped recording at the memory cap */
    char *error;     /* the run failed: machine_error's text, or a setup error */
    int error_line;  /* the statement that failed (0: not known, or setup) */
    int error_core;
    int error_rank;  /* (a multi-rank case) the rank whose statement failed */
    char *error_func;
    int nranks;      /* the case's ranks; 0: a single-rank case */
    uint64_t steps;
    /* a single-rank run that ran to its end as machine_run runs it (every
     * step to the done event, or to a failed step): the memory
     * sanitizer's faults and first reports, as a plain run gives them */
    int ran_whole;
    uint64_t memfaults;
    char *memreport;
    /* internal: the records' strings, occurrence counts while recording,
     * then the lookup index (records by lane + key, lane + name, lane +
     * base, in execution order) */
    str_pool strs;
    arena mem;         /* the records' regions, the index's side arrays */
    struct trace_count *counts;
    size_t ncounts, capcounts;
    struct trace_list *lists;
    size_t caplists, nlists;
    /* boxed stores: each GM tensor's stores in order (trace_rec.gm) */
    struct trace_gm *gms;
    size_t ngms, capgms;
} trace;

/* Called for each record as it is made; return 1 to stop the run. When a
 * callback is given, records are not kept (the callback owns nothing: the
 * record and its strings live for the call only). */
typedef int (*trace_fn)(void *ud, const trace_rec *r);

/* Runs path against case c. max_bytes caps the kept copies (0: 1 GiB). */
void trace_pass(const char *path, const case_info *c, const runpass_options *o, size_t max_bytes, trace_fn fn,
                void *ud, trace *out);
/* trace_pass that also records a call statement's targets when its callee
 * returns (x = self.kernel(...): the value the caller receives), after the
 * callee's own records. Bisect's finder does not use it: a call's result
 * differs only after a statement inside the callee already did. */
void trace_pass_with_calls(const char *path, const case_info *c, const runpass_options *o, size_t max_bytes,
                           trace *out);
/* trace_pass keeping a store's record as the box it stored (trace_rec.box)
 * wherever the rest of its GM tensor is as the previous store of it left
 * it: a store's record otherwise holds the whole GM tensor (the large
 * case's pass 21: 264 MB of 467), and a value bit for bit an earlier
 * record's (a tile.move's, a carry's) over that record's storage. Bisect's
 * finder reads the values through trace_rec_value and trace_rec_header,
 * and sees the same tensors. */
void trace_pass_boxed(const char *path, const case_info *c, const runpass_options *o, size_t max_bytes,
                      trace *out);
/* A second recorder fed by a trace's own run (why's dataflow log,
 * why_log.h why_log_observe): the same machine, stepped once for both, so
 * that a pass is run once for the two. open: the run has started (the
 * machine is run->m); write: the machine's write hook, beside the trace's;
 * before and after: around each machine_step (after: every step's status
 * and event, the done event and a failed step too); close: the run is over,
 * before runpass_close. open_failed: the run could not start. The run goes
 * on after the trace stops recording (its callback's stop) for as long as
 * the machine runs; the trace's own fields (ran_whole, steps, the memory
 * faults) are those of the moment it stopped, as without an observer. A
 * single-rank pass only: a multi-rank one calls none of them. share (may
 * be NULL): a storage over the observer's own copy of the n bytes at p
 * (hash h, base/content_set.h content_hash), or NULL when it has none: a
 * boxed trace keeps that instead of a copy of its own (the log and the
 * trace hold the same values: one copy of each). */
typedef struct trace_observer {
    void *ud;
    void (*open)(void *ud, runpass_run *run);
    void (*open_failed)(void *ud);
    void (*write)(void *ud, int core, const tensor *t);
    void (*before)(void *ud, machine *m);
    void (*after)(void *ud, machine *m, ptodb_status st, const exec_event *ev);
    void (*close)(void *ud, runpass_run *run);
    tensor_storage *(*share)(void *ud, uint64_t h, const void *p, size_t n);
} trace_observer;
/* trace_pass (boxed: trace_pass_boxed) with an observer (may be NULL). */
void trace_pass_observed(const char *path, const case_info *c, const runpass_options *o, size_t max_bytes,
                         trace_fn fn, void *ud, int boxed, const trace_observer *obs, trace *out);
void trace_free(trace *t);

/* A record's value (r->t), made from its GM tensor's history for a boxed
 * store (kept in r->t after, owned by the trace). */
const tensor *trace_rec_value(const trace *tr, const trace_rec *r);
/* A record's shape and attributes: r->t, else a boxed store's hdr. */
const tensor *trace_rec_header(const trace_rec *r);

/* 1 for a control-flow record (a loop's trip count, an if's branch): a
 * value compared exactly, never within a tolerance. */
int trace_rec_is_control(const trace_rec *r);
/* 1 for an if's branch record (its value: 1 then, 0 else). */
int trace_rec_is_if(const trace_rec *r);
/* 1 for a yield's record (the value a branch or loop body hands its phi or
 * carry): matched by occurrence, never by provenance, since the yield of an
 * unchanged carry has the provenance of every earlier one. */
int trace_rec_is_yield(const trace_rec *r);

/* Builds the lookup index of a finished trace (trace_candidates needs it). */
void trace_index(trace *t);

typedef enum { TRACE_BY_KEY, TRACE_BY_NAME, TRACE_BY_BASE } trace_match_kind;

/* The records of a that correspond to r: those with its key (its lane,
 * else lane 0), else its full name, else the record of its base name with
 * the same occurrence count when both ops are of one class (add/sub/mul,
 * neg/exp/recip, ...: a flipped op). primary is the one with the same occurrence count
 * (or NULL); all[0..n) are every candidate, for when the occurrences do not
 * line up (lanes splitting a loop between them). Returns 0 when none. */
typedef struct trace_cands {
    const trace_rec *primary;
    const size_t *all;  /* indices into a->recs */
    size_t n;
    trace_match_kind how;
} trace_cands;
int trace_candidates(const trace *a, const trace_rec *r, trace_cands *out);

/* The record of a holding r's region (a load's or a store's), for the
 * same occurrence, in the same function or one split or outlined from it:
 * a core of r's kind first (r's own lane), then another kind of core (the
 * host before a split), then the other lane (r's lane holds nothing there).
 * NULL when a has none: the statement keys are the fallback. */
const trace_rec *trace_region_match(const trace *a, const trace_rec *r);
/* The record of a holding the value with r's provenance (the same data
 * computed by the same ops from the same GM regions, exec/prov.h), the
 * same occurrence on the same core or on a core of another kind (the host
 * before ExpandMixedKernel), never the other lane. NULL when a has none. */
const trace_rec *trace_prov_match(const trace *a, const trace_rec *r);
/* The elements of rec's tensor that hold region g (g within rec's region):
 * a new tensor, or NULL. */
tensor *trace_region_data(const trace_rec *rec, const exec_region *g);

/* The kind of a record's op for flipped-op matching: one class for binary
 * arithmetic (add, sub, mul, div, max, min), one for their scalar forms,
 * unary math, reductions, row/column broadcasts; -1 for any other op. */
int trace_op_class(const char *key);

/* The statement of a whose target has r's base name, when that base comes
 * from one statement there and its op differs from r's: the op was
 * changed. NULL otherwise. */
const trace_rec *trace_op_changed(const trace *a, const trace_rec *r);

#endif

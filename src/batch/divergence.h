/* The search under the divergence engine (diverge.h, which commands call):
 * the first statement whose value differs between two pass files: the
 * passing ("good") one and the failing ("bad") one, each run against its own
 * case (bisect: two passes of one case; --compare: the same pass of two
 * builds). Both are run with a statement trace (trace.h); the first
 * statement of the failing file, in execution order, whose tensor differs
 * (beyond rtol/atol) from the tensor at the same program point of the
 * passing file is reported with its file, line and tensor name, and how the
 * point was matched (docs/program-points.md): by GM region, by provenance,
 * or, from the statement keys alone, a guess. On a multi-rank case every
 * rank is traced and matched with the same rank of the other pass
 * (trace.h); the statement is reported with its rank. */
#ifndef PTODB_BATCH_DIVERGENCE_H
#define PTODB_BATCH_DIVERGENCE_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "data/case.h"
#include "exec/runpass.h"

enum { BISECT_MAX_LATER = 3 };
/* new `if` statements (no counterpart in the passing pass) whose decisions
 * are tested by inverting them, the latest before the divergence first */
enum { BISECT_MAX_NEW_IFS = 3 };

typedef struct bisect_stmt {
    int found;             /* a differing tensor was found (or, op_changed, a changed op) */
    int op_changed;        /* no value differed; the statement's op differs from the passing pass's */
    char *file, *func, *tensor;
    int line, core;
    int rank;              /* the rank that ran it; -1: a single-rank case */
    int64_t block, blocks; /* the SPMD block of the differing value, of how many (0 of 1: no launch) */
    char *good_file, *good_func, *good_tensor;
    int good_line;
    char *region;          /* matched by this GM region ("c[16:32, 0:64]"), else NULL */
    int by_provenance;     /* matched by provenance: the same data by the same ops (exec/prov.h) */
    size_t provenance;     /* of the tensors compared, those matched by provenance */
    double max_abs_diff;
    double max_golden;     /* the largest |value| of the passing pass's tensor */
    int64_t outside, count, first_bad;
    double actual_at, good_at;  /* values at first_bad */
    size_t compared;       /* matched tensors compared (all within tolerance before this one) */
    size_t realigned;      /* of those, matched by another occurrence than the same-numbered one */
    size_t unmatched;      /* records of the failing pass with no counterpart */
    char *note;            /* why nothing was found, or the failing pass's error */
    /* the next differing statements (other lines), in execution order */
    int later_line[BISECT_MAX_LATER];
    char *later_tensor[BISECT_MAX_LATER];
    size_t nlater;
    char *op_now, *op_was;  /* the statement's op changed (within its kind): "sub", "add" */
    int earlier_line;       /* with op_now: a statement that differs before it, or 0 */
    char *earlier_tensor;
    /* found: the statement fails in the failing pass (note holds its error)
     * while the passing pass ran to its end; tensor is "" */
    int fails;
    /* found by a test, not by a match: the statement is an `if` with no
     * counterpart in the passing pass (the pass added it) that ran before
     * the first differing value, and the failing pass run again with its
     * condition inverted (the other branch at each of its new_if_runs
     * runs, new_if_then of which took the then branch) passes. tensor is
     * its branch record's name, the good_* fields are NULL; the first
     * differing value, if any, heads the later list. */
    int new_if;
    uint64_t new_if_runs, new_if_then;
    /* the first statement whose result differs from its counterpart at all
     * (bit for bit), when that is before the divergence (within tolerance) */
    int bit_line, bit_core, bit_rank;
    char *bit_tensor;
    int64_t bit_count, bit_numel;
    double bit_max;
    /* named through the dataflow chain (why.h why_refine_divergence): the
     * statement where the passes part is not the first differing value
     * (a consumer of a load's or push's elements, a statement in a loop
     * that runs otherwise); line/tensor/func/core name it, and these the
     * first differing value in execution order */
    char *chain_why;
    int consumer_line;
    char *consumer_tensor;
    /* the ops of the statement and of its counterpart ("store", "sub";
     * NULL: not known), and whether its value has a NaN or an Inf where
     * the counterpart has none: what the engine (diverge.h) classifies by */
    char *stmt_op, *good_stmt_op;
    int nan_new;
    /* the engine's answer (diverge.h): the reason (diverge_reason), a
     * sentence in its words, and for a deadlock the cores that wait */
    int reason;
    char *reason_why;
    char *waiting;
    char *memreport;       /* memfault: the sanitizer's first report */
    /* the bad pass's traced run, when it ran to its end as a plain run
     * does (trace.ran_whole): its memory faults and first reports, which
     * spare the engine a plain run of its own */
    int bad_run_whole;
    uint64_t bad_memfaults;
    char *bad_memreport;
} bisect_stmt;

typedef struct divergence_side {
    const char *path;       /* the pass file */
    const char *stem;       /* its name in reports ("30_after_CanonicalizeIOOrder") */
    const case_info *c;     /* the case it runs against */
} divergence_side;

/* Fills s (cleared first) with the first statement of bad whose value
 * differs from its counterpart in good. max_trace_bytes caps good's trace
 * (0: 1 GiB). */
void divergence_find(const divergence_side *good, const divergence_side *bad, const runpass_options *ro,
                     double rtol, double atol, size_t max_trace_bytes, bisect_stmt *s);
/* divergence_find whose two traced runs also make `why`'s dataflow logs of
 * the two passes (why_log.h why_log_observe: the same runs feed both), as
 * why_log_run makes them to their ends, nothing captured, bad's sharing
 * good's values. Both are left zeroed when either is not that log (a
 * multi-rank case, reuse_dead, a fault under the memory model: the caller
 * runs its own); the caller frees them (why_log_free). */
struct why_log;
void divergence_find_logged(const divergence_side *good, const divergence_side *bad, const runpass_options *ro,
                            double rtol, double atol, size_t max_trace_bytes, bisect_stmt *s, struct why_log *log_good,
                            struct why_log *log_bad);
void divergence_stmt_free(bisect_stmt *s);

/* Where a statement ran, as the debugger's stops name it: "rank 1, aiv0"
 * (rank >= 0), else "core aiv0". */
const char *divergence_where(int rank, int core, char *buf, size_t size);


/* The line of a GM race line's place at p, "PASS:LINE:COL" or "LINE:COL"
 * (exec/gmrace.h exec_gmrace_describe), or 0. */
long divergence_race_line(const char *p);

#endif

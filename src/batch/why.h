/* `why T[i, j]`: the dataflow chain back from one element (docs/why.md).
 * Each hop is one statement execution that wrote the element the chain is
 * at: its position, statement, core, lane, call, loop iteration, op and the
 * elements it read with their values; the chain goes on from one of them
 * (the only one, the one a reduction's result depends on most, or, against
 * a passing pass, the one whose value differs most). The element mapping
 * of each op is exact (element-wise with broadcasting, row/column
 * reductions and expansions, matmul, load, store, push and pop); an op
 * whose mapping is not modelled ends the chain, and says so.
 *
 * Differential: the same element's chain in another pass (the last
 * passing one) is walked in lockstep, hop by hop (the same output element,
 * then at each hop the same operand and element of the op), and the first
 * hop where the two part is marked: an op that differs, a loop that ran to
 * another iteration, a load that reads other elements of the same tensor,
 * operands in another order, or a value that differs beyond the tolerance
 * while every input it read agrees. The chain logic is here, below the
 * debugger: its commands call it, it calls nothing of theirs. */
#ifndef PTODB_BATCH_WHY_H
#define PTODB_BATCH_WHY_H

#include <stddef.h>
#include <stdint.h>

#include "base/strbuf.h"
#include "batch/why_log.h"

enum { WHY_MAX_INPUTS = 6 };

typedef struct why_input {
    int operand;                 /* the op's tensor operand (0-based) */
    char what[96];               /* "o_acc__iter_v1[3, 5]", "hidden_states[0, 64]" */
    double value;
    int known;                   /* value known */
    /* a case tensor's element (a leaf of the chain) */
    int leaf;
    char leaf_name[64];
    int64_t leaf_idx[TENSOR_MAX_DIMS];
    int leaf_ndim;
} why_input;

typedef struct why_hop {
    long rec;                    /* record index in its log, -1 none */
    uint64_t step;
    int core, line;
    uint32_t call, arrival;
    char position[96];           /* PASS:CORE:CALL:LINE:ITER (docs/time-travel.md) */
    char func[96], op[48], target[96], text[256], iter[160], args[96];
    double value;                /* the element's value after the statement */
    int ndim;
    int64_t idx[TENSOR_MAX_DIMS];/* the element's index in what the statement wrote */
    char region[160];            /* a load's or store's GM box, "" none */
    /* the inputs read for this element: all of them when few, else a
     * reduction's count, the extreme ones and the one followed */
    int nin;
    why_input in[WHY_MAX_INPUTS];
    int64_t reduce_n;            /* a reduction's input count (0: none) */
    double reduce_min, reduce_max;
    int followed;                /* index into in[] of the input the chain goes on from, -1 none */
    char note[256];              /* "the chain stops here: ..." and the like */
    /* differential */
    int matched;                 /* aligned with a hop of the other pass */
    char how[400];               /* how it was matched */
    double other_value;
    int other_line;
    char other_text[256], other_iter[160], other_region[160], other_func[96], other_args[96];
    uint32_t other_call;
    int differs;                 /* the values differ beyond the tolerance (or at all, ulp) */
    char follow_a[48], follow_b[48]; /* the followed operand's SSA base name, here and there */
    int first;                   /* the first differing hop */
    char first_why[1024];
} why_hop;

typedef struct why_chain {
    char tensor[96];
    int ndim;
    int64_t idx[TENSOR_MAX_DIMS];
    why_hop *hops;
    size_t n;
    int other_pass;              /* differential against this pass index, -1 none */
    char other_stem[128];
    char stem[128];
    int first;                   /* index of the first differing hop, -1 none */
    char *why_not;               /* the element was never written: what excluded it */
    char *error;
    int found_by_control;        /* first is a loop header (a loop that ran otherwise) */
    int blame_line;              /* the line named as where the passes part (0 none) */
    char blame_text[256];
    /* the divergence engine's answer (diverge.h), when the chain is aligned
     * with another pass: it is what blame_line then names (the chain's own
     * is chain_blame_line), with its reason word and sentence, and its
     * "first divergence" lines, as bisect and compare print them */
    int chain_blame_line;
    char reason[24];
    char *reason_why;
    char *divergence;
} why_chain;

typedef struct why_options {
    int depth;                   /* hops at most (0: 32) */
    double rtol, atol;           /* the tolerance for "differs" */
    int ulp;                     /* differ bit for bit */
    const char *stem, *other_stem; /* the passes' names, for the text */
    int pass_index;              /* the pass's NN, for positions */
    int other_pass;              /* the other pass's index (-1 none) */
} why_options;

/* One `why` question about a case: the log of pass `pass` (to `until`
 * statements, capturing `capture` on `capture_core` when given), aligned
 * with pass `other` (-1 none; WHY_LAST_PASSING: the last pass before it
 * whose outputs pass, found by running them), for element idx of name
 * (ndim -1: the element of that output farthest from its golden, said
 * so). Text or JSON Lines into out; 0, or -1 with the reason in out. */
enum { WHY_LAST_PASSING = -2 };
typedef struct why_request {
    const case_info *c;
    const runpass_options *ro;
    int pass, other;
    const char *name;
    int64_t idx[TENSOR_MAX_DIMS];
    int ndim;
    uint64_t until;
    const char *capture;
    int capture_core;
    why_options wo;
    int json;
} why_request;
int why_case(const why_request *q, strbuf *out);

/* The divergence engine's (diverge.h) step through the dataflow chain: given the first
 * differing statement in execution order (div_line of pass bad, its
 * counterpart good_line in pass good), 1 when another statement is where
 * the two passes part, with out filled:
 *  - the chain of the failing output's worst element passes through
 *    div_line and its first differing hop is another statement (a load,
 *    a push: div_line only consumes what it made);
 *  - div_line ran at other iterations of its innermost loop than its
 *    counterpart did (a changed step or bound): the loop header.
 * 0 when the divergence stands as it is. */
typedef struct why_blame {
    int line, core;
    char func[96], tensor[96];
    char why[1400];
    int by_loop;
    int by_order; /* the line read what another core's later store writes (a race) */
} why_blame;
/* A pass file run against its case: bisect's two passes of one case,
 * --compare's same pass of two builds. pass: its index (positions), -1. */
typedef struct why_refine_side {
    const char *path, *stem;
    const case_info *c;
    int pass;
} why_refine_side;
/* keep_bad, keep_good (may be NULL): the two logs it ran (to their ends,
 * nothing captured) are moved there for the caller, who frees them; a
 * caller that asks the same question of the same passes (`why`) need not
 * run them again. Left zeroed when none was run. When both hold such logs
 * already (made by the search's runs, divergence_find_logged), it runs
 * none and uses those. */
int why_refine_divergence(const why_refine_side *bad, const why_refine_side *good, const runpass_options *ro,
                          int div_line, int good_line, why_blame *out, why_log *keep_bad, why_log *keep_good);

/* The element at idx of tensor name at the end of log l: the variable the
 * log captured (why_log_opts.capture) when it has one, else the case tensor
 * of that name (an input or output of the run). other (may be NULL): the
 * log of the pass to align with (its capture, else its case tensor). */
void why_chain_build(const why_log *l, const why_log *other, const char *name, const int64_t *idx, int ndim,
                     const why_options *o, why_chain *out);
void why_chain_free(why_chain *c);

/* The element of actual farthest from golden (by |a - g| over atol + rtol
 * |g|): its index. 0, or -1 when shapes differ or the tensor is empty. */
int why_worst_element(const tensor *actual, const tensor *golden, double rtol, double atol, int64_t *idx);

void why_chain_text(const why_chain *c, strbuf *out);
/* JSON Lines: one object per hop, then one summary object (docs/why.md). */
void why_chain_jsonl(const why_chain *c, strbuf *out);

#endif

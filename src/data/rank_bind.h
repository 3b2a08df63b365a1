/* Binding the host orchestrator's parameters of a multi-rank case to its
 * per-rank data (docs/multirank.md, "Case layout").
 *
 * data/in/rank<R>/<param>.pt is host tensor <param> indexed at R along its
 * rank axis, the slice the host orchestrator hands to device R; the full
 * host tensor is torch.stack([rank0, ..., rank{P-1}], dim=axis) (the
 * fixtures' README.md). The rank axis is the first axis of the parameter's
 * declared shape that has extent P and whose removal leaves the slice's
 * shape, else the first pl.dynamic axis whose removal does; 0 when none. */
#ifndef PTODB_DATA_RANK_BIND_H
#define PTODB_DATA_RANK_BIND_H

#include "data/case.h"

typedef struct case_rank_binding {
    char *key;  /* the data name that matched (__ssa_vN dropped); NULL for a scalar */
    tensor *t;  /* the full host tensor (a fresh contiguous tensor), or NULL */
    int axis;   /* the rank axis of t */
    int zeros;  /* a pure output: it starts as zeros */
    const case_tensor *golden[CASE_MAX_RANKS]; /* rank r's golden slice, or NULL (unchecked) */
} case_rank_binding;

/* Binds each host parameter, in order. A tensor parameter binds to the
 * input slices of that name (every rank must have one, all of one dtype and
 * shape), else to zeros shaped like the parameter (or like the golden
 * slices stacked, when its shape is not static). A scalar is left unbound.
 * Otherwise an error naming the parameter and the ranks' keys. out has n
 * entries; free with case_rank_bindings_free. */
ptodb_status case_bind_ranks(const case_info *c, const case_param *params, size_t n, case_rank_binding *out,
                             diag_sink *sink);
void case_rank_bindings_free(case_rank_binding *b, size_t n);

/* Rank r's slice of a bound host tensor (a view sharing its storage). */
tensor *case_rank_slice(const case_rank_binding *b, int r, ptodb_status *st);

#endif

/* Cross-core queues (semantics.md §6.3): unbounded FIFOs of tensors, one
 * set per group run, plus the lane exchange of split_aiv kernels
 * (tile.aic_gather). */
#ifndef PTODB_EXEC_XCORE_H
#define PTODB_EXEC_XCORE_H

#include <stdint.h>

#include "base/strbuf.h"
#include "exec/gmrace.h"
#include "exec/value.h"

typedef struct xqueue {
    value *items;
    gmrace_clock *stamps; /* per item, its pusher's clock (the GM race check) */
    uint32_t head, n, cap;
    uint8_t to_aiv; /* direction: 1 C->V, 0 V->C (gather: lane exchange) */
    int8_t split;   /* -1: no split; 0 dual no-split; 1..4 */
    int8_t lane;    /* -1: single queue */
    uint8_t pipe;   /* the frontend pipe id (the ops' id=): 0 unless device semantics */
    uint8_t touched;
    uint32_t limit; /* 0: unbounded (REF); else pushes block at this depth */
    const char *name;
} xqueue;

/* The pipes a kernel pair can open: tpush/tpop/tfree and initialize_pipe
 * take id= (pypto src/ir/op/tile_ops/cross_core.cpp:455-495), one TPipe
 * FIFO per id (pto-isa docs/isa/TPUSH.md: TPipe<FlagID, ...>). REF has one
 * FIFO set and ignores id; under device semantics each id is its own. */
#define XRT_NPIPES 4

/* One pipe's queues. */
typedef struct xpipe {
    xqueue to_aiv, to_aic;
    xqueue to_aiv_dual[2], to_aic_dual[2];
    xqueue to_aiv_split[5][2], to_aic_split[5][2]; /* [1..4] */
} xpipe;

typedef struct xrt {
    int dual_nosplit;
    xpipe p[XRT_NPIPES];                           /* [id]; [0] is REF's */
    xqueue gather[2][2];                           /* [from lane][to lane] */
    uint32_t gather_posted[2], gather_taken[2];
    /* recorded state of the no-op pipe ops (REF ignores them) */
    struct {
        int set;
        int dir_mask, slot_size, slot_num;
    } pipe[3];                   /* [0] AIC, [1] AIV lane 0, [2] AIV lane 1 */
    uint32_t tfree_to_aic[2];    /* per AIV lane */
    uint32_t tfree_to_aiv;       /* from AIC */
} xrt;

void xrt_init(xrt *rt);
/* Drops every queued item (a group call's reset, §6.2 step 3). */
void xrt_reset(xrt *rt);
/* Bounds the C<->V queues (not the split_aiv lane exchange) to depth n (0 = unbounded). */
void xrt_set_limit(xrt *rt, uint32_t n);
void xrt_free(xrt *rt);
/* Items queued in all of rt's queues. */
uint32_t xrt_queued(xrt *rt);
/* dst takes src's state (pipe setups, counters, each queue's bound and
 * name) while each of its queues keeps its own items. */
void xrt_take_state(xrt *dst, const xrt *src);

void xq_push(xqueue *q, value v); /* takes ownership */
value xq_pop(xqueue *q);          /* q must be non-empty */
/* The clock of the item just pushed (zero until set), of the next to pop. */
gmrace_clock *xq_tail_stamp(xqueue *q);
const gmrace_clock *xq_head_stamp(const xqueue *q);

/* REF's pipe_state snapshot dict. */
void xrt_pipe_state(const xrt *rt, strbuf *out);
/* One line per touched queue: direction, depth, split, lane. */
void xrt_describe(const xrt *rt, strbuf *out);

/* split(tile, s, lane_stride) of §6.3: part for lane 0 and 1 (clones with
 * attrs as REF). Returns 0 or -1 with a message in err. */
int xcore_split(const tensor *t, int s, int64_t lane_stride, tensor **p0, tensor **p1,
                strbuf *err);
/* merge(p0, p1, s) of §6.3. */
tensor *xcore_merge(const tensor *p0, const tensor *p1, int s, strbuf *err);

#endif

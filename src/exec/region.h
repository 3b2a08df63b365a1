/* Global-memory regions: the box of a GM tensor a tile.load (tensor.slice)
 * reads or a tile.store (tensor.assemble) writes. Passes that restructure a kernel (ExpandMixedKernel's
 * AIC/AIV split, lane splits by subblock_idx, outlining, unrolling) keep
 * what the data is: the same region of the same GM tensor. The debugger's
 * program points and bisect's statement matching both key on it. */
#ifndef PTODB_EXEC_REGION_H
#define PTODB_EXEC_REGION_H

#include <stdint.h>

#include "base/strbuf.h"
#include "exec/machine.h"
#include "ir/ast.h"
#include "tensor/tensor.h"

/* A queue slot is the third kind of data identity: the tile a tpop_from_aic
 * (tpop_from_aiv) takes off its queue, named by the queue ("aic->aiv"), no
 * box; its occurrence (the how-manieth pop) says which slot. */
typedef enum { EXEC_REGION_LOAD = 1, EXEC_REGION_STORE = 2, EXEC_REGION_POP = 3 } exec_region_kind;

typedef struct exec_region {
    exec_region_kind kind;
    /* The GM tensor, by the name the run gives it at its outermost: the
     * entry's parameter (a case input or output) or the orchestration's
     * variable (a tensor.create), SSA base name ("out", "resid1_gm"); the
     * argument's own base name when no outer frame holds it whole. */
    char tensor[96];
    int ndim;
    int64_t lo[TENSOR_MAX_DIMS], len[TENSOR_MAX_DIMS];
} exec_region;

/* The op of st when it is a tile.load or tile.store (assigned or as an
 * expression statement), an assigned tensor.slice, a tensor.assemble (their
 * tensor-level forms) or an assigned tpop, else 0. exec_region_of names a
 * region for the tensor-level forms only when the tensor is global memory
 * (a parameter of some frame: a case tensor or one the orchestration made). */
exec_region_kind exec_region_stmt_kind(const ir_stmt *st);

/* A store's operands: the data stored and the destination tensor
 * (tile.store(tile, offsets, t), tensor.assemble(t, src, offsets)), with
 * the offsets; 0 when st is no store or has too few arguments. */
int exec_region_store_operands(const ir_stmt *st, const ir_expr **data, const ir_expr **offsets,
                               const ir_expr **dest);

/* The region statement st reads or writes, evaluated in frame 0 of `core`
 * (st is the statement that frame is about to run, or has just run: its
 * operands are SSA values that running it does not change). 1 filled; 0
 * when st is no load/store or an operand cannot be evaluated. */
int exec_region_of(const machine *m, int core, const ir_stmt *st, exec_region *out);

/* "resid1_gm[0:16, 128:192]", "the aic->aiv queue" */
void exec_region_format(const exec_region *r, strbuf *out);
/* Same kind, same tensor, and every element of inner inside outer. */
int exec_region_within(const exec_region *inner, const exec_region *outer);
int exec_region_equal(const exec_region *a, const exec_region *b);
/* The kind of a core, 0 host, 1 AIC, 2 AIV (either lane): a pass moves a
 * region's access between kinds (the host before a split, AIC and AIV after
 * it); the two lanes of a split are not one another's counterparts. */
int exec_region_core_kind(int core);
/* How core b stands to core a for a counterpart: 0 the same core, 1 a core
 * of another kind (the access moved between host, AIC and AIV), 2 the
 * other lane of the same kind (not a counterpart unless asked for). */
int exec_region_core_rank(int a, int b);
/* No element (a lane's dummy tile: valid_shape [0, 0]): names no data. */
int exec_region_empty(const exec_region *r);

#endif

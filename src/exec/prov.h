/* Provenance: what a value of a run IS, as a 64-bit hash of where its data
 * came from, so that a debugger can find the same value in another pass
 * whose statements a compiler pass restructured (docs/program-points.md,
 * "Provenance").
 *
 *   leaf   a tile.load's tile: the GM region it read (exec_region_of: the
 *          tensor's outermost name and the box) and the tile's shape;
 *          an entry parameter: its name;
 *   node   an op: its name without the tile./tensor. prefix, the kwargs
 *          that affect the value (all an op reads but target_memory,
 *          layout, scratch, id), and its operands: a tensor by its
 *          provenance, a scalar, enum or string by value;
 *   same   ops that keep the data pass the operand's provenance on:
 *          tile.move (between memories), tile.reshape / tensor.reshape (the
 *          element order is unchanged), the push/pop of a cross-core queue
 *          (tpush_to_aiv -> tpop_from_aic, tpush_to_aic -> tpop_from_aiv);
 *   share  a lane's half of a split (tpush with split=, tile.aiv_shard):
 *          share(parent, split, lane stride, lane), the same whether the
 *          queue or aiv_shard cut it; the merge of the two shares of one
 *          value (tpop_from_aiv with split=, tile.aic_gather) is that value.
 *
 * A tensor an op reads with no provenance (written in place by an op that
 * does not return it: its provenance is dropped on every in-place write)
 * makes the result untracked (0): a hash never stands for data it does not
 * determine. Two values with equal hashes are the same data computed the
 * same way, up to a 64-bit collision: with n distinct values in two runs,
 * the odds of any collision are about n^2 / 2^65 (1e-8 at a million).
 *
 * It costs nothing unless machine_options.provenance is set (the
 * debugger's runs and bisect's traces set it; --run and --batch do not). */
#ifndef PTODB_EXEC_PROV_H
#define PTODB_EXEC_PROV_H

#include <stdint.h>

#include "base/strbuf.h"
#include "exec/machine.h"
#include "ir/ast.h"
#include "tensor/tensor.h"

/* The tensor the last machine step assigned, when it was a step of core
 * and the tensor has a provenance: its hash, the core that computed it
 * (*on: another core for a popped tile) and the how-manieth value of that
 * hash that core computed (*k, from 1), and the assigning statement. 0
 * otherwise. */
int machine_prov_just_made(const machine *m, int core, uint64_t *h, uint32_t *k, int *on, const ir_stmt **st);

/* The provenance of the value the statement core is about to run will
 * compute (an op over variables and constants, not yet run), and the
 * how-manieth such value on that core it will be: 1 known; 0 for any other
 * statement (a load, a move, a call, an op over a nested op). */
int machine_prov_pending(const machine *m, int core, uint64_t *h, uint32_t *k);

/* A lane's share (docs/program-points.md, "Lanes"). After a lane split a
 * vector lane computes from its own rows (columns) what one core computed
 * whole before. The lifted form of a value along dim d (0 rows, 1 columns)
 * is (l, s): l a hash of its computation with every load's extent along d
 * left out (a split's half: its parent's form), s the offset along d of its
 * element 0 (a GM row of the loads; a row of the parent for a half). It
 * exists only while every op on the way keeps d apart: element-wise ops,
 * row_* / col_* ops whose operands along d are the result's size or 1 (a
 * row reduction keeps rows, not columns), matmul's left operand's rows (right
 * operand's columns) with the other operand as it is; any other op (a
 * transpose, an extract, a column reduction for rows) has none. Its operands
 * along d must sit at one offset.
 * Two values t (a lane's) and w (another pass's) with equal l along d: t is
 * w's elements [s_t - s_w, s_t - s_w + t.shape[d]) along d, when that range
 * lies within w and their other dims are equal. 1 with *l and *s when t has
 * one; with `whole`, a value with none is its own whole (l names its hash
 * and shape, s 0): the form a split's half of it points to. */
enum { PROV_LIFT_DIMS = 2 };
int machine_prov_lift(const machine *m, const tensor *t, int d, int whole, uint64_t *l, int64_t *s);

/* How many values of hash h core has computed so far. */
uint32_t machine_prov_count(const machine *m, uint64_t h, int core);

/* 1 when h is an entry parameter's (no statement computes it). */
int machine_prov_is_param(const machine *m, uint64_t h);

/* "computed from x[0:16, 0:64] and w[0:64, 128:192] by tile.matmul then
 * tile.add" (the leaves and ops it derives from, first seen first), or "the
 * tile loaded from x[0:16, 0:64]"; "an untracked value" for an unknown h. */
void machine_prov_describe(const machine *m, uint64_t h, strbuf *out);

/* ---- for the machine and its ops (exec/) ----------------------------------------------- */

typedef struct exec_prov exec_prov;
struct exec_ctx;
struct xexpr;

exec_prov *exec_prov_new(void);
void exec_prov_free(exec_prov *p);
/* A fresh run: counts and last values cleared (nodes kept). */
void exec_prov_reset(exec_prov *p);
/* The hash eval_op gives the result of op expression x over its evaluated
 * operands, before the op runs (an op writing its operand in place drops
 * that operand's provenance); 0 when untracked or passed through. *pass
 * (when not NULL) gets the operand whose provenance the result keeps. */
uint64_t exec_prov_op_hash(exec_prov *p, const struct xexpr *x, const value *pos, uint32_t npos, const value *kw,
                           uint32_t nkw, const value **pass);
/* Gives the result of an op its provenance (computed on core at machine
 * step `step`): h a node from exec_prov_op_hash, or the pass-through
 * operand's. */
void exec_prov_set_result(exec_prov *p, int core, uint64_t step, uint64_t h, const value *pass, value *out);
/* A load's tile: the region leaf. */
struct exec_region;
void exec_prov_set_leaf(exec_prov *p, int core, uint64_t step, const struct exec_region *g, tensor *t);
/* An entry parameter: the name leaf. */
void exec_prov_set_param(exec_prov *p, const char *name, tensor *t);
/* The statement that assigned what core computed at `step`. */
void exec_prov_assigned(exec_prov *p, int core, uint64_t step, const ir_stmt *st, const value *v);
/* A lane's half of a split of parent (cross-core queues, aiv_shard), and
 * the merge of two halves; no-ops when provenance is off. */
void exec_prov_share(struct exec_ctx *ctx, const tensor *parent, tensor *half, int split, int64_t stride, int lane);
void exec_prov_merge(struct exec_ctx *ctx, const tensor *h0, const tensor *h1, int split, tensor *merged);
/* An in-place write: t's data is no longer what its hash says. */
void exec_prov_written(tensor *t);
/* A machine snapshot's part (snapshot.h): the counts of every value and
 * each core's last one, saved and put back; a hash of them. */
typedef struct exec_prov_saved exec_prov_saved;
exec_prov_saved *exec_prov_save(const exec_prov *p);
void exec_prov_restore(exec_prov *p, const exec_prov_saved *s);
void exec_prov_saved_free(exec_prov_saved *s);
size_t exec_prov_saved_bytes(const exec_prov_saved *s);
uint64_t exec_prov_state_hash(const exec_prov *p, uint64_t h);
/* 1 when the sum the state hash takes agrees with the nodes' counts (the
 * reverse-execution oracle asks it after each pass). */
int exec_prov_count_sum_ok(const exec_prov *p);

#endif

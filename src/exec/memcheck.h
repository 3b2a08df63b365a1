/* The machine's memory checker (memcheck.c; docs/memory.md): tiles at their
 * MemRefs in each core's memory (src/memory), checked on every read. */
#ifndef PTODB_EXEC_MEMCHECK_H
#define PTODB_EXEC_MEMCHECK_H

#include <stdint.h>

#include "exec/machine.h"
#include "exec/program.h"
#include "memory/memmap.h"

typedef struct exec_memcheck exec_memcheck;
struct core;
struct xframe;

exec_memcheck *exec_memcheck_new(const machine_options *o, const xprogram *p);
void exec_memcheck_free(exec_memcheck *mc);
/* callee starts on core c (a group's kernel or a kernel the host calls):
 * its memory holds nothing written yet */
void exec_memcheck_call(exec_memcheck *mc, const struct core *c, const xfunc *callee, const xfunc *caller);
/* statement in assigned *v: place it at its MemRef (a write, a view, a
 * scratch) or reserve a slot buffer */
void exec_memcheck_assigned(exec_memcheck *mc, machine *m, const struct core *c, const struct xframe *f,
                            const xinst *in, value *v);
/* yield in gives *v to its annotated target (in->yield_type): before
 * MemoryReuse's YieldFixup a target on another buffer receives the bytes,
 * the tile.move that pass inserts (docs/memory.md "Yields") */
void exec_memcheck_yield(exec_memcheck *mc, machine *m, const struct core *c, const struct xframe *f,
                         const xinst *in, value *v);
/* a loop's yield with no annotation (several carries): before MemoryReuse
 * the iter_arg keeps its init value's MemRef and the yielded value its own
 * (PyPTO docs/en/dev/passes/31-init_memref.md:177-193, "Group A: initValue +
 * iter_arg", "Group B: yield value + return_var", the mismatch resolved by
 * MemoryReuse's tile.move), so *v is written into carry_tile (the
 * iter_arg's, its init value's at the loop's start) on core carry_core,
 * the move to come */
void exec_memcheck_yield_carry(exec_memcheck *mc, machine *m, const struct core *c, const struct xframe *f,
                               const xinst *in, uint32_t carry_tile, int carry_core, value *v);
/* an op is about to read its operands: a tile operand whose bytes are not
 * its value is replaced by what the device reads (the bytes, or poison) */
void exec_memcheck_operands(exec_memcheck *mc, machine *m, const struct core *c, const struct xframe *f,
                            const xexpr *x, value *pos, uint32_t np, value *kw, uint32_t nk);
/* the op ran and returned out: its scratch operand is poisoned, a view's
 * result remembers its source's tile */
void exec_memcheck_op_done(exec_memcheck *mc, const struct core *c, const struct xframe *f, const xexpr *x,
                               const value *pos, uint32_t np, value *out);
/* an op wrote t in place */
void exec_memcheck_written(exec_memcheck *mc, const struct core *c, tensor *t);
/* 1 when p's MemRef offsets look like addresses (AllocateMemoryAddr ran) */
int exec_memcheck_guess_addressed(const xprogram *p);

uint64_t exec_memcheck_faults(const exec_memcheck *mc);
/* the first reports, one block each, or NULL */
const char *exec_memcheck_report(const exec_memcheck *mc);
const char *exec_memcheck_last(const exec_memcheck *mc);
/* 1 (once) when a fault happened since the last call */
int exec_memcheck_take_pending(exec_memcheck *mc);
const mem_core *exec_memcheck_core(const exec_memcheck *mc, int core_id);
/* For checkpoints (exec/snapshot_parts.c): a copy of the whole state (the
 * three cores' memory, the fault count and reports), put back by restore;
 * bytes sizes a copy, hash folds the live state in. */
void *exec_memcheck_save(const exec_memcheck *mc);
void exec_memcheck_restore(exec_memcheck *mc, const void *saved);
void exec_memcheck_saved_free(void *saved);
/* Only the cores' memories (a block parked at a syncall keeps its own):
 * saved, copied (a saved one), put back; freed by exec_memcheck_saved_free. */
void *exec_memcheck_save_cores(const exec_memcheck *mc);
void *exec_memcheck_saved_cores_copy(const void *saved);
void exec_memcheck_restore_cores(exec_memcheck *mc, const void *saved);
size_t exec_memcheck_saved_bytes(const void *saved);
uint64_t exec_memcheck_state_hash(const exec_memcheck *mc, uint64_t h);
/* the memory of the kernel core c runs (the host running a kernel: its
 * type's), or NULL */
const mem_core *exec_memcheck_core_of(const exec_memcheck *mc, const struct core *c);

#endif

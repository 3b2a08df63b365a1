/* The cores' race check on global memory within one kernel launch
 * (docs/schedule.md "Races on global memory"): a happens-before check in
 * device semantics, under any schedule, the fixed one included.
 *
 * Threads are the cores of the launch's blocks: (block, core). Each keeps
 * a gmrace_clock: a vector clock over its block's cores (FastTrack epochs,
 * base/vclock.h) and its barrier phase, the count of system.syncall it has
 * passed (a syncall is a barrier of every core of the launch: pto-isa
 * include/pto/npu/a2a3/SyncAll.hpp:19-46). A pipe push releases the
 * pusher's clock into the item, the pop that takes it acquires it
 * (tpush/tpop, a tile.move across cores lowered to them, the fence tokens
 * ExpandMixedKernel emits). Accesses of two launches (two kernel calls,
 * or two calls of one SPMD block body: two runtime tasks, ordered by their
 * buffers' overlap outside a manual scope, exec/tasks.h inside one) are
 * never compared.
 *
 * Global memory is shadowed per 32-byte granule of each storage: its last
 * writer and last reader, each an epoch and the mask of the granule's bytes
 * it touched. A read of bytes whose last writer is another thread not
 * ordered before it, or a write over bytes another unordered thread read or
 * wrote, is a race, except two atomic writes (an atomic add pair is not a
 * race on the device: its adds are atomic and commute, pto-isa
 * docs/isa/TSTORE.md:146, include/pto/common/pto_tile.hpp:606). Two
 * unordered threads touching disjoint bytes of one granule leave it
 * unchecked from then on (a race may be missed there, never invented).
 * A 128-byte block of granules in one state is kept once (gmrace.c,
 * gm_shadow): the same findings for a quarter of the shadow's traffic. */
#ifndef PTODB_EXEC_GMRACE_H
#define PTODB_EXEC_GMRACE_H

#include <stdint.h>

#include "base/strbuf.h"
#include "tensor/tensor.h"

enum { GMRACE_CORES = 4 }; /* exec_core_id: host, AIC, AIV0, AIV1 */

typedef struct gmrace_clock {
    uint32_t phase;             /* syncalls passed (joined through pipes) */
    uint32_t vc[GMRACE_CORES];  /* per core of the block */
} gmrace_clock;

/* A core of a block starts a launch: it has seen nothing of the others. */
void gmrace_clock_start(gmrace_clock *c, int core);
/* A push: *stamp takes the pusher's clock; the pusher enters a new epoch. */
void gmrace_clock_release(gmrace_clock *c, int core, gmrace_clock *stamp);
/* A pop: the popper has seen what the pusher had. */
void gmrace_clock_acquire(gmrace_clock *c, const gmrace_clock *stamp);
/* A syncall passed. */
void gmrace_clock_barrier(gmrace_clock *c, int core);

typedef struct exec_gmrace exec_gmrace;

exec_gmrace *exec_gmrace_new(void);
void exec_gmrace_free(exec_gmrace *r);

/* A launch starts. instance: its SPMD launch's serial (0: not in one; a new
 * instance forgets every access before); site: the call's identity within
 * the SPMD body; block: the block it runs. twin_lanes: the two AIV lanes
 * run one body on the same data (a no-split dual dispatch, a split_aiv
 * kernel before ExpandMixedKernel computing its cube part on both): their
 * accesses are not compared with each other. */
uint32_t exec_gmrace_launch(exec_gmrace *r, uint64_t instance, uint64_t site, int64_t block, int twin_lanes);
/* A parked block's launch goes on (exec/barrier.c): rec is what
 * exec_gmrace_launch returned for it. */
void exec_gmrace_enter(exec_gmrace *r, uint64_t instance, uint32_t rec, int64_t block, int twin_lanes);
/* The running launch's kernels take these storages only as In parameters
 * (no Out or InOut parameter of theirs holds them): no thread of the launch
 * writes them, so their reads cannot race within it and are not recorded
 * (the bulk of a launch's reads: its weights and inputs). */
void exec_gmrace_read_only(exec_gmrace *r, const uint64_t *storages, uint32_t n);
/* No launch runs: accesses are not recorded until the next. */
void exec_gmrace_idle(exec_gmrace *r);
/* A run starts again: nothing recorded before is compared with what
 * follows; nothing is checked until the next launch instance. */
void exec_gmrace_stale(exec_gmrace *r);
/* A checkpoint's copy of the whole check (shadows, epochs, launches), so
 * that going back to it and forward again checks as the straight run did
 * (time travel: exec/snapshot_parts.c); the restore puts it back. */
void *exec_gmrace_save(const exec_gmrace *r);
void exec_gmrace_restore(exec_gmrace *r, const void *saved);
void exec_gmrace_saved_free(void *saved);
size_t exec_gmrace_saved_bytes(const void *saved);

/* Core `core` of the running launch's block, at clock c, read (kind 0),
 * wrote (1) or atomically added into (2) view v of global memory, at
 * line:col of the pass in function func (a string that outlives the
 * run). 1 when that is a race (the first: later calls return 0), its
 * report then ready for exec_gmrace_describe. */
int exec_gmrace_access(exec_gmrace *r, const gmrace_clock *c, int core, const tensor *v, int kind, int line,
                       int col, const char *func);
/* Storage id of the race's view (to name it). */
uint64_t exec_gmrace_storage(const exec_gmrace *r);
/* "race: AIV0 reads kv[0:1, 0:8] at 22:20:9 that AIC wrote at 22:16:9 (in
 * f_aic) with no pipe or barrier between (...)": the access that raced,
 * then the earlier one (the divergence engine blames the read of the two,
 * src/batch/diverge.c);
 * name: the tensor the op was given holding the raced bytes (whole: its
 * view, for the region's indices), or NULL; pass: the pass's index (-1:
 * not known). */
void exec_gmrace_describe(const exec_gmrace *r, const char *name, const tensor *whole, int pass, strbuf *out);

#endif

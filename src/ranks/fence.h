/* The data-before-signal contract of a multi-rank kernel (docs/multirank.md,
 * "The fence contract"): what PyPTO's InsertCommFence pass
 * (docs/en/dev/passes/46-insert_comm_fence.md) inserts and ptoas does not
 * check, so a dump from that pass on that breaks it runs right on the host
 * and reads stale data on the device.
 *
 * Publish side: a publishing write (a local store into a window of the
 * rank's own, or a remote_store / put into a peer's) is visible to the
 * peers only after a system.fence, and a local one only after a
 * system.cacheinvalid of its window (or of the whole GM) before that
 * fence. A notify while such a write is not yet visible may release it
 * early: the peer then reads the window as it was.
 * Consume side: after a satisfied wait, a read of a window (the rank's own
 * or a peer's) before a whole-GM system.cacheinvalid() may hit a stale
 * cache line.
 *
 * The state is per rank and kernel: a task's start begins it afresh (the
 * runtime's task completion drains its kernel: the contract is the
 * kernel's). Signals are synchronisation, not data: the world does not
 * report their accesses. The first breach is kept. */
#ifndef PTODB_RANKS_FENCE_H
#define PTODB_RANKS_FENCE_H

#include "base/strbuf.h"

typedef struct ranks_fence ranks_fence;

ranks_fence *ranks_fence_new(int nranks);
void ranks_fence_free(ranks_fence *f);

/* Rank's next kernel starts. */
void ranks_fence_task_start(ranks_fence *f, int rank);
/* Rank wrote window `buf` (an identity; name for reports) of rank owner:
 * remote by a remote_store or put (its codegen invalidates the peer's
 * region itself: a fence publishes it), else a local store (it needs its
 * cacheinvalid too). A line of 0 is located by the next ranks_fence_stamp. */
void ranks_fence_write(ranks_fence *f, int rank, const void *buf, const char *name, int owner, int remote,
                       const char *op, int line, int col);
/* Rank read window name of rank owner (a local load, remote_load, get). */
void ranks_fence_read(ranks_fence *f, int rank, const char *name, int owner, const char *op, int line, int col);
/* system.fence or system.cacheinvalid (EXEC_MARK_*, exec/comm.h); buf the
 * region's window, NULL when the region is not a window the world knows
 * (it then covers nothing). */
void ranks_fence_marker(ranks_fence *f, int rank, int kind, const void *buf, int line, int col);
/* Rank notifies a cell: the release the contract is about. */
void ranks_fence_notify(ranks_fence *f, int rank, int line, int col);
/* Rank's wait (or defer_wait) found its cell satisfied: an acquire. */
void ranks_fence_acquire(ranks_fence *f, int rank, int line, int col);
/* The statement of rank's last step was at line:col: locates what it did. */
void ranks_fence_stamp(ranks_fence *f, int rank, int line, int col);
/* 1 once a breach was found. */
int ranks_fence_breached(const ranks_fence *f);
/* The first breach, "path:line:col: fence contract: ...", in out; 0 when
 * none. */
int ranks_fence_report(const ranks_fence *f, const char *path, strbuf *out);

#endif

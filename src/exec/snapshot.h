/* Snapshots of a whole machine, for reverse execution: the machine is
 * deterministic, so going back to step T is restoring the nearest earlier
 * snapshot and running forward (rr's checkpoints; docs/time-travel.md).
 *
 * A snapshot holds every core (frame stacks, slots, loops, pc, calls,
 * waits), the group run and the cross-core queues with their items, the
 * machine's counters and scheduler state, and every tensor they reach: its
 * attributes, and its storage's bytes. Tensor objects and storages are
 * restored in place (the same objects, so the debugger's references to the
 * entry's tensors stay valid), and a snapshot keeps a reference to each.
 *
 * Bytes are copied on write, at snapshot granularity: a storage whose
 * content version (write_log.h) is the one it had in `base` shares base's
 * copy, so a snapshot costs the bytes written since base; a restore copies
 * back only the storages written since the snapshot.
 *
 * Other components' state (provenance now; a memory model later) are
 * parts (machine_snapshot_part): each saves, restores, sizes and hashes
 * its own state. */
#ifndef PTODB_EXEC_SNAPSHOT_H
#define PTODB_EXEC_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "exec/machine.h"

typedef struct machine_snapshot machine_snapshot;

/* A snapshot of m between two statements. base: an earlier snapshot of
 * the same run (same machine, not freed yet) whose byte copies may be
 * shared, or NULL. The first call turns on m's write versions. */
machine_snapshot *machine_snapshot_take(machine *m, const machine_snapshot *base);
/* Puts m back in the snapshot's state (the same machine it was taken of). */
void machine_snapshot_restore(machine *m, const machine_snapshot *s);
void machine_snapshot_free(machine_snapshot *s);
/* The machine_steps() it was taken at. */
uint64_t machine_snapshot_step(const machine_snapshot *s);
/* How many calls of function fn (an index of the program's functions)
 * core had started then: a moment of call k (from 1) is after any
 * snapshot with fewer than k. */
uint32_t machine_snapshot_calls(const machine_snapshot *s, int core, int fn);
/* Bytes the snapshot holds: its own (frames, queues, tensor records) and
 * the byte copies it made; *shared gets the copies it shares with base. */
size_t machine_snapshot_bytes(const machine_snapshot *s, size_t *shared);
/* Bytes of the distinct storages the machine's state reaches now (the
 * live tensors a snapshot would save). */
size_t machine_live_tensor_bytes(const machine *m);

/* A hash of the machine's whole state: cores, frames, slots, loops,
 * queues, every reachable tensor's attributes and bytes, the parts'. Two
 * runs with equal hashes are at the same state (up to a 64-bit collision). */
uint64_t machine_state_hash(const machine *m);
/* The same without the scheduler's own state (its random generator, its
 * order of the group's cores): a run and the replay of its recorded
 * schedule (machine_schedule_replay) hash the same at every step. */
uint64_t machine_program_state_hash(const machine *m);

/* A storage's bytes in the state hash: finish(nbytes, the sum mod 2^64 of
 * chunk_term(k) over its chunks of MACHINE_HASH_CHUNK bytes by offset, the
 * last maybe shorter). machine_storage_bytes_hash computes it from the
 * bytes; a caller that keeps the terms sets a hasher that gives the same
 * value (NULL: back to the bytes). */
enum { MACHINE_HASH_CHUNK = 4096 };
static inline size_t machine_storage_nchunks(size_t nbytes)
{
    return (nbytes + MACHINE_HASH_CHUNK - 1) / MACHINE_HASH_CHUNK;
}
/* The term of chunk `index` of the nbytes at data. */
uint64_t machine_storage_chunk_term(const void *data, size_t nbytes, size_t index);
uint64_t machine_storage_hash_finish(size_t nbytes, uint64_t sum);
uint64_t machine_storage_bytes_hash(const void *data, size_t nbytes);
/* 1 when the sums the state hash keeps as the run goes (the provenance
 * counts') agree with a scan of what they sum: the oracle asks it after a
 * pass, so that a change of a count kept out of the sum is found. */
int machine_state_hash_selfcheck(const machine *m);
typedef uint64_t (*machine_storage_hasher)(void *ctx, const tensor_storage *s);
void machine_state_hash_set_storage_hasher(machine_storage_hasher fn, void *ctx);

/* A component's state in a snapshot. */
typedef struct machine_snapshot_part {
    const char *name;
    void *(*save)(const machine *m);                /* NULL: nothing to save now */
    void (*restore)(machine *m, const void *saved); /* saved may be NULL */
    void (*drop)(void *saved);
    size_t (*bytes)(const void *saved);
    uint64_t (*hash)(const machine *m, uint64_t h); /* folds its live state into h */
} machine_snapshot_part;

#endif

/* The content version of each tensor storage an op wrote in place, for
 * machine snapshots (snapshot.h): every in-place write (exec_note_write)
 * gives the storage a new version from one counter that never goes back,
 * so two equal versions of one storage mean the same bytes, across any
 * restores. A storage never written has version 0. Entries of freed
 * storages stay: a new storage at the same address inherits a version,
 * which only makes a restore copy bytes it could have skipped (a
 * snapshot holds a reference to every storage it saved, so those
 * addresses are never reused while it lives). */
#ifndef PTODB_EXEC_WRITE_LOG_H
#define PTODB_EXEC_WRITE_LOG_H

#include <stddef.h>
#include <stdint.h>

typedef struct exec_write_log exec_write_log;

exec_write_log *exec_write_log_new(void);
void exec_write_log_free(exec_write_log *w);
/* A write of storage key: a new version. */
void exec_write_log_note(exec_write_log *w, const void *key);
/* The version of key's bytes (0: never written). */
uint64_t exec_write_log_version(const exec_write_log *w, const void *key);
/* Sets key's version back (a restore put those bytes back). */
void exec_write_log_set(exec_write_log *w, const void *key, uint64_t version);
size_t exec_write_log_bytes(const exec_write_log *w);

#endif

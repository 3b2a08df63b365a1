/* The task graph of pl.submit under device semantics, as a race check
 * (exec/semantics.h, submit). PyPTO's runtime orders the tasks of a manual
 * scope only by their deps= edges (pypto docs/en/dev/language/
 * 02-manual_dependencies.md: "Inside, the runtime never auto-tracks; the user
 * must declare every required ordering edge explicitly"); outside one it
 * derives an edge from every overlap of two tasks' buffers, so only a
 * manual scope's tasks can race. ptodb runs the tasks in submission order,
 * one order the runtime may choose; this records the global-memory elements
 * each task of a manual scope reads and writes and reports two tasks of one
 * scope instance that touch the same element, one of them writing, with no
 * chain of deps= between them: on the device their order, and so the
 * result, is not fixed. */
#ifndef PTODB_EXEC_TASKS_H
#define PTODB_EXEC_TASKS_H

#include <stdint.h>

#include "base/strbuf.h"
#include "tensor/tensor.h"

typedef struct exec_tasks exec_tasks;

exec_tasks *exec_tasks_new(void);
void exec_tasks_free(exec_tasks *t);

/* A manual scope is entered (a new instance: tasks of two instances are
 * never compared). */
void exec_tasks_scope(exec_tasks *t);
/* Task id (the TaskId ptodb gives it) of function `func`, submitted at
 * `line`, starts; deps are the task ids of its deps= (unknown ids and the
 * invalid sentinel are left out by the caller); manual: submitted inside a
 * manual scope (only those are checked). */
void exec_tasks_begin(exec_tasks *t, int64_t id, const char *func, int line, int manual, const int64_t *deps,
                      uint32_t ndeps);
/* A task's parameter, for reports: its name ("scratch") and shape name
 * the elements of its storage. */
void exec_tasks_name(exec_tasks *t, const tensor *param, const char *name);
/* The running task read (write 0) or wrote (1) the elements of view v of
 * global memory. Nothing when no checked task runs. */
void exec_tasks_access(exec_tasks *t, const tensor *v, int write);
/* The running task ended. 1 when it races with an earlier task of its
 * scope instance (the report in *why, one line), else 0. */
int exec_tasks_end(exec_tasks *t, strbuf *why);

/* For checkpoints (exec/snapshot_parts.c): the tasks, scope instances and
 * running task's accesses so far; a restore drops what came after. Tasks
 * only grow, so a saved state is three counts. */
void *exec_tasks_save(const exec_tasks *t);
void exec_tasks_restore(exec_tasks *t, const void *saved);
void exec_tasks_saved_free(void *saved);
uint64_t exec_tasks_state_hash(const exec_tasks *t, uint64_t h);

#endif

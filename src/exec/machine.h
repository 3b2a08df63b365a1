/* The machine: runs a lowered program (program.h) on explicit cores (host,
 * AIC, AIV0, AIV1), each with its own frame stack and statement cursor. No C
 * recursion over IR statements or calls: a deep call chain in a dump is an
 * error, not a stack overflow.
 *
 * The step API executes one statement on one core and says what happened;
 * run-to-completion is a loop over it. Group calls (semantics.md §6) start
 * the AIC and 1 or 2 AIV lane cores; a deterministic scheduler runs them:
 * a core runs until it blocks (a pop on an empty queue) or ends, then the
 * next runnable core in a fixed order. When every live core is blocked the
 * machine reports a deadlock at once (no timeouts). */
#ifndef PTODB_EXEC_MACHINE_H
#define PTODB_EXEC_MACHINE_H

#include <signal.h>
#include <stdint.h>

#include "base/status.h"
#include "exec/op.h"
#include "exec/program.h"
#include "exec/semantics.h"
#include "exec/value.h"

typedef struct machine machine;

typedef enum { EXEC_CORE_HOST, EXEC_CORE_AIC, EXEC_CORE_AIV0, EXEC_CORE_AIV1, EXEC_NCORES } exec_core_id;

typedef enum {
    EXEC_EV_NONE,
    EXEC_EV_STMT,     /* a statement completed */
    EXEC_EV_CALL,     /* a call entered its callee (or a group call started its cores) */
    EXEC_EV_RETURN,   /* a callee returned to the caller's call statement */
    EXEC_EV_FINISHED, /* the core's outermost function returned */
    EXEC_EV_BLOCKED,  /* the statement waits on an empty queue; it re-runs later */
    EXEC_EV_ERROR,    /* see machine_error */
    EXEC_EV_DONE      /* the whole program finished (machine_step only) */
} exec_event_kind;

typedef struct exec_event {
    exec_event_kind kind;
    int core;          /* exec_core_id */
    const char *file;
    int line, col;     /* the statement's location (0 when none) */
    const char *func;  /* the function the core is in */
} exec_event;

typedef enum { EXEC_SCHED_FIXED, EXEC_SCHED_AIC_FIRST, EXEC_SCHED_AIV_FIRST, EXEC_SCHED_RANDOM } exec_sched;

typedef struct machine_options {
    exec_semantics semantics; /* EXEC_SEM_DEVICE (default) or EXEC_SEM_REF (semantics.h) */
    exec_profile_id profile;
    int check_shapes;    /* REF's check_shapes assertions (default 1) */
    exec_sched sched;
    uint64_t seed;       /* EXEC_SCHED_RANDOM */
    int max_depth;       /* frames per core (0: 1000, Python's recursion limit) */
    int64_t slot_depth;  /* queue depth: 0 unbounded (REF), N, or -1 for the pipes'
                            slot_num (aic/aiv_initialize_pipe) */
    double time_limit;   /* seconds of wall time from machine_start after which
                            machine_step fails with PTODB_ERR_TIMEOUT at the
                            statement it reached (0: none; a loop that never
                            ends then runs for ever, as in REF) */
    /* For runs with no debugger loop around them (bisect inside a session):
     * poll(poll_ud, pass file, statements so far) every 4096 statements,
     * so a front end can show progress and take Ctrl-C; a nonzero
     * *interrupt then stops the run with PTODB_ERR_INTERRUPTED at the
     * statement it reached. Either may be NULL. */
    void (*poll)(void *ud, const char *path, uint64_t steps);
    void *poll_ud;
    const volatile sig_atomic_t *interrupt;
    /* 1: an element-wise op whose operand dies at its statement (no later
     * read, program.c's liveness) and is not shared with anything else may
     * write its result into that operand's buffer (the slot is emptied at
     * the read). Off by default and in the debugger, where the user may
     * print any variable at a stop; on for --run/--batch and the TUI's
     * background validation, which only report verdicts and outputs. */
    int reuse_dead;
    /* Track each value's provenance (exec/prov.h): for the debugger's runs
     * and bisect's traces; off (0) it costs a test per op. */
    int provenance;
    /* bisect's test of a branch the passing pass has no counterpart of
     * (src/batch/bisect.c): the `if` statement at this line of the pass
     * file takes the other branch every time it runs, on every core (0:
     * none). A `while` or loop head is never inverted. */
    int invert_if_line;
    /* The memory model and its sanitizer (src/memory, docs/memory.md): 1
     * places every tile at its MemRef from the first pass with MemRefs and
     * reports clobber/uninit/bounds/slot faults (machine_mem_faults); 0 runs
     * with the reference's blind semantics. mem_target: memory/soc.h's
     * mem_target (the runner reads it from the case); mem_addressed: 1 when
     * MemRef offsets are addresses (AllocateMemoryAddr ran), 0 when each id
     * is a buffer of its own, -1 to tell from the dump. mem_yields_move: 1
     * when the pass comes before MemoryReuse's YieldFixup, so that a yield
     * into a phi or carry of another MemRef is the tile.move that pass will
     * insert; 0 when a mismatch is the device's stale carry; -1: as
     * !mem_addressed (docs/memory.md "Yields"). */
    int memcheck;
    int mem_target;
    int mem_addressed;
    int mem_yields_move;
    /* The multi-rank world this machine runs a rank (or the host
     * orchestrator) of (exec/comm.h); NULL for a single-rank case. Owned by
     * the caller, which keeps it alive as long as the machine. */
    const struct exec_comm *comm;
} machine_options;

void machine_options_init(machine_options *o);

/* Called on every in-place tensor write (exec_note_write). */
typedef void (*machine_write_hook)(void *ud, int core, const tensor *t);

machine *machine_new(const xprogram *p, const machine_options *o);
void machine_free(machine *m);
void machine_set_write_hook(machine *m, machine_write_hook fn, void *ud);
/* Called for every tensor an op takes as an operand (rwatch, awatch), on
 * the core that runs it, before the op runs; fn NULL turns it off (the
 * default: then operands cost nothing). */
typedef void (*machine_read_hook)(void *ud, int core, const tensor *t);
void machine_set_read_hook(machine *m, machine_read_hook fn, void *ud);
/* Called with the exact region of global memory an op reads or writes,
 * where the op reports it (tile.load's window, tile.store's destination
 * region: exec_note_gm_access), while the op runs; not for the tile ops a
 * multi-rank op runs on a peer's window (that op reports its own access). */
typedef void (*machine_gm_hook)(void *ud, int core, const tensor *region, int write);
void machine_set_gm_hook(machine *m, machine_gm_hook fn, void *ud);

/* Starts function fn on the host core with args (copied). */
ptodb_status machine_start(machine *m, int fn, const value *args, uint32_t nargs);
/* One statement on the core the scheduler picks. ev->kind EXEC_EV_DONE when
 * the program has finished. Returns PTODB_OK, or the error status (then
 * ev->kind is EXEC_EV_ERROR and machine_error has the message). */
ptodb_status machine_step(machine *m, exec_event *ev);
/* One statement on a given core (debuggers); BLOCKED is reported as an
 * event, not an error. A core that cannot run (finished, waiting for its
 * group) gives ERR_USAGE. */
ptodb_status machine_step_core(machine *m, int core, exec_event *ev);
/* The schedule (exec/schedule.h): record the run's choices into rec, or
 * replay them from play (one pass's section, kept alive by the caller as
 * long as the machine; NULL turns either off). A replay ignores
 * opt.sched: the file decides, and a step it does not fit fails with
 * PTODB_ERR_FORMAT and "FILE:LINE: schedule replay: what differs" as the
 * machine's error. Set before machine_start or at a snapshot's moment. */
struct exec_sched_pass;
void machine_schedule_record(machine *m, struct exec_sched_pass *rec);
void machine_schedule_replay(machine *m, const struct exec_sched_pass *play);
int machine_schedule_replaying(const machine *m);
/* Runs until the program ends or fails. */
ptodb_status machine_run(machine *m);

/* The error of the last failing step: "file:line:col: in FUNC: message" lines. */
const char *machine_error(const machine *m);
/* 1 when the failure is one REF would have too ("REF would fail here"). */
int machine_error_is_ref(const machine *m);
/* "line:col: message" of the first op that ran by its definition where
 * REF raises at run time (exec_note_ref_cannot_run), or NULL. */
const char *machine_ref_note(const machine *m);
/* Under device semantics, the first place of difference id where REF would
 * fail or compute otherwise, "line:col: what (REF would ...)"; NULL when the
 * run met none. */
const char *machine_ref_differs(const machine *m, int id);
int machine_finished(const machine *m);
/* The entry function's return value (valid once finished). */
const value *machine_result(const machine *m);
/* Statements executed so far (all cores). */
uint64_t machine_steps(const machine *m);
const char *machine_core_name(int core);

/* Memory faults found so far (0 when memcheck is off), the first reports
 * (one block each: check, file:line:col, core and lane, call and
 * iteration, both tiles with ids and byte ranges, the writing and reading
 * statements), or NULL when none. */
uint64_t machine_mem_faults(const machine *m);
const char *machine_mem_report(const machine *m);
/* The latest report, for a debugger stopping at it (catch memory). */
const char *machine_mem_last(const machine *m);
/* 1 once after each statement that had a fault (catch memory). */
int machine_mem_take_fault(machine *m);
/* `info memory`: each space's map on core (tiles, free ranges, high-water
 * mark); appends "no memory model ..." when memcheck is off. */
struct strbuf;
void machine_mem_format_map(const machine *m, int core, struct strbuf *out);
/* For checkpoints: the memory of a core (NULL for the host or memcheck
 * off), to copy, restore (mem_core_copy) and hash (mem_core_hash). */
struct mem_core;
struct mem_core *machine_mem_core(machine *m, int core);

/* Scalar arithmetic of semantics.md §4 (Python ints/floats/bools, 0-d
 * tensors with torch rules). Exposed for tests. Errors go through exec_fail. */
ptodb_status exec_scalar_binop(exec_ctx *ctx, int op, const value *a, const value *b, value *out);
ptodb_status exec_scalar_unop(exec_ctx *ctx, int op, const value *a, value *out);

#endif

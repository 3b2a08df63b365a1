/* Running one pass file as REF's validator does (semantics.md §7.2 - §7.4):
 * parse, resolve, lower, bind the entry's parameters to fresh copies of the
 * case data, run the machine, compare every golden output. The --run mode
 * prints the results; the later --batch mode reuses the same call. */
#ifndef PTODB_EXEC_RUNPASS_H
#define PTODB_EXEC_RUNPASS_H

#include "data/case.h"
#include "exec/compare.h"
#include "exec/machine.h"

typedef enum {
    RUNPASS_COMPARED,  /* ran and compared (outputs[] valid) */
    RUNPASS_REF_FAIL,  /* REF would fail on this pass; message says where and why */
    RUNPASS_ERROR      /* ptodb could not run it (input error, unsupported, deadlock...) */
} runpass_status;

typedef struct runpass_output {
    char *key;
    tensor *actual;        /* one reference, after the run */
    const tensor *golden;  /* borrowed from the case */
    double rtol, atol;
    exec_compare_result cmp;
} runpass_output;

typedef struct runpass_result {
    runpass_status status;
    int unchecked;          /* RUNPASS_ERROR because the file does not parse or resolve: it never ran */
    char *message;          /* errors; NULL when compared */
    char *ref_note;         /* REF cannot run this file (codegen error) but ptodb did */
    /* device semantics: one line per kind of difference met, "path:line:col:
     * what (REF would ...)" (runpass_ref_differs); NULL when none */
    char *ref_differs;
    int ref_differs_fail;   /* one of them is a place REF raises (it cannot run the file) */
    runpass_output *outputs;
    size_t noutputs;
    int all_pass;           /* compared, every output passes and no memory fault */
    uint64_t memfaults;     /* memory faults of the run (machine_mem_faults) */
    char *memreport;        /* their first reports, or NULL */
    uint64_t steps;
    char *schedule;         /* record_schedule: the pass's section of a schedule file, or NULL */
} runpass_result;

typedef struct runpass_options {
    machine_options mopt;
    const op_fn *ops;       /* exec_ops_init table */
    int race_runs;          /* --run --race-check N: random schedules per pass (runpass_file ignores it) */
    int strict_ref;         /* --strict-ref: a file REF cannot run fails (all_pass 0), as in REF's validator */
    int comm_ready_order;   /* --comm-order=ready: a multi-rank run without PyPTO #2398's per-rank
                               ordering token (src/ranks/world.h, RANKS_ORDER_READY) */
    /* The schedule (exec/schedule.h): record_schedule 1 records the run's
     * choices (runpass_run.sched, runpass_result.schedule); replay, when
     * not NULL, is a file whose section of the pass the run follows (a
     * file without one, or of another text, is refused). */
    int record_schedule;
    const struct exec_schedule *replay;
} runpass_options;

struct strbuf;
/* 1 when pass path of case c comes at or after the case's
 * AllocateMemoryAddr pass (its MemRef offsets are addresses), 0 before it,
 * -1 when neither the case nor the file's folder has such a pass (the
 * machine then tells from the dump; docs/memory.md). A file run alone is
 * placed by the NN_after_AllocateMemoryAddr.py of its folder. */
int runpass_memory_addressed(const case_info *c, const char *path);

/* The line saying REF cannot run a file ptodb ran (note is ref_note): a
 * note, or with strict (--strict-ref) the failing verdict and why. The one
 * wording of --run, --batch and the reports. */
void runpass_format_ref_note(const char *note, int strict, struct strbuf *out);
/* The ref_note of a run that found at run time what REF raises on
 * (machine_ref_note), as "path:line:col: message"; NULL when none. Free it. */
char *runpass_run_time_ref_note(const char *path, const machine *m);
/* The places where the device's semantics differed from REF's in a run, one
 * line per kind ("path:line:col: what (REF would ...)"), NULL when none;
 * *fails set to 1 when REF raises at one of them. Free it. */
char *runpass_ref_differs(const char *path, const machine *m, int *fails);
/* The lines saying so, each "note: REF differs here: ...; ptodb ran it as
 * the device does" (with strict, --strict-ref, the failing verdict for the
 * places REF raises at). The one wording of --run, --batch and the debugger. */
void runpass_format_ref_differs(const char *differs, int strict, struct strbuf *out);

/* A pass file opened to run: parsed and resolved (or a module the caller
 * parsed), lowered, its entry's parameters bound to fresh copies of the case
 * data, the machine started. The one way `--run`, `--batch`, bisect's trace
 * and the debugger set up a run of a pass. */
typedef struct runpass_run {
    ir_module *module;      /* owned when runpass_open parsed it */
    int own_module;
    xprogram *prog;
    case_binding *binds;    /* one per entry parameter */
    size_t nbinds;
    machine *m;             /* NULL when the run did not get as far as a machine */
    runpass_status status;  /* RUNPASS_COMPARED: started (m is running); else message says why not */
    int unchecked;          /* RUNPASS_ERROR: the file does not parse or resolve */
    char *message;
    char *ref_note;         /* REF cannot run this file (codegen error) but ptodb does */
    ptodb_status start;     /* machine_start's status (the machine keeps the error) */
    struct exec_sched_pass *sched; /* record_schedule: the machine records into it (owned) */
} runpass_run;

enum {
    /* run even where REF could not (a codegen error without a ptodb-only op):
     * the debugger shows the run and says REF cannot run it */
    RUNPASS_OPEN_DESPITE_REF = 1
};

/* Opens the pass file at path (or module, when not NULL: parsed and resolved
 * already, borrowed) for case c, with o's ops and machine options, hook (may
 * be NULL) installed before the start. Fills r; r->status says whether the
 * machine started (RUNPASS_COMPARED) or why not (RUNPASS_REF_FAIL when REF
 * would fail there too, RUNPASS_ERROR otherwise), with the same messages for
 * every caller. A machine whose start failed is kept (r->start) so that a
 * debugger can show where. Close with runpass_close. */
void runpass_open(runpass_run *r, const char *path, ir_module *module, const case_info *c, const runpass_options *o,
                  machine_write_hook hook, void *hook_ud, int flags);
void runpass_close(runpass_run *r);

/* The entry function's parameters as case discovery binds them (name,
 * tensor or scalar, dtype, static shape, direction). Returns an array of
 * *n entries (free it; the names point into the program), never NULL. The
 * program must have an entry. */
case_param *runpass_entry_params(const xprogram *p, size_t *n);

/* Sets mo's memory-model target and addressing for pass path of case c
 * (docs/memory.md) when mo->memcheck is on. */
void runpass_memory_options(const char *path, const case_info *c, machine_options *mo);

/* The pass index and name of path in case c (its NN and stem when the
 * case does not list it): what a schedule file's section is named by. */
void runpass_pass_identity(const case_info *c, const char *path, int *index, const char **name);

/* Runs the dump file at path against case c. Never prints. */
void runpass_file(const char *path, const case_info *c, const runpass_options *o, runpass_result *r);
void runpass_result_free(runpass_result *r);

/* --save-outputs: writes o's elements, contiguous, as DIR/STEM.KEY.raw
 * (through a temporary file renamed when complete). 0, or -1 with "cannot
 * write PATH: REASON" in err. */
int runpass_save_output(const char *dir, const char *stem, const runpass_output *o, char *err, size_t errsize);

#endif

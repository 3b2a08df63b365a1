/* A run's schedule: the choices the machine makes that the program does
 * not fix (docs/schedule.md). Which core of a group runs the next
 * statement, and the order of an SPMD launch's blocks. A recording keeps
 * only the choices that differ from the fixed schedule's (the last core
 * while it can run, then the next runnable one in AIC, AIV0, AIV1 order;
 * blocks 0 to N-1), so a run under the fixed schedule records nothing
 * and a replay needs no scheduler state of its own.
 *
 * The file is ours, versioned text, one decision a line, each with the
 * step and the statement it was made at, so that a replay against another
 * pass or a changed program is refused at the line that does not fit:
 *
 *   ptodb-schedule 1
 *   pass 22 9f3a0c2b11d4e871 after_InjectSync
 *   @1234 core AIV1 143
 *   @2000 blocks host 160 8 3 5
 *   end 117668 finished
 *
 * The machine records into and replays from one pass's section
 * (machine_schedule_record, machine_schedule_replay); this file parses
 * and prints them and knows nothing of the machine. */
#ifndef PTODB_EXEC_SCHEDULE_H
#define PTODB_EXEC_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

enum { EXEC_SCHEDULE_VERSION = 1 };

typedef enum { EXEC_DECIDE_CORE, EXEC_DECIDE_BLOCKS } exec_decision_kind;

/* One choice, made at machine step `step` (before it is counted). */
typedef struct exec_decision {
    uint64_t step;
    uint32_t file_line;   /* its line in the file (0 when recorded) */
    uint8_t kind;         /* exec_decision_kind */
    int8_t core;          /* CORE: the core that runs the step; BLOCKS: the launching core */
    int32_t line;         /* the line, in the pass file, of the core's statement (0: none, a call's entry) */
    int64_t blocks, a, c; /* BLOCKS: block i of `blocks` runs (a*i + c) mod blocks */
} exec_decision;

typedef enum {
    EXEC_SCHED_END_NONE,     /* still recording */
    EXEC_SCHED_END_FINISHED, /* the run finished at end_step */
    EXEC_SCHED_END_FAILED,   /* the run failed at its step end_step (deadlock, error) */
    EXEC_SCHED_END_STOPPED   /* the recording was saved there: nothing is known past it */
} exec_sched_end;

/* One pass's section. */
typedef struct exec_sched_pass {
    int index;             /* the pass's index (NN) */
    char *name;
    uint64_t fingerprint;  /* exec_schedule_fingerprint of the pass file's text */
    uint32_t file_line;    /* the `pass` line (0 when recorded) */
    exec_decision *d;      /* by step */
    size_t n, cap;
    uint64_t reached;      /* recording: the furthest step run so far */
    uint64_t end_step;
    int end;               /* exec_sched_end */
    uint32_t end_line;
    const char *path;      /* the file (replay), for messages */
} exec_sched_pass;

typedef struct exec_schedule {
    char *path;
    exec_sched_pass **passes;
    size_t n;
} exec_schedule;

/* FNV-1a 64 of a pass file's bytes: a changed program is refused. */
uint64_t exec_schedule_fingerprint(const char *text, size_t n);

/* "fixed", "aic-first", "aiv-first" or "random:SEED" (--schedule, set
 * schedule): 0 with *kind (machine.h's exec_sched) and *seed, -1 with a
 * message in err. */
int exec_schedule_parse_name(const char *text, int *kind, uint64_t *seed, char *err, size_t errsize);

/* ---- recording ---------------------------------------------------------------------------- */

exec_sched_pass *exec_sched_pass_new(int index, const char *name, uint64_t fingerprint);
void exec_sched_pass_free(exec_sched_pass *p);
/* A decision made while recording; one behind the furthest step reached
 * is a replay of the history (a debugger going back) and is not kept. */
void exec_sched_pass_record(exec_sched_pass *p, const exec_decision *d);
/* The run got to `steps`. */
void exec_sched_pass_reach(exec_sched_pass *p, uint64_t steps);
/* Closes the section: the run finished, failed or was left at `steps`. */
void exec_sched_pass_end(exec_sched_pass *p, uint64_t steps, exec_sched_end end);
/* The file's first line, then a section (call once per pass, in order). */
void exec_schedule_format_head(struct strbuf *out);
void exec_sched_pass_format(const exec_sched_pass *p, struct strbuf *out);

/* ---- replay ------------------------------------------------------------------------------- */

/* Parses a schedule file's text (path for messages): NULL with
 * "PATH:LINE:COL: message" in err. Never reads past len; refuses NUL
 * bytes, lines over 4096 bytes, unknown versions, decisions out of step
 * order, a section with no `end`, a pass twice. */
exec_schedule *exec_schedule_parse(const char *path, const char *text, size_t len, struct strbuf *err);
/* Reads and parses the file at path (at most 1 GiB). */
exec_schedule *exec_schedule_load(const char *path, struct strbuf *err);
void exec_schedule_free(exec_schedule *s);
/* The section of pass `index`, checked against the pass's name and text:
 * NULL with "PATH:LINE: what differs" (or that the file has no such
 * pass) in err. */
const exec_sched_pass *exec_schedule_for_pass(const exec_schedule *s, int index, const char *name,
                                              uint64_t fingerprint, struct strbuf *err);
/* The first decision at or after step (n when none): a binary search. */
size_t exec_sched_pass_find(const exec_sched_pass *p, uint64_t step);

#endif

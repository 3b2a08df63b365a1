/* The breakpoint table: line, function, pass, watch, NaN and Inf
 * breakpoints with their conditions, ignore counts and commands, numbered as
 * gdb numbers them. The commands that change it (cmd_break.c), the stop
 * logic that tests it (run.c), the session files (persist.c) and the front
 * ends' marks (view.c) all reach it through this API. */
#ifndef PTODB_DEBUG_BREAKPOINT_H
#define PTODB_DEBUG_BREAKPOINT_H

#include <regex.h>
#include <stddef.h>

#include "data/case.h"
#include "debug/state/predicate.h"
#include "tensor/tensor.h"

typedef struct session session;

/* BP_CATCH_MEMORY: `catch memory`, a catchpoint on the memory sanitizer's
 * faults (docs/memory.md); BP_CATCH_RACE, BP_CATCH_FENCE: `catch race`,
 * `catch fence`, on a multi-rank run's first race on a window and first
 * breach of the fence contract (docs/multirank.md) */
typedef enum {
    BP_LINE, BP_FUNC, BP_PASS, BP_WATCH, BP_NAN, BP_INF, BP_CATCH_MEMORY, BP_CATCH_RACE, BP_CATCH_FENCE
} bp_kind;
/* BP_WATCH: gdb's watch (a change of value), rwatch (a read), awatch (either) */
typedef enum { WATCH_WRITE, WATCH_READ, WATCH_ACCESS } watch_access;

typedef struct breakpoint {
    int number;
    bp_kind kind;
    int enabled;
    int temporary;       /* tbreak: deleted when hit */
    int pass;            /* BP_LINE: the pass whose file the line is in */
    int line;            /* BP_LINE */
    char *func;          /* BP_FUNC */
    char *spec;          /* BP_PASS: the name or /regex/; BP_WATCH: the tensor name */
    regex_t re;          /* BP_PASS with /regex/ */
    int has_re;
    predicate *cond;     /* a predicate on the produced tensor, or NULL */
    char *cond_expr;     /* or gdb's: an expression (expr.h) tested where the
                            line is reached, before it runs; true when nonzero
                            (a tensor: every element nonzero) */
    long ignore;         /* hits still to ignore */
    long hits;
    char **commands;     /* run when it stops here */
    size_t ncommands;
    const tensor *watch_seen; /* BP_WATCH: the object last seen under the name */
    char *watch_sub;          /* BP_WATCH on T[SUBSCRIPT]: the subscript, or NULL */
    tensor *watch_old;        /* the watched value when last seen (NULL before it is bound) */
    int watch_bound;
    watch_access watch_access;  /* BP_WATCH: what stops it */
    int rank;            /* a multi-rank case: the rank it applies to (`break 12 rank 1`), -1 any */
    /* BP_WATCH in a multi-rank case: what each rank's name held when last
     * seen (watch_seen, watch_old and watch_bound are watch_loaded's) */
    struct bp_watch_rank {
        const tensor *seen;
        tensor *old;
        int bound;
    } *watch_ranks;
    int nwatch_ranks;
    int watch_loaded;    /* the rank whose values the watch_* fields hold, -1 none */
} breakpoint;

/* A new enabled breakpoint of that kind with the next number, appended to
 * the session's table (pointers into the table move when it grows). */
/* The catchpoints: `catch EVENT` for each catch kind, and what it stops
 * on ("memory fault"); the kind of event (BP_LINE when none). */
typedef struct bp_catch_event {
    const char *event, *what;
    bp_kind kind;
} bp_catch_event;
extern const bp_catch_event bp_catch_events[3];
const bp_catch_event *bp_catch_of(bp_kind kind);

breakpoint *bp_new(session *s, bp_kind kind);
breakpoint *bp_find(session *s, int number);
/* Removes b from the table, releasing what it holds. */
void bp_delete(session *s, breakpoint *b);
void bp_free_all(session *s);
/* The text of b's condition (predicate or expression), or NULL. */
const char *bp_condition_text(const breakpoint *b);
/* b applies to the statement the stepping rank ran (always in a
 * single-rank case). */
int bp_applies_to_rank(const session *s, const breakpoint *b);
/* Forgets every watchpoint's values of every rank (a new run). */
void bp_watch_reset(breakpoint *b);
/* A pass breakpoint's name or /regex/ against a pass. */
int bp_pass_matches(const breakpoint *b, const case_pass *p);
/* gdb's "Note: breakpoint 1 also set at ..." when nb's location already has
 * breakpoints in the table. */
void bp_note_also_set(session *s, const breakpoint *nb);
/* gdb's `info breakpoints`: the table with conditions, hits and commands. */
void bp_print_table(session *s);
/* How many passes of the open case define function name (a `def name(`
 * line in the file, whether it checks or not): 0 makes a function
 * breakpoint on it pending. Reads the files, prints nothing. */
size_t bp_func_passes(session *s, const char *name);

#endif

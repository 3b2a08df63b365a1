/* The stop of a run, as gdb's bpstat: after each statement
 * stop_chain_build decides which breakpoints, watchpoints and conditions
 * hit, in table order, each with whether it prints and its commands; then
 * stop_chain_act reports the stop, shows the displays, runs hook-stop once
 * and each hit's commands in order. A command that resumes the run (continue,
 * next, ...) ends its own list, lets the other hits' commands of this stop
 * run, and takes effect once the stop is over (session_execute runs it), so
 * the next stop's report, hook-stop and commands run as any stop's do. */
#ifndef PTODB_DEBUG_STOP_H
#define PTODB_DEBUG_STOP_H

#include <stddef.h>

#include "base/strbuf.h"
#include "debug/state/breakpoint.h"
#include "exec/inspect.h"
#include "exec/machine.h"

typedef struct session session;

/* The tensors bound in every frame of every core at one moment. */
typedef struct stop_snapshot {
    struct stop_slot *items;
    size_t n, cap;
} stop_snapshot;
void stop_snapshot_take(const machine *m, stop_snapshot *sn);
void stop_snapshot_free(stop_snapshot *sn);

typedef enum {
    STOP_HIT_LOCATION,   /* a line or function breakpoint reached (its expression condition held) */
    STOP_HIT_PRODUCED,   /* a line breakpoint's predicate held on the tensor its statement produced */
    STOP_HIT_WATCH,      /* a watchpoint's value changed (or, rwatch/awatch, was read) */
    STOP_HIT_NAN,        /* the last statement produced a NaN */
    STOP_HIT_INF,        /* ... or an Inf */
    STOP_HIT_MEMORY,     /* catch memory: the last statement had a memory fault */
    STOP_HIT_RACE,       /* catch race: the last statement raced with another rank's access */
    STOP_HIT_FENCE,      /* catch fence: the last statement broke the fence contract */
    STOP_HIT_PASS_START, /* a pass breakpoint at the start of its pass */
    STOP_HIT_PASS_END    /* a conditional pass breakpoint whose condition held on an output */
} stop_hit_kind;

typedef struct stop_hit {
    int bp;               /* the breakpoint's number */
    stop_hit_kind kind;
    int print;            /* 0 when its commands begin with `silent` */
    int cond_error;       /* its condition could not be tested (the error is printed) */
    int read;             /* WATCH: the hit is a read (rwatch, awatch) */
    char *what;           /* PRODUCED: the tensor; PASS_END: the output */
    tensor *old;          /* WATCH: the value before (NULL: not bound yet); owned */
    tensor *now;          /* WATCH: the value now; owned */
    int backward;         /* WATCH: found going backward (timetravel.c): old and now
                             are the values after and before the statement */
    char **commands;      /* a copy: the commands may delete the breakpoint */
    size_t ncommands;
} stop_hit;

typedef struct stop_chain {
    stop_hit *hits;
    size_t n, cap;
    int stopped;          /* the run stops here: a hit, or the until line reached */
    int core;             /* the core it stops on */
    int pass;             /* PASS_START/PASS_END: the pass */
    /* the statement that ran last (watchpoints name it) */
    int writer_core, writer_line;
    const char *writer_func;
    int watch_rank;       /* a multi-rank case: the rank whose names the watchpoints looked at */
} stop_chain;

/* What the last machine step did, for the stop's decision. */
typedef struct stop_step {
    int core;                                /* the core that ran it (-1 none) */
    int stmt_done;                           /* it finished a statement or returned */
    int entered[EXEC_NCORES];                /* cores that entered a frame */
    const inspect_frame *was[EXEC_NCORES];   /* each core before it ran, NULL unknown */
    const stop_snapshot *before, *after;     /* NULL when no value breakpoint needs them */
    int until_line;                          /* RUN_UNTIL's line, 0 none */
    unsigned comm_faults;                    /* multi-rank: the faults it found (RANKS_FAULT_*) */
} stop_step;

/* Which breakpoints the step hit, in table order, counting each hit (and
 * spending ignore counts). Returns c->stopped. */
int stop_chain_build(session *s, const stop_step *step, stop_chain *c);
/* The watchpoints alone, on the names of the rank run.m is (a multi-rank
 * case: a peer's step may have written into this rank's windows).
 * Returns c->stopped. */
int stop_chain_build_watches(session *s, stop_chain *c);
/* Multi-rank: the watchpoints' remembered values become rank's. */
void stop_watch_load_rank(session *s, int rank);
/* The pass breakpoints at the start of pass, or (at_end) those whose
 * condition holds on its finished outputs. Returns c->stopped. */
int stop_chain_build_pass(session *s, int pass, int at_end, stop_chain *c);
/* A stop that no breakpoint made (step done, interrupt): on core. */
void stop_chain_plain(stop_chain *c, int core);
/* Reports the stop, runs displays, hook-stop and the hits' commands; frees c. */
void stop_chain_act(session *s, stop_chain *c);
void stop_chain_free(stop_chain *c);

/* Which value breakpoints are set: 1 watch/NaN/Inf, 2 also conditional lines
 * (they need where each core was before the step). */
int stop_needs_values(session *s);
int stop_needs_positions(session *s);
/* An enabled rwatch or awatch: the machine must report op operands. */
int stop_needs_reads(session *s);
/* A watchpoint's subscript: well formed, and (when the name is bound now)
 * selecting at least one element. -1 with the reason in err. */
int stop_watch_check(session *s, const char *name, const char *sub, strbuf *err);
/* A new watchpoint starts from the value its name has now, if any. */
void stop_watch_prime(session *s, breakpoint *b);

#endif

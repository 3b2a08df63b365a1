/* The program being debugged (run.c): one pass on the machine, its stops,
 * and the per-pass table of finished runs every view reads. */
#ifndef PTODB_DEBUG_RUN_H
#define PTODB_DEBUG_RUN_H

#include <stdint.h>

#include "base/strbuf.h"
#include "data/case.h"
#include "debug/state/breakpoint.h"
#include "debug/state/session.h"
#include "debug/present/view.h"
#include "ranks/sched.h"
#include "ranks/world.h"
#include "exec/compare.h"
#include "exec/machine.h"
#include "exec/program.h"

/* A finished pass run, kept for verdicts, heat grids and diffs. */
typedef struct pass_result {
    int ran;            /* 1 once a run of the pass ended */
    int failed;         /* the run raised (message printed) */
    int unchecked;      /* failed, as its file does not check: it never ran (background, bisect) */
    int memfault;       /* the run had memory faults (docs/memory.md): MEMFAULT */
    int nout;
    tensor **outputs;   /* per case output (NULL when missing), one reference each */
    double *max_abs_diff;
    double *margin;     /* per output: the worst element's |diff| as a fraction
                           of its tolerance (exec_compare_result.margin), NaN unknown */
    int *ok;
    int background;     /* from the background validation: outputs only for the
                           first failing pass and the one before it */
    int same_as;        /* background: the earlier pass with the same file bytes, -1 */
} pass_result;

/* The program being debugged: one pass on the machine. */
typedef struct run_state {
    int active;          /* a machine exists (running or stopped) */
    char *comm_report;   /* the last catch race / catch fence stop's report (owned) */
    int pass;
    xprogram *prog;
    machine *m;
    case_binding *binds;
    size_t nbinds;
    int core;            /* the core commands act on (exec_core_id) */
    int level;           /* the selected frame on that core (0 innermost) */
    int finished;        /* the pass ran to its end (validated) */
    int failed;          /* it raised: only kill/run make sense */
    ptodb_status fail_status; /* what it raised (ERR_DEADLOCK, ERR_RUNTIME, ...) */
    int prev_depth[EXEC_NCORES];
    int last_bp;         /* the breakpoint of the last stop, 0 none */
    /* arrivals of each core at each statement (for `pass next` keeping the
     * program point): open addressing on the statement pointer */
    struct visit {
        const void *stmt;
        int core;
        uint32_t count;
        /* the call (activation + 1) of the last arrival, and count before
         * that call's first arrival: the position's iteration (timetravel.h) */
        uint32_t act, base;
    } *visits;
    /* core | RUN_VISIT_HELD: an entry that holds the arrivals of a call
     * parked at a system.syncall (act that call, count - base its
     * arrivals there) while another call of the function uses the core,
     * so that the call counts on where it stopped when its block resumes */
#define RUN_VISIT_HELD 0x100
    size_t nvisits, capvisits;
    /* each core's innermost frame when arrivals were last counted */
    int note_depth[EXEC_NCORES];
    uint32_t note_activation[EXEC_NCORES];
    uint64_t note_steps[EXEC_NCORES];
    /* the moment (step; a multi-rank run's move) of each core's last
     * arrival: a position names the moment of an arrival, "+D" the moment
     * D after it (timetravel.h) */
    uint64_t arrive_step[EXEC_NCORES];
    /* the move that made the current moment: the core that moved (-1 none:
     * the run's first moment) and its event (exec_event_kind, or
     * RUN_KIND_STARTED: a multi-rank task's start), for the backward search */
    int last_mover, last_kind;
    /* the GM regions each core's loads and stores touched (point.c) */
    struct point_regions *regions;
    int user_modified;   /* set var changed a tensor: the verdict is not the pass's own */
    /* a multi-rank case (run_ranks.c, docs/multirank.md): the schedule of
     * its ranks; m is then the selected rank's machine (the stepping
     * rank's while a step's stops are decided), prog the program they
     * share; NULL for a single-rank case */
    struct ranks_sched *ranks;
    int rank;            /* the selected rank */
    int step_rank;       /* the rank whose statement ran last (breakpoints per rank test it) */
    int (*rank_depth)[EXEC_NCORES]; /* per rank: prev_depth */
    struct stop_snapshot *rank_snaps; /* per rank: its bindings after its last step (value breakpoints) */
    signed char *rank_verdict; /* per rank once the pass ended: 1 every output passed, 0 one failed, -1 none */
    unsigned char *rank_parked; /* per rank: its parking is in the timeline (once, not at every retry) */
    struct rank_where *rank_where; /* per rank: its cores' frames before a move (run_ranks.c) */
    struct rank_arrivals *rank_arrivals; /* per rank: its arrivals (positions' ITER), but arrivals_rank's */
    int arrivals_rank;   /* the rank whose arrivals visits, note_* and regions above hold (-1 none) */
    struct runpass_options *rank_opts; /* the run's options: a jump back makes its schedule again */
    uint64_t rank_moves; /* the moves of the global schedule so far: the multi-rank run's time (@STEP) */
    uint64_t rank_horizon; /* the furthest move reached */
    int rank_last_mover, rank_last_core; /* the rank and core of the last move */
    int ranks_end_clean; /* the pass ended with every check and output passing and no pass breakpoint
                            stopped there: continue goes on into the next pass */
    /* the timeline of this run (view_timeline): one entry per machine step,
     * the last RUN_TIMELINE_MAX kept */
    struct tt_history *tt; /* timetravel.c: checkpoints and the recorded schedule, or NULL */
    /* The machine's choices so far (exec/schedule.h), recorded for
     * `record schedule`; sched_broken: the step at which `set var` changed
     * the run (a replay could not reach what followed), 0 none. */
    struct exec_sched_pass *sched;
    uint64_t sched_broken;
    int sched_replayed;    /* the run follows s->replay */
    int tt_show_position;  /* the next stop prints its position (a time-travel command) */
    char *line_marks;      /* timeline.c: per line of the pass, 'p' push, 'o' pop, 0 */
    int nline_marks;
    view_tl_event *timeline; /* a ring: the oldest at ntimeline % cap once full */
    struct queue_track *qtracks; /* queue_track.c: the producers of the items in flight */
    size_t nqtracks;
    size_t ntimeline, captimeline;
    /* tensors written in place during the last step (write hook), one
     * reference each (run_clear_step_lists) */
    const tensor **written;
    size_t nwritten, capwritten;
    /* tensors read as operands during the last step (read hook; only while
     * an rwatch or awatch is set) */
    const tensor **read;
    size_t nread, capread;
} run_state;

/* run.c */
void run_kill(session *s);
/* validate_bg.c, which fills the table too: frees the per-pass results */
void run_free_results(session *s);
void run_free_result(pass_result *r);
/* Starts pass i from its entry with fresh inputs; prints errors. */
ptodb_status run_start(session *s, int pass);
typedef enum { RUN_STEP, RUN_NEXT, RUN_FINISH, RUN_CONTINUE, RUN_UNTIL, RUN_UNTIL_NEXT } run_mode;
/* run_state.last_kind of a multi-rank task's start (its host's first statement, no statement ran) */
enum { RUN_KIND_STARTED = 100 };
/* A finished pass's outputs against golden, as run control compared them
 * (the event outputs_validated; presentation prints the "==== stem ===="
 * block from it). */
typedef struct run_output_verdict {
    const char *key;         /* the output's name ("rank1.out" in a multi-rank case) */
    int missing;             /* not bound after the run: no verdict */
    exec_compare_result cmp; /* cmp.error: the comparison itself failed (cmp.msg) */
} run_output_verdict;
typedef struct run_outputs_report {
    int pass;
    const char *checks_failed; /* multi-rank: the end checks' report (races, signals); nothing compared */
    const char *ref_note;      /* the reference's run-time note, or NULL */
    const char *ref_differs;   /* device semantics: where the reference differs, or NULL */
    const run_output_verdict *outputs;
    size_t noutputs;
    int user_modified; /* set var changed the run's tensors: the verdicts are not recorded */
} run_outputs_report;

/* Runs until the mode's stop condition, a breakpoint, the end or an error,
 * then reports the stop. until_line: RUN_UNTIL's line in the running pass. */
ptodb_status run_go(session *s, run_mode mode, long count, int until_line);
/* `run` / `start`: starts pass and runs (or stops at its first statement). */
ptodb_status run_begin(session *s, int pass, int stop_at_start);

/* run_ranks.c: the same for a multi-rank case. */
ptodb_status run_ranks_start(session *s, int pass);
ptodb_status run_ranks_go(session *s, run_mode mode, long count, int until_line);
void run_ranks_free(run_state *r);
/* Selects rank (its machine, its host core or the first core in a frame). */
ptodb_status run_ranks_select(session *s, int rank);
/* A new watchpoint starts from what its name holds on each rank it watches. */
void run_ranks_prime_watch(session *s, breakpoint *b);
/* info ranks' rows while a run exists (present/run_listing.c): rank k's
 * state, verdict, tasks left and where it is (located: somewhere to say; a
 * parked rank's wait appended to wait, waits set, when it has one to describe). 0
 * without a multi-rank run or past its last rank. */
typedef struct run_rank_row {
    ranks_rank_state state;
    int verdict;      /* 1 every output passed, 0 one failed, -1 not compared */
    size_t pending;   /* its tasks left */
    int located;
    const char *func; /* where it runs (running), or last ran (parked) */
    int line;
    int core;
    int waits;        /* wait holds what it waits for */
} run_rank_row;
int run_ranks_row(session *s, int k, run_rank_row *row, strbuf *wait);
/* queue show's part: the signal cells notified or waited on (at most max
 * in cells), how many there are in all. */
size_t run_ranks_signals(session *s, ranks_signal_cell *cells, size_t max);

#endif

/* What run control and the session's state report to the floors above them
 * (docs/notes-debug.md, "The debugger's floors"): as gdb's observable.h, a floor
 * registers an observer for an event and the floor below notifies it,
 * knowing nothing of who listens. Observers run in the order they were
 * registered (session_new: run control, then presentation, then commands),
 * which is the order the output they make comes in. */
#ifndef PTODB_DEBUG_OBSERVERS_H
#define PTODB_DEBUG_OBSERVERS_H

#include <stdint.h>

#include "debug/state/session.h"

struct inspect_frame;
struct run_lane_share;
struct run_outputs_report;
struct stop_chain;
struct stop_hit;

/* How a pass's run ended (pass_finished). */
typedef enum {
    RUN_PASS_FINISHED,          /* it ran to its end (its outputs' verdicts are reported apart) */
    RUN_PASS_FINISHED_FAILURES, /* multi-rank: ran to its end and an output differs */
    RUN_PASS_FINISHED_NO_GOLDEN /* multi-rank: ran to its end, no golden output to compare */
} run_pass_end;

typedef struct session_observer {
    /* A case was opened and its saved session restored (the front ends
     * start its background validation). */
    void (*case_opened)(session *s, void *ctx);
    /* The open case is about to close: saved already; whatever a floor
     * keeps of it (the run, its results, displays, a compare) goes now. */
    void (*case_closing)(session *s, void *ctx);
    /* The session is being freed: what a floor keeps beyond a case. */
    void (*session_freeing)(session *s, void *ctx);
    /* The program stopped and is about to be reported: gdb's hook-stop
     * runs here, before the stop is printed. */
    void (*before_stop)(session *s, void *ctx);
    /* The stop's location is to be shown (after the hit's own messages):
     * gdb's print_stop_event's frame line and source line. */
    void (*stop_location)(session *s, void *ctx);
    /* The program stopped at a location and the stop was reported (gdb's
     * normal_stop): displays print; only_changed: only those whose value
     * changed. */
    void (*normal_stop)(session *s, int only_changed, void *ctx);
    /* The hit that gives the stop its line (a breakpoint, a catchpoint, a
     * pass breakpoint; gdb's print_it of a bpstat): presentation prints
     * "Breakpoint 1, ", "Catchpoint 2 (memory fault)" and the like. c is the
     * stop (its pass, the rank of a multi-rank case); the location follows
     * (stop_location) unless the hit is a finished pass's. */
    void (*breakpoint_stop)(session *s, const struct stop_chain *c, const struct stop_hit *h, void *ctx);
    /* A watchpoint of the stop triggered: h->old and h->now are the values
     * before and after (h->read: the value read), c the statement that
     * wrote or read it. Others of the same stop follow. */
    void (*watchpoint_triggered)(session *s, const struct stop_chain *c, const struct stop_hit *h, void *ctx);
    /* Run control's messages of a run, each before the stop it leads to:
     * it followed another core (step, when the selected one waits; rank
     * -1 in a one-rank case), the selected rank changed (`rank N`), the
     * selected core's task ended and the host is shown, the run was
     * interrupted, reverse execution reached the start of the history,
     * `finish` starts (f: the frame it runs out of, at level). */
    void (*core_switched)(session *s, int rank, int core, void *ctx);
    void (*rank_switched)(session *s, int rank, void *ctx);
    void (*core_finished)(session *s, int rank, int core, void *ctx);
    void (*run_interrupted)(session *s, void *ctx);
    void (*history_exhausted)(session *s, void *ctx);
    void (*finish_started)(session *s, int level, const struct inspect_frame *f, void *ctx);
    /* The pass's run ended: ran to its end after steps statements (memfaults:
     * the memory faults it had), or stopped with error. */
    void (*pass_finished)(session *s, int pass, run_pass_end how, uint64_t steps, uint64_t memfaults, void *ctx);
    void (*pass_failed)(session *s, int pass, const char *error, void *ctx);
    /* The PyTorch reference cannot run the pass just started (note: why);
     * the run goes on without it. */
    void (*reference_unavailable)(session *s, int pass, const char *note, void *ctx);
    /* The ended pass's outputs were compared with golden (run/run.h's
     * run_outputs_report: the reference's notes, each output's verdict or
     * why it has none, a multi-rank run's failed end checks), before
     * pass_finished. */
    void (*outputs_validated)(session *s, const struct run_outputs_report *rep, void *ctx);
    /* `pass N` looked for the point of pass corresponding to the stop
     * (where: the stop's frame, how: the match or why there is none):
     * found, the run stopped there; else run_restarted follows. */
    void (*point_sought)(session *s, int pass, int found, const char *where, const char *how, void *ctx);
    /* The run went back to the start of pass (a seek that found nothing). */
    void (*run_restarted)(session *s, int pass, void *ctx);
    /* `diff ... pass N`: variable name of from_pass (at where) is other in
     * pass (how: the match). */
    void (*counterpart_found)(session *s, const char *name, int from_pass, const char *where, const char *other,
                              int pass, const char *how, void *ctx);
    /* A compare with another pass took a vector lane's half of its tensor
     * (run/record.h's run_lane_share: which half, and by what). */
    void (*lane_share_taken)(session *s, const struct run_lane_share *ls, void *ctx);
    /* The background validation (run/validate_bg.c): every pass passed;
     * pass is the first that failed (selected: it became the current pass;
     * unchecked: its file does not check, so it never ran; loaded, its
     * errors printed); the divergence engine found the statement (the
     * session's bisect_head and bisect_why say it; rank -1 in a one-rank
     * case); it stopped before the end, received passes of total validated. */
    void (*validation_passed)(session *s, int npasses, void *ctx);
    void (*first_failing_pass)(session *s, int pass, int selected, int unchecked, void *ctx);
    void (*divergence_found)(session *s, int pass, int line, int rank, void *ctx);
    void (*validation_stopped)(session *s, int received, int total, void *ctx);
    /* `continue` past a pass's end went on into pass (started, before its
     * pass breakpoints are checked), or found none after it (pass -1). */
    void (*pass_entered)(session *s, int pass, void *ctx);
    /* A breakpoint of the stop was hit: its commands run. */
    void (*breakpoint_hit)(session *s, const struct stop_hit *hit, void *ctx);
    void *ctx;
} session_observer;

/* Registers o (copied): each non-NULL member is called on its event. */
void session_observe(session *s, const session_observer *o);
void session_observers_free(session *s);

void session_notify_case_opened(session *s);
void session_notify_case_closing(session *s);
void session_notify_session_freeing(session *s);
void session_notify_before_stop(session *s);
void session_notify_stop_location(session *s);
void session_notify_normal_stop(session *s, int only_changed);
void session_notify_breakpoint_stop(session *s, const struct stop_chain *c, const struct stop_hit *hit);
void session_notify_watchpoint_triggered(session *s, const struct stop_chain *c, const struct stop_hit *hit);
void session_notify_breakpoint_hit(session *s, const struct stop_hit *hit);
void session_notify_core_switched(session *s, int rank, int core);
void session_notify_rank_switched(session *s, int rank);
void session_notify_core_finished(session *s, int rank, int core);
void session_notify_run_interrupted(session *s);
void session_notify_history_exhausted(session *s);
void session_notify_finish_started(session *s, int level, const struct inspect_frame *f);
void session_notify_pass_finished(session *s, int pass, run_pass_end how, uint64_t steps, uint64_t memfaults);
void session_notify_pass_failed(session *s, int pass, const char *error);
void session_notify_reference_unavailable(session *s, int pass, const char *note);
void session_notify_outputs_validated(session *s, const struct run_outputs_report *rep);
void session_notify_point_sought(session *s, int pass, int found, const char *where, const char *how);
void session_notify_run_restarted(session *s, int pass);
void session_notify_counterpart_found(session *s, const char *name, int from_pass, const char *where,
                                      const char *other, int pass, const char *how);
void session_notify_lane_share_taken(session *s, const struct run_lane_share *ls);
void session_notify_validation_passed(session *s, int npasses);
void session_notify_first_failing_pass(session *s, int pass, int selected, int unchecked);
void session_notify_divergence_found(session *s, int pass, int line, int rank);
void session_notify_validation_stopped(session *s, int received, int total);
void session_notify_pass_entered(session *s, int pass);

/* The command runners the commands floor registers (session_new): how a
 * floor below runs a command without calling up. line: a line through the
 * command loop (view.c's report of `why` for the front end); builtin: one
 * built-in command by name, as the table dispatches it (persist.c's restore
 * of a saved record), PTODB_ERR_NOT_FOUND when there is none. */
typedef ptodb_status (*session_line_fn)(session *s, const char *line);
typedef ptodb_status (*session_builtin_fn)(session *s, const char *word, size_t len, const char *args);
void session_set_runner(session *s, session_line_fn line, session_builtin_fn builtin);
ptodb_status session_run_line(session *s, const char *line);
ptodb_status session_run_builtin(session *s, const char *word, size_t len, const char *args);

#endif

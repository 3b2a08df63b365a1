/* The observers of a session's events (observers.h). */
#include "debug/state/observers.h"

#include <stdlib.h>

#include "base/mem.h"
#include "debug/state/session_impl.h"

void session_observe(session *s, const session_observer *o)
{
    s->observers = xreallocarray(s->observers, s->nobservers + 1, sizeof *s->observers);
    s->observers[s->nobservers++] = *o;
}

void session_observers_free(session *s)
{
    free(s->observers);
    s->observers = NULL;
    s->nobservers = 0;
}

/* Calls member m of every observer that has one, with the arguments after ctx-less s. */
#define NOTIFY(s, m, ...)                                                                                    \
    do {                                                                                                     \
        for (size_t i_ = 0; i_ < (s)->nobservers; i_++)                                                      \
            if ((s)->observers[i_].m)                                                                        \
                (s)->observers[i_].m(__VA_ARGS__);                                                           \
    } while (0)

void session_notify_case_opened(session *s)
{
    NOTIFY(s, case_opened, s, s->observers[i_].ctx);
}

void session_notify_case_closing(session *s)
{
    NOTIFY(s, case_closing, s, s->observers[i_].ctx);
}

void session_notify_session_freeing(session *s)
{
    NOTIFY(s, session_freeing, s, s->observers[i_].ctx);
}

void session_notify_before_stop(session *s)
{
    NOTIFY(s, before_stop, s, s->observers[i_].ctx);
}

void session_notify_stop_location(session *s)
{
    NOTIFY(s, stop_location, s, s->observers[i_].ctx);
}

void session_notify_normal_stop(session *s, int only_changed)
{
    NOTIFY(s, normal_stop, s, only_changed, s->observers[i_].ctx);
}

void session_notify_breakpoint_stop(session *s, const struct stop_chain *c, const struct stop_hit *hit)
{
    NOTIFY(s, breakpoint_stop, s, c, hit, s->observers[i_].ctx);
}

void session_notify_watchpoint_triggered(session *s, const struct stop_chain *c, const struct stop_hit *hit)
{
    NOTIFY(s, watchpoint_triggered, s, c, hit, s->observers[i_].ctx);
}

void session_notify_breakpoint_hit(session *s, const struct stop_hit *hit)
{
    NOTIFY(s, breakpoint_hit, s, hit, s->observers[i_].ctx);
}

void session_notify_core_switched(session *s, int rank, int core)
{
    NOTIFY(s, core_switched, s, rank, core, s->observers[i_].ctx);
}

void session_notify_rank_switched(session *s, int rank)
{
    NOTIFY(s, rank_switched, s, rank, s->observers[i_].ctx);
}

void session_notify_core_finished(session *s, int rank, int core)
{
    NOTIFY(s, core_finished, s, rank, core, s->observers[i_].ctx);
}

void session_notify_run_interrupted(session *s)
{
    NOTIFY(s, run_interrupted, s, s->observers[i_].ctx);
}

void session_notify_history_exhausted(session *s)
{
    NOTIFY(s, history_exhausted, s, s->observers[i_].ctx);
}

void session_notify_finish_started(session *s, int level, const struct inspect_frame *f)
{
    NOTIFY(s, finish_started, s, level, f, s->observers[i_].ctx);
}

void session_notify_pass_finished(session *s, int pass, run_pass_end how, uint64_t steps, uint64_t memfaults)
{
    NOTIFY(s, pass_finished, s, pass, how, steps, memfaults, s->observers[i_].ctx);
}

void session_notify_pass_failed(session *s, int pass, const char *error)
{
    NOTIFY(s, pass_failed, s, pass, error, s->observers[i_].ctx);
}

void session_notify_reference_unavailable(session *s, int pass, const char *note)
{
    NOTIFY(s, reference_unavailable, s, pass, note, s->observers[i_].ctx);
}

void session_notify_outputs_validated(session *s, const struct run_outputs_report *rep)
{
    NOTIFY(s, outputs_validated, s, rep, s->observers[i_].ctx);
}

void session_notify_point_sought(session *s, int pass, int found, const char *where, const char *how)
{
    NOTIFY(s, point_sought, s, pass, found, where, how, s->observers[i_].ctx);
}

void session_notify_run_restarted(session *s, int pass)
{
    NOTIFY(s, run_restarted, s, pass, s->observers[i_].ctx);
}

void session_notify_counterpart_found(session *s, const char *name, int from_pass, const char *where,
                                      const char *other, int pass, const char *how)
{
    NOTIFY(s, counterpart_found, s, name, from_pass, where, other, pass, how, s->observers[i_].ctx);
}

void session_notify_lane_share_taken(session *s, const struct run_lane_share *ls)
{
    NOTIFY(s, lane_share_taken, s, ls, s->observers[i_].ctx);
}

void session_notify_validation_passed(session *s, int npasses)
{
    NOTIFY(s, validation_passed, s, npasses, s->observers[i_].ctx);
}

void session_notify_first_failing_pass(session *s, int pass, int selected, int unchecked)
{
    NOTIFY(s, first_failing_pass, s, pass, selected, unchecked, s->observers[i_].ctx);
}

void session_notify_divergence_found(session *s, int pass, int line, int rank)
{
    NOTIFY(s, divergence_found, s, pass, line, rank, s->observers[i_].ctx);
}

void session_notify_validation_stopped(session *s, int received, int total)
{
    NOTIFY(s, validation_stopped, s, received, total, s->observers[i_].ctx);
}

void session_notify_pass_entered(session *s, int pass)
{
    NOTIFY(s, pass_entered, s, pass, s->observers[i_].ctx);
}

void session_set_runner(session *s, session_line_fn line, session_builtin_fn builtin)
{
    s->run_line = line;
    s->run_builtin = builtin;
}

ptodb_status session_run_line(session *s, const char *line)
{
    return s->run_line ? s->run_line(s, line) : PTODB_ERR_USAGE;
}

ptodb_status session_run_builtin(session *s, const char *word, size_t len, const char *args)
{
    return s->run_builtin ? s->run_builtin(s, word, len, args) : PTODB_ERR_NOT_FOUND;
}

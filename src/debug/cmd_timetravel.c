/* Time-travel commands: reverse-step, reverse-next, reverse-finish,
 * reverse-continue, seek, when, checkpoint, restart (the engine is
 * timetravel.c). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/run/run_ranks.h"
#include "debug/state/session_impl.h"
#include "debug/run/stop.h"
#include "debug/run/timetravel.h"
#include "base/atomic_file.h"
#include "base/path_within.h"
#include "base/strbuf.h"
#include "exec/inspect.h"
#include "exec/schedule.h"

#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    ptodb_status cmd_##id(session *s, const char *args);
#include "debug/commands.def"
#undef CMD

/* A run to travel in. A multi-rank run (re-executed from the pass's start,
 * timetravel.h) has no checkpoints: `checkpoint` and `restart` need
 * ckpts. */
static int need_run_of(session *s, int ckpts)
{
    run_state *r = &s->run;
    if (!r->active || !r->m) {
        session_errorf(s, "The program is not being run.");
        return 0;
    }
    if (r->ranks && ckpts) {
        session_errorf(s, "A multi-rank run has no checkpoints: it goes back by running its schedule again from "
                          "the pass's start (docs/time-travel.md); use seek @STEP or a position.");
        return 0;
    }
    if (r->ranks && r->sched_broken) {
        session_errorf(s,
                       "set var changed this run at step %" PRIu64 ": a replay from the pass's start could not "
                       "reach the same state. Use \"run\" to start it again.",
                       r->sched_broken - 1);
        return 0;
    }
    return 1;
}

static int need_run(session *s)
{
    return need_run_of(s, 0);
}

static long count_of(session *s, const char *args)
{
    if (!*args)
        return 1;
    char *end;
    long n = strtol(args, &end, 10);
    if (*end || n < 1) {
        session_errorf(s, "Expected a positive count, got \"%s\".", args);
        return -1;
    }
    return n;
}

static ptodb_status reverse(session *s, const char *args, tt_reverse_mode mode, int counted)
{
    if (!need_run(s))
        return PTODB_ERR_USAGE;
    long n = 1;
    if (counted && (n = count_of(s, args)) < 0)
        return PTODB_ERR_USAGE;
    if (!counted && *args) {
        session_errorf(s, "This command takes no argument.");
        return PTODB_ERR_USAGE;
    }
    return tt_reverse(s, mode, n);
}

ptodb_status cmd_REVERSE_STEP(session *s, const char *args) { return reverse(s, args, TT_REV_STEP, 1); }
ptodb_status cmd_REVERSE_NEXT(session *s, const char *args) { return reverse(s, args, TT_REV_NEXT, 1); }
ptodb_status cmd_REVERSE_FINISH(session *s, const char *args) { return reverse(s, args, TT_REV_FINISH, 0); }
ptodb_status cmd_REVERSE_CONTINUE(session *s, const char *args)
{
    return reverse(s, args, TT_REV_CONTINUE, 0);
}

/* The stop after a jump: location, position, displays and hook-stop. */
static void report(session *s)
{
    run_state *r = &s->run;
    stop_chain c;
    stop_chain_plain(&c, r->core);
    r->tt_show_position = 1;
    stop_chain_act(s, &c);
    r->tt_show_position = 0;
}

ptodb_status cmd_SEEK(session *s, const char *args)
{
    if (!need_run(s))
        return PTODB_ERR_USAGE;
    if (!*args) {
        session_errorf(s, "Usage: seek POSITION | seek @STEP");
        return PTODB_ERR_USAGE;
    }
    tt_pos p;
    char err[256];
    if (tt_parse_position(s, args, &p, err, sizeof err) != 0) {
        session_errorf(s, "%s", err);
        return PTODB_ERR_USAGE;
    }
    run_state *r = &s->run;
    if (!p.by_step && p.pass_index != s->kase.passes[r->pass].index) {
        session_errorf(s, "Position %s is in pass %d; the running pass is %d (run it first).", args, p.pass_index,
                       s->kase.passes[r->pass].index);
        return PTODB_ERR_USAGE;
    }
    int rc = tt_goto_position(s, &p);
    if (rc < 0) {
        s->interrupted = 0;
        session_printf(s, "\nInterrupted.\n");
    } else if (rc == 2) {
        session_errorf(s, "Core %s left that statement before %" PRIu64 " more step%s: no moment is at %s.",
                       machine_core_name(p.core), p.after, p.after == 1 ? "" : "s", args);
    } else if (rc > 0) {
        session_errorf(s, "The pass %s at step %" PRIu64 " before reaching %s.",
                       r->failed ? "failed" : "ended", tt_now(s), args);
    }
    if (p.by_step && rc == 0 && r->ranks && r->rank_moves > 0) {
        /* the rank and core of the move that made this moment */
        r->rank = r->rank_last_mover;
        run_ranks_use(s, r->rank);
        r->core = r->rank_last_core >= 0 && r->rank_last_core < EXEC_NCORES ? r->rank_last_core : EXEC_CORE_HOST;
        if (inspect_depth(r->m, r->core) == 0)
            r->core = EXEC_CORE_HOST;
    } else if (p.by_step && rc == 0) {
        /* the core that made the last move, when the selected one cannot run */
        if (inspect_core(r->m, r->core) != INSPECT_CORE_READY && inspect_core(r->m, r->core) != INSPECT_CORE_BLOCKED)
            for (int c = EXEC_NCORES - 1; c >= 0; c--)
                if (inspect_core(r->m, c) == INSPECT_CORE_READY)
                    r->core = c;
    }
    if (r->ranks)
        run_ranks_watch_reprime(s);
    for (size_t i = 0; !r->ranks && i < s->nbps; i++)
        if (s->bps[i].kind == BP_WATCH) {
            breakpoint *b = &s->bps[i];
            if (b->watch_old)
                tensor_unref(b->watch_old);
            b->watch_old = NULL;
            b->watch_seen = NULL;
            b->watch_bound = 0;
            stop_watch_prime(s, b);
        }
    r->level = 0;
    report(s);
    session_mark_redraw(s, SESSION_REDRAW_SOURCE | SESSION_REDRAW_QUEUES | SESSION_REDRAW_WATCH |
                               SESSION_REDRAW_STATUS);
    return rc > 0 ? PTODB_ERR_USAGE : PTODB_OK;
}

ptodb_status cmd_WHEN(session *s, const char *args)
{
    (void)args;
    if (!need_run(s))
        return PTODB_ERR_USAGE;
    char pos[128];
    if (tt_position(s, -1, pos, sizeof pos))
        session_printf(s, "Position %s\n", pos);
    else
        session_printf(s, "Position: core %s has no frame\n", machine_core_name(s->run.core));
    session_printf(s, "Step %" PRIu64 " (the history is recorded to step %" PRIu64 ")\n", tt_now(s),
                   tt_horizon(s));
    return PTODB_OK;
}

ptodb_status cmd_CHECKPOINT(session *s, const char *args)
{
    if (*args) {
        session_errorf(s, "checkpoint takes no argument.");
        return PTODB_ERR_USAGE;
    }
    if (!need_run_of(s, 1))
        return PTODB_ERR_USAGE;
    int n = tt_checkpoint_user(s);
    if (n < 0) {
        session_errorf(s, "Cannot checkpoint a pass that stopped with an error.");
        return PTODB_ERR_USAGE;
    }
    char pos[128];
    if (tt_position(s, -1, pos, sizeof pos))
        session_printf(s, "Checkpoint %d at step %" PRIu64 ", position %s\n", n, tt_now(s), pos);
    else
        session_printf(s, "Checkpoint %d at step %" PRIu64 "\n", n, tt_now(s));
    return PTODB_OK;
}

ptodb_status cmd_RESTART(session *s, const char *args)
{
    char *end;
    long n = strtol(args, &end, 10);
    if (!*args || *end || n < 1 || n > 1000000000) {
        session_errorf(s, "Usage: restart N (a checkpoint's number, see info checkpoints)");
        return PTODB_ERR_USAGE;
    }
    if (!need_run_of(s, 1))
        return PTODB_ERR_USAGE;
    return tt_restart(s, (int)n);
}

/* ---- the schedule (exec/schedule.h) -------------------------------------------------------- */

/* "schedule REST": REST, or NULL with the usage said. */
static const char *schedule_arg(session *s, const char *args, const char *usage)
{
    if (strncmp(args, "schedule", 8) != 0 || (args[8] && args[8] != ' ')) {
        session_errorf(s, "Usage: %s", usage);
        return NULL;
    }
    const char *p = args + 8;
    while (*p == ' ')
        p++;
    if (!*p) {
        session_errorf(s, "Usage: %s", usage);
        return NULL;
    }
    return p;
}

ptodb_status cmd_RECORD(session *s, const char *args)
{
    const char *path = schedule_arg(s, args, "record schedule FILE");
    if (!path || !need_run(s))
        return PTODB_ERR_USAGE;
    run_state *r = &s->run;
    if (!r->sched) {
        session_errorf(s, "This run's schedule was not recorded.");
        return PTODB_ERR_USAGE;
    }
    if (r->sched_broken) {
        session_errorf(s,
                       "set var changed this run at step %" PRIu64 ": a replay of its schedule could not reach "
                       "the same state. Use \"run\" to start it again.",
                       r->sched_broken - 1);
        return PTODB_ERR_USAGE;
    }
    if (s->kase.root && path_within(path, s->kase.root) == 1) {
        session_errorf(s, "%s is inside the case folder %s: ptodb never writes inside a case folder.", path,
                       s->kase.root);
        return PTODB_ERR_USAGE;
    }
    strbuf out = STRBUF_INIT;
    exec_schedule_format_head(&out);
    exec_sched_pass_format(r->sched, &out);
    int rc = atomic_file_write(path, strbuf_str(&out), out.len);
    strbuf_free(&out);
    if (rc != 0) {
        session_errorf(s, "Cannot write %s: %s.", path, strerror(errno));
        return PTODB_ERR_IO;
    }
    const exec_sched_pass *p = r->sched;
    session_printf(s, "Schedule of pass %d written to %s: %zu decision%s, steps 0 to %" PRIu64 " (%s).\n", p->index,
                   path, p->n, p->n == 1 ? "" : "s", p->end ? p->end_step : p->reached,
                   p->end == EXEC_SCHED_END_FINISHED ? "the run finished"
                   : p->end == EXEC_SCHED_END_FAILED ? "the run failed there"
                                                      : "as far as the run got: a replay stops there");
    return PTODB_OK;
}

ptodb_status cmd_REPLAY(session *s, const char *args)
{
    const char *path = schedule_arg(s, args, "replay schedule FILE | replay schedule off");
    if (!path)
        return PTODB_ERR_USAGE;
    if (strcmp(path, "off") == 0) {
        exec_schedule_free(s->replay);
        s->replay = NULL;
        session_printf(s, "The next run follows the schedule setting (%s).\n", session_get_string(s, SETTING_SCHEDULE));
        return PTODB_OK;
    }
    strbuf err = STRBUF_INIT;
    exec_schedule *sch = exec_schedule_load(path, &err);
    if (!sch) {
        session_errorf(s, "%s", strbuf_str(&err));
        strbuf_free(&err);
        return PTODB_ERR_FORMAT;
    }
    strbuf_free(&err);
    exec_schedule_free(s->replay);
    s->replay = sch;
    session_printf(s, "Schedule %s read (pass%s", path, sch->n == 1 ? "" : "es");
    for (size_t i = 0; i < sch->n; i++)
        session_printf(s, "%s %d", i ? "," : "", sch->passes[i]->index);
    session_printf(s, "): the next run follows it.\n");
    return PTODB_OK;
}

/* Time-travel commands: reverse-step, reverse-next, reverse-finish,
 * reverse-continue, seek, when, checkpoint, restart (the engine is
 * timetravel.c). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/session_impl.h"
#include "debug/stop.h"
#include "debug/timetravel.h"
#include "exec/inspect.h"

#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    ptodb_status cmd_##id(session *s, const char *args);
#include "debug/commands.def"
#undef CMD

static int need_run(session *s)
{
    if (!s->run.active || !s->run.m) {
        session_errorf(s, "The program is not being run.");
        return 0;
    }
    if (s->run.ranks) { /* the history is one machine's; a multi-rank run has one per rank */
        session_errorf(s, "Time travel does not run on a multi-rank case yet (docs/multirank.md): use run, "
                          "breakpoints and watchpoints.");
        return 0;
    }
    return 1;
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
    } else if (rc > 0) {
        session_errorf(s, "The pass %s at step %" PRIu64 " before reaching %s.",
                       r->failed ? "failed" : "ended", tt_now(s), args);
    }
    if (p.by_step && rc == 0) {
        /* the core that made the last move, when the selected one cannot run */
        if (inspect_core(r->m, r->core) != INSPECT_CORE_READY && inspect_core(r->m, r->core) != INSPECT_CORE_BLOCKED)
            for (int c = EXEC_NCORES - 1; c >= 0; c--)
                if (inspect_core(r->m, c) == INSPECT_CORE_READY)
                    r->core = c;
    }
    for (size_t i = 0; i < s->nbps; i++)
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
    if (!need_run(s))
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
    if (!need_run(s))
        return PTODB_ERR_USAGE;
    return tt_restart(s, (int)n);
}

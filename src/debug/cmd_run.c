/* Running and navigating: run, start, continue, step, next, finish, until,
 * kill; core, queue; backtrace, frame, up, down. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/state/expr.h"
#include "debug/present/frame.h"
#include "debug/present/run_listing.h"
#include "debug/run/record.h"
#include "debug/run/queue_track.h"
#include "debug/script.h"
#include "debug/state/session_impl.h"
#include "debug/run/timetravel.h"
#include "base/number.h"
#include "exec/inspect.h"
#include "ranks/sched.h"

#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    ptodb_status cmd_##id(session *s, const char *args);
#include "debug/commands.def"
#undef CMD

/* An optional positive count argument; -1 on a bad one (message printed). */
static long count_arg(session *s, const char *args)
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

static ptodb_status begin(session *s, const char *args, int stop_at_start)
{
    if (!session_need_case(s))
        return PTODB_ERR_USAGE;
    int pass = s->cur_pass;
    if (*args && (pass = session_find_pass(s, args)) < 0)
        return PTODB_ERR_USAGE;
    if (pass != s->cur_pass) {
        s->cur_pass = pass;
        s->list_line = 0;
    }
    session_printf(s, "Starting pass %d %s.\n", s->kase.passes[pass].index, s->kase.passes[pass].name);
    return run_begin(s, pass, stop_at_start);
}

ptodb_status cmd_RUN(session *s, const char *args) { return begin(s, args, 0); }
ptodb_status cmd_START(session *s, const char *args) { return begin(s, args, 1); }

/* `set exec-direction reverse`: step, next, finish and continue go back. */
static int reverse_dir(session *s)
{
    return strcmp(session_get_string(s, SETTING_EXEC_DIRECTION), "reverse") == 0;
}

ptodb_status cmd_CONTINUE(session *s, const char *args)
{
    long n = count_arg(s, args);
    if (n < 0)
        return PTODB_ERR_USAGE;
    if (reverse_dir(s))
        return cmd_REVERSE_CONTINUE(s, args);
    if (n > 1 && s->run.last_bp) {
        breakpoint *b = bp_find(s, s->run.last_bp);
        if (b) {
            b->ignore = n - 1;
            session_printf(s, "Will ignore next %ld crossings of breakpoint %d.  Continuing.\n", n - 1,
                           b->number);
        }
    }
    return run_go(s, RUN_CONTINUE, 1, 0);
}

static ptodb_status stepping(session *s, const char *args, run_mode mode)
{
    long n = count_arg(s, args);
    if (n < 0)
        return PTODB_ERR_USAGE;
    if (reverse_dir(s))
        return mode == RUN_STEP ? cmd_REVERSE_STEP(s, args) : cmd_REVERSE_NEXT(s, args);
    if (s->have_case && !s->run.active) {
        /* gdb would say "not being run"; starting is what the user means. */
        ptodb_status st = run_begin(s, s->cur_pass, 1);
        if (st != PTODB_OK || --n == 0)
            return st;
    }
    return run_go(s, mode, n, 0);
}

ptodb_status cmd_STEP(session *s, const char *args) { return stepping(s, args, RUN_STEP); }
ptodb_status cmd_NEXT(session *s, const char *args) { return stepping(s, args, RUN_NEXT); }

ptodb_status cmd_FINISH(session *s, const char *args)
{
    if (*args) {
        session_errorf(s, "finish takes no argument.");
        return PTODB_ERR_USAGE;
    }
    if (reverse_dir(s))
        return cmd_REVERSE_FINISH(s, args);
    run_state *r = &s->run;
    /* the selected frame returns (gdb's finish), not always the innermost */
    int level = r->level > 0 && r->level != INSPECT_LAST_FRAME ? r->level : 0;
    if (r->active && r->m && inspect_depth(r->m, r->core) - level <= 1 && r->core == 0) {
        session_errorf(s, "\"finish\" not meaningful in the outermost frame.");
        return PTODB_ERR_USAGE;
    }
    /* the caller's call statement receives the value: remember it */
    int core = r->core, depth = r->active && r->m ? inspect_depth(r->m, core) - level : 0;
    inspect_frame caller;
    int has_caller = r->active && r->m && inspect_frame_get(r->m, core, level + 1, &caller) && caller.stmt;
    ptodb_status st = run_go(s, RUN_FINISH, 1, 0);
    if (st != PTODB_OK || !has_caller || !r->active || !r->m || r->finished || r->last_bp ||
        r->core != core || inspect_depth(r->m, core) != depth - 1)
        return st;
    const ir_stmt *call = caller.stmt;
    if (call->kind != IR_STMT_ASSIGN)
        return st;
    for (uint32_t i = 0; i < call->u.assign.ntargets; i++) {
        const ir_target *tg = &call->u.assign.targets[i];
        const char *name;
        const value *v;
        if (tg->slot < 0 || !inspect_slot(r->m, core, 0, tg->slot, &name, &v))
            continue;
        tensor *t = expr_value_tensor(v);
        if (!t)
            continue;
        char lead[300];
        if (call->u.assign.ntargets == 1)
            snprintf(lead, sizeof lead, "Value returned is ");
        else
            snprintf(lead, sizeof lead, "Value returned (%s) is ", name);
        expr_print_recorded(s, lead, t, 0);
        tensor_unref(t);
    }
    return st;
}

ptodb_status cmd_UNTIL(session *s, const char *args)
{
    if (!*args)
        return run_go(s, RUN_UNTIL_NEXT, 1, 0);
    const char *colon = strrchr(args, ':');
    const char *num = colon ? colon + 1 : args;
    char *end;
    long line = strtol(num, &end, 10);
    if (*end || line < 1) {
        session_errorf(s, "Expected a line number, got \"%s\".", args);
        return PTODB_ERR_USAGE;
    }
    if (colon && s->run.active) {
        char spec[256];
        snprintf(spec, sizeof spec, "%.*s", (int)(colon - args), args);
        char *dot = strstr(spec, ".py");
        if (dot)
            *dot = '\0';
        int p = session_find_pass(s, spec);
        if (p < 0)
            return PTODB_ERR_USAGE;
        if (p != s->run.pass) {
            session_errorf(s, "until only runs within the running pass (%s).",
                           s->kase.passes[s->run.pass].stem);
            return PTODB_ERR_USAGE;
        }
    }
    return run_go(s, RUN_UNTIL, 1, (int)line);
}

ptodb_status cmd_KILL(session *s, const char *args)
{
    (void)args;
    if (!s->run.active) {
        session_errorf(s, "The program is not being run.");
        return PTODB_ERR_USAGE;
    }
    run_kill(s);
    session_printf(s, "[Pass run killed]\n");
    return PTODB_OK;
}

/* ---- cores and queues ---------------------------------------------------------------- */

static int need_run(session *s)
{
    if (s->run.active && s->run.m)
        return 1;
    session_errorf(s, "The program is not being run.");
    return 0;
}

static int core_by_name(const char *name)
{
    static const char *const names[] = {"host", "aic", "aiv0", "aiv1"};
    for (int i = 0; i < 4; i++)
        if (strcasecmp(name, names[i]) == 0)
            return i;
    if (strcasecmp(name, "aiv") == 0)
        return 2;
    return -1;
}

/* One core of machine m (rank's in a multi-rank case, -1 otherwise). */
static void core_line(session *s, const machine *m, int rank, int c)
{
    inspect_frame f;
    int has = inspect_frame_get(m, c, 0, &f);
    inspect_core_state st = inspect_core(m, c);
    const char *w = inspect_waiting(m, c);
    int selected = c == s->run.core && (rank < 0 || rank == s->run.rank);
    if (rank >= 0)
        session_printf(s, "%s rank %-3d %-4s %-8s", selected ? "*" : " ", rank, machine_core_name(c),
                       inspect_core_state_name(st));
    else
        session_printf(s, "%s %-4s %-8s", selected ? "*" : " ", machine_core_name(c), inspect_core_state_name(st));
    if (has)
        session_printf(s, " %s at line %d", f.func, f.line);
    else if (inspect_frame_get(m, c, INSPECT_LAST_FRAME, &f))
        session_printf(s, " %s returned at line %d (core %s shows its last frame)", f.func, f.line,
                       machine_core_name(c));
    if (w)
        session_printf(s, ", waiting on %s", w);
    session_printf(s, "\n");
}

ptodb_status cmd_CORE(session *s, const char *args)
{
    if (!need_run(s))
        return PTODB_ERR_USAGE;
    if (!*args || strcmp(args, "list") == 0) {
        if (s->run.ranks) { /* every rank's cores, rank by rank */
            for (int k = 0; k < ranks_sched_nranks(s->run.ranks); k++)
                for (int c = 0; c < EXEC_NCORES; c++)
                    core_line(s, ranks_sched_machine(s->run.ranks, k), k, c);
            return PTODB_OK;
        }
        for (int c = 0; c < EXEC_NCORES; c++)
            core_line(s, s->run.m, -1, c);
        return PTODB_OK;
    }
    int c = core_by_name(args);
    if (c < 0) {
        session_errorf(s, "No core \"%s\": the cores are host, aic, aiv0, aiv1.", args);
        return PTODB_ERR_USAGE;
    }
    int last = 0;
    if (inspect_depth(s->run.m, c) == 0) {
        /* a finished core keeps its last frame: print and info locals read it */
        if (!inspect_has_last_frame(s->run.m, c)) {
            session_errorf(s, "Core %s is not running (%s).", machine_core_name(c),
                           inspect_core_state_name(inspect_core(s->run.m, c)));
            return PTODB_ERR_USAGE;
        }
        last = 1;
    }
    s->run.core = c;
    s->run.level = last ? INSPECT_LAST_FRAME : 0;
    session_printf(s, last ? "[Switching to %s: finished; its last frame, at its return]\n" : "[Switching to %s]\n",
                   machine_core_name(c));
    run_print_location(s);
    session_mark_redraw(s, SESSION_REDRAW_SOURCE | SESSION_REDRAW_QUEUES | SESSION_REDRAW_STATUS);
    return PTODB_OK;
}

ptodb_status cmd_RANK(session *s, const char *args)
{
    if (!session_need_case(s))
        return PTODB_ERR_USAGE;
    if (!s->kase.ranks.nranks) {
        session_errorf(s, "This case has one rank (no ranks.txt).");
        return PTODB_ERR_USAGE;
    }
    if (!*args || strcmp(args, "list") == 0)
        return session_run_command(s, CMD_INFO, "ranks");
    long long n;
    if (parse_int_range(args, 0, s->kase.ranks.nranks - 1, &n) != 0) {
        session_errorf(s, "No rank \"%s\": this case has ranks 0 to %d.", args, s->kase.ranks.nranks - 1);
        return PTODB_ERR_USAGE;
    }
    ptodb_status st = run_ranks_select(s, (int)n);
    if (st == PTODB_OK)
        run_print_location(s);
    return st;
}

ptodb_status cmd_QUEUE(session *s, const char *args)
{
    if (*args && strcmp(args, "show") != 0) {
        session_errorf(s, "Usage: queue [show]");
        return PTODB_ERR_USAGE;
    }
    if (!need_run(s))
        return PTODB_ERR_USAGE;
    if (s->run.ranks) /* the signal cells, then the selected rank's queues */
        present_signal_cells(s);
    inspect_queue q[64];
    int n = inspect_queues(s->run.m, q, 64);
    if (n == 0) {
        session_printf(s, s->run.ranks ? "No cross-core queue has been used on rank %d in this run.\n"
                                        : "No cross-core queue has been used in this run.\n",
                       s->run.rank);
        return PTODB_OK;
    }
    session_printf(s, "%-14s %-6s %-5s %-6s %-28s %s\n", "Direction", "Split", "Lane", "Depth", "Capacity",
                   "Waiting");
    for (int i = 0; i < n && i < 64; i++) {
        char split[16], lane[16], cap[64], waiting[64] = "";
        if (q[i].split < 0)
            snprintf(split, sizeof split, "-");
        else
            snprintf(split, sizeof split, "%d", q[i].split);
        if (q[i].lane < 0)
            snprintf(lane, sizeof lane, "-");
        else
            snprintf(lane, sizeof lane, "%d", q[i].lane);
        /* the pipe's slots as initialize_pipe declares them; the depth at
         * which pushes block (unbounded unless --slot-depth says) */
        int at = 0;
        if (q[i].slot_num)
            at = snprintf(cap, sizeof cap, "%d slots x %d B", q[i].slot_num, q[i].slot_size);
        else
            at = snprintf(cap, sizeof cap, "-");
        snprintf(cap + at, sizeof cap - (size_t)at, q[i].limit ? ", max %d" : ", unbounded", q[i].limit);
        for (int c = 0; c < EXEC_NCORES; c++)
            if (q[i].waiting & (1u << c)) {
                size_t l = strlen(waiting);
                snprintf(waiting + l, sizeof waiting - l, "%s%s", l ? " " : "", machine_core_name(c));
            }
        session_printf(s, "%-14s %-6s %-5s %-6d %-28s %s\n", q[i].direction, split, lane, q[i].depth, cap,
                       waiting[0] ? waiting : "-");
        /* the tiles in flight, next to pop first */
        for (int k = 0; k < q[i].depth && k < 16; k++) {
            const tensor *t = inspect_queue_item(s->run.m, &q[i], k);
            char shape[96];
            if (!t) {
                session_printf(s, "  [%d] (not a tensor)\n", k);
                continue;
            }
            tensor_format_shape(t->ndim, t->shape, shape, sizeof shape);
            int core, line;
            const char *name;
            if (run_queue_item_origin(s, q[i].id, q[i].depth, k, &core, &line, &name))
                session_printf(s, "  [%d] %s %s %s, pushed by %s at line %d\n", k, name[0] ? name : "?",
                               dtype_name(t->dtype), shape, machine_core_name(core), line);
            else
                session_printf(s, "  [%d] %s %s\n", k, dtype_name(t->dtype), shape);
        }
        if (q[i].depth > 16)
            session_printf(s, "  ... %d more\n", q[i].depth - 16);
    }
    return PTODB_OK;
}

/* ---- frames ----------------------------------------------------------------------------- */

static void frame_line(session *s, int level)
{
    inspect_frame f;
    inspect_frame_get(s->run.m, s->run.core, level, &f);
    const char *file = strrchr(f.file, '/');
    session_printf(s, "%s#%-2d %s at %s:%d\n", level == s->run.level ? "*" : " ", level, f.func,
                   file ? file + 1 : f.file, f.line);
}

ptodb_status cmd_BACKTRACE(session *s, const char *args)
{
    (void)args;
    if (!need_run(s))
        return PTODB_ERR_USAGE;
    int depth = inspect_depth(s->run.m, s->run.core);
    if (depth == 0) {
        session_printf(s, "[%s] no frames\n", run_core_label(s, -1, s->run.core, (char[64]){0}, 64));
        return PTODB_OK;
    }
    session_printf(s, "[%s]\n", run_core_label(s, -1, s->run.core, (char[64]){0}, 64));
    for (int lv = 0; lv < depth; lv++)
        frame_line(s, lv);
    return PTODB_OK;
}

static ptodb_status select_frame(session *s, long level)
{
    int depth = inspect_depth(s->run.m, s->run.core);
    if (level < 0 || level >= depth) {
        session_errorf(s, level < 0 ? "Bottom (innermost) frame selected; you cannot go down."
                                    : "Initial frame selected; you cannot go up.");
        return PTODB_ERR_USAGE;
    }
    s->run.level = (int)level;
    frame_line(s, (int)level);
    inspect_frame f;
    if (inspect_frame_get(s->run.m, s->run.core, (int)level, &f))
        run_print_source_line(s, f.line);
    s->list_line = 0; /* `list` centres on the selected frame's line */
    session_mark_redraw(s, SESSION_REDRAW_SOURCE | SESSION_REDRAW_WATCH);
    return PTODB_OK;
}

ptodb_status cmd_FRAME(session *s, const char *args)
{
    if (!need_run(s))
        return PTODB_ERR_USAGE;
    if (!*args) {
        run_print_location(s);
        return PTODB_OK;
    }
    char *end;
    long n = strtol(args, &end, 10);
    if (*end) {
        session_errorf(s, "Expected a frame number, got \"%s\".", args);
        return PTODB_ERR_USAGE;
    }
    return select_frame(s, n);
}

ptodb_status cmd_UP(session *s, const char *args)
{
    long n = count_arg(s, args);
    if (n < 0 || !need_run(s))
        return PTODB_ERR_USAGE;
    return select_frame(s, s->run.level + n);
}

ptodb_status cmd_DOWN(session *s, const char *args)
{
    long n = count_arg(s, args);
    if (n < 0 || !need_run(s))
        return PTODB_ERR_USAGE;
    return select_frame(s, s->run.level - n);
}

/* Running a pass under the debugger: starting it with fresh inputs,
 * stepping on the selected core or letting the scheduler run, stopping at
 * breakpoints, watchpoints and NaN/Inf, validating the outputs against golden
 * when the pass ends, and reporting stops. */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "debug/cmdtable.h"
#include "debug/expr.h"
#include "debug/lookup.h"
#include "debug/point.h"
#include "debug/queue_track.h"
#include "debug/session_impl.h"
#include "debug/tensor_fmt.h"
#include "debug/timeline.h"
#include "exec/compare.h"
#include "exec/inspect.h"
#include "exec/runpass.h"
#include "ir/print.h"
#include "ir/resolve.h"


/* ---- lifetime ---------------------------------------------------------------- */

void run_kill(session *s)
{
    run_state *r = &s->run;
    if (r->m)
        machine_free(r->m);
    if (r->prog)
        exec_program_free(r->prog);
    if (r->binds)
        case_bindings_free(r->binds, r->nbinds); /* frees the entries, not the array */
    free(r->binds);
    free(r->written);
    free(r->visits);
    point_regions_free(r);
    free(r->timeline);
    run_track_free(r);
    memset(r, 0, sizeof *r);
    session_mark_redraw(s, SESSION_REDRAW_SOURCE | SESSION_REDRAW_QUEUES | SESSION_REDRAW_WATCH |
                               SESSION_REDRAW_STATUS);
}

void run_free_result(pass_result *r)
{
    for (int k = 0; k < r->nout; k++)
        if (r->outputs[k])
            tensor_unref(r->outputs[k]);
    free(r->outputs);
    free(r->max_abs_diff);
    free(r->ok);
    memset(r, 0, sizeof *r);
}

void run_free_results(session *s)
{
    if (!s->results)
        return;
    for (size_t i = 0; i < s->kase.npasses; i++)
        run_free_result(&s->results[i]);
    free(s->results);
    s->results = NULL;
}

static void write_hook(void *ud, int core, const tensor *t)
{
    (void)core;
    run_state *r = ud;
    if (r->nwritten == r->capwritten) {
        r->capwritten = r->capwritten ? r->capwritten * 2 : 8;
        r->written = xreallocarray(r->written, r->capwritten, sizeof *r->written);
    }
    r->written[r->nwritten++] = t;
}

ptodb_status run_start(session *s, int pass)
{
    run_kill(s);
    if (!s->ops) {
        s->ops = xcalloc(IR_OP_COUNT, sizeof *s->ops);
        exec_ops_init(s->ops);
    }
    pass_state *ps = session_load_pass(s, pass);
    if (!ps->module) {
        session_pass_not_checked(s, "run", pass);
        return PTODB_ERR_SYNTAX;
    }
    run_state *r = &s->run;
    runpass_options ro;
    memset(&ro, 0, sizeof ro);
    machine_options_init(&ro.mopt);
    ro.mopt.profile = session_profile(s);
    ro.ops = s->ops;
    runpass_run rp;
    runpass_open(&rp, s->kase.passes[pass].path, ps->module, &s->kase, &ro, write_hook, r, RUNPASS_OPEN_DESPITE_REF);
    if (!rp.m) {
        session_errorf(s, "%s", rp.message ? rp.message : "cannot run");
        runpass_close(&rp);
        return PTODB_ERR_RUNTIME;
    }
    if (rp.ref_note)
        session_printf(s, "note: the PyTorch reference cannot run this pass: %s\n", rp.ref_note);
    /* the run is the session's now */
    r->prog = rp.prog;
    r->binds = rp.binds;
    r->nbinds = rp.nbinds;
    r->m = rp.m;
    ptodb_status st = rp.start;
    rp.prog = NULL;
    rp.binds = NULL;
    rp.m = NULL;
    runpass_close(&rp);
    r->active = 1;
    r->pass = pass;
    r->core = EXEC_CORE_HOST;
    r->level = 0;
    for (int c = 0; c < EXEC_NCORES; c++)
        r->prev_depth[c] = inspect_depth(r->m, c);
    run_note_arrivals(r, -1);
    if (st != PTODB_OK) {
        session_errorf(s, "%s", machine_error(r->m));
        r->failed = 1;
        return st;
    }
    if (s->cur_pass != pass) {
        s->cur_pass = pass;
        s->list_line = 0;
    }
    /* Watchpoints start from the values the run starts with: the entry's
     * arguments are bound, not written. */
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        if (b->kind != BP_WATCH)
            continue;
        if (b->watch_old)
            tensor_unref(b->watch_old);
        b->watch_old = NULL;
        b->watch_seen = NULL;
        b->watch_bound = 0;
        run_watch_prime(s, b);
    }
    session_mark_redraw(s, SESSION_REDRAW_ALL);
    return PTODB_OK;
}

/* ---- validation ---------------------------------------------------------------- */

static pass_result *result_for(session *s, int pass)
{
    if (!s->results)
        s->results = xcalloc(s->kase.npasses, sizeof *s->results);
    return &s->results[pass];
}

static void validate_outputs(session *s)
{
    run_state *r = &s->run;
    pass_result *res = result_for(s, r->pass);
    run_free_result(res);
    res->ran = 1;
    res->nout = (int)s->kase.noutputs;
    res->outputs = xcalloc(res->nout ? (size_t)res->nout : 1, sizeof *res->outputs);
    res->max_abs_diff = xcalloc(res->nout ? (size_t)res->nout : 1, sizeof *res->max_abs_diff);
    res->ok = xcalloc(res->nout ? (size_t)res->nout : 1, sizeof *res->ok);
    session_printf(s, "==================== %s ====================\n",
                   s->kase.passes[r->pass].stem);
    for (int k = 0; k < res->nout; k++) {
        const case_tensor *o = &s->kase.outputs[k];
        const tensor *act = NULL;
        for (size_t i = 0; i < r->nbinds; i++)
            if (r->binds[i].key && strcmp(r->binds[i].key, o->name) == 0)
                act = r->binds[i].t;
        res->max_abs_diff[k] = NAN;
        if (!act) {
            session_errorf(s, "%s: expected key '%s' not found in tensors after execution",
                           s->kase.passes[r->pass].stem, o->name);
            continue;
        }
        res->outputs[k] = tensor_ref((tensor *)act);
        double rtol, atol;
        session_output_tols(s, o, &rtol, &atol);
        exec_compare_result cr;
        exec_compare(act, o->t, rtol, atol, session_profile(s), &cr);
        if (cr.error) {
            session_errorf(s, "%s: %s", s->kase.passes[r->pass].stem, cr.msg);
            continue;
        }
        res->max_abs_diff[k] = cr.max_abs_diff;
        res->ok[k] = cr.pass;
        strbuf line = STRBUF_INIT;
        exec_format_validate_line(o->name, &cr, &line);
        session_write(s, strbuf_str(&line), line.len);
        strbuf_free(&line);
    }
    if (r->user_modified) {
        session_printf(s, "Note: set var changed this run's tensors; these verdicts are not recorded as "
                          "the pass's own.\n");
        run_free_result(res);
        res->ran = 0;
    }
    session_mark_redraw(s, SESSION_REDRAW_PASSES | SESSION_REDRAW_HEATMAP);
}

/* ---- breakpoints --------------------------------------------------------------- */

typedef struct slot_snap {
    int core, frame, slot;
    const tensor *t;
} slot_snap;

typedef struct snapshot {
    slot_snap *items;
    size_t n, cap;
} snapshot;

static void snap_take(const machine *m, snapshot *sn)
{
    sn->n = 0;
    for (int c = 0; c < EXEC_NCORES; c++) {
        int depth = inspect_depth(m, c);
        for (int lv = depth - 1; lv >= 0; lv--) {
            inspect_frame f;
            inspect_frame_get(m, c, lv, &f);
            for (int i = 0; i < f.nslots; i++) {
                const char *name;
                const value *v;
                if (!inspect_slot(m, c, lv, i, &name, &v) || v->kind != VAL_TENSOR)
                    continue;
                if (sn->n == sn->cap) {
                    sn->cap = sn->cap ? sn->cap * 2 : 64;
                    sn->items = xreallocarray(sn->items, sn->cap, sizeof *sn->items);
                }
                sn->items[sn->n++] = (slot_snap){c, depth - 1 - lv, i, v->u.t};
            }
        }
    }
}

static int snap_cmp(const slot_snap *a, const slot_snap *b)
{
    if (a->core != b->core)
        return a->core < b->core ? -1 : 1;
    if (a->frame != b->frame)
        return a->frame < b->frame ? -1 : 1;
    return a->slot < b->slot ? -1 : a->slot > b->slot;
}

/* Tensors bound (or rebound) by the last step: in `after` but not with the
 * same object in `before`. Both are in (core, frame, slot) order. */
static size_t snap_new_bindings(const snapshot *before, const snapshot *after, const tensor **out,
                                size_t max)
{
    size_t i = 0, n = 0;
    for (size_t j = 0; j < after->n; j++) {
        while (i < before->n && snap_cmp(&before->items[i], &after->items[j]) < 0)
            i++;
        int same = i < before->n && snap_cmp(&before->items[i], &after->items[j]) == 0 &&
                   before->items[i].t == after->items[j].t;
        if (!same && n < max)
            out[n++] = after->items[j].t;
    }
    return n;
}

/* The name's current tensor on any core (selected core first). */
static const tensor *find_named(session *s, const char *name, int *core_out)
{
    machine *m = s->run.m;
    for (int k = 0; k < EXEC_NCORES; k++) {
        int c = k == 0 ? s->run.core : k - (k <= s->run.core);
        if (k != 0 && c == s->run.core)
            continue;
        int depth = inspect_depth(m, c);
        for (int lv = 0; lv < depth; lv++) {
            int slot = inspect_find_slot(m, c, lv, name);
            if (slot < 0)
                continue;
            const char *n;
            const value *v;
            if (inspect_slot(m, c, lv, slot, &n, &v) && v->kind == VAL_TENSOR) {
                *core_out = c;
                return v->u.t;
            }
        }
    }
    return NULL;
}

/* Evaluates b's condition on t: 1 holds (or there is none), 0 does not, -1
 * it could not be tested. As gdb does, an error stops the run ("Error in
 * testing condition for breakpoint N: ..."), and the stop never claims the
 * condition held. */
static int condition_holds(session *s, breakpoint *b, const tensor *t, const char *name)
{
    if (!b->cond)
        return 1;
    predicate_env env = {0};
    env.t = t;
    const case_tensor *g = name ? session_golden_for(s, name) : NULL;
    env.golden = g ? g->t : NULL;
    if (g)
        session_output_tols(s, g, &env.rtol, &env.atol);
    else {
        env.rtol = session_get_double(s, SETTING_RTOL);
        env.atol = session_get_double(s, SETTING_ATOL);
    }
    env.profile = session_profile(s);
    strbuf err = STRBUF_INIT;
    int r = predicate_eval(b->cond, &env, &err);
    if (r < 0)
        session_errorf(s, "Error in testing condition for breakpoint %d (%s): %s", b->number,
                       predicate_text(b->cond), strbuf_str(&err));
    strbuf_free(&err);
    return r < 0 ? -1 : r != 0;
}

/* gdb's condition: b's expression in the frame of `core` that reached the
 * breakpoint (selected for the evaluation, then restored): 1 true (nonzero;
 * a tensor when every element is), 0 false, -1 an error (reported; the run
 * stops, as gdb's does). */
static int expression_holds(session *s, breakpoint *b, int core)
{
    run_state *r = &s->run;
    int saved_core = r->core, saved_level = r->level;
    r->core = core;
    r->level = 0;
    tensor *t = NULL;
    strbuf err = STRBUF_INIT;
    int held;
    if (expr_eval(s, b->cond_expr, &t, NULL, &err) != PTODB_OK) {
        session_errorf(s, "Error in testing condition for breakpoint %d (%s): %s", b->number, b->cond_expr,
                       strbuf_str(&err));
        held = -1;
    } else {
        int64_t n = tensor_numel(t);
        held = n > 0;
        for (int64_t k = 0; k < n && held; k++)
            held = tensor_get_flat(t, k) != 0;
        tensor_unref(t);
    }
    strbuf_free(&err);
    r->core = saved_core;
    r->level = saved_level;
    return held;
}

/* Counts a hit: 1 when it stops (ignore count spent). */
static int count_hit(breakpoint *b)
{
    b->hits++;
    if (b->ignore > 0) {
        b->ignore--;
        return 0;
    }
    return 1;
}

typedef struct stop_info {
    int bp;          /* breakpoint number, 0 none */
    int core;
    const char *why; /* for NaN/Inf/watch: a description */
    char detail[256];
    int cond_error;  /* the breakpoint's condition could not be tested */
    /* watchpoints hit by the last statement (all of them, as gdb reports):
     * each with its value before (NULL: it was not bound yet; owned) */
    struct watch_hit { int bp; tensor *old; } watch[8];
    int nwatch;
    /* and the statement that wrote it */
    int writer_core, writer_line;
    const char *writer_func;
} stop_info;

static int check_location_bps(session *s, int core, int entered, stop_info *si, int until_line)
{
    machine *m = s->run.m;
    inspect_frame f;
    if (!inspect_frame_get(m, core, 0, &f) || inspect_core(m, core) != INSPECT_CORE_READY)
        return 0;
    if (until_line > 0 && f.line == until_line && core == s->run.core) {
        si->core = core;
        return 1;
    }
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        if (!b->enabled)
            continue;
        /* A conditional line breakpoint is checked after its statement ran
         * (check_conditional_lines), on the tensor the statement produced. */
        int at = (b->kind == BP_LINE && !b->cond && b->pass == s->run.pass && b->line == f.line) ||
                 (b->kind == BP_FUNC && entered && strcmp(b->func, f.func) == 0);
        if (!at)
            continue;
        int held = b->cond_expr ? expression_holds(s, b, core) : 1;
        if (!held || !count_hit(b))
            continue;
        si->bp = b->number;
        si->core = core;
        si->cond_error = held < 0;
        return 1;
    }
    return 0;
}

/* Conditional line breakpoints: `stmt` (on `core`) has just run; when it is
 * at such a breakpoint's line, the condition is evaluated on the tensor its
 * first target now holds. */
static int check_conditional_lines(session *s, int core, const ir_stmt *stmt, stop_info *si)
{
    if (!stmt || (stmt->kind != IR_STMT_ASSIGN && stmt->kind != IR_STMT_YIELD) ||
        stmt->u.assign.ntargets == 0)
        return 0;
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        if (!b->enabled || b->kind != BP_LINE || !b->cond || b->pass != s->run.pass ||
            b->line != (int)stmt->span.line)
            continue;
        const char *name = stmt->u.assign.targets[0].name->text;
        int slot = inspect_find_slot(s->run.m, core, 0, name);
        const char *n;
        const value *v;
        if (slot < 0 || !inspect_slot(s->run.m, core, 0, slot, &n, &v) || v->kind != VAL_TENSOR)
            continue;
        int held = condition_holds(s, b, v->u.t, name);
        if (held && count_hit(b)) {
            si->bp = b->number;
            si->core = core;
            si->why = name;
            si->cond_error = held < 0;
            snprintf(si->detail, sizeof si->detail, "%s", name);
            return 1;
        }
    }
    return 0;
}

/* What a watchpoint looks at in t: t itself, or the part its subscript
 * selects (NULL when the subscript does not apply to t). */
static tensor *watched_value(const breakpoint *b, const tensor *t)
{
    if (!b->watch_sub)
        return tensor_ref((tensor *)t);
    tensor *v = NULL;
    strbuf err = STRBUF_INIT;
    if (tensor_apply_subscript((tensor *)t, b->watch_sub, &v, &err) != PTODB_OK)
        v = NULL;
    strbuf_free(&err);
    return v;
}

void run_watch_prime(session *s, breakpoint *b)
{
    if (!s->run.active || !s->run.m)
        return;
    int core = s->run.core;
    const tensor *t = find_named(s, b->spec, &core);
    tensor *now = t ? watched_value(b, t) : NULL;
    if (!now)
        return;
    b->watch_seen = t;
    b->watch_bound = 1;
    b->watch_old = tensor_snapshot(now);
    tensor_unref(now);
}

/* stepped_core ran the last statement; writer is where it was before it
 * (NULL when not known). */
static int check_value_bps(session *s, const snapshot *before, const snapshot *after, int stepped_core,
                           const inspect_frame *writer, stop_info *si)
{
    run_state *r = &s->run;
    int need_nan = 0, need_watch = 0;
    for (size_t i = 0; i < s->nbps; i++) {
        if (!s->bps[i].enabled)
            continue;
        need_nan |= s->bps[i].kind == BP_NAN || s->bps[i].kind == BP_INF;
        need_watch |= s->bps[i].kind == BP_WATCH;
    }
    if (!need_nan && !need_watch)
        return 0;
    const tensor *fresh[64];
    size_t nfresh = before ? snap_new_bindings(before, after, fresh, 64) : 0;
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        if (!b->enabled)
            continue;
        if (b->kind == BP_NAN || b->kind == BP_INF) {
            const tensor *hit = NULL;
            for (size_t k = 0; k < nfresh + r->nwritten && !hit; k++) {
                const tensor *t = k < nfresh ? fresh[k] : r->written[k - nfresh];
                if (b->kind == BP_NAN ? tensor_has_nan(t) : tensor_has_inf(t))
                    hit = t;
            }
            if (hit && count_hit(b)) {
                si->bp = b->number;
                si->core = stepped_core;
                si->why = b->kind == BP_NAN ? "NaN" : "Inf";
                return 1;
            }
        } else if (b->kind == BP_WATCH) {
            int core = r->core;
            const tensor *t = find_named(s, b->spec, &core);
            int rebound = t && (!b->watch_bound || t != b->watch_seen), written = 0;
            for (size_t k = 0; t && k < r->nwritten; k++)
                written |= r->written[k] == t || r->written[k]->storage == t->storage;
            b->watch_seen = t;
            b->watch_bound = t != NULL;
            if (!t || (!rebound && !written))
                continue;
            tensor *now = watched_value(b, t);
            if (!now)
                continue;
            /* gdb's software watchpoints: a hit is a change of the value */
            if (b->watch_old && tensor_same_bits(b->watch_old, now)) {
                tensor_unref(now);
                continue;
            }
            tensor *old = b->watch_old;
            b->watch_old = tensor_snapshot(now);
            tensor_unref(now);
            int held = si->nwatch < 8 ? condition_holds(s, b, t, b->spec) : 0;
            if (held && count_hit(b)) {
                if (!si->bp) {
                    si->bp = b->number;
                    /* the core whose statement wrote it, not the one that holds the name */
                    si->core = stepped_core;
                    si->why = "write";
                    si->cond_error = held < 0;
                    si->writer_core = stepped_core;
                    si->writer_line = writer ? writer->line : 0;
                    si->writer_func = writer ? writer->func : NULL;
                }
                si->watch[si->nwatch].bp = b->number;
                si->watch[si->nwatch].old = old;
                si->nwatch++;
                continue;
            }
            if (old)
                tensor_unref(old);
        }
    }
    if (si->nwatch)
        return 1;
    return 0;
}

/* ---- reporting ---------------------------------------------------------------------- */

static const char *line_text(session *s, int pass, int line, size_t *len)
{
    const char *src = session_pass_source(s, pass);
    if (!src || line < 1)
        return NULL;
    const char *p = src;
    for (int l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p || !*p)
        return NULL;
    const char *nl = strchr(p, '\n');
    *len = nl ? (size_t)(nl - p) : strlen(p);
    return p;
}

void run_print_location(session *s)
{
    run_state *r = &s->run;
    inspect_frame f;
    if (!r->m || !inspect_frame_get(r->m, r->core, r->level, &f)) {
        session_printf(s, "[%s] not running\n", machine_core_name(r->core));
        return;
    }
    const char *file = strrchr(f.file, '/');
    file = file ? file + 1 : f.file;
    const char *state = "";
    if (inspect_core(r->m, r->core) == INSPECT_CORE_BLOCKED) {
        const char *w = inspect_waiting(r->m, r->core);
        session_printf(s, "[%s] %s at %s:%d, blocked on %s\n", machine_core_name(r->core), f.func,
                       file, f.line, w ? w : "a queue");
    } else {
        if (inspect_core(r->m, r->core) == INSPECT_CORE_WAITING)
            state = ", waiting for its group call";
        session_printf(s, "[%s] %s at %s:%d%s\n", machine_core_name(r->core), f.func, file, f.line,
                       state);
    }
    run_print_source_line(s, f.line);
}

void run_print_source_line(session *s, int line)
{
    size_t len;
    const char *text = line_text(s, s->run.pass, line, &len);
    if (text)
        session_printf(s, "%d\t%.*s\n", line, (int)len, text);
}

/* A command that resumes the run (continue, next, step, finish, until, run,
 * start). */
static int resumes(const char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    size_t n = 0;
    while (line[n] && !isspace((unsigned char)line[n]))
        n++;
    int id = n ? cmd_lookup(line, n) : -1;
    return id == CMD_CONTINUE || id == CMD_NEXT || id == CMD_STEP || id == CMD_FINISH || id == CMD_UNTIL ||
           id == CMD_RUN || id == CMD_START;
}

/* A breakpoint's commands. As in gdb, a command that resumes the run ends
 * the list (what follows it is not run) and takes effect after this stop
 * is over (session_execute runs it), so the next stop reports, runs
 * hook-stop and its own commands as any stop does. */
/* gdb's `silent` as the first line of a breakpoint's commands: the stop
 * prints nothing of its own; the commands say what they want. */
static int bp_is_silent(const breakpoint *b)
{
    if (!b || !b->ncommands)
        return 0;
    const char *c = b->commands[0];
    c += strspn(c, " \t");
    return strncmp(c, "silent", 6) == 0 && c[6 + strspn(c + 6, " \t")] == '\0';
}

static void run_bp_commands(session *s, int number)
{
    breakpoint *b = bp_find(s, number);
    if (!b || !b->ncommands || s->in_hook)
        return;
    /* Copy: the commands may delete the breakpoint. */
    size_t n = b->ncommands;
    char **cmds = xcalloc(n, sizeof *cmds);
    for (size_t i = 0; i < n; i++)
        cmds[i] = xstrdup(b->commands[i]);
    s->in_hook++;
    for (size_t i = bp_is_silent(b) ? 1 : 0; i < n; i++) {
        if (resumes(cmds[i])) {
            free(s->pending_resume);
            s->pending_resume = xstrdup(cmds[i]);
            break;
        }
        session_execute(s, cmds[i]);
        if (!s->run.active || s->quit)
            break;
    }
    s->in_hook--;
    for (size_t i = 0; i < n; i++)
        free(cmds[i]);
    free(cmds);
}

static void run_hook_stop(session *s)
{
    user_cmd *u = session_find_user_cmd(s, "hook-stop", 9);
    if (!u || s->in_hook)
        return;
    s->in_hook++;
    session_run_user_cmd(s, u, "");
    s->in_hook--;
}

/* gdb's "Old value = / New value =", as summaries, then where the values
 * first differ. */
static void report_watch_hit(session *s, const breakpoint *b, tensor *before, const stop_info *si)
{
    session_printf(s, "\nWatchpoint %d: %s%s", b->number, b->spec, b->watch_sub ? b->watch_sub : "");
    if (si->writer_line && before)
        session_printf(s, ", written by [%s] %s at line %d", machine_core_name(si->writer_core),
                       si->writer_func ? si->writer_func : "?", si->writer_line);
    session_printf(s, "\n\n");
    if (b->cond && si->cond_error)
        session_printf(s, "(its condition %s could not be tested)\n", predicate_text(b->cond));
    const tensor *t = b->watch_old; /* the value now, as just copied */
    strbuf sb = STRBUF_INIT;
    if (before) {
        tensor_fmt_header(before, &sb);
        strbuf_puts(&sb, " ");
        tensor_fmt_stats(before, &sb);
    } else {
        strbuf_puts(&sb, "<not assigned>");
    }
    session_printf(s, "Old value = %s\n", strbuf_str(&sb));
    strbuf_clear(&sb);
    if (t) {
        tensor_fmt_header(t, &sb);
        strbuf_puts(&sb, " ");
        tensor_fmt_stats(t, &sb);
        session_printf(s, "New value = %s\n", strbuf_str(&sb));
    }
    strbuf_clear(&sb);
    if (t && before && tensor_describe_changes(before, t, 3, &sb))
        session_printf(s, "%s", strbuf_str(&sb));
    strbuf_free(&sb);
}

static void report_stop(session *s, stop_info *si)
{
    s->run.last_bp = si->bp;
    s->list_line = 0; /* the next `list` centres on the stop, as gdb's does */
    int silent = si->bp && bp_is_silent(bp_find(s, si->bp));
    if (si->bp && !silent) {
        breakpoint *b = bp_find(s, si->bp);
        if (b && b->kind == BP_WATCH) {
            for (int k = 0; k < si->nwatch; k++) {
                breakpoint *w = bp_find(s, si->watch[k].bp);
                if (w)
                    report_watch_hit(s, w, si->watch[k].old, si);
            }
        }
        else if (b && b->kind == BP_LINE && b->cond && si->cond_error)
            session_printf(s, "\nBreakpoint %d, line %d produced %s; its condition %s could not be tested\n",
                           b->number, b->line, si->detail, predicate_text(b->cond));
        else if (b && b->kind == BP_LINE && b->cond)
            session_printf(s, "\nBreakpoint %d, line %d produced %s with %s\n", b->number, b->line,
                           si->detail, predicate_text(b->cond));
        else if (b && b->cond_expr && si->cond_error)
            session_printf(s, "\nBreakpoint %d: its condition %s could not be tested, ", b->number, b->cond_expr);
        else if (b && (b->kind == BP_NAN || b->kind == BP_INF))
            session_printf(s, "\nBreakpoint %d: %s produced by the last statement\n", b->number,
                           si->why);
        else
            session_printf(s, "\n%s %d, ", b && b->temporary ? "Temporary breakpoint" : "Breakpoint",
                           si->bp);
    }
    if (!silent)
        run_print_location(s);
    for (int k = 0; k < si->nwatch; k++)
        if (si->watch[k].old)
            tensor_unref(si->watch[k].old);
    si->nwatch = 0;
    if (si->bp) {
        breakpoint *b = bp_find(s, si->bp);
        if (b && b->temporary)
            bp_delete(s, b);
    }
    display_show_all(s, 1);
    run_hook_stop(s);
    if (si->bp)
        run_bp_commands(s, si->bp);
}

/* ---- the engine --------------------------------------------------------------------- */

static int pass_bp_at_start(session *s, int pass)
{
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        if (b->enabled && b->kind == BP_PASS && !b->cond && bp_pass_matches(b, &s->kase.passes[pass]) &&
            count_hit(b))
            return b->number;
    }
    return 0;
}

/* A conditional pass breakpoint fires when a finished pass's output satisfies it. */
static int pass_bp_at_end(session *s, int pass)
{
    pass_result *res = result_for(s, pass);
    for (size_t i = 0; i < s->nbps; i++) {
        breakpoint *b = &s->bps[i];
        if (!b->enabled || b->kind != BP_PASS || !b->cond || !bp_pass_matches(b, &s->kase.passes[pass]))
            continue;
        for (int k = 0; k < res->nout; k++) {
            if (!res->outputs[k])
                continue;
            int held = condition_holds(s, b, res->outputs[k], s->kase.outputs[k].name);
            if (held && count_hit(b)) {
                if (!bp_is_silent(b))
                    session_printf(s, "\nBreakpoint %d, pass %d %s: %s %s for '%s'\n", b->number,
                               s->kase.passes[pass].index, s->kase.passes[pass].name, predicate_text(b->cond),
                               held < 0 ? "could not be tested" : "holds", s->kase.outputs[k].name);
                return b->number;
            }
        }
    }
    return 0;
}

static int pass_validated_ok(session *s, int pass)
{
    pass_result *res = result_for(s, pass);
    for (int k = 0; k < res->nout; k++)
        if (!res->ok[k])
            return 0;
    return 1;
}

static void finish_run(session *s)
{
    run_state *r = &s->run;
    r->finished = 1;
    validate_outputs(s);
    session_printf(s, "Pass %d %s finished after %" PRIu64 " statements.\n",
                   s->kase.passes[r->pass].index, s->kase.passes[r->pass].name, machine_steps(r->m));
}

static void fail_run(session *s)
{
    run_state *r = &s->run;
    r->failed = 1;
    result_for(s, r->pass)->ran = 1;
    result_for(s, r->pass)->failed = 1;
    session_errorf(s, "%s", machine_error(r->m));
    session_printf(s, "Pass %d %s stopped with an error.\n", s->kase.passes[r->pass].index,
                   s->kase.passes[r->pass].name);
    session_mark_redraw(s, SESSION_REDRAW_PASSES);
}

/* Starts the next pass for `continue` after the end of one. Returns 1 when
 * it stopped (pass breakpoint, error), 0 to keep running. */
static int continue_into_next_pass(session *s, int *stopped_ok)
{
    int next = s->run.pass + 1;
    if ((size_t)next >= s->kase.npasses) {
        session_printf(s, "The last pass has finished.\n");
        *stopped_ok = 1;
        return 1;
    }
    if (run_start(s, next) != PTODB_OK) {
        *stopped_ok = 0;
        return 1;
    }
    session_printf(s, "Pass %d: %s\n", s->kase.passes[next].index, s->kase.passes[next].name);
    int bp = pass_bp_at_start(s, next);
    if (bp) {
        stop_info si = {.bp = bp, .core = s->run.core};
        if (!bp_is_silent(bp_find(s, bp)))
            session_printf(s, "\nBreakpoint %d, pass %d %s\n", bp, s->kase.passes[next].index,
                       s->kase.passes[next].name);
        si.bp = 0; /* the pass line above is the report */
        report_stop(s, &si);
        *stopped_ok = 1;
        return 1;
    }
    return 0;
}

ptodb_status run_go(session *s, run_mode mode, long count, int until_line)
{
    run_state *r = &s->run;
    if (!r->active) {
        session_errorf(s, "The program is not being run.  Use \"run\" or \"start\".");
        return PTODB_ERR_USAGE;
    }
    if (r->failed) {
        session_errorf(s, "The pass stopped with an error.  Use \"run\" to start it again.");
        return PTODB_ERR_USAGE;
    }
    if (r->level == INSPECT_LAST_FRAME) {
        /* looking at a finished core's last frame: the host resumes next */
        r->core = EXEC_CORE_HOST;
        r->level = 0;
    }
    if (r->finished && mode != RUN_CONTINUE) {
        session_errorf(s, "The pass has finished.  Use \"run\", or \"continue\" for the next pass.");
        return PTODB_ERR_USAGE;
    }
    if (count < 1)
        count = 1;
    snapshot before = {0}, after = {0};
    int value_bps = 0, cond_lines = 0;
    for (size_t i = 0; i < s->nbps; i++)
        cond_lines |= s->bps[i].enabled && s->bps[i].kind == BP_LINE && s->bps[i].cond;
    for (size_t i = 0; i < s->nbps; i++)
        value_bps |= s->bps[i].enabled &&
                     (s->bps[i].kind == BP_WATCH || s->bps[i].kind == BP_NAN || s->bps[i].kind == BP_INF);
    long done = 0;
    unsigned long polls = 0;
    ptodb_status result = PTODB_OK;
    /* continue from inside a pass stops at its end; continue from the end of
     * a pass runs the following passes until one fails or a breakpoint. */
    int across_passes = r->finished;
    int target = r->core;
    int d0 = r->m ? inspect_depth(r->m, target) : 0;
    inspect_frame start;
    int start_line = r->m && inspect_frame_get(r->m, target, 0, &start) ? start.line : 0;
    stop_info si = {0};
    for (;;) {
        if (r->finished) {
            /* continue: on to the following passes */
            int ok;
            if (continue_into_next_pass(s, &ok)) {
                result = ok ? PTODB_OK : PTODB_ERR_RUNTIME;
                goto out;
            }
            across_passes = 1;
            target = r->core;
            d0 = inspect_depth(r->m, target);
            si = (stop_info){0};
            if (value_bps)
                snap_take(r->m, &after);
            continue;
        }
        if (s->poll && (++polls & 4095) == 0) {
            char progress[160];
            snprintf(progress, sizeof progress, "pass %d %s: %" PRIu64 " statements",
                     s->kase.passes[r->pass].index, s->kase.passes[r->pass].name, machine_steps(r->m));
            s->poll(s->poll_ctx, progress);
        }
        if (s->interrupted) {
            s->interrupted = 0;
            session_printf(s, "\nInterrupted.\n");
            si.core = r->core;
            report_stop(s, &si);
            goto out;
        }
        if (value_bps) {
            snapshot t = before;
            before = after;
            after = t;
            if (!before.n)
                snap_take(r->m, &before);
        }
        r->nwritten = 0;
        /* Where each core is before the step: only conditional line
         * breakpoints need it (they look at the statement that just ran). */
        const ir_stmt *was_at[EXEC_NCORES] = {0};
        inspect_frame where[EXEC_NCORES];
        int known[EXEC_NCORES] = {0};
        for (int c = 0; (cond_lines || value_bps) && c < EXEC_NCORES; c++) {
            known[c] = inspect_frame_get(r->m, c, 0, &where[c]);
            was_at[c] = known[c] ? where[c].stmt : NULL;
        }
        int target_ready = inspect_core(r->m, target) == INSPECT_CORE_READY;
        exec_event ev;
        ptodb_status st;
        if (mode != RUN_CONTINUE && mode != RUN_UNTIL && target_ready)
            st = machine_step_core(r->m, target, &ev);
        else
            st = machine_step(r->m, &ev);
        run_timeline_note(s, &ev);
        if (st != PTODB_OK || ev.kind == EXEC_EV_ERROR) {
            fail_run(s);
            result = st != PTODB_OK ? st : PTODB_ERR_RUNTIME;
            goto out;
        }
        if (ev.kind == EXEC_EV_DONE || machine_finished(r->m)) {
            finish_run(s);
            int bp = pass_bp_at_end(s, r->pass);
            if (bp || mode != RUN_CONTINUE || !across_passes || !pass_validated_ok(s, r->pass))
                goto out;
            continue;
        }
        if (value_bps)
            snap_take(r->m, &after);
        run_note_arrivals(r, ev.core);
        /* Which cores moved: the stepped one, and any that entered a frame. */
        int stopped = 0;
        for (int c = 0; c < EXEC_NCORES && !stopped; c++) {
            int depth = inspect_depth(r->m, c);
            int entered = depth > r->prev_depth[c];
            if (c == ev.core || entered)
                stopped = check_location_bps(s, c, entered, &si, mode == RUN_UNTIL ? until_line : 0);
        }
        for (int c = 0; c < EXEC_NCORES; c++)
            r->prev_depth[c] = inspect_depth(r->m, c);
        if (!stopped && cond_lines && ev.core >= 0 && ev.core < EXEC_NCORES &&
            (ev.kind == EXEC_EV_STMT || ev.kind == EXEC_EV_RETURN))
            stopped = check_conditional_lines(s, ev.core, was_at[ev.core], &si);
        inspect_frame writer;
        int have_writer = ev.core >= 0 && ev.core < EXEC_NCORES && known[ev.core];
        if (have_writer)
            writer = where[ev.core];
        if (!stopped && value_bps)
            stopped = check_value_bps(s, &before, &after, ev.core, have_writer ? &writer : NULL, &si);
        if (stopped) {
            r->core = si.core;
            r->level = 0;
            report_stop(s, &si);
            goto out;
        }
        int finished_stmt = ev.kind == EXEC_EV_STMT || ev.kind == EXEC_EV_CALL ||
                            ev.kind == EXEC_EV_RETURN || ev.kind == EXEC_EV_FINISHED;
        int hit = 0;
        switch (mode) {
        case RUN_STEP:
            if (!target_ready && ev.core != target) {
                /* The selected core waits (a group call, an empty queue):
                 * stepping follows the core that ran. */
                session_printf(s, "[Switching to %s]\n", machine_core_name(ev.core));
                target = r->core = ev.core;
                hit = finished_stmt;
            } else {
                hit = ev.core == target && finished_stmt;
            }
            break;
        case RUN_NEXT:
            hit = ev.core == target && finished_stmt && inspect_depth(r->m, target) <= d0;
            if (ev.core == target && ev.kind == EXEC_EV_FINISHED)
                hit = 1;
            break;
        case RUN_FINISH:
            if (inspect_depth(r->m, target) < d0) {
                hit = 1;
                count = 1;
                session_printf(s, "Run till exit from frame #0\n");
            }
            break;
        case RUN_UNTIL_NEXT: {
            /* gdb's until: next, but never back to an earlier line of this
             * frame (a loop runs to its end), or out of the frame */
            int depth = inspect_depth(r->m, target);
            if (ev.core == target && (ev.kind == EXEC_EV_FINISHED || depth < d0)) {
                hit = 1;
            } else if (ev.core == target && finished_stmt && depth == d0) {
                inspect_frame g;
                hit = inspect_frame_get(r->m, target, 0, &g) && g.line > start_line;
            }
            break;
        }
        case RUN_UNTIL:
            /* until/advance LOCATION also stop when the current frame returns */
            if (d0 > 0 && inspect_depth(r->m, target) < d0) {
                hit = 1;
                count = 1;
            }
            break;
        default:
            break;
        }
        if (hit && ++done >= count) {
            if (inspect_depth(r->m, target) == 0 && target != EXEC_CORE_HOST) {
                /* The core ended: show the host, which resumes next. */
                session_printf(s, "[%s finished]\n", machine_core_name(target));
                r->core = EXEC_CORE_HOST;
            }
            r->level = 0;
            si = (stop_info){.core = r->core};
            report_stop(s, &si);
            goto out;
        }
    }
out:
    free(before.items);
    free(after.items);
    session_mark_redraw(s, SESSION_REDRAW_SOURCE | SESSION_REDRAW_QUEUES | SESSION_REDRAW_WATCH |
                               SESSION_REDRAW_STATUS);
    return result;
}

ptodb_status run_begin(session *s, int pass, int stop_at_start)
{
    ptodb_status st = run_start(s, pass);
    if (st != PTODB_OK)
        return st;
    run_state *r = &s->run;
    int bp = pass_bp_at_start(s, pass);
    if (bp) {
        if (!bp_is_silent(bp_find(s, bp)))
            session_printf(s, "\nBreakpoint %d, pass %d %s\n", bp, s->kase.passes[pass].index,
                       s->kase.passes[pass].name);
        stop_info si = {.core = r->core};
        report_stop(s, &si);
        r->last_bp = bp;
        return PTODB_OK;
    }
    stop_info si = {0};
    if (check_location_bps(s, r->core, 1, &si, 0) || stop_at_start) {
        report_stop(s, &si);
        return PTODB_OK;
    }
    return run_go(s, RUN_CONTINUE, 1, 0);
}

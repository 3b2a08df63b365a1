/* The read side of the session for front ends (view.h): what is running
 * and where, the passes with their verdicts, breakpoint marks, heat grids,
 * cores, queues and displays. */
#include "debug/state/lookup.h"
#include "debug/present/view.h"
#include "ranks/sched.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "batch/batch.h"
#include "batch/diverge.h"
#include "tensor/heatgrid.h"
#include "debug/run/point.h"
#include "debug/run/record.h"
#include "debug/state/session_impl.h"
#include "exec/compare.h"
#include "exec/inspect.h"
#include "ir/ast.h"

int view_bisect_statement(session *s, int *pass, int *line, unsigned *serial)
{
    if (!s->bisect_line || !s->have_case || s->bisect_pass < 0 || (size_t)s->bisect_pass >= s->kase.npasses)
        return 0;
    *pass = s->bisect_pass;
    *line = s->bisect_line;
    *serial = s->bisect_serial;
    return 1;
}

int view_divergence_answer(session *s, view_divergence *out)
{
    if (!view_bisect_statement(s, &out->pass, &out->line, &out->serial))
        return 0;
    out->rank = s->bisect_rank;
    out->reason = diverge_reason_word(s->bisect_reason);
    out->head = s->bisect_head ? s->bisect_head : "";
    out->why = s->bisect_why ? s->bisect_why : "";
    return 1;
}

int view_pass_error_line(session *s, int pass)
{
    if (!s->have_case || pass < 0 || (size_t)pass >= s->kase.npasses || !s->passes[pass].loaded)
        return 0;
    return s->passes[pass].first_error ? s->passes[pass].first_error_line : 0;
}

int view_stop_location(session *s, view_location *out)
{
    memset(out, 0, sizeof *out);
    run_state *r = &s->run;
    if (!r->active || !r->m || r->finished)
        return 0;
    inspect_frame f;
    if (!inspect_frame_get(r->m, r->core, r->level, &f))
        return 0;
    out->pass = r->pass;
    out->file = f.file;
    out->line = f.line;
    out->col = f.col;
    out->core = r->core;
    out->core_name = machine_core_name(r->core);
    out->func = f.func;
    out->rank = r->ranks ? r->rank : -1;
    return 1;
}

int view_stop_breakpoint(session *s)
{
    return s->run.active ? s->run.last_bp : 0;
}

int view_newest_breakpoint(session *s)
{
    return s->nbps ? s->bps[s->nbps - 1].number : 0;
}

int view_selection(session *s, int *core, int *level)
{
    if (!s->run.active || !s->run.m)
        return 0;
    *core = s->run.core;
    *level = s->run.level;
    return 1;
}

int view_nranks(session *s, int *selected)
{
    run_state *r = &s->run;
    *selected = r->ranks ? r->rank : 0;
    return r->active && r->ranks ? ranks_sched_nranks(r->ranks) : 0;
}

int view_frames(session *s, int core, view_frame *out, int max)
{
    run_state *r = &s->run;
    if (!r->active || !r->m || core < 0 || core >= EXEC_NCORES)
        return 0;
    int depth = inspect_depth(r->m, core);
    for (int level = 0; level < depth && level < max; level++) {
        inspect_frame f;
        memset(&out[level], 0, sizeof out[level]);
        if (!inspect_frame_get(r->m, core, level, &f))
            continue;
        out[level].func = f.func;
        out[level].file = f.file;
        out[level].line = f.line;
        out[level].col = f.col;
    }
    return depth;
}

int view_frame_vars(session *s, int core, int level, view_var *out, int max)
{
    run_state *r = &s->run;
    inspect_frame f;
    if (!r->active || !r->m || core < 0 || core >= EXEC_NCORES || !inspect_frame_get(r->m, core, level, &f))
        return 0;
    int n = 0;
    for (int i = 0; i < f.nslots; i++) {
        const char *name;
        const value *v;
        if (!inspect_slot(r->m, core, level, i, &name, &v) || v->kind == VAL_UNBOUND)
            continue;
        if (n < max) {
            view_var *o = &out[n];
            memset(o, 0, sizeof *o);
            o->name = name;
            o->is_param = i < f.nparams;
            switch (v->kind) {
            case VAL_TENSOR: o->t = v->u.t; break;
            case VAL_INT: snprintf(o->text, sizeof o->text, "%lld", (long long)v->u.i); break;
            case VAL_FLOAT: snprintf(o->text, sizeof o->text, "%.17g", v->u.f); break;
            case VAL_BOOL: snprintf(o->text, sizeof o->text, "%s", v->u.b ? "True" : "False"); break;
            case VAL_NONE: snprintf(o->text, sizeof o->text, "None"); break;
            default: snprintf(o->text, sizeof o->text, "<%s>", value_kind_name(v->kind)); break;
            }
        }
        n++;
    }
    return n;
}

int view_run_finished(session *s)
{
    return s->run.active && s->run.finished;
}

int view_run_pass(session *s)
{
    return s->run.active ? s->run.pass : -1;
}

int view_pass_info(session *s, int i, view_pass *out)
{
    memset(out, 0, sizeof *out);
    if (!s->have_case || i < 0 || (size_t)i >= s->kase.npasses)
        return 0;
    const case_pass *p = &s->kase.passes[i];
    out->index = p->index;
    out->name = p->name;
    out->stem = p->stem;
    out->ir_changed = session_pass_ir_changed(s, i);
    out->verdict = VIEW_VERDICT_UNKNOWN;
    out->noutputs = (int)(s->kase.noutputs < VIEW_MAX_OUTPUTS ? s->kase.noutputs : VIEW_MAX_OUTPUTS);
    for (int k = 0; k < out->noutputs; k++) {
        out->output_names[k] = s->kase.outputs[k].name;
        out->max_abs_diff[k] = NAN;
    }
    out->same_as = -1;
    out->margin = NAN;
    const pass_result *res = s->results ? &s->results[i] : NULL;
    if (res && res->ran && res->background)
        out->same_as = res->same_as;
    if (res && res->ran) {
        out->verdict = res->failed ? VIEW_VERDICT_ERROR : VIEW_VERDICT_PASS;
        if (!res->failed && res->nout > 0)
            out->margin = 0;
        for (int k = 0; k < res->nout && !res->failed; k++) {
            if (k < out->noutputs)
                out->max_abs_diff[k] = res->max_abs_diff[k];
            if (!res->ok[k])
                out->verdict = VIEW_VERDICT_FAIL;
            double m = res->margin ? res->margin[k] : NAN;
            if (isnan(m) || isnan(out->margin))
                out->margin = NAN;
            else if (m > out->margin)
                out->margin = m;
        }
        if (res->memfault && !res->failed)
            out->verdict = VIEW_VERDICT_MEMFAULT;
    }
    return 1;
}

int view_breakpoint_at(session *s, int pass, int line)
{
    int mark = 0;
    for (size_t i = 0; i < s->nbps; i++) {
        const breakpoint *b = &s->bps[i];
        if (b->kind == BP_LINE && b->pass == pass && b->line == line) {
            if (b->enabled)
                return 1;
            mark = 2;
        }
    }
    return mark;
}

/* The grid of a against b for output number `output` of pass `pass`: the
 * output's tolerances and the validator's mismatch rule (exec_compare_mask),
 * the dump's tiles as cells where the pass says them and they fit. */
static int heat_grid(session *s, const char *name, const tensor *a, const tensor *b, double rtol, double atol,
                     const tensor *scale, const char *tiles_of, int max_rows, int max_cols, view_heatmap *out);

static int heat_fill(session *s, int output, int pass, const tensor *a, const tensor *b, int max_rows,
                     int max_cols, view_heatmap *out)
{
    const case_tensor *o = &s->kase.outputs[output];
    double rtol, atol;
    session_output_tols(s, o, &rtol, &atol);
    return heat_grid(s, o->name, a, b, rtol, atol, o->t, s->kase.passes[pass].path, max_rows, max_cols, out);
}

/* The grid of a against b (named name): the validator's mismatch rule at
 * rtol/atol; the tolerance read off scale's largest magnitude; cells the
 * tiles pass file tiles_of stores name in, where it says them (NULL:
 * blocks). */
static int heat_grid(session *s, const char *name, const tensor *a, const tensor *b, double rtol, double atol,
                     const tensor *scale, const char *tiles_of, int max_rows, int max_cols, view_heatmap *out)
{
    size_t numel = (size_t)(tensor_numel(a) ? tensor_numel(a) : 1);
    uint8_t *bad = xcalloc(numel, 1);
    float *frac = xcalloc(numel, sizeof *frac);
    exec_compare_result cr;
    exec_compare_frac(a, b, rtol, atol, session_profile(s), session_semantics(s) == EXEC_SEM_DEVICE, &cr, bad, frac);
    int tiled = 0;
    if (tiles_of && a->ndim > 0 && a->shape[a->ndim - 1] > 0) {
        int64_t cols = a->shape[a->ndim - 1], rows = tensor_numel(a) / cols;
        int down, across;
        tiled = batch_tile_grid(tiles_of, name, rows, cols, max_rows, max_cols, &down, &across);
        if (tiled) {
            max_rows = down;
            max_cols = across;
        }
    }
    heatgrid g;
    int st = cr.error ? PTODB_ERR_SHAPE : heatgrid_compute(a, b, frac, bad, max_rows, max_cols, &g);
    free(bad);
    free(frac);
    if (cr.error) {
        snprintf(s->heat_why, sizeof s->heat_why, "no grid: they cannot be compared (%.200s)", cr.msg);
        out->why = s->heat_why;
        return 0;
    }
    if (st != 0) {
        out->why = st == PTODB_ERR_SHAPE ? "the two tensors differ in shape" : "nothing to draw (a 0-d or empty tensor)";
        return 0;
    }
    free(s->heat_cells);
    free(s->heat_outside);
    s->heat_cells = g.cells;
    s->heat_outside = g.outside;
    out->outside = g.outside;
    out->outside_cells = g.outside_cells;
    out->outside_elements = g.outside_elements;
    out->elements = g.elements;
    out->tensor = name;
    out->rows = g.rows;
    out->cols = g.cols;
    out->cells = g.cells;
    out->max = g.max;
    out->max_abs = g.max_abs;
    tensor_stats st_g;
    tensor_compute_stats(scale, &st_g);
    double gmax = fabs(st_g.max) > fabs(st_g.min) ? fabs(st_g.max) : fabs(st_g.min);
    out->tolerance = atol + rtol * gmax;
    out->valid_rows = g.valid_rows;
    out->valid_cols = g.valid_cols;
    out->shape[0] = g.shape[0];
    out->shape[1] = g.shape[1];
    out->block_rows = g.block_rows;
    out->block_cols = g.block_cols;
    out->tiled = tiled;
    return 1;
}

/* A view asks the engine quietly: what a side run says goes here (its
 * first error line becomes the pane's "why"), not to the console. */
typedef struct quiet_capture {
    char first_error[sizeof ((session *)0)->heat_why];
} quiet_capture;

static void capture_output(void *ctx, session_stream stream, const char *text, size_t len)
{
    quiet_capture *q = ctx;
    if (stream != SESSION_ERR || q->first_error[0])
        return;
    while (len && (text[len - 1] == '\n' || text[len - 1] == '.'))
        len--;
    snprintf(q->first_error, sizeof q->first_error, "%.*s", (int)len, text);
}

/* The variable `name` (whose value at the stop is a) at the point of pass
 * `pass` corresponding to the stop (point.h), the match's quality in out;
 * a vector lane's half of it where that pass had one core do both lanes
 * (session_lane_share). Asked from the frame that binds the name: the
 * selected one, else the host's (a kernel that does not take the output is
 * still inside the host's call). */
static tensor *tensor_at_point(session *s, int pass, const char *name, const tensor *a, view_heatmap *out)
{
    run_state *r = &s->run;
    session_output_fn fn = s->out;
    void *fn_ctx = s->out_ctx;
    int nerrors = s->nerrors;
    unsigned redraw = s->redraw;
    quiet_capture cap = {{0}};
    s->out = capture_output;
    s->out_ctx = &cap;
    int core = r->core, level = r->level;
    const char *slot;
    const value *v;
    if (!session_frame_value(s, name, &slot, &v)) {
        r->core = EXEC_CORE_HOST;
        r->level = 0;
    }
    tensor *t = session_tensor_in_pass(s, pass, name, POINT_QUIET_MISSING, NULL);
    const char *how;
    point_match_quality q = point_last_match(s, &how);
    tensor *share = t ? session_lane_share(s, a, t, pass) : NULL;
    if (share) {
        tensor_unref(t);
        t = share;
    }
    r->core = core;
    r->level = level;
    s->out = fn;
    s->out_ctx = fn_ctx;
    s->nerrors = nerrors;
    s->redraw = redraw; /* the side run's start is not a change the panes show */
    out->match = q == POINT_MATCH_EXACT ? VIEW_MATCH_EXACT : q == POINT_MATCH_GUESS ? VIEW_MATCH_GUESS : VIEW_MATCH_NONE;
    out->match_how = how;
    if (!t) {
        snprintf(s->heat_why, sizeof s->heat_why, "%s",
                 cap.first_error[0] ? cap.first_error : "no value at the corresponding point");
        out->why = s->heat_why;
    }
    return t;
}

/* The live grid: the run is stopped inside the selected pass. */
static int heatmap_live(session *s, int output, view_heat_mode mode, int max_rows, int max_cols, view_heatmap *out)
{
    int pass = s->run.pass;
    const case_tensor *o = &s->kase.outputs[output];
    out->live = 1;
    tensor *a = session_lookup_tensor(s, o->name, NULL, 1);
    if (!a) {
        out->why = "the output is not bound at this stop";
        return 0;
    }
    tensor *b;
    if (mode == VIEW_HEAT_VS_GOLDEN) {
        b = tensor_ref(o->t);
    } else if (pass == 0) {
        tensor_unref(a);
        out->why = "the first pass has no previous pass";
        return 0;
    } else {
        out->compare_pass = pass - 1;
        b = tensor_at_point(s, pass - 1, o->name, a, out);
    }
    int got = b && heat_fill(s, output, pass, a, b, max_rows, max_cols, out);
    tensor_unref(a);
    if (b)
        tensor_unref(b);
    return got;
}

/* The first argument of the stop's call that is a variable declared
 * pl.Tile: its name in buf. */
static int stop_tile(session *s, char *buf, size_t size)
{
    run_state *r = &s->run;
    inspect_frame f;
    if (!inspect_frame_get(r->m, r->core, r->level, &f) || !f.stmt)
        return 0;
    const ir_stmt *st = f.stmt;
    const ir_expr *call = st->kind == IR_STMT_ASSIGN ? st->u.assign.value
                          : st->kind == IR_STMT_EXPR ? st->u.expr.value
                                                     : NULL;
    if (!call || call->kind != IR_EXPR_CALL)
        return 0;
    for (uint32_t i = 0; i < call->u.call.nargs; i++) {
        const ir_expr *e = call->u.call.args[i];
        if (e->kind != IR_EXPR_NAME || e->res.kind != IR_REF_LOCAL)
            continue;
        strbuf ty = STRBUF_INIT;
        int tile = session_declared_type(s, e->u.name->text, &ty) && strncmp(strbuf_str(&ty), "pl.Tile", 7) == 0;
        strbuf_free(&ty);
        if (tile) {
            snprintf(buf, size, "%s", e->u.name->text);
            return 1;
        }
    }
    return 0;
}

static int stopped_in_current_pass(const session *s)
{
    const run_state *r = &s->run;
    return r->active && r->m && !r->finished && !r->failed && r->pass == s->cur_pass;
}

int view_heatmap_tile(session *s, view_heat_mode mode, int max_rows, int max_cols, view_heatmap *out)
{
    memset(out, 0, sizeof *out);
    out->compare_pass = -1;
    out->match_how = "";
    if (!s->have_case || !stopped_in_current_pass(s)) {
        out->why = "not stopped inside this pass";
        return 0;
    }
    out->live = 1;
    if (!stop_tile(s, s->heat_tile, sizeof s->heat_tile)) {
        out->why = "the statement at the stop takes no tile";
        return 0;
    }
    out->tensor = s->heat_tile;
    int pass = s->run.pass;
    if (mode == VIEW_HEAT_VS_GOLDEN) {
        out->why = "a tile has no golden output";
        return 0;
    }
    if (pass == 0) {
        out->why = "the first pass has no previous pass";
        return 0;
    }
    out->compare_pass = pass - 1;
    tensor *a = session_lookup_tensor(s, s->heat_tile, NULL, 1);
    if (!a) {
        out->why = "the tile has no value yet";
        return 0;
    }
    tensor *b = tensor_at_point(s, pass - 1, s->heat_tile, a, out);
    /* the `diff` command's tolerances: the session's */
    int got = b && heat_grid(s, s->heat_tile, a, b, session_get_double(s, SETTING_RTOL),
                             session_get_double(s, SETTING_ATOL), b, NULL, max_rows, max_cols, out);
    tensor_unref(a);
    if (b)
        tensor_unref(b);
    return got;
}

int view_heatmap_get(session *s, int output, view_heat_mode mode, int max_rows, int max_cols,
                     view_heatmap *out)
{
    memset(out, 0, sizeof *out);
    out->compare_pass = -1;
    out->match_how = "";
    if (!s->have_case) {
        out->why = "no case is open";
        return 0;
    }
    if (output < 0 || (size_t)output >= s->kase.noutputs) {
        out->why = "no such output";
        return 0;
    }
    int pass = s->cur_pass;
    if (stopped_in_current_pass(s))
        return heatmap_live(s, output, mode, max_rows, max_cols, out);
    if (mode == VIEW_HEAT_VS_PREVIOUS && pass == 0) {
        out->why = "the first pass has no previous pass";
        return 0;
    }
    const pass_result *res = s->results ? &s->results[pass] : NULL;
    /* a file that does not check never ran: no run stopped */
    if ((res && res->ran && res->unchecked) || view_pass_error_line(s, pass) > 0 ||
        (s->passes[pass].loaded && s->passes[pass].first_error)) {
        out->why = "this pass does not check: it never ran (its errors are in the console)";
        return 0;
    }
    /* No grid: say why, and what fills it (the front end names its key). */
    if (!res || !res->ran) {
        out->why = "no grid yet: this pass has not been run in the debugger";
        out->fill = VIEW_FILL_RUN;
        out->fill_pass = pass;
        return 0;
    }
    if (!res->failed && res->background && output < res->nout && !res->outputs[output]) {
        out->why = "no grid yet: this pass has not been run in the debugger (its verdict comes from the background "
                   "validation or bisect, which keep no tensors)";
        out->fill = VIEW_FILL_RUN;
        out->fill_pass = pass;
        return 0;
    }
    if (res->failed || output >= res->nout || !res->outputs[output]) {
        out->why = "no grid: the run of this pass stopped with an error";
        return 0;
    }
    const tensor *a = res->outputs[output], *b = NULL;
    if (mode == VIEW_HEAT_VS_GOLDEN) {
        b = s->kase.outputs[output].t;
    } else {
        if (pass == 0) {
            out->why = "the first pass has no previous pass";
            return 0;
        }
        out->compare_pass = pass - 1;
        const pass_result *prev = &s->results[pass - 1];
        if (!prev->ran || prev->failed || output >= prev->nout || !prev->outputs[output]) {
            int bg = prev->ran && prev->background && !prev->failed;
            snprintf(s->heat_why, sizeof s->heat_why,
                     !prev->ran || bg        ? "no grid yet: the previous pass (%d) has not been run in the debugger%s"
                     : prev->unchecked ? "no grid: the previous pass (%d) does not check: it never ran%s"
                                       : "no grid: the run of the previous pass (%d) stopped with an error%s",
                     s->kase.passes[pass - 1].index,
                     bg ? " (its verdict comes from the background validation or bisect, which keep no tensors)" : "");
            out->why = s->heat_why;
            if (!prev->ran || bg) {
                out->fill = VIEW_FILL_RUN_PREVIOUS;
                out->fill_pass = pass - 1;
            }
            return 0;
        }
        b = prev->outputs[output];
    }
    return heat_fill(s, output, pass, a, b, max_rows, max_cols, out);
}

static view_core_state core_state(inspect_core_state st)
{
    switch (st) {
    case INSPECT_CORE_READY: return VIEW_CORE_RUNNING;
    case INSPECT_CORE_BLOCKED:
    case INSPECT_CORE_WAITING: return VIEW_CORE_BLOCKED;
    case INSPECT_CORE_DONE:
    case INSPECT_CORE_FAILED: return VIEW_CORE_DONE;
    default: return VIEW_CORE_IDLE;
    }
}

static void core_of(const machine *m, int c, view_core *v)
{
    memset(v, 0, sizeof *v);
    v->rank = -1;
    v->name = machine_core_name(c);
    v->state = core_state(inspect_core(m, c));
    inspect_frame f;
    if (inspect_frame_get(m, c, 0, &f) || inspect_frame_get(m, c, INSPECT_LAST_FRAME, &f)) {
        v->func = f.func;
        v->line = f.line;
    }
    v->waiting = inspect_waiting(m, c);
    if (!v->waiting && inspect_core(m, c) == INSPECT_CORE_WAITING)
        v->waiting = "its group call";
}

int view_cores(session *s, view_core *out, int max)
{
    run_state *r = &s->run;
    if (!r->active || !r->m)
        return 0;
    if (r->ranks) {
        int n = 0;
        for (int k = 0; k < ranks_sched_nranks(r->ranks); k++) {
            const machine *m = ranks_sched_machine(r->ranks, k);
            for (int c = 0; c < EXEC_NCORES; c++) {
                if (c != EXEC_CORE_HOST && inspect_core(m, c) == INSPECT_CORE_IDLE)
                    continue;
                if (n < max) {
                    core_of(m, c, &out[n]);
                    out[n].rank = k;
                    out[n].current = k == r->rank && c == r->core;
                }
                n++;
            }
        }
        return n;
    }
    for (int c = 0; c < EXEC_NCORES && c < max; c++) {
        core_of(r->m, c, &out[c]);
        out[c].current = c == r->core;
    }
    return EXEC_NCORES;
}

int view_queues(session *s, view_queue *out, int max)
{
    run_state *r = &s->run;
    if (!r->active || !r->m)
        return 0;
    inspect_queue q[64];
    int n = inspect_queues(r->m, q, 64);
    for (int i = 0; i < n && i < max && i < 64; i++) {
        out[i].direction = q[i].direction;
        out[i].split = q[i].split;
        out[i].lane = q[i].lane;
        out[i].depth = q[i].depth;
        out[i].capacity = -1;
    }
    return n;
}

int view_displays(session *s, view_display *out, int max)
{
    for (size_t i = 0; i < s->ndisplays && (int)i < max; i++) {
        out[i].number = s->displays[i].number;
        out[i].expr = s->displays[i].expr;
        out[i].summary = s->displays[i].summary ? s->displays[i].summary : "";
        out[i].changed = s->displays[i].changed;
    }
    return (int)s->ndisplays;
}

const char *view_status_line(session *s)
{
    strbuf sb = STRBUF_INIT;
    if (s->have_case) {
        const char *root = strrchr(s->kase.root, '/');
        const case_pass *p = &s->kase.passes[s->cur_pass];
        strbuf_printf(&sb, "%s | pass %d %s", root && root[1] ? root + 1 : s->kase.root, p->index,
                      p->name);
        if (s->run.active) {
            if (s->run.finished)
                strbuf_puts(&sb, " | finished");
            else if (s->run.failed)
                strbuf_puts(&sb, " | error");
            else
                strbuf_printf(&sb, " | core %s", machine_core_name(s->run.core));
        }
    } else {
        strbuf_puts(&sb, "no case");
    }
    strbuf_printf(&sb, " | rtol %s atol %s", session_get_string(s, SETTING_RTOL),
                  session_get_string(s, SETTING_ATOL));
    free(s->status_line);
    s->status_line = strbuf_detach(&sb);
    return s->status_line;
}

int view_memory_map(session *s, strbuf *out)
{
    if (!s->run.active || !s->run.m) {
        strbuf_puts(out, "not run yet \xe2\x80\x94 type run\n(the on-chip memory at each stop)");
        return 0;
    }
    machine_mem_format_map(s->run.m, s->run.core, out);
    return 1;
}

/* Everything a command prints, errors included, into a buffer. */
static void capture_all(void *ctx, session_stream stream, const char *text, size_t len)
{
    (void)stream;
    strbuf_append(ctx, text, len);
}

int view_why_cell(session *s, int output, int64_t r0, int64_t c0, int64_t nr, int64_t nc, strbuf *out)
{
    view_pass p;
    if (!view_pass_info(s, session_current_pass(s), &p) || output < 0 || output >= p.noutputs) {
        strbuf_puts(out, "no output to ask about");
        return 0;
    }
    /* the cell's element farthest from golden, from the finished run */
    int64_t bi = r0, bj = c0;
    const pass_result *pr = s->results ? &s->results[s->cur_pass] : NULL;
    const tensor *a = pr && pr->ran && output < pr->nout && pr->outputs ? pr->outputs[output] : NULL;
    const tensor *g = (size_t)output < s->kase.noutputs ? s->kase.outputs[output].t : NULL;
    if (a && g && a->ndim == 2 && g->ndim == 2 && a->shape[0] == g->shape[0] && a->shape[1] == g->shape[1]) {
        double best = -1;
        for (int64_t i = r0; i < r0 + nr && i < a->shape[0]; i++)
            for (int64_t j = c0; j < c0 + nc && j < a->shape[1]; j++) {
                int64_t idx[2] = {i, j};
                double d = fabs(tensor_get(a, idx) - tensor_get(g, idx));
                if (isnan(d))
                    d = INFINITY;
                if (d > best) {
                    best = d;
                    bi = i;
                    bj = j;
                }
            }
    }
    char line[512];
    snprintf(line, sizeof line, "why %s[%lld, %lld]", p.output_names[output], (long long)bi, (long long)bj);
    session_output_fn fn = s->out;
    void *fn_ctx = s->out_ctx;
    s->out = capture_all;
    s->out_ctx = out;
    strbuf_printf(out, "(ptodb) %s\n", line);
    ptodb_status st = session_run_line(s, line);
    s->out = fn;
    s->out_ctx = fn_ctx;
    return st == PTODB_OK;
}

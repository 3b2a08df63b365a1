/* The selected frame described, as gdb's `info frame`, `info locals` and
 * `info args` do (reached from `info`, cmd_pass.c), and the location of a
 * stop (presentation's observer of a stop, present.c). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/strbuf.h"
#include "debug/present/frame.h"
#include "debug/state/lookup.h"
#include "debug/run/record.h"
#include "debug/state/session_impl.h"
#include "tensor/tensor_fmt.h"
#include "exec/inspect.h"
#include "debug/run/timetravel.h"
#include "ranks/sched.h"
#include "ir/walk.h"

/* ---- info locals / args ------------------------------------------------------------------ */

ptodb_status frame_print_vars(session *s, int args_only)
{
    run_state *r = &s->run;
    if (!r->active || !r->m) {
        session_errorf(s, "No frame selected: the program is not being run.");
        return PTODB_ERR_USAGE;
    }
    inspect_frame f;
    if (!inspect_frame_get(r->m, r->core, r->level, &f)) {
        session_errorf(s, "No frame selected on %s.", machine_core_name(r->core));
        return PTODB_ERR_USAGE;
    }
    int from = args_only ? 0 : f.nparams, to = args_only ? f.nparams : f.nslots;
    int shown = 0;
    for (int i = from; i < to; i++) {
        const char *name;
        const value *v;
        if (!inspect_slot(r->m, r->core, r->level, i, &name, &v) || v->kind == VAL_UNBOUND)
            continue;
        strbuf sb = STRBUF_INIT;
        switch (v->kind) {
        case VAL_TENSOR:
            tensor_fmt_header(v->u.t, &sb);
            strbuf_puts(&sb, "  ");
            tensor_fmt_stats(v->u.t, &sb);
            break;
        case VAL_INT: strbuf_printf(&sb, "%" PRId64, v->u.i); break;
        case VAL_FLOAT: strbuf_printf(&sb, "%.17g", v->u.f); break;
        case VAL_BOOL: strbuf_puts(&sb, v->u.b ? "True" : "False"); break;
        case VAL_NONE: strbuf_puts(&sb, "None"); break;
        default: strbuf_printf(&sb, "<%s>", value_kind_name(v->kind)); break;
        }
        session_printf(s, "%s = %s\n", name, strbuf_str(&sb));
        strbuf_free(&sb);
        shown++;
    }
    if (!shown)
        session_printf(s, args_only ? "No arguments.\n" : "No locals.\n");
    return PTODB_OK;
}

/* ---- info frame ----------------------------------------------------------------------------- */

typedef struct loop_search {
    const ir_stmt *at;
    const ir_stmt *loops[16];
    int n;
} loop_search;

static void collect_loops(void *ctx, const ir_stmt *st)
{
    loop_search *ls = ctx;
    if ((st->kind == IR_STMT_FOR || st->kind == IR_STMT_WHILE) && ls->n < 16 && st != ls->at &&
        st->span.start <= ls->at->span.start && ls->at->span.end <= st->span.end)
        ls->loops[ls->n++] = st;
}

/* The value of a frame's slot as one short text. */
static void slot_text(session *s, int level, int slot, strbuf *out)
{
    const char *name;
    const value *v;
    if (slot < 0 || !inspect_slot(s->run.m, s->run.core, level, slot, &name, &v)) {
        strbuf_puts(out, "?");
        return;
    }
    switch (v->kind) {
    case VAL_INT: strbuf_printf(out, "%" PRId64, v->u.i); break;
    case VAL_UNBOUND: strbuf_puts(out, "<not started>"); break;
    case VAL_TENSOR: tensor_fmt_header(v->u.t, out); break;
    default: strbuf_printf(out, "<%s>", value_kind_name(v->kind)); break;
    }
}

ptodb_status frame_print_info(session *s)
{
    run_state *r = &s->run;
    inspect_frame f;
    if (!r->active || !r->m || !inspect_frame_get(r->m, r->core, r->level, &f)) {
        session_errorf(s, "No stack: the program is not being run.");
        return PTODB_ERR_USAGE;
    }
    const char *file = session_file_name(f.file);
    strbuf sb = STRBUF_INIT;
    char label[64];
    strbuf_printf(&sb, "Stack level %d of [%s], frame of %s:\n", r->level, run_core_label(s, -1, r->core, label, sizeof label),
                  f.func);
    strbuf_printf(&sb, " at %s:%d:%d", file, f.line, f.col);
    if (r->core == EXEC_CORE_AIV0 || r->core == EXEC_CORE_AIV1)
        strbuf_printf(&sb, ", vector lane %d (subblock_idx %d)", r->core - EXEC_CORE_AIV0, r->core - EXEC_CORE_AIV0);
    strbuf_printf(&sb, "\n call %u of %s on this core, %" PRIu64 " statement%s into it\n", f.activation + 1, f.func,
                  f.local_steps, f.local_steps == 1 ? "" : "s");
    inspect_frame caller;
    if (inspect_frame_get(r->m, r->core, r->level + 1, &caller))
        strbuf_printf(&sb, " called by frame %d: %s at %s:%d\n", r->level + 1, caller.func,
                      session_file_name(caller.file), caller.line);
    else if (r->core != EXEC_CORE_HOST && inspect_frame_get(r->m, EXEC_CORE_HOST, 0, &caller))
        strbuf_printf(&sb, " started by the host's group call: %s at %s:%d\n", caller.func,
                      session_file_name(caller.file), caller.line);
    else
        strbuf_puts(&sb, " the outermost frame (the pass's entry)\n");
    if (r->level > 0) {
        inspect_frame callee;
        if (inspect_frame_get(r->m, r->core, r->level - 1, &callee))
            strbuf_printf(&sb, " caller of frame %d: %s\n", r->level - 1, callee.func);
    }
    if (f.stmt && f.ir) {
        loop_search ls = {.at = f.stmt};
        ir_walk_stmts(&f.ir->body, collect_loops, &ls);
        if (ls.n) {
            strbuf_puts(&sb, " loops (outermost first):");
            for (int k = 0; k < ls.n; k++) {
                const ir_stmt *l = ls.loops[k];
                if (l->kind == IR_STMT_FOR && l->u.for_.var) {
                    strbuf_printf(&sb, " %s = ", l->u.for_.var->name->text);
                    slot_text(s, r->level, l->u.for_.var->slot, &sb);
                } else {
                    strbuf_printf(&sb, " while at line %u", l->span.line);
                }
                strbuf_puts(&sb, k + 1 < ls.n ? ";" : "");
            }
            strbuf_putc(&sb, '\n');
        }
    }
    if (f.nparams) {
        strbuf_puts(&sb, " args:");
        for (int i = 0; i < f.nparams; i++) {
            const char *name;
            const value *v;
            if (inspect_slot(r->m, r->core, r->level, i, &name, &v))
                strbuf_printf(&sb, "%s %s", i ? "," : "", name);
        }
        strbuf_putc(&sb, '\n');
    }
    session_write(s, strbuf_str(&sb), sb.len);
    strbuf_free(&sb);
    return PTODB_OK;
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
    char label[64];
    run_core_label(s, -1, r->core, label, sizeof label);
    if (!r->m || !inspect_frame_get(r->m, r->core, r->level, &f)) {
        if (r->ranks)
            session_printf(s, "[%s] no task running (%zu queued)\n", label,
                           ranks_world_pending(ranks_sched_world(r->ranks), r->rank));
        else
            session_printf(s, "[%s] not running\n", label);
        return;
    }
    const char *file = strrchr(f.file, '/');
    file = file ? file + 1 : f.file;
    const char *state = "";
    /* inside an SPMD launch the core runs one of its blocks */
    char core[160];
    if (f.block_num > 1)
        snprintf(core, sizeof core, "%s, block %lld of %lld", label, (long long)f.block_idx,
                 (long long)f.block_num);
    else
        snprintf(core, sizeof core, "%s", label);
    if (inspect_core(r->m, r->core) == INSPECT_CORE_BLOCKED) {
        const char *w = inspect_waiting(r->m, r->core);
        session_printf(s, "[%s] %s at %s:%d, blocked on %s\n", core, f.func, file, f.line, w ? w : "a queue");
    } else {
        if (inspect_core(r->m, r->core) == INSPECT_CORE_WAITING)
            state = ", waiting for its group call";
        session_printf(s, "[%s] %s at %s:%d%s\n", core, f.func, file, f.line, state);
    }
    run_print_source_line(s, f.line);
    char pos[128];
    /* a multi-rank run's step is its global schedule's move count */
    if ((r->tt_show_position || session_get_bool(s, SETTING_PRINT_POSITION)) &&
        tt_position(s, r->core, pos, sizeof pos))
        session_printf(s, "Position %s (step %" PRIu64 ")\n", pos, tt_now(s));
}

void run_print_source_line(session *s, int line)
{
    size_t len;
    const char *text = line_text(s, s->run.pass, line, &len);
    if (text)
        session_printf(s, "%d\t%.*s\n", line, (int)len, text);
}

/* The machine's side of the op contract (op.h): struct exec_ctx (defined in
 * machine_int.h) and the four functions ops call. The op engineer's unit
 * tests link a stub of these four functions instead of this file. */
#include <stdarg.h>
#include <stdio.h>

#include "exec/machine_int.h"
#include "exec/write_log.h"

ptodb_status exec_fail(exec_ctx *ctx, ptodb_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!ctx->err_set) {
        strbuf_clear(&ctx->err);
        strbuf_vprintf(&ctx->err, fmt, ap);
        ctx->err_set = 1;
    }
    va_end(ap);
    return st;
}

/* Declared in machine_int.h; here, beside its one caller, so that the ops'
 * side of the machine needs nothing from machine.c (no circle). */
void machine_prov_drop_views(machine *m, const tensor_storage *s)
{
    for (int cid = 0; cid < EXEC_NCORES; cid++) {
        core *c = &m->cores[cid];
        for (int d = 0; d < c->depth; d++) {
            xframe *f = &c->frames[d];
            for (uint32_t i = 0; i < f->fn->nslots; i++) {
                value *v = &f->slots[i];
                if (v->kind == VAL_TENSOR && v->u.t && v->u.t->storage == s)
                    v->u.t->prov = 0;
            }
        }
    }
}

void exec_note_write(exec_ctx *ctx, tensor *t)
{
    struct machine *m = ctx->m;
    if (m && m->hook)
        m->hook(m->hook_ud, ctx->core ? ctx->core->id : 0, t);
    if (m && m->mem)
        exec_memcheck_written(m->mem, ctx->core, t);
    if (m && m->wlog)
        exec_write_log_note(m->wlog, t->storage);
    if (m && m->prov) {
        exec_prov_written(t);
        machine_prov_drop_views(m, t->storage);
    }
}

void exec_note_ref_cannot_run(exec_ctx *ctx, const char *msg)
{
    if (!ctx->ref_note)
        ctx->ref_note = msg; /* eval_op adds the location and hands it to the machine */
}

exec_profile_id exec_profile(const exec_ctx *ctx)
{
    return ctx->profile;
}

int exec_lane(const exec_ctx *ctx)
{
    return ctx->core ? ctx->core->lane : 0;
}

int exec_device(const exec_ctx *ctx)
{
    return !ctx->m || ctx->m->opt.semantics == EXEC_SEM_DEVICE;
}

static const xframe *top_frame(const exec_ctx *ctx)
{
    return ctx->core && ctx->core->depth > 0 ? &ctx->core->frames[ctx->core->depth - 1] : NULL;
}

int64_t exec_block_idx(const exec_ctx *ctx)
{
    const xframe *f = top_frame(ctx);
    return f ? f->block_idx : 0;
}

int64_t exec_block_num(const exec_ctx *ctx)
{
    const xframe *f = top_frame(ctx);
    return f && f->block_num > 0 ? f->block_num : 1;
}

void exec_note_ref_differs(exec_ctx *ctx, int id, const char *msg)
{
    if (ctx->differs_id < 0) {
        ctx->differs_id = id; /* eval_op adds the location and hands it to the machine */
        ctx->differs_what = msg;
    }
}

void exec_note_gm_access(exec_ctx *ctx, const tensor *v, int write)
{
    machine *m = ctx->m;
    if (m && m->taskgraph)
        exec_tasks_access(m->taskgraph, v, write != 0);
    if (m && m->gm_hook && !m->gm_hook_paused)
        m->gm_hook(m->gm_hook_ud, ctx->core ? ctx->core->id : 0, v, write != 0);
    /* the cores of a launch (exec/gmrace.h); a multi-rank op's window
     * accesses are the ranks' check's (its pause) */
    core *c = ctx->core;
    if (m && m->race && c && c->in_group && m->grp.race_instance && !m->gm_hook_paused) {
        int line, col;
        exec_stmt_loc(ctx, &line, &col);
        const xframe *f = top_frame(ctx);
        if (exec_gmrace_access(m->race, &c->race_clock, c->id, v, write, line, col, f ? f->fn->name : NULL))
            ctx->raced = 1;
    }
}

void exec_gm_hook_pause(exec_ctx *ctx, int paused)
{
    if (ctx->m)
        ctx->m->gm_hook_paused = paused;
}

const struct exec_comm *exec_comm_of(const exec_ctx *ctx)
{
    return ctx->m ? ctx->m->opt.comm : NULL;
}

void exec_block_external(exec_ctx *ctx, const char *what)
{
    ctx->nwait = 0; /* no queue: runnable again at once, the op re-checks */
    ctx->wait_room = 0;
    snprintf(ctx->wait_what, sizeof ctx->wait_what, "%s", what);
    snprintf(ctx->wait_op, sizeof ctx->wait_op, "%s", what);
    ctx->wait_args[0] = '\0';
}

void exec_stmt_loc(const exec_ctx *ctx, int *line, int *col)
{
    const xframe *f = top_frame(ctx);
    const xinst *in = f ? &f->fn->code[f->pc] : NULL;
    *line = in && in->stmt ? (int)in->stmt->span.line : 0;
    *col = in && in->stmt ? (int)in->stmt->span.col : 0;
}

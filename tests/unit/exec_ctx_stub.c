/* A test-only machine side of the op contract (op.h): records the last
 * error message and the tensors ops report as written. Linked only into the
 * op unit tests; the real definitions live in the machine's exec_ctx.c. */
#include <stdarg.h>
#include <stdio.h>

#include "check_ops_util.h"

ptodb_status exec_fail(exec_ctx *ctx, ptodb_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ctx->msg, sizeof ctx->msg, fmt, ap);
    va_end(ap);
    ctx->failures++;
    return st;
}

void exec_note_write(exec_ctx *ctx, tensor *t)
{
    ctx->writes++;
    ctx->last_write = t;
}

void exec_note_ref_cannot_run(exec_ctx *ctx, const char *msg)
{
    ctx->ref_note = msg;
}

exec_profile_id exec_profile(const exec_ctx *ctx)
{
    return ctx->profile;
}

int exec_lane(const exec_ctx *ctx)
{
    return ctx->lane;
}

int exec_device(const exec_ctx *ctx)
{
    return ctx->device;
}

int64_t exec_block_idx(const exec_ctx *ctx)
{
    return ctx->block_idx;
}

int64_t exec_block_num(const exec_ctx *ctx)
{
    return ctx->block_num > 0 ? ctx->block_num : 1;
}

void exec_note_ref_differs(exec_ctx *ctx, int id, const char *msg)
{
    ctx->differs_id = id;
    ctx->differs_what = msg;
}

void exec_note_gm_access(exec_ctx *ctx, const tensor *v, int write)
{
    (void)ctx, (void)v, (void)write;
}

void exec_gm_hook_pause(exec_ctx *ctx, int paused)
{
    (void)ctx;
    (void)paused;
}

const struct exec_comm *exec_comm_of(const exec_ctx *ctx)
{
    return ctx->comm;
}

void exec_block_external(exec_ctx *ctx, const char *what)
{
    (void)what;
    ctx->blocked++;
}

void exec_stmt_loc(const exec_ctx *ctx, int *line, int *col)
{
    (void)ctx;
    *line = 7;
    *col = 9;
}

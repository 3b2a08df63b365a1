/* The machine's side of the op contract (op.h): struct exec_ctx (defined in
 * machine_int.h) and the four functions ops call. The op engineer's unit
 * tests link a stub of these four functions instead of this file. */
#include <stdarg.h>

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

void exec_note_write(exec_ctx *ctx, tensor *t)
{
    struct machine *m = ctx->m;
    if (m && m->hook)
        m->hook(m->hook_ud, ctx->core ? ctx->core->id : 0, t);
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

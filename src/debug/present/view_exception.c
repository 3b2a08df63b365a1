/* view_stop_exception (view.h): a stop that is an exception, for front
 * ends that report those apart (the DAP server's stopped reason
 * "exception" and exceptionInfo). */
#include <stdio.h>
#include <string.h>

#include "debug/state/breakpoint.h"
#include "debug/state/session_impl.h"
#include "debug/present/view.h"
#include "exec/machine.h"

int view_stop_exception(session *s, view_exception *out)
{
    memset(out, 0, sizeof *out);
    run_state *r = &s->run;
    if (!r->active || !r->m)
        return 0;
    if (r->failed) {
        out->kind = r->fail_status == PTODB_ERR_DEADLOCK ? VIEW_EXC_DEADLOCK : VIEW_EXC_ERROR;
        snprintf(out->check, sizeof out->check, "%s",
                 ptodb_status_message(r->fail_status != PTODB_OK ? r->fail_status : PTODB_ERR_RUNTIME));
        out->text = machine_error(r->m);
        return 1;
    }
    breakpoint *b = r->last_bp && !r->finished ? bp_find(s, r->last_bp) : NULL;
    if (b && (b->kind == BP_CATCH_RACE || b->kind == BP_CATCH_FENCE) && r->comm_report) {
        out->kind = VIEW_EXC_COMM;
        snprintf(out->check, sizeof out->check, "%s", b->kind == BP_CATCH_RACE ? "race" : "fence");
        out->text = r->comm_report;
        return 1;
    }
    const char *last = machine_mem_last(r->m);
    if (!b || b->kind != BP_CATCH_MEMORY || !last)
        return 0;
    out->kind = VIEW_EXC_MEMORY;
    out->text = last;
    /* the block's first line, memcheck.c's report(): "memory fault: CHECK at FILE:LINE:COL in FUNC" */
    static const char head[] = "memory fault: ";
    const char *k = strncmp(last, head, sizeof head - 1) == 0 ? last + sizeof head - 1 : "";
    snprintf(out->check, sizeof out->check, "%.*s", (int)strcspn(k, " \n"), k);
    return 1;
}

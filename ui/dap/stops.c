/* After a command ran the program: the DAP side of the breakpoint that
 * stopped it (hitCondition, logMessage) and the stopped or exited events. */
#include "config.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "dap_impl.h"
#include "debug/present/view.h"
#include "debug/run/timetravel.h"

/* ---- the stop ---------------------------------------------------------------------------- */

static dap_bp *bp_of_number(dap_server *d, int number)
{
    for (size_t i = 0; i < d->nbps; i++)
        if (d->bps[i].number == number)
            return &d->bps[i];
    return NULL;
}

/* A logpoint's message with each {EXPR} replaced by the expression's value
 * (print's form, first line). */
static char *log_message(dap_server *d, const char *msg)
{
    strbuf sb = STRBUF_INIT;
    for (const char *p = msg; *p;) {
        if (*p == '{') {
            const char *close = strchr(p, '}');
            if (close) {
                char expr[512];
                snprintf(expr, sizeof expr, "%.*s", (int)(close - p - 1), p + 1);
                if (dap_execute(d, "output %s", expr) == 0) {
                    const char *v = strbuf_str(&d->cap);
                    size_t n = strcspn(v, "\n");
                    strbuf_append(&sb, v, n);
                } else {
                    strbuf_printf(&sb, "<error: %s>", expr);
                }
                p = close + 1;
                continue;
            }
        }
        strbuf_putc(&sb, *p++);
    }
    strbuf_putc(&sb, '\n');
    return strbuf_detach(&sb);
}

/* After a command that ran the program: forward its output, apply the DAP
 * side of the breakpoint that stopped it (hitCondition, logMessage: both
 * go on running), and tell the client where it stopped or that it ended. */
void dap_after_run(dap_server *d, const char *reason)
{
    for (int guard = 0;; guard++) {
        dap_output(d, "console", strbuf_str(&d->cap));
        strbuf_clear(&d->cap);
        view_location loc;
        /* stopped where the selected core has just returned (a seek, a
         * pause): the run goes on, another thread shows the stop (the
         * selected one where no core has a frame: a multi-rank run's step 0) */
        int live = dap_select_live(d);
        if (live < 0)
            break;
        if (live > 0 || !view_stop_location(d->s, &loc)) {
            int level;
            memset(&loc, 0, sizeof loc);
            view_nranks(d->s, &loc.rank);
            if (!view_selection(d->s, &loc.core, &level))
                loc.core = 0;
        }
        /* a deadlock or an error the filters do not stop on ends the run */
        view_exception exc;
        int exception = dap_exception_stop(d, &exc);
        if (!exception && dap_exception_ends_run(d))
            break;
        int number = exception ? 0 : view_stop_breakpoint(d->s);
        dap_bp *b = number ? bp_of_number(d, number) : NULL;
        /* the divergence engine's statement (launch_at_divergence): once */
        int divergence = number && number == d->div_bp && !b;
        if (divergence)
            d->div_bp = 0;
        d->div_stopped = divergence;
        if (b && !d->interrupted_by_pause) {
            b->hits++;
            int stops = hitcond_stops(&b->hit, b->hits);
            if (stops && b->log) {
                char *text = log_message(d, b->log);
                dap_output(d, "console", text);
                free(text);
                stops = 0;
            }
            /* a hit that does not stop: a continue goes on; a step ends
             * where it is, a plain step (the step did what was asked) */
            if (!stops && strcmp(reason, "step") != 0 && guard < 1000000) {
                dap_execute(d, "continue");
                continue;
            }
            if (!stops)
                b = NULL;
        }
        /* a reverse-continue (or continue) that met no breakpoint: at the
         * history's start it is the program's entry, else a plain stop */
        const char *why = reason;
        if (!b && !exception && strcmp(reason, "breakpoint") == 0)
            why = tt_now(d->s) == 0 ? "entry" : "step";
        json_t *body = json_pack("{s:s, s:i, s:b}", "reason", why, "threadId",
                                 (loc.rank > 0 ? loc.rank * 4 : 0) + loc.core + 1,
                                 "allThreadsStopped", 1);
        if (d->interrupted_by_pause) {
            json_object_set_new(body, "reason", json_string("pause"));
        } else if (exception) {
            dap_exception_stopped_body(d, &exc, body);
        } else if (divergence) {
            dap_divergence_stopped_body(d, body);
        } else if (b) {
            const char *r = b->kind == BPK_DATA ? "data breakpoint"
                            : b->kind == BPK_FUNC ? "function breakpoint" : "breakpoint";
            json_object_set_new(body, "reason", json_string(r));
            json_object_set_new(body, "hitBreakpointIds", json_pack("[i]", b->number));
            char desc[64];
            snprintf(desc, sizeof desc, "breakpoint %d", b->number);
            json_object_set_new(body, "description", json_string(desc));
        }
        d->interrupted_by_pause = 0;
        dap_event(d, "stopped", body);
        return;
    }
    d->interrupted_by_pause = 0;
    if (d->exited)
        return;
    /* the pass ran to its end (verdict known) or the run failed */
    int exit_code = 2;
    int pass = view_run_pass(d->s);
    view_pass p;
    if (view_run_finished(d->s) && view_pass_info(d->s, pass, &p))
        exit_code = p.verdict == VIEW_VERDICT_PASS ? 0 : p.verdict == VIEW_VERDICT_FAIL ? 1 : 2;
    d->exited = 1;
    dap_event(d, "exited", json_pack("{s:i}", "exitCode", exit_code));
    dap_event(d, "terminated", NULL);
}



/* Exception breakpoints and exceptionInfo: what the engine can stop on
 * that is no breakpoint of the user's. A memory fault stops only with the
 * "memory" filter on (a `catch memory` catchpoint the server owns), a race
 * on a window or a fence breach of a multi-rank case with the "multirank"
 * filter (`catch race` and `catch fence`); a
 * deadlock or another error ends the run where it happened, and the
 * filters say whether the client sees that as a stop (reason "exception",
 * the frames still there to look at) or as the program's end. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dap_impl.h"
#include "debug/present/view.h"

static const struct {
    const char *id, *label, *description;
    int dflt;
} filters[] = {
    {"memory", "Memory faults",
     "Stop where the memory sanitizer finds a fault (catch memory): clobber, uninit, bounds, slot", 0},
    {"deadlock", "Deadlocks", "Stop where every live core is blocked on a queue", 1},
    {"error", "Runtime errors", "Stop where the interpreter raises (shape, bounds, a runtime error of an op)", 1},
    {"multirank", "Multi-rank faults",
     "Stop where a race on a window or a breach of the fence contract is found (catch race, catch fence)", 0},
};
enum { NFILTERS = sizeof filters / sizeof filters[0] };

json_t *dap_exception_filters(void)
{
    json_t *a = json_array();
    for (size_t i = 0; i < NFILTERS; i++)
        json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:b}", "filter", filters[i].id, "label",
                                           filters[i].label, "description", filters[i].description, "default",
                                           filters[i].dflt));
    return a;
}

void dap_exceptions_init(dap_server *d)
{
    d->exc_memory = filters[0].dflt;
    d->exc_deadlock = filters[1].dflt;
    d->exc_error = filters[2].dflt;
    d->exc_multirank = filters[3].dflt;
}

/* The catchpoint *bp of `catch EVENT` exists exactly while on. */
static void own_catchpoint(dap_server *d, int on, int *bp, const char *event)
{
    if (on && !*bp) {
        int before = view_newest_breakpoint(d->s);
        if (dap_execute(d, "catch %s", event) == 0 && view_newest_breakpoint(d->s) != before)
            *bp = view_newest_breakpoint(d->s);
    } else if (!on && *bp) {
        dap_execute(d, "delete %d", *bp);
        *bp = 0;
    }
}

void dap_exceptions_apply(dap_server *d)
{
    if (!d->s)
        return;
    own_catchpoint(d, d->exc_memory, &d->exc_memory_bp, "memory");
    own_catchpoint(d, d->exc_multirank, &d->exc_race_bp, "race");
    own_catchpoint(d, d->exc_multirank, &d->exc_fence_bp, "fence");
}

void dap_req_set_exception_breakpoints(dap_server *d, json_t *req, json_t *args)
{
    json_t *list = json_object_get(args, "filters");
    json_t *opts = json_object_get(args, "filterOptions");
    if ((list && !json_is_array(list)) || (opts && !json_is_array(opts))) {
        dap_fail(d, req, "setExceptionBreakpoints: 'filters' and 'filterOptions' are arrays");
        return;
    }
    int on[NFILTERS] = {0};
    json_t *result = json_array();
    /* one Breakpoint per entry of filters, then of filterOptions */
    size_t n = json_array_size(list), m = json_array_size(opts);
    for (size_t i = 0; i < n + m; i++) {
        json_t *e = i < n ? json_array_get(list, i) : json_array_get(opts, i - n);
        const char *id = i < n ? json_string_value(e) : json_string_value(json_object_get(e, "filterId"));
        size_t k = NFILTERS;
        for (size_t j = 0; id && j < NFILTERS; j++)
            if (strcmp(filters[j].id, id) == 0)
                k = j;
        const char *cond = i < n ? NULL : json_string_value(json_object_get(e, "condition"));
        if (k == NFILTERS) {
            json_array_append_new(result, json_pack("{s:b, s:s}", "verified", 0, "message", "unknown exception filter"));
        } else if (cond && *cond) {
            /* supportsExceptionFilterOptions is false: a client that sends one anyway learns why not */
            json_array_append_new(result, json_pack("{s:b, s:s}", "verified", 0, "message",
                                                    "exception filters take no condition"));
        } else {
            on[k] = 1;
            json_array_append_new(result, json_pack("{s:b}", "verified", 1));
        }
    }
    d->exc_memory = on[0];
    d->exc_deadlock = on[1];
    d->exc_error = on[2];
    d->exc_multirank = on[3];
    dap_exceptions_apply(d);
    dap_respond(d, req, json_pack("{s:o}", "breakpoints", result));
}

int dap_exception_stop(dap_server *d, view_exception *e)
{
    if (!d->s || !view_stop_exception(d->s, e))
        return 0;
    switch (e->kind) {
    case VIEW_EXC_MEMORY:
    case VIEW_EXC_COMM: return 1; /* a catchpoint stopped it: the filter's, or one typed in the console */
    case VIEW_EXC_DEADLOCK: return d->exc_deadlock;
    case VIEW_EXC_ERROR: return d->exc_error;
    default: return 0;
    }
}

int dap_exception_ends_run(dap_server *d)
{
    view_exception e;
    return d->s && view_stop_exception(d->s, &e) && !dap_exception_caught(&e) && !dap_exception_stop(d, &e);
}

int dap_exception_caught(const view_exception *e)
{
    return e->kind == VIEW_EXC_MEMORY || e->kind == VIEW_EXC_COMM;
}

static const char *kind_name(view_exception_kind k)
{
    return k == VIEW_EXC_MEMORY   ? "memory fault"
           : k == VIEW_EXC_COMM     ? "multi-rank fault"
           : k == VIEW_EXC_DEADLOCK ? "deadlock"
                                    : "error";
}

/* exceptionInfo's fullTypeName's middle word */
static const char *kind_word(view_exception_kind k)
{
    return k == VIEW_EXC_MEMORY ? "memory" : k == VIEW_EXC_COMM ? "multirank" : k == VIEW_EXC_DEADLOCK ? "deadlock" : "error";
}

/* The report's heading: its first line (check at file:line:col); of a
 * deadlock, ptodb's own line (the reference's message comes first). */
static char *first_line(const char *text)
{
    const char *dl = strstr(text, "ptodb: deadlock");
    if (dl && (dl == text || dl[-1] == '\n'))
        text = dl;
    size_t n = strcspn(text, "\n");
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, text, n);
        s[n] = 0;
    }
    return s;
}

void dap_exception_stopped_body(dap_server *d, const view_exception *e, json_t *body)
{
    (void)d;
    char *head = first_line(e->text ? e->text : "");
    char desc[96];
    if (strcmp(kind_name(e->kind), e->check) == 0)
        snprintf(desc, sizeof desc, "%s", e->check);
    else
        snprintf(desc, sizeof desc, "%s: %s", kind_name(e->kind), e->check);
    json_object_set_new(body, "reason", json_string("exception"));
    json_object_set_new(body, "description", dap_str(desc));
    json_object_set_new(body, "text", dap_str(head ? head : ""));
    free(head);
}

void dap_divergence_stopped_body(dap_server *d, json_t *body)
{
    view_divergence dv;
    if (!view_divergence_answer(d->s, &dv))
        return;
    char desc[96];
    snprintf(desc, sizeof desc, "first divergence: %s", dv.reason);
    json_object_set_new(body, "reason", json_string("exception"));
    json_object_set_new(body, "description", dap_str(desc));
    json_object_set_new(body, "text", dap_str(*dv.why ? dv.why : dv.head));
}

/* exceptionInfo at the divergence engine's statement: its words */
static void divergence_info(dap_server *d, json_t *req)
{
    view_divergence dv;
    view_divergence_answer(d->s, &dv);
    strbuf sb = STRBUF_INIT;
    strbuf_printf(&sb, "%s\n%s%s", dv.head, *dv.why ? "  " : "", dv.why);
    char full[96];
    snprintf(full, sizeof full, "ptodb.divergence.%s", dv.reason);
    json_t *details = json_pack("{s:o, s:s, s:o}", "message", dap_text_capped(strbuf_str(&sb)), "typeName",
                                "divergence", "fullTypeName", dap_str(full));
    dap_respond(d, req, json_pack("{s:s, s:o, s:s, s:o}", "exceptionId", "divergence", "description",
                                  dap_str(*dv.why ? dv.why : dv.head), "breakMode", "always", "details", details));
    strbuf_free(&sb);
}

void dap_req_exception_info(dap_server *d, json_t *req, json_t *args)
{
    (void)args;
    view_exception e;
    view_divergence dv;
    view_location loc;
    if (d->s && d->div_stopped && view_divergence_answer(d->s, &dv) && view_stop_location(d->s, &loc) &&
        loc.pass == dv.pass && loc.line == dv.line && !view_stop_exception(d->s, &e)) {
        divergence_info(d, req);
        return;
    }
    if (!d->s || !view_stop_exception(d->s, &e) || !dap_exception_stop(d, &e)) {
        dap_fail(d, req, "exceptionInfo: the program is not stopped at an exception");
        return;
    }
    const char *text = e.text ? e.text : "";
    char *head = first_line(text);
    char full[96];
    snprintf(full, sizeof full, "ptodb.%s.%s", kind_word(e.kind), e.check);
    json_t *details = json_pack("{s:o, s:s, s:o}", "message", dap_text_capped(text), "typeName", kind_name(e.kind),
                                "fullTypeName", dap_str(full));
    /* a memory fault, race or fence breach is caught where it happens and
     * the run goes on; a deadlock or an error ends it (nothing in the
     * program handles it) */
    dap_respond(d, req, json_pack("{s:o, s:o, s:s, s:o}", "exceptionId", dap_str(e.check), "description",
                                  dap_str(head ? head : ""), "breakMode",
                                  dap_exception_caught(&e) ? "always" : "unhandled", "details", details));
    free(head);
}

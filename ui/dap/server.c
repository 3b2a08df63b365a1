/* The DAP server (server.h): messages, launch, breakpoints and running. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/mem.h"
#include "base/status.h"
#include "dap_impl.h"
#include "debug/run/timetravel.h"
#include "debug/present/view.h"
#include "../options.h"
#include "../startup.h"

/* ---- running ---------------------------------------------------------------------------- */

static void resume(dap_server *d, json_t *req, json_t *args, const char *command, const char *reason)
{
    if (!d->s || !d->launched) {
        dap_fail(d, req, "notStopped: no program is running");
        return;
    }
    view_location loc;
    int live = dap_select_live(d);
    if (live < 0) {
        dap_fail(d, req, "notStopped: the program is not stopped");
        return;
    }
    if (live > 0 || !view_stop_location(d->s, &loc)) {
        /* no core has a frame: the thread given is selected when it has one */
        memset(&loc, 0, sizeof loc);
        loc.core = -1;
    }
    view_exception exc;
    int backward = strncmp(command, "reverse-", 8) == 0;
    if (!backward && view_stop_exception(d->s, &exc) && !dap_exception_caught(&exc)) {
        /* the run raised: going back works (stepBack, reverseContinue, restartFrame), on does not */
        dap_fail(d, req, "the pass stopped with %s: step back, or restart it", exc.kind == VIEW_EXC_DEADLOCK ? "a deadlock" : "an error");
        return;
    }
    json_t *tid = json_object_get(args, "threadId");
    int whole = strcmp(command, "continue") == 0 || strcmp(command, "reverse-continue") == 0;
    if (json_is_integer(tid) && !whole) {
        /* the thread stepped: rank * 4 + core (a multi-rank case) */
        int thread = (int)json_integer_value(tid) - 1;
        if (thread >= 0 && thread != (loc.rank > 0 ? loc.rank * 4 : 0) + loc.core)
            dap_select_frame(d, thread, 0);
    }
    dap_refs_clear(d);
    if (whole)
        dap_respond(d, req, json_pack("{s:b}", "allThreadsContinued", 1));
    else
        dap_respond(d, req, NULL);
    dap_execute(d, "%s", command);
    dap_after_run(d, reason);
}

/* ---- launch ------------------------------------------------------------------------------------ */

static void on_poll(void *ctx, const char *progress);

static void req_initialize(dap_server *d, json_t *req, json_t *args)
{
    d->client_invalidated = json_is_true(json_object_get(args, "supportsInvalidatedEvent"));
    d->client_progress = json_is_true(json_object_get(args, "supportsProgressReporting"));
    /* the engine counts from 1; a client may count from 0 */
    d->line_base = json_is_false(json_object_get(args, "linesStartAt1")) ? 0 : 1;
    d->column_base = json_is_false(json_object_get(args, "columnsStartAt1")) ? 0 : 1;
    json_t *caps = json_pack(
        "{s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:b, s:o}",
        "supportsConfigurationDoneRequest", 1, "supportsFunctionBreakpoints", 1,
        "supportsConditionalBreakpoints", 1, "supportsHitConditionalBreakpoints", 1, "supportsLogPoints", 1,
        "supportsDataBreakpoints", 1, "supportsSetVariable", 1, "supportsEvaluateForHovers", 1,
        "supportsClipboardContext", 1, "supportsGotoTargetsRequest", 1, "supportsCancelRequest", 1,
        "supportsTerminateRequest", 1, "supportsDelayedStackTraceLoading", 1,
        /* reverse execution: src/debug/run/timetravel.c */
        "supportsStepBack", 1, "supportsRestartFrame", 1, "supportsRestartRequest", 1,
        "supportsReadMemoryRequest", 1, "supportsCompletionsRequest", 1, "supportsExceptionInfoRequest", 1,
        "supportsStepInTargetsRequest", 0, "supportsValueFormattingOptions", 0, "supportsExceptionFilterOptions", 0,
        "exceptionBreakpointFilters", dap_exception_filters());
    dap_respond(d, req, caps);
}

static void req_launch(dap_server *d, json_t *req, json_t *args)
{
    if (!d->allow_launch) {
        dap_fail(d, req, "launch is disabled in this server");
        return;
    }
    if (d->launched) {
        dap_fail(d, req, "already launched");
        return;
    }
    const char *path = json_string_value(json_object_get(args, "case"));
    if (!path)
        path = json_string_value(json_object_get(args, "program"));
    if (!path) {
        dap_fail(d, req, "launch: 'case' (the case folder, passes_dump/ or a dump file) is required");
        return;
    }
    /* args: ptodb's own command line (--rtol 1e-3, -ex CMD ...). --nx
     * unless noInit is false: no rc file and no saved per-case session
     * (its breakpoints would not be the editor's). */
    json_t *jargs = json_object_get(args, "args");
    size_t nargs = json_is_array(jargs) ? json_array_size(jargs) : 0;
    char **argv = xcalloc(nargs + 4, sizeof *argv);
    int argc = 0;
    argv[argc++] = xstrdup("ptodb");
    if (!json_is_false(json_object_get(args, "noInit")))
        argv[argc++] = xstrdup("--nx");
    for (size_t i = 0; i < nargs; i++) {
        const char *a = json_string_value(json_array_get(jargs, i));
        if (!a) {
            dap_fail(d, req, "launch: args[%zu] is not a string", i);
            goto out;
        }
        argv[argc++] = xstrdup(a);
    }
    argv[argc++] = xstrdup(path);
    ptodb_cli cli;
    /* usage errors go to stderr, never stdout */
    if (ptodb_cli_parse(&cli, argc, argv) != 0) {
        dap_fail(d, req, "launch: bad args (see the server's standard error)");
        goto out;
    }
    /* only the debugger's options: the others would be ignored */
    if (ptodb_cli_check_mode(&cli, PTODB_MODE_DAP_LAUNCH) != 0) {
        ptodb_cli_free(&cli);
        dap_fail(d, req, "launch: bad args (see the server's standard error)");
        goto out;
    }
    int status = 0;
    strbuf_clear(&d->cap);
    d->s = startup_session(&cli, dap_on_engine_output, d, &status);
    ptodb_cli_free(&cli);
    if (!d->s) {
        dap_fail(d, req, "launch: cannot open %s", path);
        goto out;
    }
    session_set_poll(d->s, on_poll, d);
    dap_output(d, "console", strbuf_str(&d->cap));
    json_t *pass = json_object_get(args, "pass");
    if (json_is_integer(pass) || json_is_string(pass)) {
        /* an integer is the pass's file number (22 for 22_after_...), as `pass N` takes it */
        int bad = json_is_integer(pass) ? dap_execute(d, "pass %lld", (long long)json_integer_value(pass))
                                        : strchr(json_string_value(pass), '\n')
                                              ? -1
                                              : dap_execute(d, "pass %s", json_string_value(pass));
        if (bad) {
            char line[512];
            dap_fail(d, req, "launch: %s", dap_last_line(d, line, sizeof line));
            session_free(d->s);
            d->s = NULL;
            goto out;
        }
    }
    d->stop_on_entry = json_is_true(json_object_get(args, "stopOnEntry"));
    /* a launch that names no pass asks the divergence engine where a
     * failing case first goes wrong, and stops there */
    d->find_divergence = !pass && !json_is_false(json_object_get(args, "divergence"));
    d->launched = 1;
    /* filters a client set before launch */
    dap_exceptions_apply(d);
    dap_respond(d, req, NULL);
    dap_event(d, "process", json_pack("{s:s, s:b, s:s}", "name", path, "isLocalProcess", 1, "startMethod",
                                      "launch"));
    /* configuration requests are welcome from now on */
    dap_event(d, "initialized", NULL);
out:
    for (int i = 0; i < argc; i++)
        free(argv[i]);
    free(argv);
}

/* The divergence engine (`bisect`: the first failing pass, and in it the
 * statement where it parts from the last passing one, batch/diverge.h):
 * its report goes to the console, its two lines (the statement, the
 * reason) to an important output, the pass is selected and a temporary
 * breakpoint set at the statement; the stop there is an "exception" in the
 * engine's words (stops.c). A passing case runs as before. */
static void launch_at_divergence(dap_server *d)
{
    dap_execute(d, "bisect");
    view_divergence dv;
    if (!view_divergence_answer(d->s, &dv) || dv.pass != session_current_pass(d->s))
        return;
    strbuf sb = STRBUF_INIT;
    strbuf_printf(&sb, "%s\n", dv.head);
    if (*dv.why)
        strbuf_printf(&sb, "  %s\n", dv.why);
    int before = view_newest_breakpoint(d->s);
    int bad = dv.rank >= 0 ? dap_execute(d, "tbreak %d rank %d", dv.line, dv.rank) : dap_execute(d, "tbreak %d", dv.line);
    dap_output(d, "console", strbuf_str(&d->cap));
    strbuf_clear(&d->cap);
    dap_output(d, "important", strbuf_str(&sb));
    strbuf_free(&sb);
    if (!bad && view_newest_breakpoint(d->s) != before)
        d->div_bp = view_newest_breakpoint(d->s);
}

static void req_configuration_done(dap_server *d, json_t *req, json_t *args)
{
    (void)args;
    if (!d->launched) {
        dap_fail(d, req, "configurationDone before launch");
        return;
    }
    dap_respond(d, req, NULL);
    if (d->configured)
        return;
    d->configured = 1;
    dap_event(d, "thread", json_pack("{s:s, s:i}", "reason", "started", "threadId", 1));
    if (d->find_divergence && !d->stop_on_entry)
        launch_at_divergence(d);
    /* a pause while the engine ran (a pass that never ends): the program
     * stops at its entry, the stop a pause asks for */
    dap_execute(d, "%s", d->stop_on_entry || d->interrupted_by_pause ? "start" : "run");
    dap_after_run(d, "entry");
}

/* ---- breakpoints -------------------------------------------------------------------------------- */

static void bp_release(dap_server *d, size_t i)
{
    dap_execute(d, "delete %d", d->bps[i].number);
    free(d->bps[i].source);
    free(d->bps[i].log);
    d->bps[i] = d->bps[--d->nbps];
}

/* Makes one engine breakpoint with `command` (break 22_x:40 if c ...);
 * fills the DAP Breakpoint object. 0 with *number, -1 unverified. */
static int make_bp(dap_server *d, dap_bp_kind kind, const char *source, const char *command, json_t *spec,
                   json_t *out)
{
    const char *hit_text = json_string_value(json_object_get(spec, "hitCondition"));
    const char *log = json_string_value(json_object_get(spec, "logMessage"));
    hitcond hc;
    char err[256];
    if (hitcond_parse(hit_text, &hc, err, sizeof err) != 0) {
        json_object_set_new(out, "verified", json_false());
        json_object_set_new(out, "message", dap_str(err));
        return -1;
    }
    int before = view_newest_breakpoint(d->s);
    if (dap_execute(d, "%s", command) != 0 || view_newest_breakpoint(d->s) == before) {
        char line[512];
        json_object_set_new(out, "verified", json_false());
        json_object_set_new(out, "message", dap_str(dap_last_line(d, line, sizeof line)));
        /* a breakpoint made before the error (a bad condition) goes too */
        if (view_newest_breakpoint(d->s) != before)
            dap_execute(d, "delete %d", view_newest_breakpoint(d->s));
        return -1;
    }
    int number = view_newest_breakpoint(d->s);
    d->bps = xreallocarray(d->bps, d->nbps + 1, sizeof *d->bps);
    dap_bp *b = &d->bps[d->nbps++];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->number = number;
    b->source = source ? xstrdup(source) : NULL;
    b->hit = hc;
    b->log = log && *log ? xstrdup(log) : NULL;
    json_object_set_new(out, "verified", json_true());
    json_object_set_new(out, "id", json_integer(number));
    return 0;
}

static void append_condition(char *cmd, size_t size, json_t *spec)
{
    const char *cond = json_string_value(json_object_get(spec, "condition"));
    if (cond && *cond) {
        size_t n = strlen(cmd);
        snprintf(cmd + n, size - n, " if %s", cond);
    }
}

static void req_set_breakpoints(dap_server *d, json_t *req, json_t *args)
{
    if (!d->s) {
        dap_fail(d, req, "setBreakpoints before launch");
        return;
    }
    json_t *source = json_object_get(args, "source");
    const char *path = json_string_value(json_object_get(source, "path"));
    if (!path)
        path = json_string_value(json_object_get(source, "name"));
    int pass = dap_pass_of_path(d, path);
    json_t *list = json_object_get(args, "breakpoints");
    json_t *result = json_array();
    const char *stem = pass >= 0 ? session_pass_stem(d->s, pass) : NULL;
    for (size_t i = d->nbps; i-- > 0;)
        if (d->bps[i].kind == BPK_LINE && stem && d->bps[i].source && strcmp(d->bps[i].source, stem) == 0)
            bp_release(d, i);
    size_t n = json_is_array(list) ? json_array_size(list) : 0;
    for (size_t i = 0; i < n; i++) {
        json_t *spec = json_array_get(list, i);
        json_t *line = json_object_get(spec, "line");
        json_t *out = json_object();
        if (!json_is_integer(line)) {
            json_object_set_new(out, "verified", json_false());
            json_object_set_new(out, "message", json_string("no line"));
        } else if (!stem) {
            json_object_set_new(out, "verified", json_false());
            json_object_set_new(out, "message", json_string("not a pass file of the case"));
            json_object_set_new(out, "line", json_integer(json_integer_value(line)));
        } else {
            char cmd[2048];
            snprintf(cmd, sizeof cmd, "break %s:%lld", stem, (long long)json_integer_value(line) + 1 - d->line_base);
            append_condition(cmd, sizeof cmd, spec);
            make_bp(d, BPK_LINE, stem, cmd, spec, out);
            json_object_set_new(out, "line", json_integer(json_integer_value(line)));
            char abs[PATH_MAX];
            json_object_set_new(out, "source", json_pack("{s:o}", "path", dap_str(dap_abs_path(path, abs, sizeof abs))));
        }
        json_array_append_new(result, out);
    }
    dap_respond(d, req, json_pack("{s:o}", "breakpoints", result));
}

/* One breakpoint of a setFunctionBreakpoints / setDataBreakpoints list: its
 * engine command made into out (verified, id, ...) or why not. */
typedef void (*bp_one_fn)(dap_server *d, json_t *spec, json_t *out);

/* setFunctionBreakpoints and setDataBreakpoints: the list replaces every
 * breakpoint of its kind, one result per entry, in order. */
static void replace_breakpoints(dap_server *d, json_t *req, json_t *args, dap_bp_kind kind, const char *what,
                                bp_one_fn one)
{
    if (!d->s) {
        dap_fail(d, req, "%s before launch", what);
        return;
    }
    for (size_t i = d->nbps; i-- > 0;)
        if (d->bps[i].kind == kind)
            bp_release(d, i);
    json_t *list = json_object_get(args, "breakpoints");
    json_t *result = json_array();
    size_t n = json_is_array(list) ? json_array_size(list) : 0;
    for (size_t i = 0; i < n; i++) {
        json_t *out = json_object();
        one(d, json_array_get(list, i), out);
        json_array_append_new(result, out);
    }
    dap_respond(d, req, json_pack("{s:o}", "breakpoints", result));
}

static void function_breakpoint(dap_server *d, json_t *spec, json_t *out)
{
    const char *name = json_string_value(json_object_get(spec, "name"));
    if (!name || !*name || strpbrk(name, " \t\n:")) {
        json_object_set_new(out, "verified", json_false());
        json_object_set_new(out, "message", json_string("expected a function name"));
        return;
    }
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "break %s", name);
    append_condition(cmd, sizeof cmd, spec);
    make_bp(d, BPK_FUNC, NULL, cmd, spec, out);
}

static void data_breakpoint(dap_server *d, json_t *spec, json_t *out)
{
    const char *id = json_string_value(json_object_get(spec, "dataId"));
    const char *access = json_string_value(json_object_get(spec, "accessType"));
    if (!id || strncmp(id, "tensor:", 7) != 0 || !id[7] || strchr(id, '\n')) {
        json_object_set_new(out, "verified", json_false());
        json_object_set_new(out, "message", json_string("expected a dataId from dataBreakpointInfo"));
        return;
    }
    const char *verb = !access || strcmp(access, "write") == 0 ? "watch"
                       : strcmp(access, "read") == 0       ? "rwatch"
                                                           : "awatch";
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s", verb, id + 7);
    append_condition(cmd, sizeof cmd, spec);
    make_bp(d, BPK_DATA, NULL, cmd, spec, out);
}

static void req_set_function_breakpoints(dap_server *d, json_t *req, json_t *args)
{
    replace_breakpoints(d, req, args, BPK_FUNC, "setFunctionBreakpoints", function_breakpoint);
}

static void req_set_data_breakpoints(dap_server *d, json_t *req, json_t *args)
{
    replace_breakpoints(d, req, args, BPK_DATA, "setDataBreakpoints", data_breakpoint);
}

/* ---- passes: goto, selectPass ------------------------------------------------------------------- */

static void invalidate(dap_server *d)
{
    dap_refs_clear(d);
    if (d->client_invalidated)
        dap_event(d, "invalidated", json_pack("{s:[s,s]}", "areas", "threads", "variables"));
}

/* Switches to pass i; with a run going, starts it there (stopped at entry). */
static int switch_pass(dap_server *d, int i, int restart)
{
    if (restart)
        dap_execute(d, "kill");
    view_pass p;
    if (!view_pass_info(d->s, i, &p) || dap_execute(d, "pass %s", p.stem) != 0)
        return -1;
    invalidate(d);
    if (restart) {
        d->exited = 0;
        dap_execute(d, "start");
        dap_after_run(d, "goto");
    }
    return 0;
}

static int pass_number_arg(dap_server *d, json_t *v)
{
    if (json_is_integer(v)) {
        json_int_t k = json_integer_value(v);
        return k >= 0 && k < session_npasses(d->s) ? (int)k : -1;
    }
    const char *name = json_string_value(v);
    if (!name)
        return -1;
    for (int i = 0; i < session_npasses(d->s); i++) {
        view_pass p;
        if (view_pass_info(d->s, i, &p) && (strcmp(p.stem, name) == 0 || strcmp(p.name, name) == 0))
            return i;
    }
    return -1;
}

static void req_goto_targets(dap_server *d, json_t *req, json_t *args)
{
    if (!d->s) {
        dap_fail(d, req, "gotoTargets before launch");
        return;
    }
    const char *path = json_string_value(json_object_get(json_object_get(args, "source"), "path"));
    int pass = dap_pass_of_path(d, path);
    json_t *line = json_object_get(args, "line");
    json_t *targets = json_array();
    view_pass p;
    if (pass >= 0 && view_pass_info(d->s, pass, &p)) {
        char label[256];
        snprintf(label, sizeof label, "restart in pass %02d %s", p.index, p.name);
        json_array_append_new(targets, json_pack("{s:i, s:o, s:I}", "id", pass + 1, "label", dap_str(label), "line",
                                                 (json_int_t)(json_is_integer(line) ? json_integer_value(line)
                                                                                    : d->line_base)));
    }
    dap_respond(d, req, json_pack("{s:o}", "targets", targets));
}

static void req_goto(dap_server *d, json_t *req, json_t *args)
{
    if (!d->s || !d->launched) {
        dap_fail(d, req, "goto before launch");
        return;
    }
    json_t *t = json_object_get(args, "targetId");
    int pass = json_is_integer(t) ? (int)json_integer_value(t) - 1 : -1;
    if (pass < 0 || pass >= session_npasses(d->s)) {
        dap_fail(d, req, "goto: unknown target");
        return;
    }
    dap_respond(d, req, NULL);
    if (switch_pass(d, pass, 1) != 0) {
        char line[512];
        dap_output(d, "important", dap_last_line(d, line, sizeof line));
    }
}

static void req_select_pass(dap_server *d, json_t *req, json_t *args)
{
    if (!d->s) {
        dap_fail(d, req, "ptodb/selectPass before launch");
        return;
    }
    int pass = pass_number_arg(d, json_object_get(args, "pass"));
    if (pass < 0) {
        dap_fail(d, req, "ptodb/selectPass: 'pass' must be an index (0..%d), a stem or a pass name",
                 session_npasses(d->s) - 1);
        return;
    }
    int running = view_run_pass(d->s) >= 0 && d->configured;
    view_pass p;
    view_pass_info(d->s, pass, &p);
    dap_respond(d, req, json_pack("{s:i, s:o, s:o}", "pass", pass, "stem", dap_str(p.stem), "name", dap_str(p.name)));
    if (switch_pass(d, pass, running) != 0) {
        char line[512];
        dap_output(d, "important", dap_last_line(d, line, sizeof line));
    }
}

/* ---- dispatch ------------------------------------------------------------------------------------ */

typedef void (*handler_fn)(dap_server *d, json_t *req, json_t *args);

static void req_continue(dap_server *d, json_t *req, json_t *args) { resume(d, req, args, "continue", "breakpoint"); }
static void req_next(dap_server *d, json_t *req, json_t *args) { resume(d, req, args, "next", "step"); }
static void req_step_in(dap_server *d, json_t *req, json_t *args) { resume(d, req, args, "step", "step"); }
static void req_step_out(dap_server *d, json_t *req, json_t *args) { resume(d, req, args, "finish", "step"); }
/* reverse execution (src/debug/run/timetravel.c): the engine restores a
 * checkpoint and replays to the previous stop */
static void req_step_back(dap_server *d, json_t *req, json_t *args) { resume(d, req, args, "reverse-next", "step"); }
static void req_reverse_continue(dap_server *d, json_t *req, json_t *args)
{
    resume(d, req, args, "reverse-continue", "breakpoint");
}

static void req_pause(dap_server *d, json_t *req, json_t *args)
{
    (void)args;
    /* outside a run the program is already stopped: pause is a no-op */
    dap_respond(d, req, NULL);
    if (d->in_poll && d->s) {
        d->interrupted_by_pause = 1;
        session_interrupt(d->s);
    }
}

static void req_cancel(dap_server *d, json_t *req, json_t *args)
{
    (void)args;
    /* requests are handled one at a time: only a running command is still
     * in flight, and it stops at the next statement */
    dap_respond(d, req, NULL);
    if (d->in_poll && d->s) {
        d->interrupted_by_pause = 1;
        session_interrupt(d->s);
    }
}

static void req_terminate(dap_server *d, json_t *req, json_t *args)
{
    (void)args;
    dap_respond(d, req, NULL);
    if (d->s)
        dap_execute(d, "kill");
    if (!d->exited) {
        d->exited = 1;
        dap_event(d, "terminated", NULL);
    }
}

/* restartFrame: back through the time-travel engine to where the frame's
 * call began (a `seek` to its first statement), the frames above it gone. */
static void req_restart_frame(dap_server *d, json_t *req, json_t *args)
{
    int thread, core, level;
    json_t *fid = json_object_get(args, "frameId");
    if (!d->s || dap_select_live(d) < 0) {
        dap_fail(d, req, "notStopped: the program is not stopped");
        return;
    }
    char pos[128];
    /* a frame id names a thread (a multi-rank case: rank * 4 + core), whose rank is selected first */
    if (!json_is_integer(fid) || dap_frame_unpack((long)json_integer_value(fid), &thread, &level) != 0 ||
        dap_use_thread(d, thread, &core) != 0 || !tt_frame_start(d->s, core, level, pos, sizeof pos)) {
        dap_fail(d, req, "restartFrame: unknown frameId, or a frame that cannot restart");
        return;
    }
    dap_refs_clear(d);
    dap_respond(d, req, NULL);
    if (dap_execute(d, "seek %s", pos) != 0) {
        char line[512];
        dap_output(d, "important", dap_last_line(d, line, sizeof line));
    }
    dap_after_run(d, "restart");
}

/* The pass a launch configuration's `pass` names (a file number as `pass
 * N` takes it, a stem or a name): its index, -1 none, -2 absent. */
static int launch_pass(dap_server *d, json_t *v)
{
    if (!v)
        return -2;
    for (int i = 0; i < session_npasses(d->s); i++) {
        view_pass p;
        if (view_pass_info(d->s, i, &p) &&
            (json_is_integer(v) ? json_integer_value(v) == p.index
                                : json_is_string(v) && (strcmp(p.stem, json_string_value(v)) == 0 ||
                                                        strcmp(p.name, json_string_value(v)) == 0)))
            return i;
    }
    return -1;
}

/* restart: the launch again, from the pass's start with fresh inputs
 * (breakpoints and filters stay). The client's current configuration may
 * name another pass or stopOnEntry; another case needs a new session. */
static void req_restart(dap_server *d, json_t *req, json_t *args)
{
    if (!d->s || !d->launched) {
        dap_fail(d, req, "restart before launch");
        return;
    }
    json_t *la = json_object_get(args, "arguments");
    int pass = launch_pass(d, json_object_get(la, "pass"));
    if (pass == -1) {
        dap_fail(d, req, "restart: 'pass' names no pass of the case");
        return;
    }
    if (pass == -2)
        pass = view_run_pass(d->s) >= 0 ? view_run_pass(d->s) : session_current_pass(d->s);
    if (json_is_boolean(json_object_get(la, "stopOnEntry")))
        d->stop_on_entry = json_is_true(json_object_get(la, "stopOnEntry"));
    view_pass p;
    dap_refs_clear(d);
    dap_respond(d, req, NULL);
    dap_execute(d, "kill");
    if (pass >= 0 && view_pass_info(d->s, pass, &p))
        dap_execute(d, "pass %s", p.stem);
    invalidate(d);
    d->exited = 0;
    if (!d->configured)
        return; /* configurationDone starts it */
    dap_execute(d, "%s", d->stop_on_entry ? "start" : "run");
    dap_after_run(d, "entry");
}

static void req_disconnect(dap_server *d, json_t *req, json_t *args)
{
    (void)args;
    dap_respond(d, req, NULL);
    d->done = 1;
}

static const struct {
    const char *command;
    handler_fn fn;
} handlers[] = {
    {"initialize", req_initialize},
    {"launch", req_launch},
    {"configurationDone", req_configuration_done},
    {"setBreakpoints", req_set_breakpoints},
    {"setFunctionBreakpoints", req_set_function_breakpoints},
    {"setExceptionBreakpoints", dap_req_set_exception_breakpoints},
    {"exceptionInfo", dap_req_exception_info},
    {"readMemory", dap_req_read_memory},
    {"completions", dap_req_completions},
    {"restartFrame", req_restart_frame},
    {"restart", req_restart},
    {"dataBreakpointInfo", dap_req_data_breakpoint_info},
    {"setDataBreakpoints", req_set_data_breakpoints},
    {"threads", dap_req_threads},
    {"stackTrace", dap_req_stack_trace},
    {"scopes", dap_req_scopes},
    {"variables", dap_req_variables},
    {"setVariable", dap_req_set_variable},
    {"evaluate", dap_req_evaluate},
    {"continue", req_continue},
    {"next", req_next},
    {"stepBack", req_step_back},
    {"reverseContinue", req_reverse_continue},
    {"stepIn", req_step_in},
    {"stepOut", req_step_out},
    {"pause", req_pause},
    {"cancel", req_cancel},
    {"gotoTargets", req_goto_targets},
    {"goto", req_goto},
    {"terminate", req_terminate},
    {"disconnect", req_disconnect},
    {"ptodb/passes", dap_req_passes},
    {"ptodb/selectPass", req_select_pass},
    {"ptodb/heatmap", dap_req_heatmap},
    {"ptodb/tensorSlice", dap_req_tensor_slice},
};

/* A message's body: a request is answered (an error response when it is
 * unusable); anything else unusable becomes an `important` output event.
 * The server stays up either way. */
static void handle_body(dap_server *d, const char *body, size_t len)
{
    json_error_t jerr;
    json_t *msg = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    char text[512];
    if (!msg) {
        snprintf(text, sizeof text, "ptodb: bad DAP message: %d:%d: %s\n", jerr.line, jerr.column, jerr.text);
        dap_output(d, "important", text);
        return;
    }
    json_t *type = json_object_get(msg, "type");
    json_t *command = json_object_get(msg, "command");
    json_t *seq = json_object_get(msg, "seq");
    if (!json_is_object(msg) || !json_is_string(type)) {
        dap_output(d, "important", "ptodb: bad DAP message: not an object with a \"type\"\n");
    } else if (strcmp(json_string_value(type), "request") != 0) {
        /* responses to reverse requests (none are sent) and events: ignored */
    } else if (!json_is_string(command) || !json_is_integer(seq)) {
        if (json_is_integer(seq))
            dap_fail(d, msg, "bad request: no \"command\" string");
        else
            dap_output(d, "important", "ptodb: bad DAP request: no integer \"seq\"\n");
    } else {
        json_t *args = json_object_get(msg, "arguments");
        if (args && !json_is_object(args)) {
            dap_fail(d, msg, "bad request: \"arguments\" is not an object");
        } else {
            /* no arguments: args is NULL, which every json_object_get takes */
            const char *cmd = json_string_value(command);
            size_t i;
            for (i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
                if (strcmp(handlers[i].command, cmd) == 0)
                    break;
            if (i == sizeof handlers / sizeof handlers[0])
                dap_fail(d, msg, "Request command '%.100s' is not supported", cmd);
            else
                handlers[i].fn(d, msg, args);
        }
    }
    json_decref(msg);
}

static void handle_pending(dap_server *d)
{
    while (d->npending > 0 && !d->done) {
        pending_msg m = d->pending[0];
        memmove(d->pending, d->pending + 1, (d->npending - 1) * sizeof *d->pending);
        d->npending--;
        handle_body(d, m.body, m.len);
        free(m.body);
    }
}

/* Called while a command runs: pause and cancel now, the rest after it. */
/* progressStart, then progressUpdate at most ten times a second, while a
 * command runs long enough to poll (dap_execute sends progressEnd). */
static void report_progress(dap_server *d, const char *progress)
{
    if (!d->client_progress || !progress)
        return;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double now = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
    if (!d->progress_active) {
        d->progress_active = 1;
        d->progress_sent = now;
        dap_event(d, "progressStart", json_pack("{s:s, s:s, s:s, s:b}", "progressId", "ptodb-run", "title",
                                                "ptodb", "message", progress, "cancellable", 1));
    } else if (now - d->progress_sent >= 0.1) {
        d->progress_sent = now;
        dap_event(d, "progressUpdate", json_pack("{s:s, s:s}", "progressId", "ptodb-run", "message", progress));
    }
}

static void on_poll(void *ctx, const char *progress)
{
    dap_server *d = ctx;
    if (d->in_poll)
        return;
    report_progress(d, progress);
    if (d->in_fd < 0)
        return;
    struct pollfd p = {.fd = d->in_fd, .events = POLLIN};
    if (poll(&p, 1, 0) <= 0)
        return;
    char buf[65536];
    ssize_t n = read(d->in_fd, buf, sizeof buf);
    if (n <= 0) {
        session_interrupt(d->s);
        return;
    }
    dap_framer_feed(&d->framer, buf, (size_t)n);
    const char *body;
    size_t len;
    int r;
    d->in_poll = 1;
    while ((r = dap_framer_next(&d->framer, &body, &len)) == 1) {
        json_t *msg = json_loadb(body, len, 0, NULL);
        const char *cmd = json_string_value(json_object_get(msg, "command"));
        if (cmd && (strcmp(cmd, "pause") == 0 || strcmp(cmd, "cancel") == 0)) {
            handle_body(d, body, len);
        } else {
            /* the client is leaving: stop the run, then answer in order */
            if (cmd && (strcmp(cmd, "disconnect") == 0 || strcmp(cmd, "terminate") == 0))
                session_interrupt(d->s);
            d->pending = xreallocarray(d->pending, d->npending + 1, sizeof *d->pending);
            d->pending[d->npending].body = xmalloc(len + 1);
            memcpy(d->pending[d->npending].body, body, len);
            d->pending[d->npending].len = len;
            d->npending++;
        }
        json_decref(msg);
    }
    d->in_poll = 0;
    if (r < 0)
        session_interrupt(d->s);
}

/* ---- the server ------------------------------------------------------------------------------------ */

dap_server *dap_server_new(int out_fd, int allow_launch)
{
    dap_server *d = xcalloc(1, sizeof *d);
    d->out_fd = out_fd;
    d->in_fd = -1;
    d->allow_launch = allow_launch;
    d->line_base = d->column_base = 1;
    dap_exceptions_init(d);
    dap_framer_init(&d->framer);
    d->cap = (strbuf)STRBUF_INIT;
    return d;
}

void dap_server_free(dap_server *d)
{
    if (!d)
        return;
    dap_refs_clear(d);
    free(d->refs);
    free(d->ref_index);
    for (size_t i = 0; i < d->nbps; i++) {
        free(d->bps[i].source);
        free(d->bps[i].log);
    }
    free(d->bps);
    for (size_t i = 0; i < d->npending; i++)
        free(d->pending[i].body);
    free(d->pending);
    if (d->s)
        session_free(d->s);
    dap_framer_free(&d->framer);
    strbuf_free(&d->cap);
    free(d);
}

int dap_server_feed(dap_server *d, const char *data, size_t n)
{
    dap_framer_feed(&d->framer, data, n);
    const char *body;
    size_t len;
    int r = 0;
    while (!d->done && (r = dap_framer_next(&d->framer, &body, &len)) == 1) {
        /* the body lives in the framer's buffer, which a poll during a
         * run may move: handle a copy */
        char *copy = xmalloc(len + 1);
        memcpy(copy, body, len);
        handle_body(d, copy, len);
        free(copy);
        handle_pending(d);
    }
    if (d->done)
        return 1;
    return r < 0 ? -1 : 0;
}

const char *dap_server_error(const dap_server *d)
{
    return d->framer.err;
}

int dap_server_serve(dap_server *d, int in_fd)
{
    d->in_fd = in_fd;
    char buf[65536];
    for (;;) {
        ssize_t n = read(in_fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return PTODB_EXIT_OK;
        int r = dap_server_feed(d, buf, (size_t)n);
        if (r > 0)
            return PTODB_EXIT_OK;
        if (r < 0) {
            fprintf(stderr, "ptodb: %s: closing the connection\n", dap_server_error(d));
            return PTODB_EXIT_USAGE;
        }
    }
}

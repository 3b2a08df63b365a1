/* `compare B`: the open case (A, with the session's tolerances and torch
 * profile) against build folder B, as `ptodb --compare A B` does
 * (src/batch/compare.h). It runs pass files on its own, never touching the
 * stopped run. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/mem.h"
#include "base/strbuf.h"
#include "batch/compare.h"
#include "debug/session_impl.h"

#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    ptodb_status cmd_##id(session *s, const char *args);
#include "debug/commands.def"
#include "debug/validate_bg_impl.h"
#undef CMD

static void compare_poll(void *ud, const char *path, uint64_t steps)
{
    session *s = ud;
    if (!s->poll)
        return;
    char progress[200];
    snprintf(progress, sizeof progress, "compare: %s: %" PRIu64 " statements", session_file_name(path), steps);
    s->poll(s->poll_ctx, progress);
}

ptodb_status cmd_COMPARE(session *s, const char *args)
{
    if (!session_need_case(s))
        return PTODB_ERR_USAGE;
    if (!*args) {
        session_errorf(s, "Usage: compare B (a build folder, its passes_dump/, or a dump file)");
        return PTODB_ERR_USAGE;
    }
    case_info a;
    session_case_with_tols(s, &a);
    case_options copt;
    memset(&copt, 0, sizeof copt);
    copt.has_rtol = copt.has_atol = 1;
    copt.rtol = a.rtol.value;
    copt.atol = a.atol.value;
    case_info b;
    diag_sink sink;
    diag_sink_init(&sink, 20);
    ptodb_status st = case_open(args, &copt, &b, &sink);
    if (st != PTODB_OK || b.npasses == 0) {
        char *why = diag_sink_error_text(&sink);
        session_errorf(s, "compare: %s: %s", args, why && *why ? why : "no pass files found");
        free(why);
        diag_sink_free(&sink);
        case_free(&b);
        free(a.outputs);
        return PTODB_ERR_USAGE;
    }
    diag_sink_free(&sink);
    if (!s->ops) {
        s->ops = xcalloc(IR_OP_COUNT, sizeof *s->ops);
        exec_ops_init(s->ops);
    }
    runpass_options ro;
    memset(&ro, 0, sizeof ro);
    machine_options_init(&ro.mopt);
    ro.mopt.profile = session_profile(s);
    ro.mopt.poll = compare_poll;
    ro.mopt.poll_ud = s;
    ro.mopt.interrupt = &s->interrupted;
    ro.ops = s->ops;
    compare_result r;
    compare_run(&a, &b, &ro, &r);
    strbuf out = STRBUF_INIT;
    compare_report_text(&a, &b, &r, &out);
    session_write(s, strbuf_str(&out), out.len);
    strbuf_free(&out);
    if (r.interrupted) {
        s->interrupted = 0;
        session_printf(s, "Interrupted.\n");
    } else if (r.stmt_done && r.stmt.found) {
        session_printf(s, "`break %d` then `run` in pass %d stops at the first differing statement (in A).\n",
                       r.stmt.good_line, a.passes[r.pairs[r.first_diff].a.pass].index);
    }
    compare_result_free(&r);
    case_free(&b);
    free(a.outputs);
    return PTODB_OK;
}

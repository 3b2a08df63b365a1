/* `trace save FILE.json`: the Perfetto export (batch/perfetto.h) of a fresh
 * run of the current pass, with the session's tolerances and torch profile
 * (a multi-rank case: a process per rank, under the session's schedule). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "batch/perfetto.h"
#include "debug/state/session_impl.h"

#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    ptodb_status cmd_##id(session *s, const char *args);
#include "debug/commands.def"
#include "debug/run/validate_bg_impl.h"
#undef CMD

ptodb_status cmd_TRACE(session *s, const char *args)
{
    if (strncmp(args, "save", 4) != 0 || (args[4] != ' ' && args[4] != '\t')) {
        session_errorf(s, "Usage: trace save FILE.json");
        return PTODB_ERR_USAGE;
    }
    const char *file = args + 4;
    while (*file == ' ' || *file == '\t')
        file++;
    if (!*file) {
        session_errorf(s, "Usage: trace save FILE.json");
        return PTODB_ERR_USAGE;
    }
    if (!session_need_case(s))
        return PTODB_ERR_USAGE;
    case_info c;
    session_case_with_tols(s, &c);
    runpass_options ro;
    memset(&ro, 0, sizeof ro);
    session_machine_options(s, &ro.mopt);
    if (s->kase.ranks.nranks) { /* the global schedule the debugger's runs follow */
        session_schedule_options(s, &ro.mopt);
        ro.comm_ready_order = strcmp(session_get_string(s, SETTING_COMM_ORDER), "ready") == 0;
    }
    ro.mopt.interrupt = &s->interrupted;
    ro.ops = session_ops(s);
    const case_pass *p = &s->kase.passes[s->cur_pass];
    strbuf json = STRBUF_INIT;
    perfetto_summary sum;
    int rc = perfetto_trace_pass(p->path, &c, &ro, &json, &sum);
    free(c.outputs);
    if (rc != 0) {
        session_errorf(s, "Cannot trace pass %d %s: %s", p->index, p->name, sum.error);
        free(sum.error);
        strbuf_free(&json);
        return PTODB_ERR_USAGE;
    }
    FILE *f = fopen(file, "w");
    if (!f || fwrite(strbuf_str(&json), 1, json.len, f) != json.len || fclose(f) != 0) {
        session_errorf(s, "Cannot write %s: %s", file, strerror(errno));
        free(sum.error);
        strbuf_free(&json);
        return PTODB_ERR_IO;
    }
    strbuf_free(&json);
    char ranks_note[48] = "";
    if (s->kase.ranks.nranks)
        snprintf(ranks_note, sizeof ranks_note, " of %d ranks", s->kase.ranks.nranks);
    if (sum.error) {
        s->interrupted = 0;
        session_printf(s, "The run stopped: %s\n", sum.error);
    }
    session_printf(s,
                   "Trace of pass %d %s: %" PRIu64 " statements on %d cores%s, %d queue transfers, written to %s "
                   "(open it in ui.perfetto.dev or chrome://tracing).\n",
                   p->index, p->name, sum.statements, sum.cores, ranks_note, sum.flows, file);
    free(sum.error);
    return PTODB_OK;
}

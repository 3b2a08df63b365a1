/* Fuzzes the schedule file (src/exec/schedule.c, docs/schedule.md): each
 * input is a file. The parser must answer it with a schedule or one
 * "FILE:LINE:COL: message"; a schedule must print back to a text that
 * parses and prints the same (the format round-trips). Then its first
 * section, renamed to pass 22 of examples/mlp (cross-core queues) and of
 * examples/spmd (an SPMD launch) so that it is not refused at its `pass`
 * line, is replayed on those passes: whatever its decisions, the run
 * finishes, fails as the program does, or is refused with
 * "FILE:LINE: schedule replay: ..." (PTODB_ERR_FORMAT), within a bound of
 * steps (a hang is a finding). */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "data/case.h"
#include "exec/runpass.h"
#include "exec/schedule.h"

enum { FUZZ_STEP_BOUND = 100000 };

static case_info kases[2];
static int pass22[2];
static uint64_t fingerprint[2];
static runpass_options opts;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    static const char *const names[2] = {"mlp", "spmd"};
    for (int k = 0; k < 2; k++) {
        char root[4096];
        snprintf(root, sizeof root, "%s/examples/%s", fuzz_srcdir(), names[k]);
        case_options copt = {0};
        diag_sink sink;
        diag_sink_init(&sink, 20);
        if (case_open(root, &copt, &kases[k], &sink) != PTODB_OK) {
            diag_sink_print(&sink, stderr, 0);
            fprintf(stderr, "fuzz_schedfile: cannot open %s\n", root);
            exit(2);
        }
        diag_sink_free(&sink);
        pass22[k] = -1;
        for (size_t i = 0; i < kases[k].npasses; i++)
            if (kases[k].passes[i].index == 22)
                pass22[k] = (int)i;
        if (pass22[k] < 0) {
            fprintf(stderr, "fuzz_schedfile: %s has no pass 22\n", root);
            exit(2);
        }
        FILE *f = fopen(kases[k].passes[pass22[k]].path, "rb");
        strbuf text = STRBUF_INIT;
        char buf[65536];
        size_t n;
        while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
            strbuf_append(&text, buf, n);
        if (f)
            fclose(f);
        fingerprint[k] = exec_schedule_fingerprint(text.len ? strbuf_str(&text) : "", text.len);
        strbuf_free(&text);
    }
    machine_options_init(&opts.mopt);
    op_fn *ops = calloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    opts.ops = ops;
    return 0;
}

static void replay(int k, exec_schedule *s)
{
    exec_sched_pass *p = s->passes[0];
    const case_pass *cp = &kases[k].passes[pass22[k]];
    free(p->name);
    p->name = strdup(cp->name);
    p->index = cp->index;
    p->fingerprint = fingerprint[k];
    runpass_options o = opts;
    o.replay = s;
    runpass_run r;
    runpass_open(&r, cp->path, NULL, &kases[k], &o, NULL, NULL, RUNPASS_OPEN_DESPITE_REF);
    if (r.m && r.start == PTODB_OK) {
        exec_event ev;
        for (int i = 0;; i++) {
            if (i > FUZZ_STEP_BOUND)
                abort(); /* a replay that does not end */
            ptodb_status st = machine_step(r.m, &ev);
            if (st == PTODB_ERR_FORMAT && !strstr(machine_error(r.m), ": schedule replay: "))
                abort(); /* a refusal must say where and why */
            if (st != PTODB_OK || ev.kind == EXEC_EV_ERROR || ev.kind == EXEC_EV_DONE)
                break;
        }
    }
    runpass_close(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    strbuf err = STRBUF_INIT, text = STRBUF_INIT, again = STRBUF_INIT;
    exec_schedule *s = exec_schedule_parse("f.sched", (const char *)data, size, &err);
    if (!s) {
        if (strncmp(strbuf_str(&err), "f.sched:", 8) != 0)
            abort(); /* every refusal names the file and the line */
    } else {
        exec_schedule_format_head(&text);
        for (size_t i = 0; i < s->n; i++)
            exec_sched_pass_format(s->passes[i], &text);
        exec_schedule *t = exec_schedule_parse("g.sched", strbuf_str(&text), text.len, &err);
        if (!t)
            abort(); /* what ptodb writes, ptodb reads */
        exec_schedule_format_head(&again);
        for (size_t i = 0; i < t->n; i++)
            exec_sched_pass_format(t->passes[i], &again);
        if (strcmp(strbuf_str(&text), strbuf_str(&again)) != 0)
            abort();
        exec_schedule_free(t);
        replay(0, s);
        replay(1, s);
        exec_schedule_free(s);
    }
    strbuf_free(&err);
    strbuf_free(&text);
    strbuf_free(&again);
    return 0;
}

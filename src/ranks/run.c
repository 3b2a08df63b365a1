/* One pass file of a multi-rank case: parsed and built, then its schedule
 * run to the end (sched.c); see run.h. */
#include "config.h"

#include "ranks/run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"
#include "ir/parse.h"
#include "ir/resolve.h"
#include "ranks/sched.h"

static void fail(runpass_result *r, runpass_status st, char *msg)
{
    r->status = st;
    free(r->message);
    r->message = msg;
}

/* The ranks' memory faults, summed, and their reports, each headed by
 * its rank, into r (as runpass_file does for one machine). */
static void collect_memory_faults(ranks_sched *s, int P, runpass_result *r)
{
    strbuf sb = STRBUF_INIT;
    for (int k = 0; k < P; k++) {
        machine *m = ranks_sched_machine(s, k);
        uint64_t n = m ? machine_mem_faults(m) : 0;
        if (!n)
            continue;
        r->memfaults += n;
        strbuf_printf(&sb, "rank %d:\n%s", k, machine_mem_report(m) ? machine_mem_report(m) : "");
    }
    if (sb.len)
        r->memreport = strbuf_detach(&sb);
    else
        strbuf_free(&sb);
}

void ranks_run_program(const char *path, const xprogram *p, const case_info *c, const runpass_options *o,
                       runpass_result *r)
{
    strbuf err = STRBUF_INIT;
    runpass_status why;
    ranks_sched *s = ranks_sched_new(path, p, c, o, &err, &why);
    if (!s) {
        fail(r, why, strbuf_detach(&err));
        return;
    }
    ptodb_status st = ranks_sched_run(s, &err);
    r->steps += ranks_sched_steps(s);
    collect_memory_faults(s, c->ranks.nranks, r);
    if (st == PTODB_OK && ranks_sched_end_checks(s, &err))
        st = PTODB_ERR_RUNTIME;
    if (st != PTODB_OK) {
        fail(r, RUNPASS_ERROR, strbuf_detach(&err));
    } else {
        ranks_sched_compare(s, r);
        if (r->memfaults)
            r->all_pass = 0; /* the device would have read other data (docs/memory.md) */
        if (!r->message)
            r->status = RUNPASS_COMPARED;
        if (o->strict_ref && r->ref_note)
            r->all_pass = 0;
    }
    ranks_sched_free(s);
    strbuf_free(&err);
}

int ranks_build_file(const char *path, const runpass_options *o, ir_module **modp, xprogram **pp, runpass_result *r)
{
    *modp = NULL;
    *pp = NULL;
    diag_sink sink;
    diag_sink_init(&sink, 20);
    ptodb_status st = PTODB_OK;
    int rc = -1;
    ir_module *mod = ir_parse_file(path, &sink, &st);
    if (st != PTODB_OK || ir_resolve(mod, &sink) != PTODB_OK) {
        strbuf err = STRBUF_INIT;
        strbuf_printf(&err, "%s does not check (%zu error%s), not run:\n", path, sink.errors,
                      sink.errors == 1 ? "" : "s");
        char *t = diag_sink_error_text(&sink);
        strbuf_puts(&err, t);
        free(t);
        fail(r, RUNPASS_ERROR, strbuf_detach(&err));
        r->unchecked = 1;
    } else if (exec_program_build(mod, o->ops, pp, &sink) != PTODB_OK) {
        fail(r, RUNPASS_ERROR, diag_sink_error_text(&sink));
    } else if (ranks_program_runnable(path, *pp, r)) {
        rc = 0;
    }
    diag_sink_free(&sink);
    if (rc != 0) {
        exec_program_free(*pp);
        *pp = NULL;
        if (mod)
            ir_module_free(mod);
        mod = NULL;
    }
    *modp = mod;
    return rc;
}

void ranks_run_file(const char *path, const case_info *c, const runpass_options *o, runpass_result *r)
{
    memset(r, 0, sizeof *r);
    ir_module *mod;
    xprogram *p;
    if (ranks_build_file(path, o, &mod, &p, r) == 0)
        ranks_run_program(path, p, c, o, r);
    exec_program_free(p);
    if (mod)
        ir_module_free(mod);
}

int ranks_program_runnable(const char *path, const xprogram *p, runpass_result *r)
{
    if (p->codegen_error && p->uses_ptodb_only_ops < 0) {
        strbuf err = STRBUF_INIT;
        const ir_expr *at = p->unrunnable ? p->unrunnable_at : p->codegen_error_at;
        if (at)
            strbuf_printf(&err, "%s:%u:%u: ", path, at->span.line, at->span.col);
        else
            strbuf_printf(&err, "%s: ", path);
        strbuf_puts(&err, p->unrunnable ? p->unrunnable : p->codegen_error);
        fail(r, RUNPASS_ERROR, strbuf_detach(&err));
        return 0;
    }
    if (p->codegen_error && !r->ref_note) /* REF has no handler for the pld.* ops: a note, ptodb runs them */
        r->ref_note = xstrdup(p->codegen_error);
    return 1;
}

void ranks_or_single_run_file(const char *path, const case_info *c, const runpass_options *o, runpass_result *r)
{
    if (c->ranks.nranks)
        ranks_run_file(path, c, o, r);
    else
        runpass_file(path, c, o, r);
}

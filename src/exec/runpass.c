/* One pass file, run and compared as REF's validator does. */
#include "exec/runpass.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomic_file.h"

#include "base/mem.h"
#include "base/strbuf.h"
#include "exec/schedule.h"
#include "ir/parse.h"
#include "ir/resolve.h"
#include "memory/soc.h"

static void fail(runpass_result *r, runpass_status st, char *msg)
{
    r->status = st;
    free(r->message);
    r->message = msg;
}

static void open_fail(runpass_run *r, runpass_status st, char *msg)
{
    r->status = st;
    r->message = msg;
}

/* A file that does not parse or resolve is not run: one line saying so, then
 * every diagnostic with its file:line:col. */
static char *check_message(const char *path, const diag_sink *sink)
{
    strbuf sb = STRBUF_INIT;
    strbuf_printf(&sb, "%s does not check (%zu error%s), not run:\n", path, sink->errors,
                  sink->errors == 1 ? "" : "s");
    char *t = diag_sink_error_text(sink);
    strbuf_puts(&sb, t);
    free(t);
    return strbuf_detach(&sb);
}

case_param *runpass_entry_params(const xprogram *p, size_t *n)
{
    const xfunc *entry = &p->funcs[p->entry];
    size_t np = entry->nparams;
    case_param *params = xcalloc(np ? np : 1, sizeof *params);
    for (size_t i = 0; i < np; i++) {
        const ir_param *ip = &entry->src->params[i];
        const exec_type *t = &entry->param_types[i];
        params[i].name = ip->name->text;
        params[i].is_tensor = t->kind == EXEC_TYPE_TENSOR || t->kind == EXEC_TYPE_TILE;
        params[i].dtype = t->dtype;
        params[i].ndim = t->ndim;
        for (int d = 0; d < t->ndim && d < TENSOR_MAX_DIMS; d++)
            params[i].shape[d] = t->dims[d];
        params[i].dir = ip->dir == IR_DIR_OUT     ? CASE_PARAM_OUT
                        : ip->dir == IR_DIR_INOUT ? CASE_PARAM_INOUT
                                                  : CASE_PARAM_IN;
    }
    *n = np;
    return params;
}

/* The memory model's target and layout for pass path of case c
 * (docs/memory.md): the target from the case's README.txt ("backend:
 * Ascend950") or its folder's name (_950, _910b), else 910B; MemRef offsets
 * are addresses from the case's AllocateMemoryAddr pass on (else the
 * machine tells from the dump). */
/* 1 when pass path of c comes before the case's MemoryReuse (its Step 4,
 * YieldFixup, inserts the tile.move of a yield into a phi or carry on
 * another buffer: memory_reuse_pass.cpp:3226), or before AllocateMemoryAddr
 * where the case has no MemoryReuse pass (memory_planner=PTOAS skips it);
 * -1 when the case does not say. */
static int yields_move(const case_info *c, const char *path)
{
    int after = case_pass_at_or_after(c, path, "MemoryReuse");
    if (after < 0)
        after = case_pass_at_or_after(c, path, "AllocateMemoryAddr");
    return after < 0 ? -1 : !after;
}

void runpass_memory_options(const char *path, const case_info *c, machine_options *mo)
{
    /* the target also decides the no-split dual-dispatch replay (machine.c),
     * so it is read whether or not the memory model runs */
    if (!c)
        return;
    mem_target t;
    int found = -1;
    if (c->root) {
        strbuf rp = STRBUF_INIT;
        strbuf_printf(&rp, "%s/README.txt", c->root);
        FILE *fp = fopen(strbuf_str(&rp), "r");
        if (fp) {
            char buf[4096];
            size_t n = fread(buf, 1, sizeof buf - 1, fp);
            buf[n] = 0;
            fclose(fp);
            found = mem_target_from_text(buf, &t);
        }
        strbuf_free(&rp);
        if (found != 0)
            found = mem_target_from_text(c->root, &t);
    }
    if (found != 0 && c->dump_dir)
        found = mem_target_from_text(c->dump_dir, &t);
    if (found == 0)
        mo->mem_target = (int)t;
    if (!mo->memcheck)
        return;
    mo->mem_addressed = runpass_memory_addressed(c, path);
    mo->mem_yields_move = yields_move(c, path);
}

/* The NN of a pass file name NN_after_X.py (its last path component), or -1. */
static long pass_number(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (base[0] < '0' || base[0] > '9')
        return -1;
    char *end;
    long n = strtol(base, &end, 10);
    return *end == '_' ? n : -1;
}

/* A pass file run alone: is there an NN_after_AllocateMemoryAddr.py at or
 * before it in its folder? 1, 0, or -1 when the folder has none. */
static int addressed_by_siblings(const char *path)
{
    long here = pass_number(path);
    if (here < 0)
        return -1;
    strbuf dir = STRBUF_INIT;
    const char *slash = strrchr(path, '/');
    if (slash)
        strbuf_append(&dir, path, (size_t)(slash - path));
    else
        strbuf_putc(&dir, '.');
    DIR *d = opendir(strbuf_str(&dir));
    strbuf_free(&dir);
    if (!d)
        return -1;
    long alloc = -1;
    const struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *u = strstr(e->d_name, "_after_AllocateMemoryAddr.py");
        long n = pass_number(e->d_name);
        if (u && u[strlen("_after_AllocateMemoryAddr.py")] == '\0' && n >= 0 && (alloc < 0 || n < alloc))
            alloc = n;
    }
    closedir(d);
    return alloc < 0 ? -1 : here >= alloc;
}

int runpass_memory_addressed(const case_info *c, const char *path)
{
    long alloc = -1, here = -1;
    for (size_t i = 0; c && i < c->npasses; i++) {
        if (alloc < 0 && c->passes[i].name && strcmp(c->passes[i].name, "AllocateMemoryAddr") == 0)
            alloc = (long)i;
        if (here < 0 && c->passes[i].path && strcmp(c->passes[i].path, path) == 0)
            here = (long)i;
    }
    if (alloc >= 0 && here >= 0)
        return here >= alloc;
    return addressed_by_siblings(path);
}

void runpass_pass_identity(const case_info *c, const char *path, int *index, const char **name)
{
    for (size_t i = 0; c && i < c->npasses; i++)
        if (c->passes[i].path && strcmp(c->passes[i].path, path) == 0) {
            *index = c->passes[i].index;
            *name = c->passes[i].name;
            return;
        }
    const char *base = strrchr(path, '/');
    *index = (int)pass_number(path);
    *name = base ? base + 1 : path;
}

/* The schedule of the run: recorded, or the replayed file's section of the
 * pass (checked against its text); 0, or -1 with the message. */
static int open_schedule(runpass_run *r, const char *path, const case_info *c, const runpass_options *o)
{
    if (!o->record_schedule && !o->replay)
        return 0;
    int index;
    const char *name;
    runpass_pass_identity(c, path, &index, &name);
    uint64_t fp = exec_schedule_fingerprint(r->module->src, r->module->src_len);
    if (o->replay) {
        strbuf err = STRBUF_INIT;
        const exec_sched_pass *sp = exec_schedule_for_pass(o->replay, index, name, fp, &err);
        if (!sp) {
            open_fail(r, RUNPASS_ERROR, strbuf_detach(&err));
            return -1;
        }
        strbuf_free(&err);
        machine_schedule_replay(r->m, sp);
    }
    if (o->record_schedule) {
        r->sched = exec_sched_pass_new(index, name, fp);
        machine_schedule_record(r->m, r->sched);
    }
    return 0;
}

void runpass_open(runpass_run *r, const char *path, ir_module *module, const case_info *c, const runpass_options *o,
                  machine_write_hook hook, void *hook_ud, int flags)
{
    memset(r, 0, sizeof *r);
    diag_sink sink;
    diag_sink_init(&sink, 20);
    ptodb_status st = PTODB_OK;
    r->module = module;
    if (!module) {
        r->module = ir_parse_file(path, &sink, &st);
        r->own_module = 1;
        if (st != PTODB_OK || ir_resolve(r->module, &sink) != PTODB_OK) {
            open_fail(r, RUNPASS_ERROR, check_message(path, &sink));
            r->unchecked = 1;
            goto out;
        }
    }
    if (exec_program_build(r->module, o->ops, &r->prog, &sink) != PTODB_OK) {
        open_fail(r, RUNPASS_ERROR, diag_sink_error_text(&sink));
        goto out;
    }
    const xprogram *p = r->prog;
    if (p->codegen_error) {
        strbuf sb = STRBUF_INIT;
        const ir_expr *at = p->codegen_error_at;
        if (at)
            strbuf_printf(&sb, "%s:%u:%u: ", path, at->span.line, at->span.col);
        else
            strbuf_printf(&sb, "%s: ", path);
        strbuf_puts(&sb, p->codegen_error);
        /* a group with several split modes is REF's codegen failure only:
         * the device takes each pipe op's own split (a multi-mode split_aiv
         * kernel: pypto src/ir/transforms/split_vector_kernel_pass.cpp:646-661) */
        int device_runs = p->codegen_conflict && o->mopt.semantics == EXEC_SEM_DEVICE && !p->unrunnable;
        if (p->uses_ptodb_only_ops != 1 && !device_runs && !(flags & RUNPASS_OPEN_DESPITE_REF)) {
            strbuf s2 = STRBUF_INIT;
            strbuf_printf(&s2, "REF would fail here: %s", strbuf_str(&sb));
            if (p->uses_ptodb_only_ops < 0 && p->unrunnable && p->unrunnable_at != at)
                strbuf_printf(&s2, "\nnote: ptodb cannot run it either: %s:%u:%u: %s", path,
                              p->unrunnable_at->span.line, p->unrunnable_at->span.col, p->unrunnable);
            else if (p->uses_ptodb_only_ops < 0 && p->unrunnable)
                strbuf_printf(&s2, "\nnote: ptodb cannot run it either: %s", p->unrunnable);
            strbuf_free(&sb);
            open_fail(r, RUNPASS_REF_FAIL, strbuf_detach(&s2));
            goto out;
        }
        r->ref_note = strbuf_detach(&sb);
    }
    if (p->entry < 0) {
        strbuf sb = STRBUF_INIT;
        strbuf_printf(&sb, "%s: REF would fail here: %s", path, p->entry_error ? p->entry_error : "no entry function");
        open_fail(r, RUNPASS_REF_FAIL, strbuf_detach(&sb));
        goto out;
    }
    size_t np;
    case_param *params = runpass_entry_params(p, &np);
    r->binds = xcalloc(np ? np : 1, sizeof *r->binds);
    r->nbinds = np;
    st = case_bind(c, params, np, r->binds, &sink);
    free(params);
    if (st == PTODB_ERR_NOMEM) {
        open_fail(r, RUNPASS_ERROR, diag_sink_error_text(&sink));
        goto out;
    }
    if (st != PTODB_OK) {
        char *t = diag_sink_error_text(&sink);
        strbuf sb = STRBUF_INIT;
        strbuf_printf(&sb, "REF would fail here: KeyError: %s", t);
        free(t);
        open_fail(r, RUNPASS_REF_FAIL, strbuf_detach(&sb));
        goto out;
    }
    value *args = xcalloc(np ? np : 1, sizeof *args);
    for (size_t i = 0; i < np; i++)
        args[i] = r->binds[i].t ? value_tensor(tensor_ref(r->binds[i].t)) : value_none();
    machine_options mo = o->mopt;
    runpass_memory_options(path, c, &mo);
    r->m = machine_new(p, &mo);
    if (hook)
        machine_set_write_hook(r->m, hook, hook_ud);
    if (open_schedule(r, path, c, o) != 0) {
        for (size_t i = 0; i < np; i++)
            value_clear(&args[i]);
        free(args);
        machine_free(r->m); /* never started: nothing to show */
        r->m = NULL;
        goto out;
    }
    r->start = machine_start(r->m, p->entry, args, (uint32_t)np);
    for (size_t i = 0; i < np; i++)
        value_clear(&args[i]);
    free(args);
    if (r->start != PTODB_OK) {
        open_fail(r, machine_error_is_ref(r->m) ? RUNPASS_REF_FAIL : RUNPASS_ERROR, xstrdup(machine_error(r->m)));
        goto out;
    }
    r->status = RUNPASS_COMPARED;
out:
    diag_sink_free(&sink);
}

void runpass_close(runpass_run *r)
{
    machine_free(r->m);
    exec_sched_pass_free(r->sched);
    if (r->binds) {
        case_bindings_free(r->binds, r->nbinds);
        free(r->binds);
    }
    exec_program_free(r->prog);
    if (r->own_module && r->module)
        ir_module_free(r->module);
    free(r->message);
    free(r->ref_note);
    memset(r, 0, sizeof *r);
}

void runpass_format_ref_note(const char *note, int strict, strbuf *out)
{
    if (strict)
        strbuf_printf(out,
                      "FAIL (--strict-ref): REF cannot run this file (%s); ptodb ran it, but --strict-ref "
                      "counts a file REF cannot run as failing\n",
                      note);
    else
        strbuf_printf(out, "note: REF cannot run this file (%s); ptodb ran it and compares with golden\n", note);
}

char *runpass_run_time_ref_note(const char *path, const machine *m)
{
    if (!machine_ref_note(m))
        return NULL;
    /* found at run time: REF raises where ptodb ran the op by definition */
    strbuf nb = STRBUF_INIT;
    strbuf_printf(&nb, "%s:%s", path, machine_ref_note(m));
    return strbuf_detach(&nb);
}

char *runpass_ref_differs(const char *path, const machine *m, int *fails)
{
    strbuf sb = STRBUF_INIT;
    *fails = 0;
    for (int id = 0; id < EXEC_SEMDIFF_COUNT; id++) {
        const char *d = machine_ref_differs(m, id);
        if (!d)
            continue;
        strbuf_printf(&sb, "%s%s:%s", sb.len ? "\n" : "", path, d);
        if (exec_semdiffs[id].ref_fails)
            *fails = 1;
    }
    if (!sb.len) {
        strbuf_free(&sb);
        return NULL;
    }
    return strbuf_detach(&sb);
}

void runpass_format_ref_differs(const char *differs, int strict, strbuf *out)
{
    for (const char *p = differs; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *line = xstrndup(p, n);
        int raises = strict && strstr(line, "(REF would fail") != NULL;
        free(line);
        strbuf_printf(out, "%s: REF differs here: %.*s; ptodb ran it as the device does%s\n",
                      raises ? "FAIL (--strict-ref)" : "note", (int)n, p,
                      raises ? ", but --strict-ref counts a file REF cannot run as failing" : "");
        p = e ? e + 1 : p + n;
    }
}

void runpass_file(const char *path, const case_info *c, const runpass_options *o, runpass_result *r)
{
    memset(r, 0, sizeof *r);
    runpass_run run;
    runpass_open(&run, path, NULL, c, o, NULL, NULL, 0);
    if (run.status != RUNPASS_COMPARED) {
        fail(r, run.status, run.message);
        r->unchecked = run.unchecked;
        run.message = NULL;
        r->steps = run.m ? machine_steps(run.m) : 0;
        goto out;
    }
    r->ref_note = run.ref_note;
    run.ref_note = NULL;
    ptodb_status st = machine_run(run.m);
    r->steps = machine_steps(run.m);
    if (run.sched) {
        if (run.sched->end == EXEC_SCHED_END_NONE) /* the machine marks a finish or a failure itself */
            exec_sched_pass_end(run.sched, r->steps, st == PTODB_OK ? EXEC_SCHED_END_FINISHED : EXEC_SCHED_END_FAILED);
        strbuf sb = STRBUF_INIT;
        exec_sched_pass_format(run.sched, &sb);
        r->schedule = strbuf_detach(&sb);
    }
    r->memfaults = machine_mem_faults(run.m);
    if (machine_mem_report(run.m))
        r->memreport = xstrdup(machine_mem_report(run.m));
    if (!r->ref_note)
        r->ref_note = runpass_run_time_ref_note(path, run.m);
    r->ref_differs = runpass_ref_differs(path, run.m, &r->ref_differs_fail);
    if (st != PTODB_OK) {
        fail(r, machine_error_is_ref(run.m) ? RUNPASS_REF_FAIL : RUNPASS_ERROR, xstrdup(machine_error(run.m)));
        goto out;
    }
    /* compare each golden output, in parameter order, then any golden output
     * no parameter took */
    const case_binding *b = run.binds;
    size_t np = run.nbinds;
    r->outputs = xcalloc(c->noutputs ? c->noutputs : 1, sizeof *r->outputs);
    r->all_pass = 1;
    char *done = xcalloc(c->noutputs ? c->noutputs : 1, 1);
    for (size_t i = 0; i < np; i++) {
        if (!b[i].golden)
            continue;
        size_t k = (size_t)(b[i].golden - c->outputs);
        if (k >= c->noutputs || done[k])
            continue;
        done[k] = 1;
        runpass_output *ro = &r->outputs[r->noutputs++];
        ro->key = xstrdup(b[i].key);
        ro->actual = tensor_ref(b[i].t);
        ro->golden = c->outputs[k].t;
        ro->rtol = c->outputs[k].rtol.value;
        ro->atol = c->outputs[k].atol.value;
        exec_compare(ro->actual, ro->golden, ro->rtol, ro->atol, o->mopt.profile,
                     o->mopt.semantics == EXEC_SEM_DEVICE, &ro->cmp);
        if (ro->cmp.error || !ro->cmp.pass)
            r->all_pass = 0;
    }
    for (size_t k = 0; k < c->noutputs; k++) {
        if (done[k])
            continue;
        strbuf sb = STRBUF_INIT;
        strbuf_printf(&sb,
                      "REF would fail here: ValueError: %s: expected key '%s' not found in tensors "
                      "after execution",
                      path, c->outputs[k].name);
        fail(r, RUNPASS_REF_FAIL, strbuf_detach(&sb));
        r->all_pass = 0;
        break;
    }
    free(done);
    if (!r->message) /* no missing output key */
        r->status = RUNPASS_COMPARED;
    if (o->strict_ref && (r->ref_note || r->ref_differs_fail))
        r->all_pass = 0; /* the validator in CI cannot run it: parity says fail */
    if (r->memfaults)
        r->all_pass = 0; /* the device would have read other data (docs/memory.md) */
out:
    runpass_close(&run);
}

void runpass_result_free(runpass_result *r)
{
    for (size_t i = 0; i < r->noutputs; i++) {
        free(r->outputs[i].key);
        if (r->outputs[i].actual)
            tensor_unref(r->outputs[i].actual);
    }
    free(r->outputs);
    free(r->message);
    free(r->ref_note);
    free(r->ref_differs);
    free(r->memreport);
    free(r->schedule);
    memset(r, 0, sizeof *r);
}

int runpass_save_output(const char *dir, const char *stem, const runpass_output *o, char *err, size_t errsize)
{
    strbuf path = STRBUF_INIT;
    strbuf_printf(&path, "%s/%s.%s.raw", dir, stem, o->key);
    tensor *c = tensor_contiguous(o->actual);
    int rc = c ? atomic_file_write(strbuf_str(&path), tensor_data(c), dtype_size(c->dtype) * (size_t)tensor_numel(c))
               : (errno = ENOMEM, -1);
    if (rc != 0)
        snprintf(err, errsize, "cannot write %s: %s", strbuf_str(&path), strerror(errno));
    tensor_unref(c);
    strbuf_free(&path);
    return rc;
}

/* ptodb --info PATH: what ptodb found for a case (passes, entry, data,
 * tolerances), or the tensors of one data file (.pt, .npy). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/status.h"
#include "data/case.h"
#include "data/case_ir.h"
#include "data/npy.h"
#include "data/pt.h"
#include "data/rank_bind.h"
#include "ir/resolve.h"
#include "modes.h"
#include "options.h"
#include "tensor/tensor.h"

int mode_info(const ptodb_cli *cli);

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static void print_tensor(const char *name, const tensor *t, const char *from)
{
    char shape[200];
    tensor_stats s;
    tensor_format_shape(t->ndim, t->shape, shape, sizeof shape);
    tensor_compute_stats(t, &s);
    printf("  %-16s %-6s %-14s", name, dtype_name(t->dtype), shape);
    if (s.finite)
        printf(" min %-11.4g max %-11.4g mean %-11.4g", s.min, s.max, s.mean);
    else
        printf(" %-45s", "(no finite values)");
    printf(" nan %lld inf %lld", (long long)s.nan_count, (long long)s.inf_count);
    if (s.sampled)
        printf(" (over %lld evenly spaced elements)", (long long)s.sampled);
    if (from)
        printf("  %s", from);
    putchar('\n');
}

static int info_data_file(const char *path, diag_sink *sink)
{
    if (ends_with(path, ".npy")) {
        tensor *t;
        if (npy_load(path, DTYPE_COUNT, &t, sink) != PTODB_OK)
            return PTODB_EXIT_USAGE;
        printf("%s: .npy, 1 tensor\n", path);
        print_tensor("-", t, NULL);
        tensor_unref(t);
        return PTODB_EXIT_OK;
    }
    pt_file f;
    if (pt_load(path, &f, sink) != PTODB_OK)
        return PTODB_EXIT_USAGE;
    printf("%s: torch .pt, %s of %zu tensor%s\n", path,
           f.kind == PT_SINGLE ? "a tensor" : f.kind == PT_DICT ? "a dict" : "a list", f.count,
           f.count == 1 ? "" : "s");
    for (size_t i = 0; i < f.count; i++)
        print_tensor(f.items[i].name ? f.items[i].name : "-", f.items[i].t, NULL);
    pt_file_free(&f);
    return PTODB_EXIT_OK;
}

static void print_tol(const char *what, const case_tol *t)
{
    printf("  %s %-10g from %s", what, t->value, case_tol_source_name(t->source));
    if (t->source != CASE_TOL_OPTION)
        printf(" (%s)", t->where);
    putchar('\n');
}

/* Each pass with its name; a pass file that does not check (broken IR, or
 * an error of ours) is marked with its first error at file:line:col, since
 * no run of that pass can mean anything. */
static void print_passes(const case_info *c)
{
    printf("passes: %zu in %s\n", c->npasses, c->dump_dir);
    size_t bad = 0;
    for (size_t i = 0; i < c->npasses; i++) {
        const case_pass *p = &c->passes[i];
        if (p->index >= 0)
            printf("  %02d %s", p->index, p->name);
        else
            printf("  ?? %s", p->name);
        diag_sink sink;
        diag_sink_init(&sink, 1);
        if (ir_check_file(p->path, &sink) != PTODB_OK) {
            char *first = sink.count ? diag_format(&sink.items[0]) : NULL;
            printf("  does not check: %s", first ? first : "error");
            if (sink.errors > 1)
                printf(" (+%zu more)", sink.errors - 1);
            free(first);
            bad++;
        }
        diag_sink_free(&sink);
        putchar('\n');
    }
    if (bad)
        printf("passes that do not check: %zu of %zu (ptodb --check %s shows every error)\n", bad, c->npasses,
               c->dump_dir);
}

/* A multi-rank case: its ranks, devices and comm domains (ranks.txt), and
 * each rank's data. */
static void print_ranks(const case_info *c)
{
    const case_ranks *r = &c->ranks;
    printf("ranks: %d (%s)\n", r->nranks, r->path);
    printf("  devices:");
    for (int k = 0; k < r->nranks; k++)
        printf(" %d", r->device_ids[k]);
    putchar('\n');
    printf("comm domains: %zu\n", r->ndomains);
    for (size_t i = 0; i < r->ndomains; i++) {
        const case_domain *d = &r->domains[i];
        printf("  %s: devices [", d->name);
        for (size_t k = 0; k < d->ndevices; k++)
            printf("%s%d", k ? ", " : "", d->devices[k]);
        printf("] (device -> rank:");
        for (size_t k = 0; k < d->ndevices; k++)
            printf(" %d->%zu", d->devices[k], k);
        printf("); window buffers:");
        for (size_t k = 0; k < d->nbuffers; k++) {
            printf("%s %s", k ? "," : "", d->buffers[k].name);
            if (d->buffers[k].bytes >= 0)
                printf(" (%lld B)", (long long)d->buffers[k].bytes);
        }
        if (!d->nbuffers)
            printf(" none");
        putchar('\n');
    }
    for (int k = 0; k < r->nranks; k++) {
        const case_rank_data *rd = &c->rank_data[k];
        printf("rank %d (device %d): inputs %zu, outputs (golden) %zu\n", k, r->device_ids[k], rd->ninputs,
               rd->noutputs);
        for (size_t i = 0; i < rd->ninputs; i++)
            print_tensor(rd->inputs[i].name, rd->inputs[i].t, rd->inputs[i].path);
        for (size_t i = 0; i < rd->noutputs; i++) {
            int found = 0;
            for (size_t j = 0; j < rd->ninputs; j++)
                found |= strcmp(rd->inputs[j].name, rd->outputs[i].name) == 0;
            print_tensor(rd->outputs[i].name, rd->outputs[i].t, rd->outputs[i].path);
            if (!found)
                printf("  %s is a pure output: it starts as zeros\n", rd->outputs[i].name);
        }
    }
}

/* The host orchestrator's parameters and what each rank's data gives them. */
static ptodb_status print_host_bindings(const case_info *c, diag_sink *sink)
{
    case_entry host = {0};
    diag_sink psink;
    diag_sink_init(&psink, 1);
    ptodb_status st = PTODB_OK;
    if (case_host_entry_from_dump(c->passes[0].path, &host, &psink) != PTODB_OK) {
        char *why = psink.count ? diag_format(&psink.items[0]) : NULL;
        printf("host entry: not determined (%s)\n", why ? why : "no host function");
        free(why);
        diag_sink_free(&psink);
        case_entry_free(&host);
        return PTODB_ERR_RESOLVE;
    }
    diag_sink_free(&psink);
    printf("host entry: %s in %s.py (its tensors are the ranks' slices stacked along the rank axis)\n", host.name,
           c->passes[0].stem);
    printf("host parameters: %zu\n", host.nparams);
    case_rank_binding *b = calloc(host.nparams ? host.nparams : 1, sizeof *b);
    if (case_bind_ranks(c, host.params, host.nparams, b, sink) != PTODB_OK)
        st = PTODB_ERR_RESOLVE;
    for (size_t i = 0; i < host.nparams; i++) {
        const case_param *p = &host.params[i];
        const char *dir = p->dir == CASE_PARAM_OUT ? "Out" : p->dir == CASE_PARAM_INOUT ? "InOut" : "In";
        printf("  %-22s %-5s %-8s", p->name, dir, p->is_tensor ? dtype_pl_name(p->dtype) : "scalar");
        if (!b[i].t) {
            printf(" unbound\n");
            continue;
        }
        char shape[200];
        tensor_format_shape(b[i].t->ndim, b[i].t->shape, shape, sizeof shape);
        printf(" %s, rank axis %d, <- %s", shape, b[i].axis,
               b[i].zeros ? "zeros" : "the ranks' inputs");
        int ngold = 0;
        for (int r = 0; r < c->ranks.nranks; r++)
            ngold += b[i].golden[r] != NULL;
        if (ngold)
            printf(", compared with the golden of %d of %d ranks", ngold, c->ranks.nranks);
        putchar('\n');
    }
    case_rank_bindings_free(b, host.nparams);
    free(b);
    case_entry_free(&host);
    return st;
}

static int info_case(const char *path, const case_options *opt, diag_sink *sink)
{
    case_info c;
    ptodb_status st = case_open(path, opt, &c, sink);
    if (!c.root) {
        case_free(&c);
        return PTODB_EXIT_USAGE;
    }
    printf("case: %s\n", c.root);
    print_passes(&c);
    case_entry entry = {0};
    int have_entry = 0;
    if (c.npasses) {
        /* The first pass file's entry: each pass names its own parameters,
         * binding drops the __ssa_vN suffixes (semantics.md §7.2). */
        /* Dump errors are --check's business: here they only mean the
         * entry is unknown, so they are shown on that line, not as errors. */
        diag_sink psink;
        diag_sink_init(&psink, 1);
        have_entry = case_entry_from_dump(c.passes[0].path, c.entry, &entry, &psink) == PTODB_OK;
        if (!have_entry) {
            char *why = psink.count ? diag_format(&psink.items[0]) : NULL;
            printf("entry: not determined (%s)\n", why ? why : "no entry function");
            free(why);
            case_entry_free(&entry);
        }
        diag_sink_free(&psink);
    }
    if (have_entry)
        printf("entry: %s in %s.py%s%s%s%s\n", entry.name, c.passes[0].stem, c.entry ? " (named by " : "",
               c.entry ? c.manifest_path : "", c.entry ? ")" : "",
               c.ranks.nranks ? " (what REF's validator would call; the ranks run the host entry's dispatches)"
                              : "");
    else if (!c.npasses)
        printf("entry: not determined (no pass files)\n");
    if (c.manifest_path)
        printf("manifest: %s\n", c.manifest_path);
    if (c.golden_path)
        printf("golden.py: %s (scanned for RTOL/ATOL, never executed)\n", c.golden_path);
    if (c.ranks.nranks)
        print_ranks(&c);
    printf("inputs: %zu\n", c.ninputs);
    for (size_t i = 0; i < c.ninputs; i++)
        print_tensor(c.inputs[i].name, c.inputs[i].t, c.inputs[i].path);
    printf("outputs (golden): %zu\n", c.noutputs);
    for (size_t i = 0; i < c.noutputs; i++)
        print_tensor(c.outputs[i].name, c.outputs[i].t, c.outputs[i].path);
    for (size_t i = 0; i < c.noutputs; i++) {
        int found = 0;
        for (size_t k = 0; k < c.ninputs; k++)
            found |= strcmp(c.inputs[k].name, c.outputs[i].name) == 0;
        if (!found)
            printf("  %s is a pure output: it starts as zeros\n", c.outputs[i].name);
    }
    if (c.ranks.nranks && c.npasses && print_host_bindings(&c, sink) != PTODB_OK)
        st = PTODB_ERR_RESOLVE;
    if (have_entry && c.ranks.nranks) {
        /* the device entry's tensors come from the host orchestrator's
         * dispatches, not from data files: nothing to bind here */
        case_entry_free(&entry);
    } else if (have_entry) {
        printf("parameters: %zu\n", entry.nparams);
        case_binding *b = calloc(entry.nparams ? entry.nparams : 1, sizeof *b);
        if (case_bind(&c, entry.params, entry.nparams, b, sink) != PTODB_OK)
            st = PTODB_ERR_RESOLVE;
        for (size_t i = 0; i < entry.nparams; i++) {
            const case_param *p = &entry.params[i];
            const char *dir = p->dir == CASE_PARAM_OUT ? "Out" : p->dir == CASE_PARAM_INOUT ? "InOut" : "In";
            printf("  %-22s %-5s %-8s", p->name, dir, p->is_tensor ? dtype_pl_name(p->dtype) : "scalar");
            if (!b[i].t)
                printf(" unbound\n");
            else if (b[i].zeros && b[i].golden)
                printf(" <- zeros shaped like golden '%s'\n", b[i].key);
            else if (b[i].zeros)
                printf(" <- zeros shaped like the parameter\n");
            else
                printf(" <- input '%s'%s\n", b[i].key, b[i].golden ? ", compared with its golden" : "");
        }
        case_bindings_free(b, entry.nparams);
        free(b);
        case_entry_free(&entry);
    }
    printf("tolerances:\n");
    print_tol("rtol", &c.rtol);
    print_tol("atol", &c.atol);
    for (size_t i = 0; i < c.noutputs; i++) {
        const case_tensor *o = &c.outputs[i];
        if (o->rtol.value != c.rtol.value || o->atol.value != c.atol.value ||
            o->rtol.source != c.rtol.source || o->atol.source != c.atol.source) {
            printf("  %s:\n", o->name);
            print_tol("  rtol", &o->rtol);
            print_tol("  atol", &o->atol);
        }
    }
    case_free(&c);
    return st == PTODB_OK ? PTODB_EXIT_OK : PTODB_EXIT_USAGE;
}

int mode_info(const ptodb_cli *cli)
{
    const char *path = ptodb_cli_case_path(cli, "--info");
    if (!path)
        return PTODB_EXIT_USAGE;
    case_options opt = {0};
    if (ptodb_cli_tolerances(cli, &opt) != 0)
        return PTODB_EXIT_USAGE;
    diag_sink sink;
    diag_sink_init(&sink, 50);
    fflush(stdout);
    int rc = ends_with(path, ".pt") || ends_with(path, ".npy") ? info_data_file(path, &sink)
                                                               : info_case(path, &opt, &sink);
    fflush(stdout);
    if (sink.count) {
        /* diagnostics name the file; prefix with the program like other modes */
        for (size_t i = 0; i < sink.count; i++) {
            char *line = diag_format(&sink.items[i]);
            fprintf(stderr, "ptodb: %s\n", line);
            free(line);
        }
    }
    if (sink.errors && rc == PTODB_EXIT_OK)
        rc = PTODB_EXIT_USAGE;
    diag_sink_free(&sink);
    return rc;
}

/* ptodb --run PATH: runs every pass of a case (or one dump file) on the
 * interpreter and prints REF-compatible lines (semantics.md §7.3):
 *     ==================== 21_after_ExpandMixedKernel ====================
 *     validate tensor: 'out', max_abs_diff: 9.765625e-04, pass: True
 * Unlike REF it continues after a failing pass; --jobs N runs passes in N
 * worker processes and prints them in order. Exit status: 0 when every
 * pass ran and passed, 1 when some pass failed, 2 on input errors. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/fdio.h"
#include "base/number.h"
#include "base/status.h"
#include "base/strbuf.h"
#include "data/case.h"
#include "exec/compare.h"
#include "exec/runpass.h"
#include "modes.h"
#include "options.h"

int mode_run(const ptodb_cli *cli);

int parse_run_options(const ptodb_cli *cli, machine_options *mo)
{
    machine_options_init(mo);
    const char *ref = ptodb_cli_value(cli, OPT_REF);
    if (ref) {
        if (strcmp(ref, "torch2") == 0 || strcmp(ref, "t2") == 0)
            mo->profile = EXEC_PROFILE_T2;
        else if (strcmp(ref, "torch1.13") == 0 || strcmp(ref, "t13") == 0)
            mo->profile = EXEC_PROFILE_T13;
        else {
            fprintf(stderr, "ptodb: --ref: expected torch2 or torch1.13, got '%s'\n", ref);
            return -1;
        }
    }
    const char *sch = ptodb_cli_value(cli, OPT_SCHEDULE);
    if (sch) {
        if (strcmp(sch, "fixed") == 0)
            mo->sched = EXEC_SCHED_FIXED;
        else if (strcmp(sch, "aic-first") == 0)
            mo->sched = EXEC_SCHED_AIC_FIRST;
        else if (strcmp(sch, "aiv-first") == 0)
            mo->sched = EXEC_SCHED_AIV_FIRST;
        else if (strncmp(sch, "random:", 7) == 0 && sch[7]) {
            mo->sched = EXEC_SCHED_RANDOM;
            if (parse_u64(sch + 7, &mo->seed) != 0) {
                fprintf(stderr, "ptodb: --schedule: the seed in '%s' must be an integer from 0 to %llu\n", sch,
                        (unsigned long long)UINT64_MAX);
                return -1;
            }
        } else {
            fprintf(stderr, "ptodb: --schedule: expected fixed, aic-first, aiv-first or random:SEED, got '%s'\n",
                    sch);
            return -1;
        }
    }
    const char *depth = ptodb_cli_value(cli, OPT_SLOT_DEPTH);
    if (depth) {
        if (strcmp(depth, "unbounded") == 0) {
            mo->slot_depth = 0;
        } else if (strcmp(depth, "pipe") == 0) {
            mo->slot_depth = -1;
        } else {
            long long n;
            if (parse_int_range(depth, 1, 1000000000, &n) != 0) {
                fprintf(stderr,
                        "ptodb: --slot-depth: expected a number from 1 to 1000000000, pipe or unbounded, got '%s'\n",
                        depth);
                return -1;
            }
            mo->slot_depth = n;
        }
    }
    const char *limit = ptodb_cli_value(cli, OPT_TIMEOUT);
    if (limit) {
        char *end;
        errno = 0;
        double t = strtod(limit, &end);
        if (end == limit || *end || errno || !(t > 0) || t > 1e9) {
            fprintf(stderr, "ptodb: --timeout: expected a number of seconds above 0 and at most 1e9, got '%s'\n",
                    limit);
            return -1;
        }
        mo->time_limit = t;
    }
    if (cli->given[OPT_NO_CHECK_SHAPES])
        mo->check_shapes = 0;
    return 0;
}

/* Bytes of two same-shaped tensors differ (NaN payloads included). Counts the
 * differing elements and the largest |difference| between them. */
static int64_t count_changed(const tensor *a, const tensor *b, double *max_diff)
{
    *max_diff = 0;
    if (a->ndim != b->ndim || a->dtype != b->dtype)
        return -1;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return -1;
    tensor *ca = tensor_contiguous((tensor *)a), *cb = tensor_contiguous((tensor *)b);
    size_t es = dtype_size(a->dtype);
    int64_t n = tensor_numel(a), changed = 0;
    const unsigned char *pa = tensor_data(ca), *pb = tensor_data(cb);
    for (int64_t k = 0; k < n; k++) {
        if (memcmp(pa + (size_t)k * es, pb + (size_t)k * es, es) == 0)
            continue;
        changed++;
        double d = fabs(dtype_load(a->dtype, pa, (size_t)k) - dtype_load(a->dtype, pb, (size_t)k));
        if (d > *max_diff || d != d)
            *max_diff = d;
    }
    tensor_unref(ca);
    tensor_unref(cb);
    return changed;
}

/* The race check: the pass again under `runs` random schedules (seeds
 * 1..runs). The cores' pops are deterministic whatever the interleaving
 * (semantics.md §6.6), so an output that changes means cores touched global
 * memory without a queue ordering them. Returns 1 when one did. */
static int race_check(const case_info *c, size_t i, const runpass_options *ro, const runpass_result *base,
                      int runs, strbuf *out)
{
    int raced = 0;
    for (int seed = 1; seed <= runs && !raced; seed++) {
        runpass_options rr = *ro;
        rr.mopt.sched = EXEC_SCHED_RANDOM;
        rr.mopt.seed = (uint64_t)seed;
        runpass_result r;
        runpass_file(c->passes[i].path, c, &rr, &r);
        if (r.status != base->status) {
            strbuf_printf(out, "race: under --schedule=random:%d the pass %s instead%s%s\n", seed,
                          r.status == RUNPASS_COMPARED ? "completes" : "fails", r.message ? ": " : "",
                          r.message ? r.message : "");
            raced = 1;
        } else if (r.status == RUNPASS_COMPARED) {
            for (size_t k = 0; k < r.noutputs && k < base->noutputs; k++) {
                double md;
                int64_t n = count_changed(base->outputs[k].actual, r.outputs[k].actual, &md);
                if (n == 0)
                    continue;
                char d[64];
                exec_format_e6(md, d, sizeof d);
                strbuf_printf(out,
                              "race: output '%s' changes under --schedule=random:%d (%lld elements, max "
                              "|diff| %s): cores write or read it without a queue ordering them\n",
                              r.outputs[k].key, seed, (long long)n, d);
                raced = 1;
            }
        }
        runpass_result_free(&r);
    }
    if (!raced)
        strbuf_printf(out, "race check: %d random schedules, outputs unchanged\n", runs);
    return raced;
}

/* run_one's result bits */
enum { RUN_FAILED = 1, RUN_WRITE_ERROR = 2 };

/* Runs pass i and formats its lines into out; returns RUN_FAILED when it
 * failed validation, | RUN_WRITE_ERROR when an output could not be saved. */
static int run_one(const case_info *c, size_t i, const runpass_options *ro, const char *save_dir,
                   strbuf *out)
{
    int failed = 0;
    runpass_result r;
    runpass_file(c->passes[i].path, c, ro, &r);
    strbuf_printf(out, "==================== %s ====================\n", c->passes[i].stem);
    if (r.status == RUNPASS_COMPARED) {
        if (r.ref_note)
            runpass_format_ref_note(r.ref_note, ro->strict_ref, out);
        for (size_t k = 0; k < r.noutputs; k++) {
            const runpass_output *o = &r.outputs[k];
            if (o->cmp.error) {
                strbuf_printf(out, "REF would fail here: %s: comparing '%s': %s\n", c->passes[i].path,
                              o->key, o->cmp.msg);
                failed |= RUN_FAILED;
                continue;
            }
            exec_format_validate_line(o->key, &o->cmp, out);
            exec_format_mismatch_line(&o->cmp, o->rtol, o->atol, out);
            char why[4200];
            if (save_dir && runpass_save_output(save_dir, c->passes[i].stem, o, why, sizeof why) != 0) {
                fprintf(stderr, "ptodb: --save-outputs: %s\n", why);
                failed |= RUN_WRITE_ERROR;
            }
        }
        if (!r.all_pass)
            failed |= RUN_FAILED;
    } else {
        strbuf_printf(out, "%s%s\n", r.status == RUNPASS_ERROR ? diag_error_prefix(r.message) : "", r.message);
        failed |= RUN_FAILED;
    }
    if (ro->race_runs > 0 && race_check(c, i, ro, &r, ro->race_runs, out))
        failed |= RUN_FAILED;
    runpass_result_free(&r);
    return failed;
}


/* --jobs N: passes are independent (fresh inputs each), so N forked workers
 * take every N-th pass; each sends [failed, length, text] per pass through
 * its pipe and the parent prints them in pass order. Nothing is shared
 * between workers. */
static int run_parallel(const case_info *c, const runpass_options *ro, const char *save_dir, int jobs)
{
    if ((size_t)jobs > c->npasses)
        jobs = (int)c->npasses;
    int *fds = calloc((size_t)jobs, sizeof *fds);
    pid_t *pids = calloc((size_t)jobs, sizeof *pids);
    int started = 0;
    for (int w = 0; w < jobs; w++) {
        int p[2];
        if (pipe(p) != 0)
            break;
        pid_t pid = fork();
        if (pid < 0) {
            close(p[0]);
            close(p[1]);
            break;
        }
        if (pid == 0) {
            close(p[0]);
            for (int k = 0; k < w; k++)
                close(fds[k]);
            strbuf out = STRBUF_INIT;
            for (size_t i = (size_t)w; i < c->npasses; i += (size_t)jobs) {
                strbuf_clear(&out);
                uint32_t hdr[2];
                hdr[0] = (uint32_t)run_one(c, i, ro, save_dir, &out);
                hdr[1] = (uint32_t)out.len;
                if (fd_write_all(p[1], hdr, sizeof hdr) != 0 || fd_write_all(p[1], strbuf_str(&out), out.len) != 0)
                    _exit(3);
            }
            free(fds); /* not the worker's leak (valgrind follows the fork) */
            free(pids);
            strbuf_free(&out);
            _exit(0);
        }
        close(p[1]);
        fds[w] = p[0];
        pids[w] = pid;
        started++;
    }
    int failed = 0;
    if (started < jobs) { /* could not fork: run the rest here */
        for (int w = 0; w < started; w++) {
            close(fds[w]);
            kill(pids[w], SIGTERM);
            waitpid(pids[w], NULL, 0);
        }
        free(fds);
        free(pids);
        strbuf out = STRBUF_INIT;
        for (size_t i = 0; i < c->npasses; i++) {
            strbuf_clear(&out);
            failed |= run_one(c, i, ro, save_dir, &out);
            fputs(strbuf_str(&out), stdout);
        }
        strbuf_free(&out);
        return failed;
    }
    for (size_t i = 0; i < c->npasses; i++) {
        int fd = fds[i % (size_t)jobs];
        uint32_t hdr[2];
        if (fd_read_all(fd, hdr, sizeof hdr) != 0) {
            printf("==================== %s ====================\nerror: worker for this pass died\n",
                   c->passes[i].stem);
            failed = 1;
            continue;
        }
        char *text = malloc((size_t)hdr[1] + 1);
        if (!text || fd_read_all(fd, text, hdr[1]) != 0) {
            free(text);
            failed = 1;
            continue;
        }
        fwrite(text, 1, hdr[1], stdout);
        fflush(stdout);
        free(text);
        failed |= (int)hdr[0];
    }
    for (int w = 0; w < jobs; w++) {
        int status = 0;
        close(fds[w]);
        waitpid(pids[w], &status, 0);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
            failed = 1;
    }
    free(fds);
    free(pids);
    return failed;
}

int mode_run(const ptodb_cli *cli)
{
    const char *path = ptodb_cli_case_path(cli, "--run");
    if (!path)
        return PTODB_EXIT_USAGE;
    runpass_options ro;
    if (parse_run_options(cli, &ro.mopt) != 0)
        return PTODB_EXIT_USAGE;
    case_options copt;
    memset(&copt, 0, sizeof copt);
    if (ptodb_cli_tolerances(cli, &copt) != 0)
        return PTODB_EXIT_USAGE;
    const char *save_dir = ptodb_cli_value(cli, OPT_SAVE_OUTPUTS);
    ro.race_runs = 0;
    long long n;
    int given = ptodb_cli_int(cli, OPT_RACE_CHECK, "a number of schedules", 1, 100000, &n);
    if (given < 0)
        return PTODB_EXIT_USAGE;
    if (given)
        ro.race_runs = (int)n;
    int jobs = 1;
    if ((given = ptodb_cli_int(cli, OPT_JOBS, "a number", 1, 256, &n)) < 0)
        return PTODB_EXIT_USAGE;
    if (given)
        jobs = (int)n;
    if (save_dir && ptodb_check_output_dir("--save-outputs", save_dir) != 0)
        return PTODB_EXIT_USAGE;
    case_info c;
    if (ptodb_open_case(path, &copt, &c) != 0)
        return PTODB_EXIT_USAGE;
    op_fn *ops = calloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    ro.ops = ops;
    ro.strict_ref = cli->given[OPT_STRICT_REF] > 0;
    int failed;
    if (jobs > 1 && c.npasses > 1)
        failed = run_parallel(&c, &ro, save_dir, jobs);
    else {
        failed = 0;
        strbuf out = STRBUF_INIT;
        for (size_t i = 0; i < c.npasses; i++) {
            strbuf_clear(&out);
            failed |= run_one(&c, i, &ro, save_dir, &out);
            fputs(strbuf_str(&out), stdout);
            fflush(stdout);
        }
        strbuf_free(&out);
    }
    free(ops);
    case_free(&c);
    return failed & RUN_WRITE_ERROR ? PTODB_EXIT_USAGE : failed ? PTODB_EXIT_VALIDATION_FAILED : PTODB_EXIT_OK;
}

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
#include <stdint.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "base/atomic_file.h"
#include "base/diag.h"
#include "base/number.h"
#include "base/status.h"
#include "base/mem.h"
#include "base/strbuf.h"
#include "batch/worker_pool.h"
#include "data/case.h"
#include "exec/compare.h"
#include "kernels/kernel_matmul.h"
#include "exec/runpass.h"
#include "exec/schedule.h"
#include "modes.h"
#include "ranks/run.h"
#include "options.h"

int mode_run(const ptodb_cli *cli);

int parse_run_options(const ptodb_cli *cli, machine_options *mo)
{
    machine_options_init(mo);
    mo->reuse_dead = 1; /* no one inspects a dead value here */
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
        int kind;
        char why[256];
        if (exec_schedule_parse_name(sch, &kind, &mo->seed, why, sizeof why) != 0) {
            fprintf(stderr, "ptodb: --schedule: %s\n", why);
            return -1;
        }
        mo->sched = (exec_sched)kind;
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
    const char *memcheck = ptodb_cli_value(cli, OPT_MEMCHECK);
    if (memcheck) {
        if (strcmp(memcheck, "on") == 0)
            mo->memcheck = 1;
        else if (strcmp(memcheck, "off") == 0)
            mo->memcheck = 0;
        else {
            fprintf(stderr, "ptodb: --memcheck: expected on or off, got '%s'\n", memcheck);
            return -1;
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
    const char *sem = ptodb_cli_value(cli, OPT_SEMANTICS);
    if (sem) {
        int v = exec_semantics_parse(sem);
        if (v < 0) {
            fprintf(stderr, "ptodb: --semantics: expected device or ref, got '%s'\n", sem);
            return -1;
        }
        mo->semantics = (exec_semantics)v;
    }
    /* the memory model is the device's; the reference is blind to MemRefs */
    if (mo->semantics == EXEC_SEM_REF) {
        if (memcheck && mo->memcheck) {
            fprintf(stderr, "ptodb: --memcheck=on needs --semantics=device: the reference's semantics has no "
                            "memory model\n");
            return -1;
        }
        mo->memcheck = 0;
    }
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
 * memory without a queue ordering them; under --semantics=device the order
 * of an SPMD launch's blocks is shuffled too, so a block-order race shows.
 * Returns 1 when one did. */
static int race_check(const case_info *c, size_t i, const runpass_options *ro, const runpass_result *base,
                      int runs, strbuf *out)
{
    int raced = 0;
    if (base->status != RUNPASS_COMPARED) {
        /* an error under the default schedule (the GM race check's among
         * them) is the pass's answer: no output to compare */
        strbuf_printf(out, "race check: not run, the pass stops under the default schedule\n");
        return 0;
    }
    for (int seed = 1; seed <= runs && !raced; seed++) {
        runpass_options rr = *ro;
        rr.mopt.sched = EXEC_SCHED_RANDOM;
        rr.mopt.seed = (uint64_t)seed;
        runpass_result r;
        ranks_or_single_run_file(c->passes[i].path, c, &rr, &r);
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
                              "|diff| %s): cores or SPMD blocks write or read it without a queue ordering them\n",
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

/* Runs pass i and formats its lines into out and its messages for stderr
 * into err (a worker has no terminal); returns RUN_FAILED when it failed
 * validation, | RUN_WRITE_ERROR when an output could not be saved. */
static int run_one(const case_info *c, size_t i, const runpass_options *ro, const char *save_dir,
                   strbuf *out, strbuf *err, strbuf *sched)
{
    int failed = 0;
    runpass_result r;
    ranks_or_single_run_file(c->passes[i].path, c, ro, &r);
    if (r.schedule)
        strbuf_puts(sched, r.schedule);
    strbuf_printf(out, "==================== %s ====================\n", c->passes[i].stem);
    if (r.status == RUNPASS_COMPARED) {
        if (r.ref_note)
            runpass_format_ref_note(r.ref_note, ro->strict_ref, out);
        if (r.ref_differs)
            runpass_format_ref_differs(r.ref_differs, ro->strict_ref, out);
        for (size_t k = 0; k < r.noutputs; k++) {
            const runpass_output *o = &r.outputs[k];
            if (o->cmp.error) {
                strbuf_printf(out, "REF would fail here: %s: comparing '%s': %s\n", c->passes[i].path,
                              o->key, o->cmp.msg);
                failed |= RUN_FAILED;
                continue;
            }
            exec_format_validate_line(o->key, &o->cmp, out);
            exec_format_dont_care_line(&o->cmp, out);
            exec_format_mismatch_line(&o->cmp, o->rtol, o->atol, out);
            char why[4200];
            if (save_dir && runpass_save_output(save_dir, c->passes[i].stem, o, why, sizeof why) != 0) {
                strbuf_printf(err, "ptodb: --save-outputs: %s\n", why);
                failed |= RUN_WRITE_ERROR;
            }
        }
        if (r.memfaults) {
            /* the same lines as --batch's (report.c) */
            strbuf_puts(out, r.memreport ? r.memreport : "");
            strbuf_printf(out, "MEMFAULT: %llu memory fault%s in this pass (the device reads other data than the "
                               "reference; docs/memory.md)\n",
                          (unsigned long long)r.memfaults, r.memfaults == 1 ? "" : "s");
        }
        if (!r.all_pass)
            failed |= RUN_FAILED;
    } else {
        /* the places met before the error where the device differs from
         * REF: a shape note can be the error's cause */
        if (r.ref_differs)
            runpass_format_ref_differs(r.ref_differs, ro->strict_ref, out);
        strbuf_printf(out, "%s%s\n", r.status == RUNPASS_ERROR ? diag_error_prefix(r.message) : "", r.message);
        failed |= RUN_FAILED;
    }
    if (ro->race_runs > 0 && race_check(c, i, ro, &r, ro->race_runs, out))
        failed |= RUN_FAILED;
    runpass_result_free(&r);
    return failed;
}


/* --jobs N: passes are independent (fresh inputs each), so the worker pool
 * runs them N at a time; each result, [failed, text], is printed in pass
 * order as soon as the passes before it are. */
typedef struct run_pool {
    const case_info *c;
    const runpass_options *ro;
    const char *save_dir;
    size_t next;    /* the next pass to hand out */
    size_t printed; /* passes printed so far */
    int *pieces;    /* per pass: pieces arrived (flags, text, messages) */
    int *failed;    /* per pass: run_one's flags */
    char **text;    /* per pass: its lines for stdout */
    char **err;     /* per pass: its messages for stderr */
    char **sched;   /* per pass: its schedule's section (--record-schedule) */
    strbuf buf, ebuf, sbuf; /* the worker's */
    int share_cores;  /* idle workers' cores go to the others' matmuls */
} run_pool;

enum { RUN_PIECES = 4 };

static int run_pool_next(void *ud, size_t *task)
{
    run_pool *rp = ud;
    if (rp->next >= rp->c->npasses)
        return 0;
    *task = rp->next++;
    return 1;
}

static void run_pool_run(void *ud, size_t task, worker_pool_out *out)
{
    run_pool *rp = ud;
    strbuf_clear(&rp->buf);
    strbuf_clear(&rp->ebuf);
    strbuf_clear(&rp->sbuf);
    uint32_t failed = (uint32_t)run_one(rp->c, task, rp->ro, rp->save_dir, &rp->buf, &rp->ebuf, &rp->sbuf);
    worker_pool_send(out, &failed, sizeof failed);
    worker_pool_send(out, strbuf_str(&rp->buf), rp->buf.len);
    worker_pool_send(out, strbuf_str(&rp->sbuf), rp->sbuf.len);
    worker_pool_send(out, strbuf_str(&rp->ebuf), rp->ebuf.len);
}

static void run_pool_print(run_pool *rp)
{
    while (rp->printed < rp->c->npasses && rp->pieces[rp->printed] == RUN_PIECES) {
        fputs(rp->text[rp->printed], stdout);
        fflush(stdout);
        fputs(rp->err[rp->printed], stderr);
        rp->printed++;
    }
}

static void run_pool_output(void *ud, size_t task, const char *data, size_t len)
{
    run_pool *rp = ud;
    if (task >= rp->c->npasses || rp->pieces[task] >= RUN_PIECES)
        return;
    switch (rp->pieces[task]++) {
    case 0: { /* the flags */
        uint32_t f = RUN_FAILED;
        if (len == sizeof f)
            memcpy(&f, data, sizeof f);
        rp->failed[task] = (int)f;
        break;
    }
    case 1:
        rp->text[task] = xstrndup(data, len);
        break;
    case 2:
        rp->sched[task] = xstrndup(data, len);
        break;
    default:
        rp->err[task] = xstrndup(data, len);
        run_pool_print(rp);
    }
}

static void run_pool_failure(void *ud, size_t task, int status)
{
    run_pool *rp = ud;
    (void)status;
    if (task >= rp->c->npasses || rp->pieces[task] >= RUN_PIECES)
        return;
    strbuf m = STRBUF_INIT;
    strbuf_printf(&m, "==================== %s ====================\nerror: worker for this pass died\n",
                  rp->c->passes[task].stem);
    free(rp->text[task]);
    free(rp->err[task]);
    free(rp->sched[task]);
    rp->text[task] = strbuf_detach(&m);
    rp->err[task] = xstrdup("");
    rp->sched[task] = xstrdup("");
    rp->failed[task] = RUN_FAILED;
    rp->pieces[task] = RUN_PIECES;
    run_pool_print(rp);
}

/* Once the last passes are running, the idle workers' cores go to their
 * large matmuls (the same bits with any number of threads). */
static void run_pool_worker_init(void *ud, const volatile int *idle, int workers)
{
    run_pool *rp = ud;
    if (rp->share_cores)
        kernel_matmul_share_cores(idle, workers);
}

static int run_parallel(const case_info *c, const runpass_options *ro, const char *save_dir, int jobs,
                        strbuf *sched)
{
    if ((size_t)jobs > c->npasses)
        jobs = (int)c->npasses;
    size_t n = c->npasses;
    run_pool rp = {c, ro, save_dir, 0, 0, xcalloc(n, sizeof(int)), xcalloc(n, sizeof(int)),
                   xcalloc(n, sizeof(char *)), xcalloc(n, sizeof(char *)), xcalloc(n, sizeof(char *)),
                   STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, worker_pool_free_cores() > 0};
    static const worker_pool_ops ops = {run_pool_next, run_pool_run, run_pool_output, NULL, run_pool_failure,
                                        run_pool_worker_init};
    worker_pool_run(jobs, &ops, &rp);
    /* what no worker delivered (no fork, every worker died): here */
    for (size_t i = rp.printed; i < n; i++) {
        if (rp.pieces[i] < RUN_PIECES) {
            strbuf_clear(&rp.buf);
            strbuf_clear(&rp.ebuf);
            strbuf_clear(&rp.sbuf);
            rp.failed[i] = run_one(c, i, ro, save_dir, &rp.buf, &rp.ebuf, &rp.sbuf);
            free(rp.text[i]);
            free(rp.err[i]);
            free(rp.sched[i]);
            rp.text[i] = xstrdup(strbuf_str(&rp.buf));
            rp.err[i] = xstrdup(strbuf_str(&rp.ebuf));
            rp.sched[i] = xstrdup(strbuf_str(&rp.sbuf));
            rp.pieces[i] = RUN_PIECES;
        }
        run_pool_print(&rp);
    }
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        failed |= rp.failed[i];
        strbuf_puts(sched, rp.sched[i] ? rp.sched[i] : "");
        free(rp.text[i]);
        free(rp.err[i]);
        free(rp.sched[i]);
    }
    free(rp.pieces);
    free(rp.failed);
    free(rp.text);
    free(rp.err);
    free(rp.sched);
    strbuf_free(&rp.buf);
    strbuf_free(&rp.ebuf);
    strbuf_free(&rp.sbuf);
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
    int jobs;
    if (ptodb_cli_jobs(cli, 1, &jobs) != 0)
        return PTODB_EXIT_USAGE;
    if (save_dir && ptodb_check_output_dir("--save-outputs", save_dir) != 0)
        return PTODB_EXIT_USAGE;
    const char *order = ptodb_cli_value(cli, OPT_COMM_ORDER);
    if (order && strcmp(order, "program") != 0 && strcmp(order, "ready") != 0) {
        fprintf(stderr, "ptodb: --comm-order: expected program or ready, got '%s'\n", order);
        return PTODB_EXIT_USAGE;
    }
    const char *rec_path = ptodb_cli_value(cli, OPT_RECORD_SCHEDULE);
    const char *play_path = ptodb_cli_value(cli, OPT_REPLAY_SCHEDULE);
    ro.record_schedule = rec_path != NULL;
    ro.replay = NULL;
    if (play_path && (ptodb_cli_value(cli, OPT_SCHEDULE) || ro.race_runs)) {
        fprintf(stderr, "ptodb: --replay-schedule: the file decides the schedule; --%s cannot go with it\n",
                ptodb_cli_value(cli, OPT_SCHEDULE) ? "schedule" : "race-check");
        return PTODB_EXIT_USAGE;
    }
    if (rec_path && ro.race_runs) {
        fprintf(stderr, "ptodb: --record-schedule records one run per pass; --race-check cannot go with it\n");
        return PTODB_EXIT_USAGE;
    }
    exec_schedule *play = NULL;
    if (play_path) {
        strbuf why = STRBUF_INIT;
        play = exec_schedule_load(play_path, &why);
        if (!play) {
            fprintf(stderr, "ptodb: --replay-schedule: %s\n", strbuf_str(&why));
            strbuf_free(&why);
            return PTODB_EXIT_USAGE;
        }
        strbuf_free(&why);
        ro.replay = play;
    }
    case_info c;
    if (ptodb_open_case(path, &copt, &c) != 0) {
        exec_schedule_free(play);
        return PTODB_EXIT_USAGE;
    }
    if ((rec_path || play_path) && c.ranks.nranks) {
        fprintf(stderr,
                "ptodb: --%s-schedule: %s is a multi-rank case: the schedule of its ranks is not recorded yet "
                "(docs/schedule.md)\n",
                rec_path ? "record" : "replay", path);
        exec_schedule_free(play);
        case_free(&c);
        return PTODB_EXIT_USAGE;
    }
    op_fn *ops = calloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    ro.ops = ops;
    ro.strict_ref = cli->given[OPT_STRICT_REF] > 0;
    ro.comm_ready_order = order && strcmp(order, "ready") == 0;
    int failed;
    /* fewer passes than jobs: the cores left over go to each pass's large
     * matmuls (the same bits with any number of threads) */
    size_t workers = c.npasses < (size_t)jobs ? c.npasses : (size_t)jobs;
    int threads = workers > 0 ? jobs / (int)workers : 1;
    if (threads > 1 && worker_pool_free_cores() == 0)
        threads = 1; /* a busy machine: see worker_pool_free_cores */
    kernel_matmul_set_threads(threads);
    strbuf sched = STRBUF_INIT;
    exec_schedule_format_head(&sched);
    size_t head = sched.len;
    if (jobs > 1 && c.npasses > 1)
        failed = run_parallel(&c, &ro, save_dir, jobs, &sched);
    else {
        failed = 0;
        strbuf out = STRBUF_INIT, err = STRBUF_INIT;
        for (size_t i = 0; i < c.npasses; i++) {
            strbuf_clear(&out);
            strbuf_clear(&err);
            failed |= run_one(&c, i, &ro, save_dir, &out, &err, &sched);
            fputs(strbuf_str(&out), stdout);
            fflush(stdout);
            fputs(strbuf_str(&err), stderr);
        }
        strbuf_free(&out);
        strbuf_free(&err);
    }
    if (rec_path) {
        /* the passes that ran, in pass order (a pass that did not start has no section) */
        if (sched.len == head)
            fprintf(stderr, "ptodb: --record-schedule: no pass ran: %s not written\n", rec_path);
        else if (atomic_file_write(rec_path, strbuf_str(&sched), sched.len) != 0) {
            fprintf(stderr, "ptodb: --record-schedule: cannot write %s: %s\n", rec_path, strerror(errno));
            failed |= RUN_WRITE_ERROR;
        }
    }
    strbuf_free(&sched);
    exec_schedule_free(play);
    free(ops);
    case_free(&c);
    return failed & RUN_WRITE_ERROR ? PTODB_EXIT_USAGE : failed ? PTODB_EXIT_VALIDATION_FAILED : PTODB_EXIT_OK;
}

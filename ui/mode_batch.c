/* ptodb --batch PATH: the native replacement for PyPTO's
 * validate_pass_ir_codegen_results. Validates every pass and every output
 * (REF stops at the first failure; --stop-at-first does too), prints REF's
 * lines exactly as --run does, then a summary table; --metrics, --heatmap,
 * --json FILE and --bisect add to that. Passes run in --jobs worker
 * processes (default: one per core) and are printed in pass order.
 * Exit status: 0 every validated pass passed, 1 some pass failed, 2 input
 * or usage errors. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/mem.h"
#include "base/status.h"
#include "base/strbuf.h"
#include "batch/batch.h"
#include "batch/bisect.h"
#include "base/atomic_file.h"
#include "batch/json.h"
#include "batch/report.h"
#include "data/case.h"
#include "exec/runpass.h"
#include "modes.h"
#include "startup.h"
#include "debug/session.h"
#include "options.h"

int mode_batch(const ptodb_cli *cli);

typedef struct print_ctx {
    FILE *out;
    int metrics, heatmap;
    int stop_at_first;
    int stopped;       /* stopped after this many reported passes */
    size_t reported;
} print_ctx;

static int print_ready(void *ud, const batch *b, size_t i)
{
    print_ctx *pc = ud;
    strbuf sb = STRBUF_INIT;
    report_pass(b, i, pc->metrics, pc->heatmap, &sb);
    fputs(strbuf_str(&sb), pc->out);
    fflush(pc->out);
    strbuf_free(&sb);
    pc->reported++;
    if (pc->stop_at_first && !b->passes[i].ok) {
        pc->stopped = 1;
        return 1;
    }
    return 0;
}

static int default_jobs(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

/* `--batch` with -ex/-x, as gdb's --batch: run the debugger commands on the
 * case without a prompt, then exit: 2 when a command failed, 1 when a pass
 * the commands ran failed validation, 0 otherwise. */
static int batch_commands(const ptodb_cli *cli)
{
    int status;
    session *s = startup_session(cli, NULL, NULL, &status);
    if (!s)
        return status;
    int code = session_error_count(s) ? PTODB_EXIT_USAGE
               : session_failed_validations(s) ? PTODB_EXIT_VALIDATION_FAILED
                                                 : PTODB_EXIT_OK;
    session_free(s);
    return code;
}

/* A --batch killed while writing --json or --save-outputs leaves neither a
 * partial file (see atomic_file) nor its temporary file. */
static void on_fatal_signal(int sig)
{
    atomic_file_remove_pending();
    signal(sig, SIG_DFL);
    raise(sig);
}

int mode_batch(const ptodb_cli *cli)
{
    if (cli->given[OPT_EX] || cli->given[OPT_COMMAND_FILE]) {
        if (!ptodb_cli_case_path(cli, "--batch"))
            return PTODB_EXIT_USAGE;
        return batch_commands(cli);
    }
    const char *path = ptodb_cli_case_path(cli, "--batch");
    if (!path)
        return PTODB_EXIT_USAGE;
    batch_options bo;
    memset(&bo, 0, sizeof bo);
    if (parse_run_options(cli, &bo.ro.mopt) != 0)
        return PTODB_EXIT_USAGE;
    case_options copt;
    memset(&copt, 0, sizeof copt);
    if (ptodb_cli_tolerances(cli, &copt) != 0)
        return PTODB_EXIT_USAGE;
    bo.jobs = default_jobs();
    long long jobs;
    int given = ptodb_cli_int(cli, OPT_JOBS, "a number", 1, 256, &jobs);
    if (given < 0)
        return PTODB_EXIT_USAGE;
    if (given)
        bo.jobs = (int)jobs;
    bo.save_dir = ptodb_cli_value(cli, OPT_SAVE_OUTPUTS);
    if (bo.save_dir && ptodb_check_output_dir("--save-outputs", bo.save_dir) != 0)
        return PTODB_EXIT_USAGE;
    bo.metrics = cli->given[OPT_METRICS] > 0;
    bo.heatmap = cli->given[OPT_HEATMAP] > 0;
    int stop_at_first = cli->given[OPT_STOP_AT_FIRST] > 0;
    int want_bisect = cli->given[OPT_BISECT] > 0;
    if (stop_at_first && want_bisect) {
        fprintf(stderr, "ptodb: --stop-at-first and --bisect do not go together\n");
        return PTODB_EXIT_USAGE;
    }
    const char *json_path = ptodb_cli_value(cli, OPT_JSON);
    /* written beside its name and renamed when complete: a run that is
     * killed leaves the old file (or none), never an empty one */
    atomic_file json_file = {0};
    FILE *json = NULL;
    int json_stdout = json_path && strcmp(json_path, "-") == 0;
    if (json_path && !json_stdout && atomic_file_open(&json_file, json_path) != 0) {
        fprintf(stderr, "ptodb: --json: cannot write %s: %s\n", json_path, strerror(errno));
        return PTODB_EXIT_USAGE;
    }
    json = json_file.f;
    signal(SIGTERM, on_fatal_signal);
    signal(SIGHUP, on_fatal_signal);
    signal(SIGINT, on_fatal_signal);
    /* the JSON owns stdout when it goes there; the text goes to stderr */
    FILE *text = json_stdout ? stderr : stdout;

    double t0 = clock_seconds();
    case_info c;
    if (ptodb_open_case(path, &copt, &c) != 0) {
        if (json)
            atomic_file_abort(&json_file);
        return PTODB_EXIT_USAGE;
    }
    op_fn *ops = xcalloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    bo.ro.ops = ops;
    batch b;
    batch_init(&b, &c, &bo);

    const char *profile = bo.ro.mopt.profile == EXEC_PROFILE_T13 ? "torch1.13" : "torch2";
    fprintf(text, "ptodb --batch %s: %zu passes (%zu distinct files), %zu output%s, profile %s, %d job%s\n", path,
            c.npasses, b.ndistinct, c.noutputs, c.noutputs == 1 ? "" : "s", profile, b.o.jobs,
            b.o.jobs == 1 ? "" : "s");
    strbuf sb = STRBUF_INIT;
    report_header(&b, &sb);
    fputs(strbuf_str(&sb), text);
    strbuf_clear(&sb);
    fflush(text);

    print_ctx pc = {text, bo.metrics, bo.heatmap, stop_at_first, 0, 0};
    bisect_result br;
    int have_bisect = 0;
    if (want_bisect) {
        bisect_options bopt;
        memset(&bopt, 0, sizeof bopt);
        bopt.statement = 1;
        bisect_run(&b, &bopt, &br);
        have_bisect = 1;
        /* every pass the search (and the scan, if any) validated, in order */
        for (size_t i = 0; i < c.npasses; i++)
            if (b.passes[i].status != BATCH_NOT_RUN)
                print_ready(&pc, &b, i);
        if (!br.scanned)
            fprintf(text, "(bisect: %zu of %zu passes validated; the others were not needed)\n", pc.reported,
                    c.npasses);
    } else {
        batch_eval_all(&b, print_ready, &pc);
        if (pc.stopped)
            fprintf(text, "stopped at the first failing pass (--stop-at-first): %zu passes not validated\n",
                    c.npasses - pc.reported);
    }
    double wall = clock_seconds() - t0;
    report_summary(&b, wall, &sb);
    if (have_bisect) {
        strbuf_putc(&sb, '\n');
        bisect_report_text(&b, &br, &sb);
    }
    fputs(strbuf_str(&sb), text);
    fflush(text);
    strbuf_free(&sb);

    report_counts rc;
    report_count(&b, &rc);
    int code = rc.failed ? PTODB_EXIT_VALIDATION_FAILED : PTODB_EXIT_OK;
    for (size_t i = 0; i < c.npasses; i++)
        if (b.passes[i].save_error) {
            fprintf(stderr, "ptodb: --save-outputs: %s\n", b.passes[i].save_error);
            code = PTODB_EXIT_USAGE;
        }
    if (json_path) {
        batch_json_info info = {path, profile, stop_at_first, pc.stopped, wall, code};
        strbuf js = STRBUF_INIT;
        batch_json_write(&b, have_bisect ? &br : NULL, &info, &js);
        FILE *f = json_stdout ? stdout : json;
        if (fwrite(strbuf_str(&js), 1, js.len, f) != js.len || fflush(f) != 0) {
            fprintf(stderr, "ptodb: --json: write error: %s\n", strerror(errno));
            code = PTODB_EXIT_USAGE;
        }
        strbuf_free(&js);
        if (json && atomic_file_commit(&json_file) != 0) {
            fprintf(stderr, "ptodb: --json: cannot write %s: %s\n", json_path, strerror(errno));
            code = PTODB_EXIT_USAGE;
        }
    }
    if (have_bisect)
        bisect_result_free(&br);
    batch_free(&b);
    free(ops);
    case_free(&c);
    return code;
}

/* ptodb --batch PATH: the native replacement for PyPTO's
 * validate_pass_ir_codegen_results. Validates every pass and every output
 * (REF stops at the first failure; --stop-at-first does too), prints REF's
 * lines exactly as --run does, then a summary table; --metrics, --heatmap,
 * --json/--junit/--html FILE and --bisect add to that. Passes run in --jobs
 * worker processes (default: one per core) and are printed in pass order.
 * PATH may also be a folder of cases (PyPTO's build_output/): each is
 * validated in turn, then one line per case and the totals; --shard K/N
 * takes the K-th of N slices of its sorted cases.
 * Exit status: 0 every validated pass passed, 1 some pass failed, 2 input
 * or usage errors (a case that cannot be opened among several). */
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
#include "base/atomic_file.h"
#include "base/strbuf.h"
#include "batch/batch.h"
#include "batch/bisect.h"
#include "batch/json.h"
#include "batch/report.h"
#include "batch/reportdoc.h"
#include "batch/worker_pool.h"
#include "data/case.h"
#include "data/caselist.h"
#include "exec/runpass.h"
#include "modes.h"
#include "startup.h"
#include "debug/state/session.h"
#include "options.h"
#include "report_files.h"

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

/* A --batch killed while writing a report or --save-outputs leaves neither
 * a partial file (see atomic_file) nor its temporary file. */
static void on_fatal_signal(int sig)
{
    atomic_file_remove_pending();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* What every case of a run shares. */
typedef struct batch_run {
    batch_options bo;
    case_options copt;
    op_fn *ops;
    const char *profile;
    int stop_at_first, want_bisect, bisect_scan;
    int locate_statement;   /* without --bisect: locate a failing case's first differing statement anyway
                             * (for --html, and in every report of several cases so that a merge of
                             * shards has it) */
    int want_json;          /* a report file needs the JSON report */
    FILE *text;
} batch_run;

/* --shard K/N: 1 <= K <= N. -1 after a message. */
static int parse_shard(const char *s, int *k, int *n)
{
    char *end;
    errno = 0;
    long kk = strtol(s, &end, 10), nn = 0;
    int ok = end != s && *end == '/' && s[0] >= '0' && s[0] <= '9';
    if (ok) {
        const char *q = end + 1;
        nn = strtol(q, &end, 10);
        ok = end != q && *end == '\0' && q[0] >= '0' && q[0] <= '9' && errno == 0;
    }
    if (!ok || nn < 1 || nn > 1000000) {
        fprintf(stderr, "ptodb: --shard: expected K/N with 1 <= K <= N (for example 2/4), got '%s'\n", s);
        return -1;
    }
    if (kk < 1 || kk > nn) {
        fprintf(stderr, "ptodb: --shard %s: K must be from 1 to %ld\n", s, nn);
        return -1;
    }
    *k = (int)kk;
    *n = (int)nn;
    return 0;
}

/* Validates one case: prints its text report and, when json is not NULL,
 * appends its JSON report. *line gets a one-line summary. Returns the exit
 * status for the case alone (2: it could not be opened). */
static int run_case(const batch_run *r, const char *path, strbuf *json, char **line)
{
    FILE *text = r->text;
    double t0 = clock_seconds();
    case_info c;
    if (ptodb_open_case(path, &r->copt, &c) != 0) {
        if (json) {
            const char *slash = strrchr(path, '/');
            batch_json_error_case(path, slash ? slash + 1 : path,
                                  "the case could not be opened (the diagnostics are on standard error)", json);
        }
        if (line)
            *line = xstrdup("ERROR (the case could not be opened)");
        return PTODB_EXIT_USAGE;
    }
    batch b;
    batch_init(&b, &c, &r->bo);
    size_t nout = c.noutputs;
    for (int k = 0; k < c.ranks.nranks; k++)
        nout += c.rank_data[k].noutputs; /* a multi-rank case: its outputs per rank */
    fprintf(text, "ptodb --batch %s: %zu passes (%zu distinct files), %zu output%s", path, c.npasses, b.ndistinct,
            nout, nout == 1 ? "" : "s");
    if (c.ranks.nranks)
        fprintf(text, " over %d ranks", c.ranks.nranks);
    fprintf(text, ", profile %s, %d job%s\n", r->profile, b.o.jobs, b.o.jobs == 1 ? "" : "s");
    strbuf sb = STRBUF_INIT;
    report_header(&b, &sb);
    fputs(strbuf_str(&sb), text);
    strbuf_clear(&sb);
    fflush(text);

    print_ctx pc = {text, r->bo.metrics, r->bo.heatmap, r->stop_at_first, 0, 0};
    bisect_result br;
    int have_bisect = 0;
    bisect_options bopt;
    memset(&bopt, 0, sizeof bopt);
    bopt.statement = 1;
    bopt.force_scan = r->bisect_scan;
    if (r->want_bisect) {
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
    report_counts rc;
    report_count(&b, &rc);
    if (r->locate_statement && !have_bisect && !pc.stopped && rc.failed) {
        /* every pass is validated: the search reuses their results and
         * only the statement trace runs */
        bisect_run(&b, &bopt, &br);
        have_bisect = 1;
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

    /* a pass file that does not check is an error, counted apart from the
     * failing passes, and the case does not validate either (exit 1) */
    int code = rc.failed || rc.errors ? PTODB_EXIT_VALIDATION_FAILED : PTODB_EXIT_OK;
    for (size_t i = 0; i < c.npasses; i++)
        if (b.passes[i].save_error) {
            fprintf(stderr, "ptodb: --save-outputs: %s\n", b.passes[i].save_error);
            code = PTODB_EXIT_USAGE;
        }
    if (json) {
        batch_json_info info = {path, r->profile, r->stop_at_first, pc.stopped, wall, code};
        batch_json_write(&b, have_bisect ? &br : NULL, &info, json);
    }
    if (line) {
        strbuf l = STRBUF_INIT;
        strbuf_printf(&l, "%s, %zu pass%s: %zu pass, %zu fail", code ? "FAIL" : "PASS", c.npasses,
                      c.npasses == 1 ? "" : "es", rc.passed, rc.failed);
        if (rc.errors)
            strbuf_printf(&l, ", %zu error (does not check)", rc.errors);
        if (rc.not_run)
            strbuf_printf(&l, ", %zu not validated", rc.not_run);
        if (rc.first_failing >= 0)
            strbuf_printf(&l, "; %s: %s", report_first_bad_word(&b, rc.first_failing), c.passes[rc.first_failing].stem);
        *line = strbuf_detach(&l);
    }
    if (have_bisect)
        bisect_result_free(&br);
    batch_free(&b);
    case_free(&c);
    return code;
}

/* --batch DIR over a folder of cases (or --shard of one case). */
static int run_cases(const batch_run *r, const char *dir, int shard_k, int shard_n, int single, strbuf *json)
{
    char **names = NULL;
    long n = single ? 1 : caselist_read(dir, &names);
    if (n < 0) {
        fprintf(stderr, "ptodb: %s: cannot read the folder: %s\n", dir, strerror(errno));
        return PTODB_EXIT_USAGE;
    }
    size_t width = 4, taken = 0;
    char **paths = xcalloc((size_t)n + 1, sizeof *paths);
    char **lines = xcalloc((size_t)n + 1, sizeof *lines);
    char **case_json = xcalloc((size_t)n + 1, sizeof *case_json);
    for (long i = 0; i < n; i++) {
        /* the K-th slice: every N-th case of the sorted list, from the K-th */
        if (shard_n && i % shard_n != shard_k - 1)
            continue;
        strbuf p = STRBUF_INIT;
        if (single)
            strbuf_puts(&p, dir);
        else
            strbuf_printf(&p, "%s%s%s", dir, dir[0] && dir[strlen(dir) - 1] == '/' ? "" : "/", names[i]);
        paths[taken] = strbuf_detach(&p);
        if (strlen(paths[taken]) > width)
            width = strlen(paths[taken]);
        taken++;
    }
    if (shard_n)
        fprintf(r->text, "ptodb --batch %s --shard %d/%d: %zu of %ld case%s\n", dir, shard_k, shard_n, taken, n,
                n == 1 ? "" : "s");
    else
        fprintf(r->text, "ptodb --batch %s: %ld case%s\n", dir, n, n == 1 ? "" : "s");
    int code = PTODB_EXIT_OK;
    size_t passed = 0, failed = 0, errors = 0;
    for (size_t i = 0; i < taken; i++) {
        fputc('\n', r->text);
        strbuf cj = STRBUF_INIT;
        int c = run_case(r, paths[i], r->want_json ? &cj : NULL, &lines[i]);
        case_json[i] = strbuf_detach(&cj);
        passed += c == PTODB_EXIT_OK;
        failed += c == PTODB_EXIT_VALIDATION_FAILED;
        errors += c == PTODB_EXIT_USAGE;
    }
    code = errors ? PTODB_EXIT_USAGE : failed ? PTODB_EXIT_VALIDATION_FAILED : PTODB_EXIT_OK;
    fprintf(r->text, "\ncases:\n");
    for (size_t i = 0; i < taken; i++)
        fprintf(r->text, "%-*s %s\n", (int)width, paths[i], lines[i]);
    fprintf(r->text, "%zu case%s: %zu pass, %zu fail, %zu error\n", taken, taken == 1 ? "" : "s", passed, failed,
            errors);
    fflush(r->text);
    if (json)
        report_cases_json(dir, shard_k, shard_n, case_json, taken, json);
    for (long i = 0; i < n; i++)
        free(names ? names[i] : NULL);
    for (size_t i = 0; i < taken; i++) {
        free(paths[i]);
        free(lines[i]);
        free(case_json[i]);
    }
    free(names);
    free(paths);
    free(lines);
    free(case_json);
    return code;
}

int mode_batch(const ptodb_cli *cli)
{
    /* main.c refused the options --batch does not take (options.h): the
     * schedule's files are --run's and the debugger's, for instance */
    if (cli->given[OPT_EX] || cli->given[OPT_COMMAND_FILE]) {
        if (!ptodb_cli_case_path(cli, "--batch"))
            return PTODB_EXIT_USAGE;
        return batch_commands(cli);
    }
    const char *path = ptodb_cli_case_path(cli, "--batch");
    if (!path)
        return PTODB_EXIT_USAGE;
    batch_run r;
    memset(&r, 0, sizeof r);
    if (parse_run_options(cli, &r.bo.ro.mopt) != 0)
        return PTODB_EXIT_USAGE;
    if (ptodb_cli_tolerances(cli, &r.copt) != 0)
        return PTODB_EXIT_USAGE;
    if (ptodb_cli_jobs(cli, worker_pool_default_jobs(), &r.bo.jobs) != 0)
        return PTODB_EXIT_USAGE;
    r.bo.save_dir = ptodb_cli_value(cli, OPT_SAVE_OUTPUTS);
    if (r.bo.save_dir && ptodb_check_output_dir("--save-outputs", r.bo.save_dir) != 0)
        return PTODB_EXIT_USAGE;
    r.bo.metrics = cli->given[OPT_METRICS] > 0;
    r.bo.heatmap = cli->given[OPT_HEATMAP] > 0;
    r.stop_at_first = cli->given[OPT_STOP_AT_FIRST] > 0;
    r.want_bisect = cli->given[OPT_BISECT] > 0;
    r.bisect_scan = cli->given[OPT_BISECT_SCAN] > 0;
    if (r.bisect_scan && !r.want_bisect) {
        fprintf(stderr, "ptodb: --bisect-scan goes with --bisect\n");
        return PTODB_EXIT_USAGE;
    }
    if (r.stop_at_first && r.want_bisect) {
        fprintf(stderr, "ptodb: --stop-at-first and --bisect do not go together\n");
        return PTODB_EXIT_USAGE;
    }
    int shard_k = 0, shard_n = 0;
    if (ptodb_cli_value(cli, OPT_SHARD) && parse_shard(ptodb_cli_value(cli, OPT_SHARD), &shard_k, &shard_n) != 0)
        return PTODB_EXIT_USAGE;
    report_files rf;
    if (report_files_parse(cli, &rf) != 0)
        return PTODB_EXIT_USAGE;
    r.want_json = report_files_wanted(&rf);
    /* a report on stdout owns it; the text goes to stderr */
    r.text = rf.to_stdout ? stderr : stdout;
    r.profile = r.bo.ro.mopt.profile == EXEC_PROFILE_T13 ? "torch1.13" : "torch2";
    const char *order = ptodb_cli_value(cli, OPT_COMM_ORDER);
    if (order && strcmp(order, "program") != 0 && strcmp(order, "ready") != 0) {
        fprintf(stderr, "ptodb: --comm-order: expected program or ready, got '%s'\n", order);
        return PTODB_EXIT_USAGE;
    }
    r.ops = xcalloc(IR_OP_COUNT, sizeof *r.ops);
    exec_ops_init(r.ops);
    signal(SIGTERM, on_fatal_signal);
    signal(SIGHUP, on_fatal_signal);
    signal(SIGINT, on_fatal_signal);
    r.bo.ro.ops = r.ops;
    r.bo.ro.strict_ref = cli->given[OPT_STRICT_REF] > 0;
    r.bo.ro.comm_ready_order = order && strcmp(order, "ready") == 0;

    int many = caselist_is_folder_of_cases(path);
    r.locate_statement = rf.html || (r.want_json && (many || shard_n));
    strbuf json = STRBUF_INIT;
    int code;
    if (many || shard_n)
        code = run_cases(&r, path, shard_k, shard_n, !many, r.want_json ? &json : NULL);
    else
        code = run_case(&r, path, r.want_json ? &json : NULL, NULL);
    /* a single case that cannot be opened writes no report (as before) */
    if (r.want_json && (many || shard_n || code != PTODB_EXIT_USAGE) && report_files_write(&rf, &json) != 0)
        code = PTODB_EXIT_USAGE;
    strbuf_free(&json);
    free(r.ops);
    return code;
}

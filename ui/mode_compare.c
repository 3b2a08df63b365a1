/* ptodb --compare A B: two builds of one program in lockstep
 * (src/batch/compare.h). The text report goes to standard output (to
 * standard error when --json or --html is "-"). Exit status as --batch: 0
 * the builds agree on every aligned pass and every pass validates on both
 * sides, 1 some pass differs, fails validation or is in one build only, 2
 * input or usage errors. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/atomic_file.h"
#include "base/mem.h"
#include "base/status.h"
#include "base/strbuf.h"
#include "batch/compare.h"
#include "data/case.h"
#include "exec/runpass.h"
#include "modes.h"
#include "options.h"
#include "report_files.h"

int mode_compare(const ptodb_cli *cli);

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void on_fatal_signal(int sig)
{
    atomic_file_remove_pending();
    signal(sig, SIG_DFL);
    raise(sig);
}

int mode_compare(const ptodb_cli *cli)
{
    if (cli->npaths != 2) {
        fprintf(stderr, "ptodb: --compare takes two build folders (A, the reference, then B), got %d path%s\n",
                cli->npaths, cli->npaths == 1 ? "" : "s");
        return PTODB_EXIT_USAGE;
    }
    runpass_options ro;
    memset(&ro, 0, sizeof ro);
    machine_options_init(&ro.mopt);
    if (parse_run_options(cli, &ro.mopt) != 0)
        return PTODB_EXIT_USAGE;
    ro.strict_ref = cli->given[OPT_STRICT_REF] > 0;
    case_options copt;
    memset(&copt, 0, sizeof copt);
    if (ptodb_cli_tolerances(cli, &copt) != 0)
        return PTODB_EXIT_USAGE;
    report_files rf;
    if (report_files_parse(cli, &rf) != 0)
        return PTODB_EXIT_USAGE;
    FILE *text = rf.to_stdout ? stderr : stdout;
    case_info a, b;
    if (ptodb_open_case(cli->paths[0], &copt, &a) != 0)
        return PTODB_EXIT_USAGE;
    if (ptodb_open_case(cli->paths[1], &copt, &b) != 0) {
        case_free(&a);
        return PTODB_EXIT_USAGE;
    }
    op_fn *ops = xcalloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    ro.ops = ops;
    ro.mopt.interrupt = &interrupted;
    signal(SIGINT, on_interrupt);
    signal(SIGTERM, on_fatal_signal);
    signal(SIGHUP, on_fatal_signal);

    compare_result r;
    compare_run(&a, &b, &ro, &r);
    strbuf sb = STRBUF_INIT;
    compare_report_text(&a, &b, &r, &sb);
    fputs(strbuf_str(&sb), text);
    fflush(text);
    int code = r.interrupted ? PTODB_EXIT_USAGE : compare_all_same(&r) ? PTODB_EXIT_OK : PTODB_EXIT_VALIDATION_FAILED;
    if (rf.json) {
        strbuf_clear(&sb);
        compare_report_json(&a, &b, &r, &sb);
        if (report_file_write("json", rf.json, &sb) != 0)
            code = PTODB_EXIT_USAGE;
    }
    if (rf.html) {
        strbuf_clear(&sb);
        compare_report_html(&a, &b, &r, &sb);
        if (report_file_write("html", rf.html, &sb) != 0)
            code = PTODB_EXIT_USAGE;
    }
    strbuf_free(&sb);
    compare_result_free(&r);
    free(ops);
    case_free(&a);
    case_free(&b);
    return code;
}

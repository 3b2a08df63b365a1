/* ptodb: option parsing and dispatch to a mode. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "base/mem.h"
#include "base/number.h"
#include "base/status.h"
#include "tensor/tensor.h"
#include "modes.h"
#include "options.h"

int mode_info(const ptodb_cli *cli); /* ui/mode_info.c */
int mode_repl(const ptodb_cli *cli); /* ui/repl.c */
int mode_tui(const ptodb_cli *cli); /* ui/tui/mode_tui.c */
int mode_check(const ptodb_cli *cli); /* ui/mode_check.c */
int mode_print(const ptodb_cli *cli); /* ui/mode_print.c */
int mode_run(const ptodb_cli *cli);   /* ui/mode_run.c */
int mode_list_ops(const ptodb_cli *cli); /* ui/mode_list_ops.c */
int mode_list_semantics(const ptodb_cli *cli); /* ui/mode_list_semantics.c */
int mode_batch(const ptodb_cli *cli); /* ui/mode_batch.c */
int mode_merge(const ptodb_cli *cli); /* ui/mode_merge.c */
int mode_compare(const ptodb_cli *cli); /* ui/mode_compare.c */
int mode_reduce(const ptodb_cli *cli); /* ui/mode_reduce.c */
int mode_dap(const ptodb_cli *cli);   /* ui/dap/mode_dap.c */

/* Modes in priority order: the first whose option was given runs. */
static const struct {
    ptodb_option_id option;
    ptodb_mode mode;
    ptodb_mode_fn run;
} mode_table[] = {
    {OPT_DAP, PTODB_MODE_DAP, mode_dap},
    {OPT_DAP_PORT, PTODB_MODE_DAP, mode_dap},
    {OPT_INFO, PTODB_MODE_INFO, mode_info},
    {OPT_CHECK, PTODB_MODE_CHECK, mode_check},
    {OPT_PRINT, PTODB_MODE_PRINT, mode_print},
    {OPT_MERGE_REPORTS, PTODB_MODE_MERGE, mode_merge},
    {OPT_LIST_OPS, PTODB_MODE_LIST_OPS, mode_list_ops},
    {OPT_LIST_SEMANTICS, PTODB_MODE_LIST_SEMANTICS, mode_list_semantics},
    {OPT_COMPARE, PTODB_MODE_COMPARE, mode_compare},
    {OPT_BATCH, PTODB_MODE_BATCH, mode_batch},
    {OPT_RUN, PTODB_MODE_RUN, mode_run},
    {OPT_COUNT, PTODB_MODE_COUNT, NULL}, /* sentinel; modes are added above it */
};

/* The full-screen interface when both ends are a terminal (or a screen
 * test feeds it keys through PTODB_TUI_SCRIPT), unless --nw. */
static int want_tui(const ptodb_cli *cli)
{
    if (cli->given[OPT_NW])
        return 0;
    const char *script = getenv("PTODB_TUI_SCRIPT");
    if (script && *script)
        return 1;
    return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

/* --compare A B without --batch (or a report file) on a terminal: the TUI
 * with A open and `compare B` run, the two builds side by side. */
static int compare_in_tui(const ptodb_cli *cli)
{
    return cli->npaths == 2 && !cli->given[OPT_BATCH] && !cli->given[OPT_JSON] && !cli->given[OPT_HTML] &&
           !cli->given[OPT_JUNIT] && want_tui(cli);
}

static void print_version(void)
{
    printf("ptodb %s\n", PACKAGE_VERSION);
}

int main(int argc, char **argv)
{
    ptodb_tune_allocator();
    ptodb_cli cli;
    if (ptodb_cli_parse(&cli, argc, argv) != 0)
        return PTODB_EXIT_USAGE;

    int status = PTODB_EXIT_OK;
    const char *max_bytes = ptodb_cli_value(&cli, OPT_MAX_TENSOR_BYTES);
    if (max_bytes) {
        uint64_t limit;
        if (parse_byte_size(max_bytes, 1, (uint64_t)1 << 62, &limit) != 0) {
            fprintf(stderr, "ptodb: --max-tensor-bytes: expected a number of bytes from 1 to 4611686018427387904 "
                            "(2^62; suffix K, M, G or T allowed), got '%s'\n", max_bytes);
            ptodb_cli_free(&cli);
            return PTODB_EXIT_USAGE;
        }
        tensor_set_max_bytes(limit);
    }
    if (cli.given[OPT_HELP]) {
        ptodb_cli_print_help(stdout);
    } else if (cli.given[OPT_VERSION]) {
        print_version();
    } else {
        /* the mode: the first mode option given, reduce's command word, else the debugger */
        size_t chosen = 0;
        while (mode_table[chosen].run && !cli.given[mode_table[chosen].option])
            chosen++;
        ptodb_mode mode = mode_table[chosen].mode;
        ptodb_mode_fn run = mode_table[chosen].run;
        if (!run && cli.npaths >= 1 && strcmp(cli.paths[0], "reduce") == 0) {
            /* `ptodb reduce CASE ...`: a command word, not a case (./reduce is
             * one; so is reduce after a mode option: --batch reduce) */
            cli.paths++;
            cli.npaths--;
            mode = PTODB_MODE_REDUCE;
            run = mode_reduce;
        } else if (!run) {
            mode = PTODB_MODE_DEBUGGER;
            run = want_tui(&cli) ? mode_tui : mode_repl;
        } else if (mode == PTODB_MODE_COMPARE && compare_in_tui(&cli)) {
            mode = PTODB_MODE_COMPARE_TUI;
            run = mode_tui;
        } else if (mode == PTODB_MODE_BATCH && (cli.given[OPT_EX] || cli.given[OPT_COMMAND_FILE])) {
            mode = PTODB_MODE_BATCH_EX;
        }
        /* an option the mode would ignore is refused, not ignored */
        status = ptodb_cli_check_mode(&cli, mode) != 0 ? PTODB_EXIT_USAGE : run(&cli);
    }
    ptodb_cli_free(&cli);
    return status;
}

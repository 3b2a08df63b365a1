/* ptodb --print FILE: parse a dump and print it back from the AST in the
 * canonical raw printer form (a ruff-formatted dump comes out raw). */
#include "config.h"

#include <stdio.h>

#include "base/diag.h"
#include "base/status.h"
#include "base/strbuf.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "modes.h"
#include "options.h"

int mode_print(const ptodb_cli *cli);

enum { PRINT_MAX_ERRORS = 20 };

int mode_print(const ptodb_cli *cli)
{
    const char *path = ptodb_cli_value(cli, OPT_PRINT);
    diag_sink sink;
    diag_sink_init(&sink, PRINT_MAX_ERRORS);
    ptodb_status status;
    ir_module *m = ir_parse_file(path, &sink, &status);
    int rc = PTODB_EXIT_OK;
    if (status != PTODB_OK) {
        diag_sink_print(&sink, stderr, 1);
        rc = PTODB_EXIT_USAGE;
    } else {
        strbuf out = STRBUF_INIT;
        ir_print_module(m, &out);
        if (fwrite(out.data, 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
            fprintf(stderr, "ptodb: --print: cannot write the output\n");
            rc = PTODB_EXIT_USAGE;
        }
        strbuf_free(&out);
    }
    ir_module_free(m);
    diag_sink_free(&sink);
    return rc;
}

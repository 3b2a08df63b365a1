/* ptodb --list-ops: the op catalogue table (exec/op_catalogue.h). */
#include "config.h"

#include <stdio.h>

#include "base/status.h"
#include "base/strbuf.h"
#include "exec/op_catalogue.h"
#include "modes.h"
#include "options.h"

int mode_list_ops(const ptodb_cli *cli);

int mode_list_ops(const ptodb_cli *cli)
{
    (void)cli;
    strbuf out = STRBUF_INIT;
    exec_op_catalogue_print(&out);
    fputs(strbuf_str(&out), stdout);
    strbuf_free(&out);
    return PTODB_EXIT_OK;
}

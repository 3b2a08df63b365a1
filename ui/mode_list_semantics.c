/* ptodb --list-semantics: the table of device/ref differences (exec/semantics.h). */
#include "config.h"

#include <stdio.h>

#include "base/status.h"
#include "base/strbuf.h"
#include "exec/semantics.h"
#include "modes.h"
#include "options.h"

int mode_list_semantics(const ptodb_cli *cli);

int mode_list_semantics(const ptodb_cli *cli)
{
    (void)cli;
    strbuf out = STRBUF_INIT;
    exec_semantics_list(&out);
    fputs(strbuf_str(&out), stdout);
    strbuf_free(&out);
    return PTODB_EXIT_OK;
}

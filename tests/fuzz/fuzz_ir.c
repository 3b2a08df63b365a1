/* Fuzzes the dump lexer, parser, resolver and printer on any bytes
 * (ir_parse on a memory buffer, as ir_parse_file does after reading). */
#include "fuzz.h"

#include <stdlib.h>

#include "base/strbuf.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/resolve.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    diag_sink sink;
    diag_sink_init(&sink, 20);
    ptodb_status st;
    ir_module *m = ir_parse("fuzz.py", (const char *)data, size, &sink, &st);
    if (m && st == PTODB_OK && ir_resolve(m, &sink) == PTODB_OK) {
        strbuf out = STRBUF_INIT;
        ir_print_module(m, &out); /* the printer walks every node */
        strbuf_free(&out);
    }
    free(diag_sink_error_text(&sink)); /* formats every message and caret line */
    ir_module_free(m);
    diag_sink_free(&sink);
    return 0;
}

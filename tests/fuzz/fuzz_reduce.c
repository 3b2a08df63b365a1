/* Fuzzes reduce's transformations (src/batch/reduce_edit.c) on any bytes:
 * the input is parsed as a dump; every unit of every transformation is
 * listed and applied alone, then all of one kind at once. Whatever a unit
 * does, what comes back must be a module that parses again and reprints
 * byte for byte (the reducer relies on it), never a crash. */
#include "fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "batch/reduce_edit.h"
#include "ir/parse.h"
#include "ir/print.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

static void check_text(const char *t)
{
    diag_sink sink;
    diag_sink_init(&sink, 1);
    ptodb_status st;
    ir_module *m = ir_parse("again.py", t, strlen(t), &sink, &st);
    if (st != PTODB_OK)
        abort(); /* reduce_apply returned a text that does not parse */
    strbuf out = STRBUF_INIT;
    ir_print_module(m, &out);
    if (strcmp(strbuf_str(&out), t) != 0)
        abort(); /* nor reprints */
    strbuf_free(&out);
    ir_module_free(m);
    diag_sink_free(&sink);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 20000)
        return 0; /* every unit is applied: quadratic in the statements */
    diag_sink sink;
    diag_sink_init(&sink, 5);
    ptodb_status st;
    ir_module *m = ir_parse("fuzz.py", (const char *)data, size, &sink, &st);
    if (m && st == PTODB_OK && m->program) {
        (void)reduce_count_statements(m);
        for (int k = 0; k < REDUCE_KIND_COUNT; k++) {
            size_t n;
            reduce_unit *u = reduce_units(m, m, (reduce_kind)k, &n);
            for (size_t i = 0; i < n && i < 64; i++) {
                int changed;
                if (k == REDUCE_CONST_TILE)
                    u[i].literal = i % 2 ? "-1.5" : "0";
                char *t = reduce_apply(m, &u[i], 1, &changed);
                if (t)
                    check_text(t);
                free(t);
                strbuf p = STRBUF_INIT, v = STRBUF_INIT;
                if (k == REDUCE_RECORD) {
                    (void)reduce_record_names(m, &u[i], &p, &v);
                    (void)reduce_record_is_call(m, &u[i]);
                }
                strbuf_free(&p);
                strbuf_free(&v);
            }
            int changed;
            char *t = n ? reduce_apply(m, u, n, &changed) : NULL;
            if (t)
                check_text(t);
            free(t);
            reduce_units_free(u, n);
        }
    }
    ir_module_free(m);
    diag_sink_free(&sink);
    return 0;
}

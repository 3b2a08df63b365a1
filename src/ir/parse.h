/* The lexer and parser of PyPTO pass dumps (ir-format.md §2 - §6).
 *
 * Accepts the raw printer form and the ruff-formatted form (§1.3), with
 * Python's indentation, implicit joining inside brackets and backslash
 * continuation. Never crashes on any bytes: NUL bytes, invalid UTF-8, a
 * megabyte-long line, 10,000 nested brackets all give diagnostics. Nesting
 * deeper than IR_MAX_DEPTH (brackets, blocks or expression recursion) is an
 * error rather than a C stack overflow. Errors are reported at the first
 * bad token and parsing resumes at the next statement; the sink's cap
 * (diag_sink_init) limits how many are kept.
 */
#ifndef PTODB_IR_PARSE_H
#define PTODB_IR_PARSE_H

#include <stddef.h>

#include "base/diag.h"
#include "base/status.h"
#include "ir/ast.h"

enum {
    IR_MAX_DEPTH = 200 /* brackets + expression recursion + blocks */
};

/* Parses len bytes of src (need not be NUL-terminated; it is copied). path
 * names the file in diagnostics. Always returns a module (possibly partial);
 * *status is PTODB_OK or PTODB_ERR_SYNTAX. Free with ir_module_free. */
ir_module *ir_parse(const char *path, const char *src, size_t len, diag_sink *sink,
                    ptodb_status *status);

/* Reads and parses a file; I/O errors go to the sink (status PTODB_ERR_IO). */
ir_module *ir_parse_file(const char *path, diag_sink *sink, ptodb_status *status);

void ir_module_free(ir_module *m);

#endif

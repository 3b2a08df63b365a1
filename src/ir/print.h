/* The printer: writes a module in PyPTO's canonical raw printer form
 * (ir-format.md §1.3, left column), from the AST, not from the source
 * text. Printing the parse of a raw dump gives it back byte for byte, and
 * printing the parse of a ruff-formatted dump gives its raw twin. */
#ifndef PTODB_IR_PRINT_H
#define PTODB_IR_PRINT_H

#include "base/strbuf.h"
#include "ir/ast.h"

void ir_print_module(const ir_module *m, strbuf *out);
/* One expression / statement (at indentation level 0), for debuggers. */
void ir_print_expr(const ir_expr *e, strbuf *out);
void ir_print_stmt(const ir_stmt *s, int indent, strbuf *out);

#endif

/* The op catalogue as a table for people: every op of ops.def with whether
 * ptodb implements it, where its semantics come from, whether REF
 * (torch_codegen) has a handler, and the test that covers it. One printer
 * behind `ptodb --list-ops`, the REPL's `info ops` and docs/ops.md. */
#ifndef PTODB_EXEC_OP_CATALOGUE_H
#define PTODB_EXEC_OP_CATALOGUE_H

#include "base/strbuf.h"
#include "exec/op.h"

/* 1 when ptodb runs op: through the op table or in the lowering itself. */
int exec_op_implemented(const op_fn *table, int op);

/* Appends the table (one op a line, sorted by IR name) and a summary. */
void exec_op_catalogue_print(strbuf *out);

#endif

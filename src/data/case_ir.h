/* The entry function of a dump and its parameters as case_param records,
 * read with the dump parser (src/ir). Kept apart from case.c so that case
 * discovery itself does not depend on the parser. */
#ifndef PTODB_DATA_CASE_IR_H
#define PTODB_DATA_CASE_IR_H

#include "data/case.h"

typedef struct case_entry {
    char *name;
    char *program; /* the @pl.program class name, or NULL */
    case_param *params; /* names owned (cast away const to free) */
    size_t nparams;
} case_entry;

/* Parses dump_path and picks the entry as REF does (semantics.md §7.2):
 * want (a manifest's entry) when given; else the only function; else the
 * first Orchestration function in byte-wise name order. Parameter types are
 * decoded from their annotations (pl.Tensor/pl.Tile[[dims], pl.DTYPE, ...],
 * pl.Scalar[pl.DTYPE]); dtypes REF stores as float32 (FP8, FP4, HF*, ...)
 * become DTYPE_FP32, dynamic dims -1. Errors go to sink. */
ptodb_status case_entry_from_dump(const char *dump_path, const char *want, case_entry *out,
                                  diag_sink *sink);
/* The host orchestrator of a multi-rank program: the first function, in
 * file order, whose decorator says level=pl.Level.HOST (what PyPTO's
 * distributed runner calls, with the full host tensors). */
ptodb_status case_host_entry_from_dump(const char *dump_path, case_entry *out, diag_sink *sink);
void case_entry_free(case_entry *e);

#endif

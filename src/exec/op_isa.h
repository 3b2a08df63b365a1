/* The PTO instruction each op lowers to (PyPTO e2d0f78ae's codegen,
 * src/backend/common/pto_ops_*.cpp) and whether ptodb's device semantics
 * of the op are checked against pto-isa's CPU simulator
 * (tests/unit/check_ops_isa_oracle.c, data by scripts/gen_isa_expected):
 * the ISA column of `ptodb --list-ops` and docs/ops.md. */
#ifndef PTODB_EXEC_OP_ISA_H
#define PTODB_EXEC_OP_ISA_H

/* 1 when op lowers to a PTO instruction: *instr is its name ("TADD") and
 * *unchecked NULL when the oracle checks the op, else the reason in one
 * word ("bf16", "sync", "pending", ...). 0 when it lowers to none. */
int exec_op_isa(int op, const char **instr, const char **unchecked);

#endif

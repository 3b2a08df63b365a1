/* The resolver/checker: binds the names of a parsed module (ast.h) so that
 * an interpreter needs no string work.
 *
 * After ir_resolve() returns PTODB_OK:
 *  - every function has func->nslots slots: parameters are slots
 *    0 .. nparams-1 in order, then every other name bound anywhere in the
 *    body (assignment and yield targets, loop variables, iter-args,
 *    "with ... as NAME") in order of first appearance. Names are
 *    function-wide, as in Python (ir-format.md §5.2): a name bound inside a
 *    loop is the same slot after it.
 *  - every ir_target and ir_param has .slot set;
 *  - every NAME expression has res = {IR_REF_LOCAL, slot}, {IR_REF_DYN,
 *    index into program->dyns}, {IR_REF_FLOATCONST} for inf/nan (u.num.f
 *    holds the value) or, for a callee in pl.submit(self.f, ...), FUNC;
 *  - every CALL has res = {IR_REF_OP, ir_op_id}, {IR_REF_CALL, function
 *    index} for self.f(...), or {IR_REF_BUILTIN, ir_builtin_id};
 *  - every enum constant (pl.FP32, pl.Mem.Vec, pl.adir.input, ...) has
 *    res = {IR_REF_ENUM, ir_enum_value};
 *  - type heads (pl.Tensor in pl.Tensor[...]) have res = {IR_REF_TYPE,
 *    ir_builtin_id}.
 *
 * Errors reported (each "path:line:col: error: ..."): undefined name,
 * unknown op, wrong number of positional arguments for an op, a builtin or a
 * self.f call, call of an unknown program function, duplicate function,
 * parameter or pl.dynamic declaration, and x__FREE_VAR names (a use that
 * no definition in scope reaches: broken IR, ir-format.md §6.4). Names inside type
 * annotations that are bound nowhere are not errors: they become free
 * symbolic dimensions (§3.1), appended to program->dyns with declared = 0.
 * In a SubWorker function at HOST level or above, whose body may be verbatim
 * Python (§3.3), unbound names and unknown plain functions are accepted and
 * left unresolved (res.kind IR_REF_NONE).
 */
#ifndef PTODB_IR_RESOLVE_H
#define PTODB_IR_RESOLVE_H

#include <stddef.h>

#include "base/diag.h"
#include "base/status.h"
#include "ir/ast.h"

/* ---- the op catalogue (ops.def) ---- */

typedef enum {
#define IR_OP(id, name, fam, lo, hi, src, ref, test) IR_OP_##id,
#include "ir/ops.def"
#undef IR_OP
    IR_OP_COUNT
} ir_op_id;

#define IR_OPFAM_LIST(X)                                                          \
    X(TENSOR) X(TILE) X(SYSTEM) X(ARRAY) X(PREFETCH) X(PLD_SYSTEM) X(PLD_TENSOR) \
    X(PLD_TILE) X(BUILTIN_TENSOR) X(DIST) X(TEST)

typedef enum {
#define IR_OPFAM_ENUM(f) IR_OPFAM_##f,
    IR_OPFAM_LIST(IR_OPFAM_ENUM)
#undef IR_OPFAM_ENUM
    IR_OPFAM_COUNT
} ir_op_family;

/* Where an op's semantics come from (ops.def's SEMANTICS column). */
#define IR_OPSRC_LIST(X) X(NONE, "-") X(TORCH, "torch_codegen") X(ISA, "pto-isa") X(HAND, "hand")

typedef enum {
#define IR_OPSRC_ENUM(id, label) IR_OPSRC_##id,
    IR_OPSRC_LIST(IR_OPSRC_ENUM)
#undef IR_OPSRC_ENUM
    IR_OPSRC_COUNT
} ir_op_source;

typedef struct ir_op_info {
    const char *name;    /* IR name: "tile.add", "pld.tensor.window" */
    ir_op_family family;
    int min_args, max_args; /* printed positional arguments */
    ir_op_source source;    /* where ptodb's semantics come from; NONE: not implemented */
    int ref;                /* torch_codegen has a handler */
    const char *tested_by;  /* file under tests/ exercising it, "" when none */
} ir_op_info;

/* The catalogue entry of an op id; NULL when out of range. */
const ir_op_info *ir_op_info_get(int id);
/* The op id of an IR name (len bytes), or -1. */
int ir_op_lookup(const char *name, size_t len);
const char *ir_op_family_name(ir_op_family fam);
/* The families that need several ranks (pld.*, dist.*, the builtin.tensor
 * collectives): left for a later issue (docs/ops.md). */
int ir_op_family_multi_rank(ir_op_family fam);
/* "torch_codegen", "pto-isa", "hand" or "-". */
const char *ir_op_source_name(ir_op_source src);

/* ---- builtins (builtins.def) ---- */

typedef enum {
#define IR_BUILTIN(id, name, lo, hi) IR_BUILTIN_##id,
#include "ir/builtins.def"
#undef IR_BUILTIN
    IR_BUILTIN_COUNT
} ir_builtin_id;

/* The printed name ("pl.range") of a builtin; NULL when out of range. */
const char *ir_builtin_name(int id);
/* The builtin id of a printed name, or -1. */
int ir_builtin_lookup(const char *name, size_t len);
/* Positional-argument limits of a builtin call (-1: not checked). */
void ir_builtin_arity(int id, int *lo, int *hi);

/* ---- enum constants (enums.def) ---- */

#define IR_ENUM_GROUP_LIST(X)                                                        \
    X(DTYPE) X(MEM) X(TENSOR_LAYOUT) X(TILE_LAYOUT) X(PAD_VALUE) X(COMPACT_MODE)    \
    X(PIPE_TYPE) X(ATOMIC_TYPE) X(SPLIT_MODE) X(FUNCTION_TYPE) X(LEVEL) X(ROLE)     \
    X(SCOPE_MODE) X(ADIR)

typedef enum {
#define IR_ENUM_GROUP_ENUM(g) IR_EG_##g,
    IR_ENUM_GROUP_LIST(IR_ENUM_GROUP_ENUM)
#undef IR_ENUM_GROUP_ENUM
    IR_EG_COUNT
} ir_enum_group;

typedef enum {
#define IR_ENUM(g, v, full, name) IR_EV_##g##_##v,
#include "ir/enums.def"
#undef IR_ENUM
    IR_EV_COUNT
} ir_enum_value;

typedef struct ir_enum_info {
    ir_enum_group group;
    const char *printed; /* "pl.Mem.Vec" */
    const char *name;    /* "Vec" */
} ir_enum_info;

const ir_enum_info *ir_enum_info_get(int value);
/* The enum value of a printed name ("pl.FP32"), or -1. */
int ir_enum_lookup(const char *printed, size_t len);

/* ---- the resolver ---- */

/* Resolves and checks module m (parsed without errors). Diagnostics go to
 * sink; returns PTODB_OK, or PTODB_ERR_RESOLVE after at least one error (the
 * module is then only partly annotated). Sets m->resolved on success. */
ptodb_status ir_resolve(ir_module *m, diag_sink *sink);

/* Parses and resolves the dump at path, reporting into sink; what --check,
 * --info and every pass load mean by "the file checks". */
ptodb_status ir_check_file(const char *path, diag_sink *sink);

#endif

/* The executable form of a resolved module (ast.h + resolve.h), built once
 * per pass file by exec_program_build: every function becomes a flat array
 * of instructions with jumps (no tree walk over statements at run time),
 * expressions become small trees whose leaves are slot indices and
 * constants, op calls carry their op_fn, kwarg names are exec_kw ids, type
 * annotations are exec_type, and calls between program functions are
 * function indices. Nothing in the instruction loop looks at a string.
 *
 * Control flow (semantics.md §5): for/range/parallel/unroll/pipeline become
 *     FOR_INIT (iter-arg inits, bounds) ; head: FOR_NEXT (exit) ; body ;
 *     YIELD (sequential assignment to the iter-args) ; JUMP head ;
 *     exit: COPY iter-args -> the yield's targets
 * pl.while_ the same with BRANCH(cond) as head; if with return vars is
 * BRANCH / JUMP with the branch yields assigning the targets directly;
 * with-scopes are transparent; spmd / split_aiv "for" scopes bind their
 * variable (block 0, the current lane) and run the body once.
 * Calls of program functions are hoisted out of expressions into CALL
 * instructions that write the statement's target or a hidden temp slot. */
#ifndef PTODB_EXEC_PROGRAM_H
#define PTODB_EXEC_PROGRAM_H

#include <stdint.h>

#include "base/diag.h"
#include "base/status.h"
#include "exec/op.h"
#include "exec/value.h"
#include "ir/ast.h"

typedef enum {
    XE_CONST,  /* cval */
    XE_SLOT,   /* id = slot */
    XE_DYN,    /* id = program dyn index */
    XE_OP,     /* id = ir_op_id, fn, args, kw */
    XE_BIN,    /* op = ir_binop (not and/or), args[0..1] */
    XE_AND,    /* Python and/or: short circuit, returns an operand */
    XE_OR,
    XE_UN,     /* op = ir_unop, args[0] */
    XE_MIN,    /* builtin min/max: returns one operand */
    XE_MAX,
    XE_ABS,
    XE_CAST,   /* pl.cast(x, dtype): x.to(dtype); id = ir dtype enum */
    XE_TUPLE,  /* list / tuple literal */
    XE_INDEX,  /* args[0][id] */
    XE_LANE,   /* the current core's lane (split_aiv loop variable) */
    XE_SYSREC, /* a pipe-setup or tfree op: None, recorded as state (id = op;
                  cval.u.i packs dir_mask/slot_size/slot_num constants) */
    XE_MANUAL_SCOPE, /* a manual scope is entered (exec/tasks.h): None */
    XE_FAIL    /* msg: evaluating this fails (REF would fail, unsupported) */
} xexpr_kind;

typedef struct xexpr xexpr;
struct xexpr {
    uint8_t kind;
    uint8_t op;
    uint8_t ref_fail; /* XE_FAIL: 1 = REF would fail here too */
    /* XE_SLOT: the slot's value is dead after this statement (no later
     * instruction reads it before writing it): with machine_options
     * reuse_dead the machine moves the value out of the slot (leaving it
     * unbound) into the op's argument, so the op may write its result into
     * that operand's buffer. Set only on the operands of an op that
     * exec_op_reuses_dead_operand accepts, at the top of an assignment whose
     * arguments are all slots or constants (see mark_dead_operands). */
    uint8_t dead_after;
    int32_t id;
    const ir_expr *src; /* for error locations */
    value cval;
    op_fn fn;
    const exec_type *rtype; /* XE_OP at the top of an annotated assignment */
    xexpr **args;
    uint32_t nargs;
    xexpr **kw;
    uint8_t *kw_ids;
    uint32_t nkw;
    const char *msg;
};

typedef enum {
    XI_ASSIGN,   /* slots[0] = e ; check types[0] */
    XI_EXPR,     /* evaluate e */
    XI_CALL,     /* callee(vals...) -> slots[0] (when nslots == 1) */
    XI_RETURN,   /* return vals */
    XI_JUMP,     /* pc = target */
    XI_BRANCH,   /* if not truthy(e): pc = target */
    XI_FOR_INIT, /* slots = iter-args <- init (sequential); loop bounds from vals[0..2] */
    XI_FOR_NEXT, /* loop: next value -> slots[0] (or -1), else pc = target */
    XI_YIELD,    /* slots[i] = vals[i], sequentially */
    XI_COPY,     /* slots2[i] = slots[i] */
    XI_FAIL,     /* fails with msg when reached */
    /* a CORE_GROUP scope of a host function holding a pl.split_aiv region
     * (device semantics: it runs on two AIV lanes, as OutlineIncoreScopes
     * makes it an InCore kernel; under ref, and on a lane, both are no-ops) */
    XI_FORK,     /* target = its XI_JOIN: the lanes start at pc + 1, the host goes on after the JOIN */
    XI_JOIN      /* a lane of the fork finishes here */
} xinst_kind;

/* XCALL_SUBMIT: pl.submit(self.f, ...): runs f as a call under device
 * semantics, binding (f's outputs..., TaskId); under ref it fails with msg. */
typedef enum { XCALL_DIRECT, XCALL_GROUP, XCALL_SPLIT_AIV, XCALL_SUBMIT } xcall_mode;

typedef struct xinst {
    uint8_t kind;
    uint8_t is_stmt; /* a user-visible statement: the step API stops after it */
    uint8_t call_mode;
    uint8_t ref_fail;
    uint8_t spmd;    /* FOR_INIT/FOR_NEXT of an SPMD launch (pl.spmd, core_num=): the loop
                        runs once per block under device semantics, once under ref */
    const ir_stmt *stmt;   /* location (the for header for FOR_*) */
    xexpr *e;
    xexpr **vals;
    uint32_t nvals;
    int32_t *slots;
    uint32_t nslots;
    int32_t *slots2;
    const exec_type *types;    /* per slot (ASSIGN/CALL/YIELD/COPY targets), may be NULL */
    const char *const *names;  /* REF's sanitised names, per slot */
    /* XI_YIELD with one annotated target: that annotation, for the memory
     * model only (REF's yields are plain bindings, unchecked: not types) */
    const exec_type *yield_type;
    int32_t target;
    int32_t loop;   /* loop state index for FOR_*; a for's XI_YIELD: its loop's; the XI_CALL of a
                       pl.spmd_submit: its launch's (its blocks are one task); else -1 */
    int32_t callee; /* function index; for groups the Group function */
    xexpr *device;  /* CALL with device=: a host dispatch to that device (exec/comm.h), else NULL */
    xexpr *pred;    /* XCALL_SUBMIT with predicate=: the task runs only when it holds, else NULL */
    /* ASSIGN of a tile whose TileView(valid_shape=[...]) has a symbolic
     * extent: one expression per dim (NULL where the extent is a literal,
     * which types[0].mem_valid holds), evaluated under device semantics
     * before the op runs; NULL when every extent is a literal */
    xexpr **valid_x;
    const char *msg;
    /* XCALL_SUBMIT: its deps= entries, and whether it is inside a manual
     * scope (pl.scope(mode=pl.ScopeMode.MANUAL)), for the race check */
    xexpr **deps;
    uint32_t ndeps;
    uint8_t manual;
} xinst;

/* A group call's metadata (semantics.md §6.1). */
typedef struct xgroup_info {
    int32_t aic, aiv; /* function indices of G_aic / G_aiv */
    int split;        /* 0..4 */
    int dual;         /* dual_aiv_dispatch */
    int lanes;        /* 1 or 2 */
    int slot_num;     /* slot_num of the pipes' initialize ops, 0 when absent */
    const char *conflict; /* non-NULL: REF fails at codegen with this message */
} xgroup_info;

/* A Group function as the device launches it (any Group, paired or not):
 * its callees found by type as PyPTO's FindGroupCallees does, and where
 * their calls are in its code. */
typedef struct xgroup_dev {
    int32_t aic, aiv;      /* first AIC-typed / AIV-typed callee, or -1 */
    int32_t aic_pc, aiv_pc; /* their XI_CALLs (results bound there), or -1 */
    int32_t first_pc;      /* the first AIC/AIV/InCore call: the launch's arguments */
    int32_t resume_pc;     /* after the last of those calls: where the body goes on */
} xgroup_dev;

typedef struct xdyn_bind {
    int32_t dyn;   /* program dyn index */
    int32_t param; /* parameter index */
    int32_t axis;
    /* how the axis's extent E gives the symbol (PyPTO's host codegen,
     * InvertShapeDimForVar, distributed_codegen.cpp:385-452): the axis is
     * the bare symbol (E), var + c (E - c), var - c (E + c), c - var
     * (c - E), var * c (E // c) or var // c (E * c) */
    enum { XDYN_BARE, XDYN_MINUS_C, XDYN_PLUS_C, XDYN_C_MINUS, XDYN_DIV_C, XDYN_MUL_C } how;
    int64_t c;
} xdyn_bind;

/* The hash of a slot's name (xfunc.slot_by_name). */
static inline uint64_t exec_name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h ^ (h >> 29);
}

typedef struct xfunc {
    const ir_func *src;
    const char *name;
    int32_t index;
    int32_t type;          /* ir_enum_value of FunctionType, or -1 (Opaque/none) */
    uint32_t nparams;
    uint32_t nslots;       /* resolver slots + temps */
    uint32_t nloops;
    exec_type *param_types;
    const char **slot_names; /* sanitised, per slot (NULL for temps) */
    /* the first resolver slot of each name (src->slot_names' text), by
     * exec_name_hash: index + 1, 0 an empty entry; slot_by_name_cap a
     * power of two, 0 when the function has no slots (inspect_find_slot) */
    uint32_t *slot_by_name;
    uint32_t slot_by_name_cap;
    xinst *code;
    uint32_t ncode;
    xdyn_bind *dyn_binds;  /* pl.dynamic symbols bound from the parameters' shapes */
    int dyn_device_only;   /* an InCore kernel: bound under device semantics only */
    uint32_t ndyn_binds;
    int split_aiv;         /* func_attr "split_aiv": True */
    int sync_events;       /* holds system.sync_set/sync_wait: cross-core events
                              the machine runs as no-ops (the GM race check
                              does not order by them, so it skips the cores
                              of a block of such a kernel: exec/gmrace.h) */
    int region_any;        /* holds a pl.split_aiv region (any mode, shards or not) */
    int attr_split;        /* func_attr split (0 when absent) */
    int attr_dual;         /* func_attr dual_aiv_dispatch */
    unsigned split_mask;   /* split= codes of the tpush/tpop ops in its body (bit per code) */
    int slot_num;          /* the largest slot_num= of its initialize_pipe ops, 0 when none */
    xgroup_info group;     /* valid when is_group */
    int is_group;
    xgroup_dev dev;        /* type Group: its launch under device semantics (dev.aic/aiv -1: none) */
} xfunc;

typedef struct xprogram {
    const ir_module *mod;
    const char *path;
    xfunc *funcs;
    uint32_t nfuncs;
    uint32_t ndyns;
    int32_t entry;           /* entry function index (§7.2 step 2), -1 if none */
    char *entry_error;       /* why there is no entry (REF's ValueError text) */
    char *codegen_error;     /* REF's codegen failure (unsupported op, split conflict), or NULL */
    char *unrunnable;        /* why ptodb cannot run the first op neither runs, or NULL */
    const ir_expr *unrunnable_at;
    const ir_expr *codegen_error_at;
    int uses_ptodb_only_ops; /* 1: REF lacks a handler for an op ptodb implements (aiv_shard, sin, ...): REF cannot run it, ptodb can; -1: some op neither runs */
    int codegen_conflict;    /* codegen_error is a group's conflicting split kwargs: the device runs it (each pipe op with its split) */
    struct xarena *arena;
} xprogram;

/* Lowers m (resolved) with the op table (exec_ops_init). Errors that make
 * the program unusable go to sink ("path:line:col: error: ..."); REF's
 * codegen failures are recorded in codegen_error and reported by the run. */
ptodb_status exec_program_build(const ir_module *m, const op_fn *ops, xprogram **out,
                                diag_sink *sink);
void exec_program_free(xprogram *p);

/* The function index of a name, or -1. */
int exec_program_find(const xprogram *p, const char *name);
/* 1 for the ops the lowering runs itself rather than through the op table
 * (REF's no-op system ops: sync, barriers, pipe setup, tfree). */
int exec_program_runs_op(int op);

/* Lowers a type annotation (pl.Tensor[...], pl.Tile[...], pl.Scalar[...]). */
void exec_type_lower(const ir_expr *annot, exec_type *out);

/* "pl.Tensor[[16, 64], pl.FP32]" -> REF's torch dtype name etc. helpers. */
const char *exec_torch_dtype_name(dtype_id dt);

#endif

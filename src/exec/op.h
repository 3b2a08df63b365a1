/* The contract between the machine (which evaluates statements) and the op
 * implementations (one file per family, src/exec/ops_<family>.c).
 *
 * The machine evaluates an op call's positional and keyword arguments to
 * values, then calls the op's function, bound at load time through the table
 * that exec_ops_init fills (no string work per call). An op:
 *   - reads its arguments (op_arg / op_kw), never keeps pointers to them;
 *   - writes its result to *out (VAL_NONE for ops REF evaluates to None);
 *   - returns PTODB_OK, PTODB_BLOCKED (a cross-core pop on an empty queue:
 *     the machine suspends the core and re-runs the whole statement later;
 *     the op must not have changed anything observable), or an error status
 *     after calling exec_fail with a one-line message; the machine adds
 *     file:line:col, function and op name;
 *   - calls exec_note_write for every tensor it mutates in place (store
 *     destination, assemble target, write container, scatter input), so
 *     watchpoints and race checks see writes.
 * Numerics follow semantics.md (REF = PyTorch CPU as torch_codegen runs it),
 * under the torch profile exec_profile(ctx) returns. */
#ifndef PTODB_EXEC_OP_H
#define PTODB_EXEC_OP_H

#include <stdint.h>

#include "base/status.h"
#include "exec/value.h"
#include "ir/resolve.h"
#include "tensor/tensor.h"

/* Keyword arguments ops read. The machine maps each kwarg name to one of
 * these at load time; a name not listed is EXEC_KW_OTHER (REF ignores it). */
#define EXEC_KWARG_LIST(X)                                                         \
    X(DTYPE, "dtype") X(TARGET_TYPE, "target_type") X(OUT_DTYPE, "out_dtype")      \
    X(VALUE, "value") X(A_TRANS, "a_trans") X(B_TRANS, "b_trans")                  \
    X(SPLIT, "split") X(LANE_STRIDE, "lane_stride") X(PAD_VALUE, "pad_value")      \
    X(CMP_TYPE, "cmp_type") X(ATOMIC, "atomic") X(MODE, "mode") X(AXIS, "axis")   \
    X(KEEP_DIM, "keep_dim") X(DIM, "dim") X(ID, "id")                              \
    X(TARGET_MEMORY, "target_memory") X(LAYOUT, "layout") X(SHAPE, "shape")        \
    X(VALID_SHAPE, "valid_shape") X(INIT_VALUE, "init_value") X(SCRATCH, "scratch") \
    X(HIGH_PRECISION, "high_precision") X(ACC_PHASE, "acc_phase")                  \
    X(C_MATRIX_NZ, "c_matrix_nz") X(TRANSPOSE, "transpose")                        \
    X(DESCENDING, "descending") X(UPPER, "upper")                                  \
    X(COALESCE, "coalesce") X(GATHER_OOB, "gather_oob")                            \
    X(MASK_PATTERN, "mask_pattern") X(OUTPUT_DTYPE, "output_dtype")                \
    X(EXHAUSTED, "exhausted") X(ROUNDS, "rounds") X(CMP_MODE, "cmp_mode")          \
    X(OFFSET, "offset") X(OUT_COLS, "out_cols") X(COUNT_DTYPE, "count_dtype")      \
    X(BLOCK_SIZE, "block_size") X(SIZE, "size") X(MAX_INDICES, "max_indices")      \
    X(COL_OFF, "col_off") X(IS_TRANS, "is_trans")                                  \
    X(OP, "op") X(CMP, "cmp") X(ROOT, "root") X(DEVICE, "device")                 \
    X(BY_DEFINITION, " by definition") /* set by the lowering, never in a dump */

typedef enum {
#define EXEC_KW_ENUM(id, name) EXEC_KW_##id,
    EXEC_KWARG_LIST(EXEC_KW_ENUM)
#undef EXEC_KW_ENUM
    EXEC_KW_OTHER,
    EXEC_KW_COUNT
} exec_kw;

/* The kwarg id of a name, EXEC_KW_OTHER when unknown. */
exec_kw exec_kw_lookup(const char *name);
const char *exec_kw_name(exec_kw kw);

/* What an IR type annotation says (pl.Tensor[[64, 64], pl.FP32],
 * pl.Tile[[16, 1], pl.BF16, pl.Mem.Vec, ...], pl.Scalar[pl.INDEX]), lowered
 * once at load time. Ops that depend on the declared result type (tensor.view
 * with one argument reads the layout) get it through op_args.result_type. */
typedef enum {
    EXEC_TYPE_UNKNOWN = 0,
    EXEC_TYPE_TENSOR,
    EXEC_TYPE_TILE,
    EXEC_TYPE_SCALAR,
    EXEC_TYPE_TUPLE,
    EXEC_TYPE_OTHER /* Ptr, ... : never checked */
} exec_type_kind;

typedef struct exec_type {
    uint8_t kind;        /* exec_type_kind */
    int32_t ir_dtype;    /* ir_enum_value of the dtype, or -1 */
    dtype_id dtype;      /* the torch storage dtype REF uses (semantics.md §1.1) */
    int ndim;            /* -1 when unknown */
    int64_t dims[TENSOR_MAX_DIMS]; /* -1 for a dynamic (symbolic) dim */
    int32_t layout;      /* ir_enum_value of TensorLayout (ND/DN/NZ), or -1 */
    /* A tile's pl.MemRef(base, offset, size) and its pl.Mem.<space>, from
     * InitMemRef on (src/memory places the tile there; docs/memory.md):
     * mem_space -1 when the type has none (a tensor, or before InitMemRef). */
    int8_t mem_space;    /* mem_space of memory/soc.h, or -1 */
    const char *mem_base; /* the MemRef's id (mem_vec_3), borrowed from the module */
    int64_t mem_offset;  /* bytes: an address from AllocateMemoryAddr on */
    int64_t mem_size;
    /* pl.TileView(valid_shape=[...]): the elements the device touches, -1
     * for a dim that is not a literal (then the value's own valid shape) */
    int mem_valid_ndim;  /* 0: none */
    int64_t mem_valid[TENSOR_MAX_DIMS];
    /* pl.TileView(blayout=, slayout=): mem_layout of memory/memmap.h, 0
     * when the type does not say */
    int8_t mem_blayout, mem_slayout;
} exec_type;

typedef enum { EXEC_PROFILE_T2 = 0, EXEC_PROFILE_T13 = 1 } exec_profile_id;

typedef struct op_args {
    int op;                   /* ir_op_id */
    const value *pos;         /* positional arguments, IR order */
    uint32_t npos;
    const uint8_t *kw_ids;    /* exec_kw of each keyword argument */
    const value *kw;          /* their values */
    uint32_t nkw;
    const exec_type *result_type; /* the assignment's annotation, or NULL */
} op_args;

/* Positional argument i, or NULL when absent. */
static inline const value *op_arg(const op_args *a, uint32_t i)
{
    return i < a->npos ? &a->pos[i] : (const value *)0;
}

/* The keyword argument kw, or NULL when absent. */
static inline const value *op_kw(const op_args *a, exec_kw kw)
{
    for (uint32_t i = 0; i < a->nkw; i++)
        if (a->kw_ids[i] == kw)
            return &a->kw[i];
    return (const value *)0;
}

/* The machine's side of a call, opaque to ops. */
typedef struct exec_ctx exec_ctx;

/* Records the error message of the failing op and returns st. */
ptodb_status exec_fail(exec_ctx *ctx, ptodb_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Tells the machine that an op mutated t in place. */
void exec_note_write(exec_ctx *ctx, tensor *t);
/* Tells the machine that the op just ran by its definition where REF
 * raises at run time (tile.maximums with a Scalar variable holding a
 * Python number): REF cannot run the file. The machine keeps the first
 * such message with the op's location (machine_ref_note). */
void exec_note_ref_cannot_run(exec_ctx *ctx, const char *msg);
exec_profile_id exec_profile(const exec_ctx *ctx);
/* The current core's lane (tile.get_subblock_idx): 0 for AIC, host and lane 0. */
int exec_lane(const exec_ctx *ctx);
/* 1 under device semantics (the default), 0 under --semantics=ref
 * (exec/semantics.h). */
int exec_device(const exec_ctx *ctx);
/* The running SPMD block (get_block_idx) and its launch's width
 * (get_block_num): 0 and 1 outside a launch and under ref. */
int64_t exec_block_idx(const exec_ctx *ctx);
int64_t exec_block_num(const exec_ctx *ctx);
/* Tells the machine that the op computed, under device semantics, what REF
 * does not (difference id of semantics.h; msg static): the first of each
 * kind is reported with the op's location (machine_ref_differs). */
void exec_note_ref_differs(exec_ctx *ctx, int id, const char *msg);
/* Tells the machine that the op read (write 0), wrote (1) or atomically
 * added into (2) the elements of view v of global memory (tile.load's
 * window, tile.store's region), for the task race check (exec/tasks.h) and
 * the cores' (exec/gmrace.h). */
void exec_note_gm_access(exec_ctx *ctx, const tensor *v, int write);
/* A multi-rank op that runs a tile op on a window and reports the access
 * itself (exec/comm.h note_access) pauses the machine's gm hook around it. */
void exec_gm_hook_pause(exec_ctx *ctx, int paused);

/* The multi-rank world of this machine (exec/comm.h), NULL in a
 * single-rank run. */
struct exec_comm;
const struct exec_comm *exec_comm_of(const exec_ctx *ctx);
/* The op waits on something outside the machine's queues (a signal cell of
 * a window): it returns PTODB_BLOCKED right after this call, and the core
 * re-runs the statement the next time it is scheduled. what is shown by
 * the debugger ("pld.system.wait"). */
void exec_block_external(exec_ctx *ctx, const char *what);
/* The line and column of the statement running (0 when unknown). */
void exec_stmt_loc(const exec_ctx *ctx, int *line, int *col);

typedef ptodb_status (*op_fn)(exec_ctx *ctx, const op_args *a, value *out);

/* Fills table[IR_OP_COUNT] with every implemented op (NULL = unsupported:
 * the machine reports "unsupported op" at load or when reached). */
void exec_ops_init(op_fn *table);

/* 1 for the ops that may write their result into an operand that dies at
 * the statement (machine_options.reuse_dead; program.c marks the operands,
 * the op checks at run time that nothing else holds the tensor or its
 * storage): the plain binary ops (ops_elementwise.c) and the unary ones
 * (ops_unary.c), each family saying which of its ops do (ops.c). */
int exec_op_reuses_dead_operand(int op);
int exec_elementwise_reuses_dead_operand(int op);
int exec_unary_reuses_dead_operand(int op);

/* One registration function per family file. */
void exec_ops_register_elementwise(op_fn *table); /* ops_elementwise.c: §3.1, §3.2, §3.4 */
void exec_ops_register_unary(op_fn *table);       /* ops_unary.c: §3.3 incl. cast */
void exec_ops_register_reduce(op_fn *table);      /* ops_reduce.c: §3.5 */
void exec_ops_register_matmul(op_fn *table);      /* ops_matmul.c: §3.6 */
void exec_ops_register_memory(op_fn *table);      /* ops_memory.c: §3.7 create/full/load/store/move/read/write/dim */
void exec_ops_register_shape(op_fn *table);       /* ops_shape.c: §3.8 slice/reshape/transpose/view/concat/assemble/fillpad/scatter */
void exec_ops_register_xcore(op_fn *table);       /* xcore_ops.c: §3.9, §3.11 aiv_shard/aic_gather (the machine's) */
void exec_ops_register_isa(op_fn *table);         /* ops_isa.c: ops REF lacks, from the PTO ISA */
void exec_ops_register_random(op_fn *table);      /* ops_random.c: TRANDOM */
void exec_ops_register_comm(op_fn *table);        /* ops_comm.c: the multi-rank ops (pld.*, builtin.tensor.*) */
void exec_ops_register_gather_forms(op_fn *table); /* ops_gather_forms.c: gatherb, compare/mask/paged forms */
void exec_ops_register_array(op_fn *table);       /* ops_array.c: PyPTO's stack-local arrays */
void exec_ops_register_prefetch(op_fn *table);    /* ops_prefetch.c: L2 prefetch (no data effect) */
void exec_ops_register_matmul_mx(op_fn *table);   /* ops_matmul_mx.c: MX block-scale matmul (Ascend950) */
void exec_ops_register_task(op_fn *table);        /* ops_task.c: system.task_* TaskId handles */

#endif

/* Shared machinery of the op families (ops_*.c): argument access, torch dtype
 * promotion (semantics.md §1.4), broadcasting, Python slicing, the
 * elementwise engine (binary, where, unary) and torch-style assignment
 * (setitem / +=) used by store and assemble.
 *
 * Every function that can fail calls exec_fail itself and returns the
 * status, so op implementations just propagate it. Nothing here keeps state
 * between calls. One file per section: kernel_args.c (names, arguments),
 * kernel_dtype.c (dtypes), kernel_shape.c (shapes), kernel_copy.c (data
 * movement), kernel_element.c (Python scalar -> element),
 * kernel_elementwise.c (the elementwise engine); kernel_walk.h is their
 * private broadcast walk. */
#ifndef PTODB_EXEC_KERNEL_UTIL_H
#define PTODB_EXEC_KERNEL_UTIL_H

#include <stdint.h>

#include "exec/op.h"

/* Largest element count one op result may have: hostile shapes must fail
 * cleanly long before xmalloc would die (also bounds our scratch buffers). */
#define KERNEL_MAX_ELEMS ((int64_t)1 << 28)

/* ---- names -------------------------------------------------------------- */

/* torch's ScalarType name ("Float", "BFloat16", "Long", ...). */
const char *kernel_torch_type_name(dtype_id dt);
/* The op's IR name for messages ("tile.add"). */
const char *kernel_op_name(const op_args *a);

/* ---- arguments ---------------------------------------------------------- */

/* Python's type name of a value for messages ("int", "float", "Tensor"). */
const char *kernel_value_type_name(const value *v);
/* Positional argument i as a tensor (borrowed). Fails when missing or not a
 * tensor: "tile.add: argument 1 must be a tensor, got int". */
ptodb_status kernel_tensor_arg(exec_ctx *ctx, const op_args *a, uint32_t i, tensor **out);
/* Positional argument i, failing when absent. */
ptodb_status kernel_any_arg(exec_ctx *ctx, const op_args *a, uint32_t i, const value **out);
/* A list of ints (offsets, shapes) from v: a tuple of numbers; a single
 * number counts as a one-element list. Fails on anything else. */
ptodb_status kernel_int_list(exec_ctx *ctx, const op_args *a, const value *v, const char *what,
                             int64_t *out, int *n);
/* A Python int from v (int() semantics: truncating floats, 0-d tensors). */
ptodb_status kernel_int(exec_ctx *ctx, const op_args *a, const value *v, const char *what,
                        int64_t *out);
/* The dtype keyword kw, or dflt when absent (REF's _kw_dtype: float32). */
ptodb_status kernel_dtype_kw(exec_ctx *ctx, const op_args *a, exec_kw kw, dtype_id dflt,
                             dtype_id *out, int *present);
/* An integer keyword (bool/int/enum ordinal accepted), dflt when absent. */
int64_t kernel_int_kw(const op_args *a, exec_kw kw, int64_t dflt);

/* Dims >= 0 and every contiguous stride representable (no overflow even
 * for empty shapes such as [0, 2^62, 8]). */
int kernel_shape_ok(int nd, const int64_t *shape);
/* A new zero-filled tensor; fails (with a message) on a bad or huge shape. */
ptodb_status kernel_zeros(exec_ctx *ctx, dtype_id dt, int nd, const int64_t *shape, tensor **out);

/* "[2, 3]" */
void kernel_fmt_shape(int nd, const int64_t *shape, char *buf, size_t size);

/* The 2-D region an ISA op reads or writes: the tile's valid shape when it
 * carries one (clipped to the tile), else the whole 2-D tile. */
void kernel_valid_2d(const tensor *t, int64_t *rows, int64_t *cols);

/* ---- dtypes ------------------------------------------------------------- */

/* torch.promote_types for the dtypes REF stores (bool < ints < floats;
 * int8+uint8 -> int16, bf16+fp16 -> fp32). */
dtype_id kernel_promote(dtype_id a, dtype_id b);
/* The torch dtype REF holds a dt tensor as (uint16 -> int32, uint32, uint64
 * and index -> int64): the one promotion rule's view of a single operand,
 * shared with the machine's scalar arithmetic (scalar.c). */
dtype_id kernel_ref_dtype(dtype_id dt);
/* torch.can_cast(from, to): category may not go down (float -> int, int ->
 * bool fail). */
int kernel_can_cast(dtype_id from, dtype_id to);
/* The value a float dtype holds for v: f32 RNE, then bf16/f16 RNE
 * (double rounding through f32 exactly as dtype_store). */
double kernel_round_to(dtype_id dt, double v);
/* v wrapped to the width of integer dtype dt (two's complement); bool 0/1. */
int64_t kernel_wrap_int(dtype_id dt, int64_t v);
int kernel_is_floatish(dtype_id dt); /* float dtypes */

/* Operand classes of torch's result_type: a tensor with dims, a 0-d tensor,
 * a Python number ("wrapped number"). */
typedef enum { KOPND_DIM, KOPND_ZERO, KOPND_NUMBER } kernel_opnd_class;

typedef struct kernel_opnd {
    const tensor *t;   /* the tensor (DIM and ZERO), NULL for a number */
    kernel_opnd_class cls;
    dtype_id dt;       /* the tensor's dtype; BOOL/INT64/FP64 for numbers */
    int is_int;        /* number or 0-d value is integral: use i */
    double f;          /* scalar value (ZERO and NUMBER) */
    int64_t i;
} kernel_opnd;

/* Classifies a tensor operand (a 0-d one as a number). */
void kernel_opnd_of_tensor(const tensor *t, kernel_opnd *o);
/* Classifies v; fails when v is not a tensor or a number. */
ptodb_status kernel_opnd_from_value(exec_ctx *ctx, const op_args *a, const value *v,
                                    kernel_opnd *o);
/* torch.result_type over n operands (semantics.md §1.4 rules 1-4). */
dtype_id kernel_result_type(const kernel_opnd *o, int n);

/* ---- shapes ------------------------------------------------------------- */

/* numpy broadcasting of n shapes; fails with torch's message. */
ptodb_status kernel_broadcast(exec_ctx *ctx, int n, const int *nds, const int64_t *const *shapes,
                              int *ond, int64_t *oshape);
/* Python slice(start, stop) on a dim of size n: the first index and the
 * length (negative values wrap once, then clip). */
void kernel_pyslice(int64_t n, int64_t start, int64_t stop, int64_t *first, int64_t *len);
/* The view t[s0:e0, s1:e1, ...] for k leading dims (Python slice rules,
 * stop = start + size). k > t->ndim fails with REF's IndexError. */
ptodb_status kernel_slice_view(exec_ctx *ctx, const tensor *t, int k, const int64_t *start,
                               const int64_t *size, tensor **out);
/* The same with slice(0, stop) per dim. */
ptodb_status kernel_head_view(exec_ctx *ctx, const tensor *t, int k, const int64_t *stop,
                              tensor **out);

/* Two int lists (shapes, valid shapes) equal in length and values. */
int kernel_same_dims(int n1, const int64_t *a1, int n2, const int64_t *a2);
/* Sets t's valid_shape (nv dims) and full shape (nf dims) attributes. */
void kernel_set_valid_full(tensor *t, int nv, const int64_t *v, int nf, const int64_t *f);

/* ---- data movement ------------------------------------------------------ */

/* Gathers t broadcast to (nd, shape) into buf as doubles / int64s (row-major).
 * t must broadcast (checked by the caller). */
void kernel_gather_f64(const tensor *t, int nd, const int64_t *shape, double *buf);
void kernel_gather_i64(const tensor *t, int nd, const int64_t *shape, int64_t *buf);
/* The same as floats (exact for every float dtype but fp64). */
void kernel_gather_f32(const tensor *t, int nd, const int64_t *shape, float *buf);
/* Writes n values to a contiguous tensor's elements with dtype_store. */
void kernel_store_f64(tensor *t, const double *buf, int64_t n);
/* The same from floats (already f32-rounded): copied, or rounded to bf16/fp16. */
void kernel_store_f32(tensor *t, const float *buf, int64_t n);
void kernel_store_i64(tensor *t, const int64_t *buf, int64_t n);

/* dst[...] = src (torch setitem/copy_: src broadcast to dst's shape, any
 * dtype, overlap-safe), or dst += src when accumulate (computed in
 * promote(dst, src), cast back; fails like torch when it cannot be cast).
 * Calls no exec_note_write: the caller knows which tensor it mutated. */
ptodb_status kernel_assign(exec_ctx *ctx, const op_args *a, tensor *dst, const tensor *src,
                           int accumulate);
/* A zeros tensor of shape (nd, shape) and dtype of src with src assigned into
 * its corner [0:src.shape) (REF's zero-padding copy). */
ptodb_status kernel_pad_copy(exec_ctx *ctx, const op_args *a, const tensor *src, int nd,
                             const int64_t *shape, tensor **out);

/* REF's store/assemble (semantics.md §3.7): dst[o:o+v] = src[0:v], or +=
 * when atomic, with v the source's valid attr (default: its shape) paired
 * with the offsets by zip; calls exec_note_write(dst). Lives in
 * ops_memory.c. */
ptodb_status kernel_store_region(exec_ctx *ctx, const op_args *a, tensor *src, tensor *dst,
                                 const value *offv, int atomic);

/* ---- Python scalar -> element (semantics.md §1.3) ----------------------- */

/* Converts a number (or 0-d tensor) to an element of dt with torch's
 * overflow check ("value cannot be converted to type at::BFloat16 without
 * overflow"). Sets *f (float dtypes) or *i (int/bool dtypes). */
ptodb_status kernel_checked_scalar(exec_ctx *ctx, const op_args *a, const value *v, dtype_id dt,
                                   double *f, int64_t *i);
/* Fills every element of t (any strides) with one value. */
void kernel_fill(tensor *t, double f, int64_t i);

/* ---- elementwise engine ------------------------------------------------- */

typedef enum {
    KOP_ADD, KOP_SUB, KOP_MUL, KOP_DIV, KOP_MAX, KOP_MIN, KOP_FMOD, KOP_REM,
    KOP_AND, KOP_OR, KOP_XOR, KOP_SHL, KOP_SHR,
    KOP_EQ, KOP_NE, KOP_LT, KOP_LE, KOP_GT, KOP_GE
} kernel_binop;

/* torch's binary op on two operands (tensors or numbers): broadcasting,
 * promotion, opmath rounding once, scalar narrowing per profile. */
ptodb_status kernel_binary(exec_ctx *ctx, const op_args *a, kernel_binop op, const value *x,
                           const value *y, tensor **out);
/* The same, writing the result into x's or y's tensor when one of them is
 * owned by this call alone (its only reference is the argument: the
 * machine moved it out of a slot where it was dead, see
 * machine_options.reuse_dead; its storage is its own malloc'd buffer, not
 * shared with a view or a mapped input) and is contiguous with the
 * result's dtype and shape. Every operand element is read before the
 * result element of the same index is written, so the values are those of
 * kernel_binary; the reused tensor loses its valid/full attributes like a
 * fresh result. */
ptodb_status kernel_binary_reuse(exec_ctx *ctx, const op_args *a, kernel_binop op, const value *x,
                                 const value *y, tensor **out);
/* The same on tensors. */
ptodb_status kernel_binary_t(exec_ctx *ctx, const op_args *a, kernel_binop op, const tensor *x,
                             const tensor *y, tensor **out);
/* torch.where(mask, x, y). */
ptodb_status kernel_where(exec_ctx *ctx, const op_args *a, const value *mask, const value *x,
                          const value *y, tensor **out);

typedef enum {
    KUN_NEG, KUN_EXP, KUN_LOG, KUN_SQRT, KUN_RSQRT, KUN_RECIP, KUN_ABS, KUN_RELU, KUN_NOT,
    KUN_SIN, KUN_COS /* REF has no handler: torch.sin/cos by definition (docs/ops.md) */
} kernel_unop;

ptodb_status kernel_unary(exec_ctx *ctx, const op_args *a, kernel_unop op, const tensor *x,
                          tensor **out);
/* The same, writing the result into x under kernel_binary_reuse's rule. */
ptodb_status kernel_unary_reuse(exec_ctx *ctx, const op_args *a, kernel_unop op, const tensor *x,
                                tensor **out);

#endif

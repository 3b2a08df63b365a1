/* The numeric kernels under the op families (src/kernels/, a floor below
 * exec that knows no machine, no op_args and no values): torch dtype
 * promotion (semantics.md §1.4), broadcasting, Python slicing, the
 * elementwise engine (binary, where, unary) and torch-style assignment
 * (setitem / +=) used by store and assemble.
 *
 * Every function that can fail takes a kernel_call: the calling op's name
 * for messages and the torch profile in, the first failure's status and
 * message out (kernels_fail), and returns the status. exec's op side
 * (exec/op_util.h) turns that into exec_fail with the same text. Nothing
 * here keeps state between calls. One file per section: kernel_call.c
 * (kernel_call, names, zeros), kernel_dtype.c (dtypes), kernel_shape.c
 * (shapes), kernel_copy.c (data movement), kernel_element.c (scalar ->
 * element), kernel_elementwise.c (the elementwise engine); kernel_walk.h is
 * their private broadcast walk. */
#ifndef PTODB_KERNELS_KERNEL_UTIL_H
#define PTODB_KERNELS_KERNEL_UTIL_H

#include <stdint.h>

#include "base/status.h"
#include "tensor/tensor.h"

/* Largest element count one op result may have: hostile shapes must fail
 * cleanly long before xmalloc would die (also bounds our scratch buffers). */
#define KERNEL_MAX_ELEMS ((int64_t)1 << 28)

/* ---- the caller ---------------------------------------------------------- */

/* Longer than any message a kernel writes (two formatted shapes of at most
 * 160 bytes each, an op name and a sentence). */
#define KERNEL_MSG_MAX 1024

/* What a fallible kernel needs from its caller and what it hands back. The
 * caller sets op and t13 and clears failed (kernel_call_init); the first
 * kernels_fail fills status and msg, later ones are ignored (as exec_fail). */
typedef struct kernel_call {
    const char *op;    /* the op's IR name for messages ("tile.add") */
    int t13;           /* torch 1.13 numerics (--ref=torch1.13), else torch 2 */
    int device;        /* device semantics (exec_device): the PTO instruction's arithmetic */
    int differs;       /* set by a kernel whose device result is not REF's (its caller says how) */
    int failed;
    ptodb_status status;
    char msg[KERNEL_MSG_MAX];
} kernel_call;

static inline void kernel_call_init(kernel_call *k, const char *op, int t13)
{
    k->op = op;
    k->t13 = t13;
    k->device = 0;
    k->differs = 0;
    k->failed = 0;
    k->status = PTODB_OK;
    k->msg[0] = '\0';
}

/* Records the first failure's message and returns st. */
ptodb_status kernels_fail(kernel_call *k, ptodb_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- names -------------------------------------------------------------- */

/* torch's ScalarType name ("Float", "BFloat16", "Long", ...). */
const char *kernel_torch_type_name(dtype_id dt);

/* Dims >= 0 and every contiguous stride representable (no overflow even
 * for empty shapes such as [0, 2^62, 8]). */
int kernel_shape_ok(int nd, const int64_t *shape);
/* A new zero-filled tensor; fails (with a message) on a bad or huge shape. */
ptodb_status kernels_zeros(kernel_call *k, dtype_id dt, int nd, const int64_t *shape, tensor **out);

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
/* torch.result_type over n operands (semantics.md §1.4 rules 1-4). */
dtype_id kernel_result_type(const kernel_opnd *o, int n);

/* ---- shapes ------------------------------------------------------------- */

/* numpy broadcasting of n shapes; fails with torch's message. */
ptodb_status kernels_broadcast(kernel_call *k, int n, const int *nds, const int64_t *const *shapes,
                              int *ond, int64_t *oshape);
/* Python slice(start, stop) on a dim of size n: the first index and the
 * length (negative values wrap once, then clip). */
void kernel_pyslice(int64_t n, int64_t start, int64_t stop, int64_t *first, int64_t *len);
/* The view t[s0:e0, s1:e1, ...] for k leading dims (Python slice rules,
 * stop = start + size). k > t->ndim fails with REF's IndexError. */
ptodb_status kernels_slice_view(kernel_call *kc, const tensor *t, int k, const int64_t *start,
                                const int64_t *size, tensor **out);
/* The same with slice(0, stop) per dim. */
ptodb_status kernels_head_view(kernel_call *kc, const tensor *t, int k, const int64_t *stop,
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
/* The same of an INT8 or UINT8 tensor (t's dtype one of them), each value
 * as an int16. */
void kernel_gather_i16(const tensor *t, int nd, const int64_t *shape, int16_t *buf);
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
ptodb_status kernels_assign(kernel_call *k, tensor *dst, const tensor *src, int accumulate);
/* A zeros tensor of shape (nd, shape) and dtype of src with src assigned into
 * its corner [0:src.shape) (REF's zero-padding copy). */
ptodb_status kernels_pad_copy(kernel_call *k, const tensor *src, int nd, const int64_t *shape,
                              tensor **out);

/* ---- Python scalar -> element (semantics.md §1.3) ----------------------- */

/* Converts a number (or 0-d tensor) operand to an element of dt with torch's
 * overflow check ("value cannot be converted to type at::BFloat16 without
 * overflow"). Sets *f (float dtypes) or *i (int/bool dtypes). */
ptodb_status kernels_checked_scalar(kernel_call *k, const kernel_opnd *o, dtype_id dt, double *f,
                                    int64_t *i);
/* Fills every element of t (any strides) with one value. */
void kernel_fill(tensor *t, double f, int64_t i);

/* ---- elementwise engine ------------------------------------------------- */

typedef enum {
    KOP_ADD, KOP_SUB, KOP_MUL, KOP_DIV, KOP_MAX, KOP_MIN, KOP_FMOD, KOP_REM,
    KOP_AND, KOP_OR, KOP_XOR, KOP_SHL, KOP_SHR,
    KOP_EQ, KOP_NE, KOP_LT, KOP_LE, KOP_GT, KOP_GE
} kernel_binop;

/* torch's binary op on two operands o[0], o[1] (tensors or numbers, not
 * two numbers): broadcasting, promotion, opmath rounding once, scalar
 * narrowing per profile. With reuse, the result is written into o[0]'s or
 * o[1]'s tensor when one of them is owned by this call alone (its only
 * reference is the argument: the machine moved it out of a slot where it
 * was dead, see machine_options.reuse_dead; its storage is its own
 * malloc'd buffer, not shared with a view or a mapped input) and is
 * contiguous with the result's dtype and shape. Every operand element is
 * read before the result element of the same index is written, so the
 * values are those without reuse; the reused tensor loses its valid/full
 * attributes like a fresh result. */
ptodb_status kernels_binary(kernel_call *k, kernel_binop op, const kernel_opnd *o, int reuse,
                            tensor **out);
/* torch.where(o[0], o[1], o[2]); o[0] is a tensor. */
ptodb_status kernels_where(kernel_call *k, const kernel_opnd *o, tensor **out);

typedef enum {
    KUN_NEG, KUN_EXP, KUN_LOG, KUN_SQRT, KUN_RSQRT, KUN_RECIP, KUN_ABS, KUN_RELU, KUN_NOT,
    KUN_SIN, KUN_COS /* REF has no handler: torch.sin/cos by definition (docs/ops.md) */
} kernel_unop;

/* torch's unary op on x; with reuse, written into x under kernels_binary's
 * rule. */
ptodb_status kernels_unary(kernel_call *k, kernel_unop op, const tensor *x, int reuse,
                           tensor **out);

#endif

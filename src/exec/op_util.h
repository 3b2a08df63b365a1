/* The ops' shared machinery (ops_*.c): argument access and names for
 * messages (op_args.c), and the numeric kernels of src/kernels/ in the ops'
 * terms (op_kernels.c). Those take the op's exec_ctx and op_args, run the
 * kernel with a kernel_call that names the op and the torch profile, and
 * hand a failure's message to exec_fail unchanged, so op implementations
 * just propagate the status. They keep the names the ops called before the
 * kernels became a floor of their own (src/kernels/kernel_util.h). */
#ifndef PTODB_EXEC_OP_UTIL_H
#define PTODB_EXEC_OP_UTIL_H

#include <stdint.h>

#include "exec/op.h"
#include "kernels/kernel_util.h"

/* ---- names and arguments (op_args.c) ------------------------------------ */

/* The op's IR name for messages ("tile.add"). */
const char *kernel_op_name(const op_args *a);
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
/* The device's byte size of an unsigned IR dtype REF holds in wider signed
 * storage (torch_codegen's _DTYPE_MAP: UINT16 as int32, UINT32 as int64):
 * 2 for UINT16, 4 for UINT32, else 0. ir_dtype: an ir_enum_value, or -1. */
int kernel_unsigned_bytes(int32_t ir_dtype);
/* Classifies v as a kernel operand; fails when v is not a tensor or a number. */
ptodb_status kernel_opnd_from_value(exec_ctx *ctx, const op_args *a, const value *v,
                                    kernel_opnd *o);

/* ---- the kernels as ops call them (op_kernels.c) ------------------------ */

/* kernels_zeros, kernels_broadcast, kernels_slice_view, kernels_head_view. */
ptodb_status kernel_zeros(exec_ctx *ctx, dtype_id dt, int nd, const int64_t *shape, tensor **out);
ptodb_status kernel_broadcast(exec_ctx *ctx, int n, const int *nds, const int64_t *const *shapes,
                              int *ond, int64_t *oshape);
ptodb_status kernel_slice_view(exec_ctx *ctx, const tensor *t, int k, const int64_t *start,
                               const int64_t *size, tensor **out);
ptodb_status kernel_head_view(exec_ctx *ctx, const tensor *t, int k, const int64_t *stop,
                              tensor **out);
/* kernels_assign, kernels_pad_copy. */
ptodb_status kernel_assign(exec_ctx *ctx, const op_args *a, tensor *dst, const tensor *src,
                           int accumulate);
ptodb_status kernel_pad_copy(exec_ctx *ctx, const op_args *a, const tensor *src, int nd,
                             const int64_t *shape, tensor **out);
/* kernels_checked_scalar on a number or 0-d tensor value. */
ptodb_status kernel_checked_scalar(exec_ctx *ctx, const op_args *a, const value *v, dtype_id dt,
                                   double *f, int64_t *i);
/* kernels_binary on two values (tensors or numbers); max/min refuse a
 * number like torch. The _reuse form may write into a dead operand
 * (kernels_binary's reuse rule); _t takes tensors. */
ptodb_status kernel_binary(exec_ctx *ctx, const op_args *a, kernel_binop op, const value *x,
                           const value *y, tensor **out);
ptodb_status kernel_binary_reuse(exec_ctx *ctx, const op_args *a, kernel_binop op, const value *x,
                                 const value *y, tensor **out);
ptodb_status kernel_binary_t(exec_ctx *ctx, const op_args *a, kernel_binop op, const tensor *x,
                             const tensor *y, tensor **out);
/* torch.where(mask, x, y). */
ptodb_status kernel_where(exec_ctx *ctx, const op_args *a, const value *mask, const value *x,
                          const value *y, tensor **out);
/* kernels_unary, and with reuse. */
ptodb_status kernel_unary(exec_ctx *ctx, const op_args *a, kernel_unop op, const tensor *x,
                          tensor **out);
ptodb_status kernel_unary_reuse(exec_ctx *ctx, const op_args *a, kernel_unop op, const tensor *x,
                                tensor **out);

/* REF's store/assemble (semantics.md §3.7): dst[o:o+v] = src[0:v], or +=
 * when atomic, with v the source's valid attr (default: its shape) paired
 * with the offsets by zip; calls exec_note_write(dst). Under device
 * semantics a tile.store with a shapes operand, or a tile.store /
 * tensor.assemble of a lower-rank source, into a tensor of rank > 2 goes
 * through a tensor-rank partition instead (semantics.h nd-partition). Lives
 * in ops_memory.c. */
ptodb_status kernel_store_region(exec_ctx *ctx, const op_args *a, tensor *src, tensor *dst,
                                 const value *offv, int atomic);

#endif

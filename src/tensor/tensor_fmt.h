/* Showing tensors to people: a one-line summary (dtype, shape, valid shape,
 * min/max/mean, NaN/Inf counts), the elements as a grid with numpy-style
 * elision of the middle of long dimensions, and Python slice expressions
 * (`[0:8, -1]`) applied as views. */
#ifndef PTODB_DEBUG_TENSOR_FMT_H
#define PTODB_DEBUG_TENSOR_FMT_H

#include "base/status.h"
#include "base/strbuf.h"
#include "tensor/tensor.h"

/* "bf16 [16, 64] valid [8, 64]" (valid only when the tensor has the attr). */
void tensor_fmt_header(const tensor *t, strbuf *out);
/* "min -1.25 max 3.5 mean 0.0123 nan 0 inf 0" over the finite elements. */
void tensor_fmt_stats(const tensor *t, strbuf *out);
/* The elements, one row of the last dimension per line, brackets as numpy.
 * With more than max_elems elements (0 = no limit), each dimension longer
 * than 2*edge shows only its first and last `edge` entries, with "..." in
 * between. */
void tensor_fmt_grid(const tensor *t, long max_elems, int edge, strbuf *out);
/* The same with gdb's print format letter: 0 natural, 'x' the raw bits in
 * hex, 'o' in octal, 't' in binary, 'd' as an integer (floats truncated),
 * 'f' as a float with 9 significant digits, 'e' in scientific notation. */
void tensor_fmt_grid_as(const tensor *t, long max_elems, int edge, char fmt, strbuf *out);
/* One element at idx (NULL for a 0-d tensor) in that format; returns the
 * length as snprintf does. */
int tensor_fmt_element(const tensor *t, const int64_t *idx, char fmt, char *buf, size_t size);

/* "Changed 3 of 1024 elements, first at [0, 5]: 1.5 -> 2" and up to
 * `show` more changed elements, for two tensors of one shape (bits
 * compared); appends nothing and returns 0 when none changed or the shapes
 * differ. */
int tensor_describe_changes(const tensor *before, const tensor *after, int show, strbuf *out);

/* Applies a subscript like "[0:8, 3]" or "[:, -1]" or "[::2]" to t, giving a
 * view (an integer index drops its dimension, as in torch). On error
 * returns ERR_BOUNDS/ERR_USAGE and writes a one-line message to err. */
ptodb_status tensor_apply_subscript(tensor *t, const char *spec, tensor **out, strbuf *err);

#endif

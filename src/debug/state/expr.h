/* Expressions of print, output, display, set var, x and call: gdb's way of
 * looking at data, over tensors.
 *
 *   expr    := compare
 *   compare := sum [(== | != | < | <= | > | >=) sum]      (a bool mask)
 *   sum     := product {(+ | -) product}
 *   product := unary {(* | /) unary}
 *   unary   := - unary | postfix
 *   postfix := primary {[SUBSCRIPT]}                      (a view, as torch)
 *   primary := NUMBER | True | False | NAME | golden.NAME
 *            | $ | $$ | $$N | $N | $NAME                  (value history,
 *              convenience variables)
 *            | FUNC(expr, ...) | (expr)
 *   FUNC    := abs | max | min | sum | mean | count | allclose
 *
 * Every value is a tensor (a scalar is 0-d). Arithmetic broadcasts as torch
 * does and is computed in float64 (int64 when both sides are integers and
 * the operator is not /), so a difference of two bf16 tiles is exact, not
 * rounded to bf16. Comparisons give bool masks; count() counts true (or
 * nonzero) elements; allclose(a, b[, rtol, atol]) is the validator's own
 * comparison (exec/compare.h) with the session's tolerances by default. */
#ifndef PTODB_DEBUG_EXPR_H
#define PTODB_DEBUG_EXPR_H

#include "base/status.h"
#include "base/strbuf.h"
#include "debug/state/session.h"
#include "tensor/tensor.h"

/* Evaluates text at the current stop. On success *out is a new reference
 * and note (when non-NULL) gets a line for every short name that could have
 * meant more than one variable: which one was taken and the others. On
 * failure returns an error status with a one-line message in err. */
ptodb_status expr_eval(session *s, const char *text, tensor **out, strbuf *note, strbuf *err);

/* Checks text's syntax only (names are not looked up): PTODB_OK, or an
 * error status with a one-line message in err. */
ptodb_status expr_check(const char *text, strbuf *err);

/* "/FMT rest" after print, output, display (a format letter: x o t d f e)
 * or x (a count, then a letter; count NULL refuses one). Sets *fmt (and
 * *count), advances *args past it and its blanks; 0 when there was none.
 * -1 after an error message (none when s is NULL). */
int expr_parse_format(session *s, const char **args, char *fmt, long *count);

/* A program value as an expression value: a tensor (new reference) or a
 * number as a 0-d tensor; NULL for None, tuples and unassigned names. */
struct value;
tensor *expr_value_tensor(const struct value *v);

/* The value history ($1, $2, ...): records t (takes a new reference) and
 * returns its number. */
int expr_history_push(session *s, tensor *t);
/* $name: set (t referenced; NULL unsets) and get (borrowed, or NULL). */
void expr_convenience_set(session *s, const char *name, tensor *t);
const tensor *expr_convenience_get(session *s, const char *name);
/* Releases the history and the convenience variables. */
void expr_free_all(session *s);

/* Evaluates expr, printing the note (which tensor a short name took) and
 * any error. NULL after an error; else a new reference. */
tensor *expr_eval_report(session *s, const char *expr);
/* The value as print shows it after "$N = ": a scalar on its own, a tensor
 * as its header, statistics and elements. */
void expr_format_value(session *s, const tensor *t, char fmt, strbuf *sb);
/* Records t in the value history and prints "LEAD$N = value" as print
 * does; fmt is a print format letter or 0. */
void expr_print_recorded(session *s, const char *lead, tensor *t, char fmt);
/* set var's assignment "LHS = EXPR" (assign.c): a stopped program's tensor
 * or a slice of it, or $name. */
ptodb_status expr_assign(session *s, const char *args);

#endif

/* The transformations of `ptodb reduce` on a pass file, from its parse:
 * each names what it acts on by a unit that means the same thing in the
 * passing and the failing file (a function by its name, a statement by its
 * function and its targets' names, or its printed text and occurrence), so
 * that one step edits both files in lockstep. Edits are made on the source
 * bytes at the parse's spans and the result is parsed and printed again:
 * every text returned is in the canonical printer form (parse, then print,
 * gives it back byte for byte).
 * Coarse to fine (docs/reduce.md):
 *   DROP_FUNC    a function and every statement calling it (with what uses
 *                their results);
 *   CUT_LOOP     a pl.range/parallel/unroll/pipeline loop with literal
 *                bounds run for fewer iterations;
 *   COLLAPSE_IF  an if replaced by one of its branches (its yields become
 *                assignments);
 *   DELETE       statements deleted with their forward cone (every
 *                statement using what they define, transitively);
 *   BYPASS       a statement x = op(a, ...) dropped and its later uses made
 *                to read a, an operand of the same type, shape and dtype
 *                (or an operand's operand, three deep: a reshape round trip)
 *                (copy propagation: what only x needed may then go);
 *   RECORD       a tensor argument of a call in the entry (orchestration)
 *                function replaced by a new entry parameter, a case input
 *                holding the value recorded from the passing file's run
 *                (what only computed that argument may then go; literal,
 *                when set, is its dims list, "[16, 128]": the recorded
 *                value's shape in place of the annotation's); a
 *                scalar statement's value replaced by the literal the
 *                passing file's run computed (arg -1; the caller sets it);
 *   RECORD_CALL  RECORD of an argument that a call computed (a kernel fed
 *                by another kernel): counted apart, the units are RECORD's
 *                (reduce_units of RECORD gives both; reduce_record_is_call
 *                tells them apart);
 *   CONST_TILE   a Vec tile statement's value replaced by
 *                pl.tile.full(shape, dtype=D, value=V) when the passing
 *                file's run computed a tile whose elements all equal V
 *                (the caller records it and sets literal; `to` is the
 *                target's name);
 *   DROP_PIPE    a tpush and the tpop that receives it deleted together
 *                (the k-th pl.tile.tpush_to_aiv of an AIC function with
 *                the k-th pl.tile.tpop_from_aic of its AIV partner, and
 *                the other way round), each with its forward cone (the
 *                popped tile's uses, its tfree): a lone push or pop
 *                deadlocks; `to` is "POPFUNC\tPOPKEY";
 *   SHRINK_SHAPE an input parameter of the entry function (key: its name)
 *                with literal dims: dim arg (the first or the last) halved
 *                to trips in its annotation; the caller cuts the input's
 *                data to match and keeps the device's rules (a row a
 *                multiple of 32 bytes); the kernels' tiles are untouched,
 *                so a view past the new end fails to run and the step is
 *                rejected;
 *   DROP_PARAM   an input parameter of the entry function that nothing in
 *                it reads (key: its name) removed from its signature (the
 *                caller drops its data: a recorded input whose consumer
 *                went, an input the reduced program no longer needs);
 *   RETARGET     a consumer kernel bypassed: the entry's call
 *                y = self.k2(.., x, .., O, ..) with O an Out/InOut
 *                parameter of the entry (arg) and x (trips, its index) the
 *                result of an earlier call x = self.k1(.., b, ..) whose
 *                callee returns its parameter b, of O's type: k1 writes O
 *                instead of b, k2's call goes, later uses of y read x. The
 *                bug in k1 then reaches the output without k2;
 *   UNGROUP      a call of a Group function g (an AIC and an AIV core
 *                working together) made a call of one of its cores'
 *                functions, g_aiv or g_aic (`to`), with the same
 *                parameters: the other core's function and the group go
 *                with drop-function once nothing calls them;
 *   FORWARD_OUT  t = tmp[i] of tmp = self.k(..., b, ...) whose callee
 *                returns its parameter b as the i-th value: the statement
 *                goes and later uses of t read b (the same tensor, written
 *                in place by the call). */
#ifndef PTODB_BATCH_REDUCE_EDIT_H
#define PTODB_BATCH_REDUCE_EDIT_H

#include <stddef.h>

#include "base/strbuf.h"
#include "ir/ast.h"

typedef enum {
    REDUCE_DROP_FUNC,
    REDUCE_CUT_LOOP,
    REDUCE_COLLAPSE_IF,
    REDUCE_DELETE,
    REDUCE_BYPASS,
    REDUCE_RECORD,
    REDUCE_RECORD_CALL,
    REDUCE_CONST_TILE,
    REDUCE_DROP_PIPE,
    REDUCE_SHRINK_SHAPE,
    REDUCE_DROP_PARAM,
    REDUCE_RETARGET,
    REDUCE_UNGROUP,
    REDUCE_FORWARD_OUT,
    REDUCE_KIND_COUNT
} reduce_kind;

const char *reduce_kind_name(reduce_kind k);

typedef struct reduce_unit {
    reduce_kind kind;
    char *func;  /* the function (DROP_FUNC: the one dropped) */
    char *key;   /* the statement in it (NULL for DROP_FUNC) */
    long arg;    /* CUT_LOOP: the trip count to cut to; COLLAPSE_IF: 0 then, 1 else; BYPASS: operand index */
    long trips;  /* CUT_LOOP: the trip count now */
    const char *literal; /* RECORD of a scalar (arg -1): the value to write, set by the caller */
    char *to;    /* BYPASS by an earlier value than an operand (an operand's operand...): its name */
} reduce_unit;

/* The units of kind k in either module (the failing file's first, in
 * source order), *n of them; free with reduce_units_free. */
reduce_unit *reduce_units(const ir_module *good, const ir_module *bad, reduce_kind k, size_t *n);
void reduce_units_free(reduce_unit *u, size_t n);

/* Applies u[0..n) (all of one kind) to the file m was parsed from: the new
 * canonical text, or NULL when none of them applies here (*changed 0) or
 * the result does not parse (*changed 1). A unit absent from m is skipped. */
char *reduce_apply(const ir_module *m, const reduce_unit *u, size_t n, int *changed);

/* RECORD: the new parameter's name (also its data key but for the
 * "__ssa_v0" suffix) and the variable whose value it takes. 0 when u does
 * not apply to m. */
int reduce_record_names(const ir_module *m, const reduce_unit *u, strbuf *param, strbuf *var);

/* RECORD: 1 when the argument u replaces is the result of a call (the
 * output of another kernel). */
int reduce_record_is_call(const ir_module *m, const reduce_unit *u);

/* Statements in m (every level, compound ones counted once each). */
size_t reduce_count_statements(const ir_module *m);

#endif

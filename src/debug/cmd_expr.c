/* gdb's ways of looking at values: print, output, whatis, ptype, x and
 * set var, over the expressions of expr.h, with the value history. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "debug/expr.h"
#include "debug/lookup.h"
#include "debug/session_impl.h"
#include "debug/tensor_fmt.h"
#include "exec/inspect.h"

#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    ptodb_status cmd_##id(session *s, const char *args);
#include "debug/commands.def"
#undef CMD

/* A bare name that denotes something print shows but expressions do not
 * hold (None, a tuple, a name not assigned yet): "name = None". */
static int print_other_slot(session *s, const char *expr)
{
    for (const char *p = expr; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return 0;
    const char *n;
    const value *v;
    if (!session_frame_value(s, expr, &n, &v))
        return 0;
    switch (v->kind) {
    case VAL_NONE: session_printf(s, "%s = None\n", n); return 1;
    case VAL_UNBOUND: session_printf(s, "%s = <not assigned yet>\n", n); return 1;
    case VAL_TUPLE: session_printf(s, "%s = <tuple of %u>\n", n, v->u.tuple->n); return 1;
    case VAL_TENSOR:
    case VAL_INT:
    case VAL_FLOAT:
    case VAL_BOOL: return 0;
    default: session_printf(s, "%s = <%s>\n", n, value_kind_name(v->kind)); return 1;
    }
}

/* Evaluates, printing the note and any error. NULL after an error. */
static tensor *evaluate(session *s, const char *expr)
{
    strbuf note = STRBUF_INIT, err = STRBUF_INIT;
    tensor *t = NULL;
    if (expr_eval(s, expr, &t, &note, &err) != PTODB_OK)
        session_errorf(s, "%s", strbuf_str(&err));
    else if (note.len)
        session_printf(s, "%s", strbuf_str(&note));
    strbuf_free(&note);
    strbuf_free(&err);
    return t;
}

/* The value as print shows it after "$N = ": a scalar on its own, a tensor
 * as its header, statistics and elements. */
static void format_value(session *s, const tensor *t, char fmt, strbuf *sb)
{
    if (t->ndim == 0) {
        tensor_fmt_grid_as(t, 0, 3, fmt, sb);
        return;
    }
    tensor_fmt_header(t, sb);
    strbuf_puts(sb, "\n  ");
    tensor_fmt_stats(t, sb);
    strbuf_putc(sb, '\n');
    tensor_fmt_grid_as(t, session_get_int(s, SETTING_PRINT_ELEMENTS), 3, fmt, sb);
}

void print_recorded_value(session *s, const char *lead, tensor *t, char fmt)
{
    int n = expr_history_push(s, t);
    strbuf sb = STRBUF_INIT;
    strbuf_printf(&sb, "%s$%d = ", lead, n);
    format_value(s, t, fmt, &sb);
    session_write(s, strbuf_str(&sb), sb.len);
    strbuf_free(&sb);
}

ptodb_status cmd_PRINT(session *s, const char *args)
{
    char fmt = 0;
    if (expr_parse_format(s, &args, &fmt, NULL) != 0)
        return PTODB_ERR_USAGE;
    if (!*args) {
        if (!s->nhistory) {
            session_errorf(s, "print needs an expression (the value history is empty).");
            return PTODB_ERR_USAGE;
        }
        args = "$";
    }
    if (print_other_slot(s, args))
        return PTODB_OK;
    tensor *t = evaluate(s, args);
    if (!t)
        return PTODB_ERR_NOT_FOUND;
    print_recorded_value(s, "", t, fmt);
    tensor_unref(t);
    return PTODB_OK;
}

ptodb_status cmd_OUTPUT(session *s, const char *args)
{
    char fmt = 0;
    if (expr_parse_format(s, &args, &fmt, NULL) != 0)
        return PTODB_ERR_USAGE;
    if (!*args) {
        session_errorf(s, "Argument required (expression to compute).");
        return PTODB_ERR_USAGE;
    }
    tensor *t = evaluate(s, args);
    if (!t)
        return PTODB_ERR_NOT_FOUND;
    strbuf sb = STRBUF_INIT;
    format_value(s, t, fmt, &sb);
    /* gdb's output adds no newline of its own */
    if (sb.len && strbuf_str(&sb)[sb.len - 1] == '\n')
        sb.len--;
    session_write(s, strbuf_str(&sb), sb.len);
    strbuf_free(&sb);
    tensor_unref(t);
    return PTODB_OK;
}

static void type_line(const tensor *t, strbuf *sb)
{
    if (t->ndim == 0)
        strbuf_puts(sb, dtype_name(t->dtype));
    else
        tensor_fmt_header(t, sb);
}

ptodb_status cmd_WHATIS(session *s, const char *args)
{
    if (!*args) {
        session_errorf(s, "whatis needs an expression.");
        return PTODB_ERR_USAGE;
    }
    tensor *t = evaluate(s, args);
    if (!t)
        return PTODB_ERR_NOT_FOUND;
    strbuf sb = STRBUF_INIT;
    strbuf_puts(&sb, "type = ");
    type_line(t, &sb);
    strbuf_putc(&sb, '\n');
    session_write(s, strbuf_str(&sb), sb.len);
    strbuf_free(&sb);
    tensor_unref(t);
    return PTODB_OK;
}

ptodb_status cmd_PTYPE(session *s, const char *args)
{
    if (!*args) {
        session_errorf(s, "ptype needs an expression.");
        return PTODB_ERR_USAGE;
    }
    tensor *t = evaluate(s, args);
    if (!t)
        return PTODB_ERR_NOT_FOUND;
    strbuf sb = STRBUF_INIT;
    char shape[256];
    strbuf_printf(&sb, "type = %s {\n", t->ndim ? "tensor" : "scalar");
    strbuf_printf(&sb, "    dtype    %s (%s)\n", dtype_name(t->dtype), dtype_pl_name(t->dtype));
    tensor_format_shape(t->ndim, t->shape, shape, sizeof shape);
    strbuf_printf(&sb, "    shape    %s\n", shape);
    if (t->valid_ndim >= 0) {
        tensor_format_shape(t->valid_ndim, t->valid, shape, sizeof shape);
        strbuf_printf(&sb, "    valid    %s\n", shape);
    }
    tensor_format_shape(t->ndim, t->strides, shape, sizeof shape);
    strbuf_printf(&sb, "    strides  %s, offset %" PRId64 "%s\n", shape, t->offset,
                  tensor_is_contiguous(t) ? ", contiguous" : "");
    strbuf_printf(&sb, "    storage  %zu bytes (%zu elements)\n", t->storage->nbytes,
                  t->storage->nbytes / dtype_size(t->dtype));
    strbuf decl = STRBUF_INIT;
    if (session_declared_type(s, args, &decl))
        strbuf_printf(&sb, "    declared %s\n", strbuf_str(&decl));
    strbuf_free(&decl);
    strbuf_puts(&sb, "}\n");
    session_write(s, strbuf_str(&sb), sb.len);
    strbuf_free(&sb);
    tensor_unref(t);
    return PTODB_OK;
}

/* x/NFMT EXPR: N elements of the storage under EXPR, from its first
 * element on, in storage order (what the hardware's buffer holds, whatever
 * the view's strides). */
ptodb_status cmd_X(session *s, const char *args)
{
    char fmt = 'x';
    long count = 1;
    if (expr_parse_format(s, &args, &fmt, &count) != 0)
        return PTODB_ERR_USAGE;
    if (!*args) {
        session_errorf(s, "Argument required (starting element: x/NFMT TENSOR[i, j]).");
        return PTODB_ERR_USAGE;
    }
    tensor *t = evaluate(s, args);
    if (!t)
        return PTODB_ERR_NOT_FOUND;
    size_t esize = dtype_size(t->dtype);
    int64_t total = (int64_t)(t->storage->nbytes / esize);
    int64_t start = t->offset;
    ptodb_status st = PTODB_OK;
    if (start >= total) {
        session_errorf(s, "Cannot access element %" PRId64 " of a storage of %" PRId64 ".", start, total);
        tensor_unref(t);
        return PTODB_ERR_BOUNDS;
    }
    int64_t n = count;
    if (n > total - start) {
        n = total - start;
        st = PTODB_ERR_BOUNDS;
    }
    /* a 1-D view over the storage from start: each element as itself */
    int64_t shape[1] = {n}, strides[1] = {1};
    tensor *run = tensor_from_storage(t->storage, t->dtype, 1, shape, strides, start, NULL);
    strbuf sb = STRBUF_INIT;
    int per_line = esize >= 8 ? 4 : 8;
    for (int64_t k = 0; k < n; k++) {
        if (k % per_line == 0)
            strbuf_printf(&sb, "%s[%" PRId64 "]:", k ? "\n" : "", start + k);
        char buf[80];
        int64_t idx[1] = {k};
        tensor_fmt_element(run, idx, fmt, buf, sizeof buf);
        strbuf_printf(&sb, "\t%s", buf);
    }
    strbuf_putc(&sb, '\n');
    session_write(s, strbuf_str(&sb), sb.len);
    strbuf_free(&sb);
    if (st != PTODB_OK)
        session_errorf(s, "Cannot access memory past element %" PRId64 " (the end of the storage).",
                       total - 1);
    tensor_unref(run);
    tensor_unref(t);
    return st;
}

/* ---- set var ---------------------------------------------------------------- */

/* The '=' of an assignment: not part of ==, !=, <=, >=. */
static const char *assignment_sign(const char *text)
{
    for (const char *p = text; *p; p++) {
        if (*p != '=')
            continue;
        if (p[1] == '=') {
            p++;
            continue;
        }
        if (p > text && (p[-1] == '!' || p[-1] == '<' || p[-1] == '>' || p[-1] == '='))
            continue;
        return p;
    }
    return NULL;
}

/* 1 when storage st belongs to the case's own data (inputs, goldens), which
 * every run starts from and which may be mapped read-only. */
static int is_case_data(session *s, const tensor_storage *st)
{
    for (size_t k = 0; k < s->kase.ninputs; k++)
        if (s->kase.inputs[k].t && s->kase.inputs[k].t->storage == st)
            return 1;
    for (size_t k = 0; k < s->kase.noutputs; k++)
        if (s->kase.outputs[k].t && s->kase.outputs[k].t->storage == st)
            return 1;
    return 0;
}

ptodb_status cmd_set_var(session *s, const char *args)
{
    const char *eq = assignment_sign(args);
    if (!eq) {
        session_errorf(s, "Usage: set var TENSOR[SUBSCRIPT] = EXPR | set var $NAME = EXPR");
        return PTODB_ERR_USAGE;
    }
    size_t llen = (size_t)(eq - args);
    while (llen && isspace((unsigned char)args[llen - 1]))
        llen--;
    char *lhs = xstrndup(args, llen);
    const char *rhs = eq + 1;
    ptodb_status st = PTODB_OK;
    tensor *val = evaluate(s, rhs);
    tensor *dst = NULL;
    if (!val) {
        st = PTODB_ERR_NOT_FOUND;
        goto out;
    }
    if (lhs[0] == '$') {
        const char *name = lhs + 1;
        int ok = isalpha((unsigned char)name[0]) || name[0] == '_';
        for (const char *p = name; *p && ok; p++)
            ok = isalnum((unsigned char)*p) || *p == '_';
        if (!ok) {
            session_errorf(s, "\"%s\" is not a convenience variable name ($ then letters, digits, _).", lhs);
            st = PTODB_ERR_USAGE;
            goto out;
        }
        expr_convenience_set(s, name, val);
        goto out;
    }
    /* a tensor or a view of it: NAME[SUB]..., nothing computed */
    size_t name_len = strspn(lhs, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.");
    if (!name_len || (lhs[name_len] && lhs[name_len] != '[')) {
        session_errorf(s, "Cannot assign to \"%s\": only a tensor or a slice of one (T[a:b, :]) can be set.",
                       lhs);
        st = PTODB_ERR_USAGE;
        goto out;
    }
    if (strncmp(lhs, "golden.", 7) == 0) {
        session_errorf(s, "The golden outputs are read-only.");
        st = PTODB_ERR_USAGE;
        goto out;
    }
    if (!s->run.active || !s->run.m || s->run.finished) {
        session_errorf(s, "set var changes a running program's tensors; nothing is running.");
        st = PTODB_ERR_USAGE;
        goto out;
    }
    dst = evaluate(s, lhs);
    if (!dst) {
        st = PTODB_ERR_NOT_FOUND;
        goto out;
    }
    if (dst->ndim == 0 && !strchr(lhs, '[')) {
        session_errorf(s, "\"%s\" is a scalar of the program; set var changes tensors only.", lhs);
        st = PTODB_ERR_USAGE;
        goto out;
    }
    if (is_case_data(s, dst->storage)) {
        session_errorf(s, "\"%s\" is the case's own data, read-only; set the tensor the program works on.", lhs);
        st = PTODB_ERR_USAGE;
        goto out;
    }
    /* broadcast the val over the destination (stride 0 where it repeats) */
    int64_t strides[TENSOR_MAX_DIMS];
    int fits = val->ndim <= dst->ndim;
    for (int d = 0; d < dst->ndim && fits; d++) {
        int dv = d - (dst->ndim - val->ndim);
        if (dv < 0)
            strides[d] = 0;
        else if (val->shape[dv] == dst->shape[d])
            strides[d] = val->strides[dv];
        else if (val->shape[dv] == 1)
            strides[d] = 0;
        else
            fits = 0;
    }
    if (!fits) {
        char a[128], b[128];
        tensor_format_shape(val->ndim, val->shape, a, sizeof a);
        tensor_format_shape(dst->ndim, dst->shape, b, sizeof b);
        session_errorf(s, "A value of shape %s does not fit %s (shape %s).", a, lhs, b);
        st = PTODB_ERR_SHAPE;
        goto out;
    }
    tensor *src = tensor_view(val, dst->ndim, dst->shape, strides, val->offset, &st);
    if (!src) {
        session_errorf(s, "Cannot set %s: %s.", lhs, ptodb_status_message(st));
        goto out;
    }
    st = tensor_copy_into(dst, src);
    tensor_unref(src);
    if (st != PTODB_OK) {
        session_errorf(s, "Cannot set %s: %s.", lhs, ptodb_status_message(st));
        goto out;
    }
    s->run.user_modified = 1;
    session_mark_redraw(s, SESSION_REDRAW_WATCH);
out:
    if (dst)
        tensor_unref(dst);
    if (val)
        tensor_unref(val);
    free(lhs);
    return st;
}

/* gdb's ways of looking at values: print, output, whatis, ptype, x, display and
 * undisplay, set var, over the expressions of expr.h, with the value history. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "debug/present/display.h"
#include "debug/state/expr.h"
#include "debug/state/lookup.h"
#include "debug/state/session_impl.h"
#include "tensor/tensor_fmt.h"
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
    tensor *t = expr_eval_report(s, args);
    if (!t)
        return PTODB_ERR_NOT_FOUND;
    expr_print_recorded(s, "", t, fmt);
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
    tensor *t = expr_eval_report(s, args);
    if (!t)
        return PTODB_ERR_NOT_FOUND;
    strbuf sb = STRBUF_INIT;
    expr_format_value(s, t, fmt, &sb);
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
    tensor *t = expr_eval_report(s, args);
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
    tensor *t = expr_eval_report(s, args);
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
    tensor *t = expr_eval_report(s, args);
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

ptodb_status cmd_DISPLAY(session *s, const char *args)
{
    if (!*args) {
        display_show_all(s, 0);
        return PTODB_OK;
    }
    const char *text = args;
    char fmt = 0;
    if (expr_parse_format(s, &text, &fmt, NULL) != 0)
        return PTODB_ERR_USAGE;
    if (!*text) {
        session_errorf(s, "display/FMT needs an expression.");
        return PTODB_ERR_USAGE;
    }
    display_add(s, args);
    return PTODB_OK;
}

ptodb_status cmd_UNDISPLAY(session *s, const char *args)
{
    if (!*args) {
        display_free_all(s);
        session_mark_redraw(s, SESSION_REDRAW_WATCH);
        return PTODB_OK;
    }
    char *words[64];
    char buf[512];
    int n = session_split_words(args, words, 64, buf, sizeof buf);
    ptodb_status st = PTODB_OK;
    for (int i = 0; i < n; i++) {
        long num = strtol(words[i], NULL, 10);
        if (display_delete(s, num) != 0) {
            session_errorf(s, "No display number %s.", words[i]);
            st = PTODB_ERR_USAGE;
        }
    }
    session_mark_redraw(s, SESSION_REDRAW_WATCH);
    return st;
}

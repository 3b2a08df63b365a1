/* gdb's set var: an assignment to a stopped program's tensor (or a slice
 * of it), broadcast as numpy does, or to a convenience variable ($name).
 * `set` (cmd_script.c) and the expression owner reach it through expr.h. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "debug/state/expr.h"
#include "debug/state/session_impl.h"
#include "debug/run/timetravel.h"

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

ptodb_status expr_assign(session *s, const char *args)
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
    tensor *val = expr_eval_report(s, rhs);
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
    dst = expr_eval_report(s, lhs);
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
    /* the history before now cannot be replayed to this state */
    tt_forget(s);
    session_mark_redraw(s, SESSION_REDRAW_WATCH);
out:
    if (dst)
        tensor_unref(dst);
    if (val)
        tensor_unref(val);
    free(lhs);
    return st;
}

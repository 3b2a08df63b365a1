/* The expression evaluator of print, output, display, set var, x and call
 * (expr.h), with gdb's value history and convenience variables. */
#include "debug/state/expr.h"

#include <ctype.h>
#include <stdio.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "debug/state/lookup.h"
#include "debug/state/session_impl.h"
#include "tensor/tensor_fmt.h"
#include "exec/compare.h"

typedef struct parser {
    session *s;
    const char *text;
    const char *p;
    strbuf *note;
    strbuf *err;
    int failed;
    int dry; /* syntax only: names, history and subscripts are not looked at */
} parser;

static tensor *parse_expr(parser *e);

static void fail(parser *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(parser *e, const char *fmt, ...)
{
    if (e->failed)
        return;
    e->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(e->err, fmt, ap);
    va_end(ap);
}

static void skip_ws(parser *e)
{
    while (isspace((unsigned char)*e->p))
        e->p++;
}

static int accept(parser *e, const char *tok)
{
    skip_ws(e);
    size_t n = strlen(tok);
    if (strncmp(e->p, tok, n) != 0)
        return 0;
    /* "<" must not take the first half of "<=" */
    if (n == 1 && (*tok == '<' || *tok == '>' || *tok == '=' || *tok == '!') && e->p[1] == '=')
        return 0;
    e->p += n;
    return 1;
}

static int is_name_start(int c) { return isalpha(c) || c == '_'; }
static int is_name_char(int c) { return isalnum(c) || c == '_' || c == '.'; }

/* ---- scalars as 0-d tensors ---------------------------------------------- */

static tensor *scalar_i64(int64_t v)
{
    tensor *t = tensor_zeros(DTYPE_INT64, 0, NULL, NULL);
    tensor_set_i64(t, NULL, v);
    return t;
}

static tensor *scalar_f64(double v) { return tensor_scalar(DTYPE_FP64, v); }
static tensor *scalar_bool(int v) { return tensor_scalar(DTYPE_BOOL, v ? 1.0 : 0.0); }

static int is_integral(const tensor *t)
{
    dtype_kind k = dtype_kind_of(t->dtype);
    return k != DTYPE_KIND_FLOAT;
}

/* ---- value history and convenience variables ------------------------------ */

/* History and convenience variables keep the value as it was, not a view
 * that a later statement or set var changes. */
int expr_history_push(session *s, tensor *t)
{
    s->history = xreallocarray(s->history, s->nhistory + 1, sizeof *s->history);
    s->history[s->nhistory++] = tensor_snapshot(t);
    return (int)s->nhistory;
}

void expr_convenience_set(session *s, const char *name, tensor *t)
{
    for (size_t i = 0; i < s->nconvs; i++) {
        if (strcmp(s->convs[i].name, name) == 0) {
            if (s->convs[i].t)
                tensor_unref(s->convs[i].t);
            s->convs[i].t = t ? tensor_snapshot(t) : NULL;
            return;
        }
    }
    if (!t)
        return;
    s->convs = xreallocarray(s->convs, s->nconvs + 1, sizeof *s->convs);
    s->convs[s->nconvs].name = xstrdup(name);
    s->convs[s->nconvs].t = tensor_snapshot(t);
    s->nconvs++;
}

const tensor *expr_convenience_get(session *s, const char *name)
{
    for (size_t i = 0; i < s->nconvs; i++)
        if (strcmp(s->convs[i].name, name) == 0)
            return s->convs[i].t;
    return NULL;
}

void expr_free_all(session *s)
{
    for (size_t i = 0; i < s->nhistory; i++)
        tensor_unref(s->history[i]);
    free(s->history);
    s->history = NULL;
    s->nhistory = 0;
    for (size_t i = 0; i < s->nconvs; i++) {
        free(s->convs[i].name);
        if (s->convs[i].t)
            tensor_unref(s->convs[i].t);
    }
    free(s->convs);
    s->convs = NULL;
    s->nconvs = 0;
}

/* $, $$, $$N, $N, $name */
static tensor *parse_dollar(parser *e)
{
    session *s = e->s;
    e->p++; /* '$' */
    if (e->dry) {
        e->p += strspn(e->p, "$");
        while (isalnum((unsigned char)*e->p) || *e->p == '_')
            e->p++;
        return scalar_i64(0);
    }
    long back = -1, abs_n = -1;
    if (*e->p == '$') {
        e->p++;
        if (isdigit((unsigned char)*e->p))
            back = strtol(e->p, (char **)&e->p, 10);
        else
            back = 1;
    } else if (isdigit((unsigned char)*e->p)) {
        abs_n = strtol(e->p, (char **)&e->p, 10);
    } else if (is_name_start((unsigned char)*e->p)) {
        const char *start = e->p;
        while (isalnum((unsigned char)*e->p) || *e->p == '_')
            e->p++;
        char name[128];
        size_t n = (size_t)(e->p - start) < sizeof name - 1 ? (size_t)(e->p - start) : sizeof name - 1;
        memcpy(name, start, n);
        name[n] = '\0';
        const tensor *t = expr_convenience_get(s, name);
        if (!t) {
            fail(e, "Convenience variable \"$%s\" is not set (set var $%s = EXPR sets it).", name, name);
            return NULL;
        }
        return tensor_ref((tensor *)t);
    } else {
        back = 0;
    }
    long idx = abs_n >= 0 ? abs_n : (long)s->nhistory - back;
    if (s->nhistory == 0) {
        fail(e, "History is empty.");
        return NULL;
    }
    if (idx < 1 || idx > (long)s->nhistory) {
        fail(e, "History has not yet reached $%ld (it holds $1 to $%zu).", idx, s->nhistory);
        return NULL;
    }
    return tensor_ref(s->history[idx - 1]);
}

/* ---- names ------------------------------------------------------------------ */

tensor *expr_value_tensor(const value *v)
{
    switch (v->kind) {
    case VAL_TENSOR: return tensor_ref(v->u.t);
    case VAL_INT: return scalar_i64(v->u.i);
    case VAL_FLOAT: return scalar_f64(v->u.f);
    case VAL_BOOL: return scalar_bool(v->u.b);
    default: return NULL;
    }
}

static tensor *value_to_tensor(parser *e, const char *slot, const value *v)
{
    switch (v->kind) {
    case VAL_TENSOR: return tensor_ref(v->u.t);
    case VAL_INT: return scalar_i64(v->u.i);
    case VAL_FLOAT: return scalar_f64(v->u.f);
    case VAL_BOOL: return scalar_bool(v->u.b);
    case VAL_UNBOUND: fail(e, "\"%s\" has not been assigned yet.", slot); return NULL;
    default:
        fail(e, "\"%s\" is a %s here, not a tensor or a number.", slot, value_kind_name(v->kind));
        return NULL;
    }
}

static tensor *lookup_name(parser *e, const char *name)
{
    session *s = e->s;
    if (e->dry)
        return scalar_i64(0);
    if (strcmp(name, "True") == 0 || strcmp(name, "False") == 0)
        return scalar_bool(name[0] == 'T');
    if (strcmp(name, "inf") == 0)
        return scalar_f64(INFINITY);
    if (strcmp(name, "nan") == 0)
        return scalar_f64(NAN);
    if (!s->have_case) {
        fail(e, "No case is open.");
        return NULL;
    }
    const char *slot;
    const value *v;
    if (session_frame_value(s, name, &slot, &v)) {
        if (e->note)
            session_name_alternatives(s, name, slot, e->note);
        return value_to_tensor(e, slot, v);
    }
    tensor *t = session_lookup_tensor(s, name, NULL, 1);
    if (!t)
        fail(e, strncmp(name, "golden.", 7) == 0 ? "No golden output named \"%s\"."
                                                 : "No symbol \"%s\" in current context.",
             strncmp(name, "golden.", 7) == 0 ? name + 7 : name);
    return t;
}

/* ---- element-wise arithmetic ---------------------------------------------- */

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE, OP_MAX, OP_MIN };

static int is_compare(int op) { return op >= OP_EQ && op <= OP_GE; }

static double apply_f(int op, double a, double b)
{
    switch (op) {
    case OP_ADD: return a + b;
    case OP_SUB: return a - b;
    case OP_MUL: return a * b;
    case OP_DIV: return a / b;
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    case OP_GE: return a >= b;
    /* torch.maximum/minimum: NaN wins */
    case OP_MAX: return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
    default: return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
    }
}

static int64_t apply_i(int op, int64_t a, int64_t b)
{
    /* two's-complement wrap as torch's int64 does, without C's signed UB */
    switch (op) {
    case OP_ADD: return (int64_t)((uint64_t)a + (uint64_t)b);
    case OP_SUB: return (int64_t)((uint64_t)a - (uint64_t)b);
    case OP_MUL: return (int64_t)((uint64_t)a * (uint64_t)b);
    case OP_EQ: return a == b;
    case OP_NE: return a != b;
    case OP_LT: return a < b;
    case OP_LE: return a <= b;
    case OP_GT: return a > b;
    case OP_GE: return a >= b;
    case OP_MAX: return a > b ? a : b;
    default: return a < b ? a : b;
    }
}

static void shape_text(const tensor *t, char *buf, size_t size)
{
    tensor_format_shape(t->ndim, t->shape, buf, size);
}

static tensor *binary(parser *e, tensor *a, tensor *b, int op)
{
    int nd = a->ndim > b->ndim ? a->ndim : b->ndim;
    int64_t shape[TENSOR_MAX_DIMS];
    for (int d = 0; d < nd; d++) {
        int da = d - (nd - a->ndim), db = d - (nd - b->ndim);
        int64_t sa = da >= 0 ? a->shape[da] : 1, sb = db >= 0 ? b->shape[db] : 1;
        if (sa != sb && sa != 1 && sb != 1) {
            char ta[128], tb[128];
            shape_text(a, ta, sizeof ta);
            shape_text(b, tb, sizeof tb);
            fail(e, "Shapes %s and %s do not broadcast (dimension %d: %" PRId64 " vs %" PRId64 ").", ta, tb,
                 d, sa, sb);
            return NULL;
        }
        shape[d] = sa == 1 ? sb : sa;
    }
    int ints = is_integral(a) && is_integral(b) && op != OP_DIV;
    dtype_id dt = is_compare(op) ? DTYPE_BOOL : ints ? DTYPE_INT64 : DTYPE_FP64;
    ptodb_status st = PTODB_OK;
    tensor *r = tensor_zeros(dt, nd, shape, &st);
    if (!r) {
        fail(e, "Cannot make the result: %s.", ptodb_status_message(st));
        return NULL;
    }
    int64_t n = tensor_numel(r);
    int64_t idx[TENSOR_MAX_DIMS] = {0}, ia[TENSOR_MAX_DIMS], ib[TENSOR_MAX_DIMS];
    for (int64_t k = 0; k < n; k++) {
        for (int d = 0; d < nd; d++) {
            int da = d - (nd - a->ndim), db = d - (nd - b->ndim);
            if (da >= 0)
                ia[da] = a->shape[da] == 1 ? 0 : idx[d];
            if (db >= 0)
                ib[db] = b->shape[db] == 1 ? 0 : idx[d];
        }
        if (is_integral(a) && is_integral(b) && op != OP_DIV) {
            int64_t v = apply_i(op, tensor_get_i64(a, ia), tensor_get_i64(b, ib));
            tensor_set_i64(r, idx, v);
        } else {
            tensor_set(r, idx, apply_f(op, tensor_get(a, ia), tensor_get(b, ib)));
        }
        tensor_next_index(r, idx);
    }
    return r;
}

/* An element-wise function of one tensor into a new one of dtype dt. */
static tensor *unary(parser *e, tensor *a, dtype_id dt, double (*f)(double), int64_t (*fi)(int64_t))
{
    ptodb_status st = PTODB_OK;
    tensor *r = tensor_zeros(dt, a->ndim, a->shape, &st);
    if (!r) {
        fail(e, "Cannot make the result: %s.", ptodb_status_message(st));
        return NULL;
    }
    int64_t n = tensor_numel(r), idx[TENSOR_MAX_DIMS] = {0};
    for (int64_t k = 0; k < n; k++) {
        if (fi)
            tensor_set_i64(r, idx, fi(tensor_get_i64(a, idx)));
        else
            tensor_set(r, idx, f(tensor_get(a, idx)));
        tensor_next_index(a, idx);
    }
    return r;
}

static double neg_f(double v) { return -v; }
static int64_t neg_i(int64_t v) { return (int64_t)(0u - (uint64_t)v); }
static double abs_f(double v) { return fabs(v); }
static int64_t abs_i(int64_t v) { return v < 0 ? neg_i(v) : v; }

/* ---- reductions ------------------------------------------------------------ */

static tensor *reduce(parser *e, const char *fn, tensor *a)
{
    int64_t n = tensor_numel(a);
    if (strcmp(fn, "count") == 0) {
        int64_t c = 0;
        for (int64_t k = 0; k < n; k++)
            c += tensor_get_flat(a, k) != 0;
        return scalar_i64(c);
    }
    if (strcmp(fn, "max") == 0 || strcmp(fn, "min") == 0) {
        if (n == 0) {
            fail(e, "%s() of an empty tensor.", fn);
            return NULL;
        }
        int op = fn[1] == 'a' ? OP_MAX : OP_MIN;
        if (is_integral(a)) {
            int64_t m = tensor_get_i64(a, (int64_t[TENSOR_MAX_DIMS]){0});
            int64_t idx[TENSOR_MAX_DIMS] = {0};
            for (int64_t k = 0; k < n; k++, tensor_next_index(a, idx))
                m = apply_i(op, m, tensor_get_i64(a, idx));
            return scalar_i64(m);
        }
        double m = tensor_get_flat(a, 0);
        for (int64_t k = 1; k < n; k++)
            m = apply_f(op, m, tensor_get_flat(a, k));
        return scalar_f64(m);
    }
    /* sum, mean */
    if (is_integral(a) && fn[0] == 's') {
        uint64_t sum = 0;
        int64_t idx[TENSOR_MAX_DIMS] = {0};
        for (int64_t k = 0; k < n; k++, tensor_next_index(a, idx))
            sum += (uint64_t)tensor_get_i64(a, idx);
        return scalar_i64((int64_t)sum);
    }
    double sum = 0;
    for (int64_t k = 0; k < n; k++)
        sum += tensor_get_flat(a, k);
    if (fn[0] == 'm') {
        if (n == 0) {
            fail(e, "mean() of an empty tensor.");
            return NULL;
        }
        sum /= (double)n;
    }
    return scalar_f64(sum);
}

static double as_number(parser *e, tensor *t, const char *what)
{
    if (t->ndim != 0) {
        fail(e, "%s must be a number.", what);
        return 0;
    }
    return tensor_get(t, NULL);
}

static tensor *call_function(parser *e, const char *fn)
{
    tensor *args[4] = {0};
    int n = 0;
    skip_ws(e);
    if (!accept(e, ")")) {
        for (;;) {
            if (n == 4) {
                fail(e, "Too many arguments to %s().", fn);
                break;
            }
            args[n] = parse_expr(e);
            if (!args[n])
                break;
            n++;
            if (accept(e, ","))
                continue;
            if (!accept(e, ")"))
                fail(e, "Expected ',' or ')' in the arguments of %s(), at \"%s\".", fn, e->p);
            break;
        }
    }
    tensor *r = NULL;
    if (e->failed)
        goto out;
    int one = strcmp(fn, "abs") == 0 || strcmp(fn, "sum") == 0 || strcmp(fn, "mean") == 0 ||
              strcmp(fn, "count") == 0;
    if (one && n != 1) {
        fail(e, "%s() takes one argument, got %d.", fn, n);
    } else if (strcmp(fn, "abs") == 0) {
        int ints = is_integral(args[0]);
        r = unary(e, args[0], ints ? DTYPE_INT64 : DTYPE_FP64, abs_f, ints ? abs_i : NULL);
    } else if (one) {
        r = reduce(e, fn, args[0]);
    } else if (strcmp(fn, "max") == 0 || strcmp(fn, "min") == 0) {
        if (n == 1)
            r = reduce(e, fn, args[0]);
        else if (n == 2)
            r = binary(e, args[0], args[1], fn[1] == 'a' ? OP_MAX : OP_MIN);
        else
            fail(e, "%s() takes one tensor (its %s) or two (element-wise), got %d.", fn,
                 fn[1] == 'a' ? "largest element" : "smallest element", n);
    } else if (strcmp(fn, "allclose") == 0) {
        if (n < 2 || n > 4) {
            fail(e, "allclose(a, b[, rtol, atol]) takes 2 to 4 arguments, got %d.", n);
            goto out;
        }
        double rtol = n > 2 ? as_number(e, args[2], "rtol") : session_get_double(e->s, SETTING_RTOL);
        double atol = n > 3 ? as_number(e, args[3], "atol") : session_get_double(e->s, SETTING_ATOL);
        if (e->failed)
            goto out;
        /* computed results are float64: compare in the first tensor's dtype,
         * as the validator compares an output in its own */
        tensor *b = args[1]->dtype == args[0]->dtype ? tensor_ref(args[1]) : tensor_cast(args[1], args[0]->dtype);
        exec_compare_result cr;
        exec_compare(args[0], b, rtol, atol, session_profile(e->s), session_semantics(e->s) == EXEC_SEM_DEVICE, &cr);
        tensor_unref(b);
        if (cr.error)
            fail(e, "allclose: %s", cr.msg);
        else
            r = scalar_bool(cr.pass);
    }
out:
    for (int i = 0; i < n; i++)
        tensor_unref(args[i]);
    return r;
}

static const char *const functions[] = {"abs", "max", "min", "sum", "mean", "count", "allclose"};

/* ---- the grammar ---------------------------------------------------------------- */

static tensor *parse_number(parser *e)
{
    const char *start = e->p;
    char *end;
    errno = 0;
    int is_float = 0;
    for (const char *q = start; isalnum((unsigned char)*q) || *q == '.' ||
                                ((*q == '-' || *q == '+') && (q[-1] == 'e' || q[-1] == 'E'));
         q++)
        if (*q == '.' || *q == 'e' || *q == 'E')
            is_float = 1;
    if (!is_float || (start[0] == '0' && (start[1] == 'x' || start[1] == 'X'))) {
        long long v = strtoll(start, &end, 0);
        if (errno == ERANGE) {
            fail(e, "Numeric constant too large: \"%.*s\".", (int)(end - start), start);
            return NULL;
        }
        if (end != start && !is_name_char((unsigned char)*end)) {
            e->p = end;
            return scalar_i64(v);
        }
    }
    errno = 0;
    double d = strtod(start, &end);
    if (end == start || is_name_char((unsigned char)*end)) {
        fail(e, "Invalid number \"%.*s\".", (int)strcspn(start, " )],+-*/<>=!"), start);
        return NULL;
    }
    e->p = end;
    return scalar_f64(d);
}

/* The text of a subscript "[...]" at e->p (brackets balanced). */
static tensor *apply_subscripts(parser *e, tensor *t)
{
    for (;;) {
        skip_ws(e);
        if (*e->p != '[')
            return t;
        const char *start = e->p;
        int depth = 0;
        do {
            if (*e->p == '[')
                depth++;
            else if (*e->p == ']')
                depth--;
            e->p++;
        } while (*e->p && depth > 0);
        if (depth) {
            fail(e, "Unbalanced '[' in \"%s\".", start);
            tensor_unref(t);
            return NULL;
        }
        if (e->dry)
            continue; /* the tensor is not known: the brackets balance, that is all */
        char *spec = xstrndup(start, (size_t)(e->p - start));
        tensor *v = NULL;
        if (tensor_apply_subscript(t, spec, &v, e->err) != PTODB_OK) {
            e->failed = 1;
            v = NULL;
        }
        free(spec);
        tensor_unref(t);
        if (!v)
            return NULL;
        t = v;
    }
}

static tensor *parse_primary(parser *e)
{
    skip_ws(e);
    const char *c = e->p;
    tensor *t = NULL;
    if (*c == '(') {
        e->p++;
        t = parse_expr(e);
        if (t && !accept(e, ")")) {
            fail(e, "Expected ')' at \"%s\".", e->p);
            tensor_unref(t);
            return NULL;
        }
    } else if (*c == '$') {
        t = parse_dollar(e);
    } else if (isdigit((unsigned char)*c) || (*c == '.' && isdigit((unsigned char)c[1]))) {
        t = parse_number(e);
    } else if (is_name_start((unsigned char)*c)) {
        const char *start = c;
        while (is_name_char((unsigned char)*e->p))
            e->p++;
        char *name = xstrndup(start, (size_t)(e->p - start));
        skip_ws(e);
        if (*e->p == '(') {
            size_t k;
            for (k = 0; k < sizeof functions / sizeof *functions; k++)
                if (strcmp(functions[k], name) == 0)
                    break;
            if (k == sizeof functions / sizeof *functions) {
                fail(e, "No function \"%s\" (functions: abs, max, min, sum, mean, count, allclose).", name);
            } else {
                e->p++;
                t = call_function(e, name);
            }
        } else {
            t = lookup_name(e, name);
        }
        free(name);
    } else if (!*c) {
        fail(e, "Expected an expression at the end.");
    } else {
        fail(e, "Expected an expression at \"%s\".", c);
    }
    if (!t)
        return NULL;
    return apply_subscripts(e, t);
}

static tensor *parse_unary(parser *e)
{
    if (accept(e, "-")) {
        tensor *a = parse_unary(e);
        if (!a)
            return NULL;
        int ints = is_integral(a);
        tensor *r = unary(e, a, ints ? DTYPE_INT64 : DTYPE_FP64, neg_f, ints ? neg_i : NULL);
        tensor_unref(a);
        return r;
    }
    if (accept(e, "+"))
        return parse_unary(e);
    return parse_primary(e);
}

static tensor *combine(parser *e, tensor *a, tensor *b, int op)
{
    if (!b) {
        tensor_unref(a);
        return NULL;
    }
    tensor *r = binary(e, a, b, op);
    tensor_unref(a);
    tensor_unref(b);
    return r;
}

/* The two arithmetic levels: sum := product {(+|-) product}, product :=
 * unary {(*|/) unary}. */
static tensor *parse_arith(parser *e, int product)
{
    static const struct { char tok[2]; int op; } ops[2][2] = {
        {{"+", OP_ADD}, {"-", OP_SUB}},
        {{"*", OP_MUL}, {"/", OP_DIV}},
    };
    tensor *a = product ? parse_unary(e) : parse_arith(e, 1);
    while (a) {
        int k = accept(e, ops[product][0].tok) ? 0 : accept(e, ops[product][1].tok) ? 1 : -1;
        if (k < 0)
            break;
        a = combine(e, a, product ? parse_unary(e) : parse_arith(e, 1), ops[product][k].op);
    }
    return a;
}

static tensor *parse_expr(parser *e)
{
    tensor *a = parse_arith(e, 0);
    if (!a)
        return NULL;
    static const struct { const char *tok; int op; } cmps[] = {
        {"==", OP_EQ}, {"!=", OP_NE}, {"<=", OP_LE}, {">=", OP_GE}, {"<", OP_LT}, {">", OP_GT},
    };
    for (size_t i = 0; i < sizeof cmps / sizeof *cmps; i++)
        if (accept(e, cmps[i].tok))
            return combine(e, a, parse_arith(e, 0), cmps[i].op);
    return a;
}

ptodb_status expr_check(const char *text, strbuf *err)
{
    parser e = {.s = NULL, .text = text, .p = text, .err = err, .dry = 1};
    tensor *t = parse_expr(&e);
    if (t) {
        skip_ws(&e);
        if (*e.p)
            fail(&e, "Junk after the expression: \"%s\".", e.p);
        tensor_unref(t);
    }
    if (!e.failed && !t)
        fail(&e, "Cannot parse \"%s\".", text);
    return e.failed ? PTODB_ERR_USAGE : PTODB_OK;
}

ptodb_status expr_eval(session *s, const char *text, tensor **out, strbuf *note, strbuf *err)
{
    parser e = {.s = s, .text = text, .p = text, .note = note, .err = err};
    *out = NULL;
    tensor *t = parse_expr(&e);
    if (t) {
        skip_ws(&e);
        if (*e.p) {
            fail(&e, "Junk after the expression: \"%s\".", e.p);
            tensor_unref(t);
            t = NULL;
        }
    }
    if (!t) {
        if (!e.failed)
            fail(&e, "Cannot evaluate \"%s\".", text);
        return PTODB_ERR_USAGE;
    }
    *out = t;
    return PTODB_OK;
}

/* ---- print formats ---------------------------------------------------------------- */

static const char print_formats[] = "xotdfe";

int expr_parse_format(session *s, const char **args, char *fmt, long *count)
{
    const char *p = *args;
    if (*p != '/')
        return 0;
    p++;
    if (count && isdigit((unsigned char)*p)) {
        char *end;
        long n = strtol(p, &end, 10);
        if (n < 1 || n > 1000000) {
            if (s)
                session_errorf(s, "Count %.*s is out of range (1 to 1000000).", (int)(end - p), p);
            return -1;
        }
        *count = n;
        p = end;
    }
    while (isalpha((unsigned char)*p)) {
        if (!strchr(print_formats, *p)) {
            if (s)
                session_errorf(s, "Undefined output format \"%c\" (formats: x o t d f e).", *p);
            return -1;
        }
        *fmt = *p++;
    }
    if (*p && !isspace((unsigned char)*p)) {
        if (s)
            session_errorf(s, "Invalid format \"%s\".", *args);
        return -1;
    }
    while (isspace((unsigned char)*p))
        p++;
    *args = p;
    return 0;
}

/* ---- printing values ----------------------------------------------------------- */

tensor *expr_eval_report(session *s, const char *expr)
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

void expr_format_value(session *s, const tensor *t, char fmt, strbuf *sb)
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

void expr_print_recorded(session *s, const char *lead, tensor *t, char fmt)
{
    int n = expr_history_push(s, t);
    strbuf sb = STRBUF_INIT;
    strbuf_printf(&sb, "%s$%d = ", lead, n);
    expr_format_value(s, t, fmt, &sb);
    session_write(s, strbuf_str(&sb), sb.len);
    strbuf_free(&sb);
}

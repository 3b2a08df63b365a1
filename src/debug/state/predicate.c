#include "debug/state/predicate.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "exec/compare.h"

typedef enum { M_NAN, M_INF, M_MAD, M_MISMATCH, M_MAX, M_MIN, M_MEAN } metric;
typedef enum { OP_GT, OP_GE, OP_LT, OP_LE, OP_EQ, OP_NE } cmp_op;

typedef struct term {
    metric m;
    cmp_op op;
    double value;
} term;

/* Disjunctive normal form: or of ands, which is how users write these. */
struct predicate {
    char *text;
    term *terms;
    int *group; /* group[i]: the and-group of term i */
    int nterms;
};

static const char *skip(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

static int word_is(const char *p, const char *w, const char **end)
{
    size_t n = strlen(w);
    if (strncmp(p, w, n) != 0 || isalnum((unsigned char)p[n]) || p[n] == '_')
        return 0;
    *end = p + n;
    return 1;
}

predicate *predicate_parse(const char *text, strbuf *err)
{
    predicate *pr = xcalloc(1, sizeof *pr);
    pr->text = xstrdup(text);
    int cap = 0, group = 0;
    const char *p = skip(text);
    if (!*p) {
        strbuf_puts(err, "empty condition");
        predicate_free(pr);
        return NULL;
    }
    for (;;) {
        term t = {0};
        const char *e;
        static const struct {
            const char *name;
            metric m;
        } metrics[] = {{"max_abs_diff", M_MAD}, {"mismatch", M_MISMATCH}, {"max", M_MAX},
                       {"min", M_MIN}, {"mean", M_MEAN}};
        if (word_is(p, "nan", &e)) {
            t.m = M_NAN;
            p = e;
        } else if (word_is(p, "inf", &e)) {
            t.m = M_INF;
            p = e;
        } else {
            size_t i;
            for (i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
                if (word_is(p, metrics[i].name, &e))
                    break;
            if (i == sizeof metrics / sizeof metrics[0]) {
                strbuf_printf(err, "bad condition \"%s\": expected nan, inf, or one of max_abs_diff, "
                                   "mismatch, max, min, mean followed by a comparison", text);
                predicate_free(pr);
                return NULL;
            }
            t.m = metrics[i].m;
            p = skip(e);
            if (p[0] == '>' && p[1] == '=') t.op = OP_GE, p += 2;
            else if (p[0] == '<' && p[1] == '=') t.op = OP_LE, p += 2;
            else if (p[0] == '=' && p[1] == '=') t.op = OP_EQ, p += 2;
            else if (p[0] == '!' && p[1] == '=') t.op = OP_NE, p += 2;
            else if (p[0] == '>') t.op = OP_GT, p += 1;
            else if (p[0] == '<') t.op = OP_LT, p += 1;
            else {
                strbuf_printf(err, "bad condition \"%s\": expected a comparison (> >= < <= == !=) after %s",
                              text, metrics[i].name);
                predicate_free(pr);
                return NULL;
            }
            p = skip(p);
            char *num_end;
            t.value = strtod(p, &num_end);
            if (num_end == p) {
                strbuf_printf(err, "bad condition \"%s\": expected a number after the comparison", text);
                predicate_free(pr);
                return NULL;
            }
            p = num_end;
            if (*p == '%') {
                t.value /= 100.0;
                p++;
            }
        }
        if (pr->nterms == cap) {
            cap = cap ? cap * 2 : 4;
            pr->terms = xreallocarray(pr->terms, (size_t)cap, sizeof *pr->terms);
            pr->group = xreallocarray(pr->group, (size_t)cap, sizeof *pr->group);
        }
        pr->terms[pr->nterms] = t;
        pr->group[pr->nterms] = group;
        pr->nterms++;
        p = skip(p);
        if (!*p)
            break;
        if (word_is(p, "and", &e)) {
            p = skip(e);
        } else if (word_is(p, "or", &e)) {
            p = skip(e);
            group++;
        } else {
            strbuf_printf(err, "bad condition \"%s\": expected `and` or `or` at \"%s\"", text, p);
            predicate_free(pr);
            return NULL;
        }
        if (!*p) {
            strbuf_printf(err, "bad condition \"%s\": ends after and/or", text);
            predicate_free(pr);
            return NULL;
        }
    }
    return pr;
}

void predicate_free(predicate *p)
{
    if (!p)
        return;
    free(p->text);
    free(p->terms);
    free(p->group);
    free(p);
}

const char *predicate_text(const predicate *p)
{
    return p->text;
}

int tensor_has_nan(const tensor *t)
{
    if (!dtype_is_float(t->dtype))
        return 0;
    int64_t n = tensor_numel(t);
    for (int64_t k = 0; k < n; k++)
        if (isnan(tensor_get_flat(t, k)))
            return 1;
    return 0;
}

int tensor_has_inf(const tensor *t)
{
    if (!dtype_is_float(t->dtype))
        return 0;
    int64_t n = tensor_numel(t);
    for (int64_t k = 0; k < n; k++)
        if (isinf(tensor_get_flat(t, k)))
            return 1;
    return 0;
}

static int compare(double v, cmp_op op, double x)
{
    switch (op) {
    case OP_GT: return v > x;
    case OP_GE: return v >= x;
    case OP_LT: return v < x;
    case OP_LE: return v <= x;
    case OP_EQ: return v == x;
    default: return v != x;
    }
}

static int eval_term(const term *t, const predicate_env *env, strbuf *err)
{
    if (t->m == M_NAN)
        return tensor_has_nan(env->t);
    if (t->m == M_INF)
        return tensor_has_inf(env->t);
    if (t->m == M_MAD || t->m == M_MISMATCH) {
        if (!env->golden) {
            strbuf_puts(err, "no golden tensor to compare with");
            return -1;
        }
        exec_compare_result r;
        exec_compare(env->t, env->golden, env->rtol, env->atol, (exec_profile_id)env->profile, env->nan_dont_care, &r);
        if (r.error) {
            strbuf_puts(err, r.msg);
            return -1;
        }
        double v = t->m == M_MAD ? r.max_abs_diff
                                 : r.count ? (double)r.mismatches / (double)r.count : 0.0;
        return compare(v, t->op, t->value);
    }
    tensor_stats st;
    tensor_compute_stats(env->t, &st);
    if (st.finite == 0)
        return 0;
    double v = t->m == M_MAX ? st.max : t->m == M_MIN ? st.min : st.mean;
    return compare(v, t->op, t->value);
}

int predicate_eval(const predicate *p, const predicate_env *env, strbuf *err)
{
    int result = 0, group_ok = 1, cur = 0;
    for (int i = 0; i < p->nterms; i++) {
        if (p->group[i] != cur) {
            result |= group_ok;
            group_ok = 1;
            cur = p->group[i];
        }
        if (!group_ok)
            continue;
        int r = eval_term(&p->terms[i], env, err);
        if (r < 0)
            return -1;
        group_ok = r;
    }
    return result | group_ok;
}

#include "tensor/tensor_fmt.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tensor_fmt_header(const tensor *t, strbuf *out)
{
    char shape[256];
    tensor_format_shape(t->ndim, t->shape, shape, sizeof shape);
    strbuf_printf(out, "%s %s", dtype_name(t->dtype), shape);
    if (t->valid_ndim >= 0) {
        tensor_format_shape(t->valid_ndim, t->valid, shape, sizeof shape);
        strbuf_printf(out, " valid %s", shape);
    }
}

void tensor_fmt_stats(const tensor *t, strbuf *out)
{
    tensor_stats st;
    tensor_compute_stats(t, &st);
    if (st.finite > 0)
        strbuf_printf(out, "min %.6g max %.6g mean %.6g", st.min, st.max, st.mean);
    else
        strbuf_puts(out, "no finite element");
    strbuf_printf(out, " nan %" PRId64 " inf %" PRId64, st.nan_count, st.inf_count);
    if (st.sampled)
        strbuf_printf(out, " (over %" PRId64 " evenly spaced elements)", st.sampled);
}

/* One element as text, Python-like: ints plain, bools True/False, floats
 * with up to 6 significant digits, nan/inf/-inf. */
static int format_natural(const tensor *t, const int64_t *idx, char *buf, size_t size)
{
    dtype_kind k = dtype_kind_of(t->dtype);
    if (k == DTYPE_KIND_BOOL)
        return snprintf(buf, size, "%s", tensor_get(t, idx) != 0 ? "True" : "False");
    if (k != DTYPE_KIND_FLOAT)
        return snprintf(buf, size, "%" PRId64, tensor_get_i64(t, idx));
    double v = tensor_get(t, idx);
    if (isnan(v))
        return snprintf(buf, size, "nan");
    if (isinf(v))
        return snprintf(buf, size, v > 0 ? "inf" : "-inf");
    return snprintf(buf, size, "%.6g", v);
}

/* The element's bytes in storage as one unsigned number (little-endian). */
static uint64_t raw_bits(const tensor *t, const int64_t *idx)
{
    size_t size = dtype_size(t->dtype);
    const unsigned char *p = t->storage->data + (size_t)tensor_elem_index(t, idx) * size;
    uint64_t bits = 0;
    for (size_t b = 0; b < size && b < 8; b++)
        bits |= (uint64_t)p[b] << (8 * b);
    return bits;
}

int tensor_fmt_element(const tensor *t, const int64_t *idx, char fmt, char *buf, size_t size)
{
    int digits = (int)dtype_size(t->dtype) * 2;
    switch (fmt) {
    case 'x': return snprintf(buf, size, "0x%0*" PRIx64, digits, raw_bits(t, idx));
    case 'o': return snprintf(buf, size, "0%" PRIo64, raw_bits(t, idx));
    case 't': {
        uint64_t bits = raw_bits(t, idx);
        int nbits = (int)dtype_size(t->dtype) * 8, n = 0;
        for (int b = nbits - 1; b >= 0 && (size_t)n + 1 < size; b--)
            buf[n++] = (char)('0' + ((bits >> b) & 1));
        buf[n] = '\0';
        return n;
    }
    case 'd': {
        if (dtype_kind_of(t->dtype) != DTYPE_KIND_FLOAT)
            return snprintf(buf, size, "%" PRId64, tensor_get_i64(t, idx));
        double v = tensor_get(t, idx);
        if (!isfinite(v))
            return format_natural(t, idx, buf, size);
        v = trunc(v);
        return snprintf(buf, size, "%.0f", v == 0 ? 0.0 : v); /* no "-0" */
    }
    case 'f': return snprintf(buf, size, "%.9g", tensor_get(t, idx));
    case 'e': return snprintf(buf, size, "%.8e", tensor_get(t, idx));
    default: return format_natural(t, idx, buf, size);
    }
}

typedef struct grid_ctx {
    const tensor *t;
    char fmt;
    int elide;
    int edge;
    int width;
    int64_t idx[TENSOR_MAX_DIMS];
    strbuf *out;
} grid_ctx;

static int shown(const grid_ctx *g, int dim, int64_t i)
{
    int64_t n = g->t->shape[dim];
    return !g->elide || n <= 2 * g->edge || i < g->edge || i >= n - g->edge;
}

/* Visits the shown elements to find the widest. */
static void measure(grid_ctx *g, int dim)
{
    if (dim == g->t->ndim) {
        char buf[80];
        int w = tensor_fmt_element(g->t, g->idx, g->fmt, buf, sizeof buf);
        if (w > g->width)
            g->width = w;
        return;
    }
    for (int64_t i = 0; i < g->t->shape[dim]; i++) {
        if (!shown(g, dim, i))
            continue;
        g->idx[dim] = i;
        measure(g, dim + 1);
    }
}

static void print_dim(grid_ctx *g, int dim)
{
    const tensor *t = g->t;
    strbuf_putc(g->out, '[');
    int64_t n = t->shape[dim];
    int elided = 0;
    for (int64_t i = 0; i < n; i++) {
        if (!shown(g, dim, i)) {
            if (!elided) {
                elided = 1;
                if (dim == t->ndim - 1) {
                    strbuf_puts(g->out, "..., ");
                } else {
                    strbuf_printf(g->out, "...,\n%*s", dim + 1, "");
                }
            }
            continue;
        }
        g->idx[dim] = i;
        if (dim == t->ndim - 1) {
            char buf[80];
            tensor_fmt_element(t, g->idx, g->fmt, buf, sizeof buf);
            strbuf_printf(g->out, "%*s", g->width, buf);
            if (i + 1 < n)
                strbuf_puts(g->out, ", ");
        } else {
            print_dim(g, dim + 1);
            if (i + 1 < n) {
                strbuf_putc(g->out, ',');
                /* numpy: a blank line between blocks of 3-D and higher. */
                for (int k = dim; k < t->ndim - 2; k++)
                    strbuf_putc(g->out, '\n');
                strbuf_printf(g->out, "\n%*s", dim + 1, "");
            }
        }
    }
    strbuf_putc(g->out, ']');
}

void tensor_fmt_grid(const tensor *t, long max_elems, int edge, strbuf *out)
{
    tensor_fmt_grid_as(t, max_elems, edge, 0, out);
}

void tensor_fmt_grid_as(const tensor *t, long max_elems, int edge, char fmt, strbuf *out)
{
    if (t->ndim == 0) {
        char buf[80];
        tensor_fmt_element(t, NULL, fmt, buf, sizeof buf);
        strbuf_puts(out, buf);
        strbuf_putc(out, '\n');
        return;
    }
    grid_ctx g = {0};
    g.t = t;
    g.fmt = fmt;
    g.edge = edge > 0 ? edge : 3;
    g.elide = max_elems > 0 && tensor_numel(t) > max_elems;
    g.out = out;
    if (tensor_numel(t) == 0) {
        strbuf_puts(out, "[]\n");
        return;
    }
    measure(&g, 0);
    memset(g.idx, 0, sizeof g.idx);
    print_dim(&g, 0);
    strbuf_putc(out, '\n');
}

static void format_index(const tensor *t, const int64_t *idx, strbuf *out)
{
    strbuf_putc(out, '[');
    for (int d = 0; d < t->ndim; d++)
        strbuf_printf(out, "%s%" PRId64, d ? ", " : "", idx[d]);
    strbuf_putc(out, ']');
}

int tensor_describe_changes(const tensor *before, const tensor *after, int show, strbuf *out)
{
    if (before->dtype != after->dtype || before->ndim != after->ndim)
        return 0;
    for (int d = 0; d < before->ndim; d++)
        if (before->shape[d] != after->shape[d])
            return 0;
    size_t esize = dtype_size(before->dtype);
    int64_t n = tensor_numel(before), changed = 0;
    int64_t idx[TENSOR_MAX_DIMS] = {0};
    strbuf firsts = STRBUF_INIT;
    for (int64_t k = 0; k < n; k++, tensor_next_index(before, idx)) {
        const unsigned char *pa = before->storage->data + (size_t)tensor_elem_index(before, idx) * esize;
        const unsigned char *pb = after->storage->data + (size_t)tensor_elem_index(after, idx) * esize;
        if (memcmp(pa, pb, esize) == 0)
            continue;
        if (changed < show) {
            char a[80], b[80];
            tensor_fmt_element(before, before->ndim ? idx : NULL, 0, a, sizeof a);
            tensor_fmt_element(after, after->ndim ? idx : NULL, 0, b, sizeof b);
            strbuf_puts(&firsts, changed ? ", " : "");
            format_index(before, idx, &firsts);
            strbuf_printf(&firsts, ": %s -> %s", a, b);
        }
        changed++;
    }
    if (changed)
        strbuf_printf(out, "Changed %" PRId64 " of %" PRId64 " element%s: %s%s\n", changed, n, n == 1 ? "" : "s",
                      strbuf_str(&firsts), changed > show ? ", ..." : "");
    strbuf_free(&firsts);
    return changed > 0;
}

/* ---- subscripts ---------------------------------------------------------- */

static const char *skip_ws(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

/* An optional signed integer; returns 1 when one was read. */
static int read_int(const char **pp, int64_t *out, int *bad)
{
    const char *p = skip_ws(*pp);
    if (*p != '-' && *p != '+' && !isdigit((unsigned char)*p))
        return 0;
    char *end;
    errno = 0;
    long long v = strtoll(p, &end, 10);
    if (end == p || errno) {
        *bad = 1;
        return 0;
    }
    *out = v;
    *pp = end;
    return 1;
}

ptodb_status tensor_apply_subscript(tensor *t, const char *spec, tensor **out, strbuf *err)
{
    const char *p = skip_ws(spec);
    if (*p != '[') {
        strbuf_printf(err, "expected '[' to start a subscript, got \"%s\"", spec);
        return PTODB_ERR_USAGE;
    }
    p++;
    tensor *cur = tensor_ref(t);
    int dim = 0; /* the dimension of cur the next item applies to */
    int items = 0;
    for (;;) {
        p = skip_ws(p);
        if (*p == ']' && items == 0)
            break;
        if (dim >= cur->ndim) {
            strbuf_printf(err, "too many indices for tensor of dimension %d", t->ndim);
            tensor_unref(cur);
            return PTODB_ERR_BOUNDS;
        }
        int64_t n = cur->shape[dim];
        int64_t a = 0, b = n, step = 1;
        int bad = 0, has_a = read_int(&p, &a, &bad);
        p = skip_ws(p);
        ptodb_status st = PTODB_OK;
        tensor *next = NULL;
        if (*p == ':') {
            p++;
            int has_b = read_int(&p, &b, &bad);
            p = skip_ws(p);
            if (*p == ':') {
                p++;
                if (read_int(&p, &step, &bad) && step <= 0) {
                    strbuf_printf(err, "slice step must be positive, got %" PRId64, step);
                    tensor_unref(cur);
                    return PTODB_ERR_USAGE;
                }
            }
            if (bad)
                break;
            /* Python slice semantics: negative wraps once, then clips. */
            if (has_a && a < 0)
                a += n;
            if (has_b && b < 0)
                b += n;
            if (!has_a)
                a = 0;
            if (!has_b)
                b = n;
            a = a < 0 ? 0 : a > n ? n : a;
            b = b < 0 ? 0 : b > n ? n : b;
            if (b < a)
                b = a;
            next = tensor_slice(cur, dim, a, b, step, &st);
            dim++;
        } else if (has_a) {
            int64_t i = a < 0 ? a + n : a;
            if (i < 0 || i >= n) {
                strbuf_printf(err, "index %" PRId64 " is out of bounds for dimension %d with size %" PRId64,
                              a, dim, n);
                tensor_unref(cur);
                return PTODB_ERR_BOUNDS;
            }
            /* Drop the dimension: a view without it, at element i. */
            int64_t shape[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
            int nd = 0;
            for (int d = 0; d < cur->ndim; d++) {
                if (d == dim)
                    continue;
                shape[nd] = cur->shape[d];
                strides[nd] = cur->strides[d];
                nd++;
            }
            next = tensor_view(cur, nd, shape, strides, cur->offset + i * cur->strides[dim], &st);
        } else {
            bad = 1;
        }
        if (bad || (!next && st == PTODB_OK)) {
            strbuf_printf(err, "bad subscript \"%s\": expected integers or slices like 0:8 or ::2", spec);
            tensor_unref(cur);
            return PTODB_ERR_USAGE;
        }
        if (!next) {
            strbuf_printf(err, "cannot apply subscript \"%s\": %s", spec, ptodb_status_message(st));
            tensor_unref(cur);
            return st;
        }
        tensor_unref(cur);
        cur = next;
        items++;
        p = skip_ws(p);
        if (*p == ',') {
            p++;
            continue;
        }
        break;
    }
    p = skip_ws(p);
    if (*p != ']' || *skip_ws(p + 1) != '\0') {
        strbuf_printf(err, "bad subscript \"%s\": expected integers or slices like 0:8 or ::2", spec);
        tensor_unref(cur);
        return PTODB_ERR_USAGE;
    }
    *out = cur;
    return PTODB_OK;
}

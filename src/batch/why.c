/* The dataflow chain of one element, alone or against another pass (why.h,
 * docs/why.md). */
#include "batch/why.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "exec/machine.h"

/* One element an op read for the element the chain is at. */
typedef struct cand {
    int operand;
    uint64_t sid;
    int64_t off;
    double v;
    int known;
    int ndim;
    int64_t idx[TENSOR_MAX_DIMS]; /* in the operand */
} cand;

typedef enum { RED_NONE, RED_SUM, RED_MAX, RED_MIN, RED_MATMUL } red_kind;

typedef struct cands {
    cand *c;
    size_t n, cap;
    red_kind red;
    int followable; /* the op's mapping is modelled */
    char note[256];
} cands;

static void cands_add(cands *cs, const why_log *l, size_t before, int operand, const why_view *v, const int64_t *idx)
{
    if (cs->n == cs->cap) {
        cs->cap = cs->cap ? cs->cap * 2 : 16;
        cs->c = xreallocarray(cs->c, cs->cap, sizeof *cs->c);
    }
    cand *c = &cs->c[cs->n++];
    memset(c, 0, sizeof *c);
    c->operand = operand;
    c->sid = v->sid;
    c->off = why_view_offset(v, idx);
    c->ndim = v->ndim;
    for (int d = 0; d < v->ndim; d++)
        c->idx[d] = idx[d];
    c->known = why_log_value(l, before, v->sid, c->off, &c->v) == 0;
}

static int op_is(const char *op, const char *const *names)
{
    for (; *names; names++)
        if (strcmp(op, *names) == 0)
            return 1;
    return 0;
}

static const char *const ELEMENTWISE[] = {
    "add", "sub", "mul", "div", "maximum", "minimum", "adds", "subs", "muls", "divs", "maxs", "mins", "exp",
    "neg", "recip", "rsqrt", "sqrt", "cast", "abs", "log", "relu", "cmp", "cmps", "sel", "sels", "fillpad",
    "and", "or", "xor", "not", "shl", "shr", "rem", "rems", "prelu", "lrelu", "pow", "expands", NULL};
static const char *const CONSTANTS[] = {"full", "create", "alloc", "create_tensor", "zeros", "ones", NULL};

/* Broadcasting operand v to the result's index idx (right-aligned, size-1
 * dims repeat): 1 with vi filled, 0 when v does not broadcast to w. */
static int broadcast_index(const why_view *v, const why_view *w, const int64_t *idx, int64_t *vi)
{
    if (v->ndim > w->ndim)
        return 0;
    for (int d = 0; d < v->ndim; d++) {
        int od = d + (w->ndim - v->ndim);
        if (v->shape[d] == 1)
            vi[d] = 0;
        else if (v->shape[d] == w->shape[od])
            vi[d] = idx[od];
        else
            return 0;
    }
    return 1;
}

/* The elements record ri's write wi read for its element idx. */
static void map_inputs(const why_log *l, long ri, int wi, const int64_t *idx, cands *cs)
{
    const why_rec *r = &l->recs[ri];
    const why_write *w = &r->w[wi];
    cs->followable = 1;
    int64_t vi[TENSOR_MAX_DIMS] = {0};
    if (w->kind == WHY_W_QUEUE) {
        if (r->nin < 1 || r->in[0].ndim != w->v.ndim) {
            cs->followable = 0;
            snprintf(cs->note, sizeof cs->note, "the pushed tile's shape is not the queued one's");
            return;
        }
        for (int d = 0; d < w->v.ndim; d++)
            vi[d] = idx[d] + w->src_off[d];
        cands_add(cs, l, (size_t)ri, 0, &r->in[0], vi);
        return;
    }
    if (w->kind == WHY_W_POP) {
        cands_add(cs, l, (size_t)ri, 0, &w->v, idx);
        cs->c[0].operand = -1; /* the tile in flight itself */
        return;
    }
    const char *op = r->op;
    if (strcmp(op, "tpop_from_aiv") == 0 && r->nin == 2 && w->kind == WHY_W_RESULT) {
        /* the lanes' parts side by side along the split dim (xcore_merge) */
        const why_view *p0 = &r->in[0];
        int d = -1;
        for (int k = 0; k < w->v.ndim && k < p0->ndim; k++)
            if (p0->shape[k] < w->v.shape[k])
                d = k;
        if (d >= 0 && p0->ndim == w->v.ndim && r->in[1].ndim == w->v.ndim) {
            memcpy(vi, idx, sizeof vi);
            int lane = idx[d] >= p0->shape[d];
            if (lane)
                vi[d] -= p0->shape[d];
            cands_add(cs, l, (size_t)ri, lane, &r->in[lane], vi);
            return;
        }
    }
    if (w->kind == WHY_W_INPLACE && r->has_region && r->reg->kind == EXEC_REGION_STORE) {
        for (int k = 0; k < r->nin; k++)
            if (r->in[k].sid != w->v.sid) {
                if (r->in[k].ndim != w->v.ndim)
                    break;
                cands_add(cs, l, (size_t)ri, k, &r->in[k], idx);
                return;
            }
        cs->followable = 0;
        snprintf(cs->note, sizeof cs->note, "the stored tile's shape is not the box's");
        return;
    }
    if (r->has_region && r->reg->kind == EXEC_REGION_LOAD && r->nin >= 1) {
        const why_view *g = &r->in[0];
        if (g->ndim == r->reg->ndim && g->ndim >= w->v.ndim) {
            /* the tile's dims are the box's last ones; the others are 1 long */
            int extra = g->ndim - w->v.ndim;
            for (int d = 0; d < g->ndim; d++)
                vi[d] = r->reg->lo[d] + (d >= extra ? idx[d - extra] : 0);
            cands_add(cs, l, (size_t)ri, 0, g, vi);
            return;
        }
        cs->followable = 0;
        snprintf(cs->note, sizeof cs->note, "the load's box has another rank than its tile");
        return;
    }
    if (op_is(op, CONSTANTS)) {
        cs->followable = 1; /* a constant: nothing read */
        snprintf(cs->note, sizeof cs->note, "a constant: %s reads no element", op);
        return;
    }
    if (op_is(op, ELEMENTWISE) || strncmp(op, "row_expand", 10) == 0 || strncmp(op, "col_expand", 10) == 0) {
        for (int k = 0; k < r->nin; k++) {
            if (!broadcast_index(&r->in[k], &w->v, idx, vi)) {
                cs->n = 0;
                cs->followable = 0;
                snprintf(cs->note, sizeof cs->note, "operand %d of %s does not broadcast to its result", k + 1, op);
                return;
            }
            cands_add(cs, l, (size_t)ri, k, &r->in[k], vi);
        }
        return;
    }
    int row = strncmp(op, "row_", 4) == 0, col = strncmp(op, "col_", 4) == 0;
    if ((row || col) && r->nin >= 1 && r->in[0].ndim == 2 && w->v.ndim == 2) {
        const char *kind = op + 4;
        cs->red = strcmp(kind, "max") == 0 ? RED_MAX : strcmp(kind, "min") == 0 ? RED_MIN : RED_SUM;
        if (strcmp(kind, "sum") && strcmp(kind, "max") && strcmp(kind, "min") && strcmp(kind, "prod"))
            goto unmodelled;
        const why_view *x = &r->in[0];
        int64_t n = row ? x->shape[1] : x->shape[0];
        for (int64_t k = 0; k < n; k++) {
            vi[0] = row ? idx[0] : k;
            vi[1] = row ? k : idx[1];
            cands_add(cs, l, (size_t)ri, 0, x, vi);
        }
        return;
    }
    if ((strcmp(op, "matmul") == 0 || strcmp(op, "matmul_acc") == 0) && w->v.ndim == 2) {
        int acc = strcmp(op, "matmul_acc") == 0;
        if (r->nin < 2 + acc)
            goto unmodelled;
        const why_view *a = &r->in[acc], *b = &r->in[acc + 1];
        if (a->ndim != 2 || b->ndim != 2 || a->shape[1] != b->shape[0] || a->shape[0] != w->v.shape[0] ||
            b->shape[1] != w->v.shape[1])
            goto unmodelled; /* a transposed operand (a_trans/b_trans) */
        cs->red = RED_MATMUL;
        if (acc) {
            if (!broadcast_index(&r->in[0], &w->v, idx, vi))
                goto unmodelled;
            cands_add(cs, l, (size_t)ri, 0, &r->in[0], vi);
        }
        for (int64_t k = 0; k < a->shape[1]; k++) {
            int64_t ai[2] = {idx[0], k}, bi[2] = {k, idx[1]};
            cands_add(cs, l, (size_t)ri, acc, a, ai);
            cands_add(cs, l, (size_t)ri, acc + 1, b, bi);
        }
        return;
    }
unmodelled:
    cs->n = 0;
    cs->followable = 0;
    snprintf(cs->note, sizeof cs->note, "the chain stops here: the element mapping of %s is not modelled",
             op[0] ? op : "this statement");
}

/* The input a reduction's (or op's) result depends on most. */
static size_t most_important(const cands *cs, double out)
{
    size_t best = 0;
    double bv = -1;
    int acc = cs->red == RED_MATMUL && (cs->n % 2) == 1;
    for (size_t i = 0; i < cs->n; i++) {
        double m;
        if (cs->red == RED_MAX || cs->red == RED_MIN) {
            if (cs->c[i].known && cs->c[i].v == out)
                return i;
            continue;
        }
        if (cs->red == RED_MATMUL && i >= (size_t)acc) {
            size_t j = i - (size_t)acc;
            if (j % 2)
                continue;
            m = fabs(cs->c[i].v * cs->c[i + 1].v);
        } else {
            m = fabs(cs->c[i].v);
        }
        if (cs->c[i].known && m > bv) {
            bv = m;
            best = i;
        }
    }
    return best;
}

static void fmt_idx(const int64_t *idx, int ndim, strbuf *out)
{
    strbuf_putc(out, '[');
    for (int d = 0; d < ndim; d++)
        strbuf_printf(out, "%s%" PRId64, d ? ", " : "", idx[d]);
    strbuf_putc(out, ']');
}

/* The case tensor holding (sid, off) at the start, when nothing wrote it
 * before `before`: its write and index. */
static const why_write *leaf_of(const why_log *l, size_t before, uint64_t sid, int64_t off,
                                int64_t *idx)
{
    int wi;
    long ri = why_log_writer(l, before, sid, off, &wi, idx);
    if (ri == 0)
        return &l->recs[0].w[wi];
    return NULL;
}

static void describe_cand(const why_log *l, const why_rec *r, size_t before, const cand *c, why_input *in)
{
    memset(in, 0, sizeof *in);
    in->operand = c->operand;
    in->value = c->v;
    in->known = c->known;
    strbuf sb = STRBUF_INIT;
    int64_t li[TENSOR_MAX_DIMS];
    const why_write *leaf = leaf_of(l, before, c->sid, c->off, li);
    if (leaf) {
        in->leaf = 1;
        snprintf(in->leaf_name, sizeof in->leaf_name, "%s", leaf->name);
        in->leaf_ndim = leaf->v.ndim;
        memcpy(in->leaf_idx, li, sizeof li);
        strbuf_puts(&sb, leaf->name);
        fmt_idx(li, leaf->v.ndim, &sb);
    } else {
        if (c->operand < 0)
            strbuf_puts(&sb, "the tile in flight");
        else
            strbuf_puts(&sb, r->in_name && r->in_name[c->operand][0] ? r->in_name[c->operand] : "operand");
        fmt_idx(c->idx, c->ndim, &sb);
    }
    snprintf(in->what, sizeof in->what, "%s", strbuf_str(&sb));
    strbuf_free(&sb);
}

static void fill_iter(const why_rec *r, char *buf, size_t size)
{
    strbuf sb = STRBUF_INIT;
    for (int i = 0; i < r->nloops; i++)
        strbuf_printf(&sb, "%s%s=%" PRId64, i ? ", " : "", r->loop_var[i], r->loop_val[i]);
    snprintf(buf, size, "%s", strbuf_str(&sb));
    strbuf_free(&sb);
}

/* The hop that wrote (sid, off) last before record `before`. 1 a hop (h and
 * cs filled), 0 the element is a case tensor's, untouched (*leaf), -1
 * nothing wrote it. */
static int hop_at(const why_log *l, size_t before, uint64_t sid, int64_t off, why_hop *h, cands *cs,
                  const why_write **leaf, int64_t *leaf_idx)
{
    memset(h, 0, sizeof *h);
    cs->n = 0;
    cs->red = RED_NONE;
    cs->followable = 0;
    cs->note[0] = 0;
    h->rec = -1;
    h->followed = -1;
    int wi;
    int64_t idx[TENSOR_MAX_DIMS];
    long ri = why_log_writer(l, before, sid, off, &wi, idx);
    if (ri < 0)
        return -1;
    if (ri == 0) {
        *leaf = &l->recs[0].w[wi];
        memcpy(leaf_idx, idx, sizeof idx);
        return 0;
    }
    const why_rec *r = &l->recs[ri];
    const why_write *w = &r->w[wi];
    h->rec = ri;
    h->step = r->step;
    h->core = r->core;
    h->line = r->line;
    h->call = r->call;
    h->arrival = r->arrival;
    /* "+D" when the core stood there since an earlier moment (a pop that blocked first) */
    char plus[32] = "";
    if (r->after)
        snprintf(plus, sizeof plus, "+%" PRIu64, r->after);
    snprintf(h->position, sizeof h->position, "%d:%s:%u:%d:%u%s", l->pass_index, machine_core_name(r->core), r->call,
             r->line, r->arrival, plus);
    snprintf(h->func, sizeof h->func, "%s", r->func);
    snprintf(h->op, sizeof h->op, "%s", w->kind == WHY_W_QUEUE ? r->op : r->op);
    snprintf(h->target, sizeof h->target, "%s", r->target);
    why_log_line_text(l, r->line, h->text, sizeof h->text);
    fill_iter(r, h->iter, sizeof h->iter);
    snprintf(h->args, sizeof h->args, "%s", r->args);
    h->ndim = w->v.ndim;
    memcpy(h->idx, idx, sizeof idx);
    h->value = why_write_value(w, idx);
    if (r->has_region) {
        strbuf sb = STRBUF_INIT;
        exec_region_format(r->reg, &sb);
        snprintf(h->region, sizeof h->region, "%s", strbuf_str(&sb));
        strbuf_free(&sb);
    }
    if (w->kind == WHY_W_QUEUE)
        snprintf(h->note, sizeof h->note, "pushed onto the queue%s", w->src_off[0] || w->src_off[1] ? " (lane 1's half)" : "");
    map_inputs(l, ri, wi, idx, cs);
    if (cs->note[0])
        snprintf(h->note, sizeof h->note, "%s", cs->note);
    return 1;
}

/* Fills h's listed inputs from cs: all when few, else the extremes and
 * the one followed (index `follow` into cs). */
static void list_inputs(const why_log *l, why_hop *h, const cands *cs, size_t follow)
{
    const why_rec *r = &l->recs[h->rec];
    size_t before = (size_t)h->rec;
    h->nin = 0;
    h->followed = -1;
    if (cs->n <= WHY_MAX_INPUTS) {
        for (size_t i = 0; i < cs->n; i++) {
            describe_cand(l, r, before, &cs->c[i], &h->in[h->nin++]);
            if (i == follow)
                h->followed = (int)i;
        }
        return;
    }
    h->reduce_n = (int64_t)cs->n;
    size_t lo = 0, hi = 0;
    for (size_t i = 0; i < cs->n; i++) {
        if (cs->c[i].v < cs->c[lo].v)
            lo = i;
        if (cs->c[i].v > cs->c[hi].v)
            hi = i;
    }
    h->reduce_min = cs->c[lo].v;
    h->reduce_max = cs->c[hi].v;
    size_t pick[4];
    int np = 0;
    pick[np++] = follow;
    if (cs->red == RED_MATMUL) {
        size_t acc = cs->n % 2;
        if (follow >= acc && follow + 1 < cs->n && (follow - acc) % 2 == 0)
            pick[np++] = follow + 1;
        else if (follow >= acc + 1 && (follow - acc) % 2 == 1)
            pick[np++] = follow - 1;
        if (acc && follow != 0)
            pick[np++] = 0;
    } else {
        if (lo != follow)
            pick[np++] = lo;
        if (hi != follow && hi != lo)
            pick[np++] = hi;
    }
    for (int i = 0; i < np; i++) {
        describe_cand(l, r, before, &cs->c[pick[i]], &h->in[h->nin]);
        if (pick[i] == follow)
            h->followed = h->nin;
        h->nin++;
    }
}

static int differs(double a, double b, const why_options *o)
{
    if (o->ulp)
        return memcmp(&a, &b, sizeof a) != 0 && !(isnan(a) && isnan(b));
    if (isnan(a) || isnan(b))
        return !(isnan(a) && isnan(b));
    return fabs(a - b) > o->atol + o->rtol * fabs(b);
}

static void push_hop(why_chain *c, const why_hop *h)
{
    c->hops = xreallocarray(c->hops, c->n + 1, sizeof *c->hops);
    c->hops[c->n++] = *h;
}

/* A hop that only moves elements between cores (a push, a pop): the other
 * pass may have none (before ExpandMixedKernel). */
static int is_transfer(const why_log *l, const why_hop *h)
{
    if (h->rec < 0)
        return 0;
    return strncmp(h->op, "tpush", 5) == 0 || strncmp(h->op, "tpop", 4) == 0 ||
           strcmp(l->recs[h->rec].op, "move") == 0;
}

/* One op whatever the level it is written at: a tensor-level slice is the
 * load ConvertTensorToTileOps makes of it, an assemble the store. */
static const char *op_canon(const char *op)
{
    if (strcmp(op, "assemble") == 0)
        return "store";
    if (strcmp(op, "slice") == 0)
        return "load";
    return op;
}

static void set_first(why_chain *c, why_hop *h, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_first(why_chain *c, why_hop *h, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->first_why, sizeof h->first_why, fmt, ap);
    va_end(ap);
    h->first = 1;
    c->first = (int)c->n;
    c->blame_line = h->line;
    snprintf(c->blame_text, sizeof c->blame_text, "%s", h->text);
}

static const why_write *start_view(const why_log *l, const char *name, why_view *v)
{
    if (l->has_capture) {
        *v = l->capture;
        return NULL;
    }
    const why_write *w = why_log_case_tensor(l, name);
    if (w)
        *v = w->v;
    return w;
}

/* What kept element idx of case tensor w from being written: the stores
 * to that tensor that ran, and those that never did with the guard around
 * them. */
static void explain_not_written(const why_log *l, const why_write *w, const int64_t *idx, int ndim, strbuf *out)
{
    strbuf_printf(out, "no statement wrote %s", w->name);
    fmt_idx(idx, ndim, out);
    strbuf_puts(out, ": ");
    int nstores = 0;
    strbuf boxes = STRBUF_INIT;
    int lines[16], nl = 0;
    for (size_t i = 1; i < l->n; i++) {
        const why_rec *r = &l->recs[i];
        for (int k = 0; k < r->nw; k++)
            if (r->w[k].v.sid == w->v.sid && r->w[k].kind == WHY_W_INPLACE) {
                if (nstores++ < 6) {
                    if (nstores > 1)
                        strbuf_puts(&boxes, ", ");
                    if (r->has_region)
                        exec_region_format(r->reg, &boxes);
                    else
                        strbuf_printf(&boxes, "line %d", r->line);
                    strbuf_printf(&boxes, " (line %d, %s", r->line, machine_core_name(r->core));
                    if (r->nloops) {
                        char it[160];
                        fill_iter(r, it, sizeof it);
                        strbuf_printf(&boxes, ", %s", it);
                    }
                    strbuf_putc(&boxes, ')');
                }
                int seen = 0;
                for (int j = 0; j < nl; j++)
                    seen |= lines[j] == r->line;
                if (!seen && nl < 16)
                    lines[nl++] = r->line;
            }
    }
    /* a store whose box holds the element but whose tile's valid shape does not */
    for (size_t i = 1; i < l->n; i++) {
        const why_rec *r = &l->recs[i];
        if (!r->has_region || r->reg->kind != EXEC_REGION_STORE || r->reg->ndim != ndim)
            continue;
        int inside = 1;
        for (int d = 0; d < ndim && inside; d++)
            inside = idx[d] >= r->reg->lo[d] && idx[d] < r->reg->lo[d] + r->reg->len[d];
        for (int k = 0; inside && k < r->nw; k++)
            if (r->w[k].v.sid == w->v.sid && r->w[k].clipped) {
                strbuf_printf(out, "the store at line %d (%s, call %u of %s) covers it with its box ", r->line,
                              machine_core_name(r->core), r->call, r->func);
                exec_region_format(r->reg, out);
                strbuf_puts(out, " but writes only its tile's valid shape [");
                for (int d = 0; d < r->w[k].v.ndim; d++)
                    strbuf_printf(out, "%s%" PRId64, d ? ", " : "", r->w[k].v.shape[d]);
                strbuf_puts(out, "], which excludes this element; ");
                i = l->n;
                break;
            }
    }
    if (!nstores)
        strbuf_printf(out, "nothing wrote %s in this run", w->name);
    else
        strbuf_printf(out, "the %d writes to %s covered %s%s, not this element", nstores, w->name,
                      strbuf_str(&boxes), nstores > 6 ? ", ..." : "");
    strbuf_free(&boxes);
}

static int same_leaf(const why_input *a, const why_input *b)
{
    if (!a->leaf || !b->leaf || strcmp(a->leaf_name, b->leaf_name) != 0 || a->leaf_ndim != b->leaf_ndim)
        return 0;
    for (int d = 0; d < a->leaf_ndim; d++)
        if (a->leaf_idx[d] != b->leaf_idx[d])
            return 0;
    return 1;
}


/* The GM element two loads read for the chain's element: the same tensor
 * and index. */
static int gm_same(const exec_region *ra, const cand *a, const exec_region *rb, const cand *b)
{
    if (strcmp(ra->tensor, rb->tensor) != 0 || a->ndim != b->ndim)
        return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->idx[d] != b->idx[d])
            return 0;
    return 1;
}

static int same_idx(const cand *a, const cand *b)
{
    if (a->ndim != b->ndim)
        return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->idx[d] != b->idx[d])
            return 0;
    return 1;
}

static int is_queue_hop(const why_rec *r, const why_hop *h)
{
    (void)r;
    return strncmp(h->op, "tpush", 5) == 0;
}

static void base_of(const char *name, char *buf, size_t size)
{
    const char *u = strstr(name, "__");
    size_t n = u ? (size_t)(u - name) : strlen(name);
    if (n >= size)
        n = size - 1;
    memcpy(buf, name, n);
    buf[n] = 0;
}

/* The same operands (by SSA base name) in another order. */
static int operands_swapped(const why_rec *a, const why_rec *b)
{
    if (a->nin != b->nin || a->nin < 2 || !a->in_name || !b->in_name)
        return 0;
    int differ = 0;
    for (int i = 0; i < a->nin; i++) {
        char x[48], y[48];
        base_of(a->in_name[i], x, sizeof x);
        base_of(b->in_name[i], y, sizeof y);
        if (!x[0] || !y[0])
            return 0;
        differ |= strcmp(x, y) != 0;
    }
    if (!differ)
        return 0;
    /* each of a's names is one of b's */
    for (int i = 0; i < a->nin; i++) {
        char x[48];
        base_of(a->in_name[i], x, sizeof x);
        int found = 0;
        for (int j = 0; j < b->nin && !found; j++) {
            char y[48];
            base_of(b->in_name[j], y, sizeof y);
            found = strcmp(x, y) == 0;
        }
        if (!found)
            return 0;
    }
    return 1;
}

static void operand_list(const why_rec *r, strbuf *out)
{
    for (int i = 0; i < r->nin; i++)
        strbuf_printf(out, "%s%s", i ? ", " : "", r->in_name[i]);
}

static int same_name(const why_write *a, const why_write *b)
{
    return a && b && strcmp(a->name, b->name) == 0;
}

/* The chains reached other data: tensor ta here, tb there. Where the
 * tensors differ, the hop that took another operand is where the passes
 * part: the topmost hop whose followed operand has another name in the
 * two (neg(up) for neg(gate)); else h itself, the read. */
static void blame_source(why_chain *c, why_hop *h, const char *ta, const char *tb, int same_tensor)
{
    if (!same_tensor)
        for (size_t i = 0; i < c->n; i++) {
            why_hop *u = &c->hops[i];
            if (u->follow_a[0] && u->follow_b[0] && strcmp(u->follow_a, u->follow_b) != 0) {
                size_t keep = c->n;
                c->n = i; /* set_first names the hop by its index */
                set_first(c, u,
                          "it reads %s here where %s reads %s at the same point: the chains go on to other data "
                          "(%s here, %s there)",
                          u->follow_a, c->other_stem, u->follow_b, ta, tb);
                c->n = keep;
                return;
            }
        }
    set_first(c, h, "it reads %s here, %s in %s for the same element", ta, tb, c->other_stem);
}

/* Why not, against a pass that writes the element: its writer there, and
 * the loop around it that ran otherwise here (the header of the innermost
 * loop around this pass's writes to the tensor whose values differ). */
static void explain_other_writes(why_chain *c, const why_log *l, const why_write *w, const why_rec *rg,
                                 const why_hop *g, strbuf *out)
{
    strbuf_printf(out, "; in %s it is written by line %d (call %u of %s%s%s%s%s)", c->other_stem, g->line, g->call,
                  g->func, g->args[0] ? " with " : "", g->args, g->iter[0] ? ", " : "", g->iter);
    if (!rg->nloops)
        return;
    const char *var = rg->loop_var[rg->nloops - 1];
    int64_t want = rg->loop_val[rg->nloops - 1];
    int header = 0;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (size_t i = 1; i < l->n; i++) {
        const why_rec *r = &l->recs[i];
        int writes = 0;
        for (int k = 0; k < r->nw; k++)
            writes |= r->w[k].v.sid == w->v.sid && r->w[k].kind == WHY_W_INPLACE;
        if (!writes)
            continue;
        for (int k = r->nloops; k-- > 0;)
            if (strcmp(r->loop_var[k], var) == 0) {
                header = r->loop_line[k];
                if (r->loop_val[k] < lo)
                    lo = r->loop_val[k];
                if (r->loop_val[k] > hi)
                    hi = r->loop_val[k];
                break;
            }
    }
    if (!header || (want >= lo && want <= hi))
        return;
    strbuf_printf(out, ": the loop at line %d ran %s=%" PRId64 "..%" PRId64 " here, never %s=%" PRId64, header, var, lo,
                  hi, var, want);
    c->blame_line = header;
    c->found_by_control = 1;
    why_log_line_text(l, header, c->blame_text, sizeof c->blame_text);
}

void why_chain_build(const why_log *l, const why_log *other, const char *name, const int64_t *idx, int ndim,
                     const why_options *o, why_chain *out)
{
    memset(out, 0, sizeof *out);
    out->first = -1;
    out->other_pass = other ? o->other_pass : -1;
    snprintf(out->stem, sizeof out->stem, "%s", o->stem ? o->stem : "");
    snprintf(out->other_stem, sizeof out->other_stem, "%s", o->other_stem ? o->other_stem : "the other pass");
    snprintf(out->tensor, sizeof out->tensor, "%s", name);
    out->ndim = ndim;
    memcpy(out->idx, idx, (size_t)ndim * sizeof *idx);
    int depth = o->depth > 0 ? o->depth : 32;
    why_view va, vb;
    const why_write *wa = start_view(l, name, &va);
    if (!wa && !l->has_capture) {
        strbuf sb = STRBUF_INIT;
        strbuf_printf(&sb, "%s is no tensor of the case (its inputs and outputs)", name);
        out->error = strbuf_detach(&sb);
        return;
    }
    if (va.ndim != ndim) {
        strbuf sb = STRBUF_INIT;
        strbuf_printf(&sb, "%s has %d dimensions, the index %d", name, va.ndim, ndim);
        out->error = strbuf_detach(&sb);
        return;
    }
    for (int d = 0; d < ndim; d++)
        if (idx[d] < 0 || idx[d] >= va.shape[d]) {
            strbuf sb = STRBUF_INIT;
            strbuf_printf(&sb, "index %" PRId64 " is out of range for dimension %d of %s (size %" PRId64 ")",
                          idx[d], d, name, va.shape[d]);
            out->error = strbuf_detach(&sb);
            return;
        }
    int have_b = other && start_view(other, name, &vb) != NULL ? 1 : other && other->has_capture;
    if (have_b && vb.ndim != ndim)
        have_b = 0;
    if (!have_b)
        out->other_pass = -1;
    uint64_t sa = va.sid, sb_ = have_b ? vb.sid : 0;
    int64_t oa = why_view_offset(&va, idx), ob = have_b ? why_view_offset(&vb, idx) : 0;
    size_t ba = l->n, bb = have_b ? other->n : 0;
    cands ca = {0}, cb = {0};
    int lockstep = have_b;
    for (int hopn = 0; hopn < depth; hopn++) {
        why_hop h, g;
        const why_write *leaf = NULL, *leafb = NULL;
        int64_t li[TENSOR_MAX_DIMS], lib[TENSOR_MAX_DIMS];
        int ka = hop_at(l, ba, sa, oa, &h, &ca, &leaf, li);
        if (ka < 0) {
            if (hopn == 0 && wa) {
                strbuf sb = STRBUF_INIT;
                explain_not_written(l, wa, idx, ndim, &sb);
                out->why_not = strbuf_detach(&sb);
            }
            break;
        }
        if (ka == 0) {
            if (hopn == 0) {
                strbuf sb = STRBUF_INIT;
                explain_not_written(l, leaf, li, leaf->v.ndim, &sb);
                /* the other pass writes it: where, and the loop that did not get there here */
                why_hop og;
                const why_write *lg = NULL;
                int64_t lgi[TENSOR_MAX_DIMS];
                if (lockstep && hop_at(other, bb, sb_, ob, &og, &cb, &lg, lgi) > 0)
                    explain_other_writes(out, l, leaf, &other->recs[og.rec], &og, &sb);
                out->why_not = strbuf_detach(&sb);
            }
            break; /* a case input: the chain's leaf (listed as the last hop's input) */
        }
        int kb = lockstep ? hop_at(other, bb, sb_, ob, &g, &cb, &leafb, lib) : -1;
        if (lockstep && kb > 0) {
            /* a transfer hop on one side only (a queue the other pass does not have) */
            if (is_transfer(l, &h) != is_transfer(other, &g) && strcmp(op_canon(h.op), op_canon(g.op)) != 0) {
                if (is_transfer(l, &h)) {
                    size_t f = 0;
                    list_inputs(l, &h, &ca, f);
                    h.matched = 0;
                    snprintf(h.how, sizeof h.how, "a transfer pass %s has no counterpart of", out->other_stem);
                    h.differs = differs(h.value, g.value, o);
                    push_hop(out, &h);
                    if (!ca.n)
                        break;
                    sa = ca.c[f].sid;
                    oa = ca.c[f].off;
                    ba = (size_t)h.rec;
                    continue;
                }
                /* the other side's transfer: skip it there */
                if (cb.n) {
                    sb_ = cb.c[0].sid;
                    ob = cb.c[0].off;
                    bb = (size_t)g.rec;
                    hopn--;
                    continue;
                }
            }
        }
        if (lockstep && kb == 0 && strcmp(op_canon(h.op), "load") == 0 && ca.n == 1) {
            /* the other pass reads the case's tensor through a view, no copy */
            list_inputs(l, &h, &ca, 0);
            snprintf(h.how, sizeof h.how, "a load; %s reads the element through a view of %s, no copy",
                     out->other_stem, leafb ? leafb->name : "the case's tensor");
            int64_t gi[TENSOR_MAX_DIMS];
            const why_write *la_ = leaf_of(l, (size_t)h.rec, ca.c[0].sid, ca.c[0].off, gi);
            int same = la_ && leafb && strcmp(la_->name, leafb->name) == 0;
            for (int d = 0; same && la_ && d < la_->v.ndim; d++)
                same = gi[d] == lib[d];
            h.differs = !same;
            if (!same && out->first < 0)
                blame_source(out, &h, la_ ? la_->name : "?", leafb ? leafb->name : "?", same_name(la_, leafb));
            push_hop(out, &h);
            break;
        }
        size_t follow = ca.n ? most_important(&ca, h.value) : 0;
        if (lockstep && kb > 0) {
            h.matched = 1;
            h.other_value = g.value;
            h.other_line = g.line;
            snprintf(h.other_text, sizeof h.other_text, "%s", g.text);
            snprintf(h.other_iter, sizeof h.other_iter, "%s", g.iter);
            snprintf(h.other_region, sizeof h.other_region, "%s", g.region);
            snprintf(h.other_func, sizeof h.other_func, "%s", g.func);
            snprintf(h.other_args, sizeof h.other_args, "%s", g.args);
            h.other_call = g.call;
            h.differs = differs(h.value, g.value, o);
            if (hopn == 0)
                snprintf(h.how, sizeof h.how, "the same element %s", name);
            else
                snprintf(h.how, sizeof h.how, "the same operand and element of the aligned hop above%s%s",
                         h.region[0] && strcmp(h.region, g.region) == 0 ? "; the same region " : "",
                         h.region[0] && strcmp(h.region, g.region) == 0 ? h.region : "");
            if (h.differs && out->first < 0) {
                /* where the two part */
                const why_rec *ra = &l->recs[h.rec], *rb = &other->recs[g.rec];
                int loop_diff = -1;
                if (ra->nloops == rb->nloops)
                    for (int i = ra->nloops; i-- > 0;)
                        if (strcmp(ra->loop_var[i], rb->loop_var[i]) == 0 && ra->loop_val[i] != rb->loop_val[i])
                            loop_diff = i;
                if (strcmp(op_canon(h.op), op_canon(g.op)) != 0 && ra->if_line &&
                    (!rb->if_line || rb->if_branch != ra->if_branch)) {
                    /* another branch made it: the if is where the passes part */
                    char cond[256];
                    why_log_line_text(l, ra->if_line, cond, sizeof cond);
                    set_first(out, &h,
                              "the %s branch of `%s` (line %d) made this value (%s); in %s it is made by line %d (%s)%s",
                              ra->if_branch ? "then" : "else", cond, ra->if_line, h.op, out->other_stem, g.line, g.op,
                              rb->if_line ? (rb->if_branch ? ", in a then branch" : ", in an else branch") : "");
                    out->blame_line = ra->if_line;
                    snprintf(out->blame_text, sizeof out->blame_text, "%s", cond);
                    out->found_by_control = 1;
                } else if (strcmp(op_canon(h.op), op_canon(g.op)) != 0) {
                    set_first(out, &h, "the op differs: %s here, %s in %s (line %d)", h.op, g.op, out->other_stem,
                              g.line);
                } else if (loop_diff >= 0) {
                    set_first(out, &h,
                              "the loop at line %d made this value at %s=%" PRId64 "; in %s the same element's was "
                              "made at %s=%" PRId64 " (line %d): the loop runs otherwise",
                              ra->loop_line[loop_diff], ra->loop_var[loop_diff], ra->loop_val[loop_diff],
                              out->other_stem, rb->loop_var[loop_diff], rb->loop_val[loop_diff],
                              rb->loop_line[loop_diff]);
                    out->found_by_control = 1;
                    out->blame_line = ra->loop_line[loop_diff];
                    why_log_line_text(l, out->blame_line, out->blame_text, sizeof out->blame_text);
                } else if (ca.n != cb.n) {
                    set_first(out, &h, "it reads %zu elements here, %zu in %s", ca.n, cb.n, out->other_stem);
                } else {
                    /* the inputs, pairwise */
                    size_t worst = SIZE_MAX;
                    double wd = -1;
                    int leafdiff = 0;
                    why_input ia, ib;
                    for (size_t i = 0; i < ca.n; i++) {
                        describe_cand(l, ra, (size_t)h.rec, &ca.c[i], &ia);
                        describe_cand(other, rb, (size_t)g.rec, &cb.c[i], &ib);
                        if (ia.leaf && ib.leaf && !same_leaf(&ia, &ib))
                            leafdiff = 1;
                        if (differs(ca.c[i].v, cb.c[i].v, o)) {
                            double dd = fabs(ca.c[i].v - cb.c[i].v);
                            if (!(dd <= wd)) {
                                wd = dd;
                                worst = i;
                            }
                        }
                    }
                    /* a load: the GM element it read for this element */
                    if (ra->has_region && rb->has_region && ra->reg->kind == EXEC_REGION_LOAD &&
                        rb->reg->kind == EXEC_REGION_LOAD && ca.n == 1 && cb.n == 1 &&
                        !gm_same(ra->reg, &ca.c[0], rb->reg, &cb.c[0]))
                        leafdiff = 1;
                    /* a push: the element of the pushed tile it queued for this one */
                    int queue_diff = 0;
                    if (l->recs[h.rec].nw && is_queue_hop(ra, &h) && is_queue_hop(rb, &g) && ca.n == 1 && cb.n == 1 &&
                        !same_idx(&ca.c[0], &cb.c[0]))
                        queue_diff = 1;
                    int swapped = strcmp(h.op, g.op) == 0 && operands_swapped(ra, rb);
                    if (leafdiff && strcmp(ra->reg->tensor, rb->reg->tensor) != 0 && ra->has_region && rb->has_region) {
                        blame_source(out, &h, ra->reg->tensor, rb->reg->tensor, 0);
                    } else if (leafdiff) {
                        if (h.region[0] && g.region[0])
                            set_first(out, &h,
                                      "this execution (call %u of %s%s%s) reads %s; the same point of %s (call %u of "
                                      "%s%s%s%s%s) reads %s",
                                      h.call, h.func, h.args[0] ? " with " : "", h.args, h.region, out->other_stem,
                                      g.call, g.func, g.args[0] ? " with " : "", g.args, g.iter[0] ? ", " : "",
                                      g.iter, g.region);
                        else
                            set_first(out, &h, "it reads other elements of the case's tensors than in %s",
                                      out->other_stem);
                    } else if (queue_diff) {
                        strbuf x = STRBUF_INIT, y = STRBUF_INIT;
                        fmt_idx(ca.c[0].idx, ca.c[0].ndim, &x);
                        fmt_idx(cb.c[0].idx, cb.c[0].ndim, &y);
                        set_first(out, &h,
                                  "the push queues element %s of %s for this one; in %s (line %d) the same element "
                                  "is %s of %s: the split hands %s another part",
                                  strbuf_str(&x), ra->in_name && ra->in_name[0][0] ? ra->in_name[0] : "its tile",
                                  out->other_stem, g.line, strbuf_str(&y),
                                  rb->in_name && rb->in_name[0][0] ? rb->in_name[0] : "its tile",
                                  "the receiving lane");
                        strbuf_free(&x);
                        strbuf_free(&y);
                    } else if (swapped) {
                        strbuf sa_ = STRBUF_INIT, sb2 = STRBUF_INIT;
                        operand_list(ra, &sa_);
                        operand_list(rb, &sb2);
                        set_first(out, &h, "the operands are in another order: %s(%s) here, %s(%s) in %s (line %d)",
                                  h.op, strbuf_str(&sa_), g.op, strbuf_str(&sb2), out->other_stem, g.line);
                        strbuf_free(&sa_);
                        strbuf_free(&sb2);
                    } else if (worst == SIZE_MAX) {
                        set_first(out, &h, "every element it read agrees with %s (line %d), its value does not",
                                  out->other_stem, g.line);
                    } else {
                        follow = worst;
                    }
                }
            }
        }
        if (lockstep && kb > 0 && ca.n && cb.n == ca.n) {
            const why_rec *ra = &l->recs[h.rec], *rb = &other->recs[g.rec];
            int op_a = ca.c[follow].operand, op_b = cb.c[follow].operand;
            if (op_a >= 0 && op_a < ra->nin && ra->in_name)
                base_of(ra->in_name[op_a], h.follow_a, sizeof h.follow_a);
            if (op_b >= 0 && op_b < rb->nin && rb->in_name)
                base_of(rb->in_name[op_b], h.follow_b, sizeof h.follow_b);
        }
        list_inputs(l, &h, &ca, follow);
        push_hop(out, &h);
        if (out->first >= 0 || !ca.followable || !ca.n)
            break;
        if (lockstep && (kb <= 0 || cb.n != ca.n))
            lockstep = 0;
        if (lockstep) {
            sb_ = cb.c[follow].sid;
            ob = cb.c[follow].off;
            bb = (size_t)g.rec;
        }
        sa = ca.c[follow].sid;
        oa = ca.c[follow].off;
        ba = (size_t)h.rec;
        if (hopn + 1 == depth)
            snprintf(out->hops[out->n - 1].note + strlen(out->hops[out->n - 1].note),
                     sizeof out->hops[0].note - strlen(out->hops[out->n - 1].note),
                     "%sdepth %d reached (why ... depth N)", out->hops[out->n - 1].note[0] ? "; " : "", depth);
    }
    free(ca.c);
    free(cb.c);
}

void why_chain_free(why_chain *c)
{
    free(c->hops);
    free(c->why_not);
    free(c->error);
    free(c->reason_why);
    free(c->divergence);
    memset(c, 0, sizeof *c);
}

int why_worst_element(const tensor *a, const tensor *g, double rtol, double atol, int64_t *idx)
{
    if (!a || !g || a->ndim != g->ndim)
        return -1;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != g->shape[d])
            return -1;
    int64_t n = tensor_numel(a);
    if (n <= 0)
        return -1;
    int64_t cur[TENSOR_MAX_DIMS] = {0};
    double best = -1;
    for (int64_t k = 0; k < n; k++) {
        double x = tensor_get(a, cur), y = tensor_get(g, cur);
        double s = isnan(x) != isnan(y) ? INFINITY : fabs(x - y) / (atol + rtol * fabs(y) + 1e-300);
        if (isnan(s))
            s = 0;
        if (s > best) {
            best = s;
            memcpy(idx, cur, sizeof cur);
        }
        for (int d = a->ndim - 1; d >= 0; d--) {
            if (++cur[d] < a->shape[d])
                break;
            cur[d] = 0;
        }
    }
    return 0;
}

/* ---- output ----------------------------------------------------------------------------------- */

static void text_value(double v, strbuf *out)
{
    strbuf_printf(out, "%.9g", v);
}

void why_chain_text(const why_chain *c, strbuf *out)
{
    if (c->error) {
        strbuf_printf(out, "%s\n", c->error);
        return;
    }
    strbuf_printf(out, "why %s", c->tensor);
    fmt_idx(c->idx, c->ndim, out);
    if (c->stem[0])
        strbuf_printf(out, " in %s", c->stem);
    if (c->other_pass >= 0)
        strbuf_printf(out, ", against %s", c->other_stem);
    strbuf_puts(out, ":\n");
    if (c->why_not)
        strbuf_printf(out, "  why not: %s\n", c->why_not);
    for (size_t i = 0; i < c->n; i++) {
        const why_hop *h = &c->hops[i];
        strbuf_printf(out, "%s#%zu %s @%" PRIu64 " %s:%d %s, call %u of %s", h->first ? "=>" : "  ", i,
                      h->position, h->step ? h->step - 1 : 0, machine_core_name(h->core), h->line,
                      h->core == EXEC_CORE_AIV0 ? "lane 0" : h->core == EXEC_CORE_AIV1 ? "lane 1" : "no lane", h->call,
                      h->func);
        if (h->args[0])
            strbuf_printf(out, " with %s", h->args);
        if (h->iter[0])
            strbuf_printf(out, ", %s", h->iter);
        strbuf_printf(out, "\n     %s\n     %s", h->text, h->op[0] ? h->op : "(no op)");
        if (h->target[0])
            strbuf_printf(out, " -> %s", h->target);
        fmt_idx(h->idx, h->ndim, out);
        strbuf_puts(out, " = ");
        text_value(h->value, out);
        if (h->region[0])
            strbuf_printf(out, "  (%s)", h->region);
        strbuf_putc(out, '\n');
        if (h->reduce_n)
            strbuf_printf(out, "     reads %" PRId64 " elements, from %.9g to %.9g; of them:\n", h->reduce_n,
                          h->reduce_min, h->reduce_max);
        for (int k = 0; k < h->nin; k++) {
            strbuf_printf(out, "     %s %s = ", k == h->followed ? "<-" : "  ", h->in[k].what);
            if (h->in[k].known)
                text_value(h->in[k].value, out);
            else
                strbuf_puts(out, "?");
            if (h->in[k].leaf)
                strbuf_puts(out, " (the case's input)");
            strbuf_putc(out, '\n');
        }
        if (h->note[0])
            strbuf_printf(out, "     note: %s\n", h->note);
        if (h->matched) {
            strbuf_printf(out, "     %s: line %d, %.9g%s (matched by %s)\n", c->other_stem, h->other_line,
                          h->other_value, h->differs ? ", DIFFERS" : ", agrees", h->how);
        } else if (h->how[0]) {
            strbuf_printf(out, "     %s: %s\n", c->other_stem, h->how);
        }
        if (h->first)
            strbuf_printf(out, "     FIRST DIFFERING HOP: %s\n", h->first_why);
    }
    if (c->other_pass >= 0) {
        if (c->first >= 0)
            strbuf_printf(out, "first differing hop: #%d, line %d%s: %s\n", c->first, c->blame_line,
                          !c->found_by_control                         ? ""
                          : strncmp(c->blame_text, "if ", 3) == 0 ? " (the if)"
                                                                       : " (the loop header)",
                          c->blame_text);
        else if (c->why_not && c->blame_line)
            strbuf_printf(out, "where the passes part: line %d (the loop header): %s\n", c->blame_line,
                          c->blame_text);
        else
            strbuf_printf(out, "no hop differs from %s where the chains align\n", c->other_stem);
    }
}

static void json_str(const char *s, strbuf *out)
{
    strbuf_putc(out, '"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            strbuf_printf(out, "\\%c", ch);
        else if (ch < 0x20)
            strbuf_printf(out, "\\u%04x", ch);
        else
            strbuf_putc(out, (char)ch);
    }
    strbuf_putc(out, '"');
}

static void json_num(double v, strbuf *out)
{
    if (isfinite(v))
        strbuf_printf(out, "%.17g", v);
    else
        strbuf_puts(out, "null");
}

static void json_idx(const int64_t *idx, int n, strbuf *out)
{
    strbuf_putc(out, '[');
    for (int d = 0; d < n; d++)
        strbuf_printf(out, "%s%" PRId64, d ? "," : "", idx[d]);
    strbuf_putc(out, ']');
}

void why_chain_jsonl(const why_chain *c, strbuf *out)
{
    for (size_t i = 0; i < c->n; i++) {
        const why_hop *h = &c->hops[i];
        strbuf_printf(out, "{\"type\":\"hop\",\"hop\":%zu,\"position\":\"%s\",\"step\":%" PRIu64 ",\"core\":", i,
                      h->position, h->step ? h->step - 1 : 0);
        json_str(machine_core_name(h->core), out);
        strbuf_printf(out, ",\"lane\":%d,\"line\":%d,\"call\":%u,\"func\":",
                      h->core == EXEC_CORE_AIV0 ? 0 : h->core == EXEC_CORE_AIV1 ? 1 : -1, h->line, h->call);
        json_str(h->func, out);
        strbuf_puts(out, ",\"iteration\":");
        json_str(h->iter, out);
        strbuf_puts(out, ",\"statement\":");
        json_str(h->text, out);
        strbuf_puts(out, ",\"op\":");
        json_str(h->op, out);
        strbuf_puts(out, ",\"target\":");
        json_str(h->target, out);
        strbuf_puts(out, ",\"index\":");
        json_idx(h->idx, h->ndim, out);
        strbuf_puts(out, ",\"value\":");
        json_num(h->value, out);
        strbuf_puts(out, ",\"region\":");
        json_str(h->region, out);
        strbuf_printf(out, ",\"reduce_count\":%" PRId64 ",\"inputs\":[", h->reduce_n);
        for (int k = 0; k < h->nin; k++) {
            strbuf_puts(out, k ? ",{\"element\":" : "{\"element\":");
            json_str(h->in[k].what, out);
            strbuf_puts(out, ",\"value\":");
            if (h->in[k].known)
                json_num(h->in[k].value, out);
            else
                strbuf_puts(out, "null");
            strbuf_printf(out, ",\"case_input\":%s,\"followed\":%s}", h->in[k].leaf ? "true" : "false",
                          k == h->followed ? "true" : "false");
        }
        strbuf_puts(out, "],\"note\":");
        json_str(h->note, out);
        if (c->other_pass >= 0) {
            strbuf_printf(out, ",\"matched\":%s,\"how\":", h->matched ? "true" : "false");
            json_str(h->how, out);
            strbuf_printf(out, ",\"other_line\":%d,\"other_value\":", h->other_line);
            if (h->matched)
                json_num(h->other_value, out);
            else
                strbuf_puts(out, "null");
            strbuf_printf(out, ",\"differs\":%s,\"first_differing\":%s,\"first_why\":", h->differs ? "true" : "false",
                          h->first ? "true" : "false");
            json_str(h->first_why, out);
        }
        strbuf_puts(out, "}\n");
    }
    strbuf_puts(out, "{\"type\":\"summary\",\"tensor\":");
    json_str(c->tensor, out);
    strbuf_puts(out, ",\"index\":");
    json_idx(c->idx, c->ndim, out);
    strbuf_puts(out, ",\"pass\":");
    json_str(c->stem, out);
    strbuf_puts(out, ",\"other_pass\":");
    if (c->other_pass >= 0)
        json_str(c->other_stem, out);
    else
        strbuf_puts(out, "null");
    strbuf_printf(out, ",\"hops\":%zu,\"first_differing\":%d,\"blame_line\":%d,\"blame_is_loop\":%s,\"why_not\":", c->n,
                  c->first, c->blame_line, c->found_by_control ? "true" : "false");
    if (c->why_not)
        json_str(c->why_not, out);
    else
        strbuf_puts(out, "null");
    strbuf_puts(out, ",\"error\":");
    if (c->error)
        json_str(c->error, out);
    else
        strbuf_puts(out, "null");
    strbuf_printf(out, ",\"chain_blame_line\":%d,\"reason\":", c->chain_blame_line);
    if (c->reason[0])
        json_str(c->reason, out);
    else
        strbuf_puts(out, "null");
    strbuf_puts(out, ",\"reason_why\":");
    if (c->reason_why)
        json_str(c->reason_why, out);
    else
        strbuf_puts(out, "null");
    strbuf_puts(out, ",\"divergence\":");
    if (c->divergence)
        json_str(c->divergence, out);
    else
        strbuf_puts(out, "null");
    strbuf_puts(out, "}\n");
}

#include "batch/divergence.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "batch/split_change.h"
#include "batch/trace.h"
#include "batch/why_log.h"
#include "exec/machine.h"
#include "ranks/run.h"


typedef struct diff_info {
    double maxd, maxg;
    int64_t outside, first;
    double fa, fg;
} diff_info;

typedef struct cmp_ctx {
    const trace *good;
    double rtol, atol;
    bisect_stmt *st;
    const divergence_side *good_side, *bad_side;
    const runpass_options *ro;
    /* the first statement whose op differs from the passing pass's
     * statement of the same (unshared) target name: reported when no value
     * differs */
    int hint;
    trace_rec hint_rec;  /* strings below; t not owned; its region hint_reg */
    exec_region hint_reg;
    const trace_rec *hint_good;
    char *hint_name, *hint_func, *hint_carry;
    int lane1_only;      /* the divergence found so far is on AIV1 only */
    int ranked;          /* a multi-rank case: statements carry their rank */
    int have_main;       /* found one off AIV1: now collecting later ones */
    /* the first divergence at a statement whose op changed within its kind
     * (sub where the passing pass has add): no pass does that on purpose,
     * so it is the likelier cause than an earlier differing intermediate */
    int have_flip;
    int flip_line, flip_core, flip_rank;
    char *flip_name, *flip_func, *flip_op, *flip_was;
    const trace_rec *flip_good;
    diff_info flip_di;
    int64_t flip_count;
    int flip_nan;
    /* the `if` statements that ran before the first divergence with no
     * counterpart in the passing pass, the latest last (test_new_ifs) */
    struct new_if {
        int line, core, rank;
        char *func, *name;
        uint64_t runs, then;
    } new_ifs[BISECT_MAX_NEW_IFS];
    size_t nnew_ifs;
    /* the counts reported: those when the report was complete (the later
     * list full, or the changed op found after it), not at the run's end */
    int frozen;
    size_t saved_compared, saved_unmatched, saved_realigned;
    tensor *half;        /* lane_half's tensor of the record being compared */
} cmp_ctx;

static void save_counts(cmp_ctx *cx)
{
    cx->frozen = 1;
    cx->saved_compared = cx->st->compared;
    cx->saved_unmatched = cx->st->unmatched;
    cx->saved_realigned = cx->st->realigned;
}

/* "t|sub" -> "sub" */
static char *op_of(const char *key)
{
    const char *bar = key ? strrchr(key, '|') : NULL;
    return xstrdup(bar ? bar + 1 : "?");
}

/* Drops a found statement (keeps the counts). */
static void bisect_stmt_clear(bisect_stmt *s)
{
    free(s->file);
    free(s->func);
    free(s->tensor);
    free(s->good_file);
    free(s->good_func);
    free(s->good_tensor);
    free(s->region);
    s->file = s->func = s->tensor = s->good_file = s->good_func = s->good_tensor = s->region = NULL;
    free(s->stmt_op);
    free(s->good_stmt_op);
    s->stmt_op = s->good_stmt_op = NULL;
    s->nan_new = 0;
    s->found = 0;
    s->by_provenance = 0;
}

static int same_shape(const tensor *a, const tensor *b)
{
    if (a->ndim != b->ndim)
        return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->shape[d] != b->shape[d])
            return 0;
    return 1;
}

/* A tile whose valid region is all of it (or that declares none). */
static int fully_valid(const tensor *t)
{
    if (t->valid_ndim != t->ndim)
        return 1;
    for (int d = 0; d < t->ndim; d++)
        if (t->valid[d] >= 0 && t->valid[d] < t->shape[d])
            return 0;
    return 1;
}

/* Values compared element by element: the same shape, or the same elements
 * in another shape (FlattenTileNdTo2D makes a [4, 8, 16] tile [32, 16]: the
 * same row-major order), both fully valid. */
static int comparable(const tensor *a, const tensor *b)
{
    return same_shape(a, b) ||
           (tensor_numel(a) == tensor_numel(b) && tensor_numel(a) > 0 && fully_valid(a) && fully_valid(b));
}

/* The valid region of a tile (REF's _pypto_valid_shape) when it has one of
 * its rank: elements outside it are padding, whatever a pass leaves there. */
static int valid_dim(const tensor *t, int d)
{
    if (t->valid_ndim != t->ndim || t->valid[d] < 0 || t->valid[d] > t->shape[d])
        return (int)t->shape[d];
    return (int)t->valid[d];
}

static int in_valid(const tensor *a, const tensor *g, int64_t k)
{
    if ((a->valid_ndim != a->ndim && g->valid_ndim != g->ndim) || !same_shape(a, g))
        return 1; /* another shape: comparable() found both fully valid */
    for (int d = a->ndim - 1; d >= 0; d--) {
        int64_t n = a->shape[d] ? a->shape[d] : 1, i = k % n;
        if (i >= valid_dim(a, d) || i >= valid_dim(g, d))
            return 0;
        k /= n;
    }
    return 1;
}

/* Compares a with g elementwise (same shape): 0 when every element is
 * within atol + rtol * |g|. With full, fills the figures of the report;
 * without, stops at the first element outside. */
static int differs(const tensor *a, const tensor *g, double rtol, double atol, int full, diff_info *di)
{
    int64_t n = tensor_numel(a);
    memset(di, 0, sizeof *di);
    di->first = -1;
    /* the same bits: every element equal (NaN to NaN), so nothing outside
     * and no difference at all; only the full report needs the figures */
    if (!full && tensor_same_bits(a, g))
        return 0;
    for (int64_t k = 0; k < n; k++) {
        if (!in_valid(a, g, k))
            continue;
        double x = tensor_get_flat(a, k), y = tensor_get_flat(g, k);
        if (isnan(x) && isnan(y))
            continue; /* NaN in both: the same value (as the bit-level check says) */
        double d = fabs(x - y);
        int bad;
        if (x == y)
            bad = 0;
        else if (isnan(x) || isnan(y) || isinf(x) || isinf(y))
            bad = 1;
        else
            bad = !(d <= atol + rtol * fabs(y));
        if (isnan(d) || isnan(di->maxd))
            di->maxd = x == y ? di->maxd : NAN;
        else if (d > di->maxd)
            di->maxd = d;
        if (isfinite(y) && fabs(y) > di->maxg)
            di->maxg = fabs(y);
        if (bad) {
            if (di->first < 0) {
                di->first = k;
                di->fa = x;
                di->fg = y;
            }
            di->outside++;
            if (!full)
                return 1;
        }
    }
    /* Small intermediates (a sum of squares, a normaliser) sit far below
     * atol, so elementwise closeness misses them; relative to the tensor's
     * own magnitude, a difference of more than rtol is a divergence too. */
    return di->outside > 0 || isnan(di->maxd) || (di->maxd > 0 && di->maxd > rtol * di->maxg);
}

/* Another statement that differs after the first: its line and tensor,
 * once per line, up to BISECT_MAX_LATER (then the counts are kept). */
static void note_later(cmp_ctx *cx, const trace_rec *rec)
{
    bisect_stmt *s = cx->st;
    for (size_t k = 0; k < s->nlater; k++)
        if (s->later_line[k] == rec->line)
            return;
    if (s->nlater >= BISECT_MAX_LATER)
        return;
    s->later_line[s->nlater] = rec->line;
    s->later_tensor[s->nlater] = xstrdup(rec->name);
    s->nlater++;
    if (s->nlater == BISECT_MAX_LATER)
        save_counts(cx);
}

static int has_nonfinite(const tensor *t)
{
    int64_t n = tensor_numel(t);
    for (int64_t k = 0; k < n; k++)
        if (!isfinite(tensor_get_flat(t, k)))
            return 1;
    return 0;
}

static void report_found(cmp_ctx *cx, const trace_rec *rec, const trace_rec *m, const diff_info *di, int op_changed)
{
    bisect_stmt *s = cx->st;
    s->found = 1;
    s->op_changed = op_changed;
    s->file = xstrdup(cx->bad_side->path);
    s->func = xstrdup(rec->func);
    /* a loop's carry: the value its yield handed over, where it was made */
    s->tensor = xstrdup(rec->carry_from ? rec->carry_from : rec->name);
    s->line = rec->line;
    s->core = rec->core;
    s->rank = cx->ranked ? rec->rank : -1;
    s->block = rec->block;
    s->blocks = rec->blocks;
    s->good_file = xstrdup(cx->good_side->path);
    s->good_func = xstrdup(m->func);
    s->good_tensor = xstrdup(m->carry_from ? m->carry_from : m->name);
    s->good_line = m->line;
    s->count = rec->t ? tensor_numel(rec->t) : 0;
    free(s->stmt_op);
    free(s->good_stmt_op);
    s->stmt_op = rec->key ? op_of(rec->key) : NULL;
    s->good_stmt_op = m->key ? op_of(m->key) : NULL;
    const tensor *mt = rec->t ? trace_rec_value(cx->good, m) : NULL;
    s->nan_new = rec->t && mt && !has_nonfinite(mt) && has_nonfinite(rec->t);
    if (di) {
        s->max_abs_diff = di->maxd;
        s->max_golden = di->maxg;
        s->outside = di->outside;
        s->first_bad = di->first;
        s->actual_at = di->fa;
        s->good_at = di->fg;
    } else {
        s->first_bad = -1;
    }
}

/* The earliest result that differs from its counterpart at all: how many
 * elements (valid region only) and by how much. */
static void note_bit_difference(cmp_ctx *cx, const trace_rec *rec, const trace_rec *m)
{
    bisect_stmt *s = cx->st;
    const tensor *mt = trace_rec_value(cx->good, m);
    int64_t n = tensor_numel(rec->t), count = 0;
    double maxd = 0;
    for (int64_t k = 0; k < n; k++) {
        if (!in_valid(rec->t, mt, k))
            continue;
        double x = tensor_get_flat(rec->t, k), y = tensor_get_flat(mt, k);
        if (x == y || (isnan(x) && isnan(y)))
            continue;
        count++;
        double d = fabs(x - y);
        if (isnan(d) || d > maxd)
            maxd = isnan(d) ? INFINITY : d;
    }
    if (!count)
        return; /* only padding or -0.0/+0.0 and NaN payloads differ */
    s->bit_line = rec->line;
    s->bit_core = rec->core;
    s->bit_rank = cx->ranked ? rec->rank : -1;
    s->bit_tensor = xstrdup(rec->name);
    s->bit_count = count;
    s->bit_numel = n;
    s->bit_max = maxd;
}

/* Two cores that run the same occurrences of a function: the same core, or
 * the host and a kernel core (a kernel one pass runs in line on the host,
 * as REF does or before ExpandMixedKernel typed it, runs on its AIC or AIV
 * core in the other under device semantics: docs/ops.md). */
static int same_place(int a, int b)
{
    return a == b || a == EXEC_CORE_HOST || b == EXEC_CORE_HOST;
}

/* A vector lane's tile where the passing pass has the whole tile on one
 * core (a pass before ExpandMixedKernel: one mixed function where the
 * failing pass has its AIV part split between two lanes, split= UP_DOWN or
 * LEFT_RIGHT): lane k holds the k-th half along the one dimension that is
 * twice its own (pypto src/ir/transforms/split_vector_kernel_pass.cpp
 * splits by subblock_idx). That half, contiguous, or NULL when rec is no
 * lane's, is a pop, or the shapes are not so. */
static tensor *lane_half(const trace *good, const trace_rec *rec, const trace_rec *whole)
{
    const tensor *wt = trace_rec_header(whole);
    /* not a pop: its tile is what the other core pushed, compared there;
     * which push a pop pairs with is the queue's (a dropped push makes a
     * pop take the next one, and the answer is where the group stops) */
    if ((rec->core != EXEC_CORE_AIV0 && rec->core != EXEC_CORE_AIV1) || !rec->t || !wt ||
        (rec->key && strstr(rec->key, "tpop_")) ||
        whole->core == EXEC_CORE_AIV0 || whole->core == EXEC_CORE_AIV1 || strcmp(rec->func, whole->func) == 0 ||
        rec->t->ndim != wt->ndim || rec->t->dtype != wt->dtype || rec->t->ndim == 0)
        return NULL;
    int dim = -1;
    for (int d = 0; d < rec->t->ndim; d++) {
        if (wt->shape[d] == rec->t->shape[d])
            continue;
        if (dim >= 0 || wt->shape[d] != 2 * rec->t->shape[d])
            return NULL;
        dim = d;
    }
    if (dim < 0)
        return NULL;
    ptodb_status st;
    wt = trace_rec_value(good, whole);
    int64_t off = wt->offset + (int64_t)rec->lane * rec->t->shape[dim] * wt->strides[dim];
    tensor *v = tensor_view(wt, rec->t->ndim, rec->t->shape, wt->strides, off, &st);
    if (!v)
        return NULL;
    tensor *c = tensor_contiguous(v);
    tensor_unref(v);
    return c;
}

/* A load's tile or a store's region, matched by the GM region (the same
 * data, whatever a pass did to the statements around it: an AIC/AIV split,
 * a lane split by subblock_idx, outlining). Returns 1 when handled, 0 when
 * the region's data could not be taken (the statement keys decide). */
static int on_region_rec(cmp_ctx *cx, const trace_rec *rec, const trace_rec *m)
{
    tensor *a = trace_region_data(rec, rec->reg), *g = trace_region_data(m, rec->reg);
    if (!a || !g || !same_shape(a, g)) {
        tensor_unref(a);
        tensor_unref(g);
        return 0;
    }
    trace_rec ra = *rec, rg = *m;
    ra.t = a;
    rg.t = g;
    if (!cx->st->bit_tensor && !cx->have_main && !tensor_same_bits(a, g))
        note_bit_difference(cx, &ra, &rg);
    diff_info di;
    /* whether it differs first (quick when the bits are the same), the
     * report's figures only when it does: the same answer either way */
    int bad = differs(a, g, cx->rtol, cx->atol, 0, &di);
    if (bad)
        differs(a, g, cx->rtol, cx->atol, 1, &di);
    int64_t numel = tensor_numel(a);
    tensor_unref(a);
    tensor_unref(g);
    if (!bad) {
        cx->st->compared++;
        return 1;
    }
    if (rec->lane && !m->lane) {
        if (!cx->st->found) {
            report_found(cx, rec, m, &di, 0);
            cx->st->count = numel;
        }
        cx->lane1_only = 1;
        return 1;
    }
    if (cx->have_main) {
        note_later(cx, rec);
        return 1;
    }
    if (cx->st->found)
        bisect_stmt_clear(cx->st);
    cx->lane1_only = 0;
    cx->have_main = 1;
    report_found(cx, rec, m, &di, 0);
    cx->st->count = numel;
    strbuf sb = STRBUF_INIT;
    exec_region_format(rec->reg, &sb);
    cx->st->region = strbuf_detach(&sb);
    return 1;
}

static struct new_if *find_new_if(cmp_ctx *cx, int line)
{
    for (size_t k = 0; k < cx->nnew_ifs; k++)
        if (cx->new_ifs[k].line == line)
            return &cx->new_ifs[k];
    return NULL;
}

/* An if's branch record with no counterpart: before the first divergence,
 * a candidate for test_new_ifs (the oldest dropped when full). */
static void note_new_if(cmp_ctx *cx, const trace_rec *rec)
{
    if (cx->st->found)
        return;
    if (cx->nnew_ifs == BISECT_MAX_NEW_IFS) {
        free(cx->new_ifs[0].func);
        free(cx->new_ifs[0].name);
        memmove(cx->new_ifs, cx->new_ifs + 1, (BISECT_MAX_NEW_IFS - 1) * sizeof *cx->new_ifs);
        cx->nnew_ifs--;
    }
    struct new_if *n = &cx->new_ifs[cx->nnew_ifs++];
    n->line = rec->line;
    n->core = rec->core;
    n->rank = rec->rank;
    n->func = xstrdup(rec->func);
    n->name = xstrdup(rec->name);
    n->runs = 1;
    n->then = tensor_get_flat(rec->t, 0) != 0;
}

/* Each record of the failing pass, in execution order: its counterpart in
 * the passing pass (same occurrence), and when that differs, any other
 * occurrence of the same statement that matches (lanes may share a loop
 * between them in another order). A value no occurrence matches is the
 * divergence. */
static int on_bad_rec(void *ud, const trace_rec *rec)
{
    cmp_ctx *cx = ud;
    struct new_if *ni = trace_rec_is_if(rec) ? find_new_if(cx, rec->line) : NULL;
    if (ni) {
        /* the same new if again (on any core): counted for the report */
        ni->runs++;
        ni->then += tensor_get_flat(rec->t, 0) != 0;
        cx->st->unmatched += !(cx->st->found && rec->lane);
        return 0;
    }
    if (cx->st->found && rec->lane)
        return 0; /* already have a lane-1 candidate; look for the others' */
    if (cx->have_main && rec->line == cx->st->line)
        return 0; /* the same statement again */
    tensor_unref(cx->half);
    cx->half = NULL;
    /* a lane's half tile: its half of the passing pass's whole tile, by
     * the statement's key; not by region (lane 1 reading x[4:12] where it
     * should read x[8:16] reads within the whole tile's x[0:16]) */
    trace_cands lc;
    if (!trace_rec_is_control(rec) && trace_candidates(cx->good, rec, &lc) && lc.primary &&
        !same_shape(trace_rec_header(lc.primary), rec->t))
        cx->half = lane_half(cx->good, rec, lc.primary);
    const trace_rec *by_region = cx->half ? NULL : trace_region_match(cx->good, rec);
    if (by_region && on_region_rec(cx, rec, by_region))
        return 0;
    /* the value with the same provenance (the same data by the same ops),
     * where the passing pass has one: the comparison is exact, no other
     * occurrence is tried */
    const trace_rec *by_prov = trace_rec_is_control(rec) || trace_rec_is_yield(rec) || cx->half
                                   ? NULL
                                   : trace_prov_match(cx->good, rec);
    if (by_prov && !same_shape(trace_rec_header(by_prov), rec->t))
        by_prov = NULL;
    trace_cands tc;
    if (by_prov) {
        memset(&tc, 0, sizeof tc);
        tc.primary = by_prov;
    } else if (!trace_candidates(cx->good, rec, &tc)) {
        cx->st->unmatched++;
        if (trace_rec_is_if(rec)) {
            note_new_if(cx, rec);
            return 0;
        }
        const trace_rec *was = cx->hint ? NULL : trace_op_changed(cx->good, rec);
        if (was) {
            /* rec's strings die with this call: keep copies */
            cx->hint = 1;
            cx->hint_rec = *rec;
            cx->hint_reg = *rec->reg; /* rec's region lives for the call too */
            cx->hint_rec.reg = &cx->hint_reg;
            cx->hint_good = was;
            cx->hint_name = xstrdup(rec->name);
            cx->hint_func = xstrdup(rec->func);
            cx->hint_carry = rec->carry_from ? xstrdup(rec->carry_from) : NULL;
        }
        return 0;
    }
    const trace_rec *m = tc.primary && comparable(trace_rec_header(tc.primary), rec->t) ? tc.primary : NULL;
    if (!m && cx->half && tc.primary)
        m = tc.primary; /* compared with its half (lane_half) */
    const tensor *mt = m && cx->half ? cx->half : m ? trace_rec_value(cx->good, m) : NULL;
    if (m && !cx->half && !cx->st->bit_tensor && !cx->have_main && !trace_rec_is_control(rec) &&
        !tensor_same_bits(rec->t, mt))
        note_bit_difference(cx, rec, m);
    diff_info di;
    /* control flow (loop trip counts, if branches) differs at all or not */
    int control = trace_rec_is_control(rec);
    double rtol = control ? 0 : cx->rtol, atol = control ? 0 : cx->atol;
    if (m && !differs(rec->t, mt, rtol, atol, 0, &di)) {
        cx->st->compared++;
        cx->st->provenance += by_prov != NULL;
        return 0;
    }
    const trace_rec *first_same = m;
    /* Another occurrence of the same statement may hold the same values (the
     * tile of another call or iteration): taking it would hide a wrong offset
     * or bound. Only where the occurrences cannot line up (another core or
     * function: a pass moved the statement) is such a realignment tried. */
    int aligned = control || by_prov || cx->half ||
                  (m && same_place(m->core, rec->core) && m->lane == rec->lane && strcmp(m->func, rec->func) == 0);
    for (size_t k = 0; k < tc.n && !aligned; k++) {
        const trace_rec *c = &cx->good->recs[tc.all[k]];
        if (c == m || !comparable(trace_rec_header(c), rec->t))
            continue;
        if (!first_same)
            first_same = c;
        if (!differs(rec->t, trace_rec_value(cx->good, c), rtol, atol, 0, &di)) {
            cx->st->compared++;
            cx->st->realigned++;
            return 0;
        }
    }
    if (!first_same) {
        cx->st->unmatched++;
        return 0;
    }
    differs(rec->t, first_same == m ? mt : trace_rec_value(cx->good, first_same), rtol, atol, 1, &di);
    /* a lane's half against its half of the whole tile, or lane 1 against
     * lane 1 of the other pass, is as good a comparison as any other
     * core's: only lane 1 matched with lane 0 (the passing pass has none)
     * proves little */
    if (rec->lane && !cx->half && !first_same->lane) {
        /* The second vector lane: in split mode a lane may run on dummy
         * tiles (valid_shape [0, 0]), so its values prove little. Keep the
         * first one, and prefer a divergence the other cores show. */
        if (!cx->st->found)
            report_found(cx, rec, first_same, &di, 0);
        cx->lane1_only = 1;
        return 0;
    }
    char *op_now = op_of(rec->key), *op_was = op_of(first_same->key);
    int flipped = strcmp(op_now, op_was) != 0 && trace_op_class(rec->key) >= 0 &&
                  trace_op_class(rec->key) == trace_op_class(first_same->key);
    free(op_now);
    free(op_was);
    if (flipped && !cx->have_flip) {
        cx->have_flip = 1;
        cx->flip_line = rec->line;
        cx->flip_core = rec->core;
        cx->flip_rank = rec->rank;
        cx->flip_name = xstrdup(rec->name);
        cx->flip_func = xstrdup(rec->func);
        cx->flip_op = op_of(rec->key);
        cx->flip_was = op_of(first_same->key);
        cx->flip_good = first_same;
        cx->flip_di = di;
        cx->flip_count = tensor_numel(rec->t);
        cx->flip_nan = !has_nonfinite(trace_rec_value(cx->good, first_same)) && has_nonfinite(rec->t);
        if (cx->frozen)
            save_counts(cx);
    }
    if (cx->have_main) {
        /* later divergences, for when the first is a pass's legitimate
         * rewrite of an intermediate (a K-split partial sum) */
        note_later(cx, rec);
        /* go on to the end while no changed op has shown up */
        return cx->st->nlater == BISECT_MAX_LATER && cx->have_flip;
    }
    if (cx->st->found)
        bisect_stmt_clear(cx->st);
    cx->lane1_only = 0;
    cx->have_main = 1;
    report_found(cx, rec, first_same, &di, 0);
    cx->st->by_provenance = by_prov != NULL;
    return 0;
}

/* A changed op found after the first divergence becomes the answer; the
 * first one is kept as the earlier differing statement. */
static void prefer_flip(cmp_ctx *cx)
{
    bisect_stmt *s = cx->st;
    if (!cx->have_flip || !cx->have_main)
        return;
    s->op_now = xstrdup(cx->flip_op);
    s->op_was = xstrdup(cx->flip_was);
    if (s->line == cx->flip_line)
        return;
    s->earlier_line = s->line;
    s->earlier_tensor = xstrdup(s->tensor);
    bisect_stmt_clear(s);
    trace_rec r;
    memset(&r, 0, sizeof r);
    r.name = cx->flip_name;
    r.func = cx->flip_func;
    r.line = cx->flip_line;
    r.core = cx->flip_core;
    r.rank = cx->flip_rank;
    report_found(cx, &r, cx->flip_good, &cx->flip_di, 0);
    s->count = cx->flip_count;
    s->stmt_op = xstrdup(cx->flip_op);
    s->nan_new = cx->flip_nan;
    /* the later list loses the statement now reported */
    size_t j = 0;
    for (size_t k = 0; k < s->nlater; k++) {
        if (s->later_line[k] == cx->flip_line) {
            free(s->later_tensor[k]);
            continue;
        }
        s->later_line[j] = s->later_line[k];
        s->later_tensor[j++] = s->later_tensor[k];
    }
    s->nlater = j;
}

/* A new `if` (no counterpart in the passing pass: the pass added it) has
 * no decision to compare, and the values its branches compute have at
 * best a guessed counterpart (the statement keys of a pass that computed
 * them otherwise: AutoTileMatmulL0's K split of one matmul). What it
 * decided is tested instead: the failing pass is run again with its
 * condition inverted (every run of it, on every core); when the outputs
 * then pass, its decisions are what made the pass fail, and, as it ran
 * before the first differing value, it is where the passes part. The
 * latest new if before the divergence is tried first, at most
 * BISECT_MAX_NEW_IFS runs. Not tried when a changed op was found (that
 * explains the divergence by itself). Returns 1 when one is named. */
static int test_new_ifs(cmp_ctx *cx)
{
    const divergence_side *bad = cx->bad_side;
    bisect_stmt *s = cx->st;
    if (cx->have_flip || s->op_changed)
        return 0;
    for (size_t k = cx->nnew_ifs; k-- > 0;) {
        const struct new_if *ni = &cx->new_ifs[k];
        runpass_options ro = *cx->ro;
        ro.mopt.invert_if_line = ni->line;
        runpass_result res;
        ranks_or_single_run_file(bad->path, bad->c, &ro, &res);
        int passes = res.status == RUNPASS_COMPARED && res.all_pass;
        runpass_result_free(&res);
        if (!passes)
            continue;
        /* the first differing value, if any, follows it */
        if (s->found && !s->fails && s->tensor && *s->tensor && s->line != ni->line) {
            if (s->nlater == BISECT_MAX_LATER)
                free(s->later_tensor[--s->nlater]);
            memmove(s->later_line + 1, s->later_line, s->nlater * sizeof *s->later_line);
            memmove(s->later_tensor + 1, s->later_tensor, s->nlater * sizeof *s->later_tensor);
            s->later_line[0] = s->line;
            s->later_tensor[0] = xstrdup(s->tensor);
            s->nlater++;
            if (s->bit_tensor && s->bit_line == s->line) {
                /* that value, not one within tolerance before it */
                free(s->bit_tensor);
                s->bit_tensor = NULL;
            }
        }
        bisect_stmt_clear(s);
        free(s->note);
        s->note = NULL;
        s->found = 1;
        s->fails = 0;
        s->new_if = 1;
        s->new_if_runs = ni->runs;
        s->new_if_then = ni->then;
        s->file = xstrdup(bad->path);
        s->func = xstrdup(ni->func);
        s->tensor = xstrdup(ni->name);
        s->line = ni->line;
        s->core = ni->core;
        s->rank = cx->ranked ? ni->rank : -1;
        s->count = 1;
        s->first_bad = -1;
        s->max_abs_diff = s->max_golden = 0;
        s->outside = 0;
        return 1;
    }
    return 0;
}

/* 1 when error is the GM race check's ("F:LINE:COL: in FN: race: AIV0 reads
 * ... at P:L:C that AIC wrote at P:L:C (in FN) ...", exec/gmrace.h) and
 * line is the line of either access it names. */
long divergence_race_line(const char *p)
{
    long n[3] = {0, 0, 0};
    int k = 0;
    while (k < 3) {
        char *end;
        n[k++] = strtol(p, &end, 10);
        if (end == p || *end != ':')
            break;
        p = end + 1;
    }
    return k == 3 ? n[1] : n[0];
}

static int race_statement(const char *error, int line)
{
    const char *r = strstr(error, ": race: AI");
    if (!r || line <= 0)
        return 0;
    for (const char *at = strstr(r, " at "); at; at = strstr(at + 4, " at "))
        if (divergence_race_line(at + 4) == line)
            return 1;
    return 0;
}

void divergence_find(const divergence_side *good_side, const divergence_side *bad_side, const runpass_options *ro,
                     double rtol, double atol, size_t max_trace_bytes, bisect_stmt *s)
{
    divergence_find_logged(good_side, bad_side, ro, rtol, atol, max_trace_bytes, s, NULL, NULL);
}

void divergence_find_logged(const divergence_side *good_side, const divergence_side *bad_side,
                            const runpass_options *ro, double rtol, double atol, size_t max_trace_bytes,
                            bisect_stmt *s, why_log *log_good, why_log *log_bad)
{
    memset(s, 0, sizeof *s);
    s->rank = s->bit_rank = -1;
    if (log_good)
        memset(log_good, 0, sizeof *log_good);
    if (log_bad)
        memset(log_bad, 0, sizeof *log_bad);
    /* the logs follow one machine, and reuse_dead would write a result
     * over an operand the log names by its storage */
    int logged = log_good && log_bad && !good_side->c->ranks.nranks && !bad_side->c->ranks.nranks &&
                 !ro->mopt.reuse_dead;
    trace_observer obs_good, obs_bad;
    why_log_opts lo_good = {0, 0, NULL, 0, NULL}, lo_bad = {0, 0, NULL, 0, log_good};
    if (logged)
        why_log_observe(good_side->path, good_side->c, ro, &lo_good, log_good, &obs_good);
    trace good;
    trace_pass_observed(good_side->path, good_side->c, ro, max_trace_bytes, NULL, NULL, 1, logged ? &obs_good : NULL,
                        &good);
    trace_index(&good);
    cmp_ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.good = &good;
    cx.rtol = rtol;
    cx.atol = atol;
    cx.st = s;
    cx.good_side = good_side;
    cx.bad_side = bad_side;
    cx.ro = ro;
    cx.ranked = good.nranks > 0 || bad_side->c->ranks.nranks > 0;
    trace bad;
    if (logged)
        why_log_observe(bad_side->path, bad_side->c, ro, &lo_bad, log_bad, &obs_bad);
    trace_pass_observed(bad_side->path, bad_side->c, ro, 0, on_bad_rec, &cx, 0, logged ? &obs_bad : NULL, &bad);
    if (logged && (!why_log_observed(log_good) + !why_log_observed(log_bad))) {
        why_log_free(log_good);
        why_log_free(log_bad);
    }
    tensor_unref(cx.half);
    cx.half = NULL;
    if (cx.frozen) {
        s->compared = cx.saved_compared;
        s->unmatched = cx.saved_unmatched;
        s->realigned = cx.saved_realigned;
    }
    prefer_flip(&cx);
    test_new_ifs(&cx);
    for (size_t k = 0; k < cx.nnew_ifs; k++) {
        free(cx.new_ifs[k].func);
        free(cx.new_ifs[k].name);
    }
    free(cx.flip_name);
    free(cx.flip_func);
    free(cx.flip_op);
    free(cx.flip_was);
    if (!s->found && cx.hint && !bad.error) { /* a failing run says more than a changed op */
        cx.hint_rec.name = cx.hint_name;
        cx.hint_rec.func = cx.hint_func;
        cx.hint_rec.carry_from = cx.hint_carry;
        cx.hint_rec.key = cx.hint_rec.base = NULL;
        cx.hint_rec.t = NULL;
        report_found(&cx, &cx.hint_rec, cx.hint_good, NULL, 1);
        s->count = 0;
    }
    free(cx.hint_name);
    free(cx.hint_func);
    free(cx.hint_carry);
    split_change sc;
    if (!s->found && bad.error && !good.error &&
        split_change_find(bad.error, bad_side->path, good_side->path, &sc)) {
        /* refused before running: the statement whose split= changed */
        s->found = s->fails = 1;
        s->file = xstrdup(bad_side->path);
        s->func = xstrdup(sc.func);
        s->tensor = xstrdup("");
        s->line = sc.line;
        size_t fl = strlen(sc.func);
        s->core = fl > 4 && strcmp(sc.func + fl - 4, "_aic") == 0   ? EXEC_CORE_AIC
                  : fl > 4 && strcmp(sc.func + fl - 4, "_aiv") == 0 ? EXEC_CORE_AIV0
                                                                     : EXEC_CORE_HOST;
        strbuf sb = STRBUF_INIT;
        strbuf_printf(&sb, "%s\nits split=%lld is one %s uses nowhere in that group (split=%s there)", bad.error,
                      (long long)sc.value, good_side->stem, sc.good_values);
        s->note = strbuf_detach(&sb);
        s->first_bad = -1;
        split_change_free(&sc);
    }
    if (s->found && bad.error && bad.error_line > 0 && !good.error && race_statement(bad.error, s->line)) {
        /* the machine's race check stopped the failing pass (exec/gmrace.h)
         * and the first value that differs is one of the race's two
         * statements: the load that ran before the store it needed (another
         * schedule's effect of the race), so the race is the answer
         * (diverge.c blames its read). A value that differs elsewhere first
         * stays the answer: the race may be its consequence. */
        divergence_stmt_free(s);
        s->rank = s->bit_rank = -1;
    }
    if (!s->found && bad.error && bad.error_line > 0 && !good.error) {
        /* the passing pass ran to its end: the statement that fails here is
         * where the two part (a conflicting split, a shape mismatch) */
        s->found = s->fails = 1;
        s->file = xstrdup(bad_side->path);
        s->func = xstrdup(bad.error_func ? bad.error_func : "?");
        s->tensor = xstrdup("");
        s->line = bad.error_line;
        s->core = bad.error_core;
        s->rank = cx.ranked ? bad.error_rank : -1;
        s->note = xstrdup(bad.error);
        s->first_bad = -1;
    }
    if (!s->found) {
        strbuf sb = STRBUF_INIT;
        if (bad.error)
            strbuf_printf(&sb, "%s fails before any of its tensors differs from %s: %s", bad_side->stem,
                          good_side->stem, bad.error);
        else
            strbuf_printf(&sb,
                          "no tensor of %s differs beyond rtol=%.3e atol=%.3e from its counterpart in %s "
                          "(%zu compared, %zu without a same-shaped counterpart)",
                          bad_side->stem, rtol, atol, good_side->stem,
                          s->compared, s->unmatched);
        if (good.truncated)
            strbuf_printf(&sb, "; the trace of %s was cut at its memory cap", good_side->stem);
        if (good.error)
            strbuf_printf(&sb, "; %s itself stopped: %s", good_side->stem, good.error);
        s->note = strbuf_detach(&sb);
    }
    s->bad_run_whole = bad.ran_whole && !bad.nranks;
    s->bad_memfaults = bad.memfaults;
    s->bad_memreport = bad.memreport;
    bad.memreport = NULL;
    trace_free(&good);
    trace_free(&bad);
}

void divergence_stmt_free(bisect_stmt *s)
{
    free(s->reason_why);
    free(s->waiting);
    free(s->memreport);
    free(s->bad_memreport);
    free(s->chain_why);
    free(s->consumer_tensor);
    bisect_stmt_clear(s);
    free(s->note);
    free(s->bit_tensor);
    free(s->earlier_tensor);
    free(s->op_now);
    free(s->op_was);
    for (size_t k = 0; k < s->nlater; k++)
        free(s->later_tensor[k]);
    memset(s, 0, sizeof *s);
}

const char *divergence_where(int rank, int core, char *buf, size_t size)
{
    if (rank >= 0)
        snprintf(buf, size, "rank %d, %s", rank, machine_core_name(core));
    else
        snprintf(buf, size, "core %s", machine_core_name(core));
    return buf;
}

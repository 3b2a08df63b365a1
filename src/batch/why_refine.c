/* The dataflow chain's step for the divergence engine (why.h
 * why_refine_divergence): from the first differing statement a search
 * found to the statement that made what it only passes on, by the worst
 * element's chain of the first failing output. Below diverge.c, which
 * calls it; why_case.c (the `why` command's driver) calls diverge.c. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "batch/why.h"

/* The distinct values the innermost loop's variable had at the executions
 * of a line ("0, 1, 2, 3", ascending), and that loop's header line: a pass
 * that restructures a kernel may run it more or less often (the host did
 * both lanes' halves), but a loop that runs otherwise has other values. */
static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static int loop_values_at(const why_log *l, int line, strbuf *out, int *header, char *var, size_t size)
{
    int64_t *v = NULL;
    size_t n = 0, cap = 0;
    *header = 0;
    for (size_t i = 1; i < l->n; i++) {
        const why_rec *r = &l->recs[i];
        if (r->line != line || r->nloops == 0)
            continue;
        int k = r->nloops - 1;
        if (!*header) {
            *header = r->loop_line[k];
            snprintf(var, size, "%s", r->loop_var[k]);
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            v = xreallocarray(v, cap, sizeof *v);
        }
        v[n++] = r->loop_val[k];
    }
    if (n)
        qsort(v, n, sizeof *v, cmp_i64);
    int shown = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && v[i] == v[i - 1])
            continue;
        if (shown < 16)
            strbuf_printf(out, "%s%" PRId64, shown ? ", " : "", v[i]);
        else if (shown == 16)
            strbuf_puts(out, ", ...");
        shown++;
    }
    free(v);
    return (int)n;
}

/* Two GM boxes of one tensor share an element. */
static int boxes_meet(const exec_region *a, const exec_region *b)
{
    if (strcmp(a->tensor, b->tensor) != 0 || a->ndim != b->ndim)
        return 0;
    for (int d = 0; d < a->ndim; d++)
        if (a->lo[d] >= b->lo[d] + b->len[d] || b->lo[d] >= a->lo[d] + a->len[d])
            return 0;
    return 1;
}

/* The store of another core that writes what the load rec r read, run after
 * it in this run (the load read the region before it was written: nothing
 * orders the two cores, a race through global memory), or NULL. */
static const why_rec *later_store_of_other_core(const why_log *l, const why_rec *r)
{
    if (!r->has_region || !strstr(r->op, "load"))
        return NULL;
    for (size_t i = 1; i < l->n; i++) {
        const why_rec *x = &l->recs[i];
        if (x->core != r->core && x->step > r->step && x->has_region && strstr(x->op, "store") &&
            boxes_meet(x->reg, r->reg))
            return x;
    }
    return NULL;
}

int why_refine_divergence(const why_refine_side *bad, const why_refine_side *good, const runpass_options *ro,
                          int div_line, int good_line, why_blame *out, why_log *keep_bad, why_log *keep_good)
{
    memset(out, 0, sizeof *out);
    why_log la, lb;
    if (keep_bad && keep_good && keep_bad->path && keep_good->path) {
        la = *keep_bad; /* made by the search's runs (divergence_find_logged) */
        lb = *keep_good;
    } else {
        why_log_opts lo = {0, 0, NULL, 0, NULL}, lob = {0, 0, NULL, 0, &la};
        why_log_run(bad->path, bad->c, ro, &lo, &la);
        why_log_run(good->path, good->c, ro, &lob, &lb);
    }
    int found = 0;
    if (la.n > 1 && lb.n > 1) {
        /* a statement inside a loop that ran at other iterations */
        char text[256];
        why_log_line_text(&la, div_line, text, sizeof text);
        strbuf va = STRBUF_INIT, vb = STRBUF_INIT;
        int ha, hb;
        char var_a[48], var_b[48];
        int na = strncmp(text, "for ", 4) == 0 ? 0 : loop_values_at(&la, div_line, &va, &ha, var_a, sizeof var_a);
        int nb = na ? loop_values_at(&lb, good_line, &vb, &hb, var_b, sizeof var_b) : 0;
        if (na && nb && ha && strcmp(var_a, var_b) == 0 && strcmp(strbuf_str(&va), strbuf_str(&vb)) != 0) {
            const why_rec *r = NULL;
            for (size_t i = 1; i < la.n && !r; i++)
                if (la.recs[i].line == div_line)
                    r = &la.recs[i];
            out->line = ha;
            out->core = r ? r->core : 0;
            snprintf(out->func, sizeof out->func, "%s", r ? r->func : "?");
            snprintf(out->tensor, sizeof out->tensor, "the loop over %s", var_a);
            snprintf(out->why, sizeof out->why,
                     "at the loop header: line %d ran at %s in {%s} here and in {%s} in %s (line %d): the loop at line %d runs otherwise",
                     div_line, var_a, strbuf_str(&va), strbuf_str(&vb), good->stem, good_line, ha);
            out->by_loop = 1;
            found = 1;
        }
        strbuf_free(&va);
        strbuf_free(&vb);
    }
    if (!found && la.n > 1 && lb.n > 1) {
        /* the worst element of the first failing output */
        const why_write *w = NULL;
        int64_t idx[TENSOR_MAX_DIMS];
        for (int k = 0; k < la.recs[0].nw && !w; k++) {
            const why_write *x = &la.recs[0].w[k];
            if (!x->final || !x->golden || why_worst_element(x->final, x->golden, x->rtol, x->atol, idx) != 0)
                continue;
            double a = tensor_get(x->final, idx), g = tensor_get(x->golden, idx);
            if (!(fabs(a - g) <= x->atol + x->rtol * fabs(g)))
                w = x;
        }
        if (w) {
            why_options wo;
            memset(&wo, 0, sizeof wo);
            wo.rtol = w->rtol;
            wo.atol = w->atol;
            wo.stem = bad->stem;
            wo.other_stem = good->stem;
            wo.other_pass = good->pass;
            why_chain ch;
            why_chain_build(&la, &lb, w->name, idx, w->final->ndim, &wo, &ch);
            int through = 0;
            for (int i = 0; ch.first > 0 && i < ch.first; i++)
                through |= ch.hops[i].line == div_line;
            /* only a divergence on the chain (a hop that consumes what an
             * earlier one made) moves to that hop: a divergence off it may
             * still reach the output in ways the chain does not follow (a
             * scalar that sets a later tile's valid shape) */
            const why_hop *reader = NULL;
            for (int i = 0; ch.first > 0 && i < ch.first; i++)
                if (ch.hops[i].line == div_line && ch.hops[i].rec > 0 && (size_t)ch.hops[i].rec < la.n)
                    reader = &ch.hops[i];
            const why_rec *late = reader ? later_store_of_other_core(&la, &la.recs[reader->rec]) : NULL;
            if (late && ch.first >= 0 && through) {
                /* the load read before another core's store of its region:
                 * another core's data (what the reference read) had not
                 * arrived; the answer stays at the load */
                const why_rec *r = &la.recs[reader->rec];
                out->line = div_line;
                out->core = r->core;
                out->by_order = 1;
                snprintf(out->func, sizeof out->func, "%s", r->func);
                snprintf(out->tensor, sizeof out->tensor, "%s", r->target);
                snprintf(out->why, sizeof out->why,
                         "it reads %s before %s's store at line %d (%s) writes it: no queue or fence orders the two "
                         "cores (a race through global memory)",
                         r->reg->tensor, late->func, late->line, late->target);
                found = 1;
            } else if (ch.first >= 0 && ch.blame_line != div_line && through) {
                const why_hop *h = &ch.hops[ch.first];
                out->line = ch.blame_line;
                out->core = h->core;
                out->by_loop = ch.found_by_control;
                snprintf(out->func, sizeof out->func, "%s", h->func);
                snprintf(out->tensor, sizeof out->tensor, "%s", h->target[0] ? h->target : h->op);
                strbuf e = STRBUF_INIT;
                strbuf_printf(&e, "through the dataflow chain of %s[", w->name);
                for (int d = 0; d < w->final->ndim; d++)
                    strbuf_printf(&e, "%s%" PRId64, d ? ", " : "", idx[d]);
                strbuf_printf(&e, "] (why, docs/why.md): %s; line %d only consumes what it made", h->first_why,
                              div_line);
                snprintf(out->why, sizeof out->why, "%s", strbuf_str(&e));
                strbuf_free(&e);
                found = 1;
            }
            why_chain_free(&ch);
        }
    }
    if (keep_bad)
        *keep_bad = la;
    else
        why_log_free(&la);
    if (keep_good)
        *keep_good = lb;
    else
        why_log_free(&lb);
    return found;
}

#include "batch/compare.h"

#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/fdio.h"
#include "base/mem.h"
#include "batch/diverge.h"
#include "ranks/run.h"

/* ---- alignment ------------------------------------------------------------------------------- */

/* The how-manieth pass named like passes[i] before it (Simplify runs twice). */
static int occurrence(const case_info *c, size_t i)
{
    int k = 0;
    for (size_t j = 0; j < i; j++)
        k += strcmp(c->passes[j].name, c->passes[i].name) == 0;
    return k;
}

static int find_in(const case_info *c, const char *name, int k)
{
    for (size_t j = 0; j < c->npasses; j++)
        if (strcmp(c->passes[j].name, name) == 0 && k-- == 0)
            return (int)j;
    return -1;
}

static compare_pair *add_pair(compare_result *r, const char *name, int a, int b)
{
    r->pairs = xreallocarray(r->pairs, r->npairs + 1, sizeof *r->pairs);
    compare_pair *p = &r->pairs[r->npairs++];
    memset(p, 0, sizeof *p);
    p->name = xstrdup(name);
    p->a.pass = a;
    p->b.pass = b;
    return p;
}

/* A's passes in order, each with B's pass of the same name and occurrence;
 * B's passes with no counterpart go just before the next aligned pass that
 * follows them in B (or at the end). */
static void align(const case_info *a, const case_info *b, compare_result *r)
{
    char *used = xcalloc(b->npasses + 1, 1);
    size_t next_b = 0;
    for (size_t i = 0; i < a->npasses; i++) {
        int j = find_in(b, a->passes[i].name, occurrence(a, i));
        if (j >= 0) {
            for (; next_b < (size_t)j; next_b++)
                if (!used[next_b] && find_in(a, b->passes[next_b].name, occurrence(b, next_b)) < 0) {
                    used[next_b] = 1;
                    add_pair(r, b->passes[next_b].name, -1, (int)next_b);
                    r->only_b++;
                }
            used[j] = 1;
            if ((size_t)j >= next_b)
                next_b = (size_t)j + 1;
            add_pair(r, a->passes[i].name, (int)i, j);
            r->aligned++;
        } else {
            add_pair(r, a->passes[i].name, (int)i, -1);
            r->only_a++;
        }
    }
    for (size_t j = 0; j < b->npasses; j++)
        if (!used[j] && find_in(a, b->passes[j].name, occurrence(b, j)) < 0) {
            add_pair(r, b->passes[j].name, -1, (int)j);
            r->only_b++;
        }
    free(used);
}

/* ---- running --------------------------------------------------------------------------------- */

/* The file's bytes after its first line when that is a comment (the dump
 * header names the program and may carry the compiler's version). */
static const char *body(const char *text)
{
    if (text[0] != '#')
        return text;
    const char *nl = strchr(text, '\n');
    return nl ? nl + 1 : text + strlen(text);
}

/* One build's run of its current pass, kept while the next pass's file
 * has the same body. */
typedef struct side_run {
    const case_info *c;
    char *text;            /* the file's bytes (NULL: unreadable) */
    runpass_result res;
    int have;
} side_run;

static void side_free(side_run *s)
{
    free(s->text);
    if (s->have)
        runpass_result_free(&s->res);
    memset(s, 0, sizeof *s);
}

static int same_body(const char *x, const char *y)
{
    return x && y && strcmp(body(x), body(y)) == 0;
}

/* Runs pass i of s->c unless the previous one had the same body. Returns
 * 1 when it ran a file. */
static int side_step(side_run *s, int i, const runpass_options *ro, compare_side *out)
{
    size_t len;
    char *text = file_read_all(s->c->passes[i].path, &len);
    if (s->have && same_body(text, s->text)) {
        free(text);
        out->reused = 1;
    } else {
        runpass_result_free(&s->res);
        free(s->text);
        s->text = text;
        ranks_or_single_run_file(s->c->passes[i].path, s->c, ro, &s->res); /* a multi-rank case: every rank */
        s->have = 1;
        out->reused = 0;
    }
    out->ran = 1;
    out->status = s->res.status;
    out->ok = s->res.status == RUNPASS_COMPARED && s->res.all_pass;
    out->memfaults = s->res.memfaults;
    out->message = s->res.message ? xstrdup(s->res.message) : NULL;
    return !out->reused;
}

/* The same names with the same bits (and tolerances, for outputs). */
static int same_tensors(const case_tensor *x, size_t nx, const case_tensor *y, size_t ny)
{
    if (nx != ny)
        return 0;
    for (size_t i = 0; i < nx; i++) {
        size_t j = 0;
        while (j < ny && strcmp(x[i].name, y[j].name) != 0)
            j++;
        if (j == ny || !tensor_same_bits(x[i].t, y[j].t) || x[i].rtol.value != y[j].rtol.value ||
            x[i].atol.value != y[j].atol.value)
            return 0;
    }
    return 1;
}

/* A's outputs against B's (A's tolerances); fills p's difference. */
static void compare_outputs(const runpass_result *ra, const runpass_result *rb, const runpass_options *ro,
                            compare_pair *p)
{
    int ca = ra->status == RUNPASS_COMPARED, cb = rb->status == RUNPASS_COMPARED;
    if (ca != cb) {
        p->differs = 1;
        return;
    }
    if (!ca)
        return; /* both fail: no outputs to compare */
    for (size_t k = 0; k < ra->noutputs; k++) {
        const runpass_output *oa = &ra->outputs[k], *ob = NULL;
        for (size_t m = 0; m < rb->noutputs && !ob; m++)
            if (strcmp(rb->outputs[m].key, oa->key) == 0)
                ob = &rb->outputs[m];
        if (!ob || !oa->actual || !ob->actual) {
            p->differs = 1;
            p->missing = 1;
            p->output = xstrdup(oa->key);
            return;
        }
        exec_compare_result cr;
        exec_compare(ob->actual, oa->actual, oa->rtol, oa->atol, ro->mopt.profile, 0, &cr);
        if (cr.error || !cr.pass) {
            p->differs = 1;
            p->output = xstrdup(oa->key);
            p->max_abs_diff = cr.max_abs_diff;
            p->mismatches = cr.mismatches;
            p->count = cr.count;
            return;
        }
    }
}

void compare_run(const case_info *a, const case_info *b, const runpass_options *ro, compare_result *r)
{
    memset(r, 0, sizeof *r);
    r->first_diff = r->first_no_outputs = -1;
    double t0 = clock_seconds();
    align(a, b, r);
    int inputs_same = same_tensors(a->inputs, a->ninputs, b->inputs, b->ninputs);
    int goldens_same = same_tensors(a->outputs, a->noutputs, b->outputs, b->noutputs) && a->rtol.value == b->rtol.value &&
                       a->atol.value == b->atol.value;
    side_run sa = {a, NULL, {0}, 0}, sb = {b, NULL, {0}, 0};
    const volatile sig_atomic_t *stop = ro->mopt.interrupt;
    for (size_t i = 0; i < r->npairs && !r->interrupted; i++) {
        compare_pair *p = &r->pairs[i];
        if (p->a.pass < 0 || p->b.pass < 0)
            continue;
        r->runs += (size_t)side_step(&sa, p->a.pass, ro, &p->a);
        size_t len;
        char *tb = file_read_all(b->passes[p->b.pass].path, &len);
        p->same_file = inputs_same && same_body(sa.text, tb);
        free(tb);
        if (p->same_file && goldens_same) {
            /* B's run would be A's, against the same goldens */
            p->b.ran = 1;
            p->b.status = p->a.status;
            p->b.ok = p->a.ok;
            p->b.message = p->a.message ? xstrdup(p->a.message) : NULL;
            p->b.reused = 1;
        } else if (p->same_file) {
            /* the same outputs; B's own goldens for its verdict */
            r->runs += (size_t)side_step(&sb, p->b.pass, ro, &p->b);
        } else {
            r->runs += (size_t)side_step(&sb, p->b.pass, ro, &p->b);
            compare_outputs(&sa.res, &sb.res, ro, p);
        }
        /* the same outputs, but one build's run writes over live tiles:
         * a difference (a memory fault is a failing verdict) */
        if (!p->differs && p->a.ran && p->b.ran && !p->same_file && !p->a.memfaults != !p->b.memfaults) {
            p->differs = 1;
            p->memfault_only = 1;
        }
        r->failed_a += !p->a.ok;
        r->failed_b += !p->b.ok;
        /* both stopped: "the same outputs" would be said of outputs never made */
        if (!p->differs && p->a.ran && p->b.ran && p->a.status != RUNPASS_COMPARED &&
            p->b.status != RUNPASS_COMPARED) {
            p->no_outputs = 1;
            r->no_outputs++;
            if (r->first_no_outputs < 0)
                r->first_no_outputs = (int)i;
        }
        if (p->differs && r->first_diff < 0)
            r->first_diff = (int)i;
        if (stop && *stop)
            r->interrupted = 1;
    }
    side_free(&sa);
    side_free(&sb);
    if (!r->interrupted && r->first_diff >= 0) {
        const compare_pair *p = &r->pairs[r->first_diff];
        divergence_side good = {a->passes[p->a.pass].path, a->passes[p->a.pass].stem, a};
        divergence_side bad = {b->passes[p->b.pass].path, b->passes[p->b.pass].stem, b};
        diverge_find(&good, &bad, p->a.pass, p->b.pass, ro, a->rtol.value, a->atol.value, 0, &r->stmt);
        r->stmt_done = 1;
        if (stop && *stop)
            r->interrupted = 1;
    }
    r->seconds = clock_seconds() - t0;
}

void compare_result_free(compare_result *r)
{
    for (size_t i = 0; i < r->npairs; i++) {
        free(r->pairs[i].name);
        free(r->pairs[i].output);
        free(r->pairs[i].a.message);
        free(r->pairs[i].b.message);
    }
    free(r->pairs);
    divergence_stmt_free(&r->stmt);
    memset(r, 0, sizeof *r);
}

int compare_all_same(const compare_result *r)
{
    return !r->interrupted && r->first_diff < 0 && !r->failed_a && !r->failed_b && !r->only_a && !r->only_b;
}

/* Batch evaluation of pass files: dedup by file bytes, the distinct files
 * run by the worker pool (worker_pool.h), results reported to the caller in
 * the order it asked for. */
#include "batch/batch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/fdio.h"
#include "base/mem.h"
#include "base/strbuf.h"
#include "batch/worker_pool.h"
#include "ranks/run.h"
#include "kernels/kernel_matmul.h"
#include "tensor/heatgrid.h"

const char *batch_status_name(batch_status s)
{
    switch (s) {
    case BATCH_COMPARED: return "compared";
    case BATCH_REF_FAIL: return "ref_fail";
    case BATCH_ERROR: return "error";
    default: return "not_run";
    }
}

/* ---- files ------------------------------------------------------------------------------ */

void batch_init(batch *b, const case_info *c, const batch_options *o)
{
    memset(b, 0, sizeof *b);
    b->c = c;
    b->o = *o;
    if (b->o.jobs < 1)
        b->o.jobs = 1;
    size_t n = c->npasses;
    b->passes = xcalloc(n ? n : 1, sizeof *b->passes);
    b->twin = xcalloc(n ? n : 1, sizeof *b->twin);
    char **text = xcalloc(n ? n : 1, sizeof *text);
    size_t *len = xcalloc(n ? n : 1, sizeof *len);
    for (size_t i = 0; i < n; i++) {
        b->passes[i].same_as = -1;
        text[i] = file_read_all(c->passes[i].path, &len[i]);
        b->twin[i] = (int)i;
        for (size_t j = 0; text[i] && !o->save_dir && j < i; j++)
            /* the same bytes on either side of AllocateMemoryAddr are two
             * programs to the memory model (docs/memory.md) */
            if (b->twin[j] == (int)j && text[j] && len[j] == len[i] && memcmp(text[j], text[i], len[i]) == 0 &&
                (!b->o.ro.mopt.memcheck ||
                 runpass_memory_addressed(c, c->passes[i].path) == runpass_memory_addressed(c, c->passes[j].path))) {
                b->twin[i] = (int)j;
                break;
            }
        if (b->twin[i] == (int)i)
            b->ndistinct++;
    }
    for (size_t i = 0; i < n; i++)
        free(text[i]);
    free(text);
    free(len);
}

static void pass_clear(batch_pass *p)
{
    for (size_t k = 0; k < p->noutputs; k++) {
        free(p->outputs[k].key);
        free(p->outputs[k].heatmap);
        batch_output_free_grid(&p->outputs[k]);
    }
    free(p->outputs);
    free(p->message);
    free(p->ref_note);
    free(p->ref_differs);
    free(p->save_error);
    free(p->memreport);
    memset(p, 0, sizeof *p);
    p->same_as = -1;
}

void batch_free(batch *b)
{
    for (size_t i = 0; b->passes && i < b->c->npasses; i++)
        pass_clear(&b->passes[i]);
    free(b->passes);
    free(b->twin);
    memset(b, 0, sizeof *b);
}

/* ---- tile shapes for heat maps ------------------------------------------------------------ */

static void trim(const char **s, const char **e)
{
    while (*s < *e && (**s == ' ' || **s == '\t'))
        (*s)++;
    while (*e > *s && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
        (*e)--;
}

static int base_is(const char *s, const char *e, const char *key)
{
    const char *cut = s;
    while (cut + 1 < e && !(cut[0] == '_' && cut[1] == '_'))
        cut++;
    if (cut + 1 >= e)
        cut = e;
    size_t n = (size_t)(cut - s);
    return n == strlen(key) && strncmp(s, key, n) == 0;
}

int batch_tile_shape(const char *path, const char *key, int64_t *rows, int64_t *cols)
{
    size_t len;
    char *text = file_read_all(path, &len);
    if (!text)
        return 0;
    int found = 0;
    for (const char *p = strstr(text, "pl.tile.store("); p && !found; p = strstr(p + 1, "pl.tile.store(")) {
        /* the top-level arguments: tile, offsets, destination */
        const char *a = p + strlen("pl.tile.store(");
        const char *arg[3][2];
        int nargs = 0, depth = 0;
        const char *start = a, *q = a;
        for (; *q && *q != '\n' && nargs < 3; q++) {
            if (*q == '(' || *q == '[' || *q == '{')
                depth++;
            else if ((*q == ')' || *q == ']' || *q == '}') && depth > 0)
                depth--;
            else if ((*q == ',' && depth == 0) || (*q == ')' && depth == 0)) {
                arg[nargs][0] = start;
                arg[nargs][1] = q;
                nargs++;
                start = q + 1;
                if (*q == ')')
                    break;
            }
        }
        if (nargs < 3)
            continue;
        trim(&arg[0][0], &arg[0][1]);
        trim(&arg[2][0], &arg[2][1]);
        if (!base_is(arg[2][0], arg[2][1], key))
            continue;
        /* the tile's annotation: "NAME: pl.Tile[[R, C]" */
        char pat[300];
        snprintf(pat, sizeof pat, "%.*s: pl.Tile[[", (int)(arg[0][1] - arg[0][0]), arg[0][0]);
        const char *d = strstr(text, pat);
        long long r, c;
        if (d && sscanf(d + strlen(pat), "%lld, %lld]", &r, &c) == 2 && r > 0 && c > 0) {
            *rows = r;
            *cols = c;
            found = 1;
        }
    }
    free(text);
    return found;
}

int batch_tile_grid(const char *path, const char *key, int64_t rows, int64_t cols, int max_rows, int max_cols,
                    int *grid_rows, int *grid_cols)
{
    int64_t tr, tc;
    if (!batch_tile_shape(path, key, &tr, &tc) || rows % tr != 0 || cols % tc != 0 || rows / tr > max_rows ||
        cols / tc > max_cols || (rows / tr) * (cols / tc) <= 1)
        return 0; /* an output that is a single tile gets blocks */
    *grid_rows = (int)(rows / tr);
    *grid_cols = (int)(cols / tc);
    return 1;
}

/* ---- one pass --------------------------------------------------------------------------- */

void batch_output_free_grid(batch_output *o)
{
    if (o->grid) {
        heatgrid_free(o->grid);
        free(o->grid);
        o->grid = NULL;
    }
}

/* The heat grid of an output: one cell per stored tile when the pass file
 * says the tile shape and that gives a sensible grid, else blocks of at most
 * the options' size. */
static int output_grid(const batch *b, size_t pass, const runpass_output *o, heatgrid *g, int *tiled)
{
    const tensor *a = o->actual;
    if (a->ndim == 0)
        return -1;
    int64_t cols = a->shape[a->ndim - 1];
    int64_t rows = cols ? tensor_numel(a) / cols : 0;
    int max_rows = b->o.heat_max_rows > 0 ? b->o.heat_max_rows : 16;
    int max_cols = b->o.heat_max_cols > 0 ? b->o.heat_max_cols : 64;
    int tiles_down, tiles_across;
    *tiled = batch_tile_grid(b->c->passes[pass].path, o->key, rows, cols, 4 * max_rows, 2 * max_cols, &tiles_down,
                             &tiles_across);
    if (*tiled) {
        max_rows = tiles_down;
        max_cols = tiles_across;
    }
    /* cells count what the validate line counts: the same rule, tolerances and profile */
    size_t n = (size_t)(tensor_numel(a) ? tensor_numel(a) : 1);
    uint8_t *bad = xcalloc(n, 1);
    float *frac = xcalloc(n, sizeof *frac);
    exec_compare_result cr;
    exec_compare_frac(a, o->golden, o->rtol, o->atol, b->o.ro.mopt.profile, b->o.ro.mopt.semantics == EXEC_SEM_DEVICE,
                      &cr, bad, frac);
    int st = !cr.error && heatgrid_compute(a, o->golden, frac, bad, max_rows, max_cols, g) == PTODB_OK ? 0 : -1;
    free(bad);
    free(frac);
    return st;
}

static void output_heat(const batch *b, size_t pass, const runpass_output *o, batch_output *bo)
{
    int want_text = b->o.heatmap, want_grid = o->cmp.error == 0 && !o->cmp.pass;
    heatgrid g;
    int tiled;
    if ((!want_text && !want_grid) || output_grid(b, pass, o, &g, &tiled) != 0)
        return;
    if (want_text) {
        strbuf sb = STRBUF_INIT;
        strbuf_printf(&sb, "heatmap '%s' (the worst |actual - golden| per %s against its tolerance, %lldx%lld view):\n", o->key,
                      tiled ? "tile" : "block", (long long)g.shape[0], (long long)g.shape[1]);
        heatgrid_render_text(&g, &sb);
        if (g.valid_rows < g.rows || g.valid_cols < g.cols)
            strbuf_printf(&sb, "valid region: the first %d x %d cells\n", g.valid_rows, g.valid_cols);
        bo->heatmap = strbuf_detach(&sb);
    }
    if (want_grid) {
        bo->grid = xmalloc(sizeof *bo->grid);
        *bo->grid = g;
        bo->grid_tiled = tiled;
    } else {
        heatgrid_free(&g);
    }
}

static void eval_one(const batch *b, size_t i, batch_pass *p)
{
    double t0 = clock_seconds();
    runpass_result r;
    ranks_or_single_run_file(b->c->passes[i].path, b->c, &b->o.ro, &r);
    memset(p, 0, sizeof *p);
    p->same_as = -1;
    p->steps = r.steps;
    p->message = r.message ? xstrdup(r.message) : NULL;
    p->ref_note = r.ref_note ? xstrdup(r.ref_note) : NULL;
    p->ref_differs = r.ref_differs ? xstrdup(r.ref_differs) : NULL;
    p->ref_differs_fail = r.ref_differs_fail;
    p->memfaults = r.memfaults;
    p->memreport = r.memreport ? xstrdup(r.memreport) : NULL;
    p->status = r.status == RUNPASS_COMPARED ? BATCH_COMPARED
                : r.status == RUNPASS_REF_FAIL ? BATCH_REF_FAIL
                                               : BATCH_ERROR;
    p->unchecked = r.status == RUNPASS_ERROR && r.unchecked;
    if (r.status == RUNPASS_COMPARED) {
        p->ok = 1;
        p->noutputs = r.noutputs;
        p->outputs = xcalloc(r.noutputs ? r.noutputs : 1, sizeof *p->outputs);
        for (size_t k = 0; k < r.noutputs; k++) {
            const runpass_output *o = &r.outputs[k];
            batch_output *bo = &p->outputs[k];
            bo->key = xstrdup(o->key);
            bo->rtol = o->rtol;
            bo->atol = o->atol;
            bo->cmp = o->cmp;
            bo->dtype = o->actual->dtype;
            bo->shape[1] = o->actual->ndim ? o->actual->shape[o->actual->ndim - 1] : 1;
            bo->shape[0] = bo->shape[1] ? tensor_numel(o->actual) / bo->shape[1] : 0;
            if (o->cmp.error || !o->cmp.pass)
                p->ok = 0;
            if (b->o.metrics)
                batch_metrics_compute(o->actual, o->golden, o->rtol, o->atol, b->o.ro.mopt.semantics == EXEC_SEM_DEVICE,
                                      b->o.ro.mopt.profile, &bo->met);
            output_heat(b, i, o, bo);
            char why[4200];
            if (b->o.save_dir && !p->save_error &&
                runpass_save_output(b->o.save_dir, b->c->passes[i].stem, o, why, sizeof why) != 0)
                p->save_error = xstrdup(why);
        }
        if (!r.all_pass)
            p->ok = 0;
    }
    runpass_result_free(&r);
    p->seconds = clock_seconds() - t0;
}

/* ---- results through a pipe ------------------------------------------------------------- */

static void put(strbuf *sb, const void *v, size_t n)
{
    strbuf_append(sb, v, n);
}

static void put_str(strbuf *sb, const char *s)
{
    uint32_t n = s ? (uint32_t)strlen(s) : UINT32_MAX;
    put(sb, &n, sizeof n);
    if (s)
        put(sb, s, n);
}

static void serialize(const batch_pass *p, strbuf *sb)
{
    uint32_t st = (uint32_t)p->status, ok = (uint32_t)p->ok, no = (uint32_t)p->noutputs;
    uint32_t unchecked = (uint32_t)p->unchecked;
    put(sb, &st, sizeof st);
    put(sb, &unchecked, sizeof unchecked);
    put(sb, &ok, sizeof ok);
    put(sb, &p->steps, sizeof p->steps);
    put(sb, &p->seconds, sizeof p->seconds);
    put_str(sb, p->message);
    put_str(sb, p->ref_note);
    put_str(sb, p->ref_differs);
    uint32_t df = (uint32_t)p->ref_differs_fail;
    put(sb, &df, sizeof df);
    put_str(sb, p->save_error);
    put(sb, &p->memfaults, sizeof p->memfaults);
    put_str(sb, p->memreport);
    put(sb, &no, sizeof no);
    for (size_t k = 0; k < p->noutputs; k++) {
        const batch_output *o = &p->outputs[k];
        put_str(sb, o->key);
        put(sb, &o->rtol, sizeof o->rtol);
        put(sb, &o->atol, sizeof o->atol);
        uint32_t dt = (uint32_t)o->dtype;
        put(sb, &dt, sizeof dt);
        put(sb, o->shape, sizeof o->shape);
        /* plain structs: the worker is a fork of this very binary */
        put(sb, &o->cmp, sizeof o->cmp);
        put(sb, &o->met, sizeof o->met);
        put_str(sb, o->heatmap);
        uint32_t has_grid = o->grid != NULL;
        put(sb, &has_grid, sizeof has_grid);
        if (o->grid) {
            put(sb, o->grid, sizeof *o->grid);
            put(sb, &o->grid_tiled, sizeof o->grid_tiled);
            put(sb, o->grid->cells, (size_t)o->grid->rows * (size_t)o->grid->cols * sizeof *o->grid->cells);
            if (o->grid->outside)
                put(sb, o->grid->outside, (size_t)o->grid->rows * (size_t)o->grid->cols * sizeof *o->grid->outside);
        }
    }
}

typedef struct reader {
    const char *p, *end;
    int bad;
} reader;

static void get(reader *r, void *v, size_t n)
{
    if (r->bad || (size_t)(r->end - r->p) < n) {
        r->bad = 1;
        memset(v, 0, n);
        return;
    }
    memcpy(v, r->p, n);
    r->p += n;
}

static char *get_str(reader *r)
{
    uint32_t n;
    get(r, &n, sizeof n);
    if (r->bad || n == UINT32_MAX)
        return NULL;
    if ((size_t)(r->end - r->p) < n) {
        r->bad = 1;
        return NULL;
    }
    char *s = xstrndup(r->p, n);
    r->p += n;
    return s;
}

static int deserialize(const char *data, size_t len, batch_pass *p)
{
    reader r = {data, data + len, 0};
    uint32_t st, ok, no, unchecked;
    memset(p, 0, sizeof *p);
    p->same_as = -1;
    get(&r, &st, sizeof st);
    get(&r, &unchecked, sizeof unchecked);
    get(&r, &ok, sizeof ok);
    p->unchecked = unchecked != 0;
    get(&r, &p->steps, sizeof p->steps);
    get(&r, &p->seconds, sizeof p->seconds);
    p->status = (batch_status)st;
    p->ok = (int)ok;
    p->message = get_str(&r);
    p->ref_note = get_str(&r);
    p->ref_differs = get_str(&r);
    uint32_t df = 0;
    get(&r, &df, sizeof df);
    p->ref_differs_fail = df != 0;
    p->save_error = get_str(&r);
    get(&r, &p->memfaults, sizeof p->memfaults);
    p->memreport = get_str(&r);
    get(&r, &no, sizeof no);
    if (r.bad || no > 1u << 20)
        return -1;
    p->noutputs = no;
    p->outputs = xcalloc(no ? no : 1, sizeof *p->outputs);
    for (size_t k = 0; k < no; k++) {
        batch_output *o = &p->outputs[k];
        o->key = get_str(&r);
        get(&r, &o->rtol, sizeof o->rtol);
        get(&r, &o->atol, sizeof o->atol);
        uint32_t dt;
        get(&r, &dt, sizeof dt);
        o->dtype = (dtype_id)dt;
        get(&r, o->shape, sizeof o->shape);
        get(&r, &o->cmp, sizeof o->cmp);
        get(&r, &o->met, sizeof o->met);
        o->heatmap = get_str(&r);
        uint32_t has_grid;
        get(&r, &has_grid, sizeof has_grid);
        if (has_grid && !r.bad) {
            heatgrid g;
            get(&r, &g, sizeof g);
            get(&r, &o->grid_tiled, sizeof o->grid_tiled);
            if (r.bad || g.rows < 1 || g.cols < 1 || g.rows > 1 << 16 || g.cols > 1 << 16)
                return -1;
            size_t bytes = (size_t)g.rows * (size_t)g.cols * sizeof *g.cells;
            g.cells = xmalloc(bytes);
            get(&r, g.cells, bytes);
            if (g.outside) { /* the pointer says it was sent */
                size_t n = (size_t)g.rows * (size_t)g.cols * sizeof *g.outside;
                g.outside = xmalloc(n);
                get(&r, g.outside, n);
            }
            o->grid = xmalloc(sizeof *o->grid);
            *o->grid = g;
        }
        if (!o->key)
            o->key = xstrdup("?");
    }
    return r.bad ? -1 : 0;
}


/* ---- reporting in order ---------------------------------------------------------------------- */

/* s with every occurrence of from replaced by to (NULL stays NULL). */
static char *replace_all(const char *s, const char *from, const char *to)
{
    if (!s)
        return NULL;
    strbuf sb = STRBUF_INIT;
    size_t fl = strlen(from);
    const char *p = s, *q;
    while (fl && (q = strstr(p, from))) {
        strbuf_append(&sb, p, (size_t)(q - p));
        strbuf_puts(&sb, to);
        p = q + fl;
    }
    strbuf_puts(&sb, p);
    return strbuf_detach(&sb);
}

/* Pass i takes the result of its twin, with the twin's path in messages
 * replaced by its own. */
static void copy_from_twin(batch *b, size_t i)
{
    size_t t = (size_t)b->twin[i];
    const batch_pass *src = &b->passes[t];
    batch_pass *p = &b->passes[i];
    const char *from = b->c->passes[t].path, *to = b->c->passes[i].path;
    pass_clear(p);
    *p = *src;
    p->same_as = (int)t;
    p->message = replace_all(src->message, from, to);
    p->ref_note = replace_all(src->ref_note, from, to);
    p->ref_differs = replace_all(src->ref_differs, from, to);
    p->save_error = NULL; /* twins are not used when outputs are saved */
    p->memreport = replace_all(src->memreport, from, to);
    p->outputs = xcalloc(src->noutputs ? src->noutputs : 1, sizeof *p->outputs);
    for (size_t k = 0; k < src->noutputs; k++) {
        p->outputs[k] = src->outputs[k];
        p->outputs[k].key = xstrdup(src->outputs[k].key);
        p->outputs[k].heatmap = src->outputs[k].heatmap ? xstrdup(src->outputs[k].heatmap) : NULL;
        if (src->outputs[k].grid) {
            const heatgrid *g = src->outputs[k].grid;
            size_t bytes = (size_t)g->rows * (size_t)g->cols * sizeof *g->cells;
            p->outputs[k].grid = xmalloc(sizeof *g);
            *p->outputs[k].grid = *g;
            p->outputs[k].grid->cells = xmalloc(bytes);
            memcpy(p->outputs[k].grid->cells, g->cells, bytes);
            if (g->outside) {
                size_t n = (size_t)g->rows * (size_t)g->cols * sizeof *g->outside;
                p->outputs[k].grid->outside = xmalloc(n);
                memcpy(p->outputs[k].grid->outside, g->outside, n);
            }
        }
        char *m = replace_all(src->outputs[k].cmp.msg, from, to);
        snprintf(p->outputs[k].cmp.msg, sizeof p->outputs[k].cmp.msg, "%s", m);
        free(m);
    }
}

typedef struct order_state {
    batch *b;
    const size_t *idx;
    size_t n, done;
    batch_ready_fn cb;
    void *ud;
    int stopped;
} order_state;

/* Reports every request whose result is there, in order. */
static void flush(order_state *os)
{
    while (!os->stopped && os->done < os->n) {
        size_t i = os->idx[os->done];
        size_t t = (size_t)os->b->twin[i];
        if (os->b->passes[t].status == BATCH_NOT_RUN)
            return;
        if (t != i && (os->b->passes[i].status == BATCH_NOT_RUN || os->b->passes[i].same_as != (int)t))
            copy_from_twin(os->b, i);
        os->done++;
        if (os->cb && os->cb(os->ud, os->b, i))
            os->stopped = 1;
    }
}

/* The distinct files through the worker pool: the next one to whichever
 * worker is free (a slow pass does not hold up the others), each result
 * serialized back and reported in order as soon as its turn comes. */
typedef struct pool_state {
    order_state *os;
    const size_t *tasks;
    size_t ntasks, next;
    char *got; /* per task: its result arrived (or its failure is reported) */
    strbuf buf;
    int share_cores; /* idle workers' cores go to the others' matmuls */
} pool_state;

static int pool_next(void *ud, size_t *task)
{
    pool_state *ps = ud;
    if (ps->os->stopped)
        return -1;
    if (ps->next >= ps->ntasks)
        return 0;
    *task = ps->next++;
    return 1;
}

static void pool_run(void *ud, size_t task, worker_pool_out *out)
{
    pool_state *ps = ud;
    batch_pass res;
    eval_one(ps->os->b, ps->tasks[task], &res);
    strbuf_clear(&ps->buf);
    serialize(&res, &ps->buf);
    pass_clear(&res);
    worker_pool_send(out, strbuf_str(&ps->buf), ps->buf.len);
}

static void pool_output(void *ud, size_t task, const char *data, size_t len)
{
    pool_state *ps = ud;
    batch *b = ps->os->b;
    if (task >= ps->ntasks || ps->got[task])
        return;
    batch_pass *p = &b->passes[ps->tasks[task]];
    pass_clear(p);
    if (deserialize(data, len, p) != 0) {
        pass_clear(p);
        p->status = BATCH_ERROR;
        p->message = xstrdup("error: bad result from a worker process");
    }
    b->nruns++;
    b->run_seconds += p->seconds;
    ps->got[task] = 1;
    flush(ps->os);
}

/* A worker that dies (the interpreter crashed on a pass) takes only that
 * pass down: it is reported, not re-run here, where it would take the whole
 * batch down. A worker that ended otherwise leaves its pass to the parent. */
static void pool_failure(void *ud, size_t task, int status)
{
    pool_state *ps = ud;
    batch *b = ps->os->b;
    if (task >= ps->ntasks || ps->got[task] || !WIFSIGNALED(status))
        return;
    batch_pass *p = &b->passes[ps->tasks[task]];
    pass_clear(p);
    p->status = BATCH_ERROR;
    strbuf m = STRBUF_INIT;
    strbuf_printf(&m, "ptodb's worker process died running this pass (signal %d, %s)", WTERMSIG(status),
                  strsignal(WTERMSIG(status)));
    p->message = strbuf_detach(&m);
    ps->got[task] = 1;
    b->nruns++;
    flush(ps->os);
}

/* Once the last files are running, the idle workers' cores go to their
 * large matmuls (the same bits with any number of threads). */
static void pool_worker_init(void *ud, const volatile int *idle, int workers)
{
    pool_state *ps = ud;
    if (ps->share_cores)
        kernel_matmul_share_cores(idle, workers);
}

static void run_workers(order_state *os, const size_t *tasks, size_t ntasks)
{
    batch *b = os->b;
    int jobs = b->o.jobs;
    if ((size_t)jobs > ntasks)
        jobs = (int)ntasks;
    pool_state ps = {os, tasks, ntasks, 0, xcalloc(ntasks, 1), STRBUF_INIT, worker_pool_free_cores() > 0};
    static const worker_pool_ops ops = {pool_next, pool_run, pool_output, NULL, pool_failure, pool_worker_init};
    worker_pool_run(jobs, &ops, &ps);
    /* what the workers did not deliver (no fork, a worker died): here */
    for (size_t t = 0; t < ntasks && !os->stopped; t++) {
        if (ps.got[t])
            continue;
        size_t i = tasks[t];
        pass_clear(&b->passes[i]);
        eval_one(b, i, &b->passes[i]);
        b->nruns++;
        b->run_seconds += b->passes[i].seconds;
        flush(os);
    }
    free(ps.got);
    strbuf_free(&ps.buf);
}

size_t batch_eval(batch *b, const size_t *idx, size_t n, batch_ready_fn cb, void *ud)
{
    order_state os = {b, idx, n, 0, cb, ud, 0};
    /* the distinct files still to run, in the order first asked for */
    size_t *tasks = xcalloc(n ? n : 1, sizeof *tasks);
    size_t ntasks = 0;
    for (size_t k = 0; k < n; k++) {
        size_t t = (size_t)b->twin[idx[k]];
        if (b->passes[t].status != BATCH_NOT_RUN)
            continue;
        int dup = 0;
        for (size_t j = 0; j < ntasks && !dup; j++)
            dup = tasks[j] == t;
        if (!dup)
            tasks[ntasks++] = t;
    }
    flush(&os);
    /* fewer files than jobs: the cores left over go to each pass's large
     * matmuls (the same bits with any number of threads) */
    int workers = ntasks < (size_t)b->o.jobs ? (int)ntasks : b->o.jobs;
    int threads = workers > 0 ? b->o.jobs / workers : 1;
    if (threads > 1 && worker_pool_free_cores() == 0)
        threads = 1; /* a busy machine: see worker_pool_free_cores */
    kernel_matmul_set_threads(threads);
    if (b->o.jobs > 1 && ntasks > 1) {
        run_workers(&os, tasks, ntasks);
    } else {
        for (size_t t = 0; t < ntasks && !os.stopped; t++) {
            eval_one(b, tasks[t], &b->passes[tasks[t]]);
            b->nruns++;
            b->run_seconds += b->passes[tasks[t]].seconds;
            flush(&os);
        }
    }
    flush(&os);
    kernel_matmul_set_threads(1);
    /* stopped: what workers ran past the stop is dropped, so the result is
     * the same whatever the number of jobs */
    for (size_t k = os.done; os.stopped && k < n; k++)
        pass_clear(&b->passes[idx[k]]);
    free(tasks);
    return os.done;
}

size_t batch_eval_all(batch *b, batch_ready_fn cb, void *ud)
{
    size_t n = b->c->npasses;
    size_t *idx = xcalloc(n ? n : 1, sizeof *idx);
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    size_t r = batch_eval(b, idx, n, cb, ud);
    free(idx);
    return r;
}

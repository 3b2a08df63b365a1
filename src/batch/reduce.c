#include "batch/reduce.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/atomic_file.h"
#include "base/clock.h"
#include "base/diag.h"
#include "base/fdio.h"
#include "base/mem.h"
#include "base/mkdirs.h"
#include "base/textdiff.h"
#include "batch/batch.h"
#include "batch/bisect.h"
#include "batch/diverge.h"
#include "batch/divergence.h"
#include "batch/reduce_case.h"
#include "batch/trace.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/resolve.h"
#include "ir/walk.h"

/* ---- the search state ------------------------------------------------------------------------- */

typedef struct reducer {
    const case_info *c;      /* the case as opened */
    case_info cur;           /* c with the recorded inputs added (RECORD) */
    case_tensor *extra;      /* those inputs */
    size_t nextra;
    tensor **shrunk;         /* c's inputs cut by SHRINK_SHAPE (NULL: as opened), c->ninputs of them */
    char *dropped;           /* c's inputs whose parameter DROP_PARAM removed (c->ninputs + 1) */
    int inputs_dirty;        /* data/in must be written again */
    const reduce_options *o;
    reduce_result *r;
    char *text[2];           /* the best pair so far: [0] passing, [1] failing */
    tensor **golden;         /* its golden (c's outputs, in c's order) */
    char *work[2];           /* the candidate files */
    char *workdir;
    uint64_t *seen;          /* hashes of the pairs tried */
    size_t nseen, capseen;
    double t0, deadline;
    double last_save;        /* when the case folder was last written */
    long diff0;              /* lines differing between the original pair */
    int stopped;             /* budget or interrupt */
    int bad_checks;          /* the original failing file passes --check */
} reducer;

/* 1 when the file passes --check (it parses, and every name it uses is
 * defined as PyPTO's parser defines names: a signature's MemRef offset
 * included). A reduction that removes a loop variable some type still names
 * leaves a file PyPTO's pl.loads rejects with NameError: no candidate. */
static int checks(const char *path)
{
    diag_sink sink;
    diag_sink_init(&sink, 1);
    ptodb_status st = ir_check_file(path, &sink);
    diag_sink_free(&sink);
    return st == PTODB_OK;
}

static void rebuild_cur(reducer *R)
{
    free(R->cur.inputs);
    R->cur = *R->c;
    R->cur.inputs = xcalloc(R->c->ninputs + R->nextra + 1, sizeof *R->cur.inputs);
    size_t n = 0;
    for (size_t k = 0; k < R->c->ninputs; k++) {
        if (R->dropped && R->dropped[k])
            continue;
        R->cur.inputs[n] = R->c->inputs[k];
        if (R->shrunk && R->shrunk[k])
            R->cur.inputs[n].t = R->shrunk[k];
        n++;
    }
    for (size_t k = 0; k < R->nextra; k++)
        R->cur.inputs[n++] = R->extra[k];
    R->cur.ninputs = n;
}

/* A candidate file: a scratch file in the work folder, rewritten for every
 * test, so no rename or sync (the case folder's files are atomic). */
static int write_work(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    size_t n = strlen(text);
    int bad = fwrite(text, 1, n, f) != n;
    bad |= fclose(f) != 0;
    return bad ? -1 : 0;
}

static uint64_t hash_pair(const char *a, const char *b)
{
    uint64_t h = 1469598103934665603ull;
    for (const char *p = a; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
    for (const char *p = b; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    return h;
}

static int seen_before(reducer *R, uint64_t h)
{
    for (size_t i = 0; i < R->nseen; i++)
        if (R->seen[i] == h)
            return 1;
    if (R->nseen == R->capseen) {
        R->capseen = R->capseen ? 2 * R->capseen : 256;
        R->seen = xreallocarray(R->seen, R->capseen, sizeof *R->seen);
    }
    R->seen[R->nseen++] = h;
    return 0;
}

static int out_of_time(reducer *R)
{
    if (R->stopped)
        return 1;
    int interrupted = R->o->stop && *R->o->stop;
    if (interrupted || clock_seconds() > R->deadline) {
        R->stopped = 1;
        if (interrupted)
            R->r->interrupted = 1;
        else
            R->r->budget_spent = 1;
    }
    return R->stopped;
}

static ir_module *parse_text(const char *text)
{
    diag_sink sink;
    diag_sink_init(&sink, 1);
    ptodb_status st;
    ir_module *m = ir_parse("reduce", text, strlen(text), &sink, &st);
    diag_sink_free(&sink);
    if (st != PTODB_OK || !m->program) {
        ir_module_free(m);
        return NULL;
    }
    return m;
}

static size_t count_text(const char *text)
{
    ir_module *m = parse_text(text);
    size_t n = reduce_count_statements(m);
    ir_module_free(m);
    return n;
}

/* The canonical form of a pass file's text (a ruff-formatted dump gives its
 * raw twin), or NULL when it does not parse. */
static char *canonical(const char *text)
{
    ir_module *m = parse_text(text);
    if (!m)
        return NULL;
    strbuf out = STRBUF_INIT;
    ir_print_module(m, &out);
    ir_module_free(m);
    return strbuf_detach(&out);
}

static case_info with_golden(const case_info *c, tensor *const *golden)
{
    case_info c2 = *c;
    c2.outputs = xcalloc(c->noutputs ? c->noutputs : 1, sizeof *c2.outputs);
    for (size_t k = 0; k < c->noutputs; k++) {
        c2.outputs[k] = c->outputs[k];
        c2.outputs[k].t = golden[k];
    }
    return c2;
}

static char *log_text(const reduce_result *r)
{
    strbuf sb = STRBUF_INIT;
    reduce_report_text(r, &sb);
    return strbuf_detach(&sb);
}

/* Writes the best pair as the case folder; final adds the divergence lines
 * and the log. */
static int save_best(reducer *R, int data, int final, strbuf *err)
{
    const case_info *c = &R->cur;
    reduce_case rc = {R->o->out_dir, c, R->r->good, R->r->bad, R->text[0], R->text[1], R->golden, &R->r->fp,
                      NULL, NULL, R->o->command};
    char *log = log_text(R->r);
    rc.log = log;
    int st = reduce_case_write(&rc, data, err);
    if (st == 0 && final) {
        /* the divergence as `--batch --bisect` of the folder shows it, from its own files */
        strbuf gp = STRBUF_INIT, bp = STRBUF_INIT, div = STRBUF_INIT;
        strbuf_printf(&gp, "%s/passes_dump/%s.py", R->o->out_dir, c->passes[R->r->good].stem);
        strbuf_printf(&bp, "%s/passes_dump/%s.py", R->o->out_dir, c->passes[R->r->bad].stem);
        divergence_side gs = {strbuf_str(&gp), c->passes[R->r->good].stem, NULL};
        divergence_side bs = {strbuf_str(&bp), c->passes[R->r->bad].stem, NULL};
        case_info c2 = with_golden(c, R->golden);
        gs.c = bs.c = &c2;
        bisect_stmt s;
        runpass_options ro = R->o->ro;
        ro.mopt.interrupt = NULL; /* a Ctrl-C ended the search, not this last look */
        ro.mopt.poll = NULL;
        divergence_find(&gs, &bs, &ro, c->rtol.value, c->atol.value, 0, &s);
        diverge_report_text(&s, gs.stem, bs.stem, c->rtol.value, c->atol.value, &div);
        divergence_stmt_free(&s);
        /* the folder's own paths, relative: the README travels with it */
        strbuf rel = STRBUF_INIT, pre = STRBUF_INIT;
        strbuf_printf(&pre, "%s/", R->o->out_dir);
        for (const char *t = strbuf_str(&div); *t;) {
            const char *hit = strstr(t, strbuf_str(&pre));
            if (!hit) {
                strbuf_puts(&rel, t);
                break;
            }
            strbuf_append(&rel, t, (size_t)(hit - t));
            t = hit + pre.len;
        }
        strbuf_free(&pre);
        strbuf_free(&div);
        div = rel;
        free(c2.outputs);
        rc.divergence = strbuf_str(&div);
        st = reduce_case_write(&rc, 0, err);
        strbuf_free(&gp);
        strbuf_free(&bp);
        strbuf_free(&div);
    }
    free(log);
    return st;
}

/* ---- one step --------------------------------------------------------------------------------- */

static long pair_diff(const char *g, const char *b)
{
    strbuf out = STRBUF_INIT;
    long d = textdiff_unified(g, b, "a", "b", 0, &out);
    strbuf_free(&out);
    return d;
}

/* Tests the candidate pair (either may be NULL: the edit did not give a
 * file that parses); on acceptance it becomes the best. 1 when accepted. */
static int try_pair(reducer *R, int kind, char *g, char *b)
{
    reduce_counts *k = &R->r->counts[kind];
    if (!g || !b) {
        k->tried++;
        k->invalid++;
        free(g);
        free(b);
        return 0;
    }
    if ((strcmp(g, R->text[0]) == 0 && strcmp(b, R->text[1]) == 0) || out_of_time(R)) {
        free(g);
        free(b);
        return 0;
    }
    k->tried++;
    if (seen_before(R, hash_pair(g, b))) {
        k->cached++;
        free(g);
        free(b);
        return 0;
    }
    /* the pair stays a pair: their difference may shrink, never grow (a
     * failing file gutted on its own would keep a fingerprint while no
     * longer being the pass's output for the passing file) */
    long d = pair_diff(g, b);
    if (d > R->diff0) {
        k->uninteresting++;
        free(g);
        free(b);
        return 0;
    }
    /* every candidate is checked as --check does (the failing file only
     * when the original failing file checks: a pass whose output is broken
     * IR may be reduced keeping its breakage) */
    if (write_work(R->work[0], g) != 0 || write_work(R->work[1], b) != 0 || !checks(R->work[0]) ||
        (R->bad_checks && !checks(R->work[1]))) {
        k->invalid++;
        free(g);
        free(b);
        return 0;
    }
    reduce_fp fp;
    tensor **golden = NULL;
    reduce_verdict v = reduce_oracle(R->work[0], R->work[1], R->c->passes[R->r->bad].name, &R->cur, &R->o->ro,
                                     &fp, &golden, NULL);
    R->r->tests++;
    int ok = v == REDUCE_SHOWN && reduce_fp_equal(&fp, &R->r->fp);
    if (ok) {
        k->accepted++;
        free(R->text[0]);
        free(R->text[1]);
        R->text[0] = g;
        R->text[1] = b;
        reduce_golden_free(R->golden, R->c->noutputs);
        R->golden = golden;
        R->r->fp.line = fp.line;
        R->r->fp.good_line = fp.good_line;
        R->r->stmts_after[0] = count_text(g);
        R->r->stmts_after[1] = count_text(b);
        R->r->diff_after = d;
        /* the folder follows the best pair at most once a second (each file
         * is synced to disk); the last one is written when the search ends */
        if (clock_seconds() - R->last_save >= 1.0) {
            strbuf err = STRBUF_INIT;
            if (save_best(R, R->inputs_dirty, 0, &err) != 0 && R->o->progress)
                fprintf(R->o->progress, "reduce: %s\n", strbuf_str(&err));
            R->inputs_dirty = 0;
            R->last_save = clock_seconds();
            strbuf_free(&err);
        }
        if (R->o->progress) {
            fprintf(R->o->progress, "reduce: %-13s accepted: %zu + %zu statements (%.1f s)\n",
                    kind < REDUCE_KIND_COUNT ? reduce_kind_name((reduce_kind)kind) : "lines", R->r->stmts_after[0],
                    R->r->stmts_after[1], clock_seconds() - R->t0);
            fflush(R->o->progress);
        }
    } else {
        if (v == REDUCE_INVALID)
            k->invalid++;
        else
            k->uninteresting++;
        reduce_golden_free(golden, R->c->noutputs);
        free(g);
        free(b);
    }
    reduce_fp_free(&fp);
    return ok;
}

/* Applies units to both files of the best pair and tests the result. */
static int try_units(reducer *R, reduce_kind kind, const reduce_unit *u, size_t n)
{
    ir_module *m0 = parse_text(R->text[0]), *m1 = parse_text(R->text[1]);
    int ch0 = 0, ch1 = 0;
    char *g = m0 ? reduce_apply(m0, u, n, &ch0) : NULL, *b = m1 ? reduce_apply(m1, u, n, &ch1) : NULL;
    ir_module_free(m0);
    ir_module_free(m1);
    if (!ch0 && !ch1)
        return 0;
    if (!ch0)
        g = xstrdup(R->text[0]);
    if (!ch1)
        b = xstrdup(R->text[1]);
    return try_pair(R, kind, g, b);
}

static reduce_unit *current_units(reducer *R, reduce_kind kind, size_t *n)
{
    ir_module *m0 = parse_text(R->text[0]), *m1 = parse_text(R->text[1]);
    reduce_unit *u = reduce_units(m0, m1, kind, n);
    ir_module_free(m0);
    ir_module_free(m1);
    return u;
}

/* ---- the transformations' schedules ----------------------------------------------------------- */

/* One unit of a transformation tried (u is the list's, freed after): 1 when
 * the step was accepted. */
typedef int (*unit_try_fn)(reducer *R, reduce_kind kind, reduce_unit *u, void *ctx);

/* Each unit of kind on its own, in order: the list is taken again after
 * every step (an accepted one changed it: the same index is tried next);
 * the steps accepted. */
static size_t each_unit(reducer *R, reduce_kind kind, unit_try_fn try_one, void *ctx)
{
    size_t accepted = 0;
    for (size_t idx = 0; !out_of_time(R);) {
        size_t n;
        reduce_unit *u = current_units(R, kind, &n);
        if (idx >= n) {
            reduce_units_free(u, n);
            break;
        }
        int ok = try_one(R, kind, &u[idx], ctx);
        reduce_units_free(u, n);
        if (ok)
            accepted++;
        else
            idx++;
    }
    return accepted;
}

/* Each unit on its own, in order (the list is recomputed after every
 * accepted step). A loop is cut to one iteration, else to half. */
static int try_plain(reducer *R, reduce_kind kind, reduce_unit *u, void *ctx)
{
    (void)ctx;
    reduce_unit x = *u;
    int ok = try_units(R, kind, &x, 1);
    if (!ok && kind == REDUCE_CUT_LOOP && x.trips / 2 > 1) {
        x.arg = x.trips / 2;
        ok = try_units(R, kind, &x, 1);
    }
    return ok;
}

static size_t one_by_one(reducer *R, reduce_kind kind)
{
    return each_unit(R, kind, try_plain, NULL);
}

/* ddmin over the statements (each deleted with its forward cone): chunks
 * of the list, halved when none can go. */
static size_t ddmin_delete(reducer *R)
{
    size_t accepted = 0, parts = 2;
    while (!out_of_time(R)) {
        size_t n;
        reduce_unit *u = current_units(R, REDUCE_DELETE, &n);
        if (n == 0) {
            reduce_units_free(u, n);
            break;
        }
        if (parts > n)
            parts = n;
        size_t chunk = (n + parts - 1) / parts;
        int any = 0;
        for (size_t i = 0; i * chunk < n && !any && !out_of_time(R); i++) {
            size_t len = n - i * chunk < chunk ? n - i * chunk : chunk;
            any = try_units(R, REDUCE_DELETE, u + i * chunk, len);
        }
        reduce_units_free(u, n);
        if (any) {
            accepted++;
            parts = parts > 2 ? parts - 1 : 2;
            continue;
        }
        if (parts >= n)
            break;
        parts = 2 * parts < n ? 2 * parts : n;
    }
    return accepted;
}

/* The value variable var holds in the entry function of the best passing
 * file's run (its first record), a new tensor, or NULL. */
static tensor *recorded_value(reducer *R, const char *func, const char *var)
{
    if (write_work(R->work[0], R->text[0]) != 0)
        return NULL;
    trace tr;
    trace_pass_with_calls(R->work[0], &R->cur, &R->o->ro, 0, &tr);
    tensor *t = NULL;
    for (size_t i = 0; i < tr.n && !t; i++)
        if (strcmp(tr.recs[i].name, var) == 0 && strcmp(tr.recs[i].func, func) == 0 && tr.recs[i].t &&
            !trace_rec_is_control(&tr.recs[i]))
            t = tensor_ref(tr.recs[i].t);
    trace_free(&tr);
    return t;
}

/* RECORD, each argument on its own: the value comes from a trace of the
 * best passing file, the new input is kept when the step is accepted. */
static int try_record(reducer *R, reduce_kind kind, reduce_unit *u, void *ctx)
{
    (void)kind;
    (void)ctx;
    strbuf param = STRBUF_INIT, var = STRBUF_INIT, p1 = STRBUF_INIT, v1 = STRBUF_INIT;
    ir_module *m0 = parse_text(R->text[0]), *m1 = parse_text(R->text[1]);
    int ok = m0 && m1 && reduce_record_names(m0, u, &param, &var) &&
             reduce_record_names(m1, u, &p1, &v1) && strcmp(strbuf_str(&param), strbuf_str(&p1)) == 0;
    ir_module_free(m0);
    ir_module_free(m1);
    tensor *t = ok ? recorded_value(R, u->func, strbuf_str(&var)) : NULL;
    if (t && u->arg == -1) {
        /* a scalar: its value as a literal (an integer when it is one) */
        double d = tensor_numel(t) == 1 ? tensor_get_flat(t, 0) : NAN;
        tensor_unref(t);
        char lit[64];
        if (d == d && d == (double)(long long)d && d > -9e15 && d < 9e15)
            snprintf(lit, sizeof lit, "%lld", (long long)d);
        else if (d == d && d - d == 0)
            snprintf(lit, sizeof lit, "%.17g", d);
        else
            lit[0] = '\0';
        u->literal = lit;
        ok = lit[0] && try_units(R, REDUCE_RECORD, u, 1);
        u->literal = NULL;
    } else if (t) {
        R->extra = xreallocarray(R->extra, R->nextra + 1, sizeof *R->extra);
        case_tensor *e = &R->extra[R->nextra++];
        memset(e, 0, sizeof *e);
        e->name = xstrndup(strbuf_str(&param), param.len - strlen("__ssa_v0"));
        e->path = xstrdup("(recorded by ptodb reduce)");
        e->t = t;
        rebuild_cur(R);
        int dirty = R->inputs_dirty;
        R->inputs_dirty = 1;
        char dims[32 * TENSOR_MAX_DIMS + 4];
        size_t dl = (size_t)snprintf(dims, sizeof dims, "[");
        for (int q = 0; q < t->ndim && dl < sizeof dims; q++)
            dl += (size_t)snprintf(dims + dl, sizeof dims - dl, "%s%lld", q ? ", " : "", (long long)t->shape[q]);
        if (dl < sizeof dims)
            snprintf(dims + dl, sizeof dims - dl, "]");
        u->literal = t->ndim > 0 ? dims : NULL;
        ir_module *mc = parse_text(R->text[1]);
        reduce_kind counted = mc && reduce_record_is_call(mc, u) ? REDUCE_RECORD_CALL : REDUCE_RECORD;
        ir_module_free(mc);
        ok = try_units(R, counted, u, 1);
        u->literal = NULL;
        if (!ok) {
            R->nextra--;
            free(e->name);
            free(e->path);
            tensor_unref(e->t);
            rebuild_cur(R);
            R->inputs_dirty = dirty;
        }
    } else {
        ok = 0;
    }
    strbuf_free(&param);
    strbuf_free(&var);
    strbuf_free(&p1);
    strbuf_free(&v1);
    return ok;
}

static size_t record_args(reducer *R)
{
    return each_unit(R, REDUCE_RECORD, try_record, NULL);
}

/* A literal for a tile all of whose elements are equal (and finite), in
 * the IR's spelling for its dtype ("0.0", "-1.5", "3"); 0 otherwise. */
static int uniform_literal(const tensor *t, char *lit, size_t size)
{
    int64_t n = tensor_numel(t);
    if (n <= 0)
        return 0;
    double v = tensor_get_flat(t, 0);
    if (v != v || v - v != 0)
        return 0;
    for (int64_t k = 1; k < n; k++)
        if (tensor_get_flat(t, k) != v)
            return 0;
    if (!dtype_is_float(t->dtype)) {
        if (v != (double)(long long)v || v < -9e15 || v > 9e15)
            return 0;
        snprintf(lit, size, "%lld", (long long)v);
        return 1;
    }
    snprintf(lit, size, "%.17g", v);
    if (!strpbrk(lit, ".e"))
        snprintf(lit + strlen(lit), size - strlen(lit), ".0");
    return 1;
}

typedef struct const_value {
    char *func, *name, lit[48];
} const_value;

typedef struct const_values {
    const const_value *v;
    size_t n;
} const_values;

/* The statement of u with pl.tile.full of its tile's uniform value. */
static int try_const_tile(reducer *R, reduce_kind kind, reduce_unit *u, void *ctx)
{
    const const_values *cv = ctx;
    const char *lit = NULL;
    for (size_t q = 0; q < cv->n && !lit; q++)
        if (cv->v[q].lit[0] && strcmp(cv->v[q].name, u->to) == 0 && strcmp(cv->v[q].func, u->func) == 0)
            lit = cv->v[q].lit;
    if (!lit)
        return 0;
    u->literal = lit;
    int ok = try_units(R, kind, u, 1);
    u->literal = NULL;
    return ok;
}

/* CONST_TILE: one trace of the best passing file gives every tile whose
 * first value (lane 0) is uniform; each such statement is then tried with
 * pl.tile.full of that value in its place. The trace is taken again after
 * a round of the list that accepted something (the values move as the
 * pair shrinks). */
static size_t const_tiles(reducer *R)
{
    size_t accepted = 0;
    for (int again = 1; again && !out_of_time(R);) {
        again = 0;
        if (write_work(R->work[0], R->text[0]) != 0)
            break;
        trace tr;
        trace_pass(R->work[0], &R->cur, &R->o->ro, 0, NULL, NULL, &tr);
        const_value *cv = NULL;
        size_t ncv = 0;
        for (size_t i = 0; i < tr.n; i++) {
            const trace_rec *rec = &tr.recs[i];
            if (!rec->t || rec->lane || trace_rec_is_control(rec))
                continue;
            int dup = 0;
            for (size_t q = 0; q < ncv && !dup; q++)
                dup = strcmp(cv[q].name, rec->name) == 0 && strcmp(cv[q].func, rec->func) == 0;
            if (dup)
                continue; /* the first value only */
            cv = xreallocarray(cv, ncv + 1, sizeof *cv);
            const_value *c = &cv[ncv++];
            c->func = xstrdup(rec->func);
            c->name = xstrdup(rec->name);
            if (!uniform_literal(rec->t, c->lit, sizeof c->lit))
                c->lit[0] = '\0';
        }
        trace_free(&tr);
        const_values vals = {cv, ncv};
        size_t n = each_unit(R, REDUCE_CONST_TILE, try_const_tile, &vals);
        accepted += n;
        again = n > 0;
        for (size_t q = 0; q < ncv; q++) {
            free(cv[q].func);
            free(cv[q].name);
        }
        free(cv);
    }
    return accepted;
}

/* The input named name: its index in c->inputs, else c->ninputs + its
 * index in the recorded ones, else past both (not an input). */
static size_t input_index(const reducer *R, const char *name)
{
    for (size_t k = 0; k < R->c->ninputs; k++)
        if (strcmp(R->c->inputs[k].name, name) == 0 && !(R->dropped && R->dropped[k]))
            return k;
    for (size_t k = 0; k < R->nextra; k++)
        if (strcmp(R->extra[k].name, name) == 0)
            return R->c->ninputs + k;
    return R->c->ninputs + R->nextra;
}

/* DROP_PARAM: an unread input parameter goes, and its data with it. */
static int try_drop_param(reducer *R, reduce_kind kind, reduce_unit *u, void *ctx)
{
    (void)kind;
    (void)ctx;
    strbuf base = STRBUF_INIT;
    ir_ssa_base_name(u->key, &base);
    size_t k = input_index(R, strbuf_str(&base));
    strbuf_free(&base);
    int ok = 0;
    if (k < R->c->ninputs) {
        R->dropped[k] = 1;
        rebuild_cur(R);
        ok = try_units(R, REDUCE_DROP_PARAM, u, 1);
        if (!ok)
            R->dropped[k] = 0;
    } else if (k < R->c->ninputs + R->nextra) {
        case_tensor e = R->extra[k - R->c->ninputs];
        memmove(&R->extra[k - R->c->ninputs], &R->extra[k - R->c->ninputs + 1],
                (R->nextra - (k - R->c->ninputs) - 1) * sizeof *R->extra);
        R->nextra--;
        rebuild_cur(R);
        ok = try_units(R, REDUCE_DROP_PARAM, u, 1);
        if (ok) {
            free(e.name);
            free(e.path);
            tensor_unref(e.t);
        } else {
            memmove(&R->extra[k - R->c->ninputs + 1], &R->extra[k - R->c->ninputs],
                    (R->nextra - (k - R->c->ninputs)) * sizeof *R->extra);
            R->extra[k - R->c->ninputs] = e;
            R->nextra++;
        }
    }
    rebuild_cur(R);
    if (ok)
        R->inputs_dirty = 1;
    return ok;
}

static size_t drop_params(reducer *R)
{
    if (!R->dropped)
        R->dropped = xcalloc(R->c->ninputs + 1, 1);
    return each_unit(R, REDUCE_DROP_PARAM, try_drop_param, NULL);
}

/* SHRINK_SHAPE: an input halved along its first or last dim, its data cut
 * to the first half (a view's start stays valid); the last dim only while
 * a row stays a multiple of the device's 32-byte alignment. */
static int try_shrink_shape(reducer *R, reduce_kind kind, reduce_unit *u, void *ctx)
{
    (void)kind;
    (void)ctx;
    strbuf base = STRBUF_INIT;
    ir_ssa_base_name(u->key, &base);
    size_t k = input_index(R, strbuf_str(&base));
    strbuf_free(&base);
    tensor *old = k < R->c->ninputs ? (R->shrunk[k] ? R->shrunk[k] : R->c->inputs[k].t)
                  : k < R->c->ninputs + R->nextra ? R->extra[k - R->c->ninputs].t
                                                   : NULL;
    int ok = 0;
    int dim = (int)u->arg;
    if (old && dim < old->ndim && old->shape[dim] == 2 * u->trips &&
        (dim + 1 < old->ndim || ((uint64_t)u->trips * dtype_size(old->dtype)) % 32 == 0)) {
        ptodb_status st = PTODB_OK;
        tensor *view = tensor_slice(old, dim, 0, u->trips, 1, &st);
        tensor *cut = view ? tensor_clone(view) : NULL;
        tensor_unref(view);
        if (cut) {
            /* install the cut data, try, and put the old back when rejected */
            tensor *keep = old;
            tensor_ref(keep);
            if (k < R->c->ninputs) {
                tensor *prev = R->shrunk[k];
                R->shrunk[k] = cut;
                rebuild_cur(R);
                ok = try_units(R, REDUCE_SHRINK_SHAPE, u, 1);
                if (ok) {
                    tensor_unref(prev);
                } else {
                    R->shrunk[k] = prev;
                    tensor_unref(cut);
                }
            } else {
                case_tensor *e = &R->extra[k - R->c->ninputs];
                e->t = cut;
                rebuild_cur(R);
                ok = try_units(R, REDUCE_SHRINK_SHAPE, u, 1);
                if (ok) {
                    tensor_unref(keep); /* the extra's own reference */
                } else {
                    e->t = keep; /* the extra's own reference again */
                    tensor_unref(cut);
                }
            }
            tensor_unref(keep);
            rebuild_cur(R);
            if (ok)
                R->inputs_dirty = 1;
        }
    }
    return ok;
}

static size_t shrink_shapes(reducer *R)
{
    if (!R->shrunk)
        R->shrunk = xcalloc(R->c->ninputs + 1, sizeof *R->shrunk);
    return each_unit(R, REDUCE_SHRINK_SHAPE, try_shrink_shape, NULL);
}

/* The baseline: plain ddmin over the lines of the failing file's text; a
 * line deleted there is deleted from the passing file too where it has the
 * same line (each once), so the pair stays a pair as it does for the
 * transformations. No syntax is known: a candidate that does not parse is
 * an invalid one. */
typedef struct line_ref {
    size_t start, len;  /* in the failing file's text, the newline included */
} line_ref;

static size_t split_lines(const char *t, line_ref **out)
{
    size_t n = 0, cap = 0;
    line_ref *v = NULL;
    for (size_t at = 0; t[at];) {
        size_t len = strcspn(t + at, "\n");
        len += t[at + len] == '\n';
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            v = xreallocarray(v, cap, sizeof *v);
        }
        v[n++] = (line_ref){at, len};
        at += len;
    }
    *out = v;
    return n;
}

/* The passing file without one copy of each line of bad in [from, to). */
static char *drop_same_lines(const char *good, const char *bad, const line_ref *l, size_t from, size_t to)
{
    line_ref *gl;
    size_t ng = split_lines(good, &gl);
    char *gone = xcalloc(ng + 1, 1);
    for (size_t k = from; k < to; k++)
        for (size_t j = 0; j < ng; j++)
            if (!gone[j] && gl[j].len == l[k].len && memcmp(good + gl[j].start, bad + l[k].start, l[k].len) == 0) {
                gone[j] = 1;
                break;
            }
    strbuf out = STRBUF_INIT;
    for (size_t j = 0; j < ng; j++)
        if (!gone[j])
            strbuf_append(&out, good + gl[j].start, gl[j].len);
    free(gl);
    free(gone);
    return strbuf_detach(&out);
}

static size_t ddmin_lines(reducer *R)
{
    size_t accepted = 0, parts = 2;
    while (!out_of_time(R)) {
        line_ref *l;
        size_t n = split_lines(R->text[1], &l);
        if (n == 0) {
            free(l);
            break;
        }
        if (parts > n)
            parts = n;
        size_t chunk = (n + parts - 1) / parts;
        int any = 0;
        for (size_t i = 0; i * chunk < n && !any && !out_of_time(R); i++) {
            size_t from = i * chunk, to = from + chunk < n ? from + chunk : n;
            strbuf b = STRBUF_INIT;
            for (size_t k = 0; k < n; k++)
                if (k < from || k >= to)
                    strbuf_append(&b, R->text[1] + l[k].start, l[k].len);
            char *g = drop_same_lines(R->text[0], R->text[1], l, from, to);
            any = try_pair(R, REDUCE_KIND_COUNT, g, strbuf_detach(&b));
        }
        free(l);
        if (any) {
            accepted++;
            parts = parts > 2 ? parts - 1 : 2;
            continue;
        }
        if (parts >= n)
            break;
        parts = 2 * parts < n ? 2 * parts : n;
    }
    return accepted;
}

/* ---- the pair to start from ------------------------------------------------------------------- */

static int failing_pair(const case_info *c, const reduce_options *o, reduce_result *r)
{
    if (o->pass >= 0) {
        r->bad = -1;
        for (size_t i = 0; i < c->npasses; i++)
            if (c->passes[i].index == o->pass)
                r->bad = (int)i;
        if (r->bad < 0) {
            r->error = xstrdup("--pass: the case has no pass of that number");
            return -1;
        }
        runpass_result res;
        runpass_file(c->passes[r->bad].path, c, &o->ro, &res);
        int ok = res.status == RUNPASS_COMPARED && res.all_pass;
        runpass_result_free(&res);
        if (ok) {
            strbuf e = STRBUF_INIT;
            strbuf_printf(&e, "--pass %d: %s passes validation: nothing to reduce", o->pass, c->passes[r->bad].stem);
            r->error = strbuf_detach(&e);
            return -1;
        }
        for (int j = r->bad - 1; j >= 0; j--) {
            runpass_file(c->passes[j].path, c, &o->ro, &res);
            ok = res.status == RUNPASS_COMPARED && res.all_pass;
            runpass_result_free(&res);
            if (ok) {
                r->good = j;
                return 0;
            }
        }
        strbuf e = STRBUF_INIT;
        strbuf_printf(&e, "no pass before %s passes validation: no passing pass to reduce against",
                      c->passes[r->bad].stem);
        r->error = strbuf_detach(&e);
        return -1;
    }
    batch_options bo;
    memset(&bo, 0, sizeof bo);
    bo.ro = o->ro;
    bo.jobs = 1;
    batch b;
    batch_init(&b, c, &bo);
    bisect_options bopt;
    memset(&bopt, 0, sizeof bopt);
    bisect_result br;
    bisect_run(&b, &bopt, &br);
    int rc = 0;
    if (br.status == BISECT_FOUND) {
        r->good = br.last_good;
        r->bad = br.first_bad;
    } else {
        strbuf e = STRBUF_INIT;
        strbuf_puts(&e, "no pair of a passing pass and a failing one after it: ");
        strbuf rep = STRBUF_INIT;
        bisect_report_text(&b, &br, &rep);
        const char *t = strbuf_str(&rep);
        strbuf_append(&e, t, strcspn(t, "\n"));
        strbuf_free(&rep);
        r->error = strbuf_detach(&e);
        rc = -1;
    }
    bisect_result_free(&br);
    batch_free(&b);
    return rc;
}

/* ---- the run ---------------------------------------------------------------------------------- */

static void remove_work(reducer *R)
{
    for (int i = 0; i < 2; i++)
        if (R->work[i])
            unlink(R->work[i]);
    if (R->workdir) {
        strbuf p = STRBUF_INIT;
        strbuf_printf(&p, "%s/passes_dump", R->workdir);
        rmdir(strbuf_str(&p));
        strbuf_free(&p);
        rmdir(R->workdir);
    }
}

static int start(reducer *R)
{
    const case_info *c = R->c;
    reduce_result *r = R->r;
    if (failing_pair(c, R->o, r) != 0)
        return -1;
    int idx[2] = {r->good, r->bad};
    for (int i = 0; i < 2; i++) {
        size_t len;
        char *raw = file_read_all(c->passes[idx[i]].path, &len);
        R->text[i] = raw ? canonical(raw) : NULL;
        free(raw);
        if (!R->text[i]) {
            strbuf e = STRBUF_INIT;
            strbuf_printf(&e, "%s: does not read or parse (ptodb --check says why)", c->passes[idx[i]].path);
            r->error = strbuf_detach(&e);
            return -1;
        }
        r->stmts_before[i] = r->stmts_after[i] = count_text(R->text[i]);
        r->bytes_before[i] = strlen(R->text[i]);
    }
    R->diff0 = r->diff_before = r->diff_after = pair_diff(R->text[0], R->text[1]);
    const char *tmp = getenv("TMPDIR");
    strbuf wd = STRBUF_INIT;
    strbuf_printf(&wd, "%s/ptodb-reduce-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    R->workdir = strbuf_detach(&wd);
    if (!mkdtemp(R->workdir)) {
        strbuf e = STRBUF_INIT;
        strbuf_printf(&e, "cannot create a work folder %s: %s", R->workdir, strerror(errno));
        r->error = strbuf_detach(&e);
        free(R->workdir);
        R->workdir = NULL;
        return -1;
    }
    strbuf p = STRBUF_INIT;
    strbuf_printf(&p, "%s/passes_dump", R->workdir);
    mkdirs(strbuf_str(&p));
    for (int i = 0; i < 2; i++) {
        strbuf_clear(&p);
        strbuf_printf(&p, "%s/passes_dump/%s.py", R->workdir, c->passes[idx[i]].stem);
        R->work[i] = xstrdup(strbuf_str(&p));
        write_work(R->work[i], R->text[i]);
    }
    strbuf_free(&p);
    R->bad_checks = checks(R->work[1]);
    /* the determinism gate: three runs, one fingerprint (else no oracle) */
    for (int run = 0; run < 3; run++) {
        reduce_fp fp;
        tensor **golden = NULL;
        strbuf why = STRBUF_INIT;
        reduce_verdict v = reduce_oracle(R->work[0], R->work[1], c->passes[r->bad].name, &R->cur, &R->o->ro, &fp,
                                         &golden, &why);
        r->tests++;
        if (v != REDUCE_SHOWN) {
            strbuf e = STRBUF_INIT;
            strbuf_printf(&e, "%s against %s shows no divergence to keep: %s", c->passes[r->bad].stem,
                          c->passes[r->good].stem, strbuf_str(&why));
            r->error = strbuf_detach(&e);
            strbuf_free(&why);
            reduce_fp_free(&fp);
            reduce_golden_free(golden, c->noutputs);
            return -1;
        }
        strbuf_free(&why);
        if (run == 0) {
            r->fp = fp;
            R->golden = golden;
            continue;
        }
        int same = reduce_fp_equal(&fp, &r->fp);
        reduce_fp_free(&fp);
        reduce_golden_free(golden, c->noutputs);
        if (!same) {
            r->error = xstrdup("the fingerprint differs between two runs of the same pair: the oracle is not "
                               "deterministic, nothing can be reduced against it");
            return -1;
        }
    }
    return 0;
}

int reduce_run(const case_info *c, const reduce_options *o, reduce_result *r)
{
    memset(r, 0, sizeof *r);
    r->good = r->bad = -1;
    reducer R;
    memset(&R, 0, sizeof R);
    R.c = c;
    R.o = o;
    R.r = r;
    rebuild_cur(&R);
    R.t0 = clock_seconds();
    R.deadline = R.t0 + (o->budget > 0 ? o->budget : 600);
    int rc = start(&R);
    strbuf err = STRBUF_INIT;
    if (rc == 0 && o->fingerprint_only) {
        remove_work(&R);
        free(R.workdir);
        free(R.work[0]);
        free(R.work[1]);
        free(R.text[0]);
        free(R.text[1]);
        reduce_golden_free(R.golden, c->noutputs);
        free(R.cur.inputs);
        return 0;
    }
    R.last_save = clock_seconds();
    if (rc == 0 && save_best(&R, 1, 0, &err) != 0) {
        r->error = strbuf_detach(&err);
        rc = -1;
    }
    if (rc == 0) {
        if (o->progress) {
            strbuf fp = STRBUF_INIT;
            reduce_fp_text(&r->fp, &fp);
            fprintf(o->progress, "reduce: %s -> %s: %s; %zu + %zu statements\n", c->passes[r->good].stem,
                    c->passes[r->bad].stem, strbuf_str(&fp), r->stmts_before[0], r->stmts_before[1]);
            fflush(o->progress);
            strbuf_free(&fp);
        }
        for (;;) {
            size_t acc = 0;
            if (o->lines_baseline) {
                acc += ddmin_lines(&R);
            } else {
                acc += one_by_one(&R, REDUCE_DROP_FUNC);
                acc += one_by_one(&R, REDUCE_DROP_PIPE);
                acc += one_by_one(&R, REDUCE_UNGROUP);
                acc += one_by_one(&R, REDUCE_DROP_FUNC);
                acc += one_by_one(&R, REDUCE_CUT_LOOP);
                acc += one_by_one(&R, REDUCE_COLLAPSE_IF);
                acc += ddmin_delete(&R);
                acc += one_by_one(&R, REDUCE_BYPASS);
                acc += record_args(&R);
                acc += const_tiles(&R);
                acc += one_by_one(&R, REDUCE_RETARGET);
                acc += one_by_one(&R, REDUCE_FORWARD_OUT);
                acc += drop_params(&R);
                acc += shrink_shapes(&R);
                acc += ddmin_delete(&R);
            }
            r->rounds++;
            if (R.stopped)
                break;
            if (!acc) {
                r->minimal = 1;
                break;
            }
        }
        r->seconds = clock_seconds() - R.t0;
        for (int i = 0; i < 2; i++) {
            r->stmts_after[i] = count_text(R.text[i]);
            r->bytes_after[i] = strlen(R.text[i]);
        }
        strbuf_clear(&err);
        if (save_best(&R, R.inputs_dirty, 1, &err) != 0) {
            r->error = strbuf_detach(&err);
            rc = -1;
        }
    }
    strbuf_free(&err);
    remove_work(&R);
    free(R.workdir);
    free(R.work[0]);
    free(R.work[1]);
    free(R.text[0]);
    free(R.text[1]);
    free(R.seen);
    reduce_golden_free(R.golden, c->noutputs);
    for (size_t k = 0; k < R.nextra; k++) {
        free(R.extra[k].name);
        free(R.extra[k].path);
        tensor_unref(R.extra[k].t);
    }
    free(R.extra);
    for (size_t k = 0; R.shrunk && k < c->ninputs; k++)
        tensor_unref(R.shrunk[k]);
    free(R.shrunk);
    free(R.dropped);
    free(R.cur.inputs);
    r->seconds = clock_seconds() - R.t0;
    return rc;
}

void reduce_result_free(reduce_result *r)
{
    free(r->error);
    reduce_fp_free(&r->fp);
    memset(r, 0, sizeof *r);
}

void reduce_report_text(const reduce_result *r, strbuf *out)
{
    strbuf_puts(out, "reduce: fingerprint: ");
    reduce_fp_text(&r->fp, out);
    strbuf_putc(out, '\n');
    strbuf_printf(out, "reduce: statements: passing file %zu -> %zu, failing file %zu -> %zu (%.1fx smaller)\n",
                  r->stmts_before[0], r->stmts_after[0], r->stmts_before[1], r->stmts_after[1],
                  r->stmts_after[1] ? (double)r->stmts_before[1] / (double)r->stmts_after[1] : 0.0);
    strbuf_printf(out, "reduce: bytes: passing file %zu -> %zu, failing file %zu -> %zu\n", r->bytes_before[0],
                  r->bytes_after[0], r->bytes_before[1], r->bytes_after[1]);
    strbuf_printf(out, "reduce: lines differing between the two files: %ld -> %ld\n", r->diff_before, r->diff_after);
    strbuf_printf(out, "reduce: %zu oracle runs in %.2f s, %zu round%s; %s\n", r->tests, r->seconds, r->rounds,
                  r->rounds == 1 ? "" : "s",
                  r->interrupted    ? "interrupted: the best pair so far is kept"
                  : r->budget_spent ? "the budget is spent: the best pair so far is kept"
                  : r->minimal      ? "1-minimal: no single unit of any transformation can go"
                                    : "stopped");
    strbuf_printf(out, "  %-14s %7s %9s %8s %14s %7s\n", "transformation", "tried", "accepted", "invalid",
                  "uninteresting", "cached");
    for (int k = 0; k <= REDUCE_KIND_COUNT; k++) {
        const reduce_counts *x = &r->counts[k];
        if (k == REDUCE_KIND_COUNT && !x->tried)
            continue;
        strbuf_printf(out, "  %-14s %7zu %9zu %8zu %14zu %7zu\n",
                      k < REDUCE_KIND_COUNT ? reduce_kind_name((reduce_kind)k) : "lines (ddmin)", x->tried,
                      x->accepted, x->invalid, x->uninteresting, x->cached);
    }
}

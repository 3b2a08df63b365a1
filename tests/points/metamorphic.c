/* The metamorphic test of program points (tests/cli/points_fixtures.sh):
 * for every pair of consecutive passes of a case whose dump text is the
 * same after the header line (or, with --renamed, the same but for SSA
 * names), a breakpoint on every statement line of the first, and at every
 * stop, on every core, lane and call, `diff pass SECOND` must find every
 * tensor of the frame equal (max_abs_diff 0), matched as the same point.
 *   metamorphic CASE [--pairs N] [--max-stops N] [--renamed]
 * (--pairs: the first N such pairs; --max-stops: the first N stops of each)
 * A pair whose two files have the bytes of an earlier pair's two, with the
 * same memory-model options on each side (runpass_memory_options: all the
 * run takes from a pass's place in the case), would repeat that pair stop
 * for stop: it is counted as identical and not run again (a run of k
 * identical files in a row is k - 1 pairs of one program).
 * Prints the counts; exit 0 when every stop compared equal, 1 otherwise.
 *   metamorphic CASE --region [--max-stops N]
 * The pairs whose texts differ (a pass restructured something) where both
 * passes validate: a breakpoint on every tile.store (tensor.assemble) of the
 * first, and at every stop `diff TILE pass SECOND` of the tile stored. The same region of
 * the same GM tensor holds the same data in both passes, so every stop
 * matched by region must compare equal (max_abs_diff 0; after
 * AutoTileMatmulL0, whose K split sums in another order, within tolerance);
 * the stops matched otherwise (the same point, a guess, none) are counted
 * apart. Under the device's semantics (the default) the same holds after a
 * pass that lowers a tensor.matmul with a BF16/FP16 result (rounded to it)
 * to a tile.matmul into an FP32 accumulator (not rounded): within tolerance
 * (lowers_low_precision_matmul).
 *   metamorphic CASE --intermediates [--max-stops N] [--only PASSNAME]
 * The same pairs; a breakpoint on every statement computing an intermediate
 * (no load, store or pop), and after it `diff TARGET pass SECOND`: a value
 * matched by provenance, region or queue slot must be bit-equal (but after
 * AutoTileMatmulL0: within tolerance) (intermediates()); --only: the
 * pairs whose second pass's name contains PASSNAME.
 *   --semantics ref: the session runs under --semantics=ref (a case whose
 * golden is the reference's where the device computes otherwise,
 * tests/data/device/fixture_goldens.txt, validates only there). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "data/case.h"
#include "debug/state/session.h"
#include "debug/present/view.h"
#include "exec/runpass.h"
#include "ir/parse.h"
#include "ir/resolve.h"
#include "ir/walk.h"

static strbuf captured;

static void capture(void *ctx, session_stream stream, const char *text, size_t len)
{
    (void)ctx;
    (void)stream;
    strbuf_append(&captured, text, len);
}

/* The memory model's options for pass i of c (the same index as the
 * session's passes), or all -2 when c does not have it. */
static void memory_key(const case_info *c, int i, int key[3])
{
    key[0] = key[1] = key[2] = -2;
    if (!c || i < 0 || (size_t)i >= c->npasses)
        return;
    machine_options mo;
    machine_options_init(&mo);
    mo.memcheck = 1;
    runpass_memory_options(c->passes[i].path, c, &mo);
    key[0] = mo.mem_target;
    key[1] = mo.mem_addressed;
    key[2] = mo.mem_yields_move;
}

/* Pair i, i + 1 repeats the earlier pair j, j + 1: the same bytes on each
 * side and the same memory-model options. */
static int same_pair(session *s, const case_info *c, int i, int j)
{
    for (int k = 0; k < 2; k++) {
        const char *x = session_pass_source(s, i + k), *y = session_pass_source(s, j + k);
        if (!x || !y || strcmp(x, y) != 0)
            return 0;
        int kx[3], ky[3];
        memory_key(c, i + k, kx);
        memory_key(c, j + k, ky);
        if (kx[0] == -2 || memcmp(kx, ky, sizeof kx) != 0)
            return 0;
    }
    return 1;
}

static const char *run(session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *run(session *s, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    strbuf_clear(&captured);
    session_execute(s, line);
    return strbuf_str(&captured);
}

typedef struct lines {
    int *v;
    size_t n, cap;
} lines;

static void add_line(void *ctx, const ir_stmt *st)
{
    lines *l = ctx;
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i] == (int)st->span.line)
            return;
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = (int)st->span.line;
}

static const char *after_header(const char *t)
{
    const char *nl = t ? strchr(t, '\n') : NULL;
    return nl ? nl + 1 : "";
}

typedef struct stores {
    int *line;
    char **tile;
    size_t n, cap;
} stores;

static void stores_push(stores *l, int line, const char *var)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->line = realloc(l->line, l->cap * sizeof *l->line);
        l->tile = realloc(l->tile, l->cap * sizeof *l->tile);
    }
    l->line[l->n] = line;
    l->tile[l->n++] = strdup(var);
}

static void add_store(void *ctx, const ir_stmt *st)
{
    stores *l = ctx;
    const ir_expr *c = st->kind == IR_STMT_ASSIGN ? st->u.assign.value : st->kind == IR_STMT_EXPR ? st->u.expr.value : NULL;
    /* tile.store(tile, offsets, t), and its tensor-level form tensor.assemble(t, src, offsets) */
    if (!c || c->kind != IR_EXPR_CALL || c->res.kind != IR_REF_OP)
        return;
    int src = c->res.id == IR_OP_TILE_STORE ? 0 : c->res.id == IR_OP_TENSOR_ASSEMBLE ? 1 : -1;
    if (src < 0 || (int)c->u.call.nargs <= src || c->u.call.args[src]->kind != IR_EXPR_NAME)
        return;
    stores_push(l, (int)st->span.line, c->u.call.args[src]->u.name->text);
}

/* An intermediate: a statement assigning one target from an op that is no
 * tile.load, tile.store or pop (those are matched by region and queue slot). */
static void add_intermediate(void *ctx, const ir_stmt *st)
{
    stores *l = ctx;
    if (st->kind != IR_STMT_ASSIGN || st->u.assign.ntargets != 1)
        return;
    const ir_expr *c = st->u.assign.value;
    if (!c || c->kind != IR_EXPR_CALL || c->res.kind != IR_REF_OP)
        return;
    switch (c->res.id) {
    case IR_OP_TILE_LOAD:
    case IR_OP_TILE_STORE:
    case IR_OP_TENSOR_ASSEMBLE:
    case IR_OP_TILE_TPOP_FROM_AIC:
    case IR_OP_TILE_TPOP_FROM_AIV:
    case IR_OP_TILE_GET_SUBBLOCK_IDX:
    case IR_OP_TILE_GET_BLOCK_IDX:
        return;
    default:
        break;
    }
    const char *op = ir_op_info_get(c->res.id) ? ir_op_info_get(c->res.id)->name : "";
    if (strncmp(op, "tile.", 5) != 0 && strncmp(op, "tensor.", 7) != 0)
        return;
    stores_push(l, (int)st->span.line, st->u.assign.targets[0].name->text);
}

static int validates(session *s, const char *stem)
{
    run(s, "delete");
    run(s, "pass %s", stem);
    const char *out = run(s, "run");
    int ok = strstr(out, "pass: True") && !strstr(out, "pass: False");
    run(s, "kill");
    return ok;
}

static void stores_free(stores *l)
{
    for (size_t k = 0; k < l->n; k++)
        free(l->tile[k]);
    free(l->line);
    free(l->tile);
    memset(l, 0, sizeof *l);
}

/* Calls fn on every statement of every function of the dump text (named
 * stem in messages): 1; 0 when it does not parse and resolve (broken IR,
 * nothing to stop in). */
static int walk_pass_stmts(const char *stem, const char *text, void (*fn)(void *, const ir_stmt *), void *ctx)
{
    diag_sink sink;
    diag_sink_init(&sink, 5);
    ptodb_status st;
    ir_module *m = ir_parse(stem, text, strlen(text), &sink, &st);
    if (st == PTODB_OK)
        st = ir_resolve(m, &sink);
    diag_sink_free(&sink);
    int ok = st == PTODB_OK && m->program;
    if (ok)
        for (uint32_t f = 0; f < m->program->nfuncs; f++)
            ir_walk_stmts(&m->program->funcs[f]->body, fn, ctx);
    ir_module_free(m);
    return ok;
}

/* --semantics ref */
static int ref_semantics;

/* The tensor.matmul statements of a dump whose result is BF16 or FP16 (the
 * product rounded to the operands' dtype). */
static long low_precision_tensor_matmuls(const char *text)
{
    long n = 0;
    for (const char *l = text; l && *l;) {
        const char *e = strchr(l, '\n'), *m = strstr(l, "= pl.tensor.matmul(");
        size_t len = e ? (size_t)(e - l) : strlen(l);
        if (m && m < l + len) {
            char head[1024];
            snprintf(head, sizeof head, "%.*s", (int)(m - l), l);
            n += strstr(head, "pl.BF16]") != NULL || strstr(head, "pl.FP16]") != NULL;
        }
        l = e ? e + 1 : l + len;
    }
    return n;
}

/* 1 when the later pass of the pair (its sources, earlier first) changes
 * the arithmetic under the device's semantics: it lowers a tensor.matmul
 * with a BF16/FP16 result, which the device rounds to that dtype, to a
 * tile.matmul into an FP32 accumulator, which it does not round (the cube
 * accumulates in FP32; under REF both round to BF16/FP16: bit-equal). */
static int lowers_low_precision_matmul(const char *earlier, const char *later)
{
    return !ref_semantics && low_precision_tensor_matmuls(earlier) > low_precision_tensor_matmuls(later);
}

/* the pair being visited changes the arithmetic that way */
static int pair_lowers_matmul;

/* Pair i, i+1 of a case when the pass restructured something (the texts
 * differ), both validate, and `collect` finds statements in the first:
 * those statements (l), a breakpoint on each and the first pass run to its
 * first stop; 1 then. *notval counts the pairs skipped for not validating. */
/* --reverse: stop in the second pass of each pair, compare with the first
 * (a lane's value after a split against the whole one before it) */
static int reverse_pairs;

/* 1 when the pass named stem is one of only's (a comma-separated list of
 * parts of pass names), or only is NULL */
static int only_match(const char *stem, const char *only)
{
    if (!only)
        return 1;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", only);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save))
        if (strstr(stem, w))
            return 1;
    return 0;
}

static int start_restructured_pair(session *s, int i, void (*collect)(void *, const ir_stmt *), const char *only,
                                   stores *l, long *notval)
{
    const char *a = session_pass_source(s, i), *b = session_pass_source(s, i + 1);
    memset(l, 0, sizeof *l);
    if (!a || !b || strcmp(after_header(a), after_header(b)) == 0)
        return 0;
    if (!only_match(session_pass_stem(s, i + 1), only))
        return 0;
    if (reverse_pairs) {
        const char *t = a;
        a = b;
        b = t;
        i++;
    }
    const char *stem_a = session_pass_stem(s, i), *stem_b = session_pass_stem(s, reverse_pairs ? i - 1 : i + 1);
    walk_pass_stmts(stem_a, a, collect, l);
    if (!l->n || !validates(s, stem_a) || !validates(s, stem_b)) {
        *notval += l->n > 0;
        stores_free(l);
        return 0;
    }
    run(s, "delete");
    run(s, "pass %s", stem_a);
    for (size_t k = 0; k < l->n; k++)
        run(s, "break %d", l->line[k]);
    run(s, "run");
    return 1;
}

/* The variable of the statement the run stopped at (one of l's), or NULL
 * when the run is over or at max_stops. */
static const char *stop_var(session *s, const stores *l, long pair_stops, long max_stops, view_location *loc)
{
    if (!view_stop_location(s, loc) || view_run_finished(s) || (max_stops >= 0 && pair_stops >= max_stops))
        return NULL;
    for (size_t k = 0; k < l->n; k++)
        if (l->line[k] == loc->line)
            return l->tile[k];
    return NULL;
}

/* Every stop of every restructured pair (start_restructured_pair with
 * collect and only), at most max_stops a pair: after `next` when
 * step_first (the value is then computed), `diff VAR pass SECOND` and
 * visit with its output; then on to the next stop. *pairs and *notval
 * count the pairs run and skipped for not validating. */
typedef void (*stop_visit)(void *ctx, const char *stem_a, const char *stem_b, const view_location *loc,
                           const char *out);

static void each_restructured_stop(session *s, void (*collect)(void *, const ir_stmt *), const char *only,
                                   long max_stops, int step_first, long *pairs, long *notval, stop_visit visit,
                                   void *ctx)
{
    int np = session_npasses(s);
    for (int i = 0; i + 1 < np; i++) {
        stores l;
        if (!start_restructured_pair(s, i, collect, only, &l, notval))
            continue;
        /* the stop's pass, and the one compared with */
        const char *stem_a = session_pass_stem(s, reverse_pairs ? i + 1 : i),
                   *stem_b = session_pass_stem(s, reverse_pairs ? i : i + 1);
        pair_lowers_matmul = lowers_low_precision_matmul(session_pass_source(s, i), session_pass_source(s, i + 1));
        (*pairs)++;
        long pair_stops = 0;
        for (long guard = 0; guard < 1000000; guard++) {
            view_location loc;
            const char *tile = stop_var(s, &l, pair_stops, max_stops, &loc);
            if (!tile)
                break;
            pair_stops++;
            if (step_first)
                run(s, "next");
            visit(ctx, stem_a, stem_b, &loc, run(s, "diff %s pass %s", tile, stem_b));
            run(s, "continue");
        }
        run(s, "kill");
        stores_free(&l);
    }
}

typedef struct region_counts {
    long stops, by_region, region_equal, region_within, same, guess, none, bad;
} region_counts;

/* One stop's answer on stderr, headed by what it is ("" for a wrong one). */
static void show_stop(const char *what, const char *stem_a, const char *stem_b, const view_location *loc,
                      const char *out)
{
    fprintf(stderr, "%s%s%s -> %s, [%s] %s line %d:\n%s\n", what, *what ? ": " : "", stem_a, stem_b, loc->core_name,
            loc->func, loc->line, out);
}

/* A region's (queue slot's, provenance's) data in both passes: bit-equal,
 * or within tolerance after AutoTileMatmulL0, whose K split sums in another
 * order and may move the last bits, not more, and after a pass that lowers a
 * BF16/FP16 tensor.matmul to the cube's FP32 accumulator under the device's
 * semantics (the other passes, e.g. ExpandMixedKernel moving statements
 * between cores or SplitVectorKernel between lanes, compute nothing
 * differently). */
static int same_data(const char *out, const char *stem_b, int *zero)
{
    *zero = strstr(out, "max_abs_diff 0.000000e+00") != NULL;
    return *zero || (strstr(out, ", within tolerance") != NULL &&
                     (strstr(stem_b, "AutoTileMatmulL0") != NULL || pair_lowers_matmul));
}

static void region_visit(void *ctx, const char *stem_a, const char *stem_b, const view_location *loc,
                         const char *out)
{
    region_counts *c = ctx;
    int verbose = getenv("METAMORPHIC_VERBOSE") != NULL;
    c->stops++;
    if (strstr(out, "(matched by region ")) {
        int zero, ok = same_data(out, stem_b, &zero);
        c->by_region++;
        c->region_equal += zero;
        c->region_within += !zero && strstr(out, ", within tolerance") != NULL;
        if (ok && !zero && verbose)
            show_stop("within", stem_a, stem_b, loc, out);
        if (!ok && ++c->bad <= 10)
            show_stop("", stem_a, stem_b, loc, out);
    } else if (strstr(out, "(same point: ")) {
        c->same++;
    } else if (strstr(out, "(a guess: ")) {
        c->guess++;
    } else {
        c->none++;
        if (verbose)
            show_stop("no counterpart", stem_a, stem_b, loc, out);
    }
}

static int region_oracle(session *s, long max_stops)
{
    long pairs = 0, notval = 0;
    region_counts c = {0};
    each_restructured_stop(s, add_store, NULL, max_stops, 0, &pairs, &notval, region_visit, &c);
    printf("%ld restructured pairs that validate (%ld with stores skipped: a pass does not validate), %ld store stops: "
           "%ld matched by region (%ld equal, %ld within tolerance after a pass that changes the arithmetic), "
           "%ld the same point, %ld guesses, %ld without a counterpart; %ld region matches wrong\n",
           pairs, notval, c.stops, c.by_region, c.region_equal, c.region_within, c.same, c.guess, c.none, c.bad);
    return c.bad ? 1 : 0;
}

/* --intermediates: the pairs a pass restructured where both validate; a
 * breakpoint on every statement computing an intermediate (an op that is
 * no load, store or pop); at every stop `next` (the value is computed),
 * then `diff TARGET pass SECOND`. A value matched by provenance is the
 * same data computed by the same ops from the same GM regions: it must be
 * bit-equal. The other kinds of match are counted apart. */
typedef struct inter_counts {
    long stops, prov, prov_equal, share, share_equal, guess, guess_noprov, same, region, region_equal, none, scalar,
        bad;
} inter_counts;

static void inter_visit(void *ctx, const char *stem_a, const char *stem_b, const view_location *loc,
                        const char *out)
{
    inter_counts *c = ctx;
    int verbose = getenv("METAMORPHIC_VERBOSE") != NULL;
    int zero = strstr(out, "max_abs_diff 0.000000e+00") != NULL;
    if (strstr(out, "(matched by provenance: ")) {
        c->stops++;
        c->prov++;
        c->prov_equal += zero;
        /* a lane's share of a value computed whole: compared on that share,
         * it must be bit-equal all the same */
        if (strstr(out, "'s share (") || strstr(out, "two lanes' parts and merged")) {
            c->share++;
            c->share_equal += zero;
            if (verbose)
                show_stop("share", stem_a, stem_b, loc, out);
        }
        if (!zero && ++c->bad <= 10)
            show_stop("", stem_a, stem_b, loc, out);
    } else if (strstr(out, "(a guess: ")) {
        c->stops++;
        c->guess++;
        c->guess_noprov += strstr(out, "computes no value from the same data") != NULL;
        if (verbose)
            show_stop("guess", stem_a, stem_b, loc, out);
    } else if (strstr(out, "(same point: ")) {
        c->stops++;
        c->same++;
    } else if (strstr(out, "(matched by region ") || strstr(out, "(matched by queue slot")) {
        /* the same region (queue slot) at the same occurrence: the same data */
        c->stops++;
        c->region++;
        c->region_equal += zero;
        if (!same_data(out, stem_b, &zero) && ++c->bad <= 10)
            show_stop("", stem_a, stem_b, loc, out);
    } else if (strstr(out, "has no counterpart")) {
        c->stops++;
        c->none++;
        if (verbose)
            show_stop("no counterpart", stem_a, stem_b, loc, out);
    } else {
        c->scalar++; /* not a tensor (a scalar), or not bound */
    }
}

static int intermediates(session *s, long max_stops, const char *only)
{
    long pairs = 0, notval = 0;
    inter_counts c = {0};
    each_restructured_stop(s, add_intermediate, only, max_stops, 1, &pairs, &notval, inter_visit, &c);
    printf("%ld restructured pairs that validate%s, %ld intermediate stops: %ld matched by provenance (%ld bit-equal; "
           "%ld of them a lane's share, %ld bit-equal), "
           "%ld guesses (%ld of them: no value with that provenance), %ld the same point, %ld by region or queue "
           "slot (%ld bit-equal), %ld without a counterpart (%ld not tensors); %ld provenance or region matches "
           "wrong\n",
           pairs, reverse_pairs ? " (stops in the second, compared with the first)" : "", c.stops, c.prov,
           c.prov_equal, c.share, c.share_equal, c.guess, c.guess_noprov, c.same, c.region, c.region_equal, c.none,
           c.scalar, c.bad);
    return c.bad ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: metamorphic CASE [--pairs N] [--max-stops N] [--renamed] [--region | --intermediates [--reverse] [--only P]] [--semantics ref]\n");
        return 2;
    }
    int max_pairs = 1000, renamed = 0, region = 0, inter = 0;
    const char *only = NULL;
    long max_stops = -1;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--pairs") == 0 && i + 1 < argc)
            max_pairs = atoi(argv[++i]);
        else if (strcmp(argv[i], "--max-stops") == 0 && i + 1 < argc)
            max_stops = atol(argv[++i]);
        else if (strcmp(argv[i], "--renamed") == 0)
            renamed = 1;
        else if (strcmp(argv[i], "--region") == 0)
            region = 1;
        else if (strcmp(argv[i], "--intermediates") == 0)
            inter = 1;
        else if (strcmp(argv[i], "--reverse") == 0)
            reverse_pairs = 1;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--semantics") == 0 && i + 1 < argc && strcmp(argv[i + 1], "ref") == 0) {
            ref_semantics = 1;
            i++;
        } else {
            fprintf(stderr, "metamorphic: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    session *s = session_new();
    session_set_output(s, capture, NULL);
    run(s, "set session autosave off");
    if (session_open(s, argv[1], -1, -1) != PTODB_OK) {
        fprintf(stderr, "cannot open %s:\n%s", argv[1], strbuf_str(&captured));
        return 2;
    }
    if (ref_semantics) {
        run(s, "set semantics ref");
        if (!strstr(run(s, "show semantics"), "ref")) {
            fprintf(stderr, "metamorphic: set semantics ref did not take: %s", strbuf_str(&captured));
            return 2;
        }
    }
    if (region || inter) {
        int rc = region ? region_oracle(s, max_stops) : intermediates(s, max_stops, only);
        session_free(s);
        strbuf_free(&captured);
        return rc;
    }
    char **keys = NULL;
    size_t nkeys = 0, capkeys = 0;
    long fresh = 0;
    long skipped = 0, pairs = 0, stops = 0, tensors = 0, equal = 0, exact = 0, bad = 0, by_core[4] = {0};
    long twins = 0;
    int np = session_npasses(s);
    /* the case as runpass sees it, for the memory-model options of a pass */
    diag_sink sink;
    diag_sink_init(&sink, 20);
    case_info c;
    case_options co;
    memset(&co, 0, sizeof co);
    int opened = case_open(argv[1], &co, &c, &sink) == PTODB_OK, have_case = opened;
    if (have_case && c.npasses != (size_t)np)
        have_case = 0; /* not the session's passes: no pair counts as a repeat */
    for (int i = 0; have_case && i < np; i++)
        if (strcmp(c.passes[i].stem, session_pass_stem(s, i)) != 0)
            have_case = 0;
    int *checked = calloc((size_t)np + 1, sizeof *checked); /* pairs run so far, by first pass */
    for (int i = 0; i + 1 < np && pairs < max_pairs; i++) {
        const char *a = session_pass_source(s, i), *b = session_pass_source(s, i + 1);
        if (!a || !b)
            continue;
        /* --renamed: the case's pairs are made to differ (the caller renamed
         * the second file's SSA names), so any pair of files counts */
        if (!renamed && strcmp(after_header(a), after_header(b)) != 0)
            continue;
        int twin = 0;
        for (int j = 0; j < i && have_case && !twin; j++)
            twin = checked[j] && same_pair(s, &c, i, j);
        if (twin) {
            twins++;
            continue;
        }
        const char *stem_a = session_pass_stem(s, i), *stem_b = session_pass_stem(s, i + 1);
        lines l = {0};
        if (!walk_pass_stmts(stem_a, a, add_line, &l)) { /* broken IR: nothing to stop in */
            free(l.v);
            skipped++;
            continue;
        }
        pairs++;
        checked[i] = 1;
        run(s, "delete");
        run(s, "pass %s", stem_a);
        for (size_t k = 0; k < l.n; k++)
            run(s, "break %d", l.v[k]);
        free(l.v);
        const char *out = run(s, "run");
        long pair_stops = 0;
        for (long guard = 0; guard < 1000000; guard++) {
            view_location loc;
            if (!view_stop_location(s, &loc) || view_run_finished(s) || (max_stops >= 0 && pair_stops >= max_stops))
                break;
            if (loc.pass != i) {
                fprintf(stderr, "%s: stopped outside the pass: %s\n", stem_a, out);
                bad++;
                break;
            }
            stops++;
            pair_stops++;
            if (loc.core >= 0 && loc.core < 4)
                by_core[loc.core]++;
            out = run(s, "diff pass %s", stem_b);
            /* The side run is kept between diffs and moves forward with the
             * stops, which would hide a wrong call or lane index. At the first
             * stop in each call of each function on each core, the mapping is
             * done again from a fresh start: `diff pass SELF` (the pass with
             * itself, which must be equal too) takes the side run away, then
             * `diff pass SECOND` starts over. */
            const char *w = strstr(out, " (pass "), *we = w ? strstr(w, ") is ") : NULL;
            if (w && we) {
                char key[512];
                snprintf(key, sizeof key, "%.*s", (int)(we - w), w);
                char *it = strstr(key, ", iteration ");
                if (it)
                    *it = 0; /* one fresh start per call, not per loop iteration */
                int seen = 0;
                for (size_t k = 0; k < nkeys && !seen; k++)
                    seen = strcmp(keys[k], key) == 0;
                if (!seen) {
                    if (nkeys == capkeys) {
                        capkeys = capkeys ? capkeys * 2 : 64;
                        keys = realloc(keys, capkeys * sizeof *keys);
                    }
                    keys[nkeys++] = strdup(key);
                    fresh++;
                    const char *self = run(s, "diff pass %s", stem_a);
                    if (!strstr(self, "(same point: ") || !strstr(self, " equal (")) {
                        bad++;
                        fprintf(stderr, "%s with itself at %s:\n%s\n", stem_a, key, self);
                    }
                    out = run(s, "diff pass %s", stem_b);
                }
            }
            long nt = 0, ne = 0;
            const char *sum = strstr(out, "\ndiff pass ");
            sum = sum ? sum + 1 : (strncmp(out, "diff pass ", 10) == 0 ? out : NULL);
            if (sum && sscanf(strchr(sum, ':') + 2, "%ld tensors of %*s %ld equal", &nt, &ne) == 2) {
                tensors += nt;
                equal += ne;
            }
            if (strstr(out, "(same point: "))
                exact++;
            if (!sum || nt != ne || (nt > 0 && !strstr(out, "(same point: "))) {
                bad++;
                if (bad <= 10)
                    show_stop("", stem_a, stem_b, &loc, out);
            }
            out = run(s, "continue");
        }
        if (!pair_stops) {
            fprintf(stderr, "%s: no stop at all:\n%s\n", stem_a, out);
            bad++;
        }
        run(s, "kill");
        for (size_t k = 0; k < nkeys; k++)
            free(keys[k]);
        nkeys = 0;
    }
    free(keys);
    printf("%ld pairs, %ld stops (host %ld, AIC %ld, AIV0 %ld, AIV1 %ld), %ld matched as the same point; "
           "%ld tensors compared, %ld equal; %ld mapped from a fresh start (first stop of each call); "
           "%ld stops wrong (%ld pairs do not check: not run)",
           pairs, stops, by_core[0], by_core[1], by_core[2], by_core[3], exact, tensors, equal, fresh, bad, skipped);
    if (twins)
        printf("; %ld more pairs identical to one of them, not run again", twins);
    printf("\n");
    free(checked);
    if (opened)
        case_free(&c);
    diag_sink_free(&sink);
    session_free(s);
    strbuf_free(&captured);
    return bad || !pairs ? 1 : 0;
}

/* reduce's transformations (src/batch/reduce_edit.h) on a small dump written
 * here, each result checked against what the edit must give, derived by
 * hand in the comments: the statements a deletion's cone takes, the uses a
 * bypass renames, the bound a loop cut writes, the parameter a record adds. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/strbuf.h"
#include "batch/reduce_edit.h"
#include "ir/parse.h"
#include "ir/print.h"

static const char *const DUMP =
    "# pypto.program: P\n"
    "import pypto.language as pl\n"
    "\n"
    "@pl.program\n"
    "class P:\n"
    "    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)\n"
    "    def k(a__ssa_v0: pl.Tensor[[16, 16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> "
    "pl.Tensor[[16, 16], pl.FP32]:\n"
    "        x__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 0], [16, 16], [16, 16], "
    "target_memory=pl.Mem.Vec)\n"
    "        y__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.exp(x__tile)\n"
    "        z__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(y__tile, x__tile)\n"
    "        for i__idx_v0 in pl.range(4):\n"
    "            w__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.neg(z__tile)\n"
    "        out__store: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(z__tile, [0, 0], out__ssa_v0)\n"
    "        return out__ssa_v0\n"
    "    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
    "    def main(self, a__ssa_v0: pl.Tensor[[16, 16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) "
    "-> pl.Tensor[[16, 16], pl.FP32]:\n"
    "        n__ssa_v0: pl.Scalar[pl.INDEX] = 4 * 4\n"
    "        t__ssa_v0: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.create([16, 16], dtype=pl.FP32)\n"
    "        out__ssa_v1: pl.Tensor[[16, 16], pl.FP32] = self.k(t__ssa_v0, out__ssa_v0)\n"
    "        return out__ssa_v1\n";

static ir_module *parse(const char *t)
{
    diag_sink sink;
    diag_sink_init(&sink, 5);
    ptodb_status st;
    ir_module *m = ir_parse("t.py", t, strlen(t), &sink, &st);
    ck_assert_int_eq(st, PTODB_OK);
    diag_sink_free(&sink);
    return m;
}

/* Applies one unit; the result must parse and reprint byte for byte. */
static char *apply(const char *text, reduce_kind k, const char *func, const char *key, long arg, int *changed)
{
    ir_module *m = parse(text);
    reduce_unit u = {k, (char *)func, (char *)key, arg, 0, NULL, NULL};
    char *t = reduce_apply(m, &u, 1, changed);
    ir_module_free(m);
    if (t) {
        ir_module *again = parse(t);
        strbuf out = STRBUF_INIT;
        ir_print_module(again, &out);
        ck_assert_str_eq(strbuf_str(&out), t);
        strbuf_free(&out);
        ir_module_free(again);
    }
    return t;
}

START_TEST(test_reprints_and_counts)
{
    ir_module *m = parse(DUMP);
    strbuf out = STRBUF_INIT;
    ir_print_module(m, &out);
    ck_assert_str_eq(strbuf_str(&out), DUMP); /* the dump above is in the printer's form */
    /* k: x, y, z, for, w, store, return; main: n, t, the call, return */
    ck_assert_uint_eq(reduce_count_statements(m), 11);
    strbuf_free(&out);
    ir_module_free(m);
}
END_TEST

START_TEST(test_delete_cone)
{
    int changed;
    /* the loop alone: nothing uses what it defines (i) outside it */
    char *t = apply(DUMP, REDUCE_DELETE, "k", "for i__idx_v0#0", 0, &changed);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_null(strstr(t, "pl.range"));
    ck_assert_ptr_null(strstr(t, "w__tile"));
    ck_assert_ptr_nonnull(strstr(t, "z__tile: pl.Tile"));
    free(t);
    /* y: its cone is z (reads y), w (reads z) and the store (reads z); the
     * loop is left with no body, which does not parse: no text */
    t = apply(DUMP, REDUCE_DELETE, "k", "=y__tile#0", 0, &changed);
    ck_assert_int_eq(changed, 1);
    ck_assert_ptr_null(t);
    /* a unit of a function the file does not have changes nothing */
    t = apply(DUMP, REDUCE_DELETE, "nope", "=y__tile#0", 0, &changed);
    ck_assert_int_eq(changed, 0);
    ck_assert_ptr_null(t);
}
END_TEST

START_TEST(test_bypass)
{
    int changed;
    /* z = add(y, x) bypassed by operand 1: z's line goes, w and the store read x */
    char *t = apply(DUMP, REDUCE_BYPASS, "k", "=z__tile#0", 1, &changed);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_null(strstr(t, "z__tile"));
    ck_assert_ptr_nonnull(strstr(t, "pl.tile.neg(x__tile)"));
    ck_assert_ptr_nonnull(strstr(t, "pl.tile.store(x__tile, [0, 0], out__ssa_v0)"));
    ck_assert_ptr_nonnull(strstr(t, "y__tile: pl.Tile")); /* y stays: delete's job */
    free(t);
    /* the units offered: z by y (0) and by x (1), same type, shape and dtype */
    ir_module *m = parse(DUMP);
    size_t n;
    reduce_unit *u = reduce_units(m, m, REDUCE_BYPASS, &n);
    int z0 = 0, z1 = 0, zx = 0;
    for (size_t i = 0; i < n; i++) {
        z0 += strcmp(u[i].key, "=z__tile#0") == 0 && u[i].arg == 0;
        z1 += strcmp(u[i].key, "=z__tile#0") == 0 && u[i].arg == 1;
        /* and y's own operand x, two deep (y = exp(x)) */
        zx += strcmp(u[i].key, "=z__tile#0") == 0 && u[i].arg == -2 && strcmp(u[i].to, "x__tile") == 0;
    }
    ck_assert_int_eq(z0 + z1, 2);
    ck_assert_int_eq(zx, 1);
    reduce_units_free(u, n);
    ir_module_free(m);
}
END_TEST

START_TEST(test_cut_and_peel)
{
    int changed;
    char *t = apply(DUMP, REDUCE_CUT_LOOP, "k", "for i__idx_v0#0", 1, &changed);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_nonnull(strstr(t, "for i__idx_v0 in pl.range(1):"));
    /* one iteration: the body in the loop's place, i = start */
    char *p = apply(t, REDUCE_CUT_LOOP, "k", "for i__idx_v0#0", 0, &changed);
    ck_assert_ptr_nonnull(p);
    ck_assert_ptr_null(strstr(p, "pl.range"));
    ck_assert_ptr_nonnull(strstr(p, "\n        i__idx_v0 = 0\n        w__tile: pl.Tile"));
    free(p);
    free(t);
}
END_TEST

START_TEST(test_record_and_drop)
{
    int changed;
    /* main's call: t becomes the new entry parameter rec0_t */
    char *t = apply(DUMP, REDUCE_RECORD, "main", "=out__ssa_v1#0", 0, &changed);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_nonnull(strstr(t, "self.k(rec0_t__ssa_v0, out__ssa_v0)"));
    ck_assert_ptr_nonnull(strstr(t, "out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]], rec0_t__ssa_v0: "
                                    "pl.Tensor[[16, 16], pl.FP32]) -> "));
    ir_module *m = parse(DUMP);
    reduce_unit u = {REDUCE_RECORD, "main", "=out__ssa_v1#0", 0, 0, NULL, NULL};
    strbuf param = STRBUF_INIT, var = STRBUF_INIT;
    ck_assert_int_eq(reduce_record_names(m, &u, &param, &var), 1);
    ck_assert_str_eq(strbuf_str(&param), "rec0_t__ssa_v0");
    ck_assert_str_eq(strbuf_str(&var), "t__ssa_v0");
    strbuf_free(&param);
    strbuf_free(&var);
    ir_module_free(m);
    free(t);
    /* a scalar's value by a recorded literal (the caller gives it) */
    reduce_unit sc = {REDUCE_RECORD, "main", "=n__ssa_v0#0", -1, 0, "16", NULL};
    m = parse(DUMP);
    t = reduce_apply(m, &sc, 1, &changed);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_nonnull(strstr(t, "n__ssa_v0: pl.Scalar[pl.INDEX] = 16\n"));
    free(t);
    sc.literal = NULL; /* no value: no edit */
    ck_assert_ptr_null(reduce_apply(m, &sc, 1, &changed));
    ir_module_free(m);
    /* k dropped: its def and its call go (and the return reading the call's result) */
    t = apply(DUMP, REDUCE_DROP_FUNC, "k", NULL, 0, &changed);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_null(strstr(t, "def k("));
    ck_assert_ptr_null(strstr(t, "self.k("));
    ck_assert_ptr_nonnull(strstr(t, "def main("));
    free(t);
}
END_TEST

START_TEST(test_const_tile)
{
    int changed;
    /* y = exp(x) by a recorded uniform value: pl.tile.full of y's own
     * shape and dtype (from its annotation), the caller's literal */
    ir_module *m = parse(DUMP);
    reduce_unit u = {REDUCE_CONST_TILE, "k", "=y__tile#0", 0, 0, "1.5", "y__tile"};
    char *t = reduce_apply(m, &u, 1, &changed);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_nonnull(strstr(t, "y__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.full([16, 16], "
                                    "dtype=pl.FP32, value=1.5)\n"));
    ck_assert_ptr_nonnull(strstr(t, "x__tile: pl.Tile")); /* x stays (z reads it): delete's job */
    free(t);
    u.literal = NULL; /* no recorded value: no edit */
    ck_assert_ptr_null(reduce_apply(m, &u, 1, &changed));
    /* the units: every Vec tile statement (x, y, z, w), not the store */
    size_t n;
    reduce_unit *us = reduce_units(m, m, REDUCE_CONST_TILE, &n);
    ck_assert_uint_eq(n, 4);
    reduce_units_free(us, n);
    ir_module_free(m);
}
END_TEST

/* An AIC/AIV pair exchanging one tile each way, and a second kernel fed by
 * the first's result. */
static const char *const PIPES =
    "# pypto.program: Q\n"
    "import pypto.language as pl\n"
    "\n"
    "@pl.program\n"
    "class Q:\n"
    "    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)\n"
    "    def g_aic(a__ssa_v0: pl.Tensor[[16, 16], pl.FP32]):\n"
    "        m__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(a__ssa_v0, [0, 0], [16, 16], [16, 16], "
    "target_memory=pl.Mem.Mat)\n"
    "        pl.tile.tpush_to_aiv(m__tile, split=0)\n"
    "        r__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)\n"
    "        pl.system.tfree_to_aiv(r__tile, split=0)\n"
    "    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)\n"
    "    def g_aiv(a__ssa_v0: pl.Tensor[[16, 16], pl.FP32]):\n"
    "        w__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 0], [16, 16], [16, 16], "
    "target_memory=pl.Mem.Vec)\n"
    "        v__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)\n"
    "        pl.system.tfree_to_aic(v__tile, split=0)\n"
    "        pl.tile.tpush_to_aic(v__tile, split=0)\n"
    "    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
    "    def main(self, a__ssa_v0: pl.Tensor[[16, 16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) "
    "-> pl.Tensor[[16, 16], pl.FP32]:\n"
    "        t__ssa_v0: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.create([16, 16], dtype=pl.FP32)\n"
    "        u__ssa_v0: pl.Tensor[[16, 16], pl.FP32] = self.k1(a__ssa_v0, t__ssa_v0)\n"
    "        out__ssa_v1: pl.Tensor[[16, 16], pl.FP32] = self.k2(u__ssa_v0, out__ssa_v0)\n"
    "        return out__ssa_v1\n";

START_TEST(test_drop_pipe)
{
    ir_module *m = parse(PIPES);
    size_t n;
    reduce_unit *u = reduce_units(m, m, REDUCE_DROP_PIPE, &n);
    /* two pairs: g_aic's push with g_aiv's pop, g_aiv's push with g_aic's pop */
    ck_assert_uint_eq(n, 2);
    int down = -1;
    for (size_t i = 0; i < n; i++)
        if (strcmp(u[i].func, "g_aic") == 0)
            down = (int)i;
    ck_assert_int_ge(down, 0);
    ck_assert_str_eq(u[down].to, "g_aiv\t=v__tile#0");
    int changed;
    char *t = reduce_apply(m, &u[down], 1, &changed);
    ck_assert_ptr_nonnull(t);
    /* the push and the pop go together; the pop's cone (its tfree, and the
     * push back of the popped tile) with it; the other direction's pop stays */
    ck_assert_ptr_null(strstr(t, "tpush_to_aiv"));
    ck_assert_ptr_null(strstr(t, "tpop_from_aic"));
    ck_assert_ptr_null(strstr(t, "tfree_to_aic"));
    ck_assert_ptr_null(strstr(t, "tpush_to_aic"));
    ck_assert_ptr_nonnull(strstr(t, "tpop_from_aiv"));
    ck_assert_ptr_nonnull(strstr(t, "m__tile: pl.Tile")); /* the pushed tile's producer: delete's job */
    free(t);
    reduce_units_free(u, n);
    /* record: u (k1's result) is a kernel's output, t (a create) is not */
    reduce_unit k2 = {REDUCE_RECORD, "main", "=out__ssa_v1#0", 0, 0, NULL, NULL};
    reduce_unit k1 = {REDUCE_RECORD, "main", "=u__ssa_v0#0", 1, 0, NULL, NULL};
    ck_assert_int_eq(reduce_record_is_call(m, &k2), 1);
    ck_assert_int_eq(reduce_record_is_call(m, &k1), 0);
    ir_module_free(m);
}
END_TEST

/* tests/fuzz/seeds/reduce/pipes_group.py: a group g (g_aic, g_aiv) whose
 * result a copy kernel passes on to the output, and an unread input. */
static const char *const GROUP =
    "# pypto.program: Q\n"
    "import pypto.language as pl\n"
    "\n"
    "@pl.program\n"
    "class Q:\n"
    "    @pl.function(type=pl.FunctionType.AIC, level=pl.Level.AIC, role=pl.Role.SubWorker)\n"
    "    def g_aic(a__ssa_v0: pl.Tensor[[16, 16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):\n"
    "        m__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.load(a__ssa_v0, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Mat)\n"
    "        pl.tile.tpush_to_aiv(m__tile, split=0)\n"
    "        r__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)\n"
    "        pl.system.tfree_to_aiv(r__tile, split=0)\n"
    "    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)\n"
    "    def g_aiv(a__ssa_v0: pl.Tensor[[16, 16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:\n"
    "        w__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)\n"
    "        v__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)\n"
    "        s__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.add(w__tile, v__tile)\n"
    "        pl.system.tfree_to_aic(v__tile, split=0)\n"
    "        pl.tile.tpush_to_aic(s__tile, split=0)\n"
    "        o__tile: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(s__tile, [0, 0], out__ssa_v0)\n"
    "        return out__ssa_v0\n"
    "    @pl.function(type=pl.FunctionType.Group, level=pl.Level.CORE_GROUP, role=pl.Role.SubWorker)\n"
    "    def g(a__ssa_v0: pl.Tensor[[16, 16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:\n"
    "        return out__ssa_v0\n"
    "    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)\n"
    "    def copy(x__ssa_v0: pl.Tensor[[16, 16], pl.FP32], y__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:\n"
    "        c__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [16, 16], [16, 16], target_memory=pl.Mem.Vec)\n"
    "        y__store: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(c__tile, [0, 0], y__ssa_v0)\n"
    "        return y__ssa_v0\n"
    "    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
    "    def main(self, a__ssa_v0: pl.Tensor[[16, 16], pl.FP32], unused__ssa_v0: pl.Tensor[[32, 64], pl.BF16], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:\n"
    "        t__ssa_v0: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.create([16, 16], dtype=pl.FP32)\n"
    "        u__ssa_v0: pl.Tensor[[16, 16], pl.FP32] = self.g(a__ssa_v0, t__ssa_v0)\n"
    "        out__ssa_v1: pl.Tensor[[16, 16], pl.FP32] = self.copy(u__ssa_v0, out__ssa_v0)\n"
    "        return out__ssa_v1\n";

START_TEST(test_group_retarget_params)
{
    ir_module *m = parse(GROUP);
    int changed;
    /* ungroup: self.g(...) made self.g_aiv(...) (g_aiv has g's two parameters) */
    reduce_unit ug = {REDUCE_UNGROUP, "main", "=u__ssa_v0#0", 0, 0, NULL, "g_aiv"};
    char *t = reduce_apply(m, &ug, 1, &changed);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_nonnull(strstr(t, "= self.g_aiv(a__ssa_v0, t__ssa_v0)\n"));
    free(t);
    size_t n;
    reduce_unit *u = reduce_units(m, m, REDUCE_UNGROUP, &n);
    ck_assert_uint_eq(n, 2); /* g_aiv and g_aic */
    reduce_units_free(u, n);
    /* retarget: copy's output O = out (arg 1), its input u (arg 0) is g's
     * result, and g returns its parameter out__ssa_v0 (index 1): g writes
     * out directly, copy's call goes, the return reads u */
    u = reduce_units(m, m, REDUCE_RETARGET, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(u[0].arg, 1);
    ck_assert_int_eq(u[0].trips, 0);
    t = reduce_apply(m, &u[0], 1, &changed);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_nonnull(strstr(t, "= self.g(a__ssa_v0, out__ssa_v0)\n"));
    ck_assert_ptr_null(strstr(t, "self.copy("));
    ck_assert_ptr_nonnull(strstr(t, "return u__ssa_v0\n"));
    free(t);
    reduce_units_free(u, n);
    /* drop-param: unused (nothing reads it), not a (read) or out (an output) */
    u = reduce_units(m, m, REDUCE_DROP_PARAM, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(u[0].key, "unused__ssa_v0");
    t = reduce_apply(m, &u[0], 1, &changed);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_nonnull(strstr(t, "def main(self, a__ssa_v0: pl.Tensor[[16, 16], pl.FP32], out__ssa_v0: "));
    free(t);
    reduce_units_free(u, n);
    /* shrink-shape: unused's [32, 64] halved in either dim (a, passed to g, is not offered) */
    u = reduce_units(m, m, REDUCE_SHRINK_SHAPE, &n);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(u[0].key, "unused__ssa_v0");
    ck_assert_int_eq(u[0].trips, 16);
    ck_assert_int_eq(u[1].trips, 32);
    t = reduce_apply(m, &u[1], 1, &changed);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_nonnull(strstr(t, "unused__ssa_v0: pl.Tensor[[32, 32], pl.BF16]"));
    free(t);
    reduce_units_free(u, n);
    ir_module_free(m);
}
END_TEST

/* A kernel returning two of its parameters as a tuple, and the entry
 * taking the second through its subscript. */
static const char *const TUPLE =
    "# pypto.program: T\n"
    "import pypto.language as pl\n"
    "\n"
    "@pl.program\n"
    "class T:\n"
    "    @pl.function(type=pl.FunctionType.AIV, level=pl.Level.AIV, role=pl.Role.SubWorker)\n"
    "    def k(a__ssa_v0: pl.Tensor[[16, 16], pl.FP32], p__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]], "
    "q__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], "
    "pl.FP32]]:\n"
    "        x__tile: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tile.load(a__ssa_v0, [0, 0], [16, 16], [16, 16], "
    "target_memory=pl.Mem.Vec)\n"
    "        q__store: pl.Tensor[[16, 16], pl.FP32] = pl.tile.store(x__tile, [0, 0], q__ssa_v0)\n"
    "        return p__ssa_v0, q__ssa_v0\n"
    "    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)\n"
    "    def main(self, a__ssa_v0: pl.Tensor[[16, 16], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) "
    "-> pl.Tensor[[16, 16], pl.FP32]:\n"
    "        p__ssa_v1: pl.Tensor[[16, 16], pl.FP32] = pl.tensor.create([16, 16], dtype=pl.FP32)\n"
    "        tmp__ssa_v0: pl.Tuple[pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]] = self.k(a__ssa_v0, "
    "p__ssa_v1, out__ssa_v0)\n"
    "        r__ssa_v0: pl.Tensor[[16, 16], pl.FP32] = tmp__ssa_v0[1]\n"
    "        return r__ssa_v0\n";

START_TEST(test_forward_out)
{
    ir_module *m = parse(TUPLE);
    size_t n;
    reduce_unit *u = reduce_units(m, m, REDUCE_FORWARD_OUT, &n);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(u[0].key, "=r__ssa_v0#0");
    int changed;
    /* k returns (p, q): tmp[1] is q, the call's third argument, out */
    char *t = reduce_apply(m, &u[0], 1, &changed);
    ck_assert_ptr_nonnull(t);
    ck_assert_ptr_null(strstr(t, "tmp__ssa_v0[1]"));
    ck_assert_ptr_nonnull(strstr(t, "        return out__ssa_v0\n"));
    ck_assert_ptr_nonnull(strstr(t, "= self.k(a__ssa_v0, p__ssa_v1, out__ssa_v0)\n")); /* the call stays */
    free(t);
    reduce_units_free(u, n);
    ir_module_free(m);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("reduce_edit");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_reprints_and_counts);
    tcase_add_test(tc, test_delete_cone);
    tcase_add_test(tc, test_bypass);
    tcase_add_test(tc, test_cut_and_peel);
    tcase_add_test(tc, test_record_and_drop);
    tcase_add_test(tc, test_const_tile);
    tcase_add_test(tc, test_drop_pipe);
    tcase_add_test(tc, test_group_retarget_params);
    tcase_add_test(tc, test_forward_out);
    suite_add_tcase(su, tc);
    SRunner *sr = srunner_create(su);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

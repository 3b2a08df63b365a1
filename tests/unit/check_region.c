/* Unit tests for src/exec/region.c: the GM region of a tile.load and a
 * tile.store evaluated in the frame about to run it (offsets with
 * variables, a valid shape smaller than the tile, a window cut at the
 * tensor's edge), the GM tensor named by the outermost frame holding it,
 * and the box arithmetic (within, equal, empty, format). */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/mem.h"
#include "exec/inspect.h"
#include "exec/machine.h"
#include "exec/program.h"
#include "exec/region.h"
#include "ir/parse.h"
#include "ir/resolve.h"
#include "test_machine.h"

static const char *SRC =
    "# pypto.program: T\nimport pypto.language as pl\n\n@pl.program\nclass T:\n"
    "    @pl.function(type=pl.FunctionType.InCore)\n"
    "    def kern(x__ssa_v0: pl.Tensor[[64, 32], pl.FP32], i__ssa_v0: pl.Scalar[pl.INDEX], y__ssa_v0: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:\n"
    "        t__tile: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0 + i__ssa_v0 * 16, 8], [16, 8], [16, 8], target_memory=pl.Mem.Vec)\n"
    "        e__tile: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [56, 30], [16, 8], [4, 8], target_memory=pl.Mem.Vec)\n"
    "        y__tile: pl.Tensor[[64, 32], pl.FP32] = pl.tile.store(t__tile, [i__ssa_v0 // 2, -1 + 1], y__ssa_v0)\n"
    "        return y__tile\n"
    "    @pl.function(type=pl.FunctionType.Orchestration)\n"
    "    def main(self, a__ssa_v0: pl.Tensor[[64, 32], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:\n"
    "        r__ssa_v0: pl.Tensor[[64, 32], pl.FP32] = self.kern(a__ssa_v0, 3, out__ssa_v0)\n"
    "        return r__ssa_v0\n";

/* The tensor-level forms, as before ConvertTensorToTileOps: a slice of a
 * parameter (GM) and of a tensor the kernel computed (not GM), an assemble
 * into a parameter, and a slice view of the parameter that assemble writes. */
static const char *SRC_TENSOR =
    "# pypto.program: T\nimport pypto.language as pl\n\n@pl.program\nclass T:\n"
    "    @pl.function(type=pl.FunctionType.InCore)\n"
    "    def kern(x__ssa_v0: pl.Tensor[[64, 32], pl.FP32], i__ssa_v0: pl.Scalar[pl.INDEX], y__ssa_v0: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:\n"
    "        s__ssa_v0: pl.Tensor[[16, 8], pl.FP32] = pl.tensor.slice(x__ssa_v0, [16, 8], [i__ssa_v0 * 16, 8])\n"
    "        u__ssa_v0: pl.Tensor[[16, 8], pl.FP32] = pl.tensor.adds(s__ssa_v0, 1.0)\n"
    "        v__ssa_v0: pl.Tensor[[4, 8], pl.FP32] = pl.tensor.slice(u__ssa_v0, [4, 8], [0, 0])\n"
    "        w__ssa_v0: pl.Tensor[[4, 8], pl.FP32] = pl.tensor.slice(y__ssa_v0, [4, 8], [3, 16])\n"
    "        y__ssa_v1: pl.Tensor[[64, 32], pl.FP32] = pl.tensor.assemble(y__ssa_v0, u__ssa_v0, [i__ssa_v0, 16])\n"
    "        return y__ssa_v1\n"
    "    @pl.function(type=pl.FunctionType.Orchestration)\n"
    "    def main(self, a__ssa_v0: pl.Tensor[[64, 32], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:\n"
    "        r__ssa_v0: pl.Tensor[[64, 32], pl.FP32] = self.kern(a__ssa_v0, 3, out__ssa_v0)\n"
    "        return r__ssa_v0\n";

/* The provenance of variable `name` in frame 0 of the core at `line`,
 * provenance on: *h (0 untracked); 1 found. */
static int prov_at_line(const char *src, int line, const char *name, uint64_t *h)
{
    test_machine t;
    test_machine_start_prov(&t, src, 1);
    int got = 0;
    for (int guard = 0; guard < 100 && !got; guard++) {
        for (int c = 0; c < EXEC_NCORES && !got; c++) {
            inspect_frame f;
            if (inspect_frame_get(t.m, c, 0, &f) && f.stmt && f.line == line) {
                int slot = inspect_find_slot(t.m, c, 0, name);
                const char *sn;
                const value *v;
                if (slot >= 0 && inspect_slot(t.m, c, 0, slot, &sn, &v) && v->kind == VAL_TENSOR) {
                    *h = v->u.t->prov;
                    got = 1;
                }
            }
        }
        exec_event ev;
        if (!got && (machine_step(t.m, &ev) != PTODB_OK || ev.kind == EXEC_EV_DONE))
            break;
    }
    test_machine_free(&t);
    return got;
}

/* Runs main until the core is about to run a statement at `line`; fills
 * *g with its region, returns what exec_region_of returned. */
static int region_at(const char *src, int line, exec_region *g, char *text, size_t size)
{
    test_machine t;
    test_machine_start_prov(&t, src, 0);
    machine *mach = t.m;
    int got = -1;
    for (int guard = 0; guard < 100 && got < 0; guard++) {
        for (int c = 0; c < EXEC_NCORES && got < 0; c++) {
            inspect_frame f;
            if (inspect_frame_get(mach, c, 0, &f) && f.stmt && f.line == line) {
                got = exec_region_of(mach, c, f.stmt, g);
                strbuf sb = STRBUF_INIT;
                if (got)
                    exec_region_format(g, &sb);
                snprintf(text, size, "%s", strbuf_str(&sb));
                strbuf_free(&sb);
            }
        }
        exec_event ev;
        if (got < 0 && (machine_step(mach, &ev) != PTODB_OK || ev.kind == EXEC_EV_DONE))
            break;
    }
    test_machine_free(&t);
    return got;
}

static int region_at_line(int line, exec_region *g, char *text, size_t size)
{
    return region_at(SRC, line, g, text, size);
}

START_TEST(test_load_offsets_evaluated)
{
    exec_region g;
    char text[128];
    ck_assert_int_eq(region_at_line(8, &g, text, sizeof text), 1);
    ck_assert_int_eq(g.kind, EXEC_REGION_LOAD);
    /* i = 3: rows 48:64; named by the orchestration's parameter, not the kernel's */
    ck_assert_str_eq(text, "a[48:64, 8:16]");
}
END_TEST

START_TEST(test_load_valid_shape_and_edge)
{
    exec_region g;
    char text[128];
    ck_assert_int_eq(region_at_line(9, &g, text, sizeof text), 1);
    /* valid rows 4 of 16; columns 30:38 cut at the tensor's 32 */
    ck_assert_str_eq(text, "a[56:60, 30:32]");
}
END_TEST

START_TEST(test_store_region)
{
    exec_region g;
    char text[128];
    ck_assert_int_eq(region_at_line(10, &g, text, sizeof text), 1);
    ck_assert_int_eq(g.kind, EXEC_REGION_STORE);
    ck_assert_str_eq(text, "out[1:17, 0:8]");
}
END_TEST

START_TEST(test_not_a_load)
{
    exec_region g;
    char text[128];
    ck_assert_int_eq(region_at_line(11, &g, text, sizeof text), 0);
}
END_TEST

START_TEST(test_tensor_level_regions)
{
    exec_region g;
    char text[128];
    /* tensor.slice(x, shape, offsets): tile.load's region, argument order aside */
    ck_assert_int_eq(region_at(SRC_TENSOR, 8, &g, text, sizeof text), 1);
    ck_assert_int_eq(g.kind, EXEC_REGION_LOAD);
    ck_assert_str_eq(text, "a[48:64, 8:16]");
    /* a slice of what the kernel computed is no GM region */
    ck_assert_int_eq(region_at(SRC_TENSOR, 10, &g, text, sizeof text), 0);
    /* tensor.assemble(y, src, offsets): tile.store's */
    ck_assert_int_eq(region_at(SRC_TENSOR, 12, &g, text, sizeof text), 1);
    ck_assert_int_eq(g.kind, EXEC_REGION_STORE);
    ck_assert_str_eq(text, "out[3:19, 16:24]");
}
END_TEST

START_TEST(test_written_view_loses_provenance)
{
    uint64_t s_before, w_before, w_after, s_after, v_after;
    ck_assert(prov_at_line(SRC_TENSOR, 12, "s__ssa_v0", &s_before));
    ck_assert(prov_at_line(SRC_TENSOR, 12, "w__ssa_v0", &w_before));
    ck_assert(prov_at_line(SRC_TENSOR, 13, "w__ssa_v0", &w_after));
    ck_assert(prov_at_line(SRC_TENSOR, 13, "s__ssa_v0", &s_after));
    ck_assert(prov_at_line(SRC_TENSOR, 13, "v__ssa_v0", &v_after));
    ck_assert(s_before != 0 && w_before != 0 && v_after != 0);
    /* the assemble wrote the storage w views: w no longer holds what its
     * region leaf said; s and v view other storages */
    ck_assert(w_after == 0);
    ck_assert(s_after == s_before);
}
END_TEST

START_TEST(test_box_arithmetic)
{
    exec_region whole = {.kind = EXEC_REGION_LOAD, .tensor = "c", .ndim = 2, .lo = {0, 0}, .len = {32, 64}};
    exec_region lane1 = {.kind = EXEC_REGION_LOAD, .tensor = "c", .ndim = 2, .lo = {16, 0}, .len = {16, 64}};
    exec_region other = lane1;
    snprintf(other.tensor, sizeof other.tensor, "d");
    exec_region store = lane1;
    store.kind = EXEC_REGION_STORE;
    exec_region dummy = lane1;
    dummy.len[0] = 0;
    ck_assert(exec_region_within(&lane1, &whole));
    ck_assert(!exec_region_within(&whole, &lane1));
    ck_assert(!exec_region_within(&other, &whole));  /* another tensor */
    ck_assert(!exec_region_within(&store, &whole));  /* a store is not a load */
    ck_assert(exec_region_equal(&lane1, &lane1));
    ck_assert(!exec_region_equal(&lane1, &whole));
    ck_assert(exec_region_empty(&dummy));
    ck_assert(!exec_region_empty(&lane1));
    strbuf sb = STRBUF_INIT;
    exec_region_format(&lane1, &sb);
    ck_assert_str_eq(strbuf_str(&sb), "c[16:32, 0:64]");
    strbuf_free(&sb);
}
END_TEST

static Suite *region_suite(void)
{
    Suite *s = suite_create("region");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_load_offsets_evaluated);
    tcase_add_test(tc, test_load_valid_shape_and_edge);
    tcase_add_test(tc, test_store_region);
    tcase_add_test(tc, test_not_a_load);
    tcase_add_test(tc, test_tensor_level_regions);
    tcase_add_test(tc, test_written_view_loses_provenance);
    tcase_add_test(tc, test_box_arithmetic);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(region_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* Unit tests for src/exec/prov.c: a value's provenance is what its data
 * is. Two loads of one GM region are one leaf (counted apart: k 1 and 2),
 * a move passes the provenance on, the same op over the same data is the
 * same hash wherever it runs, another op or another region is another
 * hash, the description names the regions and ops, the value a statement
 * is about to compute is known before it runs, and with provenance off
 * nothing is tracked. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "exec/inspect.h"
#include "exec/machine.h"
#include "exec/program.h"
#include "exec/prov.h"
#include "ir/parse.h"
#include "ir/resolve.h"
#include "test_machine.h"

static const char *SRC =
    "# pypto.program: T\nimport pypto.language as pl\n\n@pl.program\nclass T:\n"
    "    @pl.function(type=pl.FunctionType.InCore)\n"
    "    def kern(x__ssa_v0: pl.Tensor[[64, 32], pl.FP32], y__ssa_v0: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:\n"
    "        a__tile: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [16, 8], [16, 8], target_memory=pl.Mem.Vec)\n"
    "        b__tile: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [0, 0], [16, 8], [16, 8], target_memory=pl.Mem.Vec)\n"
    "        c__tile: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [16, 0], [16, 8], [16, 8], target_memory=pl.Mem.Vec)\n"
    "        m__tile: pl.Tile[[16, 8], pl.FP32, pl.Mem.Mat] = pl.tile.move(a__tile, target_memory=pl.Mem.Mat)\n"
    "        s1__tile: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.add(a__tile, c__tile)\n"
    "        s2__tile: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.add(m__tile, c__tile)\n"
    "        d__tile: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.sub(a__tile, c__tile)\n"
    "        e__tile: pl.Tile[[16, 8], pl.FP32, pl.Mem.Vec] = pl.tile.add(b__tile, c__tile)\n"
    "        y__tile: pl.Tensor[[64, 32], pl.FP32] = pl.tile.store(s1__tile, [0, 0], y__ssa_v0)\n"
    "        return y__tile\n"
    "    @pl.function(type=pl.FunctionType.Orchestration)\n"
    "    def main(self, a__ssa_v0: pl.Tensor[[64, 32], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:\n"
    "        r__ssa_v0: pl.Tensor[[64, 32], pl.FP32] = self.kern(a__ssa_v0, out__ssa_v0)\n"
    "        return r__ssa_v0\n";

enum { NVARS = 8 };
static const char *const VARS[NVARS] = {"a__tile", "b__tile", "c__tile", "m__tile",
                                        "s1__tile", "s2__tile", "d__tile", "e__tile"};

typedef struct seen {
    uint64_t h[NVARS];
    uint32_t k[NVARS];
    uint64_t pending_s1; /* machine_prov_pending before s1 ran */
    uint32_t pending_k;
    char desc[512];      /* of s1 */
} seen;

/* Runs main with provenance on or off, until kern is about to return. */
static void run_kern(int provenance, seen *out)
{
    memset(out, 0, sizeof *out);
    machine_options o;
    machine_options_init(&o);
    o.provenance = provenance;
    test_machine t;
    test_machine_start(&t, SRC, &o);
    machine *mach = t.m;
    int done = 0;
    for (int guard = 0; guard < 200 && !done; guard++) {
        inspect_frame f;
        if (inspect_frame_get(mach, EXEC_CORE_HOST, 0, &f) && strcmp(f.func, "kern") == 0 && f.stmt) {
            if (f.stmt->kind == IR_STMT_RETURN) {
                for (int i = 0; i < NVARS; i++) {
                    int slot = inspect_find_slot(mach, EXEC_CORE_HOST, 0, VARS[i]);
                    const char *sn;
                    const value *v;
                    ck_assert(slot >= 0 && inspect_slot(mach, EXEC_CORE_HOST, 0, slot, &sn, &v));
                    ck_assert_int_eq(v->kind, VAL_TENSOR);
                    out->h[i] = v->u.t->prov;
                    out->k[i] = v->u.t->prov_k;
                }
                strbuf sb = STRBUF_INIT;
                machine_prov_describe(mach, out->h[4], &sb);
                snprintf(out->desc, sizeof out->desc, "%s", strbuf_str(&sb));
                strbuf_free(&sb);
                done = 1;
                break;
            }
            if (f.stmt->kind == IR_STMT_ASSIGN && strcmp(f.stmt->u.assign.targets[0].name->text, "s1__tile") == 0 &&
                !out->pending_s1 && !machine_prov_pending(mach, EXEC_CORE_HOST, &out->pending_s1, &out->pending_k))
                out->pending_s1 = 1; /* not known: fails the check below */
        }
        exec_event ev;
        ck_assert_int_eq(machine_step(mach, &ev), PTODB_OK);
    }
    ck_assert(done);
    test_machine_free(&t);
}

START_TEST(test_same_region_same_leaf)
{
    seen s;
    run_kern(1, &s);
    ck_assert(s.h[0] != 0);
    ck_assert(s.h[0] == s.h[1]); /* a and b: one region */
    ck_assert_uint_eq(s.k[0], 1);
    ck_assert_uint_eq(s.k[1], 2); /* the second load of it */
    ck_assert(s.h[2] != s.h[0]);  /* c: another region */
}
END_TEST

START_TEST(test_move_passes_through)
{
    seen s;
    run_kern(1, &s);
    ck_assert(s.h[3] == s.h[0]);
    ck_assert_uint_eq(s.k[3], s.k[0]);
}
END_TEST

START_TEST(test_same_op_same_data_same_hash)
{
    seen s;
    run_kern(1, &s);
    ck_assert(s.h[4] != 0);
    ck_assert(s.h[4] == s.h[5]); /* add(a, c) and add(move(a), c) */
    ck_assert(s.h[4] == s.h[7]); /* add(b, c): b is a's region */
    ck_assert_uint_eq(s.k[4], 1);
    ck_assert_uint_eq(s.k[5], 2);
    ck_assert(s.h[6] != s.h[4]); /* sub: another op */
}
END_TEST

START_TEST(test_pending_is_the_result)
{
    seen s;
    run_kern(1, &s);
    ck_assert(s.pending_s1 == s.h[4]);
    ck_assert_uint_eq(s.pending_k, s.k[4]);
}
END_TEST

/* the regions are named by the outermost variable holding the tensor: main's a */
START_TEST(test_description)
{
    seen s;
    run_kern(1, &s);
    ck_assert_str_eq(s.desc, "the value computed from a[0:16, 0:8] and a[16:32, 0:8] by tile.add");
}
END_TEST

START_TEST(test_off_tracks_nothing)
{
    seen s;
    run_kern(0, &s);
    for (int i = 0; i < NVARS; i++)
        ck_assert(s.h[i] == 0);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("prov");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_same_region_same_leaf);
    tcase_add_test(tc, test_move_passes_through);
    tcase_add_test(tc, test_same_op_same_data_same_hash);
    tcase_add_test(tc, test_pending_is_the_result);
    tcase_add_test(tc, test_description);
    tcase_add_test(tc, test_off_tracks_nothing);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/* SPMD launches and submitted tasks on the machine (exec/semantics.h
 * spmd-blocks and submit), on small hand-written dumps: what each block
 * computes is known by hand, so the outputs say which blocks ran, how often,
 * and under --semantics=ref that only block 0 did. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "test_machine.h"

#define HEAD "# pypto.program: T\nimport pypto.language as pl\n\n@pl.program\nclass T:\n"
#define T64 "pl.Tensor[[64, 32], pl.FP32]"

/* Each block adds 10 * b + n to row b of out (n the launch width), through
 * a load, so a block run twice would show 2 * (10b + n). TYPE is the
 * kernel's function type. */
#define ADD_ROWS_KERNEL(TYPE)                                                                                   \
    "    @pl.function(type=pl.FunctionType." TYPE ")\n"                                                         \
    "    def k(a: " T64 ", out: pl.InOut[" T64 "]) -> " T64 ":\n"                                               \
    "        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()\n"                                               \
    "        n: pl.Scalar[pl.INDEX] = pl.tile.get_block_num()\n"                                               \
    "        t: pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(out, [b, 0], [1, 32], [1, 32], "         \
    "target_memory=pl.Mem.Vec)\n"                                                                             \
    "        u: pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, b * 10 + n)\n"                         \
    "        out2: " T64 " = pl.tile.store(u, [b, 0], out)\n"                                                  \
    "        return out2\n"                                                                                    \
    "    @pl.function(type=pl.FunctionType.Orchestration)\n"                                                   \
    "    def main(self, a: " T64 ", out: pl.InOut[" T64 "]) -> " T64 ":\n"

/* a `with pl.spmd(5)` scope (the frontend's form) */
static const char *const ADD_ROWS = HEAD ADD_ROWS_KERNEL("InCore") "        with pl.spmd(5):\n"
                                                                   "            out = self.k(a, out)\n"
                                                                   "        return out\n";

/* the same launch as a call with attrs={"core_num": 5} (after
 * OutlineClusterScopes) */
static const char *const ADD_ROWS_CORE_NUM = HEAD ADD_ROWS_KERNEL("AIV") "        out = self.k(a, out, attrs={\"core_num\": 5})\n"
                                                                        "        return out\n";

static void run_with(test_machine *t, const char *src, exec_semantics sem, exec_sched sched, uint64_t seed)
{
    machine_options o;
    machine_options_init(&o);
    o.semantics = sem;
    o.sched = sched;
    o.seed = seed;
    test_machine_start(t, src, &o);
    ck_assert_msg(machine_run(t->m) == PTODB_OK, "%s", machine_error(t->m));
}

/* row r of out, element 0 */
static double row(test_machine *t, int r)
{
    int64_t idx[2] = {r, 0};
    return tensor_get(t->args[1].u.t, idx);
}

static void expect_every_block_once(const char *src)
{
    test_machine t;
    run_with(&t, src, EXEC_SEM_DEVICE, EXEC_SCHED_FIXED, 0);
    for (int b = 0; b < 5; b++)
        ck_assert_double_eq(row(&t, b), 10 * b + 5);
    ck_assert_double_eq(row(&t, 5), 0);
    ck_assert_ptr_nonnull(machine_ref_differs(t.m, EXEC_SEMDIFF_SPMD));
    ck_assert_ptr_nonnull(strstr(machine_ref_differs(t.m, EXEC_SEMDIFF_SPMD), "a launch of 5 blocks"));
    test_machine_free(&t);
    /* ref: block 0 of width 1 only, row 0 = 10 * 0 + 1; no note */
    run_with(&t, src, EXEC_SEM_REF, EXEC_SCHED_FIXED, 0);
    ck_assert_double_eq(row(&t, 0), 1);
    ck_assert_double_eq(row(&t, 1), 0);
    ck_assert_ptr_null(machine_ref_differs(t.m, EXEC_SEMDIFF_SPMD));
    test_machine_free(&t);
    /* random block orders: still every block once (a permutation) */
    for (uint64_t seed = 1; seed <= 12; seed++) {
        run_with(&t, src, EXEC_SEM_DEVICE, EXEC_SCHED_RANDOM, seed);
        for (int b = 0; b < 5; b++)
            ck_assert_double_eq(row(&t, b), 10 * b + 5);
        test_machine_free(&t);
    }
}

START_TEST(test_spmd_scope)
{
    expect_every_block_once(ADD_ROWS);
}
END_TEST

START_TEST(test_spmd_core_num)
{
    expect_every_block_once(ADD_ROWS_CORE_NUM);
}
END_TEST

/* Every block stores 100 + b into row 0: the last block to run wins. In
 * order that is block 4; seeded orders must end on other blocks too (a
 * block order that never changed would hide every block-order race). */
START_TEST(test_spmd_order_varies)
{
    const char *src =
        HEAD "    @pl.function(type=pl.FunctionType.InCore)\n"
             "    def k(a: " T64 ", out: pl.InOut[" T64 "]) -> " T64 ":\n"
             "        b: pl.Scalar[pl.INDEX] = pl.tile.get_block_idx()\n"
             "        t: pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.full([1, 32], dtype=pl.FP32, value=100.0)\n"
             "        u: pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, b)\n"
             "        out2: " T64 " = pl.tile.store(u, [0, 0], out)\n"
             "        return out2\n"
             "    @pl.function(type=pl.FunctionType.Orchestration)\n"
             "    def main(self, a: " T64 ", out: pl.InOut[" T64 "]) -> " T64 ":\n"
             "        for i in pl.spmd(5):\n"
             "            out = self.k(a, out)\n"
             "        return out\n";
    test_machine t;
    run_with(&t, src, EXEC_SEM_DEVICE, EXEC_SCHED_FIXED, 0);
    ck_assert_double_eq(row(&t, 0), 104);
    test_machine_free(&t);
    int seen[5] = {0};
    for (uint64_t seed = 1; seed <= 20; seed++) {
        run_with(&t, src, EXEC_SEM_DEVICE, EXEC_SCHED_RANDOM, seed);
        double v = row(&t, 0);
        ck_assert(v >= 100 && v <= 104);
        seen[(int)v - 100] = 1;
        test_machine_free(&t);
    }
    ck_assert_int_ge(seen[0] + seen[1] + seen[2] + seen[3] + seen[4], 3);
}
END_TEST

/* pl.submit: the task runs; its result is (outputs..., TaskId), the ids 0,
 * 1 in submission order; under ref the file fails as REF's codegen does. */
START_TEST(test_submit)
{
    const char *src =
        HEAD "    @pl.function(type=pl.FunctionType.InCore)\n"
             "    def k(a: " T64 ", out: pl.InOut[" T64 "]) -> " T64 ":\n"
             "        t: pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(out, [0, 0], [1, 32], [1, 32], target_memory=pl.Mem.Vec)\n"
             "        u: pl.Tile[[1, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t, 1.0)\n"
             "        out2: " T64 " = pl.tile.store(u, [0, 0], out)\n"
             "        return out2\n"
             "    @pl.function(type=pl.FunctionType.Orchestration)\n"
             "    def main(self, a: " T64 ", out: pl.InOut[" T64 "]) -> " T64 ":\n"
             "        r1: pl.Tuple[" T64 ", pl.Scalar[pl.TASK_ID]] = pl.submit(self.k, a, out)\n"
             "        o1: " T64 " = r1[0]\n"
             "        t1: pl.Scalar[pl.TASK_ID] = r1[1]\n"
             "        r2: pl.Tuple[" T64 ", pl.Scalar[pl.TASK_ID]] = pl.submit(self.k, a, o1, deps=[t1])\n"
             "        o2: " T64 " = r2[0]\n"
             "        t2: pl.Scalar[pl.TASK_ID] = r2[1]\n"
             "        return t2\n";
    test_machine t;
    run_with(&t, src, EXEC_SEM_DEVICE, EXEC_SCHED_FIXED, 0);
    ck_assert_double_eq(row(&t, 0), 2); /* both tasks ran */
    const value *r = machine_result(t.m);
    ck_assert_int_eq(r->kind, VAL_INT);
    ck_assert_int_eq(r->u.i, 1); /* the second task's id */
    ck_assert_ptr_nonnull(strstr(machine_ref_differs(t.m, EXEC_SEMDIFF_SUBMIT), "the submitted task k runs"));
    test_machine_free(&t);
    machine_options o;
    machine_options_init(&o);
    o.semantics = EXEC_SEM_REF;
    test_machine_start(&t, src, &o);
    ck_assert_int_ne(machine_run(t.m), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(machine_error(t.m), "REF would fail here: pl.submit: torch_codegen has no visitor"));
    ck_assert(machine_error_is_ref(t.m));
    test_machine_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("spmd");
    TCase *tc = tcase_create("spmd");
    tcase_add_test(tc, test_spmd_scope);
    tcase_add_test(tc, test_spmd_core_num);
    tcase_add_test(tc, test_spmd_order_varies);
    tcase_add_test(tc, test_submit);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

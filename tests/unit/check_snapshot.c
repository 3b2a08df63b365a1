/* Unit tests for src/exec/snapshot.c: a machine put back in a snapshot's
 * state runs on exactly as it did (its state hash at every later step
 * equals the first run's), the entry's tensors are restored in place (the
 * same objects, their bytes back), byte copies are shared while a storage
 * is not written, and a restore forward (to a later snapshot) works too. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "exec/snapshot.h"
#include "test_machine.h"

/* A loop storing into the output in place: every iteration writes `out`
 * (rows 8*i .. 8*i+7 become a's rows plus i), so the output's bytes change
 * at each store and a restore must put them back. */
static const char *SRC =
    "# pypto.program: T\nimport pypto.language as pl\n\n@pl.program\nclass T:\n"
    "    @pl.function(type=pl.FunctionType.InCore)\n"
    "    def kern(x__ssa_v0: pl.Tensor[[64, 32], pl.FP32], y__ssa_v0: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:\n"
    "        for i__idx_v0, (y__iter_v1,) in pl.range(8, init_values=(y__ssa_v0,)):\n"
    "            t__tile: pl.Tile[[8, 32], pl.FP32, pl.Mem.Vec] = pl.tile.load(x__ssa_v0, [i__idx_v0 * 8, 0], [8, 32], [8, 32], target_memory=pl.Mem.Vec)\n"
    "            u__tile: pl.Tile[[8, 32], pl.FP32, pl.Mem.Vec] = pl.tile.adds(t__tile, 1.0)\n"
    "            y__tile: pl.Tensor[[64, 32], pl.FP32] = pl.tile.store(u__tile, [i__idx_v0 * 8, 0], y__iter_v1)\n"
    "            y__rv_v2: pl.Tensor[[64, 32], pl.FP32] = pl.yield_(y__tile)\n"
    "        return y__rv_v2\n"
    "    @pl.function(type=pl.FunctionType.Orchestration)\n"
    "    def main(self, a__ssa_v0: pl.Tensor[[64, 32], pl.FP32], out__ssa_v0: pl.Out[pl.Tensor[[64, 32], pl.FP32]]) -> pl.Tensor[[64, 32], pl.FP32]:\n"
    "        r__ssa_v0: pl.Tensor[[64, 32], pl.FP32] = self.kern(a__ssa_v0, out__ssa_v0)\n"
    "        return r__ssa_v0\n";

enum { MAXSTEPS = 400 };

START_TEST(test_restore_replays)
{
    test_machine t;
    test_machine_start_prov(&t, SRC, _i);
    /* a non-zero input, so that the stores change the output */
    tensor *a = t.args[0].u.t;
    for (int64_t k = 0; k < 64 * 32; k++)
        ((float *)a->storage->data)[k] = (float)k * 0.5f;
    uint64_t hash[MAXSTEPS];
    machine_snapshot *snap[4] = {0};
    uint64_t at[4] = {0, 3, 9, 17};
    int n = 0, ns = 0;
    for (;;) {
        if (ns < 4 && machine_steps(t.m) == at[ns])
            snap[ns] = machine_snapshot_take(t.m, ns ? snap[ns - 1] : NULL), ns++;
        ck_assert_int_lt(n, MAXSTEPS);
        hash[n++] = machine_state_hash(t.m);
        exec_event ev;
        ck_assert_int_eq(machine_step(t.m, &ev), PTODB_OK);
        if (ev.kind == EXEC_EV_DONE)
            break;
    }
    ck_assert_int_eq(ns, 4);
    ck_assert(machine_finished(t.m));
    tensor *out = t.args[1].u.t;
    ck_assert_float_eq(((float *)out->storage->data)[0], 1.0f); /* a[0, 0] + 1 */
    /* the first snapshot copied the inputs; the later ones share them */
    size_t shared;
    machine_snapshot_bytes(snap[3], &shared);
    ck_assert_uint_ge(shared, 64 * 32 * sizeof(float));
    /* back to each snapshot (backward, then forward from the earliest) */
    int order[] = {2, 0, 3, 1};
    for (int k = 0; k < 4; k++) {
        int i = order[k];
        machine_snapshot_restore(t.m, snap[i]);
        ck_assert_uint_eq(machine_steps(t.m), at[i]);
        ck_assert(t.args[1].u.t == out); /* the same object, restored in place */
        ck_assert_uint_eq(machine_state_hash(t.m), hash[at[i]]);
        if (i == 0)
            ck_assert_float_eq(((float *)out->storage->data)[0], 0.0f); /* not stored yet */
        /* and the run goes on as before */
        for (uint64_t s = at[i]; s + 1 < (uint64_t)n && s < at[i] + 12; s++) {
            exec_event ev;
            ck_assert_int_eq(machine_step(t.m, &ev), PTODB_OK);
            ck_assert_uint_eq(machine_state_hash(t.m), hash[s + 1]);
        }
    }
    for (int i = 0; i < 4; i++)
        machine_snapshot_free(snap[i]);
    test_machine_free(&t);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("snapshot");
    TCase *tc = tcase_create("core");
    /* provenance off (0) and on (1): its counts are a snapshot part */
    tcase_add_loop_test(tc, test_restore_replays, 0, 2);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}

/* Unit tests for results written into dead operands (program.c's liveness,
 * machine_options.reuse_dead, kernel_binary_reuse): the lowering marks an
 * operand only where no later instruction reads its value (a value used
 * after the statement, or defined outside a loop and used inside it, stays
 * unmarked), and with reuse on the machine computes exactly what it does
 * with reuse off, while a binary or unary op does take a dead operand's
 * buffer when nothing else holds it, and never one that another name or a
 * view shares. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/mem.h"
#include "exec/machine.h"
#include "exec/program.h"
#include "ir/parse.h"
#include "ir/resolve.h"

typedef struct loaded {
    ir_module *m;
    xprogram *p;
    op_fn ops[IR_OP_COUNT];
    diag_sink sink;
} loaded;

static const char *HEAD = "# pypto.program: T\nimport pypto.language as pl\n\n@pl.program\nclass T:\n"
                          "    @pl.function(type=pl.FunctionType.Orchestration)\n";

static void load(loaded *L, const char *body)
{
    char *src = xmalloc(strlen(HEAD) + strlen(body) + 1);
    strcpy(src, HEAD);
    strcat(src, body);
    diag_sink_init(&L->sink, 20);
    ptodb_status st;
    L->m = ir_parse("t.py", src, strlen(src), &L->sink, &st);
    free(src);
    if (st != PTODB_OK || ir_resolve(L->m, &L->sink) != PTODB_OK) {
        diag_sink_print(&L->sink, stderr, 1);
        ck_abort_msg("parse/resolve failed");
    }
    exec_ops_init(L->ops);
    st = exec_program_build(L->m, L->ops, &L->p, &L->sink);
    if (st != PTODB_OK)
        diag_sink_print(&L->sink, stderr, 1);
    ck_assert_int_eq(st, PTODB_OK);
}

static void unload(loaded *L)
{
    exec_program_free(L->p);
    ir_module_free(L->m);
    diag_sink_free(&L->sink);
}

/* The dead_after marks of the assignment to `target` (its annotated
 * statement), as a string of one char per positional argument: 'D' dead
 * after the statement, 'l' a slot that stays live, '-' not a slot. */
static void marks(const loaded *L, const char *target, char *buf)
{
    const xfunc *f = &L->p->funcs[L->p->entry];
    buf[0] = '\0';
    for (uint32_t i = 0; i < f->ncode; i++) {
        const xinst *in = &f->code[i];
        if (in->kind != XI_ASSIGN || in->nslots != 1 || !in->names || !in->names[0] ||
            strcmp(in->names[0], target) != 0 || !in->e || in->e->kind != XE_OP)
            continue;
        uint32_t k = 0;
        for (; k < in->e->nargs; k++) {
            const xexpr *x = in->e->args[k];
            buf[k] = x->kind != XE_SLOT ? '-' : x->dead_after ? 'D' : 'l';
        }
        buf[k] = '\0';
        return;
    }
    ck_abort_msg("no assignment to %s", target);
}

/* operand tensors of the ops, in order (the machine's read hook) */
typedef struct seen {
    const unsigned char *data[16];
    int n;
} seen;

static void note_read(void *ud, int core, const tensor *t)
{
    (void)core;
    seen *s = ud;
    if (s->n < 16)
        s->data[s->n++] = t->storage->data;
}

/* Runs the entry on a [2, 2] fp32 argument holding 1, 2, 3, 4; returns the
 * result (a tensor or a tuple) and records operand buffers in *s. */
static value run(loaded *L, int reuse, seen *s)
{
    int64_t shape[2] = {2, 2};
    tensor *x = tensor_zeros(DTYPE_FP32, 2, shape, NULL);
    for (int k = 0; k < 4; k++)
        dtype_store(DTYPE_FP32, x->storage->data, (size_t)k, k + 1);
    value arg = value_tensor(x);
    machine_options o;
    machine_options_init(&o);
    o.reuse_dead = reuse;
    machine *m = machine_new(L->p, &o);
    if (s) {
        memset(s, 0, sizeof *s);
        machine_set_read_hook(m, note_read, s);
    }
    ptodb_status st = machine_start(m, L->p->entry, &arg, 1);
    if (st == PTODB_OK)
        st = machine_run(m);
    if (st != PTODB_OK)
        fprintf(stderr, "%s\n", machine_error(m));
    ck_assert_int_eq(st, PTODB_OK);
    value r = value_copy(machine_result(m));
    machine_free(m);
    value_clear(&arg);
    return r;
}

static void expect_values(const tensor *t, const double *want)
{
    ck_assert_int_eq(t->dtype, DTYPE_FP32);
    ck_assert_int_eq(tensor_numel(t), 4);
    for (int k = 0; k < 4; k++)
        ck_assert_double_eq(tensor_get_flat(t, k), want[k]);
}

/* ---- liveness marks -------------------------------------------------------- */

START_TEST(test_value_used_after_the_statement_is_not_dead)
{
    loaded L;
    load(&L, "    def main(self, x: pl.Tensor[[2, 2], pl.FP32]) -> pl.Tensor[[2, 2], pl.FP32]:\n"
             "        a: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.adds(x, 1.0)\n"
             "        b: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.muls(a, 2.0)\n"
             "        c: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.add(b, a)\n"
             "        d: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.sub(c, c)\n"
             "        e: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.add(c, d)\n"
             "        return e\n");
    char m[8];
    marks(&L, "a", m);
    ck_assert_str_eq(m, "D-"); /* x: no later read (the caller holds it) */
    marks(&L, "b", m);
    ck_assert_str_eq(m, "l-"); /* a is read by c's statement */
    marks(&L, "c", m);
    ck_assert_str_eq(m, "DD");
    marks(&L, "d", m);
    ck_assert_str_eq(m, "ll"); /* the same slot twice: left alone */
    /* a = x + 1, b = 2a, c = b + a = 3(x + 1): b written into a's buffer
     * would make it 4(x + 1) */
    static const double want[4] = {6, 9, 12, 15};
    for (int reuse = 0; reuse < 2; reuse++) {
        value r = run(&L, reuse, NULL);
        expect_values(r.u.t, want);
        value_clear(&r);
    }
    unload(&L);
}
END_TEST

START_TEST(test_value_used_in_a_later_iteration_is_not_dead)
{
    loaded L;
    load(&L, "    def main(self, x: pl.Tensor[[2, 2], pl.FP32]) -> pl.Tensor[[2, 2], pl.FP32]:\n"
             "        w: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.adds(x, 1.0)\n"
             "        for i, (acc,) in pl.range(3, init_values=(x,)):\n"
             "            t: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.add(w, acc)\n"
             "            acc2: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.muls(t, 0.5)\n"
             "            acc_rv = pl.yield_(acc2)\n"
             "        return acc_rv\n");
    char m[8];
    /* w is defined before the loop and read in every iteration: live for
     * the whole loop; the iter-arg acc is redefined by the yield */
    marks(&L, "t", m);
    ck_assert_str_eq(m, "lD");
    marks(&L, "acc2", m);
    ck_assert_str_eq(m, "D-");
    unload(&L);
}
END_TEST

/* ---- the run ------------------------------------------------------------- */

START_TEST(test_loop_results_equal_without_reuse)
{
    /* acc <- (w + acc) / 2 three times, w = x + 1: hand-computed from
     * x = 1..4 (acc0 = x): 1 -> 1.5 -> 1.75 -> 1.875 over w = 2, and so on.
     * A reuse of w's buffer in the first iteration would change the next. */
    loaded L;
    load(&L, "    def main(self, x: pl.Tensor[[2, 2], pl.FP32]) -> pl.Tensor[[2, 2], pl.FP32]:\n"
             "        w: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.adds(x, 1.0)\n"
             "        for i, (acc,) in pl.range(3, init_values=(x,)):\n"
             "            t: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.add(w, acc)\n"
             "            acc2: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.muls(t, 0.5)\n"
             "            acc_rv = pl.yield_(acc2)\n"
             "        return acc_rv\n");
    double want[4];
    for (int k = 0; k < 4; k++) {
        double acc = k + 1, w = k + 2;
        for (int i = 0; i < 3; i++)
            acc = (w + acc) * 0.5;
        want[k] = acc;
    }
    for (int reuse = 0; reuse < 2; reuse++) {
        value r = run(&L, reuse, NULL);
        ck_assert_int_eq(r.kind, VAL_TENSOR);
        expect_values(r.u.t, want);
        value_clear(&r);
    }
    unload(&L);
}
END_TEST

START_TEST(test_dead_operand_buffer_is_reused)
{
    /* a dies at b's statement and nothing else holds it: b is written into
     * a's buffer (the operand buffer the read hook saw is b's) — and not
     * without reuse; x (the caller's) is never taken */
    loaded L;
    load(&L, "    def main(self, x: pl.Tensor[[2, 2], pl.FP32]) -> pl.Tensor[[2, 2], pl.FP32]:\n"
             "        a: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.adds(x, 1.0)\n"
             "        b: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.muls(a, 3.0)\n"
             "        return b\n");
    static const double want[4] = {6, 9, 12, 15};
    for (int reuse = 0; reuse < 2; reuse++) {
        seen s;
        value r = run(&L, reuse, &s);
        ck_assert_int_eq(s.n, 2);
        expect_values(r.u.t, want);
        ck_assert_int_eq(r.u.t->storage->data == s.data[1], reuse); /* b in a's buffer */
        ck_assert_ptr_ne(r.u.t->storage->data, s.data[0]);            /* never in x's */
        value_clear(&r);
    }
    unload(&L);
}
END_TEST

START_TEST(test_unary_result_in_dead_operand)
{
    /* the same for a unary op: -(x + 1) in (x + 1)'s buffer */
    loaded L;
    load(&L, "    def main(self, x: pl.Tensor[[2, 2], pl.FP32]) -> pl.Tensor[[2, 2], pl.FP32]:\n"
             "        a: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.adds(x, 1.0)\n"
             "        b: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.neg(a)\n"
             "        return b\n");
    char m[8];
    marks(&L, "b", m);
    ck_assert_str_eq(m, "D");
    static const double want[4] = {-2, -3, -4, -5};
    for (int reuse = 0; reuse < 2; reuse++) {
        seen s;
        value r = run(&L, reuse, &s);
        expect_values(r.u.t, want);
        ck_assert_int_eq(r.u.t->storage->data == s.data[1], reuse);
        value_clear(&r);
    }
    unload(&L);
}
END_TEST

START_TEST(test_shared_operand_is_not_clobbered)
{
    /* a dies at c's statement, but b names the same tensor (tile.move) and
     * v is a view of it: c must not be written into their buffer */
    loaded L;
    load(&L, "    def main(self, x: pl.Tensor[[2, 2], pl.FP32]) -> pl.Tuple[pl.Tensor[[2, 2], pl.FP32], "
             "pl.Tensor[[2, 2], pl.FP32], pl.Tensor[[1, 2], pl.FP32]]:\n"
             "        a: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.adds(x, 1.0)\n"
             "        b: pl.Tensor[[2, 2], pl.FP32] = pl.tile.move(a)\n"
             "        v: pl.Tensor[[1, 2], pl.FP32] = pl.tensor.slice(b, [1, 2], [1, 0])\n"
             "        c: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.muls(a, 10.0)\n"
             "        return c, b, v\n");
    char m[8];
    marks(&L, "c", m);
    ck_assert_str_eq(m, "D-"); /* the slot is dead; the tensor is not free */
    static const double wc[4] = {20, 30, 40, 50}, wb[4] = {2, 3, 4, 5};
    value r = run(&L, 1, NULL);
    ck_assert_int_eq(r.kind, VAL_TUPLE);
    expect_values(r.u.tuple->items[0].u.t, wc);
    expect_values(r.u.tuple->items[1].u.t, wb);
    const tensor *v = r.u.tuple->items[2].u.t;
    ck_assert_double_eq(tensor_get_flat(v, 0), 4);
    ck_assert_double_eq(tensor_get_flat(v, 1), 5);
    value_clear(&r);
    unload(&L);
}
END_TEST

static Suite *reuse_suite(void)
{
    Suite *s = suite_create("reuse_dead");
    TCase *tc = tcase_create("liveness");
    tcase_add_test(tc, test_value_used_after_the_statement_is_not_dead);
    tcase_add_test(tc, test_value_used_in_a_later_iteration_is_not_dead);
    tcase_add_test(tc, test_loop_results_equal_without_reuse);
    tcase_add_test(tc, test_dead_operand_buffer_is_reused);
    tcase_add_test(tc, test_unary_result_in_dead_operand);
    tcase_add_test(tc, test_shared_operand_is_not_clobbered);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(reuse_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

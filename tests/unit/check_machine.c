/* Unit tests for the machine (src/exec/machine.c, program.c, scalar.c) and
 * the cross-core runtime (xcore.c, xcore_ops.c): control flow, sequential
 * yield, calls, the step API, Python floor division, and deadlock reports
 * of deliberately broken cross-core programs. The programs only use the
 * machine's own ops (cross-core) and scalar arithmetic, so they do not
 * depend on the op families, except those of the results written into dead
 * operands (element-wise ops on small fp32 tensors). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/mem.h"
#include "exec/compare.h"
#include "exec/tasks.h"
#include "tensor/heatgrid.h"
#include "exec/machine.h"
#include "exec/program.h"
#include "exec/xcore.h"
#include "ir/parse.h"
#include "ir/resolve.h"

typedef struct loaded {
    ir_module *m;
    xprogram *p;
    op_fn ops[IR_OP_COUNT];
    diag_sink sink;
} loaded;

static const char *HEAD = "# pypto.program: T\nimport pypto.language as pl\n\n@pl.program\nclass T:\n";

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

/* Runs the entry with args; returns the status and fills *r with a copy of
 * the result (and err with the message). */
static ptodb_status run_entry_depth(loaded *L, const value *args, uint32_t n, value *r, char *err,
                                    size_t errsz, exec_sched sched, int64_t depth);

static ptodb_status run_entry(loaded *L, const value *args, uint32_t n, value *r, char *err, size_t errsz,
                              exec_sched sched)
{
    return run_entry_depth(L, args, n, r, err, errsz, sched, 0);
}

static ptodb_status run_entry_depth(loaded *L, const value *args, uint32_t n, value *r, char *err,
                                    size_t errsz, exec_sched sched, int64_t depth)
{
    machine_options o;
    machine_options_init(&o);
    o.semantics = EXEC_SEM_REF; /* these tests pin the reference's behaviour */
    o.sched = sched;
    o.slot_depth = depth;
    machine *m = machine_new(L->p, &o);
    ptodb_status st = machine_start(m, L->p->entry, args, n);
    if (st == PTODB_OK)
        st = machine_run(m);
    if (r)
        *r = st == PTODB_OK ? value_copy(machine_result(m)) : value_none();
    if (err)
        snprintf(err, errsz, "%s", machine_error(m));
    machine_free(m);
    return st;
}

static int64_t run_int(const char *body, const value *args, uint32_t n)
{
    loaded L;
    load(&L, body);
    value r;
    char err[2048];
    ptodb_status st = run_entry(&L, args, n, &r, err, sizeof err, EXEC_SCHED_FIXED);
    if (st != PTODB_OK)
        fprintf(stderr, "%s\n", err);
    ck_assert_int_eq(st, PTODB_OK);
    ck_assert_int_eq(r.kind, VAL_INT);
    int64_t v = r.u.i;
    value_clear(&r);
    unload(&L);
    return v;
}

/* ---- control flow ---------------------------------------------------------- */

START_TEST(test_sequential_yield)
{
    /* yield (b, a) assigns a = b, then b = a (the new a): both end as old b */
    int64_t v = run_int(
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def main(self) -> pl.Scalar[pl.INDEX]:\n"
        "        for i, (a, b) in pl.range(2, init_values=(1, 2)):\n"
        "            a_rv, b_rv = pl.yield_(b, a)\n"
        "        return a_rv * 10 + b_rv\n",
        NULL, 0);
    ck_assert_int_eq(v, 22);
}
END_TEST

START_TEST(test_loop_zero_iterations)
{
    int64_t v = run_int(
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def main(self) -> pl.Scalar[pl.INDEX]:\n"
        "        for i, (a,) in pl.range(5, 5, init_values=(7,)):\n"
        "            a_rv: pl.Scalar[pl.INDEX] = pl.yield_(a + 1)\n"
        "        return a_rv\n",
        NULL, 0);
    ck_assert_int_eq(v, 7);
}
END_TEST

START_TEST(test_range_steps_and_break_continue)
{
    int64_t v = run_int(
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def main(self) -> pl.Scalar[pl.INDEX]:\n"
        "        total: pl.Scalar[pl.INDEX] = 0\n"
        "        for i in pl.range(10):\n"
        "            if i == 3:\n"
        "                continue\n"
        "            if i == 6:\n"
        "                break\n"
        "            total: pl.Scalar[pl.INDEX] = total + i\n"
        "        down: pl.Scalar[pl.INDEX] = 0\n"
        "        for j in pl.range(10, 0, -3):\n"
        "            down: pl.Scalar[pl.INDEX] = down * 100 + j\n"
        "        return total * 100000000 + down\n",
        NULL, 0);
    /* 0+1+2+4+5 = 12; 10, 7, 4, 1 */
    ck_assert_int_eq(v, 12 * 100000000LL + 10070401LL);
}
END_TEST

START_TEST(test_while_forms)
{
    int64_t v = run_int(
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def main(self) -> pl.Scalar[pl.INDEX]:\n"
        "        for (x, s) in pl.while_(init_values=(0, 0)):\n"
        "            pl.cond(x < 5)\n"
        "            x_rv, s_rv = pl.yield_(x + 1, s + x)\n"
        "        k: pl.Scalar[pl.INDEX] = 1\n"
        "        while k < 1000:\n"
        "            k: pl.Scalar[pl.INDEX] = k * 3\n"
        "        return s_rv * 10000 + k\n",
        NULL, 0);
    /* sequential yield: x is rebound before s + x is evaluated: 1+2+3+4+5 */
    ck_assert_int_eq(v, 15 * 10000 + 2187);
}
END_TEST

START_TEST(test_if_return_vars_and_scopes)
{
    value a = value_int(5);
    int64_t v = run_int(
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n"
        "        with pl.scope():\n"
        "            if n > 2:\n"
        "                r: pl.Scalar[pl.INDEX] = pl.yield_(n * 10)\n"
        "            else:\n"
        "                r: pl.Scalar[pl.INDEX] = pl.yield_(n)\n"
        "            return r + pl.min(n, 3) + pl.max(n, 3) + abs(-4)\n",
        &a, 1);
    ck_assert_int_eq(v, 50 + 3 + 5 + 4);
}
END_TEST

/* machine_options.invert_if_line (bisect's test of an if the passing pass
 * lacks): the if at that line takes the other branch at every run; a loop
 * header or another line is left alone. By hand: i = 0, 1, 2 add 100, 1, 1
 * (102); inverted 1, 100, 100 (201). */
static int64_t run_inverted(int line)
{
    loaded L;
    load(&L, "    @pl.function(type=pl.FunctionType.Orchestration)\n" /* line 6 (HEAD is 5 lines) */
             "    def main(self) -> pl.Scalar[pl.INDEX]:\n"
             "        for i, (a,) in pl.range(3, init_values=(0,)):\n" /* line 8 */
             "            if i == 0:\n"                                 /* line 9 */
             "                b: pl.Scalar[pl.INDEX] = pl.yield_(a + 100)\n"
             "            else:\n"
             "                b: pl.Scalar[pl.INDEX] = pl.yield_(a + 1)\n"
             "            a_rv: pl.Scalar[pl.INDEX] = pl.yield_(b)\n"
             "        return a_rv\n");
    machine_options o;
    machine_options_init(&o);
    o.semantics = EXEC_SEM_REF; /* these tests pin the reference's behaviour */
    o.invert_if_line = line;
    machine *m = machine_new(L.p, &o);
    ck_assert_int_eq(machine_start(m, L.p->entry, NULL, 0), PTODB_OK);
    ck_assert_int_eq(machine_run(m), PTODB_OK);
    const value *r = machine_result(m);
    ck_assert_int_eq(r->kind, VAL_INT);
    int64_t v = r->u.i;
    machine_free(m);
    unload(&L);
    return v;
}

START_TEST(test_invert_if_line)
{
    ck_assert_int_eq(run_inverted(0), 102);
    ck_assert_int_eq(run_inverted(9), 201);
    ck_assert_int_eq(run_inverted(8), 102);  /* a for loop: never inverted */
    ck_assert_int_eq(run_inverted(10), 102); /* a statement inside the branch */
}
END_TEST

START_TEST(test_floor_div_mod)
{
    int64_t v = run_int(
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def main(self) -> pl.Scalar[pl.INDEX]:\n"
        "        a: pl.Scalar[pl.INDEX] = -7 // 2\n"
        "        b: pl.Scalar[pl.INDEX] = -7 % 2\n"
        "        c: pl.Scalar[pl.INDEX] = 7 % -2\n"
        "        d: pl.Scalar[pl.INDEX] = 7 // -2\n"
        "        return (a + 10) * 1000 + b * 100 + (c + 5) * 10 + (d + 5)\n",
        NULL, 0);
    /* -4, 1, -1, -4 */
    ck_assert_int_eq(v, 6 * 1000 + 100 + 40 + 1);
}
END_TEST

START_TEST(test_division_by_zero)
{
    loaded L;
    load(&L, "    @pl.function(type=pl.FunctionType.Orchestration)\n"
             "    def main(self, n: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n"
             "        a: pl.Scalar[pl.INDEX] = 7 % n\n"
             "        return a\n");
    value z = value_int(0);
    char err[2048];
    ck_assert_int_ne(run_entry(&L, &z, 1, NULL, err, sizeof err, EXEC_SCHED_FIXED), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(err, "ZeroDivisionError"));
    ck_assert_ptr_nonnull(strstr(err, "t.py:8:"));
    ck_assert_ptr_nonnull(strstr(err, "in main"));
    unload(&L);
}
END_TEST

START_TEST(test_calls_and_tuples)
{
    int64_t v = run_int(
        "    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def twice(x: pl.Scalar[pl.INDEX], y: pl.Scalar[pl.INDEX]) -> tuple[pl.Scalar[pl.INDEX], pl.Scalar[pl.INDEX]]:\n"
        "        return x * 2, y * 3\n"
        "    @pl.function(type=pl.FunctionType.InCore)\n"
        "    def nothing(x: pl.Scalar[pl.INDEX]):\n"
        "        pass\n"
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def main(self) -> pl.Scalar[pl.INDEX]:\n"
        "        t: pl.Tuple[pl.Scalar[pl.INDEX], pl.Scalar[pl.INDEX]] = self.twice(4, 5)\n"
        "        u: pl.Scalar[pl.INDEX] = t[0]\n"
        "        w: pl.Scalar[pl.INDEX] = t[1]\n"
        "        self.nothing(u)\n"
        "        return u * 100 + w\n",
        NULL, 0);
    ck_assert_int_eq(v, 815);
}
END_TEST

START_TEST(test_deep_recursion_is_an_error)
{
    loaded L;
    load(&L, "    @pl.function(type=pl.FunctionType.InCore)\n"
             "    def f(x: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n"
             "        r: pl.Scalar[pl.INDEX] = self.f(x + 1)\n"
             "        return r\n"
             "    @pl.function(type=pl.FunctionType.Orchestration)\n"
             "    def main(self) -> pl.Scalar[pl.INDEX]:\n"
             "        r: pl.Scalar[pl.INDEX] = self.f(0)\n"
             "        return r\n");
    char err[2048];
    ck_assert_int_ne(run_entry(&L, NULL, 0, NULL, err, sizeof err, EXEC_SCHED_FIXED), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(err, "RecursionError"));
    unload(&L);
}
END_TEST

START_TEST(test_unbound_name)
{
    loaded L;
    load(&L, "    @pl.function(type=pl.FunctionType.Orchestration)\n"
             "    def main(self) -> pl.Scalar[pl.INDEX]:\n"
             "        for i in pl.range(0):\n"
             "            x: pl.Scalar[pl.INDEX] = i\n"
             "        return i\n");
    char err[2048];
    ck_assert_int_ne(run_entry(&L, NULL, 0, NULL, err, sizeof err, EXEC_SCHED_FIXED), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(err, "NameError: name 'i' is not defined"));
    unload(&L);
}
END_TEST

START_TEST(test_step_api)
{
    loaded L;
    load(&L, "    @pl.function(type=pl.FunctionType.InCore)\n"
             "    def inc(x: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:\n"
             "        y: pl.Scalar[pl.INDEX] = x + 1\n"
             "        return y\n"
             "    @pl.function(type=pl.FunctionType.Orchestration)\n"
             "    def main(self) -> pl.Scalar[pl.INDEX]:\n"
             "        a: pl.Scalar[pl.INDEX] = 1\n"
             "        b: pl.Scalar[pl.INDEX] = self.inc(a)\n"
             "        return b\n");
    machine *m = machine_new(L.p, NULL);
    ck_assert_int_eq(machine_start(m, L.p->entry, NULL, 0), PTODB_OK);
    exec_event_kind want[] = {EXEC_EV_STMT, EXEC_EV_CALL, EXEC_EV_STMT, EXEC_EV_RETURN,
                              EXEC_EV_FINISHED, EXEC_EV_DONE};
    int want_line[] = {12, 13, 8, 9, 14, 0};
    const char *want_fn[] = {"main", "inc", "inc", "inc", "main", NULL};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        exec_event ev;
        ck_assert_int_eq(machine_step(m, &ev), PTODB_OK);
        ck_assert_int_eq(ev.kind, want[i]);
        if (want[i] == EXEC_EV_DONE)
            break;
        ck_assert_int_eq(ev.line, want_line[i]);
        ck_assert_int_eq(ev.core, EXEC_CORE_HOST);
        ck_assert_str_eq(ev.func, want_fn[i]);
    }
    ck_assert(machine_finished(m));
    ck_assert_int_eq(machine_result(m)->kind, VAL_INT);
    ck_assert_int_eq(machine_result(m)->u.i, 2);
    machine_free(m);
    unload(&L);
}
END_TEST

START_TEST(test_scalar_tensor_arith)
{
    /* 0-d int32 tensor arithmetic keeps int32 and wraps; // floors */
    exec_ctx *ctx = NULL;
    (void)ctx;
    loaded L;
    load(&L, "    @pl.function(type=pl.FunctionType.Orchestration)\n"
             "    def main(self, t: pl.Scalar[pl.INT32]) -> pl.Scalar[pl.INT32]:\n"
             "        a: pl.Scalar[pl.INT32] = (t * 2) // -3\n"
             "        return a\n");
    tensor *t = tensor_zeros(DTYPE_INT32, 0, NULL, NULL);
    tensor_set_i64(t, NULL, 2000000000);
    value arg = value_tensor(t);
    value r;
    char err[1024];
    ck_assert_int_eq(run_entry(&L, &arg, 1, &r, err, sizeof err, EXEC_SCHED_FIXED), PTODB_OK);
    ck_assert_int_eq(r.kind, VAL_TENSOR);
    ck_assert_int_eq(r.u.t->dtype, DTYPE_INT32);
    /* 2e9 * 2 wraps to -294967296; floor(-294967296 / -3) = 98322432 */
    ck_assert_int_eq(tensor_get_i64(r.u.t, NULL), 98322432);
    value_clear(&r);
    value_clear(&arg);
    unload(&L);
}
END_TEST

/* Runs "return EXPR" over two 0-d tensor parameters a, b of the given dtypes
 * (values va, vb); returns the result (a 0-d tensor) for the caller. */
static tensor *scalar_expr(const char *expr, const char *ta, dtype_id da, double va,
                           const char *tb, dtype_id db, double vb)
{
    char body[1024];
    snprintf(body, sizeof body,
             "    @pl.function(type=pl.FunctionType.Orchestration)\n"
             "    def main(self, a: pl.Scalar[pl.%s], b: pl.Scalar[pl.%s]) -> pl.Scalar[pl.INT32]:\n"
             "        r: pl.Scalar[pl.INT32] = %s\n"
             "        return r\n",
             ta, tb, expr);
    loaded L;
    load(&L, body);
    value args[2] = {value_tensor(tensor_zeros(da, 0, NULL, NULL)),
                     value_tensor(tensor_zeros(db, 0, NULL, NULL))};
    tensor_set(args[0].u.t, NULL, va);
    tensor_set(args[1].u.t, NULL, vb);
    value r;
    char err[1024];
    ck_assert_msg(run_entry(&L, args, 2, &r, err, sizeof err, EXEC_SCHED_FIXED) == PTODB_OK, "%s",
                  err);
    ck_assert_int_eq(r.kind, VAL_TENSOR);
    tensor *t = tensor_ref(r.u.t);
    value_clear(&r);
    value_clear(&args[0]);
    value_clear(&args[1]);
    unload(&L);
    return t;
}

/* One promotion rule for scalar (0-d) arithmetic and the kernels: REF holds
 * uint16 as torch.int32 (and uint32/uint64 as int64), so uint16 operands
 * promote as int32 does: 65535 + 1 is 65536, not a uint16 wrap to 0, and
 * uint16 + uint8 / uint16 + bool are int32 (kernel_promote's answer). */
START_TEST(test_scalar_uint16_promotion)
{
    static const struct {
        const char *expr, *ta, *tb;
        dtype_id da, db;
        double va, vb, e;
        dtype_id edt;
    } cases[] = {
        {"a + b", "UINT16", "UINT16", DTYPE_UINT16, DTYPE_UINT16, 65535, 1, 65536, DTYPE_INT32},
        {"a + b", "UINT16", "UINT8", DTYPE_UINT16, DTYPE_UINT8, 65535, 255, 65790, DTYPE_INT32},
        {"a * b", "UINT16", "BOOL", DTYPE_UINT16, DTYPE_BOOL, 65535, 1, 65535, DTYPE_INT32},
        {"a - b", "UINT16", "INT16", DTYPE_UINT16, DTYPE_INT16, 0, 32767, -32767, DTYPE_INT32},
        {"a + 1", "UINT16", "INT8", DTYPE_UINT16, DTYPE_INT8, 65535, 0, 65536, DTYPE_INT32},
        {"a + b", "INT8", "UINT8", DTYPE_INT8, DTYPE_UINT8, -128, 255, 127, DTYPE_INT16},
        {"a + b", "BF16", "FP16", DTYPE_BF16, DTYPE_FP16, 1.5, 0.25, 1.75, DTYPE_FP32},
        {"a // b", "UINT16", "INT32", DTYPE_UINT16, DTYPE_INT32, 7, -2, -4, DTYPE_INT32},
        {"a < b", "UINT16", "INT32", DTYPE_UINT16, DTYPE_INT32, 65535, -1, 0, DTYPE_BOOL},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        tensor *t = scalar_expr(cases[k].expr, cases[k].ta, cases[k].da, cases[k].va, cases[k].tb,
                                cases[k].db, cases[k].vb);
        ck_assert_msg(t->dtype == cases[k].edt, "case %zu (%s): dtype %d, expected %d", k,
                      cases[k].expr, (int)t->dtype, (int)cases[k].edt);
        ck_assert_msg(tensor_get(t, NULL) == cases[k].e, "case %zu (%s): %.17g, expected %.17g", k,
                      cases[k].expr, tensor_get(t, NULL), cases[k].e);
        tensor_unref(t);
    }
}
END_TEST

/* The value of "return EXPR" in an Orchestration function of no parameters
 * (ret declares the return type), or the error message in err. */
static ptodb_status python_expr(const char *expr, const char *ret, value *r, char *err, size_t n)
{
    char body[1024];
    snprintf(body, sizeof body,
             "    @pl.function(type=pl.FunctionType.Orchestration)\n"
             "    def main(self) -> pl.Scalar[pl.%s]:\n"
             "        return %s\n",
             ret, expr);
    loaded L;
    load(&L, body);
    ptodb_status st = run_entry(&L, NULL, 0, r, err, n, EXEC_SCHED_FIXED);
    unload(&L);
    return st;
}

/* Python scalar arithmetic (scalar.c) by hand: ints are Python's (floor
 * division and modulo, ** by repeated multiplication, (-1) ** odd is -1,
 * shifts, bit ops, comparisons as bools, / gives a float), floats follow
 * Python's float // and % (sign of the divisor), and the errors Python
 * raises (ZeroDivisionError, negative shift count) or ptodb's 64-bit
 * overflow message. */
START_TEST(test_python_scalar_ops)
{
    static const struct { const char *expr; int64_t e; } ints[] = {
        {"2 ** 10", 1024}, {"(-1) ** 3", -1}, {"(-1) ** 4", 1}, {"(-2) ** 3", -8}, {"0 ** 0", 1},
        {"7 & 3", 3}, {"5 | 2", 7}, {"6 ^ 3", 5}, {"1 << 4", 16}, {"-16 >> 2", -4},
        {"-1 >> 70", -1}, {"-9 // 4", -3}, {"-9 % 4", 3}, {"9 % -4", -3},
    };
    char err[2048];
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        value r;
        ck_assert_msg(python_expr(ints[k].expr, "INDEX", &r, err, sizeof err) == PTODB_OK, "%s: %s",
                      ints[k].expr, err);
        ck_assert_msg(r.kind == VAL_INT && r.u.i == ints[k].e, "%s: got kind %d value %lld",
                      ints[k].expr, (int)r.kind, (long long)r.u.i);
        value_clear(&r);
    }
    static const struct { const char *expr; double e; } floats[] = {
        {"7 / 2", 3.5}, {"7.5 // 2", 3.0}, {"-7.5 % 2", 0.5}, {"7.5 % -2", -0.5},
        {"2.0 ** -1", 0.5}, {"2 ** -2", 0.25}, {"1.5 * 4", 6.0},
    };
    for (size_t k = 0; k < sizeof floats / sizeof floats[0]; k++) {
        value r;
        ck_assert_msg(python_expr(floats[k].expr, "FP32", &r, err, sizeof err) == PTODB_OK, "%s: %s",
                      floats[k].expr, err);
        ck_assert_msg(r.kind == VAL_FLOAT && r.u.f == floats[k].e, "%s: got kind %d value %.17g",
                      floats[k].expr, (int)r.kind, r.u.f);
        value_clear(&r);
    }
    value r;
    ck_assert(python_expr("3 < 4", "BOOL", &r, err, sizeof err) == PTODB_OK);
    ck_assert_int_eq(r.kind, VAL_BOOL);
    ck_assert_int_eq(r.u.b, 1);
    ck_assert(python_expr("2.5 >= 3", "BOOL", &r, err, sizeof err) == PTODB_OK);
    ck_assert_int_eq(r.u.b, 0);
    static const struct { const char *expr, *msg; } errs[] = {
        {"1.0 // 0", "ZeroDivisionError: float floor division by zero"},
        {"1 % 0", "ZeroDivisionError: integer division or modulo by zero"},
        {"1 / 0", "ZeroDivisionError: division by zero"},
        {"0 ** -1", "ZeroDivisionError: 0.0 cannot be raised to a negative power"},
        {"1 << -1", "ValueError: negative shift count"},
        {"1 << 63", "integer overflow"},
        {"3 ** 40", "integer overflow"},
    };
    for (size_t k = 0; k < sizeof errs / sizeof errs[0]; k++) {
        ck_assert_msg(python_expr(errs[k].expr, "INDEX", &r, err, sizeof err) != PTODB_OK, "%s ran",
                      errs[k].expr);
        ck_assert_msg(strstr(err, errs[k].msg) != NULL, "%s: %s", errs[k].expr, err);
    }
}
END_TEST

/* REF's no-op system ops run as nothing (their operands are not evaluated). */
START_TEST(test_system_noops)
{
    int64_t v = run_int(
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def main(self) -> pl.Scalar[pl.INDEX]:\n"
        "        pl.system.sync_src()\n"
        "        pl.system.sync_dst()\n"
        "        pl.system.sync_set(0)\n"
        "        pl.system.sync_wait(0)\n"
        "        pl.system.set_ffts(0)\n"
        "        pl.system.bar_v()\n"
        "        pl.system.bar_m()\n"
        "        pl.system.bar_all()\n"
        "        pl.system.fence()\n"
        "        pl.system.cacheinvalid()\n"
        "        pl.system.aic_initialize_pipe(0, 0, dir_mask=1, slot_size=64, slot_num=4)\n"
        "        pl.system.aiv_initialize_pipe(0, 0, dir_mask=2, slot_size=64, slot_num=4)\n"
        "        pl.system.reserve_buffer()\n"
        "        pl.system.import_peer_buffer()\n"
        "        pl.system.tfree_to_aic(0)\n"
        "        pl.system.tfree_to_aiv(0)\n"
        "        return 7\n",
        NULL, 0);
    ck_assert_int_eq(v, 7);
}
END_TEST

/* aiv_shard splits a tile between the two lanes of a split_aiv region
 * (UP_DOWN: lane 0 the top rows), aic_gather joins the halves again: the
 * stored rows equal the input (ptodb's own definition, docs/ops.md). Runs
 * both forms: pl.tile.aiv_shard(, pl.tile.aic_gather( and (before pass 11)
 * pl.tensor.aiv_shard(, pl.tensor.aic_gather(. */
START_TEST(test_shard_and_gather)
{
    static const char *const forms[2] = {"tile", "tensor"};
    for (int k = 0; k < 2; k++) {
        char body[2048];
        snprintf(body, sizeof body,
                 "    @pl.function(type=pl.FunctionType.InCore)\n"
                 "    def k(a: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:\n"
                 "        t: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.load(a, [0, 0], [4, 4], [4, 4], target_memory=pl.Mem.Vec)\n"
                 "        for aiv_id in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):\n"
                 "            h: pl.Tile[[2, 4], pl.FP32, pl.Mem.Vec] = pl.%s.aiv_shard(t)\n"
                 "            g: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.%s.aic_gather(h)\n"
                 "            h2: pl.Tile[[2, 4], pl.FP32, pl.Mem.Vec] = pl.tile.slice(g, [2, 4], [aiv_id * 2, 0])\n"
                 "            o: pl.Tensor[[4, 4], pl.FP32] = pl.tile.store(h2, [aiv_id * 2, 0], out)\n"
                 "        return out\n"
                 "    @pl.function(type=pl.FunctionType.Orchestration)\n"
                 "    def main(self, a: pl.Tensor[[4, 4], pl.FP32], out: pl.Out[pl.Tensor[[4, 4], pl.FP32]]) -> pl.Tensor[[4, 4], pl.FP32]:\n"
                 "        r: pl.Tensor[[4, 4], pl.FP32] = self.k(a, out)\n"
                 "        return r\n",
                 forms[k], forms[k]);
        loaded L;
        load(&L, body);
        ck_assert_int_eq(L.p->uses_ptodb_only_ops, 1);
        int64_t shape[2] = {4, 4};
        value args[2] = {value_tensor(tensor_zeros(DTYPE_FP32, 2, shape, NULL)),
                         value_tensor(tensor_zeros(DTYPE_FP32, 2, shape, NULL))};
        for (int i = 0; i < 16; i++) {
            int64_t idx[2] = {i / 4, i % 4};
            tensor_set(args[0].u.t, idx, i - 5.5);
        }
        value r;
        char err[1024];
        ck_assert_msg(run_entry(&L, args, 2, &r, err, sizeof err, EXEC_SCHED_FIXED) == PTODB_OK,
                      "%s", err);
        ck_assert_int_eq(r.kind, VAL_TENSOR);
        for (int i = 0; i < 16; i++) {
            int64_t idx[2] = {i / 4, i % 4};
            ck_assert_double_eq(tensor_get(r.u.t, idx), i - 5.5);
        }
        value_clear(&r);
        value_clear(&args[0]);
        value_clear(&args[1]);
        unload(&L);
    }
}
END_TEST

/* ---- cross-core ------------------------------------------------------------ */

static const char *GROUP_TAIL =
    "    @pl.function(type=pl.FunctionType.Group)\n"
    "    def g(a: pl.Tensor[[4, 4], pl.FP32]):\n"
    "        self.g_aic(a)\n"
    "        self.g_aiv(a)\n"
    "    @pl.function(type=pl.FunctionType.Orchestration)\n"
    "    def main(self, a: pl.Tensor[[4, 4], pl.FP32]):\n"
    "        self.g(a)\n";

static ptodb_status run_group(const char *kernels, exec_sched sched, char *err, size_t errsz,
                              value *result)
{
    char *body = xmalloc(strlen(kernels) + strlen(GROUP_TAIL) + 1);
    strcpy(body, kernels);
    strcat(body, GROUP_TAIL);
    loaded L;
    load(&L, body);
    free(body);
    int64_t shape[2] = {4, 4};
    tensor *t = tensor_zeros(DTYPE_FP32, 2, shape, NULL);
    for (int i = 0; i < 16; i++) {
        int64_t idx[2] = {i / 4, i % 4};
        tensor_set(t, idx, i);
    }
    value arg = value_tensor(t);
    ptodb_status st = run_entry(&L, &arg, 1, result, err, errsz, sched);
    value_clear(&arg);
    unload(&L);
    return st;
}

/* The read hook (rwatch, awatch) sees each tensor an op takes as an
 * operand, on the core that runs the op; unset, it is never called. */
typedef struct read_log {
    int n, on_aic;
    const tensor *arg;
    int saw_arg;
} read_log;

static void log_read(void *ud, int core, const tensor *t)
{
    read_log *log = ud;
    log->n++;
    log->on_aic += core == EXEC_CORE_AIC;
    log->saw_arg |= t == log->arg || t->storage == log->arg->storage;
}

START_TEST(test_read_hook)
{
    const char *k = "    @pl.function(type=pl.FunctionType.AIC)\n"
                    "    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        pl.tile.tpush_to_aiv(a, split=1)\n"
                    "    @pl.function(type=pl.FunctionType.AIV)\n"
                    "    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        x: pl.Tile[[2, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)\n";
    char *body = xmalloc(strlen(k) + strlen(GROUP_TAIL) + 1);
    strcpy(body, k);
    strcat(body, GROUP_TAIL);
    loaded L;
    load(&L, body);
    free(body);
    int64_t shape[2] = {4, 4};
    value arg = value_tensor(tensor_zeros(DTYPE_FP32, 2, shape, NULL));
    for (int set = 0; set < 2; set++) {
        read_log log = {0, 0, arg.u.t, 0};
        machine *m = machine_new(L.p, NULL);
        if (set)
            machine_set_read_hook(m, log_read, &log);
        ck_assert_int_eq(machine_start(m, L.p->entry, &arg, 1), PTODB_OK);
        ck_assert_int_eq(machine_run(m), PTODB_OK);
        machine_free(m);
        if (!set) {
            ck_assert_int_eq(log.n, 0);
            continue;
        }
        /* the push on the AIC reads a; the pop reads nothing */
        ck_assert_int_eq(log.n, 1);
        ck_assert_int_eq(log.on_aic, 1);
        ck_assert(log.saw_arg);
    }
    value_clear(&arg);
    unload(&L);
}
END_TEST

START_TEST(test_group_split_push_pop)
{
    /* AIC pushes the 4x4 tile split by rows; each lane gets 2 rows; the group
     * returns lane 0's value */
    const char *k =
        "    @pl.function(type=pl.FunctionType.AIC)\n"
        "    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):\n"
        "        pl.tile.tpush_to_aiv(a, split=1)\n"
        "    @pl.function(type=pl.FunctionType.AIV)\n"
        "    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]) -> pl.Tile[[2, 4], pl.FP32, pl.Mem.Vec]:\n"
        "        x: pl.Tile[[2, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)\n"
        "        return x\n"
        "    @pl.function(type=pl.FunctionType.Group)\n"
        "    def h(a: pl.Tensor[[4, 4], pl.FP32]) -> pl.Tile[[2, 4], pl.FP32, pl.Mem.Vec]:\n"
        "        self.h_aic(a)\n"
        "        r: pl.Tile[[2, 4], pl.FP32, pl.Mem.Vec] = self.h_aiv(a)\n"
        "        return r\n"
        "    @pl.function(type=pl.FunctionType.AIC)\n"
        "    def h_aic(a: pl.Tensor[[4, 4], pl.FP32]):\n"
        "        pl.tile.tpush_to_aiv(a, split=1)\n"
        "    @pl.function(type=pl.FunctionType.AIV)\n"
        "    def h_aiv(a: pl.Tensor[[4, 4], pl.FP32]) -> pl.Tile[[2, 4], pl.FP32, pl.Mem.Vec]:\n"
        "        x: pl.Tile[[2, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)\n"
        "        return x\n"
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def main(self, a: pl.Tensor[[4, 4], pl.FP32]) -> pl.Tile[[2, 4], pl.FP32, pl.Mem.Vec]:\n"
        "        r: pl.Tile[[2, 4], pl.FP32, pl.Mem.Vec] = self.h(a)\n"
        "        return r\n";
    loaded L;
    load(&L, k);
    int64_t shape[2] = {4, 4};
    tensor *t = tensor_zeros(DTYPE_FP32, 2, shape, NULL);
    for (int i = 0; i < 16; i++) {
        int64_t idx[2] = {i / 4, i % 4};
        tensor_set(t, idx, i);
    }
    value arg = value_tensor(t);
    for (int s = 0; s < 3; s++) {
        value r;
        char err[4096];
        exec_sched sch = s == 0 ? EXEC_SCHED_FIXED : s == 1 ? EXEC_SCHED_AIV_FIRST : EXEC_SCHED_RANDOM;
        ptodb_status st = run_entry(&L, &arg, 1, &r, err, sizeof err, sch);
        if (st != PTODB_OK)
            fprintf(stderr, "%s\n", err);
        ck_assert_int_eq(st, PTODB_OK);
        ck_assert_int_eq(r.kind, VAL_TENSOR);
        ck_assert_int_eq(r.u.t->ndim, 2);
        ck_assert_int_eq(r.u.t->shape[0], 2);
        int64_t idx[2] = {1, 3};
        ck_assert(tensor_get(r.u.t, idx) == 7.0);
        value_clear(&r);
    }
    value_clear(&arg);
    unload(&L);
}
END_TEST

START_TEST(test_merge_and_split_attrs)
{
    int64_t shape[2] = {5, 4};
    tensor *t = tensor_zeros(DTYPE_FP32, 2, shape, NULL);
    t->valid_ndim = 2;
    t->valid[0] = 5;
    t->valid[1] = 4;
    tensor *p0, *p1;
    strbuf err = STRBUF_INIT;
    ck_assert_int_eq(xcore_split(t, 3, 0, &p0, &p1, &err), 0);
    ck_assert_int_eq(p0->shape[0], 3);
    ck_assert_int_eq(p1->shape[0], 2); /* clipped: S + h > n */
    ck_assert_int_eq(p0->valid[0], 3);
    ck_assert_int_eq(p1->valid[0], 2);
    tensor *m = xcore_merge(p0, p1, 1, &err);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(m->shape[0], 5);
    ck_assert_int_eq(m->valid[0], 5);
    tensor_unref(m);
    tensor_unref(p0);
    tensor_unref(p1);
    /* split 4 on a 4-wide axis: lanes 2 and 2 are not one apart */
    ck_assert_int_ne(xcore_split(t, 4, 0, &p0, &p1, &err), 0);
    ck_assert_ptr_nonnull(strstr(strbuf_str(&err), "one cell apart"));
    strbuf_free(&err);
    tensor_unref(t);
}
END_TEST

/* Deadlocks: each program is broken on purpose. The report names every core,
 * its function and line, what it waits on and the queues; two runs give the
 * same text. */
static void expect_deadlock(const char *kernels, const char *const *needles)
{
    char e1[8192], e2[8192];
    ck_assert_int_eq(run_group(kernels, EXEC_SCHED_FIXED, e1, sizeof e1, NULL), PTODB_ERR_DEADLOCK);
    ck_assert_int_eq(run_group(kernels, EXEC_SCHED_FIXED, e2, sizeof e2, NULL), PTODB_ERR_DEADLOCK);
    ck_assert_str_eq(e1, e2);
    ck_assert_ptr_nonnull(strstr(e1, "ptodb: deadlock in group g"));
    ck_assert_ptr_nonnull(strstr(e1, "Mixed-kernel execution failed in"));
    ck_assert_ptr_nonnull(strstr(e1, "pipe_state={'no_split_dual_aiv_dispatch'"));
    ck_assert_ptr_nonnull(strstr(e1, "core AIC"));
    ck_assert_ptr_nonnull(strstr(e1, "core AIV0"));
    ck_assert_ptr_nonnull(strstr(e1, "queue"));
    for (size_t i = 0; needles[i]; i++) {
        if (!strstr(e1, needles[i]))
            fprintf(stderr, "missing '%s' in:\n%s\n", needles[i], e1);
        ck_assert_ptr_nonnull(strstr(e1, needles[i]));
    }
    /* another schedule finds the same deadlock */
    ck_assert_int_eq(run_group(kernels, EXEC_SCHED_AIV_FIRST, e2, sizeof e2, NULL), PTODB_ERR_DEADLOCK);
}

START_TEST(test_deadlock_unpaired_pop)
{
    /* AIC pushes once, the vector lane pops twice */
    const char *k = "    @pl.function(type=pl.FunctionType.AIC)\n"
                    "    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        pl.tile.tpush_to_aiv(a, split=0)\n"
                    "    @pl.function(type=pl.FunctionType.AIV)\n"
                    "    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        x: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)\n"
                    "        y: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)\n";
    const char *const n[] = {"core AIC  lane 0: finished", "blocked in g_aiv at t.py:12:",
                             "tpop_from_aic (split=0, lane=0)", "queue to_aiv", "AIC->AIV  depth=0",
                             NULL};
    expect_deadlock(k, n);
}
END_TEST

START_TEST(test_unpaired_push_is_silent)
{
    /* REF: pushes nobody pops are not an error (semantics.md §6.2 step 7) */
    const char *k = "    @pl.function(type=pl.FunctionType.AIC)\n"
                    "    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        pl.tile.tpush_to_aiv(a, split=0)\n"
                    "        pl.tile.tpush_to_aiv(a, split=0)\n"
                    "    @pl.function(type=pl.FunctionType.AIV)\n"
                    "    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        x: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)\n";
    char err[4096];
    ck_assert_int_eq(run_group(k, EXEC_SCHED_FIXED, err, sizeof err, NULL), PTODB_OK);
}
END_TEST

START_TEST(test_deadlock_wrong_order)
{
    /* both sides wait for the other before pushing */
    const char *k = "    @pl.function(type=pl.FunctionType.AIC)\n"
                    "    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        x: pl.Tile[[4, 4], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)\n"
                    "        pl.tile.tpush_to_aiv(a, split=0)\n"
                    "    @pl.function(type=pl.FunctionType.AIV)\n"
                    "    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        y: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)\n"
                    "        pl.tile.tpush_to_aic(a, split=0)\n";
    const char *const n[] = {"blocked in g_aic at t.py:8:", "tpop_from_aiv (split=0, lane=0)",
                             "blocked in g_aiv at t.py:12:", "tpop_from_aic (split=0, lane=0)",
                             "Mixed-kernel execution failed in g_aic (lane=None) for g", NULL};
    expect_deadlock(k, n);
}
END_TEST

START_TEST(test_deadlock_lane_mismatch)
{
    /* dual dispatch: the cube pops one tile from each lane, only lane 0 pushes */
    const char *k = "    @pl.function(type=pl.FunctionType.AIC)\n"
                    "    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        x: pl.Tile[[4, 4], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)\n"
                    "    @pl.function(type=pl.FunctionType.AIV)\n"
                    "    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        pl.func_attr({\"dual_aiv_dispatch\": True})\n"
                    "        sb: pl.Scalar[pl.INDEX] = pl.tile.get_subblock_idx()\n"
                    "        if sb == 0:\n"
                    "            pl.tile.tpush_to_aic(a, split=0)\n";
    const char *const n[] = {"core AIV1 lane 1: finished", "core AIV0 lane 0: finished",
                             "blocked in g_aic", "queue to_aic_dual_nosplit AIV->AIC  depth=1  split=0  lane=0",
                             "'no_split_dual_aiv_dispatch': True", NULL};
    expect_deadlock(k, n);
}
END_TEST

START_TEST(test_deadlock_pop_wrong_side)
{
    /* the vector lane pops from the V->C queue (meant for the cube) */
    const char *k = "    @pl.function(type=pl.FunctionType.AIC)\n"
                    "    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        pl.tile.tpush_to_aiv(a, split=0)\n"
                    "    @pl.function(type=pl.FunctionType.AIV)\n"
                    "    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        y: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aiv(split=0)\n";
    const char *const n[] = {"blocked in g_aiv", "tpop_from_aiv (split=0, lane=0)",
                             "queue to_aiv              AIC->AIV  depth=1",
                             "queue to_aic              AIV->AIC  depth=0", NULL};
    expect_deadlock(k, n);
}
END_TEST

START_TEST(test_deadlock_push_after_consumer_ended)
{
    /* the cube pushes and waits for an answer; the vector side has already
     * returned */
    const char *k = "    @pl.function(type=pl.FunctionType.AIC)\n"
                    "    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        pl.tile.tpush_to_aiv(a, split=0)\n"
                    "        x: pl.Tile[[4, 4], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)\n"
                    "    @pl.function(type=pl.FunctionType.AIV)\n"
                    "    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        pass\n";
    const char *const n[] = {"core AIV0 lane 0: finished", "blocked in g_aic at t.py:9:",
                             "tpop_from_aiv (split=0, lane=0)", "depth=1", NULL};
    expect_deadlock(k, n);
}
END_TEST

START_TEST(test_split_conflict_is_codegen_error)
{
    const char *k = "    @pl.function(type=pl.FunctionType.AIC)\n"
                    "    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        pl.tile.tpush_to_aiv(a, split=1)\n"
                    "    @pl.function(type=pl.FunctionType.AIV)\n"
                    "    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        y: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)\n";
    char *body = xmalloc(strlen(k) + strlen(GROUP_TAIL) + 1);
    strcpy(body, k);
    strcat(body, GROUP_TAIL);
    loaded L;
    load(&L, body);
    free(body);
    ck_assert_ptr_nonnull(L.p->codegen_error);
    ck_assert_str_eq(L.p->codegen_error, "ValueError: Conflicting cross-core split kwargs in group g: [0, 1]");
    unload(&L);
}
END_TEST


START_TEST(test_group_without_pair_runs_inline)
{
    /* no g_aic/g_aiv pair: the Group body calls its members one after the
     * other on the host core; the first pop can never be served */
    loaded L;
    load(&L, "    @pl.function(type=pl.FunctionType.AIC)\n"
             "    def k_cube(a: pl.Tensor[[4, 4], pl.FP32]):\n"
             "        x: pl.Tile[[4, 4], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)\n"
             "    @pl.function(type=pl.FunctionType.AIV)\n"
             "    def k_vec(a: pl.Tensor[[4, 4], pl.FP32]):\n"
             "        pl.tile.tpush_to_aic(a, split=0)\n"
             "    @pl.function(type=pl.FunctionType.Group)\n"
             "    def g(a: pl.Tensor[[4, 4], pl.FP32]):\n"
             "        self.k_cube(a)\n"
             "        self.k_vec(a)\n"
             "    @pl.function(type=pl.FunctionType.Orchestration)\n"
             "    def main(self, a: pl.Tensor[[4, 4], pl.FP32]):\n"
             "        self.g(a)\n");
    int64_t shape[2] = {4, 4};
    value arg = value_tensor(tensor_zeros(DTYPE_FP32, 2, shape, NULL));
    char err[4096];
    ck_assert_int_eq(run_entry(&L, &arg, 1, NULL, err, sizeof err, EXEC_SCHED_FIXED), PTODB_ERR_DEADLOCK);
    ck_assert_ptr_nonnull(strstr(err, "t.py:8:"));
    ck_assert_ptr_nonnull(strstr(err, "tpop_from_aiv timeout (split=0, lane=0)"));
    ck_assert_ptr_nonnull(strstr(err, "outside any group run"));
    value_clear(&arg);
    unload(&L);
}
END_TEST

START_TEST(test_slot_depth_backpressure)
{
    /* both sides push twice before popping: fine with REF's unbounded
     * queues, a deadlock when every pipe holds one tile */
    const char *k = "    @pl.function(type=pl.FunctionType.AIC)\n"
                    "    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        pl.tile.tpush_to_aiv(a, split=0)\n"
                    "        pl.tile.tpush_to_aiv(a, split=0)\n"
                    "        x: pl.Tile[[4, 4], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)\n"
                    "        y: pl.Tile[[4, 4], pl.FP32, pl.Mem.Mat] = pl.tile.tpop_from_aiv(split=0)\n"
                    "    @pl.function(type=pl.FunctionType.AIV)\n"
                    "    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        pl.tile.tpush_to_aic(a, split=0)\n"
                    "        pl.tile.tpush_to_aic(a, split=0)\n"
                    "        x: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)\n"
                    "        y: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)\n";
    char *body = xmalloc(strlen(k) + strlen(GROUP_TAIL) + 1);
    strcpy(body, k);
    strcat(body, GROUP_TAIL);
    loaded L;
    load(&L, body);
    free(body);
    int64_t shape[2] = {4, 4};
    value arg = value_tensor(tensor_zeros(DTYPE_FP32, 2, shape, NULL));
    char err[4096];
    ck_assert_int_eq(run_entry_depth(&L, &arg, 1, NULL, err, sizeof err, EXEC_SCHED_FIXED, 0), PTODB_OK);
    ck_assert_int_eq(run_entry_depth(&L, &arg, 1, NULL, err, sizeof err, EXEC_SCHED_FIXED, 2), PTODB_OK);
    ck_assert_int_eq(run_entry_depth(&L, &arg, 1, NULL, err, sizeof err, EXEC_SCHED_FIXED, 1),
                     PTODB_ERR_DEADLOCK);
    ck_assert_ptr_nonnull(strstr(err, "tpush_to_aiv (split=0, lane=0, queue full)"));
    ck_assert_ptr_nonnull(strstr(err, "tpush_to_aic (split=0, lane=0, queue full)"));
    ck_assert_ptr_nonnull(strstr(err, "depth=1/1"));
    value_clear(&arg);
    unload(&L);
}
END_TEST

START_TEST(test_deadlock_unpaired_push_bounded)
{
    /* unpaired pushes: silent with REF's unbounded queues, a deadlock on
     * hardware-like pipes (two slots) once the consumer has stopped popping */
    const char *k = "    @pl.function(type=pl.FunctionType.AIC)\n"
                    "    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        for i in pl.range(3):\n"
                    "            pl.tile.tpush_to_aiv(a, split=0)\n"
                    "    @pl.function(type=pl.FunctionType.AIV)\n"
                    "    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        pass\n";
    char *body = xmalloc(strlen(k) + strlen(GROUP_TAIL) + 1);
    strcpy(body, k);
    strcat(body, GROUP_TAIL);
    loaded L;
    load(&L, body);
    free(body);
    int64_t shape[2] = {4, 4};
    value arg = value_tensor(tensor_zeros(DTYPE_FP32, 2, shape, NULL));
    char e1[4096], e2[4096];
    ck_assert_int_eq(run_entry_depth(&L, &arg, 1, NULL, e1, sizeof e1, EXEC_SCHED_FIXED, 0), PTODB_OK);
    ck_assert_int_eq(run_entry_depth(&L, &arg, 1, NULL, e1, sizeof e1, EXEC_SCHED_FIXED, 2),
                     PTODB_ERR_DEADLOCK);
    ck_assert_int_eq(run_entry_depth(&L, &arg, 1, NULL, e2, sizeof e2, EXEC_SCHED_FIXED, 2),
                     PTODB_ERR_DEADLOCK);
    ck_assert_str_eq(e1, e2);
    ck_assert_ptr_nonnull(strstr(e1, "core AIC  lane 0: blocked in g_aic at t.py:9:13 on tpush_to_aiv (split=0, lane=0, queue full)"));
    ck_assert_ptr_nonnull(strstr(e1, "core AIV0 lane 0: finished"));
    ck_assert_ptr_nonnull(strstr(e1, "queue to_aiv              AIC->AIV  depth=2/2"));
    value_clear(&arg);
    unload(&L);
}
END_TEST

START_TEST(test_step_cores_by_hand)
{
    /* a debugger switches cores: AIV0 first blocks on its pop, then AIC
     * pushes, then AIV0's pop re-runs and completes */
    const char *k = "    @pl.function(type=pl.FunctionType.AIC)\n"
                    "    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        pl.tile.tpush_to_aiv(a, split=0)\n"
                    "    @pl.function(type=pl.FunctionType.AIV)\n"
                    "    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                    "        x: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=0)\n";
    char *body = xmalloc(strlen(k) + strlen(GROUP_TAIL) + 1);
    strcpy(body, k);
    strcat(body, GROUP_TAIL);
    loaded L;
    load(&L, body);
    free(body);
    int64_t shape[2] = {4, 4};
    value arg = value_tensor(tensor_zeros(DTYPE_FP32, 2, shape, NULL));
    machine *m = machine_new(L.p, NULL);
    ck_assert_int_eq(machine_start(m, L.p->entry, &arg, 1), PTODB_OK);
    exec_event ev;
    ck_assert_int_eq(machine_step(m, &ev), PTODB_OK); /* main: self.g(a) starts the group */
    ck_assert_int_eq(ev.kind, EXEC_EV_CALL);
    ck_assert_str_eq(ev.func, "g");
    ck_assert_int_eq(machine_step_core(m, EXEC_CORE_HOST, &ev), PTODB_ERR_USAGE); /* waits for the group */
    ck_assert_int_eq(machine_step_core(m, EXEC_CORE_AIV0, &ev), PTODB_OK);
    ck_assert_int_eq(ev.kind, EXEC_EV_BLOCKED);
    ck_assert_int_eq(ev.core, EXEC_CORE_AIV0);
    ck_assert_int_eq(ev.line, 11);
    ck_assert_str_eq(ev.func, "g_aiv");
    ck_assert_int_eq(machine_step_core(m, EXEC_CORE_AIV0, &ev), PTODB_OK); /* still blocked */
    ck_assert_int_eq(ev.kind, EXEC_EV_BLOCKED);
    ck_assert_int_eq(machine_step_core(m, EXEC_CORE_AIC, &ev), PTODB_OK);
    ck_assert_int_eq(ev.kind, EXEC_EV_STMT);
    ck_assert_int_eq(ev.line, 8);
    ck_assert_int_eq(machine_step_core(m, EXEC_CORE_AIV0, &ev), PTODB_OK);
    ck_assert_int_eq(ev.kind, EXEC_EV_STMT);
    ck_assert_int_eq(ev.line, 11);
    ck_assert_int_eq(machine_run(m), PTODB_OK);
    ck_assert(machine_finished(m));
    machine_free(m);
    value_clear(&arg);
    unload(&L);
}
END_TEST

START_TEST(test_check_shapes_messages)
{
    /* REF's assertions (semantics.md §2.4): entry dtype, then shape after an
     * assignment, wrapped in the group failure text */
    loaded L;
    load(&L, "    @pl.function(type=pl.FunctionType.InCore)\n"
             "    def k(x__ssa_v0: pl.Tensor[[4, 4], pl.BF16]):\n"
             "        pass\n"
             "    @pl.function(type=pl.FunctionType.Orchestration)\n"
             "    def main(self, a: pl.Tensor[[4, 4], pl.FP32]):\n"
             "        self.k(a)\n");
    int64_t shape[2] = {4, 4};
    value arg = value_tensor(tensor_zeros(DTYPE_FP32, 2, shape, NULL));
    char err[4096];
    ck_assert_int_ne(run_entry(&L, &arg, 1, NULL, err, sizeof err, EXEC_SCHED_FIXED), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(err, "t.py:11:9: in k: REF would fail here: AssertionError: Dtype mismatch "
                                      "for x_ssa_v0: expected torch.bfloat16, got torch.float32"));
    unload(&L);
    const char *kern = "    @pl.function(type=pl.FunctionType.AIC)\n"
                       "    def g_aic(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                       "        pl.tile.tpush_to_aiv(a, split=1)\n"
                       "    @pl.function(type=pl.FunctionType.AIV)\n"
                       "    def g_aiv(a: pl.Tensor[[4, 4], pl.FP32]):\n"
                       "        t__tile: pl.Tile[[4, 4], pl.FP32, pl.Mem.Vec] = pl.tile.tpop_from_aic(split=1)\n";
    ck_assert_int_ne(run_group(kern, EXEC_SCHED_FIXED, err, sizeof err, NULL), PTODB_OK);
    ck_assert_ptr_nonnull(strstr(err, "Mixed-kernel execution failed in g_aiv (lane=0) for g"));
    ck_assert_ptr_nonnull(strstr(err, "t.py:11:9: in g_aiv: REF would fail here: AssertionError: Shape mismatch "
                                      "for t_tile: expected (4, 4), got torch.Size([2, 4])"));
    value_clear(&arg);
}
END_TEST

/* ---- compare (semantics.md §7.3) -------------------------------------------- */

static tensor *t1(dtype_id dt, double v)
{
    int64_t shape[1] = {1};
    tensor *t = tensor_zeros(dt, 1, shape, NULL);
    int64_t idx[1] = {0};
    tensor_set(t, idx, v);
    return t;
}

START_TEST(test_compare_like_ref)
{
    exec_compare_result r;
    tensor *a = t1(DTYPE_BF16, 1.0), *e = t1(DTYPE_BF16, 1.0546875);
    /* measured on torch 1.13: both True (bf16 intermediates, narrowed scalars) */
    exec_compare(a, e, 0.0, 0.0546, EXEC_PROFILE_T13, 0, &r);
    ck_assert(r.pass);
    exec_compare(a, e, 0.0518, 0.0, EXEC_PROFILE_T13, 0, &r);
    ck_assert(r.pass);
    ck_assert(r.max_abs_diff == 0.0546875);
    exec_compare(a, e, 0.05, 0.0, EXEC_PROFILE_T13, 0, &r);
    ck_assert(!r.pass);
    ck_assert_int_eq(r.mismatches, 1);
    tensor_unref(a);
    tensor_unref(e);
    /* dtype mismatch is REF's RuntimeError */
    a = t1(DTYPE_FP32, 1.0);
    e = t1(DTYPE_BF16, 1.0);
    exec_compare(a, e, 0.05, 0.05, EXEC_PROFILE_T2, 0, &r);
    ck_assert(r.error);
    ck_assert_str_eq(r.msg, "RuntimeError: Float did not match BFloat16");
    tensor_unref(a);
    tensor_unref(e);
    /* an FP8 golden against ptodb's float32 output: the output as stored
     * into float8 (1.0625 rounds to e4m3fn 1.0, ties to even) */
    a = t1(DTYPE_FP32, 1.0625);
    e = t1(DTYPE_FP8E4M3FN, 1.0);
    exec_compare(a, e, 0.0, 0.0, EXEC_PROFILE_T2, 0, &r);
    ck_assert(!r.error && r.pass && r.max_abs_diff == 0.0);
    tensor_set(a, (int64_t[]){0}, 1.07);
    exec_compare(a, e, 0.0, 0.0, EXEC_PROFILE_T2, 0, &r);
    ck_assert(!r.pass && r.max_abs_diff == 0.125);
    tensor_unref(a);
    a = t1(DTYPE_BF16, 1.0);
    exec_compare(a, e, 0.0, 0.0, EXEC_PROFILE_T2, 0, &r);
    ck_assert(r.error);
    ck_assert_str_eq(r.msg, "RuntimeError: BFloat16 did not match Float8_e4m3fn");
    tensor_unref(a);
    tensor_unref(e);
    /* NaN never matches and makes max_abs_diff nan */
    a = t1(DTYPE_FP32, NAN);
    e = t1(DTYPE_FP32, NAN);
    exec_compare(a, e, 0.05, 0.05, EXEC_PROFILE_T2, 0, &r);
    ck_assert(!r.pass);
    char buf[32];
    exec_format_e6(r.max_abs_diff, buf, sizeof buf);
    ck_assert_str_eq(buf, "nan");
    tensor_unref(a);
    tensor_unref(e);
    /* integer differences wrap in the dtype: uint8 3 - 5 = 254 */
    a = t1(DTYPE_UINT8, 3);
    e = t1(DTYPE_UINT8, 5);
    exec_compare(a, e, 0.0, 0.0, EXEC_PROFILE_T2, 0, &r);
    ck_assert(r.max_abs_diff == 254.0);
    tensor_unref(a);
    tensor_unref(e);
    exec_format_e6(9.765625e-04, buf, sizeof buf);
    ck_assert_str_eq(buf, "9.765625e-04");
    exec_format_e6(0.0, buf, sizeof buf);
    ck_assert_str_eq(buf, "0.000000e+00");
    exec_format_e6(INFINITY, buf, sizeof buf);
    ck_assert_str_eq(buf, "inf");
}
END_TEST

/* The margin and the per-element fractions of the tolerance (the heat
 * scale, tensor/heatgrid.h): a fraction above 1 exactly where the
 * validator counts the element outside, whatever the rounding; the margin
 * their maximum. */
START_TEST(test_compare_margin)
{
    exec_compare_result r;
    /* the bf16 boundary of test_compare_like_ref: 1.0 vs 1.0546875 */
    tensor *a = t1(DTYPE_BF16, 1.0), *e = t1(DTYPE_BF16, 1.0546875);
    float frac[1];
    uint8_t bad[1] = {0};
    exec_compare_frac(a, e, 0.0518, 0.0, EXEC_PROFILE_T13, 0, &r, bad, frac);
    ck_assert(r.pass && !bad[0]);
    ck_assert(r.margin > 0.9 && r.margin <= 1.0 && frac[0] <= 1.0f);
    exec_compare_frac(a, e, 0.05, 0.0, EXEC_PROFILE_T13, 0, &r, bad, frac);
    ck_assert(!r.pass && bad[0]);
    ck_assert(r.margin > 1.0 && frac[0] > 1.0f);
    tensor_unref(a);
    tensor_unref(e);
    /* equal: 0; atol 0, rtol 0 and a difference: infinitely far */
    a = t1(DTYPE_FP32, 2.0);
    e = t1(DTYPE_FP32, 2.0);
    exec_compare_frac(a, e, 0.0, 0.0, EXEC_PROFILE_T2, 0, &r, NULL, frac);
    ck_assert(r.margin == 0 && frac[0] == 0);
    tensor_set(a, (int64_t[]){0}, 2.5);
    exec_compare_frac(a, e, 0.0, 0.0, EXEC_PROFILE_T2, 0, &r, NULL, frac);
    ck_assert(isinf(r.margin) && isinf(frac[0]));
    /* 0.5 off against atol 0.05 + rtol 0.05 * 2 = 0.15: 3.33 times */
    exec_compare_frac(a, e, 0.05, 0.05, EXEC_PROFILE_T2, 0, &r, NULL, frac);
    ck_assert(fabs(r.margin - 0.5 / 0.15) < 1e-5);
    char buf[32];
    heat_format_share(r.margin, buf, sizeof buf);
    ck_assert_str_eq(buf, "333%");
    tensor_unref(a);
    tensor_unref(e);
    /* NaN: the margin is NaN, the element's fraction too */
    a = t1(DTYPE_FP32, NAN);
    e = t1(DTYPE_FP32, 1.0);
    exec_compare_frac(a, e, 0.05, 0.05, EXEC_PROFILE_T2, 0, &r, NULL, frac);
    ck_assert(isnan(r.margin) && isnan(frac[0]));
    tensor_unref(a);
    tensor_unref(e);
    /* many elements near the boundary, in every float dtype: fraction > 1
     * exactly where the mask says outside */
    static const dtype_id dts[] = {DTYPE_FP32, DTYPE_BF16, DTYPE_FP16, DTYPE_FP64, DTYPE_INT32};
    for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++) {
        int64_t shape[1] = {4096};
        a = tensor_zeros(dts[d], 1, shape, NULL);
        e = tensor_zeros(dts[d], 1, shape, NULL);
        unsigned seed = 7;
        for (int64_t k = 0; k < 4096; k++) {
            seed = seed * 1103515245u + 12345u;
            double g = (double)(seed >> 8) / (1 << 24) * 40 - 20;
            seed = seed * 1103515245u + 12345u;
            double off = ((double)(seed >> 8) / (1 << 24) - 0.5) * 0.4 * (0.05 + 0.05 * fabs(g)) * 5;
            tensor_set(e, (int64_t[]){k}, g);
            tensor_set(a, (int64_t[]){k}, g + off);
        }
        float *fr = xcalloc(4096, sizeof *fr);
        uint8_t *mask = xcalloc(4096, 1);
        exec_compare_frac(a, e, 0.05, 0.05, EXEC_PROFILE_T2, 0, &r, mask, fr);
        double worst = 0;
        int64_t over = 0;
        for (int64_t k = 0; k < 4096; k++) {
            ck_assert_msg((fr[k] > 1.0f) == (mask[k] != 0), "dtype %d element %lld: fraction %g, mask %d",
                          (int)dts[d], (long long)k, (double)fr[k], mask[k]);
            over += mask[k];
            if (fr[k] > worst)
                worst = fr[k];
        }
        ck_assert_int_eq(over, r.mismatches);
        ck_assert(fabs(worst - r.margin) <= 1e-6 * r.margin);
        /* the same values as 64 x 64 matrices, contiguous and as transposed
         * views of their transposes (the element-by-index path): the same
         * result and fractions, element for element */
        int64_t sq[2] = {64, 64};
        tensor *a2 = tensor_zeros(dts[d], 2, sq, NULL), *e2 = tensor_zeros(dts[d], 2, sq, NULL);
        tensor *at = tensor_zeros(dts[d], 2, sq, NULL), *et = tensor_zeros(dts[d], 2, sq, NULL);
        for (int64_t i = 0; i < 64; i++)
            for (int64_t j = 0; j < 64; j++) {
                double av = tensor_get(a, (int64_t[]){i * 64 + j}), ev = tensor_get(e, (int64_t[]){i * 64 + j});
                tensor_set(a2, (int64_t[]){i, j}, av);
                tensor_set(e2, (int64_t[]){i, j}, ev);
                tensor_set(at, (int64_t[]){j, i}, av);
                tensor_set(et, (int64_t[]){j, i}, ev);
            }
        ptodb_status vst;
        tensor *av = tensor_transpose(at, 0, 1, &vst), *ev = tensor_transpose(et, 0, 1, &vst);
        exec_compare_result r2, r3;
        float *fr2 = xcalloc(4096, sizeof *fr2), *fr3 = xcalloc(4096, sizeof *fr3);
        exec_compare_frac(a2, e2, 0.05, 0.05, EXEC_PROFILE_T2, 0, &r2, NULL, fr2);
        exec_compare_frac(av, ev, 0.05, 0.05, EXEC_PROFILE_T2, 0, &r3, NULL, fr3);
        ck_assert_int_eq(r2.mismatches, r.mismatches);
        ck_assert_int_eq(r3.mismatches, r2.mismatches);
        ck_assert_int_eq(r3.first_bad, r2.first_bad);
        ck_assert(memcmp(&r3.max_abs_diff, &r2.max_abs_diff, sizeof r2.max_abs_diff) == 0);
        ck_assert(memcmp(&r3.margin, &r2.margin, sizeof r2.margin) == 0);
        ck_assert(memcmp(fr2, fr3, 4096 * sizeof *fr2) == 0);
        free(fr2);
        free(fr3);
        tensor_unref(av);
        tensor_unref(ev);
        tensor_unref(at);
        tensor_unref(et);
        tensor_unref(a2);
        tensor_unref(e2);
        free(fr);
        free(mask);
        tensor_unref(a);
        tensor_unref(e);
    }
}
END_TEST

/* ---- the task race check's overlap (exec/tasks.c) ---------------------------- */

/* Task 1 (no deps) touches (w1: writes) the view at off1 of a 64 x 256
 * float32 matrix, shape shp1, column step step1, after task 0 touched (w0)
 * the row-major view at off0, shape shp0: the report, or "" when none. */
static void task_pair(int w0, const int64_t *off0, const int64_t *shp0, int w1, const int64_t *off1,
                      const int64_t *shp1, int64_t step1, char *out, size_t size)
{
    int64_t shape[2] = {64, 256};
    tensor *m = tensor_zeros(DTYPE_FP32, 2, shape, NULL);
    exec_tasks *t = exec_tasks_new();
    exec_tasks_name(t, m, "out");
    exec_tasks_scope(t);
    strbuf why = STRBUF_INIT;
    ptodb_status st;
    int64_t str0[2] = {256, 1}, str1[2] = {256, step1};
    tensor *v0 = tensor_view(m, 2, shp0, str0, off0[0] * 256 + off0[1], &st);
    tensor *v1 = tensor_view(m, 2, shp1, str1, off1[0] * 256 + off1[1], &st);
    ck_assert_ptr_nonnull(v0);
    ck_assert_ptr_nonnull(v1);
    exec_tasks_begin(t, 0, "stage1", 10, 1, NULL, 0);
    exec_tasks_access(t, v0, w0);
    ck_assert_int_eq(exec_tasks_end(t, &why), 0);
    exec_tasks_begin(t, 1, "stage2", 11, 1, NULL, 0);
    exec_tasks_access(t, v1, w1);
    int raced = exec_tasks_end(t, &why);
    snprintf(out, size, "%s", raced ? strbuf_str(&why) : "");
    strbuf_free(&why);
    tensor_unref(v0);
    tensor_unref(v1);
    tensor_unref(m);
    exec_tasks_free(t);
}

/* Tiles side by side (the columns never meet: rejected without the walk),
 * above one another (disjoint bounds), overlapping by one column or row
 * (found, the first common element named), a strided read of every other
 * column (its bounding run) against a tile between its columns, and a
 * read after a read (never a race). */
START_TEST(test_task_race_overlap)
{
    char r[512];
    const int64_t tile[2] = {16, 64}, narrow[2] = {16, 8};
    /* side by side, and one above the other: no report */
    task_pair(1, (int64_t[]){0, 0}, tile, 1, (int64_t[]){0, 64}, tile, 1, r, sizeof r);
    ck_assert_str_eq(r, "");
    task_pair(1, (int64_t[]){0, 0}, tile, 1, (int64_t[]){16, 0}, tile, 1, r, sizeof r);
    ck_assert_str_eq(r, "");
    /* one column shared: read after write, then write after write */
    task_pair(1, (int64_t[]){0, 0}, tile, 0, (int64_t[]){0, 63}, tile, 1, r, sizeof r);
    ck_assert_msg(strstr(r, "reads out[0, 63], which task 0 (stage1, submitted at line 10) writes") != NULL, "%s", r);
    task_pair(1, (int64_t[]){4, 192}, tile, 1, (int64_t[]){19, 160}, tile, 1, r, sizeof r);
    ck_assert_msg(strstr(r, "writes out[19, 192], which task 0") != NULL, "%s", r);
    /* the right edge of a row against the left of the next rows: the bounds
     * meet, the columns (residues mod 256) do not */
    task_pair(1, (int64_t[]){0, 192}, tile, 1, (int64_t[]){1, 0}, tile, 1, r, sizeof r);
    ck_assert_str_eq(r, "");
    /* runs of 16 from column 248 wrap into the next row (residues 248..255
     * and 0..7): they meet columns 0..7, not 8..15 */
    task_pair(1, (int64_t[]){1, 0}, narrow, 0, (int64_t[]){0, 248}, (int64_t[]){4, 16}, 1, r, sizeof r);
    ck_assert_msg(strstr(r, "reads out[1, 0], which task 0") != NULL, "%s", r);
    task_pair(1, (int64_t[]){1, 8}, narrow, 0, (int64_t[]){0, 248}, (int64_t[]){4, 16}, 1, r, sizeof r);
    ck_assert_str_eq(r, "");
    /* every other column read (kept as its bounding run: conservative) over
     * a column between them */
    task_pair(1, (int64_t[]){0, 1}, (int64_t[]){16, 1}, 0, (int64_t[]){0, 0}, (int64_t[]){16, 32}, 2, r, sizeof r);
    ck_assert_msg(strstr(r, "reads out[0, 1]") != NULL, "%s", r);
    /* two reads: never a race */
    task_pair(0, (int64_t[]){0, 0}, tile, 0, (int64_t[]){0, 0}, tile, 1, r, sizeof r);
    ck_assert_str_eq(r, "");
}
END_TEST

/* ---- results written into dead operands ------------------------------------ */

/* program.c's liveness, machine_options.reuse_dead, kernel_binary_reuse and
 * kernel_unary_reuse: the lowering marks an operand only where no later
 * instruction reads its value (a value used after the statement, or
 * defined outside a loop and used inside it, stays unmarked), and with
 * reuse on the machine computes exactly what it does with reuse off, while
 * a binary or unary op does take a dead operand's buffer when nothing else
 * holds it, and never one that another name or a view shares. */

#define FN "    @pl.function(type=pl.FunctionType.Orchestration)\n"

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

static void note_operand(void *ud, int core, const tensor *t)
{
    (void)core;
    seen *s = ud;
    if (s->n < 16)
        s->data[s->n++] = t->storage->data;
}

/* Runs the entry on a [2, 2] fp32 argument holding 1, 2, 3, 4; returns the
 * result (a tensor or a tuple) and records operand buffers in *s. */
static value run_reuse(loaded *L, int reuse, seen *s)
{
    int64_t shape[2] = {2, 2};
    tensor *x = tensor_zeros(DTYPE_FP32, 2, shape, NULL);
    for (int k = 0; k < 4; k++)
        dtype_store(DTYPE_FP32, x->storage->data, (size_t)k, k + 1);
    value arg = value_tensor(x);
    machine_options o;
    machine_options_init(&o);
    o.semantics = EXEC_SEM_REF; /* these tests pin the reference's behaviour */
    o.reuse_dead = reuse;
    machine *m = machine_new(L->p, &o);
    if (s) {
        memset(s, 0, sizeof *s);
        machine_set_read_hook(m, note_operand, s);
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
    load(&L, FN "    def main(self, x: pl.Tensor[[2, 2], pl.FP32]) -> pl.Tensor[[2, 2], pl.FP32]:\n"
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
        value r = run_reuse(&L, reuse, NULL);
        expect_values(r.u.t, want);
        value_clear(&r);
    }
    unload(&L);
}
END_TEST

START_TEST(test_value_used_in_a_later_iteration_is_not_dead)
{
    /* acc <- (w + acc) / 2 three times, w = x + 1: hand-computed from
     * x = 1..4 (acc0 = x): 1 -> 1.5 -> 1.75 -> 1.875 over w = 2, and so on.
     * A reuse of w's buffer in the first iteration would change the next. */
    loaded L;
    load(&L, FN "    def main(self, x: pl.Tensor[[2, 2], pl.FP32]) -> pl.Tensor[[2, 2], pl.FP32]:\n"
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
    double want[4];
    for (int k = 0; k < 4; k++) {
        double acc = k + 1, w = k + 2;
        for (int i = 0; i < 3; i++)
            acc = (w + acc) * 0.5;
        want[k] = acc;
    }
    for (int reuse = 0; reuse < 2; reuse++) {
        value r = run_reuse(&L, reuse, NULL);
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
    load(&L, FN "    def main(self, x: pl.Tensor[[2, 2], pl.FP32]) -> pl.Tensor[[2, 2], pl.FP32]:\n"
             "        a: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.adds(x, 1.0)\n"
             "        b: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.muls(a, 3.0)\n"
             "        return b\n");
    static const double want[4] = {6, 9, 12, 15};
    for (int reuse = 0; reuse < 2; reuse++) {
        seen s;
        value r = run_reuse(&L, reuse, &s);
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
    load(&L, FN "    def main(self, x: pl.Tensor[[2, 2], pl.FP32]) -> pl.Tensor[[2, 2], pl.FP32]:\n"
             "        a: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.adds(x, 1.0)\n"
             "        b: pl.Tensor[[2, 2], pl.FP32] = pl.tensor.neg(a)\n"
             "        return b\n");
    char m[8];
    marks(&L, "b", m);
    ck_assert_str_eq(m, "D");
    static const double want[4] = {-2, -3, -4, -5};
    for (int reuse = 0; reuse < 2; reuse++) {
        seen s;
        value r = run_reuse(&L, reuse, &s);
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
    load(&L, FN "    def main(self, x: pl.Tensor[[2, 2], pl.FP32]) -> pl.Tuple[pl.Tensor[[2, 2], pl.FP32], "
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
    value r = run_reuse(&L, 1, NULL);
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

/* tile.load copies the window (docs/notes-exec.md, "Tile loads stay
 * copies"): a write into the tile leaves the tensor as it was, and a store
 * into the tensor leaves a tile loaded before it as it was. Either would
 * fail if a load returned a view of the tensor. */
START_TEST(test_loaded_tile_is_a_copy)
{
    loaded L;
    load(&L, FN "    def main(self, x: pl.Tensor[[2, 2], pl.FP32]) -> pl.Tuple[pl.Tensor[[2, 2], pl.FP32], "
             "pl.Tensor[[2, 2], pl.FP32]]:\n"
             "        t: pl.Tile[[2, 2], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [2, 2], [2, 2], "
             "target_memory=pl.Mem.Vec)\n"
             "        t2: pl.Tile[[2, 2], pl.FP32, pl.Mem.Vec] = pl.tile.write(t, [0, 0], 100.0)\n"
             "        u: pl.Tile[[2, 2], pl.FP32, pl.Mem.Vec] = pl.tile.load(x, [0, 0], [2, 2], [2, 2], "
             "target_memory=pl.Mem.Vec)\n"
             "        s: pl.Tile[[2, 2], pl.FP32, pl.Mem.Vec] = pl.tile.muls(u, 10.0)\n"
             "        x2: pl.Tensor[[2, 2], pl.FP32] = pl.tile.store(s, [0, 0], x)\n"
             "        v: pl.Tile[[2, 2], pl.FP32, pl.Mem.Vec] = pl.tile.adds(u, 0.0)\n"
             "        return v, x2\n");
    static const double old[4] = {1, 2, 3, 4}, stored[4] = {10, 20, 30, 40};
    for (int reuse = 0; reuse < 2; reuse++) {
        value r = run_reuse(&L, reuse, NULL);
        ck_assert_int_eq(r.kind, VAL_TUPLE);
        expect_values(r.u.tuple->items[0].u.t, old);    /* u: before the store, t's write not in x */
        expect_values(r.u.tuple->items[1].u.t, stored); /* x after the store */
        value_clear(&r);
    }
    unload(&L);
}
END_TEST

static Suite *machine_suite(void)
{
    Suite *s = suite_create("machine");
    TCase *tc = tcase_create("control");
    tcase_add_test(tc, test_sequential_yield);
    tcase_add_test(tc, test_loop_zero_iterations);
    tcase_add_test(tc, test_range_steps_and_break_continue);
    tcase_add_test(tc, test_while_forms);
    tcase_add_test(tc, test_if_return_vars_and_scopes);
    tcase_add_test(tc, test_invert_if_line);
    tcase_add_test(tc, test_floor_div_mod);
    tcase_add_test(tc, test_division_by_zero);
    tcase_add_test(tc, test_calls_and_tuples);
    tcase_add_test(tc, test_deep_recursion_is_an_error);
    tcase_add_test(tc, test_unbound_name);
    tcase_add_test(tc, test_step_api);
    tcase_add_test(tc, test_scalar_tensor_arith);
    tcase_add_test(tc, test_system_noops);
    tcase_add_test(tc, test_scalar_uint16_promotion);
    tcase_add_test(tc, test_python_scalar_ops);
    tcase_add_test(tc, test_shard_and_gather);
    suite_add_tcase(s, tc);
    TCase *x = tcase_create("xcore");
    tcase_add_test(x, test_group_split_push_pop);
    tcase_add_test(x, test_merge_and_split_attrs);
    tcase_add_test(x, test_deadlock_unpaired_pop);
    tcase_add_test(x, test_unpaired_push_is_silent);
    tcase_add_test(x, test_deadlock_wrong_order);
    tcase_add_test(x, test_deadlock_lane_mismatch);
    tcase_add_test(x, test_deadlock_pop_wrong_side);
    tcase_add_test(x, test_deadlock_push_after_consumer_ended);
    tcase_add_test(x, test_split_conflict_is_codegen_error);
    tcase_add_test(x, test_group_without_pair_runs_inline);
    tcase_add_test(x, test_slot_depth_backpressure);
    tcase_add_test(x, test_deadlock_unpaired_push_bounded);
    tcase_add_test(x, test_step_cores_by_hand);
    tcase_add_test(x, test_read_hook);
    tcase_add_test(x, test_check_shapes_messages);
    suite_add_tcase(s, x);
    TCase *cmp = tcase_create("compare");
    tcase_add_test(cmp, test_compare_like_ref);
    tcase_add_test(cmp, test_compare_margin);
    tcase_add_test(cmp, test_task_race_overlap);
    suite_add_tcase(s, cmp);
    tc = tcase_create("reuse_dead");
    tcase_add_test(tc, test_value_used_after_the_statement_is_not_dead);
    tcase_add_test(tc, test_value_used_in_a_later_iteration_is_not_dead);
    tcase_add_test(tc, test_dead_operand_buffer_is_reused);
    tcase_add_test(tc, test_unary_result_in_dead_operand);
    tcase_add_test(tc, test_shared_operand_is_not_clobbered);
    tcase_add_test(tc, test_loaded_tile_is_a_copy);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(machine_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

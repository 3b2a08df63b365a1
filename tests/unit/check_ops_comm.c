/* The multi-rank ops (src/exec/ops_comm.c) over a real world of ranks
 * (src/ranks/world.c), each expectation computed by hand from PyPTO's
 * definition (src/ir/op/distributed/; docs/ops.md, "Multi-rank ops"). Two
 * ranks, one domain; ops run with the test's exec_ctx, whose comm is the
 * rank's. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_ops_util.h"
#include "data/ranks.h"
#include "exec/comm.h"
#include "ranks/world.h"

static const char two[] =
    "ranks: 2\n  d0: devices [0, 1]; window buffers: data (32 B), sig (8 B), cnt (8 B)\n";
static case_ranks cr;
static ranks_world *w;
static int64_t data_h, sig_h, cnt_h;
static exec_ctx ctx[2];
static tensor *data[2], *sig[2], *cnt[2]; /* each rank's [1, 8] fp32 and [2, 1] int32 views */

static void setup(void)
{
    diag_sink sink;
    diag_sink_init(&sink, 0);
    ck_assert_int_eq(case_ranks_parse("ranks.txt", two, strlen(two), &cr, &sink), PTODB_OK);
    diag_sink_free(&sink);
    w = ranks_world_new(&cr, RANKS_ORDER_PROGRAM);
    const exec_comm *h = ranks_world_host_comm(w);
    char err[200];
    ck_assert_int_eq(h->alloc_window(h->ud, 32, &data_h, err, sizeof err), PTODB_OK);
    ck_assert_int_eq(h->alloc_window(h->ud, 8, &sig_h, err, sizeof err), PTODB_OK);
    ck_assert_int_eq(h->alloc_window(h->ud, 8, &cnt_h, err, sizeof err), PTODB_OK);
    for (int r = 0; r < 2; r++) {
        ctx_init(&ctx[r], EXEC_PROFILE_T2);
        ctx[r].device = 1;
        ctx[r].comm = ranks_world_rank_comm(w, r);
        data[r] = ranks_world_rank_window(w, data_h, r, DTYPE_FP32, 2, (int64_t[]){1, 8});
        sig[r] = ranks_world_rank_window(w, sig_h, r, DTYPE_INT32, 2, (int64_t[]){2, 1});
        cnt[r] = ranks_world_rank_window(w, cnt_h, r, DTYPE_INT32, 2, (int64_t[]){2, 1});
        ck_assert_ptr_nonnull(data[r]);
        ck_assert_ptr_nonnull(sig[r]);
    }
}

static void teardown(void)
{
    for (int r = 0; r < 2; r++) {
        tensor_unref(data[r]);
        tensor_unref(sig[r]);
        tensor_unref(cnt[r]);
    }
    ranks_world_free(w);
    case_ranks_free(&cr);
}

static value tv(tensor *t)
{
    return value_tensor(tensor_ref(t));
}

START_TEST(test_windows_start_zeroed_and_apart)
{
    /* simpler docs/comm-domain.md:221-230: zeroed before any peer reaches them */
    double z[8] = {0};
    expect_vals(data[0], z, 8);
    expect_vals(data[1], z, 8);
    ck_assert_ptr_ne(data[0]->storage, data[1]->storage);
    /* a window that does not fit its buffer: 9 floats in 32 bytes */
    const exec_comm *h = ranks_world_host_comm(w);
    tensor *t = NULL;
    char err[200];
    ck_assert_int_eq(h->window(h->ud, data_h, DTYPE_FP32, 1, (int64_t[]){9}, &t, err, sizeof err), PTODB_ERR_BOUNDS);
    ck_assert_msg(strstr(err, "does not fit window buffer data of 32 bytes"), "%s", err);
}
END_TEST

START_TEST(test_notify_add_set_and_wait)
{
    value out;
    /* rank 0: AtomicAdd 2 then 3 into rank 1's cell [1, 0]: 0 + 2 + 3 = 5 */
    for (int v = 2; v <= 3; v++) {
        value pos[4] = {tv(sig[0]), value_int(1), tup2(1, 0), value_int(v)};
        ck_assert_int_eq(run_op1kw(&ctx[0], IR_OP_PLD_SYSTEM_NOTIFY, pos, 4, EXEC_KW_OP, value_int(0), &out),
                         PTODB_OK);
        clear_all(pos, 4);
    }
    ck_assert_int_eq(tensor_get_i64(sig[1], (int64_t[]){1, 0}), 5);
    ck_assert_int_eq(tensor_get_i64(sig[0], (int64_t[]){1, 0}), 0); /* the sender's own cell untouched */
    /* rank 1 waits Eq 5 on its cell [1, 0]: satisfied; Ge 6: parks */
    value w1[3] = {tv(sig[1]), tup2(1, 0), value_int(5)};
    ck_assert_int_eq(run_op1kw(&ctx[1], IR_OP_PLD_SYSTEM_WAIT, w1, 3, EXEC_KW_CMP, value_int(0), &out), PTODB_OK);
    value_clear(&w1[2]);
    w1[2] = value_int(6);
    ck_assert_int_eq(run_op1kw(&ctx[1], IR_OP_PLD_SYSTEM_WAIT, w1, 3, EXEC_KW_CMP, value_int(1), &out),
                     PTODB_BLOCKED);
    ck_assert_int_eq(ctx[1].blocked, 1);
    strbuf sb = STRBUF_INIT;
    ck_assert(ranks_world_describe_wait(w, 1, &sb));
    /* element 1 of the [2, 1] int32 view; last notified by rank 0 at the stub's 7:9 */
    ck_assert_msg(strstr(strbuf_str(&sb), "waits on sig element 1 of rank 1: expects >= 6, holds 5; last notified "
                                          "by rank 0 at 7:9 (AtomicAdd 3)"),
                  "%s", strbuf_str(&sb));
    strbuf_free(&sb);
    /* Set 1 overwrites: 1; Eq 5 now parks */
    value pos[4] = {tv(sig[0]), value_int(1), tup2(1, 0), value_int(1)};
    ck_assert_int_eq(run_op1kw(&ctx[0], IR_OP_PLD_SYSTEM_NOTIFY, pos, 4, EXEC_KW_OP, value_int(1), &out), PTODB_OK);
    ck_assert_int_eq(tensor_get_i64(sig[1], (int64_t[]){1, 0}), 1);
    value_clear(&w1[2]);
    w1[2] = value_int(5);
    ck_assert_int_eq(run_op1kw(&ctx[1], IR_OP_PLD_SYSTEM_WAIT, w1, 3, EXEC_KW_CMP, value_int(0), &out),
                     PTODB_BLOCKED);
    /* a peer outside the domain, an offset outside the signal */
    value_clear(&pos[1]);
    pos[1] = value_int(2);
    ck_assert_int_eq(run_op1kw(&ctx[0], IR_OP_PLD_SYSTEM_NOTIFY, pos, 4, EXEC_KW_OP, value_int(0), &out),
                     PTODB_ERR_BOUNDS);
    ck_assert_msg(strstr(ctx[0].msg, "peer 2 is out of range: comm domain d0 has 2 ranks"), "%s", ctx[0].msg);
    value_clear(&pos[1]);
    pos[1] = value_int(1);
    value_clear(&pos[2]);
    pos[2] = tup2(2, 0);
    ck_assert_int_eq(run_op1kw(&ctx[0], IR_OP_PLD_SYSTEM_NOTIFY, pos, 4, EXEC_KW_OP, value_int(0), &out),
                     PTODB_ERR_BOUNDS);
    clear_all(pos, 4);
    clear_all(w1, 3);
}
END_TEST

START_TEST(test_rank_and_domain)
{
    value out, pos[1] = {tv(data[1])};
    ck_assert_int_eq(run_op(&ctx[1], IR_OP_PLD_SYSTEM_GET_COMM_CTX, pos, 1, &out), PTODB_OK);
    value c = out;
    ck_assert_int_eq(run_op(&ctx[1], IR_OP_PLD_SYSTEM_RANK, &c, 1, &out), PTODB_OK);
    ck_assert_int_eq(tensor_get_i64(out.u.t, NULL), 1);
    value_clear(&out);
    ck_assert_int_eq(run_op(&ctx[1], IR_OP_PLD_SYSTEM_NRANKS, &c, 1, &out), PTODB_OK);
    ck_assert_int_eq(tensor_get_i64(out.u.t, NULL), 2);
    value_clear(&out);
    ck_assert_int_eq(run_op(&ctx[0], IR_OP_PLD_SYSTEM_WORLD_SIZE, NULL, 0, &out), PTODB_OK);
    ck_assert_int_eq(out.u.i, 2);
    clear_all(pos, 1);
}
END_TEST

START_TEST(test_remote_load_store_put_get)
{
    double v1[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    for (int k = 0; k < 8; k++)
        tensor_set(data[1], (int64_t[]){0, k}, v1[k]);
    value out;
    /* rank 0 loads rank 1's data[0, 2:6]: 2 3 4 5 */
    value ld[4] = {tv(data[0]), value_int(1), tup2(0, 2), tup2(1, 4)};
    ck_assert_int_eq(run_op(&ctx[0], IR_OP_PLD_TILE_REMOTE_LOAD, ld, 4, &out), PTODB_OK);
    expect_vals(out.u.t, (double[]){2, 3, 4, 5}, 4);
    value tile = out;
    clear_all(ld, 4);
    /* rank 0 stores that tile, atomic add, at rank 1's [0, 4]: 4+2 5+3 6+4 7+5 */
    value st[4] = {value_copy(&tile), tv(data[0]), value_int(1), tup2(0, 4)};
    ck_assert_int_eq(run_op1kw(&ctx[0], IR_OP_PLD_TILE_REMOTE_STORE, st, 4, EXEC_KW_ATOMIC, value_int(1), &out),
                     PTODB_OK);
    expect_vals(data[1], (double[]){0, 1, 2, 3, 6, 8, 10, 12}, 8);
    clear_all(st, 4);
    value_clear(&tile);
    /* put, region form: rank 0's local src [10..17] cols 0:2 -> rank 1's [0, 1:3] */
    tensor *src = mk2(DTYPE_FP32, 1, 8, (double[]){10, 11, 12, 13, 14, 15, 16, 17});
    value pu[6] = {tv(data[0]), value_int(1), value_tensor(tensor_ref(src)), tup2(0, 1), tup2(0, 0), tup2(1, 2)};
    ck_assert_int_eq(run_op(&ctx[0], IR_OP_PLD_TENSOR_PUT, pu, 6, &out), PTODB_OK);
    expect_vals(data[1], (double[]){0, 10, 11, 3, 6, 8, 10, 12}, 8);
    clear_all(pu, 6);
    /* get, whole: rank 0's local dst <- rank 1's window */
    tensor *dst = mk2(DTYPE_FP32, 1, 8, NULL);
    value ge[3] = {value_tensor(tensor_ref(dst)), value_int(1), tv(data[0])};
    ck_assert_int_eq(run_op(&ctx[0], IR_OP_PLD_TENSOR_GET, ge, 3, &out), PTODB_OK);
    expect_vals(dst, (double[]){0, 10, 11, 3, 6, 8, 10, 12}, 8);
    clear_all(ge, 3);
    /* out of bounds of the peer's tensor */
    value bad[6] = {tv(data[0]), value_int(1), value_tensor(tensor_ref(src)), tup2(0, 7), tup2(0, 0), tup2(1, 2)};
    ck_assert_int_eq(run_op(&ctx[0], IR_OP_PLD_TENSOR_PUT, bad, 6, &out), PTODB_ERR_BOUNDS);
    clear_all(bad, 6);
    tensor_unref(src);
    tensor_unref(dst);
}
END_TEST

/* Rank 0 arrives and parks; rank 1 arrives and it applies; rank 0's re-run
 * of the statement completes without applying twice. */
static void rendezvous(int op, const value *p0, const value *p1, uint32_t n, exec_kw kw, value kwv)
{
    value out;
    ck_assert_int_eq(run_op1kw(&ctx[0], op, p0, n, kw, kwv, &out), PTODB_BLOCKED);
    ck_assert_int_eq(run_op1kw(&ctx[1], op, p1, n, kw, kwv, &out), PTODB_OK);
    value_clear(&out);
    ck_assert_int_eq(run_op1kw(&ctx[0], op, p0, n, kw, kwv, &out), PTODB_OK);
    value_clear(&out);
}

static void fill(tensor *t, const double *v)
{
    for (int64_t k = 0; k < tensor_numel(t); k++)
        tensor_set(t, (int64_t[]){0, k}, v[k]);
}

START_TEST(test_collectives)
{
    double a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {10, 20, 30, 40, 50, 60, 70, 80};
    value p0[2] = {tv(data[0]), tv(sig[0])}, p1[2] = {tv(data[1]), tv(sig[1])};
    /* allreduce Sum: a + b on both */
    fill(data[0], a);
    fill(data[1], b);
    rendezvous(IR_OP_PLD_TENSOR_ALLREDUCE, p0, p1, 2, EXEC_KW_OP, value_int(EXEC_REDUCE_SUM));
    double s[8] = {11, 22, 33, 44, 55, 66, 77, 88};
    expect_vals(data[0], s, 8);
    expect_vals(data[1], s, 8);
    /* allreduce Max of (a, b) is b; Min is a */
    fill(data[0], a);
    fill(data[1], b);
    rendezvous(IR_OP_PLD_TENSOR_ALLREDUCE, p0, p1, 2, EXEC_KW_OP, value_int(EXEC_REDUCE_MAX));
    expect_vals(data[0], b, 8);
    fill(data[0], a);
    fill(data[1], b);
    rendezvous(IR_OP_BUILTIN_TENSOR_ALLREDUCE, p0, p1, 2, EXEC_KW_OP, value_int(EXEC_REDUCE_MIN));
    expect_vals(data[1], a, 8);
    /* broadcast root 1: b on both */
    fill(data[0], a);
    fill(data[1], b);
    rendezvous(IR_OP_PLD_TENSOR_BROADCAST, p0, p1, 2, EXEC_KW_ROOT, value_int(1));
    expect_vals(data[0], b, 8);
    clear_all(p0, 2);
    clear_all(p1, 2);
    /* the [2, 4] view of the same buffer: reduce_scatter Sum: row r of rank
     * r = a's row r + b's row r; rank 0: [11 22 33 44 | 5 6 7 8], rank 1:
     * [10 20 30 40 | 55 66 77 88] (the other row keeps the rank's own) */
    tensor *d2[2];
    for (int r = 0; r < 2; r++)
        d2[r] = ranks_world_rank_window(w, data_h, r, DTYPE_FP32, 2, (int64_t[]){2, 4});
    fill(data[0], a);
    fill(data[1], b);
    value q0[2] = {tv(d2[0]), tv(sig[0])}, q1[2] = {tv(d2[1]), tv(sig[1])};
    rendezvous(IR_OP_PLD_TENSOR_REDUCE_SCATTER, q0, q1, 2, EXEC_KW_OP, value_int(EXEC_REDUCE_SUM));
    expect_vals(d2[0], (double[]){11, 22, 33, 44, 5, 6, 7, 8}, 8);
    expect_vals(d2[1], (double[]){10, 20, 30, 40, 55, 66, 77, 88}, 8);
    clear_all(q0, 2);
    clear_all(q1, 2);
    /* allgather input [1, 4]: target[r][src] = input[src] on every rank */
    tensor *in0 = mk2(DTYPE_FP32, 1, 4, (double[]){1, 2, 3, 4}), *in1 = mk2(DTYPE_FP32, 1, 4, (double[]){5, 6, 7, 8});
    value g0[3] = {value_tensor(tensor_ref(in0)), tv(d2[0]), tv(sig[0])},
          g1[3] = {value_tensor(tensor_ref(in1)), tv(d2[1]), tv(sig[1])};
    rendezvous(IR_OP_PLD_TENSOR_ALLGATHER, g0, g1, 3, EXEC_KW_OP, value_int(0));
    expect_vals(d2[0], (double[]){1, 2, 3, 4, 5, 6, 7, 8}, 8);
    expect_vals(d2[1], (double[]){1, 2, 3, 4, 5, 6, 7, 8}, 8);
    clear_all(g0, 3);
    clear_all(g1, 3);
    tensor_unref(in0);
    tensor_unref(in1);
    /* all_to_all input [2, 4]: target[r][src] = input[src][r]:
     * rank 0 gets [A0 | B0], rank 1 gets [A1 | B1] */
    tensor *x0 = mk2(DTYPE_FP32, 2, 4, a), *x1 = mk2(DTYPE_FP32, 2, 4, b);
    value t0[3] = {value_tensor(tensor_ref(x0)), tv(d2[0]), tv(sig[0])},
          t1[3] = {value_tensor(tensor_ref(x1)), tv(d2[1]), tv(sig[1])};
    rendezvous(IR_OP_PLD_TENSOR_ALL_TO_ALL, t0, t1, 3, EXEC_KW_OP, value_int(0));
    expect_vals(d2[0], (double[]){1, 2, 3, 4, 10, 20, 30, 40}, 8);
    expect_vals(d2[1], (double[]){5, 6, 7, 8, 50, 60, 70, 80}, 8);
    clear_all(t0, 3);
    clear_all(t1, 3);
    tensor_unref(x0);
    tensor_unref(x1);
    /* barrier: parks until both are there, changes nothing */
    value b0[1] = {tv(sig[0])}, b1[1] = {tv(sig[1])};
    rendezvous(IR_OP_PLD_TENSOR_BARRIER, b0, b1, 1, EXEC_KW_OP, value_int(0));
    expect_vals(d2[1], (double[]){5, 6, 7, 8, 50, 60, 70, 80}, 8);
    clear_all(b0, 1);
    clear_all(b1, 1);
    /* mismatched: rank 0 allreduces [1, 8], rank 1 the [2, 4] view */
    value m0[2] = {tv(data[0]), tv(sig[0])}, m1[2] = {tv(d2[1]), tv(sig[1])};
    value out;
    ck_assert_int_eq(run_op(&ctx[0], IR_OP_PLD_TENSOR_ALLREDUCE, m0, 2, &out), PTODB_BLOCKED);
    ck_assert_int_eq(run_op(&ctx[1], IR_OP_PLD_TENSOR_ALLREDUCE, m1, 2, &out), PTODB_ERR_RUNTIME);
    ck_assert_msg(strstr(ctx[1].msg, "mismatched collective #9 in comm domain d0 (target shape or dtype differs)"),
                  "%s", ctx[1].msg);
    clear_all(m0, 2);
    clear_all(m1, 2);
    for (int r = 0; r < 2; r++)
        tensor_unref(d2[r]);
}
END_TEST

/* all_to_all_v (PyPTO lower_composite_ops_pass.cpp:1986-2034): NR = 2,
 * target [4, 2] so MAX_RECV = 2; each member's input holds its block for
 * dest 0 in rows 0-1 and for dest 1 in rows 2-3; every block crosses whole,
 * and dest's recv_counts[src, 0] = min(send_counts_src[dest], 2).
 *   rank 0: input 1..8,   send_counts [2, 1]
 *   rank 1: input 10..80, send_counts [3, 0]
 * rank 0's target: src 0's rows 0-1 (1 2 3 4), src 1's rows 0-1 (10 20 30 40);
 *   recv_counts [min(2, 2), min(3, 2)] = [2, 2]
 * rank 1's target: src 0's rows 2-3 (5 6 7 8), src 1's rows 2-3 (50 60 70 80);
 *   recv_counts [min(1, 2), min(0, 2)] = [1, 0] */
START_TEST(test_all_to_all_v)
{
    tensor *t[2];
    for (int r = 0; r < 2; r++)
        t[r] = ranks_world_rank_window(w, data_h, r, DTYPE_FP32, 2, (int64_t[]){4, 2});
    double a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {10, 20, 30, 40, 50, 60, 70, 80};
    tensor *x0 = mk2(DTYPE_FP32, 4, 2, a), *x1 = mk2(DTYPE_FP32, 4, 2, b);
    tensor *c0 = mk2(DTYPE_INT32, 2, 1, (double[]){2, 1}), *c1 = mk2(DTYPE_INT32, 2, 1, (double[]){3, 0});
    value p0[5] = {value_tensor(tensor_ref(x0)), tv(t[0]), tv(sig[0]), value_tensor(tensor_ref(c0)), tv(cnt[0])},
          p1[5] = {value_tensor(tensor_ref(x1)), tv(t[1]), tv(sig[1]), value_tensor(tensor_ref(c1)), tv(cnt[1])};
    rendezvous(IR_OP_PLD_TENSOR_ALL_TO_ALL_V, p0, p1, 5, EXEC_KW_OP, value_int(0));
    expect_vals(data[0], (double[]){1, 2, 3, 4, 10, 20, 30, 40}, 8);
    expect_vals(data[1], (double[]){5, 6, 7, 8, 50, 60, 70, 80}, 8);
    ck_assert_int_eq(tensor_get_i64(cnt[0], (int64_t[]){0, 0}), 2);
    ck_assert_int_eq(tensor_get_i64(cnt[0], (int64_t[]){1, 0}), 2);
    ck_assert_int_eq(tensor_get_i64(cnt[1], (int64_t[]){0, 0}), 1);
    ck_assert_int_eq(tensor_get_i64(cnt[1], (int64_t[]){1, 0}), 0);
    /* the builtin form is the same collective */
    rendezvous(IR_OP_BUILTIN_TENSOR_ALL_TO_ALL_V, p0, p1, 5, EXEC_KW_OP, value_int(0));
    expect_vals(data[1], (double[]){5, 6, 7, 8, 50, 60, 70, 80}, 8);
    clear_all(p0, 5);
    clear_all(p1, 5);
    /* a target whose rows do not split over the ranks ([1, 8]: 1 row for 2) */
    value q0[5] = {tv(data[0]), tv(data[0]), tv(sig[0]), value_tensor(tensor_ref(c0)), tv(cnt[0])},
          q1[5] = {tv(data[1]), tv(data[1]), tv(sig[1]), value_tensor(tensor_ref(c1)), tv(cnt[1])};
    value out;
    ck_assert_int_eq(run_op(&ctx[0], IR_OP_PLD_TENSOR_ALL_TO_ALL_V, q0, 5, &out), PTODB_BLOCKED);
    ck_assert_int_eq(run_op(&ctx[1], IR_OP_PLD_TENSOR_ALL_TO_ALL_V, q1, 5, &out), PTODB_ERR_SHAPE);
    ck_assert_msg(strstr(ctx[1].msg, "needs a 2-D target [NR*MAX_RECV, SIZE] (NR = 2)"), "%s", ctx[1].msg);
    clear_all(q0, 5);
    clear_all(q1, 5);
    /* 4 positional arguments: a usage error */
    value r4[4] = {tv(data[0]), tv(data[0]), tv(sig[0]), tv(cnt[0])};
    ck_assert_int_eq(run_op(&ctx[0], IR_OP_PLD_TENSOR_ALL_TO_ALL_V, r4, 4, &out), PTODB_ERR_USAGE);
    clear_all(r4, 4);
    tensor_unref(x0);
    tensor_unref(x1);
    tensor_unref(c0);
    tensor_unref(c1);
    for (int r = 0; r < 2; r++)
        tensor_unref(t[r]);
}
END_TEST

START_TEST(test_host_windows_and_more_forms)
{
    /* the host allocates and views windows through the ops */
    exec_ctx h;
    ctx_init(&h, EXEC_PROFILE_T2);
    h.comm = ranks_world_host_comm(w);
    value out, sz = value_int(4);
    /* ranks.txt lists 2 buffers: a third is an error naming the file */
    ck_assert_int_eq(run_op(&h, IR_OP_PLD_TENSOR_ALLOC_WINDOW_BUFFER, &sz, 1, &out), PTODB_ERR_RUNTIME);
    ck_assert_msg(strstr(h.msg, "window buffer #4: ranks.txt lists only 3 window buffers"), "%s", h.msg);
    value wp[2] = {value_int(data_h), tup2(2, 4)};
    ck_assert_int_eq(run_op1kw(&h, IR_OP_PLD_TENSOR_WINDOW, wp, 2, EXEC_KW_DTYPE, value_enum(IR_EV_DTYPE_FP32), &out),
                     PTODB_OK);
    ck_assert_int_eq(out.u.t->ndim, 2);
    ck_assert_int_eq(out.u.t->shape[1], 4);
    value_clear(&out);
    clear_all(wp, 2);
    /* defer_wait compares unsigned (distributed_ops.md:603-642): a cell of
     * -1 is 0xffffffff >= 5 */
    tensor_set_i64(sig[0], (int64_t[]){0, 0}, -1);
    value dw[3] = {tv(sig[0]), tup2(0, 0), value_int(5)};
    ck_assert_int_eq(run_op(&ctx[0], IR_OP_PLD_SYSTEM_DEFER_WAIT, dw, 3, &out), PTODB_OK);
    /* while wait Ge compares signed: -1 < 5 parks */
    ck_assert_int_eq(run_op1kw(&ctx[0], IR_OP_PLD_SYSTEM_WAIT, dw, 3, EXEC_KW_CMP, value_int(1), &out), PTODB_BLOCKED);
    /* an unsatisfied defer_wait (2 < 5) does not park: it registers the
     * condition on the rank's running task, and here, where no task runs,
     * the world says so (tests/cli/multirank_defer.sh runs tasks) */
    tensor_set_i64(sig[0], (int64_t[]){0, 0}, 2);
    ck_assert_int_eq(run_op(&ctx[0], IR_OP_PLD_SYSTEM_DEFER_WAIT, dw, 3, &out), PTODB_ERR_RUNTIME);
    ck_assert_msg(strstr(ctx[0].msg, "pld.system.defer_wait outside a task of this rank"), "%s", ctx[0].msg);
    tensor_set_i64(sig[0], (int64_t[]){0, 0}, 0);
    clear_all(dw, 3);
    /* tensor.remote_store (src, target, peer, offsets): rank 1 writes 9 9 at rank 0's [0, 6] */
    tensor *src = mk2(DTYPE_FP32, 1, 2, (double[]){9, 9});
    value rs[4] = {value_tensor(tensor_ref(src)), tv(data[1]), value_int(0), tup2(0, 6)};
    ck_assert_int_eq(run_op(&ctx[1], IR_OP_PLD_TENSOR_REMOTE_STORE, rs, 4, &out), PTODB_OK);
    expect_vals(data[0], (double[]){0, 0, 0, 0, 0, 0, 9, 9}, 8);
    clear_all(rs, 4);
    /* tile.put with its staging tile and the region form after it:
     * (dst, peer, src, stage, dst_off, src_off, shape): rank 1's [0, 0:2] = 9 9 */
    tensor *stage = mk2(DTYPE_FP32, 1, 2, NULL);
    value tp[7] = {tv(data[0]), value_int(1), value_tensor(tensor_ref(src)), value_tensor(tensor_ref(stage)),
                   tup2(0, 0), tup2(0, 0), tup2(1, 2)};
    ck_assert_int_eq(run_op(&ctx[0], IR_OP_PLD_TILE_PUT, tp, 7, &out), PTODB_OK);
    expect_vals(data[1], (double[]){9, 9, 0, 0, 0, 0, 0, 0}, 8);
    clear_all(tp, 7);
    /* tile.get (dst, peer, src, stage): rank 0's local [1, 8] <- rank 1's window */
    tensor *dst = mk2(DTYPE_FP32, 1, 8, NULL);
    value tg[4] = {value_tensor(tensor_ref(dst)), value_int(1), tv(data[0]), value_tensor(tensor_ref(stage))};
    ck_assert_int_eq(run_op(&ctx[0], IR_OP_PLD_TILE_GET, tg, 4, &out), PTODB_OK);
    expect_vals(dst, (double[]){9, 9, 0, 0, 0, 0, 0, 0}, 8);
    clear_all(tg, 4);
    tensor_unref(src);
    tensor_unref(stage);
    tensor_unref(dst);
    /* the host builtins, in a rank, rendezvous like the composites */
    double a[8] = {1, 2, 3, 4, 5, 6, 7, 8}, b[8] = {10, 20, 30, 40, 50, 60, 70, 80};
    fill(data[0], a);
    fill(data[1], b);
    value p0[2] = {tv(data[0]), tv(sig[0])}, p1[2] = {tv(data[1]), tv(sig[1])};
    rendezvous(IR_OP_BUILTIN_TENSOR_ALLREDUCE_RING, p0, p1, 2, EXEC_KW_OP, value_int(EXEC_REDUCE_PROD));
    expect_vals(data[0], (double[]){10, 40, 90, 160, 250, 360, 490, 640}, 8);
    rendezvous(IR_OP_BUILTIN_TENSOR_BROADCAST, p0, p1, 2, EXEC_KW_ROOT, value_int(0));
    expect_vals(data[1], (double[]){10, 40, 90, 160, 250, 360, 490, 640}, 8);
    clear_all(p0, 2);
    clear_all(p1, 2);
    value b0[1] = {tv(sig[0])}, b1[1] = {tv(sig[1])};
    rendezvous(IR_OP_BUILTIN_TENSOR_BARRIER, b0, b1, 1, EXEC_KW_OP, value_int(0));
    clear_all(b0, 1);
    clear_all(b1, 1);
    tensor *d2[2];
    for (int r = 0; r < 2; r++)
        d2[r] = ranks_world_rank_window(w, data_h, r, DTYPE_FP32, 2, (int64_t[]){2, 4});
    fill(data[0], a);
    fill(data[1], b);
    value q0[2] = {tv(d2[0]), tv(sig[0])}, q1[2] = {tv(d2[1]), tv(sig[1])};
    rendezvous(IR_OP_BUILTIN_TENSOR_REDUCE_SCATTER, q0, q1, 2, EXEC_KW_OP, value_int(EXEC_REDUCE_MAX));
    expect_vals(d2[0], (double[]){10, 20, 30, 40, 5, 6, 7, 8}, 8);
    clear_all(q0, 2);
    clear_all(q1, 2);
    tensor *in0 = mk2(DTYPE_FP32, 1, 4, (double[]){1, 2, 3, 4}), *in1 = mk2(DTYPE_FP32, 1, 4, (double[]){5, 6, 7, 8});
    value g0[3] = {value_tensor(tensor_ref(in0)), tv(d2[0]), tv(sig[0])},
          g1[3] = {value_tensor(tensor_ref(in1)), tv(d2[1]), tv(sig[1])};
    rendezvous(IR_OP_BUILTIN_TENSOR_ALLGATHER, g0, g1, 3, EXEC_KW_OP, value_int(0));
    expect_vals(d2[1], (double[]){1, 2, 3, 4, 5, 6, 7, 8}, 8);
    clear_all(g0, 3);
    clear_all(g1, 3);
    tensor_unref(in0);
    tensor_unref(in1);
    tensor *x0 = mk2(DTYPE_FP32, 2, 4, a), *x1 = mk2(DTYPE_FP32, 2, 4, b);
    value t0[3] = {value_tensor(tensor_ref(x0)), tv(d2[0]), tv(sig[0])},
          t1[3] = {value_tensor(tensor_ref(x1)), tv(d2[1]), tv(sig[1])};
    rendezvous(IR_OP_BUILTIN_TENSOR_ALL_TO_ALL, t0, t1, 3, EXEC_KW_OP, value_int(0));
    expect_vals(d2[1], (double[]){5, 6, 7, 8, 50, 60, 70, 80}, 8);
    clear_all(t0, 3);
    clear_all(t1, 3);
    tensor_unref(x0);
    tensor_unref(x1);
    for (int r = 0; r < 2; r++)
        tensor_unref(d2[r]);
}
END_TEST

START_TEST(test_no_world)
{
    exec_ctx c;
    ctx_init(&c, EXEC_PROFILE_T2);
    value out;
    ck_assert_int_eq(run_op(&c, IR_OP_PLD_SYSTEM_WORLD_SIZE, NULL, 0, &out), PTODB_ERR_UNSUPPORTED);
    ck_assert_msg(strstr(c.msg, "needs several ranks: run the case with its ranks.txt"), "%s", c.msg);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ops_comm");
    TCase *tc = tcase_create("comm");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_windows_start_zeroed_and_apart);
    tcase_add_test(tc, test_notify_add_set_and_wait);
    tcase_add_test(tc, test_rank_and_domain);
    tcase_add_test(tc, test_remote_load_store_put_get);
    tcase_add_test(tc, test_collectives);
    tcase_add_test(tc, test_all_to_all_v);
    tcase_add_test(tc, test_host_windows_and_more_forms);
    tcase_add_test(tc, test_no_world);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

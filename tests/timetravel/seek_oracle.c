/* The oracle of reverse execution (tests/cli/timetravel_fixtures.sh,
 * timetravel_examples.sh, multirank_timetravel.sh): for every pass of a
 * case with cross-core queues (every pass with --all 1), a straight run
 * logs every moment: the move that made it (core, event) and each core's
 * frames, line, state and whether it arrived at a statement then (as
 * run_note_arrivals counts arrivals). From the log alone the oracle
 * computes, for a moment N and a core C standing there (a "subject": each
 * core that arrived at N, or whose run ended there):
 *   - where `reverse-step` and `reverse-next` with C selected must land
 *     and on which core (docs/time-travel.md, "Going backward": the
 *     earliest moment from which the forward command comes back to C's
 *     current statement; a kernel's first statement goes back to the
 *     caller's call line; a try that blocked on a queue is the same
 *     statement; a core blocked or waiting for its group call there goes
 *     back to the moment before it moved on);
 *   - where `step` and `next` from that landing stop, as run_go decides
 *     (a core that waits makes `step` follow the core that runs);
 *   - where `reverse-finish` lands (the latest moment the frame had not
 *     begun), and where `reverse-continue` with a breakpoint at C's line
 *     lands and `continue` from there stops.
 * A debugger session on the same pass must then give, at every moment N
 * chosen, the straight run's step and state hash (machine_state_hash:
 * cores, frames, slots, queues, every tensor's bytes) and the expected
 * selected core:
 *   1. `seek @N`, the moments visited in random order (checkpoint restores
 *      and replays, backward and forward);
 *   2. `seek POSITION` with each subject's position printed at N: the same
 *      step (a position names one moment: "+D" after the arrival);
 *   3. `reverse-step` then `step`, `reverse-next` then `next`,
 *      `reverse-finish`, `reverse-continue` then `continue`, from N with
 *      the subject selected (`core C`; a finished core's last frame).
 * The moments: every boundary (the pass's first two and its last, a call,
 * a return, a core's end, a try that blocked, a move that started or
 * resumed another core, a change of a core's state, and every moment whose
 * expected landing needs a hand-over, a blocked try, a wait or the
 * history's start), plus N others drawn at random (--positions N; every
 * moment with --positions all). A boundary of a kind met before in the
 * pass (the same move, arrivals, states and landings) gets seek @N (with
 * the state hash), seek POSITION, reverse-step + step and reverse-next +
 * next checked by step and core; the first of each kind and the moments
 * drawn at random get every check and the hash at every landing. Options:
 *   --boundaries kinds   only the first moment of each kind of boundary;
 *   --twins N|all        a pass whose moments go exactly as an earlier
 *                        pass's (the same moves, arrivals, frames and
 *                        states): each kind of boundary and N others
 *                        (20), or as any other pass (all);
 *   --hash seeks         the state hash only after the seeks;
 *   --checks core        seek, seek POSITION, reverse-step + step and
 *                        reverse-next + next only;
 *   --gap G              the session's checkpoint-interval;
 *   --all 1              every pass, queues or not;
 *   --seek-window W      check 1's random order within each run of W
 *                        moments in turn (every moment of a pass of 100,000:
 *                        the seeks stay among nearby checkpoints);
 *   --hash-by pages      a large tensor's bytes hashed again only where
 *                        its pages were written since (page_hash.h): the
 *                        same hashes, for a case of tens of MiB at every
 *                        moment.
 * A multi-rank case is logged by a second debugger session that only goes
 * forward (seek @1, @2, ...: the global schedule's moves) and checked the
 * same way per rank, reverse-continue aside (multirank_timetravel.sh
 * checks it).
 *   seek_oracle CASE [--positions N|all] [--boundaries all|kinds] [--twins N|all] [--hash all|seeks]
 *               [--checks all|core] [--gap G] [--seed S] [--pass INDEX] [--all 1] [--seek-window W] [--hash-by bytes|pages]
 * Prints the counts; exit 0 when nothing differs, 1 otherwise. With
 * SEEK_ORACLE_VERBOSE=1 it also says where a forward command did not come
 * back and counts the boundaries by why; SEEK_ORACLE_STATS=1 only prints
 * each pass's moments, subjects, boundaries and shape. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/mem.h"
#include "base/strbuf.h"
#include "data/case.h"
#include "debug/state/session.h"
#include "debug/state/session_impl.h"
#include "debug/run/timetravel.h"
#include "exec/inspect.h"
#include "exec/runpass.h"
#include "exec/snapshot.h"
#include "ranks/sched.h"
#include "page_hash.h"

static void quiet(void *ctx, session_stream stream, const char *text, size_t len)
{
    (void)ctx;
    (void)stream;
    (void)text;
    (void)len;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static size_t seek_window = SIZE_MAX; /* --seek-window: the random order's span */
static size_t selfcheck_bad; /* runs whose state hash's kept sums disagreed with a scan */
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

enum { NC = EXEC_NCORES, KIND_STARTED = RUN_KIND_STARTED };

/* ---- the log of a straight run ------------------------------------------------------------ */

typedef struct mov {
    int8_t rank, core; /* the move that made the moment (-1: the first moment) */
    uint8_t kind;      /* exec_event_kind, or KIND_STARTED */
} mov;

typedef struct rst {   /* one rank's cores at one moment */
    uint8_t arrived, waits, ready;
    uint8_t inblock;   /* the core's frame runs a block of an SPMD launch */
    int16_t depth[NC];
    int32_t line[NC];
} rst;

typedef struct tlog {
    uint64_t T;        /* the last moment */
    int nranks, multi;
    mov *mv;           /* T + 1 */
    rst *rs;           /* (T + 1) * nranks */
    size_t cap;
    /* the arrival tracker (run_note_arrivals' rule), per rank */
    int (*nd)[NC];
    uint32_t (*na)[NC];
    uint64_t (*ns)[NC];
} tlog;

static rst *R(const tlog *L, uint64_t t, int k) { return &L->rs[t * (uint64_t)L->nranks + (uint64_t)k]; }

static void log_grow(tlog *L, uint64_t t)
{
    if (t < L->cap)
        return;
    size_t cap = L->cap ? 2 * L->cap : 4096;
    while (cap <= t)
        cap *= 2;
    L->mv = xreallocarray(L->mv, cap, sizeof *L->mv);
    L->rs = xreallocarray(L->rs, cap * (size_t)L->nranks, sizeof *L->rs);
    L->cap = cap;
}

/* Rank k's cores at moment t on machine m; stepped: the core that moved on
 * this rank (-1 none, -2 the rank did not move: nothing of it is counted). */
static void log_rank(tlog *L, uint64_t t, int k, machine *m, int stepped)
{
    rst *x = R(L, t, k);
    memset(x, 0, sizeof *x);
    for (int c = 0; c < NC; c++) {
        inspect_frame g;
        int has = inspect_frame_get(m, c, 0, &g);
        int depth = inspect_depth(m, c);
        inspect_core_state st = inspect_core(m, c);
        x->depth[c] = (int16_t)depth;
        x->line[c] = has ? g.line : 0;
        if (st == INSPECT_CORE_READY)
            x->ready |= (uint8_t)(1u << c);
        if (depth > 0 && (st == INSPECT_CORE_BLOCKED || st == INSPECT_CORE_WAITING))
            x->waits |= (uint8_t)(1u << c);
        if (has && g.block_num > 1)
            x->inblock |= (uint8_t)(1u << c);
        if (stepped == -2)
            continue;
        if (!has) {
            L->nd[k][c] = 0;
            continue;
        }
        if (c == stepped || depth != L->nd[k][c] || g.activation != L->na[k][c] || g.local_steps != L->ns[k][c])
            x->arrived |= (uint8_t)(1u << c);
        L->nd[k][c] = depth;
        L->na[k][c] = g.activation;
        L->ns[k][c] = g.local_steps;
    }
}

static void log_init(tlog *L, int nranks, int multi)
{
    memset(L, 0, sizeof *L);
    L->nranks = nranks;
    L->multi = multi;
    L->nd = xcalloc((size_t)nranks, sizeof *L->nd);
    L->na = xcalloc((size_t)nranks, sizeof *L->na);
    L->ns = xcalloc((size_t)nranks, sizeof *L->ns);
}

static void log_free(tlog *L)
{
    free(L->mv);
    free(L->rs);
    free(L->nd);
    free(L->na);
    free(L->ns);
}

/* A single-rank pass on a machine of its own: the log (hashes NULL), or the
 * hashes at the moments marked in want (the second run). 1 when it ran to
 * its end (or its error: the moments before it). */
static int straight(const case_info *c, const char *path, const op_fn *ops, tlog *L, const uint8_t *want,
                    uint64_t *hash)
{
    runpass_options ro;
    memset(&ro, 0, sizeof ro);
    machine_options_init(&ro.mopt);
    ro.mopt.provenance = 1; /* as the debugger's run (run.c) */
    ro.ops = ops;
    runpass_run rp;
    runpass_open(&rp, path, NULL, c, &ro, NULL, NULL, RUNPASS_OPEN_DESPITE_REF);
    if (!rp.m || rp.start != PTODB_OK) {
        runpass_close(&rp);
        return 0;
    }
    uint64_t t = 0;
    if (!want) {
        log_grow(L, 0);
        L->mv[0] = (mov){-1, -1, EXEC_EV_NONE};
        log_rank(L, 0, 0, rp.m, -1);
    }
    for (;;) {
        if (want && want[t])
            hash[t] = machine_state_hash(rp.m);
        if (machine_finished(rp.m))
            break;
        exec_event ev;
        ptodb_status st = machine_step(rp.m, &ev);
        if (st != PTODB_OK || ev.kind == EXEC_EV_ERROR || ev.kind == EXEC_EV_DONE)
            break;
        t++;
        if (!want) {
            log_grow(L, t);
            L->mv[t] = (mov){0, (int8_t)ev.core, (uint8_t)ev.kind};
            log_rank(L, t, 0, rp.m, ev.core);
        }
    }
    if (!want)
        L->T = t;
    if (want && !machine_state_hash_selfcheck(rp.m))
        selfcheck_bad++;
    runpass_close(&rp);
    return 1;
}

/* A multi-rank pass: a debugger session that only goes forward, one move
 * at a time; the hashes at every moment. */
static int straight_ranks(session *f, int pass_index, tlog *L, uint64_t **hash)
{
    char cmd[64];
    snprintf(cmd, sizeof cmd, "start %d", pass_index);
    session_execute(f, "kill");
    if (session_execute(f, cmd) != PTODB_OK)
        return 0;
    session_execute(f, "seek @0");
    run_state *r = &f->run;
    if (!r->ranks)
        return 0;
    size_t caph = 4096;
    *hash = xmalloc(caph * sizeof **hash);
    uint64_t t = 0;
    log_grow(L, 0);
    L->mv[0] = (mov){-1, -1, EXEC_EV_NONE};
    for (int k = 0; k < L->nranks; k++)
        log_rank(L, 0, k, ranks_sched_machine(r->ranks, k), -2);
    (*hash)[0] = tt_state_hash(f);
    for (;;) {
        snprintf(cmd, sizeof cmd, "seek @%" PRIu64, t + 1);
        session_execute(f, cmd);
        if (tt_now(f) != t + 1)
            break;
        t++;
        log_grow(L, t);
        if (t >= caph) {
            caph *= 2;
            *hash = xreallocarray(*hash, caph, sizeof **hash);
        }
        int k = r->rank_last_mover, core = r->rank_last_core;
        L->mv[t] = (mov){(int8_t)k, (int8_t)core, (uint8_t)r->last_kind};
        for (int q = 0; q < L->nranks; q++)
            log_rank(L, t, q, ranks_sched_machine(r->ranks, q),
                     q != k ? -2 : r->last_kind == KIND_STARTED ? -1 : core);
        (*hash)[t] = tt_state_hash(f);
    }
    L->T = t;
    session_execute(f, "kill");
    return t > 0;
}

/* ---- what the commands must do, from the log -------------------------------------------- */

/* The core that made moment t, seen from rank k: -1 none, -2 another rank's. */
static int mover(const tlog *L, uint64_t t, int k)
{
    if (L->mv[t].rank < 0)
        return -1;
    return L->mv[t].rank == k ? L->mv[t].core : -2;
}

static int depth(const tlog *L, uint64_t t, int k, int c) { return R(L, t, k)->depth[c]; }

/* A moment core c stops at: its arrival, the end of its run, the first moment. */
static int is_stop(const tlog *L, uint64_t t, int k, int c)
{
    return t == 0 || ((R(L, t, k)->arrived >> c) & 1u) ||
           (mover(L, t, k) == c && L->mv[t].kind == EXEC_EV_FINISHED && depth(L, t, k, c) == 0);
}

typedef struct land {
    uint64_t t;
    int core, nomore;
} land;

/* A landing shows the host when its core has no frame (report_here). */
static land shown(const tlog *L, int k, land x)
{
    if (x.core != EXEC_CORE_HOST && depth(L, x.t, k, x.core) == 0)
        x.core = EXEC_CORE_HOST;
    return x;
}

/* reverse-step (next 0) and reverse-next (next 1) from N with core C of rank k. */
static land prev_stop(const tlog *L, int k, int C, uint64_t N, int next)
{
    int d = depth(L, N, k, C) > 0 ? depth(L, N, k, C) : 1;
    uint64_t X = N;
    for (;;) {
        uint64_t a = X;
        while (!is_stop(L, a, k, C))
            a--;
        if (a == 0)
            return (land){0, C, 1};
        int e = mover(L, a, k), kind = L->mv[a].kind;
        uint64_t m = a - 1;
        if (e == C && kind == EXEC_EV_BLOCKED) { /* a try that blocked: the same statement */
            X = m;
            continue;
        }
        if (e != C && depth(L, m, k, C) == 0) { /* its run began there: the caller's stop */
            if (e < 0)
                return (land){a, C, 1};
            C = e;
            d = depth(L, a, k, e) > 0 ? depth(L, a, k, e) : 1;
        }
        uint64_t p = m;
        while (!(is_stop(L, p, k, C) && (!next || depth(L, p, k, C) <= d)) && p > 0)
            p--;
        int nomore = p == 0 && !(((R(L, 0, k)->arrived >> C) & 1u) && (!next || depth(L, 0, k, C) <= d));
        if (!next && p > 0 && ((R(L, p, k)->waits >> C) & 1u))
            p = m;
        return shown(L, k, (land){p, C, nomore});
    }
}

static int fin_kind(int kind, int multi)
{
    return kind == EXEC_EV_STMT || kind == EXEC_EV_CALL || kind == EXEC_EV_RETURN || kind == EXEC_EV_FINISHED ||
           (multi && kind == KIND_STARTED);
}

/* step (next 0) and next (next 1) from P with core C of rank k, as run_go
 * and run_ranks_go decide (the history followed, no breakpoints). */
static land fwd(const tlog *L, int k, int C, uint64_t P, int next)
{
    int target = C, d0 = depth(L, P, k, C), multi = L->multi;
    uint64_t u = P;
    while (u < L->T) {
        const rst *x = R(L, u, k);
        int ready = ((x->ready >> target) & 1u) && (!multi || x->depth[target] > 0);
        u++;
        int e = mover(L, u, k), kind = L->mv[u].kind;
        if (e == -2)
            continue; /* another rank moved */
        int fin = fin_kind(kind, multi), hit;
        if (!next) {
            if (!ready && e != target && (fin || !multi)) {
                target = e;
                hit = fin;
            } else {
                hit = e == target && fin;
            }
        } else if (multi && d0 <= 0) {
            hit = fin;
            if (hit)
                target = e;
        } else {
            hit = (e == target && fin && depth(L, u, k, target) <= d0) || (e == target && kind == EXEC_EV_FINISHED);
        }
        if (hit)
            break;
    }
    return shown(L, k, (land){u, target, 0});
}

/* reverse-finish from N with core C (level 0): the latest moment the frame
 * had not begun; `ok` 0 when finish is not meaningful there. */
static land prev_finish(const tlog *L, int k, int C, uint64_t N, int *ok)
{
    int d0 = depth(L, N, k, C);
    *ok = d0 > 0 && !(C == EXEC_CORE_HOST && d0 <= 1);
    uint64_t p = N;
    while (p > 0) {
        p--;
        if (depth(L, p, k, C) < d0)
            return shown(L, k, (land){p, C, 0});
    }
    return shown(L, k, (land){0, C, 1});
}

/* Whether a line breakpoint at `line` stops a forward run at moment t
 * (stop.c location_hits_stage: a core that moved or entered a frame, or an
 * SPMD block's core that arrived by another core's move (a block resumed
 * after a syncall, a host resumed by its group call's end), ready there, at
 * that line; the pass's first moment as run_begin). */
static int bp_hits(const tlog *L, uint64_t t, int line)
{
    const rst *x = R(L, t, 0);
    for (int c = 0; c < NC; c++) {
        int moved = t == 0 ? c == EXEC_CORE_HOST
                           : c == L->mv[t].core || x->depth[c] > R(L, t - 1, 0)->depth[c] ||
                                 ((x->arrived >> c) & (x->inblock >> c) & 1u);
        if (moved && ((x->ready >> c) & 1u) && x->depth[c] > 0 && x->line[c] == line)
            return c + 1;
    }
    return 0;
}

/* ---- the moments checked ---------------------------------------------------------------------- */

typedef struct subj {
    uint64_t N;
    int rank, core;
    int full; /* the first moment of its kind of boundary, or drawn at random: every check */
} subj;

/* The subjects at N: each core that arrived there, or whose run ended. */
static int subjects(const tlog *L, uint64_t N, int k, int *out)
{
    int n = 0;
    for (int c = 0; c < NC; c++)
        if (((R(L, N, k)->arrived >> c) & 1u) ||
            (mover(L, N, k) == c && L->mv[N].kind == EXEC_EV_FINISHED && depth(L, N, k, c) == 0))
            out[n++] = c;
    return n;
}

static size_t why_count[8];
static int boundary_why(const tlog *L, uint64_t N)
{
    if (N <= 1 || N == L->T)
        return 1;
    int kind = L->mv[N].kind;
    if (kind == EXEC_EV_CALL || kind == EXEC_EV_RETURN || kind == EXEC_EV_FINISHED || kind == KIND_STARTED)
        return 2;
    if (kind == EXEC_EV_BLOCKED)
        return 3;
    if (L->mv[N + 1].rank != L->mv[N].rank || L->mv[N + 1].core != L->mv[N].core)
        return 4; /* the next move is another core's: a lane switch */
    int k = L->mv[N].rank;
    const rst *x = R(L, N, k), *w = R(L, N - 1, k);
    if (x->arrived & ~(1u << L->mv[N].core))
        return 5; /* another core arrived too: a group call's start or end */
    if (x->waits != w->waits || x->ready != w->ready)
        return 6;
    /* a landing that hands over, skips a blocked try or a wait */
    int cs[NC], n = subjects(L, N, k, cs);
    for (int i = 0; i < n; i++)
        for (int next = 0; next < 2; next++) {
            land p = prev_stop(L, k, cs[i], N, next);
            if (p.core != cs[i] || p.nomore || ((R(L, p.t, k)->waits >> p.core) & 1u))
                return 7;
        }
    return 0;
}

static int boundary(const tlog *L, uint64_t N)
{
    int w = boundary_why(L, N);
    why_count[w]++;
    return w != 0;
}

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 1099511628211ull; }

/* A boundary's kind: the move (core, event, line), who arrived, who waits
 * or can run before and after, and how each subject's landings go (the
 * core, a wait, the history's start, how far back in stops). */
static uint64_t boundary_kind(const tlog *L, uint64_t N)
{
    int k = N ? L->mv[N].rank : 0;
    const rst *x = R(L, N, k), *w = R(L, N ? N - 1 : 0, k);
    uint64_t h = mix(1469598103934665603ull, (uint64_t)(uint8_t)L->mv[N].core);
    h = mix(h, L->mv[N].kind);
    h = mix(h, N && L->mv[N].core >= 0 ? (uint64_t)x->line[L->mv[N].core] : 0);
    h = mix(h, (uint64_t)x->arrived | (uint64_t)x->waits << 8 | (uint64_t)x->ready << 16 | (uint64_t)w->waits << 24 |
                   (uint64_t)w->ready << 32 | (uint64_t)(N == 0 || N == L->T) << 40);
    int cs[NC], n = subjects(L, N, k, cs);
    for (int i = 0; i < n; i++)
        for (int next = 0; next < 2; next++) {
            land p = prev_stop(L, k, cs[i], N, next);
            h = mix(h, (uint64_t)cs[i] | (uint64_t)p.core << 4 | (uint64_t)p.nomore << 8 |
                           (uint64_t)((R(L, p.t, k)->waits >> p.core) & 1u) << 9 |
                           (uint64_t)(p.t + 1 == N) << 10 | (uint64_t)(mover(L, p.t, k) == p.core) << 11);
        }
    return h;
}

/* ---- the session's side ------------------------------------------------------------------------ */

typedef struct counts {
    size_t passes, twins, shape_twins, moments, subjects, boundaries;
    size_t bad_seek, bad_pos, pos_checked, pos_after, bad_back, start_rc, start_rc_bad;
    size_t rs, rs_bad, rs_trip, rn, rn_bad, rn_trip, rf, rf_bad, rc, rc_bad, rc_trip;
} counts;

static const char *core_cmd(int c)
{
    static const char *n[NC] = {"host", "aic", "aiv0", "aiv1"};
    return n[c];
}

/* Selects rank k's core c at the current moment: 0, -1 when it cannot be. */
static int select_subject(session *s, int k, int c)
{
    char cmd[64];
    if (s->run.ranks && s->run.rank != k) {
        snprintf(cmd, sizeof cmd, "rank %d", k);
        if (session_execute(s, cmd) != PTODB_OK)
            return -1;
    }
    if (s->run.core == c && s->run.level == 0 && (inspect_depth(s->run.m, c) > 0 || c == EXEC_CORE_HOST))
        return 0;
    snprintf(cmd, sizeof cmd, "core %s", core_cmd(c));
    return session_execute(s, cmd) == PTODB_OK ? 0 : -1;
}

static int at(session *s, const char *stem, const char *what, const subj *u, uint64_t t, int core, int check_core,
              const uint64_t *H)
{
    int ok = tt_now(s) == t && (!H || tt_state_hash(s) == H[t]) && (!check_core || s->run.core == core);
    if (!ok)
        fprintf(stderr, "%s: %s from @%" PRIu64 " (rank %d %s): at step %" PRIu64 " on %s, expected %" PRIu64
                        " on %s%s\n",
                stem, what, u->N, u->rank, machine_core_name(u->core), tt_now(s), machine_core_name(s->run.core), t,
                machine_core_name(core), tt_now(s) == t ? " (another state)" : "");
    return ok;
}

static void goto_subject(session *s, const subj *u)
{
    char cmd[64];
    snprintf(cmd, sizeof cmd, "seek @%" PRIu64, u->N);
    session_execute(s, cmd);
}

/* --hash seeks: the landings of the reverse commands are checked by step
 * and core, the state hash only after seek @N and seek POSITION (a large
 * case's tensors hashed at every landing would take minutes). Without it
 * too at a boundary of a kind met before in the pass: its state hash after
 * seek @N (the first of its kind and the moments drawn at random get the
 * hash at every landing). */
static int hash_seeks_only;
/* --checks core: seek, seek POSITION, reverse-step + step and reverse-next
 * + next only (not reverse-finish, reverse-continue, the +D positions) */
static int core_checks_only;

static void check_pass(session *s, const char *stem, const tlog *L, const uint64_t *H, const subj *su, size_t n,
                       counts *k)
{
    char cmd[256];
    /* 1: seek @N in random order */
    size_t *order = xmalloc((n ? n : 1) * sizeof *order);
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    /* shuffled whole, or window by window (--seek-window) */
    for (size_t w0 = 0; w0 < n; w0 += seek_window) {
        size_t w = n - w0 < seek_window ? n - w0 : seek_window;
        for (size_t i = w; i > 1; i--) {
            size_t j = w0 + (size_t)(rnd() % i), t = order[w0 + i - 1];
            order[w0 + i - 1] = order[j];
            order[j] = t;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const subj *u = &su[order[i]];
        if (i && su[order[i - 1]].N == u->N)
            continue;
        goto_subject(s, u);
        if (tt_now(s) != u->N || tt_state_hash(s) != H[u->N]) {
            k->bad_seek++;
            fprintf(stderr, "%s: seek @%" PRIu64 ": at step %" PRIu64 ", another state\n", stem, u->N, tt_now(s));
        }
    }
    /* the history to the pass's end: forward commands from here on replay it */
    snprintf(cmd, sizeof cmd, "seek @%" PRIu64, L->T);
    session_execute(s, cmd);
    /* the cores standing there since an earlier moment: "+D" */
    for (size_t i = 0; i < n; i++) {
        const subj *u = &su[i];
        int kk = u->rank;
        char pos[128];
        if ((i > 0 && su[i - 1].N == u->N) || !u->full || core_checks_only)
            continue;
        for (int c = 0; c < NC * L->nranks; c++) {
            kk = c / NC;
            const rst *x = R(L, u->N, kk);
            if (((x->arrived >> (c % NC)) & 1u) || x->depth[c % NC] == 0)
                continue;
            goto_subject(s, u);
            if (select_subject(s, kk, c % NC) != 0 || !tt_position(s, c % NC, pos, sizeof pos))
                continue;
            k->pos_after++;
            snprintf(cmd, sizeof cmd, "seek %s", pos);
            session_execute(s, cmd);
            subj v = {u->N, kk, c % NC, 1};
            if (!strchr(pos, '+') || !at(s, stem, pos, &v, u->N, c % NC, 1, NULL)) {
                k->bad_pos++;
                if (!strchr(pos, '+'))
                    fprintf(stderr, "%s: %s at @%" PRIu64 " names the moment of an earlier arrival\n", stem, pos,
                            u->N);
            }
        }
    }
    /* in the moments' order: the jumps between them are short */
    for (size_t i = 0; i < n; i++) {
        const subj *u = &su[i];
        int kk = u->rank;
        k->subjects++;
        /* 2: seek POSITION */
        goto_subject(s, u);
        char pos[128];
        if (select_subject(s, kk, u->core) == 0 && tt_position(s, u->core, pos, sizeof pos)) {
            k->pos_checked++; /* (a seek to a position replays from a checkpoint before its call) */
            snprintf(cmd, sizeof cmd, "seek %s", pos);
            session_execute(s, cmd);
            if (!at(s, stem, pos, u, u->N, u->core, 1, u->full ? H : NULL))
                k->bad_pos++;
        }
        /* 3: reverse-step + step, reverse-next + next */
        for (int next = 0; next < 2; next++) {
            goto_subject(s, u);
            if (select_subject(s, kk, u->core) != 0)
                continue;
            land p = prev_stop(L, kk, u->core, u->N, next);
            land q = fwd(L, kk, p.core, p.t, next);
            session_execute(s, next ? "reverse-next" : "reverse-step");
            const uint64_t *HL = hash_seeks_only || !u->full ? NULL : H;
            int ok = at(s, stem, next ? "reverse-next" : "reverse-step", u, p.t, p.core, 1, HL);
            if (ok) {
                session_execute(s, next ? "next" : "step");
                ok = at(s, stem, next ? "reverse-next + next" : "reverse-step + step", u, q.t, q.core, q.t < L->T, HL);
            }
            /* the forward command comes back to N unless it never stops
             * there: the first moment; a try that blocked on a queue; for
             * next, a callee's first statement (a call that went deeper,
             * the caller's when a group call started the core; a rank's
             * task start is one, from the stop between tasks), a moment
             * another core's move resumed the core at (a group call's end) */
            int e = mover(L, u->N, kk), kind = L->mv[u->N].kind;
            int never = u->N == 0 || (e == u->core && kind == EXEC_EV_BLOCKED);
            if (next && !never) {
                /* the core whose next it is: the caller's when a group call started this one */
                int by = e != u->core && depth(L, u->N - 1, kk, u->core) == 0 ? e : u->core;
                never = by < 0 || (by != e && e != -2) ||
                        (kind != KIND_STARTED && depth(L, u->N, kk, by) > depth(L, u->N - 1, kk, by));
                /* reverse-next landed in a frame above N's (a block resumed
                 * after a syncall: its frame's earlier stops are before the
                 * park, and the launch's stop between blocks is nearer):
                 * next from there runs until that shallower frame stops */
                never = never || (p.core == u->core && depth(L, p.t, kk, p.core) > 0 &&
                                  depth(L, p.t, kk, p.core) < depth(L, u->N, kk, u->core));
            }
            if (ok && (q.t == u->N) == never) {
                k->bad_back++;
                fprintf(stderr, "%s: %s from @%" PRIu64 " (rank %d %s): @%" PRIu64 " then @%" PRIu64 ", which %s\n",
                        stem, next ? "reverse-next + next" : "reverse-step + step", u->N, u->rank,
                        machine_core_name(u->core), p.t, q.t,
                        never ? "should not come back" : "should come back");
            }
            if (getenv("SEEK_ORACLE_VERBOSE") && ok && q.t != u->N)
                fprintf(stderr, "%s: %s from @%" PRIu64 " (rank %d %s, moved by %s kind %d): @%" PRIu64 " %s, then @%" PRIu64 " %s\n",
                        stem, next ? "reverse-next" : "reverse-step", u->N, u->rank, machine_core_name(u->core),
                        L->mv[u->N].core >= 0 ? machine_core_name(L->mv[u->N].core) : "-", L->mv[u->N].kind, p.t,
                        machine_core_name(p.core), q.t, machine_core_name(q.core));
            *(next ? &k->rn : &k->rs) += 1;
            *(next ? &k->rn_bad : &k->rs_bad) += !ok;
            *(next ? &k->rn_trip : &k->rs_trip) += ok && q.t == u->N;
        }
        if (!u->full || core_checks_only)
            continue;
        /* reverse-finish */
        int fok;
        goto_subject(s, u);
        land f = prev_finish(L, kk, u->core, u->N, &fok);
        if (fok && select_subject(s, kk, u->core) == 0 && s->run.level == 0) {
            session_execute(s, "reverse-finish");
            k->rf++;
            k->rf_bad += !at(s, stem, "reverse-finish", u, f.t, f.core, 1, NULL);
        }
        /* reverse-continue + continue with a breakpoint at the subject's line (single-rank) */
        int line = R(L, u->N, kk)->line[u->core];
        if (!L->multi && line > 0 && u->N > 0) {
            uint64_t p = u->N;
            while (p > 0 && !bp_hits(L, --p, line))
                ;
            int hit = bp_hits(L, p, line);
            uint64_t q = p + 1;
            while (q < L->T && !bp_hits(L, q, line))
                q++;
            goto_subject(s, u);
            select_subject(s, kk, u->core);
            snprintf(cmd, sizeof cmd, "break %d", line);
            session_execute(s, cmd);
            session_execute(s, "reverse-continue");
            k->rc++;
            int ok = at(s, stem, "reverse-continue", u, p, hit ? hit - 1 : EXEC_CORE_HOST, hit, NULL);
            if (ok) {
                session_execute(s, "continue");
                ok = at(s, stem, "reverse-continue + continue", u, q, bp_hits(L, q, line) - 1, q < L->T, NULL);
                k->rc_trip += ok && q == u->N;
            }
            k->rc_bad += !ok;
            session_execute(s, "delete");
        }
    }
    free(order);
    /* reverse-continue from the end with a breakpoint at the pass's first
     * statement: every earlier hit in turn, the pass's first moment last */
    int line0 = R(L, 0, 0)->line[EXEC_CORE_HOST];
    if (L->multi || line0 <= 0 || core_checks_only)
        return;
    snprintf(cmd, sizeof cmd, "seek @%" PRIu64, L->T);
    session_execute(s, cmd);
    snprintf(cmd, sizeof cmd, "break %d", line0);
    session_execute(s, cmd);
    subj u = {L->T, 0, EXEC_CORE_HOST, 1};
    for (uint64_t cur = L->T; cur > 0;) {
        uint64_t p = cur;
        while (p > 0 && !bp_hits(L, --p, line0))
            ;
        int hit = bp_hits(L, p, line0);
        session_execute(s, "reverse-continue");
        k->start_rc++;
        if (!at(s, stem, "reverse-continue to the first statement", &u, p, hit ? hit - 1 : 0, hit, NULL)) {
            k->start_rc_bad++;
            break;
        }
        cur = p;
        u.N = p;
    }
    session_execute(s, "delete");
}

/* What a pass's moments are, as the backward search sees them. */
static uint64_t log_shape(const tlog *L)
{
    uint64_t h = 1469598103934665603ull;
    for (uint64_t t = 0; t <= L->T; t++) {
        h = mix(h, (uint64_t)(uint8_t)L->mv[t].rank | (uint64_t)(uint8_t)L->mv[t].core << 8 |
                       (uint64_t)L->mv[t].kind << 16);
        for (int k = 0; k < L->nranks; k++) {
            const rst *x = R(L, t, k);
            uint64_t v = (uint64_t)x->arrived | (uint64_t)x->waits << 8 | (uint64_t)x->ready << 16;
            for (int q = 0; q < NC; q++)
                v ^= (uint64_t)(uint16_t)x->depth[q] << (24 + 10 * q);
            h = mix(h, v);
        }
    }
    return h;
}

/* The subjects of a pass: every boundary moment's (kinds: only the first
 * moment of each kind of boundary), and `want` other moments' (all with
 * want SIZE_MAX), sorted by moment. A boundary moment of a kind met
 * before gets the checks of reverse-step, reverse-next and seek only. */
static subj *choose(const tlog *L, size_t want, int kinds, size_t *n, size_t *nb)
{
    uint64_t T = L->T;
    uint8_t *pick = xcalloc(T + 1, 1); /* 1 a boundary of a kind met before, 2 every check */
    uint64_t *rest = xmalloc((T + 1) * sizeof *rest);
    size_t nrest = 0, capk = 1024, nk = 0;
    uint64_t *seen = xcalloc(capk, sizeof *seen);
    *nb = 0;
    for (uint64_t t = 0; t <= T; t++) {
        if (!boundary(L, t)) {
            rest[nrest++] = t;
            continue;
        }
        { /* an open-addressing set of the kinds seen */
            uint64_t h = boundary_kind(L, t) | 1;
            size_t j = (size_t)(h % capk);
            while (seen[j] && seen[j] != h)
                j = (j + 1) % capk;
            if (seen[j]) {
                if (kinds) {
                    rest[nrest++] = t;
                } else {
                    pick[t] = 1;
                    (*nb)++;
                }
                continue;
            }
            seen[j] = h;
            if (++nk * 2 > capk) {
                uint64_t *old = seen;
                size_t oc = capk;
                capk *= 2;
                seen = xcalloc(capk, sizeof *seen);
                for (size_t i = 0; i < oc; i++) {
                    if (!old[i])
                        continue;
                    size_t q = (size_t)(old[i] % capk);
                    while (seen[q])
                        q = (q + 1) % capk;
                    seen[q] = old[i];
                }
                free(old);
            }
        }
        pick[t] = 2;
        (*nb)++;
    }
    free(seen);
    for (size_t i = 0; i < nrest && i < want; i++) {
        size_t j = i + (size_t)(rnd() % (nrest - i));
        uint64_t x = rest[i];
        rest[i] = rest[j];
        rest[j] = x;
        pick[rest[i]] = 2;
    }
    free(rest);
    size_t cap = 64;
    subj *out = xmalloc(cap * sizeof *out);
    *n = 0;
    for (uint64_t t = 0; t <= T; t++) {
        if (!pick[t])
            continue;
        for (int k = 0; k < L->nranks; k++) {
            int cs[NC], m = t == 0 ? 0 : subjects(L, t, k, cs);
            if (t == 0 && !L->multi) /* the pass's first moment: the host */
                cs[m++] = EXEC_CORE_HOST;
            for (int i = 0; i < m; i++) {
                if (*n == cap) {
                    cap *= 2;
                    out = xreallocarray(out, cap, sizeof *out);
                }
                out[(*n)++] = (subj){t, k, cs[i], pick[t] == 2};
            }
        }
    }
    free(pick);
    return out;
}

static int has_queues(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[4096];
    int yes = 0;
    while (!yes && fgets(line, sizeof line, f))
        yes = strstr(line, "tpush_to_") != NULL || strstr(line, "tpop_from_") != NULL;
    fclose(f);
    return yes;
}

/* The whole file at path, NUL-terminated, or NULL. */
static char *read_text(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    strbuf sb = STRBUF_INIT;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
        strbuf_append(&sb, buf, n);
    fclose(fp);
    return strbuf_detach(&sb);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: seek_oracle CASE [--positions N|all] [--boundaries all|kinds] [--twins N|all] "
                        "[--hash all|seeks] [--checks all|core] [--gap G] [--seed S] [--pass INDEX] [--all 1] [--seek-window W] [--hash-by bytes|pages]\n");
        return 2;
    }
    size_t want = 200, twin_want = 20;
    int only = -1, all = 0, kinds = 0;
    long gap = 0;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--all") == 0) /* every pass, queues or not (SPMD blocks, tasks, memory) */
            all = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "--positions") == 0)
            want = strcmp(argv[i + 1], "all") == 0 ? SIZE_MAX : (size_t)strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--boundaries") == 0)
            kinds = strcmp(argv[i + 1], "kinds") == 0;
        else if (strcmp(argv[i], "--twins") == 0)
            twin_want = strcmp(argv[i + 1], "all") == 0 ? SIZE_MAX : (size_t)strtoul(argv[i + 1], NULL, 10);
        else if (strcmp(argv[i], "--checks") == 0)
            core_checks_only = strcmp(argv[i + 1], "core") == 0;
        else if (strcmp(argv[i], "--hash") == 0)
            hash_seeks_only = strcmp(argv[i + 1], "seeks") == 0;
        else if (strcmp(argv[i], "--seek-window") == 0)
            seek_window = strtoul(argv[i + 1], NULL, 10) ? strtoul(argv[i + 1], NULL, 10) : SIZE_MAX;
        else if (strcmp(argv[i], "--hash-by") == 0 && strcmp(argv[i + 1], "pages") == 0)
            page_hash_enable();
        else if (strcmp(argv[i], "--gap") == 0) /* the session's checkpoint-interval (0: its default) */
            gap = atol(argv[i + 1]);
        else if (strcmp(argv[i], "--seed") == 0)
            rng = strtoull(argv[i + 1], NULL, 10) | 1;
        else if (strcmp(argv[i], "--pass") == 0)
            only = atoi(argv[i + 1]);
    }
    diag_sink sink;
    diag_sink_init(&sink, 20);
    case_info c;
    case_options co;
    memset(&co, 0, sizeof co);
    if (case_open(argv[1], &co, &c, &sink) != PTODB_OK) {
        fprintf(stderr, "seek_oracle: cannot open %s\n", argv[1]);
        return 2;
    }
    op_fn *ops = xcalloc(IR_OP_COUNT, sizeof *ops);
    exec_ops_init(ops);
    session *s = session_new(), *fw = NULL;
    session_set_output(s, quiet, NULL);
    if (session_open(s, argv[1], -1, -1) != PTODB_OK) {
        fprintf(stderr, "seek_oracle: the session cannot open %s\n", argv[1]);
        return 2;
    }
    int nranks = c.ranks.nranks > 0 ? c.ranks.nranks : 1, multi = c.ranks.nranks > 0;
    if (multi) {
        fw = session_new();
        session_set_output(fw, quiet, NULL);
        if (session_open(fw, argv[1], -1, -1) != PTODB_OK)
            return 2;
    }
    counts k;
    memset(&k, 0, sizeof k);
    char **texts = xcalloc(c.npasses ? c.npasses : 1, sizeof *texts);
    uint64_t *shapes = xcalloc(c.npasses ? c.npasses : 1, sizeof *shapes);
    size_t nshapes = 0;
    for (size_t p = 0; p < c.npasses; p++) {
        if ((only >= 0 && c.passes[p].index != only) || (!all && !multi && !has_queues(c.passes[p].path)))
            continue;
        /* a pass file with the bytes of an earlier one is the same program
         * on the same data: its moments are the earlier one's (as --batch
         * runs it once) */
        texts[p] = read_text(c.passes[p].path);
        int twin = 0;
        for (size_t q = 0; q < p && texts[p] && !twin; q++)
            twin = texts[q] && strcmp(texts[q], texts[p]) == 0;
        if (twin) {
            k.twins++;
            continue;
        }
        tlog L;
        log_init(&L, nranks, multi);
        uint64_t *H = NULL;
        int ran = multi ? straight_ranks(fw, c.passes[p].index, &L, &H) : straight(&c, c.passes[p].path, ops, &L, NULL, NULL);
        if (!ran || L.T < 1) {
            free(H);
            log_free(&L);
            continue;
        }
        log_grow(&L, L.T + 1); /* boundary() looks one move ahead */
        L.mv[L.T + 1] = (mov){-1, -1, EXEC_EV_NONE};
        /* a pass whose moments go as an earlier one's (the same moves,
         * arrivals, frames and waits: the same program on other data, or
         * a rewrite that moved lines only) makes the same decisions going
         * back: the first moment of each kind of boundary and `twin`
         * others */
        uint64_t sh = log_shape(&L);
        int same = 0;
        for (size_t q = 0; q < nshapes && !same; q++)
            same = shapes[q] == sh;
        if (!same)
            shapes[nshapes++] = sh;
        size_t n, nb;
        subj *su = same && twin_want != SIZE_MAX ? choose(&L, twin_want, 1, &n, &nb) : choose(&L, want, kinds, &n, &nb);
        if (getenv("SEEK_ORACLE_STATS")) {
            fprintf(stderr, "%s: %" PRIu64 " moments, %zu subjects, %zu boundaries, shape %016" PRIx64 "%s\n",
                    c.passes[p].stem, L.T, n, nb, sh, same ? " (seen)" : "");
            free(su);
            free(H);
            log_free(&L);
            continue;
        }
        if (!multi) { /* the hashes the checks need: the moments and where reverse-step, -next and step, next land */
            uint8_t *need = xcalloc(L.T + 1, 1);
            for (size_t i = 0; i < n; i++) {
                const subj *u = &su[i];
                need[u->N] = 1;
                for (int next = 0; next < 2 && !hash_seeks_only && u->full; next++) {
                    land a = prev_stop(&L, 0, u->core, u->N, next);
                    need[a.t] = need[fwd(&L, 0, a.core, a.t, next).t] = 1;
                }
            }
            need[L.T] = 1;
            H = xcalloc(L.T + 1, sizeof *H);
            straight(&c, c.passes[p].path, ops, &L, need, H);
            page_hash_reset();
            free(need);
        }
        char cmd[64];
        if (gap) {
            snprintf(cmd, sizeof cmd, "set checkpoint-interval %ld", gap);
            session_execute(s, cmd);
        }
        snprintf(cmd, sizeof cmd, "start %d", c.passes[p].index);
        if (session_execute(s, cmd) == PTODB_OK) {
            k.passes++;
            k.shape_twins += same;
            size_t moments = 0;
            for (size_t i = 0; i < n; i++)
                moments += i == 0 || su[i].N != su[i - 1].N;
            k.moments += moments;
            k.boundaries += nb;
            check_pass(s, c.passes[p].stem, &L, H, su, n, &k);
            if (s->run.m && !machine_state_hash_selfcheck(s->run.m))
                selfcheck_bad++;
            page_hash_reset();
            session_execute(s, "kill");
        }
        free(su);
        free(H);
        log_free(&L);
    }
    for (size_t p = 0; p < c.npasses; p++)
        free(texts[p]);
    free(texts);
    free(shapes);
    if (getenv("SEEK_ORACLE_VERBOSE"))
        fprintf(stderr, "boundaries: none %zu, first/last %zu, call/return/end %zu, blocked %zu, switch %zu, another "
                        "core %zu, state %zu, landing %zu\n",
                why_count[0], why_count[1], why_count[2], why_count[3], why_count[4], why_count[5], why_count[6],
                why_count[7]);
    size_t bad = k.bad_seek + k.bad_pos + k.rs_bad + k.rn_bad + k.rf_bad + k.rc_bad + k.bad_back + k.start_rc_bad +
                 selfcheck_bad;
    if (selfcheck_bad)
        fprintf(stderr, "%zu runs: the state hash's kept sums disagree with their counts\n", selfcheck_bad);
    printf("%zu distinct passes%s (%zu more identical to one of them; %zu whose moments go as an earlier one's), "
           "%zu moments (%zu boundaries%s), %zu subjects: "
           "seek by step %zu differ; by position %zu checked (%zu more +D), %zu differ; reverse-step + step %zu checked, "
           "%zu differ (%zu come back); reverse-next + next %zu, %zu differ (%zu come back); %zu come back or not "
           "otherwise than expected; reverse-finish %zu, %zu differ; reverse-continue + continue %zu, %zu differ (%zu "
           "come back); reverse-continue to the first statement %zu, %zu differ\n",
           k.passes, multi ? "" : all ? "" : " with queues", k.twins, k.shape_twins, k.moments, k.boundaries,
           kinds ? ": a moment of each kind" : "", k.subjects, k.bad_seek,
           k.pos_checked, k.pos_after, k.bad_pos, k.rs, k.rs_bad, k.rs_trip, k.rn, k.rn_bad, k.rn_trip, k.bad_back,
           k.rf, k.rf_bad, k.rc, k.rc_bad, k.rc_trip, k.start_rc, k.start_rc_bad);
    if (getenv("SEEK_ORACLE_VERBOSE")) {
        size_t nr, nc;
        page_hash_counts(&nr, &nc);
        fprintf(stderr, "state hash chunks: %zu read, %zu from the page cache\n", nr, nc);
    }
    session_free(s);
    if (fw)
        session_free(fw);
    free(ops);
    case_free(&c);
    diag_sink_free(&sink);
    return bad ? 1 : 0;
}

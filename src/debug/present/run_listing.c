/* The listings of run control's state (run_listing.h). */
#include "debug/present/run_listing.h"

#include <inttypes.h>
#include <stdio.h>

#include "base/strbuf.h"
#include "debug/run/run.h"
#include "debug/run/timetravel.h"
#include "debug/state/session_impl.h"

void present_checkpoints(session *s)
{
    run_state *r = &s->run;
    if (!r->active || !r->m) {
        session_printf(s, "No checkpoints: the program is not being run.\n");
        return;
    }
    if (r->ranks) {
        session_printf(s, "No checkpoints: a multi-rank run goes back by running its schedule again from the "
                          "pass's start (move %" PRIu64 " now, %" PRIu64 " the furthest).\n",
                       r->rank_moves, r->rank_horizon);
        return;
    }
    size_t cursor = 0;
    tt_checkpoint_row row;
    int any = 0;
    while (tt_user_checkpoint(s, &cursor, &row)) {
        if (!any)
            session_printf(s, "ID\tStep\tWhere\n");
        any = 1;
        session_printf(s, "%d\t%" PRIu64 "\t%s\n", row.user, row.step, row.finished ? "the end of the pass" : "");
    }
    if (!any)
        session_printf(s, "No user checkpoints.\n");
    size_t bytes, live, count;
    tt_memory(s, &bytes, &live, &count);
    session_printf(s,
                   "%zu checkpoints in all (automatic and user), %.1f MiB (the live tensors: %.1f MiB); "
                   "history recorded to step %" PRIu64 ".\n",
                   count, (double)bytes / 1048576.0, (double)live / 1048576.0, tt_horizon(s));
}

static const char *state_name(ranks_rank_state st)
{
    switch (st) {
    case RANKS_RANK_IDLE: return "idle";
    case RANKS_RANK_RUNNING: return "running";
    case RANKS_RANK_PARKED: return "parked";
    case RANKS_RANK_FINISHED: return "finished";
    }
    return "?";
}

void present_ranks(session *s)
{
    run_state *r = &s->run;
    if (!r->active || !r->ranks)
        return;
    session_printf(s, "Pass %d %s, %s:\n", s->kase.passes[r->pass].index, s->kase.passes[r->pass].name,
                   r->failed ? "stopped with an error" : r->finished ? "finished" : "running");
    run_rank_row row;
    strbuf wait = STRBUF_INIT;
    for (int k = 0; run_ranks_row(s, k, &row, &wait); k++) {
        const char *verdict = row.verdict > 0 ? "pass" : row.verdict == 0 ? "FAIL" : "-";
        session_printf(s, "%s rank %-3d %-8s verdict %-4s %zu task%s left", k == r->rank ? "*" : " ", k,
                       state_name(row.state), verdict, row.pending, row.pending == 1 ? "" : "s");
        if (row.located)
            session_printf(s, ", %s at line %d on %s", row.func, row.line, machine_core_name(row.core));
        session_printf(s, "\n");
        if (row.waits)
            session_printf(s, "           %s\n", strbuf_str(&wait));
        strbuf_clear(&wait);
    }
    strbuf_free(&wait);
}

void present_signal_cells(session *s)
{
    ranks_signal_cell cells[64];
    size_t n = run_ranks_signals(s, cells, 64);
    if (!n) {
        session_printf(s, "No signal cell has been notified or waited on in this run.\n");
        return;
    }
    session_printf(s, "%-5s %-20s %-7s %-7s %s\n", "Rank", "Window", "Offset", "Value", "Last notified");
    for (size_t i = 0; i < n && i < 64; i++) {
        const ranks_signal_cell *c = &cells[i];
        char last[160] = "never";
        if (c->notified)
            snprintf(last, sizeof last, "by rank %d at line %d:%d (%s %lld)", c->from, c->line, c->col,
                     c->op == EXEC_NOTIFY_SET ? "Set" : "AtomicAdd", (long long)c->notify_value);
        session_printf(s, "%-5d %-20s %-7lld %-7lld %s", c->owner, c->buffer, (long long)c->elem,
                       (long long)c->value, last);
        for (int k = 0; k < 64; k++)
            if (c->waiters & (1ull << k))
                session_printf(s, "; rank %d waits on it", k);
        session_printf(s, "\n");
    }
    if (n > 64)
        session_printf(s, "... %zu more\n", n - 64);
}

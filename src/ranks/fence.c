/* The data-before-signal contract: see fence.h. */
#include "config.h"

#include "ranks/fence.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "exec/comm.h"

/* A publishing write not yet visible to the peers. */
typedef struct pending_write {
    const void *buf;
    char name[64];
    int owner;
    int remote;      /* remote_store / put: a fence alone publishes it */
    int invalidated; /* local: a cacheinvalid of its window (or the GM) came after it */
    int line, col;
    char op[40];
} pending_write;

/* writes kept per rank: beyond it the oldest goes (a breach may be
 * missed, never invented) */
enum { FENCE_MAX_PENDING = 64 };

typedef struct rank_fence {
    pending_write pend[FENCE_MAX_PENDING];
    int npend;
    int acquired;            /* a satisfied wait not yet followed by cacheinvalid() */
    int acq_line, acq_col;
    int unstamped;           /* entries of the running step with no line yet */
} rank_fence;

typedef enum { BREACH_NONE, BREACH_PUBLISH, BREACH_CONSUME } breach_kind;

typedef struct breach {
    breach_kind kind;
    int rank, line, col;     /* the notify (publish) or the read (consume) */
    char op[40];             /* the read's op (consume) */
    pending_write w;         /* publish: the write it releases early */
    char name[64];           /* consume: the window read, and whose */
    int owner;
    int acq_line, acq_col;   /* consume: the wait */
} breach;

struct ranks_fence {
    int P;
    rank_fence *r;
    breach first;
};

ranks_fence *ranks_fence_new(int nranks)
{
    ranks_fence *f = xcalloc(1, sizeof *f);
    f->P = nranks;
    f->r = xcalloc(nranks > 0 ? (size_t)nranks : 1, sizeof *f->r);
    return f;
}

void ranks_fence_free(ranks_fence *f)
{
    if (!f)
        return;
    free(f->r);
    free(f);
}

static rank_fence *rank_of(ranks_fence *f, int rank)
{
    return f && rank >= 0 && rank < f->P ? &f->r[rank] : NULL;
}

void ranks_fence_task_start(ranks_fence *f, int rank)
{
    rank_fence *rf = rank_of(f, rank);
    if (rf)
        memset(rf, 0, sizeof *rf);
}

void ranks_fence_write(ranks_fence *f, int rank, const void *buf, const char *name, int owner, int remote,
                       const char *op, int line, int col)
{
    rank_fence *rf = rank_of(f, rank);
    if (!rf)
        return;
    pending_write *p = NULL;
    for (int i = 0; i < rf->npend && !p; i++)
        if (rf->pend[i].buf == buf && rf->pend[i].owner == owner && rf->pend[i].remote == remote)
            p = &rf->pend[i];
    if (!p) {
        if (rf->npend == FENCE_MAX_PENDING) {
            memmove(rf->pend, rf->pend + 1, (FENCE_MAX_PENDING - 1) * sizeof *rf->pend);
            rf->npend--;
        }
        p = &rf->pend[rf->npend++];
    }
    /* the newest write of a window is the one a notify would release */
    p->buf = buf;
    snprintf(p->name, sizeof p->name, "%s", name ? name : "?");
    p->owner = owner;
    p->remote = remote;
    p->invalidated = 0;
    p->line = line;
    p->col = col;
    snprintf(p->op, sizeof p->op, "%s", op ? op : "a store");
    if (!line)
        rf->unstamped = 1;
}

/* The first breach, of kind at rank's line:col: the one kept. */
static breach *first_breach(ranks_fence *f, breach_kind kind, int rank, int line, int col)
{
    breach *b = &f->first;
    b->kind = kind;
    b->rank = rank;
    b->line = line;
    b->col = col;
    return b;
}

void ranks_fence_read(ranks_fence *f, int rank, const char *name, int owner, const char *op, int line, int col)
{
    rank_fence *rf = rank_of(f, rank);
    if (!rf || !rf->acquired || f->first.kind != BREACH_NONE)
        return;
    breach *b = first_breach(f, BREACH_CONSUME, rank, line, col);
    snprintf(b->op, sizeof b->op, "%s", op ? op : "a load");
    snprintf(b->name, sizeof b->name, "%s", name ? name : "?");
    b->owner = owner;
    b->acq_line = rf->acq_line;
    b->acq_col = rf->acq_col;
    if (!line)
        rf->unstamped = 1;
}

void ranks_fence_marker(ranks_fence *f, int rank, int kind, const void *buf, int line, int col)
{
    (void)line;
    (void)col;
    rank_fence *rf = rank_of(f, rank);
    if (!rf)
        return;
    if (kind == EXEC_MARK_FENCE) {
        /* visible now: every remote write, and the local ones invalidated */
        int k = 0;
        for (int i = 0; i < rf->npend; i++)
            if (!rf->pend[i].remote && !rf->pend[i].invalidated)
                rf->pend[k++] = rf->pend[i];
        rf->npend = k;
        return;
    }
    for (int i = 0; i < rf->npend; i++)
        if (!rf->pend[i].remote && (kind == EXEC_MARK_INVALIDATE_ALL || (buf && rf->pend[i].buf == buf)))
            rf->pend[i].invalidated = 1;
    /* only the whole-GM form is the consume side's invalidate: the region
     * form drops one cache line (PyPTO docs/en/dev/ir/05-operators.md:708) */
    if (kind == EXEC_MARK_INVALIDATE_ALL)
        rf->acquired = 0;
}

void ranks_fence_notify(ranks_fence *f, int rank, int line, int col)
{
    rank_fence *rf = rank_of(f, rank);
    if (!rf || !rf->npend || f->first.kind != BREACH_NONE)
        return;
    first_breach(f, BREACH_PUBLISH, rank, line, col)->w = rf->pend[rf->npend - 1];
}

void ranks_fence_acquire(ranks_fence *f, int rank, int line, int col)
{
    rank_fence *rf = rank_of(f, rank);
    if (!rf)
        return;
    rf->acquired = 1;
    rf->acq_line = line;
    rf->acq_col = col;
    if (!line)
        rf->unstamped = 1;
}

void ranks_fence_stamp(ranks_fence *f, int rank, int line, int col)
{
    rank_fence *rf = rank_of(f, rank);
    if (!rf || !rf->unstamped)
        return;
    rf->unstamped = 0;
    for (int i = 0; i < rf->npend; i++)
        if (!rf->pend[i].line) {
            rf->pend[i].line = line;
            rf->pend[i].col = col;
        }
    if (rf->acquired && !rf->acq_line) {
        rf->acq_line = line;
        rf->acq_col = col;
    }
    breach *b = &f->first;
    if (b->kind == BREACH_CONSUME && b->rank == rank && !b->line) {
        b->line = line;
        b->col = col;
    }
}

int ranks_fence_breached(const ranks_fence *f)
{
    return f->first.kind != BREACH_NONE;
}

static const char *const contract_doc = "PyPTO's data-before-signal contract, docs/en/dev/passes/46-insert_comm_fence.md";

int ranks_fence_report(const ranks_fence *f, const char *path, strbuf *out)
{
    const breach *b = &f->first;
    if (b->kind == BREACH_NONE)
        return 0;
    if (b->kind == BREACH_CONSUME) {
        strbuf_printf(out,
                      "%s:%d:%d: fence contract: rank %d reads window %s of rank %d (%s) after its wait at "
                      "%d:%d with no system.cacheinvalid() between them: on the device it may read a stale "
                      "cache line instead of what the peer published (%s)",
                      path, b->line, b->col, b->rank, b->name, b->owner, b->op, b->acq_line, b->acq_col,
                      contract_doc);
        return 1;
    }
    const pending_write *w = &b->w;
    const char *missing = w->remote        ? "no system.fence after it"
                          : w->invalidated    ? "no system.fence after its system.cacheinvalid"
                                              : "no system.cacheinvalid of the window and system.fence after it";
    strbuf_printf(out,
                  "%s:%d:%d: fence contract: rank %d notifies here while its write to window %s of rank %d (%s at "
                  "%d:%d) is not yet visible (%s): on the device the peer may read the window as it was before "
                  "the write (%s)",
                  path, b->line, b->col, b->rank, w->name, w->owner, w->op, w->line, w->col, missing, contract_doc);
    return 1;
}

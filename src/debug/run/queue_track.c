/* Who put each tile in flight: the debugger follows the cross-core queues'
 * depths at every push and pop statement of its run (the only statements
 * that change them) and keeps, per queue, the producer's line and the
 * pushed variable's name for each item, front first. `queue show` prints
 * them next to the machine's own view of the items (inspect_queue_item).
 * Items pushed by steps it did not see (a `pass N` seek runs the machine
 * itself) stay unknown rather than guessed. Each queue's depth changes are
 * kept too: the timeline's occupancy rows (view_queue_history). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "debug/run/queue_track.h"
#include "debug/state/session_impl.h"
#include "exec/inspect.h"

struct queue_track {
    const void *id;
    int depth;
    struct queue_item { int line, core; char name[64]; } *items;
    int head, n, cap;
    /* the depth after each change, for the timeline's occupancy rows */
    view_queue_depth *hist;
    size_t nhist, caphist;
};

/* Keeps the newest VIEW_TIMELINE_MAX depth changes of a queue, as the
 * timeline keeps the newest steps. */
static void note_depth(struct queue_track *t, uint64_t step)
{
    if (t->nhist == t->caphist) {
        if (t->caphist >= VIEW_TIMELINE_MAX) {
            size_t keep = t->caphist / 2;
            memmove(t->hist, t->hist + (t->nhist - keep), keep * sizeof *t->hist);
            t->nhist = keep;
        } else {
            t->caphist = t->caphist ? 2 * t->caphist : 64;
            t->hist = xreallocarray(t->hist, t->caphist, sizeof *t->hist);
        }
    }
    t->hist[t->nhist++] = (view_queue_depth){step, t->depth};
}

static struct queue_track *track_of(run_state *r, const void *id)
{
    for (size_t i = 0; i < r->nqtracks; i++)
        if (r->qtracks[i].id == id)
            return &r->qtracks[i];
    r->qtracks = xreallocarray(r->qtracks, r->nqtracks + 1, sizeof *r->qtracks);
    struct queue_track *q = &r->qtracks[r->nqtracks++];
    memset(q, 0, sizeof *q);
    q->id = id;
    return q;
}

/* The pushed variable: the first argument of the call on the line. */
static void pushed_name(session *s, int pass, int line, char *out, size_t size)
{
    out[0] = '\0';
    const char *p = s->passes[pass].source;
    for (int l = 1; p && l < line; l++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    const char *call = p ? strstr(p, "tpush_to_") : NULL;
    const char *eol = p ? strchr(p, '\n') : NULL;
    if (!call || (eol && call > eol) || !(call = strchr(call, '(')))
        return;
    call++;
    size_t n = strcspn(call, ",)\n");
    snprintf(out, size, "%.*s", (int)(n < size ? n : size - 1), call);
}

void run_track_queues(session *s, int core, int line, int push)
{
    run_state *r = &s->run;
    inspect_queue q[64];
    int n = inspect_queues(r->m, q, 64);
    uint64_t step = machine_steps(r->m);
    for (int i = 0; i < n && i < 64; i++) {
        struct queue_track *t = track_of(r, q[i].id);
        int before = t->depth;
        if (!t->nhist)
            note_depth(t, step); /* first seen: a row from here on */
        for (; t->depth < q[i].depth; t->depth++) {
            if (t->n == t->cap) {
                int cap = t->cap ? 2 * t->cap : 8;
                struct queue_item *it = xcalloc((size_t)cap, sizeof *it);
                for (int k = 0; k < t->n; k++)
                    it[k] = t->items[(t->head + k) % t->cap];
                free(t->items);
                t->items = it;
                t->cap = cap;
                t->head = 0;
            }
            struct queue_item *it = &t->items[(t->head + t->n++) % t->cap];
            /* a push statement adds one item to a queue: more means steps
             * this record did not see (a seek), whose items stay unknown */
            int mine = push && t->depth + 1 == q[i].depth;
            it->line = mine ? line : 0;
            it->core = core;
            if (mine)
                pushed_name(s, r->pass, line, it->name, sizeof it->name);
            else
                it->name[0] = '\0';
        }
        for (; t->depth > q[i].depth; t->depth--)
            if (t->n) {
                t->head = (t->head + 1) % t->cap;
                t->n--;
            }
        if (t->depth != before)
            note_depth(t, step);
    }
}

size_t view_queue_history(session *s, int q, const view_queue_depth **out, int *limit)
{
    run_state *r = &s->run;
    *out = NULL;
    *limit = 0;
    if (!r->active || !r->m || q < 0)
        return 0;
    inspect_queue qs[64];
    int n = inspect_queues(r->m, qs, 64);
    if (q >= n || q >= 64)
        return 0;
    *limit = qs[q].limit;
    for (size_t i = 0; i < r->nqtracks; i++)
        if (r->qtracks[i].id == qs[q].id) {
            *out = r->qtracks[i].hist;
            return r->qtracks[i].nhist;
        }
    return 0;
}

int run_queue_item_origin(session *s, const void *id, int depth, int k, int *core, int *line, const char **name)
{
    run_state *r = &s->run;
    for (size_t i = 0; i < r->nqtracks; i++) {
        struct queue_track *t = &r->qtracks[i];
        if (t->id != id || t->n != depth || k < 0 || k >= t->n)
            continue;
        struct queue_item *it = &t->items[(t->head + k) % t->cap];
        if (!it->line)
            return 0;
        *core = it->core;
        *line = it->line;
        *name = it->name;
        return 1;
    }
    return 0;
}

void run_track_free(run_state *r)
{
    for (size_t i = 0; i < r->nqtracks; i++) {
        free(r->qtracks[i].items);
        free(r->qtracks[i].hist);
    }
    free(r->qtracks);
    r->qtracks = NULL;
    r->nqtracks = 0;
}

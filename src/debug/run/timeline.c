/* The timeline of the debugger's run: each machine step (core, what it did,
 * the line, whether it pushed to or popped from a cross-core queue), kept
 * for the TUI's timeline pane (view_timeline). Pushes and pops are told by
 * the statement's op in the pass file's text, as the Perfetto export does. */
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "debug/run/queue_track.h"
#include "debug/state/session_impl.h"
#include "debug/run/timeline.h"
#include "ranks/sched.h"

/* 'p' when line `line` of the pass's source pushes to a queue, 'o' when it
 * pops, else 0: read once per run into a table by line (a step would
 * otherwise walk the file to its line). */
static char queue_mark(session *s, int pass, int line)
{
    run_state *r = &s->run;
    pass_state *ps = &s->passes[pass];
    if (!ps->source || line < 1)
        return 0;
    if (!r->line_marks) {
        int n = 1;
        for (const char *p = ps->source; *p; p++)
            n += *p == '\n';
        r->line_marks = xcalloc((size_t)n + 1, 1);
        r->nline_marks = n;
        const char *p = ps->source;
        for (int l = 1; l <= n && p; l++) {
            const char *end = strchr(p, '\n');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            for (size_t i = 0; i + 9 <= len && !r->line_marks[l]; i++) {
                if (!memcmp(p + i, "tpush_to_", 9))
                    r->line_marks[l] = 'p';
                else if (!memcmp(p + i, "tpop_from", 9))
                    r->line_marks[l] = 'o';
                /* a multi-rank program's signals: notify -> wait arrows */
                else if (i + 13 <= len && !memcmp(p + i, "system.notify", 13))
                    r->line_marks[l] = 'n';
                else if (i + 11 <= len && (!memcmp(p + i, "system.wait", 11) ||
                                           (i + 17 <= len && !memcmp(p + i, "system.defer_wait", 17))))
                    r->line_marks[l] = 'w';
            }
            p = end ? end + 1 : NULL;
        }
    }
    return line <= r->nline_marks ? r->line_marks[line] : 0;
}

static void note(session *s, int rank, int peer, uint64_t step, const exec_event *ev)
{
    run_state *r = &s->run;
    uint8_t kind;
    switch (ev->kind) {
    case EXEC_EV_STMT: kind = VIEW_TL_STMT; break;
    case EXEC_EV_CALL: kind = VIEW_TL_CALL; break;
    case EXEC_EV_RETURN: kind = VIEW_TL_RETURN; break;
    case EXEC_EV_BLOCKED: kind = VIEW_TL_BLOCKED; break;
    case EXEC_EV_FINISHED: kind = VIEW_TL_DONE; break;
    default: return;
    }
    if (ev->core < 0 || ev->core >= EXEC_NCORES)
        return;
    char mark = kind == VIEW_TL_STMT ? queue_mark(s, r->pass, ev->line) : 0;
    if (mark == 'p' || mark == 'o')
        run_track_queues(s, ev->core, ev->line, mark == 'p');
    /* a step of the recorded history run again after going back: its entry
     * is there already (the timeline keeps the moments after the current one) */
    if (r->ntimeline && r->timeline[(r->ntimeline - 1) % r->captimeline].step >= step)
        return;
    if (r->captimeline == 0) {
        r->captimeline = 4096;
        r->timeline = xcalloc(r->captimeline, sizeof *r->timeline);
    } else if (r->ntimeline == r->captimeline && r->captimeline < VIEW_TIMELINE_MAX) {
        r->captimeline = r->captimeline * 2 < VIEW_TIMELINE_MAX ? r->captimeline * 2 : VIEW_TIMELINE_MAX;
        r->timeline = xreallocarray(r->timeline, r->captimeline, sizeof *r->timeline);
    }
    view_tl_event *e = &r->timeline[r->ntimeline % r->captimeline];
    e->step = step;
    e->core = (uint8_t)ev->core;
    e->kind = kind;
    e->line = ev->line;
    e->mark = mark;
    e->rank = (int16_t)rank;
    e->peer = (int16_t)(mark == 'w' ? peer : -1);
    r->ntimeline++;
}

void run_timeline_cut(run_state *r, uint64_t after)
{
    if (r->ntimeline > r->captimeline) {
        /* a wrapped ring (the newest VIEW_TIMELINE_MAX steps): started again */
        if (r->timeline[(r->ntimeline - 1) % r->captimeline].step > after)
            r->ntimeline = 0;
        return;
    }
    while (r->ntimeline && r->timeline[r->ntimeline - 1].step > after)
        r->ntimeline--;
}

uint64_t view_timeline_now(session *s)
{
    if (s->run.active && s->run.ranks)
        return ranks_sched_steps(s->run.ranks); /* the one schedule's count, as note()'s */
    return s->run.active && s->run.m ? machine_steps(s->run.m) : 0;
}

void run_timeline_note(session *s, const exec_event *ev)
{
    note(s, -1, -1, machine_steps(s->run.m), ev);
}

void run_timeline_note_rank(session *s, int rank, int notifier, const exec_event *ev)
{
    note(s, rank, notifier, ranks_sched_steps(s->run.ranks), ev);
}

size_t view_timeline(session *s, const view_tl_event **out)
{
    run_state *r = &s->run;
    *out = NULL;
    if (!r->active || !r->ntimeline)
        return 0;
    if (r->ntimeline > r->captimeline) {
        /* a full ring: rotate it so the oldest comes first (once per call) */
        size_t head = r->ntimeline % r->captimeline;
        view_tl_event *lin = xcalloc(r->captimeline, sizeof *lin);
        memcpy(lin, r->timeline + head, (r->captimeline - head) * sizeof *lin);
        memcpy(lin + (r->captimeline - head), r->timeline, head * sizeof *lin);
        free(r->timeline);
        r->timeline = lin;
        r->ntimeline = r->captimeline; /* now linear; later notes go on wrapping from 0 */
    }
    *out = r->timeline;
    return r->ntimeline;
}

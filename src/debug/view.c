/* The read side of the session for front ends (view.h). Parts that need a
 * running program report "nothing" until the session has one. */
#include "debug/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "debug/session_impl.h"

int view_stop_location(session *s, view_location *out)
{
    (void)s;
    memset(out, 0, sizeof *out);
    return 0; /* no program runs in the session yet */
}

int view_pass_info(session *s, int i, view_pass *out)
{
    memset(out, 0, sizeof *out);
    if (!s->have_case || i < 0 || (size_t)i >= s->kase.npasses)
        return 0;
    const case_pass *p = &s->kase.passes[i];
    out->index = p->index;
    out->name = p->name;
    out->stem = p->stem;
    out->ir_changed = session_pass_ir_changed(s, i);
    out->verdict = VIEW_VERDICT_UNKNOWN;
    out->noutputs = (int)(s->kase.noutputs < VIEW_MAX_OUTPUTS ? s->kase.noutputs : VIEW_MAX_OUTPUTS);
    for (int k = 0; k < out->noutputs; k++) {
        out->output_names[k] = s->kase.outputs[k].name;
        out->max_abs_diff[k] = NAN;
    }
    return 1;
}

int view_breakpoint_at(session *s, int pass, int line)
{
    (void)s, (void)pass, (void)line;
    return 0;
}

int view_heatmap_get(session *s, int output, view_heat_mode mode, int max_rows, int max_cols,
                     view_heatmap *out)
{
    (void)s, (void)output, (void)mode, (void)max_rows, (void)max_cols;
    memset(out, 0, sizeof *out);
    return 0;
}

int view_cores(session *s, view_core *out, int max)
{
    (void)s, (void)out, (void)max;
    return 0;
}

int view_queues(session *s, view_queue *out, int max)
{
    (void)s, (void)out, (void)max;
    return 0;
}

int view_displays(session *s, view_display *out, int max)
{
    (void)s, (void)out, (void)max;
    return 0;
}

const char *view_status_line(session *s)
{
    strbuf sb = STRBUF_INIT;
    if (s->have_case) {
        const char *root = strrchr(s->kase.root, '/');
        const case_pass *p = &s->kase.passes[s->cur_pass];
        strbuf_printf(&sb, "%s | pass %d %s", root && root[1] ? root + 1 : s->kase.root, p->index,
                      p->name);
    } else {
        strbuf_puts(&sb, "no case");
    }
    strbuf_printf(&sb, " | rtol %s atol %s", session_get_string(s, SETTING_RTOL),
                  session_get_string(s, SETTING_ATOL));
    free(s->status_line);
    s->status_line = strbuf_detach(&sb);
    return s->status_line;
}

/* Commands over the case and its passes: open, pass, list, info. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "debug/run/point.h"
#include "debug/present/frame.h"
#include "debug/present/run_listing.h"
#include "debug/state/session_impl.h"
#include "debug/run/timetravel.h"
#include "debug/present/view.h"
#include "exec/compare.h"
#include "exec/inspect.h"
#include "tensor/heatgrid.h"
#include "base/textdiff.h"
#include "exec/op_catalogue.h"
#include "ir/ast.h"

#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    ptodb_status cmd_##id(session *s, const char *args);
#include "debug/commands.def"
#undef CMD

ptodb_status cmd_OPEN(session *s, const char *args)
{
    if (!*args) {
        session_errorf(s, "open needs a path: a build folder, passes_dump/, a dump file or a ptodb.yaml");
        return PTODB_ERR_USAGE;
    }
    return session_open(s, args, -1, -1);
}

static void show_current(session *s)
{
    const case_pass *p = &s->kase.passes[s->cur_pass];
    session_printf(s, "Pass %d: %s (%s)\n", p->index, p->name, p->path);
}

static ptodb_status select_pass(session *s, int i)
{
    if (s->run.active && !s->run.finished && !s->run.failed && i != s->run.pass) {
        /* Stopped in a pass: keep the program point (gdb users expect the
         * same place, in the other pass). */
        s->cur_pass = i;
        s->list_line = 0;
        show_current(s);
        return run_seek_point(s, i);
    }
    if (i != s->cur_pass) {
        s->cur_pass = i;
        s->list_line = 0;
        session_mark_redraw(s, SESSION_REDRAW_ALL);
    }
    show_current(s);
    return PTODB_OK;
}

static const char *verdict_word(view_verdict v)
{
    switch (v) {
    case VIEW_VERDICT_PASS: return "PASS";
    case VIEW_VERDICT_FAIL: return "FAIL";
    case VIEW_VERDICT_ERROR: return "ERROR";
    case VIEW_VERDICT_MEMFAULT: return "MEMFAULT";
    default: return "-";
    }
}

/* The verdict table (`pass list`, `info passes`): each pass with its IR
 * mark and what validation has found so far (view_pass_info: bisect, runs
 * in the debugger, the background validation at a terminal). */
static ptodb_status pass_list(session *s)
{
    int namew = 4;
    for (size_t i = 0; i < s->kase.npasses; i++)
        if ((int)strlen(s->kase.passes[i].name) > namew)
            namew = (int)strlen(s->kase.passes[i].name);
    size_t nout = s->kase.noutputs < VIEW_MAX_OUTPUTS ? s->kase.noutputs : VIEW_MAX_OUTPUTS;
    strbuf sb = STRBUF_INIT;
    strbuf_printf(&sb, "%-4s %-3s %-*s %-8s", "Num", "IR", namew, "Pass", "Verdict");
    if (nout == 1)
        strbuf_printf(&sb, " %-14s", "max_abs_diff");
    else
        for (size_t k = 0; k < nout; k++)
            strbuf_printf(&sb, " %-14s", s->kase.outputs[k].name);
    strbuf_puts(&sb, " margin\n");
    int validated = 0;
    for (size_t i = 0; i < s->kase.npasses; i++) {
        view_pass v;
        if (!view_pass_info(s, (int)i, &v))
            continue;
        const char *mark = v.ir_changed < 0 ? "?" : v.ir_changed ? "*" : "=";
        strbuf_printf(&sb, "%s%-3d %-3s %-*s %-8s", (int)i == s->cur_pass ? ">" : " ", v.index, mark, namew, v.name,
                      verdict_word(v.verdict));
        validated += v.verdict != VIEW_VERDICT_UNKNOWN;
        for (size_t k = 0; k < nout; k++) {
            char d[64] = "-";
            if (v.verdict != VIEW_VERDICT_UNKNOWN && (int)k < v.noutputs && !isnan(v.max_abs_diff[k]))
                exec_format_e6(v.max_abs_diff[k], d, sizeof d);
            strbuf_printf(&sb, " %-14s", d);
        }
        char m[32] = "-";
        if (v.verdict != VIEW_VERDICT_UNKNOWN && !isnan(v.margin))
            heat_format_share(v.margin, m, sizeof m);
        strbuf_printf(&sb, " %s\n", m);
    }
    strbuf_puts(&sb, "IR: * changed from the previous pass, = unchanged, ? could not be parsed. margin: the worst "
                     "element's |diff| as a share of its tolerance (atol + rtol*|golden|).\n");
    if (validated < (int)s->kase.npasses)
        strbuf_printf(&sb, "%d of %zu passes validated so far (- not yet): bisect, run, or the background "
                           "validation at a terminal fill in the rest.\n",
                      validated, s->kase.npasses);
    session_write(s, strbuf_str(&sb), sb.len);
    strbuf_free(&sb);
    return PTODB_OK;
}

static ptodb_status pass_diff(session *s, const char *args)
{
    char *words[3];
    char buf[1024];
    int n = session_split_words(args, words, 3, buf, sizeof buf);
    if (n < 0 || n > 2) {
        session_errorf(s, "Usage: pass diff [A [B]]");
        return PTODB_ERR_USAGE;
    }
    int a, b;
    if (n == 0) {
        if (s->cur_pass == 0) {
            session_errorf(s, "The current pass is the first: there is no previous pass to diff with.");
            return PTODB_ERR_USAGE;
        }
        a = s->cur_pass - 1;
        b = s->cur_pass;
    } else {
        a = session_find_pass(s, words[0]);
        if (a < 0)
            return PTODB_ERR_USAGE;
        b = s->cur_pass;
        if (n == 2 && (b = session_find_pass(s, words[1])) < 0)
            return PTODB_ERR_USAGE;
    }
    pass_state *pa = session_load_pass(s, a), *pb = session_load_pass(s, b);
    if (!pa->canonical || !pb->canonical) {
        session_pass_not_checked(s, "diff", !pa->canonical ? a : b);
        return PTODB_ERR_SYNTAX;
    }
    strbuf out = STRBUF_INIT;
    long changed = textdiff_unified(pa->canonical, pb->canonical, s->kase.passes[a].stem,
                                    s->kase.passes[b].stem, 3, &out);
    if (changed == 0)
        session_printf(s, "Passes %s and %s have the same IR.\n", s->kase.passes[a].stem,
                       s->kase.passes[b].stem);
    else
        session_write(s, strbuf_str(&out), out.len);
    strbuf_free(&out);
    return PTODB_OK;
}

ptodb_status cmd_PASS(session *s, const char *args)
{
    if (!session_need_case(s))
        return PTODB_ERR_USAGE;
    if (!*args) {
        show_current(s);
        return PTODB_OK;
    }
    if (strcmp(args, "list") == 0)
        return pass_list(s);
    if (strcmp(args, "next") == 0) {
        if ((size_t)s->cur_pass + 1 >= s->kase.npasses) {
            session_errorf(s, "Already at the last pass.");
            return PTODB_ERR_USAGE;
        }
        return select_pass(s, s->cur_pass + 1);
    }
    if (strcmp(args, "prev") == 0) {
        if (s->cur_pass == 0) {
            session_errorf(s, "Already at the first pass.");
            return PTODB_ERR_USAGE;
        }
        return select_pass(s, s->cur_pass - 1);
    }
    if (strncmp(args, "diff", 4) == 0 && (args[4] == '\0' || isspace((unsigned char)args[4])))
        return pass_diff(s, args + 4);
    int i = session_find_pass(s, args);
    if (i < 0)
        return PTODB_ERR_USAGE;
    return select_pass(s, i);
}

/* ---- list ---------------------------------------------------------------- */

static void show_lines(session *s, const char *src, int first, int last)
{
    int line = 1;
    const char *p = src;
    while (*p && line < first) {
        if (*p++ == '\n')
            line++;
    }
    while (*p && line <= last) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        session_printf(s, "%-5d %.*s\n", line, (int)len, p);
        p += len + (nl ? 1 : 0);
        line++;
    }
}

static int function_line(session *s, const char *name)
{
    pass_state *p = session_load_pass(s, s->cur_pass);
    if (!p->module || !p->module->program)
        return -1;
    const ir_program *prog = p->module->program;
    for (uint32_t i = 0; i < prog->nfuncs; i++)
        if (strcmp(prog->funcs[i]->name->text, name) == 0)
            return (int)prog->funcs[i]->name_span.line;
    return -1;
}

ptodb_status cmd_LIST(session *s, const char *args)
{
    if (!session_need_case(s))
        return PTODB_ERR_USAGE;
    const char *src = session_pass_source(s, s->cur_pass);
    if (!src) {
        session_errorf(s, "%s: cannot read the file", s->kase.passes[s->cur_pass].path);
        return PTODB_ERR_IO;
    }
    int total = session_count_lines(src);
    int size = (int)session_get_int(s, SETTING_LISTSIZE);
    if (size <= 0)
        size = 10;
    int first, last;
    char *end;
    if (!*args) {
        /* after a stop or a frame change: centred on the selected frame's line */
        inspect_frame f;
        if (s->list_line > 0)
            first = s->list_line;
        else if (s->run.active && s->run.m && s->run.pass == s->cur_pass &&
                 inspect_frame_get(s->run.m, s->run.core, s->run.level, &f) && f.line > 0)
            first = f.line - size / 2 > 1 ? f.line - size / 2 : 1;
        else
            first = 1;
    } else if (strcmp(args, "-") == 0) {
        int shown_first = s->list_line > 0 ? s->list_line - size : 1;
        first = shown_first - size;
        if (first < 1)
            first = 1;
        if (shown_first <= 1) {
            session_errorf(s, "Already at the start of %s.", s->kase.passes[s->cur_pass].stem);
            return PTODB_ERR_USAGE;
        }
    } else if (strchr(args, ',')) {
        /* line numbers past the file are clipped, so a huge one is harmless
         * once it fits an int: INT_MAX / 2 keeps first + size in range */
        errno = 0;
        long long f = strtoll(args, &end, 10);
        long long l = *end == ',' && !errno ? strtoll(end + 1, &end, 10) : 0;
        if (errno || *end || f < 1 || l < f || f > INT_MAX / 2) {
            session_errorf(s, "Bad line range \"%s\": expected FIRST,LAST.", args);
            return PTODB_ERR_USAGE;
        }
        first = (int)f;
        last = l > total ? total : (int)l;
        size = last >= first ? last - first + 1 : 1;
    } else if (isdigit((unsigned char)args[0])) {
        errno = 0;
        long l = strtol(args, &end, 10);
        if (*end || errno || l < 1) {
            session_errorf(s, "Bad line number \"%s\".", args);
            return PTODB_ERR_USAGE;
        }
        if (l > total) {
            session_errorf(s, "Line number %ld out of range; \"%s\" has %d lines.", l,
                           s->kase.passes[s->cur_pass].path, total);
            return PTODB_ERR_USAGE;
        }
        first = (int)l - size / 2;
        if (first < 1)
            first = 1;
    } else {
        int l = function_line(s, args);
        if (l < 0) {
            session_errorf(s, "Function \"%s\" not defined in %s.", args,
                           s->kase.passes[s->cur_pass].stem);
            return PTODB_ERR_NOT_FOUND;
        }
        first = l - size / 2;
        if (first < 1)
            first = 1;
    }
    if (first > total) {
        session_errorf(s, "Line number %d out of range; \"%s\" has %d lines.", first,
                       s->kase.passes[s->cur_pass].path, total);
        return PTODB_ERR_USAGE;
    }
    last = first + size - 1;
    if (last > total)
        last = total;
    show_lines(s, src, first, last);
    s->list_line = last + 1;
    return PTODB_OK;
}

/* ---- info ---------------------------------------------------------------- */

static void info_case(session *s)
{
    const case_info *c = &s->kase;
    session_printf(s, "Case:      %s\n", c->root);
    session_printf(s, "Passes:    %zu in %s\n", c->npasses, c->dump_dir);
    if (c->manifest_path)
        session_printf(s, "Manifest:  %s\n", c->manifest_path);
    if (c->golden_path)
        session_printf(s, "golden.py: %s\n", c->golden_path);
    for (size_t i = 0; i < c->ninputs; i++) {
        char shape[128];
        tensor_format_shape(c->inputs[i].t->ndim, c->inputs[i].t->shape, shape, sizeof shape);
        session_printf(s, "Input:     %-16s %-6s %-14s %s\n", c->inputs[i].name,
                       dtype_name(c->inputs[i].t->dtype), shape, c->inputs[i].path);
    }
    for (size_t i = 0; i < c->noutputs; i++) {
        char shape[128];
        tensor_format_shape(c->outputs[i].t->ndim, c->outputs[i].t->shape, shape, sizeof shape);
        session_printf(s, "Golden:    %-16s %-6s %-14s %s (rtol %g from %s, atol %g from %s)\n",
                       c->outputs[i].name, dtype_name(c->outputs[i].t->dtype), shape,
                       c->outputs[i].path, c->outputs[i].rtol.value, c->outputs[i].rtol.where,
                       c->outputs[i].atol.value, c->outputs[i].atol.where);
    }
    session_printf(s, "Tolerance: rtol %g (%s), atol %g (%s)\n", c->rtol.value, c->rtol.where,
                   c->atol.value, c->atol.where);
}


/* A multi-rank case's ranks, devices, data and comm domains (docs/multirank.md). */
static void info_ranks(session *s)
{
    const case_info *c = &s->kase;
    const case_ranks *r = &c->ranks;
    if (!r->nranks) {
        session_printf(s, "One rank: %s has no ranks.txt.\n", c->root);
        return;
    }
    session_printf(s, "Ranks:     %d (%s)\n", r->nranks, r->path);
    for (int k = 0; k < r->nranks; k++) {
        const case_rank_data *rd = &c->rank_data[k];
        session_printf(s, "Rank %-4d  device %d, %zu input%s, %zu golden output%s:", k, r->device_ids[k],
                       rd->ninputs, rd->ninputs == 1 ? "" : "s", rd->noutputs, rd->noutputs == 1 ? "" : "s");
        for (size_t i = 0; i < rd->ninputs; i++)
            session_printf(s, " in %s", rd->inputs[i].name);
        for (size_t i = 0; i < rd->noutputs; i++)
            session_printf(s, " out %s", rd->outputs[i].name);
        session_printf(s, "\n");
    }
    for (size_t i = 0; i < r->ndomains; i++) {
        const case_domain *d = &r->domains[i];
        session_printf(s, "Domain    %s:", d->name);
        for (size_t k = 0; k < d->ndevices; k++)
            session_printf(s, " device %d -> rank %zu%s", d->devices[k], k, k + 1 < d->ndevices ? "," : "");
        session_printf(s, "; window buffers:");
        for (size_t k = 0; k < d->nbuffers; k++)
            session_printf(s, " %s", d->buffers[k].name);
        session_printf(s, "\n");
    }
    if (s->run.active && s->run.ranks)
        present_ranks(s);
}

ptodb_status cmd_INFO(session *s, const char *args)
{
    if (strcmp(args, "breakpoints") == 0 || strcmp(args, "break") == 0 || strcmp(args, "b") == 0 ||
        strcmp(args, "watchpoints") == 0) {
        bp_print_table(s);
        return PTODB_OK;
    }
    if (strcmp(args, "locals") == 0)
        return frame_print_vars(s, 0);
    if (strcmp(args, "args") == 0)
        return frame_print_vars(s, 1);
    if (strcmp(args, "display") == 0) {
        if (!s->ndisplays)
            session_printf(s, "There are no auto-display expressions now.\n");
        else
            display_show_all(s, 0);
        return PTODB_OK;
    }
    if (strcmp(args, "frame") == 0)
        return frame_print_info(s);
    if (strcmp(args, "passes") == 0) {
        if (!session_need_case(s))
            return PTODB_ERR_USAGE;
        return pass_list(s);
    }
    if (strcmp(args, "ops") == 0) {
        strbuf out = STRBUF_INIT;
        exec_op_catalogue_print(&out);
        session_printf(s, "%s", strbuf_str(&out));
        strbuf_free(&out);
        return PTODB_OK;
    }
    if (strcmp(args, "semantics") == 0) {
        strbuf out = STRBUF_INIT;
        strbuf_printf(&out, "This session runs passes under --semantics=%s (set semantics device|ref).\n",
                      exec_semantics_name(session_semantics(s)));
        exec_semantics_list(&out);
        session_printf(s, "%s", strbuf_str(&out));
        strbuf_free(&out);
        return PTODB_OK;
    }
    if (strcmp(args, "case") == 0) {
        if (!session_need_case(s))
            return PTODB_ERR_USAGE;
        info_case(s);
        return PTODB_OK;
    }
    if (strcmp(args, "memory") == 0 || strcmp(args, "mem") == 0) {
        if (!s->run.active || !s->run.m) {
            session_errorf(s, "The program is not being run.");
            return PTODB_ERR_USAGE;
        }
        strbuf out = STRBUF_INIT;
        machine_mem_format_map(s->run.m, s->run.core, &out);
        session_printf(s, "%s", strbuf_str(&out));
        strbuf_free(&out);
        return PTODB_OK;
    }
    if (strcmp(args, "position") == 0)
        return cmd_WHEN(s, "");
    if (strcmp(args, "checkpoints") == 0) {
        present_checkpoints(s);
        return PTODB_OK;
    }
    if (strcmp(args, "ranks") == 0) {
        if (!session_need_case(s))
            return PTODB_ERR_USAGE;
        info_ranks(s);
        return PTODB_OK;
    }
    if (strcmp(args, "cores") == 0 || strcmp(args, "threads") == 0)
        return cmd_CORE(s, "list");
    session_errorf(s, "\"info\" must be followed by the name of an info command: passes, case, ranks, cores, "
                      "breakpoints, locals, args, display, frame, ops, semantics, memory, position, checkpoints.");
    return PTODB_ERR_USAGE;
}

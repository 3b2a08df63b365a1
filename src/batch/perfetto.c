/* Perfetto / chrome://tracing export of one pass run (perfetto.h): one
 * exporter per machine (a multi-rank run has one per rank, each its own
 * process in the trace) over one output. */
#include "batch/perfetto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fdio.h"
#include "base/mem.h"
#include "batch/json.h"
#include "exec/machine.h"
#include "ir/parse.h"
#include "ranks/run.h"
#include "ranks/sched.h"

enum { MAX_PENDING = 4096 };

/* Pushed flow ids waiting for their pop, per queue direction and AIV lane. */
typedef struct flow_fifo {
    uint64_t id[MAX_PENDING];
    int head, n;
} flow_fifo;

static void fifo_put(flow_fifo *f, uint64_t id)
{
    if (f->n == MAX_PENDING)
        return; /* more in flight than anyone reads: later flows go unlinked */
    f->id[(f->head + f->n) % MAX_PENDING] = id;
    f->n++;
}

static int fifo_take(flow_fifo *f, uint64_t *id)
{
    if (!f->n)
        return 0;
    *id = f->id[f->head];
    f->head = (f->head + 1) % MAX_PENDING;
    f->n--;
    return 1;
}

/* The pass file's lines, to tell pushes and pops from other statements. */
typedef struct source_lines {
    char *text;
    size_t *line_start;
    int nlines;
} source_lines;

typedef struct exporter {
    strbuf *out;
    int *first;  /* no event written yet (shared by a run's exporters) */
    int pid;     /* the trace's process: 1, or rank + 1 */
    const source_lines *src;
    char open_func[EXEC_NCORES][128]; /* the function slice open on each core */
    int ran[EXEC_NCORES];
    flow_fifo to_aiv[2], to_aic[2];
    uint64_t next_flow;
    int flows;
} exporter;

static void event_head(exporter *x, const char *ph, int core, uint64_t ts)
{
    strbuf_printf(x->out, "%s\n{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%llu", *x->first ? "" : ",", ph, x->pid,
                   core, (unsigned long long)ts);
    *x->first = 0;
}

static const char *source_line(const exporter *x, int line, size_t *len)
{
    const source_lines *sl = x->src;
    if (line < 1 || line > sl->nlines) {
        *len = 0;
        return "";
    }
    size_t a = sl->line_start[line - 1], b = sl->line_start[line];
    while (b > a && (sl->text[b - 1] == '\n' || sl->text[b - 1] == '\r'))
        b--;
    *len = b - a;
    return sl->text + a;
}

static int line_has(const exporter *x, int line, const char *what)
{
    size_t len;
    const char *s = source_line(x, line, &len);
    size_t wl = strlen(what);
    for (size_t i = 0; i + wl <= len; i++)
        if (!memcmp(s + i, what, wl))
            return 1;
    return 0;
}

static void func_begin(exporter *x, int core, const char *func, uint64_t ts)
{
    event_head(x, "B", core, ts);
    strbuf_puts(x->out, ",\"cat\":\"function\",\"name\":");
    json_put_string(x->out, func);
    strbuf_puts(x->out, "}");
    snprintf(x->open_func[core], sizeof x->open_func[core], "%s", func);
}

static void func_end(exporter *x, int core, uint64_t ts)
{
    if (!x->open_func[core][0])
        return;
    event_head(x, "E", core, ts);
    strbuf_puts(x->out, "}");
    x->open_func[core][0] = '\0';
}

/* A completed statement: its slice, and a flow start (push) or end (pop). */
static void statement(exporter *x, const exec_event *ev, uint64_t ts)
{
    int core = ev->core;
    if (ev->func && strcmp(x->open_func[core], ev->func) != 0) {
        /* a function entered without a call event of ours (the entry, a
         * group start) or returned into: the function slice follows */
        func_end(x, core, ts);
        func_begin(x, core, ev->func, ts);
    }
    x->ran[core] = 1;
    size_t len;
    const char *src = source_line(x, ev->line, &len);
    while (len && (*src == ' ' || *src == '\t')) {
        src++;
        len--;
    }
    char name[160];
    snprintf(name, sizeof name, "%d: %.*s", ev->line, (int)(len < 100 ? len : 100), src);
    event_head(x, "X", core, ts);
    strbuf_puts(x->out, ",\"dur\":1,\"cat\":\"statement\",\"name\":");
    json_put_string(x->out, name);
    strbuf_printf(x->out, ",\"args\":{\"line\":%d,\"func\":", ev->line);
    json_put_string(x->out, ev->func ? ev->func : "");
    strbuf_puts(x->out, "}}");
    /* queues: AIC pushes to the AIV lanes (one item per lane that pops),
     * an AIV lane pushes to AIC */
    int lane = core == EXEC_CORE_AIV1 ? 1 : 0;
    flow_fifo *push = NULL, *pop = NULL;
    if (line_has(x, ev->line, "tpush_to_aiv") && core == EXEC_CORE_AIC) {
        for (int l = 0; l < 2; l++) {
            uint64_t id = ++x->next_flow;
            fifo_put(&x->to_aiv[l], id);
            event_head(x, "s", core, ts);
            strbuf_printf(x->out, ",\"cat\":\"queue\",\"name\":\"aic->aiv\",\"id\":%llu}", (unsigned long long)id);
        }
    } else if (line_has(x, ev->line, "tpush_to_aic")) {
        push = &x->to_aic[lane];
    } else if (line_has(x, ev->line, "tpop_from_aic")) {
        pop = &x->to_aiv[lane];
    } else if (line_has(x, ev->line, "tpop_from_aiv")) {
        pop = x->to_aic[0].n ? &x->to_aic[0] : &x->to_aic[1];
    }
    if (push) {
        uint64_t id = ++x->next_flow;
        fifo_put(push, id);
        event_head(x, "s", core, ts);
        strbuf_printf(x->out, ",\"cat\":\"queue\",\"name\":\"aiv->aic\",\"id\":%llu}", (unsigned long long)id);
    }
    uint64_t id;
    if (pop && fifo_take(pop, &id)) {
        event_head(x, "f", core, ts);
        strbuf_printf(x->out, ",\"bp\":\"e\",\"cat\":\"queue\",\"name\":\"%s\",\"id\":%llu}",
                       pop == &x->to_aiv[lane] ? "aic->aiv" : "aiv->aic", (unsigned long long)id);
        x->flows++;
    }
}

static void source_lines_read(source_lines *sl, const char *path)
{
    memset(sl, 0, sizeof *sl);
    size_t len = 0;
    sl->text = file_read_all(path, &len);
    if (!sl->text)
        sl->text = xstrdup("");
    sl->line_start = xcalloc(len + 2, sizeof *sl->line_start);
    for (size_t i = 0; i < len; i++)
        if (sl->text[i] == '\n')
            sl->line_start[++sl->nlines] = i + 1;
    if (len && sl->text[len - 1] != '\n')
        sl->line_start[++sl->nlines] = len;
}

/* The trace's head, and a process's name (its place among the ranks'
 * processes: sorted, the ranks in order) and core tracks. */
static void trace_head(strbuf *out, const char *path)
{
    strbuf_puts(out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":");
    json_put_string(out, path);
    strbuf_puts(out, ",\"time\":\"one microsecond per statement (all cores)\"},\"traceEvents\":[");
}

static void process_head(exporter *x, const char *name, int sorted)
{
    event_head(x, "M", 0, 0);
    strbuf_puts(x->out, ",\"name\":\"process_name\",\"args\":{\"name\":");
    json_put_string(x->out, name);
    strbuf_puts(x->out, "}}");
    if (sorted) {
        event_head(x, "M", 0, 0);
        strbuf_printf(x->out, ",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%d}}", x->pid);
    }
    for (int core = 0; core < EXEC_NCORES; core++) {
        event_head(x, "M", core, 0);
        strbuf_printf(x->out, ",\"name\":\"thread_name\",\"args\":{\"name\":\"%s\"}}", machine_core_name(core));
        event_head(x, "M", core, 0);
        strbuf_printf(x->out, ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%d}}", core);
    }
}

/* One event of a machine at time ts. */
static void machine_event(exporter *x, const exec_event *ev, uint64_t ts)
{
    switch (ev->kind) {
    case EXEC_EV_STMT: statement(x, ev, ts); break;
    case EXEC_EV_CALL:
        func_end(x, ev->core, ts); /* the caller's slice pauses: slices nest by core */
        func_begin(x, ev->core, ev->func ? ev->func : "?", ts);
        break;
    case EXEC_EV_RETURN:
    case EXEC_EV_FINISHED: func_end(x, ev->core, ts); break;
    case EXEC_EV_BLOCKED:
        event_head(x, "i", ev->core, ts);
        strbuf_printf(x->out, ",\"s\":\"t\",\"cat\":\"queue\",\"name\":\"waits on an empty queue (line %d)\"}",
                      ev->line);
        break;
    default: break;
    }
}

static void close_slices(exporter *x, uint64_t ts, perfetto_summary *sum)
{
    for (int core = 0; core < EXEC_NCORES; core++) {
        func_end(x, core, ts);
        sum->cores += x->ran[core];
    }
    sum->flows += x->flows;
}

/* A multi-rank pass: the global schedule run to its end (ranks/sched.h),
 * each rank a process of its own (pid rank + 1), its cores its threads;
 * time is the global statement count. A rank's wait that parks is an
 * instant where it first parks. */
static int trace_ranks(const char *path, const case_info *c, const runpass_options *o, strbuf *out,
                       perfetto_summary *sum)
{
    runpass_result res;
    memset(&res, 0, sizeof res);
    ir_module *mod;
    xprogram *p;
    if (ranks_build_file(path, o, &mod, &p, &res) != 0) {
        sum->error = xstrdup(res.message ? res.message : "the pass could not start");
        runpass_result_free(&res);
        return -1;
    }
    runpass_result_free(&res);
    strbuf err = STRBUF_INIT;
    runpass_status why;
    ranks_sched *rs = ranks_sched_new(path, p, c, o, &err, &why);
    if (!rs) {
        sum->error = strbuf_detach(&err);
        exec_program_free(p);
        ir_module_free(mod);
        return -1;
    }
    int P = ranks_sched_nranks(rs);
    source_lines sl;
    source_lines_read(&sl, path);
    int first = 1;
    exporter *x = xcalloc((size_t)P, sizeof *x);
    unsigned char *parked = xcalloc((size_t)P, 1);
    trace_head(out, path);
    for (int k = 0; k < P; k++) {
        x[k].out = out;
        x[k].first = &first;
        x[k].pid = k + 1;
        x[k].src = &sl;
        char name[64];
        snprintf(name, sizeof name, "rank %d", k);
        process_head(&x[k], name, 1);
    }
    for (;;) {
        int k;
        exec_event ev;
        ranks_step_status st = ranks_sched_step(rs, &k, &ev, &err);
        if (st == RANKS_STEP_DONE)
            break;
        if (st == RANKS_STEP_ERROR || st == RANKS_STEP_DEADLOCK) {
            sum->error = xstrdup(strbuf_str(&err));
            break;
        }
        if (o->mopt.interrupt && *o->mopt.interrupt) {
            sum->error = xstrdup("interrupted");
            break;
        }
        uint64_t ts = ranks_sched_steps(rs);
        if (st == RANKS_STEP_PARKED) {
            if (ev.kind == EXEC_EV_BLOCKED && !parked[k]) {
                parked[k] = 1;
                event_head(&x[k], "i", ev.core, ts);
                strbuf_printf(out, ",\"s\":\"t\",\"cat\":\"rank\",\"name\":\"parked (line %d)\"}", ev.line);
            }
            continue;
        }
        parked[k] = 0;
        if (ev.kind != EXEC_EV_NONE)
            machine_event(&x[k], &ev, ts);
    }
    uint64_t end = ranks_sched_steps(rs) + 1;
    for (int k = 0; k < P; k++)
        close_slices(&x[k], end, sum);
    strbuf_puts(out, "\n]}\n");
    sum->statements = ranks_sched_steps(rs);
    free(parked);
    free(x);
    free(sl.text);
    free(sl.line_start);
    strbuf_free(&err);
    ranks_sched_free(rs);
    exec_program_free(p);
    ir_module_free(mod);
    return 0;
}

int perfetto_trace_pass(const char *path, const case_info *c, const runpass_options *o, strbuf *out,
                        perfetto_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    if (c->ranks.nranks)
        return trace_ranks(path, c, o, out, sum);
    runpass_run r;
    runpass_open(&r, path, NULL, c, o, NULL, NULL, 0);
    if (r.status != RUNPASS_COMPARED || !r.m) {
        sum->error = xstrdup(r.message ? r.message : "the pass could not start");
        runpass_close(&r);
        return -1;
    }
    source_lines sl;
    source_lines_read(&sl, path);
    int first = 1;
    exporter x;
    memset(&x, 0, sizeof x);
    x.out = out;
    x.first = &first;
    x.pid = 1;
    x.src = &sl;
    trace_head(out, path);
    process_head(&x, path, 0);
    uint64_t ts = 0;
    for (;;) {
        exec_event ev;
        ptodb_status st = machine_step(r.m, &ev);
        if (st != PTODB_OK || ev.kind == EXEC_EV_ERROR) {
            sum->error = xstrdup(machine_error(r.m));
            break;
        }
        if (ev.kind == EXEC_EV_DONE)
            break;
        ts++;
        machine_event(&x, &ev, ts);
    }
    close_slices(&x, ts + 1, sum);
    strbuf_puts(out, "\n]}\n");
    sum->statements = machine_steps(r.m);
    free(sl.text);
    free(sl.line_start);
    runpass_close(&r);
    return 0;
}

/* Perfetto / chrome://tracing export of one pass run (perfetto.h). */
#include "batch/perfetto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fdio.h"
#include "base/mem.h"
#include "batch/json.h"
#include "exec/machine.h"

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

typedef struct exporter {
    strbuf *out;
    int first;
    /* the file's lines, to tell pushes and pops from other statements */
    char *text;
    size_t *line_start;
    int nlines;
    char open_func[EXEC_NCORES][128]; /* the function slice open on each core */
    int ran[EXEC_NCORES];
    flow_fifo to_aiv[2], to_aic[2];
    uint64_t next_flow;
    int flows;
} exporter;

static void event_head(exporter *x, const char *ph, int core, uint64_t ts)
{
    strbuf_printf(x->out, "%s\n{\"ph\":\"%s\",\"pid\":1,\"tid\":%d,\"ts\":%llu", x->first ? "" : ",", ph, core,
                   (unsigned long long)ts);
    x->first = 0;
}

static const char *source_line(const exporter *x, int line, size_t *len)
{
    if (line < 1 || line > x->nlines) {
        *len = 0;
        return "";
    }
    size_t a = x->line_start[line - 1], b = x->line_start[line];
    while (b > a && (x->text[b - 1] == '\n' || x->text[b - 1] == '\r'))
        b--;
    *len = b - a;
    return x->text + a;
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

int perfetto_trace_pass(const char *path, const case_info *c, const runpass_options *o, strbuf *out,
                        perfetto_summary *sum)
{
    memset(sum, 0, sizeof *sum);
    runpass_run r;
    runpass_open(&r, path, NULL, c, o, NULL, NULL, 0);
    if (r.status != RUNPASS_COMPARED || !r.m) {
        sum->error = xstrdup(r.message ? r.message : "the pass could not start");
        runpass_close(&r);
        return -1;
    }
    exporter x;
    memset(&x, 0, sizeof x);
    x.out = out;
    x.first = 1;
    size_t len = 0;
    x.text = file_read_all(path, &len);
    if (!x.text)
        x.text = xstrdup("");
    x.line_start = xcalloc(len + 2, sizeof *x.line_start);
    for (size_t i = 0; i < len; i++)
        if (x.text[i] == '\n')
            x.line_start[++x.nlines] = i + 1;
    if (len && x.text[len - 1] != '\n')
        x.line_start[++x.nlines] = len;
    strbuf_puts(out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":");
    json_put_string(out, path);
    strbuf_puts(out, ",\"time\":\"one microsecond per statement (all cores)\"},\"traceEvents\":[");
    event_head(&x, "M", 0, 0);
    strbuf_puts(out, ",\"name\":\"process_name\",\"args\":{\"name\":");
    json_put_string(out, path);
    strbuf_puts(out, "}}");
    for (int core = 0; core < EXEC_NCORES; core++) {
        event_head(&x, "M", core, 0);
        strbuf_printf(out, ",\"name\":\"thread_name\",\"args\":{\"name\":\"%s\"}}", machine_core_name(core));
        event_head(&x, "M", core, 0);
        strbuf_printf(out, ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%d}}", core);
    }
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
        switch (ev.kind) {
        case EXEC_EV_STMT: statement(&x, &ev, ts); break;
        case EXEC_EV_CALL:
            func_end(&x, ev.core, ts); /* the caller's slice pauses: slices nest by core */
            func_begin(&x, ev.core, ev.func ? ev.func : "?", ts);
            break;
        case EXEC_EV_RETURN:
        case EXEC_EV_FINISHED: func_end(&x, ev.core, ts); break;
        case EXEC_EV_BLOCKED:
            event_head(&x, "i", ev.core, ts);
            strbuf_printf(out, ",\"s\":\"t\",\"cat\":\"queue\",\"name\":\"waits on an empty queue (line %d)\"}",
                           ev.line);
            break;
        default: break;
        }
    }
    for (int core = 0; core < EXEC_NCORES; core++) {
        func_end(&x, core, ts + 1);
        sum->cores += x.ran[core];
    }
    strbuf_puts(out, "\n]}\n");
    sum->statements = machine_steps(r.m);
    sum->flows = x.flows;
    free(x.text);
    free(x.line_start);
    runpass_close(&r);
    return 0;
}

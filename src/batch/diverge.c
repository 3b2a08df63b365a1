/* The divergence engine (diverge.h): the traced search, the dataflow chain
 * and the memory sanitizer composed into one answer with one reason. */
#include "batch/diverge.h"

#include <ctype.h>
#include <signal.h>
#include <math.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/fdio.h"
#include "base/mem.h"
#include "batch/why.h"
#include "exec/machine.h"
#include "ranks/run.h"

static const char *const reason_words[] = {"-",      "op",             "branch",      "loop", "region", "lane/core",
                                           "memfault", "error/deadlock", "not-written", "nan",  "value"};

const char *diverge_reason_word(int reason)
{
    if (reason < 0 || (size_t)reason >= sizeof reason_words / sizeof *reason_words)
        return "-";
    return reason_words[reason];
}

static void set_why(bisect_stmt *s, int reason, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_why(bisect_stmt *s, int reason, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf sb = STRBUF_INIT;
    strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    free(s->reason_why);
    s->reason_why = strbuf_detach(&sb);
    s->reason = reason;
}

/* Line `line` of the file at path, trimmed, into buf ("" when none). */
static void line_text(const char *path, int line, char *buf, size_t size)
{
    buf[0] = '\0';
    size_t len;
    char *text = path && line > 0 ? file_read_all(path, &len) : NULL;
    if (!text)
        return;
    const char *p = text;
    for (int n = 1; n < line && p; n++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    if (p) {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t l = strcspn(p, "\n");
        while (l && isspace((unsigned char)p[l - 1]))
            l--;
        snprintf(buf, size, "%.*s", (int)l, p);
    }
    free(text);
}

static int core_by_name(const char *w, size_t n)
{
    for (int k = 0; k < EXEC_NCORES; k++) {
        const char *name = machine_core_name(k);
        if (strlen(name) == n && strncasecmp(name, w, n) == 0)
            return k;
    }
    return EXEC_CORE_HOST;
}

/* ---- memfault: the sanitizer's first report --------------------------------------------------- */

/* The value of "  KEY:   ..." in block (up to its end), or NULL. */
static const char *report_field(const char *block, size_t blen, const char *key)
{
    size_t kl = strlen(key);
    for (const char *p = block; p && p < block + blen;) {
        const char *q = p;
        while (*q == ' ')
            q++;
        if (strncmp(q, key, kl) == 0 && q[kl] == ':') {
            q += kl + 1;
            while (*q == ' ')
                q++;
            return q;
        }
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    return NULL;
}

/* A memory fault in bad (and none in good): the statement that wrote over
 * the live tile is the answer, the first differing value (a reader of the
 * clobbered tile) its consumer. 1 when named. */
static int memfault_answer(const divergence_side *good, const divergence_side *bad, const runpass_options *ro,
                           bisect_stmt *s)
{
    if (!ro->mopt.memcheck)
        return 0;
    runpass_result rb, rg;
    if (s->bad_run_whole) {
        /* the traced run of bad ran it whole: its sanitizer's reports */
        memset(&rb, 0, sizeof rb);
        rb.memfaults = s->bad_memfaults;
        rb.memreport = s->bad_memreport ? xstrdup(s->bad_memreport) : NULL;
    } else {
        ranks_or_single_run_file(bad->path, bad->c, ro, &rb);
    }
    int named = 0;
    if (rb.memfaults && rb.memreport) {
        ranks_or_single_run_file(good->path, good->c, ro, &rg);
        int good_clean = !rg.memfaults;
        runpass_result_free(&rg);
        const char *rep = rb.memreport, *end = strstr(rep, "\nmemory fault: ");
        size_t blen = end ? (size_t)(end - rep + 1) : strlen(rep);
        /* "memory fault: KIND at PATH:LINE:COL in FUNC" */
        const char *at = strncmp(rep, "memory fault: ", 14) == 0 ? strstr(rep, " at ") : NULL;
        size_t pl = strlen(bad->path);
        if (good_clean && at && strncmp(at + 4, bad->path, pl) == 0 && at[4 + pl] == ':') {
            char *e;
            long line = strtol(at + 5 + pl, &e, 10);
            const char *in = strstr(at, " in ");
            const char *nl = strchr(rep, '\n');
            char kind[32];
            snprintf(kind, sizeof kind, "%.*s", (int)(at - rep - 14), rep + 14);
            char func[128] = "?", wrote[128] = "", tile[128] = "";
            if (in && (!nl || in < nl))
                snprintf(func, sizeof func, "%.*s", (int)strcspn(in + 4, "\n"), in + 4);
            const char *w = report_field(rep, blen, "wrote"), *t = report_field(rep, blen, "tile"),
                       *c = report_field(rep, blen, "core");
            if (w) {
                snprintf(wrote, sizeof wrote, "%.*s", (int)strcspn(w, " \n"), w);
                /* "..., written at L:C" names the writer */
                const char *wa = strstr(w, "written at ");
                const char *wl = strchr(w, '\n');
                if (wa && (!wl || wa < wl))
                    line = strtol(wa + 11, NULL, 10);
            }
            if (t)
                snprintf(tile, sizeof tile, "%.*s", (int)strcspn(t, " \n"), t);
            if (line > 0) {
                if (s->found && !s->fails && s->tensor && *s->tensor && s->line != line) {
                    free(s->consumer_tensor);
                    s->consumer_line = s->line;
                    s->consumer_tensor = s->tensor;
                    s->tensor = NULL;
                }
                free(s->tensor);
                free(s->file);
                free(s->func);
                s->found = 1;
                s->fails = 0;
                s->file = xstrdup(bad->path);
                s->func = xstrdup(func);
                s->tensor = xstrdup(wrote[0] ? wrote : "?");
                s->line = (int)line;
                s->core = c ? core_by_name(c, strcspn(c, " ,\n")) : EXEC_CORE_HOST;
                s->memreport = xstrndup(rep, blen);
                set_why(s, DIVERGE_MEMFAULT,
                        "line %ld writes %s over the live tile %s (the memory sanitizer's first report: %s; %llu "
                        "in the pass, none in %s)",
                        line, wrote[0] ? wrote : "?", tile[0] ? tile : "?", kind,
                        (unsigned long long)rb.memfaults, good->stem);
                named = 1;
            }
        }
    }
    runpass_result_free(&rb);
    return named;
}

/* ---- error/deadlock: where the run stops ---------------------------------------------------- */

/* " at PATH:LINE:COL" from at to end: LINE (the last two numbers before end) */
static int line_of_place(const char *at, const char *end)
{
    const char *c2 = end;
    while (c2 > at && *c2 != ':')
        c2--;
    const char *c1 = c2 - 1;
    while (c1 > at && *c1 != ':')
        c1--;
    return (int)strtol(c1 + 1, NULL, 10);
}

/* The "  core X lane N: blocked in FUNC at PATH:LINE:COL on OP (...)" lines
 * of a deadlock report in text, into s->waiting; the first one's place into
 * *line, func, *core. 1 when there is one. */
static int blocked_cores(const char *text, bisect_stmt *s, int *line, char *func, size_t fsize, int *core)
{
    const char *d = text ? strstr(text, "deadlock in group ") : NULL;
    if (!d)
        return 0;
    strbuf w = STRBUF_INIT;
    int n = 0;
    for (const char *p = strchr(d, '\n'); p && *p;) {
        p++;
        size_t l = strcspn(p, "\n");
        const char *q = p;
        while (*q == ' ')
            q++;
        if (strncmp(q, "core ", 5) != 0)
            break;
        const char *b = strstr(q, ": blocked in ");
        if (b && b < p + l) {
            strbuf_printf(&w, "%s%.*s", n ? "\n" : "", (int)(p + l - q), q);
            if (!n++) {
                const char *fn = b + 13, *at = strstr(fn, " at ");
                if (at && at < p + l) {
                    snprintf(func, fsize, "%.*s", (int)(at - fn), fn);
                    const char *on = strstr(at, " on ");
                    *line = line_of_place(at, on && on < p + l ? on : p + l);
                }
                *core = core_by_name(q + 5, strcspn(q + 5, " "));
            }
        }
        p += l;
    }
    if (!n) {
        strbuf_free(&w);
        return 0;
    }
    free(s->waiting);
    s->waiting = strbuf_detach(&w);
    return *line > 0;
}

/* A deadlock's pop that waits with another split= than the tiles its
 * queue holds ("queue to_aiv_split AIC->AIV depth=2 split=1 lane=0" while
 * "... blocked in F at P:L:C on tpop_from_aic (split=2, lane=0)"): the
 * lanes wait for parts the other side never pushes in that mode, and the
 * pop is where the sides part (a pass that changed it, or its push's).
 * Its line, function and core; 1 when there is one. */
static int split_mismatched_pop(const char *text, int *line, char *func, size_t fsize, int *core, int *was,
                                int *now)
{
    const char *d = text ? strstr(text, "deadlock in group ") : NULL;
    if (!d)
        return 0;
    for (const char *p = d; (p = strstr(p, ": blocked in ")) != NULL; p++) {
        const char *eol = strchr(p, '\n');
        size_t l = eol ? (size_t)(eol - p) : strlen(p);
        const char *on = strstr(p, " on tpop_from_");
        if (!on || on > p + l)
            continue;
        int from_aic = strncmp(on + 14, "aic", 3) == 0, split = -1, lane = -1;
        const char *sp = strstr(on, "(split="), *ln = strstr(on, "lane=");
        if (!sp || sp > p + l || !ln || ln > p + l)
            continue;
        split = (int)strtol(sp + 7, NULL, 10);
        lane = (int)strtol(ln + 5, NULL, 10);
        /* the queue the pop reads, holding tiles pushed in another mode */
        const char *dir = from_aic ? "AIC->AIV" : "AIV->AIC";
        for (const char *q = d; (q = strstr(q, "\n")) != NULL;) {
            q++;
            const char *t = q;
            while (*t == ' ')
                t++;
            size_t ql = strcspn(t, "\n");
            const char *qd = strncmp(t, "queue ", 6) == 0 ? strstr(t, dir) : NULL;
            if (!qd || qd > t + ql)
                continue;
            const char *dp = strstr(t, "depth="), *qs = strstr(t, "split="), *qn = strstr(t, "lane=");
            if (!dp || !qs || !qn || qn > t + ql)
                continue;
            int depth = (int)strtol(dp + 6, NULL, 10), qsplit = (int)strtol(qs + 6, NULL, 10),
                qlane = (int)strtol(qn + 5, NULL, 10);
            if (depth <= 0 || qlane != lane || qsplit == split)
                continue;
            /* "  core AIV0 lane 0: blocked in FUNC at PATH:LINE:COL on ..." */
            const char *ls = p;
            while (ls > d && ls[-1] != '\n')
                ls--;
            while (*ls == ' ')
                ls++;
            if (strncmp(ls, "core ", 5) != 0)
                continue;
            const char *fn = p + 13, *at = strstr(fn, " at ");
            if (!at || at > on)
                continue;
            snprintf(func, fsize, "%.*s", (int)(at - fn), fn);
            *line = line_of_place(at, on);
            *core = core_by_name(ls + 5, strcspn(ls + 5, " "));
            *was = qsplit;
            *now = split;
            return *line > 0;
        }
    }
    return 0;
}

/* The split= a function declares (pl.func_attr({"split": pl.SplitMode.X}):
 * UpDown 1, LeftRight 2, pypto include/pypto/ir/stmt.h:85-86) in the file
 * text, -1 when it declares none; func NULL: that of the function whose
 * body holds line. */
static int declared_split(const char *text, const char *func, int line)
{
    int mode = -1, in = 0, n = 1;
    for (const char *l = text; l && *l; n++) {
        size_t len = strcspn(l, "\n");
        const char *q = l;
        while (*q == ' ')
            q++;
        if (strncmp(q, "def ", 4) == 0) {
            if (in && !func)
                return mode;
            size_t fl = func ? strlen(func) : 0;
            in = func ? strncmp(q + 4, func, fl) == 0 && q[4 + fl] == '(' : n <= line;
            mode = -1;
        } else if (in && strncmp(q, "pl.func_attr(", 13) == 0) {
            const char *m = strstr(q, "pl.SplitMode.");
            if (m && m < l + len)
                mode = strncmp(m + 13, "UP_DOWN", 7) == 0 ? 1 : strncmp(m + 13, "LEFT_RIGHT", 10) == 0 ? 2 : 0;
        }
        if (func && in && mode >= 0)
            return mode;
        if (!func && n == line)
            return in ? mode : -1;
        l += len + (l[len] == '\n');
    }
    return in ? mode : -1;
}

/* ---- a pop no statement pushes for ------------------------------------------------------------- */

/* The statements of a pass file that a dropped push is looked for in:
 * pushes and pops of one direction, and every assignment's target. */
typedef struct qstmt {
    int line, kind; /* kind: 'p' push, 'o' pop, 'd' a definition */
    int split;      /* a push's split= (-1: none) */
    char func[128], name[128];
} qstmt;

/* The name an assignment line binds ("x: T = ..." or "x = ..."), into
 * name; 0 when the line binds none. */
static int bound_name(const char *q, size_t len, char *name, size_t size)
{
    size_t n = 0;
    while (n < len && (isalnum((unsigned char)q[n]) || q[n] == '_'))
        n++;
    if (!n || n >= size || (q[n] != ':' && strncmp(q + n, " =", 2) != 0))
        return 0;
    snprintf(name, size, "%.*s", (int)n, q);
    return 1;
}

/* Every push and pop of direction to_aiv (tpush_to_aiv / tpop_from_aic,
 * else the other way) and every definition, in file order. */
static qstmt *queue_statements(const char *text, int to_aiv, size_t *n)
{
    const char *push = to_aiv ? "pl.tile.tpush_to_aiv(" : "pl.tile.tpush_to_aic(";
    const char *pop = to_aiv ? "pl.tile.tpop_from_aic(" : "pl.tile.tpop_from_aiv(";
    qstmt *v = NULL;
    size_t cap = 0;
    char func[128] = "?";
    *n = 0;
    int line = 1;
    for (const char *l = text; l && *l; line++) {
        size_t len = strcspn(l, "\n");
        const char *q = l;
        while (*q == ' ')
            q++;
        size_t ql = len - (size_t)(q - l);
        qstmt st;
        memset(&st, 0, sizeof st);
        if (strncmp(q, "def ", 4) == 0) {
            snprintf(func, sizeof func, "%.*s", (int)strcspn(q + 4, "("), q + 4);
        } else if (strncmp(q, push, strlen(push)) == 0) {
            st.kind = 'p';
            const char *a = q + strlen(push), *sp = memmem(q, ql, "split=", 6);
            snprintf(st.name, sizeof st.name, "%.*s", (int)strcspn(a, ",)"), a);
            st.split = sp ? (int)strtol(sp + 6, NULL, 10) : -1;
        } else if (bound_name(q, ql, st.name, sizeof st.name)) {
            const char *c = memmem(q, ql, pop, strlen(pop));
            st.kind = c ? 'o' : 'd';
        }
        if (st.kind) {
            st.line = line;
            snprintf(st.func, sizeof st.func, "%s", func);
            if (*n == cap) {
                cap = cap ? cap * 2 : 64;
                v = xreallocarray(v, cap, sizeof *v);
            }
            v[(*n)++] = st;
        }
        l += len + (l[len] == '\n');
    }
    return v;
}

/* The first push of direction to_aiv with split=SPLIT in the file text:
 * its line and function, 0 when none. */
static int push_with_split(const char *text, int to_aiv, int split, char *func, size_t fsize)
{
    size_t n;
    qstmt *v = queue_statements(text, to_aiv, &n);
    int line = 0;
    for (size_t i = 0; i < n && !line; i++)
        if (v[i].kind == 'p' && v[i].split == split) {
            line = v[i].line;
            snprintf(func, fsize, "%s", v[i].func);
        }
    free(v);
    return line;
}

/* A deadlock where a pop waits on an empty queue (to_aiv: the AIC->AIV
 * one): the tile no statement pushes. Each pop's tile is named after the
 * producer's ("gate__tile_Vec" for "gate__tile", ExpandMixedKernel's
 * naming): the longest name defined in the other half of its kernel that
 * the pop's target extends with "_". The one pop whose tile has a producer and no
 * push of it: the missing push belongs right after that tile's last
 * definition. Its line, function and the names into *line, func, tile,
 * *pop_line; 1 when exactly one such tile. */
static int missing_push(const char *text, int to_aiv, int *line, char *func, size_t fsize, char *tile,
                        size_t tsize, int *pop_line)
{
    size_t n;
    qstmt *v = queue_statements(text, to_aiv, &n);
    int found = 0;
    char seen[128] = "";
    for (size_t i = 0; i < n; i++) {
        if (v[i].kind != 'o')
            continue;
        /* the producer's tile: the longest definition in the other half of
         * the pop's mixed kernel (F_aiv pops what F_aic pushes, the names
         * ExpandMixedKernel gives them) */
        char producer[128];
        size_t fl = strlen(v[i].func);
        if (fl < 4 || strcmp(v[i].func + fl - 4, to_aiv ? "_aiv" : "_aic") != 0)
            continue;
        snprintf(producer, sizeof producer, "%.*s%s", (int)(fl - 4), v[i].func, to_aiv ? "_aic" : "_aiv");
        const qstmt *best = NULL;
        size_t best_len = 0;
        for (size_t k = 0; k < n; k++) {
            size_t dl = strlen(v[k].name);
            if (v[k].kind != 'd' || strcmp(v[k].func, producer) != 0 || dl <= best_len ||
                strncmp(v[i].name, v[k].name, dl) != 0 || v[i].name[dl] != '_')
                continue;
            best = &v[k];
            best_len = dl;
        }
        if (!best)
            continue;
        int pushed = 0;
        for (size_t j = 0; j < n && !pushed; j++)
            pushed = v[j].kind == 'p' && strcmp(v[j].func, best->func) == 0 && strcmp(v[j].name, best->name) == 0;
        if (pushed || strcmp(seen, best->name) == 0)
            continue;
        if (found++) /* two tiles unpushed: no one answer */
            break;
        snprintf(seen, sizeof seen, "%s", best->name);
        /* its last definition in that function */
        const qstmt *last = best;
        for (size_t k = 0; k < n; k++)
            if (v[k].kind == 'd' && strcmp(v[k].func, best->func) == 0 && strcmp(v[k].name, best->name) == 0)
                last = &v[k];
        *line = last->line + 1;
        snprintf(func, fsize, "%s", last->func);
        snprintf(tile, tsize, "%s", last->name);
        *pop_line = v[i].line;
    }
    free(v);
    return found == 1;
}

/* ---- the dataflow chain: the statement a consumer only passes on ------------------------------- */

static void chain_answer(const divergence_side *good, const divergence_side *bad, int good_pass, int bad_pass,
                         const runpass_options *ro, bisect_stmt *s, why_log *keep_bad, why_log *keep_good)
{
    /* why's log follows one machine: a multi-rank case keeps the first
     * differing value (docs/why.md, "Not done"); a changed op or a NaN that
     * appears is where the value is made, not passed on */
    if (!s->found || s->fails || s->new_if || s->op_changed || s->op_now || s->nan_new || s->rank >= 0 ||
        bad->c->ranks.nranks)
        return;
    why_refine_side b = {bad->path, bad->stem, bad->c, bad_pass}, g = {good->path, good->stem, good->c, good_pass};
    why_blame wb;
    if (!why_refine_divergence(&b, &g, ro, s->line, s->good_line, &wb, keep_bad, keep_good))
        return;
    if (wb.by_order) {
        /* the statement stays: it read another core's data too early */
        s->chain_why = xstrdup(wb.why);
        set_why(s, DIVERGE_LANE, "%s", wb.why);
        return;
    }
    s->consumer_line = s->line;
    s->consumer_tensor = s->tensor;
    s->tensor = xstrdup(wb.tensor);
    s->line = wb.line;
    s->core = wb.core;
    free(s->func);
    s->func = xstrdup(wb.func);
    s->chain_why = xstrdup(wb.why);
    char text[256];
    line_text(bad->path, wb.line, text, sizeof text);
    if (wb.by_loop && (strncmp(text, "if ", 3) == 0 || strncmp(text, "elif ", 5) == 0))
        set_why(s, DIVERGE_BRANCH, "the if at line %d (%.120s) takes another branch than in %s", wb.line, text,
                good->stem);
    else if (wb.by_loop)
        set_why(s, DIVERGE_LOOP, "the loop at line %d runs another trip count or step than in %s", wb.line,
                good->stem);
}

/* ---- the reason ------------------------------------------------------------------------------ */

static int has_op(const char *op, const char *what)
{
    return op && strstr(op, what) != NULL;
}

/* A race the machine met at a write over what another core read before
 * ("race: AIC writes kv[...] at 22:14:9 that AIV0 read at 22:20:13 (in
 * f_aiv) ...", exec/gmrace.h): the read is the statement to blame, the
 * load that ran unfenced, as it is when the read comes second. */
static void race_blame_read(bisect_stmt *s)
{
    const char *r = strstr(s->note, ": race: ");
    const char *that = r ? strstr(r, " that ") : NULL;
    const char *at = that ? strstr(that, " read at ") : NULL;
    const char *in = at ? strstr(at, " (in ") : NULL;
    if (!in)
        return;
    int core = strncmp(that + 6, "AIC", 3) == 0    ? EXEC_CORE_AIC
               : strncmp(that + 6, "AIV0", 4) == 0 ? EXEC_CORE_AIV0
               : strncmp(that + 6, "AIV1", 4) == 0 ? EXEC_CORE_AIV1
                                                   : -1;
    long line = divergence_race_line(at + 9);
    const char *fn = in + 5, *close = strchr(fn, ')');
    if (core < 0 || line <= 0 || !close || close - fn > 120)
        return;
    s->line = (int)line;
    s->core = core;
    free(s->func);
    s->func = xstrndup(fn, (size_t)(close - fn));
}

static void classify(const divergence_side *good, const divergence_side *bad, bisect_stmt *s)
{
    char text[512];
    if (s->reason)
        return;
    if (!s->found) {
        s->reason = DIVERGE_NONE;
        return;
    }
    if (s->fails) {
        line_text(s->file, s->line, text, sizeof text);
        if (s->note && strstr(s->note, ": race: AI")) { /* exec/gmrace.h: "race: AIV0 reads ..." */
            race_blame_read(s);
            set_why(s, DIVERGE_LANE,
                    "it touches global memory another core or block of its launch touched with no pipe or "
                    "barrier ordering them (the race check), where %s ran to its end",
                    good->stem);
        } else if (strstr(text, "split=") || (s->note && strstr(s->note, "its split=")))
            set_why(s, DIVERGE_LANE,
                    "its split= hands the lanes other parts than the other side of the queue expects, and the "
                    "group stops there (%s ran to its end)",
                    good->stem);
        else
            set_why(s, DIVERGE_ERROR, "the run stops at this statement where %s ran to its end", good->stem);
        return;
    }
    const char *t = s->tensor ? s->tensor : "";
    if (s->new_if) {
        set_why(s, DIVERGE_BRANCH,
                "the if at line %d (new in this pass) takes the branches that make the outputs fail: inverted, "
                "they pass",
                s->line);
        return;
    }
    if (strncmp(t, "branch taken", 12) == 0) {
        char cond[256];
        line_text(s->file, s->line, cond, sizeof cond);
        set_why(s, DIVERGE_BRANCH, "the if at line %d (%s) takes another branch than in %s", s->line, cond,
                good->stem);
        return;
    }
    if (strncmp(t, "trip count", 10) == 0 || strncmp(t, "the loop over", 13) == 0) {
        set_why(s, DIVERGE_LOOP, "the loop at line %d runs another trip count or step than in %s", s->line,
                good->stem);
        return;
    }
    if (s->nan_new) {
        set_why(s, DIVERGE_NAN, "its value has NaN or Inf where %s's has none (every value before it agrees)",
                good->stem);
        return;
    }
    if (s->op_now || s->op_changed) {
        if (s->op_now)
            set_why(s, DIVERGE_OP, "its op changed: %s where %s has %s", s->op_now, good->stem, s->op_was);
        else
            set_why(s, DIVERGE_OP, "its op differs from its counterpart's in %s", good->stem);
        return;
    }
    if (has_op(s->stmt_op, "yield_carry")) {
        set_why(s, DIVERGE_OP,
                "the value it hands over to the loop's carry for the next iteration differs from the one %s "
                "carries (every value before it agrees)",
                good->stem);
        return;
    }
    if (has_op(s->good_stmt_op, "store") && !has_op(s->stmt_op, "store")) {
        set_why(s, DIVERGE_NOT_WRITTEN,
                "%s stores here (%s, line %d); in this pass the statement stores nothing: the output's elements "
                "it wrote are never written",
                good->stem, s->good_stmt_op, s->good_line);
        return;
    }
    if (s->core == EXEC_CORE_AIV1) {
        set_why(s, DIVERGE_LANE, "lane 1 (AIV1) holds other data than in %s while lane 0 agrees", good->stem);
        return;
    }
    if (s->chain_why) {
        const char *fw = s->chain_why;
        if (strstr(fw, " reads ") && strchr(fw, '['))
            set_why(s, DIVERGE_REGION, "it reads another region than in %s (the dataflow chain)", good->stem);
        else if (strstr(fw, "op differs") || strstr(fw, "another order"))
            set_why(s, DIVERGE_OP, "its op or operands differ from %s's (the dataflow chain)", good->stem);
        else if (strstr(fw, "branch"))
            set_why(s, DIVERGE_BRANCH, "another branch made its value than in %s (the dataflow chain)", good->stem);
        else
            set_why(s, DIVERGE_VALUE, "its value differs from %s's; its inputs agree along the dataflow chain",
                    good->stem);
        return;
    }
    if (has_op(s->stmt_op, "load") || has_op(s->stmt_op, "pop")) {
        set_why(s, DIVERGE_VALUE, "it brings in other data than in %s; nothing it reads was compared before it",
                good->stem);
        return;
    }
    set_why(s, DIVERGE_OP, "its value is beyond tolerance while every value before it agrees with %s",
            good->stem);
}

void diverge_find(const divergence_side *good, const divergence_side *bad, int good_pass, int bad_pass,
                  const runpass_options *ro, double rtol, double atol, size_t max_trace_bytes, bisect_stmt *s)
{
    diverge_find_keep_logs(good, bad, good_pass, bad_pass, ro, rtol, atol, max_trace_bytes, s, NULL, NULL);
}

void diverge_find_keep_logs(const divergence_side *good, const divergence_side *bad, int good_pass, int bad_pass,
                            const runpass_options *ro, double rtol, double atol, size_t max_trace_bytes,
                            bisect_stmt *s, why_log *keep_bad, why_log *keep_good)
{
    if (keep_bad)
        memset(keep_bad, 0, sizeof *keep_bad);
    if (keep_good)
        memset(keep_good, 0, sizeof *keep_good);
    /* the caller wants the logs: the search's runs make them */
    if (keep_bad && keep_good)
        divergence_find_logged(good, bad, ro, rtol, atol, max_trace_bytes, s, keep_good, keep_bad);
    else
        divergence_find(good, bad, ro, rtol, atol, max_trace_bytes, s);
    const volatile sig_atomic_t *stop = ro->mopt.interrupt;
    if (stop && *stop)
        return;
    if (!memfault_answer(good, bad, ro, s))
        chain_answer(good, bad, good_pass, bad_pass, ro, s, keep_bad, keep_good);
    if (s->fails || !s->found) {
        int line = 0, core = 0;
        char func[128] = "?";
        if (blocked_cores(s->note, s, &line, func, sizeof func, &core) && !s->found) {
            s->found = s->fails = 1;
            s->file = xstrdup(bad->path);
            s->func = xstrdup(func);
            s->tensor = xstrdup("");
            s->line = line;
            s->core = core;
            s->first_bad = -1;
            set_why(s, DIVERGE_ERROR,
                    "the group deadlocks: every live core waits (this one first) where %s ran to its end",
                    good->stem);
        }
    }
    /* a deadlock where a pop waits in another split mode than the tiles
     * its queue holds: the side whose split= is not its function's
     * declared mode (the pop, or the push that filled the queue), not the
     * first core that waits */
    if (s->found && s->fails && s->note && s->reason == DIVERGE_ERROR) {
        int line = 0, core = 0, was = 0, now = 0;
        char func[128] = "?";
        size_t len;
        char *text = split_mismatched_pop(s->note, &line, func, sizeof func, &core, &was, &now)
                         ? file_read_all(bad->path, &len)
                         : NULL;
        if (text) {
            int pop_declared = declared_split(text, func, line);
            if (pop_declared == now) {
                /* the pop agrees with its function: the push does not */
                char pfunc[128];
                int from_aic = core == EXEC_CORE_AIV0 || core == EXEC_CORE_AIV1;
                int pline = push_with_split(text, from_aic, was, pfunc, sizeof pfunc);
                if (pline > 0 && declared_split(text, pfunc, pline) != was) {
                    line = pline;
                    snprintf(func, sizeof func, "%s", pfunc);
                    core = from_aic ? EXEC_CORE_AIC : EXEC_CORE_AIV0;
                    int t = now;
                    now = was;
                    was = t;
                } else {
                    line = 0;
                }
            }
            free(text);
        }
        if (line > 0 && line != s->line) {
            free(s->file);
            free(s->func);
            s->file = xstrdup(bad->path);
            s->func = xstrdup(func);
            s->line = line;
            s->core = core;
            set_why(s, DIVERGE_LANE,
                    "its split= hands the lanes other parts than the other side of the queue expects (split=%d "
                    "where the other side has split=%d), and the group stops there (%s ran to its end)",
                    now, was, good->stem);
        }
    }
    /* a deadlock where a pop waits on an empty queue for a tile no
     * statement pushes: where that push belongs */
    if (s->found && s->fails && s->reason == DIVERGE_ERROR && s->note && strstr(s->note, "deadlock in group ")) {
        size_t len;
        char *text = strstr(s->note, " on tpop_from_") ? file_read_all(bad->path, &len) : NULL;
        int line = 0, pop_line = 0, to_aiv = 1;
        char func[128], tile[128];
        /* either queue (every core waits: which pop waits for the missing
         * tile is not the first one listed); one tile unpushed in all */
        int n = 0;
        for (int d = 1; d >= 0 && text; d--) {
            int l2, p2;
            char f2[128], t2[128];
            if (missing_push(text, d, &l2, f2, sizeof f2, t2, sizeof t2, &p2) && !n++) {
                line = l2;
                pop_line = p2;
                to_aiv = d;
                snprintf(func, sizeof func, "%s", f2);
                snprintf(tile, sizeof tile, "%s", t2);
            }
        }
        if (n == 1) {
            free(s->file);
            free(s->func);
            s->file = xstrdup(bad->path);
            s->func = xstrdup(func);
            s->line = line;
            s->core = to_aiv ? EXEC_CORE_AIC : EXEC_CORE_AIV0;
            set_why(s, DIVERGE_ERROR,
                    "the group deadlocks: the pop at line %d waits for %s, which no statement pushes (%s ran to "
                    "its end); its push belongs here, after its last definition",
                    pop_line, tile, good->stem);
        }
        free(text);
    }
    classify(good, bad, s);
}

/* ---- report ---------------------------------------------------------------------------------- */

/* "  INTRO: line 30 't__tile_7', ..." when other statements differ */
static void put_later(strbuf *out, const bisect_stmt *s, const char *intro)
{
    if (!s->nlater)
        return;
    strbuf_printf(out, "  %s:", intro);
    for (size_t k = 0; k < s->nlater; k++)
        strbuf_printf(out, "%s line %d '%s'", k ? "," : "", s->later_line[k], s->later_tensor[k]);
    strbuf_putc(out, '\n');
}

static void put_counts(strbuf *out, const bisect_stmt *s)
{
    strbuf_printf(out, "  %zu other tensors matched their counterparts within tolerance", s->compared);
    if (s->realigned)
        strbuf_printf(out, " (%zu of them another occurrence of the same statement)", s->realigned);
    if (s->unmatched)
        strbuf_printf(out, "; %zu had no same-shaped counterpart", s->unmatched);
    strbuf_putc(out, '\n');
}

/* ", block B of N" when the value came from an SPMD block, else "". */
static const char *block_words(const bisect_stmt *s, char *buf, size_t size)
{
    if (s->blocks > 1)
        snprintf(buf, size, ", block %lld of %lld", (long long)s->block, (long long)s->blocks);
    else
        buf[0] = '\0';
    return buf;
}

/* "  reason: WORD: why" (the engine's vocabulary) */
static void put_reason(strbuf *out, const bisect_stmt *s)
{
    if (s->reason)
        strbuf_printf(out, "  reason: %s: %s\n", diverge_reason_word(s->reason), s->reason_why ? s->reason_why : "");
}

static void put_block(strbuf *out, const char *text, const char *indent)
{
    for (const char *l = text; l && *l;) {
        size_t len = strcspn(l, "\n");
        strbuf_printf(out, "%s%.*s\n", indent, (int)len, l);
        l += len + (l[len] == '\n');
    }
}

void diverge_report_text(const bisect_stmt *s, const char *good_stem, const char *bad_stem, double rtol,
                         double atol, strbuf *out)
{
    char blk[64], where[64];
    if (s->found && s->reason == DIVERGE_MEMFAULT) {
        strbuf_printf(out, "first divergence: %s:%d: tensor '%s' (function %s, %s)\n", s->file, s->line, s->tensor,
                      s->func, divergence_where(s->rank, s->core, where, sizeof where));
        put_reason(out, s);
        put_block(out, s->memreport, "  ");
        if (s->consumer_tensor)
            strbuf_printf(out, "  the first value that differs in execution order is line %d '%s'\n", s->consumer_line,
                          s->consumer_tensor);
    } else if (s->found && s->fails) {
        strbuf_printf(out, "first divergence: %s:%d: the statement fails (function %s, %s%s) where %s ran to its "
                           "end\n",
                      s->file, s->line, s->func, divergence_where(s->rank, s->core, where, sizeof where), block_words(s, blk, sizeof blk),
                      good_stem);
        put_reason(out, s);
        if (s->waiting) {
            strbuf_puts(out, "  waiting:\n");
            put_block(out, s->waiting, "    ");
        }
        put_block(out, s->note, "  ");
    } else if (s->found && s->new_if) {
        strbuf_printf(out, "first divergence: %s:%d: tensor '%s' (function %s, %s%s)\n", s->file, s->line,
                      s->tensor, s->func, divergence_where(s->rank, s->core, where, sizeof where), block_words(s, blk, sizeof blk));
        put_reason(out, s);
        strbuf_printf(out,
                      "  no counterpart in %s: the if is new in this pass; found by a test, not a match: run again "
                      "with its condition inverted (the other branch at each of its %llu runs, %llu of which took "
                      "the then branch), %s passes: its decisions are where the two passes part\n",
                      good_stem, (unsigned long long)s->new_if_runs,
                      (unsigned long long)s->new_if_then, bad_stem);
        put_later(out, s, "then differing in this pass");
        put_counts(out, s);
    } else if (s->found && s->op_changed) {
        strbuf_printf(out, "first divergence: %s:%d: tensor '%s' (function %s, %s%s)\n", s->file, s->line,
                      s->tensor, s->func, divergence_where(s->rank, s->core, where, sizeof where), block_words(s, blk, sizeof blk));
        put_reason(out, s);
        strbuf_printf(out,
                      "  its op differs from that of '%s' at %s:%d (function %s); no tensor could be compared "
                      "with a same-shaped counterpart beyond that (%zu compared, %zu without one)\n",
                      s->good_tensor, s->good_file, s->good_line, s->good_func, s->compared, s->unmatched);
    } else if (s->found) {
        char rt[32], at[32];
        snprintf(rt, sizeof rt, "%.3e", rtol);
        snprintf(at, sizeof at, "%.3e", atol);
        strbuf_printf(out, "first divergence: %s:%d: tensor '%s' (function %s, %s%s)\n", s->file, s->line,
                      s->tensor, s->func, divergence_where(s->rank, s->core, where, sizeof where), block_words(s, blk, sizeof blk));
        put_reason(out, s);
        if (s->chain_why)
            strbuf_printf(out, "  named %s\n  the first value that differs in execution order is line %d '%s':\n",
                          s->chain_why, s->consumer_line, s->consumer_tensor);
        strbuf_printf(out,
                      "  differs from '%s' at %s:%d (function %s): max_abs_diff %.6e (its largest magnitude "
                      "%.6e), %lld of %lld elements outside rtol=%s atol=%s",
                      s->good_tensor, s->good_file, s->good_line, s->good_func, s->max_abs_diff, s->max_golden,
                      (long long)s->outside, (long long)s->count, rt, at);
        if (s->first_bad >= 0)
            strbuf_printf(out, ", first at flat index %lld (%.6g vs %.6g)", (long long)s->first_bad, s->actual_at,
                          s->good_at);
        strbuf_putc(out, '\n');
        if (s->region)
            strbuf_printf(out, "  matched by region %s: the same GM region in both passes (flat index within it)\n",
                          s->region);
        if (s->by_provenance)
            strbuf_puts(out, "  matched by provenance: the value computed from the same data by the same ops in both "
                             "passes\n");
        if (!s->region && !s->by_provenance)
            strbuf_printf(out, "  a guess: matched by SSA base names, op and occurrence in %s (no GM region or "
                               "provenance names this value)\n",
                          s->good_func);
        if (s->op_now)
            strbuf_printf(out, "  its op changed: %s where the passing pass has %s\n", s->op_now, s->op_was);
        if (s->earlier_tensor)
            strbuf_printf(out,
                          "  an earlier statement differs too: line %d '%s' (a pass may rewrite an intermediate "
                          "on purpose; a changed op is the likelier cause)\n",
                          s->earlier_line, s->earlier_tensor);
        put_later(out, s, "then also differing in this pass");
        put_counts(out, s);
    } else {
        strbuf_printf(out, "first divergence: not found: %s\n", s->note ? s->note : "?");
    }
    if (s->bit_tensor && (!s->found || s->bit_line != s->line))
        strbuf_printf(out,
                      "  earliest bit-level difference: line %d '%s' (%s): %lld of %lld elements differ, by up "
                      "to %.6e, within tolerance (a pass may reorder arithmetic on purpose)\n",
                      s->bit_line, s->bit_tensor, divergence_where(s->bit_rank, s->bit_core, where, sizeof where), (long long)s->bit_count,
                      (long long)s->bit_numel, s->bit_max);
}

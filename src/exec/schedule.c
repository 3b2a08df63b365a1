/* A run's schedule file: parsing, printing, recording (schedule.h). */
#include "exec/schedule.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/input_file.h"
#include "base/mem.h"
#include "base/number.h"
#include "base/strbuf.h"

enum { LINE_MAX_BYTES = 4096, NCORES = 4 };

/* exec_core_id's names (machine.h), as positions print them */
static const char *const core_names[NCORES] = {"host", "AIC", "AIV0", "AIV1"};

static const char *const end_names[] = {"", "finished", "failed", "stopped"};

uint64_t exec_schedule_fingerprint(const char *text, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

int exec_schedule_parse_name(const char *text, int *kind, uint64_t *seed, char *err, size_t errsize)
{
    /* the values of machine.h's exec_sched */
    static const char *const names[] = {"fixed", "aic-first", "aiv-first"};
    *seed = 0;
    for (int i = 0; i < 3; i++)
        if (strcmp(text, names[i]) == 0) {
            *kind = i;
            return 0;
        }
    if (strncmp(text, "random:", 7) == 0 && text[7]) {
        if (parse_u64(text + 7, seed) == 0) {
            *kind = 3;
            return 0;
        }
        snprintf(err, errsize, "the seed in '%s' must be an integer from 0 to %llu", text,
                 (unsigned long long)UINT64_MAX);
        return -1;
    }
    snprintf(err, errsize, "expected fixed, aic-first, aiv-first or random:SEED, got '%s'", text);
    return -1;
}

/* ---- recording ---------------------------------------------------------------------------- */

exec_sched_pass *exec_sched_pass_new(int index, const char *name, uint64_t fingerprint)
{
    exec_sched_pass *p = xcalloc(1, sizeof *p);
    p->index = index;
    p->name = xstrdup(name && *name ? name : "?");
    /* a name is one token of the file */
    for (char *c = p->name; *c; c++)
        if ((unsigned char)*c <= ' ' || *c == 0x7f)
            *c = '_';
    p->fingerprint = fingerprint;
    return p;
}

void exec_sched_pass_free(exec_sched_pass *p)
{
    if (!p)
        return;
    free(p->name);
    free(p->d);
    free(p);
}

static void push(exec_sched_pass *p, const exec_decision *d)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->d = xreallocarray(p->d, p->cap, sizeof *p->d);
    }
    p->d[p->n++] = *d;
}

void exec_sched_pass_record(exec_sched_pass *p, const exec_decision *d)
{
    if (d->step < p->reached || p->end != EXEC_SCHED_END_NONE)
        return;
    push(p, d);
}

void exec_sched_pass_reach(exec_sched_pass *p, uint64_t steps)
{
    if (steps > p->reached)
        p->reached = steps;
}

void exec_sched_pass_end(exec_sched_pass *p, uint64_t steps, exec_sched_end end)
{
    p->end_step = steps;
    p->end = end;
}

void exec_schedule_format_head(strbuf *out)
{
    strbuf_printf(out, "ptodb-schedule %d\n", EXEC_SCHEDULE_VERSION);
    strbuf_puts(out, "# The choices of a ptodb run that its program does not fix (docs/schedule.md):\n"
                     "# @STEP core CORE LINE: CORE runs step STEP, at LINE of the pass file;\n"
                     "# @STEP blocks CORE LINE N A C: the launch at LINE runs block (A*i + C) mod N i-th.\n");
}

void exec_sched_pass_format(const exec_sched_pass *p, strbuf *out)
{
    strbuf_printf(out, "pass %d %016" PRIx64 " %s\n", p->index, p->fingerprint, p->name);
    for (size_t i = 0; i < p->n; i++) {
        const exec_decision *d = &p->d[i];
        const char *core = (unsigned)d->core < NCORES ? core_names[d->core] : "?";
        if (d->kind == EXEC_DECIDE_CORE)
            strbuf_printf(out, "@%" PRIu64 " core %s %d\n", d->step, core, (int)d->line);
        else
            strbuf_printf(out, "@%" PRIu64 " blocks %s %d %" PRId64 " %" PRId64 " %" PRId64 "\n", d->step, core,
                          (int)d->line, d->blocks, d->a, d->c);
    }
    int end = p->end == EXEC_SCHED_END_NONE ? EXEC_SCHED_END_STOPPED : p->end;
    uint64_t steps = p->end == EXEC_SCHED_END_NONE ? p->reached : p->end_step;
    strbuf_printf(out, "end %" PRIu64 " %s\n", steps, end_names[end]);
}

/* ---- parsing ------------------------------------------------------------------------------ */

typedef struct parser {
    const char *path;
    const char *line; /* the current line (not NUL-terminated) */
    size_t len, pos;
    uint32_t lineno;
    strbuf *err;
} parser;

static int fail_at(parser *q, size_t col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_at(parser *q, size_t col, const char *fmt, ...)
{
    strbuf_clear(q->err);
    strbuf_printf(q->err, "%s:%" PRIu32 ":%zu: ", q->path, q->lineno, col + 1);
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(q->err, fmt, ap);
    va_end(ap);
    return -1;
}

/* The next space-separated token: its start and length (0 at the line's end). */
static size_t token(parser *q, const char **tok, size_t *col)
{
    *col = q->pos;
    *tok = q->line + q->pos;
    size_t n = 0;
    while (q->pos < q->len && q->line[q->pos] != ' ') {
        q->pos++;
        n++;
    }
    if (q->pos < q->len)
        q->pos++; /* the single space after it */
    return n;
}

static int tok_is(const char *tok, size_t n, const char *word)
{
    return n == strlen(word) && memcmp(tok, word, n) == 0;
}

/* An unsigned decimal token of at most `max`. */
static int num(parser *q, const char *what, uint64_t max, uint64_t *out)
{
    const char *t;
    size_t col;
    size_t n = token(q, &t, &col);
    if (!n)
        return fail_at(q, col, "expected %s, found the end of the line", what);
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] < '0' || t[i] > '9')
            return fail_at(q, col, "expected %s (a decimal number), found '%.*s'", what, (int)n, t);
        if (v > (max - (uint64_t)(t[i] - '0')) / 10)
            return fail_at(q, col, "%s '%.*s' is too large (at most %" PRIu64 ")", what, (int)n, t, max);
        v = v * 10 + (uint64_t)(t[i] - '0');
    }
    if (n > 1 && t[0] == '0')
        return fail_at(q, col, "%s '%.*s' has a leading zero", what, (int)n, t);
    *out = v;
    return 0;
}

static int line_end(parser *q)
{
    if (q->pos < q->len || (q->len && q->line[q->len - 1] == ' '))
        return fail_at(q, q->pos < q->len ? q->pos : q->len - 1, "unexpected text at the end of the line: '%.*s'",
                       (int)(q->len - q->pos), q->line + q->pos);
    return 0;
}

static int core_tok(parser *q, int8_t *core)
{
    const char *t;
    size_t col;
    size_t n = token(q, &t, &col);
    for (int i = 0; i < NCORES; i++)
        if (tok_is(t, n, core_names[i])) {
            *core = (int8_t)i;
            return 0;
        }
    return fail_at(q, col, "expected a core (host, AIC, AIV0 or AIV1), found '%.*s'", (int)n, t);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static int decision(parser *q, exec_sched_pass *p)
{
    exec_decision d;
    memset(&d, 0, sizeof d);
    d.file_line = q->lineno;
    q->pos = 1; /* past '@' */
    size_t col0 = 1;
    if (num(q, "a step", UINT64_MAX - 1, &d.step) != 0)
        return -1;
    if (p->n && d.step <= p->d[p->n - 1].step)
        return fail_at(q, col0, "step %" PRIu64 " is not after the previous decision's (%" PRIu64 ", line %" PRIu32 ")",
                       d.step, p->d[p->n - 1].step, p->d[p->n - 1].file_line);
    const char *t;
    size_t col;
    size_t n = token(q, &t, &col);
    uint64_t v;
    if (tok_is(t, n, "core")) {
        d.kind = EXEC_DECIDE_CORE;
        if (core_tok(q, &d.core) != 0)
            return -1;
        if (d.core == 0)
            return fail_at(q, col + n + 1, "the host core is never a choice of the schedule (it runs alone)");
        if (num(q, "a line", INT32_MAX, &v) != 0)
            return -1;
        d.line = (int32_t)v;
    } else if (tok_is(t, n, "blocks")) {
        d.kind = EXEC_DECIDE_BLOCKS;
        if (core_tok(q, &d.core) != 0 || num(q, "a line", INT32_MAX, &v) != 0)
            return -1;
        d.line = (int32_t)v;
        uint64_t blocks, a, c;
        size_t cb = q->pos;
        if (num(q, "a block count", (uint64_t)1 << 20, &blocks) != 0)
            return -1;
        if (blocks < 2)
            return fail_at(q, cb, "a launch of %" PRIu64 " block%s has no order to choose", blocks,
                           blocks == 1 ? "" : "s");
        size_t ca = q->pos;
        if (num(q, "the order's multiplier", blocks, &a) != 0)
            return -1;
        if (a < 1 || gcd(a, blocks) != 1)
            return fail_at(q, ca, "the order's multiplier %" PRIu64 " must be from 1 to %" PRIu64 " and prime to it",
                           a, blocks);
        size_t cc = q->pos;
        if (num(q, "the order's offset", UINT32_MAX, &c) != 0)
            return -1;
        if (c >= blocks)
            return fail_at(q, cc, "the order's offset %" PRIu64 " must be below the block count %" PRIu64, c, blocks);
        if (a == 1 && c == 0)
            return fail_at(q, ca, "blocks 0 to N-1 in order is the fixed schedule's, never recorded");
        d.blocks = (int64_t)blocks;
        d.a = (int64_t)a;
        d.c = (int64_t)c;
    } else {
        return fail_at(q, col, "expected 'core' or 'blocks' after the step, found '%.*s'", (int)n, t);
    }
    if (line_end(q) != 0)
        return -1;
    push(p, &d);
    return 0;
}

static int pass_line(parser *q, exec_schedule *s, exec_sched_pass **out)
{
    q->pos = 5; /* past "pass " */
    uint64_t index;
    size_t ci = q->pos;
    if (num(q, "a pass index", INT32_MAX, &index) != 0)
        return -1;
    for (size_t i = 0; i < s->n; i++)
        if (s->passes[i]->index == (int)index)
            return fail_at(q, ci, "pass %" PRIu64 " again (its section starts at line %" PRIu32 ")", index,
                           s->passes[i]->file_line);
    const char *t;
    size_t col;
    size_t n = token(q, &t, &col);
    uint64_t fp = 0;
    if (n != 16)
        return fail_at(q, col, "expected the pass text's fingerprint (16 hex digits), found '%.*s'", (int)n, t);
    for (size_t i = 0; i < n; i++) {
        int c = t[i];
        int v = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (v < 0)
            return fail_at(q, col + i, "expected a lower-case hex digit in the fingerprint, found '%c'", c);
        fp = fp << 4 | (uint64_t)v;
    }
    size_t cn;
    n = token(q, &t, &cn);
    if (!n)
        return fail_at(q, cn, "expected the pass's name after its fingerprint");
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)t[i] < ' ' || t[i] == 0x7f)
            return fail_at(q, cn + i, "a control character in the pass's name");
    if (line_end(q) != 0)
        return -1;
    exec_sched_pass *p = xcalloc(1, sizeof *p);
    p->index = (int)index;
    p->name = xstrndup(t, n);
    p->fingerprint = fp;
    p->file_line = q->lineno;
    p->path = s->path;
    s->passes = xreallocarray(s->passes, s->n + 1, sizeof *s->passes);
    s->passes[s->n++] = p;
    *out = p;
    return 0;
}

static int end_line(parser *q, exec_sched_pass *p)
{
    q->pos = 4; /* past "end " */
    uint64_t steps;
    size_t cs = q->pos;
    if (num(q, "the run's steps", UINT64_MAX - 1, &steps) != 0)
        return -1;
    if (p->n && steps <= p->d[p->n - 1].step)
        return fail_at(q, cs, "the run ends at step %" PRIu64 ", not after its last decision (step %" PRIu64
                              ", line %" PRIu32 ")",
                       steps, p->d[p->n - 1].step, p->d[p->n - 1].file_line);
    const char *t;
    size_t col;
    size_t n = token(q, &t, &col);
    int end = 0;
    for (int i = EXEC_SCHED_END_FINISHED; i <= EXEC_SCHED_END_STOPPED; i++)
        if (tok_is(t, n, end_names[i]))
            end = i;
    if (!end)
        return fail_at(q, col, "expected finished, failed or stopped, found '%.*s'", (int)n, t);
    if (line_end(q) != 0)
        return -1;
    p->end_step = steps;
    p->end = end;
    p->end_line = q->lineno;
    return 0;
}

exec_schedule *exec_schedule_parse(const char *path, const char *text, size_t len, strbuf *err)
{
    exec_schedule *s = xcalloc(1, sizeof *s);
    s->path = xstrdup(path);
    parser q = {.path = s->path, .err = err};
    exec_sched_pass *cur = NULL; /* the open section */
    int rc = 0, head = 0;
    size_t at = 0;
    while (at < len && rc == 0) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        q.line = text + at;
        q.len = end - at;
        q.pos = 0;
        q.lineno++;
        at = nl ? end + 1 : len;
        if (q.len > LINE_MAX_BYTES) {
            rc = fail_at(&q, LINE_MAX_BYTES, "a line longer than %d bytes", LINE_MAX_BYTES);
            break;
        }
        if (memchr(q.line, 0, q.len)) {
            rc = fail_at(&q, (size_t)((const char *)memchr(q.line, 0, q.len) - q.line), "a NUL byte");
            break;
        }
        if (q.len && q.line[q.len - 1] == '\r') {
            rc = fail_at(&q, q.len - 1, "a carriage return (the file's lines end with \\n alone)");
            break;
        }
        if (!head) {
            if (q.len >= 15 && memcmp(q.line, "ptodb-schedule ", 15) == 0) {
                q.pos = 15;
                uint64_t v;
                if ((rc = num(&q, "a format version", 1000000, &v)) != 0 || (rc = line_end(&q)) != 0)
                    break;
                if (v != EXEC_SCHEDULE_VERSION) {
                    rc = fail_at(&q, 15, "schedule format version %" PRIu64 ": this ptodb reads version %d", v,
                                 EXEC_SCHEDULE_VERSION);
                    break;
                }
                head = 1;
                continue;
            }
            rc = fail_at(&q, 0, "not a ptodb schedule: the first line must be 'ptodb-schedule %d'",
                         EXEC_SCHEDULE_VERSION);
            break;
        }
        if (!q.len || q.line[0] == '#')
            continue;
        if (q.line[0] == '@') {
            if (!cur)
                rc = fail_at(&q, 0, "a decision outside a pass's section (a 'pass' line comes first)");
            else
                rc = decision(&q, cur);
        } else if (q.len >= 5 && memcmp(q.line, "pass ", 5) == 0) {
            if (cur)
                rc = fail_at(&q, 0, "a new pass before the 'end' of pass %d (line %" PRIu32 ")", cur->index,
                             cur->file_line);
            else
                rc = pass_line(&q, s, &cur);
        } else if (q.len >= 4 && memcmp(q.line, "end ", 4) == 0) {
            if (!cur)
                rc = fail_at(&q, 0, "an 'end' outside a pass's section");
            else if ((rc = end_line(&q, cur)) == 0)
                cur = NULL;
        } else {
            size_t n = 0;
            while (n < q.len && q.line[n] != ' ')
                n++;
            rc = fail_at(&q, 0, "expected a decision (@STEP ...), 'pass', 'end' or a # comment, found '%.*s'",
                         (int)(n > 40 ? 40 : n), q.line);
        }
    }
    if (rc == 0 && !head) {
        q.lineno = q.lineno ? q.lineno : 1;
        q.len = 0;
        rc = fail_at(&q, 0, "not a ptodb schedule: the file is empty");
    } else if (rc == 0 && cur) {
        q.len = 0;
        rc = fail_at(&q, 0, "pass %d's section (line %" PRIu32 ") has no 'end' line: the file is cut short",
                     cur->index, cur->file_line);
    } else if (rc == 0 && !s->n) {
        q.len = 0;
        rc = fail_at(&q, 0, "no pass's section in the file");
    }
    if (rc != 0) {
        exec_schedule_free(s);
        return NULL;
    }
    return s;
}

exec_schedule *exec_schedule_load(const char *path, strbuf *err)
{
    char why[512];
    int fd = input_file_open(path, why, sizeof why);
    if (fd < 0) {
        strbuf_clear(err);
        strbuf_printf(err, "%s: %s", path, why);
        return NULL;
    }
    strbuf text = STRBUF_INIT;
    char buf[65536];
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            strbuf_clear(err);
            strbuf_printf(err, "%s: cannot read: %s", path, strerror(errno));
            close(fd);
            strbuf_free(&text);
            return NULL;
        }
        if (n == 0)
            break;
        if (text.len + (size_t)n > (size_t)1 << 30) {
            strbuf_clear(err);
            strbuf_printf(err, "%s: a schedule file over 1 GiB", path);
            close(fd);
            strbuf_free(&text);
            return NULL;
        }
        strbuf_append(&text, buf, (size_t)n);
    }
    close(fd);
    exec_schedule *s = exec_schedule_parse(path, text.len ? strbuf_str(&text) : "", text.len, err);
    strbuf_free(&text);
    return s;
}

void exec_schedule_free(exec_schedule *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        exec_sched_pass_free(s->passes[i]);
    free(s->passes);
    free(s->path);
    free(s);
}

const exec_sched_pass *exec_schedule_for_pass(const exec_schedule *s, int index, const char *name,
                                              uint64_t fingerprint, strbuf *err)
{
    strbuf_clear(err);
    for (size_t i = 0; i < s->n; i++) {
        const exec_sched_pass *p = s->passes[i];
        if (p->index != index)
            continue;
        exec_sched_pass *tmp = exec_sched_pass_new(index, name, fingerprint);
        if (strcmp(tmp->name, p->name) != 0)
            strbuf_printf(err, "%s:%" PRIu32 ": the schedule is of pass %d %s; this case's pass %d is %s", s->path,
                          p->file_line, p->index, p->name, index, tmp->name);
        else if (p->fingerprint != fingerprint)
            strbuf_printf(err,
                          "%s:%" PRIu32 ": pass %d %s has changed since the schedule was recorded (its text's "
                          "fingerprint is %016" PRIx64 ", the file's %016" PRIx64 ")",
                          s->path, p->file_line, index, p->name, fingerprint, p->fingerprint);
        exec_sched_pass_free(tmp);
        return err->len ? NULL : p;
    }
    strbuf_printf(err, "%s: no schedule of pass %d in the file (it has pass%s", s->path, index, s->n == 1 ? "" : "es");
    for (size_t i = 0; i < s->n && i < 8; i++)
        strbuf_printf(err, "%s %d", i ? "," : "", s->passes[i]->index);
    strbuf_puts(err, s->n > 8 ? ", ...)" : ")");
    return NULL;
}

size_t exec_sched_pass_find(const exec_sched_pass *p, uint64_t step)
{
    size_t lo = 0, hi = p->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->d[mid].step < step)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

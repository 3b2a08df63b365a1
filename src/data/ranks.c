/* ranks.txt: see ranks.h for the grammar. */
#include "config.h"

#include "data/ranks.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/input_file.h"
#include "base/mem.h"

/* A ranks.txt is a few lines; anything bigger is not one. */
#define RANKS_MAX_BYTES (1u << 20)

typedef struct parser {
    const char *path;
    diag_sink *sink;
    int line;
    const char *bol; /* start of the current line */
    int errors;
} parser;

static void fail_at(parser *p, const char *at, const char *fmt, const char *arg)
{
    int col = at ? (int)(at - p->bol) + 1 : 0;
    diag_report(p->sink, DIAG_ERROR, (diag_loc){p->path, p->line, col}, NULL, fmt, arg);
    p->errors++;
}

static const char *skip_blanks(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t'))
        s++;
    return s;
}

/* A decimal integer in [lo, hi] at *s; advances *s past it. */
static int read_int(const char **s, const char *end, long lo, long hi, long *v)
{
    const char *q = *s;
    int neg = 0;
    if (q < end && *q == '-') {
        neg = 1;
        q++;
    }
    if (q >= end || !isdigit((unsigned char)*q))
        return 0;
    long x = 0;
    while (q < end && isdigit((unsigned char)*q)) {
        if (x > 100000000L)
            return 0;
        x = x * 10 + (*q - '0');
        q++;
    }
    if (neg)
        x = -x;
    if (x < lo || x > hi)
        return 0;
    *v = x;
    *s = q;
    return 1;
}

static int starts_with(const char *s, const char *end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - s) >= n && memcmp(s, word, n) == 0;
}

static const char *find_in(const char *s, const char *end, const char *word)
{
    size_t n = strlen(word);
    for (const char *q = s; q + n <= end; q++)
        if (memcmp(q, word, n) == 0)
            return q;
    return NULL;
}

static int is_ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static void drop_ssa(char *name)
{
    char *p = strstr(name, "__ssa_v");
    if (p && p[7] && strspn(p + 7, "0123456789") == strlen(p + 7))
        *p = '\0';
}

/* "devices [0, 1]" and "window buffers: a (4 B), b (8 B)" of a domain line. */
static void parse_domain(parser *p, case_ranks *r, const char *name_end, const char *s, const char *end)
{
    case_domain d;
    memset(&d, 0, sizeof d);
    d.name = xstrndup(s, (size_t)(name_end - s));
    d.line = p->line;
    const char *dev = find_in(name_end, end, "devices [");
    if (!dev) {
        fail_at(p, name_end, "domain '%s' has no 'devices [...]' list", d.name);
        free(d.name);
        return;
    }
    const char *q = dev + 9;
    for (;;) {
        q = skip_blanks(q, end);
        if (q < end && *q == ']')
            break;
        long v;
        if (d.ndevices == CASE_MAX_RANKS || !read_int(&q, end, 0, 1 << 20, &v)) {
            fail_at(p, q, "domain '%s': expected a device id (a number, at most 64 of them) in 'devices [...]'",
                    d.name);
            free(d.name);
            return;
        }
        for (size_t k = 0; k < d.ndevices; k++)
            if (d.devices[k] == (int)v) {
                fail_at(p, q, "domain '%s': a device is listed twice", d.name);
                free(d.name);
                return;
            }
        d.devices[d.ndevices++] = (int)v;
        q = skip_blanks(q, end);
        if (q < end && *q == ',')
            q++;
        else if (q >= end || *q != ']') {
            fail_at(p, q, "domain '%s': expected ',' or ']' in 'devices [...]'", d.name);
            free(d.name);
            return;
        }
    }
    const char *wb = find_in(q, end, "window buffers:");
    if (wb) {
        q = wb + 15;
        while (q < end) {
            q = skip_blanks(q, end);
            const char *b = q;
            while (q < end && is_ident_char(*q))
                q++;
            if (q == b)
                break;
            case_window_buffer w = {xstrndup(b, (size_t)(q - b)), -1};
            drop_ssa(w.name);
            const char *t = skip_blanks(q, end);
            long v;
            if (t < end && *t == '(') {
                t++;
                /* a number of bytes, or an expression of the host's
                 * symbols ("((NR * 256) B)": a size of a pl.dynamic
                 * shape, not checked here): to the matching ')' */
                const char *num = t;
                if (read_int(&num, end, 0, 1L << 30, &v) && num + 2 < end && num[0] == ' ' && num[1] == 'B' &&
                    num[2] == ')')
                    w.bytes = v;
                for (int depth = 1; t < end; t++) {
                    if (*t == '(')
                        depth++;
                    else if (*t == ')' && --depth == 0)
                        break;
                }
                if (t < end)
                    t++;
                q = t;
            }
            d.buffers = xreallocarray(d.buffers, d.nbuffers + 1, sizeof *d.buffers);
            d.buffers[d.nbuffers++] = w;
            q = skip_blanks(q, end);
            if (q < end && *q == ',')
                q++;
            else
                break;
        }
    }
    for (size_t i = 0; i < r->ndomains; i++)
        if (strcmp(r->domains[i].name, d.name) == 0) {
            fail_at(p, s, "domain '%s' is defined twice", d.name);
            for (size_t k = 0; k < d.nbuffers; k++)
                free(d.buffers[k].name);
            free(d.buffers);
            free(d.name);
            return;
        }
    r->domains = xreallocarray(r->domains, r->ndomains + 1, sizeof *r->domains);
    r->domains[r->ndomains++] = d;
}

/* "device D -> rank R in NAME": must agree with NAME's device list. */
static void check_member(parser *p, const case_ranks *r, const char *s, const char *end)
{
    const char *q = s + 7;
    long dev, rank;
    q = skip_blanks(q, end);
    if (!read_int(&q, end, 0, 1 << 20, &dev))
        return; /* prose that starts with "device" */
    q = skip_blanks(q, end);
    if (!starts_with(q, end, "-> rank"))
        return;
    q = skip_blanks(q + 7, end);
    const char *at = q;
    if (!read_int(&q, end, 0, CASE_MAX_RANKS - 1, &rank)) {
        fail_at(p, at, "expected a rank number after '-> rank'%s", "");
        return;
    }
    q = skip_blanks(q, end);
    if (!starts_with(q, end, "in "))
        return;
    q = skip_blanks(q + 3, end);
    const char *n = q;
    while (q < end && is_ident_char(*q))
        q++;
    for (size_t i = 0; i < r->ndomains; i++) {
        const case_domain *d = &r->domains[i];
        if (strlen(d->name) != (size_t)(q - n) || memcmp(d->name, n, (size_t)(q - n)) != 0)
            continue;
        int got = case_domain_rank(d, (int)dev);
        if (got != (int)rank) {
            char msg[200];
            if (got < 0)
                snprintf(msg, sizeof msg, "device %ld is not in the devices list of '%s'", dev, d->name);
            else
                snprintf(msg, sizeof msg, "device %ld has rank %d in '%s' by its devices list, not rank %ld", dev,
                         got, d->name, rank);
            fail_at(p, at, "%s", msg);
        }
        return;
    }
    char *name = xstrndup(n, (size_t)(q - n));
    fail_at(p, n, "no domain '%s' defined above this line", name);
    free(name);
}

ptodb_status case_ranks_parse(const char *path, const char *text, size_t len, case_ranks *r, diag_sink *sink)
{
    memset(r, 0, sizeof *r);
    r->path = xstrdup(path);
    parser p = {path, sink, 0, text, 0};
    if (memchr(text, '\0', len)) {
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, "NUL byte: not a ranks.txt");
        return PTODB_ERR_FORMAT;
    }
    long ndomains_said = -1, world = -1;
    int ndevice_ids = -1, ranks_line = 0;
    const char *end_all = text + len;
    for (const char *s = text; s < end_all;) {
        const char *end = memchr(s, '\n', (size_t)(end_all - s));
        if (!end)
            end = end_all;
        p.line++;
        p.bol = s;
        const char *lend = end;
        if (lend > s && lend[-1] == '\r')
            lend--;
        const char *q = skip_blanks(s, lend);
        int indented = q > s;
        long v;
        if (!indented && starts_with(q, lend, "ranks:")) {
            const char *at = skip_blanks(q + 6, lend);
            if (r->nranks) {
                fail_at(&p, q, "'ranks:' given twice%s", "");
            } else if (!read_int(&at, lend, 1, CASE_MAX_RANKS, &v)) {
                fail_at(&p, at, "'ranks:' needs a count from 1 to 64%s", "");
            } else {
                r->nranks = (int)v;
                ranks_line = p.line;
            }
        } else if (!indented && starts_with(q, lend, "device_ids:")) {
            const char *at = q + 11;
            ndevice_ids = 0;
            for (;;) {
                at = skip_blanks(at, lend);
                if (at >= lend || *at == '(')
                    break;
                if (ndevice_ids == CASE_MAX_RANKS || !read_int(&at, lend, 0, 1 << 20, &v)) {
                    fail_at(&p, at, "'device_ids:' needs device numbers (at most 64)%s", "");
                    break;
                }
                for (int k = 0; k < ndevice_ids; k++)
                    if (r->device_ids[k] == (int)v)
                        fail_at(&p, at, "'device_ids:' lists a device twice%s", "");
                r->device_ids[ndevice_ids++] = (int)v;
            }
        } else if (!indented && starts_with(q, lend, "world_size:")) {
            const char *at = skip_blanks(q + 11, lend);
            if (!read_int(&at, lend, 1, CASE_MAX_RANKS, &world))
                fail_at(&p, at, "'world_size:' needs a count from 1 to 64%s", "");
        } else if (!indented && starts_with(q, lend, "domains:")) {
            const char *at = skip_blanks(q + 8, lend);
            if (!read_int(&at, lend, 0, 1024, &ndomains_said))
                fail_at(&p, at, "'domains:' needs a count%s", "");
        } else if (indented && starts_with(q, lend, "device ")) {
            check_member(&p, r, q, lend);
        } else if (indented && q - s == 2 && q < lend && (isalpha((unsigned char)*q) || *q == '_')) {
            const char *n = q;
            while (q < lend && is_ident_char(*q))
                q++;
            const char *after = skip_blanks(q, lend);
            /* "  comm_d0 (handle __comm_d0): ... devices [...]" or "  NAME: devices [...]";
             * other two-space lines ("  per device: ...", prose) have no devices list. */
            if (after < lend && (*after == '(' || *after == ':') && find_in(after, lend, "devices [") &&
                strncmp(n, "per", (size_t)(q - n)) != 0)
                parse_domain(&p, r, q, n, lend);
        }
        s = end < end_all ? end + 1 : end_all;
    }
    p.line = 0;
    p.bol = text;
    if (!r->nranks) {
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, "no 'ranks: P' line");
        p.errors++;
    } else {
        if (ndevice_ids < 0) {
            for (int k = 0; k < r->nranks; k++)
                r->device_ids[k] = k;
        } else if (ndevice_ids != r->nranks) {
            diag_report(sink, DIAG_ERROR, (diag_loc){path, ranks_line, 1}, NULL,
                        "'device_ids:' lists %d devices for ranks: %d", ndevice_ids, r->nranks);
            p.errors++;
        }
        if (world >= 0 && world != r->nranks) {
            diag_report(sink, DIAG_ERROR, (diag_loc){path, ranks_line, 1}, NULL,
                        "world_size: %ld differs from ranks: %d", world, r->nranks);
            p.errors++;
        }
        for (size_t i = 0; i < r->ndomains && !p.errors; i++) {
            const case_domain *d = &r->domains[i];
            for (size_t k = 0; k < d->ndevices; k++) {
                int known = 0;
                for (int j = 0; j < r->nranks; j++)
                    known |= r->device_ids[j] == d->devices[k];
                if (!known) {
                    diag_report(sink, DIAG_ERROR, (diag_loc){path, d->line, 3}, NULL,
                                "domain '%s' lists device %d, which is not one of device_ids", d->name,
                                d->devices[k]);
                    p.errors++;
                }
            }
        }
    }
    if (ndomains_said >= 0 && (size_t)ndomains_said != r->ndomains) {
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, "'domains: %ld' but %zu domain line%s found",
                    ndomains_said, r->ndomains, r->ndomains == 1 ? "" : "s");
        p.errors++;
    }
    return p.errors ? PTODB_ERR_FORMAT : PTODB_OK;
}

ptodb_status case_ranks_load(const char *path, case_ranks *r, diag_sink *sink)
{
    memset(r, 0, sizeof *r);
    char why[300];
    FILE *f = input_file_fopen(path, why, sizeof why);
    if (!f) {
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, "%s", why);
        return PTODB_ERR_IO;
    }
    char *buf = xmalloc(RANKS_MAX_BYTES + 1);
    size_t n = fread(buf, 1, RANKS_MAX_BYTES + 1, f);
    fclose(f);
    ptodb_status st;
    if (n > RANKS_MAX_BYTES) {
        diag_report(sink, DIAG_ERROR, (diag_loc){path, 0, 0}, NULL, "over 1 MiB: not a ranks.txt");
        r->path = xstrdup(path);
        st = PTODB_ERR_FORMAT;
    } else {
        st = case_ranks_parse(path, buf, n, r, sink);
    }
    free(buf);
    return st;
}

void case_ranks_free(case_ranks *r)
{
    for (size_t i = 0; i < r->ndomains; i++) {
        for (size_t k = 0; k < r->domains[i].nbuffers; k++)
            free(r->domains[i].buffers[k].name);
        free(r->domains[i].buffers);
        free(r->domains[i].name);
    }
    free(r->domains);
    free(r->path);
    memset(r, 0, sizeof *r);
}

int case_domain_rank(const case_domain *d, int device)
{
    for (size_t k = 0; k < d->ndevices; k++)
        if (d->devices[k] == device)
            return (int)k;
    return -1;
}

const case_domain *case_ranks_buffer_domain(const case_ranks *r, const char *name)
{
    char *n = xstrdup(name);
    drop_ssa(n);
    const case_domain *found = NULL;
    for (size_t i = 0; i < r->ndomains && !found; i++)
        for (size_t k = 0; k < r->domains[i].nbuffers; k++)
            if (strcmp(r->domains[i].buffers[k].name, n) == 0) {
                found = &r->domains[i];
                break;
            }
    free(n);
    return found;
}

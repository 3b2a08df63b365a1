/* The case's passes, as the session sees them: lazy loading of each pass
 * file (read, parse, resolve, canonical print), lookup by number or name.
 * Opening and closing the case is the session's (session.c). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/input_file.h"
#include "base/mem.h"
#include "debug/state/session_impl.h"
#include "ir/parse.h"
#include "ir/print.h"
#include "ir/resolve.h"

int session_has_case(const session *s)
{
    return s->have_case;
}

const char *session_case_root(const session *s)
{
    return s->have_case ? s->kase.root : NULL;
}

int session_npasses(const session *s)
{
    return s->have_case ? (int)s->kase.npasses : 0;
}

int session_current_pass(const session *s)
{
    return s->have_case ? s->cur_pass : -1;
}

const char *session_pass_stem(const session *s, int i)
{
    if (!s->have_case || i < 0 || (size_t)i >= s->kase.npasses)
        return NULL;
    return s->kase.passes[i].stem;
}

static int read_file(const char *path, char **out, size_t *len)
{
    char why[300];
    FILE *f = input_file_fopen(path, why, sizeof why);
    if (!f)
        return -1;
    size_t cap = 1 << 16, n = 0;
    char *buf = xmalloc(cap);
    size_t got;
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0) {
            if (cap > ((size_t)1 << 30))
                break; /* no dump is a GiB: stop rather than exhaust memory */
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return -1;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

const char *session_pass_source(session *s, int i)
{
    if (!s->have_case || i < 0 || (size_t)i >= s->kase.npasses)
        return NULL;
    pass_state *p = &s->passes[i];
    if (!p->source && read_file(s->kase.passes[i].path, &p->source, &p->source_len) != 0) {
        p->source = NULL;
        return NULL;
    }
    return p->source;
}

pass_state *session_load_pass(session *s, int i)
{
    pass_state *p = &s->passes[i];
    if (p->loaded)
        return p;
    p->loaded = 1;
    const char *path = s->kase.passes[i].path;
    if (!session_pass_source(s, i)) {
        session_errorf(s, "%s: %s", path, strerror(errno));
        return p;
    }
    diag_sink sink;
    diag_sink_init(&sink, 20);
    ptodb_status st;
    ir_module *m = ir_parse(path, p->source, p->source_len, &sink, &st);
    if (st == PTODB_OK) {
        /* the printed form needs only the parse: `pass diff` still shows
         * what a pass did to a file that does not resolve (broken IR) */
        strbuf sb = STRBUF_INIT;
        ir_print_module(m, &sb);
        p->canonical = strbuf_detach(&sb);
        st = ir_resolve(m, &sink);
    }
    session_print_diags(s, &sink);
    if (st != PTODB_OK) {
        p->nerrors = sink.errors ? sink.errors : 1;
        /* the first error in the file's order (ir_parse sorts them): the root cause */
        const diag *first = NULL;
        for (size_t k = 0; k < sink.count && !first; k++)
            if (sink.items[k].severity == DIAG_ERROR)
                first = &sink.items[k];
        p->first_error = first ? diag_format(first) : xstrdup("error");
        p->first_error_line = first ? first->line : 0;
    }
    diag_sink_free(&sink);
    if (st != PTODB_OK) {
        ir_module_free(m);
        return p;
    }
    p->module = m;
    return p;
}

void session_pass_not_checked(session *s, const char *what, int pass)
{
    const pass_state *p = &s->passes[pass];
    if (p->first_error)
        session_errorf(s, "Cannot %s %s: it does not check (%zu error%s, the first: %s).", what,
                       s->kase.passes[pass].stem, p->nerrors, p->nerrors == 1 ? "" : "s", p->first_error);
    else
        session_errorf(s, "Cannot %s %s: it could not be read.", what, s->kase.passes[pass].stem);
}

static int all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

int session_find_pass(session *s, const char *spec)
{
    if (!session_need_case(s))
        return -1;
    if (all_digits(spec)) {
        long n = strtol(spec, NULL, 10);
        for (size_t i = 0; i < s->kase.npasses; i++)
            if (s->kase.passes[i].index == n)
                return (int)i;
        session_errorf(s, "No pass %s: passes are numbered %d to %d.", spec,
                       s->kase.passes[0].index, s->kase.passes[s->kase.npasses - 1].index);
        return -1;
    }
    int found = -1, count = 0;
    for (size_t i = 0; i < s->kase.npasses; i++) {
        if (strcmp(s->kase.passes[i].stem, spec) == 0)
            return (int)i;
        if (strcasecmp(s->kase.passes[i].name, spec) == 0) {
            if (found < 0)
                found = (int)i;
            count++;
        }
    }
    if (count == 1)
        return found;
    if (count > 1) {
        strbuf sb = STRBUF_INIT;
        for (size_t i = 0; i < s->kase.npasses; i++)
            if (strcasecmp(s->kase.passes[i].name, spec) == 0)
                strbuf_printf(&sb, "%s%d", sb.len ? ", " : "", s->kase.passes[i].index);
        session_errorf(s, "Pass name \"%s\" is ambiguous: passes %s.", spec, strbuf_str(&sb));
        strbuf_free(&sb);
        return -1;
    }
    session_errorf(s, "No pass named \"%s\".  Try \"pass list\".", spec);
    return -1;
}

/* The IR of pass i differs from pass i-1's (canonical text). -1 unknown. */
int session_pass_ir_changed(session *s, int i)
{
    pass_state *p = &s->passes[i];
    if (p->changed >= 0)
        return p->changed;
    if (i == 0)
        return p->changed = 1;
    pass_state *a = session_load_pass(s, i - 1), *b = session_load_pass(s, i);
    if (!a->canonical || !b->canonical)
        return -1;
    return p->changed = strcmp(a->canonical, b->canonical) != 0;
}

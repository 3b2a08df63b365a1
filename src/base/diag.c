#include "base/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/strbuf.h"

enum { DIAG_SOURCE_LINE_MAX = 200 };

void diag_sink_init(diag_sink *sink, size_t max_errors)
{
    memset(sink, 0, sizeof *sink);
    sink->max_errors = max_errors;
}

void diag_sink_clear(diag_sink *sink)
{
    for (size_t i = 0; i < sink->count; i++) {
        free(sink->items[i].file);
        free(sink->items[i].message);
        free(sink->items[i].source_line);
    }
    sink->count = 0;
    sink->errors = sink->warnings = 0;
    sink->suppressed = 0;
}

void diag_sink_free(diag_sink *sink)
{
    diag_sink_clear(sink);
    free(sink->items);
    sink->items = NULL;
    sink->cap = 0;
}

int diag_sink_full(const diag_sink *sink)
{
    return sink->max_errors && sink->errors >= sink->max_errors;
}

static char *copy_source_line(const char *s)
{
    size_t n = 0;
    while (n < DIAG_SOURCE_LINE_MAX && s[n] && s[n] != '\n' && s[n] != '\r')
        n++;
    char *out = xmalloc(n + 1);
    /* Control bytes would corrupt the terminal; show them as '?'. */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        out[i] = (c < 0x20 && c != '\t') || c == 0x7f ? '?' : (char)c;
    }
    out[n] = '\0';
    return out;
}

void diag_vreport(diag_sink *sink, diag_severity sev, diag_loc loc, const char *source_line,
                  const char *fmt, va_list ap)
{
    if (sev == DIAG_ERROR) {
        if (diag_sink_full(sink)) {
            sink->errors++;
            sink->suppressed++;
            return;
        }
        sink->errors++;
    } else if (sev == DIAG_WARNING) {
        sink->warnings++;
    }
    if (sink->count == sink->cap) {
        sink->cap = sink->cap ? sink->cap * 2 : 8;
        sink->items = xreallocarray(sink->items, sink->cap, sizeof *sink->items);
    }
    diag *d = &sink->items[sink->count++];
    strbuf sb = STRBUF_INIT;
    strbuf_vprintf(&sb, fmt, ap);
    d->severity = sev;
    d->file = loc.file ? xstrdup(loc.file) : NULL;
    d->line = loc.line;
    d->col = loc.col;
    d->message = strbuf_detach(&sb);
    d->source_line = source_line ? copy_source_line(source_line) : NULL;
}

void diag_report(diag_sink *sink, diag_severity sev, diag_loc loc, const char *source_line,
                 const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_vreport(sink, sev, loc, source_line, fmt, ap);
    va_end(ap);
}

const char *diag_severity_name(diag_severity sev)
{
    switch (sev) {
    case DIAG_NOTE: return "note";
    case DIAG_WARNING: return "warning";
    default: return "error";
    }
}

char *diag_format(const diag *d)
{
    strbuf sb = STRBUF_INIT;
    if (d->file) {
        strbuf_puts(&sb, d->file);
        if (d->line > 0) {
            strbuf_printf(&sb, ":%d", d->line);
            if (d->col > 0)
                strbuf_printf(&sb, ":%d", d->col);
        }
        strbuf_puts(&sb, ": ");
    }
    strbuf_printf(&sb, "%s: %s", diag_severity_name(d->severity), d->message);
    return strbuf_detach(&sb);
}

void diag_sink_print(const diag_sink *sink, FILE *out, int caret)
{
    for (size_t i = 0; i < sink->count; i++) {
        const diag *d = &sink->items[i];
        char *line = diag_format(d);
        fprintf(out, "%s\n", line);
        free(line);
        if (caret && d->source_line) {
            fprintf(out, "  %s\n  ", d->source_line);
            size_t len = strlen(d->source_line);
            for (int c = 1; c < d->col && (size_t)(c - 1) < len; c++)
                fputc(d->source_line[c - 1] == '\t' ? '\t' : ' ', out);
            fputs("^\n", out);
        }
    }
    if (sink->suppressed)
        fprintf(out, "(%d more error%s not shown)\n", sink->suppressed,
                sink->suppressed == 1 ? "" : "s");
}

void diag_sink_move(diag_sink *sink, size_t i, size_t to)
{
    if (i >= sink->count || to >= i)
        return;
    diag d = sink->items[i];
    memmove(&sink->items[to + 1], &sink->items[to], (i - to) * sizeof *sink->items);
    sink->items[to] = d;
}

char *diag_sink_error_text(const diag_sink *sink)
{
    strbuf sb = STRBUF_INIT;
    for (size_t i = 0; i < sink->count; i++) {
        if (sink->items[i].severity != DIAG_ERROR)
            continue;
        char *line = diag_format(&sink->items[i]);
        if (sb.len)
            strbuf_putc(&sb, '\n');
        strbuf_puts(&sb, line);
        free(line);
    }
    if (!sb.len)
        strbuf_puts(&sb, "error");
    return strbuf_detach(&sb);
}

const char *diag_error_prefix(const char *message)
{
    if (!message)
        return "error: ";
    if (strncmp(message, "error: ", 7) == 0)
        return "";
    const char *nl = strchr(message, '\n');
    const char *hit = strstr(message, ": error: ");
    return hit && (!nl || hit < nl) ? "" : "error: ";
}

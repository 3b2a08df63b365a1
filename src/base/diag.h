/* Diagnostics: messages with a place (file:line:col), collected in a sink.
 * The engine never prints; front ends decide where a sink's text goes. */
#ifndef PTODB_BASE_DIAG_H
#define PTODB_BASE_DIAG_H

#include <stdio.h>

#include "base/status.h"

typedef enum { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR } diag_severity;

typedef struct diag_loc {
    const char *file; /* borrowed; NULL when there is no file */
    int line;         /* 1-based; 0 when unknown */
    int col;          /* 1-based; 0 when unknown */
} diag_loc;

typedef struct diag {
    diag_severity severity;
    char *file;        /* owned copy, may be NULL */
    int line, col;
    char *message;     /* owned */
    char *source_line; /* owned copy of the offending line for the caret, may be NULL */
} diag;

typedef struct diag_sink {
    diag *items;
    size_t count, cap;
    size_t errors;     /* errors reported, including those beyond the cap */
    size_t warnings;
    size_t max_errors; /* stop storing errors past this many; 0 = unlimited */
    int suppressed;    /* errors dropped because of the cap */
} diag_sink;

void diag_sink_init(diag_sink *sink, size_t max_errors);
void diag_sink_free(diag_sink *sink);
void diag_sink_clear(diag_sink *sink);

/* Records a diagnostic. source_line (may be NULL) is the text of the line the
 * column points into; it need not be NUL-terminated at the line end: the copy
 * stops at the first '\n' or NUL, and at 200 bytes. */
void diag_report(diag_sink *sink, diag_severity sev, diag_loc loc, const char *source_line,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void diag_vreport(diag_sink *sink, diag_severity sev, diag_loc loc, const char *source_line,
                  const char *fmt, va_list ap);

/* Moves diagnostic i to index to, the ones between shifting up one (a
 * report made late that explains the ones before it comes first). */
void diag_sink_move(diag_sink *sink, size_t i, size_t to);

/* True when the error cap is reached: callers may stop early. */
int diag_sink_full(const diag_sink *sink);

/* Writes every diagnostic as "file:line:col: error: message", followed by the
 * source line and a caret when known (caret=1), then a "N more errors" line
 * when the cap dropped some. */
void diag_sink_print(const diag_sink *sink, FILE *out, int caret);
/* The errors of a sink as "file:line:col: error: message" lines joined by
 * newlines (malloc'd); "error" when it holds none. */
char *diag_sink_error_text(const diag_sink *sink);
/* Formats one diagnostic's first line into a malloc'd string. */
char *diag_format(const diag *d);

const char *diag_severity_name(diag_severity sev);
/* "error: " to put before an error message that does not already say it
 * is one ("FILE: error: ..." or "error: ..." in its first line), else "". */
const char *diag_error_prefix(const char *message);

#endif

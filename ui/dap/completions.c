/* completions for the debug console: the REPL's completer
 * (session_completion_kind, session_complete_word: command names from
 * the command table, their subcommands, tensors in scope, passes,
 * functions, settings), the same candidates readline offers at (ptodb).
 * Columns are UTF-16 code units, as the spec counts them. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/utf8.h"
#include "dap_impl.h"

/* Candidates per response at most (a prefix of nothing in a big program). */
#define COMPLETIONS_MAX 500

/* The byte offset of UTF-16 unit u of text (its length when past the end). */
static size_t byte_of_unit(const char *text, size_t len, long u)
{
    size_t i = 0;
    while (i < len && u > 0) {
        size_t k = utf8_char_len((const unsigned char *)text + i, len - i);
        if (k == 0)
            k = 1; /* a bad byte counts as one unit (U+FFFD) */
        u -= k == 4 ? 2 : 1;
        i += k;
    }
    return i;
}

static long units_of(const char *text, size_t n)
{
    long u = 0;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_char_len((const unsigned char *)text + i, n - i);
        if (k == 0)
            k = 1;
        u += k == 4 ? 2 : 1;
        i += k;
    }
    return u;
}

void dap_req_completions(dap_server *d, json_t *req, json_t *args)
{
    const char *text = json_string_value(json_object_get(args, "text"));
    json_t *col = json_object_get(args, "column");
    if (!text || !json_is_integer(col)) {
        dap_fail(d, req, "completions: 'text' and 'column' are required");
        return;
    }
    json_t *targets = json_array();
    if (!d->s) {
        /* no session before launch: nothing to complete against */
        dap_respond(d, req, json_pack("{s:o}", "targets", targets));
        return;
    }
    /* the line of a multi-line text the client names (the first by default) */
    json_t *jline = json_object_get(args, "line");
    long want = json_is_integer(jline) ? (long)json_integer_value(jline) - d->line_base : 0;
    const char *line = text;
    for (long k = 0; k < want && line; k++) {
        line = strchr(line, '\n');
        if (line)
            line++;
    }
    if (!line || want < 0) {
        dap_respond(d, req, json_pack("{s:o}", "targets", targets));
        return;
    }
    size_t len = strcspn(line, "\r\n");
    long column = (long)json_integer_value(col) - d->column_base;
    size_t cursor = column < 0 ? 0 : byte_of_unit(line, len, column);
    /* the word before the cursor, as readline cuts it */
    size_t start = cursor;
    while (start > 0 && !strchr(SESSION_WORD_BREAKS, line[start - 1]))
        start--;
    char *upto = xmalloc(cursor + 1); /* the line up to the cursor, as readline's completer sees it */
    memcpy(upto, line, cursor);
    upto[cursor] = 0;
    const char *word = upto + start;
    if (session_completion_kind(d->s, upto, (int)start) == COMPLETE_WORDS) {
        /* the first word is a command name */
        int first = 1;
        for (size_t i = 0; i < start; i++)
            if (!strchr(" \t", upto[i]))
                first = 0;
        for (int state = 0; state < COMPLETIONS_MAX; state++) {
            const char *c = session_complete_word(d->s, upto, (int)start, word, state);
            if (!c)
                break;
            json_t *t = json_pack("{s:o, s:I, s:I}", "label", dap_str(c), "start",
                                  (json_int_t)(units_of(line, start) + d->column_base),
                                  "length", (json_int_t)units_of(word, strlen(word)));
            if (first)
                json_object_set_new(t, "type", json_string("keyword"));
            json_array_append_new(targets, t);
        }
    }
    free(upto);
    dap_respond(d, req, json_pack("{s:o}", "targets", targets));
}

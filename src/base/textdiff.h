/* Line diff of two texts (IR of two passes) in unified format, as `diff -u`
 * prints it, with a longest-common-subsequence alignment. */
#ifndef PTODB_BASE_TEXTDIFF_H
#define PTODB_BASE_TEXTDIFF_H

#include "base/strbuf.h"

/* Appends the unified diff of a and b (NUL-terminated texts) to out, with
 * `context` lines of context and the file labels given. Returns the number
 * of changed lines (0 when the texts are equal: nothing is appended). Texts
 * longer than max_lines lines each fall back to a whole-text replacement
 * hunk so memory stays bounded. */
long textdiff_unified(const char *a, const char *b, const char *label_a, const char *label_b,
                      int context, strbuf *out);

#endif

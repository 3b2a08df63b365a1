/* What the session knows of each pass file (passes.c): its text, its
 * module, whether it checks, whether its IR changed. */
#ifndef PTODB_DEBUG_PASSES_H
#define PTODB_DEBUG_PASSES_H

#include <stddef.h>

#include "debug/state/session.h"
#include "ir/ast.h"

/* What the session knows of one pass file, filled lazily. */
typedef struct pass_state {
    char *source;        /* the file's bytes, NUL-terminated (NULL until read) */
    size_t source_len;
    ir_module *module;   /* parsed and resolved, or NULL */
    char *canonical;     /* the module in the raw printer form, for diffs (set
                            when it parses, even if it does not resolve) */
    int loaded;          /* load attempted (errors were printed once) */
    char *first_error;   /* "file:line:col: error: ..." when it does not check */
    int first_error_line; /* its line (0 unknown) */
    size_t nerrors;
    int changed;         /* -1 unknown, 0 same IR as the previous pass, 1 changed */
} pass_state;

/* Reads, parses and resolves pass i once; prints its diagnostics the first
 * time. Returns the pass state (module NULL on errors). */
pass_state *session_load_pass(session *s, int i);
/* "Cannot WHAT STEM: it does not check (N errors, the first: ...)." for a
 * pass whose load failed. */
void session_pass_not_checked(session *s, const char *what, int pass);
/* Finds a pass by "N", "NN_after_Name", "Name" (unique) ; prints an error
 * and returns -1 when there is none or several. */
int session_find_pass(session *s, const char *spec);
/* The IR of pass i differs from pass i-1's: 1, 0, or -1 when a file does not parse. */
int session_pass_ir_changed(session *s, int i);

#endif

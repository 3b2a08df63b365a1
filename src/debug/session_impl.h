/* The inside of a session, shared by the command handlers (cmd_*.c). Front
 * ends use session.h only. */
#ifndef PTODB_DEBUG_SESSION_IMPL_H
#define PTODB_DEBUG_SESSION_IMPL_H

#include "base/strbuf.h"
#include "data/case.h"
#include "debug/session.h"
#include "ir/ast.h"

enum {
    SESSION_MAX_SOURCE_DEPTH = 32, /* nested `source`/user commands */
    SESSION_MAX_USER_ARGS = 10
};

typedef struct user_cmd {
    char *name;
    char **lines;
    size_t nlines;
    char *doc; /* from `document`, or NULL */
} user_cmd;

typedef enum { COLLECT_NONE, COLLECT_DEFINE, COLLECT_DOCUMENT } collect_kind;

typedef struct script_frame {
    const char *file; /* NULL for a user command */
    int line;
} script_frame;

typedef struct setting_value {
    char *text;   /* as given */
    double d;
    long i;
    char *origin; /* "default", "command line", "file:line" */
} setting_value;

/* What the session knows of one pass file, filled lazily. */
typedef struct pass_state {
    char *source;        /* the file's bytes, NUL-terminated (NULL until read) */
    size_t source_len;
    ir_module *module;   /* parsed and resolved, or NULL */
    char *canonical;     /* the module in the raw printer form, for diffs */
    int loaded;          /* load attempted (errors were printed once) */
    int changed;         /* -1 unknown, 0 same IR as the previous pass, 1 changed */
} pass_state;

struct session {
    session_output_fn out;
    void *out_ctx;
    unsigned redraw;
    int quit;

    setting_value settings[SETTING_COUNT];

    user_cmd *user_cmds;
    size_t nuser_cmds;

    /* define/document collection */
    collect_kind collecting;
    char *collect_name;
    strbuf collect_body;
    int collect_depth; /* nested blocks (while/if bodies) inside a define */

    script_frame frames[SESSION_MAX_SOURCE_DEPTH];
    int depth;

    /* the case */
    int have_case;
    case_info kase;
    pass_state *passes;  /* kase.npasses entries */
    int cur_pass;        /* index into kase.passes */
    int list_line;       /* next line `list` shows, 0 = around the start */

    char *status_line;   /* view_status_line's buffer */
};

/* Reads, parses and resolves pass i once; prints its diagnostics the first
 * time. Returns the pass state (module NULL on errors). */
pass_state *session_load_pass(session *s, int i);
/* Finds a pass by "N", "NN_after_Name", "Name" (unique) ; prints an error
 * and returns -1 when there is none or several. */
int session_find_pass(session *s, const char *spec);
/* The IR of pass i differs from pass i-1's: 1, 0, or -1 when a file does not parse. */
int session_pass_ir_changed(session *s, int i);

user_cmd *session_find_user_cmd(const session *s, const char *name, size_t len);
/* Runs a user command's body with $argN/$argc substituted. */
ptodb_status session_run_user_cmd(session *s, user_cmd *u, const char *args);

/* Splits args into words (whitespace separated; "double quotes" group). At
 * most max words; returns the count, or -1 when there are more. The words
 * are copied into buf (bufsize bytes). */
int session_split_words(const char *args, char **words, int max, char *buf, size_t bufsize);

#endif

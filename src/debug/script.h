/* User commands (define, document) and the nesting of `source`d files and
 * user commands: what the command loop (session.c) keeps while it runs them. */
#ifndef PTODB_DEBUG_SCRIPT_H
#define PTODB_DEBUG_SCRIPT_H

#include <stddef.h>

#include "base/status.h"
#include "debug/cmdtable.h"
#include "debug/session.h"

enum {
    SESSION_MAX_SOURCE_DEPTH = 32, /* nested `source`/user commands */
    SESSION_MAX_RESTARTS = 100,    /* `run`/`start` from breakpoint commands, in a row */
    SESSION_MAX_USER_ARGS = 10
};

typedef struct user_cmd {
    char *name;
    char **lines;
    size_t nlines;
    char *doc; /* from `document`, or NULL */
} user_cmd;

typedef enum { COLLECT_NONE, COLLECT_DEFINE, COLLECT_DOCUMENT, COLLECT_COMMANDS } collect_kind;

typedef struct script_frame {
    const char *file; /* NULL for a user command */
    int line;
} script_frame;

user_cmd *session_find_user_cmd(const session *s, const char *name, size_t len);
/* Runs a user command's body with $argN/$argc substituted. */
ptodb_status session_run_user_cmd(session *s, user_cmd *u, const char *args);
/* Starts collecting the lines of a define, document or commands block (up
 * to `end`) into name (session.c). */
void session_begin_collect(session *s, collect_kind kind, const char *name);
/* Matches the longest setting name that prefixes text (names may contain
 * spaces: "auto-load safe-path"). Returns the id and sets *rest to the text
 * after the name, or -1 (session.c). */
int session_match_setting(const char *text, const char **rest);
/* Runs built-in command id with args, as typed (script.c): a handler that
 * hands over to another one's (`run` to `info ranks`) goes through here. */
ptodb_status session_run_command(session *s, int id, const char *args);
/* The commands floor attached to s: the table of handlers the loop
 * dispatches to, the runners and its observers of a stop (script.c). */
void script_attach(session *s, const cmd_handler *handlers);

#endif

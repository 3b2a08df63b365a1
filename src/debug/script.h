/* The command loop (script.c): user commands (define, document), the
 * nesting of `source`d files and user commands, gdb's questions. */
#ifndef PTODB_DEBUG_SCRIPT_H
#define PTODB_DEBUG_SCRIPT_H

#include <stddef.h>

#include "base/status.h"
#include "debug/cmdtable.h"
#include "debug/state/session_impl.h"

/* gdb's query: asks question ("Make breakpoint pending ...? ") of the person
 * at the prompt. Returns 1 when it waits for the answer, the next line: a
 * yes runs the command yes_command (the one that asked, again) with
 * s->confirmed set, and the question is gone; 0, after printing the
 * question and "(y or [n]) [answered N; input not from terminal]", when no
 * one can answer: not interactive, or in a script, a user command, a
 * breakpoint's commands or a session being restored. */
int session_ask(session *s, const char *question, const char *yes_command);
user_cmd *session_find_user_cmd(const session *s, const char *name, size_t len);
/* Runs a user command's body with $argN/$argc substituted. */
ptodb_status session_run_user_cmd(session *s, user_cmd *u, const char *args);
/* Starts collecting the lines of a define, document or commands block (up
 * to `end`) into name. */
void session_begin_collect(session *s, collect_kind kind, const char *name);
/* Runs built-in command id with args, as typed (script.c): a handler that
 * hands over to another one's (`run` to `info ranks`) goes through here. */
ptodb_status session_run_command(session *s, int id, const char *args);
/* The commands floor attached to s: the table of handlers the loop
 * dispatches to, the runners and its observers of a stop (script.c). */
void script_attach(session *s, const cmd_handler *handlers);

#endif

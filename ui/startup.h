/* What the plain command line and the full-screen interface do alike at
 * start: tolerances from the command line, the session, rc files, the case,
 * then -x files and -ex commands in the order given (gdb's). */
#ifndef PTODB_UI_STARTUP_H
#define PTODB_UI_STARTUP_H

#include <stddef.h>

#include "debug/state/session.h"
#include "options.h"

/* Creates and prepares a session. out (when not NULL) receives all output,
 * the rc files' included. Returns NULL with *exit_status set (and the
 * reason printed) when ptodb cannot go on. */
session *startup_session(const ptodb_cli *cli, session_output_fn out, void *ctx, int *exit_status);
/* The same, with a front end's own commands usable from rc files, -x and -ex. */
session *startup_session_hooked(const ptodb_cli *cli, session_output_fn out, void *ctx,
                                session_command_hook hook, const char *const *hook_names, int *exit_status);

/* $XDG_STATE_HOME/ptodb/history, default ~/.local/state/ptodb/history; the
 * folders are created. Returns 0 and fills buf, -1 without a home or when
 * the folder would be inside s's case folder. */
int startup_history_path(char *buf, size_t size, const session *s);

#endif

/* The Debug Adapter Protocol server: a front end beside the REPL and the
 * TUI. Every request becomes what those front ends do: a debugger command
 * run through session_execute (break, watch, next, set var, pass ...), an
 * expression through expr_eval, or a read of the session's views (view.h).
 * Nothing is computed here that the engine computes.
 *
 * The server reads framed messages from one descriptor and writes framed
 * messages to another, nothing else: engine output becomes `output` events.
 * Requests run one at a time; while a run command runs, the server still
 * reads its input (through the session's poll callback) so `pause` and
 * `cancel` interrupt it. */
#ifndef PTODB_UI_DAP_SERVER_H
#define PTODB_UI_DAP_SERVER_H

#include <stddef.h>

typedef struct dap_server dap_server;

/* out_fd receives the DAP messages. allow_launch 0 refuses launch (the
 * fuzz harness: no case is opened). */
dap_server *dap_server_new(int out_fd, int allow_launch);
void dap_server_free(dap_server *d);
/* Feeds received bytes and handles every complete message. Returns 0 to go
 * on, 1 after disconnect, -1 after a bad header (see dap_server_error). */
int dap_server_feed(dap_server *d, const char *data, size_t n);
/* Why the last feed returned -1 (the bad header), or "". */
const char *dap_server_error(const dap_server *d);
/* Serves in_fd until disconnect or end of input. The exit status. */
int dap_server_serve(dap_server *d, int in_fd);

#endif

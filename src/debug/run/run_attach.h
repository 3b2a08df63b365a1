/* Run control attached to a session (run_attach.c). */
#ifndef PTODB_DEBUG_RUN_ATTACH_H
#define PTODB_DEBUG_RUN_ATTACH_H

#include "debug/state/session.h"

/* Registers run control's observers of the session's state: the run, the
 * other pass's run and the background validation end with the case. */
void run_attach(session *s);

#endif

/* Presentation attached to a session (present.c). */
#ifndef PTODB_DEBUG_PRESENT_H
#define PTODB_DEBUG_PRESENT_H

#include "debug/state/session.h"

/* Registers presentation's observers of run control and of the session's
 * state: a stop's location and displays shown, displays and the last
 * compare gone with the case and the session. */
void present_attach(session *s);

#endif

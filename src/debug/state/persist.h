/* Breakpoints and displays saved per case (persist.c). */
#ifndef PTODB_DEBUG_PERSIST_H
#define PTODB_DEBUG_PERSIST_H

#include "debug/state/session.h"

void session_autosave(session *s);
void session_persist_free(session *s);
void session_autorestore(session *s);

#endif

/* The selected frame described (frame.c). */
#ifndef PTODB_DEBUG_FRAME_H
#define PTODB_DEBUG_FRAME_H

#include "base/status.h"
#include "debug/session.h"

/* gdb's `info locals` (args_only 0) and `info args`. */
ptodb_status frame_print_vars(session *s, int args_only);
/* gdb's `info frame`: function, call site, caller, lane, loop iterations. */
ptodb_status frame_print_info(session *s);

#endif

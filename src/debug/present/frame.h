/* The selected frame described, and the location of a stop (frame.c). */
#ifndef PTODB_DEBUG_FRAME_H
#define PTODB_DEBUG_FRAME_H

#include "base/status.h"
#include "debug/state/session.h"

/* gdb's `info locals` (args_only 0) and `info args`. */
ptodb_status frame_print_vars(session *s, int args_only);
/* gdb's `info frame`: function, call site, caller, lane, loop iterations. */
ptodb_status frame_print_info(session *s);

/* Prints the stop location: "[CORE] func at file:line" and the source line. */
void run_print_location(session *s);
/* "LINE<tab>text" of the running pass's file. */
void run_print_source_line(session *s, int line);

#endif

/* A DAP breakpoint's hitCondition: when the breakpoint's Nth hit stops.
 * "N" (or "==N") stops on hit N only, the meaning lldb-dap, Delve and debugpy
 * give it (gdb's ignore count makes "3" stop on hit 4); ">=N" on hit N and
 * every later one, ">N" after hit N, "%N" on every Nth hit (N, 2N, ...).
 * Blanks around the parts are allowed; anything else is refused so the
 * breakpoint is reported unverified with a message, never silently ignored. */
#ifndef PTODB_UI_DAP_HITCOND_H
#define PTODB_UI_DAP_HITCOND_H

typedef enum { HITCOND_ALWAYS, HITCOND_EQ, HITCOND_GE, HITCOND_GT, HITCOND_MOD } hitcond_kind;

typedef struct hitcond {
    hitcond_kind kind;
    long n;
} hitcond;

/* Parses text (NULL or "" = always). 0, or -1 with a one-line reason in err. */
int hitcond_parse(const char *text, hitcond *out, char *err, int errsize);
/* Whether hit number `hit` (1 for the first) stops. */
int hitcond_stops(const hitcond *h, long hit);

#endif

/* The debugger as a whole (the commands floor's top, docs/notes-debug.md): a
 * session with every floor attached, each to the events of the floors below
 * it, and the table of command handlers, the one place that names them all. */
#include "debug/cmdtable.h"
#include "debug/present/present.h"
#include "debug/run/run_attach.h"
#include "debug/script.h"
#include "debug/state/session_impl.h"

#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    ptodb_status cmd_##id(session *s, const char *args);
#include "debug/commands.def"
#undef CMD

static const cmd_handler handlers[CMD_COUNT] = {
#define CMD(id, name, aliases, kind, usage, help, longhelp) cmd_##id,
#include "debug/commands.def"
#undef CMD
};

session *session_new(void)
{
    session *s = session_state_new();
    /* the order the observers of one event run in, and so the order of
     * what they print: run control, presentation, commands */
    run_attach(s);
    present_attach(s);
    script_attach(s, handlers);
    return s;
}

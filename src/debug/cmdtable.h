/* The command table (commands.def) as data: lookup by name, alias or
 * unambiguous prefix, as gdb does. The handlers are in their own table
 * (debugger.c), the one place that names them all. */
#ifndef PTODB_DEBUG_CMDTABLE_H
#define PTODB_DEBUG_CMDTABLE_H

#include "base/status.h"
#include "debug/state/session.h"

typedef enum {
    CMDARG_NONE, CMDARG_COMMAND, CMDARG_PASS, CMDARG_FILE, CMDARG_OPTION,
    CMDARG_TENSOR, CMDARG_FUNC, CMDARG_LOCATION
} cmd_arg_kind;

typedef ptodb_status (*cmd_handler)(session *s, const char *args);

typedef enum {
#define CMD(id, name, aliases, kind, usage, help, longhelp) CMD_##id,
#include "debug/commands.def"
#undef CMD
    CMD_COUNT
} cmd_id;

typedef struct cmd_info {
    const char *name;
    const char *aliases; /* space-separated */
    cmd_arg_kind arg_kind;
    const char *usage;
    const char *help;
    const char *longhelp;
} cmd_info;

extern const cmd_info cmd_table[CMD_COUNT];

/* Finds a built-in command by exact name, alias, or unique prefix of a name.
 * Returns its id, -1 when unknown, -2 when the prefix is ambiguous. */
int cmd_lookup(const char *word, size_t len);
/* The command a line starts with (leading blanks skipped), as cmd_lookup
 * finds its first word; -1 for an empty line. */
int cmd_lookup_line(const char *line);
/* The names a prefix matches, comma separated, for the ambiguity message. */
void cmd_ambiguous_names(const char *word, size_t len, char *buf, size_t bufsize);

#endif

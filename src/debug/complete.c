/* Completion driven by the command table: the first word completes to a
 * command; later words to what the command's argument kind says. */
#include <ctype.h>
#include <string.h>

#include "debug/cmdtable.h"
#include "debug/session_impl.h"

/* The command the line starts with, or -1 (also for user commands). */
static int first_command(const session *s, const char *line, int start)
{
    const char *p = line;
    while (isspace((unsigned char)*p))
        p++;
    const char *w = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    if (p - line >= start || p == w)
        return -2; /* completing the first word itself */
    if (session_find_user_cmd(s, w, (size_t)(p - w)))
        return -1;
    return cmd_lookup(w, (size_t)(p - w));
}

session_completion session_completion_kind(const session *s, const char *line, int start)
{
    int id = first_command(s, line, start);
    if (id == -2)
        return COMPLETE_WORDS;
    if (id < 0)
        return COMPLETE_NOTHING;
    switch (cmd_table[id].arg_kind) {
    case CMDARG_FILE: return COMPLETE_FILES;
    case CMDARG_NONE: return COMPLETE_NOTHING;
    default: return COMPLETE_WORDS;
    }
}

const char *session_complete_word(const session *s, const char *line, int start,
                                  const char *word, int state)
{
    int id = first_command(s, line, start);
    if (id == -2)
        return session_complete_command(s, word, state);
    if (id < 0)
        return NULL;
    switch (cmd_table[id].arg_kind) {
    case CMDARG_COMMAND: return session_complete_command(s, word, state);
    case CMDARG_OPTION: return session_complete_setting(s, word, state);
    default: return NULL;
    }
}

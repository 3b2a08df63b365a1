/* Prints the man page's COMMANDS and SETTINGS sections from the command and
 * settings tables, so the manual cannot drift from the program:
 *   gen_man_commands commands | gen_man_commands settings */
#include <stdio.h>
#include <string.h>

#include "debug/cmdtable.h"
#include "debug/state/session.h"

/* roff: a leading '.' or '\'' would be a request; backslashes and hyphens
 * are escaped. */
static void roff_text(const char *t)
{
    int line_start = 1;
    for (const char *p = t; *p; p++) {
        if (line_start && (*p == '.' || *p == '\''))
            fputs("\\&", stdout);
        line_start = *p == '\n';
        if (*p == '\\')
            fputs("\\e", stdout);
        else if (*p == '-')
            fputs("\\-", stdout);
        else
            putchar(*p);
    }
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "commands") == 0) {
        for (int i = 0; i < CMD_COUNT; i++) {
            const cmd_info *c = &cmd_table[i];
            fputs(".TP\n.B ", stdout);
            roff_text(c->usage);
            putchar('\n');
            roff_text(c->help);
            putchar('\n');
            if (c->longhelp[0]) {
                /* The help text is laid out for a terminal: keep its lines. */
                fputs(".br\n.nf\n", stdout);
                roff_text(c->longhelp);
                fputs("\n.fi\n", stdout);
            }
            if (c->aliases[0]) {
                fputs(".br\nAliases: ", stdout);
                roff_text(c->aliases);
                fputs(".\n", stdout);
            }
        }
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "settings") == 0) {
        session *s = session_new();
        for (int i = 0; i < SETTING_COUNT; i++) {
            fputs(".TP\n.B ", stdout);
            roff_text(session_setting_name((session_setting)i));
            fputs("\n", stdout);
            roff_text(session_setting_help((session_setting)i));
            fputs(".\nDefault: ", stdout);
            roff_text(*session_get_string(s, (session_setting)i) ? session_get_string(s, (session_setting)i) : "empty");
            fputs(".\n", stdout);
        }
        session_free(s);
        return 0;
    }
    fputs("usage: gen_man_commands commands|settings\n", stderr);
    return 2;
}

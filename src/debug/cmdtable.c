#include "debug/cmdtable.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

const cmd_info cmd_table[CMD_COUNT] = {
#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    {name, aliases, CMDARG_##kind, usage, help, longhelp},
#include "debug/commands.def"
#undef CMD
};

static int alias_matches(const char *aliases, const char *word, size_t len)
{
    const char *p = aliases;
    while (*p) {
        while (*p == ' ')
            p++;
        const char *start = p;
        while (*p && *p != ' ')
            p++;
        if ((size_t)(p - start) == len && len && memcmp(start, word, len) == 0)
            return 1;
    }
    return 0;
}

int cmd_lookup(const char *word, size_t len)
{
    if (len == 0)
        return -1;
    for (int i = 0; i < CMD_COUNT; i++)
        if (strlen(cmd_table[i].name) == len && memcmp(cmd_table[i].name, word, len) == 0)
            return i;
    for (int i = 0; i < CMD_COUNT; i++)
        if (alias_matches(cmd_table[i].aliases, word, len))
            return i;
    int found = -1;
    for (int i = 0; i < CMD_COUNT; i++) {
        if (strncmp(cmd_table[i].name, word, len) == 0) {
            if (found >= 0)
                return -2;
            found = i;
        }
    }
    return found;
}

void cmd_ambiguous_names(const char *word, size_t len, char *buf, size_t bufsize)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < CMD_COUNT; i++) {
        if (strncmp(cmd_table[i].name, word, len) != 0)
            continue;
        int n = snprintf(buf + used, bufsize - used, "%s%s", used ? ", " : "", cmd_table[i].name);
        if (n < 0 || (size_t)n >= bufsize - used)
            break;
        used += (size_t)n;
    }
}

int cmd_lookup_line(const char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    size_t n = 0;
    while (line[n] && !isspace((unsigned char)line[n]))
        n++;
    return n ? cmd_lookup(line, n) : -1;
}

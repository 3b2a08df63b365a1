/* Scripting and session commands: help, quit, echo, set, show, source,
 * define, document. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "debug/cmdtable.h"
#include "debug/state/expr.h"
#include "debug/script.h"
#include "debug/state/session_impl.h"


#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    ptodb_status cmd_##id(session *s, const char *args);
#include "debug/commands.def"
#undef CMD

static int valid_command_name(const char *name)
{
    if (!*name)
        return 0;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
            return 0;
    return 1;
}

ptodb_status cmd_HELP(session *s, const char *args)
{
    if (!*args) {
        session_printf(s, "List of commands:\n\n");
        for (int i = 0; i < CMD_COUNT; i++)
            session_printf(s, "%-12s -- %s\n", cmd_table[i].name, cmd_table[i].help);
        if (s->nuser_cmds) {
            session_printf(s, "\nUser-defined commands:\n\n");
            for (size_t i = 0; i < s->nuser_cmds; i++)
                session_printf(s, "%-12s -- %s\n", s->user_cmds[i].name,
                               s->user_cmds[i].doc ? s->user_cmds[i].doc : "User-defined.\n");
        }
        if (s->hook_names && s->hook_names[0]) {
            session_printf(s, "\nCommands of this front end:");
            for (size_t i = 0; s->hook_names[i]; i++)
                session_printf(s, " %s", s->hook_names[i]);
            session_printf(s, "\n");
        }
        session_printf(s, "\nType \"help\" followed by a command name for its full documentation.\n"
                          "Command name abbreviations are allowed if unambiguous.\n");
        return PTODB_OK;
    }
    user_cmd *u = session_find_user_cmd(s, args, strlen(args));
    if (u) {
        session_printf(s, "%s", u->doc ? u->doc : "User-defined.\n");
        return PTODB_OK;
    }
    int id = cmd_lookup(args, strlen(args));
    if (id == -2) {
        char names[512];
        cmd_ambiguous_names(args, strlen(args), names, sizeof names);
        session_errorf(s, "Ambiguous command \"%s\": %s.", args, names);
        return PTODB_ERR_USAGE;
    }
    if (id < 0) {
        session_errorf(s, "Undefined command: \"%s\".  Try \"help\".", args);
        return PTODB_ERR_USAGE;
    }
    const cmd_info *c = &cmd_table[id];
    session_printf(s, "Usage: %s\n%s\n", c->usage, c->help);
    if (c->aliases[0])
        session_printf(s, "Aliases: %s\n", c->aliases);
    if (c->longhelp[0])
        session_printf(s, "\n%s\n", c->longhelp);
    return PTODB_OK;
}

ptodb_status cmd_APROPOS(session *s, const char *args)
{
    if (!*args) {
        session_errorf(s, "REGEXP string is empty (apropos WORD).");
        return PTODB_ERR_USAGE;
    }
    regex_t re;
    if (regcomp(&re, args, REG_EXTENDED | REG_ICASE | REG_NOSUB) != 0) {
        session_errorf(s, "Invalid regular expression \"%s\".", args);
        return PTODB_ERR_USAGE;
    }
    int found = 0;
    for (int i = 0; i < CMD_COUNT; i++) {
        const cmd_info *c = &cmd_table[i];
        if (regexec(&re, c->name, 0, NULL, 0) == 0 || regexec(&re, c->usage, 0, NULL, 0) == 0 ||
            regexec(&re, c->help, 0, NULL, 0) == 0 || regexec(&re, c->longhelp, 0, NULL, 0) == 0 ||
            regexec(&re, c->aliases, 0, NULL, 0) == 0) {
            session_printf(s, "%s -- %s\n", c->name, c->help);
            found++;
        }
    }
    for (int i = 0; i < SETTING_COUNT; i++) {
        if (regexec(&re, session_setting_name(i), 0, NULL, 0) == 0 ||
            regexec(&re, session_setting_help(i), 0, NULL, 0) == 0) {
            session_printf(s, "set %s -- %s\n", session_setting_name(i), session_setting_help(i));
            found++;
        }
    }
    for (size_t i = 0; i < s->nuser_cmds; i++) {
        const user_cmd *u = &s->user_cmds[i];
        if (regexec(&re, u->name, 0, NULL, 0) == 0 || (u->doc && regexec(&re, u->doc, 0, NULL, 0) == 0)) {
            session_printf(s, "%s -- %s", u->name, u->doc ? u->doc : "User-defined.\n");
            found++;
        }
    }
    regfree(&re);
    if (!found)
        session_printf(s, "No command or setting mentions \"%s\".\n", args);
    return PTODB_OK;
}

ptodb_status cmd_QUIT(session *s, const char *args)
{
    if (*args) {
        session_errorf(s, "quit takes no argument");
        return PTODB_ERR_USAGE;
    }
    s->quit = 1;
    return PTODB_OK;
}

ptodb_status cmd_ECHO(session *s, const char *args)
{
    /* gdb's echo: the text as given, no newline of its own; C escapes */
    strbuf sb = STRBUF_INIT;
    for (const char *p = args; *p; p++) {
        if (*p != '\\') {
            strbuf_putc(&sb, *p);
            continue;
        }
        if (p[1] == '\0')
            break; /* a trailing backslash: nothing */
        p++;
        switch (*p) {
        case 'n': strbuf_putc(&sb, '\n'); break;
        case 't': strbuf_putc(&sb, '\t'); break;
        case 'a': strbuf_putc(&sb, '\a'); break;
        case 'e': strbuf_putc(&sb, '\033'); break;
        case '\\': strbuf_putc(&sb, '\\'); break;
        default: strbuf_putc(&sb, *p); break;
        }
    }
    session_write(s, strbuf_str(&sb), sb.len);
    strbuf_free(&sb);
    return PTODB_OK;
}

static void setting_origin_text(session *s, char *buf, size_t size)
{
    for (int i = s->depth - 1; i >= 0; i--) {
        if (s->frames[i].file) {
            snprintf(buf, size, "%s:%d", s->frames[i].file, s->frames[i].line);
            return;
        }
    }
    snprintf(buf, size, "command");
}

ptodb_status cmd_SET(session *s, const char *args)
{
    if (args[0] == '$')
        return expr_assign(s, args);
    for (const char *kw = "var variable"; *kw;) {
        size_t n = strcspn(kw, " ");
        if (strncmp(args, kw, n) == 0 && (isspace((unsigned char)args[n]) || !args[n]))
            return expr_assign(s, args + n + strspn(args + n, " \t"));
        kw += n + (kw[n] == ' ');
    }
    const char *val = NULL;
    int id = session_match_setting(args, &val);
    if (id < 0) {
        session_errorf(s, "No setting \"%s\".  Try \"show\" for the list.", args);
        return PTODB_ERR_USAGE;
    }
    if (!*val) {
        session_errorf(s, "Argument required (a value for %s).", session_setting_name(id));
        return PTODB_ERR_USAGE;
    }
    char origin[512];
    setting_origin_text(s, origin, sizeof origin);
    return session_set(s, (session_setting)id, val, origin);
}

static void show_one(session *s, int id)
{
    session_printf(s, "%-20s %-12s (%s) %s\n", session_setting_name(id),
                   s->settings[id].text[0] ? s->settings[id].text : "\"\"",
                   s->settings[id].origin, session_setting_help(id));
}

ptodb_status cmd_SHOW(session *s, const char *args)
{
    if (!*args) {
        for (int i = 0; i < SETTING_COUNT; i++)
            show_one(s, i);
        return PTODB_OK;
    }
    const char *rest = NULL;
    int id = session_match_setting(args, &rest);
    if (id < 0 || *rest) {
        session_errorf(s, "No setting \"%s\".  Try \"show\" for the list.", args);
        return PTODB_ERR_USAGE;
    }
    show_one(s, id);
    return PTODB_OK;
}

ptodb_status cmd_SOURCE(session *s, const char *args)
{
    if (!*args) {
        session_errorf(s, "source needs a file name");
        return PTODB_ERR_USAGE;
    }
    return session_source(s, args);
}

ptodb_status cmd_DEFINE(session *s, const char *args)
{
    if (!valid_command_name(args)) {
        session_errorf(s, "define needs a command name (letters, digits, '-', '_'), got \"%s\"",
                       args);
        return PTODB_ERR_USAGE;
    }
    if (cmd_lookup(args, strlen(args)) >= 0 && strcmp(cmd_table[cmd_lookup(args, strlen(args))].name, args) == 0) {
        session_errorf(s, "\"%s\" is a built-in command and cannot be redefined", args);
        return PTODB_ERR_USAGE;
    }
    session_begin_collect(s, COLLECT_DEFINE, args);
    return PTODB_OK;
}

ptodb_status cmd_DOCUMENT(session *s, const char *args)
{
    if (!session_find_user_cmd(s, args, strlen(args))) {
        session_errorf(s, "Undefined user command: \"%s\".", args);
        return PTODB_ERR_USAGE;
    }
    session_begin_collect(s, COLLECT_DOCUMENT, args);
    return PTODB_OK;
}

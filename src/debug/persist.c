/* Saving breakpoints and displays as a command script: `save`, and the
 * per-case files under the state folder that are written when a case is
 * closed and sourced when it is opened again. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/mem.h"
#include "base/mkdirs.h"
#include "debug/session_impl.h"

#define CMD(id, name, aliases, kind, usage, help, longhelp) \
    ptodb_status cmd_##id(session *s, const char *args);
#include "debug/commands.def"
#undef CMD

void session_set_state_dir(session *s, const char *dir)
{
    free(s->state_dir);
    s->state_dir = dir ? xstrdup(dir) : NULL;
}

static void write_script(session *s, strbuf *sb, int with_displays)
{
    for (size_t i = 0; i < s->nbps; i++) {
        const breakpoint *b = &s->bps[i];
        const char *verb = b->kind == BP_WATCH ? "watch" : b->temporary ? "tbreak" : "break";
        strbuf_printf(sb, "%s ", verb);
        switch (b->kind) {
        case BP_LINE:
            strbuf_printf(sb, "%s:%d", session_file_name(s->kase.passes[b->pass].path), b->line);
            break;
        case BP_FUNC: strbuf_puts(sb, b->func); break;
        case BP_PASS: strbuf_printf(sb, "pass %s", b->spec); break;
        case BP_WATCH: strbuf_printf(sb, "%s%s", b->spec, b->watch_sub ? b->watch_sub : ""); break;
        case BP_NAN: strbuf_puts(sb, "nan"); break;
        case BP_INF: strbuf_puts(sb, "inf"); break;
        }
        if (bp_condition_text(b))
            strbuf_printf(sb, " if %s", bp_condition_text(b));
        strbuf_putc(sb, '\n');
        if (b->ignore)
            strbuf_printf(sb, "ignore $bpnum %ld\n", b->ignore);
        if (b->ncommands) {
            strbuf_puts(sb, "commands $bpnum\n");
            for (size_t k = 0; k < b->ncommands; k++)
                strbuf_printf(sb, "  %s\n", b->commands[k]);
            strbuf_puts(sb, "end\n");
        }
        if (!b->enabled)
            strbuf_puts(sb, "disable $bpnum\n");
    }
    if (with_displays)
        for (size_t i = 0; i < s->ndisplays; i++)
            strbuf_printf(sb, "display %s\n", s->displays[i].expr);
}

ptodb_status session_save_script(session *s, const char *path, int with_displays)
{
    strbuf sb = STRBUF_INIT;
    strbuf_printf(&sb, "# ptodb session%s%s\n", s->have_case ? " for " : "",
                  s->have_case ? s->kase.root : "");
    write_script(s, &sb, with_displays);
    FILE *f = fopen(path, "w");
    if (!f || fwrite(sb.data, 1, sb.len, f) != sb.len || fclose(f) != 0) {
        session_errorf(s, "%s: %s", path, strerror(errno));
        strbuf_free(&sb);
        return PTODB_ERR_IO;
    }
    strbuf_free(&sb);
    return PTODB_OK;
}

ptodb_status cmd_SAVE(session *s, const char *args)
{
    char *words[3];
    char buf[2048];
    int n = session_split_words(args, words, 3, buf, sizeof buf);
    if (n != 2 || (strcmp(words[0], "session") != 0 && strcmp(words[0], "breakpoints") != 0)) {
        session_errorf(s, "Usage: save session|breakpoints FILE");
        return PTODB_ERR_USAGE;
    }
    int displays = strcmp(words[0], "session") == 0;
    ptodb_status st = session_save_script(s, words[1], displays);
    if (st == PTODB_OK)
        session_printf(s, "Saved %zu breakpoint%s%s to %s.\n", s->nbps, s->nbps == 1 ? "" : "s",
                       displays ? " and the displays" : "", words[1]);
    return st;
}

/* STATE/sessions/<case root with '/' as '%'>.ptodb, folders created. */
static int case_file(session *s, char *buf, size_t size, int create)
{
    if (!s->state_dir || !s->have_case || !session_get_bool(s, SETTING_AUTOSAVE))
        return -1;
    char root[PATH_MAX];
    if (!realpath(s->kase.root, root))
        return -1;
    char dir[PATH_MAX];
    if (snprintf(dir, sizeof dir, "%s/sessions", s->state_dir) >= (int)sizeof dir)
        return -1;
    if (create)
        mkdirs(dir);
    for (char *p = root; *p; p++)
        if (*p == '/')
            *p = '%';
    int n = snprintf(buf, size, "%s/%s.ptodb", dir, root);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

void session_autosave(session *s)
{
    char path[PATH_MAX];
    struct stat st;
    if (case_file(s, path, sizeof path, 0) != 0)
        return;
    if (!s->nbps && !s->ndisplays) {
        if (stat(path, &st) == 0)
            unlink(path); /* nothing left to restore */
        return;
    }
    if (case_file(s, path, sizeof path, 1) != 0)
        return;
    session_save_script(s, path, 1);
}

void session_autorestore(session *s)
{
    char path[PATH_MAX];
    struct stat st;
    if (case_file(s, path, sizeof path, 0) != 0 || stat(path, &st) != 0)
        return;
    s->quiet++;
    session_source(s, path);
    s->quiet--;
    if (s->nbps || s->ndisplays)
        session_printf(s, "Restored %zu breakpoint%s and %zu display%s from %s.\n", s->nbps,
                       s->nbps == 1 ? "" : "s", s->ndisplays, s->ndisplays == 1 ? "" : "s", path);
}

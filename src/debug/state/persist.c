/* Saving breakpoints and displays: `save` writes them as a command script
 * (gdb's format, for `source`), and the per-case files under the state
 * folder use the same text, written when a case is closed and read back when
 * it is opened again.
 *
 * Reading a per-case file back is not sourcing it: a session file is data.
 * Each record (a break/tbreak/watch line with its ignore count, commands
 * body and disable, or a display line) is applied directly; a record that
 * no longer applies (its line is gone from the dump) is skipped with one
 * warning, and its commands body is dropped, never run. Nothing a restore
 * does executes a program command.
 *
 * Two ptodb processes may close the same case: saving locks the file, reads
 * it again and keeps the records the other one added (those not restored by
 * this one at open time), so neither loses its breakpoints. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "base/atomic_file.h"
#include "base/input_file.h"
#include "base/mem.h"
#include "base/mkdirs.h"
#include "base/path_within.h"
#include "base/number.h"
#include "debug/state/persist.h"
#include "debug/state/session_impl.h"

void session_set_state_dir(session *s, const char *dir)
{
    free(s->state_dir);
    s->state_dir = dir ? xstrdup(dir) : NULL;
    if (s->state_dir && s->have_case)
        session_autorestore(s);
}

static void write_script(session *s, strbuf *sb, int with_displays)
{
    for (size_t i = 0; i < s->nbps; i++) {
        const breakpoint *b = &s->bps[i];
        static const char *const watch_verbs[] = {"watch", "rwatch", "awatch"};
        const char *verb = b->kind == BP_WATCH ? watch_verbs[b->watch_access] : b->temporary ? "tbreak" : "break";
        if (bp_catch_of(b->kind))
            verb = "catch";
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
        case BP_CATCH_MEMORY:
        case BP_CATCH_RACE:
        case BP_CATCH_FENCE: strbuf_puts(sb, bp_catch_of(b->kind)->event); break;
        }
        if (b->rank >= 0) /* a multi-rank case's breakpoint on one rank */
            strbuf_printf(sb, " rank %d", b->rank);
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
    if (atomic_file_write(path, sb.data, sb.len) != 0) {
        session_errorf(s, "%s: %s", path, strerror(errno));
        strbuf_free(&sb);
        return PTODB_ERR_IO;
    }
    strbuf_free(&sb);
    return PTODB_OK;
}

/* STATE/sessions/<case root with '/' as '%'>.ptodb, folders created. */
static int case_file(session *s, char *buf, size_t size, int create)
{
    if (!s->state_dir || !s->have_case || !session_get_bool(s, SETTING_AUTOSAVE))
        return -1;
    char root[PATH_MAX];
    if (!realpath(s->kase.root, root))
        return -1;
    /* ptodb never writes inside a case folder, even when told to keep its
     * state there (`open` of a case that holds the state folder) */
    if (path_within(s->state_dir, root) != 0)
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

/* ---- records ------------------------------------------------------------ */

/* One record of a session file: its first line (the key) and the lines that
 * belong to it (ignore, commands ... end, disable). */
typedef struct record {
    char *head;
    strbuf text; /* head and its lines, each ending in '\n' */
    int line;    /* of head in the file */
} record;

typedef struct record_list {
    record *items;
    size_t n;
} record_list;

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int is_head(const char *line)
{
    return starts_with(line, "break ") || starts_with(line, "tbreak ") || starts_with(line, "watch ") ||
           starts_with(line, "rwatch ") || starts_with(line, "awatch ") ||
           starts_with(line, "display ");
}

/* Splits text into records. Lines before the first record, comments and
 * blank lines belong to no record; any other line outside one is reported
 * through bad (its line number) when bad is not NULL. */
static void parse_records(const char *text, record_list *out, void (*bad)(void *, int, const char *), void *ud)
{
    memset(out, 0, sizeof *out);
    int lineno = 0, in_body = 0;
    record *cur = NULL;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = xstrndup(p, len);
        p += len + (nl != NULL);
        lineno++;
        if (in_body) {
            /* a commands body: indented lines up to "end" at column 0 */
            strbuf_printf(&cur->text, "%s\n", line);
            if (strcmp(line, "end") == 0)
                in_body = 0;
        } else if (!line[0] || line[0] == '#') {
            /* nothing */
        } else if (is_head(line)) {
            out->items = xreallocarray(out->items, out->n + 1, sizeof *out->items);
            cur = &out->items[out->n++];
            cur->head = xstrdup(line);
            cur->text = (strbuf)STRBUF_INIT;
            strbuf_printf(&cur->text, "%s\n", line);
            cur->line = lineno;
        } else if (cur && !starts_with(cur->head, "display ") &&
                   (starts_with(line, "ignore $bpnum ") || strcmp(line, "disable $bpnum") == 0 ||
                    strcmp(line, "commands $bpnum") == 0)) {
            strbuf_printf(&cur->text, "%s\n", line);
            in_body = strcmp(line, "commands $bpnum") == 0;
        } else if (bad) {
            bad(ud, lineno, line);
        }
        free(line);
    }
}

static void records_free(record_list *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->items[i].head);
        strbuf_free(&l->items[i].text);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
}

static int has_key(char *const *keys, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(keys[i], key) == 0)
            return 1;
    return 0;
}

static int record_list_has(const record_list *l, const char *key)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->items[i].head, key) == 0)
            return 1;
    return 0;
}

void session_persist_free(session *s)
{
    for (size_t i = 0; i < s->nrestored; i++)
        free(s->restored[i]);
    free(s->restored);
    s->restored = NULL;
    s->nrestored = 0;
}

static char *read_small_file(const char *path)
{
    char why[300];
    FILE *f = input_file_fopen(path, why, sizeof why);
    if (!f)
        return NULL;
    strbuf sb = STRBUF_INIT;
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0 && sb.len < ((size_t)16 << 20))
        strbuf_append(&sb, buf, n);
    fclose(f);
    return strbuf_detach(&sb);
}

/* The lock that serialises read-merge-write of session files: the sessions
 * folder itself (flock works on a directory), so no lock file is left. */
static int lock_session_file(const char *path)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    int fd = open(slash ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0 && flock(fd, LOCK_EX) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

void session_autosave(session *s)
{
    char path[PATH_MAX];
    struct stat st;
    if (case_file(s, path, sizeof path, 0) != 0)
        return;
    if (!s->nbps && !s->ndisplays && stat(path, &st) != 0) {
        session_persist_free(s);
        return; /* nothing to save and nothing to merge with */
    }
    if (case_file(s, path, sizeof path, 1) != 0)
        return;
    int lock = lock_session_file(path);
    /* A three-way merge with the records restored at open time as the
     * base: ours, less those the other process deleted since (in the base,
     * gone from the file), plus those it added (in the file, not in the
     * base, not ours). */
    strbuf mine = STRBUF_INIT, sb = STRBUF_INIT;
    write_script(s, &mine, 1);
    record_list ours, theirs;
    parse_records(strbuf_str(&mine), &ours, NULL, NULL);
    char *old = read_small_file(path);
    parse_records(old ? old : "", &theirs, NULL, NULL);
    free(old);
    /* Identical records (the same breakpoint set twice, or again in each
     * session) are written once, so repeating a session never stacks them. */
    const record **written = xcalloc(ours.n + theirs.n + 1, sizeof *written);
    size_t kept = 0;
    for (size_t i = 0; i < ours.n + theirs.n; i++) {
        const record *r = i < ours.n ? &ours.items[i] : &theirs.items[i - ours.n];
        if (i < ours.n ? has_key(s->restored, s->nrestored, r->head) && !record_list_has(&theirs, r->head)
                       : record_list_has(&ours, r->head) || has_key(s->restored, s->nrestored, r->head))
            continue;
        int dup = 0;
        for (size_t k = 0; k < kept && !dup; k++)
            dup = strcmp(strbuf_str(&written[k]->text), strbuf_str(&r->text)) == 0;
        if (dup)
            continue;
        strbuf_puts(&sb, strbuf_str(&r->text));
        written[kept++] = r;
    }
    free(written);
    if (!kept) {
        unlink(path); /* nothing left to restore */
    } else {
        strbuf file = STRBUF_INIT;
        strbuf_printf(&file, "# ptodb session for %s\n%s", s->kase.root, strbuf_str(&sb));
        if (atomic_file_write(path, file.data, file.len) != 0)
            session_warnf(s, "warning: cannot save the session to %s: %s", path, strerror(errno));
        strbuf_free(&file);
    }
    if (lock >= 0)
        close(lock);
    records_free(&ours);
    records_free(&theirs);
    strbuf_free(&mine);
    strbuf_free(&sb);
    session_persist_free(s);
}

/* Session output swapped in while a record is applied: errors are kept as
 * the reason of the one warning, chatter is dropped. */
static void capture_output(void *ctx, session_stream stream, const char *text, size_t len)
{
    if (stream == SESSION_ERR)
        strbuf_append((strbuf *)ctx, text, len);
}

typedef struct restore_ctx {
    session *s;
    const char *path;
    int skipped;
} restore_ctx;

static void bad_line(void *ud, int line, const char *text)
{
    restore_ctx *rc = ud;
    session_warnf(rc->s, "%s:%d: warning: not a breakpoint or display record, skipped: %s", rc->path, line, text);
    rc->skipped++;
}

/* Applies the lines after a breakpoint record's head to b. */
static void apply_bp_lines(breakpoint *b, const char *text)
{
    const char *p = strchr(text, '\n');
    p = p ? p + 1 : "";
    int in_body = 0;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = xstrndup(p, len);
        p += len + (nl != NULL);
        if (in_body) {
            if (strcmp(line, "end") == 0) {
                in_body = 0;
            } else {
                const char *cmd = starts_with(line, "  ") ? line + 2 : line;
                b->commands = xreallocarray(b->commands, b->ncommands + 1, sizeof *b->commands);
                b->commands[b->ncommands++] = xstrdup(cmd); /* stored, never run here */
            }
        } else if (starts_with(line, "ignore $bpnum ")) {
            long long n;
            if (parse_int_range(line + 14, 0, LONG_MAX, &n) == 0)
                b->ignore = (long)n;
        } else if (strcmp(line, "disable $bpnum") == 0) {
            b->enabled = 0;
        } else if (strcmp(line, "commands $bpnum") == 0) {
            in_body = 1;
        }
        free(line);
    }
}

static void restore_record(session *s, const record *r, restore_ctx *rc)
{
    strbuf why = STRBUF_INIT;
    session_output_fn out = s->out;
    void *out_ctx = s->out_ctx;
    int nerrors = s->nerrors;
    s->out = capture_output;
    s->out_ctx = &why;
    size_t nbps = s->nbps, ndisplays = s->ndisplays;
    int applied;
    const char *head = r->head;
    /* the record's command (is_head: break, tbreak, watch, rwatch, awatch,
     * display), reached through the command table as typed ones are (the
     * commands floor's runner: this floor names no command) */
    size_t wlen = strcspn(head, " ");
    session_run_builtin(s, head, wlen, head + wlen + strspn(head + wlen, " "));
    if (starts_with(head, "display ")) {
        applied = s->ndisplays == ndisplays + 1;
    } else {
        applied = s->nbps == nbps + 1;
        if (applied)
            apply_bp_lines(&s->bps[nbps], strbuf_str(&r->text));
    }
    s->out = out;
    s->out_ctx = out_ctx;
    s->nerrors = nerrors;
    if (!applied) {
        char *reason = strbuf_detach(&why);
        size_t n = strlen(reason);
        while (n && reason[n - 1] == '\n')
            reason[--n] = '\0';
        session_warnf(s, "%s:%d: warning: '%s' no longer applies (%s): skipped%s", rc->path, r->line, head,
                      *reason ? reason : "refused",
                      strstr(strbuf_str(&r->text), "\ncommands $bpnum\n") ? ", its commands are not run" : "");
        free(reason);
        rc->skipped++;
    }
    strbuf_free(&why);
}

void session_autorestore(session *s)
{
    char path[PATH_MAX];
    struct stat st;
    session_persist_free(s);
    if (case_file(s, path, sizeof path, 0) != 0 || stat(path, &st) != 0)
        return;
    char *text = read_small_file(path);
    if (!text) {
        session_warnf(s, "warning: cannot read the saved session %s", path);
        return;
    }
    restore_ctx rc = {s, path, 0};
    record_list l;
    parse_records(text, &l, bad_line, &rc);
    free(text);
    s->quiet++;
    for (size_t i = 0; i < l.n; i++) {
        restore_record(s, &l.items[i], &rc);
        s->restored = xreallocarray(s->restored, s->nrestored + 1, sizeof *s->restored);
        s->restored[s->nrestored++] = xstrdup(l.items[i].head);
    }
    s->quiet--;
    records_free(&l);
    if (s->nbps || s->ndisplays)
        session_printf(s, "Restored %zu breakpoint%s and %zu display%s from %s.\n", s->nbps,
                       s->nbps == 1 ? "" : "s", s->ndisplays, s->ndisplays == 1 ? "" : "s", path);
}

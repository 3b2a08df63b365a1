/* The session's output and the values of its settings (session_impl.h,
 * session.h): printing, errors and warnings (FILE:LINE: first inside a
 * script), the redraw marks, the settings' current values and the machine
 * options they make, a few string helpers. Everything in the debugger
 * reports through these, and they call nothing above them: a file that
 * only reports and reads settings does not join the circle of the command
 * table (session_execute -> a command -> session.c). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "debug/state/session_impl.h"
#include "exec/schedule.h"

int session_need_case(session *s)
{
    if (s->have_case)
        return 1;
    session_errorf(s, "No case is open.  Use \"open PATH\".");
    return 0;
}

void session_print_diags(session *s, const diag_sink *sink)
{
    for (size_t i = 0; i < sink->count; i++) {
        char *line = diag_format(&sink->items[i]);
        if (sink->items[i].severity == DIAG_ERROR)
            session_errorf(s, "%s", line);
        else
            session_warnf(s, "%s", line);
        free(line);
    }
    if (sink->suppressed)
        session_errorf(s, "(%d more errors not shown)", sink->suppressed);
}

exec_profile_id session_profile(const session *s)
{
    return strcmp(session_get_string(s, SETTING_REF), "torch1.13") == 0 ? EXEC_PROFILE_T13 : EXEC_PROFILE_T2;
}

exec_semantics session_semantics(const session *s)
{
    int v = exec_semantics_parse(session_get_string(s, SETTING_SEMANTICS));
    return v < 0 ? EXEC_SEM_DEVICE : (exec_semantics)v;
}

void session_machine_options(const session *s, machine_options *o)
{
    machine_options_init(o);
    o->profile = session_profile(s);
    o->semantics = session_semantics(s);
    /* the memory model is the device's: the reference's semantics is blind to it */
    o->memcheck = o->semantics == EXEC_SEM_DEVICE && session_get_bool(s, SETTING_MEMCHECK);
}

void session_schedule_options(const session *s, machine_options *o)
{
    int kind;
    char why[256];
    /* the setting was checked when set: a name that does not parse leaves the default */
    if (exec_schedule_parse_name(session_get_string(s, SETTING_SCHEDULE), &kind, &o->seed, why, sizeof why) == 0)
        o->sched = (exec_sched)kind;
}

int session_count_lines(const char *text)
{
    int n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n + (*text && text[strlen(text) - 1] != '\n');
}

const char *session_file_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int session_error_count(const session *s)
{
    return s->nerrors;
}

unsigned session_take_redraw(session *s)
{
    unsigned r = s->redraw;
    s->redraw = 0;
    return r;
}

void session_mark_redraw(session *s, unsigned bits)
{
    s->redraw |= bits;
}

/* ---- output ---------------------------------------------------------------- */

void session_write(session *s, const char *text, size_t len)
{
    if (s->quiet)
        return;
    s->out(s->out_ctx, SESSION_OUT, text, len);
}

void session_printf(session *s, const char *fmt, ...)
{
    strbuf sb = STRBUF_INIT;
    va_list ap;
    if (s->quiet)
        return;
    va_start(ap, fmt);
    strbuf_vprintf(&sb, fmt, ap);
    va_end(ap);
    s->out(s->out_ctx, SESSION_OUT, strbuf_str(&sb), sb.len);
    strbuf_free(&sb);
}

/* An error or warning line on the error stream, FILE:LINE: first in a script. */
static void report_line(session *s, const char *fmt, va_list ap)
{
    strbuf sb = STRBUF_INIT;
    /* The innermost script file names the place, as gdb does. */
    for (int i = s->depth - 1; i >= 0; i--) {
        if (s->frames[i].file) {
            strbuf_printf(&sb, "%s:%d: ", s->frames[i].file, s->frames[i].line);
            break;
        }
    }
    strbuf_vprintf(&sb, fmt, ap);
    strbuf_putc(&sb, '\n');
    s->out(s->out_ctx, SESSION_ERR, strbuf_str(&sb), sb.len);
    strbuf_free(&sb);
}

void session_verrorf(session *s, const char *fmt, va_list ap)
{
    s->nerrors++;
    report_line(s, fmt, ap);
}

void session_warnf(session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report_line(s, fmt, ap);
    va_end(ap);
}

void session_errorf(session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    session_verrorf(s, fmt, ap);
    va_end(ap);
}

const char *session_get_string(const session *s, session_setting id)
{
    return s->settings[id].text;
}

double session_get_double(const session *s, session_setting id)
{
    return s->settings[id].d;
}

long session_get_int(const session *s, session_setting id)
{
    return s->settings[id].i;
}

int session_get_bool(const session *s, session_setting id)
{
    return s->settings[id].i != 0;
}

const char *session_setting_origin(const session *s, session_setting id)
{
    return s->settings[id].origin;
}

int session_split_words(const char *args, char **words, int max, char *buf, size_t bufsize)
{
    int n = 0;
    size_t used = 0;
    const char *p = args;
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            return n;
        if (n == max)
            return -1;
        words[n] = buf + used;
        int quoted = 0, brackets = 0;
        /* Blanks inside "quotes" or a subscript [0:2, 1] do not split. */
        while (*p && (quoted || brackets > 0 || !isspace((unsigned char)*p))) {
            if (*p == '"') {
                quoted = !quoted;
                p++;
                continue;
            }
            if (!quoted && *p == '[')
                brackets++;
            else if (!quoted && *p == ']' && brackets > 0)
                brackets--;
            if (used + 1 >= bufsize)
                return -1;
            buf[used++] = *p++;
        }
        if (used + 1 > bufsize)
            return -1;
        buf[used++] = '\0';
        n++;
    }
}

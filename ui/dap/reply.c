/* The DAP server's messages out (responses, events, output) and its
 * access to the engine: commands run with their output collected, frame
 * selection, frame ids, pass files. */
#include "config.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "base/utf8.h"
#include "dap_impl.h"
#include "debug/present/view.h"

static const char *const core_names[] = {"host", "aic", "aiv0", "aiv1"};

/* ---- messages ------------------------------------------------------------------------------ */

void dap_send(dap_server *d, json_t *msg)
{
    json_object_set_new(msg, "seq", json_integer(++d->seq));
    char *text = json_dumps(msg, JSON_COMPACT | JSON_ENSURE_ASCII);
    json_decref(msg);
    if (!text)
        return;
    if (dap_frame_write(d->out_fd, text, strlen(text)) != 0)
        d->done = 1; /* the client is gone */
    free(text);
}

void dap_event(dap_server *d, const char *event, json_t *body)
{
    json_t *m = json_pack("{s:s, s:s}", "type", "event", "event", event);
    if (body)
        json_object_set_new(m, "body", body);
    dap_send(d, m);
}

static json_t *response_for(json_t *req, int success)
{
    json_t *seq = json_object_get(req, "seq");
    json_t *cmd = json_object_get(req, "command");
    return json_pack("{s:s, s:I, s:b, s:s}", "type", "response", "request_seq",
                     (json_int_t)(json_is_integer(seq) ? json_integer_value(seq) : 0), "success", success,
                     "command", json_is_string(cmd) ? json_string_value(cmd) : "");
}

void dap_respond(dap_server *d, json_t *req, json_t *body)
{
    json_t *m = response_for(req, 1);
    if (body)
        json_object_set_new(m, "body", body);
    dap_send(d, m);
}

void dap_fail(dap_server *d, json_t *req, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    json_t *m = response_for(req, 0);
    json_object_set_new(m, "message", dap_str(msg));
    /* format is shown by VS Code with {name} substitution: no variables */
    json_object_set_new(m, "body", json_pack("{s:{s:i, s:o, s:b}}", "error", "id", 1, "format", dap_str(msg),
                                             "showUser", 0));
    dap_send(d, m);
}

/* text as a JSON string of well-formed UTF-8, at most cap bytes of it. */
static json_t *utf8_string(const char *text, size_t cap)
{
    /* well-formed UTF-8 only (a JSON string must be): a byte of a hostile
     * file that the engine echoes becomes U+FFFD */
    size_t n = strlen(text);
    strbuf sb = STRBUF_INIT;
    size_t i = 0;
    while (i < n && sb.len < cap) {
        size_t k = utf8_char_len((const unsigned char *)text + i, n - i);
        if (k == 0) {
            strbuf_puts(&sb, "\xef\xbf\xbd");
            i++;
        } else {
            strbuf_append(&sb, text + i, k);
            i += k;
        }
    }
    if (i < n)
        strbuf_printf(&sb, "\n... (%zu more bytes not shown)\n", n - i);
    json_t *j = json_stringn(sb.data ? sb.data : "", sb.len);
    strbuf_free(&sb);
    return j;
}

json_t *dap_text_capped(const char *text)
{
    return utf8_string(text, DAP_TEXT_CAP);
}

json_t *dap_str(const char *text)
{
    return utf8_string(text ? text : "", (size_t)-1);
}

void dap_output(dap_server *d, const char *category, const char *text)
{
    if (!text || !*text)
        return;
    dap_event(d, "output", json_pack("{s:s, s:o}", "category", category, "output", dap_text_capped(text)));
}

/* ---- the engine ------------------------------------------------------------------------------ */

void dap_on_engine_output(void *ctx, session_stream stream, const char *text, size_t len)
{
    (void)stream;
    dap_server *d = ctx;
    strbuf_append(&d->cap, text, len);
}

int dap_execute(dap_server *d, const char *fmt, ...)
{
    char line[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    strbuf_clear(&d->cap);
    if (!d->s)
        return -1;
    /* a client's text is one command: a line break must not start another */
    if (strpbrk(line, "\r\n")) {
        strbuf_puts(&d->cap, "A line break is not allowed here.\n");
        return -1;
    }
    int before = session_error_count(d->s);
    session_execute(d->s, line);
    if (d->progress_active) {
        d->progress_active = 0;
        dap_event(d, "progressEnd", json_pack("{s:s}", "progressId", "ptodb-run"));
    }
    return session_error_count(d->s) > before ? -1 : 0;
}

const char *dap_last_line(dap_server *d, char *buf, size_t size)
{
    const char *t = strbuf_str(&d->cap);
    size_t n = strlen(t);
    while (n > 0 && (t[n - 1] == '\n' || t[n - 1] == ' '))
        n--;
    size_t b = n;
    while (b > 0 && t[b - 1] != '\n')
        b--;
    snprintf(buf, size, "%.*s", (int)(n - b), t + b);
    return buf;
}

int dap_use_thread(dap_server *d, int thread, int *core)
{
    int sel, P = d->s ? view_nranks(d->s, &sel) : 0;
    if (thread < 0 || thread >= 4 * (P ? P : 1))
        return -1;
    if (P && thread / 4 != sel && dap_execute(d, "rank %d", thread / 4) != 0)
        return -1;
    *core = thread % 4;
    return 0;
}

int dap_select_frame(dap_server *d, int thread, int level)
{
    int c, l, core;
    if (!d->s || dap_use_thread(d, thread, &core) != 0 || !view_selection(d->s, &c, &l))
        return -1;
    if (core >= 0 && core < 4 && core != c && dap_execute(d, "core %s", core_names[core]) != 0)
        return -1;
    if (level >= 0 && (core != c || level != l) && dap_execute(d, "frame %d", level) != 0)
        return -1;
    return 0;
}

int dap_select_live(dap_server *d)
{
    view_location loc;
    if (!d->s || view_run_pass(d->s) < 0 || view_run_finished(d->s))
        return -1;
    if (view_stop_location(d->s, &loc))
        return 0;
    int sel, P = view_nranks(d->s, &sel), sel_core, sel_level;
    if (!view_selection(d->s, &sel_core, &sel_level))
        sel_core = 0;
    for (int i = 0; i < (P ? P : 1); i++) {
        int rank = P ? (sel + i) % P : 0; /* the selected rank first */
        if (P && dap_execute(d, "rank %d", rank) != 0)
            continue;
        for (int core = 0; core < 4; core++) {
            view_frame f;
            if (view_frames(d->s, core, &f, 1) > 0 && dap_execute(d, "core %s", core_names[core]) == 0 &&
                view_stop_location(d->s, &loc))
                return 0;
        }
    }
    /* none: the selection stays (the thread a step back was asked on) */
    if (P)
        dap_execute(d, "rank %d", sel);
    if (sel_core >= 0 && sel_core < 4)
        dap_execute(d, "core %s", core_names[sel_core]);
    return 1;
}

int dap_frame_id(int core, int level)
{
    return (core + 1) * 100000 + level + 1;
}

int dap_frame_unpack(long id, int *core, int *level)
{
    /* threads: 4 cores of at most CASE_MAX_RANKS (64) ranks */
    if (id < 100001 || id > 256L * 100000 + 99999 || id % 100000 == 0)
        return -1;
    *core = (int)(id / 100000) - 1;
    *level = (int)(id % 100000) - 1;
    return 0;
}

const char *dap_abs_path(const char *file, char *buf, size_t size)
{
    char real[PATH_MAX];
    if (file && realpath(file, real)) {
        snprintf(buf, size, "%s", real);
        return buf;
    }
    return file ? file : "";
}

int dap_pass_of_path(dap_server *d, const char *path)
{
    if (!d->s || !path)
        return -1;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 3 && strcmp(base + n - 3, ".py") == 0)
        n -= 3;
    for (int i = 0; i < session_npasses(d->s); i++) {
        const char *stem = session_pass_stem(d->s, i);
        if (stem && strlen(stem) == n && strncmp(stem, base, n) == 0)
            return i;
    }
    return -1;
}


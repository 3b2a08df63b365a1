/* DAP base-protocol framing (framing.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/mem.h"
#include "framing.h"

void dap_framer_init(dap_framer *f)
{
    memset(f, 0, sizeof *f);
}

void dap_framer_free(dap_framer *f)
{
    free(f->buf);
    memset(f, 0, sizeof *f);
}

void dap_framer_feed(dap_framer *f, const void *data, size_t n)
{
    if (f->failed || n == 0)
        return;
    if (f->off > 0 && f->off == f->len)
        f->off = f->len = 0;
    if (f->len + n > f->cap) {
        /* move the unread part to the front before growing */
        if (f->off > 0) {
            memmove(f->buf, f->buf + f->off, f->len - f->off);
            f->len -= f->off;
            f->off = 0;
        }
        if (f->len + n > f->cap) {
            size_t cap = f->cap ? f->cap : 4096;
            while (cap < f->len + n)
                cap *= 2;
            f->buf = xrealloc(f->buf, cap);
            f->cap = cap;
        }
    }
    memcpy(f->buf + f->len, data, n);
    f->len += n;
}

static int fail(dap_framer *f, const char *what, const char *line, size_t linelen)
{
    f->failed = 1;
    if (linelen > 60)
        linelen = 60;
    char shown[64];
    size_t k = 0;
    for (size_t i = 0; i < linelen; i++)
        shown[k++] = (line[i] >= 0x20 && line[i] < 0x7f) ? line[i] : '?';
    shown[k] = '\0';
    snprintf(f->err, sizeof f->err, "%s%s%s%s", what, line ? " in header line '" : "", line ? shown : "",
             line ? "'" : "");
    return -1;
}

/* The value of a Content-Length line: decimal digits, blanks around. */
static int parse_length(const char *v, size_t n, size_t *out)
{
    size_t i = 0;
    while (i < n && (v[i] == ' ' || v[i] == '\t'))
        i++;
    while (n > i && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    if (i == n)
        return -1;
    size_t val = 0;
    for (; i < n; i++) {
        if (v[i] < '0' || v[i] > '9')
            return -1;
        val = val * 10 + (size_t)(v[i] - '0');
        if (val > DAP_MAX_BODY)
            return -2;
    }
    *out = val;
    return 0;
}

int dap_framer_next(dap_framer *f, const char **body, size_t *len)
{
    if (f->failed)
        return -1;
    if (!f->buf)
        return 0; /* nothing fed yet (no arithmetic on a null pointer) */
    const char *p = f->buf + f->off;
    size_t avail = f->len - f->off;
    /* the header block ends at the first empty line */
    const char *end = NULL;
    for (size_t i = 0; i + 3 < avail; i++) {
        if (p[i] == '\r' && p[i + 1] == '\n' && p[i + 2] == '\r' && p[i + 3] == '\n') {
            end = p + i;
            break;
        }
    }
    if (!end) {
        if (avail > DAP_MAX_HEADER)
            return fail(f, "bad DAP header: no blank line within 8192 bytes", NULL, 0);
        return 0;
    }
    int have_length = 0;
    size_t length = 0;
    const char *line = p;
    /* an empty block (the stream starts with "\r\n\r\n") has no Content-Length */
    while (line < end) {
        const char *eol = line;
        while (eol < end && !(eol[0] == '\r' && eol[1] == '\n'))
            eol++;
        size_t n = (size_t)(eol - line);
        const char *colon = memchr(line, ':', n);
        if (!colon)
            return fail(f, "bad DAP header: no ':'", line, n);
        size_t namelen = (size_t)(colon - line);
        if (namelen == 14 && strncasecmp(line, "Content-Length", 14) == 0) {
            size_t v;
            int r = parse_length(colon + 1, n - namelen - 1, &v);
            if (r == -2)
                return fail(f, "bad DAP header: Content-Length over 16 MiB", line, n);
            if (r != 0)
                return fail(f, "bad DAP header: Content-Length is not a non-negative decimal number", line, n);
            if (have_length && v != length)
                return fail(f, "bad DAP header: two different Content-Length values", line, n);
            have_length = 1;
            length = v;
        }
        /* any other header (Content-Type ...) is ignored, as the spec allows */
        line = eol + 2;
    }
    if (!have_length)
        return fail(f, "bad DAP header: no Content-Length", p, (size_t)(end - p));
    size_t header = (size_t)(end - p) + 4;
    if (avail - header < length)
        return 0;
    *body = p + header;
    *len = length;
    f->off += header + length;
    return 1;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int dap_frame_write(int fd, const char *body, size_t len)
{
    char head[64];
    int h = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", len);
    if (write_all(fd, head, (size_t)h) != 0)
        return -1;
    return write_all(fd, body, len);
}

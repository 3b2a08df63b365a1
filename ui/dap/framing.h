/* Debug Adapter Protocol framing (the base protocol of the DAP spec): each
 * message is a header block of "Name: value\r\n" lines ended by "\r\n", then
 * exactly Content-Length bytes of UTF-8 JSON. Bytes arrive in any pieces, a
 * message split at any byte or several in one read; header names match
 * case-insensitively and unknown ones (Content-Type) are ignored. No JSON
 * here: the body is handed over as bytes. */
#ifndef PTODB_UI_DAP_FRAMING_H
#define PTODB_UI_DAP_FRAMING_H

#include <stddef.h>

/* A body above this is refused as a bad length (a hostile or broken peer
 * must not make us allocate gigabytes). */
#define DAP_MAX_BODY ((size_t)16 << 20)
/* A header block longer than this without its blank line is refused. */
#define DAP_MAX_HEADER ((size_t)8192)

typedef struct dap_framer {
    char *buf;
    size_t off, len, cap; /* unread bytes are buf[off, len) */
    int failed;           /* a bad header was seen: nothing more is framed */
    char err[200];        /* its one-line reason */
} dap_framer;

void dap_framer_init(dap_framer *f);
void dap_framer_free(dap_framer *f);
/* Appends received bytes. */
void dap_framer_feed(dap_framer *f, const void *data, size_t n);
/* The next complete message: 1 with its body (valid until the next call),
 * 0 when more bytes are needed, -1 on a bad header (missing, negative,
 * non-numeric or too large Content-Length, a header line without a colon,
 * an over-long header block) with the reason in f->err; the stream cannot
 * be resynchronised after that, so the caller closes it. */
int dap_framer_next(dap_framer *f, const char **body, size_t *len);

/* "Content-Length: N\r\n\r\n" + body, N counted in bytes, written in full
 * to fd (retrying short writes). 0, or -1 on a write error. */
int dap_frame_write(int fd, const char *body, size_t len);

#endif

/* A growable, always NUL-terminated byte buffer. */
#ifndef PTODB_BASE_STRBUF_H
#define PTODB_BASE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
    char *data; /* NUL-terminated; NULL only before the first append */
    size_t len;
    size_t cap;
} strbuf;

#define STRBUF_INIT {NULL, 0, 0}

void strbuf_reserve(strbuf *sb, size_t extra);
void strbuf_append(strbuf *sb, const char *data, size_t len);
void strbuf_puts(strbuf *sb, const char *s);
void strbuf_putc(strbuf *sb, char c);
/* v in decimal, as "%lld" prints it (without printf's cost, for keys built per record) */
void strbuf_put_int(strbuf *sb, long long v);
void strbuf_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vprintf(strbuf *sb, const char *fmt, va_list ap);
void strbuf_clear(strbuf *sb);
/* Returns the contents ("" when empty); the buffer keeps ownership. */
const char *strbuf_str(const strbuf *sb);
/* Hands the contents to the caller (never NULL) and resets the buffer. */
char *strbuf_detach(strbuf *sb);
void strbuf_free(strbuf *sb);

#endif

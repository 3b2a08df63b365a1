#include "base/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"

void strbuf_reserve(strbuf *sb, size_t extra)
{
    size_t need = sb->len + extra + 1;
    if (need <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < need)
        cap *= 2;
    sb->data = xrealloc(sb->data, cap);
    sb->cap = cap;
}

void strbuf_append(strbuf *sb, const char *data, size_t len)
{
    strbuf_reserve(sb, len);
    if (len)
        memcpy(sb->data + sb->len, data, len);
    sb->len += len;
    sb->data[sb->len] = '\0';
}

void strbuf_puts(strbuf *sb, const char *s)
{
    strbuf_append(sb, s, strlen(s));
}

void strbuf_putc(strbuf *sb, char c)
{
    strbuf_append(sb, &c, 1);
}

/* Formats once into the room the buffer has (at least 64 bytes), and a
 * second time only when the text is longer: most texts are short, and the
 * formatting, not the copy, is the cost (a third of why's traced runs'
 * time went to formatting every key twice). */
void strbuf_vprintf(strbuf *sb, const char *fmt, va_list ap)
{
    strbuf_reserve(sb, 64);
    size_t room = sb->cap - sb->len;
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(sb->data + sb->len, room, fmt, copy);
    va_end(copy);
    if (n < 0) {
        sb->data[sb->len] = '\0';
        return;
    }
    if ((size_t)n >= room) {
        strbuf_reserve(sb, (size_t)n);
        vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    }
    sb->len += (size_t)n;
}

void strbuf_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
}

void strbuf_put_int(strbuf *sb, long long v)
{
    char buf[24], *p = buf + sizeof buf;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    strbuf_append(sb, p, (size_t)(buf + sizeof buf - p));
}

void strbuf_clear(strbuf *sb)
{
    sb->len = 0;
    if (sb->data)
        sb->data[0] = '\0';
}

const char *strbuf_str(const strbuf *sb)
{
    return sb->data ? sb->data : "";
}

char *strbuf_detach(strbuf *sb)
{
    char *s = sb->data ? sb->data : xstrdup("");
    sb->data = NULL;
    sb->len = sb->cap = 0;
    return s;
}

void strbuf_free(strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}

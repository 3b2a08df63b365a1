#include "base/xmlesc.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    unsigned cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    /* overlong forms, surrogates, beyond U+10FFFF, and U+FFFE/U+FFFF */
    if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || (cp >= 0xD800 && cp < 0xE000) ||
        cp > 0x10FFFF || cp == 0xFFFE || cp == 0xFFFF)
        return 0;
    return len;
}

void xml_escape_n(strbuf *out, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        switch (*p) {
        case '&': strbuf_puts(out, "&amp;"); p++; continue;
        case '<': strbuf_puts(out, "&lt;"); p++; continue;
        case '>': strbuf_puts(out, "&gt;"); p++; continue;
        case '"': strbuf_puts(out, "&quot;"); p++; continue;
        case '\'': strbuf_puts(out, "&#39;"); p++; continue;
        case '\t': case '\n': strbuf_putc(out, (char)*p); p++; continue;
        case '\r': strbuf_puts(out, "&#13;"); p++; continue;
        default: break;
        }
        size_t len = *p < 0x20 ? 0 : utf8_len(p, (size_t)(end - p));
        if (len == 0) {
            strbuf_puts(out, "\xEF\xBF\xBD");
            p++;
        } else {
            strbuf_append(out, (const char *)p, len);
            p += len;
        }
    }
}

void xml_escape(strbuf *out, const char *s)
{
    if (s)
        xml_escape_n(out, s, strlen(s));
}

#include "base/xmlesc.h"

#include <string.h>

#include "base/utf8.h"

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
        size_t len = *p < 0x20 ? 0 : utf8_char_len(p, (size_t)(end - p));
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

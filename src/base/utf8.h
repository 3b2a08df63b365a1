/* UTF-8 validation for text written into reports (JSON, XML, HTML), where
 * a byte from a hostile file must not make the document unreadable. */
#ifndef PTODB_BASE_UTF8_H
#define PTODB_BASE_UTF8_H

#include <stddef.h>

/* Length of the well-formed UTF-8 character at s (of at most n bytes): 1 to
 * 4, or 0 when it is not one (a stray or truncated byte, an overlong form, a
 * surrogate, beyond U+10FFFF, or the non-characters U+FFFE and U+FFFF). */
size_t utf8_char_len(const unsigned char *s, size_t n);

#endif

/* Text for XML and HTML documents: markup characters escaped, characters
 * XML 1.0 does not allow (control characters, broken UTF-8) replaced by
 * U+FFFD, so that whatever a case's files or messages hold, the report
 * stays well-formed. Shared by the JUnit and HTML report writers. */
#ifndef PTODB_BASE_XMLESC_H
#define PTODB_BASE_XMLESC_H

#include <stddef.h>

#include "base/strbuf.h"

/* Appends s (NULL: nothing) escaped for element text and attribute values. */
void xml_escape(strbuf *out, const char *s);
/* The same for the first n bytes of s. */
void xml_escape_n(strbuf *out, const char *s, size_t n);

#endif

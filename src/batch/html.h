/* The --html report: one self-contained page (inline CSS, inline SVG, no
 * script, a Content-Security-Policy that forbids every fetch) with the
 * cases' summary, every pass's verdict and max_abs_diff, the heat maps of
 * failing outputs with a legend, the first failing pass's IR diff against
 * the last passing one and the first differing statement with its source
 * lines. Written from the JSON report (reportdoc.h). */
#ifndef PTODB_BATCH_HTML_H
#define PTODB_BATCH_HTML_H

#include "base/strbuf.h"
#include "batch/reportdoc.h"

void html_write(const report_doc *d, strbuf *out);

#endif

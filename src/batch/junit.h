/* The --junit report: JUnit XML as Jenkins (xunit's junit-10.xsd) and
 * GitLab read it. One <testsuite> per case; one <testcase> per pass and
 * output (classname: the case's name, name: PASS_STEM/OUTPUT_KEY) with a
 * <failure> carrying REF's validate line and mismatch summary, an <error>
 * for a pass that does not check or raises (one per output of the case),
 * <skipped> for a pass not validated; the bisect report as the suite's
 * <system-out>. Written from the JSON report (reportdoc.h). */
#ifndef PTODB_BATCH_JUNIT_H
#define PTODB_BATCH_JUNIT_H

#include "base/strbuf.h"
#include "batch/reportdoc.h"

void junit_write(const report_doc *d, strbuf *out);

#endif

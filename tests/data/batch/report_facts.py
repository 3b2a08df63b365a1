#!/usr/bin/python3
"""The facts of a ptodb --batch JSON report (one case, several, or merged)
that do not depend on how the run was split: the totals and one line per
pass with its status, verdict and max_abs_diff per output. Two runs over
the same cases print the same lines however they were sharded.

Usage: report_facts.py REPORT.json"""
import json
import sys


def cases(doc):
    if doc.get("schema") == "ptodb-batch/1":
        return [doc]
    if doc.get("schema") == "ptodb-batch-cases/1":
        return doc["cases"]
    raise SystemExit("%s: unknown schema %r" % (sys.argv[1], doc.get("schema")))


def main():
    doc = json.load(open(sys.argv[1]))
    totals = {"cases": 0, "passes": 0, "passed": 0, "failed": 0, "not_run": 0, "errors": 0, "pass_errors": 0}
    lines = []
    for c in cases(doc):
        path = c["case"]["path"]
        totals["cases"] += 1
        if c.get("error"):
            totals["errors"] += 1
            lines.append("%s ERROR %s" % (path, c["error"]))
            continue
        s = c["summary"]
        for k in ("passes", "passed", "failed", "not_run"):
            totals[k] += s[k]
        totals["pass_errors"] += s["errors"]  # pass files that do not check
        for p in c["passes"]:
            outs = " ".join("%s=%s" % (o["key"], o["max_abs_diff_text"]) for o in p["outputs"])
            lines.append("%s %s %s %s %s" % (path, p["stem"], p["status"], p["verdict"], outs))
    if doc.get("schema") == "ptodb-batch-cases/1":
        s = doc["summary"]
        # the document's own totals agree with its cases
        for k in ("passes", "passed", "failed", "not_run"):
            if s[k] != totals[k]:
                raise SystemExit("%s: summary.%s is %s, its cases add up to %s" % (sys.argv[1], k, s[k], totals[k]))
        if s["errors"] != totals["pass_errors"]:
            raise SystemExit("%s: summary.errors is %s, its cases add up to %s" % (sys.argv[1], s["errors"],
                                                                                   totals["pass_errors"]))
        if s["cases"] != totals["cases"] or s["cases_error"] != totals["errors"]:
            raise SystemExit("%s: summary case counts disagree with its cases" % sys.argv[1])
    print("totals " + " ".join("%s=%d" % kv for kv in sorted(totals.items())))
    for line in sorted(lines):
        print(line)


main()

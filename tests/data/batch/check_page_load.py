#!/usr/bin/python3
"""Did a page opened in headless Chromium log anything to its console, or
fetch anything from the network? Reads Chromium's stderr (run with
--enable-logging=stderr) and its net log (--log-net-log=FILE).

The net log also holds the browser's own background requests (updates,
accounts); a request is the page's when its network isolation key or
site-for-cookies is the page's file:// site. Prints one line per problem
and exits 1 when there is one.

Usage: check_page_load.py NETLOG STDERR"""
import json
import re
import sys


def netlog_events(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    try:
        return json.loads(text)
    except ValueError:
        # a log cut short when the browser exits: close it
        text = text.rstrip().rstrip(",")
        return json.loads(text + "]}")


def main():
    problems = []
    for line in open(sys.argv[2], encoding="utf-8", errors="replace"):
        if re.search(r":CONSOLE[:(]", line):
            problems.append("console: " + line.strip())
    log = netlog_events(sys.argv[1])
    types = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    for e in log.get("events", []):
        p = e.get("params") or {}
        url = p.get("url", "")
        if types.get(e.get("type")) != "URL_REQUEST_START_JOB" or not url:
            continue
        page = "file://" in p.get("network_isolation_key", "") or "site=file://" in p.get("site_for_cookies", "")
        if page and not re.match(r"(file|data|about|chrome):", url):
            problems.append("network request by the page: " + url)
    for p in problems:
        print(p)
    sys.exit(1 if problems else 0)


main()

#!/usr/bin/python3
"""Checks a `ptodb --batch --json` report against docs/batch-json.md's
schema "ptodb-batch/1": every documented key present with its type.
Usage: check_json.py FILE [--metrics] [--bisect]; exit 0 when it conforms."""
import json
import sys

NUM = (int, float)
OPT_NUM = (int, float, type(None))
OPT_STR = (str, type(None))


def need(obj, key, types, where):
    if not isinstance(obj, dict) or key not in obj:
        raise SystemExit(f"{where}: missing key {key!r}")
    v = obj[key]
    if isinstance(v, bool) and bool not in (types if isinstance(types, tuple) else (types,)):
        raise SystemExit(f"{where}.{key}: boolean where {types} expected")
    if not isinstance(v, types):
        raise SystemExit(f"{where}.{key}: {type(v).__name__} is not {types}")
    return v


def tol(t, where):
    need(t, "value", NUM, where)
    src = need(t, "source", str, where)
    if src not in ("default", "golden.py", "manifest", "option") and not src:
        raise SystemExit(f"{where}.source: {src!r}")
    need(t, "where", OPT_STR, where)


def main():
    path = sys.argv[1]
    metrics = "--metrics" in sys.argv
    bisect = "--bisect" in sys.argv
    with (sys.stdin if path == "-" else open(path)) as f:
        d = json.load(f)
    if need(d, "schema", str, "$") != "ptodb-batch/1":
        raise SystemExit("$.schema is not ptodb-batch/1")
    c = need(d, "case", dict, "$")
    need(c, "path", str, "$.case")
    need(c, "root", str, "$.case")
    need(c, "dump_dir", str, "$.case")
    npasses = need(c, "passes", int, "$.case")
    need(c, "distinct_files", int, "$.case")
    outs = need(c, "outputs", list, "$.case")
    t = need(d, "tolerances", dict, "$")
    tol(need(t, "rtol", dict, "$.tolerances"), "$.tolerances.rtol")
    tol(need(t, "atol", dict, "$.tolerances"), "$.tolerances.atol")
    per = need(t, "outputs", dict, "$.tolerances")
    for k in outs:
        tol(need(need(per, k, dict, "$.tolerances.outputs"), "rtol", dict, k), k + ".rtol")
        tol(need(per[k], "atol", dict, k), k + ".atol")
    o = need(d, "options", dict, "$")
    if need(o, "profile", str, "$.options") not in ("torch2", "torch1.13"):
        raise SystemExit("$.options.profile")
    need(o, "jobs", int, "$.options")
    for k in ("stop_at_first", "metrics", "heatmap", "bisect", "strict_ref"):
        need(o, k, bool, "$.options")
    passes = need(d, "passes", list, "$")
    if len(passes) != npasses:
        raise SystemExit("$.passes: length differs from $.case.passes")
    for i, p in enumerate(passes):
        w = f"$.passes[{i}]"
        need(p, "index", int, w)
        need(p, "stem", str, w)
        need(p, "name", str, w)
        need(p, "file", str, w)
        st = need(p, "status", str, w)
        v = need(p, "verdict", str, w)
        if st not in ("compared", "ref_fail", "error", "not_run") or v not in ("pass", "fail", "memfault", "error",
                                                                               "not_run"):
            raise SystemExit(f"{w}: status {st!r} verdict {v!r}")
        if v == "error" and st != "error":  # a file that does not check never ran
            raise SystemExit(f"{w}: verdict error with status {st!r}")
        need(p, "same_as", OPT_STR, w)
        need(p, "message", OPT_STR, w)
        need(p, "ref_note", OPT_STR, w)
        if need(p, "strict_ref_fail", bool, w) and (v != "fail" or p["ref_note"] is None or not o["strict_ref"]):
            raise SystemExit(f"{w}: strict_ref_fail without --strict-ref, a ref_note and a failing verdict")
        need(p, "steps", int, w)
        need(p, "seconds", NUM, w)
        for j, x in enumerate(need(p, "outputs", list, w)):
            wx = f"{w}.outputs[{j}]"
            need(x, "key", str, wx)
            need(x, "pass", bool, wx)
            need(x, "max_abs_diff", OPT_NUM, wx)
            need(x, "max_abs_diff_text", OPT_STR, wx)
            margin = need(x, "margin", OPT_NUM, wx)
            # the worst element's |diff| as a fraction of its tolerance:
            # above 1 exactly when an element is outside it
            if margin is not None and not x["error"] and (margin > 1) == x["pass"]:
                raise SystemExit(f"{wx}.margin: {margin} disagrees with pass={x['pass']}")
            need(x, "rtol", NUM, wx)
            need(x, "atol", NUM, wx)
            need(x, "dtype", str, wx)
            need(x, "mismatches", int, wx)
            need(x, "count", int, wx)
            need(x, "first_bad_index", (int, type(None)), wx)
            need(x, "error", OPT_STR, wx)
            lines = need(x, "lines", str, wx)
            if not lines.startswith(("validate tensor: '%s'" % x["key"], "REF would fail here: ")):
                raise SystemExit(f"{wx}.lines: not REF's lines: {lines[:60]!r}")
            g = x.get("heatgrid")
            if x["pass"] or x["error"]:
                if g is not None:
                    raise SystemExit(f"{wx}: a heatgrid for an output that does not fail a comparison")
            elif g is not None:  # a 0-d output has none
                rows, cols = need(g, "rows", int, wx + ".heatgrid"), need(g, "cols", int, wx + ".heatgrid")
                cells = need(g, "cells", list, wx + ".heatgrid")
                if len(cells) != rows * cols or not all(c is None or isinstance(c, NUM) for c in cells):
                    raise SystemExit(f"{wx}.heatgrid.cells: not rows*cols numbers or nulls")
                need(g, "max", OPT_NUM, wx + ".heatgrid")
                need(g, "tol", NUM, wx + ".heatgrid")
                if need(g, "scale", str, wx + ".heatgrid") != "tolerance":
                    raise SystemExit(f"{wx}.heatgrid.scale: tolerance (cells are fractions of it)")
                need(g, "max_abs", OPT_NUM, wx + ".heatgrid")
                if "outside" in g and any(c is not None and (c > 1) != (k > 0) for c, k in zip(cells, g["outside"])):
                    raise SystemExit(f"{wx}.heatgrid: a cell above 1 without an element outside, or the reverse")
                if need(g, "per", str, wx + ".heatgrid") not in ("tile", "block"):
                    raise SystemExit(f"{wx}.heatgrid.per: tile or block")
            if metrics:
                m = need(x, "metrics", dict, wx)
                for k in ("outside", "max_ulp", "nan_actual", "nan_golden", "inf_actual", "inf_golden"):
                    need(m, k, int, wx + ".metrics")
                for k in ("outside_share", "max_rel_err", "first_bad_actual", "first_bad_golden"):
                    need(m, k, OPT_NUM, wx + ".metrics")
                need(m, "first_bad_index", (list, type(None)), wx + ".metrics")
        if st == "compared" and v == "pass" and not all(x["pass"] for x in p["outputs"]):
            raise SystemExit(f"{w}: verdict pass with a failing output")
    s = need(d, "summary", dict, "$")
    for k in ("passes", "passed", "failed", "errors", "not_run", "files_run", "exit_code"):
        need(s, k, int, "$.summary")
    need(s, "first_failing", OPT_STR, "$.summary")
    need(s, "stopped_early", bool, "$.summary")
    need(s, "wall_seconds", NUM, "$.summary")
    if s["passed"] + s["failed"] + s["errors"] + s["not_run"] != npasses:
        raise SystemExit("$.summary: passed + failed + errors + not_run != passes")
    if sum(p["verdict"] in ("fail", "memfault") for p in passes) != s["failed"]:
        raise SystemExit("$.summary.failed disagrees with the passes")
    if sum(p["verdict"] == "error" for p in passes) != s["errors"]:
        raise SystemExit("$.summary.errors disagrees with the passes")
    diff = d.get("ir_diff", "missing")
    if diff == "missing":
        raise SystemExit("$: missing key 'ir_diff'")
    if diff is not None:
        need(diff, "from", str, "$.ir_diff")
        if need(diff, "to", str, "$.ir_diff") != s["first_failing"]:
            raise SystemExit("$.ir_diff.to is not the first failing pass")
        need(diff, "text", str, "$.ir_diff")
    b = d.get("bisect", "missing")
    if b == "missing":
        raise SystemExit("$: missing key 'bisect'")
    if bisect:
        w = "$.bisect"
        if need(b, "status", str, w) not in ("found", "all_pass", "first_fails", "no_passes"):
            raise SystemExit(w + ".status")
        need(b, "first_bad", OPT_STR, w)
        need(b, "last_good", OPT_STR, w)
        need(b, "probes", list, w)
        need(b, "runs", int, w)
        need(b, "search_seconds", NUM, w)
        need(b, "scanned", bool, w)
        need(b, "scan_estimate_seconds", NUM, w)
        need(b, "monotone", (bool, type(None)), w)
        need(b, "flips", list, w)
        need(b, "recoveries", list, w)
        st = need(b, "statement", (dict, type(None)), w)
        if st is not None:
            need(st, "op_changed", bool, w + ".statement")
            ni = need(st, "new_if", (dict, type(None)), w + ".statement")
            if ni is not None:
                need(ni, "runs", int, w + ".statement.new_if")
                need(ni, "then", int, w + ".statement.new_if")
            need(st, "op", OPT_STR, w + ".statement")
            need(st, "good_op", OPT_STR, w + ".statement")
            e = need(st, "earlier", (dict, type(None)), w + ".statement")
            if e is not None:
                need(e, "line", int, w + ".statement.earlier")
                need(e, "tensor", str, w + ".statement.earlier")
            for x in need(st, "later", list, w + ".statement"):
                need(x, "line", int, w + ".statement.later")
                need(x, "tensor", str, w + ".statement.later")
            for k in ("compared", "realigned", "unmatched"):
                need(st, k, int, w + ".statement")
            if need(st, "found", bool, w + ".statement"):
                need(st, "file", str, w + ".statement")
                need(st, "line", int, w + ".statement")
                need(st, "tensor", str, w + ".statement")
                need(st, "function", str, w + ".statement")
            need(st, "note", OPT_STR, w + ".statement")
    elif b is not None:
        raise SystemExit("$.bisect: not null without --bisect")


main()

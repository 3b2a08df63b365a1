#!/usr/bin/python3
"""Recomputes --metrics with numpy from the raw output `ptodb --run
--save-outputs` wrote and the golden .npy, and compares with the JSON
report. Usage: check_metrics.py REPORT.json STEM RAW GOLDEN.npy KEY"""
import json
import sys

import numpy as np

report, stem, raw, golden, key = sys.argv[1:6]
d = json.load(open(report))
p = next(p for p in d["passes"] if p["stem"] == stem)
o = next(o for o in p["outputs"] if o["key"] == key)
m = o["metrics"]
g = np.load(golden).astype(np.float32)
a = np.fromfile(raw, dtype=np.float32).reshape(g.shape)
rtol, atol = o["rtol"], o["atol"]
a64, g64 = a.astype(np.float64), g.astype(np.float64)
bad = ~((a64 == g64) | (np.abs(a64 - g64) <= atol + rtol * np.abs(g64)))
errors = []
if int(bad.sum()) != m["outside"]:
    errors.append(f"outside {m['outside']} != {int(bad.sum())}")
flat = np.flatnonzero(bad.ravel())
first = int(flat[0]) if flat.size else None
want_idx = list(np.unravel_index(first, g.shape)) if first is not None else None
if (m["first_bad_index"] and [int(x) for x in want_idx] != m["first_bad_index"]) or (not m["first_bad_index"] and want_idx):
    errors.append(f"first_bad_index {m['first_bad_index']} != {want_idx}")
nz = (g64 != 0) & np.isfinite(g64) & np.isfinite(a64)
rel = float(np.max(np.abs(a64 - g64)[nz] / np.abs(g64[nz]))) if nz.any() else 0.0
if abs(rel - m["max_rel_err"]) > 1e-9 * max(1.0, rel):
    errors.append(f"max_rel_err {m['max_rel_err']} != {rel}")


def ordered(x):
    b = x.view(np.int32).astype(np.int64)
    return np.where(b < 0, -(b & 0x7FFFFFFF) - 1, b)


ulp = int(np.max(np.abs(ordered(a) - ordered(g))))
if ulp != m["max_ulp"]:
    errors.append(f"max_ulp {m['max_ulp']} != {ulp}")
if errors:
    raise SystemExit("; ".join(errors))
print(f"metrics agree: outside {m['outside']}, first {want_idx}, max rel {rel:.6g}, max ulp {ulp}")

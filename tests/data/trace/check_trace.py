"""Structure check of a ptodb Perfetto trace (Chrome trace-event JSON), for
where trace_processor_shell and the `perfetto` Python package are absent:
  check_trace.py FILE.json MIN_CORES_WITH_STATEMENTS MIN_FLOWS
One track (tid) per core, named host/AIC/AIV0/AIV1; every event well formed;
B/E balanced and properly ordered per track; every flow end has its start
(same id) no later than itself, on another track; statement slices ordered
in time per track."""
import json
import sys

path, min_cores, min_flows = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
doc = json.load(open(path))
assert isinstance(doc, dict) and isinstance(doc.get("traceEvents"), list), "no traceEvents list"
events = doc["traceEvents"]
names = {}
for e in events:
    for key in ("ph", "pid", "tid", "ts"):
        assert key in e, f"event without {key}: {e}"
    assert e["ph"] in "MBEXsfi", f"unexpected phase {e['ph']}"
    assert isinstance(e["ts"], int) and e["ts"] >= 0, f"bad ts: {e}"
    if e["ph"] == "M" and e["name"] == "thread_name":
        assert e["tid"] not in names, f"two names for track {e['tid']}"
        names[e["tid"]] = e["args"]["name"]
assert sorted(names.values()) == sorted(["host", "AIC", "AIV0", "AIV1"]), f"tracks: {names}"
assert len(set(names)) == 4, "one track per core"
depth, last_x, starts = {}, {}, {}
cores, flows = set(), 0
for e in events:
    tid = e["tid"]
    assert tid in names, f"event on an unnamed track: {e}"
    if e["ph"] == "B":
        depth[tid] = depth.get(tid, 0) + 1
    elif e["ph"] == "E":
        depth[tid] = depth.get(tid, 0) - 1
        assert depth[tid] >= 0, f"E without B on {names[tid]}"
    elif e["ph"] == "X":
        assert e.get("dur", 0) > 0 and e.get("name"), f"bad slice {e}"
        assert e["ts"] >= last_x.get(tid, -1), f"slices out of order on {names[tid]}"
        last_x[tid] = e["ts"]
        cores.add(tid)
    elif e["ph"] == "s":
        assert e["id"] not in starts, f"flow id {e['id']} started twice"
        starts[e["id"]] = e
    elif e["ph"] == "f":
        s = starts.get(e["id"])
        assert s is not None, f"flow end {e['id']} without a start"
        assert s["ts"] <= e["ts"] and s["tid"] != e["tid"], f"flow {e['id']}: {s} -> {e}"
        flows += 1
assert all(d == 0 for d in depth.values()), f"unbalanced B/E: {depth}"
assert len(cores) >= min_cores, f"statements on {len(cores)} cores, want >= {min_cores}"
assert flows >= min_flows, f"{flows} flows, want >= {min_flows}"
print(f"ok: {len(events)} events, tracks {sorted(names.values())}, statements on {len(cores)} cores, {flows} flows")

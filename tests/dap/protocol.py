"""ptodb --dap at the byte level (stdlib only; run by tests/cli/dap_protocol.sh).

Each check starts a fresh server, writes raw bytes and reads everything it
writes back; every byte on standard output must be a framed DAP message
(the framer's rules), seq rising by one, one response per request.
"""
import json, os, re, signal, socket, subprocess, sys, time

PTODB = os.environ["PTODB"]
# under valgrind (tests/cli/lib.sh's wait_scale) every wait is longer
SCALE = int(os.environ.get("WAIT_SCALE", "1"))
CASE = os.path.join(os.environ["top_srcdir"], "examples/mlp")
SRC = os.path.realpath(os.path.join(CASE, "passes_dump/22_after_ExpandMixedKernel.py"))


def frame(obj):
    b = (obj if isinstance(obj, str) else json.dumps(obj)).encode()
    return b"Content-Length: %d\r\n\r\n" % len(b) + b


def req(seq, cmd, args=None):
    m = {"seq": seq, "type": "request", "command": cmd}
    if args is not None:
        m["arguments"] = args
    return m


def parse_all(data):
    """Every message in data; fails on any stray byte."""
    out, pos, seq = [], 0, 1
    while pos < len(data):
        m = re.match(rb"Content-Length: (\d+)\r\n\r\n", data[pos:])
        assert m, "stray bytes on stdout at %d: %r" % (pos, data[pos:pos + 60])
        n = int(m.group(1))
        body = data[pos + m.end():pos + m.end() + n]
        assert len(body) == n, "truncated message"
        msg = json.loads(body.decode("utf-8"))
        assert msg["seq"] == seq, "seq %s, expected %d" % (msg["seq"], seq)
        seq += 1
        out.append(msg)
        pos += m.end() + n
    return out


def run(stream, timeout=30 * SCALE):
    p = subprocess.run([PTODB, "--dap"], input=stream, capture_output=True, timeout=timeout)
    return p.returncode, parse_all(p.stdout), p.stderr.decode()


def response(msgs, seq):
    r = [m for m in msgs if m["type"] == "response" and m["request_seq"] == seq]
    assert len(r) == 1, "%d responses to request %d" % (len(r), seq)
    return r[0]


def events(msgs, name):
    return [m for m in msgs if m["type"] == "event" and m["event"] == name]


def check_bad_bodies_stay_up():
    stream = (frame("{not json") + frame("[1,2]") + frame({"seq": 3, "type": "request"}) +
              frame(req(4, "noSuchRequest")) + frame('{"seq":5,"type":"request","command":"initialize","arguments":7}') +
              frame(req(6, "initialize", {"adapterID": "ptodb"})) + frame(req(7, "disconnect")))
    rc, msgs, err = run(stream)
    assert rc == 0, err
    important = [e["body"]["output"] for e in events(msgs, "output") if e["body"]["category"] == "important"]
    assert any("bad DAP message: 1:" in t for t in important), important
    assert any("not an object" in t for t in important), important
    r = response(msgs, 3)
    assert not r["success"] and "command" in r["message"]
    r = response(msgs, 4)
    assert not r["success"] and r["message"] == "Request command 'noSuchRequest' is not supported"
    assert not response(msgs, 5)["success"]
    init = response(msgs, 6)
    assert init["success"] and init["body"]["supportsStepBack"] is True
    assert response(msgs, 7)["success"]


def check_bad_length_closes():
    stream = frame(req(1, "initialize", {})) + b"Content-Length: -3\r\n\r\n{}" + frame(req(2, "initialize", {}))
    rc, msgs, err = run(stream)
    assert rc != 0
    assert "bad DAP header: Content-Length is not a non-negative decimal number" in err, err
    assert [m.get("request_seq") for m in msgs if m["type"] == "response"] == [1]


def check_split_and_utf8():
    # one request split at every byte boundary of a slow pipe, a UTF-8
    # expression (its length in bytes), two messages in one write
    p = subprocess.Popen([PTODB, "--dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    data = frame(req(1, "initialize", {})) + frame(req(2, "evaluate", {"expression": "\u00e9\U0001F600", "context": "hover"}))
    for i in range(0, len(data), 7):
        p.stdin.write(data[i:i + 7])
        p.stdin.flush()
        time.sleep(0.001)
    p.stdin.write(frame(req(3, "disconnect")))
    p.stdin.close()
    out = p.stdout.read()
    p.wait(timeout=30 * SCALE)
    msgs = parse_all(out)
    assert response(msgs, 1)["success"]
    assert not response(msgs, 2)["success"]  # evaluate before launch
    assert response(msgs, 3)["success"]


def launched(extra):
    return [frame(req(1, "initialize", {"adapterID": "ptodb"})),
            frame(req(2, "launch", {"case": CASE, "pass": "22_after_ExpandMixedKernel"}))] + extra


def check_hit_condition_and_logpoint():
    # line 50 runs once on each vector lane: AIV0 first, then AIV1. "2" must
    # stop on the second hit (AIV1; gdb's ignore count would skip it); the
    # logpoint on line 41 prints for both lanes and never stops.
    stream = b"".join(launched([
        frame(req(3, "setBreakpoints", {"source": {"path": SRC}, "breakpoints": [
            {"line": 50, "hitCondition": "2"}, {"line": 41, "logMessage": "lane {subblock_idx}"},
            {"line": 39, "hitCondition": "two"}]})),
        frame(req(4, "configurationDone")),
        frame(req(5, "continue", {"threadId": 1})),
        frame(req(6, "disconnect"))]))
    rc, msgs, err = run(stream)
    assert rc == 0, err
    bps = response(msgs, 3)["body"]["breakpoints"]
    assert [b["verified"] for b in bps] == [True, True, False], bps
    assert "hitCondition 'two'" in bps[2]["message"]
    stops = events(msgs, "stopped")
    assert len(stops) == 1 and stops[0]["body"]["threadId"] == 4, stops
    assert stops[0]["body"]["hitBreakpointIds"] == [bps[0]["id"]]
    logs = [e["body"]["output"] for e in events(msgs, "output") if e["body"]["output"].startswith("lane ")]
    assert logs == ["lane 0\n", "lane 1\n"], logs
    assert events(msgs, "exited")[0]["body"]["exitCode"] == 0
    assert events(msgs, "terminated")


def check_not_stopped_and_goto():
    stream = b"".join(launched([
        frame(req(3, "stackTrace", {"threadId": 1})),
        frame(req(4, "configurationDone")),  # runs to the end: no breakpoint
        frame(req(5, "variables", {"variablesReference": 1})),
        frame(req(6, "gotoTargets", {"source": {"path": SRC}, "line": 40})),
        frame(req(7, "goto", {"threadId": 1, "targetId": 7})),
        frame(req(8, "ptodb/selectPass", {"pass": "ConvertToSSA"})),
        frame(req(9, "disconnect"))]))
    rc, msgs, err = run(stream)
    assert not response(msgs, 3)["success"] and "notStopped" in response(msgs, 3)["message"]
    assert not response(msgs, 5)["success"]
    t = response(msgs, 6)["body"]["targets"]
    assert t and t[0]["id"] == 7, t  # pass index 6 + 1
    assert response(msgs, 7)["success"]
    stops = events(msgs, "stopped")
    assert stops and stops[0]["body"]["reason"] == "goto", stops
    r = response(msgs, 8)
    assert r["success"] and r["body"]["stem"] == "04_after_ConvertToSSA", r


def check_pause_and_cancel():
    # a loop of 10^9 iterations (tests/data/endless): pause while it runs
    # stops it with reason pause; continue, then cancelling its progress
    # stops it again
    endless = os.path.join(os.environ["top_srcdir"], "tests/data/endless")
    p = subprocess.Popen([PTODB, "--dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    def send(b):
        p.stdin.write(b)
        p.stdin.flush()
    buf = b""
    def until(pred, what):
        nonlocal buf
        deadline = time.time() + 30 * SCALE
        while time.time() < deadline:
            try:
                msgs = parse_all(buf)
                hit = [m for m in msgs if pred(m)]
                if hit:
                    return msgs, hit[0]
            except AssertionError:
                pass
            c = os.read(p.stdout.fileno(), 65536)
            if not c:
                break
            buf += c
        raise AssertionError("no " + what)
    send(frame(req(1, "initialize", {"supportsProgressReporting": True})) + frame(req(2, "launch", {"case": endless})) +
         frame(req(3, "configurationDone")))
    until(lambda m: m.get("request_seq") == 3, "configurationDone response")
    time.sleep(0.3)
    t0 = time.time()
    send(frame(req(4, "pause", {"threadId": 1})))
    msgs, stop = until(lambda m: m.get("event") == "stopped", "stopped after pause")
    assert stop["body"]["reason"] == "pause", stop
    assert time.time() - t0 < 5 * SCALE, "pause took %.1f s" % (time.time() - t0)
    assert response(msgs, 4)["success"]
    # the client opted in to progress: the run reported it, and it ended before the stop
    names = [m.get("event") for m in msgs if m["type"] == "event"]
    assert "progressStart" in names and names.index("progressEnd") < names.index("stopped"), names
    start = [m for m in msgs if m.get("event") == "progressStart"][0]["body"]
    assert start["cancellable"] and "statements" in start["message"], start
    send(frame(req(5, "continue", {"threadId": 1})))
    until(lambda m: m.get("request_seq") == 5, "continue response")
    time.sleep(0.2)
    send(frame(req(6, "cancel", {"progressId": "ptodb-run"})))
    msgs, _ = until(lambda m: m.get("event") == "stopped" and m["seq"] > stop["seq"], "stopped after cancel")
    assert response(msgs, 6)["success"]
    send(frame(req(7, "disconnect")))
    p.stdin.close()
    assert p.wait(timeout=30 * SCALE) == 0


class Session:
    """A server driven request by request (responses and events kept)."""

    def __init__(self):
        self.p = subprocess.Popen([PTODB, "--dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.seq, self.events = 0, []

    def read(self):
        signal.alarm(30 * SCALE)  # a message that never comes fails the check, not the whole run's timeout
        h = b""
        while not h.endswith(b"\r\n\r\n"):
            c = self.p.stdout.read(1)
            assert c, "the server closed"
            h += c
        m = json.loads(self.p.stdout.read(int(h.split(b":")[1])))
        signal.alarm(0)
        return m

    def call(self, cmd, args=None, ok=True):
        self.seq += 1
        self.p.stdin.write(frame(req(self.seq, cmd, args or {})))
        self.p.stdin.flush()
        while True:
            m = self.read()
            if m["type"] == "response" and m["request_seq"] == self.seq:
                assert m["success"] == ok, (cmd, m)
                return m.get("body")
            self.events.append(m)

    def wait_event(self, name):
        for i, e in enumerate(self.events):
            if e["event"] == name:
                return self.events.pop(i)
        while True:
            m = self.read()
            if m["type"] == "event" and m["event"] == name:
                return m
            self.events.append(m)

    def close(self):
        self.call("disconnect")
        self.p.stdin.close()
        assert self.p.wait(timeout=30 * SCALE) == 0


def check_set_variable_viz_steps():
    d = Session()
    d.call("initialize", {"supportsInvalidatedEvent": True})
    d.call("launch", {"case": CASE, "pass": "22_after_ExpandMixedKernel"})
    d.call("setBreakpoints", {"source": {"path": SRC}, "breakpoints": [{"line": 50}]})
    d.call("configurationDone")
    tid = d.wait_event("stopped")["body"]["threadId"]
    top = d.call("stackTrace", {"threadId": tid})["stackFrames"][0]
    ref = d.call("scopes", {"frameId": top["id"]})["scopes"][0]["variablesReference"]
    x = [v for v in d.call("variables", {"variablesReference": ref})["variables"] if v["name"] == "x__tile"][0]
    row = d.call("variables", {"variablesReference": x["variablesReference"], "start": 1, "count": 1})["variables"][0]
    assert row["name"] == "[1]" and row["evaluateName"] == "x__tile[1]", row
    # viz's grid holds the elements tensorSlice gives, row by row
    grid = json.loads(d.call("evaluate", {"expression": "viz(x__tile[0:2, 0:4])", "frameId": top["id"],
                                          "context": "watch"})["result"])
    assert grid["kind"] == {"grid": True} and len(grid["rows"]) == 2
    flat = d.call("ptodb/tensorSlice", {"expression": "x__tile[0:2, 0:4]", "frameId": top["id"]})["values"]
    shown = [float(c["content"]) for r in grid["rows"] for c in r["columns"]]
    assert all(abs(a - b) <= 1e-5 * abs(b) for a, b in zip(shown, flat)) and len(shown) == 8, (shown, flat)
    # looking at another core's frame leaves the REPL's selection alone
    host = d.call("stackTrace", {"threadId": 1})["stackFrames"][0]
    d.call("evaluate", {"expression": "x__ssa_v0", "frameId": host["id"], "context": "hover"})
    d.call("variables", {"variablesReference": d.call("scopes", {"frameId": host["id"]})["scopes"][0]["variablesReference"]})
    sel = d.call("evaluate", {"expression": "frame", "context": "repl"})["result"]
    assert "mlp_fused_aiv" in sel, sel
    # setVariable on one element: the value reads back, and invalidated is sent
    r = d.call("setVariable", {"variablesReference": row["variablesReference"], "name": "[5]", "value": "2.5"})
    assert r["value"] == "2.5", r
    assert d.wait_event("invalidated")["body"]["areas"] == ["variables"]
    v = d.call("evaluate", {"expression": "x__tile[1][5]", "frameId": top["id"], "context": "watch"})["result"]
    assert v == "2.5", v
    d.call("setVariable", {"variablesReference": row["variablesReference"], "name": "[5]", "value": "x"}, ok=False)
    # stepIn and stepOut move on the same core; stepOut leaves the function
    d.call("setBreakpoints", {"source": {"path": SRC}, "breakpoints": []})
    d.call("stepIn", {"threadId": tid})
    s = d.wait_event("stopped")["body"]
    assert s["reason"] == "step" and s["threadId"] == tid, s
    assert d.call("stackTrace", {"threadId": tid})["stackFrames"][0]["line"] == 51
    d.call("stepOut", {"threadId": tid})
    s = d.wait_event("stopped")["body"]
    frames = d.call("stackTrace", {"threadId": s["threadId"]})["stackFrames"]
    assert frames[0]["name"] != "mlp_fused_aiv" or s["threadId"] != tid, (s, frames[0])
    d.close()


def check_step_back():
    # stepBack undoes a stepIn (reverse execution restores a checkpoint and
    # replays): the line and the tensor's value come back; reverseContinue
    # goes back to the breakpoint hit before
    d = Session()
    caps = d.call("initialize", {})
    assert caps["supportsStepBack"], caps
    d.call("launch", {"case": CASE, "pass": "22_after_ExpandMixedKernel"})
    d.call("setBreakpoints", {"source": {"path": SRC}, "breakpoints": [{"line": 50}]})
    d.call("configurationDone")
    tid = d.wait_event("stopped")["body"]["threadId"]
    line0 = d.call("stackTrace", {"threadId": tid})["stackFrames"][0]["line"]
    d.call("setBreakpoints", {"source": {"path": SRC}, "breakpoints": []})
    for _ in range(2):
        d.call("stepIn", {"threadId": tid})
        d.wait_event("stopped")
    line2 = d.call("stackTrace", {"threadId": tid})["stackFrames"][0]["line"]
    assert line2 != line0, (line0, line2)
    d.call("stepBack", {"threadId": tid})
    s = d.wait_event("stopped")["body"]
    assert s["reason"] == "step", s
    back = d.call("stackTrace", {"threadId": s["threadId"]})["stackFrames"][0]["line"]
    assert back == 51, (line0, line2, back)
    d.call("setBreakpoints", {"source": {"path": SRC}, "breakpoints": [{"line": 50}]})
    d.call("reverseContinue", {"threadId": tid})
    s = d.wait_event("stopped")["body"]
    assert d.call("stackTrace", {"threadId": s["threadId"]})["stackFrames"][0]["line"] == 50, s
    d.close()


def check_slice_watch():
    # a data breakpoint on rows 8..15 of the output: lane AIV0 stores rows
    # 0..7 and must not stop it; AIV1's store of rows 8..15 does
    d = Session()
    d.call("initialize", {})
    d.call("launch", {"case": CASE, "pass": "22_after_ExpandMixedKernel"})
    d.call("setBreakpoints", {"source": {"path": SRC}, "breakpoints": [{"line": 50}]})
    d.call("configurationDone")
    tid = d.wait_event("stopped")["body"]["threadId"]
    top = d.call("stackTrace", {"threadId": tid})["stackFrames"][0]
    ref = d.call("scopes", {"frameId": top["id"]})["scopes"][0]["variablesReference"]
    out = [v for v in d.call("variables", {"variablesReference": ref})["variables"] if v["name"] == "out__ssa_v0"][0]
    row8 = d.call("variables", {"variablesReference": out["variablesReference"], "start": 8, "count": 1})["variables"][0]
    info = d.call("dataBreakpointInfo", {"variablesReference": out["variablesReference"], "name": row8["name"]})
    assert info["dataId"] == "tensor:out__ssa_v0[8]", info
    bp = d.call("setDataBreakpoints", {"breakpoints": [{"dataId": "tensor:out__ssa_v0[8:16]"}]})["breakpoints"][0]
    assert bp["verified"], bp
    d.call("setBreakpoints", {"source": {"path": SRC}, "breakpoints": []})
    d.call("continue", {"threadId": tid})
    s = d.wait_event("stopped")["body"]
    assert s["reason"] == "data breakpoint" and s["threadId"] == 4 and s["hitBreakpointIds"] == [bp["id"]], s
    d.close()


def check_bad_utf8_echoed():
    # a dump with bytes that are not UTF-8 (in a comment): the REPL's `list`
    # echoes them, and the response must still be JSON (U+FFFD for each)
    import shutil, tempfile
    tmp = tempfile.mkdtemp()
    shutil.copytree(CASE, tmp + "/case")
    f = tmp + "/case/passes_dump/22_after_ExpandMixedKernel.py"
    lines = open(f, "rb").read().split(b"\n")
    lines[2] = b"# caf\xe9 \xff\xfe"
    open(f, "wb").write(b"\n".join(lines))
    d = Session()
    d.call("initialize", {})
    d.call("launch", {"case": tmp + "/case", "pass": "22_after_ExpandMixedKernel"})
    out = d.call("evaluate", {"expression": "list 1,4", "context": "repl"})["result"]
    assert "# caf\ufffd \ufffd\ufffd" in out, repr(out)
    # `quit` in the debug console ends the session: terminated, then the server exits
    d.call("evaluate", {"expression": "quit", "context": "repl"})
    d.wait_event("terminated")
    d.p.stdin.close()
    assert d.p.wait(timeout=30 * SCALE) == 0
    shutil.rmtree(tmp)


def check_lines_from_zero():
    # a client counting lines from 0: its line 49 is the file's line 50
    d = Session()
    d.call("initialize", {"linesStartAt1": False, "columnsStartAt1": False})
    d.call("launch", {"case": CASE, "pass": "22_after_ExpandMixedKernel"})
    d.call("setBreakpoints", {"source": {"path": SRC}, "breakpoints": [{"line": 49}]})
    d.call("configurationDone")
    tid = d.wait_event("stopped")["body"]["threadId"]
    top = d.call("stackTrace", {"threadId": tid})["stackFrames"][0]
    assert top["line"] == 49 and top["column"] == 8, top  # 1-based 50:9
    out = d.call("evaluate", {"expression": "frame", "context": "repl"})["result"]
    assert ":50" in out, out
    d.close()


def check_lazy_statistics():
    # a 1000 x 100 tensor (over 65,536 elements): no statistics in the
    # listing, a lazy child computes them, as `print` shows them at the REPL
    import tempfile
    tmp = tempfile.mkdtemp()
    subprocess.run(["/usr/bin/python3", os.path.join(os.environ["top_srcdir"], "tests/data/huge/craft_case.py"),
                    tmp + "/case", "1000", "100", "in"], check=True)
    d = Session()
    d.call("initialize", {})
    d.call("launch", {"case": tmp + "/case", "stopOnEntry": True})
    d.call("configurationDone")
    tid = d.wait_event("stopped")["body"]["threadId"]
    top = d.call("stackTrace", {"threadId": tid})["stackFrames"][0]
    ref = d.call("scopes", {"frameId": top["id"]})["scopes"][0]["variablesReference"]
    a = [v for v in d.call("variables", {"variablesReference": ref})["variables"] if v["name"] == "a"][0]
    assert a["value"] == "fp32 [1000, 100]" and a["namedVariables"] == 1 and a["indexedVariables"] == 1000, a
    named = d.call("variables", {"variablesReference": a["variablesReference"], "filter": "named"})["variables"]
    assert named[0]["name"] == "statistics" and named[0]["presentationHint"]["lazy"] is True, named
    stats = d.call("variables", {"variablesReference": named[0]["variablesReference"]})["variables"][0]["value"]
    repl = d.call("evaluate", {"expression": "print a", "frameId": top["id"], "context": "repl"})["result"]
    assert stats in repl, (stats, repl)
    assert stats.startswith("min 1.5 max 1.5 mean 1.5 nan 0 inf 0"), stats  # every element is 1.5
    d.close()
    import shutil
    shutil.rmtree(tmp)


def check_ranks_threads():
    # issue 34: a multi-rank case's threads are its ranks' cores (id =
    # rank * 4 + core + 1). examples/multirank_signals' handshake pass,
    # stopped at rank 1's notify (line 22 of 02_after_Handshake.py, only
    # rank 1 runs ping): the stop is on thread 5 (rank 1's host); rank 0's
    # host (thread 1) is parked in wait_for at line 27.
    case = os.path.join(os.environ["top_srcdir"], "examples/multirank_signals")
    src = os.path.realpath(os.path.join(case, "passes_dump/02_after_Handshake.py"))
    stream = b"".join([
        frame(req(1, "initialize", {"adapterID": "ptodb"})),
        frame(req(2, "launch", {"case": case, "pass": "02_after_Handshake"})),
        frame(req(3, "setBreakpoints", {"source": {"path": src}, "breakpoints": [{"line": 22}]})),
        frame(req(4, "configurationDone")),
        frame(req(5, "threads")),
        frame(req(6, "stackTrace", {"threadId": 5})),
        frame(req(7, "stackTrace", {"threadId": 1})),
        frame(req(8, "stackTrace", {"threadId": 9})),
        frame(req(9, "disconnect"))])
    rc, msgs, err = run(stream)
    assert rc == 0, err
    stops = events(msgs, "stopped")
    assert len(stops) == 1 and stops[0]["body"]["threadId"] == 5, stops
    names = [t["name"] for t in response(msgs, 5)["body"]["threads"]]
    assert names == ["rank 0 host (wait_for)", "rank 0 aic", "rank 0 aiv0", "rank 0 aiv1",
                     "rank 1 host (ping)", "rank 1 aic", "rank 1 aiv0", "rank 1 aiv1"], names
    f1 = response(msgs, 6)["body"]["stackFrames"]
    assert f1[0]["name"] == "ping" and f1[0]["line"] == 22, f1
    f0 = response(msgs, 7)["body"]["stackFrames"]
    assert f0[0]["name"] == "wait_for" and f0[0]["line"] == 27, f0
    assert not response(msgs, 8)["success"]  # a third rank's thread


def check_ranks_step_back():
    # stepBack and reverseContinue on a multi-rank case (re-execution of the
    # global schedule, docs/time-travel.md): stopped at rank 1's notify
    # (line 22 of 02_after_Handshake.py, thread 5 = rank 1's host), a next
    # on thread 5 reaches line 23 and stepBack comes back to 22 on the same
    # thread; with a breakpoint on rank 0's wait (line 27, reached before
    # rank 1 runs under the fixed schedule), reverseContinue stops there on
    # thread 1.
    case = os.path.join(os.environ["top_srcdir"], "examples/multirank_signals")
    src = os.path.realpath(os.path.join(case, "passes_dump/02_after_Handshake.py"))
    d = Session()
    d.call("initialize", {})
    d.call("launch", {"case": case, "pass": "02_after_Handshake"})
    d.call("setBreakpoints", {"source": {"path": src}, "breakpoints": [{"line": 22}]})
    d.call("configurationDone")
    s = d.wait_event("stopped")["body"]
    assert s["threadId"] == 5, s
    d.call("next", {"threadId": 5})
    d.wait_event("stopped")
    assert d.call("stackTrace", {"threadId": 5})["stackFrames"][0]["line"] == 23
    d.call("stepBack", {"threadId": 5})
    s = d.wait_event("stopped")["body"]
    assert s["reason"] == "step" and s["threadId"] == 5, s
    assert d.call("stackTrace", {"threadId": 5})["stackFrames"][0]["line"] == 22
    d.call("setBreakpoints", {"source": {"path": src}, "breakpoints": [{"line": 27}]})
    d.call("reverseContinue", {"threadId": 5})
    s = d.wait_event("stopped")["body"]
    assert s["threadId"] == 1, s
    assert d.call("stackTrace", {"threadId": 1})["stackFrames"][0]["line"] == 27, s
    d.close()


def check_ranks_exceptions():
    # the "multirank" filter (catch race + catch fence): our fence_contract
    # program's pass 2 drops the fence after rank 1's remote store, so its
    # notify at 14:9 breaks the contract (tests/cli/multirank_fence.sh); the
    # stop is right after it, on rank 1's host (thread 5), and the run goes
    # on from it. race_remote_store's pass 0: the race, found at rank 1's
    # remote store (16:9).
    data = os.path.join(os.environ["top_srcdir"], "tests/data/multirank")
    d = Session()
    d.call("initialize", {})
    d.call("launch", {"case": data + "/fence_contract", "pass": "02_after_DropFence"})
    r = d.call("setExceptionBreakpoints", {"filters": ["multirank"]})
    assert [b["verified"] for b in r["breakpoints"]] == [True], r
    d.call("configurationDone")
    s = d.wait_event("stopped")["body"]
    assert s["reason"] == "exception" and s["description"] == "multi-rank fault: fence", s
    assert s["threadId"] == 5, s
    assert s["text"].endswith("02_after_DropFence.py:14:9: fence contract: rank 1 notifies here while its write to "
                              "window data_buf of rank 0 (pld.tile.remote_store at 13:9) is not yet visible (no "
                              "system.fence after it): on the device the peer may read the window as it was before "
                              "the write (PyPTO's data-before-signal contract, "
                              "docs/en/dev/passes/46-insert_comm_fence.md)"), s
    info = d.call("exceptionInfo", {"threadId": 5})
    assert info["exceptionId"] == "fence" and info["breakMode"] == "always", info
    assert info["details"]["fullTypeName"] == "ptodb.multirank.fence", info
    assert info["description"] == s["text"], info
    # caught, not fatal: continue runs on to the pass's end (the check's
    # error there: exit code 2, no verdict to pass)
    d.call("continue", {"threadId": 5})
    assert d.wait_event("exited")["body"]["exitCode"] != 0
    d.close()
    d = Session()
    d.call("initialize", {})
    d.call("launch", {"case": data + "/race_remote_store", "pass": "00_frontend"})
    d.call("setExceptionBreakpoints", {"filters": ["multirank"]})
    d.call("configurationDone")
    s = d.wait_event("stopped")["body"]
    assert s["reason"] == "exception" and s["description"] == "multi-rank fault: race", s
    assert "00_frontend.py:16:9: race on window data_buf of rank 0" in s["text"], s
    assert d.call("exceptionInfo", {"threadId": s["threadId"]})["details"]["fullTypeName"] == "ptodb.multirank.race"
    # with the filter off the same pass runs to its end without a stop
    d.call("setExceptionBreakpoints", {"filters": []})
    d.call("continue", {"threadId": s["threadId"]})
    d.wait_event("exited")
    d.close()


MEMCASE = os.path.join(os.environ["top_srcdir"], "examples/memory")
MEM35 = os.path.realpath(os.path.join(MEMCASE, "passes_dump/35_after_AllocateMemoryAddr.py"))


def npy_data(path):
    """The data bytes of a .npy file (format 1.0: magic, version, 2-byte header length)."""
    raw = open(path, "rb").read()
    assert raw[:6] == b"\x93NUMPY" and raw[6] == 1, path
    return raw[10 + int.from_bytes(raw[8:10], "little"):]


def check_exceptions():
    # examples/memory pass 34 reuses a__tile's MemRef for b__tile while a is
    # live (its README): the memory filter stops at the add that reads the
    # clobbered bytes, and exceptionInfo gives the sanitizer's report block
    d = Session()
    caps = d.call("initialize", {})
    assert caps["supportsExceptionInfoRequest"] is True
    filters = {f["filter"]: f["default"] for f in caps["exceptionBreakpointFilters"]}
    assert filters == {"memory": False, "deadlock": True, "error": True, "multirank": False}, filters
    d.call("launch", {"case": MEMCASE, "pass": "34_after_MemoryReuse"})
    r = d.call("setExceptionBreakpoints", {"filters": ["memory", "nosuch"],
                                           "filterOptions": [{"filterId": "error", "condition": "x"}]})
    assert [b["verified"] for b in r["breakpoints"]] == [True, False, False], r
    d.call("configurationDone")
    s = d.wait_event("stopped")["body"]
    assert s["reason"] == "exception" and s["description"] == "memory fault: clobber", s
    assert s["text"].startswith("memory fault: clobber at ") and s["text"].endswith("34_after_MemoryReuse.py:12:110 in add_kernel"), s
    info = d.call("exceptionInfo", {"threadId": s["threadId"]})
    assert info["exceptionId"] == "clobber" and info["breakMode"] == "always", info
    assert info["description"] == s["text"], info
    msg = info["details"]["message"]
    # the block as `catch memory` prints it at the REPL: both tiles with ids and byte ranges
    assert "tile:   a__tile (MemRef mem_vec_1, bytes [0, 4096) of buffer mem_vec_1 in Vec), defined at 10:9" in msg, msg
    assert "wrote:  b__tile (MemRef mem_vec_1, bytes [0, 4096) of buffer mem_vec_1 in Vec), written at 11:9" in msg, msg
    assert info["details"]["fullTypeName"] == "ptodb.memory.clobber", info
    # a memory fault does not end the run: continue goes on to the pass's
    # verdict, MEMFAULT (exit code 2, as for any verdict but pass and fail)
    d.call("continue", {"threadId": s["threadId"]})
    assert d.wait_event("exited")["body"]["exitCode"] == 2
    d.call("exceptionInfo", {"threadId": 1}, ok=False)
    d.close()

    # examples/deadlock pass 22: every core blocks; the default filters stop
    # there, forward is refused, backward works
    deadlock = os.path.join(os.environ["top_srcdir"], "examples/deadlock")
    d = Session()
    d.call("initialize", {})
    d.call("launch", {"case": deadlock, "pass": "22_after_ExpandMixedKernel"})
    d.call("configurationDone")
    s = d.wait_event("stopped")["body"]
    assert s["reason"] == "exception" and s["description"] == "deadlock", s
    assert s["text"].startswith("ptodb: deadlock in group scaled_mm: every live core is blocked"), s
    info = d.call("exceptionInfo", {"threadId": s["threadId"]})
    assert info["exceptionId"] == "deadlock" and info["breakMode"] == "unhandled", info
    assert "22_after_ExpandMixedKernel.py:32:9 on tpop_from_aic" in info["details"]["message"], info
    d.call("continue", {"threadId": 1}, ok=False)
    d.call("stepBack", {"threadId": 1})
    s = d.wait_event("stopped")["body"]
    assert s["reason"] == "step", s
    d.call("exceptionInfo", {"threadId": 1}, ok=False)  # back before the deadlock: no exception here
    d.close()
    # with the filters off the deadlock is the program's end (exit code 2)
    d = Session()
    d.call("initialize", {})
    d.call("launch", {"case": deadlock, "pass": "22_after_ExpandMixedKernel"})
    assert d.call("setExceptionBreakpoints", {"filters": []})["breakpoints"] == []
    d.call("configurationDone")
    assert d.wait_event("exited")["body"]["exitCode"] == 2
    assert not [e for e in d.events if e["event"] == "stopped"]
    d.close()

    # a runtime error of the interpreter: pass 35 with b's tile loaded as
    # [16, 32], which the add of two [16, 64] tiles cannot take. Under
    # --semantics=ref REF's check_shapes stops at the load (line 12); under
    # the device's semantics (the default) that check is a note and the add
    # (line 13) is the statement that fails
    import shutil, tempfile
    tmp = tempfile.mkdtemp()
    shutil.copytree(MEMCASE, tmp + "/case")
    f = tmp + "/case/passes_dump/35_after_AllocateMemoryAddr.py"
    text = open(f).read().replace("pl.tile.load(b__ssa_v0, [0, 0], [16, 64], [16, 64]",
                                  "pl.tile.load(b__ssa_v0, [0, 0], [16, 32], [16, 32]")
    open(f, "w").write(text)
    for args, at, message in ((["--semantics=ref"], ":12:9: in add_kernel: ", "Shape mismatch for b_tile"),
                              ([], ":13:110: in add_kernel: ",
                               "tile.add: The size of tensor a (64) must match the size of tensor b (32)")):
        d = Session()
        d.call("initialize", {})
        d.call("launch", {"case": tmp + "/case", "pass": "35_after_AllocateMemoryAddr", "args": args})
        d.call("configurationDone")
        s = d.wait_event("stopped")["body"]
        assert s["reason"] == "exception" and s["description"].startswith("error: "), s
        assert s["text"].startswith(os.path.realpath(f) + at) or at in s["text"], s
        info = d.call("exceptionInfo", {"threadId": s["threadId"]})
        assert message in info["details"]["message"], info
        d.close()
    shutil.rmtree(tmp)


def check_read_memory():
    # pass 35 places a__tile at byte 0 and b__tile at 4096 of AIV0's Vec
    # (its README); stopped before the add (line 13), each tile's bytes are
    # its input's fp32 data, the .npy file's bytes (little-endian, as the
    # device's); after the add, the sum written in place over a__tile
    import base64, struct
    a_bytes = npy_data(os.path.join(MEMCASE, "data/in/a.npy"))
    b_bytes = npy_data(os.path.join(MEMCASE, "data/in/b.npy"))
    assert len(a_bytes) == len(b_bytes) == 16 * 64 * 4
    d = Session()
    caps = d.call("initialize", {})
    assert caps["supportsReadMemoryRequest"] is True
    d.call("launch", {"case": MEMCASE, "pass": "35_after_AllocateMemoryAddr"})
    d.call("setBreakpoints", {"source": {"path": MEM35}, "breakpoints": [{"line": 13}]})
    d.call("configurationDone")
    tid = d.wait_event("stopped")["body"]["threadId"]
    top = d.call("stackTrace", {"threadId": tid})["stackFrames"][0]
    ref = d.call("scopes", {"frameId": top["id"]})["scopes"][0]["variablesReference"]
    v = {x["name"]: x for x in d.call("variables", {"variablesReference": ref})["variables"]}
    assert v["a__tile"]["memoryReference"] == "aiv0/Vec/0x0", v["a__tile"]
    assert v["b__tile"]["memoryReference"] == "aiv0/Vec/0x1000", v["b__tile"]

    def read(mref, count, offset=None):
        args = {"memoryReference": mref, "count": count}
        if offset is not None:
            args["offset"] = offset
        return d.call("readMemory", args)

    r = read("aiv0/Vec/0x1000", 4096)
    assert r["address"] == "0x1000" and base64.b64decode(r["data"]) == b_bytes and "unreadableBytes" not in r, r["address"]
    # the same bytes from a's reference with an offset (a at 0, b at 4096)
    r2 = read(v["a__tile"]["memoryReference"], 24, 4096 + 8)
    assert r2["address"] == "0x1008" and base64.b64decode(r2["data"]) == b_bytes[8:32], r2
    assert base64.b64decode(read("aiv0/Vec/0x0", 4096)["data"]) == a_bytes
    # Vec is 188416 bytes on Ascend910B (docs/memory.md): 8 readable, 8 past it
    r = read("aiv0/Vec/0x0", 16, 188416 - 8)
    assert r["address"] == "0x2dff8" and len(base64.b64decode(r["data"])) == 8 and r["unreadableBytes"] == 8, r
    r = read("aiv0/Vec/0x0", 16, 188416)
    assert base64.b64decode(r["data"]) == b"" and r["unreadableBytes"] == 16, r
    # before byte 0: unreadable first, the next request starts past them
    r = read("aiv0/Vec/0x0", 16, -4)
    assert r["address"] == "-4" and r["unreadableBytes"] == 4 and r["data"] == "", r
    # a GM tensor: its storage from its first element (as `x` examines it);
    # 6 bytes before its end, then 10 unreadable
    mref = v["a__ssa_v0"]["memoryReference"]
    assert mref.startswith("tensor/") and mref.endswith("/0x0"), mref
    assert base64.b64decode(read(mref, 4096)["data"]) == a_bytes
    r = read(mref, 16, 4090)
    assert base64.b64decode(r["data"]) == a_bytes[4090:] and r["unreadableBytes"] == 10, r
    # a row of it: the same storage, from the row's first element (64 fp32 a row)
    rows = d.call("variables", {"variablesReference": v["a__ssa_v0"]["variablesReference"], "start": 2, "count": 1})
    row2 = rows["variables"][0]
    assert row2["memoryReference"].endswith("/0x200"), row2
    assert base64.b64decode(read(row2["memoryReference"], 8)["data"]) == a_bytes[512:520]
    for bad in ({"memoryReference": "aiv0/Nope/0x0", "count": 4}, {"memoryReference": "host/Vec/0x0", "count": 4},
                {"memoryReference": "aiv0/Vec/0x0", "count": -1}, {"memoryReference": "aiv0/Vec/0x0", "count": 1 << 21},
                {"memoryReference": "aiv0/Vec/-1", "count": 4}, {"memoryReference": "tensor/999/0x0", "count": 4},
                {"memoryReference": "aiv0/Vec/0x0/x", "count": 4}, {"memoryReference": "aiv0/Vec/0x0", "count": "4"},
                {"memoryReference": "aiv0/Vec/0x7fffffffffffffff", "count": 4, "offset": 1 << 62}):
        d.call("readMemory", bad, ok=False)
    # far past the space: all unreadable
    r = read("aiv0/Vec/0x0", 4, 1 << 62)
    assert r["address"] == "0x4000000000000000" and r["data"] == "" and r["unreadableBytes"] == 4, r
    # the add writes a + b in place over a__tile (fp32 sums, rounded once)
    d.call("setBreakpoints", {"source": {"path": MEM35}, "breakpoints": []})
    d.call("next", {"threadId": tid})
    d.wait_event("stopped")
    a = struct.unpack("<1024f", a_bytes)
    b = struct.unpack("<1024f", b_bytes)
    want = struct.pack("<1024f", *[x + y for x, y in zip(a, b)])
    assert base64.b64decode(read("aiv0/Vec/0x0", 4096)["data"]) == want
    assert base64.b64decode(read("aiv0/Vec/0x1000", 4096)["data"]) == b_bytes  # b untouched
    d.close()


def check_completions():
    # the REPL's completer (src/debug/complete.c): command names, info's
    # subcommands, tensors in scope; start and length say what to replace
    d = Session()
    caps = d.call("initialize", {})
    assert caps["supportsCompletionsRequest"] is True
    assert d.call("completions", {"text": "inf", "column": 4})["targets"] == []  # no session yet
    d.call("launch", {"case": MEMCASE, "pass": "35_after_AllocateMemoryAddr"})
    d.call("setBreakpoints", {"source": {"path": MEM35}, "breakpoints": [{"line": 13}]})
    d.call("configurationDone")
    d.wait_event("stopped")
    t = d.call("completions", {"text": "inf", "column": 4})["targets"]
    assert t == [{"label": "info", "start": 1, "length": 3, "type": "keyword"}], t
    t = d.call("completions", {"text": "info me", "column": 8})["targets"]
    assert [x["label"] for x in t] == ["memory"] and t[0]["start"] == 6 and t[0]["length"] == 2, t
    labels = [x["label"] for x in d.call("completions", {"text": "print a_", "column": 9})["targets"]]
    assert labels == ["a__ssa_v0", "a__tile"], labels
    # the cursor in the middle: only what is before it counts
    labels = [x["label"] for x in d.call("completions", {"text": "print b_ + 1", "column": 9})["targets"]]
    assert labels == ["b__ssa_v0", "b__tile"], labels
    # a multi-byte character before the word: columns are UTF-16 units
    # ("\U0001F600" is 2): "output " 7, the emoji 2, "(" 1, then b_ at 11 (from 1)
    t = d.call("completions", {"text": "output \U0001F600(b_", "column": 13})["targets"]
    assert [x["label"] for x in t] == ["b__ssa_v0", "b__tile"] and t[0]["start"] == 11 and t[0]["length"] == 2, t
    # `line` picks the line of a multi-line text
    t = d.call("completions", {"text": "print x\ninfo br", "line": 2, "column": 8})["targets"]
    assert [x["label"] for x in t] == ["breakpoints"] and t[0]["start"] == 6, t
    d.close()
    d = Session()
    d.call("initialize", {"columnsStartAt1": False})
    d.call("launch", {"case": MEMCASE})
    t = d.call("completions", {"text": "pass Mem", "column": 8})["targets"]
    assert [x["label"] for x in t] == ["MemoryReuse"] and t[0]["start"] == 5, t
    d.close()


def check_restart_frame_and_terminate():
    # restartFrame seeks back to where the frame's call began: add_kernel's
    # first statement (line 9), a__tile unbound again; stepping forward
    # gives the same bytes again (the machine is deterministic). Under
    # --semantics=ref the kernel runs in line on the host, under main's frame
    # (the device runs a kernel the host calls on AIV0, a stack of its own)
    d = Session()
    caps = d.call("initialize", {})
    assert caps["supportsRestartFrame"] is True and caps["supportsRestartRequest"] is True
    d.call("launch", {"case": MEMCASE, "pass": "35_after_AllocateMemoryAddr", "args": ["--semantics=ref"]})
    d.call("setBreakpoints", {"source": {"path": MEM35}, "breakpoints": [{"line": 13}]})
    d.call("configurationDone")
    tid = d.wait_event("stopped")["body"]["threadId"]
    frames = d.call("stackTrace", {"threadId": tid})["stackFrames"]
    assert [f["name"] for f in frames] == ["add_kernel", "main"] and all(f["canRestart"] for f in frames), frames
    before = d.call("evaluate", {"expression": "when", "context": "repl"})["result"]
    assert before.startswith("Position 35:host:1:13:1"), before
    d.call("restartFrame", {"frameId": frames[0]["id"]})
    s = d.wait_event("stopped")["body"]
    assert s["reason"] == "restart", s
    top = d.call("stackTrace", {"threadId": s["threadId"]})["stackFrames"][0]
    assert top["name"] == "add_kernel" and top["line"] == 9, top
    assert d.call("evaluate", {"expression": "when", "context": "repl"})["result"].startswith("Position 35:host:1:9:1")
    d.call("evaluate", {"expression": "a__tile", "frameId": top["id"], "context": "watch"}, ok=False)
    d.call("continue", {"threadId": tid})
    d.wait_event("stopped")
    assert d.call("evaluate", {"expression": "when", "context": "repl"})["result"].startswith("Position 35:host:1:13:1")
    # the outer frame: main from its first statement
    frames = d.call("stackTrace", {"threadId": tid})["stackFrames"]
    d.call("restartFrame", {"frameId": frames[1]["id"]})
    d.wait_event("stopped")
    top = d.call("stackTrace", {"threadId": tid})["stackFrames"]
    assert [f["name"] for f in top] == ["main"] and top[0]["line"] == 18, top
    d.call("restartFrame", {"frameId": 999999}, ok=False)
    # restart with the client's current configuration: another pass (34, by
    # its file number), stopped on entry at main's first statement (line 17 there)
    d.call("restart", {"arguments": {"case": MEMCASE, "pass": "nosuch"}}, ok=False)
    d.call("setBreakpoints", {"source": {"path": MEM35}, "breakpoints": []})
    d.call("restart", {"arguments": {"case": MEMCASE, "pass": 34, "stopOnEntry": True}})
    d.wait_event("stopped")
    top = d.call("stackTrace", {"threadId": 1})["stackFrames"][0]
    assert top["source"]["name"] == "34_after_MemoryReuse.py" and top["line"] == 17, top
    d.call("restart", {"arguments": {"pass": "AllocateMemoryAddr", "stopOnEntry": False}})
    d.wait_event("exited")  # no breakpoint: pass 35 ran to its end
    d.call("setBreakpoints", {"source": {"path": MEM35}, "breakpoints": [{"line": 13}]})
    # restart: the launch again from its start, to the breakpoint again
    d.call("restart")
    s = d.wait_event("stopped")["body"]
    assert d.call("evaluate", {"expression": "when", "context": "repl"})["result"].startswith("Position 35:host:1:13:1")
    # terminate: the run is killed, terminated is sent once, the server still answers
    d.call("terminate")
    d.wait_event("terminated")
    d.call("stackTrace", {"threadId": 1}, ok=False)
    d.call("threads")
    d.close()


def check_launch_args_of_the_debugger():
    # a launch's args are the debugger's command line: an option the
    # debugger would ignore (--jobs is --run's and --batch's) is refused,
    # not ignored; the debugger's own options are taken
    d = Session()
    d.call("initialize", {})
    d.call("launch", {"case": CASE, "args": ["--jobs", "2"]}, ok=False)
    d.call("launch", {"case": CASE, "args": ["--rtol", "1e-3", "-ex", "show rtol"]})
    d.close()


def check_port():
    p = subprocess.Popen([PTODB, "--dap-port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    line = p.stderr.readline().decode()
    m = re.search(r"listening on 127\.0\.0\.1:(\d+)", line)
    assert m, line
    s = socket.create_connection(("127.0.0.1", int(m.group(1))), timeout=10 * SCALE)
    s.sendall(frame(req(1, "initialize", {})) + frame(req(2, "disconnect")))
    data = b""
    while True:
        c = s.recv(65536)
        if not c:
            break
        data += c
    msgs = parse_all(data)
    assert response(msgs, 1)["success"] and response(msgs, 2)["success"]
    assert p.wait(timeout=10 * SCALE) == 0
    assert p.stdout.read() == b""  # the socket carries DAP; stdout stays empty


def check_launch_stops_at_divergence():
    # a launch that names no pass asks the divergence engine (bisect's,
    # batch/diverge.h): on examples/mlp-broken (a planted fault, BUG.txt:
    # line 29 of pass 11) it stops there with reason "exception" in the
    # engine's words, the words `ptodb --batch --bisect` prints; exceptionInfo
    # gives them too. A passing case runs to its end as before.
    broken = os.path.join(os.environ["top_srcdir"], "examples/mlp-broken")
    batch = subprocess.run([PTODB, "--batch", "--bisect", "--nx", broken], capture_output=True, timeout=60 * SCALE)
    text = batch.stdout.decode()
    head = [l for l in text.split("\n") if l.startswith("first divergence: ")][0]
    why = [l.strip() for l in text.split("\n") if l.startswith("  reason: ")][0]
    assert ".py:29: " in head and why.startswith("reason: op: "), text
    d = Session()
    d.call("initialize", {})
    d.call("launch", {"case": broken})
    d.call("configurationDone")
    s = d.wait_event("stopped")["body"]
    assert s["reason"] == "exception" and s["description"] == "first divergence: op" and s["text"] == why, s
    top = d.call("stackTrace", {"threadId": s["threadId"]})["stackFrames"][0]
    assert top["source"]["name"] == "11_after_ConvertTensorToTileOps.py" and top["line"] == 29, top
    info = d.call("exceptionInfo", {"threadId": s["threadId"]})
    assert info["exceptionId"] == "divergence" and info["description"] == why, info
    assert info["details"]["message"].split("\n")[0].endswith(head.split("passes_dump/")[1]), info
    important = [e["body"]["output"] for e in d.events if e.get("event") == "output" and
                 e["body"].get("category") == "important"]
    assert any(why in o and "first divergence: " in o for o in important), important
    d.call("continue", {"threadId": s["threadId"]})
    d.wait_event("exited")
    d.close()
    # "divergence": false: the launch runs as before (pass 0 passes)
    d = Session()
    d.call("initialize", {})
    d.call("launch", {"case": broken, "divergence": False})
    d.call("configurationDone")
    assert d.wait_event("exited")["body"]["exitCode"] == 0
    d.close()
    # a passing case: no divergence, no stop
    d = Session()
    d.call("initialize", {})
    d.call("launch", {"case": CASE})
    d.call("configurationDone")
    assert d.wait_event("exited")["body"]["exitCode"] == 0
    assert not [e for e in d.events if e.get("event") == "stopped"]
    d.close()


if __name__ == "__main__":  # tests/dap/reverse_oracle.py imports the Session
    for name, fn in list(globals().items()):
        if name.startswith("check_"):
            fn()
            print("ok", name)

"""Writes the replies of ptodb/passes and ptodb/heatmap after a DAP session on
examples/mlp-broken pass 22 run to its end (the webview's input) as JSON.
usage: webview_data.py OUT.json  (PTODB, top_srcdir in the environment)"""
import json, os, subprocess, sys

p = subprocess.Popen([os.environ["PTODB"], "--dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
seq = 0


def call(cmd, args=None):
    global seq
    seq += 1
    b = json.dumps({"seq": seq, "type": "request", "command": cmd, "arguments": args or {}}).encode()
    p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b)
    p.stdin.flush()
    while True:
        h = b""
        while not h.endswith(b"\r\n\r\n"):
            c = p.stdout.read(1)
            if not c:
                sys.exit("webview_data: the server closed")
            h += c
        m = json.loads(p.stdout.read(int(h.split(b":")[1])))
        if m["type"] == "response" and m["request_seq"] == seq:
            if not m["success"]:
                sys.exit("webview_data: %s: %s" % (cmd, m.get("message")))
            return m.get("body")


call("initialize", {"adapterID": "ptodb"})
call("launch", {"case": os.path.join(os.environ["top_srcdir"], "examples/mlp-broken"),
                "pass": "22_after_ExpandMixedKernel"})
call("configurationDone")  # no breakpoint: runs the pass to its end
data = {"passes": call("ptodb/passes"), "heatmap": call("ptodb/heatmap", {"output": 0, "rows": 4, "cols": 8})}
call("disconnect")
json.dump(data, open(sys.argv[1], "w"), indent=1)

"""DAP's reverse requests against the REPL and a straight run (run by
tests/cli/dap_reverse.sh; stdlib only).

The DAP server turns stepBack into the engine's reverse-next on the
request's thread, reverseContinue into reverse-continue, restartFrame into a
seek to where the frame's call began (ui/dap/server.c); what it adds is the
thread it selects first, the thread and reason of the stopped event, the
stack it shows and the frame it restarts. Every moment of each pass below
is checked, boundaries included (a pass's first statement, a kernel's first
and last statement, a group call's start and its wait, a call and its
return, a lane switch, a blocked core, another rank's move, SPMD blocks
parked at a system.syncall and resumed):

  the straight run: the REPL's `seek @N` then `core C` (and `rank R`) for
  every step N and every thread, giving each core's function and position
  (tests/timetravel/seek_oracle.c checks those against a straight run's
  state hashes);
  stepBack at N on every live thread: the position and step `when` prints
  are the REPL's after `core C` + `reverse-next` at N, the stopped event
  names the thread of that position's core, the top frame is that
  position's line and the straight run's function of that core at that
  step, the position is the one the straight run prints for that core at
  that step; a `next` after it lands where the REPL's does;
  reverseContinue at N: the REPL's reverse-continue landing, and the
  straight run's last arrival of a core at a breakpoint's line before N,
  a core that waits there aside (step 0 when there is none, reason "step"
  then);
  restartFrame at N for every frame of every live thread: the frame's
  function at the first step of that call (the first step at which the
  straight run shows the core in that function with the same call number;
  the number is the straight run's at the last step up to N where the
  function was the core's innermost in the same SPMD block), with the
  frames above it gone.
"""
import os, re, signal, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from protocol import Session, PTODB  # noqa: E402

TOP = os.environ["top_srcdir"]


def on_alarm(sig, frame):
    raise TimeoutError("no answer from the DAP server (Session.read's bound)")


signal.signal(signal.SIGALRM, on_alarm)  # a traceback, not a silent exit
CORES = ["host", "AIC", "AIV0", "AIV1"]
FRAME_RE = re.compile(r"^\[(?:rank (\d+), )?(host|AIC|AIV0|AIV1)(?:, block \d+ of \d+)?\] (\S+) at (\S+):(\d+)")
POS_RE = re.compile(r"^Position (\S+) \(step (\d+)\)$")
WAIT_RE = re.compile(r", (blocked on|waiting for) ")
BLOCK_RE = re.compile(r"^\[[^\]]*, block (\d+) of \d+\]")
# "Position: core host has no frame": a multi-rank run's step 0, before any task
WHEN_RE = re.compile(r"^Position(?: (\S+)|: core \S+ has no frame)\nStep (\d+) ", re.M)


def parse_pos(pos):
    """(rank, core, call, line, iter, plus) of "22:AIV0:1:35:1+4" or "2:r1:host:1:22:1"."""
    f = pos.split(":")
    rank = 0
    if f[1].startswith("r") and f[1][1:].isdigit():
        rank = int(f[1][1:])
        f = f[:1] + f[2:]
    it, _, plus = f[4].partition("+")
    return rank, f[1], int(f[2]), int(f[3]), int(it), int(plus or 0)


def thread_of(pos):
    if pos is None:  # no core has a frame: the stop is shown on thread 1
        return 1
    rank, core, *_ = parse_pos(pos)
    return rank * 4 + CORES.index(core) + 1


class Repl:
    """One REPL session per script: commands in, the text between markers out."""

    def __init__(self, case, pass_index, args):
        self.case, self.pass_index, self.args = case, pass_index, args

    def run(self, blocks):
        """blocks: [(key, [commands])]; returns {key: output of those commands}."""
        script = ["pass %d" % self.pass_index, "start"]
        for key, cmds in blocks:
            script.append("echo \\n@@%s\\n" % key)
            script.extend(cmds)
        script.append("echo \\n@@__eof\\n")
        p = subprocess.run([PTODB, "--nw", "--nx"] + self.args + [self.case], input="\n".join(script) + "\n",
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
        assert p.returncode == 0, p.stdout[-2000:]
        out, key, parts = {}, None, []
        for line in p.stdout.split("\n"):
            if line.startswith("@@"):
                if key is not None:
                    out[key] = "\n".join(parts)
                key, parts = line[2:], []
            elif key is not None:
                parts.append(line)
        return out


ENDED = ("the pass ended", None)


def when_of(text):
    """The last `when` in text: (position, step); ENDED after the pass's end."""
    if re.search(r"^Pass \d+ \S+ finished after \d+ statements", text, re.M):
        return ENDED
    m = list(WHEN_RE.finditer(text))
    assert m, "no position in:\n" + text
    return m[-1].group(1), int(m[-1].group(2))


class Case:
    def __init__(self, name, pass_index, stem, nranks, args=(), bp_lines=()):
        self.name, self.pass_index, self.stem, self.nranks = name, pass_index, stem, nranks
        self.case = os.path.join(TOP, "examples", name)
        self.src = os.path.realpath(os.path.join(self.case, "passes_dump", stem + ".py"))
        self.args, self.bp_lines = list(args), list(bp_lines)
        self.repl = Repl(self.case, pass_index, self.args)
        self.threads = [t + 1 for t in range(4 * nranks)]

    def select(self, tid):
        r, c = divmod(tid - 1, 4)
        return (["rank %d" % r] if self.nranks > 1 else []) + ["core %s" % CORES[c].lower()]

    def straight(self):
        """end step, and table[N][tid] = (function, position) or None."""
        end = self.repl.run([("end", ["seek @999999999"])])["end"]
        m = re.search(r"The pass ended at step (\d+)", end)
        assert m, end
        self.end = int(m.group(1))
        blocks = []
        for n in range(self.end):
            blocks.append(("seek %d" % n, ["seek @%d" % n]))
            for t in self.threads:
                blocks.append(("t %d %d" % (n, t), self.select(t)))
        out = self.repl.run(blocks)
        self.table = []
        for n in range(self.end):
            row = {}
            for t in self.threads:
                text = out["t %d %d" % (n, t)]
                fm = [FRAME_RE.match(x) for x in text.split("\n")]
                fm = [x for x in fm if x]
                pm = [POS_RE.match(x) for x in text.split("\n")]
                pm = [x for x in pm if x]
                if "not running" in text or "no frame" in text or not fm or not pm:
                    row[t] = None
                    continue
                assert int(pm[-1].group(2)) == n, (n, t, text)
                assert thread_of(pm[-1].group(1)) == t, (n, t, text)
                # (function, position, whether the core waits there: blocked on a queue or a
                # syncall, or for its group call; the SPMD block its frames run, or None)
                bm = BLOCK_RE.match(fm[-1].string)
                row[t] = (fm[-1].group(3), pm[-1].group(1), bool(WAIT_RE.search(fm[-1].string)),
                          bm and int(bm.group(1)))
            self.table.append(row)

    def live(self, n):
        return [t for t in self.threads if self.table[n][t]]


class Dap:
    def __init__(self, case):
        self.c = case
        self.d = Session()
        self.d.call("initialize", {})
        self.d.call("launch", {"case": case.case, "pass": case.stem, "stopOnEntry": True, "args": case.args})
        self.d.call("configurationDone")
        self.d.wait_event("stopped")

    def seek(self, n):
        self.d.call("evaluate", {"expression": "seek @%d" % n, "context": "repl"})
        # requests are answered in order: the seek's stopped event (none
        # when it did not move) came before this answer
        self.d.call("threads")
        self.d.events = [e for e in self.d.events if e["event"] == "output"]

    def request(self, cmd, args):
        """cmd, then its stopped event; (event body, top frames, position, step)."""
        self.d.call(cmd, args)
        self.d.call("threads")
        if [e for e in self.d.events if e["event"] == "exited"]:
            # the pass ran to its end: a new session for the checks that follow
            self.close()
            self.__init__(self.c)
            return None, None, *ENDED
        s = self.d.wait_event("stopped")["body"]
        frames = self.d.call("stackTrace", {"threadId": s["threadId"]})["stackFrames"]
        pos, step = when_of(self.d.call("evaluate", {"expression": "when", "context": "repl"})["result"])
        self.d.events = [e for e in self.d.events if e["event"] == "output"]
        return s, frames, pos, step

    def close(self):
        self.d.close()


def check_step_back(c, failures):
    scen = [(n, t) for n in range(c.end) for t in c.live(n)]
    blocks = []
    for n, t in scen:
        blocks.append(("b %d %d" % (n, t), ["seek @%d" % n] + c.select(t) + ["echo \\n@@back %d %d\\n" % (n, t),
                       "reverse-next", "when", "echo \\n@@next %d %d\\n" % (n, t), "next", "when"]))
    out = c.repl.run(blocks)
    d = Dap(c)
    for n, t in scen:
        want_back = when_of(out["back %d %d" % (n, t)])
        want_next = when_of(out["next %d %d" % (n, t)])
        d.seek(n)
        s, frames, pos, step = d.request("stepBack", {"threadId": t})
        where = "%s stepBack at @%d on thread %d" % (c.name, n, t)
        if want_back[0] is None and step == want_back[1]:
            # the REPL's core has no frame there (a rank before its task or
            # after it): DAP shows the first thread that has one, or keeps
            # the thread asked when none has (ui/dap/reply.c dap_select_live)
            live = c.live(step)
            expect = (c.table[step][live[0]][1], live[0]) if live else (None, t)
            if (pos, s["threadId"]) != expect:
                failures.append("%s: DAP at %s on thread %d; no frame on the REPL's core, expected %s on %d" %
                                (where, pos, s["threadId"], *expect))
            if not live:
                s2, _, pos2, step2 = d.request("next", {"threadId": t})
                if (pos2, step2) != want_next:
                    failures.append("%s, then next: DAP at %s (step %s), the REPL at %s (step %s)" %
                                    (where, pos2, step2, *want_next))
            continue
        if (pos, step) != want_back:
            failures.append("%s: DAP at %s (step %s), the REPL's reverse-next at %s (step %s)" % (where, pos, step, *want_back))
            continue
        if s["threadId"] != thread_of(pos) or s["reason"] != "step":
            failures.append("%s: stopped event %s for position %s" % (where, s, pos))
        row = c.table[step].get(thread_of(pos)) if step < c.end else None
        if pos is None:  # a multi-rank run's step 0: no thread has a frame
            if frames or any(c.table[step].values()):
                failures.append("%s: no position at step %d, yet frames %s" % (where, step, frames))
        elif not row:
            failures.append("%s: landed at step %d where the straight run shows no frame for %s" % (where, step, pos))
        elif row[1] != pos or frames[0]["name"] != row[0] or frames[0]["line"] != parse_pos(pos)[3]:
            failures.append("%s: DAP shows %s line %d at %s; the straight run at step %d: %s" %
                            (where, frames[0]["name"], frames[0]["line"], pos, step, row))
        s, frames, pos, step = d.request("next", {"threadId": s["threadId"]})
        if (pos, step) != want_next:
            failures.append("%s, then next: DAP at %s (step %s), the REPL at %s (step %s)" % (where, pos, step, *want_next))
    d.close()
    return len(scen)


def check_reverse_continue(c, failures):
    bps = ["break %s.py:%d" % (c.stem, line) for line in c.bp_lines]
    blocks = [("b %d" % n, ["seek @%d" % n, "echo \\n@@rc %d\\n" % n, "reverse-continue", "when"])
              for n in range(c.end)]
    out = c.repl.run([("bps", bps)] + blocks)
    d = Dap(c)
    d.d.call("setBreakpoints", {"source": {"path": c.src}, "breakpoints": [{"line": x} for x in c.bp_lines]})
    for n in range(c.end):
        want = when_of(out["rc %d" % n])
        # the straight run: the last arrival of a core at a breakpoint's line
        # before n (a blocked try again is a new moment at the same line of
        # the same call, no new hit: the statement has not run; nor is the
        # arrival of a core that waits there, as an SPMD block parked at a
        # syncall: it hits when it resumes)
        def hit(m, t):
            _, _, call, line, _, plus = parse_pos(c.table[m][t][1])
            prev = c.table[m - 1][t] if m > 0 else None
            again = prev and parse_pos(prev[1])[2:4] == (call, line)
            return plus == 0 and line in c.bp_lines and not again and not c.table[m][t][2]
        hits = [m for m in range(n) for t in c.live(m) if hit(m, t)]
        expect_step = max(hits) if hits else 0
        d.seek(n)
        tid = d.d.call("threads")["threads"][0]["id"]
        s, frames, pos, step = d.request("reverseContinue", {"threadId": tid})
        where = "%s reverseContinue at @%d" % (c.name, n)
        if (pos, step) != want:
            failures.append("%s: DAP at %s (step %d), the REPL at %s (step %d)" % (where, pos, step, *want))
        if step != expect_step:
            failures.append("%s: at step %d, the straight run's last breakpoint arrival before it is step %d" %
                            (where, step, expect_step))
        if pos is not None and s["threadId"] != thread_of(pos):
            failures.append("%s: stopped event %s for position %s" % (where, s, pos))
        if s["reason"] != ("breakpoint" if hits else "entry"):
            failures.append("%s: reason %s with %d breakpoint arrivals before" % (where, s["reason"], len(hits)))
        if (frames[0]["line"] if frames else None) != (parse_pos(pos)[3] if pos else None):
            failures.append("%s: top frame line %d at %s" % (where, frames[0]["line"], pos))
    d.close()
    return c.end


def check_restart_frame(c, failures):
    d = Dap(c)
    count = 0
    for n in range(c.end):
        for t in c.live(n):
            d.seek(n)
            frames = d.d.call("stackTrace", {"threadId": t})["stackFrames"]
            for level, f in enumerate(frames):
                if not f.get("canRestart"):
                    failures.append("%s @%d thread %d: frame %d (%s) cannot restart" % (c.name, n, t, level, f["name"]))
                    continue
                if level:
                    d.seek(n)
                    frames = d.d.call("stackTrace", {"threadId": t})["stackFrames"]
                    f = frames[level]
                count += 1
                s, after, pos, step = d.request("restartFrame", {"frameId": f["id"]})
                where = "%s restartFrame at @%d thread %d frame %d (%s)" % (c.name, n, t, level, f["name"])
                # the frame's call: the last step up to n where its function was the core's
                # innermost in the same SPMD block (a block parked at a syncall resumes with
                # its frames: other blocks' calls of the function came between)
                runs = [m for m in range(n + 1) if c.table[m][t] and c.table[m][t][0] == f["name"]]
                same = [m for m in runs if c.table[m][t][3] == c.table[n][t][3]]
                last = max(same or runs)
                call = parse_pos(c.table[last][t][1])[2]
                first = min(m for m in range(c.end) if c.table[m][t] and c.table[m][t][0] == f["name"]
                            and parse_pos(c.table[m][t][1])[2] == call)
                if step != first or pos != c.table[first][t][1]:
                    failures.append("%s: at %s (step %d); the call began at step %d, %s" %
                                    (where, pos, step, first, c.table[first][t][1]))
                if s["threadId"] != t or s["reason"] != "restart":
                    failures.append("%s: stopped event %s" % (where, s))
                if [x["name"] for x in after] != [x["name"] for x in frames[level:]] or after[0]["line"] != parse_pos(pos)[3]:
                    failures.append("%s: stack after %s, before %s" % (where, [(x["name"], x["line"]) for x in after],
                                                                      [(x["name"], x["line"]) for x in frames]))
    d.close()
    return count


CASES = [
    # the vector kernel's two lanes, the cube, the host's group call and its wait
    Case("mlp", 22, "22_after_ExpandMixedKernel", 1, bp_lines=(35, 50, 16)),
    # SPMD blocks
    Case("spmd", 22, "22_after_ExpandMixedKernel", 1, bp_lines=(8, 15, 21)),
    # two ranks: a notify on rank 1, a wait on rank 0
    Case("multirank_signals", 2, "02_after_Handshake", 2, bp_lines=(22, 27)),
    # a kernel the host calls, on the device (AIV0) and in line on the host (--semantics=ref)
    Case("memory", 35, "35_after_AllocateMemoryAddr", 1, bp_lines=(13,)),
    Case("memory", 35, "35_after_AllocateMemoryAddr", 1, args=("--semantics=ref",), bp_lines=(9, 18)),
    # SPMD blocks parked at a system.syncall with their group run and resumed
    Case("../tests/data/device/syncall_barrier_kernel", 24, "24_after_SplitVectorKernel", 1, bp_lines=(12, 18)),
    # ... and parked with their frames on the launch's own core (the host)
    Case("../tests/data/device/syncall_barrier_call", 11, "11_after_ConvertTensorToTileOps", 1, bp_lines=(12, 19)),
]

failures = []
for c in CASES:
    c.straight()
    nb = check_step_back(c, failures)
    nr = check_reverse_continue(c, failures)
    nf = check_restart_frame(c, failures)
    print("%s pass %d%s: %d steps; stepBack %d, reverseContinue %d, restartFrame %d" %
          (c.name, c.pass_index, " " + " ".join(c.args) if c.args else "", c.end, nb, nr, nf))
for f in failures[:40]:
    print("FAIL", f)
print("%d disagreements" % len(failures))
sys.exit(1 if failures else 0)

#!/bin/sh
# Reverse execution against ground truth (tests/timetravel/seek_oracle.c)
# on every fixture pass with cross-core queues: a straight run logs every
# moment (the move that made it, each core's frames, line, state and
# arrival) and hashes the moments checked (cores, frames, slots, queues,
# tensor bytes). At each moment checked, for each core that arrived there,
# `seek @STEP`, `seek POSITION`, reverse-step + step, reverse-next + next,
# reverse-finish and reverse-continue + continue in a debugger session must
# land where the log says (step, core, state hash); nothing is skipped.
# A case of up to 1 MiB of data (ten of the twelve fixtures): every moment
# of every pass, with queues or without (--all 1), each a subject of all
# six commands. The larger cases, in fixture_case_dirs' cover: every boundary of
# the pass (its first and last, a call, a return, a core's end, a try that
# blocked on a queue, a group call's start and end, a change of a core's
# state, a landing that hands over to the caller, skips a wait or reaches
# the start) and 200 others at random. A boundary of a kind met before in
# the pass gets seek, seek POSITION, reverse-step + step and reverse-next +
# next, checked by step and core (and its state hash after seek @STEP); a
# pass whose moments go exactly as an earlier pass's (the same moves,
# arrivals, frames and states) the first moment of each kind of boundary
# and 20 others. The cases the cover leaves out repeat a covered program:
# the first moment of each kind of boundary and 20 others per pass; the
# large one (qwen3_scope3_h2048, 57 MiB of tensors) 10 others and the four
# commands above. With PTODB_FIXTURE_SUBSET=cover (scripts/test's sanitizer
# build and distcheck: the same code under ASan and UBSan, where the normal
# build checked every boundary already) every case is checked at each kind
# of boundary and 10 others, a twin pass at 2, and a case over 1 MiB of
# data with the four commands only; PTODB_FIXTURE_SUBSET=all (the normal
# build of scripts/test) is the depth above. Every moment of
# qwen3_scope3_h2048 is checked outside the gate (docs/time-travel.md).
# Checkpoints every 256 statements (set checkpoint-interval), so that the
# many jumps stay cheap and the searches cross interval boundaries often.
# A pass file with the bytes of an earlier one is the same program on the
# same data and is not run again (the driver counts it as identical), as
# --batch runs it once.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/fixture_lib.sh"
fixtures_or_skip
driver="$top_builddir/tests/timetravel/seek_oracle"
[ -x "$driver" ] || fail "missing $driver"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_STATE_HOME="$tmp/state" HOME="$tmp/home"
cover=$(PTODB_FIXTURE_SUBSET=cover fixture_case_dirs 2>/dev/null)
bad=0
for c in $(fixture_case_dirs); do
    depth="--positions 200 --boundaries all --twins 20"
    kib=$(du -sk "$c/data" 2>/dev/null | cut -f1)
    if [ "${kib:-0}" -le 1024 ]; then
        # up to 1 MiB of data: every moment of every pass, queues or not
        # (lanes, blocks, the host alone): 33 s of CPU for the ten such
        # fixtures, 19,000 moments
        depth="--positions all --boundaries all --twins all --all 1"
    elif ! printf '%s\n' "$cover" | grep -qxF "$c"; then
        depth="--positions 20 --boundaries kinds --twins 5"
        [ "${kib:-0}" -gt 8192 ] && depth="--positions 10 --boundaries kinds --twins 0 --checks core"
    fi
    if [ "${PTODB_FIXTURE_SUBSET:-}" = cover ]; then
        depth="--positions 10 --boundaries kinds --twins 2"
        # a case over 1 MiB of data (qwen3_scope3_910b) the four commands:
        # 13 s of CPU under ASan where all six took 50 s; the smaller cases
        # keep all six under ASan, the normal build all six on every case
        [ "${kib:-0}" -gt 1024 ] && depth="$depth --checks core"
    fi
    # over 1 MiB of data, a tensor's bytes are hashed again only where its
    # pages were written since (tests/timetravel/page_hash.c): the same
    # hashes, a third of the time on qwen3_scope3_h2048 (9 s against 26 s
    # with only the seeks' hash)
    [ "${kib:-0}" -gt 1024 ] && depth="$depth --hash-by pages"
    # shellcheck disable=SC2086
    out=$("$driver" "$c" $depth --gap 256 2>"$tmp/err")
    rc=$?
    echo "  $(basename "$c"): $out"
    [ "$rc" -eq 0 ] || { head -20 "$tmp/err" >&2; bad=1; }
done
[ "$bad" -eq 0 ] || fail "reverse execution differs from a straight run"

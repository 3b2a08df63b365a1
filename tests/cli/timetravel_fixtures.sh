#!/bin/sh
# Reverse execution against ground truth (tests/timetravel/seek_oracle.c):
# for every pass with cross-core queues of every fixture case, random
# moments of a straight run hashed (cores, frames, slots, queues, tensor
# bytes); `seek @STEP`, `seek POSITION` and `reverse-step` + `step` in a
# debugger session must reach the same hash; 0 may differ. 200 moments per
# pass of the cases in fixture_case_dirs' cover (40 with
# PTODB_FIXTURE_SUBSET, as scripts/test sets it); the large cases the cover
# leaves out repeat a covered program at scale: 20 per pass (hashing their
# tensors at every moment would take minutes). A pass file with the bytes of
# an earlier one is the same program on the same data and is not run again
# (the driver counts it as identical), as --batch runs it once.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/fixture_lib.sh"
fixtures_or_skip
driver="$top_builddir/tests/timetravel/seek_oracle"
[ -x "$driver" ] || fail "missing $driver"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_STATE_HOME="$tmp/state" HOME="$tmp/home"
n=200
[ -n "${PTODB_FIXTURE_SUBSET:-}" ] && n=40
cover=$(PTODB_FIXTURE_SUBSET=cover fixture_case_dirs 2>/dev/null)
bad=0
for c in $(fixture_case_dirs); do
    k=$n
    printf '%s\n' "$cover" | grep -qxF "$c" || k=20
    out=$("$driver" "$c" --positions "$k" 2>"$tmp/err")
    rc=$?
    echo "  $(basename "$c"): $out"
    [ "$rc" -eq 0 ] || { head -20 "$tmp/err" >&2; bad=1; }
done
[ "$bad" -eq 0 ] || fail "reverse execution differs from a straight run"

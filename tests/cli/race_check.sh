#!/bin/sh
# --race-check N reruns every pass under N random schedules. A program of ours
# whose AIC and AIV store to the same tensor with no queue between them is a
# race the GM race check names under the default schedule already
# (exec/gmrace.h), so --race-check has no output to compare there (its own
# finding, an output that changes, is tested in gm_race.sh on a race that
# check does not see); our examples and the fixture cases keep their outputs bit for bit
# under twenty schedules (five in the sanitizer build: below). The fixtures
# are taken as fixture_case_dirs' cover (every op, cross-core split mode and
# function type of the folder, smallest cases first): a large case that
# repeats a small one's program at scale adds no schedule the small one does
# not try, only minutes.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/fixture_lib.sh"
set -e
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM

npy_4x4() { # npy_4x4 FILE VALUE-BYTES: a version 1.0 .npy of a 4x4 '<f4' array filled with one float
    hdr="{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4), }"
    pad=$((128 - 10 - ${#hdr} - 1))
    {
        printf '\223NUMPY\001\000\166\000'; printf '%s' "$hdr"; printf '%*s\n' "$pad" ''
        i=0; while [ $i -lt 16 ]; do printf "$2"; i=$((i + 1)); done
    } >"$1"
}
d="$tmp/race"
mkdir -p "$d/passes_dump" "$d/data/in" "$d/data/out"
cp "$top_srcdir/tests/data/xcore/race.py" "$d/passes_dump/22_after_ExpandMixedKernel.py"
npy_4x4 "$d/data/in/a.npy" '\000\000\000\000'    # zeros
npy_4x4 "$d/data/out/out.npy" '\000\000\000\100' # 2.0: AIV's store lands last in the fixed order

run_ptodb --run "$d"
expect_eq "race program, fixed schedule: exit" 1 "$rc"
expect_contains "race flagged" "22_after_ExpandMixedKernel.py:15:9: in g_aiv: race: AIV0 writes out[0:4, 0:4] at 22:15:9 that AIC wrote at 22:10:9 (in g_aic) with no pipe or barrier between" "$out$err"
run_ptodb --run "$d" --race-check 20
expect_eq "race program: exit" 1 "$rc"
expect_contains "race check not run" "race check: not run, the pass stops under the default schedule" "$out"

run_ptodb --run "$top_srcdir/examples/mlp" --race-check 20
expect_eq "mlp: exit" 0 "$rc"
expect_eq "mlp: every pass checked" 7 "$(printf '%s\n' "$out" | grep -c '^race check: 20 random schedules, outputs unchanged')"

run_ptodb --run "$d" --race-check 0
expect_eq "bad count: exit" 2 "$rc"

if [ ! -d "$PTODB_FIXTURES" ]; then
    echo "SKIP fixtures part: no fixtures at $PTODB_FIXTURES"
    exit 0
fi
checked=0
# twenty schedules a pass; five where only the cover runs (the sanitizer
# build, PTODB_FIXTURE_SUBSET=cover): the same code under ASan and UBSan on
# fewer schedules (twenty took 42 s of CPU there, 13 s now); the normal build
# tries the twenty
n=20
[ "${PTODB_FIXTURE_SUBSET:-}" = cover ] && n=5
for c in $(PTODB_FIXTURE_SUBSET=cover fixture_case_dirs); do
    run_ptodb --run "$c" --ref=torch1.13 --race-check $n
    # a pass that stops under the default schedule (ctrl_while_950's
    # unchecked dumps) says "race check: not run"
    races=$(printf '%s\n' "$out" | grep '^race' | grep -v "^race check: not run," |
        grep -vc "^race check: $n random schedules, outputs unchanged" || true)
    [ "$races" -eq 0 ] || fail "$(basename "$c"): outputs change under random schedules: $(printf '%s\n' "$out" | grep '^race:' | head -3)"
    checked=$((checked + $(printf '%s\n' "$out" | grep -c "^race check: $n random")))
done
echo "race check: $checked fixture passes unchanged under $n random schedules each"

#!/bin/sh
# `why --json` on every fixture (but the large one), at passes before and
# after the tensor-to-tile conversion, the mixed-kernel split and the lane
# split and the last one, for two elements of each output (the one farthest
# from golden and element 0), aligned with pass 0: every chain must check
# out against check_chain.py's own arithmetic (connected; each hop's value
# is what its op makes of the inputs it lists). 0 failures allowed; a pass
# that cannot be run (broken IR, said so by why) is skipped and counted.
# A case whose golden follows the reference where the device computes
# otherwise (tests/data/device/fixture_goldens.txt: dyn_valid_shape_loop_910b,
# whose golden pads with REF's finite minimum where the device writes -inf)
# runs under --semantics=ref, where its outputs are the golden's; under the
# device's semantics its farthest element is a padded one (inf from golden).
. "$top_srcdir/tests/cli/lib.sh"
set -e
fixtures_or_skip
tmp=$(mktemp -d) || fail "mktemp"
export HOME="$tmp" XDG_STATE_HOME=
trap 'rm -rf "$tmp"' EXIT INT TERM
check="$top_srcdir/tests/data/why/check_chain.py"
chains=0 hops=0 skipped=0
chain() { # CASE PASS ELEMENT
    run_ptodb --batch "$1" $sem --nx -ex "pass $2" -ex "why --json $3 pass 0 depth 24"
    case $err in *"cannot be run:"*) skipped=$((skipped + 1)); return 1 ;; esac
    [ "$rc" = 0 ] || fail "$(basename "$1") pass $2 why $3: exit $rc: $err"
    printf '%s\n' "$out" | grep '^{' >"$tmp/chain.jsonl"
    python3 "$check" "$tmp/chain.jsonl" >"$tmp/check.out" || fail "$(basename "$1") pass $2 why $3: $(cat "$tmp/check.out")"
    chains=$((chains + 1))
    hops=$((hops + $(sed -n 's/^check_chain: \([0-9]*\) hops.*/\1/p' "$tmp/check.out")))
}
# Where only the cover runs (PTODB_FIXTURE_SUBSET=cover: the sanitizer
# build, distcheck), the cover's cases and the farthest element alone: the
# same code under ASan and UBSan at half the runs (22 s of CPU there with
# every case and both elements); the normal build checks them all.
. "$top_srcdir/tests/cli/fixture_lib.sh"
cover=0
[ "${PTODB_FIXTURE_SUBSET:-all}" = cover ] && cover=1
for c in $(fixture_case_dirs 2>/dev/null); do
    c=${c%/}
    [ "$(basename "$c")" = qwen3_scope3_h2048_i4096_910b ] && continue
    [ -d "$c/data/out" ] || continue
    sem=
    awk -v c="$(basename "$c")" '$1 == c { f = 1 } END { exit !f }' "$top_srcdir/tests/data/device/fixture_goldens.txt" &&
        sem=--semantics=ref
    for p in 00 11 22 24 49; do
        ls "$c/passes_dump/${p}_"*.py >/dev/null 2>&1 || continue
        for f in "$c"/data/out/*; do
            o=$(basename "$f" | sed 's/\.[a-z]*$//')
            chain "$c" "$p" "$o" || continue
            [ "$cover" -eq 0 ] || continue
            rank=$(sed -n 's/.*"type":"summary".*"index":\[\([0-9,]*\)\].*/\1/p' "$tmp/chain.jsonl" | tr -cd , | wc -c)
            zeros=0
            i=0
            while [ "$i" -lt "$rank" ]; do zeros="$zeros, 0"; i=$((i + 1)); done
            chain "$c" "$p" "$o[$zeros]"
        done
    done
done
[ "$chains" -gt 0 ] || skip "no fixture with outputs"
echo "why_fixtures: $chains chains, $hops hops checked ($skipped passes that do not run skipped)"

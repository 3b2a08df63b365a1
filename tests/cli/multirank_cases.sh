#!/bin/sh
# The multi-rank cases (../shared/multirank, or $PTODB_MULTIRANK): every
# folder with a ranks.txt, each checked against its own files, no case
# named here. Every dump file checks (PyPTO's own parser rejects the
# pl.builtin.tensor.* lines after LowerHostTensorCollectives; ptodb reads
# them); --info reports the rank count, every domain's device -> rank map
# as ranks.txt writes it, each rank's goldens as data/out/rank<R>/ holds
# them, and binds every host tensor parameter from the ranks' slices.
set -e
. "$top_srcdir/tests/cli/lib.sh"
root=${PTODB_MULTIRANK:-$(dirname "$PTODB_FIXTURES")/multirank}
[ -d "$root" ] || skip "multi-rank cases not found at $root (set PTODB_MULTIRANK)"
ncases=0
for case in "$root"/*/; do
    case=${case%/}
    [ -f "$case/ranks.txt" ] || continue
    ncases=$((ncases + 1))
    name=$(basename "$case")
    nfiles=$(ls "$case/passes_dump"/*.py | wc -l)
    run_ptodb --check "$case/passes_dump"
    expect_eq "$name: --check exit status ($err)" 0 "$rc"
    expect_contains "$name: --check count" "checked $nfiles files: 0 with errors, 0 errors" "$out$err"

    run_ptodb --info "$case"
    expect_eq "$name: --info exit status ($err)" 0 "$rc"
    p=$(sed -n 's/^ranks: *\([0-9][0-9]*\).*/\1/p' "$case/ranks.txt")
    expect_contains "$name: rank count" "ranks: $p ($case/ranks.txt)" "$out"
    nd=$(sed -n 's/^domains: *\([0-9][0-9]*\).*/\1/p' "$case/ranks.txt")
    [ -n "$nd" ] && expect_contains "$name: domain count" "comm domains: $nd" "$out"
    # each "device D -> rank R in NAME" of ranks.txt is D->R on NAME's line
    sed -n 's/^ *device \([0-9][0-9]*\) -> rank \([0-9][0-9]*\) in \([A-Za-z0-9_]*\).*/\1 \2 \3/p' "$case/ranks.txt" |
        while read -r d r dom; do
            line=$(printf '%s\n' "$out" | grep "^  $dom: devices") || fail "$name: no line for domain $dom"
            expect_contains "$name: device $d is rank $r in $dom" " $d->$r" "$line"
        done
    r=0
    while [ "$r" -lt "$p" ]; do
        ngold=0
        [ -d "$case/data/out/rank$r" ] && ngold=$(ls "$case/data/out/rank$r" | grep -c '\.pt$' || true)
        nin=0
        [ -d "$case/data/in/rank$r" ] && nin=$(ls "$case/data/in/rank$r" | grep -c '\.pt$' || true)
        expect_contains "$name: rank $r's data" "rank $r (device " "$out"
        expect_contains "$name: rank $r's counts" "inputs $nin, outputs (golden) $ngold" \
            "$(printf '%s\n' "$out" | grep "^rank $r (device ")"
        r=$((r + 1))
    done
    expect_contains "$name: host entry" "host entry: " "$out"
    run_ptodb --nw --nx -ex 'info ranks' -ex quit "$case"
    expect_contains "$name: info ranks" "Ranks:     $p ($case/ranks.txt)" "$out"
    expect_contains "$name: info ranks, rank 0" "Rank 0     device " "$out"
    case "$out" in
    *" unbound"*) printf '%s\n' "$out" | grep ' unbound' | grep -v ' scalar ' >/dev/null &&
        fail "$name: a host tensor parameter is unbound: $out" ;;
    esac
done
[ "$ncases" -gt 0 ] || skip "no folder with a ranks.txt in $root"
echo "checked $ncases multi-rank cases"

# A malformed ranks.txt in a case of our own: one error at file:line:col,
# exit status 2, and the single-rank reading of data/ untouched otherwise.
tmp=$(mktemp -d) || fail mktemp
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/c/passes_dump" "$tmp/c/data/in/rank0" "$tmp/c/data/in/rank7"
cat >"$tmp/c/passes_dump/00_frontend.py" <<'PY'
# pypto.program: P
import pypto.language as pl


@pl.program
class P:
    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)
    def main(self, a: pl.Tensor[[4], pl.FP32]) -> pl.Tensor[[4], pl.FP32]:
        return a
PY
printf 'ranks: 2\n  d: devices [0, 1]\n    device 1 -> rank 0 in d\n' >"$tmp/c/ranks.txt"
run_ptodb --info "$tmp/c"
expect_eq "bad ranks.txt: exit status" 2 "$rc"
expect_contains "bad ranks.txt: the error" "$tmp/c/ranks.txt:3:22: error: device 1 has rank 1 in 'd' by its devices list, not rank 0" "$err"
printf 'ranks: 2\n' >"$tmp/c/ranks.txt"
run_ptodb --info "$tmp/c"
expect_contains "stray rank folder" "$tmp/c/data/in/rank7: warning: ignored: not one of the 2 ranks" "$err"
expect_contains "no host function" "host entry: not determined" "$out"

# --batch on every case: every pass passes against golden, with one verdict
# per rank and output (rank<R>.<name>, each data/out/rank<R>/<name>.pt),
# and so under seeded random schedules (these programs are race-free).
for case in "$root"/*/; do
    case=${case%/}
    [ -f "$case/ranks.txt" ] || continue
    name=$(basename "$case")
    nfiles=$(ls "$case/passes_dump"/*.py | wc -l)
    for sched in fixed random:1 random:7; do
        run_ptodb --batch --schedule "$sched" "$case"
        expect_eq "$name ($sched): --batch exit status ($(printf '%s\n' "$out" | grep -m3 'error' || true))" 0 "$rc"
        expect_contains "$name ($sched): every pass passes" "$nfiles passes: $nfiles pass, 0 fail" "$out"
        for g in "$case"/data/out/rank*/*.pt; do
            [ -f "$g" ] || continue
            r=$(basename "$(dirname "$g")")
            k=$(basename "$g" .pt)
            n=$(printf '%s\n' "$out" | grep -c "validate tensor: '$r.$k', max_abs_diff: .*, pass: True" || true)
            expect_eq "$name ($sched): verdicts of $r.$k" "$nfiles" "$n"
        done
    done
    # the debugger runs the same schedule: the last pass's every golden passes
    last=$(ls "$case/passes_dump"/*.py | tail -1)
    run_ptodb --nw --nx -ex "pass $(basename "$last" .py)" -ex run -ex 'info ranks' -ex quit "$case"
    for g in "$case"/data/out/rank*/*.pt; do
        [ -f "$g" ] || continue
        r=$(basename "$(dirname "$g")")
        expect_contains "$name: the debugger's $r.$(basename "$g" .pt)" \
            "validate tensor: '$r.$(basename "$g" .pt)', max_abs_diff: " "$out"
    done
    case "$out" in *"pass: False"*) fail "$name: the debugger's run fails a golden: $out" ;; esac
    expect_contains "$name: the debugger's verdict" "* rank 0   finished verdict pass" "$out"
    run_ptodb --batch "$case" --json - --junit "$tmp/junit.xml"
    expect_contains "$name: JSON names the rank's output" "\"key\": \"rank0." "$out"
    expect_contains "$name: JSON says the rank count" "\"ranks\": $(sed -n 's/^ranks: *\([0-9][0-9]*\).*/\1/p' "$case/ranks.txt")" "$out"
    expect_contains "$name: JUnit testcase per rank and output" "name=\"00_frontend/rank0." "$(cat "$tmp/junit.xml")"
done

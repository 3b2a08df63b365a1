#!/bin/sh
# ptodb reduce on planted broken copies of the fixtures, made here in a
# temporary folder (the fixtures are never touched):
#  - one copy (softmax, row_expand_div -> row_expand_mul in pass 32 and
#    after): the reduced case folder has PyPTO's layout; its files pass
#    --check and reprint byte for byte; its fingerprint, computed again from
#    the folder alone, is the copy's (no slippage); --batch --bisect on it
#    fails (exit 1) at the planted statement; its .pt files load; the README
#    has the pass-bug template's sections; --out inside a case is refused;
#  - Ctrl-C (SIGINT) during a reduction leaves a valid case;
#  - the corpus (scripts/reduce-corpus --set small: 12 copies, wrong
#    offsets, swapped operands, flipped if, loop bounds, changed ops) keeps
#    the fingerprint in every copy and every file valid, with a small
#    budget; the full table over the large fixtures is the script's.
. "$top_srcdir/tests/cli/lib.sh"
set -e
fixtures_or_skip
src="$PTODB_FIXTURES/softmax_910b"
[ -d "$src/passes_dump" ] || skip "fixture softmax_910b not found"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM

mkdir "$tmp/copy"
cp -RL "$src/passes_dump" "$src/data" "$tmp/copy/"
for f in "$tmp"/copy/passes_dump/*.py; do
    n=$(basename "$f" | cut -c1-2)
    [ "$n" -ge 32 ] 2>/dev/null || continue
    sed -i 's/pl\.tile\.row_expand_div(/pl.tile.row_expand_mul(/' "$f"
done
run_ptodb reduce "$tmp/copy" --fingerprint
expect_eq "fingerprint exit" 0 "$rc"
fp0=$out
expect_contains "fingerprint: the planted op" '"statement": "result__ssa_v0", "op": "row_expand_mul"' "$fp0"
expect_contains "fingerprint: the pass" '"pass": "InitMemRef"' "$fp0"

run_ptodb reduce "$tmp/copy" --out "$tmp/red" --budget 60
expect_eq "reduce exit" 0 "$rc"
expect_contains "reduce: log" "reduce: fingerprint: pass InitMemRef, function tile_softmax_incore_0, statement 'result__ssa_v0' (op row_expand_mul)" "$out"
expect_contains "reduce: counts" "delete" "$out"
for f in passes_dump/31_after_MaterializeTensorStrides.py passes_dump/32_after_InitMemRef.py data/in/a.pt \
    data/out/output.pt fingerprint.json README.md reduce.log; do
    [ -f "$tmp/red/$f" ] || fail "reduced case: no $f"
done
[ "$(ls "$tmp/red/passes_dump" | wc -l)" -eq 2 ] || fail "reduced case: not two dump files"
run_ptodb --check "$tmp/red/passes_dump"
expect_eq "reduced files check" 0 "$rc"
for f in "$tmp"/red/passes_dump/*.py; do
    "$PTODB" --print "$f" | cmp -s - "$f" || fail "$f does not reprint byte for byte"
done
run_ptodb reduce "$tmp/red" --fingerprint
expect_eq "reduced fingerprint exit" 0 "$rc"
expect_eq "no slippage" "$fp0" "$out"
expect_eq "fingerprint.json" "$fp0" "$(cat "$tmp/red/fingerprint.json")"
run_ptodb --batch "$tmp/red" --bisect --bisect-scan
expect_eq "reduced case fails" 1 "$rc"
expect_contains "reduced case: the statement" "tensor 'result__ssa_v0' (function tile_softmax_incore_0" "$out"
expect_contains "reduced case: the op" "its op changed: row_expand_mul where the passing pass has row_expand_div" "$out"
run_ptodb --info "$tmp/red/data/out/output.pt"
expect_eq "golden .pt loads" 0 "$rc"
for section in "## Pass Name" "## Git Commit ID" "## Before IR (Input)" "## Expected IR (After Transformation)" \
    "## Actual IR or Error" "## Additional Context" "ptodb --batch"; do
    grep -qF "$section" "$tmp/red/README.md" || fail "README: no '$section'"
done
# smaller than the pass (a hand count of softmax's kernel: 12 statements before InitMemRef,
# 20 after it with the allocations; load, row_sum's create, row_sum, the op, store, return remain)
before=$(sed -n 's/^reduce: statements: .*failing file \([0-9]*\) -> \([0-9]*\).*/\1/p' "$tmp/red/reduce.log")
after=$(sed -n 's/^reduce: statements: .*failing file \([0-9]*\) -> \([0-9]*\).*/\2/p' "$tmp/red/reduce.log")
[ -n "$after" ] && [ "$after" -lt "$before" ] || fail "not smaller: $before -> $after"

# deterministic: the same case and options give the same folder (the search ended
# 1-minimal, not on the budget, so no timing decides what was tried)
grep -q "1-minimal" "$tmp/red/reduce.log" || fail "the first reduction did not end 1-minimal"
run_ptodb reduce "$tmp/copy" --out "$tmp/red2" --budget 60
expect_eq "second reduce exit" 0 "$rc"
for f in $(cd "$tmp/red" && find passes_dump data fingerprint.json -type f | sort); do
    cmp -s "$tmp/red/$f" "$tmp/red2/$f" || fail "not deterministic: $f differs between two runs"
done
[ "$(cd "$tmp/red" && find passes_dump data -type f | sort)" = "$(cd "$tmp/red2" && find passes_dump data -type f | sort)" ] ||
    fail "not deterministic: the two folders hold other files"

# --out never inside a case folder
run_ptodb reduce "$tmp/copy" --out "$tmp/copy/out"
expect_eq "out inside the case" 2 "$rc"
expect_contains "out inside: said" "is inside the case folder" "$err"
run_ptodb reduce "$tmp/copy" --out "$tmp/copy/passes_dump"
expect_eq "out = passes_dump" 2 "$rc"
run_ptodb reduce "$tmp/copy" --budget 10x
expect_eq "bad budget" 2 "$rc"
run_ptodb reduce "$src" --out "$tmp/none"
expect_eq "nothing to reduce" 2 "$rc"
expect_contains "nothing to reduce: said" "no failing pass" "$err"

# Ctrl-C: the folder is a valid case (the best so far)
"$PTODB" reduce "$tmp/copy" --out "$tmp/int" --ddmin-lines >"$tmp/int.out" 2>&1 &
pid=$!
sleep 1
kill -INT $pid 2>/dev/null || true
set +e
wait $pid
irc=$?
set -e
expect_eq "interrupted exit" 0 "$irc"
run_ptodb --check "$tmp/int/passes_dump"
expect_eq "interrupted: files check" 0 "$rc"
run_ptodb reduce "$tmp/int" --fingerprint
expect_eq "interrupted: fingerprint kept" "$fp0" "$out"

# the corpus
[ -x /usr/bin/python3 ] || { echo "no python3: corpus skipped"; exit 0; }
/usr/bin/python3 "$top_srcdir/scripts/reduce-corpus" --set small --budget 30 --no-ddmin --ptodb "$PTODB" \
    --fixtures "$PTODB_FIXTURES" || fail "corpus: slippage or invalid files"

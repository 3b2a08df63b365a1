#!/bin/sh
# --batch --bisect names the first failing pass, and the line and tensor of
# the first statement whose value differs from the last passing pass:
#  - on examples/mlp-broken, what BUG.txt says (pass, line, tensor);
#  - on a fixture copied to a temporary folder with one op flipped
#    (tile.add -> tile.sub) in one middle pass only: the later passes pass
#    again, so the verdicts are not monotone and the confirming scan must
#    find the flip and report the recovery;
#  - on the same copy with the flip carried into every later pass, as a real
#    miscompile would be: the binary search alone finds it, in about log2(50)
#    evaluations.
# The fixtures are never modified: only the copy is.
. "$top_srcdir/tests/cli/lib.sh"
set -e

# fields of the "first divergence: FILE:LINE: tensor 'NAME' ..." line
divergence() {
    printf '%s\n' "$1" | sed -n "s/^first divergence: \(.*\):\([0-9][0-9]*\): tensor '\([^']*\)'.*/\1 \2 \3/p"
}

bug="$top_srcdir/examples/mlp-broken/BUG.txt"
want_file=$(sed -n 's/^file: //p' "$bug")
want_line=$(sed -n 's/^line: //p' "$bug")
want_tensor=$(sed -n 's/^tensor: //p' "$bug")
want_pass=$(basename "$want_file" .py)
run_ptodb --batch "$top_srcdir/examples/mlp-broken" --bisect
expect_eq "mlp-broken exit" 1 "$rc"
expect_contains "mlp-broken first bad pass" "bisect: first failing pass: $want_pass (" "$out"
set -- $(divergence "$out")
[ $# -eq 3 ] || fail "mlp-broken: no first divergence line in: $out"
case "$1" in */"$want_file") ;; *) fail "mlp-broken: divergence in $1, BUG.txt says $want_file" ;; esac
expect_eq "mlp-broken line" "$want_line" "$2"
expect_eq "mlp-broken tensor" "$want_tensor" "$3"
# the same through the JSON report
run_ptodb --batch "$top_srcdir/examples/mlp-broken" --bisect --json=- -j 1
expect_eq "mlp-broken json exit" 1 "$rc"
got=$(printf '%s\n' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)["bisect"]
s = d["statement"]
print(d["first_bad"], s["line"], s["tensor"], d["monotone"])')
expect_eq "mlp-broken json bisect" "$want_pass $want_line $want_tensor True" "$got"

# the debugger's `bisect` command: same answer, and it selects the pass
XDG_STATE_HOME=$(mktemp -d) && export XDG_STATE_HOME || fail "mktemp"
run_ptodb --nw --nx -ex "open $top_srcdir/examples/mlp-broken" -ex bisect -ex pass </dev/null
rm -rf "$XDG_STATE_HOME"
expect_eq "debugger bisect exit" 0 "$rc"
expect_contains "debugger bisect: pass" "bisect: first failing pass: $want_pass (" "$out"
set -- $(divergence "$out")
expect_eq "debugger bisect: line" "$want_line" "$2"
expect_eq "debugger bisect: tensor" "$want_tensor" "$3"
expect_contains "debugger bisect selects the pass" "\`break $want_line\` then \`run\` stops at the first differing statement." "$out"
expect_eq "debugger bisect: current pass" "Pass 11: ConvertTensorToTileOps ($top_srcdir/examples/mlp-broken/$want_file)" \
    "$(printf '%s\n' "$out" | grep '^Pass 11:' | tail -1)"

fixtures_or_skip
case_name=paged_attention_910b
src="$PTODB_FIXTURES/$case_name"
[ -d "$src/passes_dump" ] || skip "fixture $case_name not found"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
cp -r "$src" "$tmp/"
bad_pass=30_after_CanonicalizeIOOrder
file="$tmp/$case_name/passes_dump/$bad_pass.py"
line=$(grep -n 'li_updated__ssa_v0: .* = pl\.tile\.add(' "$file" | head -1 | cut -d: -f1)
[ -n "$line" ] || fail "no tile.add line for li_updated in $file"
sed -i "${line}s/pl\.tile\.add(/pl.tile.sub(/" "$file"
grep -q 'pl\.tile\.sub(li_scaled' "$file" || fail "sed did not flip the op"

run_ptodb --batch "$tmp/$case_name" --ref=torch1.13 --bisect
expect_eq "flipped op exit" 1 "$rc"
expect_contains "flipped op: first bad pass" "bisect: first failing pass: $bad_pass (" "$out"
expect_contains "flipped op: not monotone" "NOT monotone: passes failing right after a passing one: $bad_pass;" "$out"
set -- $(divergence "$out")
expect_eq "flipped op: file" "$file" "$1"
expect_eq "flipped op: line" "$line" "$2"
expect_eq "flipped op: tensor" "li_updated__ssa_v0" "$3"

# carry the flip into every later pass: monotone, the binary search finds it
for f in "$tmp/$case_name"/passes_dump/*.py; do
    n=$(basename "$f" | cut -c1-2)
    [ "$n" -gt 30 ] 2>/dev/null || continue
    sed -i 's/\(li_updated__ssa_v0: .* = pl\.tile\.\)add(/\1sub(/' "$f"
done
run_ptodb --batch "$tmp/$case_name" --ref=torch1.13 --bisect
expect_eq "persistent flip exit" 1 "$rc"
expect_contains "persistent flip: first bad pass" "bisect: first failing pass: $bad_pass (last passing pass before it: 29_" "$out"
expect_contains "persistent flip: monotone" "confirmed, the verdict flips once from pass to fail" "$out"
probes=$(printf '%s\n' "$out" | sed -n 's/^bisect: the binary search looked at \([0-9]*\) of.*/\1/p')
[ -n "$probes" ] && [ "$probes" -le 8 ] || fail "persistent flip: $probes passes looked at, expected at most 2 + log2(50)"
set -- $(divergence "$out")
expect_eq "persistent flip: line" "$line" "$2"
expect_eq "persistent flip: tensor" "li_updated__ssa_v0" "$3"
echo "bisect: $probes passes looked at on $case_name (50 passes)"
exit 0

#!/bin/sh
# --batch --bisect names the first failing pass, and the line and tensor of
# the first statement whose value differs from the last passing pass, on
# examples/mlp-broken: what BUG.txt says (pass, line, tensor), in the text
# report, the JSON report and through the debugger's `bisect` command.
# tests/cli/batch_bisect_fixture.sh does the same on a broken fixture copy.
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
# the same through the JSON report; --bisect-scan: the confirming scan runs
# whatever its estimated cost (without it, a slow machine or valgrind skips
# it and "monotone" is null)
run_ptodb --batch "$top_srcdir/examples/mlp-broken" --bisect --bisect-scan --json=- -j 1
expect_eq "mlp-broken json exit" 1 "$rc"
got=$(printf '%s\n' "$out" | /usr/bin/python3 -c '
import json, sys
d = json.load(sys.stdin)["bisect"]
s = d["statement"]
print(d["first_bad"], s["line"], s["tensor"], d["scanned"], d["monotone"])')
expect_eq "mlp-broken json bisect" "$want_pass $want_line $want_tensor True True" "$got"
run_ptodb --batch "$top_srcdir/examples/mlp-broken" --bisect-scan
expect_eq "--bisect-scan without --bisect: exit" 2 "$rc"
expect_contains "--bisect-scan without --bisect" "--bisect-scan goes with --bisect" "$err"

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
exit 0

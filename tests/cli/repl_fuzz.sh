#!/bin/sh
# Hostile input at the prompt: a few thousand command lines built from the
# command vocabulary with random, broken and extreme arguments (fixed seed),
# fed to one session on our cross-core example. ptodb must answer every
# line and exit normally: no crash, no sanitizer report, no hang.
set -e
. "$top_srcdir/tests/cli/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v seed="${REPL_FUZZ_SEED:-42}" -v n="${REPL_FUZZ_LINES:-3000}" 'BEGIN {
    srand(seed)
    split("run start continue step next finish until kill core queue break tbreak watch condition ignore enable disable delete print display undisplay diff export backtrace frame up down info pass list open set show echo help define document save source", cmds, " ")
    split("0 1 -1 22 57 99999999999999999999 -9223372036854775808 x out out__ssa_v0 t__tile_6 golden.out golden. [ ] [0 [0:2 [::0] [1,2,3,4,5,6,7,8,9] [-1] [0:2, 0:3] list next prev diff aic aiv0 aiv1 host nan inf pass /x/ /[/ if max if nan and or > 1e308 % \"\" \" $arg0 $bpnum $argc - -f elements rtol atol ref torch1.13 auto-load safe-path 22_after_ExpandMixedKernel.py:57 x.py:1 :1 mlp_fused_aiv breakpoints locals args display frame case passes session end", args, " ")
    nc = length(cmds); na = length(args)
    for (i = 0; i < n; i++) {
        line = cmds[int(rand() * nc) + 1]
        k = int(rand() * 4)
        for (j = 0; j < k; j++) line = line " " args[int(rand() * na) + 1]
        if (rand() < 0.02) { line = ""; for (j = 0; j < 300; j++) line = line "[" }
        # keep the run bounded: no endless define/commands bodies, no quitting
        if (line ~ /^(define|document|commands)/) line = line "\nend"
        if (line ~ /^(export)/) line = "export out '"$tmp"'/f" i ".npy"
        if (line ~ /^(save|source)/) line = "save session '"$tmp"'/s.ptodb"
        if (line ~ /^open/) line = "open '"$top_srcdir"'/examples/mlp-broken"
        print line
    }
    print "quit"
}' >"$tmp/in"
set +e
(cd "$tmp" && HOME="$tmp" XDG_STATE_HOME="$tmp/state" timeout $((300 * wait_scale)) "$PTODB" --nw --nx "$top_srcdir/examples/mlp-broken" \
    <"$tmp/in" >"$tmp/out" 2>&1)
rc=$?
set -e
if [ $rc -ne 0 ] || grep -q "Sanitizer\|runtime error:" "$tmp/out"; then
    grep -n -B3 -A30 "Sanitizer\|runtime error:" "$tmp/out" | head -80 >&2
    tail -20 "$tmp/out" >&2
    fail "ptodb exited with $rc on hostile input"
fi
echo "repl_fuzz: $(wc -l <"$tmp/in") lines answered"

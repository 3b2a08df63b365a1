#!/bin/sh
# The divergence engine on two real PyPTO miscompiles (docs/historical.md),
# written small by scripts/gen_hist_cases.py into tests/data/hist/: each buggy
# copy holds the fixed compiler's text of the pass (passing) before the buggy
# compiler's. bisect, --compare against the fixed copy and why must name the
# same FILE:LINE, the statement the bug miscompiled, with the same reason.
#
# continue_phi (PyPTO #652, fixed by 79a52f1c6): the else branch yields the
# loop's carry x_iter_1 instead of y. The first value that differs is that
# yield's (line 14), not the add of the next iteration that consumes it.
# continue_carry: the same bug against the real pass before it, UnrollLoops'
# `if i < 5: continue` with no if-yield to match: the loop's carry after
# iteration 5 differs, laid to the statement that made it (line 14), not to
# the next iteration's add that reads it (13).
# gm_race (PyPTO #1433, fixed by 63614e60f): no pipe between the cube lane's
# store of kv (line 14) and the vector lanes' load of it (line 20). Under
# the fixed schedule the cube stores first and the values come out right,
# but the GM race check (exec/gmrace.h) finds the load reading another
# core's bytes with no pipe or barrier after their store: the pass fails at
# the load. Under --schedule aiv-first the load runs first and reads zeros;
# the check stops the run at the store, over what the load read; either way
# every command blames the load, lane/core (another core's data).
# nd_assemble (PyPTO #2405, fixed by ec1baa88c): the flattened [32, 16]
# tile.assemble keeps its rank-3 offset [2, 0, 0] (line 10); the pass before
# holds the [4, 8, 16] tile: the same elements, compared in row-major order.
. "$top_srcdir/tests/cli/lib.sh"
set -e

d="$top_srcdir/tests/data/hist"
field() { # JSON on stdin: the first "KEY": VALUE (a number or a string without commas)
    tr ',' '\n' | sed -n "s/.*\"$1\": *\"\{0,1\}\([^\",}]*\).*/\1/p" | head -n 1
}

check() { # NAME LINE REASON [OPTION...]
    name=$1 line=$2 reason=$3
    shift 3
    "$PTODB" "$@" --nx --batch "$d/${name}_fixed" >/dev/null 2>&1 || fail "$name: the fixed copy does not pass"
    if "$PTODB" "$@" --nx --batch "$d/${name}_buggy" >/dev/null 2>&1; then fail "$name: the buggy copy passes"; fi
    out=$("$PTODB" "$@" --batch --bisect "$d/${name}_buggy" --nx --json - 2>/dev/null | tr -d '\n' | sed 's/.*"statement": *//')
    [ "$(printf '%s' "$out" | field line)" = "$line" ] || fail "$name: bisect names line $(printf '%s' "$out" | field line), not $line"
    [ "$(printf '%s' "$out" | field reason)" = "$reason" ] || fail "$name: bisect's reason is not $reason"
    out=$("$PTODB" "$@" --compare "$d/${name}_fixed" "$d/${name}_buggy" --nx --json - 2>/dev/null | tr -d '\n' | sed 's/.*"statement": *//')
    [ "$(printf '%s' "$out" | field line)" = "$line" ] || fail "$name: --compare names line $(printf '%s' "$out" | field line), not $line"
    [ "$(printf '%s' "$out" | field reason)" = "$reason" ] || fail "$name: --compare's reason is not $reason"
    pass=$(ls "$d/${name}_buggy/passes_dump" | sed -n '2s/^\([0-9]*\)_.*/\1/p')
    output=$(ls "$d/${name}_buggy/data/out" | sed -n '1s/\.npy$//p')
    out=$(printf 'pass %s\nrun\nwhy --json %s\n' "$pass" "$output" | "$PTODB" "$@" --nw --nx "$d/${name}_buggy" 2>&1 | grep '"type":"summary"')
    [ "$(printf '%s' "$out" | field blame_line)" = "$line" ] || fail "$name: why names line $(printf '%s' "$out" | field blame_line), not $line"
    [ "$(printf '%s' "$out" | field reason)" = "$reason" ] || fail "$name: why's reason is not $reason"
}

check continue_phi 14 op
check continue_carry 14 op
check gm_race 20 lane/core --schedule aiv-first
check gm_race 20 lane/core
check nd_assemble 10 op
# the race line names both statements, both cores and the region (the load
# of lane 0's first row half, the store of the whole tile), by hand from
# the dump: pass 22, load at 20:13, store at 14:9
out=$("$PTODB" --nx --batch "$d/gm_race_buggy" 2>&1) && fail "gm_race: passes under the fixed schedule"
printf '%s\n' "$out" | grep -q '22_after_ExpandMixedKernel.py:20:57: in fused_aiv: race: AIV0 reads kv\[0:1, 0:8\] at 22:20:13 that AIC wrote at 22:14:9 (in fused_aic) with no pipe or barrier between' ||
    fail "gm_race: no race line at the load: $out"
out=$("$PTODB" --schedule aiv-first --nx --batch "$d/gm_race_buggy" 2>&1) && fail "gm_race: passes under aiv-first"
printf '%s\n' "$out" | grep -q 'race: AIC writes kv\[0:16, 0:16\] at 22:14:9 that AIV0 read at 22:20:13 (in fused_aiv)' ||
    fail "gm_race: no race line at the store under aiv-first: $out"
echo "ok"

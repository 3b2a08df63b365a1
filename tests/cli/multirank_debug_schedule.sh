#!/bin/sh
# The debugger's `schedule` and `comm-order` settings on a multi-rank case
# are the global schedule --batch's --schedule and --comm-order choose
# (run_ranks_start: ranks_sched_new reads the same options).
#  tests/data/multirank/race_remote_store: rank 0 reads its window while
#    rank 1 remote-stores into it. Breakpoints on both statements: the first
#    stop is rank 0's under `fixed` (the lowest rank runs until it parks),
#    rank 1's under random:3 (its seeded draw puts rank 1 first; the setting
#    is not ignored); and the race report at the end of the run, under
#    fixed, random:3 and random:7, is --batch --schedule's word for word.
#  our #2397 reproducer (tests/data/multirank/order_2397, goldens as
#    multirank_deadlock.sh derives them): `set comm-order ready` reports
#    --batch --comm-order ready's deadlock line for line; `program` passes.
#  every real program (../shared/multirank, skipped when absent): under
#    `set schedule random:7`, run then continue gives every pass's validate
#    lines of --batch --schedule random:7.
set -e
. "$top_srcdir/tests/cli/lib.sh"
tmp=$(mktemp -d) || fail mktemp
trap 'rm -rf "$tmp"' EXIT
# the report lines of a run, without the debugger's "FILE:N: " or --batch's "error: " prefix
reports() { printf '%s\n%s\n' "$1" "$2" | grep -E 'passes_dump/.*: (race|deadlock|in |lost)|^ *rank [0-9]+ \(device|not yet run' |
    sed -e 's/^[^ ]*cmds:[0-9]*: //' -e 's/^error: //' -e "s|$tmp/||g" | sort; }
validates() { printf '%s\n' "$1" | grep "^validate tensor: " | sort; }

c="$top_srcdir/tests/data/multirank/race_remote_store"
f="$c/passes_dump/00_frontend.py"
write_line=$(grep -n 'pld.tile.remote_store(' "$f" | cut -d: -f1)
read_line=$(grep -n 't: pl.Tile.*= pl.tile.load(data' "$f" | sed -n 2p | cut -d: -f1)
first_stmt_writer=$((write_line - 2))
for sched in fixed random:3; do
    printf 'set schedule %s\nbreak %s\nbreak %s\nrun\n' "$sched" "$first_stmt_writer" "$read_line" >"$tmp/cmds"
    run_ptodb --nw --nx -x "$tmp/cmds" "$c"
    first=$(printf '%s\n' "$out" | grep '^Breakpoint [0-9],' | head -1)
    case $sched in
    fixed) expect_contains "fixed: rank 0 first" "Breakpoint 2, [rank 0, host] reader at 00_frontend.py:$read_line" "$first" ;;
    *) expect_contains "$sched: rank 1 first" "Breakpoint 1, [rank 1, host] writer at 00_frontend.py:$first_stmt_writer" "$first" ;;
    esac
done
for sched in fixed random:3 random:7; do
    printf 'set schedule %s\nrun\ncontinue\n' "$sched" >"$tmp/cmds"
    run_ptodb --nw --nx -x "$tmp/cmds" "$c"
    dbg=$(reports "$out" "$err")
    run_ptodb --batch --schedule "$sched" "$c"
    bat=$(reports "$out" "$err")
    [ -n "$bat" ] || fail "$sched: --batch reported nothing"
    expect_eq "$sched: the debugger's reports are --batch's" "$bat" "$dbg"
done

tool="$top_builddir/tests/unit/check_data_tool"
o="$tmp/order_2397"
cp -R "$top_srcdir/tests/data/multirank/order_2397" "$o"
chmod -R u+w "$o"
for r in 0 1; do
    mkdir -p "$o/data/out/rank$r"
    "$tool" fill pt "$o/data/out/rank$r/y.pt" fp32 1 1 8
    "$tool" fill pt "$o/data/out/rank$r/z.pt" fp32 1 1 8
    "$tool" fill pt "$o/data/out/rank$r/w.pt" fp32 2 1 8
done
printf 'set comm-order ready\nrun\ninfo ranks\n' >"$tmp/cmds"
run_ptodb --nw --nx -x "$tmp/cmds" "$o"
dbg=$(reports "$out" "$err")
expect_contains "ready: the deadlock" "deadlock: every rank that has work left is parked" "$dbg"
expect_contains "ready: the run stopped" "Pass 0 frontend stopped with an error." "$out"
run_ptodb --batch --comm-order ready "$o"
bat=$(reports "$out" "$err")
expect_eq "ready: the debugger's deadlock report is --batch's" "$bat" "$dbg"
printf 'set comm-order program\nrun\n' >"$tmp/cmds"
run_ptodb --nw --nx -x "$tmp/cmds" "$o"
expect_eq "program order: no report" "" "$(reports "$out" "$err")"
expect_eq "program order: every output passes" 6 "$(printf '%s\n' "$out" | grep -c "^validate tensor: 'rank[01]\.[yzw]', max_abs_diff: 0.000000e+00, pass: True")"
printf 'set comm-order sideways\n' >"$tmp/cmds"
run_ptodb --nw --nx -x "$tmp/cmds" "$o"
expect_contains "a bad comm-order" 'comm-order must be program or ready, got "sideways"' "$err"

root=${PTODB_MULTIRANK:-$(dirname "$PTODB_FIXTURES")/multirank}
[ -d "$root" ] || skip "multi-rank cases not found at $root (set PTODB_MULTIRANK); our programs' checks passed"
printf 'set schedule random:7\nrun\ncontinue\n' >"$tmp/cmds"
n=0
for case in "$root"/*/; do
    case=${case%/}
    [ -f "$case/ranks.txt" ] || continue
    n=$((n + 1))
    name=$(basename "$case")
    run_ptodb --nw --nx -x "$tmp/cmds" "$case"
    expect_contains "$name: the last pass" "The last pass has finished." "$out"
    dbg=$(validates "$out")
    run_ptodb --batch --schedule random:7 "$case"
    bat=$(validates "$out")
    [ -n "$bat" ] || fail "$name: --batch validated nothing"
    expect_eq "$name: random:7's validate lines are --batch's" "$bat" "$dbg"
done
[ "$n" -gt 0 ] || skip "no folder with a ranks.txt in $root"

#!/bin/sh
# `why` and `bisect` on hand-made broken copies of the fixtures
# (scripts/plant_why: a wrong offset, a lane's offset, swapped operands of a
# sub and of a matmul, a split's lane stride, loop bounds and a loop step,
# planted into a temporary folder, never into the case). For every copy
# where bisect finds the failing pass, `why` on the worst output element,
# aligned with the last passing pass, must name an edited line as its first
# differing hop (or, for an element never written, the loop header where
# the passes part), and its chain must check out (check_chain.py). bisect
# must name the load for the lane offset, the loop header for the step, and
# the push for the lane stride, not the statement consuming what they made.
# Prints the table: copy, bisect pass, why's hop, edited lines, match.
. "$top_srcdir/tests/cli/lib.sh"
set -e
fixtures_or_skip
tmp=$(mktemp -d) || fail "mktemp"
export HOME="$tmp/home" XDG_STATE_HOME=
mkdir -p "$HOME"
trap 'rm -rf "$tmp"' EXIT INT TERM
python3 "$top_srcdir/scripts/plant_why" -o "$tmp/copies" "$PTODB_FIXTURES" >"$tmp/list" 2>"$tmp/plant.err" ||
    skip "plant_why: $(cat "$tmp/plant.err")"
check="$top_srcdir/tests/data/why/check_chain.py"
printf '%-44s %-28s %-9s %-14s %s\n' copy "bisect pass" "why line" "edited lines" match
n=0
while read -r d; do
    fault=$(sed -n 's/^fault //p' "$d/planted.txt")
    lines=$(sed -n 's/^lines //p' "$d/planted.txt")
    run_ptodb --batch "$d" --nx --bisect
    bad=$(printf '%s\n' "$out" | sed -n 's/^bisect: first failing pass: \([0-9A-Za-z_]*\) .*/\1/p')
    [ -n "$bad" ] || { printf '%-44s %s\n' "${d##*/}" "(bisect finds no failing pass)"; continue; }
    bline=$(printf '%s\n' "$out" | sed -n "s/^first divergence: .*\.py:\([0-9][0-9]*\): .*/\1/p")
    output=$(ls "$d/data/out" | sed -n '1s/\.[a-z]*$//p')
    pass=${bad%%_*}
    run_ptodb --batch "$d" --nx -ex "pass $pass" -ex "why $output"
    expect_eq "$fault: why exit" 0 "$rc"
    wline=$(printf '%s\n' "$out" | sed -n 's/^first differing hop: #[0-9]*, line \([0-9]*\).*/\1/p;s/^where the passes part: line \([0-9]*\).*/\1/p')
    match=no
    for l in $lines; do [ "$l" = "$wline" ] && match=yes; done
    printf '%-44s %-28s %-9s %-14s %s\n' "${d##*/}" "$bad" "${wline:-none}" "$lines" "$match"
    [ "$match" = yes ] || fail "$fault: why names line ${wline:-none}, the edit is at $lines:
$out"
    run_ptodb --batch "$d" --nx -ex "pass $pass" -ex "why --json $output"
    printf '%s\n' "$out" | grep '^{' >"$tmp/chain.jsonl"
    python3 "$check" "$tmp/chain.jsonl" >"$tmp/check.out" || fail "$fault: $(cat "$tmp/check.out")"
    case $fault in
    offset_lane | loop_step | split_stride)
        bmatch=no
        for l in $lines; do [ "$l" = "$bline" ] && bmatch=yes; done
        [ "$bmatch" = yes ] || fail "$fault: bisect names line $bline, the edit is at $lines" ;;
    esac
    n=$((n + 1))
done <"$tmp/list"
[ "$n" -ge 4 ] || fail "only $n copies checked"

# diff's fallback (issue #31's own example): stopped after the wrong load in
# call 2 (o0=64), the tile has no counterpart by data in pass 23; the same
# position there says what differs: the region read
d="$tmp/copies/qwen3_scope3_910b__offset_load"
run_ptodb --batch "$d" --nx -ex 'pass 24' -ex 'break 143' -ex run -ex continue -ex next -ex 'diff t__tile pass 23'
expect_contains "diff fallback: no counterpart by data" "no counterpart in pass 23: it has no statement reading hidden_states[0:16, 0:64] a 2nd time" "$out"
expect_contains "diff fallback: the same position" "at the same position instead (AIV0, call 2 of oproj_block_aiv with b0=0, o0=64, arrival 1 at line 108): this execution reads hidden_states[0:16, 0:64]; the same point of pass 23 reads hidden_states[0:16, 64:128]" "$out"
expect_contains "diff fallback: compared there" "t__tile vs pass 23: max_abs_diff" "$out"
echo "why_planted: $n copies, every one named at its edit"

#!/bin/sh
# Multi-rank: the pattern of pypto-lib's deepseek_v4 lm_head on our
# tests/data/multirank/column_halves (2 ranks; its 00_frontend.py says how).
#  * An Inline function the chip orchestrator calls runs in line on the
#    host (InlineFunctions inlines it), not as a split kernel on two lanes;
#    the pl.split_aiv region inside its `with pl.spmd(2)` scope runs on both
#    lanes of every block, as OutlineIncoreScopes makes that scope a split
#    InCore kernel launched on 2 blocks.
#  * Two ranks remote-store the same rows of one window, unordered, in
#    disjoint columns: no race (an access is its rows of bytes, not the
#    extent from its first byte to its last).
# Hand-derived golden: inputs[r][i, j] = 4i + j + 1 + 100r; lane l of block
# b stores rows 2l..2l+1 (aiv_shard, UP_DOWN) of rank r's input at columns
# 4r..4r+3 of rank b's window, so out[d][i, 4r + j] = inputs[r][i, j] on
# both ranks. Then, mutated so that both ranks store at column 0: a race,
# named with the overlapping bytes of the two stores.
set -e
. "$top_srcdir/tests/cli/lib.sh"
tmp=$(mktemp -d) || fail mktemp
trap 'rm -rf "$tmp"' EXIT
c="$tmp/column_halves"
cp -R "$top_srcdir/tests/data/multirank/column_halves" "$c"
chmod -R u+w "$c"
for sched in fixed random:1 random:5 random:9; do
    run_ptodb --nx --batch --schedule "$sched" "$c"
    expect_eq "$sched: exit status" 0 "$rc"
    for o in rank0.out rank1.out; do
        expect_contains "$sched: $o" "validate tensor: '$o', max_abs_diff: 0.000000e+00, pass: True" "$out"
    done
done

f="$c/passes_dump/00_frontend.py"
sed -i 's/\[aiv_id \* 2, pl.cast(my_rank, pl.INDEX) \* 4\]/[aiv_id * 2, 0]/' "$f"
line=$(grep -n 'pld.tensor.remote_store' "$f" | cut -d: -f1)
for sched in fixed random:1 random:5; do
    run_ptodb --nx --batch --schedule "$sched" "$c"
    expect_eq "race ($sched): exit status" 1 "$rc"
    case "$out" in
    *"race on window data_buf of rank 0 (bytes 0 to 47)"* | *"race on window data_buf of rank 0 (bytes 64 to 111)"* | \
        *"race on window data_buf of rank 1 (bytes 0 to 47)"* | *"race on window data_buf of rank 1 (bytes 64 to 111)"*) ;;
    *) fail "race ($sched): the two rows, by their bytes: $out" ;;
    esac
    expect_contains "race ($sched): at its line" "00_frontend.py:$line:17" "$out"
done
exit 0

#!/bin/sh
# Multi-rank programs a device runs correctly (docs/multirank.md, "Checks"
# and "Case layout"): our tests/data/multirank/exact_regions, 2 ranks.
#  * NR = pl.dynamic("NR") is bound in the host orchestrator from the host
#    tensor's shape (its rank axis is the dynamic one), and the windows are
#    sized with it (PyPTO distributed_codegen.cpp:317-323, 454-513);
#    ranks.txt gives the buffers' sizes as expressions of NR.
#  * a put whose peer is the rank itself is one access of its row, not a
#    write of the whole window (the rank's own put races with nothing);
#  * a local tile.store is an access of the region stored: rank r writes row
#    r+1 of its window while rank r+1 reads row r of it, unordered and
#    disjoint: no race.
# Hand-derived goldens: inputs rank0 = 1, rank1 = 2 ([1, 8] each); after
# the barrier every window holds rows [1, 2]; rank r reads its left
# neighbour's row `left` (the other rank's input) and stores it + 10 into
# its row `right`: out_a[r] = row r = r + 1; out_b[0] = 2 + 10 = 12,
# out_b[1] = 1 + 10 = 11.
# Then, mutated: the store into row my_rank (the row the right neighbour
# reads) is a race, named with its exact bytes; a host tensor.slice past
# the host tensor is an error, not zeros.
set -e
. "$top_srcdir/tests/cli/lib.sh"
tool="$top_builddir/tests/unit/check_data_tool"
tmp=$(mktemp -d) || fail mktemp
trap 'rm -rf "$tmp"' EXIT
c="$tmp/exact_regions"
cp -R "$top_srcdir/tests/data/multirank/exact_regions" "$c"
chmod -R u+w "$c"
mkdir -p "$c/data/in/rank0" "$c/data/in/rank1" "$c/data/out/rank0" "$c/data/out/rank1"
"$tool" fill pt "$c/data/in/rank0/inputs.pt" fp32 1 1 8
"$tool" fill pt "$c/data/in/rank1/inputs.pt" fp32 2 1 8
"$tool" fill pt "$c/data/out/rank0/out_a.pt" fp32 1 1 8
"$tool" fill pt "$c/data/out/rank1/out_a.pt" fp32 2 1 8
"$tool" fill pt "$c/data/out/rank0/out_b.pt" fp32 12 1 8
"$tool" fill pt "$c/data/out/rank1/out_b.pt" fp32 11 1 8
f="$c/passes_dump/00_frontend.py"
cp "$f" "$tmp/orig.py"
for sched in fixed random:1 random:5 random:9; do
    run_ptodb --batch --schedule "$sched" "$c"
    expect_eq "$sched: exit status" 0 "$rc"
    for o in rank0.out_a rank0.out_b rank1.out_a rank1.out_b; do
        expect_contains "$sched: $o" "validate tensor: '$o', max_abs_diff: 0.000000e+00, pass: True" "$out"
    done
done

# the store into the row the right neighbour reads: a race, its exact bytes
sed -i 's/pl.tile.store(bumped, \[right, 0\], data)/pl.tile.store(bumped, [my_rank, 0], data)/' "$f"
store_line=$(grep -n 'pl.tile.store(bumped' "$f" | cut -d: -f1)
for sched in fixed random:1 random:5; do
    run_ptodb --batch --schedule "$sched" "$c"
    expect_eq "race ($sched): exit status" 1 "$rc"
    case "$out" in
    *"race on window data_buf of rank 1 (bytes 32 to 63)"* | *"race on window data_buf of rank 0 (bytes 0 to 31)"*) ;;
    *) fail "race ($sched): the row, by its bytes: $out" ;;
    esac
    expect_contains "race ($sched): the store" "a write (a local write) by rank" "$out"
    expect_contains "race ($sched): at its line" "00_frontend.py:$store_line:9" "$out"
done

# a host slice past the host tensor: an error
cp "$tmp/orig.py" "$f"
sed -i 's/pl.tensor.slice(inputs, \[1, 1, 8\], \[r, 0, 0\]/pl.tensor.slice(inputs, [1, 1, 8], [r + 1, 0, 0]/' "$f"
run_ptodb --batch "$c"
expect_eq "host slice: exit status" 1 "$rc"
expect_contains "host slice: an error" "in host_orch: tensor.slice: in the host orchestrator: axis 0 of the host tensor has extent 2, the slice takes 2 to 3" "$out"

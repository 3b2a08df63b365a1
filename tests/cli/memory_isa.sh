#!/bin/sh
# The memory model against pto-isa's CPU simulator (issue 42): tests/data/isa/
# memory places tiles on overlapping Vec bytes and reads one after another
# wrote over it (a [16, 64] FP32 tile half under another FP32 tile, under an
# FP16 tile, under a small tile 96 bytes in); its goldens are the simulator
# running the same placements (TASSIGN), written with the pass file by
# scripts/gen_isa_expected. ptodb must give the simulator's bytes: every
# output equal at rtol = atol = 0, and `x/` of the stored output shows the
# same words as the golden .npy in the rows the overlap changed. Each read is
# a clobber report; with --memcheck=off (a MemRef is a name) no output
# agrees, so it is the memory model that makes them agree.
. "$top_srcdir/tests/cli/lib.sh"
case_dir="$top_srcdir/tests/data/isa/memory"
pass="$case_dir/passes_dump/35_after_AllocateMemoryAddr.py"

run_ptodb --batch "$case_dir"
expect_eq "--batch exit (MEMFAULT)" 1 "$rc"
for o in o1 o2 o3; do
    expect_contains "$o agrees with pto-isa" "validate tensor: '$o', max_abs_diff: 0.000000e+00, pass: True" "$out"
done
for at in "17:113 in overlap_kernel" "28:114 in dtype_kernel" "39:114 in offset_kernel"; do
    expect_contains "clobber $at" "memory fault: clobber at $pass:$at" "$out"
done
expect_contains "overlap's writer" "wrote:  b__tile (MemRef mem_vec_2, Vec [2048, 6144))" "$out"
expect_contains "dtype's writer" "wrote:  h__tile (MemRef mem_vec_2, Vec [17408, 19456))" "$out"
expect_contains "offset's writer" "wrote:  c__tile (MemRef mem_vec_2, Vec [32864, 33376))" "$out"

run_ptodb --batch --memcheck=off "$case_dir"
for o in o1 o2 o3; do
    case "$out" in
    *"validate tensor: '$o', max_abs_diff: 0.000000e+00"*) fail "$o agrees without the memory model: $out" ;;
    esac
done

# golden WORDS FILE INDEX: WORDS 32-bit words of the .npy FILE's data from
# element INDEX, as x/ prints them (0x%08x)
golden() {
    hl=$(od -A n -t u2 -j 8 -N 2 "$2" | tr -d ' ')
    od -A n -t x4 -v -j $((10 + hl + 4 * $3)) -N $((4 * $1)) "$2" | tr -s ' \n' ' ' |
        sed 's/^ //; s/ $//; s/\([0-9a-f]\{8\}\)/0x\1/g'
}
# the first words of a row the overlap changed, at each kernel's return:
# overlap row 8 (b's row 0 under it), dtype row 4 (FP16 bits), offset row 1
run_ptodb --nw --nx "$pass" -ex 'break 19' -ex 'break 30' -ex 'break 41' \
    -ex run -ex 'x/4x o__tile[8]' -ex continue -ex 'x/4x o__tile[4]' -ex continue -ex 'x/4x o__tile[1]' -ex quit
expect_eq "exit" 0 "$rc"
for row in "o1 8 512" "o2 4 256" "o3 1 64"; do
    set -- $row
    want=$(golden 4 "$case_dir/data/out/$1.npy" "$3")
    got=$(printf '%s\n' "$out" | sed -n "s/^\[$3\]:[[:space:]]*//p" | tr -s ' \t' ' ' | head -n 1)
    [ -n "$got" ] || fail "$1: no x/ line [$3]: $out"
    expect_eq "$1 row $2 bytes" "$want" "$got"
done
exit 0

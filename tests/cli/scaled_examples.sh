#!/bin/sh
# scripts/gen_scaled.py (the benchmark corpus of scripts/bench.d/scaled) at a
# small shape, written into a temp folder: every dump passes --check, every
# pass of both cases (the scaled mlp example and the decode layer) passes
# --batch against the numpy goldens, and a planted miscompile (the decode
# layer's final residual subtracted instead of added in one stage) fails
# that stage and only that one.
set -e
. "$top_srcdir/tests/cli/lib.sh"
[ -x /usr/bin/python3 ] || skip "/usr/bin/python3 not found"
/usr/bin/python3 -c 'import numpy' 2>/dev/null || skip "numpy not installed for /usr/bin/python3"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
/usr/bin/python3 "$top_srcdir/scripts/gen_scaled.py" "$tmp" --tokens 16 --hidden 128 \
    --inter 192 --heads 4 --kv-heads 2 --cache 64 >"$tmp/gen.log" 2>&1 ||
    fail "gen_scaled.py: $(cat "$tmp/gen.log")"

for case in mlp_16_128_192 decode_16_128_192_64; do
    dir=$tmp/$case
    [ -d "$dir/passes_dump" ] || fail "gen_scaled.py wrote no $dir/passes_dump"
    run_ptodb --check "$dir/passes_dump"
    expect_eq "--check $case: exit status" 0 "$rc"
    expect_eq "--check $case: stderr" "" "$err"
    run_ptodb --batch "$dir"
    expect_eq "--batch $case: exit status ($out $err)" 0 "$rc"
done
expect_contains "decode layer: every pass" "7 passes: 7 pass, 0 fail" "$out"
expect_contains "decode layer: the identical copies run once" "2 distinct pass files of 7" "$out"

# A miscompile in the mixed-kernel stage only: out = resid1 - down.
dump=$tmp/decode_16_128_192_64/passes_dump/22_after_ExpandMixedKernel.py
sed 's/pl.tile.add(resid1__tile, down__tile)/pl.tile.sub(resid1__tile, down__tile)/' "$dump" >"$tmp/d" &&
    cat "$tmp/d" >"$dump"
grep -q 'pl.tile.sub(resid1__tile' "$dump" || fail "planting the bug did not change $dump"
run_ptodb --batch "$tmp/decode_16_128_192_64"
expect_eq "planted bug: exit status" 1 "$rc"
expect_contains "planted bug: verdicts" "7 passes: 6 pass, 1 fail; first failing pass: 22_after_ExpandMixedKernel" "$out"

#!/bin/sh
# ptodb --run on small hostile / cross-core dumps (tests/data/xcore/*.py):
# deep recursion is an error and not a crash, REF's codegen failures and
# cross-core ValueErrors are reported with their place, dual dispatch runs.
# The 4x4 fp32 data files are written here (zeros), so nothing binary is kept.
. "$top_srcdir/tests/cli/lib.sh"
set -e
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM

npy_4x4() { # npy_4x4 FILE [ones]: a version 1.0 .npy of a 4x4 '<f4' array of zeros (or ones)
    hdr="{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4), }"
    pad=$((128 - 10 - ${#hdr} - 1)) # header length 118 (\166): 128-byte header
    {
        printf '\223NUMPY\001\000\166\000'; printf '%s' "$hdr"; printf '%*s\n' "$pad" ''
        if [ "${2:-}" = ones ]; then
            i=0; while [ $i -lt 16 ]; do printf '\000\000\200\077'; i=$((i + 1)); done
        else
            head -c 64 /dev/zero
        fi
    } >"$1"
}
npy_zeros_4x4() { npy_4x4 "$1"; }

mkcase() { # mkcase NAME: a case folder around tests/data/xcore/NAME.py
    d="$tmp/$1"
    mkdir -p "$d/passes_dump" "$d/data/in" "$d/data/out"
    cp "$top_srcdir/tests/data/xcore/$1.py" "$d/passes_dump/22_after_ExpandMixedKernel.py"
    npy_zeros_4x4 "$d/data/in/a.npy"
    npy_zeros_4x4 "$d/data/out/out.npy"
}

mkcase recursion
run_ptodb --run "$tmp/recursion"
expect_eq "recursion exit" 1 "$rc"
expect_contains "recursion error" "RecursionError: call depth exceeds 1000 frames on core host (calling down)" "$out"
expect_contains "recursion place" "22_after_ExpandMixedKernel.py:8:" "$out"

mkcase conflict
run_ptodb --run --semantics=ref "$tmp/conflict"
expect_eq "conflict exit" 1 "$rc"
expect_contains "conflict" "REF would fail here: " "$out"
expect_contains "conflict message" "ValueError: Conflicting cross-core split kwargs in group g: [0, 1]" "$out"
# the device takes each pipe op's own split (a multi-mode split_aiv kernel
# is one): here AIC pushes split=1 halves that the AIV's split=0 pop never
# sees, a deadlock
run_ptodb --run "$tmp/conflict"
expect_eq "conflict exit (device)" 1 "$rc"
expect_contains "conflict (device)" "tpop_from_aic timeout (split=0, lane=0)" "$out"
expect_contains "conflict (device) deadlock" "ptodb: deadlock in group g" "$out"

mkcase badsplit
run_ptodb --run "$tmp/badsplit"
expect_eq "badsplit exit" 1 "$rc"
expect_contains "badsplit wrapper" "Mixed-kernel execution failed in g_aic (lane=None) for g" "$out"
expect_contains "badsplit error" "22_after_ExpandMixedKernel.py:8:9: in g_aic: REF would fail here: tile.tpush_to_aiv: ValueError: Unsupported split mode for push_to_aiv: 5" "$out"

mkcase dual
run_ptodb --run "$tmp/dual"
expect_eq "dual exit: $out" 0 "$rc"
expect_contains "dual result" "validate tensor: 'out', max_abs_diff: 0.000000e+00, pass: True" "$out"
for s in aiv-first random:3 random:11; do
    run_ptodb --run "$tmp/dual" --schedule=$s --slot-depth=1
    expect_eq "dual exit ($s, depth 1)" 0 "$rc"
done
# a user-written split_aiv region with an aiv_shard (REF cannot run it): ptodb
# runs the kernel on two lanes, each shards its half and stores it
mkcase region
npy_4x4 "$tmp/region/data/in/a.npy" ones
npy_4x4 "$tmp/region/data/out/out.npy" ones
run_ptodb --run "$tmp/region"
expect_eq "region exit: $out" 0 "$rc"
expect_contains "region note" "note: REF cannot run this file" "$out"
expect_contains "region result" "validate tensor: 'out', max_abs_diff: 0.000000e+00, pass: True" "$out"
exit 0

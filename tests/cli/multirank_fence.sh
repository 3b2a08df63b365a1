#!/bin/sh
# The fence contract (docs/multirank.md, "The fence contract"): PyPTO's
# InsertCommFence inserts a system.cacheinvalid + system.fence after every
# publishing write and a whole-GM system.cacheinvalid() after every wait,
# and nothing checks them (its docs: ptoas 0.52 accepts a module without
# them, and the device then reads stale data). Unedited, no program of
# ../shared/multirank breaks it on any pass (multirank_cases.sh runs them
# all). Here markers are taken out of real InsertCommFence dumps, one at a
# time, in a temporary copy, and --batch must report the breach at the
# statement the contract names: the notify that releases the write (and
# the write), or the read after the wait (and the wait). Every line number
# and column is found in the case's own file. Pass 49 is not edited and stays PASS; --memcheck off
# turns the check off with the rest of the memory model.
set -e
. "$top_srcdir/tests/cli/lib.sh"

# Ours first (tests/data/multirank/fence_contract): a remote store, its
# notify, the peer's wait and load. 00 has no markers and comes before
# InsertCommFence (not checked); 01 has the pass's markers; 02 drops the
# fence after the remote store, 03 the cacheinvalid() after the wait. No
# goldens: the verdicts without a breach are FAIL (nothing compared).
own=$top_srcdir/tests/data/multirank/fence_contract
run_ptodb --batch "$own"
pd=$own/passes_dump
expect_contains "00: not checked" "00_frontend                FAIL" "$out"
expect_contains "01: the contract holds" "01_after_InsertCommFence   FAIL" "$out"
expect_contains "02: breach" "02_after_DropFence         ERROR" "$out"
expect_contains "03: breach" "03_after_DropInvalidate    ERROR" "$out"
n=$(printf '%s\n' "$out$err" | grep -c "fence contract" || true)
expect_eq "two breaches ($out$err)" 2 "$n"
expect_contains "02's report" "$pd/02_after_DropFence.py:14:9: fence contract: rank 1 notifies here while its \
write to window data_buf of rank 0 (pld.tile.remote_store at 13:9) is not yet visible (no system.fence after it)" "$out$err"
expect_contains "03's report" "$pd/03_after_DropInvalidate.py:21:9: fence contract: rank 0 reads window data_buf \
of rank 0 (a load) after its wait at 20:9 with no system.cacheinvalid() between them" "$out$err"

root=${PTODB_MULTIRANK:-$(dirname "$PTODB_FIXTURES")/multirank}
if [ ! -d "$root" ]; then
    echo "note: multi-rank cases not found at $root (set PTODB_MULTIRANK): the planted real dumps are not run" >&2
    exit 0
fi
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM

pass=48_after_InsertCommFence
planted=0

# plant NAME CASE: a fresh copy of CASE as $tmp/NAME; sets f (its pass 48)
plant() {
    rm -rf "${tmp:?}/$1"
    cp -r "$root/$2" "$tmp/$1"
    f=$tmp/$1/passes_dump/$pass.py
}

# first_after PATTERN FROM: the first line number at or after FROM matching PATTERN
first_after() {
    awk -v from="$2" -v pat="$1" 'NR >= from && index($0, pat) { print NR; exit }' "$f"
}

# col_of LINE: the column of LINE's statement
col_of() {
    sed -n "${1}p" "$f" | awk '{ match($0, /^ */); print RLENGTH + 1 }'
}

# breach NAME WHAT...: --batch on $tmp/NAME reports at $at; each WHAT is in the report
breach() {
    name=$1
    shift
    run_ptodb --batch "$tmp/$name"
    expect_eq "$name: --batch exit status" 1 "$rc"
    expect_contains "$name: pass 48 fails" "$pass                ERROR" "$out"
    expect_contains "$name: pass 49 passes" "49_after_MaterializeValidShapeSymbols   PASS" "$out"
    expect_contains "$name: the report's place" "$pass.py:$at:$(col_of "$at"): fence contract: " "$out$err"
    for what in "$@"; do
        expect_contains "$name: the report" "$what" "$out$err"
    done
    planted=$((planted + 1))
}

case=dist_put_ring_p2_910b
if [ -d "$root/$case" ]; then
    # (a) the fence after the put: the notify releases the put's data
    plant put_fence $case
    put=$(first_after 'pld.tile.put(' 1)
    fence=$(first_after 'pl.system.fence()' "$put")
    sed -i "${fence}d" "$f"
    at=$(first_after 'pld.system.notify(' "$put")
    breach put_fence "rank 0 notifies here while its write to window" "(pld.tile.put at $put:$(col_of "$put"))" \
        "(no system.fence after it)"
    run_ptodb --batch --memcheck off "$tmp/put_fence"
    expect_eq "put_fence, --memcheck off: exit status ($out$err)" 0 "$rc"

    # (b) the invalidate after the wait: the load after it may be stale
    plant put_wait $case
    wait=$(first_after 'pld.system.wait(' 1)
    inv=$(first_after 'pl.system.cacheinvalid()' "$wait")
    [ "$inv" = $((wait + 1)) ] || fail "$case: no cacheinvalid() right after the wait at $wait"
    sed -i "${inv}d" "$f"
    at=$(first_after 'pl.tile.load(' "$wait")
    breach put_wait " reads window " "after its wait at $wait:$(col_of "$wait") with no system.cacheinvalid() between them"

    # (c) the region invalidate after the local store: its fence alone does not publish it
    plant put_store $case
    store=$(first_after 'pl.tile.store(' 1)
    inv=$((store + 1))
    expect_contains "$case: a region cacheinvalid after the store" "pl.system.cacheinvalid(" "$(sed -n "${inv}p" "$f")"
    sed -i "${inv}d" "$f"
    at=$(first_after 'pld.system.notify(' "$store")
    breach put_store "(a store at $store:$(col_of "$store"))" "(no system.cacheinvalid of the window and system.fence after it)"
else
    echo "note: $case not in $root: its three plants are not run" >&2
fi

case=dist_allreduce_intrinsic_s17_p2_910b
if [ -d "$root/$case" ]; then
    # (d) the fence after the last store into the window (the reduced
    # result), before the epilogue's notify: invalidated, never fenced
    plant s17_fence $case
    store=$(grep -n 'pl.tile.store(' "$f" | sed -n 2p | cut -d: -f1)
    fence=$(first_after 'pl.system.fence()' "$store")
    [ "$fence" = $((store + 2)) ] || fail "$case: no cacheinvalid + fence after the store at $store"
    sed -i "${fence}d" "$f"
    at=$(first_after 'pld.system.notify(' "$store")
    breach s17_fence "(a store at $store:$(col_of "$store"))" "(no system.fence after its system.cacheinvalid)"
else
    echo "note: $case not in $root: its plant is not run" >&2
fi

case=dist_barrier_remote_load_p2_910b
if [ -d "$root/$case" ]; then
    # (e) the invalidate after the barrier's wait: the remote_load after it
    plant barrier_wait $case
    wait=$(first_after 'pld.system.wait(' 1)
    inv=$(first_after 'pl.system.cacheinvalid()' "$wait")
    sed -i "${inv}d" "$f"
    at=$(first_after 'pld.tile.remote_load(' "$wait")
    breach barrier_wait "(pld.tile.remote_load) after its wait at $wait:$(col_of "$wait")"
else
    echo "note: $case not in $root: its plant is not run" >&2
fi

echo "2 breaches of ours and $planted planted in real dumps found at their statements"

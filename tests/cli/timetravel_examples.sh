#!/bin/sh
# The reverse-execution oracle (tests/timetravel/seek_oracle.c, as
# timetravel_fixtures.sh) on the examples in the source tree, so it runs
# without the fixture cases too: every moment of every pass with
# cross-core queues (every pass of spmd, memory and deadlock), boundaries
# and all, the pass that errors included (deadlock's pass stops at the
# deadlock: the moments before it):
# seek @N, seek POSITION, reverse-step + step, reverse-next + next,
# reverse-finish and reverse-continue + continue from each core that
# arrived there must land where the straight run's log says, with its
# state hash.
. "$top_srcdir/tests/cli/lib.sh"
driver="$top_builddir/tests/timetravel/seek_oracle"
[ -x "$driver" ] || fail "missing $driver"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_STATE_HOME="$tmp/state" HOME="$tmp/home"
# mlp, mlp-broken: cross-core queues; spmd: the blocks of an SPMD launch
# (the frame's block index, --semantics=device); memory: the memory model's
# bytes (a checkpoint part) with every pass, queues or not; deadlock: a
# pass whose queues deadlock (an error at its last moment)
for c in mlp mlp-broken spmd memory deadlock; do
    all=0
    case $c in spmd | memory | deadlock) all=1 ;; esac
    seek_oracle_all "$c" "$top_srcdir/examples/$c" --all $all
done

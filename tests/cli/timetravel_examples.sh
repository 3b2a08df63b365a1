#!/bin/sh
# The reverse-execution oracle (tests/timetravel/seek_oracle.c, as
# timetravel_fixtures.sh) on the examples in the source tree, so it runs
# without the fixture cases too: 200 moments of every pass with cross-core
# queues; seeks and reverse-step + step must hash as a straight run does.
. "$top_srcdir/tests/cli/lib.sh"
driver="$top_builddir/tests/timetravel/seek_oracle"
[ -x "$driver" ] || fail "missing $driver"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_STATE_HOME="$tmp/state" HOME="$tmp/home"
# mlp, mlp-broken: cross-core queues; spmd: the blocks of an SPMD launch
# (the frame's block index, --semantics=device); memory: the memory model's
# bytes (a checkpoint part) with every pass, queues or not
for c in mlp mlp-broken spmd memory; do
    all=0
    case $c in spmd | memory) all=1 ;; esac
    out=$("$driver" "$top_srcdir/examples/$c" --positions 200 --all $all 2>"$tmp/err") ||
        { head -20 "$tmp/err" >&2; fail "$c: reverse execution differs from a straight run: $out"; }
    echo "  $c: $out"
    case "$out" in
    "0 passes"*) fail "$c: no pass with cross-core queues was checked" ;;
    esac
done

#!/bin/sh
# Replays every fuzz harness's seed corpus and regression inputs
# (tests/fuzz/regress/HARNESS/) through the harness code built without
# libFuzzer (tests/fuzz/replay_HARNESS): a crash, sanitizer report or
# failing exit fails the test (and, under make check-valgrind, a valgrind
# error or definitely lost block). Needs no clang.
set -u
. "$top_srcdir/tests/fuzz/seed_lists.sh"
cd "$top_srcdir" || exit 1
status=0
for h in $FUZZ_HARNESSES; do
    paths=""
    for p in $(fuzz_seeds "$h") "tests/fuzz/regress/$h"; do
        [ -e "$p" ] && paths="$paths $p"
    done
    [ -n "$paths" ] || continue
    # Under make check-valgrind the harnesses run under valgrind too, as the
    # Check programs do (PTODB_VALGRIND is the command, split into words).
    # shellcheck disable=SC2086
    if ! ${PTODB_VALGRIND:-} "$top_builddir/tests/fuzz/replay_$h" $paths; then
        echo "FAIL: replay_$h on:$paths"
        status=1
    fi
done
exit $status

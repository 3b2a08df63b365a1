# Helpers sourced by the shell tests. The harness exports PTODB (the built
# binary), top_srcdir, top_builddir and PTODB_FIXTURES.
set -u
: "${PTODB:?run through make check}"
: "${top_srcdir:?run through make check}"

fail() { echo "FAIL: $*" >&2; exit 1; }

# Under `make check-valgrind` (PTODB_VALGRIND set) ptodb runs 20 to 50 times
# slower: the bounds of waits for something to show (a screen, a line in a
# file) and of hang guards (coreutils' timeout) are multiplied by
# wait_scale. They only decide when a test gives up, never how long it
# takes when all goes well.
wait_scale=1
if [ -n "${PTODB_VALGRIND:-}" ]; then wait_scale=20; fi
skip() { echo "SKIP: $*" >&2; exit 77; }

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
    if [ "$2" != "$3" ]; then
        printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3" >&2
        exit 1
    fi
}

# expect_contains WHAT NEEDLE HAYSTACK
expect_contains() {
    case "$3" in
    *"$2"*) ;;
    *) printf 'FAIL: %s: %s not found in:\n%s\n' "$1" "$2" "$3" >&2; exit 1 ;;
    esac
}

# run_ptodb ARGS...: sets out, err, rc. A test may set run_wrapper to a
# command prefix (for instance "timeout 60").
run_wrapper=
run_ptodb() {
    _tmp_out=$(mktemp) && _tmp_err=$(mktemp) || fail "mktemp"
    set +e
    $run_wrapper "$PTODB" "$@" >"$_tmp_out" 2>"$_tmp_err"
    rc=$?
    set -e
    out=$(cat "$_tmp_out"); err=$(cat "$_tmp_err")
    rm -f "$_tmp_out" "$_tmp_err"
}

fixtures_or_skip() {
    [ -d "$PTODB_FIXTURES" ] || skip "fixtures not found at $PTODB_FIXTURES"
}

# seek_oracle_all NAME CASE [ARGS...]: the reverse-execution oracle
# (tests/timetravel/seek_oracle.c) over every moment of CASE's passes;
# prints its counts, fails on a difference or when no pass was checked.
# Needs $tmp (its stderr goes there).
seek_oracle_all() {
    _so_name=$1 _so_case=$2
    shift 2
    _so_out=$("$top_builddir/tests/timetravel/seek_oracle" "$_so_case" --positions all --twins all "$@" \
        2>"$tmp/err") ||
        { head -20 "$tmp/err" >&2; fail "$_so_name: reverse execution differs from a straight run: $_so_out"; }
    echo "  $_so_name: $_so_out"
    case "$_so_out" in
    "0 distinct passes"*) fail "$_so_name: no pass was checked" ;;
    esac
}
